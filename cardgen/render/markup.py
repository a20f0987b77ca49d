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
allowed (`<b>`, `<i>`, `<u>`, `<br/>`, `<font color="…">`, `<sup>`, `<sub>`) and `{icon}` (or `{icon:colour}`)
places an icon of the game's icon set at the text size. `<g transform="…">` groups elements under a transform and
`<style name="…">` names attributes that elements take with `style="…"`; both are resolved here, so the elements
arrive flat, each with its transform. `parse_face` checks every element and attribute, so a layout mistake is
reported with its template and element instead of being drawn wrongly. Every attribute carries its type, unit and
meaning (`Attr`), from which `cardgen.render.reference` writes docs/layout-reference.md.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from cardgen.render import svgpath
from cardgen.render.svgpath import Op


def escape(text: str) -> str:
    """`&`, `<` and `>` as XML entities: `xml.sax.saxutils.escape`, whose module imports `urllib.request` (with
    `http.client` and `ssl`, 9 ms of a build's start) for functions cardgen never calls."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(value: str) -> str:
    """An attribute's value escaped and quoted, as `xml.sax.saxutils.quoteattr` writes it: line breaks and tabs as
    character references, in double quotes unless it holds a double quote and no single one."""
    value = escape(value).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"{}"'.format(value.replace('"', "&quot;"))


class MarkupError(ValueError):
    """A layout produced markup that cannot be drawn; the message names the element and attribute. `line` is the
    line of the rendered markup; `at` the layout's own `file:line` when the markup was rendered with line marks."""

    def __init__(self, message: str, line: int | None = None, at: str | None = None):
        super().__init__(message)
        self.line = line
        self.at = at


# The attribute `Layouts.locate` adds to every element a layout writes: the template's `file:line`.
MARK = "data-cardgen-at"


Parser = TypeVar("Parser", bound=Callable[..., Any])


def _kind(text: str) -> Callable[[Parser], Parser]:
    """Name what a parser accepts, as the layout reference writes it."""

    def mark(parse: Parser) -> Parser:
        parse.kind = text  # type: ignore[attr-defined]  # read by Attr.kind
        return parse

    return mark


@_kind("number")
def number(value: str) -> float:
    """A finite number: NaN and infinities would reach the PDF as garbage or crash the drawing."""
    found = float(value)
    if not math.isfinite(found):
        raise ValueError(f"expected a finite number, got '{value}'")
    return found


@_kind("number ≥ 0")
def length(value: str) -> float:
    """A size that cannot be negative (widths, heights, radii, line widths)."""
    found = number(value)
    if found < 0:
        raise ValueError(f"cannot be negative, got '{value}'")
    return found


@_kind("number > 0")
def positive(value: str) -> float:
    """A size that must be above zero (font sizes, line spacing)."""
    found = number(value)
    if found <= 0:
        raise ValueError(f"must be above zero, got '{value}'")
    return found


@_kind("number 0–1")
def fraction(value: str) -> float:
    found = number(value)
    if not 0 <= found <= 1:
        raise ValueError(f"must lie between 0 and 1, got '{value}'")
    return found


@_kind("angle")
def angle(value: str) -> float:
    """Degrees counter-clockwise, any value, kept in [0, 360)."""
    return number(value) % 360


@_kind("true or false")
def boolean(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "1"):
        return True
    if lowered in ("false", "no", "0", ""):
        return False
    raise ValueError(f"expected true or false, got '{value}'")


@_kind("x,y")
def offset(value: str) -> tuple[float, float]:
    """One `dx,dy` pair (mm; y down)."""
    parts = value.split(",")
    if len(parts) != 2:
        raise ValueError(f"expected 'dx,dy', got '{value}'")
    return number(parts[0]), number(parts[1])


@_kind("x,y pairs")
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
    parse.kind = " | ".join(f"`{o}`" for o in options)  # type: ignore[attr-defined]  # read by Attr.kind
    return parse


