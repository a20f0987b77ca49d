"""Ink worked out from what a page draws, instead of rendered: pages of flat opaque rectangles, plain text, straight
marks and sheet labels (a designer's text-and-colour deck, the benchmark's poker cards).

`ink.coverage` renders each distinct page with pdfium and takes its mean darkness; for 300 pages of plain cards
that was a fifth of a build. Such a page's darkness can be added up instead: each rectangle's area by the darkness
pdfium gives its colour (its grey level, `(30 R + 59 G + 11 B) / 100`, rounded down, over 255), the rectangles laid
over each other in the order drawn; each text's glyphs' area (from the font's outlines, rasterised once per
character at `GLYPH_PIXELS` an em) by its colour's darkness less that of what lies under it; each mark's width by its
length. What a page draws that is not one of these (art, icons, images, gradients, translucency, strokes, rounded
corners, turned text, faces turned but by half a turn, clipped groups, die-lines, dashed folds), or any overlap this
cannot settle (text on two colours, faces whose clips overlap, marks or labels on a face), leaves the page to be
rendered. The figures are what a fine render finds (at 300–400 dpi, within 0.1 points of coverage); pdfium's 36 dpi
render, which the other pages take, reads thin marks (a 0.3 pt mark is a whole pixel there) and small text darker:
by at most 0.25 points on decks of poker cards, 1.4 on an A3 sheet of 270 cards of 2 cm (`tests/test_drawn_ink.py`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

from reportlab.lib.colors import Color

from cardgen.render.elements.rect import extent as rect_extent
from cardgen.render.fonts import font_file, generation
from cardgen.render.markup import Element
from cardgen.render.plaintext import PlainParagraph

GLYPH_PIXELS = 256  # an em's pixels when a glyph's area is measured (within about 0.5 % of its outline's area)
MM_PER_POINT = 25.4 / 72

Box = tuple[float, float, float, float]  # left, top, right, bottom: mm, the face's top-left corner the origin, y down


def darkness(colour: Color) -> float:
    """What share of black pdfium's grey rendering gives an opaque RGB colour (0 white, 1 black)."""
    red, green, blue = (round(255 * float(channel)) for channel in (colour.red, colour.green, colour.blue))
    return 1 - (30 * red + 59 * green + 11 * blue) // 100 / 255


class _Areas(dict[str, float]):
    """The ink of texts in one font: their glyphs' area in square ems, each character measured when first met, each
    text (a word, a line) added up when first asked for."""

    def __init__(self, path: str):
        super().__init__()
        from PIL import ImageFont

        self.font = ImageFont.truetype(path, GLYPH_PIXELS)
        self.glyphs: dict[str, float] = {}

    def __missing__(self, text: str) -> float:
        if len(self) >= TEXTS_BOUND:
            self.clear()
        try:
            area: float = sum(map(self.glyphs.__getitem__, text))
        except KeyError:  # a character not measured yet
            area = sum(map(self._glyph, text))
        self[text] = area
        return area

    def _glyph(self, char: str) -> float:
        area = self.glyphs.get(char)
        if area is None:
            mask = self.font.getmask(char, mode="L")
            histogram = mask.histogram() if mask.size[0] and mask.size[1] else [0]
            area = self.glyphs[char] = sum(level * n for level, n in enumerate(histogram)) / 255 / GLYPH_PIXELS**2
        return area


TEXTS_BOUND = 65536  # texts a font's `_Areas` remembers


@lru_cache(maxsize=64)
def _areas(name: str, generation: int) -> _Areas | None:
    """The glyph areas of the registered font `name`, measured again after the fonts are forgotten (`generation`);
    None for a font this cannot read (its pages are rendered)."""
    path = font_file(name)
    if path is None:
        return None
    try:
        return _Areas(str(path))
    except OSError:  # a font reportlab reads and FreeType does not
        return None


def text_area(name: str, size: float, texts: Iterable[str]) -> float | None:
    """The area (mm²) the glyphs of `texts` (words or lines) cover in the registered font `name` at `size` points
    (None: a font this cannot read)."""
    areas = _areas(name, generation())
    if areas is None:
        return None
    try:
        ems = sum(map(areas.__getitem__, texts))
    except OSError:  # FreeType could not draw a glyph: the page is rendered instead
        return None
    return ems * (size * MM_PER_POINT) ** 2


def _intersects(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _contains(outer: Box, inner: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _within(box: Box, clip: Box) -> Box | None:
    left, top, right, bottom = max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3])
    return (left, top, right, bottom) if left < right and top < bottom else None


