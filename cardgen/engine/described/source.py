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
from cardgen.files import inside

FILE_NAME = "engine.yaml"
NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
Name = Annotated[str, Field(pattern=NAME_PATTERN, max_length=60)]
# an expression: text is parsed (`card.cost + 1`, `line_up.units`), a YAML number or yes/no is itself
Expression = StrictStr | StrictInt | StrictFloat | StrictBool | None
Steps = list[Any]  # compiled by steps.py, which locates each step's problems itself


class CardsFrom(Strict):
    """A component whose items are cards of the game: every copy one card, in the order the data lists them."""

    component: Id
    owner: StrictInt | None = Field(default=None, ge=0, le=99)
    each: Literal["player"] | None = None


class Refill(Strict):
    """What a zone drawn from while empty takes in first: the cards of another zone, shuffled or not."""

    from_: Name = Field(alias="from")
    shuffle: StrictBool = False


class ZoneSpec(Strict):
    """A zone: one place cards lie (`each: player`: one per seat; `count`: N of them, per seat when both)."""

    each: Literal["player"] | None = None
    count: Expression = None
    visible: Literal["everyone", "owner", "nobody"] = "everyone"
    draw: Literal["top", "random"] = "top"
    refill: Refill | None = None
    size: Expression = None
    fill_from: Name | None = None
    limit: Expression = None
    accepts: StrictStr | None = None
    about: StrictStr | None = None


class ValueSpec(Strict):
    """A number (or a word) the game keeps: a resource, a track, a flag; per seat with `each: player`."""

    each: Literal["player"] | None = None
    count: Expression = None
    start: Expression = 0
    min: Expression = None
    max: Expression = None
    about: StrictStr | None = None


class VerbSpec(Strict):
    """A verb of the cards' effects: what it means, the keys it takes and the steps it does."""

    meaning: StrictStr
    keys: dict[Name, list[StrictStr] | Literal["number", "word"]] = Field(default_factory=dict)
    do: Steps = Field(default_factory=list)
    applied: StrictBool = True


class EffectsSpec(Strict):
    """Where the cards' effects are written (fields holding statements), their triggers and verbs."""

    fields: list[StrictStr] = Field(default_factory=list)
    amount: StrictStr | None = None
    triggers: list[Name] = Field(default_factory=list)
    verbs: dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=60)], VerbSpec] = Field(
        default_factory=dict
    )


class ProcedureSpec(Strict):
    """Named steps with parameters, run by `call:`."""

    params: list[Name] = Field(default_factory=list)
    do: Steps


class FunctionSpec(Strict):
    """A named expression with parameters (`stat(p, kind, 'hp')`)."""

    params: list[Name] = Field(default_factory=list)
    value: Expression


class TableSpec(Strict):
    """A table of card rows by a field's value (`types[kind].hp`): the first item with each value."""

    components: list[Id]
    key: StrictStr


class BattleSpec(Strict):
    """A kind of battle: dice (`dice` faces; a unit hits on `hits` or less and takes `health` hits) or `compare`
    (the sides' total strength)."""

    dice: StrictInt = Field(default=6, ge=1, le=1000)
    hits: Expression = None
    health: Expression = 1
    compare: Expression = None

    @model_validator(mode="after")
    def _one_way(self) -> BattleSpec:
        if (self.hits is None) == (self.compare is None):
            raise ValueError("a battle is fought with dice (hits:, and dice: and health: if not 6 and 1) or by "
                             "compare: (a unit's strength), one of the two")  # fmt: skip
        return self


class GridSpec(Strict):
    """A square grid of spaces, numbered row by row from 0, moved on orthogonally, diagonally or both."""

    columns: StrictInt = Field(ge=1, le=1000)
    rows: StrictInt = Field(ge=1, le=1000)
    moves: Literal["orthogonal", "diagonal", "both"] = "orthogonal"


class BoardSpec(Strict):
    """A board: a grid, or the spaces each space links to (a list of lists, or the name of a fact holding one)."""

    grid: GridSpec | None = None
    links: list[list[StrictInt]] | StrictStr | None = None

    @model_validator(mode="after")
    def _one_way(self) -> BoardSpec:
        if (self.grid is None) == (self.links is None):
            raise ValueError("a board is a grid: {columns, rows} or links: [[1, 2], [0], …], one of the two")
        return self


class EndSpec(Strict):
    """A way the game ends: a condition, when it is checked, and what the log calls the ending."""

    when: Expression
    after: Literal["action", "turn", "round"] = "turn"
    ending: StrictStr


class InvariantSpec(Strict):
    """Something that must always hold (`--check` tests it after every action)."""

    check: StrictStr
    message: StrictStr
    each: Literal["player"] | None = None


class Spec(Strict):
    """The whole engine.yaml (the rules reference, `cardgen rules-reference`, describes every key)."""

    players: list[StrictInt] | None = None
    max_actions: StrictInt = Field(default=20_000, ge=1, le=10_000_000)
    turn_cap: StrictInt | None = Field(default=None, ge=1, le=1_000_000)
    playout_horizon: StrictInt | None = Field(default=None, ge=1, le=1_000_000)
    cards: list[CardsFrom] = Field(default_factory=list)
    effects: EffectsSpec = Field(default_factory=EffectsSpec)
    zones: dict[Name, ZoneSpec] = Field(default_factory=dict)
    values: dict[Name, ValueSpec] = Field(default_factory=dict)
    marks: dict[Name, Expression] = Field(default_factory=dict)
    tables: dict[Name, TableSpec] = Field(default_factory=dict)
    boards: dict[Name, BoardSpec] = Field(default_factory=dict)
    battles: dict[Name, BattleSpec] = Field(default_factory=dict)
    constants: dict[Name, Expression] = Field(default_factory=dict)
    functions: dict[Name, FunctionSpec] = Field(default_factory=dict)
    procedures: dict[Name, ProcedureSpec] = Field(default_factory=dict)
    setup: Steps = Field(default_factory=list)
    round: Steps = Field(default_factory=list)
    turn: Steps = Field(default_factory=list)
    end: list[EndSpec] = Field(default_factory=list)
    score: Expression = 0
    tiebreak: list[Expression] = Field(default_factory=list)
    draws: Literal["split", "shared"] = "split"
    evaluate: dict[StrictStr, StrictInt | StrictFloat] = Field(default_factory=dict)
    invariants: list[InvariantSpec] = Field(default_factory=list)


def rules_file(folder: Path) -> Path | None:
    """The game folder's engine.yaml, or None when it has none (a symbolic link out of the folder is refused)."""
    path = folder / FILE_NAME
    if not path.exists() and not path.is_symlink():
        return None
    if not inside(path, folder):
        raise DataError(f"{display_path(path)}: lies outside the game folder (a symbolic link)")
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