@_kind("lengths")
def dash(value: str) -> tuple[float, ...]:
    """Dash and gap lengths; all zero would draw nothing forever (reportlab loops or the viewer chokes)."""
    lengths = tuple(length(v) for v in value.split())
    if lengths and not any(lengths):
        raise ValueError("dash lengths cannot all be zero")
    if len(lengths) > 16:
        raise ValueError("at most 16 dash lengths")
    return lengths


Transform = tuple[tuple[str, tuple[float, ...]], ...]  # ("translate", (dx, dy)), ("rotate", (a, cx, cy)), …
_STEP = re.compile(r"\s*(translate|rotate|scale)\s*\(([^()]*)\)\s*,?")
_ARGUMENTS = {"translate": (1, 2), "rotate": (1, 3), "scale": (1, 2)}


@_kind("transform list")
def transform(value: str) -> Transform:
    """`translate(dx[,dy]) rotate(a[,cx,cy]) scale(s[,sy])` in any order and number, applied as SVG applies them
    (the first is the outermost); lengths in mm, angles in degrees counter-clockwise."""
    steps, position = [], 0
    while position < len(value.rstrip()):
        match = _STEP.match(value, position)
        if match is None:
            raise ValueError(f"expected translate(…), rotate(…) or scale(…) at '{value[position:][:30]}'")
        name, text = match.group(1), match.group(2)
        arguments = tuple(number(v) for v in text.replace(",", " ").split())
        low, high = _ARGUMENTS[name]
        if not low <= len(arguments) <= high or (name == "rotate" and len(arguments) == 2):
            raise ValueError(f"{name}() takes {'1 or 3' if name == 'rotate' else '1 or 2'} numbers, got '{text}'")
        if name == "translate" and len(arguments) == 1:
            arguments = (arguments[0], 0.0)
        elif name == "scale" and len(arguments) == 1:
            arguments = (arguments[0], arguments[0])
        elif name == "rotate" and len(arguments) == 1:
            arguments = (arguments[0], 0.0, 0.0)
        steps.append((name, arguments))
        position = match.end()
    return tuple(steps)


@_kind("path data")
def path_data(value: str) -> tuple[Op, ...]:
    """SVG path data (`M`, `L`, `H`, `V`, `C`, `S`, `Q`, `T`, `A`, `Z`, relative in lower case), in mm."""
    return svgpath.parse(value)


@dataclass(frozen=True, slots=True)
class Gradient:
    """A fill that runs through colours: `linear` along `angle` (degrees counter-clockwise, 0 left to right) across
    the shape's bounding box, or `radial` from its centre to its farthest corner. `stops` are (colour, position
    0–1) pairs, positions rising."""

    kind: str
    angle: float
    stops: tuple[tuple[str, float], ...]


_GRADIENT = re.compile(r"^\s*(linear|radial)\s*\((.*)\)\s*$", re.S)


def gradient(value: str, is_colour: Callable[[str], bool]) -> Gradient:
    """`linear(ANGLE, COLOUR [POS], COLOUR [POS], …)` or `radial(COLOUR [POS], …)`; POS is 0–1 or a percentage.
    Stops without a position share the room between their neighbours' (the first at 0, the last at 1), as in CSS."""
    match = _GRADIENT.match(value)
    if match is None:
        raise ValueError("expected a colour, linear(ANGLE, COLOUR, COLOUR, …) or radial(COLOUR, COLOUR, …)")
    kind, parts = match.group(1), [part.strip() for part in match.group(2).split(",")]
    angle_of = 0.0
    if kind == "linear":
        angle_of = angle(parts.pop(0))
    if len(parts) < 2:
        raise ValueError(f"{kind}() needs at least two colours")
    if len(parts) > 32:
        raise ValueError(f"{kind}() takes at most 32 colours")
    colours: list[str] = []
    positions: list[float | None] = []
    for part in parts:
        words = part.split()
        if not 1 <= len(words) <= 2 or not is_colour(words[0]) or words[0] in ("none", "transparent"):
            raise ValueError(f"'{part}' is not a colour with an optional position (a game colour or #rrggbb, then 0–1)")
        colours.append(words[0])
        positions.append(_stop_position(words[1]) if len(words) == 2 else None)
    return Gradient(kind, angle_of, tuple(zip(colours, _spread(positions), strict=True)))


