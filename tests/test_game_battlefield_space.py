"""Battlefield: Space — the bundled data, its rules checks and its printed components, as executable specifications.

Two 72-card alliance decks (60 ships and 12 Battle Modifiers each), one reference card per alliance, a battlefield
mat tiled over several pages and a one-page rules reference. The rulebook's figures live in rules.yaml; these tests
check that the data holds them, that breaking one is reported by name, and that the build prints everything.
"""

from __future__ import annotations

import json
from pathlib import Path

import pdfcheck
import pytest

from conftest import REPO, copy_game, run_cli

GAME = "battlefield-space"
DATA = REPO / "card_data"
PDF_PAGES = {
    "red-deck": 16,  # 72 cards, 9 a sheet: 8 sheets, fronts and backs
    "blue-deck": 16,
    "reference-cards": 2,  # two tarot cards on one sheet, front and back
    "battlefield-mat": 4,  # 540 x 366 mm over 2 x 2 A4 pages
    "reference": 1,
}


# --- counts and composition --------------------------------------------------------------------------------------


def test_component_counts_include_copies():
    result = run_cli("list", GAME, "--json")
    assert result.code == 0, result.err
    (entry,) = json.loads(result.out)
    counts = {c["id"]: c["count"] for c in entry["components"]}
    assert counts == {"red-deck": 72, "blue-deck": 72, "reference-cards": 2, "battlefield-mat": 1, "reference": 1}
    assert entry["players"] == [2, 2]


def test_each_deck_is_sixty_ships_and_twelve_modifiers(game):
    for deck in ("red-deck", "blue-deck"):
        items = game.component(deck).items
        ships = sum(i.count for i in items if i.type == "ship")
        modifiers = sum(i.count for i in items if i.type == "modifier")
        assert (ships, modifiers) == (game.fact("ships_per_deck"), game.fact("modifiers_per_deck"))
        assert ships + modifiers == game.fact("deck_size") == 72


def test_decks_are_balanced_card_for_card(game):
    def profile(deck):
        return sorted(
            (i.fields["force"], i.fields["ability"], i.fields["ability_value"])
            for i in game.component(deck).items
            if i.type == "ship"
            for _ in range(i.count)
        )

    assert profile("red-deck") == profile("blue-deck")
    assert sum(f for f, _, _ in profile("red-deck")) == game.fact("fleet_force")


def test_resolution_numbers_order_all_modifiers_of_both_decks(game):
    numbers = [
        i.fields["resolution"] for deck in ("red-deck", "blue-deck") for i in game.component(deck).items
        if i.type == "modifier"
    ]  # fmt: skip
    low, high = game.fact("resolution_range").values()
    assert sorted(numbers) == list(range(low, high + 1))


def test_the_rulebook_ships_are_as_printed(game):
    ships = {i.fields["name"]: i.fields for d in ("red-deck", "blue-deck") for i in game.component(d).items}
    fighter = ships["Feyla Elai Fighter"]
    assert (fighter["force"], fighter["ability"]) == (3, "play_another")
    striker = ships["K'Totekk Striker"]
    assert (striker["force"], striker["ability"], striker["ability_value"]) == (2, "race_synergy_battle", 1)


def test_every_ability_effect_and_timing_has_exact_semantics(game):
    """The engine implements what rules.yaml says each choice means; no choice may be left undefined."""
    types = game.manifest.card_types
    assert set(types["ship"].fields["ability"].choices) == set(game.fact("abilities"))
    assert set(types["modifier"].fields["effect"].choices) == set(game.fact("modifier_effects"))
    assert set(types["modifier"].fields["effect"].choices) == set(game.fact("effect_timing"))
    assert set(types["modifier"].fields["timing"].choices) == set(game.fact("modifier_timings"))


def test_gaps_and_contradictions_are_recorded(game):
    topics = [c.topic for c in game.rules.contradictions]
    assert any("steps 4 and 5" in t for t in topics)
    assert all(c.followed and c.why for c in game.rules.contradictions)
    notes = run_cli("validate", GAME, "--notes")
    assert notes.code == 0 and "steps 4 and 5" in notes.out


# --- validation --------------------------------------------------------------------------------------------------


def test_bundled_data_validates():
    result = run_cli("validate", GAME)
    assert result.exception is None, result.exception
    assert result.code == 0, result.out + result.err


