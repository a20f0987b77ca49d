"""`<text>`: a text box that wraps, shrinks down to its minimum size, and reports what still does not fit.

Its content is paragraph markup (`<b>`, `<i>`, `<font color>`, …, checked by `markup.inline_markup`) with `{icon}`
placeholders for the game's icons at the text size.
"""

from __future__ import annotations

from typing import ClassVar

from cardgen.errors import DataError, did_you_mean
from cardgen.render.elements.base import ElementKind
from cardgen.render.elements.icon import check_icon
from cardgen.render.fonts import FontRole, no_glyph
from cardgen.render.kit import Kit, Overflow, SetText, Surface
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
    choice,
    plain_text,
    positive,
)
from cardgen.render.textfit import Fit, TextBox, fit_text, set_sizes
from cardgen.units import MM

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
    }  # fmt: skip

    def prepare(self, element: Element, kit: Kit, who: str) -> Fit:
        """Fit the text (after checking its font role, icons and glyphs)."""
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
        size = element["size"]
        min_size = element["min-size"] if element["min-size"] is not None else min(size, DEFAULT_MIN_SIZE)
        width, height = element["w"] * MM, element["h"] * MM
        if round(element["rotate"] / 90) % 2:  # the frame is the box turned by the nearest quarter turn
            width, height = height, width
        colour = kit.palette.get(element["colour"])
        leading, align = element["leading"], element["align"]
        box = TextBox(content, role.regular, colour, width, height, size, min_size, leading, align)
        return fit_text(box)

    def overflow(self, element: Element, prepared: Fit, index: int) -> Overflow | None:
        if prepared.fits:
            return None
        return Overflow(element["field"] or f"text box {index + 1}", prepared.overflow_mm, prepared.size)

    def text_sizes(self, element: Element, prepared: Fit, kit: Kit, index: int) -> list[SetText]:
        """Every run of glyphs at its drawn size."""
        what = element["field"] or f"text box {index + 1}"
        return [SetText(what, size) for size in set_sizes(prepared)]

    def draw(self, element: Element, surface: Surface, prepared: Fit) -> None:
        canvas = surface.canvas
        # move the origin so that the paragraph's top-left corner is at (0, 0) and its lines run along local x
        box_w, box_h = surface.turn(element["x"], element["y"], element["w"], element["h"], element["rotate"])
        slack = max(box_h - prepared.height, 0)
        drop = {"top": 0.0, "middle": slack / 2, "bottom": slack}[element["valign"]]
        if prepared.paragraph is not None:
            prepared.paragraph.drawOn(canvas, 0, -prepared.height - drop)
            return
        # plain one-line text: the baseline sits one font size below the line's top, as in a paragraph
        canvas.setFont(surface.kit.roles[element["font"]].regular, prepared.size)
        if (colour := surface.kit.palette.get(element["colour"])) is not None:
            canvas.setFillColor(colour)
        free = box_w - prepared.line_width
        x = {"left": 0.0, "justify": 0.0, "center": free / 2, "right": free}[element["align"]]
        canvas.drawString(x, -prepared.size - drop, prepared.line)


def _role(element: Element, kit: Kit, who: str) -> FontRole:
    role = kit.roles.get(element["font"])
    if role is None:
        hint = did_you_mean(element["font"], list(kit.roles))
        raise DataError(f"{who}: unknown font role '{element['font']}'{hint}; known: {', '.join(kit.roles)}")
    return role
