"""Facts checked against their own citations: a wrong number in rules.yaml is caught, not printed and played.

The quote check reads the sentence a fact comes from; these tests pin how it reads numbers and words, and mutate the
facts of every bundled game (numbers off by one, the rulebook's own examples of plausible mistakes) to measure how
many `validate` catches.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from cardgen.data import load_games
from cardgen.paths import default_data_dir
from cardgen.validate.facts import check_facts, missing_from, numbers_in, quote_of

from conftest import copy_game

GAMES = ["battlefield-space", "scifi-domains", "space-empires-4x", "star-commander", "rift-domination"]


def test_numbers_are_read_as_a_reader_would():
    assert numbers_in("Each player is given 3 credits") >= {3.0}
    assert numbers_in("three Domain decks of 30 cards each") >= {3.0, 30.0}
    assert numbers_in("a Black Hole: 1-6 survives") >= {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    assert numbers_in("6 Warp Points (3x1, 3x2)") >= {6.0, 3.0, 1.0, 2.0}
    assert numbers_in("twice per round, half the cost") >= {2.0, 0.5}
    assert 7.0 not in numbers_in("hold no more than 8 cards")


def test_values_must_be_stated_by_the_quote():
    assert missing_from(8, "hold no more than 8 cards") == []
    assert missing_from(7, "hold no more than 8 cards") == ["7"]
    assert missing_from(["deterian", "central-confederation"], "The Deterians and Central Confederation ships") == []
    assert missing_from(["A", "B", "E"], "ship Class (A through E)") == []
    assert missing_from(["A", "F"], "ship Class (A through E)") == ["'F'"]
    assert missing_from("highest_first", "The highest-numbered card will be resolved first") == []
    assert missing_from("lowest_first", "The highest-numbered card will be resolved first, down to the lowest") == [
        "'lowest_first'"
    ]
    assert missing_from({2: 10, 4: 14}, "2 players: Units 10 … 4 players: Units 14") == []
    assert missing_from(True, "anything")  # a yes/no value cannot be shown by a sentence


def _numbers(value: Any, path: tuple = ()) -> list[tuple[tuple, float]]:
    """Every number inside a fact's value, with its path."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [(path, value)]
    items = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else []
    return [found for key, part in items for found in _numbers(part, (*path, key))]


def _put(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    if isinstance(value, list):
        return [_put(part, path[1:], new) if i == path[0] else part for i, part in enumerate(value)]
    return {key: _put(part, path[1:], new) if key == path[0] else part for key, part in value.items()}


def _mistakes(fact: Any) -> list[tuple[tuple, float]]:
    """Each single-number mistake of a fact: one number off by one either way, or replaced by another number its quote
    states (the mistake a bag of the quote's numbers cannot see)."""
    quote = quote_of(fact) or ""
    stated = numbers_in(" ".join(quote.values()) if isinstance(quote, dict) else quote)
    return [
        (path, new)
        for path, number in _numbers(fact.value)
        for new in sorted({number + 1, number - 1} | {n for n in stated if n != number and n == int(n)})
    ]


@pytest.mark.parametrize("game_id", GAMES)
def test_single_number_mistakes_are_caught(game_id):
    """Change one number of any fact the rulebook fixes (off by one, or to another number of its own quote):
    `validate` catches at least 95 % of such mistakes in every game — facts checked where their marks stand, derived
    facts against their derivation. Facts no sentence states (`check: none`, each with its reason: a square grid's
    four corners, a die the rulebook never names) are left out; `validate --notes` lists them."""
    (game,) = load_games(default_data_dir(), [game_id])
    assert check_facts(game)[0] == []
    tried, missed = 0, []
    for name, fact in game.rules.facts.items():
        if fact.origin == "designed" or fact.check == "none":
            continue
        others = game.rules.facts if fact.derive else {}  # a derivation reads the other facts; a quote does not
        for path, new in _mistakes(fact):
            facts = {**others, name: fact.model_copy(update={"value": _put(fact.value, path, new)})}
            broken = dataclasses.replace(game, rules=game.rules.model_copy(update={"facts": facts}))
            tried += 1
            if not any(f"fact '{name}'" in v.rule for v in check_facts(broken)[0]):
                missed.append(f"{name}{list(path)}={new:g}")
    assert tried >= 30, f"only {tried} mistakes to try"
    assert len(missed) <= tried * 0.05, f"{len(missed)} of {tried} mistakes passed: {missed}"


# Mistakes of the kind a person makes when copying a rulebook: each names the fact that must be reported.
NAMED = [
    ("star-commander", "  hand_limit:\n    value: 8", "  hand_limit:\n    value: 7", "fact 'hand_limit'"),
    (
        "star-commander",
        "  starting_credits:\n    value: 3",
        "  starting_credits:\n    value: 4",
        "fact 'starting_credits'",
    ),
    ("battlefield-space", "  columns:\n    value: 3", "  columns:\n    value: 4", "fact 'columns'"),
    (
        "battlefield-space",
        "  resolution_order:\n    value: highest_first",
        "  resolution_order:\n    value: lowest_first",
        "fact 'resolution_order'",
    ),
    ("scifi-domains", "4 players: Units {14}", "4 players: Units {16}", "fact 'line_up_units'"),
    (
        "space-empires-4x",
        "value: {survives: [1, 6], destroyed: [7, 10]}",
        "value: {survives: [1, 7], destroyed: [7, 10]}",
        "black_hole_roll",
    ),
]


@pytest.mark.parametrize(("game", "old", "new", "named"), NAMED, ids=[n[3] for n in NAMED])
def test_named_fact_mistakes_fail_validate(tmp_path: Path, game: str, old: str, new: str, named: str):
    copy = copy_game(game, tmp_path)
    copy.edit("rules.yaml", old, new)
    broken = copy.broken_rules()  # validated in-process, without the layout checks (they render every face)
    assert any(named in rule for rule in broken), broken
