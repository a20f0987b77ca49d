"""`<line>`: a straight stroke."""

from __future__ import annotations

from typing import Any, ClassVar

from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Surface
from cardgen.render.markup import COLOUR, STROKE, Attr, Element, number
from cardgen.units import MM


class Line(ElementKind):
    tag = "line"
    summary = "a straight line (black unless `stroke` says otherwise)"
    attributes: ClassVar[dict[str, Attr]] = {
        "x1": Attr(number, unit="mm", doc="one end, from the trim's left edge"),
        "y1": Attr(number, unit="mm", doc="one end, from the trim's top edge, downwards"),
        "x2": Attr(number, unit="mm", doc="the other end, from the trim's left edge"),
        "y2": Attr(number, unit="mm", doc="the other end, from the trim's top edge, downwards"),
        **STROKE,
        "stroke": Attr(COLOUR, "black", doc="the line's colour"),
    }

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        surface.paint(element.attrs)
        surface.canvas.line(element["x1"] * MM, surface.y(element["y1"]), element["x2"] * MM, surface.y(element["y2"]))