def _stop_position(text: str) -> float:
    position = number(text[:-1]) / 100 if text.endswith("%") else number(text)
    if not 0 <= position <= 1:
        raise ValueError(f"a colour's position lies between 0 and 1 (0% and 100%), got '{text}'")
    return position


def _spread(positions: list[float | None]) -> list[float]:
    known = list(positions)
    known[0] = 0.0 if known[0] is None else known[0]
    known[-1] = 1.0 if known[-1] is None else known[-1]
    filled: list[float] = []
    for index, position in enumerate(known):
        if position is None:
            after = next(i for i in range(index, len(known)) if known[i] is not None)
            before = filled[-1]
            position = before + (known[after] - before) / (after - index + 1)  # type: ignore[operator]
        if filled and position < filled[-1]:
            raise ValueError("the colours' positions must not go down")
        filled.append(position)
    return filled


@dataclass(frozen=True, slots=True)
class Clip:
    """What a `<g clip="…">` keeps of its children: `circle` (cx, cy, r), `hexagon` (cx, cy, r; `orient`), `rect`
    (x, y, w, h, radius) or `path` (its operations), all in mm in the group's coordinates."""

    shape: str
    numbers: tuple[float, ...] = ()
    orient: str = "flat"
    ops: tuple[Op, ...] = ()


_CLIP = re.compile(r"^\s*(circle|hexagon|rect|path)\s*\((.*)\)\s*$", re.S)
_CLIP_NUMBERS = {"circle": (3, 3), "hexagon": (3, 3), "rect": (4, 5)}


@_kind("clip shape")
def clip(value: str) -> Clip:
    """`circle(cx,cy,r)`, `hexagon(cx,cy,r[,flat|pointy])`, `rect(x,y,w,h[,radius])` or `path(d)`."""
    match = _CLIP.match(value)
    if match is None:
        raise ValueError("expected circle(cx,cy,r), hexagon(cx,cy,r[,orient]), rect(x,y,w,h[,radius]) or path(d)")
    shape, inside = match.groups()
    if shape == "path":
        return Clip(shape, ops=path_data(inside))
    parts = [part.strip() for part in inside.split(",")]
    orient = "flat"
    if shape == "hexagon" and len(parts) == 4:
        orient = choice("flat", "pointy")(parts.pop())
    low, high = _CLIP_NUMBERS[shape]
    if not low <= len(parts) <= high:
        wanted = {"circle": "cx,cy,r", "hexagon": "cx,cy,r[,flat|pointy]", "rect": "x,y,w,h[,radius]"}[shape]
        raise ValueError(f"{shape}() takes {wanted}, got '{inside}'")
    numbers = tuple(number(part) for part in parts)
    if any(n < 0 for n in numbers[2:]):
        raise ValueError(f"{shape}(): sizes cannot be negative, got '{inside}'")
    return Clip(shape, numbers, orient)


COLOUR = "colour"  # parsed against the game's palette, which only the caller knows
FILL = "fill"  # a colour or a gradient of the game's colours
TEXT = str
REQUIRED = object()


@dataclass(frozen=True)
class Attr:
    """One attribute of an element: how its text is parsed (a function, `COLOUR` or `TEXT`), its default
    (`REQUIRED` when it has none), its unit and what it means (both for the layout reference)."""

    parse: Any
    default: Any = REQUIRED
    unit: str = ""
    doc: str = ""

    def shown(self, name: str) -> str:
        """The attribute as the guide's element table writes it: `orient=flat|pointy` for a choice."""
        options = getattr(self.parse, "options", None)
        return f"{name}={'|'.join(options)}" if options else name

    @property
    def kind(self) -> str:
        """What the attribute accepts: `number ≥ 0`, `colour`, `text`, the options of a choice, …"""
        if self.parse == COLOUR:
            return "colour"
        if self.parse == FILL:
            return "colour or gradient"
        if self.parse is TEXT:
            return "text"
        return str(getattr(self.parse, "kind", "text"))


