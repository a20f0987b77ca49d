"""`cardgen build`: every component of a game → files a person can print, cut and play with.

For each component: render every item's faces through its layouts (once per item, not per copy), prepare each
distinct face once (text fitted, glyphs and images checked) into a `ComponentJob`, and hand the job to the writer of
the chosen format (`WRITERS`). Text that does not fit is collected for all components and reported together; a
component with overflowing text is not written unless overflow is allowed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen import output
from cardgen.data.games import Component, Game, Item
from cardgen.errors import DataError, Problem
from cardgen.formulas import formulas
from cardgen.render import cache, stale
from cardgen.render.draw import ElementError, FaceDrawer, PreparedFace, check_labels, check_stamp
from cardgen.render.fonts import load_roles
from cardgen.render.imposed import write_print_pdf
from cardgen.render.ink import light_face
from cardgen.render.jobs import (
    LIGHT_SUFFIX,
    PACKED_FORMATS,
    BuildReport,
    ComponentJob,
    Entry,
    FaceSet,
    FittedText,
    OutputFile,
    OverflowReport,
    PrintOptions,
    component_bleed,
    face_size,
    game_notes,
)
from cardgen.render.kit import Palette
from cardgen.render.layouts import Layouts
from cardgen.render.markup import MarkupError
from cardgen.render.packing import shared_sheets

if TYPE_CHECKING:
    from cardgen.render.contrast import Measured, TextContrast

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Writer:
    """One output format: where a component's output goes in the game's folder, the function that writes it, and
    whether small components share sheets in it (`render/packing.py`)."""

    target: Callable[[Path, str], Path]
    write: Callable[[ComponentJob, Path], OutputFile]
    packs: bool = False


def _imported(module: str, name: str) -> Callable[[ComponentJob, Path], OutputFile]:
    """A writer imported when first used: a build in one format does not load the others (Tabletop Simulator's
    pydantic models, the shop's image code)."""

    def write(job: ComponentJob, folder: Path) -> OutputFile:
        function: Callable[[ComponentJob, Path], OutputFile] = getattr(importlib.import_module(module), name)
        return function(job, folder)

    return write


WRITERS: dict[str, Writer] = {
    "pdf": Writer(lambda folder, component: folder / f"{component}.pdf", write_print_pdf,
                  packs="pdf" in PACKED_FORMATS),
    "shop-pdf": Writer(lambda folder, component: folder / "shop" / f"{component}.pdf",
                       _imported("cardgen.render.shop", "write_shop_pdf")),
    "png": Writer(lambda folder, component: folder / component, _imported("cardgen.render.shop", "write_png_faces")),
    "shop-images": Writer(lambda folder, component: folder / "shop-images" / component,
                          _imported("cardgen.render.shop", "write_shop_images")),
    "ttp": Writer(lambda folder, component: folder / "ttp" / component, _imported("cardgen.render.ttp", "write_ttp")),
    "tts": Writer(lambda folder, component: folder / "tts" / component,
                  _imported("cardgen.render.tts", "write_tts_component")),
}  # fmt: skip


class ItemsByComponent(Mapping[str, list[dict[str, Any]]]):
    """Each component's items as layouts see them (`components["unit-cards"]`), made on first asking: few layouts
    ask, and making them all for every build held a copy of every item's fields."""

    def __init__(self, components: Sequence[Component]):
        self._components = {c.id: c for c in components}
        self._made: dict[str, list[dict[str, Any]]] = {}

    def __getitem__(self, name: str) -> list[dict[str, Any]]:
        if name not in self._made:
            items = self._components[name].items
            self._made[name] = [{**i.fields, "id": i.id, "count": i.count, "type": i.type} for i in items]
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._components)

    def __len__(self) -> int:
        return len(self._components)


