"""How the quote check reads a rulebook sentence, pinned exactly and in-process (so mutation testing sees it).

`test_facts.py` measures the check on the bundled games; this file fixes what each piece of
`cardgen/validate/facts.py` answers: the numbers a sentence states, the words it states in order, what part of a value
a quote leaves out, table rows, citations as quotes, and the violations `check_facts` reports for the demo game.
"""

from __future__ import annotations

import dataclasses

import pytest

from cardgen.data import load_games
from cardgen.data.rules import Fact
from cardgen.errors import DataError
from cardgen.validate.facts import (
    _as_range,
    _missing_by_row,
    _states,
    check_facts,
    derived_value,
    missing_from,
    numbers_in,
    quote_of,
)

from conftest import FIXTURES


@pytest.mark.parametrize(
    ("sentence", "numbers"),
    [
        ("Each player is given 3 credits", {3.0}),
        ("a deck of 30", {1.0, 30.0}),  # "a" is one
        ("roll 1-6", {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}),
        ("roll 1 to 3", {1.0, 2.0, 3.0}),
        ("levels 2 through 4", {2.0, 3.0, 4.0}),
        ("1-500 points", {1.0, 500.0}),  # a range wider than 100 states only its ends
        ("6 Warp Points (3x1, 3x2)", {6.0, 3.0, 1.0, 2.0}),
        ("-2 to hit", {-2.0, 2.0}),
        ("\u22123 Force", {-3.0, 3.0}),  # the typographic minus
        ("1,5 credits", {1.5}),  # a decimal comma
        ("2.5 points", {2.5}),
        ("twice per round, half the cost", {2.0, 0.5}),
        ("no ship, zero credits, a dozen cards", {0.0, 12.0, 1.0}),
        ("hold no more than 8 cards", {0.0, 8.0}),
        ("v2 rules", set()),  # digits inside a word are not a number
        ("Thirteen Fourteen Fifteen", {13.0, 14.0, 15.0}),
    ],
)
def test_the_numbers_a_sentence_states(sentence, numbers):
    assert numbers_in(sentence) == numbers


@pytest.mark.parametrize(
    ("quote", "phrase", "stated"),
    [
        ("The Deterians attack", "deterian", True),
        ("Central Confederation ships", "central-confederation", True),
        ("The highest-numbered card will be resolved first", "highest_first", True),
        ("first the highest", "highest_first", False),  # in order only
        ("ship Class (A through E)", "C", True),
        ("ship Class (A through E)", "F", False),
        ("ship Class (A to C)", "B", True),
        ("a big ship", "b", False),  # a one-letter word stands alone
        ("K'Totekk fleets", "ktotekk", True),
        ("any sentence", "", True),
        ("the frigate", "frigates", False),  # the phrase may be shorter than the quote's word, not longer
    ],
)
def test_words_stated_in_order(quote, phrase, stated):
    assert _states(quote, phrase) is stated


@pytest.mark.parametrize(
    ("value", "quote", "missing"),
    [
        (None, "anything", []),
        (True, "anything", ["True (a yes/no value: give check: none and a reason)"]),
        (False, "anything", ["False (a yes/no value: give check: none and a reason)"]),
        (8, "hold no more than 8 cards", []),
        (7, "hold no more than 8 cards", ["7"]),
        (2.5, "2.5 points", []),
        (2.5, "2 points", ["2.5"]),
        ("highest_first", "the highest card goes first", []),
        ("lowest", "the highest card goes first", ["'lowest'"]),
        ([1, 6], "roll 1-6", []),
        ([1, 5], "roll 1-6", ["1–5"]),  # a pair is a range only if the quote states that range
        ([1, 6], "roll a 1 or a 6", []),  # no range in the quote: each number on its own
        ([6, 1], "roll 1-6", []),  # not a range (high first): each number on its own
        ({"min": 2, "max": 4}, "for 2-4 players", []),
        ({"min": 2, "max": 5}, "for 2-4 players", ["2–5"]),
        ((1, 2), "one and two", []),
        (["Union", "Syndicate"], "the Union and the Syndicate", []),
        (["Union", "Empire"], "the Union and the Syndicate", ["'Empire'"]),
        ({2: 10, 4: 14}, "2 players: 10", ["4", "14"]),  # numeric keys are figures too
        ({"first": 3, "then": 2}, "3 at first, then 2", []),  # text keys name parts: only values count
        ({"first": 3}, "first 2", ["3"]),
        (object, "anything", [repr(object)]),
    ],
)
def test_what_a_quote_leaves_out(value, quote, missing):
    assert missing_from(value, quote) == missing


