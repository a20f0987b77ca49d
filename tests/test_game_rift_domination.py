"""Rift Domination: the bundled data is the whole game of the rulebook's component list, obeys its facts, and prints.

Read as a specification: 30 faction sheets whose strength on paper lies within the designed budget (the Vespians
exactly as the rulebook prints them), 96 unit cards (16 types, one per player), 100 OCC-cards in more than 25
variants, 44 planet cards that are the board's planets one to one, 6 gameplay cards, 191 tiles, 486 unit tiles, 2
counter tiles, the board in two halves, the double-sided conflict zone, 226 cubes and 10 dice (listed, not printed).
The validator (run in-process on mutated copies) catches a faction starting with a unit that has no card, a hole
in the hit table, one condition tile too few for six players, a planet off the board, and more.
"""

from __future__ import annotations

import json

import pdfcheck
import pypdf
import pytest

from cardgen.data.games import load_games
from cardgen.validate import validate_game

from conftest import REPO, copy_game, run_cli

GAME = "rift-domination"
DATA = REPO / "card_data"

COUNTS = {
    "faction-sheets": 30,
    "unit-cards": 96,
    "occ-cards": 100,
    "planet-cards": 44,
    "gameplay-cards": 6,
    "condition-tiles": 40,
    "faction-tiles": 60,
    "battle-tiles": 91,
    "unit-tiles": 486,
    "counter-tiles": 2,
    "gameboards": 2,
    "conflict-zone-sheet": 1,
    "reference": 3,
    "cubes": 226,
    "dice": 10,
}
# A4, duplex long-edge: (pages, width × height in mm of the first page)
PAGES = {
    "faction-sheets": (15, (210, 297)),  # two 190 × 130 sheets a page
    "unit-cards": (22, (210, 297)),  # 11 sheets of 9 cards, fronts and backs
    "occ-cards": (24, (210, 297)),
    "planet-cards": (10, (210, 297)),
    "gameplay-cards": (6, (297, 210)),  # two 100 × 150 cards a landscape page, fronts and backs
    "condition-tiles": (2, (210, 297)),  # condition side and reward side
    "battle-tiles": (1, (210, 297)),
    "unit-tiles": (3, (210, 297)),  # the last sheet landscape, shared with the two counter tracks
    "gameboards": (6, (297, 210)),  # each half tiled over three pages
    "conflict-zone-sheet": (2, (297, 210)),  # space side, then ground side
    "reference": (3, (210, 297)),
}


# --- the inventory ---------------------------------------------------------------------------------------------


def test_component_counts_are_the_rulebooks(game):
    run = run_cli("list", GAME, "--json")
    assert run.code == 0, run.err
    [listing] = json.loads(run.out)
    assert listing["players"] == [2, 6]
    assert {c["id"]: c["count"] for c in listing["components"]} == COUNTS
    tiles = sum(game.component(c).count for c in ("condition-tiles", "faction-tiles", "battle-tiles"))
    assert tiles == game.fact("tiles") == 191


def test_every_component_prints_with_its_pages(built):
    printed = {path.stem for path in built.glob("*.pdf")}
    for component, (pages, (width, height)) in PAGES.items():
        reader = pypdf.PdfReader(built / f"{component}.pdf")
        assert len(reader.pages) == pages, component
        box = reader.pages[0].mediabox
        assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (width, height)
    assert set(printed) == set(PAGES) | {"print-guide", "calibration"}  # cubes and dice are listed, not printed
    guide = (built / "PRINT.md").read_text()
    assert "To buy: 226 × 10 mm wooden cube" in guide and "To buy: 10 × six-sided die (d6)." in guide
    assert len(pypdf.PdfReader(built / "print-guide.pdf").pages) <= 3  # the longest guide of the five


