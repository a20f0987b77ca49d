"""The icon library (game-icons.net, CC BY 3.0) and the display fonts: icons drawn by name as vector paths in any
colour, credited wherever they print, found and shown by `cardgen icons`; a bundled display face as a font role."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.rl_accel import fp_str

from cardgen.render.library import credit, library, operations

from conftest import run_cli, write_game

GAME = """id: deck
title: Deck
players: [2, 4]
rulebook: {title: Deck rules}
settings:
  card_size: poker
  bleed: 3
  fonts: {title: Orbitron-Bold.ttf, flavour: Exo2-Regular.ttf, faction: Audiowide-Regular.ttf}
  icons:
    coin: {shape: circle, fill: "#d9a400"}
    rocket: {shape: diamond, fill: "#00a000"}
card_types:
  card:
    fields:
      name: {type: str}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
"""
CARDS = """type: card
front: front
cards:
  - {id: scout, name: Scout}
"""
FRONT = """<face bg="white">
  <text x="5" y="4" w="53" h="9" size="16" font="title" field="title">STAR SCOUT</text>
  <icon name="spaceship" x="6" y="16" size="24" colour="#c00000"/>
  <icon name="ringed-planet" x="34" y="16" size="24" colour="#0050c0"/>
  <text x="5" y="44" w="53" h="7" size="11" font="faction" field="faction">Terran Union</text>
  <text x="5" y="53" w="53" h="12" size="10" font="flavour" field="rules">Gain {coins} and {rocket}; move {footsteps:#207020} twice.</text>
  <icon name="coin" x="5" y="72" size="8"/>
  <icon name="crossed-swords" x="16" y="72" size="8"/>
  <icon name="perspective-dice-six-faces-random" x="27" y="72" size="8" colour="#603090"/>
</face>
"""  # noqa: E501
PLAIN = """<face bg="white">
  <text x="5" y="5" w="50" h="10" size="10">Pay {coin}, launch {rocket}</text>
  <icon name="rocket" x="5" y="20" size="10"/>
</face>
"""
USED = ["spaceship", "ringed-planet", "coins", "footsteps", "crossed-swords", "perspective-dice-six-faces-random"]


def make_deck(root: Path, front: str = FRONT) -> Path:
    return write_game(root, "deck", {"game.yaml": GAME, "cards.yaml": CARDS}, {"front.xml.j2": front})


def cli(root: Path, *args: str | Path):
    return run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", *args)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_deck(tmp_path_factory.mktemp("deck"))
    for out in ("out", "again"):
        run = cli(root, "build", "deck", "--out", root / out)
        assert run.code == 0, run.err
    return root


def streams(pdf: Path) -> bytes:
    """Every content stream of the file (pages and forms), decompressed."""
    reader = PdfReader(pdf)
    data = []
    for number in range(1, len(reader.xref_objStm) + 2 + max(reader.trailer["/Size"], 1)):
        try:
            obj = reader.get_object(number)
        except Exception:  # a number that is not an object
            continue
        if hasattr(obj, "get_data"):
            data.append(obj.get_data())
    return b"\n".join(data)


def images(pdf: Path) -> int:
    reader = PdfReader(pdf)
    found = 0
    for number in range(1, reader.trailer["/Size"]):
        try:
            obj = reader.get_object(number)
        except Exception:
            continue
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            found += 1
    return found


def test_library_icons_print_as_vector_paths_in_their_colours(built: Path):
    pdf = built / "out" / "deck" / "cards.pdf"
    content = streams(pdf)
    assert images(pdf) == 0  # no icon became a picture
    assert len(re.findall(rb"(?:[-.\d]+ ){6}c ", content)) > 300  # Bézier segments: the icons' outlines
    for rgb in ("#c00000", "#0050c0", "#207020", "#603090"):  # each icon filled (non-zero rule) in its colour
        red, green, blue = (int(rgb[i : i + 2], 16) / 255 for i in (1, 3, 5))
        operator = f"{fp_str(red, green, blue)} rg\nn ".encode()
        assert operator in content, (rgb, operator)
        start = content.index(operator)
        assert b" m " in content[start : start + 400]
        assert content[start:].split(b"\n")[2] == b"f"  # colour, the outline, then a non-zero fill
    assert (built / "out" / "deck" / "cards.pdf").read_bytes() == (built / "again" / "deck" / "cards.pdf").read_bytes()


def test_a_display_font_role_prints_in_its_face(built: Path):
    with pdfplumber.open(built / "out" / "deck" / "cards.pdf") as document:
        fonts = {char["fontname"].split("+")[-1] for page in document.pages for char in page.chars}
        title = "".join(c["text"] for c in document.pages[0].chars if "Orbitron" in c["fontname"])
    assert {"Orbitron-Bold", "Exo2-Regular", "Audiowide-Regular"} <= fonts
    assert "STARSCOUT" in title.replace(" ", "")


def test_the_print_guide_credits_the_authors_of_the_icons_printed(built: Path):
    guide = (built / "out" / "deck" / "PRINT.md").read_text()
    authors = sorted({library()[name].author for name in USED})
    expected = f"Icons by {', '.join(authors)} from game-icons.net, CC BY 3.0."
    assert expected in guide
    assert "Lorc" in authors and "Delapouite" in authors
    with pdfplumber.open(built / "out" / "deck" / "print-guide.pdf") as document:
        text = " ".join((page.extract_text() or "") for page in document.pages)
    assert "Icons by" in text and "game-icons.net" in text


def test_a_game_without_library_icons_credits_none(tmp_path: Path):
    """`rocket` is the game's own icon here (it wins over the library's): nothing of the library prints."""
    root = make_deck(tmp_path, PLAIN)
    run = cli(root, "build", "deck", "--out", root / "out")
    assert run.code == 0, run.err
    assert "Icons by" not in (root / "out" / "deck" / "PRINT.md").read_text()
    assert credit(["rocket-not-an-icon", "coin"]) is None
    assert credit(["rocket"]) == "Icons by Lorc from game-icons.net, CC BY 3.0"


def test_the_gallery_credits_the_icons_it_shows(tmp_path: Path):
    root = make_deck(tmp_path)
    run = cli(root, "gallery", "deck", "--out", root / "site")
    assert run.code == 0, run.err
    for page in ("index.html", "about.html"):
        assert "from game-icons.net, CC BY 3.0" in (root / "site" / "deck" / page).read_text(), page
    plain = make_deck(tmp_path / "plain", PLAIN)
    assert cli(plain, "gallery", "deck", "--out", plain / "site").code == 0
    assert "game-icons.net" not in (plain / "site" / "deck" / "index.html").read_text()


def test_an_unknown_icon_is_named_at_its_layout_line_with_a_suggestion(tmp_path: Path):
    root = make_deck(tmp_path, FRONT.replace('name="spaceship"', 'name="spaceshp"'))
    run = cli(root, "preview", "deck", "scout", "--out", root / "face.png")
    assert run.code == 2, (run.code, run.err)
    assert "front.xml.j2:3: deck: cards: card 'scout' front: unknown icon '{spaceshp}' (did you mean 'spaceship'?)" in (
        run.err
    )
    root = make_deck(tmp_path / "inline", FRONT.replace("{footsteps:", "{footstep:"))
    run = cli(root, "preview", "deck", "scout", "--out", root / "face.png")
    assert run.code == 2 and "front.xml.j2:6:" in run.err and "(did you mean 'footsteps'?)" in run.err, run.err


def test_icons_lists_and_searches_the_library(tmp_path: Path):
    run = run_cli("icons", "ship")
    assert run.code == 0, run.err
    rows = {line.split()[0]: line for line in run.out.splitlines()[:-1]}
    assert {"spaceship", "scout-ship", "cargo-ship", "battleship"} <= set(rows)
    assert rows["spaceship"].endswith("Delapouite")
    assert run.out.splitlines()[-1].startswith(f"{len(rows)} icons from game-icons.net (CC BY 3.0)")
    assert len(library()) >= 300
    nothing = run_cli("icons", "zzzz")
    assert nothing.code == 2 and "no icon of the library matches 'zzzz'" in nothing.err


def test_icons_sheet_draws_every_match_with_its_name(tmp_path: Path):
    sheet = tmp_path / "sheet.png"
    run = run_cli("icons", "dice", "--sheet", sheet)
    assert run.code == 0, run.err
    count = len(run.out.splitlines()) - 2
    with Image.open(sheet) as image:
        assert image.format == "PNG"
        columns = min(10, count)
        assert image.width == columns * 150 and abs(image.height - -(-count // columns) * 150) <= 1  # pdfium rounds
        grey = image.convert("L")
        cell = grey.crop((25, 16, 125, 100))  # the first icon's square
        assert cell.getextrema()[0] < 60  # inked
    assert not list(tmp_path.glob(".*"))  # written through a temporary file and a rename, none left


@pytest.mark.parametrize(
    ("d", "expected"),
    [
        ("M1 2L3 4", [("move", (1, 2)), ("line", (3, 4))]),
        ("m1 2 3 4h2v-1z", [("move", (1, 2)), ("line", (4, 6)), ("line", (6, 6)), ("line", (6, 5)), ("close", ())]),
        ("M0 0c1 1 2 2 3 3s4 4 5 5", [("move", (0, 0)), ("curve", (1, 1, 2, 2, 3, 3)), ("curve", (4, 4, 7, 7, 8, 8))]),
        ("M0 0q3 3 6 0", [("move", (0, 0)), ("curve", (2, 2, 4, 2, 6, 0))]),
        ("M.5-.5L1e1 2", [("move", (0.5, -0.5)), ("line", (10, 2))]),
    ],
)
def test_path_data_is_read_as_absolute_lines_and_curves(d: str, expected):
    got = operations(d)
    assert [kind for kind, _ in got] == [kind for kind, _ in expected]
    for (_, values), (_, want) in zip(got, expected, strict=True):
        assert values == pytest.approx(want)


def test_an_arc_with_glued_flags_is_a_half_circle_of_curves():
    got = operations("M0 0a5 5 0 1110 0")  # flags '1' '1' glued to the end point's x
    assert [kind for kind, _ in got] == ["move", "curve", "curve"]
    assert got[-1][1][-2:] == pytest.approx((10, 0))
    middle = got[1][1][-2:]  # half-way round a circle of radius 5 centred at (5, 0)
    assert abs(middle[0] - 5) < 1e-9 and abs(abs(middle[1]) - 5) < 1e-9


def test_every_library_icon_reads():
    for icon in library().values():
        ops = operations(icon.d)
        assert ops[0][0] == "move", icon.name
        margin = icon.side / 10  # a few icons reach a little past their square (chain-lightning by 19 units)
        assert all(-margin <= v <= icon.side + margin for _, values in ops for v in values[-2:]), icon.name


def test_icon_colon_name_is_answered_with_how_library_icons_are_written(tmp_path: Path):
    root = make_deck(tmp_path, FRONT.replace("{coins}", "{icon:coins}"))
    run = cli(root, "preview", "deck", "scout", "--out", root / "face.png")
    assert run.code == 2
    assert "front.xml.j2:6:" in run.err and "a library icon is written by its name: {coins}" in run.err, run.err


def test_a_stamp_may_carry_library_icons_and_they_are_credited(tmp_path: Path):
    root = make_deck(tmp_path, PLAIN)
    run = cli(root, "build", "deck", "--out", root / "out", "--stamp", "{rocket} {ringed-planet} v1")
    assert run.code == 0, run.err
    assert "Icons by Lorc from game-icons.net" in (root / "out" / "deck" / "PRINT.md").read_text()  # not rocket's
    wrong = cli(root, "build", "deck", "--out", root / "out", "--stamp", "{ringed-planit}")
    assert wrong.code == 2 and "--stamp: unknown icon '{ringed-planit}' (did you mean 'ringed-planet'?)" in wrong.err


def test_a_parallel_build_credits_the_icons_its_workers_drew(tmp_path: Path):
    root = make_deck(tmp_path)
    run = cli(root, "build", "deck", "--out", root / "out", "--jobs", "2")
    assert run.code == 0, run.err
    assert "from game-icons.net, CC BY 3.0." in (root / "out" / "deck" / "PRINT.md").read_text()
