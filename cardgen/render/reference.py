"""The layout reference (docs/layout-reference.md), written from the code that defines the layout language.

Every element and attribute with its type, unit, default and meaning comes from the elements' schemas
(`cardgen.render.elements`, `markup.Attr`); `<g>`, `<style>` and the inline markup from `markup`; what a layout sees
from `layouts`; icon shapes from the `Icon` model; card sizes from `units`; font naming from `fonts`; image formats
from `kit`. `python -m cardgen.reference` rewrites the file and `cardgen layout-reference` prints it;
`tests/test_reference.py` fails when the committed file and the code disagree.
"""

from __future__ import annotations

import typing
from collections import Counter

from cardgen.data.model import PAGE_SIZES, Icon
from cardgen.render import fonts, layouts, markup
from cardgen.render.elements import ELEMENTS
from cardgen.render.icons import LABEL_ROOM
from cardgen.render.kit import IMAGE_SUFFIXES
from cardgen.render.library import LICENCE, SOURCE, library
from cardgen.units import CARD_SIZES_MM

KINDS = {  # what each kind of value a parser accepts looks like, for the table of value kinds
    "number": "a decimal number, `12`, `-3.5`; lengths are millimetres without a unit",
    "number ≥ 0": "a number that cannot be negative",
    "number > 0": "a number above zero",
    "number 0–1": "a share from 0 to 1",
    "angle": "degrees, counter-clockwise, any number (`-30` is `330`)",
    "whole number": "a whole number, `3`, within the range its attribute gives",
    "true or false": "`true`/`false` (also `yes`/`no`, `1`/`0`)",
    "x,y": "one pair of numbers, `0.4,0.6`",
    "x,y pairs": 'corner points separated by spaces: `points="0,0 10,0 5,8"`',
    "lengths": "lengths separated by spaces",
    "transform list": "`translate(…)`, `rotate(…)`, `scale(…)` separated by spaces",
    "colour": "a colour of the game's `settings.colours`, `#rrggbb`, `#rrggbbaa` (with alpha), a standard name "
    "(`white`, `black`, `red`, …) or `none`",
    "colour or gradient": "a colour, or `linear(ANGLE, COLOUR [POS], COLOUR [POS], …)` (ANGLE degrees "
    "counter-clockwise, 0 left to right, across the shape's bounding box) or `radial(COLOUR [POS], …)` (from the "
    "box's centre to its corners); POS is 0–1 or a percentage, stops without one spread evenly",
    "path data": 'SVG path data, mm, y down: `d="M2 2 L10 2 Q14 6 10 10 A4 4 0 0 1 2 10 Z"`',
    "clip shape": "`circle(cx,cy,r)`, `hexagon(cx,cy,r[,flat|pointy])`, `rect(x,y,w,h[,radius])` or `path(d)`, mm",
    "text": "any text",
}


GROUP_EXAMPLE = '<g clip="hexagon(20,20,15)"><image src="art/nebula.png" x="0" y="0" w="40" h="40"/></g>'


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _default(attr: markup.Attr) -> str:
    if attr.default is markup.REQUIRED:
        return "required"
    if attr.default is None or attr.default == ():
        return "—"
    value = attr.default
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, float):
        return f"`{value:g}`"
    return f"`{value}`"


def attribute_table(schema: markup.Schema) -> list[str]:
    rows = ["| attribute | type | unit | default | meaning |", "|---|---|---|---|---|"]
    for name, attr in schema.items():
        rows.append(f"| `{name}` | {_cell(attr.kind)} | {attr.unit or '—'} | {_default(attr)} | {_cell(attr.doc)} |")
    return rows


def _kinds_used() -> list[str]:
    schemas = [markup.FACE, markup.GROUP, markup.STYLE_REF, *(kind.attributes for kind in ELEMENTS.values())]
    schemas.append({"d": markup.Attr(markup.path_data)})  # `path(d)` clips read path data too
    used = {attr.kind for schema in schemas for attr in schema.values()}
    return [kind for kind in KINDS if kind in used]


