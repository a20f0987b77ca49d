"""What an SVG file may refer to: its own fragments, embedded images, and files inside the game folder — nothing else.

An SVG can pull other files into the drawing (`<image href="…">`, `<use href="other.svg#part">`, CSS `url(…)` and
`@import`). svglib refuses absolute references and, given a root, references outside it, but only logs the refusal
and draws the rest: a stranger's game would print silently without its art, or (without the root) with a file from
elsewhere on the disk. Every reference is checked here first and each one that leaves the game folder, names a
remote resource or embeds an oversized image is a located error (`art.svg:12: <image> refers to …`).
"""

from __future__ import annotations

import base64
import copy
import hashlib
import io
import re
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color

from cardgen.errors import DataError, Location, Problem, display_path
from cardgen.files import inside, refusal

_HREF = ("href", "{http://www.w3.org/1999/xlink}href")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)['\"]?\s*\)|@import\s+['\"]([^'\"]+)['\"]", re.IGNORECASE)
_DATA_IMAGE = re.compile(r"^data:image/(png|jpe?g);base64,", re.IGNORECASE)


def check_svg_references(path: Path, game_dir: Path) -> None:
    """Raise a `DataError` listing every reference in the SVG at `path` that is not allowed."""
    from lxml import etree

    shown = display_path(path)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=True)
    try:
        root = etree.parse(str(path), parser).getroot()
    except (etree.XMLSyntaxError, OSError) as exc:
        raise DataError(f"{shown}: cannot read SVG ({exc})") from None
    if root is None:
        raise DataError(f"{shown}: cannot read SVG (no element)")
    problems = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        tag = etree.QName(element).localname
        refs = [element.get(name) for name in _HREF if element.get(name)]
        css = (element.text or "") if tag == "style" else ""
        css += " " + (element.get("style") or "")
        for attribute in ("fill", "stroke", "filter", "clip-path", "mask", "marker-start", "marker-mid", "marker-end"):
            css += " " + (element.get(attribute) or "")
        refs += [a or b for a, b in _CSS_URL.findall(css)]
        for ref in refs:
            reason = _refusal(ref.strip(), path, game_dir)
            if reason:
                where = Location(shown, element.sourceline)
                problems.append(Problem(where, f"<{tag}> refers to '{ref[:80]}': {reason}"))
    if problems:
        raise DataError(problems)


def _refusal(ref: str, svg: Path, game_dir: Path) -> str | None:
    """Why a reference is refused, or None if it may be followed."""
    if not ref or ref.startswith("#"):
        return None
    if _DATA_IMAGE.match(ref):
        return _embedded_image(ref)
    if ref.lower().startswith(("http:", "https:", "ftp:", "//")):
        return "a remote resource (only files inside the game folder may be used)"
    if _SCHEME.match(ref):
        return "not a file inside the game folder"
    target = ref.split("#", 1)[0]
    if target.startswith("/"):
        return "an absolute path (write paths relative to the SVG, inside the game folder)"
    resolved = svg.parent / target
    if not inside(resolved, game_dir):
        return f"outside the game folder {display_path(game_dir)}"
    return refusal(resolved)


def _embedded_image(ref: str) -> str | None:
    """Check an embedded base64 image's size before anything decodes it."""
    from PIL import Image, UnidentifiedImageError

    from cardgen.render.bitmaps import check_pixels, open_unchecked

    try:
        data = base64.b64decode(ref.split(",", 1)[1], validate=False)
        with open_unchecked(io.BytesIO(data)) as image:
            check_pixels(image.size, "embedded image")
    except DataError as exc:
        return exc.problems[0].message
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        return f"an embedded image that cannot be decoded ({exc})"
    return None


def svg_form(canvas: Any, src: str, drawing: Any, opacity: float = 1.0, colour: Color | None = None) -> str:
    """The name of a PDF form holding `drawing` (an SVG read by svglib), drawn into the document once per source,
    opacity and colour: `opacity` below 1 makes each shape see-through, `colour` paints every filled or stroked part
    in that one colour (an icon recoloured where it is used)."""
    from reportlab.graphics import renderPDF

    form = "svg-" + hashlib.sha1(src.encode()).hexdigest()[:12]
    if opacity < 1 or colour is not None:
        form += hashlib.sha1(f"{opacity:.4f} {colour and colour.hexval()}".encode()).hexdigest()[:8]
    if not canvas.hasForm(form):
        if opacity < 1 or colour is not None:
            drawing = copy.deepcopy(drawing)
            _repaint(drawing, opacity, colour)
        canvas.beginForm(form, 0, 0, drawing.width, drawing.height)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.endForm()
    return form


def _repaint(node: Any, opacity: float, colour: Color | None) -> None:
    """Recolour and fade every shape below `node` in place (groups recursively)."""
    for child in getattr(node, "contents", ()):
        _repaint(child, opacity, colour)
    for part in ("fill", "stroke"):
        current = getattr(node, f"{part}Color", None)
        if current is None:
            continue
        base = colour if colour is not None else current
        alpha = getattr(current, "alpha", 1) * opacity
        setattr(node, f"{part}Color", Color(base.red, base.green, base.blue, alpha))
        if hasattr(node, f"{part}Opacity"):
            setattr(node, f"{part}Opacity", (getattr(node, f"{part}Opacity", None) or 1) * opacity)
