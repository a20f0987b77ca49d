"""The layout language, measured on a built PDF: groups with transforms, named styles, free-angle text and images,
image opacity, icons from the game's own SVG and PNG files in one colour, for_each over two keys, `--set` values,
`--stamp` on every face, OpenType fonts, the generated reference — and every new error, located at the `.j2` line."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pdfcheck
import pdfplumber
import pytest
from PIL import Image

from conftest import REPO, run_cli

MM = 72 / 25.4
BLEED = 3.0  # the lab game's bleed: a shop PDF page is the face with this much around it

GAME = """id: lab
title: Lab
players: [2, 4]
rulebook: {title: Lab rules}
settings:
  card_size: poker
  bleed: 3
  back: back
  colours: {ink: "#1b1f2a"}
  fonts: {display: Tiny-Regular.otf}
  icons:
    coin: {shape: circle, fill: "#d9a400"}
    logo: {file: art/logo.svg}
    blot: {file: art/blot.png}
card_types:
  card:
    fields:
      name: {type: str}
      colour: {type: str}
      language: {type: str}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
"""
CARDS = """type: card
front: front
for_each: {colour: [red, blue], language: [en, de]}
cards:
  - {id: scout, name: Scout}
"""
FRONT = """{% import "lab/_styles.xml.j2" as s %}
<face bg="white">
  {{ s.styles() }}
  <text x="5" y="5" w="50" h="6" style="label" field="plain">PLAIN {{ card.colour }} {{ card.language }}</text>
  <text x="10" y="20" w="30" h="6" size="9" rotate="30" field="tilted">TILTED</text>
  <text x="5" y="30" w="6" h="30" size="8" rotate="90" field="quarter">QUARTER</text>
  <text x="35" y="30" w="6" h="30" size="8" rotate="90.01" field="almost">QUARTER</text>
  <g transform="translate(20,65) rotate(90)">
    <text x="0" y="0" w="20" h="5" style="label" size="7" field="grouped">GROUPED</text>
  </g>
  <image src="art/red.png" x="45" y="30" w="14" h="14" opacity="0.5" rotate="45"/>
  <icon name="logo" x="45" y="50" size="8" colour="#00a000"/>
  <icon name="blot" x="45" y="62" size="8" colour="#0000ff"/>
  <text x="5" y="70" w="30" h="8" size="20" field="inline">{logo:#ff0000}</text>
  <text x="5" y="80" w="50" h="5" size="8" field="edition">{{ vars.edition }} {{ face.width / 3 }}</text>
  <text x="35" y="80" w="20" h="5" size="12" font="display" field="otf">ABBA</text>
</face>
"""
STYLES = """{% macro styles() %}<style name="label" size="9" colour="ink" font="body"/>{% endmacro %}
"""
BACK = """<face bg="ink"><text x="5" y="40" w="50" h="8" size="10" colour="white">BACK</text></face>
"""


def tiny_otf(path: Path) -> None:
    """A four-glyph OpenType font with PostScript (CFF) outlines, the kind reportlab cannot embed itself."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    glyphs = [".notdef", "space", "A", "B"]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(glyphs)
    builder.setupCharacterMap({32: "space", 65: "A", 66: "B"})
    strings = {}
    for name in glyphs:
        pen = T2CharStringPen(600, None)
        if name != "space":
            pen.moveTo((50, 0))
            pen.lineTo((550, 0))
            pen.curveTo((550, 300), (400, 700), (300, 700))
            pen.lineTo((50, 700))
            pen.closePath()
        strings[name] = pen.getCharString()
    builder.setupCFF("TinyTest-Regular", {"FullName": "Tiny Test"}, strings, {})
    builder.setupHorizontalMetrics({name: (600, 50) for name in glyphs})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Tiny Test", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))


def make_lab(root: Path) -> Path:
    """The lab game under `root` (card_data/lab, templates/lab); returns root."""
    game, layouts = root / "card_data" / "lab", root / "templates" / "lab"
    (game / "art").mkdir(parents=True)
    layouts.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME)
    (game / "cards.yaml").write_text(CARDS)
    Image.new("RGB", (20, 20), (255, 0, 0)).save(game / "art" / "red.png")
    blot = Image.new("RGBA", (20, 20), (0, 0, 0, 0))
    blot.paste((255, 255, 255, 255), (0, 0, 20, 20))  # opaque white: only its alpha counts when tinted
    blot.save(game / "art" / "blot.png")
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#333"/>'
    (game / "art" / "logo.svg").write_text(svg + "</svg>")
    tiny_otf(game / "Tiny-Regular.otf")
    (layouts / "front.xml.j2").write_text(FRONT)
    (layouts / "_styles.xml.j2").write_text(STYLES)
    (layouts / "back.xml.j2").write_text(BACK)
    return root


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_lab(tmp_path_factory.mktemp("lab"))


