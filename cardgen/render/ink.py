"""Ink: how much of a page a printer covers, and faces that save it (`cardgen build --ink light`).

Card backs and big bands of dark colour are most of the ink a print-and-play game costs. In light ink a face keeps
its layout but every large dark area (a dark background, a shape covering a fifth of the face or more) is printed as
a pale tint of its colour inside an outline, and the light text and lines drawn on it take the area's own colour, so
they stay readable. So does any other text that would fall below `READABLE` contrast on the tint (gold on a tinted
grey: 1.7:1), the area's colour darkened where even it falls short. Coverage is a page's mean darkness: worked out
from what it drew when it drew only flat rectangles, plain text and marks (`render/drawnink.py`), else measured on
the written PDF, the page rendered small.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import Color

from cardgen.render import raster
from cardgen.render.markup import Element, Face
from cardgen.render.raster import rendered

INKS = ("full", "light")
LARGE = 0.2  # share of the face's area from which a dark shape counts as a large dark area
DARK = 0.45  # relative luminance below which a fill is dark
LIGHT = 0.7  # relative luminance above which text or a line is light (drawn to stand out on a dark area)
TINT = 0.15  # how much of its colour a lightened area keeps; the rest is paper
OUTLINE = 0.4  # mm: the line that keeps a lightened area's shape
READABLE = 4.5  # the least contrast (WCAG 2) text keeps against a lightened area
# 36 dpi: at 18, pdfium's smallest marks on art pages (a star, a hairline) take more of a pixel than their own area and
# the bundled games' files read 2.4 points lighter than at 72 dpi on average (6.6 on the Space Empires 4X map); at 36
# within about 1 point, and a page costs about the same (pdfium's time goes to the art's paths, not to pixels)
COVERAGE_DPI = 36


def luminance(colour: Color) -> float:
    return float(0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue)


def relative_luminance(colour: Color) -> float:
    """WCAG 2's relative luminance: the sRGB channels made linear, then weighted."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue)


def contrast(a: Color, b: Color) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable_on_tint(dark: str) -> str:
    """The area's colour for text on its tint, darkened (towards black, in tenths) until it reads at `READABLE`."""
    base = rgb(dark)
    background = rgb(tint(base))
    for step in range(11):
        keep = 1 - step / 10
        colour = Color(base.red * keep, base.green * keep, base.blue * keep)
        if contrast(colour, background) >= READABLE:
            return hex_of(colour)
    return "#000000"


def tint(colour: Color) -> str:
    """The colour mixed with white, keeping `TINT` of it, as #rrggbb."""
    mixed = [round(255 * (1 - TINT + TINT * c)) for c in (colour.red, colour.green, colour.blue)]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def rgb(value: str) -> Color:
    """`#rrggbb` as a colour."""
    return Color(*(int(value[i : i + 2], 16) / 255 for i in (1, 3, 5)))


def hex_of(colour: Color) -> str:
    return "#" + "".join(f"{round(255 * c):02x}" for c in (colour.red, colour.green, colour.blue))


@dataclass(frozen=True)
class Area:
    """A filled shape as later elements see it: where it is, and the dark colour it had if it was lightened."""

    contains: Callable[[float, float], bool]
    dark: str | None  # the original colour of a lightened area; None for an area printed as it is


def _shape_area(element: Element) -> tuple[float, Callable[[float, float], bool]] | None:
    """The area (mm²) of a filled shape and a test for a point inside it; None for elements that are not shapes."""
    a = element.attrs
    if element.tag == "rect":
        x, y, w, h = a["x"], a["y"], a["w"], a["h"]
        return w * h, lambda px, py: x <= px <= x + w and y <= py <= y + h
    if element.tag in ("circle", "hexagon"):
        cx, cy, r = a["cx"], a["cy"], a["r"]
        size = math.pi * r * r if element.tag == "circle" else 1.5 * math.sqrt(3) * r * r
        return size, lambda px, py: math.hypot(px - cx, py - cy) <= r
    if element.tag == "polygon":
        points = list(a["points"])
        pairs = list(zip(points, points[1:] + points[:1], strict=True))
        size = abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in pairs)) / 2
        return size, lambda px, py: _inside(px, py, pairs)
    return None