def test_ranges_are_low_high_pairs_of_whole_numbers():
    assert _as_range([1, 6]) == (1, 6)
    assert _as_range({"min": 1, "max": 6}) == (1, 6)
    assert _as_range([6, 1]) is None and _as_range([3, 3]) is None
    assert _as_range([1.0, 6]) is None and _as_range([True, 6]) is None  # ints only, not bools or floats
    assert _as_range([1, 2, 3]) is None and _as_range({"min": 1}) is None and _as_range(5) is None


def test_tables_are_checked_row_by_row():
    rows = {"a": "three ships", "b": "4 ships"}
    assert _missing_by_row({"a": 3, "b": 4}, rows) == []
    assert _missing_by_row({"a": 3, "b": 5}, rows) == ["b: 5"]
    assert _missing_by_row({"a": 3, "c": 4}, rows) == ["row c (no quote for it)"]
    assert _missing_by_row({"a": 3, "c": 4}, rows, partial=True) == []  # a fact with a reason quotes some rows
    assert _missing_by_row({2: 10}, {"2": "ten cards"}) == []  # numeric rows found by their text key
    assert _missing_by_row(3, rows) == []  # a single value against every row's sentence
    assert _missing_by_row(5, rows) == ["5"]
    names = {"SY": "Ship Yards", "BB": "Base"}
    assert _missing_by_row(["SY", "MS"], names) == ["MS (no quote for it)", "BB (quoted, not in the value)"]
    assert _missing_by_row(["SY", "BB"], names) == []
    assert _missing_by_row(7, "hold 8") == ["7"]  # a plain quote: the whole value at once


def test_a_citation_quotes_its_single_quoted_passages():
    assert quote_of(Fact(value=3, cite="Setup — 'Each player is given 3 credits'")) == "Each player is given 3 credits"
    both = Fact(value=3, cite="Setup: 'three decks' and 'of 30 cards' (p. 2)")
    assert quote_of(both) == "three decks … of 30 cards"
    assert quote_of(Fact(value=3, cite="Setup, p. 2")) is None
    assert quote_of(Fact(value=3, cite="the player's deck")) is None  # an apostrophe is not a quote
    assert quote_of(Fact(value=3, cite="Setup — 'ignored'", quote="three")) == "three"


@pytest.fixture(scope="module")
def demo():
    (game,) = load_games(FIXTURES / "card_data", ["demo"])
    return game


def with_facts(game, **changes):
    facts = dict(game.rules.facts)
    for name, update in changes.items():
        facts[name] = facts[name].model_copy(update=update) if name in facts else Fact(**update)
    return dataclasses.replace(game, rules=game.rules.model_copy(update={"facts": facts}))


def test_the_demo_facts_agree_with_their_quotes(demo):
    assert check_facts(demo) == ([], [])


def test_a_fact_disagreeing_with_its_quote_is_reported_at_its_line(demo):
    (v,) = check_facts(with_facts(demo, deck_size={"value": 7}))[0]
    assert v.rule == "fact 'deck_size' agrees with its quote"
    assert v.citation == "Demo rules §1 — 'a deck of six ships'"
    assert (v.expected, v.actual) == ("7 stated in the quote", 7)
    assert v.where.endswith("demo/rules.yaml:3")