def test_tiles_of_other_sizes_share_the_last_sheets_of_other_components(built):
    """The 60 faction markers (16 mm, round) print under the OCC deck's last card, each with its cut circle, and the
    two 265 mm counter tracks under the unit tiles' last rows, on a landscape sheet; the guide says where."""
    assert not (built / "faction-tiles.pdf").exists() and not (built / "counter-tiles.pdf").exists()
    sheet = built / "occ-cards.pdf"  # page 23: sheet 12's front
    assert pdfcheck.cut_circles(sheet, 22) == 60
    assert "Rift Domination · sheet 12/12 · front" in pdfcheck.text(sheet, 22)  # too narrow a margin for the names
    tracks = pypdf.PdfReader(built / "unit-tiles.pdf").pages[2]
    assert float(tracks.mediabox.width) > float(tracks.mediabox.height)
    assert "RESOURCES" in tracks.extract_text() and "VICTORY" in tracks.extract_text()
    guide = (built / "PRINT.md").read_text()
    assert "occ-cards.pdf also holds faction-tiles" in guide and "unit-tiles.pdf also holds counter-tiles" in guide


def test_printed_text_comes_from_the_data(built, game):
    sheets = pypdf.PdfReader(built / "faction-sheets.pdf")
    first = sheets.pages[0].extract_text()
    assert "VESPIANS" in first and "Trading Outpost" in first and "Diplomat" in first
    units = " ".join(p.extract_text() for p in pypdf.PdfReader(built / "unit-cards.pdf").pages[:6])
    assert "BOMBARDMENT II" in units and "ROCKET BARRAGE" in units  # the flagship's skills, written out
    reference = " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(built / "reference.pdf").pages)
    for players, vp in game.fact("win_vp_by_players").items():
        assert f"{players} players: {vp} VP" in reference
    assert "<b>" not in reference  # markup is drawn, never printed


def test_the_units_the_rulebook_gives_are_printed_as_given(game):
    cards = {item.fields["unit_type"]: item.fields for item in game.component("unit-cards").items}
    for unit, stats in game.fact("unit_stats").items():
        assert {k: cards[unit][k] for k in stats} == stats, unit
    assert cards["goliath"]["movement"] == game.fact("goliath_movement") == 2
    assert cards["flagship"]["skills"] == game.fact("flagship_skills")
    assert cards["diplomat"]["skills"] == ["negotiate"]
    assert len(cards) == 16 and all(item.count == 6 for item in game.component("unit-cards").items)


def test_factions_are_balanced_on_paper(game):
    import importlib.util

    spec = importlib.util.spec_from_file_location("rift_checks", DATA / GAME / "checks.py")
    checks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checks)
    budget = game.fact("strength_budget")
    strengths = {
        item.fields["name"]: checks.strength(game, item.fields) for item in game.component("faction-sheets").items
    }
    assert len(strengths) == 30 and strengths["Vespians"] == 36
    assert all(budget["min"] <= s <= budget["max"] for s in strengths.values()), strengths
    assert len({tuple(i.fields["starting_units"].items()) for i in game.component("faction-sheets").items}) > 20


def test_the_board_has_thirty_systems_and_a_planet_card_for_each_planet(game):
    board = game.fact("board")
    assert len(board["planets"]) == game.fact("systems") == 30
    assert sum(board["planets"].values()) == game.component("planet-cards").count == 44
    starting = [i for i in game.component("planet-cards").items if i.fields["start"] != "none"]
    assert len(starting) == len(board["white"]) + len(board["yellow"]) == 10
    huge = [i for i in game.component("planet-cards").items if i.fields["size"] == "huge"]
    assert {i.fields["system"] for i in huge} == set(board["centre"]) and all(
        i.fields["upgrade_slots"] == 4 for i in huge
    )


def test_contradictions_are_recorded_with_both_readings(game):
    topics = {c.topic: c for c in game.rules.contradictions}
    for topic in ("How much damage kills a carrier", "The reward for negotiating a civilized planet",
                  "How many factions there are", "Skills truncated or renamed between sections"):  # fmt: skip
        assert len(topics[topic].readings) >= 2 and topics[topic].followed and topics[topic].why


# --- the validator ---------------------------------------------------------------------------------------------