class GameRenderer:
    """Renders one game's components: its layouts, fonts, palette and icons, set up once per build."""

    def __init__(self, game: Game, layouts: Layouts, fonts_dir: Path):
        self.game = game
        self.layouts = layouts
        settings = game.manifest.settings
        self.palette = Palette(settings.colours)
        self.roles = load_roles(
            settings.fonts, fonts_dir, game.folder, lambda role: game.where(("settings", "fonts", role))
        )
        check_labels(game, self.roles)
        if layouts.stamp:
            check_stamp(layouts.stamp, game, self.roles)
        self.drawer = FaceDrawer(self.palette, self.roles, settings.icons, game.folder)
        self.body_font = self.roles["body"].regular
        self.facts = {name: fact.value for name, fact in game.rules.facts.items()}
        self.citations = {name: fact.cite for name, fact in game.rules.facts.items()}
        self.formulas = formulas(game.id, game)  # the rules' arithmetic, written once (cardgen/formulas.py)
        # every component's items, so a reference sheet can print a table of another component's cards
        self.items_by_component = ItemsByComponent(game.readable or game.components)
        self.cache = cache.for_game(game, fonts_dir)  # None unless the build keeps a cache (render/cache.py)

    def bleed(self, component: Component) -> float:
        return component_bleed(self.game, component)

    def job(self, component: Component, options: PrintOptions, report: BuildReport) -> ComponentJob:
        """Render and prepare every distinct face of a component (overflow goes to `report`), ready for a writer."""
        faces = FaceSet()
        entries: list[Entry] = []
        size = face_size(component, options.paper_size)
        bleed = self.bleed(component)
        shop = options.print_shop
        if shop is not None and bleed > 0:
            bleed = shop.bleed  # a shop's files carry its own bleed, whatever the game's
        shared = {
            "face": {
                "width": size.width,
                "height": size.height,
                "bleed": bleed,
                "shape": component.shape,
            },
            "component": {
                "id": component.id,
                "title": component.title,
                "kind": component.kind,
                "count": component.count,
            },
            "game": {
                "id": self.game.id,
                "title": self.game.title,
                "players": list(self.game.players),
                "language": self.game.language,
            },
            "facts": self.facts,
            "cite": self.citations,
            "components": self.items_by_component,
            "formula": self.formulas,
        }
        for item in component.items:
            if item.front is None:  # the loader allows this for pieces only, which are never printed
                raise DataError(f"{self.game.id}: {component.id}: '{item.id}' has no front layout")
            front = self._face(component, item, item.front, "front", shared, faces, report, options.ink)
            back = (
                self._face(component, item, item.back, "back", shared, faces, report, options.ink)
                if item.back
                else None
            )
            entries.extend(Entry(item, front, back) for _ in range(item.count))
            faces.item_faces[item.id] = (front, back)
            faces.uses[front] += item.count
            if back:
                faces.uses[back] += item.count
        manifest = self.game.manifest
        return ComponentJob(
            self.game.id, self.game.title, component, faces, entries, options, self.drawer, self.body_font, size, bleed,
            designer=manifest.designer or "", version=manifest.version or "",
        )  # fmt: skip

    def _face(
        self, component: Component, item: Item, layout: str, side: str, shared: dict[str, Any], faces: FaceSet,
        report: BuildReport, ink: str = "full",
    ) -> str:  # fmt: skip
        who = f"{self.game.id}: {component.id}: card '{item.id}' {side}"
        context = {
            **shared,
            "card": {**item.fields, "id": item.id, "count": item.count, "type": item.type},
            "face": {**shared["face"], "side": side},
            "ink": ink,  # full | light: a layout may design its own light variant (then drawn as written)
        }
        markup, bones = self.layouts.rendered(self.game.id, layout, context, who)
        designed = ink == "light" and markup != self.layouts.render(
            self.game.id, layout, {**context, "ink": "full"}, who
        )
        key = hashlib.sha1(markup.encode()).hexdigest()[:16]
        if key not in faces.faces:
            width, height = shared["face"]["width"], shared["face"]["height"]

            def prepare() -> PreparedFace:
                try:
                    face = self.drawer.parse(markup, bones)
                except MarkupError as exc:
                    where = self.layouts.markup_problem(exc, self.game.id, layout, context, self.drawer.parse, who)
                    raise DataError(where) from None
                if ink == "light" and not designed:  # no light variant of its own: large dark areas become tints
                    face = light_face(face, self.palette.get, width, height)
                try:
                    return self.drawer.prepare(face, width, height, who)
                except ElementError as exc:  # named at the layout's line that wrote the element, when found
                    at = self.layouts.element_at(self.game.id, layout, context, self.drawer.parse, exc.element)
                    if at is None:
                        raise
                    raise DataError([_at_field(item, problem, at) for problem in exc.problems]) from None

            drawn = "designed" if designed else ink  # what the cache keys the prepared face by, with its markup
            prepared = self.cache.face(markup, drawn, width, height, prepare) if self.cache else prepare()
            faces.faces[key] = prepared
            faces.drawn[key] = hashlib.sha256(f"{drawn}\0{width}\0{height}\0{markup}".encode()).hexdigest()
            for overflow in prepared.overflows:
                where = (self.game.id, component.id, item.id, side, overflow.field)
                found = (overflow.overflow_mm, overflow.size, self.game.language)
                report.overflows.append(OverflowReport(*where, *found))
        return key


