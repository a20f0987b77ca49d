"""What the elements of a face draw with: the game's palette, font roles, icon painters and images, and the surface
(canvas and face geometry) a face is drawn on.

Images are checked once when first used (inside the game folder, a known format, decodable, within the pixel limit)
and embedded once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, toColor
from reportlab.lib.rl_accel import fp_str

from cardgen import limits
from cardgen.data.model import Icon
from cardgen.errors import DataError, display_path
from cardgen.files import inside, real, require_regular
from cardgen.render import svgpath
from cardgen.render.bitmaps import check_pixels, open_unchecked
from cardgen.render.fonts import FontRole
from cardgen.render.icons import Painter, regular_polygon
from cardgen.render.markup import Clip, Gradient, Transform, colour_literal
from cardgen.render.shading import shade
from cardgen.render.svgrefs import check_svg_references, svg_form
from cardgen.units import MM

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".svg"}


class Palette:
    """Colour names → reportlab colours: the game's own names first, then `#rrggbb`/`#rrggbbaa` and standard names."""

    def __init__(self, named: Mapping[str, str]):
        self.named = dict(named)
        self._cache: dict[str, Color | None] = {}

    def get(self, name: str) -> Color | None:
        if name not in self._cache:
            self._cache[name] = self._resolve(name)
        return self._cache[name]

    def _resolve(self, name: str) -> Color | None:
        if name in ("none", "transparent"):
            return None
        value = self.named.get(name, name)
        if not colour_literal(value):
            raise ValueError(f"'{value}' is not a colour")
        if value.startswith("#") and len(value) == 9:
            base = toColor(value[:7])
            return Color(base.red, base.green, base.blue, int(value[7:], 16) / 255)
        return toColor(value)

    def is_colour(self, name: str) -> bool:
        try:
            self.get(name)
        except (ValueError, TypeError):
            return False
        return True


@dataclass(frozen=True, slots=True)
class SetText:
    """Text a face sets: what it is (a text box's field, an icon's label) and its font size in points as drawn."""

    what: str
    size: float


@lru_cache(maxsize=4096)
def set_text(what: str, size: float) -> SetText:
    """One `SetText` for each (field, size): a deck's faces set the same few, each face keeping its list of them."""
    return SetText(what, size)


@dataclass(frozen=True)
class TextRun:
    """Text as a face drew it, for judging its contrast (`render/contrast.py`): what it is, the colour its glyphs are
    filled with, and the box its lines take, in the canvas's points (x0, y0, x1, y1) at the time of drawing."""

    what: str
    colour: Color
    box: tuple[float, float, float, float]


@dataclass
class Overflow:
    """Text that did not fit even at its minimum size."""

    field: str
    overflow_mm: float
    size: float


class ImageStore:
    """Images a game's layouts use: checked once (inside the game folder, present, decodable), embedded once."""

    def __init__(self, game_dir: Path):
        from PIL import Image

        # Pillow's own bomb guard (a warning above its limit, an error at twice it) follows cardgen's limit, which is
        # checked first with a located message; raising `--limit image_pixels` then works for reportlab's reads too.
        Image.MAX_IMAGE_PIXELS = limits.current().image_pixels
        self.game_dir = game_dir.resolve()
        self.checked: dict[str, Path] = {}
        self.svg: dict[str, Any] = {}

    def resolve(self, src: str) -> Path:
        if src in self.checked:
            return self.checked[src]
        path = real(self.game_dir / src)
        shown = display_path(path)
        if not inside(path, self.game_dir):
            raise DataError(f"image '{src}' lies outside the game folder {display_path(self.game_dir)}")
        require_regular(path)
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            raise DataError(f"{shown}: images must be PNG, JPEG or SVG")
        if not path.is_file():
            raise DataError(f"{shown}: image not found")
        if path.suffix.lower() == ".svg":
            self.svg[src] = _read_svg(path, self.game_dir)
        else:
            _check_bitmap(path)
        self.checked[src] = path
        return path