def cli(root: Path, *args: str | Path):
    return run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", *args)


@pytest.fixture(scope="module")
def shop(lab: Path) -> Path:
    """The lab deck as a shop PDF (one face a page: fronts, then backs), with --set and --stamp."""
    run = cli(lab, "build", "lab", "--format", "shop-pdf", "--out", lab / "out", "-q", "--no-validate",
              "--set", "edition=KS", "--stamp", "v0.3-proof")  # fmt: skip
    assert run.code == 0, run.err
    return lab / "out" / "lab" / "shop" / "cards.pdf"


def runs_of(page, text: str) -> list[list[dict]]:
    """The characters of every run of `text` on the page, in drawing order."""
    chars = page.chars
    found = [
        chars[start : start + len(text)]
        for start in range(len(chars) - len(text) + 1)
        if "".join(c["text"] for c in chars[start : start + len(text)]) == text
    ]
    assert found, f"'{text}' not on the page: {''.join(c['text'] for c in chars)[:200]}"
    return found


def chars_of(page, text: str) -> list[dict]:
    """The characters of the first run of `text` on the page."""
    return runs_of(page, text)[0]


def angle_of(char: dict) -> float:
    """The direction a character runs in, degrees counter-clockwise, from its text matrix."""
    a, b = char["matrix"][:2]
    return math.degrees(math.atan2(b, a)) % 360


def face_point(x_mm: float, y_mm: float, dpi: int) -> tuple[int, int]:
    """A face's markup point (mm from the trim's top-left) as a pixel of its shop PDF page rendered at `dpi`."""
    return round((x_mm + BLEED) / 25.4 * dpi), round((y_mm + BLEED) / 25.4 * dpi)


def test_styles_groups_and_free_rotation_land_where_the_layout_says(shop: Path):
    with pdfplumber.open(shop) as pdf:
        page = pdf.pages[0]
        plain = chars_of(page, "PLAIN")
        assert abs(plain[0]["size"] - 9) < 0.01  # from the style
        assert abs(plain[0]["x0"] - (BLEED + 5) * MM) < 0.5
        assert {round(angle_of(c)) for c in chars_of(page, "TILTED")} == {30}
        grouped = chars_of(page, "GROUPED")
        assert {round(angle_of(c)) for c in grouped} == {90}  # a group's rotate turns its text
        ink = tuple(round(int("1b1f2a"[i : i + 2], 16) / 255, 3) for i in (0, 2, 4))
        assert tuple(round(v, 3) for v in grouped[0]["non_stroking_color"]) == ink  # the style's colour, in a group
        # the text's top-left corner (0,0) in the group lands at translate(20,65); turned 90° it runs upwards
        assert abs(grouped[0]["x0"] - (BLEED + 20) * MM) < 3 and abs(grouped[0]["bottom"] - (BLEED + 65) * MM) < 1
        # 90.01° is the 90° frame tilted by a hundredth of a degree: the same place, 30 mm to the right
        quarter, almost = runs_of(page, "QUARTER")
        assert {round(angle_of(c)) for c in quarter} == {90} and 89.9 < angle_of(almost[0]) < 90.1
        for a, b in zip(quarter, almost, strict=True):
            assert abs(b["x0"] - a["x0"] - 30 * MM) < 0.2 and abs(b["top"] - a["top"]) < 0.2


