"""pydantic's validation errors become one located, readable line each: the exact wording, the field path, the line,
and the did-you-mean hint drawn from the fields the model allows at that place (in-process, so mutation testing sees
it; tests/test_loading.py checks the same messages through the command line)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import Field, field_validator

from cardgen.data.model import Id, Strict
from cardgen.data.validation_errors import allowed_fields, validate
from cardgen.data.yaml_source import parse_yaml


class Stat(Strict):
    attack: int = 0
    hull: int = 0


class Card(Strict):
    id: Id
    cost: int = 0
    fast: bool = False
    stats: Stat | None = None
    tags: list[str] = Field(default_factory=list)
    rarity: Literal["common", "rare"] = "common"
    price: float = 0.0

    @field_validator("cost")
    @classmethod
    def _cost(cls, value: int) -> int:
        if value > 9:
            raise ValueError("Cost is at most 9")
        return value


class Deck(Strict):
    title: str
    cards: list[Card] = Field(default_factory=list)
    by_name: dict[str, Stat] = Field(default_factory=dict)
    extra: Annotated[Stat | None, Field(default=None)] = None
    source: str | dict[str, str] | None = None


def problems(yaml_text: str, model: type = Deck, base: tuple = (), label: str = "") -> list[str]:
    doc = parse_yaml(yaml_text, Path("deck.yaml"))
    found, located = validate(model, doc.value, doc, base, label)
    assert (found is None) == bool(located)
    return [str(p) for p in located]


def test_a_valid_document_gives_the_model_and_no_problems() -> None:
    doc = parse_yaml("title: Fleet\ncards:\n  - {id: scout, cost: 2}\n", Path("deck.yaml"))
    deck, found = validate(Deck, doc.value, doc)
    assert found == [] and isinstance(deck, Deck) and deck.cards[0].cost == 2


def test_an_unknown_field_names_its_line_path_and_nearest_known_field() -> None:
    text = "title: Fleet\ncards:\n  - id: scout\n  - id: frigate\n    cots: 3\n"
    assert problems(text) == ["deck.yaml:5: cards[1].cots: unknown field 'cots' (did you mean 'cost'?)"]


def test_an_unknown_field_with_no_near_name_lists_the_known_fields() -> None:
    assert problems("title: Fleet\nzzz: 1\n") == [
        "deck.yaml:2: zzz: unknown field 'zzz'; known fields: by_name, cards, extra, source, title"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("title: F\ncards: [{id: a, stats: {atack: 1}}]\n",
         "cards[0].stats.atack: unknown field 'atack' (did you mean 'attack'?)"),
        ("title: F\nby_name: {x: {hul: 1}}\n", "by_name.x.hul: unknown field 'hul' (did you mean 'hull'?)"),
        ("title: F\nextra: {hulls: 1}\n", "extra.hulls: unknown field 'hulls' (did you mean 'hull'?)"),
    ],
)  # fmt: skip
def test_hints_follow_lists_mappings_optionals_and_annotations(text: str, expected: str) -> None:
    (found,) = problems(text)
    assert found.endswith(expected)


def test_missing_fields_name_the_field() -> None:
    assert problems("cards: []\n") == ["deck.yaml:1: title: missing required field 'title'"]
    assert problems("title: F\ncards:\n  - {cost: 1}\n") == ["deck.yaml:3: cards[0].id: missing required field 'id'"]


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ("{id: a, cost: two}", "cards[0].cost: expected a whole number, got 'two'"),
        ("{id: a, cost: 2.5}", "cards[0].cost: expected a whole number, got 2.5"),
        ("{id: a, fast: maybe}", "cards[0].fast: expected true or false, got 'maybe'"),
        ("{id: a, tags: {x: 1}}", "cards[0].tags: expected a list, got a mapping"),
        ("{id: a, stats: [1, 2]}", "cards[0].stats: expected a mapping of keys to values, got a list"),
        ("{id: a, price: abc}", "cards[0].price: expected a number, got 'abc'"),
        ("{id: a, tags: [1]}", "cards[0].tags[0]: expected text (quote it if it looks like a number or yes/no), got 1"),
        ("{id: a, stats: ~}", None),
        ("{id: 'not an id!'}", "cards[0].id: 'not an id!' is not a valid id (use letters, digits, '-', '_' and '.')"),
        ("{id: a, rarity: rar}", "cards[0].rarity: 'rar' is not one of 'common' or 'rare' (did you mean 'rare'?)"),
        ("{id: a, cost: 12}", "cards[0].cost: cost is at most 9, got 12"),
    ],
)
def test_type_errors_say_what_was_expected_and_what_was_found(card: str, message: str | None) -> None:
    found = problems(f"title: F\ncards:\n  - {card}\n")
    if message is None:
        assert found == []
    else:
        assert found == [f"deck.yaml:3: {message}"]


def test_values_are_shown_short_and_by_kind() -> None:
    long_text = "x" * 60
    (found,) = problems(f"title: F\ncards:\n  - {{id: a, cost: {long_text}}}\n")
    assert found.endswith("got '" + "x" * 36 + "...")  # repr cut to 37 characters and an ellipsis
    (found,) = problems("title: F\ncards:\n  - {id: a, fast: ~}\n")
    assert found.endswith("expected true or false, got nothing")


def test_union_member_names_are_dropped_from_the_path() -> None:
    text_or_mapping = problems("title: F\nsource: {page: 3}\n")  # one line per member of `str | dict[str, str]`
    assert text_or_mapping == [
        "deck.yaml:2: source: expected text (quote it if it looks like a number or yes/no), got a mapping",
        "deck.yaml:2: source.page: expected text (quote it if it looks like a number or yes/no), got 3",
    ]


def test_base_path_and_label_prefix_the_field() -> None:
    doc_text = "components:\n  - title: F\n    cards: [{id: a, cots: 1}]\n"
    doc = parse_yaml(doc_text, Path("game.yaml"))
    _, located = validate(Deck, doc.value["components"][0], doc, ("components", 0), "fleet")
    assert [str(p) for p in located] == [
        "game.yaml:3: components[0] (fleet).cards[0].cots: unknown field 'cots' (did you mean 'cost'?)"
    ]
    _, located = validate(Stat, [1], doc, ("components", 0), "")
    assert str(located[0]).startswith("game.yaml:2: components[0]: ")


def test_allowed_fields_walks_the_model() -> None:
    assert allowed_fields(Deck, ()) == ["title", "cards", "by_name", "extra", "source"]
    assert allowed_fields(Deck, ("cards", 0)) == list(Card.model_fields)
    assert allowed_fields(Deck, ("cards", 0, "stats")) == ["attack", "hull"]
    assert allowed_fields(Deck, ("by_name", "any")) == ["attack", "hull"]
    assert allowed_fields(Deck, ("extra",)) == ["attack", "hull"]
    assert allowed_fields(Deck, ("nope",)) == []
    assert allowed_fields(Deck, ("title", "x")) == []
    assert allowed_fields(Deck, ("cards", 0, "tags")) == []


class Anything(Strict):
    value: int | float | bool | list[int] | dict[str, int] | str = 0
    stats: list[Annotated[Stat, Field(description="one")]] = Field(default_factory=list)
    maybe: list[Stat] | None = None
    exact: Literal["a"] = "a"


def test_every_union_member_name_is_dropped_from_the_path() -> None:
    found = problems("value: ~\n", Anything)
    assert len(found) == 6  # one per member: int, float, bool, list[int], dict[str,int], str
    assert all(p.startswith("deck.yaml:1: value: ") for p in found), found


def test_hints_see_through_annotated_members_and_optional_lists() -> None:
    assert problems("stats: [{hul: 1}]\n", Anything) == [
        "deck.yaml:1: stats[0].hul: unknown field 'hul' (did you mean 'hull'?)"
    ]
    assert problems("maybe: [{atack: 1}]\n", Anything) == [
        "deck.yaml:1: maybe[0].atack: unknown field 'atack' (did you mean 'attack'?)"
    ]
    assert allowed_fields(Anything, ("stats", 0)) == ["attack", "hull"]
    assert allowed_fields(Anything, ("maybe", 0)) == ["attack", "hull"]
    assert allowed_fields(Anything, ("value",)) == []


def test_a_message_that_already_says_what_it_got_is_not_repeated() -> None:
    class Players(Strict):
        players: list[int]

        @field_validator("players")
        @classmethod
        def _two(cls, value: list[int]) -> list[int]:
            raise ValueError(f"players must be [min, max], got {value}")

    assert problems("players: [1, 2, 3]\n", Players) == [
        "deck.yaml:1: players: players must be [min, max], got [1, 2, 3]"
    ]
    assert problems("exact: b\n", Anything) == ["deck.yaml:1: exact: 'b' is not one of 'a'"]


def test_a_key_that_is_only_a_bracket_is_an_unknown_field_not_a_union_tag() -> None:
    """Found by the fuzz test: `'[': null` in game.yaml once crashed the message (the key was taken for a union tag)."""
    assert problems("title: F\n'[': ~\n") == [
        "deck.yaml:2: [: unknown field '['; known fields: by_name, cards, extra, source, title"
    ]


# --- items: validated by a pydantic-core schema made per card type (`model.ItemModel`) ---------------------------

ITEM_TYPE = {
    "fields": {
        "attack": {"type": "int", "min": 0, "max": 5},
        "speed": {"type": "number", "min": 1, "max": 2.5},
        "faction": {"type": "str", "choices": ["red", "blue"]},
        "tags": {"type": "list", "required": False},
        "fast": {"type": "bool", "default": True},
        "text": {"type": "text"},
    }
}


def item_problems(item: object) -> list[str]:
    from cardgen.data.model import CardType, item_model
    from cardgen.data.validation_errors import validate_item

    model = item_model("ship", CardType.model_validate(ITEM_TYPE))
    doc = parse_yaml("cards: []\n", Path("deck.yaml"))
    values, located = validate_item(model, item, doc, ("cards", 0), "scout")
    assert (values is None) == bool(located)
    return [str(p).removeprefix("deck.yaml:1: cards[0] (scout)") for p in located]


def test_an_item_gets_every_field_with_its_default() -> None:
    from cardgen.data.model import CardType, item_model

    model = item_model("ship", CardType.model_validate(ITEM_TYPE))
    values = model.validate({"id": "scout", "attack": 1, "speed": 1.5, "faction": "red", "text": "Fast."})
    assert values == {
        "id": "scout", "count": 1, "type": None, "front": None, "back": None, "source": None,
        "attack": 1, "speed": 1.5, "faction": "red", "tags": None, "fast": True, "text": "Fast.",
    }  # fmt: skip
    assert item_model("ship", CardType.model_validate(ITEM_TYPE)) is model  # made once per type


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ({"id": "a b", "attack": 1, "speed": 1, "faction": "red", "text": ""},
         [".id: 'a b' is not a valid id (use letters, digits, '-', '_' and '.')"]),
        ({"id": "a", "attack": -1, "speed": 0, "faction": "red", "text": ""},
         [".attack: input should be greater than or equal to 0, got -1",
          ".speed: input should be greater than or equal to 1, got 0"]),
        ({"id": "a", "attack": 9, "speed": 3, "faction": "red", "text": ""},
         [".attack: input should be less than or equal to 5, got 9",
          ".speed: input should be less than or equal to 2.5, got 3"]),
        ({"id": "a", "attack": 1.5, "speed": float("inf"), "faction": "green", "text": 3},
         [".attack: expected a whole number, got 1.5",
          ".speed: expected a whole number, got inf",
          ".speed: input should be a finite number, got inf",
          ".faction: 'green' is not one of 'red' or 'blue'",
          ".text: expected text (quote it if it looks like a number or yes/no), got 3"]),
        ({"id": "a", "attack": 1, "speed": 1, "faction": "red", "text": "", "tags": [float("nan")], "count": -1},
         [".count: input should be greater than or equal to 0, got -1",
          ".tags[0]: expected text (quote it if it looks like a number or yes/no), got nan",
          ".tags[0]: expected a whole number, got nan",
          ".tags[0]: input should be a finite number, got nan"]),
        ({"id": "a", "atack": 1, "speed": 1, "faction": "red", "text": ""},
         [".attack: missing required field 'attack'", ".atack: unknown field 'atack' (did you mean 'attack'?)"]),
        ({"attack": 1, "speed": 1, "faction": "red", "text": "", "source": {"a": 1}},
         [".id: missing required field 'id'",
          ".source: expected text (quote it if it looks like a number or yes/no), got a mapping",
          ".source.a: expected text (quote it if it looks like a number or yes/no), got 1"]),
        ("scout", [": expected a mapping of keys to values, got 'scout'"]),
    ],
)  # fmt: skip
def test_item_errors_read_as_a_pydantic_model_gave_them(item: object, expected: list[str]) -> None:
    assert item_problems(item) == expected


def test_bounds_on_a_field_that_is_not_a_number_are_refused_where_the_type_is_declared() -> None:
    from pydantic import ValidationError

    from cardgen.data.model import CardType

    with pytest.raises(ValidationError, match="min and max bound int and number fields, not a 'str' field"):
        CardType.model_validate({"fields": {"name": {"type": "str", "min": 1}}})
    text = "fields:\n  name: {type: str, min: 1}\n"  # and said without a ", got a mapping" tail
    assert problems(text, CardType) == [
        "deck.yaml:2: fields.name: min and max bound int and number fields, not a 'str' field"
    ]


@pytest.mark.parametrize(
    ("spec", "default", "reason"),
    [
        ("{type: int, required: false, default: lots}", "'lots'", "input should be a valid integer"),
        ("{type: str, choices: [a, b], default: c}", "'c'", "input should be 'a' or 'b'"),
        ("{type: number, max: 9, default: 9.5}", "9.5", "input should be less than or equal to 9"),
        ("{type: list, required: false, default: [1, {a: 1}]}", "[1, {'a': 1}]", "input should be a valid string"),
    ],
)
def test_a_default_the_field_would_refuse_is_refused_where_the_type_is_declared(
    spec: str, default: str, reason: str
) -> None:
    from cardgen.data.model import CardType

    expected = f"default {default} is not a value of this field: {reason}"
    assert problems(f"fields:\n  power: {spec}\n", CardType) == [f"deck.yaml:2: fields.power: {expected}"]


@pytest.mark.parametrize("spec", ["{type: int, required: false, default: 3}", "{type: list, default: []}",
                                  "{type: any, default: {a: 1}}", "{type: text, default: ''}"])  # fmt: skip
def test_a_default_the_field_accepts_is_kept(spec: str) -> None:
    from cardgen.data.model import CardType

    assert problems(f"fields:\n  power: {spec}\n", CardType) == []
