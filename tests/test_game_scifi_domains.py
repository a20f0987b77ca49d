"""Scifi Domains: the card data holds the rulebook's numbers, the deck sizes survive four players, and it prints.

Reading these tests teaches the game's shape: 84 Unit cards, 56 Techs, 40 Rewards and 48 Enemies (16 per agro
group) because four players may each hold 17 units, 12 techs and 8 rewards while the line-ups refill; a Command Ship
and a player aid per player; tokens in 1s and 5s. Each mutation below breaks one rule and `cardgen validate` names it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfcheck
import pytest

from conftest import copy_game, run_cli, shared_build

GAME = "scifi-domains"

COUNTS = {
    "units": 84,
    "techs": 56,
    "rewards": 40,
    "enemies": 48,
    "command-ships": 4,
    "start-player-marker": 1,
    "resource-tokens": 130,
    "player-aid": 4,
    "reference": 2,
}

# A4 pages: poker decks 9 a sheet, fronts and backs interleaved (duplex); counters fold-and-glue; sheets one a page.
# The four Command Ships share the Rewards' last sheet and the Start Player Marker the resource tokens' (small
# components share sheets), so they have no file of their own.
PAGES = {
    "units": 20,
    "techs": 14,
    "rewards": 10,
    "enemies": 12,
    "resource-tokens": 3,
    "player-aid": 2,
    "reference": 2,
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The whole game as `cardgen build` builds it (the session's shared build) and what the build printed."""
    shared = shared_build(tmp_path_factory)
    return shared.out / GAME, shared.run.out + shared.run.err


def test_component_counts_include_copies():
    result = run_cli("list", GAME, "--json")
    assert result.code == 0, result.err
    (game,) = json.loads(result.out)
    assert game["players"] == [2, 4]
    assert {c["id"]: c["count"] for c in game["components"]} == COUNTS


@pytest.fixture(scope="module")
def validated():
    """`cardgen validate --json --notes` of the bundled game, once (it renders every face twice for text checks)."""
    result = run_cli("validate", GAME, "--json", "--notes")
    assert result.code == 0, result.out + result.err
    return json.loads(result.out)


def test_validate_passes_on_the_real_data(validated):
    report = validated["games"][GAME]
    assert report["ok"] and report["checks"] >= 40


def test_notes_record_the_rulebook_inconsistencies(validated):
    topics = {note["topic"] for note in validated["notes"][GAME]}
    for topic in ("Name of the basic resource", "When Reward points are spent", "When production pays",
                  "The end-of-game VP formula", "How many enemies a printed set needs"):  # fmt: skip
        assert topic in topics


