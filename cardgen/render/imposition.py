"""Imposition: where faces sit on paper, as pure geometry in millimetres (origin at the paper's bottom-left).

Nothing here draws. A plan says, for one sheet of paper, where each front goes (its trim box and the area its bleed
may paint), where the matching back goes (on the reverse page for duplex, on the lower half for fold-and-glue), and
where the crop marks are. The drawing code places faces in these slots; the tests check the same numbers back.

Conventions (see docs/guide/printing.md):
- Faces that butt together share cut lines, so each face's bleed is clipped at its inner edges and only the block's
  outer edge carries bleed. With a gutter (round counters, hexes), every face keeps its whole bleed.
- Long-edge duplex: the back of the face at column c lands in column (cols − 1 − c) — computed by mirroring the slot
  across the page's vertical centre line, which also holds for any margins. Short-edge: mirrored across the horizontal
  centre line and turned 180°.
- Fold-and-glue: fronts on the upper half, backs mirrored across the fold line and turned 180°, so that after folding
  and turning the piece over left-to-right the back reads upright behind its front.
- Crop marks start `offset` outside the trim (never inside the bleed), run `length` outward, and stop at least
  `keepout` short of the paper's edge (marks that run to the edge make viewers shrink the page).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from cardgen.units import HEX_RATIO, Size

SIN60 = math.sqrt(3) / 2


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in mm, bottom-left origin."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grown(self, left: float, bottom: float, right: float, top: float) -> Rect:
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def mirrored_x(self, width: float) -> Rect:
        return Rect(width - self.x - self.w, self.y, self.w, self.h)

    def mirrored_y(self, axis_y: float) -> Rect:
        return Rect(self.x, 2 * axis_y - self.y - self.h, self.w, self.h)


@dataclass(frozen=True)
class Line:
    """A straight mark in mm."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Slot:
    """Where one face goes: its trim box, the area its bleed may paint, and whether it is turned 180°."""

    trim: Rect
    clip: Rect
    rotate: int = 0


@dataclass(frozen=True)
class MarkStyle:
    """Crop-mark settings (mm, weight in points)."""

    length: float = 5.0
    offset: float = 3.0
    weight: float = 0.3
    keepout: float = 1.5
    minimum: float = 1.5


@dataclass
class SheetPlan:
    """One sheet: the paper, the front slots, the matching back slots, crop marks and other guides."""

    paper: Size
    fronts: list[Slot]
    backs: list[Slot]
    marks: list[Line] = field(default_factory=list)
    back_marks: list[Line] = field(default_factory=list)
    fold_marks: list[Line] = field(default_factory=list)
    backs_on_front_page: bool = False
    label_at: tuple[float, float, float] = (0.0, 0.0, 0.0)  # x, y, available width for the sheet label

    @property
    def capacity(self) -> int:
        return len(self.fronts)


class LayoutError(ValueError):
    """A face does not fit the paper with the requested margins."""


def mark_reserve(bleed: float, marks: MarkStyle) -> float:
    """The margin a block of faces needs on a side that carries crop marks."""
    return max(marks.offset, bleed) + marks.minimum + marks.keepout


