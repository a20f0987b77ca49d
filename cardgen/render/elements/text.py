"""`<text>`: a text box that wraps, shrinks down to its minimum size, and reports what still does not fit.

Its content is paragraph markup (`<b>`, `<i>`, `<font color>`, …, checked by `markup.inline_markup`) with `{icon}`
placeholders for the game's icons at the text size.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

from reportlab.lib.colors import Color, black

from cardgen.errors import DataError, did_you_mean
from cardgen.render.elements.base import ElementKind
from cardgen.render.elements.icon import check_icon
from cardgen.render.fonts import FontRole, families, no_glyph
from cardgen.render.kit import Kit, Overflow, SetText, Surface, TextRun, set_text, translation
from cardgen.render.library import library
from cardgen.render.markup import (
    BOX,
    COLOUR,
    ICON_PATTERN,
    ROTATE_DOC,
    TEXT,
    Attr,
    Element,
    angle,
    boolean,
    choice,
    length,
    number,
    offset,
    plain_text,
    positive,
)
from cardgen.render.plaintext import PlainParagraph, fill_code, text_code, truetype
from cardgen.render.textfit import SMALL_CAPS, Fit, TextBox, fit_text, set_sizes
from cardgen.units import MM

FITTED_BOUND = 4096  # text boxes a game's kit remembers fitted (`Text.prepare`)
PLAIN_BOUND = 4096  # text boxes' code a document remembers (`Text.plain`)
DEFAULT_MIN_SIZE = 6.0  # pt: the smallest a box shrinks to unless its layout sets `min-size`


class Text(ElementKind):
    tag = "text"
    summary = (
        "a text box: wraps, shrinks down to `min-size` (default 6 pt), and reports overflow naming `field`; "
        "`rotate` turns it to any angle"
    )
    has_content = True
    attributes: ClassVar[dict[str, Attr]] = {
        **BOX,
        "size": Attr(positive, 8.0, "pt", "the font size it starts from"),
        "min-size": Attr(positive, None, "pt", "the smallest it shrinks to before reporting overflow (default 6, or "
                         "`size` if smaller)"),
        "font": Attr(TEXT, "body", doc="a font role of the game's `settings.fonts` (`body`, `heading` or its own)"),
        "colour": Attr(COLOUR, "black", doc="the text's colour"),
        "align": Attr(choice("left", "center", "right", "justify"), "left", doc="how lines sit across the box"),
        "valign": Attr(choice("top", "middle", "bottom"), "top", doc="where the text sits in the box's height"),
        "leading": Attr(positive, 1.2, "× size", "line spacing, a multiple of the font size (1.2: 12 pt lines for 10 "
                        "pt text)"),
        "field": Attr(TEXT, None, doc="what overflow and text-size reports call the box (a card field's name)"),
        "rotate": Attr(angle, 0.0, "degrees", ROTATE_DOC),
        "outline": Attr(COLOUR, "none", doc="strokes the glyphs' outlines in this colour over their fill (PDF text "
                        "render mode 2), centred on the glyphs' edges"),
        "outline-width": Attr(length, 0.3, "mm", "the outline's width"),
        "shadow": Attr(COLOUR, "none", doc="a copy of the text in this colour behind it, moved by `shadow-offset`; "
                       "like `spacing`, one line without inline markup or icons"),
        "shadow-offset": Attr(offset, (0.4, 0.4), "mm", "`dx,dy`: how far the shadow lies right and down"),
        "glow": Attr(COLOUR, "none", doc="a soft halo in this colour behind the text: strokes of the glyphs, widest "
                     "and faintest first, a colour with alpha for a fainter glow"),
        "glow-width": Attr(length, 1.2, "mm", "how far the glow reaches beyond the glyphs"),
        "spacing": Attr(number, 0.0, "pt", "letter spacing, added between characters (negative tightens); spaced "
                        "text is set on one line, shrinking to fit, and takes no inline markup or icons"),
        "small-caps": Attr(boolean, False, doc="lower-case letters as capitals "
                           f"{SMALL_CAPS:g} × the size; like `spacing`, one line without inline markup or icons"),
    }  # fmt: skip
    example = (
        '<text x="4" y="4" w="55" h="9" size="16" font="heading" colour="gold" outline="black" glow="#ffd70080" '
        'spacing="1.5" small-caps="true">{{ card.name }}</text>'
    )

    def prepare(self, element: Element, kit: Kit, who: str) -> Fit:
        """Fit the text (after checking its font role, icons and glyphs), once for each box and text a game's faces
        repeat: the faces that write the same element share its attributes (`markup.parse_face`), so a deck's
        stat boxes ("ATK 3") are checked and fitted once, not once a card."""
        key = (id(element.attrs), element.content)
        known = kit.fitted.get(key)
        if known is not None and known[0] is element.attrs:  # the very attributes: their id cannot have been reused
            return known[1]  # type: ignore[no-any-return]
        fit = self._fit(element, kit, who)
        if len(kit.fitted) >= FITTED_BOUND:
            kit.fitted.clear()
        kit.fitted[key] = (element.attrs, fit)
        return fit

    def _fit(self, element: Element, kit: Kit, who: str) -> Fit:
        role = _role(element, kit, who)
        content = element.content
        for name, colour in ICON_PATTERN.findall(content):
            if name == "icon" and name not in kit.painters and colour in library():
                raise DataError(
                    f"{who}: {{icon:{colour}}}: a library icon is written by its name: {{{colour}}}, or "
                    f"{{{colour}:COLOUR}} in one colour"
                )
            check_icon(name, kit, who)
            if colour and not kit.palette.is_colour(colour):
                raise DataError(f"{who}: {{{name}:{colour}}}: '{colour}' is not a colour (a game colour or #rrggbb)")
        if missing := no_glyph(plain_text(content), role):
            raise DataError(f"{who}: {element['field'] or 'text'}: {missing}")
        one_line = bool(element["spacing"]) or element["small-caps"] or element["shadow"] != "none"
        if one_line:
            if "<" in content or ICON_PATTERN.search(content):
                raise DataError(
                    f"{who}: {element['field'] or 'text'}: `spacing`, `small-caps` and `shadow` set one plain line, "
                    "without inline markup (<b>, <br/>, …) or {icons}"
                )
            content = plain_text(content)
            if element["small-caps"] and (missing := no_glyph(content.upper(), role)):  # lower case set as capitals
                raise DataError(f"{who}: {element['field'] or 'text'}: {missing}")
        size = element["size"]
        min_size = element["min-size"] if element["min-size"] is not None else min(size, DEFAULT_MIN_SIZE)
        width, height = element["w"] * MM, element["h"] * MM
        if round(element["rotate"] / 90) % 2:  # the frame is the box turned by the nearest quarter turn
            width, height = height, width
        colour = kit.palette.get(element["colour"])
        if colour is None:  # "none": set as black, its fill never painted (`draw`)
            colour = black
        leading, align = element["leading"], element["align"]
        spacing, caps = element["spacing"], element["small-caps"]
        box = TextBox(
            content, role.regular, colour, width, height, size, min_size, leading, align, spacing, caps, one_line
        )
        return fit_text(box)

    def overflow(self, element: Element, prepared: Fit, index: int) -> Overflow | None:
        if prepared.fits:
            return None
        return Overflow(element["field"] or f"text box {index + 1}", prepared.overflow_mm, prepared.size)

    def text_sizes(self, element: Element, prepared: Fit, kit: Kit, index: int) -> list[SetText]:
        """Every run of glyphs at its drawn size."""
        what = element["field"] or f"text box {index + 1}"
        return [set_text(what, size) for size in set_sizes(prepared)]

    def plain(self, element: Element, surface: Surface, prepared: Fit) -> list[str] | None:
        """The code of an unturned box of plain glyphs (`_plain_code`) from the face's origin, as `draw` writes it
        after a `saveState` (its translation, then the glyphs), made without touching the canvas's state; None for
        any other box. Remembered for the document by box and text: a deck's stat boxes repeat card after card,
        and what a box writes in one document depends on nothing else once the fill is opaque (its characters'
        codes in the font's subsets never change)."""
        canvas = surface.canvas
        if not surface.text or surface.runs is not None or canvas._extgstate.getValue("ca") != 1:
            return None
        memo = canvas.__dict__.setdefault("_cardgen_plain", {})
        key = (id(element.attrs), element.content, surface.height, id(surface.kit))
        known = memo.get(key)
        if known is not None and known[0] is element.attrs:  # the very attributes: their id cannot have been reused
            return known[1]  # type: ignore[no-any-return]
        code = self._plain(element, surface, prepared)
        if len(memo) >= PLAIN_BOUND:
            memo.clear()
        memo[key] = (element.attrs, code)
        return code

    def _plain(self, element: Element, surface: Surface, prepared: Fit) -> list[str] | None:
        palette = surface.kit.palette
        if element["rotate"]:
            return None
        if any(palette.get(element[a]) is not None for a in PLAIN_LOOK):
            return None
        drop = _drop(element["valign"], element["h"] * MM, prepared)
        font = surface.kit.roles[element["font"]].regular
        width, colour = element["w"] * MM, palette.get(element["colour"])
        code = _plain_code(surface.canvas, colour, prepared, element["align"], width, font, drop)
        return None if code is None else [translation(element["x"] * MM, surface.y(element["y"])), *code]

    def draw(self, element: Element, surface: Surface, prepared: Fit) -> None:
        canvas, palette = surface.canvas, surface.kit.palette
        # move the origin so that the paragraph's top-left corner is at (0, 0) and its lines run along local x
        box_w, box_h = surface.turn(element["x"], element["y"], element["w"], element["h"], element["rotate"])
        drop = _drop(element["valign"], box_h, prepared)
        font = surface.kit.roles[element["font"]].regular
        if prepared.paragraph is not None and not isinstance(prepared.paragraph, PlainParagraph):
            families()  # a paragraph fitted before `fonts.forget` (remembered by `fit_text`) may set bold or italic
        if surface.text and surface.runs is None and all(palette.get(element[a]) is None for a in PLAIN_LOOK):
            code = _plain_code(canvas, palette.get(element["colour"]), prepared, element["align"], box_w, font, drop)
            if code is not None:  # what the calls below would write, written at once
                canvas._code.extend(code)
                return

        def glyphs(dx: float = 0.0, dy: float = 0.0) -> None:
            if prepared.paragraph is not None:
                prepared.paragraph.drawOn(canvas, dx, dy - prepared.height - drop)
                return
            # one line: the baseline sits one font size below the line's top, as in a paragraph
            free = box_w - prepared.line_width
            x = {"left": 0.0, "justify": 0.0, "center": free / 2, "right": free}[element["align"]]
            if not prepared.runs:
                canvas.setFont(font, prepared.size)
                canvas.drawString(x + dx, dy - prepared.size - drop, prepared.line)
                return
            line = canvas.beginText(x + dx, dy - prepared.size - drop)
            if element["spacing"]:
                line.setCharSpace(element["spacing"])
            for text, size in prepared.runs:
                line.setFont(font, size)
                line.textOut(text)
            canvas.drawText(line)

        if (glow := palette.get(element["glow"])) is not None:
            _glow(canvas, glow, element["glow-width"] * MM, glyphs)
        if (shadow := palette.get(element["shadow"])) is not None:  # one line: its glyphs take the fill colour
            dx, dy = element["shadow-offset"]
            canvas.saveState()
            canvas.setFillColor(shadow)
            glyphs(dx * MM, -dy * MM)
            canvas.restoreState()
        if (colour := palette.get(element["colour"])) is not None:
            canvas.setFillColor(colour)
        outline = palette.get(element["outline"])
        if outline is not None:
            canvas.setStrokeColor(outline)
            canvas.setLineWidth(element["outline-width"] * MM)
            canvas.setLineJoin(1)
        if surface.runs is not None:
            left = {"left": 0.0, "justify": 0.0, "center": (box_w - prepared.line_width) / 2,
                    "right": box_w - prepared.line_width}[element["align"]]  # fmt: skip
            x0, x1 = (0.0, box_w) if prepared.paragraph is not None else (left, left + prepared.line_width)
            box = _on_page(canvas, x0, -drop - prepared.height, x1, -drop)
            what = element["field"] or "text"
            for run in _colours(element, colour, palette.get):
                surface.runs.append(TextRun(what, run, box))
        if not surface.text:  # what lies under the glyphs: their outline stays, their fill goes
            if outline is not None:
                canvas.addLiteral("1 Tr")
                glyphs()
            return
        if colour is None and outline is None:  # no fill and no outline: nothing of the glyphs shows
            return
        if outline is not None:
            canvas.addLiteral("2 Tr" if colour is not None else "1 Tr")  # fill, then stroke the outlines; or stroke
        glyphs()


PLAIN_LOOK = ("glow", "shadow", "outline")  # none of them: the text's glyphs alone, filled


def _drop(valign: str, box_height: float, prepared: Fit) -> float:
    """How far below the box's top its text starts (points)."""
    slack = max(box_height - prepared.height, 0)
    return {"top": 0.0, "middle": slack / 2, "bottom": slack}[valign]


def _plain_code(
    canvas: Any, colour: Color | None, prepared: Fit, align: str, width: float, font: str, drop: float
) -> list[str] | None:
    """The code `Text.draw` writes for plain glyphs in one opaque colour, made without reportlab's calls (the same
    bytes: `tests/test_textcode.py`), or None where the calls are needed (markup, runs of sizes, other colours)."""
    fill = fill_code(canvas, colour)
    if fill is None:
        return None
    if prepared.paragraph is not None:
        inner = (
            prepared.paragraph.code(canvas, 0, -prepared.height - drop)
            if isinstance(prepared.paragraph, PlainParagraph)
            else None
        )
        return None if inner is None else [fill, *inner]
    if prepared.runs or prepared.line is None or not truetype(font):
        return None
    free = width - prepared.line_width
    x = {"left": 0.0, "justify": 0.0, "center": free / 2, "right": free}[align]
    size = prepared.size
    return [fill, text_code(canvas, font, size, size * 1.2, x, -size - drop, [(None, prepared.line)])]


GLOW_LAYERS = 4  # strokes behind glowing text, each narrower and laid over the last


def _glow(canvas: Any, colour: Color, reach: float, glyphs: Callable[[], None]) -> None:
    """Strokes of the glyphs' outlines in the glow's colour, widest first, each at a share of its alpha: where
    they overlap near the glyphs the glow is densest, fading outwards, all of it vector."""
    canvas.saveState()
    canvas.addLiteral("1 Tr")
    canvas.setStrokeColor(colour)
    canvas.setLineJoin(1)
    canvas.setLineCap(1)
    canvas.setStrokeAlpha(colour.alpha / GLOW_LAYERS * 1.6)
    for layer in range(GLOW_LAYERS, 0, -1):
        canvas.setLineWidth(2 * reach * layer / GLOW_LAYERS)
        glyphs()
    canvas.restoreState()


INLINE_COLOUR = re.compile(r"""color\s*=\s*["']([^"']+)["']""")


def _colours(element: Element, colour: Color | None, resolve: Callable[[str], Color | None]) -> list[Color]:
    """The colours a text box fills glyphs with: its own, and those of its inline `<font color>` runs."""
    found = [colour] if colour is not None else []
    for name in INLINE_COLOUR.findall(element.content):
        try:
            inline = resolve(name)
        except ValueError:  # markup checked it is a colour reportlab knows; a name it resolves differently is skipped
            continue
        if inline is not None and inline not in found:
            found.append(inline)
    return found


def _on_page(canvas: Any, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """A box in the canvas's present coordinates as the box around it in the canvas's first coordinates."""
    a, b, c, d, e, f = canvas._currentMatrix  # reportlab keeps the transformation it has applied
    xs, ys = [], []
    for x, y in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)


def _role(element: Element, kit: Kit, who: str) -> FontRole:
    role = kit.roles.get(element["font"])
    if role is None:
        hint = did_you_mean(element["font"], list(kit.roles))
        raise DataError(f"{who}: unknown font role '{element['font']}'{hint}; known: {', '.join(kit.roles)}")
    return role
