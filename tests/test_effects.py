"""The one effects grammar (cardgen/engine/effects.py): what a statement may say, the errors a bad one gets, the
dispatch to a game's handlers, and docs/effects.md generated from the games' vocabularies."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.engine.effects import PAGE, Effect, Name, Number, OneOf, Vocabulary, Words, page, vocabularies

REPO = Path(__file__).parent.parent


def toy() -> Vocabulary:
    """A sixth game's vocabulary, declared as the bundled games declare theirs."""
    words = Vocabulary("toy", places={"card": "a card", "sheet": "a player sheet"}, triggers=("dawn",), amount=1)
    words.verb("gain", "gain N gold", {"max": Number(), "per": OneOf(("mine", "farm"))}, where="card")
    words.verb("raise", "your units of the types have N more strength", {"units": Words("unit types", "/")},
               where="sheet")  # fmt: skip
    target = OneOf(("own-unit",), noun="target")
    words.verb(
        "bless", "the target unit heals N", {"target": target, "hero": Name("a hero")}, where="card", targeted=True
    )
    return words


def test_a_statement_is_trigger_verb_amount_and_typed_keys() -> None:
    words = toy()
    assert words.parse("dawn: gain 3 per=mine max=5", "card") == Effect(
        "gain", 3, "dawn", (("per", "mine"), ("max", "5"))
    )
    effect = words.parse("raise units=archer/knight", "sheet")
    assert (effect.amount, effect.words("units", "/"), effect.num("max", 7)) == (1, ["archer", "knight"], 7)
    assert words.parse("gain -2").amount == -2  # a caller that names no place: any verb
    assert words.parse("bless target=own-unit hero=Ada").opt("hero") == "Ada"
    assert words.parse("dawn: bless 2").opt("target") == ""  # a triggered statement acts on what triggered it


@pytest.mark.parametrize(
    ("statement", "where", "message"),
    [
        ("", "card", "an empty statement"),
        ("dusk: gain 1", "card", r"unknown trigger 'dusk' \(triggers: dawn\)"),
        ("steal 1", "card", "unknown verb 'steal'"),
        ("gain 1", "sheet", "'gain' belongs on a card"),
        ("gain lots", "card", "'gain' takes a whole number up to 999, not 'lots'"),
        ("gain 1000", "card", "'gain' takes a whole number up to 999"),
        ("gain 1 colour=red", "card", r"'gain' takes no 'colour' \(it takes: max, per\)"),
        ("gain 1 max", "card", "'gain' takes no 'max'"),
        ("gain 1 max=-1", "card", "'max' takes a whole number from 0 to 999, not '-1'"),
        ("gain 1 per=sea", "card", r"unknown per 'sea' \(it takes: farm, mine\)"),
        ("gain 1 max=2 max=3", "card", "'gain' gives 'max' twice"),
        ("raise units=archer//knight", "sheet", "'units' takes unit types, /-separated"),
        ("bless 2 hero=Ada", "card", "'bless' needs a target="),
        ("bless 2 target=enemy", "card", "unknown target 'enemy'"),
    ],
)
def test_a_statement_outside_the_vocabulary_is_refused_in_one_line(statement: str, where: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        toy().parse(statement, where)
    assert "\n" not in str(refused.value)


def test_a_card_with_a_bad_statement_plays_without_its_ability_and_the_problem_names_card_and_statement() -> None:
    words = toy()
    assert words.read("mine-cart", ["gain 2", "dawn: gain 1"], "card") == (
        (Effect("gain", 2), Effect("gain", 1, "dawn")), None)  # fmt: skip
    parsed, problem = words.read("mine-cart", ["gain 2", "gain 2 per=sea"], "card", what="OCC-card")
    assert parsed == ()
    assert (
        problem
        == "OCC-card 'mine-cart': effect 'gain 2 per=sea' cannot be executed (unknown per 'sea' (it takes: farm, mine))"
    )


def test_a_game_runs_a_statement_through_the_handler_its_verb_is_bound_to() -> None:
    words, done = toy(), []

    @words.does("gain", "bless")
    def record(state: list[str], player: int, effect: Effect, extra: str) -> None:
        state.append(f"{player} {effect.verb} {effect.amount} {extra}")

    words.run(done, 1, words.parse("gain 2"), "x")
    words.run(done, 0, words.parse("raise 1"), "y")  # no handler: a lasting modifier the game reads where it applies
    assert done == ["1 gain 2 x"]
    with pytest.raises(ValueError, match="'steal' has a handler but is not a declared verb"):
        words.does("steal")(record)
    with pytest.raises(ValueError, match="the verb 'gain' is declared twice"):
        words.verb("gain", "again")
    with pytest.raises(ValueError, match="not among"):
        words.verb("tax", "pay N", where="board")


def test_both_games_declare_their_verbs_in_the_one_grammar() -> None:
    found = vocabularies()
    assert set(found) == {"star-commander", "rift-domination"}
    rift = found["rift-domination"][1]
    with pytest.raises(ValueError, match="'gain-vp' belongs on an OCC-card"):
        rift.parse("gain-vp 1", "faction")
    assert rift.parse("unit-stat 1 unit=carrier stat=lp", "faction").opt("stat") == "lp"


def test_the_effects_page_is_generated_from_the_vocabularies() -> None:
    """docs/effects.md is what `python -m cardgen.reference` writes (run it after changing a vocabulary)."""
    written = (REPO / PAGE).read_text(encoding="utf-8")
    assert written == page(), "docs/effects.md is stale: run python -m cardgen.reference"
    for _, vocabulary in vocabularies().values():
        missing = [word for word in [*vocabulary.verbs, *vocabulary.triggers] if f"`{word}`" not in written]
        assert missing == []


def test_a_changed_verb_makes_the_effects_page_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above can fail: a verb's meaning changed in the code no longer matches the page."""
    from cardgen.engine.games.star_commander.model import VOCABULARY

    written = (REPO / PAGE).read_text(encoding="utf-8")
    monkeypatch.setitem(VOCABULARY.verbs, "draw", VOCABULARY.verbs["draw"].__class__("draw", "draw a different number"))
    assert page() != written