Schema = Mapping[str, Attr]

STROKE: dict[str, Attr] = {
    "stroke": Attr(COLOUR, "none", doc="the outline's colour (`none`: no outline)"),
    "stroke-width": Attr(length, 0.3, "mm", "the outline's width"),
    "dash": Attr(dash, (), "mm", "dash and gap lengths separated by spaces: `2 1` draws 2 mm dashes, 1 mm apart"),
    "opacity": Attr(fraction, 1.0, doc="1 opaque, 0 invisible; multiplies the colours' own alpha"),
}
SHAPE: dict[str, Attr] = {
    "fill": Attr(
        FILL,
        "none",
        doc="the colour inside (`none`: not filled), or a gradient: `linear(90, navy, #3a6ea5 60%, white)` (an angle, "
        "then colours each with an optional position 0–1 or %) or `radial(gold, orange 0.4, #40200000)`; a colour's "
        "alpha is its opacity there (a soft mask), which `opacity` multiplies",
    ),
    **STROKE,
}
AT: dict[str, Attr] = {  # a top-left corner, mm from the trim's top-left
    "x": Attr(number, unit="mm", doc="left edge, from the trim's left edge"),
    "y": Attr(number, unit="mm", doc="top edge, from the trim's top edge, downwards"),
}
BOX: dict[str, Attr] = {**AT, "w": Attr(length, unit="mm", doc="width"), "h": Attr(length, unit="mm", doc="height")}
CENTRE: dict[str, Attr] = {
    "cx": Attr(number, unit="mm", doc="centre, from the trim's left edge"),
    "cy": Attr(number, unit="mm", doc="centre, from the trim's top edge, downwards"),
    "r": Attr(length, unit="mm", doc="radius"),
}
ROTATE_DOC = (
    "turns the content counter-clockwise about the box's centre; at 90 and 270 it runs along the box's height and "
    "fills the box, other angles tilt the nearest quarter turn's frame"
)
FACE: Schema = {"bg": Attr(COLOUR, "none", doc="fills the trim and the bleed")}
# Every element may name styles; `<g>` and `<style>` are resolved by the parser, not drawn by an element.
STYLE_REF: dict[str, Attr] = {
    "style": Attr(
        TEXT, None, doc="names of `<style>`s (separated by spaces) whose attributes this element takes; its own win"
    )
}
GROUP: Schema = {
    "transform": Attr(
        transform,
        (),
        "mm, degrees",
        "`translate(dx,dy)`, `rotate(a)` or `rotate(a,cx,cy)` (counter-clockwise, about the trim's top-left corner or "
        "cx,cy), `scale(s)` or `scale(sx,sy)` (about the trim's top-left corner), in any order and number; the first "
        "is applied last, as in SVG",
    ),
    "clip": Attr(
        clip,
        None,
        "mm",
        "draws the children only inside `circle(cx,cy,r)`, `hexagon(cx,cy,r[,flat|pointy])`, `rect(x,y,w,h[,radius])` "
        "or `path(d)`, in the group's coordinates (after its `transform`); groups inside clip further",
    ),
    **STYLE_REF,
}
STYLE: Schema = {"name": Attr(TEXT, doc='what elements call the style: `style="name"`')}

INLINE_TAGS = {"b", "i", "u", "strike", "br", "font", "sup", "sub", "span"}
INLINE_ATTRS = {"font": {"color", "size"}, "span": {"color"}}
# `{name}` or `{name:colour}`: an icon of the game's set inside text, in its own colours or in one colour
ICON_PATTERN = re.compile(r"\{([A-Za-z0-9][A-Za-z0-9_.-]*)(?::(#[0-9A-Fa-f]{6}|[A-Za-z][A-Za-z0-9_-]*))?\}")