def test_image_opacity_rotation_and_icons_in_one_colour(shop: Path):
    dpi = 100
    image = pdfcheck.render(shop, 0, dpi)
    red = image.getpixel(face_point(52, 37, dpi))  # the middle of the half-transparent red square
    assert red[0] > 240 and 110 < red[1] < 145 and 110 < red[2] < 145, red
    corner = image.getpixel(face_point(45.3, 30.3, dpi))  # turned 45°, the square's corner leaves the box's corner
    assert corner == (255, 255, 255), corner
    logo = image.getpixel(face_point(49, 54, dpi))  # the SVG icon, its grey drawn in the colour it is given
    assert logo[1] > 140 and logo[0] < 40 and logo[2] < 40, logo
    blot = image.getpixel(face_point(49, 66, dpi))  # the PNG icon: its alpha, painted blue
    assert blot[2] > 200 and blot[0] < 40 and blot[1] < 40, blot
    inline = image.getpixel(face_point(8, 73.5, dpi))  # {logo:#ff0000} inside a text box
    assert inline[0] > 200 and inline[1] < 60 and inline[2] < 60, inline


def test_for_each_over_two_keys_set_values_and_the_stamp_on_every_face(shop: Path):
    with pdfplumber.open(shop) as pdf:
        texts = [page.extract_text() for page in pdf.pages]
        assert len(texts) == 8  # scout × {red, blue} × {en, de}: each front followed by its back
        assert [t.split("\n")[0] for t in texts[::2]] == [
            "PLAIN red en", "PLAIN red de", "PLAIN blue en", "PLAIN blue de"
        ]  # fmt: skip
        assert all("KS 21.166667" in t for t in texts[::2])  # vars.edition, and a number printed without a filter
        assert all("BACK" in t for t in texts[1::2])
        for page in pdf.pages:  # the stamp: at the bottom of every face, inside the trim
            stamp = chars_of(page, "v0.3-proof")
            assert page.height - BLEED * MM - 3 * MM < stamp[0]["bottom"] < page.height - BLEED * MM
            middle = (stamp[0]["x0"] + stamp[-1]["x1"]) / 2
            assert abs(middle - page.width / 2) < 1


def test_opentype_font_is_converted_and_embedded(shop: Path):
    embedded = dict(pdfcheck.fonts(shop))
    tiny = [name for name in embedded if "Tiny" in name]
    assert tiny and all(embedded[name] for name in tiny)
    with pdfplumber.open(shop) as pdf:
        assert "ABBA" in pdf.pages[0].extract_text()


def test_export_folds_the_for_each_copies_back(lab: Path, tmp_path: Path):
    run = cli(lab, "export-items", "lab", "cards", "--out", tmp_path / "cards.csv")
    assert run.code == 0, run.err
    assert (tmp_path / "cards.csv").read_text().splitlines() == ["id,name", "scout,Scout"]


def test_the_committed_layout_reference_is_generated_from_the_code(monkeypatch: pytest.MonkeyPatch):
    from cardgen.render.elements import ELEMENTS
    from cardgen.render.reference import layout_reference

    committed = (REPO / "docs" / "layout-reference.md").read_text(encoding="utf-8")
    assert layout_reference() == committed, "docs/layout-reference.md is stale: run python -m cardgen.reference"
    assert run_cli("layout-reference").out == committed
    text = ELEMENTS["text"].attributes["leading"]
    assert "| `leading` | number > 0 | × size | `1.2` | line spacing, a multiple of the font size" in committed
    monkeypatch.setitem(ELEMENTS["text"].attributes, "leading", type(text)(text.parse, 1.5, text.unit, text.doc))
    assert layout_reference() != committed  # the comparison can fail


