"""The data model: what a game folder may contain, as pydantic models that reject anything they do not know.

A game is a folder `card_data/<game-id>/` holding a manifest `game.yaml` and one YAML file per component set.
Nothing here knows the five bundled games: a new game is only new data.

- `Manifest` (game.yaml): id, title, player counts, the rulebook, game-wide settings, the card types (the fields a
  card may carry and their types) and the list of components.
- `ComponentSpec` (one file per component): its size and shape, the layouts of its faces, and its items — cards in a
  deck, double-sided counters, tiles, or sheets larger than a card (boards, faction sheets, player aids).
- Items are written flat (`id`, `count`, … and the card type's own fields side by side); `item_model` builds one
  strict validator per card type (a pydantic-core schema) so a misspelt or mistyped field is reported like any
  other.
"""

from __future__ import annotations

import functools
import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticKnownError, SchemaValidator, ValidationError
from pydantic_core import core_schema as cs

from cardgen.units import parse_length, parse_size

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
Id = Annotated[str, Field(pattern=ID_PATTERN, max_length=80)]
COLOUR_PATTERN = r"^(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{8}|[a-z]+)$"
LANGUAGE_PATTERN = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"  # en, de, pt-BR, zh-Hant
Language = Annotated[str, Field(pattern=LANGUAGE_PATTERN, max_length=20)]

# "pieces" are components that are not printed (cubes, dice, coins): listed so a game's inventory is complete.
Kind = Literal["deck", "counters", "tiles", "sheets", "pieces"]
ITEM_KEY: dict[str, str] = {
    "deck": "cards",
    "counters": "counters",
    "tiles": "tiles",
    "sheets": "sheets",
    "pieces": "pieces",
}
# sheets as large as the paper they are printed on (reference sheets, forms), upright or turned
PAGE_SIZES = ("page", "page-landscape")
RESERVED_ITEM_KEYS = ("id", "count", "type", "front", "back", "source")


