"""Drawing faces: parsed markup → reportlab canvas operations. The one module that knows the markup's meaning.

A face is first *prepared* (its text boxes fitted, its glyphs and images checked) and then *drawn* in its own
coordinates: the origin at the trim box's bottom-left corner, in points. Placement on a sheet (translation, rotation,
bleed clipping) and reuse as a form are the caller's business (`cardgen.render.pdf`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib.colors import Color, toColor
from reportlab.pdfgen.canvas import Canvas

from cardgen import limits
from cardgen.data.games import Game
from cardgen.data.model import Icon
from cardgen.errors import DataError, Problem, did_you_mean, display_path
from cardgen.render.fonts import FontRole, no_glyph
from cardgen.render.icons import painter, regular_polygon
from cardgen.render.markup import ICON_PATTERN, Element, Face, colour_literal, plain_text
from cardgen.render.svgrefs import check_svg_references
from cardgen.render.textfit import Fit, TextBox, fit_text
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


@dataclass
class Overflow:
    """Text that did not fit even at its minimum size."""

    field: str
    overflow_mm: float
    size: float


@dataclass
class PreparedFace:
    """A face ready to draw: its elements, each text box's fit, and what did not fit."""

    face: Face
    width: float  # mm
    height: float  # mm
    fits: dict[int, Fit] = field(default_factory=dict)
    overflows: list[Overflow] = field(default_factory=list)


class ImageStore:
    """Images a game's layouts use: checked once (inside the game folder, present, decodable), embedded once."""

    def __init__(self, game_dir: Path):
        from PIL import Image

        # Pillow's own bomb guard (a warning above its limit, an error at twice it) follows cardgen's limit, which is
        # checked first with a located message; raising `--limit image_pixels` then works for reportlab's reads too.
        Image.MAX_IMAGE_PIXELS = limits.current().image_pixels
        self.game_dir = game_dir.resolve()
        self.checked: dict[str, Path] = {}
        self.svg: dict[str, object] = {}

    def resolve(self, src: str) -> Path:
        if src in self.checked:
            return self.checked[src]
        path = (self.game_dir / src).resolve()
        shown = display_path(path)
        if self.game_dir not in path.parents:
            raise DataError(f"image '{src}' lies outside the game folder {display_path(self.game_dir)}")
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


def _check_bitmap(path: Path) -> None:
    from PIL import Image, UnidentifiedImageError

    try:
        with open_unchecked(path) as image:
            check_pixels(image.size, display_path(path))
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, Image.DecompressionBombError) as exc:
        raise DataError(f"{display_path(path)}: cannot decode image ({exc})") from None


def open_unchecked(source: Path | BinaryIO) -> Any:
    """Open an image lazily (header only) without Pillow's own bomb check, so `check_pixels` can apply cardgen's
    limit with cardgen's message (Pillow would refuse above 179 megapixels with its own, or warn above 89)."""
    from PIL import Image

    saved = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None
    try:
        return Image.open(source)
    finally:
        Image.MAX_IMAGE_PIXELS = saved


def check_pixels(size: tuple[int, int], shown: str) -> None:
    """Refuse an image larger than the pixel limit before it is decoded (a 400 kB PNG can hold 400 megapixels)."""
    bound = limits.current().image_pixels
    pixels = size[0] * size[1]
    if pixels > bound:
        raise DataError(
            f"{shown}: image of {size[0]:,} × {size[1]:,} = {pixels:,} pixels is more than the limit of {bound:,} "
            "(--limit image_pixels=N)"
        )


def _read_svg(path: Path, game_dir: Path) -> object:
    check_svg_references(path, game_dir)
    try:
        from svglib.svglib import svg2rlg

        drawing = svg2rlg(str(path), external_reference_root=str(game_dir))
    except Exception as exc:  # svglib raises many kinds of errors for broken files
        raise DataError(f"{display_path(path)}: cannot read SVG ({type(exc).__name__}: {exc})") from None
    if drawing is None or not (drawing.width > 0 and drawing.height > 0):
        raise DataError(f"{display_path(path)}: cannot read SVG (no drawing of a positive width and height)")
    return drawing


def label_role(roles: Mapping[str, FontRole]) -> FontRole:
    """The font that draws icon labels."""
    return roles["heading"] if "heading" in roles else roles["body"]


def check_labels(game: Game, roles: Mapping[str, FontRole]) -> None:
    """Text cardgen draws from game.yaml itself — icon labels, the titles in sheet margins — must have its glyphs,
    as card text must: a missing glyph would print as nothing."""
    problems = []
    for name, icon in game.manifest.settings.icons.items():
        if icon.label and (missing := no_glyph(icon.label, label_role(roles))):
            problems.append(Problem(game.where(("settings", "icons", name, "label")), missing))
    if missing := no_glyph(game.title, roles["body"]):
        problems.append(Problem(game.where(("title",)), missing))
    for index, component in enumerate(game.components):
        if missing := no_glyph(component.title, roles["body"]):
            problems.append(Problem(game.where(("components", index, "title")), missing))
    if problems:
        raise DataError(problems)