@dataclass(frozen=True, slots=True)
class Element:
    """One drawable element with its validated attributes; `content` is a text box's paragraph markup, `transform`
    the steps of the `<g>` groups around it (outermost first), `at` the layout's `file:line` when known. `clips` are
    the clips of those groups, outermost first, each with the number of `transform` steps in force where it applies."""

    tag: str
    attrs: Mapping[str, Any]
    content: str = ""
    transform: Transform = ()
    at: str | None = None
    clips: tuple[tuple[int, Clip], ...] = ()

    def __getitem__(self, name: str) -> Any:
        return self.attrs[name]


@dataclass(frozen=True, slots=True)
class Face:
    """A parsed face: its background and its elements in drawing order."""

    bg: str
    elements: tuple[Element, ...]


@dataclass(frozen=True)
class _Reader:
    """What parsing one face needs everywhere: the elements' schemas, the colour test and the face's styles."""

    schemas: Mapping[str, Schema]
    is_colour: Callable[[str], bool]
    styles: Mapping[str, Mapping[str, str]]
    checked: Checked


# an element's attributes as written, styles applied (tag, name-value pairs) → as checked and parsed
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
        line, column = exc.position
        lines = markup.splitlines()
        text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        text = re.sub(f' {MARK}="[^"]*"', "", text)
        what = exc.msg.split(":")[0]
        at, unclosed = _xml_error_at(markup, line, column) if MARK in markup else (None, None)
        hint = f" (<{unclosed}> is not closed)" if unclosed and what == "mismatched tag" else ""
        raise MarkupError(f"the layout produced invalid XML ({what}) near: {text[:80]}{hint}", line, at) from None
    at = root.attrib.pop(MARK, None)
    if root.tag != "face":
        raise MarkupError(f"a layout must produce one <face> element, not <{root.tag}>", at=at)
    face_attrs = _located(at, _checked, root, FACE, is_colour, checked)
    reader = _Reader(schemas, is_colour, _styles(root, schemas), checked)
    elements = tuple(_children(root, reader, (), (), ()))
    return Face(face_attrs["bg"], elements)


def marker(index: int) -> str:
    """Where a substitution layout's field number `index` goes in its probe (`Layouts`): characters of Unicode's
    private use area, which card text may not hold where a skeleton is used (`SKELETON_REFUSED`)."""
    return f"\ue000{index}\ue001"


# what a field's text may not hold for its face to be made from a skeleton: XML's forbidden characters and the
# carriage return (the parser refuses or rewrites them: the face's own parse says or does so), and the markers
SKELETON_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\r\ud800-\udfff\ufffe\uffff\ue000\ue001]")


@dataclass(frozen=True)
class Skeleton:
    """A substitution layout's face parsed once with a marker for each field (`marker`): `marked` are the elements
    whose text holds markers, each with the pieces of its text — text, and the number of the field whose text goes
    there. Every marker lies in text box content, outside any inline tag, so a card's face is the skeleton with
    each field's text escaped as `inline_markup` escapes text (`fill`)."""

    face: Face
    fields: int
    marked: tuple[tuple[int, tuple[str | int, ...]], ...]


MARKER = re.compile("\ue000([0-9]+)\ue001")


def skeleton(probe: str, fields: int, parse: Callable[[str], Face]) -> Skeleton | None:
    """The skeleton of a probe (the layout's markup with markers for its fields), or None where some marker is
    anywhere but in a text box's text (an attribute, a tag, other content) or the probe does not parse: those
    faces are parsed whole."""
    try:
        face = parse(probe)
    except Exception:  # whatever it is, each face's own parse says it
        return None
    in_text, marked = 0, []
    for index, element in enumerate(face.elements):
        split = MARKER.split(element.content)  # text, field number, text, …
        if len(split) == 1:
            continue
        for at in range(1, len(split), 2):  # outside any inline tag: the last '<' before the marker closed by a '>'
            before = "".join(split[:at:2])
            if before.rfind("<") > before.rfind(">"):
                return None
        in_text += len(split) // 2
        marked.append((index, tuple(int(piece) if n % 2 else piece for n, piece in enumerate(split))))
    if in_text != len(MARKER.findall(probe)):
        return None
    return Skeleton(face, fields, tuple(marked))


