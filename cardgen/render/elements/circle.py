"""`<circle>`: a circle by its centre and radius."""

from __future__ import annotations

from typing import Any, ClassVar

from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Surface
from cardgen.render.markup import CENTRE, SHAPE, Attr, Element
from cardgen.units import MM


class Circle(ElementKind):
    tag = "circle"
    summary = "a circle"
    attributes: ClassVar[dict[str, Attr]] = {**CENTRE, **SHAPE}

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        cx, cy, r = element["cx"], element["cy"], element["r"]
        path = surface.canvas.beginPath()
        path.circle(cx * MM, surface.y(cy), r * MM)
        surface.shape(element.attrs, path, (cx - r, cy - r, cx + r, cy + r))
