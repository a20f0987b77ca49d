"""A game's rules facts, checks and contradictions: `card_data/<game-id>/rules.yaml`.

Every number a rulebook fixes lives here once, with a citation of the rulebook section it comes from. The validator
checks the card data against these facts, reference sheets print them (layouts see them as `facts`), and the engines
read them. The file has three parts::

    facts:
      deck_size: {value: 72, cite: "How to Play — 'two decks of 72 cards each'"}
      line_up:
        value: {2: 4, 3: 5, 4: 6}
        cite: "Misc. Rules — Number of cards to maintain in each of the 3 Line-ups"
    checks:
      - {rule: The red deck has 72 cards, check: count, component: red-deck, expect: {fact: deck_size}}
    contradictions:
      - topic: Name of the basic resource
        readings:
          - {text: "Material", cite: "Misc. Rules — starting resources"}
          - {text: "Metal", cite: "Phase 3 — Build and Research"}
        followed: Metal
        why: The rules of play use Metal throughout; Material appears once.

A value may refer to a fact instead of repeating it: `{fact: name}` or `{fact: name.key}` for a part of it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from cardgen.data.model import Id, Strict


class Fact(Strict):
    """One figure (or table) a rulebook fixes, with its citation; `origin: designed` marks our own decisions.

    A rulebook fact is checked against its quote (`quote:`, or the 'quoted words' in `cite`); `check: none` with a
    `reason` says why it cannot be; `derive:` recomputes it from other facts (see `cardgen.validate.facts`).
    """

    value: Any
    cite: str
    quote: str | dict[str | int, str] | None = None
    check: Literal["quote", "none"] = "quote"
    reason: str | None = None
    derive: str | None = None
    note: str | None = None
    origin: Literal["rulebook", "designed", "facts"] = "rulebook"

    @model_validator(mode="after")
    def _reason_given(self) -> Fact:
        if self.check == "none" and not (self.reason and self.reason.strip()):
            raise ValueError("a fact with check: none needs a reason saying why its quote cannot show its value")
        return self


class Target(Strict):
    """What a reference must resolve to: values of a field in a component (or any component), or a fact's list."""

    component: Id | None = None
    field: str = "id"
    fact: str | None = None


class Check(Strict):
    """One declarative check. Which keys matter depends on `check` (see docs/guide/rules-and-checks.md)."""

    rule: str
    check: Literal[
        "count",
        "composition",
        "range",
        "required",
        "unique",
        "reference",
        "line-up",
        "text-fits",
        "min-text-size",
        "text-contrast",
        "custom",
        "implies",
        "any-of",
        "per-player",
        "sum",
        "matches",
        "table",
    ]
    cite: str | None = None
    component: Id | None = None
    components: list[Id] | None = None
    where: dict[str, Any] | None = None
    field: str | None = None
    fields: list[str] | None = None
    expect: Any = None
    min: Any = None
    max: Any = None
    target: Target | None = None
    line_up: Any = None
    held: Any = None
    function: str | None = None
    then: dict[str, Any] | None = None
    pattern: str | None = None
    per_player: Any = None
    args: dict[str, Any] = Field(default_factory=dict)

    @field_validator("rule")
    @classmethod
    def _rule_named(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a check needs a rule name that says what it checks")
        return value


class Reading(Strict):
    """One way a contradictory rulebook can be read, with where it says so."""

    text: str
    cite: str


class Contradiction(Strict):
    """Where a rulebook contradicts itself or is silent: the readings, the one cardgen follows, and why."""

    topic: str
    readings: Annotated[list[Reading], Field(min_length=1)]
    followed: str
    why: str
    kind: Literal["contradiction", "gap", "ambiguity"] = "contradiction"


class Source(Strict):
    """A document the game's quotes come from (a rulebook, an FAQ): its path inside the folder that
    `cardgen validate --sources DIR` is given (`rulebook.txt`, `rulebooks/core.txt`), and a title for people."""

    file: str
    title: str | None = None

    @field_validator("file")
    @classmethod
    def _inside_the_folder(cls, value: str) -> str:
        parts = value.split("/")
        if not value.strip() or "\\" in value or "\0" in value or value.startswith("/") or ".." in parts or "" in parts:
            raise ValueError(f"a source is a path inside the --sources folder, like rulebooks/core.txt, got {value!r}")
        return value


class Rules(Strict):
    """The whole rules.yaml of a game."""

    sources: list[Source] = Field(default_factory=list)
    facts: dict[Id, Fact] = Field(default_factory=dict)
    checks: list[Check] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
