"""Reading a game's rules file, `engine.yaml`, into its sections: strict, with every problem located.

The file is data from a folder cardgen does not trust: it is read like every other YAML file of a game
(`data/yaml_source.read_yaml`: safe loading, duplicate keys refused, limits on size and nesting, a line for every
value), its sections are checked by the pydantic models below (an unknown key is named with a did-you-mean hint,
`data/validation_errors.py`), and its steps and expressions are compiled later (`steps.py`, `compiler.py`), each
problem named by file, line and field. Nothing in it is ever run as Python.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr, model_validator

from cardgen.data.model import Id, Strict
from cardgen.data.validation_errors import validate
from cardgen.data.yaml_source import YamlDocument, read_yaml
from cardgen.errors import DataError, Location, Problem, display_path
from cardgen.files import display_link, inside

FILE_NAME = "engine.yaml"
NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
Name = Annotated[str, Field(pattern=NAME_PATTERN, max_length=60)]
# an expression: text is parsed (`card.cost + 1`, `line_up.units`), a YAML number or yes/no is itself
Expression = StrictStr | StrictInt | StrictFloat | StrictBool | None
Steps = list[Any]  # compiled by steps.py, which locates each step's problems itself


class CardsFrom(Strict):
    """A component whose items are cards of the game: every copy one card, in the order the data lists them."""

    component: Id = Field(description="the id of a component in game.yaml (a deck, counters, tiles)")
    owner: StrictInt | None = Field(
        default=None, ge=0, le=99, description="the seat its cards belong to (`card.owner`)"
    )
    each: Literal["player"] | None = Field(
        default=None, description="player: a copy of every card for each seat, owned by it"
    )


class Refill(Strict):
    """What a zone drawn from while empty takes in first: the cards of another zone, shuffled or not."""

    from_: Name = Field(alias="from", description="the zone whose cards come in (shaped like this one)")
    shuffle: StrictBool = Field(default=False, description="shuffle them when they come in")


class ZoneSpec(Strict):
    """A zone: one place cards lie (`each: player`: one per seat; `count`: N of them, per seat when both)."""

    each: Literal["player"] | None = Field(
        default=None, description="player: one per seat (`hand[p]`; `hand` alone is the one of `player`)"
    )
    count: Expression = Field(default=None, description="N of them (`column[c]`; `column[p][c]` with each: player)")
    visible: Literal["everyone", "owner", "nobody"] = Field(
        default="everyone", description="who sees its cards: everyone, owner (the others see how many), nobody (a deck)"
    )
    draw: Literal["top", "random"] = Field(
        default="top", description="top: draws take the last card; random: any card, at random (an unordered pile)"
    )
    refill: Refill | None = Field(
        default=None,
        description="drawn from while empty, it first takes in another zone's cards: {from: discard, shuffle: true}",
    )
    size: Expression = Field(default=None, description="a line-up's size (`fill:` deals it full; also a limit)")
    fill_from: Name | None = Field(default=None, description="the zone `fill:` deals a line-up from")
    short: Literal["problem", "allowed"] = Field(
        default="problem",
        description="when fill_from runs out: problem (cardgen play reports it) or allowed (the line-up stays short)",
    )
    limit: Expression = Field(default=None, description="the most cards it may hold (`--check` reports more)")
    accepts: StrictStr | None = Field(
        default=None, description="an expression of `card`: what it may hold, for the search agent's deals"
    )
    about: StrictStr | None = Field(default=None, description="a note for readers")


class ValueSpec(Strict):
    """A number (or a word) the game keeps: a resource, a track, a flag; per seat with `each: player`."""

    each: Literal["player"] | None = Field(
        default=None, description="player: one per seat (`coins[p]`; `coins` alone is the one of `player`)"
    )
    count: Expression = Field(default=None, description="N of them (`bonus[p][c]`)")
    start: Expression = Field(
        default=0, description="its value when the game starts (an expression of `player`; the default: 0)"
    )
    min: Expression = Field(default=None, description="the least it may be (`--check` reports less): 0 for a resource")
    max: Expression = Field(default=None, description="the most it may be")
    about: StrictStr | None = Field(default=None, description="a note for readers")


class VerbSpec(Strict):
    """A verb of the cards' effects: what it means, the keys it takes and the steps it does."""

    meaning: StrictStr = Field(description="one line: what it does (`gain N coins`)")
    keys: dict[Name, list[StrictStr] | Literal["number", "word"]] = Field(
        default_factory=dict, description="its keys and what each takes: number, word, or a list of words"
    )
    do: Steps = Field(
        default_factory=list,
        description="its steps (player, card, amount and the keys are names there); none: a lasting modifier the "
        "rules read with `has`",
    )
    applied: StrictBool = Field(
        default=True, description="false: its steps say themselves when it took effect (`applied:`)"
    )


