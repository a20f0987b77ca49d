"""Battlefield: Space's own checks: what rules.yaml's declarative checks cannot say about the two alliance decks.

Each function receives the loaded game and its check, and yields one violation per problem found
(`expected`, `actual`, `where`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

DECKS = ("red-deck", "blue-deck")
SIGNED_FORCE = re.compile(r"([+-]\d+) Force")


def _cards(game, deck: str, card_type: str | None = None):
    for item in game.component(deck).items:
        if card_type is None or item.type == card_type:
            yield item


def _problem(expected, actual, where) -> dict:
    return {"expected": expected, "actual": actual, "where": str(where)}


def rulebook_ships(game, check) -> Iterator[dict]:
    """The ships the rulebook describes exist with the values it gives (fact per ship, named in args.facts)."""
    for fact_name in check.args.get("facts", []):
        wanted = game.fact(fact_name)
        found = [item for deck in DECKS for item in _cards(game, deck, "ship") if item.fields["name"] == wanted["name"]]
        if not found:
            yield _problem(f"a ship named {wanted['name']}", "none", "red-deck, blue-deck")
        for item in found:
            for key, value in wanted.items():
                if item.fields.get(key) != value:
                    yield _problem(f"{key} = {value} ({fact_name})", item.fields.get(key), item.field_where(key))


def synergy_races(game, check) -> Iterator[dict]:
    """Every race the rulebook says grows stronger together has ships with a race synergy."""
    synergies = {"race_synergy_battle", "race_synergy_column"}
    for race in game.fact("synergy_races"):
        ships = [i for deck in DECKS for i in _cards(game, deck, "ship") if i.fields["race"] == race]
        if not any(i.fields["ability"] in synergies for i in ships):
            yield _problem(f"{race} ships with a race synergy", "none", "red-deck, blue-deck")


def race_alliances(game, check) -> Iterator[dict]:
    """Every ship's race belongs to the alliance of the deck it is in."""
    races = game.fact("races")
    for deck in DECKS:
        alliance = game.fact("deck_alliance")[deck]
        for item in _cards(game, deck, "ship"):
            race = item.fields["race"]
            if race in races and races[race]["alliance"] != alliance:
                yield _problem(f"a race of the {alliance} alliance", race, item.field_where("race"))


MIRRORED = ("name", "timing", "effect", "effect_value", "text")


def common_modifiers(game, check) -> Iterator[dict]:
    """Common modifiers appear in both decks with the same name, timing, effect, value and text; unique ones in one."""
    by_deck = {deck: {item.fields["name"]: item for item in _cards(game, deck, "modifier")} for deck in DECKS}
    red, blue = (by_deck[d] for d in DECKS)
    for deck, own, other in (("red-deck", red, blue), ("blue-deck", blue, red)):
        for name, item in own.items():
            twin = other.get(name)
            if item.fields["scope"] == "common":
                if twin is None:
                    yield _problem(f"'{name}' in both decks", f"only in {deck}", item.field_where("name"))
                    continue
                for key in MIRRORED:
                    if item.fields.get(key) != twin.fields.get(key):
                        yield _problem(f"{key} as on '{twin.id}'", item.fields.get(key), item.field_where(key))
                if twin.fields["scope"] != "common":
                    yield _problem(f"'{twin.id}' common too", twin.fields["scope"], twin.field_where("scope"))
            elif twin is not None:
                yield _problem(f"unique '{name}' in {deck} only", f"also '{twin.id}'", item.field_where("name"))


def effect_timings(game, check) -> Iterator[dict]:
    """Each Battle Modifier's timing is the one its effect has (fact effect_timing)."""
    timing_of = game.fact("effect_timing")
    for deck in DECKS:
        for item in _cards(game, deck, "modifier"):
            wanted = timing_of.get(item.fields["effect"])
            if item.fields["timing"] != wanted:
                yield _problem(f"timing {wanted} for {item.fields['effect']}", item.fields["timing"],
                               item.field_where("timing"))  # fmt: skip


def _signed(value: int, sign: str) -> str:
    return f"{sign}{value} Force"


