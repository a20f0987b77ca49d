"""Player pages carry no designer text: every bundled game is built as a user builds it (the session's shared build:
full ink, two-sided; and in light ink with `--duplex off`, whose labels and guide say other things), the text of
every page of every PDF is read back, and any phrase that says how the game was made — a reading of the rulebook, a
citation, a cardgen command, the deck a card was sorted into, a "faction 3 of 30" counter, an item's id — fails the
test, named with its file and page. The print guide (print-
guide.pdf, PRINT.md) is for players too: someone who received the files, not a cardgen user. The proof sheet is the
designer's (`--proof`, not built here, and left out by name should a build ever write it by default).

The phrases live in `cardgen/validate/designer_text.py`; the first tests pin what they catch and what they leave.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.data import load_games
from cardgen.validate.designer_text import findings

from conftest import REPO, run_cli, shared_build

# the default build (a full-ink file is the same in an `--ink both` build) and one that changes both other options
OPTION_SETS = {"default": (), "light-ink-duplex-off": ("--ink", "light", "--duplex", "off")}
DESIGNER_ONLY = {"proof.pdf"}  # every distinct face with its id and status: for the designer, not for players


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("Steps 4 to 6 are our reading of it.", "our reading"),
        ("We follow one reading: the attacker wins ties.", "one reading"),
        ("Reading: the defender chooses.", "Reading:"),
        ("the reading of the\nrulebook that we follow", "reading of the"),
        ("Rulebook: Play Area", "Rulebook"),
        ("as the rule book puts it", "rule book"),
        ("The rulebook never says who goes first.", "never says"),
        ("The rules are silent on ties.", "rules are silent"),
        ("Designed for this edition", "Designed for this edition"),
        ("Print cardgen calibrate first.", "cardgen"),
        ("On a home printer, rebuild with `--ink light`.", "rebuild"),
        ("On a home printer, rebuild with `--ink light`.", "--ink"),
        ("shift the backs with --back-offset X,Y", "--back-offset"),
        ("Only in the red deck (The Crimson Pact)", "Only in the red deck"),
        ("Only in the\nblue deck", "Only in the blue deck"),
        ("Unit · Frigate Build line-up", "Build line-up"),
        ("Tech · Frigate Research line-up", "Research line-up"),
        ("Rift Domination · faction 3 of 30", "faction 3 of 30"),
        ("card 12 of 52", "card 12 of 52"),
    ],
)
def test_designer_phrases_are_found(text: str, phrase: str) -> None:
    assert phrase in [f.phrase for f in findings(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Spreading fire: each ship reading 3 or more takes a hit.",  # "reading" as a verb, "spreading"
        "Read the card aloud; reading aloud is optional.",
        "Deal the Units, Techs and Rewards line-ups; refresh line-ups in Phase 2.",
        "Build a Fighter in a system you control.",
        "Roll 2 of your 3 dice; a roll of 1 always misses.",
        "Battlefield: Space · red-deck · sheet 1/8 · front",  # the file a sheet belongs to, as a printer's slug
        "part 1,1 of 2×2 · cut along a dashed line and line up the crosshairs",
        "Each player gets 1 of the 4 faction colours.",
        "The only deck in the game is shuffled.",
        "Rules reference",
        "Move 2 hexes -- then stop; a well-known trick",
    ],
)
def test_ordinary_words_are_not_designer_text(text: str) -> None:
    assert findings(text) == []


def test_item_ids_are_found_as_written_only() -> None:
    ids = ["ind-strip-mining", "sc1-red", "frigate"]
    assert [f.phrase for f in findings("ind-strip-mining · 3 credits", ids)] == ["ind-strip-mining"]
    assert [f.phrase for f in findings("SC1-RED", ids)] == []  # a label in capitals is not the id
    assert [f.phrase for f in findings("Strip Mining", ids)] == []  # the name the id was made from
    assert [f.phrase for f in findings("ind-strip-mining-2", ids)] == []  # a longer token is another word
    assert [f.phrase for f in findings("a frigate", ids)] == []  # a one-word id reads as a word


def _shown_ids(game) -> list[str]:
    """The items' ids a page must not show: not the components' (a slug names the file, `red-deck.pdf`), and not an
    id its item also shows as its name."""
    components = {component.id for component in game.components}
    out = []
    for component in game.components:
        for item in component.items:
            names = {value.lower() for value in item.fields.values() if isinstance(value, str)}
            if item.id not in components and item.id.lower() not in names:
                out.append(item.id)
    return out


GAMES = {game.id: _shown_ids(game) for game in load_games(REPO / "card_data", None)}


@pytest.fixture(scope="module", params=list(OPTION_SETS))
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """Every bundled game built once per option set for the module: the option set's name and the output folder
    (the default build is the session's shared one)."""
    if not OPTION_SETS[request.param]:
        return request.param, shared_build(tmp_path_factory).out
    out = tmp_path_factory.mktemp(f"player-pages-{request.param}")
    run = run_cli("build", "--out", out, "-q", *OPTION_SETS[request.param])
    assert run.exception is None, run.exception
    assert run.code == 0, run.out + run.err
    return request.param, out


def _pages(folder: Path) -> list[tuple[str, str]]:
    """(`file page N`, text) for every page of every PDF the players get, and PRINT.md as one page."""
    out = []
    for pdf in sorted(folder.glob("*.pdf")):
        if pdf.name in DESIGNER_ONLY:
            continue
        document = pdfium.PdfDocument(pdf)
        try:
            for number, page in enumerate(document, 1):
                out.append((f"{pdf.name} page {number}", page.get_textpage().get_text_range()))
        finally:
            document.close()
    if (guide := folder / "PRINT.md").is_file():
        out.append(("PRINT.md", guide.read_text(encoding="utf-8")))
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_player_pages_carry_no_designer_text(built: tuple[str, Path], game: str) -> None:
    options, out = built
    folder = out / game
    pages = _pages(folder)
    assert pages, f"{game}: nothing built in {folder}"
    problems = []
    for where, text in pages:
        found = findings(text, GAMES[game])
        if found:
            problems.append(f"  {game}/{where}: " + "; ".join(sorted({str(f) for f in found})))
    if problems:
        pytest.fail(f"designer text on player pages ({options} build):\n" + "\n".join(problems), pytrace=False)