def test_a_fact_without_a_quote_is_reported(demo):
    (v,) = check_facts(with_facts(demo, tokens={"cite": "Demo rules §5"}))[0]
    assert v.rule == "fact 'tokens' quotes the rulebook" and v.actual == "no quote"
    assert v.expected == "a quote (quote: or 'quoted words' in cite), or check: none with a reason"


def test_unchecked_and_designed_facts_are_listed_not_checked(demo):
    game = with_facts(demo, tokens={"value": 99, "check": "none", "reason": "a count"}, held={"origin": "designed"})
    assert check_facts(game) == ([], ["held", "tokens"])


def test_derived_facts_are_recomputed(demo):
    good = with_facts(demo, spare={"value": 5, "cite": "derived", "derive": "deck_size - held"})
    assert check_facts(good) == ([], [])
    (v,) = check_facts(with_facts(demo, spare={"value": 4, "cite": "derived", "derive": "deck_size - held"}))[0]
    assert v.rule == "fact 'spare' equals its derivation deck_size - held" and (v.expected, v.actual) == (5, 4)
    assert derived_value(demo, "x", "line_up[4] + sum([1, 2])") == 5
    with pytest.raises(DataError, match=r"^fact 'x': cannot compute its derivation 'nothing \+ 1' \("):
        derived_value(demo, "x", "nothing + 1")
    with pytest.raises(DataError, match="cannot compute its derivation 'deck_size / 0'"):
        derived_value(demo, "x", "deck_size / 0")


def test_a_fact_of_a_game_without_a_rules_file_is_located_by_name(demo):
    game = dataclasses.replace(with_facts(demo, deck_size={"value": 7}), rules_doc=None)
    (v,) = check_facts(game)[0]
    assert v.where == "rules.yaml: facts.deck_size"


def test_derivations_see_the_helpers_and_fail_on_an_unknown_fact(demo):
    expression = "min([3, 1]) + max([1, 2]) + len([7]) + sorted([2, 1])[0] + list(range(3))[2] + sum([1])"
    assert derived_value(demo, "x", expression) == 1 + 2 + 1 + 1 + 2 + 1
    with pytest.raises(DataError, match=r"cannot compute its derivation 'no_such_fact \+ 1'"):
        derived_value(demo, "x", "no_such_fact + 1")  # an unknown name is an error, never None


def table_check(game, **args):
    from cardgen.data.rules import Check
    from cardgen.validate.base import Context
    from cardgen.validate.facts import check_table

    return check_table(Context(game), Check(rule="R", check="table", args=args))


def test_table_checks_read_lists_and_mixed_keys(demo):
    game = with_facts(
        demo,
        ladder={"value": [[1, 2], [2, 3], [3, 5]], "cite": "x", "origin": "designed"},
        mixed={"value": {10: 1, 2: 2, "z": 9, "a": 5}, "cite": "x", "origin": "designed"},
        steps={"value": [1, 3, 2], "cite": "x", "origin": "designed"},
    )
    assert table_check(game, fact="ladder", monotone="increasing") == []  # lists compare element by element
    assert table_check(game, fact="ladder", keys=[0, 1, 2]) == []  # a list's keys are its positions
    (v,) = table_check(game, fact="steps", monotone="non-decreasing")
    assert (v.expected, v.actual, v.rule) == ("values non-decreasing", "3 then 2", "R")
    # numbers first in numeric order (2 before 10), then text keys: 2, 10, a, z → values 2, 1, 5, 9
    (v,) = table_check(game, fact="mixed", monotone="increasing")
    assert v.actual == "2 then 1"
    (v,) = table_check(game, fact="mixed", keys={"fact": "line_up"})  # keys of another fact's table
    assert v.expected == "keys ['2', '3', '4']" and v.actual == ["10", "2", "a", "z"]
    assert table_check(game, fact="line_up", keys={"fact": "line_up"}) == []
    with pytest.raises(DataError, match=r"^monotone must be one of increasing, non-decreasing, decreasing, "):
        table_check(game, fact="steps", monotone="sideways")
    with pytest.raises(DataError, match=r"^fact 'deck_size' is not a table$"):
        table_check(game, fact="deck_size", keys=[1])