def _expected_phrases(item) -> list[str]:
    """What the printed text must say for the card's values (numbers with their sign, the key action)."""
    f = item.fields
    if item.type == "ship":
        ability, value = f["ability"], f["ability_value"]
        return {
            "none": [],
            "play_another": ["play another card" if value == 1 else f"play {value} more cards"],
            "column_bonus": [_signed(value, "+"), "every other ship", "this column"],
            "race_synergy_battle": [_signed(value, "+"), "in this battle"],
            "race_synergy_column": [_signed(value, "+"), "in this column"],
        }[ability]
    effect, value = f["effect"], f["effect_value"]
    return {
        "column_force_plus": [_signed(value, "+"), "your columns"],
        "opponent_column_force_minus": [_signed(value, "-"), "opponent's columns"],
        "all_columns_plus": [_signed(value, "+"), "Each of your columns"],
        "cancel_modifier": ["cancel"],
        "destroy_weakest_enemy": ["lowest printed Force", "Graveyard"],
        "extra_card": ["top card" if value == 1 else f"top {value} cards"],
        "win_ties": ["tie"],
    }[effect]


def text_agrees(game, check) -> Iterator[dict]:
    """The printed text says what the structured fields mean; plain ships carry only an italic flavour line."""
    for deck in DECKS:
        for item in game.component(deck).items:
            text = item.fields["text"]
            for phrase in _expected_phrases(item):
                if phrase not in text:
                    yield _problem(f"text saying '{phrase}'", text, item.field_where("text"))
            plain = item.type == "ship" and item.fields["ability"] == "none"
            if plain and (not (text.startswith("*") and text.endswith("*")) or SIGNED_FORCE.search(text)):
                yield _problem("an italic flavour line with no rules", text, item.field_where("text"))


def fleet_force(game, check) -> Iterator[dict]:
    """Each deck's ships add up to the same printed Force (fact fleet_force)."""
    wanted = game.fact("fleet_force")
    for deck in DECKS:
        total = sum(item.fields["force"] * item.count for item in _cards(game, deck, "ship"))
        if total != wanted:
            yield _problem(f"total Force {wanted}", total, deck)


def fair_resolution(game, check) -> Iterator[dict]:
    """Common modifiers take neighbouring numbers in the two decks, and each deck's numbers add up to the same."""
    red = {i.fields["name"]: i for i in _cards(game, "red-deck", "modifier")}
    blue = {i.fields["name"]: i for i in _cards(game, "blue-deck", "modifier")}
    for name, item in red.items():
        twin = blue.get(name)
        if twin is not None and abs(item.fields["resolution"] - twin.fields["resolution"]) != 1:
            yield _problem(f"numbers next to each other (blue has {twin.fields['resolution']})",
                           item.fields["resolution"], item.field_where("resolution"))  # fmt: skip
    sums = {deck: sum(i.fields["resolution"] for i in _cards(game, deck, "modifier")) for deck in DECKS}
    if len(set(sums.values())) != 1:
        yield _problem("equal sums of resolution numbers", sums, "red-deck, blue-deck")


def reference_cards_agree(game, check) -> Iterator[dict]:
    """A reference card lists its alliance's races with a story and a power each, and only Force its deck uses."""
    races = game.fact("races")
    deck_of = {alliance: deck for deck, alliance in game.fact("deck_alliance").items()}
    for item in game.component("reference-cards").items:
        f = item.fields
        alliance = f["alliance"]
        own = sorted(r for r, data in races.items() if data["alliance"] == alliance)
        if sorted(f["races"]) != own:
            yield _problem(own, f["races"], item.field_where("races"))
        for key in ("stories", "powers"):
            if len(f[key]) != len(f["races"]):
                yield _problem(f"one {key[:-1]} per race ({len(f['races'])})", len(f[key]), item.field_where(key))
        deck = deck_of.get(alliance)
        if deck is None:
            continue
        values = set()
        for card in game.component(deck).items:
            values.update(SIGNED_FORCE.findall(card.fields["text"]))
        for text in [*f["powers"], f["tactics"]]:
            for signed in SIGNED_FORCE.findall(text):
                if signed not in values:
                    yield _problem(f"a Force change found on a {alliance} card", f"{signed} Force",
                                   item.field_where("powers"))  # fmt: skip