MUTATIONS = [
    # (file, old, new, a rule that must be named)
    (
        "rewards.yaml",
        "reward-honours, count: 8",
        "reward-honours, count: 1",
        "The Rewards deck refills its line-up while every player holds the reward cap",
    ),
    (
        "units.yaml",
        "  - id: frigate\n    count: 12",
        "  - id: frigate\n    count: 2",
        "The Units deck refills its line-up while every player holds the most Units they can",
    ),
    (
        "techs.yaml",
        "tech-gunship-optics, count: 4",
        "tech-gunship-optics, count: 1",
        "The Techs deck refills its line-up while every player holds the most Techs they may",
    ),
    (
        "enemies.yaml",
        "enemy-militia, count: 6",
        "enemy-militia, count: 3",
        "Each Enemy group serves four players agroing in one round (Ground)",
    ),
    (
        "rules.yaml",
        "  reward_cap:\n    value: 8",
        "  reward_cap:\n    value: 9",
        "The Rewards deck refills its line-up while every player holds the reward cap",
    ),
    (
        "units.yaml",
        "    unit_type: trooper\n    category: ground\n    metal_cost: 4",
        "    unit_type: trooper\n    category: ground\n    metal_cost: 3",
        "units_held is the most Units a player can hold",
    ),
    (
        "rewards.yaml",
        "effect: metal, value: 3",
        "effect: metal, value: 4",
        "max_build_metal is the most Metal a player can spend on Units",
    ),
    (
        "techs.yaml",
        "name: Bulkhead Refit, unit_type: battlecruiser, research_cost: 2",
        "name: Bulkhead Refit, unit_type: battlecruiser, research_cost: 3",
        "Battlecruiser techs are cheaper than every other tech",
    ),
    (
        "techs.yaml",
        "name: Rail Batteries, unit_type: frigate",
        "name: Rail Batteries, unit_type: corvette",
        "Techs improve unit types that exist",
    ),
    (
        "rewards.yaml",
        "effect: unit, value: 1, unit_type: trooper",
        "effect: unit, value: 1, unit_type: tank",
        "Rewards gain units that exist",
    ),
    (
        "enemies.yaml",
        "name: Raider Swarm, group: striker",
        "name: Raider Swarm, group: space",
        "Striker enemies are in the striker group",
    ),
    (
        "command-ships.yaml",
        "[blue, red, green, yellow]",
        "[blue, red, green]",
        "One Command Ship per player at the most players",
    ),
    (
        "resource-tokens.yaml",
        "metal-5, count: 12",
        "metal-5, count: 0",
        "The token supply covers four players' starting resources",
    ),
    (
        "units.yaml",
        "    unit_type: drop_bay\n    category: space",
        "    unit_type: drop_bay\n    category: ground",
        "The Battlecruiser, the bays and Command Ships are Space units",
    ),
    (
        "enemies.yaml",
        'text: "Dug-in locals who know every tunnel."',
        'text: "' + "Dug-in locals who know every tunnel and every trick. " * 12 + '"',
        "All text fits its box at 6 pt or more",
    ),
    (  # three letters on the damage triangle no longer fit it at 6.5 pt
        "game.yaml",
        'label: "SS"',
        'label: "SSS"',
        "Text reads at arm's length (6.5 pt on cards and tokens, 7 pt on the reference)",
    ),
]


@pytest.mark.parametrize(
    ("file", "old", "new", "rule"), MUTATIONS, ids=[m[3][:40] + f"-{i}" for i, m in enumerate(MUTATIONS)]
)
def test_validate_names_the_broken_rule(tmp_path: Path, file: str, old: str, new: str, rule: str):
    game = copy_game(GAME, tmp_path)
    game.edit(file, old, new)
    assert rule in game.broken_rules(text_fit="fit" in rule.lower() or "reads" in rule.lower())


def test_build_writes_every_component(built):
    folder, _ = built
    for component, pages in PAGES.items():
        path = folder / f"{component}.pdf"
        assert path.is_file(), component
        assert len(pdfcheck.page_sizes(path)) == pages, component


def test_build_embeds_every_font_and_reports_no_overflow(built):
    folder, output = built
    assert "overflow" not in output
    for component in PAGES:
        fonts = pdfcheck.fonts(folder / f"{component}.pdf")
        assert fonts, component
        assert all(embedded for _, embedded in fonts), (component, fonts)


def test_reference_sheet_prints_the_facts(built):
    folder, _ = built
    text = " ".join(w["text"] for w in pdfcheck.words(folder / "reference.pdf", page=1))
    for number in ("10", "12", "14", "6", "7", "8", "4", "5"):  # line-up sizes per player count
        assert re.search(rf"\b{number}\b", text)
    assert "Tiebreak:" in text and "÷" in text


def test_player_facing_pages_carry_no_designer_text(built, game):
    folder, _ = built
    assert pdfcheck.designer_text(folder, game) == {}