def test_validate_passes_on_the_bundled_data():
    run = run_cli("validate", GAME)
    assert run.code == 0, run.out + run.err
    assert "53 checks, all hold" in run.out


MUTATIONS = [
    (  # a faction starts with a unit type that has no unit card
        "faction-sheets.yaml",
        "starting_units: {infantry: 2, carrier: 2, fighter: 4, diplomat: 2}",
        "starting_units: {infantry: 2, carrier: 2, fighter: 4, diplomat: 2, titan: 1}",
        "Every faction's starting units have unit cards and tiles for 6 players",
    ),
    (  # a hole in the hit table
        "rules.yaml",
        "close: {close: [2, 6], mid: [4, 6], far: [5, 6]}",
        "close: {close: [2, 6], mid: [4, 6]}",
        "Close range weapons roll against every range once",
    ),
    (  # one condition tile too few for six players (40 - 3 = 37 for 38 planets)
        "condition-tiles.yaml",
        "id: civilized, count: 10",
        "id: civilized, count: 7",
        "Condition tiles suffice for every planet that is not a starting planet at 6 players",
    ),
    (  # a planet card with no place on the board
        "planet-cards.yaml",
        "system: C1, slot: 2",
        "system: G1, slot: 2",
        "Planet cards match the board's planets one to one",
    ),
    ("unit-cards.yaml", "skills: [kamikaze]", "skills: [kamikazi]", "Every skill named on a unit card is defined"),
    (
        "faction-sheets.yaml",
        "starting_resources: 8\n",
        "starting_resources: 20\n",
        "Every faction's strength lies within the budget",
    ),
    (
        "faction-sheets.yaml",
        "buildable: [infantry, fighter, carrier, diplomat]\n",
        "buildable: [infantry, fighter, carrier, envoy]\n",
        "Units a faction may build have unit cards",
    ),
    (
        "occ-cards.yaml",
        "name: Rift Surge, instant: true",
        "name: Rift Surge, instant: false",
        "Only instant OCC-cards resolve when drawn",
    ),
    (
        "unit-cards.yaml",
        "name: Fighter, role: space, cost: 1",
        "name: Fighter, role: space, cost: 2",
        "The fighter as the rulebook prints it",
    ),
    (
        "rules.yaml",
        "{2: 10, 3: 11, 4: 12, 5: 13, 6: 14}",
        "{2: 10, 3: 11, 4: 15, 5: 13, 6: 14}",
        "More players need more VP to win",
    ),
    ("unit-tiles.yaml", "id: fighter, count: 16", "id: fighter, count: 15", "486 unit tiles"),
    ("cubes.yaml", "id: warp, count: 12", "id: warp, count: 11", "Cubes are the designed mix"),
    (  # a third upgrade on a home planet of two slots (the military base is the first)
        "faction-sheets.yaml",
        "starting_upgrades: {trading_outpost: 1}\n",
        "starting_upgrades: {trading_outpost: 1, mines: 1}\n",
        "A faction's starting upgrades and the military base fit the home planet",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "rule"), MUTATIONS, ids=[m[3] for m in MUTATIONS])
def test_mutations_break_the_named_rule(tmp_path, file, old, new, rule):
    copy = copy_game(GAME, tmp_path)
    copy.edit(file, old, new)
    (game,) = load_games(copy.data, [GAME])
    report = validate_game(game, trust_code=True)
    broken = {v.rule for v in report.violations}
    assert rule in broken, broken


def test_the_unmutated_copy_holds_in_process(tmp_path):
    copy = copy_game(GAME, tmp_path)
    (game,) = load_games(copy.data, [GAME])
    report = validate_game(game, trust_code=True)
    assert report.violations == [] and not any(r.status == "failed" for r in report.results)