class Strict(BaseModel):
    """Base of every model read from YAML: unknown fields are errors, values are not coerced, models are frozen."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


MAX_BLEED_MM = 20.0


def _bleed_length(value: float) -> float:
    """Bleed in mm: not negative, and at most 20 mm (print shops ask for 3 mm; more only wastes paper)."""
    parse_length(value)
    if not 0 <= value <= MAX_BLEED_MM:
        raise ValueError(f"bleed must lie between 0 and {MAX_BLEED_MM:g} mm")
    return value


def _colour(value: str) -> str:
    if not re.match(COLOUR_PATTERN, value):
        raise ValueError(f"'{value}' is not a colour (write #rrggbb, #rrggbbaa or a colour name such as white)")
    return value


Colour = Annotated[str, AfterValidator(_colour)]


class Rulebook(Strict):
    """The rulebook a game is built from (a reference, never shipped)."""

    title: str
    file: str | None = None
    edition: str | None = None
    note: str | None = None


class Icon(Strict):
    """A symbol usable inline in text as `{name}` (or `{name:colour}`) and by layouts: a shape, its colours and an
    optional label, or the game's own SVG, PNG or JPEG `file`, drawn in its own colours unless a colour is set where
    the icon is used."""

    shape: Literal["circle", "square", "diamond", "hexagon", "triangle", "star", "shield", "bolt", "burst", "ring"] = (
        "circle"
    )
    fill: Colour = "#000000"
    stroke: Colour | None = None
    label: str | None = Field(default=None, max_length=3)
    label_colour: Colour = "#ffffff"
    file: str | None = None
    description: str | None = None

    @model_validator(mode="after")
    def _file_or_label(self) -> Icon:
        if self.file is not None and self.label is not None:
            raise ValueError("an icon drawn from a file takes no label (put the label into the file)")
        return self


class Settings(Strict):
    """Game-wide defaults: card size, back, bleed, colours, fonts and the icon set."""

    card_size: str = "poker"
    back: str | None = None
    bleed: float = 3.0
    colours: dict[str, Colour] = Field(default_factory=dict)
    fonts: dict[str, str] = Field(default_factory=dict)
    icons: dict[Id, Icon] = Field(default_factory=dict)

    @field_validator("card_size")
    @classmethod
    def _known_size(cls, value: str) -> str:
        parse_size(value)
        return value

    @field_validator("bleed")
    @classmethod
    def _bleed(cls, value: float) -> float:
        return _bleed_length(value)


FieldType = Literal["str", "text", "int", "number", "bool", "list", "any"]


class FieldSpec(Strict):
    """One field a card type may carry: its type, whether it is required, allowed values and bounds."""

    type: FieldType = "str"
    required: bool = True
    default: Any = None
    choices: list[StrictStr | StrictInt] | None = None
    min: float | None = None
    max: float | None = None
    description: str | None = None

    @field_validator("choices")
    @classmethod
    def _some_choices(cls, value: list[str | int] | None) -> list[str | int] | None:
        if value == []:  # pydantic-core cannot even build a check that nothing passes (SchemaError)
            raise ValueError("got an empty list, which would allow no value: list at least one choice or leave it out")
        return value

    @model_validator(mode="after")
    def _bounds_on_numbers(self) -> FieldSpec:
        if (self.min is not None or self.max is not None) and self.type not in ("int", "number"):
            raise ValueError(f"min and max bound int and number fields, not a '{self.type}' field")
        return self

    @model_validator(mode="after")
    def _default_fits(self) -> FieldSpec:
        """A default is what an item without the field holds: it must be a value the field accepts."""
        if self.default is not None:
            try:
                SchemaValidator(_field_schema(self), cs.CoreConfig(allow_inf_nan=False)).validate_python(self.default)
            except ValidationError as exc:
                reason = exc.errors(include_url=False)[0]["msg"]
                raise ValueError(
                    f"default {self.default!r} is not a value of this field: {reason[:1].lower()}{reason[1:]}"
                ) from None
        return self


class CardType(Strict):
    """The fields one kind of card (or counter, tile, sheet) carries."""

    description: str | None = None
    fields: dict[Id, FieldSpec] = Field(default_factory=dict)

    @field_validator("fields")
    @classmethod
    def _not_reserved(cls, value: dict[str, FieldSpec]) -> dict[str, FieldSpec]:
        reserved = sorted(set(value) & set(RESERVED_ITEM_KEYS))
        if reserved:
            raise ValueError(
                f"'{reserved[0]}' is reserved for every item ({', '.join(RESERVED_ITEM_KEYS)}); "
                "give the field another name"
            )
        return value


class ComponentRef(Strict):
    """A component as the manifest lists it; `file` is absent while its contents are still to be written."""

    id: Id
    kind: Kind
    title: str
    file: str | None = None
    description: str | None = None


class Manifest(Strict):
    """game.yaml: what the game is and what it is made of."""

    id: Id
    title: str
    players: Annotated[list[StrictInt], Field(min_length=2, max_length=2)]
    rulebook: Rulebook
    description: str | None = None
    designer: str | None = None  # who made the game: the printed files' author
    version: str | None = None  # the edition of the data ("1.2", "2026-11 playtest"): in the files' subject
    # the languages of the card text, the default (in which every text is written) first: data/languages.py
    languages: list[Language] = Field(default_factory=list)
    settings: Settings = Field(default_factory=Settings)
    card_types: dict[Id, CardType] = Field(default_factory=dict)
    components: list[ComponentRef] = Field(default_factory=list)

    @field_validator("languages")
    @classmethod
    def _languages_once(cls, value: list[str]) -> list[str]:
        twice = sorted({language for language in value if value.count(language) > 1})
        if twice:
            raise ValueError(f"'{twice[0]}' is listed twice")
        return value

    @field_validator("players")
    @classmethod
    def _player_range(cls, value: list[int]) -> list[int]:
        low, high = value
        if not 1 <= low <= high:
            raise ValueError(f"players must be [min, max] with 1 ≤ min ≤ max, got [{low}, {high}]")
        return value


class ComponentSpec(Strict):
    """One component file: how its items look and print. The list of items sits under a key named by the kind."""

    size: str | float | None = None
    shape: Literal["rect", "round", "hex"] = "rect"
    orient: Literal["flat", "pointy"] = "flat"  # hex tiles: flat sides top and bottom, or points
    type: Id | None = None
    front: Id | None = None
    back: Id | None = None
    bleed: float | None = None
    layout: Literal["grid", "fold"] | None = None
    for_each: dict[Id, list[StrictStr | StrictInt]] | None = None
    description: str | None = None
    # pieces: one piece as a shop sells it ("ten-sided die (d10)"), for the print guide's list of what to buy
    buy: str | None = None

    @field_validator("for_each")
    @classmethod
    def _fields_and_values(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None and (not value or not all(value.values())):
            raise ValueError(
                "for_each names fields, each with a non-empty list of its values, e.g. {player: [red, blue]} or "
                "{colour: [red, blue], language: [en, de]}"
            )
        return value

    @field_validator("size")
    @classmethod
    def _size(cls, value: str | float | None) -> str | float | None:
        if value is not None and value not in PAGE_SIZES:
            parse_size(value)
        return value

    @field_validator("bleed")
    @classmethod
    def _bleed(cls, value: float | None) -> float | None:
        return None if value is None else _bleed_length(value)


class ItemTable(Strict):
    """Items kept in a spreadsheet: `cards: {file: units.csv}` or `{file: units.xlsx, sheet: Units}`, or fetched
    from an address (`{url: https://…, format: csv}`: cardgen/remote.py)."""

    file: str | None = None
    url: str | None = Field(default=None, max_length=2000)
    format: Literal["csv", "xlsx"] | None = None  # a fetched table's kind, when neither its address nor it says
    sheet: str | None = None

    @model_validator(mode="after")
    def _file_or_url(self) -> ItemTable:
        if (self.file is None) == (self.url is None):
            raise ValueError("name the items' spreadsheet with file: (in the game folder) or url: (an address)")
        if self.format is not None and self.url is None:
            raise ValueError("format: is for a table fetched from url:; a file says what it is by its suffix")
        return self


def spec_model(kind: str) -> type[ComponentSpec]:
    """The component-file model for a kind: `ComponentSpec` plus the list of items under `cards`/`counters`/…"""
    return _SPEC_MODELS[kind]


_SPEC_MODELS: dict[str, type[ComponentSpec]] = {
    kind: create_model(  # type: ignore[call-overload]  # pydantic's overloads cannot see a field name in a variable
        f"{kind.title()}File",
        __base__=ComponentSpec,
        **{key: (list[dict[str, Any]] | ItemTable, Field(default_factory=list))},
    )
    for kind, key in ITEM_KEY.items()
}


def item_model(type_name: str | None, card_type: CardType | None) -> ItemModel:
    """The strict validator for items of one card type: the reserved keys plus the type's own fields (made once for
    each name and definition: the components of a game share their types)."""
    key = (type_name, card_type.model_dump_json() if card_type else "")
    if key not in _ITEM_MODELS:
        _ITEM_MODELS[key] = ItemModel(type_name, card_type)
    return _ITEM_MODELS[key]


class ItemModel:
    """Validates one item (a flat mapping) into a plain dict of every field, defaults filled in.

    Written as a pydantic-core schema rather than a pydantic model made with `create_model`: making a model runs
    pydantic's schema generation in Python (about a millisecond a card type, 30 ms of loading the bundled games),
    while the core schema below is what that generation produced for these field types, so the errors (types,
    locations, messages) are the ones a model gave.
    """

    def __init__(self, type_name: str | None, card_type: CardType | None):
        fields: dict[str, cs.TypedDictField] = {
            "id": _required(_ID),
            "count": _optional(cs.int_schema(strict=True, ge=0), 1, nullable=False),
            "type": _optional(_ID, None),
            "front": _optional(_ID, None),
            "back": _optional(_ID, None),
            "source": _optional(_SOURCE, None),
        }
        for name, spec in (card_type.fields if card_type else {}).items():
            schema = _field_schema(spec)
            required = spec.required and spec.default is None
            fields[name] = _required(schema) if required else _optional(schema, spec.default)
        self.name = f"Card_{type_name or 'untyped'}".replace("-", "_").replace(".", "_")
        self.fields = tuple(fields)
        config = cs.CoreConfig(title=self.name, allow_inf_nan=False, extra_fields_behavior="forbid")
        self._validator = SchemaValidator(cs.typed_dict_schema(fields, extra_behavior="forbid"), config)

    def validate(self, value: Any) -> dict[str, Any]:
        """The item's values, every field present; raises pydantic-core's `ValidationError`."""
        result: dict[str, Any] = self._validator.validate_python(value)
        return result


_ID = cs.str_schema(pattern=ID_PATTERN, max_length=80)
_TEXT = cs.str_schema(strict=True)
_SOURCE = cs.union_schema([_TEXT, cs.dict_schema(_TEXT, _TEXT)])


def _required(schema: cs.CoreSchema) -> cs.TypedDictField:
    return cs.typed_dict_field(schema, required=True)


def _optional(schema: cs.CoreSchema, default: Any, nullable: bool = True) -> cs.TypedDictField:
    inner = cs.nullable_schema(schema) if nullable else schema
    return cs.typed_dict_field(cs.with_default_schema(inner, default=default), required=False)


def _field_schema(spec: FieldSpec) -> cs.CoreSchema:
    """A card type's field as a core schema: its type, its choices or its bounds (`FieldSpec` allows bounds on
    numbers only)."""
    if spec.choices is not None:
        return cs.literal_schema(list(spec.choices))
    if spec.type in ("str", "text"):
        return cs.str_schema(strict=True)
    if spec.type in ("int", "number"):
        number = (
            cs.int_schema(strict=True)
            if spec.type == "int"
            else cs.union_schema([cs.int_schema(strict=True), cs.float_schema(strict=True, allow_inf_nan=False)])
        )
        if spec.min is None and spec.max is None:
            return number
        return cs.no_info_after_validator_function(functools.partial(_within, ge=spec.min, le=spec.max), number)
    if spec.type == "bool":
        return cs.bool_schema(strict=True)
    if spec.type == "list":
        scalar = cs.union_schema(
            [cs.str_schema(strict=True), cs.int_schema(strict=True), cs.float_schema(strict=True, allow_inf_nan=False)]
        )
        return cs.list_schema(scalar)
    return cs.any_schema()


def _within(value: float, ge: float | None = None, le: float | None = None) -> float:
    """A number field's bounds, with the errors an int's bounds give (`greater_than_equal`, `less_than_equal`)."""
    if ge is not None and not value >= ge:
        raise PydanticKnownError("greater_than_equal", {"ge": ge})
    if le is not None and not value <= le:
        raise PydanticKnownError("less_than_equal", {"le": le})
    return value


_ITEM_MODELS: dict[tuple[str | None, str], ItemModel] = {}