def fill(bones: Skeleton, texts: tuple[str, ...]) -> Face:
    """The face of a card whose field texts are `texts` (none of them matching `SKELETON_REFUSED`): what
    `parse_face` makes of the markup with those texts escaped in place of the markers. The text's leading and
    trailing white space goes as `inline_markup` strips it."""
    escaped = [escape(text) for text in texts]
    elements = list(bones.face.elements)
    for index, pieces in bones.marked:
        element = elements[index]
        content = "".join([piece if isinstance(piece, str) else escaped[piece] for piece in pieces]).strip()
        elements[index] = Element(element.tag, element.attrs, content, element.transform, element.at, element.clips)
    return Face(bones.face.bg, tuple(elements))


def _xml_error_at(markup: str, line: int, column: int) -> tuple[str | None, str | None]:
    """Where marked markup (`Layouts.locate`) went wrong: for a mismatched closing tag, the mark and tag of the
    element left open; otherwise the last mark before the error."""
    open_elements: list[tuple[str, str | None]] = []
    parser: Any = ET.XMLPullParser(events=("start", "end"))
    try:
        parser.feed(markup)  # the pull parser raises a syntax error as the event after the last good one
        for event, node in parser.read_events():
            if event == "start":
                open_elements.append((node.tag, node.attrib.get(MARK)))
            else:
                open_elements.pop()
    except ET.ParseError as exc:
        if exc.msg.startswith("mismatched tag") and open_elements:
            return open_elements[-1][1], open_elements[-1][0]
    lines = markup.splitlines()
    before = "\n".join([*lines[: line - 1], lines[line - 1][:column]]) if 0 < line <= len(lines) else markup
    marks = re.findall(f'{MARK}="([^"]*)"', before)
    return (marks[-1] if marks else None), None


