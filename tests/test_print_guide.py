"""The print guide and the hints each PDF gives the print dialog: checked against the files actually built."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import pdfcheck
import pytest
from pypdf import PdfReader

from conftest import run_cli, shared_build


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    # a few components of each (a deck, counters that share sheets, a board, a page; two sizes of token in one
    # file), not all: the suite's time
    only = (
        "rewards,command-ships,resource-tokens,start-player-marker,reference,deep-space-markers,map,charts,dice,"
        "credit-tokens,development-tokens"
    )
    run = run_cli("build", "scifi-domains", "space-empires-4x", "star-commander", "--only", only, "--out", out)
    assert run.code == 0, run.err
    assert re.search(r"\d+ files, \d+ pages on \d+ sheets of A4 paper; \d+ to print double-sided", run.out)
    return out


@pytest.mark.parametrize("game", ["scifi-domains", "space-empires-4x", "star-commander"])
def test_the_guide_lists_every_file_with_its_pages(built: Path, game: str):
    guide = (built / game / "PRINT.md").read_text()
    pdfs = sorted(p for p in (built / game).glob("*.pdf") if p.name not in ("print-guide.pdf", "calibration.pdf"))
    row = r"^\| (\S+\.pdf) \| (\d+) \| (\d+) \| ([^|]+) \| (\d+) %(?: \(darkest page (\d+) %\))? \|$"
    rows = {m[0]: m[1:] for m in re.findall(row, guide, re.M)}
    assert sorted(set(rows) - {"calibration.pdf"}) == [p.name for p in pdfs]
    for pdf in pdfs:
        pages, sheets, how, mean, darkest = rows[pdf.name]
        assert int(pages) == len(pdfcheck.page_sizes(pdf))
        assert int(sheets) == ((int(pages) + 1) // 2 if how.startswith("double-sided") else int(pages))
        ink = pdfcheck.ink(pdf)  # each page rendered and measured again: the guide states the file's own figures
        assert int(mean) == round(100 * sum(ink) / len(ink)) and int(darkest or mean) == round(100 * max(ink))
    assert "actual size" in guide and "Cut and assemble" in guide
    butted = game != "star-commander"  # built here: only its round tokens, each cut along its own circle
    assert ("share cut lines: cut exactly on the line" in guide) == butted
    two_tokens = game == "star-commander"  # credit tokens and development tokens stacked on one last sheet
    assert ("the last sheet of credit-tokens.pdf" in guide) == two_tokens  # development tokens, in its checklist
    assert ("The last sheets of credit-tokens.pdf hold pieces of two sizes" in guide) == two_tokens
    assert (built / game / "print-guide.pdf").is_file()


def test_the_guide_says_what_to_buy_and_how_to_fold(built: Path):
    guide = (built / "space-empires-4x" / "PRINT.md").read_text()
    assert "- To buy: 2 × ten-sided die (d10)." in guide
    assert re.search(r"^\| deep-space-markers.pdf \| 1 \| 1 \| single-sided; fold and glue \| \d+ % \|$", guide, re.M)
    assert "fold along the dashed line first" in guide


@pytest.mark.parametrize(
    ("game", "file", "duplex"),
    [
        ("scifi-domains", "rewards.pdf", "/DuplexFlipLongEdge"),
        ("scifi-domains", "reference.pdf", "/Simplex"),
        ("space-empires-4x", "deep-space-markers.pdf", "/Simplex"),  # fold and glue: one side
    ],
)
def test_pdfs_ask_for_actual_size_and_the_right_duplex(built: Path, game: str, file: str, duplex: str):
    reader = PdfReader(built / game / file)
    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/PrintScaling"] == "/None" and preferences["/Duplex"] == duplex
    assert "actual size" in reader.metadata.subject


def test_short_edge_builds_say_so(tmp_path: Path):
    assert (
        run_cli("build", "scifi-domains", "--only", "techs", "--duplex", "short-edge", "--out", tmp_path, "-q").code
        == 0
    )
    preferences = PdfReader(tmp_path / "scifi-domains" / "techs.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/Duplex"] == "/DuplexFlipShortEdge"


def test_files_are_readable_by_others(built: Path):
    """Modes follow the umask, as any tool's files do (temporary files are created 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    for path in (built / "scifi-domains").iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


# --- the guide of each bundled game, as a player who has only the files reads it ----------------------------------

