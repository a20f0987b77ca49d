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
        stroke, fill = surface.paint(element.attrs)
        centre_x, centre_y = element["cx"] * MM, surface.y(element["cy"])
        surface.canvas.circle(centre_x, centre_y, element["r"] * MM, stroke=stroke, fill=fill)
