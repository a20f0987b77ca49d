"""`cardgen build`: every component of a game → files a person can print, cut and play with.

For each component: render every item's faces through its layouts (once per item, not per copy), prepare each
distinct face once (text fitted, glyphs and images checked), then impose them on paper (`imposition`) and write the
document (`pdf`). Text that does not fit is collected for all components and reported together; a component with
overflowing text is not written unless overflow is allowed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.data.games import Component, Game, Item
from cardgen.errors import DataError
from cardgen.output import remove_stale
from cardgen.render.draw import FaceDrawer, Palette, PreparedFace, check_labels
from cardgen.render.fonts import load_roles
from cardgen.render.imposition import (
    HEX_RATIO,
    LayoutError,
    MarkStyle,
    SheetPlan,
    Slot,
    choose_orientation,
    fold_sheet,
    grid_sheet,
    hex_sheet,
)
from cardgen.render.layouts import Layouts
from cardgen.render.markup import MarkupError, parse_face
from cardgen.render.pdf import Document, write_atomic
from cardgen.render.sheets import write_boards
from cardgen.units import PAPER_SIZES_MM, Size

Progress = Callable[[int], None]


@dataclass(frozen=True)
class PrintOptions:
    """How to print: paper, duplex, back offset, imposition and output format. Lengths in mm."""

    paper: str = "a4"
    duplex: str = "long-edge"  # long-edge | short-edge | off
    back_offset: tuple[float, float] = (0.0, 0.0)
    layout: str | None = None  # None: each component's default; grid | fold
    format: str = "pdf"  # pdf | shop-pdf | png
    gutter: float = 0.0
    marks: MarkStyle = field(default_factory=MarkStyle)
    allow_overflow: bool = False
    overlap: float = 10.0
    dpi: int = 300

    @property
    def paper_size(self) -> Size:
        return Size(*PAPER_SIZES_MM[self.paper])


@dataclass(frozen=True)
class OutputFile:
    """One file written, with its page count (or image count for PNG folders) and how to print it: `sides` is
    `long-edge`/`short-edge` (double-sided, turned on that edge), `single`, `fold` (single-sided, fold and glue),
    `backs-after` (backs on pages of their own) or `tiled` (a board over several pages)."""

    path: Path
    pages: int
    component: str = ""
    sides: str = "single"


@dataclass(frozen=True)
class OverflowReport:
    """Text that did not fit its box at the minimum size."""

    game: str
    component: str
    item: str
    side: str
    field: str
    overflow_mm: float
    size: float

    def __str__(self) -> str:
        return (
            f"{self.game}: {self.component}: card '{self.item}' {self.side}: field '{self.field}' overflows "
            f"its box by {self.overflow_mm:.1f} mm even at {self.size:g} pt"
        )


@dataclass
class BuildReport:
    """What a build wrote and what it found."""

    files: list[OutputFile] = field(default_factory=list)
    overflows: list[OverflowReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class FaceSet:
    """The distinct faces of a component: markup → prepared face, with how often each is drawn."""

    faces: dict[str, PreparedFace] = field(default_factory=dict)
    uses: Counter[str] = field(default_factory=Counter)
    item_faces: dict[str, tuple[str, str | None]] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """One physical copy of an item: its front face and its back face (if any)."""

    item: Item
    front: str
    back: str | None


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
        self.drawer = FaceDrawer(self.palette, self.roles, settings.icons, game.folder)
        self.body_font = self.roles["body"].regular
        self.facts = {name: fact.value for name, fact in game.rules.facts.items()}
        self.citations = {name: fact.cite for name, fact in game.rules.facts.items()}
        # every component's items, so a reference sheet can print a table of another component's cards
        self.items_by_component = {
            c.id: [{**i.fields, "id": i.id, "count": i.count, "type": i.type} for i in c.items] for c in game.components
        }

    def bleed(self, component: Component) -> float:
        if component.spec and component.spec.bleed is not None:
            return component.spec.bleed
        if component.kind == "sheets":
            return 0.0
        return self.game.manifest.settings.bleed

    def face_size(self, component: Component, options: PrintOptions) -> Size:
        if component.size is not None:
            return hex_box(component) if component.spec and component.spec.shape == "hex" else component.size
        landscape = component.spec is not None and component.spec.size == "page-landscape"
        return options.paper_size.rotated() if landscape else options.paper_size

    def collect(self, component: Component, options: PrintOptions, report: BuildReport) -> tuple[FaceSet, list[Entry]]:
        """Render and prepare every distinct face of a component; record overflow."""
        faces = FaceSet()
        entries: list[Entry] = []
        size = self.face_size(component, options)
        bleed = self.bleed(component)
        shared = {
            "face": {
                "width": size.width,
                "height": size.height,
                "bleed": bleed,
                "shape": component.spec.shape if component.spec else "rect",
            },
            "component": {
                "id": component.id,
                "title": component.title,
                "kind": component.kind,
                "count": component.count,
            },
            "game": {"id": self.game.id, "title": self.game.title, "players": list(self.game.players)},
            "facts": self.facts,
            "cite": self.citations,
            "components": self.items_by_component,
        }
        for item in component.items:
            front = self._face(component, item, item.front, "front", shared, faces, report)
            back = self._face(component, item, item.back, "back", shared, faces, report) if item.back else None
            entries.extend(Entry(item, front, back) for _ in range(item.count))
            faces.item_faces[item.id] = (front, back)
            faces.uses[front] += item.count
            if back:
                faces.uses[back] += item.count
        return faces, entries

    def _face(
        self, component: Component, item: Item, layout: str, side: str, shared: dict, faces: FaceSet,
        report: BuildReport,
    ) -> str:  # fmt: skip
        who = f"{self.game.id}: {component.id}: card '{item.id}' {side}"
        context = {
            **shared,
            "card": {**item.fields, "id": item.id, "count": item.count, "type": item.type},
            "face": {**shared["face"], "side": side},
        }
        markup = self.layouts.render(self.game.id, layout, context, who)
        key = hashlib.sha1(markup.encode()).hexdigest()[:16]
        if key not in faces.faces:
            try:
                face = parse_face(markup, self.palette.is_colour)
            except MarkupError as exc:
                line = f" (line {exc.line} of the rendered markup)" if exc.line else ""
                raise DataError(f"{who}: layout '{layout}'{line}: {exc}") from None
            prepared = self.drawer.prepare(face, shared["face"]["width"], shared["face"]["height"], who)
            faces.faces[key] = prepared
            for overflow in prepared.overflows:
                report.overflows.append(
                    OverflowReport(
                        self.game.id, component.id, item.id, side, overflow.field, overflow.overflow_mm, overflow.size
                    )
                )
        return key


def build_game(
    game: Game,
    layouts: Layouts,
    fonts_dir: Path,
    out_dir: Path,
    options: PrintOptions,
    progress: Progress | None = None,
) -> BuildReport:
    """Build every printable component of a game into `out_dir/<game-id>/`."""
    report = BuildReport()
    renderer = GameRenderer(game, layouts, fonts_dir)
    target = out_dir / game.id
    pieces = [c.id for c in game.components if c.kind == "pieces"]
    empty = [c.id for c in game.components if c.kind != "pieces" and not c.items]
    if pieces:
        report.notes.append(f"{game.id}: not printed (bought or borrowed, not cut): {', '.join(pieces)}")
    if empty:
        report.notes.append(f"{game.id}: no contents written yet, nothing printed for: {', '.join(empty)}")
    for component in game.components:
        if component.kind == "pieces" or not component.items:
            continue
        faces, entries = renderer.collect(component, options, report)
        blocked = [o for o in report.overflows if o.game == game.id and o.component == component.id]
        if blocked and not options.allow_overflow:
            stale = target / ("shop" if options.format == "shop-pdf" else "") / f"{component.id}.pdf"
            remove_stale(stale)  # an earlier build's file must not pass for this one's
            continue
        if options.format == "pdf":
            path = target / f"{component.id}.pdf"
            pages, sides = _write_print_pdf(renderer, component, faces, entries, options, path)
            report.files.append(OutputFile(path, pages, component.id, sides))
        else:
            from cardgen.render.shop import write_png_faces, write_shop_pdf

            if options.format == "shop-pdf":
                path = target / "shop" / f"{component.id}.pdf"
                report.files.append(OutputFile(path, write_shop_pdf(renderer, component, faces, entries, path)))
            else:
                folder = target / component.id
                report.files.append(
                    OutputFile(folder, write_png_faces(renderer, component, faces, folder, options.dpi))
                )
        if progress:
            progress(len(entries))
    return report


def hex_box(component: Component) -> Size:
    """A hex tile's bounding box: `size` is the distance across the flats (one length), turned by `orient`; a size
    written as W×H is taken as the box itself."""
    assert component.size is not None and component.spec is not None
    size = component.size
    if abs(size.width - size.height) > 1e-9:
        return size
    across_corners = size.width * HEX_RATIO
    return Size(across_corners, size.width) if component.spec.orient == "flat" else Size(size.width, across_corners)


def plan_for(
    component: Component, face: Size, bleed: float, options: PrintOptions, filled: int | None = None
) -> SheetPlan:
    """The sheet plan of a component under the options (fold for double-sided counters unless told otherwise);
    `filled` plans a partial last sheet."""
    shape = component.spec.shape if component.spec else "rect"
    has_back = any(item.back for item in component.items)
    if shape == "hex":
        flat, pointy = min(face.width, face.height), face.height > face.width
        return hex_sheet(options.paper_size, flat, bleed, options.marks, pointy, options.duplex)
    layout = options.layout or (component.spec.layout if component.spec else None)
    if layout is None:
        layout = "fold" if component.kind == "counters" and has_back else "grid"
    gutter = max(options.gutter, 2 * bleed) if shape == "round" else options.gutter
    if layout == "fold" and has_back:
        return fold_sheet(options.paper_size, face, bleed, gutter, options.marks, filled)
    return grid_sheet(options.paper_size, face, bleed, gutter, options.marks, options.duplex, filled)


def _fits_paper(face: Size, bleed: float, options: PrintOptions) -> bool:
    try:
        choose_orientation(options.paper_size, face, bleed, options.gutter, options.marks)
    except LayoutError:
        return False
    return True


def _write_print_pdf(
    renderer: GameRenderer,
    component: Component,
    faces: FaceSet,
    entries: list[Entry],
    options: PrintOptions,
    path: Path,
) -> tuple[int, str]:
    """Write one component's sheets; return the pages and how they print (see `OutputFile.sides`)."""
    face = renderer.face_size(component, options)
    bleed = renderer.bleed(component)
    doc = Document(renderer.drawer, f"{renderer.game.title} — {component.title}", renderer.body_font, faces.uses)
    if component.kind == "sheets" and (component.size is None or not _fits_paper(face, bleed, options)):
        write_boards(doc, renderer, component, faces, entries, options)
        sides = "tiled" if doc.pages > len(entries) else "single"
    else:
        plan = _impose(doc, renderer, component, faces, entries, options, face, bleed)
        has_back = any(e.back for e in entries)
        if not has_back:
            sides = "single"
        elif plan.backs_on_front_page:
            sides = "fold"
        else:
            sides = "backs-after" if options.duplex == "off" else options.duplex
    doc.print_hints(sides, f"{component.title}: {SIDES_NOTE[sides]}")
    write_atomic(path, doc.finish())
    return doc.pages, sides


