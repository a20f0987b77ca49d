"""The face markup: a small XML vocabulary that layouts produce and `draw` draws.

A layout (a Jinja template) renders one face to markup like::

    <face bg="paper">
      <rect x="0" y="0" w="63.5" h="12" fill="accent" bleed="true"/>
      <text x="4" y="3" w="55.5" h="7" size="11" font="heading" colour="white" field="name">Scout</text>
      <text x="4" y="60" w="55.5" h="24" size="8" min-size="6" field="ability">Draw a card. Costs {credits} less.</text>
      <icon name="attack" x="4" y="50" size="6"/>
    </face>

Coordinates are millimetres from the trim box's top-left corner, y growing downwards. Colours are the game's
colour names, `#rrggbb`, or standard names (`white`, `black`, `none`). Inside `<text>`, reportlab paragraph markup is
allowed (`<b>`, `<i>`, `<u>`, `<br/>`, `<font color="…">`, `<sup>`, `<sub>`) and `{icon}` places an icon of the
game's icon set at the text size. `parse_face` checks every element and attribute, so a layout mistake is reported
with its template and element instead of being drawn wrongly.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from xml.sax.saxutils import escape, quoteattr


class MarkupError(ValueError):
    """A layout produced markup that cannot be drawn; the message names the element and attribute."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def number(value: str) -> float:
    """A finite number: NaN and infinities would reach the PDF as garbage or crash the drawing."""
    found = float(value)
    if not math.isfinite(found):
        raise ValueError(f"expected a finite number, got '{value}'")
    return found


def length(value: str) -> float:
    """A size that cannot be negative (widths, heights, radii, line widths)."""
    found = number(value)
    if found < 0:
        raise ValueError(f"cannot be negative, got '{value}'")
    return found


def positive(value: str) -> float:
    """A size that must be above zero (font sizes, line spacing)."""
    found = number(value)
    if found <= 0:
        raise ValueError(f"must be above zero, got '{value}'")
    return found


def fraction(value: str) -> float:
    found = number(value)
    if not 0 <= found <= 1:
        raise ValueError(f"must lie between 0 and 1, got '{value}'")
    return found


def boolean(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "1"):
        return True
    if lowered in ("false", "no", "0", ""):
        return False
    raise ValueError(f"expected true or false, got '{value}'")


def points(value: str) -> tuple[tuple[float, float], ...]:
    pairs = []
    for chunk in value.split():
        x, y = chunk.split(",")
        pairs.append((number(x), number(y)))
    if len(pairs) < 3:
        raise ValueError("a polygon needs at least three 'x,y' points")
    return tuple(pairs)