@lru_cache(maxsize=256)
def painted(layers: tuple[tuple[Box, float], ...], clip: Box) -> float:
    """The ink (mm² × darkness) of opaque rectangles laid one over the other in order, inside `clip`: the area is
    cut along every edge, and each piece takes the darkness of the last rectangle over it."""
    kept = [(inside, dark) for box, dark in layers if (inside := _within(box, clip)) is not None]
    xs = sorted({edge for box, _ in kept for edge in (box[0], box[2])})
    ys = sorted({edge for box, _ in kept for edge in (box[1], box[3])})
    total = 0.0
    for left, right in pairwise(xs):
        middle_x = (left + right) / 2
        for top, bottom in pairwise(ys):
            middle_y = (top + bottom) / 2
            for box, dark in reversed(kept):
                if box[0] <= middle_x <= box[2] and box[1] <= middle_y <= box[3]:
                    total += (right - left) * (bottom - top) * dark
                    break
    return total


def _opaque(colour: Any) -> bool:
    return type(colour) is Color and colour.alpha == 1


@dataclass(frozen=True)
class _Plan:
    """What a face's drawing leaves to each card: the ink of its rectangles, and its text boxes' (index, glyph
    areas of their font, mm² a square point × their darkness over what lies under them), their glyphs being the
    card's own. `attrs` are the elements' attributes the plan was made from (a deck's faces share them:
    `markup.parse_face`)."""

    attrs: tuple[Any, ...]
    painted: float
    texts: tuple[tuple[int, _Areas, float], ...]


PLANS_BOUND = 1024  # plans a kit keeps


def face_ink(prepared: Any, kit: Any, bleed: float, clip: Box) -> float | None:
    """The ink (mm² × darkness) a prepared face lays down inside `clip` (in its own coordinates), or None when it
    draws anything this module does not measure (see the module's docstring)."""
    elements = prepared.face.elements
    key = (prepared.face.bg, prepared.width, prepared.height, bleed, clip,
           tuple([(e.tag, id(e.attrs), e.clips, e.transform) for e in elements]))  # fmt: skip
    plans: dict[Any, _Plan | None] = kit.__dict__.setdefault("_cardgen_drawn_ink", {})
    plan = plans.get(key, _UNPLANNED)
    if plan is _UNPLANNED or (plan is not None and _stale(plan, elements)):
        if len(plans) >= PLANS_BOUND:
            plans.clear()
        plan = plans[key] = _plan(prepared, kit, bleed, clip)
    if plan is None:
        return None
    total: float = plan.painted
    fits = prepared.prepared
    try:
        for index, areas, weight in plan.texts:  # each fitted box's glyphs: its lines' words, or its one line
            fit = fits.get(index)
            if fit is None or fit.overflow_mm > 0:
                return None
            paragraph = fit.paragraph
            if type(paragraph) is PlainParagraph:
                ems, size = sum([sum(map(areas.__getitem__, words)) for _, words in paragraph.lines]), paragraph.size
            elif paragraph is None and fit.line is not None and not fit.runs:
                ems, size = areas[fit.line], fit.size
            else:  # markup, icons, runs of sizes: not measured
                return None
            total += ems * size * size * weight
    except OSError:  # FreeType could not draw a glyph: the page is rendered instead
        return None
    return total


_UNPLANNED: Any = object()  # a face no plan was made for yet


def _stale(plan: _Plan | None, elements: Sequence[Element]) -> bool:
    """Whether a plan was made from other attributes than these elements' (their ids reused)."""
    return plan is not None and any(a is not e.attrs for a, e in zip(plan.attrs, elements, strict=True))


def _plan(prepared: Any, kit: Any, bleed: float, clip: Box) -> _Plan | None:
    width, height = prepared.width, prepared.height
    layers: list[tuple[Box, float]] = []
    texts: list[tuple[int, _Areas, float]] = []
    boxes: list[Box] = []  # the text boxes so far
    palette = kit.palette
    bg = palette.get(prepared.face.bg)
    if bg is not None:
        if not _opaque(bg):
            return None
        layers.append(((-bleed, -bleed, width + bleed, height + bleed), darkness(bg)))
    for index, element in enumerate(prepared.face.elements):
        if element.clips or element.transform or element.attrs.get("opacity", 1.0) != 1:
            return None
        if element.tag == "rect":
            layer = _rect(element, palette, bleed, width, height)
            if layer is None:
                return None
            if any(_intersects(box, text) for box, _ in layer for text in boxes):  # a rectangle over earlier text
                return None
            layers.extend(layer)
        elif element.tag == "text":
            text = _text(element, palette, layers, clip)
            if text is None:
                return None
            box, dark = text
            boxes.append(box)
            if dark:
                areas = _areas(kit.roles[element["font"]].regular, generation())
                if areas is None:
                    return None
                texts.append((index, areas, dark * MM_PER_POINT**2))
        else:
            return None
    return _Plan(tuple(e.attrs for e in prepared.face.elements), painted(tuple(layers), clip), tuple(texts))