def _located(at: str | None, function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)`, its `MarkupError` located at `at` (the layout's file:line) when it has no place yet."""
    try:
        return function(*args)
    except MarkupError as exc:
        exc.at = exc.at or at
        raise


def _children(
    parent: ET.Element, reader: _Reader, steps: Transform, styles: tuple[str, ...], clips: tuple[tuple[int, Clip], ...]
) -> Iterator[Element]:
    """The elements inside `parent` (a face or a group), groups flattened: each element with its transform."""
    if stray := (parent.text or "").strip():
        raise MarkupError(f"text outside a <text> box: '{stray[:40]}'")
    for node in parent:
        at = node.attrib.pop(MARK, None)
        if stray := (node.tail or "").strip():
            raise MarkupError(f"text outside a <text> box after <{node.tag}>: '{stray[:40]}'", at=at)
        if node.tag == "style":
            continue  # read by _styles
        if node.tag == "g":
            group = _located(at, _attributes, node, GROUP, reader.is_colour)
            inherited = (*styles, *_style_names(group["style"]))
            inner = (*steps, *group["transform"])
            clipped = clips if group["clip"] is None else (*clips, (len(inner), group["clip"]))
            yield from _children(node, reader, inner, inherited, clipped)
            continue
        yield _located(at, _element, node, reader, steps, styles, at, clips)


def _styles(root: ET.Element, schemas: Mapping[str, Schema]) -> dict[str, dict[str, str]]:
    """The face's named styles: `<style name="label" size="6.5" colour="ink"/>` anywhere outside a text box."""
    known = {name for schema in schemas.values() for name in schema}
    styles: dict[str, dict[str, str]] = {}
    for node in root.iter("style"):
        at = node.attrib.pop(MARK, None)
        attrs = dict(node.attrib)
        name = attrs.pop("name", None)
        if not name:
            raise MarkupError("<style> needs the attribute 'name'", at=at)
        if name in styles:
            raise MarkupError(f"<style name='{name}'> is defined twice", at=at)
        if len(node) or (node.text or "").strip():
            raise MarkupError("<style> cannot have content", at=at)
        for attribute in attrs:
            if attribute not in known:
                from cardgen.errors import did_you_mean

                hint = did_you_mean(attribute, sorted(known))
                raise MarkupError(f"<style name='{name}'> sets '{attribute}', which no element takes{hint}", at=at)
        styles[name] = attrs
    return styles


def _style_names(value: str | None) -> tuple[str, ...]:
    return tuple(value.split()) if value else ()


def _element(
    node: ET.Element,
    reader: _Reader,
    steps: Transform,
    inherited: tuple[str, ...],
    at: str | None,
    clips: tuple[tuple[int, Clip], ...],
) -> Element:
    schemas = reader.schemas
    if node.tag not in schemas:
        known = ", ".join(sorted([*schemas, "g", "style"]))
        raise MarkupError(f"unknown element <{node.tag}> (known: {known})")
    schema = schemas[node.tag]
    own = _style_names(node.attrib.pop("style", None))
    styled: dict[str, str] = {}
    for name in (*inherited, *own):
        if name not in reader.styles:
            from cardgen.errors import did_you_mean

            hint = did_you_mean(name, list(reader.styles))
            raise MarkupError(f"<{node.tag}> names the unknown style '{name}'{hint}")
        taken = {k: v for k, v in reader.styles[name].items() if k in schema}
        if name in own and not taken:
            raise MarkupError(f"<{node.tag}> names the style '{name}', which sets nothing a <{node.tag}> takes")
        styled.update(taken)
    node.attrib = {**styled, **node.attrib}
    attrs = _checked(node, schema, reader.is_colour, reader.checked)  # the key holds the styles' attributes too
    content = ""
    if node.tag == "text":
        content = inline_markup(node)
    elif len(node) or (node.text or "").strip():
        raise MarkupError(f"<{node.tag}> cannot have content")
    return Element(node.tag, attrs, content, steps, at, clips)


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
            values[name] = _fill(raw, is_colour) if parser == FILL else parser(raw)
        except ValueError as exc:
            shown = raw if len(raw) <= 60 else raw[:57] + "…"  # a long path's mistake is named by its position
            raise MarkupError(f"<{node.tag} {name}='{shown}'>: {exc}") from None
    return values


def _fill(value: str, is_colour: Callable[[str], bool]) -> str | Gradient:
    if "(" in value:
        return gradient(value, is_colour)
    if not is_colour(value):
        raise ValueError("not a colour (use a game colour, #rrggbb, none, linear(…) or radial(…))")
    return value


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
    for child in node.iter():
        child.attrib.pop(MARK, None)  # inline tags carry no location of their own
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


_ART_TAG = re.compile(r"""<art(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>""")
_QUOTED = re.compile(r""""[^"]*"|'[^']*'""")


def with_card(markup: str, card_id: str) -> str:
    """The markup with `card="…"` on every `<art>` that gives no `seed` of its own: art is drawn from the card's id
    by default, and a face's markup is all that tells faces apart (faces of equal markup are drawn once). Art with
    its own seed (or card) is left alone, so faces that share it stay one face."""
    if "<art" not in markup:
        return markup

    def add(match: re.Match[str]) -> str:
        if re.search(r"\s(seed|card)\s*=", _QUOTED.sub("", match.group(1))):
            return match.group(0)
        return f"<art card={quoteattr(card_id)}{match.group(1)}>"

    return _ART_TAG.sub(add, markup)


def plain_text(content: str) -> str:
    """The characters of paragraph markup that will be drawn (tags removed, entities decoded), for font checks."""
    if "<" not in content and "&" not in content and "{" not in content:
        return content  # most card text: nothing to remove
    from html import unescape

    return unescape(re.sub(r"<[^>]*>", "", ICON_PATTERN.sub("", content)))
