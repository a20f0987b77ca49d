"""`<hexagon>`: a regular hexagon by its centre and its radius (centre to corner)."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from cardgen.render.elements.base import ElementKind
from cardgen.render.icons import regular_polygon
from cardgen.render.kit import Surface
from cardgen.render.markup import CENTRE, SHAPE, Attr, Element, choice


class Hexagon(ElementKind):
    tag = "hexagon"
    summary = "a regular hexagon, `r` from centre to corner, flat sides or points at the top"
    attributes: ClassVar[dict[str, Attr]] = {
        **CENTRE,
        "orient": Attr(choice("flat", "pointy"), "flat", doc="flat sides or points at the top and bottom"),
        **SHAPE,
    }

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        start = 0.0 if element["orient"] == "flat" else math.pi / 6
        surface.polygon(element.attrs, regular_polygon(element["cx"], element["cy"], element["r"], 6, start))
