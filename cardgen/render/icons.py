"""Icons: a game's icon set — vector shapes, or its own SVG, PNG or JPEG files — drawn by layouts (`<icon>`) and
inline in text (`{credits}`, or `{credits:red}` in one colour).

Inline icons ride on reportlab's paragraph `<img>` tag, which reserves the right width in the line and calls the
canvas's `drawImage` where the icon belongs. Each icon name (with its colour, if one is set) gets a one-pixel
placeholder PNG (written once per process to a temporary folder); `IconCanvas.drawImage` recognises the placeholder
and draws the icon instead, so the PDF holds vector symbols (or the icon's own file) at the text size.

The folder is removed when the process that made it exits. A forked build worker ends with `os._exit`, which skips
`atexit`: it calls `remove_folder` first (render/parallel.py), which removes the folder only if the worker made it
(one inherited from the parent is the parent's to remove).
"""

from __future__ import annotations

import atexit
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PIL import Image
from reportlab.lib.boxstuff import aspectRatioFix
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader, _digester
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from cardgen.data.model import Icon

_PLACEHOLDERS: dict[str, str] = {}
_FOLDER: Path | None = None


# How wide a label may be, as a share of the icon's side, where the label sits (the shape's centre): a triangle or
# a star has far less room there than a circle or a square.
LABEL_ROOM = {"circle": 0.8, "ring": 0.6, "square": 0.8, "hexagon": 0.8, "diamond": 0.55, "triangle": 0.42,
              "star": 0.35, "burst": 0.5, "shield": 0.7, "bolt": 0.3}  # fmt: skip


def label_size(icon: Icon, side: float, font: str) -> float:
    """The font size (points) of an icon's label on an icon `side` points square: 0.62 of the side for one letter,
    0.45 for more, and never wider than the room inside the shape."""
    label = icon.label or ""
    wanted = side * (0.62 if len(label) == 1 else 0.45)
    width = stringWidth(label, font, 1.0)  # at 1 pt
    return min(wanted, LABEL_ROOM[icon.shape] * side / width) if width else wanted


_MADE_BY: int | None = None  # the process that made `_FOLDER`


def _folder() -> Path:
    """This process's placeholder folder (its parent's, in a worker forked after the parent made one), made on first
    use."""
    global _FOLDER, _MADE_BY
    if _FOLDER is None:
        _FOLDER, _MADE_BY = Path(tempfile.mkdtemp(prefix="cardgen-icons-")), os.getpid()
        atexit.register(remove_folder)
    return _FOLDER


def remove_folder() -> None:
    """Remove the placeholder folder if this process made it: what `atexit` runs, and what a forked worker runs
    before `os._exit` (which skips `atexit`)."""
    if _FOLDER is not None and os.getpid() == _MADE_BY:
        shutil.rmtree(_FOLDER, ignore_errors=True)


def placeholder(key: str) -> str:
    """The path of the placeholder image standing for an icon inside paragraph markup: `key` is the icon's name, or
    `name:colour` for the icon in one colour."""
    if key not in _PLACEHOLDERS:
        # named by process too: a forked worker writes its own into the folder it shares with its parent
        path = _folder() / f"{os.getpid()}-{len(_PLACEHOLDERS)}.png"
        Image.new("1", (1, 1)).save(path)
        _PLACEHOLDERS[key] = str(path)
        _KEYS[str(path)] = key
    return _PLACEHOLDERS[key]


_KEYS: dict[str, str] = {}  # placeholder path → icon key


# Draws an icon: canvas, x, y, size (points), and the colour name it is drawn in (None: its own colours).
Painter = Callable[[Any, float, float, float, str | None], None]