def _at_field(item: Item, problem: Problem, at: str) -> Problem:
    """A face's element that cannot be drawn, named where the fault is: an unknown icon written in a card's text
    at that field's data line (the layout line that draws it beside), anything else at the layout's line."""
    token = re.search(r"unknown icon '\{([^}:]+)", problem.message)
    if token is not None:
        written = re.compile(r"\{" + re.escape(token.group(1)) + r"[:}]")
        for name, value in item.fields.items():
            if isinstance(value, str) and written.search(value):
                return Problem(item.field_where(name), f"{problem.message}; drawn by {at}")
    return Problem(None, f"{at}: {problem}")


def build_game(
    game: Game,
    layouts: Layouts,
    fonts_dir: Path,
    out_dir: Path,
    options: PrintOptions,
    progress: Progress | None = None,
) -> BuildReport:
    """Build every printable component of a game into `out_dir/<game-id>/`; with `ink="both"`, each file twice: in
    full ink and, beside it, in light ink (`<component>-light-ink.pdf`)."""
    report = BuildReport(notes=game_notes(game))
    renderer = GameRenderer(game, layouts, fonts_dir)
    for ink in INKS.get(options.ink, (options.ink,)):
        suffix = LIGHT_SUFFIX if options.ink == "both" and ink == "light" else ""
        drawn = report if not suffix else BuildReport()  # the same text in both inks: its overflows said once
        _build_ink(renderer, out_dir, dataclasses.replace(options, ink=ink), drawn, suffix, progress)
        report.files.extend(_differing(drawn.files, report.files) if suffix else [])
    return report


def _differing(twins: list[OutputFile], files: list[OutputFile]) -> list[OutputFile]:
    """The light-ink twins that differ from their full-ink files; the others (nothing dark on them: the same bytes)
    are taken back, so a release holds no duplicate files."""
    full = {file.path.name: file.path for file in files}
    kept = []
    for twin in twins:
        original = full.get(twin.path.name.replace(LIGHT_SUFFIX, "", 1))
        if original is not None and output.pending(original).read_bytes() == output.pending(twin.path).read_bytes():
            output.unwrite(twin.path)
        else:
            kept.append(twin)
    return kept


INKS = {"both": ("full", "light")}  # --ink both: every file in each ink


def _build_ink(
    renderer: GameRenderer, out_dir: Path, options: PrintOptions, report: BuildReport, suffix: str,
    progress: Progress | None,
) -> None:  # fmt: skip
    game = renderer.game
    folder = out_dir / game.id
    writer = WRITERS[options.format]
    jobs = []
    for component in filter(lambda c: c.printed, game.components):
        try:
            job = renderer.job(component, options, report)
        except DataError as exc:  # the earlier build's file must not pass for this one's: it is moved aside
            raise stale.failed(exc, folder, component.id) from None
        blocked = any(o.game == game.id and o.component == component.id for o in report.overflows)
        if blocked and not options.allow_overflow:
            continue  # its earlier file is moved aside when the build is done (`stale.settle`)
        jobs.append(job)
    files = renderer.cache.files(out_dir, options) if renderer.cache else None  # unchanged files are kept
    for job in shared_sheets(jobs) if writer.packs else jobs:
        report.files.append(write_job(writer, job, folder, files, suffix=suffix))
        if progress:
            progress(job.copies)