def test_small_components_share_the_last_sheet_of_another_with_backs_behind_fronts(built):
    """The four Command Ships print on the Rewards' last sheet (4 rewards + 4 ships of 9 slots), each back behind
    its own front once the sheet is turned on its long edge; the file, its label and the guide say so."""
    folder, output = built
    pdf = folder / "rewards.pdf"
    assert not (folder / "command-ships.pdf").exists() and "rewards.pdf  10 pages (with command-ships)" in output
    left, top = (210 - 3 * 63.5) / 2, (297 - 3 * 88.9) / 2  # the 3 × 3 block of poker cards, centred on A4

    def slot(word: dict) -> tuple[int, int]:
        return int((word["y"] - top) // 88.9), int((word["x"] - left) // 63.5)

    titles = [w for w in pdfcheck.words(pdf, 8) if w["text"] == "Command" and (w["y"] - top) % 88.9 < 11]
    backs = [w for w in pdfcheck.words(pdf, 9) if w["text"] == "COMMAND"]
    assert len(titles) == len(backs) == 4
    assert sorted((r, 2 - c) for r, c in map(slot, titles)) == sorted(map(slot, backs))  # mirrored left–right
    label = " ".join(w["text"] for w in pdfcheck.words(pdf, 8))
    assert "rewards + command-ships · sheet 5/5" in label
    assert "rewards.pdf also holds command-ships" in (folder / "PRINT.md").read_text()


# The dossier look (templates/scifi-domains/DESIGN.md): where the first card of a 3 × 3 poker sheet lies on A4.
CARD_LEFT, CARD_TOP = (210 - 3 * 63.5) / 2, (297 - 3 * 88.9) / 2


def _card(pdf: Path, page: int, dpi: int = 50):
    """The first card of a page, rendered (its trim box only)."""
    image = pdfcheck.render(pdf, page, dpi=dpi).convert("RGB")
    px = image.width / 210
    return image.crop(
        (round(CARD_LEFT * px), round(CARD_TOP * px), round((CARD_LEFT + 63.5) * px), round((CARD_TOP + 88.9) * px))
    )


@pytest.mark.parametrize("deck", ["units", "techs", "rewards", "enemies"])
def test_every_card_face_is_filled_from_its_art_window_to_its_keel(built, deck):
    """The lower third of the cards was empty paper; now an art window sits under the name and the damage, the rule
    and the text run down to the keel: few rows of the card are bare paper, and the window holds the art (a dark,
    varied sky, not a flat fill)."""
    folder, _ = built
    card = _card(folder / f"{deck}.pdf", 0)
    keel = card.getpixel((card.width // 2, round(card.height * 0.99)))  # the bottom edge, in the deck's colour
    rows = [[card.getpixel((x, y)) for x in range(card.width)] for y in range(card.height)]
    bare = sum(all(sum(abs(a - b) for a, b in zip(p, (242, 239, 230), strict=True)) < 24 for p in row) for row in rows)
    assert bare / card.height < 0.2, (deck, bare, card.height)  # 32–39 % before the art panel
    window = card.crop(
        (round(card.width * 0.1), round(card.height * 0.14), round(card.width * 0.9), round(card.height * 0.32))
    )
    colours = len(window.getcolors(1 << 16) or [])
    assert colours > 600, (deck, colours)  # stars, nebula and a ship or world: 230–400 colours of text before
    assert keel != (242, 239, 230)


def test_the_plate_is_chrome_in_full_ink_and_a_pale_tint_in_light_ink(built, tmp_path):
    """Every face that reads `ink` draws its own light design: the plate under a card's name prints as a pale tint
    with chrome words in light ink, and the name keeps its contrast."""
    folder, _ = built
    run = run_cli("build", GAME, "--only", "units", "--ink", "light", "--out", tmp_path, "-q", "--no-validate")
    assert run.code == 0, run.err
    full, light = _card(folder / "units.pdf", 0, 100), _card(tmp_path / GAME / "units.pdf", 0, 100)
    spot = (round(full.width * 0.93), round(full.height * 0.5))  # the plate's right-hand end, beside the stats
    assert max(full.getpixel(spot)) < 70 and min(light.getpixel(spot)) > 200, (
        full.getpixel(spot),
        light.getpixel(spot),
    )
    assert "Frigate" in pdfcheck.text(tmp_path / GAME / "units.pdf", 0)


def test_printed_pages_state_rules_plainly(built):
    """No reading notes, citations or line-up footers on the sheets a player reads: the timing of production is
    stated as the rule (Phase 1 of every round, the first included)."""
    folder, _ = built
    for name in ("reference.pdf", "player-aid.pdf", "units.pdf", "techs.pdf", "rewards.pdf", "enemies.pdf"):
        pages = len(pdfcheck.page_sizes(folder / name))
        text = " ".join(pdfcheck.text(folder / name, page) for page in range(pages))
        footers = (
            ("Build line-up", "Research line-up", "Rewards line-up")
            if name not in ("reference.pdf", "player-aid.pdf")
            else ()
        )
        for phrase in ("reading", "rulebook", *footers):
            assert phrase not in text, (name, phrase)
    reference = pdfcheck.text(folder / "reference.pdf", 0)
    assert "equal to your production, in the first round too" in " ".join(reference.split())
