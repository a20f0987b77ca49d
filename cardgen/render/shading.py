"""Gradients as PDF shadings: the colours as an axial or radial shading, and an opacity that changes along the
gradient as a soft mask — a luminosity mask whose grey shading runs through the stops' alphas along the same
geometry. Both are vector: the viewer or RIP computes every pixel; nothing is rasterised here.

reportlab draws shadings but has no soft masks, so the mask is written as the PDF objects it is (a transparency
group form holding the grey shading, named by an ExtGState entry `/SMask`), through reportlab's document objects.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfdoc

Geometry = tuple[float, ...]  # linear: x0, y0, x1, y1; radial: x, y, radius (points)


def shade(
    canvas: Any,
    kind: str,
    geometry: Geometry,
    colours: list[Color],
    positions: list[float],
    opacity: float,
    box: tuple[float, float, float, float],
) -> None:
    """Paint the current clip with the gradient; `box` (left, bottom, right, top in points) bounds what is painted.
    One alpha shared by every colour is the fill's alpha; alphas that differ become a soft mask."""
    alphas = [colour.alpha * opacity for colour in colours]
    if len(set(alphas)) > 1:
        _soft_mask(canvas, kind, geometry, alphas, positions, box)
    elif alphas[0] < 1:
        canvas.setFillAlpha(alphas[0])
    opaque = [Color(colour.red, colour.green, colour.blue) for colour in colours]
    if kind == "radial":
        canvas.radialGradient(*geometry, opaque, positions, extend=True)
    else:
        canvas.linearGradient(*geometry, opaque, positions, extend=True)


def _soft_mask(
    canvas: Any,
    kind: str,
    geometry: Geometry,
    alphas: list[float],
    positions: list[float],
    box: tuple[float, float, float, float],
) -> None:
    """Set a soft mask whose luminosity is the alphas' grey shading: what follows is as opaque as the mask is light."""
    from reportlab.pdfgen.canvas import _buildColorFunction  # the stitched function reportlab's own shadings use

    document = canvas._doc
    function = _buildColorFunction([[alpha] for alpha in alphas], list(positions))
    if kind == "radial":
        x, y, radius = geometry
        grey: Any = pdfdoc.PDFRadialShading(
            x, y, 0.0, x, y, radius, Function=function, ColorSpace="DeviceGray", Extend="[true true]"
        )
    else:
        grey = pdfdoc.PDFAxialShading(*geometry, Function=function, ColorSpace="DeviceGray", Extend="[true true]")
    form = pdfdoc.PDFStream(
        pdfdoc.PDFDictionary(
            {
                "Type": pdfdoc.PDFName("XObject"),
                "Subtype": pdfdoc.PDFName("Form"),
                "BBox": pdfdoc.PDFArrayCompact([round(v, 3) for v in box]),
                "Group": pdfdoc.PDFDictionary(
                    {"S": pdfdoc.PDFName("Transparency"), "CS": pdfdoc.PDFName("DeviceGray")}
                ),
                "Resources": pdfdoc.PDFDictionary(
                    {"Shading": pdfdoc.PDFDictionary({"Mask": document.Reference(grey)})}
                ),
            }
        ),
        content="/Mask sh",
    )
    mask = pdfdoc.PDFDictionary(
        {"Type": pdfdoc.PDFName("Mask"), "S": pdfdoc.PDFName("Luminosity"), "G": document.Reference(form)}
    )
    # reportlab's graphics states are named in one table shared by the whole canvas; the mask joins it
    states = canvas._extgstate._c
    name = f"gRLs{len(states)}"
    states[("SMask", mask)] = name  # each mask its own state (hashed by identity), written as `<< /SMask … >>`
    canvas._code.append(f"/{name} gs")


__all__ = ["shade"]