def write_job(
    writer: Writer,
    job: ComponentJob,
    folder: Path,
    files: cache.FileCache | None = None,
    aside: bool = True,
    suffix: str = "",
) -> OutputFile:
    """Write one job into the game's folder (or keep the earlier build's file, when `files` finds it current). When
    it fails, the earlier build's file is moved aside (`aside`; a worker leaves that to the build in this process),
    not left to pass for this build's. `suffix` follows the component's name in the file's (`LIGHT_SUFFIX`)."""
    target = writer.target(folder, job.component.id + suffix)
    try:
        written = files.output(job, target, writer.write) if files else writer.write(job, target)
    except DataError as exc:
        raise (stale.failed(exc, folder, job.component.id) if aside else exc) from None
    return dataclasses.replace(written, library_icons=job.library_icons())


Jobs = Callable[[Component, str], tuple[ComponentJob, BuildReport]]


def printed_jobs(game: Game, layouts: Layouts, fonts_dir: Path) -> Jobs:
    """A component's job as a build with default options in ink `full` or `light` prepares it, with what it
    reported; each is prepared once, on first asking, and shared by the validator's checks on printed faces."""
    renderer: GameRenderer | None = None
    cache: dict[tuple[str, str], tuple[ComponentJob, BuildReport]] = {}

    def job(component: Component, ink: str) -> tuple[ComponentJob, BuildReport]:
        nonlocal renderer
        if (component.id, ink) not in cache:
            renderer = renderer or GameRenderer(game, layouts, fonts_dir)
            report = BuildReport()
            cache[component.id, ink] = renderer.job(component, PrintOptions(ink=ink), report), report
        return cache[component.id, ink]

    return job


def text_fit(
    game: Game, layouts: Layouts, fonts_dir: Path, jobs: Jobs | None = None
) -> Callable[[Component], FittedText]:
    """A component's text as a build with default options sets it (what overflows, how small each field is); each
    component is rendered once, on first asking (the validator's `text-fits` and `min-text-size` checks use this).
    `jobs` shares the prepared faces with `text_contrast`."""
    jobs = jobs or printed_jobs(game, layouts, fonts_dir)
    cache: dict[str, FittedText] = {}

    def fitted(component: Component) -> FittedText:
        if component.id not in cache:
            job, report = jobs(component, "full")
            cache[component.id] = FittedText(report.overflows, job.text_sizes())
        return cache[component.id]

    return fitted


def text_contrast(
    game: Game, layouts: Layouts, fonts_dir: Path, jobs: Jobs | None = None
) -> Callable[[Component, str], list[TextContrast]]:
    """A component's texts with their contrast against what lies under them (`render/contrast.py`), as a build in
    ink `full` or `light` prints them; each component is measured once per ink, on first asking (the validator's
    `text-contrast` check uses this). Faces measured by an earlier process are remembered in the user's cache
    (`contrast.Remembered`)."""
    from cardgen.render.contrast import Remembered, contrasts

    jobs = jobs or printed_jobs(game, layouts, fonts_dir)
    found: dict[tuple[str, str], tuple[list[TextContrast], Measured]] = {}
    remembered: list[Remembered] = []  # made on first asking: the look hashes the game's images and fonts

    def measured(component: Component, ink: str) -> list[TextContrast]:
        if (component.id, ink) not in found:
            earlier = None
            if ink != "full":  # faces light ink leaves as they were keep their measure
                measured(component, "full")
                earlier = jobs(component, "full")[0], found[component.id, "full"][1]
            if not remembered:
                remembered.append(Remembered(cache.look(game, fonts_dir)))
            found[component.id, ink] = contrasts(jobs(component, ink)[0], earlier, remembered[0])
        return found[component.id, ink][0]

    return measured


__all__ = [
    "WRITERS",
    "BuildReport",
    "Entry",
    "FittedText",
    "GameRenderer",
    "OutputFile",
    "OverflowReport",
    "PrintOptions",
    "build_game",
    "component_bleed",
    "game_notes",
    "printed_jobs",
    "text_contrast",
    "text_fit",
    "write_job",
]