MUTATIONS = {
    "a card missing from the red deck": (
        "red-deck.yaml", "  - id: ktotekk-drone\n    count: 6", "  - id: ktotekk-drone\n    count: 5",
        "The red deck has 72 cards",
    ),
    "two red modifiers share a resolution number": (
        "red-deck.yaml", "    name: Flanking Run\n    resolution: 4", "    name: Flanking Run\n    resolution: 1",
        "Red resolution numbers are unique",
    ),
    "the Feyla Elai Fighter with Force 4": (
        "blue-deck.yaml", "    name: Feyla Elai Fighter\n    race: feyla-elai\n    force: 3",
        "    name: Feyla Elai Fighter\n    race: feyla-elai\n    force: 4",
        "The rulebook's example ships are as printed",
    ),
    "a blue race in the red deck": (
        "red-deck.yaml", "    name: Brood Lancer\n    race: ktotekk", "    name: Brood Lancer\n    race: quillan",
        "Each race belongs to its deck's alliance",
    ),
    "an immediate effect placed beside the battlefield": (
        "red-deck.yaml", "    name: Torpedo Salvo\n    resolution: 21\n    timing: immediate",
        "    name: Torpedo Salvo\n    resolution: 21\n    timing: beside",
        "Each effect has its timing",
    ),
    "a common modifier that differs between the decks": (
        "blue-deck.yaml", "    effect: all_columns_plus\n    effect_value: 1",
        "    effect: all_columns_plus\n    effect_value: 2",
        "Common Battle Modifiers are the same in both decks",
    ),
    "a column bonus of +2": (
        "red-deck.yaml", "    ability: column_bonus\n    ability_value: 1",
        "    ability: column_bonus\n    ability_value: 2",
        "Column bonus is +1 Force",
    ),
    "card text too long for its box": (
        "red-deck.yaml", 'text: "Choose one of your columns: it gets +3 Force this battle."',
        'text: "Choose one of your columns: it gets +3 Force this battle.' + " Then read this long aside." * 20 + '"',
        "All text fits its box at 6 pt or more",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", MUTATIONS)
def test_breaking_a_rule_fails_validation_naming_it(tmp_path: Path, name: str):
    file, old, new, rule = MUTATIONS[name]
    game = copy_game(GAME, tmp_path)
    game.edit(file, old, new, count=1)
    assert rule in game.broken_rules(text_fit="fit" in rule.lower())


# --- printing ----------------------------------------------------------------------------------------------------


def test_build_writes_every_component_with_its_pages(built: Path):
    for component, pages in PDF_PAGES.items():
        path = built / f"{component}.pdf"
        assert path.is_file(), component
        assert len(pdfcheck.page_sizes(path)) == pages, component


def test_every_font_is_embedded(built: Path):
    for component in PDF_PAGES:
        fonts = pdfcheck.fonts(built / f"{component}.pdf")
        assert fonts and all(embedded for _, embedded in fonts), (component, fonts)


def test_reference_sheet_prints_the_rulebook_figures(built: Path, game):
    words = [w["text"] for w in pdfcheck.words(built / "reference.pdf")]
    text = " ".join(words)
    assert f"{game.fact('deck_size')} cards a deck" in text
    for step in game.fact("battle_sequence").values():
        assert step.split()[0] in words
    assert "Reshuffling Survivors" in text and "How to win" in text


def test_the_mat_is_larger_than_a_page_and_tiled(built: Path):
    sizes = pdfcheck.page_sizes(built / "battlefield-mat.pdf")
    assert len(sizes) > 1 and len(set(sizes)) == 1


def test_the_mat_seams_show_on_its_dark_band_as_black_over_white(built: Path):
    """Each seam is a wide white stroke under thin black dashes (the horizontal one runs along the near-black
    skirmish band); each crosshair too. Read back from the page: every black seam line lies on a white one, and the
    pixels along the horizontal seam on the band are white or black, never the band's navy."""
    import pdfplumber

    pdf = built / "battlefield-mat.pdf"
    with pdfplumber.open(pdf) as document:
        page = document.pages[0]
        drawn = [(tuple(ln.get("stroking_color") or ()), round(ln["linewidth"], 1), ln) for ln in page.lines]
        under = {(round(ln["x0"]), round(ln["top"]), round(ln["x1"]), round(ln["bottom"]))
                 for colour, width, ln in drawn if colour == (1, 1, 1) and width == 1.8}  # fmt: skip
        over = [ln for colour, width, ln in drawn if colour == (0, 0, 0) and width == 0.6]
        circles = {tuple(c.get("stroking_color") or ()) for c in page.curves}
        height = float(page.height)
    seams = [(round(ln["x0"]), round(ln["top"]), round(ln["x1"]), round(ln["bottom"])) for ln in over]
    assert len(seams) >= 4 and set(seams) <= under  # two seams and the crosshairs' bars, each over white
    assert {(1, 1, 1), (0, 0, 0)} <= circles
    horizontal = next(ln for ln in over if ln["x1"] - ln["x0"] > 100)  # the seam across the page
    image = pdfcheck.render(pdf, 0, dpi=100)
    y = round(horizontal["top"] / height * image.height)
    xs = range(image.width // 10, image.width * 9 // 10, 7)
    navy = [x for x in xs if max(image.getpixel((x, y))) < 60 and max(image.getpixel((x, y))) > 5]
    assert len(navy) < len(xs) / 10, len(navy)  # the seam line itself is white (or its black dashes)


def test_player_facing_pages_carry_no_designer_text(built, game):
    assert pdfcheck.designer_text(built, game) == {}


# --- the look (templates/battlefield-space/DESIGN.md) ------------------------------------------------------------

PROVENANCE = ("Only in the", "Common to both", "our reading", "our own words", "Rulebook", "rulebook", "reading of")


def test_no_page_says_which_deck_a_card_is_in_or_where_a_rule_came_from(built: Path):
    """Deck-membership lines and citations belong in the proof sheet and `validate --notes`, not on what players
    print: no page of any player-facing PDF carries them."""
    for component in PDF_PAGES:
        path = built / f"{component}.pdf"
        for page in range(len(pdfcheck.page_sizes(path))):
            said = pdfcheck.text(path, page)
            assert not [phrase for phrase in PROVENANCE if phrase in said], (component, page)


def test_ship_names_and_force_are_set_in_the_display_face_over_their_race_art(built: Path):
    """Ship names and Force numbers are Audiowide; each ship page shows its races' warships on their own skies (one
    nebula per race, embedded once), so a deck of three races embeds three skies and its backs one more."""
    import re

    import pdfplumber

    with pdfplumber.open(built / "red-deck.pdf") as pdf:
        page = pdf.pages[0]
        names = {c["fontname"].split("+")[-1] for c in page.chars if c["size"] > 9}
    assert any("Audiowide" in name for name in names), names
    images = len(re.findall(rb"/Subtype\s*/Image", (built / "red-deck.pdf").read_bytes()))
    assert images == 4, images