def test_the_reference_lists_what_a_build_gives_a_layout(lab: Path, monkeypatch: pytest.MonkeyPatch):
    """`CONTEXT` (the reference's list of names) is exactly what the renderer passes each layout."""
    from cardgen.data import load_games
    from cardgen.paths import default_fonts_dir
    from cardgen.render.build import GameRenderer
    from cardgen.render.jobs import BuildReport, PrintOptions
    from cardgen.render.layouts import CONTEXT, Layouts

    seen = []
    monkeypatch.setattr(
        Layouts, "rendered", lambda self, game, layout, context, who: seen.append(set(context)) or ("", None)
    )
    (game,) = load_games(lab / "card_data", ["lab"])
    renderer = GameRenderer(game, Layouts(lab / "templates"), default_fonts_dir())
    with pytest.raises(Exception):  # noqa: B017  # the empty markup fails to parse; the context was seen first
        renderer.job(game.components[0], PrintOptions(), BuildReport())
    assert seen and seen[0] == set(CONTEXT)


# Errors: each new one, located. A layout or a game.yaml of the lab copy is changed and one face previewed.


@pytest.fixture
def broken(lab: Path, tmp_path: Path) -> Path:
    root = tmp_path / "lab"
    shutil.copytree(lab / "card_data", root / "card_data")
    shutil.copytree(lab / "templates", root / "templates")
    return root


def preview_error(root: Path, *more: str) -> str:
    more = more or ("--set", "edition=KS")
    run = cli(root, "preview", "lab", "scout-red-en", "--out", root / "face.png", *more)
    assert run.code == 2 and run.exception is None, (run.code, run.err, run.exception)
    assert len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err, run.err
    return run.err


def change(root: Path, file: str, old: str, new: str) -> None:
    path = root / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


FRONT_J2 = "templates/lab/front.xml.j2"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('style="label" field="plain"', 'style="lable" field="plain"', ":4: lab: cards: card 'scout-red-en' front: "
         "<text> names the unknown style 'lable' (did you mean 'label'?)"),
        ('<image src="art/red.png"', '<image style="label" src="art/red.png"', ":11: lab: cards: card 'scout-red-en' "
         "front: <image> names the style 'label', which sets nothing a <image> takes"),
        ("translate(20,65) rotate(90)", "translate(20,65) spin(90)", ":8: lab: cards: card 'scout-red-en' front: "
         "<g transform='translate(20,65) spin(90)'>: expected translate(…), rotate(…) or scale(…) at 'spin(90)'"),
        ("rotate(90)", "rotate(90, 1)", ":8: lab: cards: card 'scout-red-en' front: <g transform='translate(20,65) "
         "rotate(90, 1)'>: rotate() takes 1 or 3 numbers, got '90, 1'"),
        ('rotate="30"', 'rotate="thirty"', ":5: lab: cards: card 'scout-red-en' front: <text rotate='thirty'>: "
         "could not convert string to float: 'thirty'"),
        ('opacity="0.5"', 'opacity="50"', ":11: lab: cards: card 'scout-red-en' front: <image opacity='50'>: "
         "must lie between 0 and 1, got '50'"),
        ('h="6" size="9" rotate', 'hh="6" size="9" rotate', ":5: lab: cards: card 'scout-red-en' front: <text> has "
         "unknown attribute 'hh' (did you mean 'h'?)"),
        ('<icon name="logo"', '<ikon name="logo"', ":12: lab: cards: card 'scout-red-en' front: unknown element "
         "<ikon>"),
        ('colour="#0000ff"/>', 'colour="#0000ff">', ":13: lab: cards: card 'scout-red-en' front: the layout "
         "produced invalid XML (mismatched tag) near: </face> (<icon> is not closed)"),
    ],
)  # fmt: skip
def test_markup_errors_name_the_layout_line(broken: Path, old: str, new: str, expected: str):
    change(broken, FRONT_J2, old, new)
    assert f"front.xml.j2{expected}" in preview_error(broken)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('<icon name="logo"', '<icon name="lgo"', ":12: lab: cards: card 'scout-red-en' front: unknown icon '{lgo}'"),
        ('src="art/red.png"', 'src="art/blue.png"', ":11: lab: cards: card 'scout-red-en' front: "),
        ('font="display"', 'font="displya"', ":16: lab: cards: card 'scout-red-en' front: "),
    ],
)  # fmt: skip
def test_errors_found_while_preparing_an_element_name_the_layout_line(broken: Path, old: str, new: str, expected):
    """An element that parses but cannot be drawn — an unknown icon, a missing image, an unknown font role — is
    named at the layout line that wrote it, as markup errors are."""
    change(broken, FRONT_J2, old, new)
    err = preview_error(broken)
    assert f"front.xml.j2{expected}" in err, err


