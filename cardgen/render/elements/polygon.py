"""`<polygon>`: a closed shape through three or more points."""

from __future__ import annotations

from typing import Any, ClassVar

from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Surface
from cardgen.render.markup import SHAPE, Attr, Element, points


class Polygon(ElementKind):
    tag = "polygon"
    summary = 'a closed shape through `points="x,y x,y …"`'
    attributes: ClassVar[dict[str, Attr]] = {
        "points": Attr(points, unit="mm", doc="three or more corners, each `x,y` from the trim's top-left corner"),
        **SHAPE,
    }

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        surface.polygon(element.attrs, list(element["points"]))