GAMES = ["battlefield-space", "rift-domination", "scifi-domains", "space-empires-4x", "star-commander"]


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every bundled game as `cardgen build` builds it (the session's shared build)."""
    shared = shared_build(tmp_path_factory)
    assert sorted(p.name for p in shared.out.iterdir() if p.is_dir() and not p.name.startswith(".")) == GAMES
    return shared.out


@pytest.fixture(scope="module")
def games() -> dict[str, Any]:
    from cardgen.data.games import load_games
    from cardgen.paths import default_data_dir

    return {game.id: game for game in load_games(default_data_dir(), GAMES)}


def _guide_texts(folder: Path) -> list[str]:
    return [
        (folder / "PRINT.md").read_text(),
        " ".join(p.extract_text() for p in PdfReader(folder / "print-guide.pdf").pages),
    ]


@pytest.mark.parametrize("game", GAMES)
def test_the_guide_says_nothing_of_the_tool_that_made_the_files(every_game: Path, game: str):
    for text in _guide_texts(every_game / game):
        assert "cardgen" not in text.lower() and not re.search(r"--\w", text) and "rebuild" not in text.lower()


@pytest.mark.parametrize("game", GAMES)
def test_the_checklist_names_every_component_with_its_file_and_pages(every_game: Path, games: dict, game: str):
    guide = (every_game / game / "PRINT.md").read_text()
    checklist = guide.split("## Checklist, component by component", 1)[1].split("\n## ", 1)[0]
    for component in (c for c in games[game].components if c.printed):
        (line,) = [ln for ln in checklist.splitlines() if ln.startswith(f"- [ ] **{component.title}** — ")]
        assert f"— {component.count} " in line
        own = every_game / game / f"{component.id}.pdf"
        if own.exists():
            pages = len(PdfReader(own).pages)
            assert f"{own.name}, {pages} page{'s' if pages > 1 else ''}," in line
        else:  # printed on another component's last sheet
            assert re.search(r"the last sheet of \S+\.pdf,", line), line
    pdf = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(every_game / game / "print-guide.pdf").pages)
    assert all(" ".join(c.title.split()) in pdf for c in games[game].components if c.printed)


@pytest.mark.parametrize("game", GAMES)
def test_pieces_to_buy_come_from_the_data(every_game: Path, games: dict, game: str):
    guide = (every_game / game / "PRINT.md").read_text()
    pieces = [c for c in games[game].components if c.kind == "pieces"]
    assert guide.count("- To buy: ") == len(pieces)
    for component in pieces:
        assert f"- To buy: {component.count} × {component.spec.buy}" in guide
    if game == "space-empires-4x":
        (dice,) = pieces
        assert dice.count == dice.items[0].count == 2 and "- To buy: 2 × ten-sided die (d10)." in guide


@pytest.mark.parametrize("game", GAMES)
def test_cutting_advice_only_for_the_shapes_the_game_has(every_game: Path, games: dict, game: str):
    guide = (every_game / game / "PRINT.md").read_text()
    shapes = {c.shape for c in games[game].components if c.printed}
    assert ("Round pieces:" in guide) == ("round" in shapes)
    assert ("Hex pieces:" in guide) == ("hex" in shapes)
    if game == "battlefield-space":
        unrelated = guide.lower().replace("round the corners", "").replace("tabletop playground", "")
        assert "round" not in unrelated and "hex" not in guide.lower()
        assert "Greyboard" not in guide and "fold" not in guide.lower()  # neither counters nor fold sheets


@pytest.mark.parametrize("game", GAMES)
def test_double_sided_games_ship_their_calibration_page(every_game: Path, game: str):
    folder = every_game / game
    guide = (folder / "PRINT.md").read_text()
    duplex = "| double-sided, flip on the long edge |" in guide.replace("| calibration.pdf | 2 | 1 | double-sided", "")
    assert (folder / "calibration.pdf").exists() == duplex == ("First print calibration.pdf double-sided" in guide)
    if duplex:
        text = " ".join(p.extract_text() for p in PdfReader(folder / "calibration.pdf").pages)
        assert len(PdfReader(folder / "calibration.pdf").pages) == 2 and "cardgen" not in text and "--" not in text


@pytest.mark.parametrize("game", GAMES)
def test_credits_name_the_fonts_the_files_print(every_game: Path, game: str):
    from cardgen.render.guide import fonts_in

    folder = every_game / game
    guide = (folder / "PRINT.md").read_text()
    credits = guide.split("## Credits", 1)[1]
    used = fonts_in(p for p in folder.glob("*.pdf") if p.name not in ("print-guide.pdf", "calibration.pdf"))
    families = {re.sub(r"(?<=[a-z])(?=[A-Z0-9])", " ", name.split("-")[0]) for name in used}
    assert families and all(family in credits for family in families), (families, credits)
    assert "SIL Open Font License 1.1" in credits


