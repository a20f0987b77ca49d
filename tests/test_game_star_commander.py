"""Star Commander: the bundled data is complete, obeys the rulebook's facts, and prints every component cleanly.

Read as a specification: three Domain decks of 30, a System deck that fills a 5×5 grid with a Homeworld in each
corner, core ships for four players, tokens in four colours, a player aid each and a two-page reference sheet; the
validator catches a broken deck, a missing Homeworld, a jumping Fighter, an unmarked response, a grid nobody can
cross, and text that no longer fits.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfcheck
import pytest
from PIL import ImageStat

from cardgen.data.games import load_games
from cardgen.render.layouts import Layouts

from conftest import REPO, copy_game, run_cli, shared_build

GAME = "star-commander"
DATA = REPO / "card_data"

COUNTS = {
    "industry-deck": 30,
    "statecraft-deck": 30,
    "science-deck": 30,
    "system-deck": 25,
    "core-ships": 52,
    "credit-tokens": 62,
    "development-tokens": 80,
    "player-aids": 4,
    "reference": 2,
}
# A4, duplex long-edge: decks print a front and a back page per 9 cards; counters fold onto one page per sheet
# (the last 26 development tokens share the credit tokens' last sheet, so their file holds both: 44 + 54, then the
# 18 and 26 left over); the two reference pages are single-sided.
PAGES = {
    "industry-deck": 8,
    "statecraft-deck": 8,
    "science-deck": 8,
    "system-deck": 6,
    "core-ships": 12,
    "credit-tokens": 3,
    "player-aids": 2,
    "reference": 2,
}


@pytest.fixture(scope="module")
def game():
    return load_games(DATA, [GAME])[0]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, object]:
    """The game as `cardgen build` builds it (the session's shared build) and the build's run."""
    shared = shared_build(tmp_path_factory)
    return shared.out / GAME, shared.run


# --- the inventory ---------------------------------------------------------------------------------------------


def test_component_counts_include_copies():
    run = run_cli("list", GAME, "--json")
    assert run.code == 0, run.err
    [listing] = json.loads(run.out)
    assert listing["players"] == [2, 4]
    assert {c["id"]: c["count"] for c in listing["components"]} == COUNTS


def test_domain_decks_hold_only_their_domain_and_mix_all_four_playable_types(game):
    for domain in game.fact("domains"):
        deck = game.component(f"{domain.lower()}-deck")
        assert deck.count == game.fact("domain_deck_size")
        assert {item.fields["domain"] for item in deck.items} == {domain}
        kinds = {item.fields["card_type"] for item in deck.items}
        assert kinds == {"command", "technology", "ship", "station"}


def test_system_deck_fills_the_largest_grid_with_a_homeworld_per_corner(game):
    systems = game.component("system-deck")
    assert systems.count == max(game.fact("grid_sizes")) ** 2
    homeworlds = [i for i in systems.items if i.fields["homeworld"]]
    assert len(homeworlds) == game.fact("corners")
    assert all(i.fields["capital"] and i.fields["domain"] == "any" for i in homeworlds)
    assert any(i.fields["capital"] for i in systems.items if not i.fields["homeworld"])


def test_core_fleet_follows_the_jump_rule_and_has_a_scout_each(game):
    jump = game.fact("jump")
    by_name = {item.fields["name"]: item for item in game.component("core-ships").items}
    assert by_name["Scout"].count >= game.fact("corners")
    assert by_name["Fighter"].fields["jump"] == jump["fighter"]
    assert by_name["Orbital Station"].fields["jump"] == jump["station"]
    for name in ("Scout", "Corvette", "Cruiser", "Dreadnought"):
        assert by_name[name].fields["jump"] == jump["ship"]
    classes = {i.fields.get("ship_class") for i in game.component("core-ships").items} - {None}
    assert classes == set(game.fact("ship_classes"))


def test_response_commands_are_typed_as_responses(game):
    responses = [
        item
        for name in ("industry-deck", "statecraft-deck", "science-deck")
        for item in game.component(name).items
        if item.fields.get("timing") == "response"
    ]
    assert responses and all(i.fields["text"].startswith("**Response:**") for i in responses)


def test_rulebook_figures_are_facts_with_citations(game):
    assert game.fact("starting_credits") == 3
    assert game.fact("hand_limit") == 8
    assert game.fact("trade_draw_cost") == 3
    assert game.fact("trade_discard") == {"discard": 2, "gain": 3}
    assert game.fact("development_cost") == {"first": 1, "next_over_current": 1}
    assert game.fact("scrap_value") == {"fraction": 0.5, "rounding": "down", "minimum": 1}
    assert game.fact("adjacency") == "diagonal"
    for name, fact in game.rules.facts.items():
        assert fact.cite.strip(), name
        if fact.origin == "designed":
            assert fact.cite.startswith("Designed"), name


def test_scrap_value_is_printed_from_the_fact(game):
    layouts = Layouts(REPO / "templates")
    facts = {name: fact.value for name, fact in game.rules.facts.items()}
    for item in game.component("core-ships").items:
        context = {
            "card": {**item.fields, "id": item.id, "count": item.count, "type": item.type},
            "face": {"width": 63.5, "height": 88.9, "bleed": 3.0, "side": "front", "shape": "rect"},
            "component": {"id": "core-ships", "title": "", "kind": "deck", "count": 52},
            "game": {"id": GAME, "title": "Star Commander", "players": [2, 4]},
            "facts": facts,
            "cite": {},
            "ink": "full",
        }
        markup = layouts.render(GAME, "play-card", context, item.id)
        value = max(1, item.fields["cost"] // 2)
        assert f"Scrap for {value} credit" in markup, item.id


# --- the validator ---------------------------------------------------------------------------------------------


def test_validate_passes_on_the_bundled_data():
    run = run_cli("validate", GAME)
    assert run.code == 0, run.out + run.err
    assert "all hold" in run.out


MUTATIONS = [
    (
        "industry.yaml",
        "  - id: ind-requisition\n    count: 2",
        "  - id: ind-requisition\n    count: 1",
        "The Industry deck has 30 cards",
    ),
    (
        "industry.yaml",
        "name: Strip Mining\n    domain: Industry",
        "name: Strip Mining\n    domain: Science",
        "Every Industry deck card is an Industry card",
    ),
    (
        "systems.yaml",
        "max_development: 5\n    capital: true\n    homeworld: true",
        "max_development: 5\n    capital: true\n    homeworld: false",
        "A Homeworld for each corner",
    ),
    (
        "core-ships.yaml",
        "ship_class: Fighter\n    cost: 1\n    attack: 1\n    hp: 1\n    jump: 0",
        "ship_class: Fighter\n    cost: 1\n    attack: 1\n    hp: 1\n    jump: 1",
        "Fighters do not jump",
    ),
    (
        "science.yaml",
        "cost: 1\n    timing: response",
        "cost: 1\n    timing: command-phase",
        "Response commands print 'Response' and only they do",
    ),
    ("statecraft.yaml", "name: Envoy Ship", "name: Gunboat", "Card names are unique"),
    (
        "rules.yaml",
        "value: {2: 3, 3: 5, 4: 5}",
        "value: {2: 3, 3: 4, 4: 5}",
        "The System deck fills the largest grid with a Homeworld in every corner",
    ),
    (
        "systems.yaml",
        "explore_effect: hazard, explore_amount: 1",
        "explore_effect: hazard, explore_amount: 0",
        "Explore effects carry a matching amount",
    ),
    (
        "industry.yaml",
        'text: "**Ready phase:** gain 1 credit."',
        'text: "' + "**Ready phase:** gain 1 credit for every station you control in any system. " * 20 + '"',
        "Card text fits",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "rule"), MUTATIONS, ids=[m[3] for m in MUTATIONS])
def test_validate_fails_on_a_mutation_naming_the_rule(tmp_path, file, old, new, rule):
    game = copy_game(GAME, tmp_path)
    game.edit(file, old, new)
    assert rule in game.broken_rules(text_fit="fit" in rule.lower())


# --- the print ---------------------------------------------------------------------------------------------------


def test_build_writes_every_component_with_its_pages(built):
    folder, run = built
    assert run.code == 0, run.err
    assert "overflow" not in run.err
    assert sorted(p.stem for p in folder.glob("*.pdf")) == sorted([*PAGES, "print-guide", "calibration"])
    for component, pages in PAGES.items():
        assert len(pdfcheck.page_sizes(folder / f"{component}.pdf")) == pages, component


def test_the_development_tokens_print_with_the_credit_tokens_and_share_their_last_sheet(built):
    """Both kinds of round fold token in one file: a sheet of each, then the 18 credits and 26 development tokens
    left over on one fold sheet; every token has its cut circle (on the fronts' half)."""
    folder, _ = built
    pdf = folder / "credit-tokens.pdf"
    assert not (folder / "development-tokens.pdf").exists()
    assert [pdfcheck.cut_circles(pdf, page) for page in range(3)] == [44, 54, 18 + 26]
    assert "credit-tokens + development-tokens · sheet 3/3" in pdfcheck.text(pdf, 2)


def test_every_font_is_embedded(built):
    folder, _ = built
    for component in PAGES:
        fonts = pdfcheck.fonts(folder / f"{component}.pdf")
        assert fonts and all(embedded for _, embedded in fonts), (component, fonts)


def test_reference_sheet_prints_the_facts(built, game):
    folder, _ = built
    text = " ".join(w["text"] for w in pdfcheck.words(folder / "reference.pdf", 0))
    assert f"Hand limit: {game.fact('hand_limit')} cards" in text
    assert f"pay {game.fact('trade_draw_cost')} credits to draw a card" in text
    turn_page = " ".join(w["text"] for w in pdfcheck.words(folder / "reference.pdf", 1))
    assert "A TURN, PHASE BY PHASE" in turn_page and "A BATTLE, STEP BY STEP" in turn_page
    for phase in game.fact("phases"):  # every step of the turn, explained
        assert all(f"{step}." in turn_page for step in phase["steps"]), phase
    trade = game.fact("trade_discard")
    assert f"Pay {game.fact('trade_draw_cost')} credits for a card, or discard {trade['discard']} cards" in turn_page
    assert f"destroyed when it has {game.fact('destroyed_when')}" in turn_page


def test_reference_sheet_prints_no_citations_or_readings(built):
    """The rulebook's sections, 'designed' notes and readings stay in rules.yaml (validate --notes), off the page."""
    folder, _ = built
    for page in range(2):
        text = pdfcheck.text(folder / "reference.pdf", page)
        for phrase in ("Rulebook", "Designed", "designed", "reading", "our own wording", "where they come from"):
            assert phrase not in text, (page, phrase)


def test_the_cost_label_is_fastened_under_its_coin(built):
    """Every COST tab sits right under its cost number and centred on it (it once floated in the type strip)."""
    folder, _ = built
    page = pdfcheck.words(folder / "industry-deck.pdf", 0)
    labels = [w for w in page if w["text"] == "COST"]
    costs = [w for w in pdfcheck.words(folder / "industry-deck.pdf", 0, size=13) if w["text"].isdigit()]
    assert len(labels) == len(costs) == 9
    for label in labels:
        cost = min(costs, key=lambda c: abs(c["x"] - label["x"]) + abs(c["y"] - label["y"]))
        assert abs(cost["x"] - label["x"]) < 0.6 and 0 < label["y"] - cost["y"] < 6.5, (cost, label)


# the first card's art window on a deck's first front page, in page mm: A4, nine poker cards butted in the middle
FIRST_WINDOW = (9.75 + 5, 15.15 + 20, 9.75 + 58, 15.15 + 42)


@pytest.mark.parametrize("component", ["industry-deck", "core-ships", "system-deck"])
def test_every_card_has_an_art_window_of_space(built, component):
    """Where the watermark glyph was, a window of generated space: dark and full of detail (stars, planet, ship)."""
    folder, _ = built
    page = pdfcheck.render(folder / f"{component}.pdf", 0, dpi=72)
    scale = page.width / 210
    window = ImageStat.Stat(page.crop(tuple(round(v * scale) for v in FIRST_WINDOW)).convert("L"))
    mean, spread = window.mean[0], window.stddev[0]
    assert mean < 110 and spread > 20, (component, mean, spread)


def test_player_facing_pages_carry_no_designer_text(built, game):
    folder, _ = built
    assert pdfcheck.designer_text(folder, game) == {}


def test_cards_printed_through_a_form_keep_their_gradients(built):
    """A card printed more than once is drawn once as a form; every shading its bands paint with is named in that
    form's own resources (reportlab names them only in pages, so copies printed their bands as flat deep colour)."""
    folder, _ = built
    reader = pdfcheck.PdfReader(folder / "industry-deck.pdf")
    forms = [
        xobject.get_object()
        for xobject in reader.pages[0]["/Resources"]["/XObject"].values()
        if xobject.get_object().get("/Subtype") == "/Form"
    ]
    painted = 0
    for form in forms:
        used = set(re.findall(r"/(\w+) sh", form.get_data().decode("latin-1")))
        named = set(form["/Resources"].get("/Shading", {}).keys())
        assert used <= {name.lstrip("/") for name in named}, (used, named)
        painted += len(used)
    assert forms and painted


def test_light_ink_builds_the_cards_and_the_reference(tmp_path):
    """--ink light: the art windows turn to pale washes (no starfield raster), the reference keeps its card diagram."""
    run = run_cli("build", GAME, "--only", "industry-deck,reference", "--ink", "light", "--out", tmp_path, "-q")
    assert run.code == 0, run.err
    folder = tmp_path / GAME
    page = pdfcheck.render(folder / "industry-deck.pdf", 0, dpi=72)
    scale = page.width / 210
    window = ImageStat.Stat(page.crop(tuple(round(v * scale) for v in FIRST_WINDOW)).convert("L"))
    assert window.mean[0] > 170, window.mean  # a light wash with the picture on it, not a dark sky
    assert "READING A CARD" in pdfcheck.text(folder / "reference.pdf", 1)
