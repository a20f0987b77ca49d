"""`<image>`: a PNG, JPEG or SVG from the game's folder, fitted into its box (`contain`, `cover` or `stretch`).

Bitmaps are embedded once per document by reportlab; an SVG is drawn once into a PDF form and placed by reference.
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar

from cardgen.errors import DataError
from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Kit, Surface
from cardgen.render.markup import BOX, TEXT, Attr, Element, choice
from cardgen.units import MM


class Image(ElementKind):
    tag = "image"
    summary = "PNG, JPEG or SVG inside the game's folder, embedded once"
    attributes: ClassVar[dict[str, Attr]] = {
        "src": Attr(TEXT),
        **BOX,
        "fit": Attr(choice("contain", "cover", "stretch"), "contain"),
    }

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
        if src in surface.kit.images.svg:
            _draw_svg(surface, src, (x, y, w, h), fit)
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


def _draw_svg(surface: Surface, src: str, box: tuple[float, float, float, float], fit: str) -> None:
    from reportlab.graphics import renderPDF

    canvas, (x, y, w, h) = surface.canvas, box
    drawing = surface.kit.images.svg[src]
    form = "svg-" + hashlib.sha1(src.encode()).hexdigest()[:12]
    if not canvas.hasForm(form):
        canvas.beginForm(form, 0, 0, drawing.width, drawing.height)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.endForm()
    sx, sy = w / drawing.width, h / drawing.height
    if fit != "stretch":
        sx = sy = (max if fit == "cover" else min)(sx, sy)
    canvas.translate(x + (w - drawing.width * sx) / 2, y + (h - drawing.height * sy) / 2)
    if fit == "cover":
        _clip(canvas, (w - drawing.width * sx) / -2, (h - drawing.height * sy) / -2, w, h)
    canvas.scale(sx, sy)
    canvas.doForm(form)