def grid_count(usable_w: float, usable_h: float, face: Size, gutter: float) -> tuple[int, int]:
    """How many columns and rows of faces (with gutters between them) fit an area."""
    cols = int((usable_w + gutter + 1e-9) // (face.width + gutter)) if usable_w >= face.width else 0
    rows = int((usable_h + gutter + 1e-9) // (face.height + gutter)) if usable_h >= face.height else 0
    return cols, rows


def choose_orientation(
    paper: Size, face: Size, bleed: float, gutter: float, marks: MarkStyle, halves: int = 1
) -> tuple[Size, int, int]:
    """The paper orientation that holds the most faces (portrait on a tie), with its columns and rows.

    `halves=2` plans a fold sheet: the rows must fit twice, with a fold gap between the halves.
    """
    best: tuple[Size, int, int] | None = None
    for candidate in (paper, paper.rotated()):
        reserve = mark_reserve(bleed, marks)
        if halves == 2:  # a half-page has marks only on its outer side; towards the fold, the fold gap holds its bleed
            half_height = (candidate.height - gutter_for_fold(bleed)) / 2
            cols, rows = grid_count(candidate.width - 2 * reserve, half_height - reserve, face, gutter)
        else:
            cols, rows = grid_count(candidate.width - 2 * reserve, candidate.height - 2 * reserve, face, gutter)
        if best is None or cols * rows > best[1] * best[2]:
            best = (candidate, cols, rows)
    assert best is not None
    if best[1] * best[2] == 0:
        raise LayoutError(f"a {face} face with {bleed:g} mm bleed does not fit on {paper} paper")
    return best


def piece_gutter(shape: str, bleed: float, gutter: float) -> float:
    """The space between pieces: the chosen gutter, and at least twice the bleed around round pieces (each keeps its
    whole bleed disc, cut along its circle)."""
    return max(gutter, 2 * bleed) if shape == "round" else gutter


def gutter_for_fold(bleed: float) -> float:
    """The gap left across the fold line: twice the bleed, so neither half's bleed reaches the other."""
    return max(2 * bleed, 2.0)


def block_slots(
    origin_x: float,
    origin_y: float,
    face: Size,
    cols: int,
    rows: int,
    bleed: float,
    gutter: float,
    filled: int | None = None,
) -> list[Slot]:
    """Slots of a cols × rows block whose top-left trim corner is at (origin_x, origin_y); filled row by row from
    the top. An edge on the block's outside — or facing a slot left empty on a partial last sheet (`filled`) — keeps
    the whole bleed; an edge facing a neighbour keeps at most half the gutter, so no face paints into the next."""
    filled = cols * rows if filled is None else filled
    inner = min(bleed, gutter / 2)
    slots = []
    for r in range(rows):
        for c in range(cols):
            index = r * cols + c
            x = origin_x + c * (face.width + gutter)
            y = origin_y - (r + 1) * face.height - r * gutter
            trim = Rect(x, y, face.width, face.height)
            clip = trim.grown(
                bleed if c == 0 else inner,
                bleed if r == rows - 1 or index + cols >= filled else inner,
                bleed if c == cols - 1 or index + 1 >= filled else inner,
                bleed if r == 0 else inner,
            )
            slots.append(Slot(trim, clip))
    return slots


def backs_for(fronts: list[Slot], paper: Size, duplex: str) -> list[Slot]:
    """Where each front's back goes on the reverse page.

    A duplexer turns the sheet about the paper's long edge (long-edge) or short edge (short-edge). On a portrait page
    the long edge is vertical: backs mirror left–right. On a landscape page it is horizontal: backs mirror top–bottom
    and are turned 180°, so that a cut piece turned over left-to-right shows its back upright. `off`: backs on pages
    of their own, in the fronts' positions."""
    if duplex == "off":
        return list(fronts)
    landscape = paper.width > paper.height
    if (duplex == "long-edge") != landscape:
        return [Slot(s.trim.mirrored_x(paper.width), s.clip.mirrored_x(paper.width)) for s in fronts]
    axis = paper.height / 2
    return [Slot(s.trim.mirrored_y(axis), s.clip.mirrored_y(axis), 180) for s in fronts]


def crop_marks(
    slots: list[Slot],
    paper: Size,
    bleed: float,
    style: MarkStyle,
    sides: str = "tblr",
    band: tuple[float, float] | None = None,
) -> list[Line]:
    """Marks at every cut line of a block of slots, outside the block on the requested sides; `band` (bottom, top)
    is the height the marks above and below may use (the paper's by default; on a shared sheet, the block's own)."""
    if not slots:
        return []
    left = min(s.trim.x for s in slots)
    right = max(s.trim.right for s in slots)
    bottom = min(s.trim.y for s in slots)
    top = max(s.trim.top for s in slots)
    xs = sorted({round(v, 4) for s in slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, 4) for s in slots for v in (s.trim.y, s.trim.top)})
    offset = max(style.offset, bleed)
    lines: list[Line] = []

    def span(room: float) -> float:
        return min(style.length, room - offset - style.keepout)

    floor, ceiling = band or (0.0, paper.height)
    if "t" in sides and (length := span(ceiling - top)) >= style.minimum:
        lines += [Line(x, top + offset, x, top + offset + length) for x in xs]
    if "b" in sides and (length := span(bottom - floor)) >= style.minimum:
        lines += [Line(x, bottom - offset, x, bottom - offset - length) for x in xs]
    if "l" in sides and (length := span(left)) >= style.minimum:
        lines += [Line(left - offset, y, left - offset - length, y) for y in ys]
    if "r" in sides and (length := span(paper.width - right)) >= style.minimum:
        lines += [Line(right + offset, y, right + offset + length, y) for y in ys]
    return lines


def label_spot(
    slots: list[Slot], paper: Size, bleed: float, style: MarkStyle, marks_below: bool = True
) -> tuple[float, float, float]:
    """Where the sheet label goes, in the bottom margin: the widest gap between bottom marks, or the whole width
    when the bottom margin has no marks (fold sheets)."""
    bottom = min(s.trim.y for s in slots) - bleed
    xs = sorted({s.trim.x for s in slots} | {s.trim.right for s in slots}) if marks_below else []
    edges = [style.keepout, *xs, paper.width - style.keepout]
    gaps = [(b - a, a, b) for a, b in itertools.pairwise(edges)]
    width, a, b = max(gaps)
    y = max(bottom / 2, 1.0)
    return (a + b) / 2, y, max(width - 2.0, 0.0)


def grid_sheet(
    paper: Size,
    face: Size,
    bleed: float,
    gutter: float,
    marks: MarkStyle,
    duplex: str = "long-edge",
    filled: int | None = None,
) -> SheetPlan:
    """A sheet of faces in a grid, centred on the paper, with backs placed for the chosen duplex mode; `filled`
    plans a partial last sheet (bleed towards the empty slots, marks only for the filled ones)."""
    oriented, cols, rows = choose_orientation(paper, face, bleed, gutter, marks)
    block_w = cols * face.width + (cols - 1) * gutter
    block_h = rows * face.height + (rows - 1) * gutter
    left = (oriented.width - block_w) / 2
    top = (oriented.height + block_h) / 2
    fronts = block_slots(left, top, face, cols, rows, bleed, gutter, filled)
    backs = backs_for(fronts, oriented, duplex)
    plan = SheetPlan(oriented, fronts, backs, marks=crop_marks(fronts[:filled], oriented, bleed, marks))
    if duplex == "off":
        plan.back_marks = plan.marks
    plan.label_at = label_spot(fronts, oriented, bleed, marks)
    return plan


def fold_sheet(
    paper: Size, face: Size, bleed: float, gutter: float, marks: MarkStyle, filled: int | None = None
) -> SheetPlan:
    """Fronts on the upper half, backs mirrored across the fold line on the lower half, turned 180°."""
    oriented, cols, rows = choose_orientation(paper, face, bleed, gutter, marks, halves=2)
    fold_y = oriented.height / 2
    gap = gutter_for_fold(bleed)
    block_w = cols * face.width + (cols - 1) * gutter
    left = (oriented.width - block_w) / 2
    top = fold_y + gap / 2 + rows * face.height + (rows - 1) * gutter
    fronts = block_slots(left, top, face, cols, rows, bleed, gutter, filled)
    backs = [Slot(s.trim.mirrored_y(fold_y), s.clip.mirrored_y(fold_y), 180) for s in fronts]
    plan = SheetPlan(oriented, fronts, backs, backs_on_front_page=True)
    plan.marks = crop_marks(fronts[:filled], oriented, bleed, marks, sides="tlr")
    plan.fold_marks = [  # the whole fold line, so it can be scored with a ruler
        Line(marks.keepout, fold_y, oriented.width - marks.keepout, fold_y),
    ]
    plan.label_at = label_spot(backs, oriented, bleed, marks, marks_below=False)
    return plan


def hex_sheet(
    paper: Size, flat: float, bleed: float, marks: MarkStyle, pointy: bool = False, duplex: str = "long-edge"
) -> SheetPlan:
    """Hex tiles in offset rows, spaced by twice the bleed so no bleed reaches a neighbour; cut along die-lines."""
    gap = 2 * bleed
    width, height = (flat, flat * HEX_RATIO) if pointy else (flat * HEX_RATIO, flat)
    face = Size(width, height)
    reserve = bleed + marks.keepout + 2.0
    best: tuple[Size, list[Rect]] | None = None
    for candidate in (paper, paper.rotated()):
        rects = _hex_positions(candidate, face, gap, reserve, pointy)
        if best is None or len(rects) > len(best[1]):
            best = (candidate, rects)
    assert best is not None
    oriented, rects = best
    if not rects:
        raise LayoutError(f"a hex of {flat:g} mm across the flats does not fit on {paper} paper")
    fronts = [Slot(r, r.grown(bleed, bleed, bleed, bleed)) for r in rects]
    plan = SheetPlan(oriented, fronts, backs_for(fronts, oriented, duplex))
    plan.label_at = (oriented.width / 2, max(reserve / 2, 1.0), oriented.width / 2)
    return plan


def _hex_positions(paper: Size, face: Size, gap: float, reserve: float, pointy: bool) -> list[Rect]:
    """Bounding boxes of hexes in a honeycomb (offset every other row or column), centred on the paper."""
    usable = Size(paper.width - 2 * reserve, paper.height - 2 * reserve)
    if pointy:  # rows of hexes; every other row shifted by half a hex
        step_x, step_y = face.width + gap, face.height * 0.75 + gap * SIN60
        rows = int((usable.height - face.height) // step_y) + 1 if usable.height >= face.height else 0
        cols = int((usable.width - face.width - step_x / 2) // step_x) + 1 if usable.width >= face.width * 1.5 else 0
        spots = [(c * step_x + (step_x / 2 if r % 2 else 0), r * step_y) for r in range(rows) for c in range(cols)]
    else:  # columns of hexes; every other column shifted by half a hex
        step_x, step_y = face.width * 0.75 + gap * SIN60, face.height + gap
        cols = int((usable.width - face.width) // step_x) + 1 if usable.width >= face.width else 0
        rows = (
            int((usable.height - face.height - step_y / 2) // step_y) + 1 if usable.height >= face.height * 1.5 else 0
        )
        spots = [(c * step_x, r * step_y + (step_y / 2 if c % 2 else 0)) for r in range(rows) for c in range(cols)]
    if not spots:
        return []
    span_w = max(x for x, _ in spots) + face.width
    span_h = max(y for _, y in spots) + face.height
    left = (paper.width - span_w) / 2
    top = (paper.height + span_h) / 2
    return [Rect(left + x, top - y - face.height, face.width, face.height) for x, y in spots]


@dataclass(frozen=True)
class Tile:
    """One page of a board tiled over several pages: which part of the board it shows and where on the page."""

    row: int
    col: int
    window: Rect  # the part of the board (board mm, bottom-left origin)
    place: Rect  # where that part sits on the page


def tile_board(paper: Size, board: Size, overlap: float, margin: float) -> tuple[Size, list[Tile]]:
    """Split a board larger than the paper into pages that overlap by `overlap` mm, fewest pages first."""
    best: tuple[int, Size, int, int] | None = None
    for candidate in (paper, paper.rotated()):
        area_w = candidate.width - 2 * margin
        area_h = candidate.height - 2 * margin
        if area_w <= overlap or area_h <= overlap:
            continue
        cols = max(1, math.ceil((board.width - overlap) / (area_w - overlap)))
        rows = max(1, math.ceil((board.height - overlap) / (area_h - overlap)))
        if best is None or cols * rows < best[0]:
            best = (cols * rows, candidate, cols, rows)
    if best is None:
        raise LayoutError(f"paper {paper} is too small to tile with {overlap:g} mm overlap")
    _, oriented, cols, rows = best
    area_w = oriented.width - 2 * margin
    area_h = oriented.height - 2 * margin
    step_w = (board.width - area_w) / (cols - 1) if cols > 1 else 0.0
    step_h = (board.height - area_h) / (rows - 1) if rows > 1 else 0.0
    tiles = []
    for r in range(rows):
        for c in range(cols):
            w = min(area_w, board.width)
            h = min(area_h, board.height)
            x = c * step_w
            y = board.height - h - r * step_h
            place = Rect((oriented.width - w) / 2, (oriented.height - h) / 2, w, h)
            tiles.append(Tile(r, c, Rect(x, y, w, h), place))
    return oriented, tiles
