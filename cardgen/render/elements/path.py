"""`<path>`: any outline written as SVG path data — lines, cubic and quadratic Béziers, arcs — filled and stroked."""

from __future__ import annotations

from typing import Any, ClassVar

from cardgen.render import svgpath
from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Surface
from cardgen.render.markup import SHAPE, Attr, Element, choice, path_data


class Path(ElementKind):
    tag = "path"
    summary = (
        "any outline in SVG path data (`M L H V C S Q T A Z`, lower case relative), in mm from the trim's top-left "
        "corner, y down"
    )
    example = '<path d="M5 20 Q31.75 0 58.5 20 L58.5 30 A26.75 10 0 0 1 5 30 Z" fill="linear(90, navy, #3a6ea5)"/>'
    attributes: ClassVar[dict[str, Attr]] = {
        "d": Attr(path_data, unit="mm", doc="the outline: `M x y` moves, `L`/`H`/`V` draw lines, `C`/`S` cubic and "
                  "`Q`/`T` quadratic Béziers, `A rx ry rotation large sweep x y` elliptical arcs, `Z` closes; "
                  "commas or spaces between numbers"),
        "fill-rule": Attr(choice("nonzero", "evenodd"), "nonzero", doc="which parts of a path crossing itself are "
                          "inside: `evenodd` leaves holes where outlines nest"),
        **SHAPE,
    }  # fmt: skip

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        ops = element["d"]
        path = svgpath.draw(ops, surface.canvas.beginPath(), surface.point)
        surface.shape(element.attrs, path, svgpath.bounds(ops))