def _elements() -> list[str]:
    lines = []
    for tag, kind in ELEMENTS.items():
        lines += ["", f"### `<{tag}>`", "", kind.summary[0].upper() + kind.summary[1:] + ".", ""]
        if kind.example:
            lines += [f"Example: `{kind.example}`", ""]
        lines += attribute_table(kind.attributes)
    return lines


def _context() -> list[str]:
    rows = ["| name | what it holds |", "|---|---|"]
    rows += [f"| `{name}` | {_cell(doc)} |" for name, doc in {**layouts.CONTEXT, **layouts.GLOBAL_VALUES}.items()]
    rows += ["", "| filter or function | what it does |", "|---|---|"]
    rows += [f"| `{name}` (filter) | {_cell(layouts.describe(f))} |" for name, f in layouts.FILTERS.items()]
    rows += [f"| `{name}` | {_cell(doc)} |" for name, (_value, doc) in layouts.GLOBALS.items()]
    return rows


def _icons() -> list[str]:
    shapes = typing.get_args(Icon.model_fields["shape"].annotation)
    rows = ["| shape | room for a label (share of the side) |", "|---|---|"]
    rows += [f"| `{shape}` | {LABEL_ROOM[shape]:g} |" for shape in shapes]
    fields = ["| key | default | meaning |", "|---|---|---|"]
    for name, info in Icon.model_fields.items():
        default = "—" if info.default is None else f"`{info.default}`"
        fields.append(f"| `{name}` | {default} | {_cell(ICON_KEYS[name])} |")
    return [*fields, "", *rows]


ICON_KEYS = {
    "shape": "the vector shape (below), drawn in `fill`",
    "fill": "the shape's colour",
    "stroke": "an outline around the shape",
    "label": "up to three characters in the middle of the shape, in the heading font",
    "label_colour": "the label's colour",
    "file": "the game's own SVG, PNG or JPEG (inside its folder) instead of a shape, in its own colours; no label",
    "description": "what the icon means (for people reading game.yaml)",
}


def _library_authors() -> list[str]:
    """The library's authors, those with the most icons first."""
    counts = Counter(icon.author for icon in library().values())
    return [author for author, _ in counts.most_common()]


def shared_macros() -> list[tuple[str, list[str], str]]:
    """The macros of the bundled `_common/ui.xml.j2`: name, parameters (`name=default` where it has one) and the
    comment written above it, read from the template itself so the reference cannot drift from it."""
    import re

    from jinja2 import Environment, nodes

    from cardgen.paths import default_templates_dir

    source = (default_templates_dir() / "_common" / "ui.xml.j2").read_text(encoding="utf-8")
    said = {
        m.group(2): " ".join(m.group(1).split())
        for m in re.finditer(r"\{#-?((?:(?!#\}).)*?)-?#\}\s*\{%-? macro (\w+)\(", source, re.S)
    }
    out = []
    for macro in Environment().parse(source).find_all(nodes.Macro):
        names = [arg.name for arg in macro.args]
        defaults = [None] * (len(names) - len(macro.defaults)) + list(macro.defaults)
        shown = [name if d is None else f"{name}={_jinja_value(d)}" for name, d in zip(names, defaults, strict=True)]
        out.append((macro.name, shown, said.get(macro.name, "")))
    return out


def _jinja_value(node: object) -> str:
    from jinja2 import nodes

    value = node.value if isinstance(node, nodes.Const) else "…"
    return '"' + value + '"' if isinstance(value, str) else ("None" if value is None else str(value))


def _macros() -> list[str]:
    rows = ["| macro | parameters | draws |", "|---|---|---|"]
    rows += [
        f"| `ui.{name}` | {', '.join(f'`{p}`' for p in shown)} | {_cell(said)} |"
        for name, shown, said in shared_macros()
    ]
    return rows


def _sizes() -> list[str]:
    rows = ["| name | width × height (mm) |", "|---|---|"]
    rows += [f"| `{name}` | {w:g} × {h:g} |" for name, (w, h) in CARD_SIZES_MM.items()]
    return rows


