"""`<rect>`: a rectangle, optionally rounded, whose edges on the trim can run on into the bleed."""

from __future__ import annotations

from typing import Any, ClassVar

from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Surface
from cardgen.render.markup import BOX, SHAPE, Attr, Element, boolean, length
from cardgen.units import MM

ON_TRIM = 0.01  # mm: an edge this close to the trim counts as on it


class Rect(ElementKind):
    tag = "rect"
    summary = 'a rectangle, its corners rounded by `radius`; with `bleed="true"` edges on the trim run into the bleed'
    attributes: ClassVar[dict[str, Attr]] = {
        **BOX,
        "radius": Attr(length, 0.0, "mm", "rounds the corners"),
        "bleed": Attr(boolean, False, doc="edges lying on the trim run on to the bleed's edge (backgrounds, bands)"),
        **SHAPE,
    }

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        x, y, w, h = element["x"], element["y"], element["w"], element["h"]
        if element["bleed"]:
            bleed = surface.bleed
            left = bleed if x <= ON_TRIM else 0
            top = bleed if y <= ON_TRIM else 0
            right = bleed if x + w >= surface.width - ON_TRIM else 0
            bottom = bleed if y + h >= surface.height - ON_TRIM else 0
            x, y, w, h = x - left, y - top, w + left + right, h + top + bottom
        path = surface.canvas.beginPath()
        if element["radius"] > 0:
            path.roundRect(x * MM, surface.y(y + h), w * MM, h * MM, element["radius"] * MM)
        else:
            path.rect(x * MM, surface.y(y + h), w * MM, h * MM)
        surface.shape(element.attrs, path, (x, y, x + w, y + h))