@pytest.mark.parametrize(
    ("card", "sleeve"),
    [
        ((63, 88), "standard card game sleeves (63.5 × 88 mm cards; sleeves about 66 × 91 mm)"),
        ((63.5, 88.9), "standard card game sleeves"),
        ((88, 63), "standard card game sleeves"),  # landscape cards slip in the same sleeve
        ((41, 63), "mini American sleeves"),
        ((57, 89), "American sleeves"),
        ((70, 120), "tarot sleeves"),
        ((100, 150), "no standard size: sleeves of at least 102.5 × 153 mm"),
        ((50, 50), "no standard size"),
    ],
)
def test_sleeves_fit_the_card_size(card: tuple[float, float], sleeve: str):
    from cardgen.render.guide import sleeve_for
    from cardgen.units import Size

    assert sleeve_for(Size(*card)).startswith(sleeve)


def test_ink_both_writes_light_twins_the_guide_lists(tmp_path: Path):
    args = ["build", "battlefield-space", "--only", "red-deck,reference", "--out", tmp_path, "-q"]
    assert run_cli(*args, "--ink", "both").code == 0
    folder = tmp_path / "battlefield-space"
    twin = folder / "red-deck-light-ink.pdf"
    guide = (folder / "PRINT.md").read_text()
    assert "| red-deck.pdf | 16 | 8 |" in guide and "| red-deck-light-ink.pdf | 16 | 8 |" in guide
    assert "Print either a file or its light-ink version" in guide
    assert not (folder / "reference-light-ink.pdf").exists()  # nothing dark on it: no duplicate of the same bytes
    assert "reference-light-ink" not in guide
    assert pdfcheck.ink(twin)[1] < pdfcheck.ink(folder / "red-deck.pdf")[1] / 2  # its backs: lighter
    before = {p.name: p.read_bytes() for p in folder.glob("*.pdf")}
    assert run_cli(*args, "--ink", "both", "--no-cache").code == 0
    assert {p.name: p.read_bytes() for p in folder.glob("*.pdf")} == before  # byte-identical on a rebuild
    assert run_cli(*args).code == 0  # full ink only: the twin is superseded and goes
    assert not twin.exists() and (folder / "red-deck.pdf").read_bytes() == before["red-deck.pdf"]
    assert "light-ink" not in (folder / "PRINT.md").read_text()


def test_the_calibration_page_goes_when_nothing_is_double_sided_any_more(tmp_path: Path):
    args = ["build", "battlefield-space", "--only", "reference-cards", "--out", tmp_path, "-q"]
    assert run_cli(*args).code == 0 and (tmp_path / "battlefield-space" / CALIBRATION).is_file()
    assert run_cli(*args, "--duplex", "off").code == 0  # backs on pages of their own: single-sided
    assert not (tmp_path / "battlefield-space" / CALIBRATION).exists()
    assert CALIBRATION not in (tmp_path / "battlefield-space" / "PRINT.md").read_text()


CALIBRATION = "calibration.pdf"


@pytest.mark.parametrize(
    ("back", "paper"), [(False, None), (True, "- Paper, 80–100 g/m²: one sheet of A4, for the calibration page.")]
)
def test_a_deck_printed_on_card_stock_alone_asks_for_no_sheets_of_paper(tmp_path: Path, back: bool, paper) -> None:
    """A game of one deck puts every sheet on card stock: its guide asks for no paper ("0 sheets" before), or for the
    one sheet of the calibration page when the deck prints double-sided."""
    from conftest import write_game

    game = ("id: deck\ntitle: Deck\nplayers: [2, 2]\nrulebook: {title: none}\ncard_types:\n  card:\n"
            "    fields:\n      name: {type: str}\ncomponents:\n"
            "  - {id: cards, kind: deck, title: Cards, file: cards.yaml}\n")  # fmt: skip
    cards = "type: card\nfront: face\n" + ("back: face\n" if back else "") + "cards:\n  - {id: a, name: Ace}\n"
    face = '<face bg="white"><text x="4" y="4" w="50" h="10">{{ card.name }}</text></face>\n'
    root = write_game(tmp_path, "deck", {"game.yaml": game, "cards.yaml": cards}, {"face.xml.j2": face})
    run = run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", "build", "--paper", "a4",
                  "--out", root / "out")  # fmt: skip
    assert run.code == 0, run.err
    guide = (root / "out" / "deck" / "PRINT.md").read_text()
    assert "0 sheets" not in guide and "Card stock, 200–300 g/m²: 1 sheet of A4," in guide
    papers = [line for line in guide.splitlines() if line.startswith("- Paper")]
    assert papers == ([paper] if paper else [])