def _rect(element: Element, palette: Any, bleed: float, width: float, height: float) -> list[tuple[Box, float]] | None:
    """A flat opaque rectangle as its layer (none when it paints nothing); None for anything else."""
    if element["radius"] > 0 or palette.get(element["stroke"]) is not None:
        return None
    fill = element["fill"]
    if not isinstance(fill, str):  # a gradient
        return None
    colour = palette.get(fill)
    if colour is None:
        return []
    if not _opaque(colour):
        return None
    x, y, w, h = rect_extent(element, bleed, width, height)  # as `Rect.draw` draws it
    return [((x, y, x + w, y + h), darkness(colour))]


PLAIN = (("rotate", 0.0), ("spacing", 0.0), ("small-caps", False))  # what a plain text box leaves at its default


def _text(element: Element, palette: Any, layers: Sequence[tuple[Box, float]], clip: Box) -> tuple[Box, float] | None:
    """A plain text box (one opaque colour, nothing around its glyphs) inside the clip, on one colour: its box and
    its colour's darkness less that one's; None for anything else."""
    if any(element.attrs.get(name, default) != default for name, default in PLAIN):
        return None
    if any(palette.get(element[name]) is not None for name in ("glow", "shadow", "outline")):
        return None
    x, y, w, h = element["x"], element["y"], element["w"], element["h"]
    box = (x, y, x + w, y + h)
    if not _contains(clip, box):
        return None
    colour = palette.get(element["colour"])
    if colour is None:
        return box, 0.0
    under = _under(box, layers)
    if not _opaque(colour) or under is None:
        return None
    return box, darkness(colour) - under


def _under(box: Box, layers: Sequence[tuple[Box, float]]) -> float | None:
    """The darkness of the one colour under a box: the last layer touching it, when that layer covers all of it
    (paper, 0, when none touches it); None when the box lies on more than one colour."""
    for layer, dark in reversed(layers):
        if _intersects(layer, box):
            return dark if _contains(layer, box) else None
    return 0.0


def line_boxes(lines: Iterable[Any], weight: float) -> tuple[Box, ...] | None:
    """Straight marks (page mm, y up) as the rectangles their strokes cover (butt ends: reportlab's default); None
    when one is neither across nor up the page."""
    half = weight * MM_PER_POINT / 2
    boxes = []
    for line in lines:
        if line.y1 == line.y2:
            boxes.append((min(line.x1, line.x2), line.y1 - half, max(line.x1, line.x2), line.y1 + half))
        elif line.x1 == line.x2:
            boxes.append((line.x1 - half, min(line.y1, line.y2), line.x1 + half, max(line.y1, line.y2)))
        else:
            return None
    return tuple(boxes)


@lru_cache(maxsize=64)
def union(boxes: tuple[Box, ...]) -> float:
    """The area (mm²) the rectangles cover together: their own areas when none overlaps another, else a sweep across
    the page, each strip's covered lengths merged."""
    unique = tuple(sorted(set(boxes)))
    if apart(unique):
        return sum((box[2] - box[0]) * (box[3] - box[1]) for box in unique)
    total = 0.0
    for left, right in pairwise(sorted({edge for box in unique for edge in (box[0], box[2])})):
        spans = sorted((box[1], box[3]) for box in unique if box[0] <= left and right <= box[2])
        covered, reached = 0.0, -math.inf
        for low, high in spans:
            if high > reached:
                covered += high - max(low, reached)
                reached = high
        total += covered * (right - left)
    return total


TOUCHING = 1e-6  # mm: boxes overlapping by less than this only touch (the rounding of edges placed side by side)


@lru_cache(maxsize=64)
def apart(boxes: tuple[Box, ...], others: tuple[Box, ...] = ()) -> bool:
    """Whether no two of `boxes` overlap (by more than `TOUCHING`), nor any of them one of `others`."""
    if any(_overlap(a, b) for a in boxes for b in others):
        return False
    ordered = sorted(boxes)
    for index, a in enumerate(ordered):
        for b in ordered[index + 1 :]:
            if b[0] >= a[2] - TOUCHING:
                break
            if _overlap(a, b):
                return False
    return True


def clear(boxes: Iterable[Box], of: Iterable[Box]) -> bool:
    """Whether none of `boxes` (a page's labels: a few) overlaps any of `of` (by more than `TOUCHING`)."""
    return not any(_overlap(a, b) for a in boxes for b in of)


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > TOUCHING and min(a[3], b[3]) - max(a[1], b[1]) > TOUCHING