def test_errors_in_a_shared_macro_name_its_line_and_the_caller(broken: Path):
    change(broken, "templates/lab/_styles.xml.j2", 'font="body"', 'fnt="body"')
    err = preview_error(broken)  # a markup error in a macro names the macro's line and the line that called it
    assert "_styles.xml.j2:1 (called from " in err and "front.xml.j2:3): lab: cards: card 'scout-red-en' front: " \
           "<style name='label'> sets 'fnt', which no element takes (did you mean 'font'?)" in err, err  # fmt: skip
    change(broken, "templates/lab/_styles.xml.j2", 'fnt="body"/>', 'font="{{ 1 / 0 }}"/>')
    assert "_styles.xml.j2:1 (called from " in preview_error(broken)
    assert "front.xml.j2:3): lab: cards: card 'scout-red-en' front: division by zero" in preview_error(broken)


def test_icon_colour_and_icon_file_errors(broken: Path):
    change(broken, FRONT_J2, "{logo:#ff0000}", "{logo:fuchsia-ish}")
    assert "front: {logo:fuchsia-ish}: 'fuchsia-ish' is not a colour" in preview_error(broken)
    change(broken, "card_data/lab/game.yaml", "logo: {file: art/logo.svg}", "logo: {file: art/gone.svg}")
    assert "game.yaml:13: settings.icons.logo.file: " in preview_error(broken)
    assert "art/gone.svg: image not found" in preview_error(broken)
    change(broken, "card_data/lab/game.yaml", "art/gone.svg}", "art/logo.svg, label: L}")
    assert "an icon drawn from a file takes no label" in preview_error(broken)


def test_set_stamp_and_for_each_errors(broken: Path):
    assert "cardgen: error: --set 'edition' is not KEY=VALUE" in preview_error(broken, "--set", "edition")
    err = preview_error(broken, "--stamp", "v1")  # no --set: the layout's vars.edition is undefined, at its line
    assert "front.xml.j2:15: lab: cards: card 'scout-red-en' front: 'edition' is undefined" in err
    change(broken, "card_data/lab/cards.yaml", "language: [en, de]}", "language: [en, de], side: []}")
    assert "for_each names fields, each with a non-empty list of its values" in preview_error(broken)
    change(broken, "card_data/lab/cards.yaml", "side: []", "n: [" + ", ".join(map(str, range(6000))) + "]")
    assert "cards.yaml:3: for_each: 1 items × 24,000 combinations" in preview_error(broken)


def test_a_broken_opentype_font_is_one_clear_error(broken: Path):
    (broken / "card_data" / "lab" / "Tiny-Regular.otf").write_bytes(b"OTTO" + b"\0" * 64)
    assert "Tiny-Regular.otf: cannot convert this OpenType font to TrueType outlines" in preview_error(broken)
    assert "use a .ttf version of the font" in preview_error(broken)