class IconCanvas(Canvas):  # type: ignore[misc]  # reportlab has no type hints
    """A canvas that draws vector icons where paragraphs place icon placeholders, and whose forms keep their
    transparency and gradients (reportlab writes a form's graphics states, used by `opacity` and `#rrggbbaa`, and
    its shadings, used by `linear(…)` and `radial(…)` fills, only into pages: a face drawn through a form lost
    them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._painters: Mapping[str, Painter] = {}
        # where a document draws the same art more than once (the contrast check: each face with and without its
        # glyphs), each piece of art's form by what decides it (`elements.art.Art.draw`); None: art drawn in place
        self.art_forms: dict[tuple[Any, ...], str] | None = None

    def use_icons(self, painters: Mapping[str, Painter]) -> None:
        self._painters = painters

    def endForm(self, **extra_attributes: Any) -> None:
        name = self._formData[0]
        shadings = dict(self._shadingUsed)  # the form's own: reset when it began, restored for the page after it
        super().endForm(**extra_attributes)
        form = self._doc.idToObject[pdfdoc.xObjectName(name)]
        if form.ExtGState or shadings:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if form.XObjects:
                resources.XObject = form.XObjects
            if form.ExtGState:
                resources.ExtGState = form.ExtGState
            resources.setShading(shadings)
            form.Resources = resources

    def drawImage(  # reportlab's name
        self, image: Any, x: float, y: float, width: float | None = None, height: float | None = None, *args: Any,
        **kwargs: Any,
    ) -> Any:  # fmt: skip
        name, _, colour = _KEYS.get(getattr(image, "fileName", None) or "", "").partition(":")
        painter = self._painters.get(name)
        if painter is not None:
            assert width is not None and height is not None  # paragraphs size their images
            painter(self, x, y, min(width, height), colour or None)
            return (width, height)
        if not args and not kwargs and isinstance(image, ImageReader) and image.jpeg_fh() is not None:
            return self._draw_jpeg(image, x, y, width, height)
        return super().drawImage(image, x, y, width, height, *args, **kwargs)

    def _draw_jpeg(self, image: Any, x: float, y: float, width: float | None, height: float | None) -> Any:
        """`drawImage` of a JPEG read into an `ImageReader` (a nebula, a photograph), named by the digest of its
        compressed bytes: reportlab names an image by its decoded pixels, which it decodes for that alone and keeps
        with the reader (a board's nebula: about 100 MB decoded for a name; the file embeds the JPEG as it is)."""
        name = getattr(image, "cardgen_name", None)  # worked out once a reader: a nebula is placed on many faces
        if name is None:
            handle = image.jpeg_fh()
            name = image.cardgen_name = _digester(b"jpeg\0" + handle.read())
            handle.seek(0)
        registered = self._doc.getXObjectName(name)
        xobject = self._doc.idToObject.get(registered)
        if xobject is None:
            xobject = pdfdoc.PDFImageXObject(name, image)
            xobject.name = name
            self._setXObjects(xobject)
            self._doc.Reference(xobject, registered)
            self._doc.addForm(name, xobject)
        x, y, width, height, _ = aspectRatioFix(False, "c", x, y, width, height, xobject.width, xobject.height)
        self._currentPageHasImages = 1
        self.saveState()
        self.translate(x, y)
        self.scale(width, height)
        self._code.append(f"/{registered} Do")
        self.restoreState()
        self._formsinuse.append(name)
        return (xobject.width, xobject.height)


def painter(icon: Icon, colour: Callable[[str], Color | None], label_font: str) -> Painter:
    """A function drawing `icon` in a square of `size` points whose bottom-left corner is (x, y), filled with its
    own colour or the one it is given."""
    stroke = colour(icon.stroke) if icon.stroke else None
    label_colour = colour(icon.label_colour)

    def paint(canvas: Canvas, x: float, y: float, size: float, instead: str | None = None) -> None:
        fill = colour(instead or icon.fill)
        canvas.saveState()
        if fill is not None:
            canvas.setFillColor(fill)
        if stroke is not None:
            canvas.setStrokeColor(stroke)
            canvas.setLineWidth(max(size * 0.06, 0.2))
        if icon.shape == "ring":
            canvas.setStrokeColor(fill)
            canvas.setLineWidth(size * 0.16)
            canvas.circle(x + size / 2, y + size / 2, size * 0.42, stroke=1, fill=0)
        else:
            path = shape_path(canvas, icon.shape, x, y, size)
            canvas.drawPath(path, stroke=1 if stroke is not None else 0, fill=1)
        if icon.label:
            canvas.setFillColor(label_colour)
            font_size = label_size(icon, size, label_font)
            canvas.setFont(label_font, font_size)
            canvas.drawCentredString(x + size / 2, y + size / 2 - font_size * 0.36, icon.label)
        canvas.restoreState()

    return paint


def shape_path(canvas: Canvas, shape: str, x: float, y: float, size: float) -> Any:
    """The outline of an icon shape inside the square (x, y, size)."""
    cx, cy, r = x + size / 2, y + size / 2, size / 2
    path = canvas.beginPath()
    if shape in ("circle", "ring"):
        path.circle(cx, cy, r)
        return path
    if shape == "square":
        path.roundRect(x + size * 0.06, y + size * 0.06, size * 0.88, size * 0.88, size * 0.12)
        return path
    points = _SHAPES[shape](cx, cy, r)
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    return path


def regular_polygon(cx: float, cy: float, r: float, sides: int, start: float = 0.0) -> list[tuple[float, float]]:
    """The corners of a regular polygon with circumradius r (a flat-topped hexagon for sides=6, start=0)."""
    return [
        (cx + r * math.cos(start + 2 * math.pi * i / sides), cy + r * math.sin(start + 2 * math.pi * i / sides))
        for i in range(sides)
    ]


def _polygon(sides: int, start: float) -> Callable[[float, float, float], list[tuple[float, float]]]:
    def points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
        return regular_polygon(cx, cy, r, sides, start)

    return points


def _star(spikes: int, inner: float) -> Callable[[float, float, float], list[tuple[float, float]]]:
    def points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
        out = []
        for i in range(spikes * 2):
            radius = r if i % 2 == 0 else r * inner
            angle = math.pi / 2 + math.pi * i / spikes
            out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        return out

    return points


def _shield(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [
        (cx - r * 0.85, cy + r * 0.9),
        (cx + r * 0.85, cy + r * 0.9),
        (cx + r * 0.85, cy),
        (cx, cy - r),
        (cx - r * 0.85, cy),
    ]


def _bolt(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [
        (cx + r * 0.2, cy + r),
        (cx - r * 0.6, cy - r * 0.1),
        (cx - r * 0.05, cy - r * 0.1),
        (cx - r * 0.25, cy - r),
        (cx + r * 0.6, cy + r * 0.15),
        (cx + r * 0.05, cy + r * 0.15),
    ]


_SHAPES: dict[str, Callable[[float, float, float], list[tuple[float, float]]]] = {
    "diamond": _polygon(4, math.pi / 2),
    "hexagon": _polygon(6, 0.0),
    "triangle": _polygon(3, math.pi / 2),
    "star": _star(5, 0.45),
    "burst": _star(8, 0.55),
    "shield": _shield,
    "bolt": _bolt,
}