class EffectsSpec(Strict):
    """Where the cards' effects are written (fields holding statements), their triggers and verbs."""

    fields: list[StrictStr] = Field(
        default_factory=list, description="the card fields holding statements (a text split at `;`, or a list)"
    )
    amount: StrictStr | None = Field(
        default=None, description="a card field giving a statement's number when it gives none (else 1)"
    )
    triggers: list[Name] = Field(
        default_factory=list, description="the words a statement may start with (`play: draw 1`)"
    )
    verbs: dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=60)], VerbSpec] = Field(
        default_factory=dict, description="the verbs statements may use, each with its steps"
    )


class ProcedureSpec(Strict):
    """Named steps with parameters, run by `call:`."""

    params: list[Name] = Field(default_factory=list, description="its parameters, given by `call: … with:`")
    do: Steps = Field(description="its steps")


class FunctionSpec(Strict):
    """A named expression with parameters (`stat(p, kind, 'hp')`)."""

    params: list[Name] = Field(default_factory=list, description="its parameters")
    value: Expression = Field(description="the expression it stands for")


class TableSpec(Strict):
    """A table of card rows by a field's value (`types[kind].hp`): the first item with each value."""

    components: list[Id] = Field(description="the components whose items are its rows")
    key: StrictStr = Field(description="the field a row is found by (the first item with each value)")


class BattleSpec(Strict):
    """A kind of battle: dice (`dice` faces; a unit hits on `hits` or less and takes `health` hits) or `compare`
    (the sides' total strength)."""

    dice: StrictInt = Field(default=6, ge=1, le=1000, description="faces of a die")
    hits: Expression = Field(default=None, description="an expression of x (a unit): it hits on a roll of this or less")
    health: Expression = Field(default=1, description="an expression of x: the hits it takes")
    compare: Expression = Field(
        default=None, description="an expression of x: its strength (the sides' totals compared)"
    )

    @model_validator(mode="after")
    def _one_way(self) -> BattleSpec:
        if (self.hits is None) == (self.compare is None):
            raise ValueError("a battle is fought with dice (hits:, and dice: and health: if not 6 and 1) or by "
                             "compare: (a unit's strength), one of the two")  # fmt: skip
        return self


class GridSpec(Strict):
    """A square grid of spaces, numbered row by row from 0, moved on orthogonally, diagonally or both."""

    columns: StrictInt = Field(ge=1, le=1000, description="spaces across")
    rows: StrictInt = Field(ge=1, le=1000, description="spaces down (space = row × columns + column)")
    moves: Literal["orthogonal", "diagonal", "both"] = Field(
        default="orthogonal", description="which spaces are next to one another"
    )


class BoardSpec(Strict):
    """A board: a grid, or the spaces each space links to (a list of lists, or the name of a fact holding one)."""

    grid: GridSpec | None = Field(default=None, description="a square grid: {columns, rows, moves}")
    links: list[list[StrictInt]] | StrictStr | None = Field(
        default=None, description="each space's neighbours by number, or a fact holding them"
    )

    @model_validator(mode="after")
    def _one_way(self) -> BoardSpec:
        if (self.grid is None) == (self.links is None):
            raise ValueError("a board is a grid: {columns, rows} or links: [[1, 2], [0], …], one of the two")
        return self


class EndSpec(Strict):
    """A way the game ends: a condition, when it is checked, and what the log calls the ending."""

    when: Expression = Field(description="the condition (`player` names the seat whose turn ended, after: turn)")
    after: Literal["action", "turn", "round"] = Field(
        default="turn", description="when it is checked: after every action, turn or round"
    )
    ending: StrictStr = Field(description="what the log and the summary call the ending (text with {expressions})")