def file_painter(src: str, images: ImageStore, colour: Callable[[str], Color | None]) -> Painter:
    """An icon drawn from the game's own file, contained in its square: an SVG as a form (in one colour when given
    one), a PNG or JPEG as it is, or in one colour through its alpha channel (without one, through its darkness)."""
    tinted: dict[str, Any] = {}

    def paint(canvas: Any, x: float, y: float, size: float, instead: str | None = None) -> None:
        path = images.resolve(src)
        one = colour(instead) if instead else None
        if src in images.svg:
            drawing = images.svg[src]
            form = svg_form(canvas, src, drawing, colour=one)
            scale = size / max(drawing.width, drawing.height)
            canvas.saveState()
            canvas.translate(x + (size - drawing.width * scale) / 2, y + (size - drawing.height * scale) / 2)
            canvas.scale(scale, scale)
            canvas.doForm(form)
            canvas.restoreState()
            return
        image: Any = str(path)
        if one is not None and instead is not None:
            if instead not in tinted:
                tinted[instead] = _tinted(path, one)
            image = tinted[instead]
        canvas.drawImage(image, x, y, size, size, mask="auto", preserveAspectRatio=True, anchor="c")

    return paint


def _tinted(path: Path, colour: Color) -> Any:
    """A bitmap as one colour: its alpha (or, without an alpha channel, its darkness) as the colour's coverage."""
    from PIL import Image, ImageOps
    from reportlab.lib.utils import ImageReader

    with Image.open(path) as image:
        has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        alpha = image.convert("RGBA").getchannel("A") if has_alpha else ImageOps.invert(image.convert("L"))
    rgb = tuple(round(255 * c) for c in (colour.red, colour.green, colour.blue))
    painted = Image.new("RGBA", alpha.size, (*rgb, 255))
    painted.putalpha(alpha)
    return ImageReader(painted)


def _check_bitmap(path: Path) -> None:
    from PIL import Image, UnidentifiedImageError

    try:
        with open_unchecked(path) as image:
            check_pixels(image.size, display_path(path))
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, Image.DecompressionBombError) as exc:
        raise DataError(f"{display_path(path)}: cannot decode image ({exc})") from None


def _read_svg(path: Path, game_dir: Path) -> Any:
    check_svg_references(path, game_dir)
    try:
        from svglib.svglib import svg2rlg

        drawing = svg2rlg(str(path), external_reference_root=str(game_dir))
    except Exception as exc:  # svglib raises many kinds of errors for broken files
        raise DataError(f"{display_path(path)}: cannot read SVG ({type(exc).__name__}: {exc})") from None
    if drawing is None or not (drawing.width > 0 and drawing.height > 0):
        raise DataError(f"{display_path(path)}: cannot read SVG (no drawing of a positive width and height)")
    return drawing


@dataclass(frozen=True)
class Kit:
    """One game's means of drawing, shared by all its faces."""

    palette: Palette
    roles: Mapping[str, FontRole]
    painters: Mapping[str, Painter]
    images: ImageStore
    icons: Mapping[str, Icon]
    label_font: str  # the font of icon labels
    # text boxes fitted so far (elements/text.py): (id of the element's attributes, content) → (attributes, fit)
    fitted: dict[tuple[int, str], tuple[Any, Any]] = field(default_factory=dict)


def _translate(canvas: Any, dx: float, dy: float) -> None:
    """reportlab's `canvas.translate(dx, dy)` then `canvas.rotate(0)` where the code so far does not end in a `cm`
    (which they would merge with): the same bytes and the same tracked matrix, each step's arithmetic as reportlab
    does it, at a fraction of the calls' cost (`tests/test_textcode.py` compares them)."""
    canvas._currentMatrix = _times(_times(canvas._currentMatrix, 1, 0, 0, 1, dx, dy), *NO_TURN)
    canvas._code.append(translation(dx, dy))


@lru_cache(maxsize=4096)  # a deck's boxes sit where they sat on the last card
def translation(dx: float, dy: float) -> str:
    """The `cm` that `translate(dx, dy)` then `rotate(0)` write after code not ending in one (`_translate`)."""
    written = tuple(map(float, fp_str(1, 0, 0, 1, dx, dy).split()))  # rotate(0) merges with the translation as written
    return f"{fp_str(*_times(written, *NO_TURN))} cm"


NO_TURN = (1.0, 0.0, -0.0, 1.0, 0, 0)  # rotate(0)'s transform: cos, sin, -sin, cos of 0


