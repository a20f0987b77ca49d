"""Every paper a build takes (A4, Letter, A3, A5, Tabloid, Ledger and a custom WxH in mm or inches), measured on the
written PDFs: each page is the paper (in the orientation the imposition chose), each front sheet holds as many cards
as the better orientation fits, the cards sit inside the paper's margins, and each back lands behind its front.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pdfcheck import page_sizes, words

from conftest import run_cli, write_game

POKER = (63.5, 88.9)
RESERVE = 3.0 + 1.5 + 1.5  # mark offset (3 mm, the bleed) + the shortest mark + the keep-out from the edge

# paper → (width, height) in mm as given (portrait for the named ones but Ledger)
PAPERS = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "a5": (148.0, 210.0),
    "tabloid": (279.4, 431.8),
    "ledger": (431.8, 279.4),
    "300x450": (300.0, 450.0),
    "8.5x14in": (215.9, 355.6),
    "30cmx20cm": (300.0, 200.0),
}

GAME = """id: sizes
title: Paper Sizes
players: [2, 2]
rulebook: {title: none}
settings: {card_size: poker, back: back, bleed: 3}
card_types:
  card: {fields: {name: {type: str}}}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
  - {id: aid, kind: sheets, title: Aid, file: aid.yaml}
"""
CARDS = "type: card\nfront: front\ncards:\n" + "".join(f"  - {{id: c{n}, name: Card{n}}}\n" for n in range(40))
AID = "type: card\nsize: page\nfront: aid\nsheets:\n  - {id: aid, name: Aid}\n"
# each face's word at its centre, so that a back turned 180° keeps its word where its face is
FRONT = (
    '<face bg="#ffffff"><text x="0" y="{{ (face.height / 2 - 4)|mm }}" w="{{ face.width|mm }}" h="8" size="9" '
    'align="center" valign="middle">{{ card.name }}</text></face>\n'
)
BACK = FRONT.replace("{{ card.name }}", "Back")
AID_LAYOUT = '<face><text x="10" y="10" w="50" h="8" size="9">Aid</text></face>\n'


def best_grid(width: float, height: float) -> tuple[bool, int, int]:
    """Whether the page turns, and the columns and rows of poker cards that fit, counted here by hand: the
    orientation holding more wins, the paper as given on a tie."""

    def fit(w: float, h: float) -> tuple[int, int]:
        return math.floor((w - 2 * RESERVE) / POKER[0]), math.floor((h - 2 * RESERVE) / POKER[1])

    cols, rows = fit(width, height)
    turned_cols, turned_rows = fit(height, width)
    if turned_cols * turned_rows > cols * rows:
        return True, turned_cols, turned_rows
    return False, cols, rows


@pytest.fixture(scope="module")
def game_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("paper")
    data = {"game.yaml": GAME, "cards.yaml": CARDS, "aid.yaml": AID}
    return write_game(root, "sizes", data, {"front.xml.j2": FRONT, "back.xml.j2": BACK, "aid.xml.j2": AID_LAYOUT})


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_page_is_the_paper_and_each_sheet_holds_what_the_better_orientation_fits(game_root, tmp_path, paper):
    out = tmp_path / "out"
    run = run_cli("--data-dir", game_root / "card_data", "--templates-dir", game_root / "templates", "build",
                  "--paper", paper, "--out", out, "-q")  # fmt: skip
    assert run.code == 0, run.err
    width, height = PAPERS[paper]
    turned, cols, rows = best_grid(width, height)
    page = (height, width) if turned else (width, height)
    deck = out / "sizes" / "cards.pdf"
    sheets = math.ceil(40 / (cols * rows))
    assert page_sizes(deck) == [tuple(round(v, 1) for v in page)] * (2 * sheets)  # a back page behind each front
    fronts = [w for w in words(deck, 0) if w["text"].startswith("Card")]
    assert len(fronts) == cols * rows
    for word in fronts:  # every card inside the margins the crop marks need
        assert RESERVE < word["x"] < page[0] - RESERVE and RESERVE < word["y"] < page[1] - RESERVE
    backs = [w for w in words(deck, 1) if w["text"] in ("Back", "kcaB")]  # upside down on a turned page
    assert len(backs) == cols * rows
    # long-edge duplex: portrait sheets turn about the vertical axis (backs mirror left–right), landscape ones
    # about the horizontal axis (backs mirror top–bottom)
    landscape = page[0] > page[1]
    mirrored = sorted(
        (round(w["x"], 1), round(page[1] - w["y"], 1)) if landscape else (round(page[0] - w["x"], 1), round(w["y"], 1))
        for w in fronts
    )
    found = sorted((round(w["x"], 1), round(w["y"], 1)) for w in backs)
    assert all(math.dist(a, b) < 0.6 for a, b in zip(found, mirrored, strict=True)), (found, mirrored)
    aid = out / "sizes" / "aid.pdf"  # a sheet as large as the paper is the paper
    assert page_sizes(aid) == [(round(width, 1), round(height, 1))]
    guide = (out / "sizes" / "PRINT.md").read_text()
    named = {"a4": "A4", "letter": "Letter", "a3": "A3", "a5": "A5", "tabloid": "Tabloid", "ledger": "Ledger"}
    assert f"Paper: {named.get(paper, f'{width:g} × {height:g} mm')}." in guide


def test_known_grids_of_poker_cards():
    """The counts a designer can check with a ruler: A3 and Tabloid turn to hold 6 × 3, A5 stays upright at 2 × 2,
    legal paper turns to hold 5 × 2."""
    assert best_grid(*PAPERS["a3"]) == (True, 6, 3)
    assert best_grid(*PAPERS["tabloid"]) == (True, 6, 3)
    assert best_grid(*PAPERS["ledger"]) == (False, 6, 3)
    assert best_grid(*PAPERS["a5"]) == (False, 2, 2)
    assert best_grid(*PAPERS["8.5x14in"]) == (True, 5, 2)


def test_paper_names_and_custom_sizes_read_as_the_build_records_them():
    from cardgen.units import paper_label, paper_size, parse_paper

    assert parse_paper("A3") == "a3" and parse_paper(" Ledger ") == "ledger"
    assert parse_paper("300x450") == "300x450mm" == parse_paper("300 × 450 mm") == parse_paper("30cmx45cm")
    assert parse_paper("8.5x14in") == "215.9x355.6mm" == parse_paper("8.5inx14in")
    assert parse_paper("8.5inx355.6") == "215.9x355.6mm"  # a unit on each side: each its own
    assert parse_paper(parse_paper("11x17in")) == parse_paper("11x17in")  # a recorded paper reads back as itself
    assert paper_size("a5").width == 148 and paper_size("300x450mm").height == 450
    assert paper_label("tabloid") == "Tabloid" and paper_label("300x450mm") == "300 × 450 mm"
    for bad in ("b4", "300", "300x", "x300", "49x300", "300x1501", "-300x400", "1e3x400", "300x400ft"):
        with pytest.raises(ValueError):
            parse_paper(bad)


@pytest.mark.parametrize("paper", ["b4", "40x300", "8.5x140in", "300x"])
def test_a_paper_that_is_none_is_refused_before_anything_is_read(paper, tmp_path):
    run = run_cli("build", "--paper", paper, "--out", tmp_path)
    assert run.code == 2 and run.exception is None
    assert "Invalid value for '--paper'" in run.err and not any(tmp_path.iterdir())


@pytest.mark.parametrize("paper", list(PAPERS))
def test_fold_sheets_and_honeycombs_stay_on_every_paper(paper):
    """The other impositions on each paper: fold-and-glue counters (fronts above the fold, backs below) and hex
    tiles keep every piece, its bleed and its marks on the paper, and the orientation chosen holds at least as
    many as the other."""
    from cardgen.render.imposition import MarkStyle, fold_sheet, hex_sheet
    from cardgen.units import Size, paper_size, parse_paper

    size = paper_size(parse_paper(paper))
    marks = MarkStyle()
    counter = Size(15.875, 15.875)
    fold = fold_sheet(size, counter, 1.0, 0.0, marks)
    turned = fold_sheet(Size(size.height, size.width), counter, 1.0, 0.0, marks)
    assert fold.capacity >= turned.capacity > 0
    hexes = hex_sheet(size, 30.0, 2.0, marks)
    for plan in (fold, hexes):
        paper_w, paper_h = plan.paper.width, plan.paper.height
        assert {paper_w, paper_h} == {size.width, size.height}
        for slot in [*plan.fronts, *plan.backs]:
            assert slot.clip.x > 0 and slot.clip.right < paper_w and slot.clip.y > 0 and slot.clip.top < paper_h
        for line in plan.marks:
            assert all(0 < v < paper_w for v in (line.x1, line.x2)) and all(0 < v < paper_h for v in (line.y1, line.y2))
    fold_y = fold.paper.height / 2
    assert all(s.trim.y > fold_y for s in fold.fronts) and all(s.trim.top < fold_y for s in fold.backs)
