"""Drawing faces: parsed markup → reportlab canvas operations, through the elements of `cardgen.render.elements`.

A face is first *prepared* (each element checks what it can — text fitted, glyphs, icons and images present) and then
*drawn* in its own coordinates: the origin at the trim box's bottom-left corner, in points. Placement on a sheet
(translation, rotation, bleed clipping) and reuse as a form are the caller's business (`cardgen.render.pdf`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import PATH_OPS

from cardgen.data.games import Game
from cardgen.data.model import Icon
from cardgen.errors import DataError, Problem, did_you_mean
from cardgen.render.elements import ELEMENTS, SCHEMAS
from cardgen.render.fonts import FontRole, no_glyph
from cardgen.render.icons import Painter, painter
from cardgen.render.kit import ImageStore, Kit, Overflow, Palette, SetText, Surface, TextRun, file_painter
from cardgen.render.library import library, library_painter
from cardgen.render.markup import ICON_PATTERN, Checked, Face, Skeleton, fill, parse_face, skeleton
from cardgen.render.plaintext import fill_code
from cardgen.units import MM

SKELETONS_BOUND = 256
NO_ICONS: frozenset[str] = frozenset()  # substitution layouts' skeletons a game's drawer keeps


class ElementError(DataError):
    """A face's element that cannot be drawn (an unknown icon or font role, a missing image): `element` is its
    number in the face, for naming the layout line that wrote it (`Layouts.element_at`)."""

    def __init__(self, problems: list[Problem], element: int):
        super().__init__(problems)
        self.element = element


@dataclass(slots=True)
class PreparedFace:
    """A face ready to draw: its elements, what each element prepared (a text box's fit), and what did not fit."""

    face: Face
    width: float  # mm
    height: float  # mm
    prepared: dict[int, Any] = field(default_factory=dict)
    overflows: list[Overflow] = field(default_factory=list)
    texts: list[SetText] = field(default_factory=list)  # every text the face sets, at its drawn size
    library_icons: frozenset[str] = frozenset()  # the icon library's icons it draws (their authors are credited)


def label_role(roles: Mapping[str, FontRole]) -> FontRole:
    """The font that draws icon labels."""
    return roles["heading"] if "heading" in roles else roles["body"]


def check_labels(game: Game, roles: Mapping[str, FontRole]) -> None:
    """Text cardgen draws from game.yaml itself — icon labels, the titles in sheet margins — must have its glyphs,
    as card text must: a missing glyph would print as nothing. Icons drawn from files must be images cardgen reads."""
    problems = []
    images = ImageStore(game.folder)
    for name, icon in game.manifest.settings.icons.items():
        if icon.label and (missing := no_glyph(icon.label, label_role(roles))):
            problems.append(Problem(game.where(("settings", "icons", name, "label")), missing))
        if icon.file is not None:
            try:
                images.resolve(icon.file)
            except DataError as exc:
                where = game.where(("settings", "icons", name, "file"))
                problems.extend(Problem(where, problem.message) for problem in exc.problems)
    if missing := no_glyph(game.title, roles["body"]):
        problems.append(Problem(game.where(("title",)), missing))
    for index, component in enumerate(game.components):
        if missing := no_glyph(component.title, roles["body"]):
            problems.append(Problem(game.where(("components", index, "title")), missing))
    if problems:
        raise DataError(problems)


def check_stamp(stamp: str, game: Game, roles: Mapping[str, FontRole]) -> None:
    """The `--stamp` text is drawn on every face in the body font, its `{icon}`s as icons: a character that font
    cannot draw or an icon neither the game nor the library has is the option's fault, named as such (not the
    first card's layout's)."""
    if missing := no_glyph(ICON_PATTERN.sub("", stamp), roles["body"]):
        raise DataError(f"--stamp: {missing} in {game.id}")
    icons = game.manifest.settings.icons
    for name, _ in ICON_PATTERN.findall(stamp):
        if name not in icons and name not in library():  # a library icon in the stamp is credited like any other
            hint = did_you_mean(name, [*icons, *library()])
            raise DataError(
                f"--stamp: unknown icon '{{{name}}}'{hint}; the icons of {game.id}: {', '.join(icons) or 'none'}, "
                "and the icon library's (`cardgen icons`)"
            )


class Painters(Mapping[str, Painter]):
    """The game's icons (`settings.icons`) by name, then the icon library's: a name the game defines wins. Iterating
    gives the game's own names; a library icon's painter is made when first asked for."""

    def __init__(self, own: Mapping[str, Painter], colour: Any):
        self.own = dict(own)
        self.colour = colour
        self.borrowed: dict[str, Painter] = {}

    def __getitem__(self, name: str) -> Painter:
        if name in self.own:
            return self.own[name]
        if name not in self.borrowed:
            self.borrowed[name] = library_painter(library()[name], self.colour)  # KeyError: neither
        return self.borrowed[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.own)

    def __len__(self) -> int:
        return len(self.own)

    def from_library(self, name: str) -> bool:
        """Whether `name` draws a library icon (the game has no icon of that name)."""
        return name not in self.own and name in library()


class FaceDrawer:
    """Prepares and draws faces for one game: its palette, font roles, icon set and images."""

    def __init__(self, palette: Palette, roles: Mapping[str, FontRole], icons: Mapping[str, Icon], game_dir: Path):
        label_font = label_role(roles).regular
        images = ImageStore(game_dir)
        painters = {
            name: painter(icon, palette.get, label_font)
            if icon.file is None
            else file_painter(icon.file, images, palette.get)
            for name, icon in icons.items()
        }
        self.kit = Kit(palette, roles, Painters(painters, palette.get), images, icons, label_font)
        self.checked: Checked = {}  # element attributes parsed once for all this game's faces
        self.skeletons: dict[str, Skeleton | None] = {}  # substitution layouts' probes parsed (`parse`)

    @property
    def painters(self) -> Mapping[str, Any]:
        return self.kit.painters

    def parse(self, markup: str, bones: tuple[str, tuple[str, ...]] | None = None) -> Face:
        """Parse one face's markup against the elements and the game's colours (raises `MarkupError`). With a
        substitution layout's skeleton key (`Layouts.rendered`), the face is its skeleton filled with the card's
        texts, parsed once for all the cards (`markup.skeleton`) — the same face."""
        if bones is not None:
            probe, texts = bones
            if probe not in self.skeletons:
                if len(self.skeletons) >= SKELETONS_BOUND:
                    self.skeletons.clear()
                self.skeletons[probe] = skeleton(probe, len(texts), self.parse)
            found = self.skeletons[probe]
            if found is not None and found.fields == len(texts):
                return fill(found, texts)
        return parse_face(markup, self.kit.palette.is_colour, SCHEMAS, self.checked)

    def prepare(self, face: Face, width: float, height: float, who: str) -> PreparedFace:
        """Let each element check itself against the game; `who` names the card in error messages."""
        prepared = PreparedFace(face, width, height)
        for index, element in enumerate(face.elements):
            kind = ELEMENTS[element.tag]
            try:
                result = kind.prepare(element, self.kit, who)
            except DataError as exc:
                raise ElementError(exc.problems, index) from None
            if result is not None:
                prepared.prepared[index] = result
            if (overflow := kind.overflow(element, result, index)) is not None:
                prepared.overflows.append(overflow)
            prepared.texts.extend(kind.text_sizes(element, result, self.kit, index))
        prepared.library_icons = self._library_icons(face)
        return prepared

    def _library_icons(self, face: Face) -> frozenset[str]:
        painters = self.kit.painters
        assert isinstance(painters, Painters)
        names = [e["name"] for e in face.elements if e.tag == "icon"]
        names += [name for e in face.elements if "{" in e.content for name, _ in ICON_PATTERN.findall(e.content)]
        found = [name for name in names if painters.from_library(name)]
        return frozenset(found) if found else NO_ICONS  # one empty set for the many faces without

    def draw(
        self, canvas: Any, prepared: PreparedFace, bleed: float, text: bool = True, runs: list[TextRun] | None = None
    ) -> None:
        """Draw a prepared face with its trim box's bottom-left corner at the canvas origin; without the text's
        glyphs when `text` is False, and adding each text box's `TextRun` to `runs` when given (`render/contrast.py`
        draws a face both ways to see what lies under its text)."""
        surface = Surface(canvas, self.kit, prepared.width, prepared.height, bleed, text, runs)
        code = canvas._code
        if (bg := self.kit.palette.get(prepared.face.bg)) is not None:
            full_w, full_h = prepared.width + 2 * bleed, prepared.height + 2 * bleed
            fill = fill_code(canvas, bg)
            if fill is None:
                canvas.setFillColor(bg)
                canvas.rect(-bleed * MM, -bleed * MM, full_w * MM, full_h * MM, stroke=0, fill=1)
            else:  # what those two calls write for an opaque colour, written at once (tests/test_textcode.py)
                canvas._fillColorObj = bg
                place = fp_str(-bleed * MM, -bleed * MM, full_w * MM, full_h * MM)
                code += (fill, f"n {place} re {PATH_OPS[0, 1, canvas._fillMode]}")
        for index, element in enumerate(prepared.face.elements):
            kind, ready = ELEMENTS[element.tag], prepared.prepared.get(index)
            if not element.clips and not element.transform and (plain := kind.plain(element, surface, ready)):
                code.append("q")  # what saveState, the element's calls and restoreState write, without the calls
                code.extend(plain)
                code.append("Q")
                continue
            canvas.saveState()
            applied = 0
            for steps, clip in element.clips:  # each group's clip in the coordinates of its group
                surface.transform(element.transform[applied:steps])
                surface.clip(clip)
                applied = steps
            if element.transform[applied:]:
                surface.transform(element.transform[applied:])
            kind.draw(element, surface, ready)
            canvas.restoreState()


__all__ = ["ElementError", "FaceDrawer", "PreparedFace", "check_labels", "check_stamp", "label_role"]
