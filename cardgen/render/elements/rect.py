"""`<rect>`: a rectangle, optionally rounded, whose edges on the trim can run on into the bleed."""

from __future__ import annotations

from typing import Any, ClassVar

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import PATH_OPS

from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Surface
from cardgen.render.markup import BOX, SHAPE, Attr, Element, boolean, length
from cardgen.render.plaintext import fill_code
from cardgen.units import MM

ON_TRIM = 0.01  # mm: an edge this close to the trim counts as on it
FILL_RULES = {"evenodd": 0, "nonzero": 1}  # reportlab's fill modes (`Surface.shape` reads them the same way)


class Rect(ElementKind):
    tag = "rect"
    summary = 'a rectangle, its corners rounded by `radius`; with `bleed="true"` edges on the trim run into the bleed'
    attributes: ClassVar[dict[str, Attr]] = {
        **BOX,
        "radius": Attr(length, 0.0, "mm", "rounds the corners"),
        "bleed": Attr(boolean, False, doc="edges lying on the trim run on to the bleed's edge (backgrounds, bands)"),
        **SHAPE,
    }

    def plain(self, element: Element, surface: Surface, prepared: Any) -> list[str] | None:
        """The code `draw` writes for a square-cornered rectangle filled with one opaque colour and no outline (a
        deck's bands and panels), made without a path object or reportlab's colour calls: the fill, the path, the
        fill operator (`tests/test_textcode.py` holds the bytes to the calls'). None for any other rectangle."""
        if element["radius"] > 0 or element["opacity"] < 1 or not isinstance(element["fill"], str):
            return None
        palette = surface.kit.palette
        colour = palette.get(element["fill"])
        if colour is None or palette.get(element["stroke"]) is not None:
            return None
        fill = fill_code(surface.canvas, colour)
        if fill is None:
            return None
        x, y, w, h = extent(element, surface.bleed, surface.width, surface.height)
        mode = FILL_RULES.get(element.attrs.get("fill-rule", ""), surface.canvas._fillMode)
        return [fill, f"n {fp_str((x * MM, surface.y(y + h), w * MM, h * MM))} re", PATH_OPS[0, 1, mode]]

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        x, y, w, h = extent(element, surface.bleed, surface.width, surface.height)
        path = surface.canvas.beginPath()
        if element["radius"] > 0:
            path.roundRect(x * MM, surface.y(y + h), w * MM, h * MM, element["radius"] * MM)
        else:
            path.rect(x * MM, surface.y(y + h), w * MM, h * MM)
        surface.shape(element.attrs, path, (x, y, x + w, y + h))


def extent(element: Element, bleed: float, width: float, height: float) -> tuple[float, float, float, float]:
    """The rectangle's x, y, width and height in markup mm: with `bleed="true"`, its edges on the trim run on to the
    bleed's edge."""
    x, y, w, h = element["x"], element["y"], element["w"], element["h"]
    if element["bleed"]:
        left = bleed if x <= ON_TRIM else 0
        top = bleed if y <= ON_TRIM else 0
        right = bleed if x + w >= width - ON_TRIM else 0
        bottom = bleed if y + h >= height - ON_TRIM else 0
        x, y, w, h = x - left, y - top, w + left + right, h + top + bottom
    return x, y, w, h