def _inside(px: float, py: float, edges: Sequence[tuple[tuple[float, float], tuple[float, float]]]) -> bool:
    """Even-odd ray casting: whether a point lies inside a polygon given by its edges."""
    inside = False
    for (x1, y1), (x2, y2) in edges:
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _centre(element: Element) -> tuple[float, float] | None:
    """Where a text box, line, icon or shape sits, to find the area under it."""
    a = element.attrs
    if element.tag in ("text", "rect", "image"):
        return a["x"] + a["w"] / 2, a["y"] + a["h"] / 2
    if element.tag == "line":
        return (a["x1"] + a["x2"]) / 2, (a["y1"] + a["y2"]) / 2
    if element.tag in ("circle", "hexagon"):
        return a["cx"], a["cy"]
    if element.tag == "polygon":
        points = list(a["points"])
        return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)
    return None


class Lightener:
    """Rewrites one face for light ink, element by element, keeping track of the areas already laid down."""

    def __init__(self, colour: Callable[[str], Color | None], width: float, height: float):
        self.colour = colour
        self.face_area = width * height
        self.areas: list[Area] = []

    def _dark(self, name: Any) -> Color | None:
        if not isinstance(name, str):  # a gradient is printed as drawn: its designer chose its light and dark
            return None
        value = self.colour(name)
        return value if value is not None and value.alpha > 0.5 and luminance(value) < DARK else None

    def _light(self, name: Any) -> bool:
        if not isinstance(name, str):
            return False
        value = self.colour(name)
        return value is not None and luminance(value) > LIGHT

    def _faint(self, name: str, dark: str) -> bool:
        """Whether text of this colour falls below `READABLE` contrast on the tint of `dark`."""
        value = self.colour(name)
        if value is None:
            return False
        return contrast(value, rgb(tint(rgb(dark)))) < READABLE

    def background(self, bg: str) -> str:
        dark = self._dark(bg)
        self.areas.append(Area(lambda x, y: True, hex_of(dark) if dark else None))
        return tint(dark) if dark else bg

    def element(self, element: Element) -> Element:
        attrs = dict(element.attrs)
        under = self._under(element)
        if under is not None:  # light text and lines drawn to stand out on a lightened area take its colour
            for key in ("colour", "stroke"):
                if key in attrs and self._light(attrs[key]):
                    attrs[key] = under
            if element.tag == "text" and self._faint(attrs["colour"], under):  # and so does text it would hide
                attrs["colour"] = readable_on_tint(under)
        shape = _shape_area(element)
        if shape is not None and attrs.get("fill", "none") != "none":
            size, contains = shape
            # a gradient is a designed fill, printed as it is (its stops are not one colour to tint)
            dark = self._dark(attrs["fill"]) if isinstance(attrs["fill"], str) else None
            if dark is not None and size >= LARGE * self.face_area:
                attrs.update({"fill": tint(dark), "stroke": hex_of(dark), "stroke-width": OUTLINE, "dash": ()})
                self.areas.append(Area(contains, hex_of(dark)))
            else:
                self.areas.append(Area(contains, None))
        return replace(element, attrs=attrs)

    def _under(self, element: Element) -> str | None:
        centre = _centre(element)
        if centre is None:
            return None
        for area in reversed(self.areas):  # the topmost area under the element's centre decides
            if area.contains(*centre):
                return area.dark
        return None


def light_face(face: Face, colour: Callable[[str], Color | None], width: float, height: float) -> Face:
    """The face for light ink: large dark areas as outlined tints, light text and lines on them in their colour."""
    lightener = Lightener(colour, width, height)
    bg = lightener.background(face.bg)
    return Face(bg, tuple(lightener.element(e) for e in face.elements))


def load_coverage() -> None:
    """Import what `coverage` reads PDFs with (pdfium, Pillow's formats): a parallel build does it once in the
    parent, where its forked workers find it, instead of in every worker."""
    import pypdfium2  # noqa: F401
    from PIL import Image

    Image.preinit()