SIDES_NOTE = {
    "long-edge": "print double-sided, flip on the long edge, at actual size",
    "short-edge": "print double-sided, flip on the short edge, at actual size",
    "single": "print single-sided at actual size",
    "fold": "print single-sided at actual size, fold along the line and glue",
    "backs-after": "print single-sided at actual size; backs follow on pages of their own",
    "tiled": "print single-sided at actual size; trim and join the pages along the crosshairs",
}


def _impose(
    doc: Document,
    renderer: GameRenderer,
    component: Component,
    faces: FaceSet,
    entries: list[Entry],
    options: PrintOptions,
    face: Size,
    bleed: float,
) -> SheetPlan:
    try:
        plan = plan_for(component, face, bleed, options)
    except LayoutError as exc:
        raise DataError(f"{renderer.game.id}: {component.id}: {exc}") from None
    shape = component.spec.shape if component.spec else "rect"
    has_back = any(e.back for e in entries)
    chunks = [entries[i : i + plan.capacity] for i in range(0, len(entries), plan.capacity)]
    title = f"{renderer.game.title} · {component.id}"
    backs_later: list[tuple[int, list[Entry]]] = []
    full = plan
    for number, chunk in enumerate(chunks, 1):
        # a partial last sheet: bleed towards the empty slots, marks only at the filled ones
        plan = full if len(chunk) == full.capacity else plan_for(component, face, bleed, options, len(chunk))
        doc.start_page(plan.paper)
        _place_all(doc, faces, [(e.front, s) for e, s in zip(chunk, plan.fronts, strict=False)], bleed, shape)
        if plan.backs_on_front_page:
            backs = [(e.back, s) for e, s in zip(chunk, plan.backs, strict=False) if e.back]
            _place_all(doc, faces, backs, bleed, shape)
            doc.lines(plan.fold_marks, options.marks.weight, dash=(2, 2))
        _guides(doc, plan, chunk, shape, options, plan.marks)
        side = "fronts and backs (fold)" if plan.backs_on_front_page else "front"
        doc.label(f"{title} · sheet {number}/{len(chunks)} · {side}", plan.label_at)
        doc.end_page()
        if has_back and not plan.backs_on_front_page:
            if options.duplex == "off":
                backs_later.append((number, chunk))
            else:
                _back_page(
                    doc, faces, plan, chunk, bleed, shape, options, f"{title} · sheet {number}/{len(chunks)} · back"
                )
    for number, chunk in backs_later:
        plan = full if len(chunk) == full.capacity else plan_for(component, face, bleed, options, len(chunk))
        _back_page(doc, faces, plan, chunk, bleed, shape, options, f"{title} · sheet {number}/{len(chunks)} · backs")
    return full