def choice(*options: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got '{value}'")
        return value

    parse.options = options  # type: ignore[attr-defined]  # read by Attr.shown
    return parse


def dash(value: str) -> tuple[float, ...]:
    """Dash and gap lengths; all zero would draw nothing forever (reportlab loops or the viewer chokes)."""
    lengths = tuple(length(v) for v in value.split())
    if lengths and not any(lengths):
        raise ValueError("dash lengths cannot all be zero")
    if len(lengths) > 16:
        raise ValueError("at most 16 dash lengths")
    return lengths


COLOUR = "colour"  # parsed against the game's palette, which only the caller knows
TEXT = str
REQUIRED = object()


@dataclass(frozen=True)
class Attr:
    """One attribute of an element: how its text is parsed (a function, `COLOUR` or `TEXT`) and its default
    (`REQUIRED` when it has none)."""

    parse: Any
    default: Any = REQUIRED

    def shown(self, name: str) -> str:
        """The attribute as the README's element table writes it: `orient=flat|pointy` for a choice."""
        options = getattr(self.parse, "options", None)
        return f"{name}={'|'.join(options)}" if options else name


Schema = Mapping[str, Attr]

STROKE: dict[str, Attr] = {
    "stroke": Attr(COLOUR, "none"),
    "stroke-width": Attr(length, 0.3),
    "dash": Attr(dash, ()),
    "opacity": Attr(fraction, 1.0),
}
SHAPE: dict[str, Attr] = {"fill": Attr(COLOUR, "none"), **STROKE}
AT: dict[str, Attr] = {"x": Attr(number), "y": Attr(number)}  # a top-left corner, mm from the trim's top-left
BOX: dict[str, Attr] = {**AT, "w": Attr(length), "h": Attr(length)}
CENTRE: dict[str, Attr] = {"cx": Attr(number), "cy": Attr(number), "r": Attr(length)}
FACE: Schema = {"bg": Attr(COLOUR, "none")}

INLINE_TAGS = {"b", "i", "u", "strike", "br", "font", "sup", "sub", "span"}
INLINE_ATTRS = {"font": {"color", "size"}, "span": {"color"}}
ICON_PATTERN = re.compile(r"\{([A-Za-z0-9][A-Za-z0-9_.-]*)\}")


@dataclass(frozen=True, slots=True)
class Element:
    """One drawable element with its validated attributes; `content` is a text box's paragraph markup."""

    tag: str
    attrs: Mapping[str, Any]
    content: str = ""

    def __getitem__(self, name: str) -> Any:
        return self.attrs[name]


@dataclass(frozen=True, slots=True)
class Face:
    """A parsed face: its background and its elements in drawing order."""

    bg: str
    elements: tuple[Element, ...]


# an element's attributes as written (tag, name-value pairs) → as checked and parsed
Checked = dict[tuple[str, tuple[tuple[str, str], ...]], Mapping[str, Any]]
CHECKED_BOUND = 4096  # distinct attribute sets remembered; a layout writes a few per element, data may add some


def parse_face(
    markup: str, is_colour: Callable[[str], bool], schemas: Mapping[str, Schema], checked: Checked | None = None
) -> Face:
    """Parse and check one face's markup against the elements' `schemas` (tag → attributes); raise `MarkupError`
    naming the element and attribute at fault.

    `checked` remembers attributes already parsed for these schemas and colours (one game's faces): the same
    element written on a thousand cards is checked once, and its faces share one dict of values.
    """
    checked = {} if checked is None else checked
    if len(checked) > CHECKED_BOUND:
        checked.clear()
    if "<!DOCTYPE" in markup or "<!ENTITY" in markup:
        # Entities are the only way XML reaches files or expands exponentially; card data is escaped, so only a
        # layout can write them, and no layout needs them.
        raise MarkupError("a layout may not declare a DOCTYPE or entities")
    try:
        root = ET.fromstring(markup)
    except ET.ParseError as exc:
        line, _column = exc.position
        text = markup.splitlines()[line - 1].strip() if 0 < line <= len(markup.splitlines()) else ""
        raise MarkupError(
            f"the layout produced invalid XML ({exc.msg.split(':')[0]}) near: {text[:80]}", line
        ) from None
    if root.tag != "face":
        raise MarkupError(f"a layout must produce one <face> element, not <{root.tag}>")
    face_attrs = _checked(root, FACE, is_colour, checked)
    elements = tuple(_element(child, schemas, is_colour, checked) for child in root)
    if stray := (root.text or "").strip():
        raise MarkupError(f"text outside a <text> box: '{stray[:40]}'")
    return Face(face_attrs["bg"], elements)


def _element(
    node: ET.Element, schemas: Mapping[str, Schema], is_colour: Callable[[str], bool], checked: Checked
) -> Element:
    if node.tag not in schemas:
        raise MarkupError(f"unknown element <{node.tag}> (known: {', '.join(sorted(schemas))})")
    if stray := (node.tail or "").strip():
        raise MarkupError(f"text outside a <text> box after <{node.tag}>: '{stray[:40]}'")
    attrs = _checked(node, schemas[node.tag], is_colour, checked)
    content = ""
    if node.tag == "text":
        content = inline_markup(node)
    elif len(node) or (node.text or "").strip():
        raise MarkupError(f"<{node.tag}> cannot have content")
    return Element(node.tag, attrs, content)


def _checked(node: ET.Element, schema: Schema, is_colour: Callable[[str], bool], checked: Checked) -> Mapping[str, Any]:
    key = (node.tag, tuple(node.attrib.items()))
    attrs = checked.get(key)
    if attrs is None:  # read-only: the faces that write these attributes share the values
        attrs = checked[key] = MappingProxyType(_attributes(node, schema, is_colour))
    return attrs


def _attributes(node: ET.Element, schema: Schema, is_colour: Callable[[str], bool]) -> dict[str, Any]:
    unknown = set(node.attrib) - set(schema)
    if unknown:
        from cardgen.errors import did_you_mean

        name = sorted(unknown)[0]
        raise MarkupError(f"<{node.tag}> has unknown attribute '{name}'{did_you_mean(name, list(schema))}")
    values: dict[str, Any] = {}
    for name, attr in schema.items():
        parser, default = attr.parse, attr.default
        raw = node.attrib.get(name)
        if raw is None:
            if default is REQUIRED:
                raise MarkupError(f"<{node.tag}> needs the attribute '{name}'")
            values[name] = default
            continue
        if parser == COLOUR:
            if not is_colour(raw):
                raise MarkupError(f"<{node.tag} {name}='{raw}'>: not a colour (use a game colour, #rrggbb or none)")
            values[name] = raw
            continue
        try:
            values[name] = parser(raw)
        except ValueError as exc:
            raise MarkupError(f"<{node.tag} {name}='{raw}'>: {exc}") from None
    return values


COLOUR_LITERAL = re.compile(r"^(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{8}|[a-z]+)$")


def colour_literal(value: str) -> bool:
    """Whether `value` is a colour written out: `#rrggbb`, `#rrggbbaa` or a standard name reportlab knows.

    reportlab itself is lenient (`#12` is a dark blue to it, `rgb(…)` parses); a layout that writes `#12` almost
    surely meant something else, so only these three forms are accepted.
    """
    from reportlab.lib.colors import toColor

    if not COLOUR_LITERAL.match(value):
        return False
    try:
        toColor(value[:7])
    except (ValueError, TypeError):
        return False
    return True


def _paragraph_colour(value: str) -> bool:
    """Whether reportlab's paragraphs understand the colour (they do not know the game's colour names)."""
    return colour_literal(value) and len(value) != 9


def inline_markup(node: ET.Element) -> str:
    """A text box's content re-serialised as reportlab paragraph markup, allowing only the inline tags."""
    parts = [escape(node.text or "")]
    for child in node:
        parts.append(_inline(child))
        parts.append(escape(child.tail or ""))
    return "".join(parts).strip()


def _inline(node: ET.Element) -> str:
    if node.tag not in INLINE_TAGS:
        raise MarkupError(f"<{node.tag}> is not allowed inside <text> (allowed: {', '.join(sorted(INLINE_TAGS))})")
    allowed = INLINE_ATTRS.get(node.tag, set())
    extra = set(node.attrib) - allowed
    if extra:
        raise MarkupError(f"<{node.tag}> inside <text> cannot take '{sorted(extra)[0]}'")
    colour = node.attrib.get("color")
    if colour is not None and not _paragraph_colour(colour):
        raise MarkupError(f"<{node.tag} color='{colour}'> inside <text>: not a colour (use #rrggbb or a standard name)")
    if "size" in node.attrib:
        try:
            size = positive(node.attrib["size"])
        except ValueError as exc:
            raise MarkupError(f"<{node.tag} size='{node.attrib['size']}'> inside <text>: {exc}") from None
        if size > 200:
            raise MarkupError(f"<{node.tag} size='{node.attrib['size']}'> inside <text>: at most 200 pt")
    attrs = "".join(f" {k}={quoteattr(v)}" for k, v in sorted(node.attrib.items()))
    if node.tag == "br":
        return "<br/>"
    inner = escape(node.text or "") + "".join(_inline(c) + escape(c.tail or "") for c in node)
    return f"<{node.tag}{attrs}>{inner}</{node.tag}>"


def plain_text(content: str) -> str:
    """The characters of paragraph markup that will be drawn (tags removed, entities decoded), for font checks."""
    if "<" not in content and "&" not in content and "{" not in content:
        return content  # most card text: nothing to remove
    from html import unescape

    return unescape(re.sub(r"<[^>]*>", "", ICON_PATTERN.sub("", content)))