class FaceDrawer:
    """Prepares and draws faces for one game: its palette, font roles, icon set and images."""

    def __init__(self, palette: Palette, roles: Mapping[str, FontRole], icons: Mapping[str, Icon], game_dir: Path):
        self.palette = palette
        self.roles = roles
        self.icons = icons
        self.images = ImageStore(game_dir)
        label_font = label_role(roles).regular
        self.painters = {name: painter(icon, palette.get, label_font) for name, icon in icons.items()}

    # -- preparing -----------------------------------------------------------------------------------------------

    def prepare(self, face: Face, width: float, height: float, who: str) -> PreparedFace:
        """Fit every text box and check glyphs, icons and images; `who` names the card in error messages."""
        prepared = PreparedFace(face, width, height)
        for index, element in enumerate(face.elements):
            if element.tag == "text":
                fit = self._fit(element, who)
                prepared.fits[index] = fit
                if not fit.fits:
                    name = element["field"] or f"text box {index + 1}"
                    prepared.overflows.append(Overflow(name, fit.overflow_mm, fit.size))
            elif element.tag == "icon":
                self._check_icon(element["name"], who)
            elif element.tag == "image":
                try:
                    self.images.resolve(element["src"])
                except DataError as exc:
                    raise DataError(f"{who}: {exc.problems[0]}") from None
        return prepared

    def _role(self, element: Element, who: str) -> FontRole:
        role = self.roles.get(element["font"])
        if role is None:
            hint = did_you_mean(element["font"], list(self.roles))
            raise DataError(f"{who}: unknown font role '{element['font']}'{hint}; known: {', '.join(self.roles)}")
        return role

    def _fit(self, element: Element, who: str) -> Fit:
        role = self._role(element, who)
        content = element.content
        for name in ICON_PATTERN.findall(content):
            self._check_icon(name, who)
        missing = no_glyph(plain_text(content), role)
        if missing:
            raise DataError(f"{who}: {element['field'] or 'text'}: {missing}")
        size = element["size"]
        min_size = element["min-size"] if element["min-size"] is not None else min(size, 6.0)
        width, height = element["w"] * MM, element["h"] * MM
        if element["rotate"] in ("90", "270"):
            width, height = height, width
        box = TextBox(
            content,
            role.regular,
            self.palette.get(element["colour"]),
            width,
            height,
            size,
            min_size,
            element["leading"],
            element["align"],
        )
        return fit_text(box)

    def _check_icon(self, name: str, who: str) -> None:
        if name not in self.painters:
            hint = did_you_mean(name, list(self.painters))
            raise DataError(
                f"{who}: unknown icon '{{{name}}}'{hint}; the game's icons: {', '.join(self.painters) or 'none'}"
            )

    # -- drawing -------------------------------------------------------------------------------------------------

    def draw(self, canvas: Canvas, prepared: PreparedFace, bleed: float) -> None:
        """Draw a prepared face with its trim box's bottom-left corner at the canvas origin."""
        face = prepared.face
        height = prepared.height
        if (bg := self.palette.get(face.bg)) is not None:
            canvas.setFillColor(bg)
            canvas.rect(
                -bleed * MM, -bleed * MM, (prepared.width + 2 * bleed) * MM, (height + 2 * bleed) * MM, stroke=0, fill=1
            )
        for index, element in enumerate(face.elements):
            draw = getattr(self, f"_draw_{element.tag}")
            canvas.saveState()
            if index in prepared.fits:
                draw(canvas, element, height, prepared.fits[index])
            elif element.tag == "rect":
                draw(canvas, element, prepared, bleed)
            else:
                draw(canvas, element, height)
            canvas.restoreState()

    def _paint(self, canvas: Canvas, element: Element) -> tuple[int, int]:
        fill = self.palette.get(element.attrs.get("fill", "none"))
        stroke = self.palette.get(element["stroke"])
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

    def _draw_rect(self, canvas: Canvas, element: Element, prepared: PreparedFace, bleed: float) -> None:
        x, y, w, h = element["x"], element["y"], element["w"], element["h"]
        if element["bleed"]:  # edges touching the trim run on into the bleed
            eps = 0.01
            left = bleed if x <= eps else 0
            top = bleed if y <= eps else 0
            right = bleed if x + w >= prepared.width - eps else 0
            bottom = bleed if y + h >= prepared.height - eps else 0
            x, y, w, h = x - left, y - top, w + left + right, h + top + bottom
        stroke, fill = self._paint(canvas, element)
        bottom_y = (prepared.height - y - h) * MM
        if element["radius"] > 0:
            canvas.roundRect(x * MM, bottom_y, w * MM, h * MM, element["radius"] * MM, stroke=stroke, fill=fill)
        else:
            canvas.rect(x * MM, bottom_y, w * MM, h * MM, stroke=stroke, fill=fill)

    def _draw_line(self, canvas: Canvas, element: Element, height: float) -> None:
        self._paint(canvas, element)
        canvas.line(
            element["x1"] * MM, (height - element["y1"]) * MM, element["x2"] * MM, (height - element["y2"]) * MM
        )

    def _draw_circle(self, canvas: Canvas, element: Element, height: float) -> None:
        stroke, fill = self._paint(canvas, element)
        canvas.circle(element["cx"] * MM, (height - element["cy"]) * MM, element["r"] * MM, stroke=stroke, fill=fill)

    def _draw_polygon(self, canvas: Canvas, element: Element, height: float) -> None:
        self._polygon(canvas, element, [(x, y) for x, y in element["points"]], height)

    def _draw_hexagon(self, canvas: Canvas, element: Element, height: float) -> None:
        start = 0.0 if element["orient"] == "flat" else math.pi / 6
        points = regular_polygon(element["cx"], element["cy"], element["r"], 6, start)
        self._polygon(canvas, element, points, height)

    def _polygon(self, canvas: Canvas, element: Element, points: list[tuple[float, float]], height: float) -> None:
        stroke, fill = self._paint(canvas, element)
        path = canvas.beginPath()
        path.moveTo(points[0][0] * MM, (height - points[0][1]) * MM)
        for x, y in points[1:]:
            path.lineTo(x * MM, (height - y) * MM)
        path.close()
        canvas.drawPath(path, stroke=stroke, fill=fill)

    def _draw_text(self, canvas: Canvas, element: Element, height: float, fit: Fit) -> None:
        left, top = element["x"] * MM, (height - element["y"]) * MM
        w, h = element["w"] * MM, element["h"] * MM
        rotate = int(element["rotate"])
        # move the origin so that the paragraph's top-left corner is at (0, 0) and its lines run along local x
        origin = {0: (left, top), 90: (left, top - h), 180: (left + w, top - h), 270: (left + w, top)}[rotate]
        canvas.translate(*origin)
        canvas.rotate(rotate if rotate != 270 else -90)
        box_h = w if rotate in (90, 270) else h
        slack = max(box_h - fit.height, 0)
        drop = {"top": 0.0, "middle": slack / 2, "bottom": slack}[element["valign"]]
        if fit.paragraph is not None:
            fit.paragraph.drawOn(canvas, 0, -fit.height - drop)
            return
        # plain one-line text: the baseline sits one font size below the line's top, as in a paragraph
        canvas.setFont(self.roles[element["font"]].regular, fit.size)
        if (colour := self.palette.get(element["colour"])) is not None:
            canvas.setFillColor(colour)
        box_w = h if rotate in (90, 270) else w
        x = {"left": 0.0, "justify": 0.0, "center": (box_w - fit.line_width) / 2, "right": box_w - fit.line_width}
        canvas.drawString(x[element["align"]], -fit.size - drop, fit.line)

    def _draw_icon(self, canvas: Canvas, element: Element, height: float) -> None:
        size = element["size"] * MM
        self.painters[element["name"]](canvas, element["x"] * MM, (height - element["y"]) * MM - size, size)

    def _draw_image(self, canvas: Canvas, element: Element, height: float) -> None:
        src = element["src"]
        path = self.images.resolve(src)
        x, w, h = element["x"] * MM, element["w"] * MM, element["h"] * MM
        y = (height - element["y"]) * MM - h
        if src in self.images.svg:
            self._draw_svg(canvas, src, x, y, w, h, element["fit"])
            return
        if element["fit"] == "cover":
            from PIL import Image

            with Image.open(path) as image:
                iw, ih = image.size
            scale = max(w / iw, h / ih)
            clip = canvas.beginPath()
            clip.rect(x, y, w, h)
            canvas.clipPath(clip, stroke=0, fill=0)
            dw, dh = iw * scale, ih * scale
            canvas.drawImage(str(path), x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, mask="auto")
        else:
            keep = element["fit"] == "contain"
            canvas.drawImage(str(path), x, y, w, h, mask="auto", preserveAspectRatio=keep, anchor="c")

    def _draw_svg(self, canvas: Canvas, src: str, x: float, y: float, w: float, h: float, fit: str) -> None:
        from reportlab.graphics import renderPDF

        drawing = self.images.svg[src]
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
            clip = canvas.beginPath()
            clip.rect((w - drawing.width * sx) / -2, (h - drawing.height * sy) / -2, w, h)
            canvas.clipPath(clip, stroke=0, fill=0)
        canvas.scale(sx, sy)
        canvas.doForm(form)


__all__ = ["FaceDrawer", "Overflow", "Palette", "PreparedFace"]