def test_a_table_part_is_located_at_its_fact_and_covers_resolve_facts(demo):
    game = with_facts(demo, faces={"value": 6, "cite": "x", "origin": "designed"})
    assert table_check(game, fact="damage_roll", covers=[1, {"fact": "faces"}]) == []
    (v,) = table_check(game, fact="damage_roll.hit", covers=[4, 7])
    # a plain list is read as the faces it names (4 and 6), not as a range
    assert v.where.endswith("demo/rules.yaml:10") and v.actual == "missing [5, 7], more than once [], outside []"


@pytest.mark.parametrize(
    ("value", "quote", "missing"),
    [
        (8, "hold no more than {8} cards", []),
        (7, "hold no more than {8} cards", ["7 (marked '8')"]),
        (3, "a deck of 3 … hold {8} cards", ["3 (marked '8')"]),  # the 3 elsewhere in the quote does not count
        (2, "gain {two} fighters", []),
        (2, "gain {two or 3} fighters", ["2 (marked 'two or 3')"]),  # a mark states one number
        (8, "never more than {8} … no more than {8}", []),  # stated twice, each place marked
        (-1, "{-1} movement point", []),
        (1, "-{1} movement point for enemy units", []),  # the size of a change the text signs
        (-1, "-{1} movement point", ["-1 (marked '1')"]),
        (-0.5, "{half} its cost", ["-0.5 (marked 'half')"]),
        ([1, 3], "roll {1-3} misses", []),
        ([1, 4], "roll {1-3} misses", ["[1, 4] (marked '1-3')"]),
        ([2, 6], "by {2} … to {6} players", []),
        ([2, 6], "by {2} players", ["[2, 6] (marked '2')"]),
        ([1, 2, 3], "{1} and {2}", ["3 marks for 3 elements (found 2)"]),
        ([1, 1, 2], "Move {0,1:1} space in Turns 1 and 2, and {2:2} spaces in Turn 3", []),
        ([1, 2, 2], "Move {0,1:1} space in Turns 1 and 2, and {2:2} spaces in Turn 3", ["1: 2 (marked '1')"]),
        ({"cost": 6, "attack": 3, "name": "Scout"}, "| SC | {name:Scout} | {cost:6} | E | {attack:3} |", []),
        ({"cost": 6, "attack": 4}, "| SC | Scout | {cost:6} | E | {attack:3} |", ["attack: 4 (marked '3')"]),
        ({"cost": 6, "hull": 1}, "| {cost:6} | 1 |", ["hull: 1 (not marked)"]),
        ({"cost": 6}, "{cost:6} {hull:1}", ["hull (marked, not in the value)"]),
        ({"cost": 6}, "{6}", ["{6} (a record's marks name their field: {field:6})", "cost: 6 (not marked)"]),
        (
            {"start": 1, "costs": {2: 10, 3: 15}},
            "{start:1} | 2:{costs.2:10}, 3:{costs.3:16}",
            ["costs.3: 15 (marked '16')"],
        ),
        ({"tactics": [7, 7]}, "{tactics.0,tactics.1:7}: Tactics", []),
    ],
)
def test_a_marked_quote_is_checked_where_its_marks_stand(value, quote, missing):
    assert missing_from(value, quote) == missing


def test_marks_are_not_part_of_the_quoted_text():
    from cardgen.validate.facts import unmarked

    assert unmarked("2:{costs.2:10}, 3:{costs.3:15} and {two} and -{1}") == "2:10, 3:15 and two and -1"