@pytest.mark.parametrize(("duplex", "turned"), [("long-edge", True), ("short-edge", False), ("off", False)])
def test_the_conflict_zone_back_reads_upright_once_the_sheet_is_turned(tmp_path, duplex, turned):
    """A landscape page flipped on the paper's long edge comes back upside down: its back is printed turned."""
    import pdfplumber

    run = run_cli("build", GAME, "--only", "conflict-zone-sheet", "--duplex", duplex, "--out", tmp_path, "-q")
    assert run.code == 0, run.err
    with pdfplumber.open(tmp_path / GAME / "conflict-zone-sheet.pdf") as pdf:
        front, back = pdf.pages
        # the ground side's title sits at the top of its layout; turned, it reads backwards near the page's bottom
        title = next(w for w in back.extract_words() if w["text"] in ("GROUND", "DNUORG"))
        assert (title["top"] > back.height / 2) is turned and (title["text"] == "DNUORG") is turned
        assert next(w for w in front.extract_words() if w["text"] == "SPACE")["top"] < front.height / 2


def test_player_facing_pages_carry_no_designer_text(built, game):
    assert pdfcheck.designer_text(built, game) == {}


# --- the look (issue 37): what a player sees, measured on the built PDFs ------------------------------------------

PUNCHES = (12.7, 15.875, 19.05)  # 1/2, 5/8 and 3/4 in circle punches, mm


def test_battle_tiles_are_a_punch_size_with_their_cut_lines(built, game):
    """The damage, shield and wormhole discs are cut with a standard circle punch: the size is the component's."""
    component = game.component("battle-tiles")
    assert component.spec.size in PUNCHES
    assert pdfcheck.cut_circles(built / "battle-tiles.pdf", 0) == component.count


def test_one_set_of_words_for_weapons_and_ranges(built):
    """CLOSE, MID and FAR on the unit cards, their hit tables, the reference and the conflict zone: never LONG."""
    for name in ("unit-cards", "reference", "conflict-zone-sheet", "gameplay-cards"):
        text = " ".join(pdfcheck.pages_text(built / f"{name}.pdf")).upper()
        assert "LONG" not in text.replace("AS LONG AS", ""), name
        assert "FAR" in text, name


def test_unit_tiles_show_silhouettes_not_colour_codes(built, game):
    """Each unit type has its own library icon; a tile names its unit, never its colour as text ("DST RED")."""
    from cardgen.render.library import library

    icons = [item.fields["icon"] for item in game.component("unit-cards").items]
    assert len(set(icons)) == len(icons) == 16
    assert set(icons) <= set(library())
    occ = [item.fields["icon"] for item in game.component("occ-cards").items]
    assert len(set(occ)) == len(occ) == 28  # one emblem per OCC variant
    tiles = " ".join(pdfcheck.pages_text(built / "unit-tiles.pdf")).split()
    assert not {"RED", "BLU", "GRE", "YEL", "PUR", "ORA", "DST"} & set(tiles)
    assert "DESTROYER" in tiles and "INFANTRY" in tiles


def test_faction_boards_carry_no_sheet_count(built):
    text = " ".join(" ".join(page.split()) for page in pdfcheck.pages_text(built / "faction-sheets.pdf"))
    assert " of 30" not in text and "Faction sheet ·" not in text
    assert "VESPIANS" in text and "FACTION SKILL" in text.upper()


def test_the_conflict_zone_keeps_a_printable_margin_with_crop_marks(built):
    """The zone is a 260 × 180 mm sheet on A4 landscape: white paper round it and crop marks, not ink to the edge."""
    path = built / "conflict-zone-sheet.pdf"
    page = pdfcheck.render(path, 0, dpi=36).convert("L")
    edge = 5 * 36 / 25.4  # the outer 5 mm of the page
    strips = [
        page.crop((0, 0, page.width, round(edge))),
        page.crop((0, page.height - round(edge), page.width, page.height)),
        page.crop((0, 0, round(edge), page.height)),
        page.crop((page.width - round(edge), 0, page.width, page.height)),
    ]
    for strip in strips:
        histogram = strip.histogram()
        assert sum(i * n for i, n in enumerate(histogram)) / (255 * sum(histogram)) > 0.95  # almost all white
    assert len(pdfcheck.mark_lines(path, 0)) >= 8