def _times(m: tuple[float, ...], a: float, b: float, c: float, d: float, e: float, f: float) -> tuple[float, ...]:
    """A matrix times a transform, as reportlab's `Canvas.transform` multiplies them."""
    a0, b0, c0, d0, e0, f0 = m
    return (
        a0 * a + c0 * b,
        b0 * a + d0 * b,
        a0 * c + c0 * d,
        b0 * c + d0 * d,
        a0 * e + c0 * f + e0,
        b0 * e + d0 * f + f0,
    )


@dataclass(frozen=True)
class Surface:
    """Where one face is being drawn: the canvas (origin at the trim's bottom-left corner, in points), the face's
    trim size and bleed in mm, and the kit. Markup measures y downwards from the top; `y` converts."""

    canvas: Any
    kit: Kit
    width: float
    height: float
    bleed: float
    text: bool = True  # False: text boxes draw their glow, shadow and outline but not their glyphs' fill
    runs: list[TextRun] | None = None  # when a list, each text box adds the text it draws (`TextRun`)

    def y(self, mm_from_top: float) -> float:
        """A markup y (mm from the top) as a canvas y (points from the bottom)."""
        return (self.height - mm_from_top) * MM

    def paint(self, element: Mapping[str, Any]) -> tuple[int, int]:
        """Set fill, stroke, line width, dash and opacity from a shape's attributes; return (stroke, fill) flags
        for reportlab's drawing calls. A gradient fill is not set here (it is no colour): `shape` paints it."""
        canvas, palette = self.canvas, self.kit.palette
        fill_value = element.get("fill", "none")
        fill = None if isinstance(fill_value, Gradient) else palette.get(fill_value)
        stroke = palette.get(element["stroke"])
        if fill is not None:
            canvas.setFillColor(fill)
        if stroke is not None:
            canvas.setStrokeColor(stroke)
            canvas.setLineWidth(element["stroke-width"] * MM)
            if element["dash"]:
                canvas.setDash([d * MM for d in element["dash"]])
        if element["opacity"] < 1:  # after the colours: setting a colour resets the alpha to the colour's own
            canvas.setFillAlpha(element["opacity"] * (fill.alpha if fill is not None else 1))
            canvas.setStrokeAlpha(element["opacity"] * (stroke.alpha if stroke is not None else 1))
        return (1 if stroke is not None else 0), (1 if fill is not None else 0)

    def transform(self, steps: Transform) -> None:
        """Apply a `<g>` group's transform steps (markup mm, y down; angles counter-clockwise) to the canvas."""
        canvas, top = self.canvas, self.height * MM
        for name, arguments in steps:
            if name == "translate":
                canvas.translate(arguments[0] * MM, -arguments[1] * MM)
            elif name == "rotate":
                angle, cx, cy = arguments
                canvas.translate(cx * MM, self.y(cy))
                canvas.rotate(angle)
                canvas.translate(-cx * MM, -self.y(cy))
            else:  # scale, about the trim's top-left corner
                canvas.translate(0, top)
                canvas.scale(*arguments)
                canvas.translate(0, -top)

    def turn(self, x: float, y: float, w: float, h: float, angle: float) -> tuple[float, float]:
        """Turn the canvas so that a box's content runs at `angle` degrees counter-clockwise, about the box's centre;
        return the frame's width and height (points). The origin is then the frame's top-left corner, its lines
        running along x. The frame is the box turned by the nearest quarter turn, so 90 and 270 set text along the
        box's height and fill the box exactly, and any other angle tilts that frame about the box's centre."""
        canvas = self.canvas
        left, top, width, height = x * MM, self.y(y), w * MM, h * MM
        quarter = round(angle / 90) % 4
        frame = (height, width) if quarter in (1, 3) else (width, height)
        if angle == 0 and not (canvas._code and canvas._code[-1].endswith(" cm")):
            _translate(canvas, left, top)  # what translate and rotate(0) write, without their calls: text's hot path
            return frame
        if angle in (0, 90, 180, 270):  # the quarter turns as they were always drawn (the same PDF bytes)
            corners = {0: (left, top), 90: (left, top - height), 180: (left + width, top - height)}
            canvas.translate(*corners.get(int(angle), (left + width, top)))
            canvas.rotate(angle if angle != 270 else -90)
            return frame
        canvas.translate(left + width / 2, top - height / 2)
        canvas.rotate(angle)
        canvas.translate(-frame[0] / 2, frame[1] / 2)
        return frame

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A markup point (mm, y down) as canvas points."""
        return x * MM, (self.height - y) * MM

    def polygon(self, element: Mapping[str, Any], points: list[tuple[float, float]]) -> None:
        """A closed, painted path through points given in markup mm."""
        path = self.canvas.beginPath()
        path.moveTo(points[0][0] * MM, self.y(points[0][1]))
        for x, y in points[1:]:
            path.lineTo(x * MM, self.y(y))
        path.close()
        xs, ys = [x for x, _ in points], [y for _, y in points]
        self.shape(element, path, (min(xs), min(ys), max(xs), max(ys)))

    def shape(self, element: Mapping[str, Any], path: Any, box: tuple[float, float, float, float]) -> None:
        """Fill and stroke a reportlab path as the element says; `box` (left, top, right, bottom in markup mm) is
        what a gradient fill spans. A gradient is a PDF shading (`sh`) clipped to the path (`shading.shade`), the
        outline drawn on it."""
        # reportlab's 0 is even-odd, 1 non-zero; shapes without a fill-rule keep the canvas's (their bytes as ever)
        fill_mode = {"evenodd": 0, "nonzero": 1}.get(element.get("fill-rule", ""))
        fill = element.get("fill", "none")
        if isinstance(fill, Gradient):
            self.canvas.saveState()
            self.canvas.clipPath(path, stroke=0, fill=0, fillMode=fill_mode)
            self.gradient(fill, box, element.get("opacity", 1.0))
            self.canvas.restoreState()
        stroke, filled = self.paint(element)
        if stroke or filled:
            self.canvas.drawPath(path, stroke=stroke, fill=filled, fillMode=fill_mode)

    def gradient(self, gradient: Gradient, box: tuple[float, float, float, float], opacity: float) -> None:
        """Shade the clipped area: a linear gradient across `box` along its angle (from the box's edge to the
        opposite one, as CSS does), a radial one from the box's centre to its corners."""
        colours = [colour for name, _ in gradient.stops if (colour := self.kit.palette.get(name)) is not None]
        positions = [position for _, position in gradient.stops]
        (left, bottom), (right, top) = self.point(box[0], box[3]), self.point(box[2], box[1])
        centre_x, centre_y = (left + right) / 2, (bottom + top) / 2
        geometry: tuple[float, ...]
        if gradient.kind == "radial":
            geometry = (centre_x, centre_y, max(math.hypot(right - left, top - bottom) / 2, 0.01))
        else:
            turn = math.radians(gradient.angle)
            dx, dy = math.cos(turn), math.sin(turn)
            half = max((abs(dx) * (right - left) + abs(dy) * (top - bottom)) / 2, 0.01)
            geometry = (centre_x - dx * half, centre_y - dy * half, centre_x + dx * half, centre_y + dy * half)
        painted = (left - 1, bottom - 1, right + 1, top + 1)  # a point beyond the shape on every side
        shade(self.canvas, gradient.kind, geometry, colours, positions, opacity, painted)

    def clip(self, clip: Clip) -> None:
        """Clip all that follows (until the canvas state is restored) to the clip's shape, in markup mm."""
        path = self.canvas.beginPath()
        if clip.shape == "path":
            svgpath.draw(clip.ops, path, self.point)
        elif clip.shape == "circle":
            cx, cy, r = clip.numbers
            path.circle(cx * MM, self.y(cy), r * MM)
        elif clip.shape == "hexagon":
            cx, cy, r = clip.numbers
            corners = regular_polygon(cx, cy, r, 6, 0.0 if clip.orient == "flat" else math.pi / 6)
            path.moveTo(*self.point(*corners[0]))
            for corner in corners[1:]:
                path.lineTo(*self.point(*corner))
            path.close()
        else:
            x, y, w, h, *radius = clip.numbers
            if radius and radius[0] > 0:
                path.roundRect(x * MM, self.y(y + h), w * MM, h * MM, radius[0] * MM)
            else:
                path.rect(x * MM, self.y(y + h), w * MM, h * MM)
        self.canvas.clipPath(path, stroke=0, fill=0, fillMode=1)