class InvariantSpec(Strict):
    """Something that must always hold (`--check` tests it after every action)."""

    check: StrictStr = Field(description="an expression that must be true")
    message: StrictStr = Field(description="what `--check` says when it is not")
    each: Literal["player"] | None = Field(
        default=None, description="player: checked for each seat (`player` names it)"
    )


class Spec(Strict):
    """The whole engine.yaml (the rules reference, `cardgen rules-reference`, describes every key)."""

    players: list[StrictInt] | None = Field(
        default=None, description="[fewest, most] players (the default: game.yaml's)"
    )
    max_actions: StrictInt = Field(
        default=20_000, ge=1, le=10_000_000, description="a game longer than this is a failure (never a hang)"
    )
    turn_cap: StrictInt | None = Field(
        default=None, ge=1, le=1_000_000, description="turns after which a game stops and is judged by its score"
    )
    playout_horizon: StrictInt | None = Field(
        default=None, ge=1, le=1_000_000, description="actions after which a search's playout is judged by evaluate:"
    )
    cards: list[CardsFrom] = Field(default_factory=list, description="the components whose items are the game's cards")
    effects: EffectsSpec = Field(
        default_factory=EffectsSpec, description="the cards' effects: the fields they are in, triggers and verbs"
    )
    zones: dict[Name, ZoneSpec] = Field(default_factory=dict, description="where cards lie (every card starts in box)")
    values: dict[Name, ValueSpec] = Field(default_factory=dict, description="numbers the game keeps: resources, tracks")
    marks: dict[Name, Expression] = Field(
        default_factory=dict, description="numbers each card carries (damage), with their start value"
    )
    tables: dict[Name, TableSpec] = Field(default_factory=dict, description="rows of card data by a field's value")
    boards: dict[Name, BoardSpec] = Field(default_factory=dict, description="boards: which spaces are next to which")
    battles: dict[Name, BattleSpec] = Field(default_factory=dict, description="kinds of battle: dice or compare")
    constants: dict[Name, Expression] = Field(default_factory=dict, description="named values worked out before play")
    functions: dict[Name, FunctionSpec] = Field(default_factory=dict, description="named expressions with parameters")
    procedures: dict[Name, ProcedureSpec] = Field(default_factory=dict, description="named steps with parameters")
    setup: Steps = Field(default_factory=list, description="the steps that set the game up")
    round: Steps = Field(
        default_factory=list,
        description="the steps of a round, played again and again until the game ends (the "
        "default: every player's turn:)",
    )
    turn: Steps = Field(default_factory=list, description="the steps of one player's turn (`player` names them)")
    end: list[EndSpec] = Field(
        default_factory=list, description="conditions that end the game, and when they are checked"
    )
    score: Expression = Field(default=0, description="each player's score at the end (`player` names them)")
    tiebreak: list[Expression] = Field(default_factory=list, description="what decides between equal scores, in order")
    draws: Literal["split", "shared"] = Field(
        default="split", description="tied winners split one win (split) or each score one (shared)"
    )
    evaluate: dict[StrictStr, StrictInt | StrictFloat] = Field(
        default_factory=dict, description="the greedy agent's weights: expression of `player` → weight"
    )
    invariants: list[InvariantSpec] = Field(default_factory=list, description="what must always hold (--check)")


def rules_file(folder: Path) -> Path | None:
    """The game folder's engine.yaml, or None when it has none (a symbolic link out of the folder is refused)."""
    path = folder / FILE_NAME
    if not path.exists() and not path.is_symlink():
        return None
    if not inside(path, folder):
        raise DataError(f"{display_link(path)}: lies outside the game folder (a symbolic link)")
    return path


def read_spec(path: Path) -> tuple[Spec, YamlDocument]:
    """The rules file's sections, or a `DataError` with every located problem of its structure."""
    doc = read_yaml(path)
    if not isinstance(doc.value, dict):
        where = Location(display_path(path), 1)
        raise DataError([*doc.problems, Problem(where, "engine.yaml must be a mapping (zones: …, turn: …)")])
    spec, problems = validate(Spec, doc.value, doc)
    problems = [*doc.problems, *problems]
    if problems or spec is None:
        raise DataError(problems)
    assert isinstance(spec, Spec)
    return spec, doc