def layout_reference() -> str:
    """The whole reference as Markdown."""
    suffixes = ", ".join(sorted(s.lstrip(".").upper() for s in IMAGE_SUFFIXES))
    styles = ", ".join(f"`-{suffix}`" for suffix in fonts.STYLE_SUFFIXES.values())
    roles = ", ".join(f"`{role}` ({file})" for role, file in fonts.DEFAULT_ROLES.items())
    kinds = ["| type | written as |", "|---|---|", *(f"| {kind} | {_cell(KINDS[kind])} |" for kind in _kinds_used())]
    lines = [
        "# Layout reference",
        "",
        "<!-- Generated from cardgen/render by `python -m cardgen.reference` (also `cardgen layout-reference`);",
        "     do not edit: tests/test_reference.py fails when this file and the code disagree. -->",
        "",
        "A layout is a Jinja template, `templates/<game-id>/<layout>.xml.j2`, that renders one face (a card's front",
        "or back, a counter, a tile, a sheet) to the markup below. Lengths are millimetres from the trim box's",
        "top-left corner, y growing downwards; a bare number is millimetres, and numbers a layout computes print",
        "cleanly without a filter (`{{ face.width / 3 }}` prints `21.166667`). Angles are degrees,",
        "counter-clockwise. Font sizes are points. Colours are the game's colour names, `#rrggbb`, `#rrggbbaa` or",
        "standard names.",
        "",
        "## Types of values",
        "",
        *kinds,
        "",
        "## `<face>`: the root",
        "",
        "Every layout produces one `<face>`; its children are drawn in order, later ones on top.",
        "",
        *attribute_table(markup.FACE),
        "",
        "## Elements",
        "",
        "Every element also takes `style` (below).",
        *_elements(),
        "",
        "## Groups and named styles",
        "",
        "### `<g>`",
        "",
        "Groups elements (and other groups) under one transform, so a block of a layout is written once at its own",
        "origin and placed, turned or scaled as a whole. Line widths and text scale with it. With `clip` its",
        "children are drawn only inside a shape, so art fills a round token or a hex tile exactly (a vector clip).",
        "",
        f"Example: `{GROUP_EXAMPLE}`",
        "",
        *attribute_table(markup.GROUP),
        "",
        "### `<style>`",
        "",
        'Names a set of attributes once: `<style name="stat" size="9" font="heading" colour="white"/>`, then',
        '`<text style="stat" …>`. A style may set any attribute of any element; an element takes those of its',
        "styles' attributes that it has (naming a style that sets none of them is an error), then its own. A",
        '`<g style="…">` passes its styles to everything inside it. Styles belong to the face: put the `<style>`s',
        "in a shared macro to use them in every layout.",
        "",
        *attribute_table(markup.STYLE),
        "",
        "## Inside `<text>`",
        "",
        "Text boxes hold reportlab paragraph markup: "
        + ", ".join(f"`<{tag}>`" for tag in sorted(markup.INLINE_TAGS))
        + "; "
        + "; ".join(
            f"`<{tag}>` takes {', '.join(f'`{a}`' for a in sorted(attrs))}"
            for tag, attrs in sorted(markup.INLINE_ATTRS.items())
        )
        + ". `{name}` places the game's icon `name` at the text size; `{name:colour}` draws it in one colour",
        "(`{credits:red}`, `{laser:#d9a400}`). The `rich` filter turns card text's `**bold**`, `*italic*` and line",
        "breaks into this markup.",
        "",
        "## Shared macros (`_common/ui.xml.j2`)",
        "",
        'Pieces every game may use: `{% import "_common/ui.xml.j2" as ui %}`, then `{{ ui.badge(5, 5, card.attack,',
        '"accent") }}`. Lengths are millimetres; `face` is the face being drawn. A parameter with a default may be',
        "left out or given by name (`size=7`).",
        "",
        *_macros(),
        "",
        "## What a layout sees",
        "",
        *_context(),
        "",
        "Undefined names and fields are errors naming the template and line; errors in the markup a layout",
        "produces (an unknown element or attribute, a bad value, XML that is not well formed) name the `.j2` file",
        "and line that wrote the element (and for runtime errors inside a macro, the lines that called it).",
        "",
        "## Icons",
        "",
        "`settings.icons` in game.yaml names the game's icons; layouts draw them with `<icon>` and text with",
        "`{name}`. Each is a vector shape or the game's own file:",
        "",
        *_icons(),
        "",
        "An icon's colour where it is used (`<icon colour>`, `{name:colour}`) replaces a shape's fill, every painted",
        "part of an SVG, and a PNG or JPEG's pixels (its alpha channel, or without one its darkness, is the shape).",
        "",
        "### The icon library",
        "",
        f"Any of the {len(library())} icons of cardgen's icon library goes wherever a game icon goes, by name:",
        '`<icon name="spaceship" x="5" y="5" size="8" colour="red"/>`, `{ringed-planet}`, `{laser-blast:#c00000}`.',
        f"They are icons from {SOURCE} by {', '.join(_library_authors()[:2])} and others, licensed {LICENCE};",
        "each is one vector path, black unless given a colour. A name in the game's `settings.icons` wins over the",
        "library. `cardgen icons WORD` lists the icons whose name, category or author contains WORD (their",
        "categories: " + ", ".join(sorted({icon.category for icon in library().values()})) + "), and",
        "`--sheet FILE.png` draws them on a contact sheet. A game that prints library icons credits their authors",
        "in its print guide (PRINT.md, print-guide.pdf) and gallery: *Icons by … from game-icons.net, CC BY 3.0*",
        "(cardgen/render/icon_library/ATTRIBUTION.md lists every icon's author).",
        "",
        "## Card sizes",
        "",
        "A component's `size` (or `settings.card_size`): a name below, one length for round and hex pieces (the",
        "diameter; the distance across the flats), `WxH` in millimetres (`63.5x88.9`), lengths with a unit",
        "(`5/8in`, `1.5cm`, `9pt`; a bare number is millimetres), or "
        + " / ".join(f"`{name}`" for name in PAGE_SIZES)
        + " (the paper, for sheets).",
        "",
        *_sizes(),
        "",
        "## Fonts",
        "",
        "A text box's `font` is a role of `settings.fonts`; the defaults are " + roles + ".",
        "A font file is looked up in the game's folder, then in cardgen's `fonts/` folder. Bold and italic",
        f"(`<b>`, `<i>`) come from the files beside it named with the same stem and {styles} instead of `-Regular`",
        "(`Lora-Regular.ttf` → `Lora-Bold.ttf`, `Lora-Italic.ttf`, `Lora-BoldItalic.ttf`; a link leading out of the",
        "folder is no such file), read when text first sets them; a face without its file prints in the regular",
        "one. TrueType (`.ttf`) and OpenType files are read; an OpenType font with PostScript",
        "(CFF) outlines is converted to TrueType outlines when it is loaded (fontTools). Every font is embedded and",
        "subset, and a character the font lacks is an error naming the card.",
        "",
        "Display typefaces bundled in `fonts/` under the SIL Open Font Licence, to name as roles",
        '(`settings.fonts: {title: Orbitron-Bold.ttf}`, then `<text font="title">`):',
        "",
        "| file | typeface |",
        "|---|---|",
        *(f"| `{file}` | {_cell(doc)} |" for file, doc in fonts.DISPLAY_FACES.items()),
        "",
        "## Images",
        "",
        f"`<image src>` and icon `file`s are {suffixes} files, looked up relative to the game's folder and never",
        "outside it (`../`, absolute paths and links leading out are errors). An SVG may refer only to its own",
        "parts, embedded images and files inside the game folder. Each image is checked once and embedded once.",
        "",
        "## Values from the command line",
        "",
        "`cardgen build`, `preview`, `validate` and `gallery` take `--set KEY=VALUE` (repeatable): the layouts see",
        "`vars.KEY` as text (`{{ vars.edition }}`, `{% if vars.get('draft') %}`, `{{ vars.copies|int }}`). `build`",
        f"and `preview` take `--stamp TEXT`: a label at the bottom centre of every face, {layouts.STAMP_PT:g} pt in",
        f"grey ({layouts.STAMP_COLOUR}), shrinking to {layouts.STAMP_MIN_PT:g} pt to fit — 1 mm above the trim's",
        "bottom edge on rectangular faces, higher and narrower on round and hex pieces so that it stays inside the",
        "shape. It is inside the trim, so it is still there on the cut piece.",
        "",
    ]
    return "\n".join(lines)