SHARED_FROM = 24  # distinct pages from which a spare core measures every other one (`coverage`)
spare_cores = 0  # cores a parallel build leaves idle while this process draws a file (`sharing`)


@contextlib.contextmanager
def sharing(spare: int) -> Iterator[None]:
    """`spare_cores` for the file drawn inside the block (a parallel build's unit), 0 again after it: a later build
    in the same process (`--jobs 1`, or a test's) never forks."""
    global spare_cores
    spare_cores = spare
    try:
        yield
    finally:
        spare_cores = 0


def coverage(pdf: bytes, keys: Sequence[bytes] = (), known: Sequence[float | None] = ()) -> list[float]:
    """Each page's ink coverage: its mean darkness (0 white paper, 1 solid black), rendered at `COVERAGE_DPI`. A page
    whose key (`keys`, by page: `Document.page_keys`) an earlier page has is drawn as that page is but for its sheet
    label, and takes its coverage unrendered: a deck's back pages are one render, not one a sheet (rendering is
    about half of a bundled game's build, most of it in the art, which costs pdfium the same at any resolution).
    With a spare core (`spare_cores`: a parallel build with fewer files than processes) and enough distinct pages,
    a forked helper renders every other one (`_shared`): the same figures, sooner (300 pages: 0.38–0.43 s alone,
    0.25–0.33 s shared). A page whose coverage is `known` (by page: `Document.page_ink`, worked out from what it
    drew) is not rendered; when every page's is, the file is not read at all."""
    if known and all(ink is not None for ink in known):
        return [float(ink) for ink in known if ink is not None]
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        keyed = len(keys) == len(document)  # else no keys, or another document's: every page is rendered
        given = known if len(known) == len(document) else [None] * len(document)
        first: dict[bytes, int] = {}
        source = [
            first.setdefault(keys[index], index) if keyed else index
            for index in range(len(document))
            if given[index] is None
        ]
        todo = sorted(set(source))
        if spare_cores and len(todo) >= SHARED_FROM:
            measured = _shared(document, pdf, todo)
        else:
            measured = {index: _measure(document, index) for index in todo}
        each = iter(source)
        return [measured[next(each)] if ink is None else ink for ink in given]
    finally:
        raster.close(document)


def _measure(document: Any, index: int) -> float:
    with rendered(document, index, scale=COVERAGE_DPI / 72, grayscale=True) as image:
        histogram = image.histogram()
    return 1 - sum(level * n for level, n in enumerate(histogram)) / (255 * sum(histogram))


def _shared(document: Any, pdf: bytes, todo: list[int]) -> dict[int, float]:
    """The pages' coverage, every other page measured by a forked helper that writes its figures to a pipe. What
    the helper did not send (it failed, or was stopped) is measured here: the figures never depend on it."""
    import os
    from array import array

    from cardgen import stopping

    theirs = todo[1::2]
    reader, writer = os.pipe()
    held = stopping.block()  # Ctrl-C and SIGTERM wait until the helper is forked (as `parallel.Speculative._fork`)
    try:
        pid = os.fork()
    except OSError:
        pid = -1
    if pid == 0:  # the helper: it never returns into the caller's code
        code = 1
        try:
            os.close(reader)
            stopping.release(held)
            import pypdfium2 as pdfium

            own = pdfium.PdfDocument(pdf)
            data = array("d", (_measure(own, index) for index in theirs)).tobytes()
            while data:
                data = data[os.write(writer, data) :]
            code = 0
        finally:
            os._exit(code)
    try:
        os.close(writer)
    finally:
        stopping.release(held)
    try:
        measured = {index: _measure(document, index) for index in todo[0::2]}
        received = bytearray()
        if pid > 0:
            while chunk := os.read(reader, 1 << 16):
                received += chunk
    finally:
        os.close(reader)
        if pid > 0:
            os.waitpid(pid, 0)
    figures = array("d")
    figures.frombytes(bytes(received[: len(received) // 8 * 8]))
    measured.update(zip(theirs, figures, strict=False))
    measured.update({index: _measure(document, index) for index in theirs[len(figures) :]})
    return measured
