"""What every check shares: the violation it reports, the context it runs in, and how it reads `{fact: name}`
values and citations. (`checks` holds the check kinds and their table; `facts` the fact checks and the `table` kind;
both build on this module.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardgen.data.games import Component, Game, Item
from cardgen.data.rules import Check

if TYPE_CHECKING:
    from cardgen.render.contrast import TextContrast
    from cardgen.render.jobs import FittedText


@dataclass(frozen=True)
class Violation:
    """A rule the data breaks: the rule, its rulebook citation, expected and actual values, and where."""

    rule: str
    citation: str
    expected: Any
    actual: Any
    where: str

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "citation": self.citation, "expected": self.expected, "actual": self.actual,
                "where": self.where}  # fmt: skip

    def __str__(self) -> str:
        return f"{self.where}: {self.rule}: expected {self.expected}, found {self.actual} [{self.citation}]"


@dataclass(frozen=True)
class Context:
    """What a check needs besides the game: the text-fitting hook, a component's text as the print pipeline sets it,
    and the contrast hook, its texts against what the print pipeline draws under them (both absent when layouts are
    not checked)."""

    game: Game
    fitted: Callable[[Component], FittedText] | None = None
    checks_sha256: str | None = None  # the checks.py the user trusted: only those bytes run (None: any)
    contrast: Callable[[Component, str], list[TextContrast]] | None = None  # a component's texts' contrast, by ink


def located(item: Item, name: str) -> str:
    """Where a check found something wrong with one field of an item: `file:line (item.field)`."""
    where = item.field_where(name)
    return f"{where.file}:{where.line} ({item.id}.{name})"


def resolve(game: Game, value: Any) -> Any:
    """A check value, with `{fact: name}` replaced by the fact's value."""
    if isinstance(value, dict) and set(value) == {"fact"}:
        return game.fact(str(value["fact"]))
    return value


def citation(game: Game, check: Check, *values: Any) -> str:
    """The check's own citation, else the citation of the first fact it refers to."""
    if check.cite:
        return check.cite
    for value in values:
        if isinstance(value, dict) and set(value) == {"fact"}:
            return game.cite(str(value["fact"]))
    return "designed (no rulebook citation)"
