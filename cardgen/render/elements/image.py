"""`<image>`: a PNG, JPEG or SVG from the game's folder, fitted into its box (`contain`, `cover` or `stretch`).

Bitmaps are embedded once per document by reportlab; an SVG is drawn once into a PDF form and placed by reference.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cardgen.errors import DataError
from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Kit, Surface
from cardgen.render.markup import BOX, ROTATE_DOC, TEXT, Attr, Element, angle, choice, fraction
from cardgen.render.svgrefs import svg_form
from cardgen.units import MM


class Image(ElementKind):
    tag = "image"
    summary = "PNG, JPEG or SVG inside the game's folder, embedded once, turned to any angle, see-through by `opacity`"
    attributes: ClassVar[dict[str, Attr]] = {
        "src": Attr(TEXT, doc="the file, relative to the game's folder (and inside it)"),
        **BOX,
        "fit": Attr(
            choice("contain", "cover", "stretch"), "contain",
            doc="`contain`: all of it, centred; `cover`: fills the box, cut to it; `stretch`: to the box's shape",
        ),
        "rotate": Attr(angle, 0.0, "degrees", ROTATE_DOC),
        "opacity": Attr(fraction, 1.0, doc="1 opaque, 0 invisible (an SVG's shapes each take it)"),
    }  # fmt: skip

    def prepare(self, element: Element, kit: Kit, who: str) -> Any:
        try:
            kit.images.resolve(element["src"])
        except DataError as exc:
            raise DataError(f"{who}: {exc.problems[0]}") from None

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        src, fit, canvas = element["src"], element["fit"], surface.canvas
        path = surface.kit.images.resolve(src)
        x, w, h = element["x"] * MM, element["w"] * MM, element["h"] * MM
        y = surface.y(element["y"]) - h
        if element["rotate"]:
            w, h = surface.turn(element["x"], element["y"], element["w"], element["h"], element["rotate"])
            x, y = 0.0, -h
        if element["opacity"] < 1:
            canvas.setFillAlpha(element["opacity"])  # PDF paints images with the fill alpha
        if src in surface.kit.images.svg:
            _draw_svg(surface, src, (x, y, w, h), fit, element["opacity"])
        elif fit == "cover":
            from PIL import Image as PILImage

            with PILImage.open(path) as image:
                iw, ih = image.size
            scale = max(w / iw, h / ih)
            _clip(canvas, x, y, w, h)
            dw, dh = iw * scale, ih * scale
            canvas.drawImage(str(path), x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, mask="auto")
        else:
            keep = fit == "contain"
            canvas.drawImage(str(path), x, y, w, h, mask="auto", preserveAspectRatio=keep, anchor="c")


def _clip(canvas: Any, x: float, y: float, w: float, h: float) -> None:
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)


def _draw_svg(surface: Surface, src: str, box: tuple[float, float, float, float], fit: str, opacity: float) -> None:
    canvas, (x, y, w, h) = surface.canvas, box
    drawing = surface.kit.images.svg[src]
    form = svg_form(canvas, src, drawing, opacity=opacity)
    sx, sy = w / drawing.width, h / drawing.height
    if fit != "stretch":
        sx = sy = (max if fit == "cover" else min)(sx, sy)
    canvas.translate(x + (w - drawing.width * sx) / 2, y + (h - drawing.height * sy) / 2)
    if fit == "cover":
        _clip(canvas, (w - drawing.width * sx) / -2, (h - drawing.height * sy) / -2, w, h)
    canvas.scale(sx, sy)
    canvas.doForm(form)