def _back_page(
    doc: Document,
    faces: FaceSet,
    plan: SheetPlan,
    chunk: list[Entry],
    bleed: float,
    shape: str,
    options: PrintOptions,
    label: str,
) -> None:
    doc.start_page(plan.paper)
    shift = options.back_offset if options.duplex != "off" else (0.0, 0.0)
    backs = [(e.back, s) for e, s in zip(chunk, plan.backs, strict=False) if e.back]
    _place_all(doc, faces, backs, bleed, shape, shift)
    if options.duplex == "off":
        _guides(doc, plan, chunk, shape, options, plan.back_marks)
    x, y, room = plan.label_at
    doc.label(label, (plan.paper.width - x, y, room))
    doc.end_page()


def _place_all(
    doc: Document,
    faces: FaceSet,
    placements: list[tuple[str | None, Slot]],
    bleed: float,
    shape: str,
    shift: tuple[float, float] = (0.0, 0.0),
) -> None:
    for key, slot in placements:
        if key is not None:
            doc.place(key, faces.faces[key], slot, bleed, shape, shift)


def _guides(doc: Document, plan: SheetPlan, chunk: list[Entry], shape: str, options: PrintOptions, marks) -> None:
    doc.lines(marks, options.marks.weight)
    if shape in ("hex", "round"):  # pieces that are not cut with straight lines get their cut outline
        for slot in plan.fronts[: len(chunk)]:
            doc.outline(slot, shape)


__all__ = ["BuildReport", "GameRenderer", "OutputFile", "OverflowReport", "PrintOptions", "build_game", "plan_for"]
