"""The cards' effects of a described game: statements in the framework's one effects grammar, verbs from the rules.

A card's effects are written in its own fields (`effects: fields: [effect]` names them; a spreadsheet's `effect`
column, statements separated by `;`): `gain 2`, `play: draw 1`, `attacked: block`. They are read with the same
`Vocabulary` every bundled game uses (`engine/effects.py`), declared here from the rules file's `verbs:` — each verb's
meaning, its keys (`number`, `word`, or a list of words) and its steps, which run with `player`, `card`, `amount`
and the keys as names. A statement that does not parse is a data problem `cardgen play` reports with the card's
file and line; the card then plays without it, never silently.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from cardgen.data.games import Game
from cardgen.engine.described.compiler import Frame, Scope
from cardgen.engine.described.layout import Card
from cardgen.engine.described.source import Spec
from cardgen.engine.described.steps import Block, StepCompiler
from cardgen.engine.effects import AMOUNT_MOST, Arg, Effect, Name, Number, OneOf, Vocabulary
from cardgen.errors import clipped

if TYPE_CHECKING:
    from cardgen.engine.described.build import Builder
    from cardgen.engine.described.engine import DescribedEngine

UNSET = AMOUNT_MOST + 1  # a statement's amount when it gives none (a card field or 1 takes its place)
STANDARD = ("player", "card", "amount")


class Verb:
    """A compiled verb: its steps, the frame they run in, the slots of its names, and its keys' kinds."""

    def __init__(self, block: Block, frame: Frame, slots: dict[str, int], numbers: set[str], applied: bool):
        self.block, self.size, self.slots, self.numbers, self.applied = block, frame.size, slots, numbers, applied
        self.keys = [key for key in slots if key not in STANDARD]

    def frame(self, effect: Effect, card: Card, player: int, engine: DescribedEngine) -> list[Any]:
        """The locals a statement's steps start with."""
        env: list[Any] = [None] * self.size
        slots = self.slots
        env[slots["player"]], env[slots["card"]], env[slots["amount"]] = player, card, effect.amount
        for key in self.keys:
            value = effect.opt(key) or None
            env[slots[key]] = int(value) if value is not None and key in self.numbers else value
        return env


def verbs(builder: Builder, steps: StepCompiler) -> dict[str, Verb]:
    """Every verb of `effects: verbs:` compiled (its steps see player, card, amount and its keys)."""
    compiled = {}
    for name, spec in builder.spec.effects.verbs.items():
        frame = Frame()
        scope = Scope(frame)
        slots = {standard: scope.bind(standard) for standard in STANDARD}
        for key in spec.keys:
            if key in STANDARD:
                builder.problem(f"a verb's key may not be called '{key}'", ("effects", "verbs", name, "keys", key))
                continue
            slots[key] = scope.bind(key)
        numbers = {key for key, kind in spec.keys.items() if kind == "number"}
        block = steps.block(spec.do, scope, ("effects", "verbs", name, "do"))
        compiled[name] = Verb(block, frame, slots, numbers, spec.applied)
    return compiled


def vocabulary(spec: Spec, title: str) -> Vocabulary:
    """The game's verbs as the effects grammar reads them."""
    declared = Vocabulary(title, triggers=spec.effects.triggers, amount=UNSET)
    for name, verb in spec.effects.verbs.items():
        keys: dict[str, Arg] = {}
        for key, kind in verb.keys.items():
            keys[key] = Number() if kind == "number" else Name("a word") if kind == "word" else OneOf(tuple(kind))
        declared.verb(name, verb.meaning, keys)
    return declared


def read_effects(engine: DescribedEngine, game: Game, spec: Spec) -> tuple[tuple[tuple[Effect, ...], ...], list[str]]:
    """Each card's statements (every copy of an item reads the same), and the problems met reading them."""
    if not spec.effects.fields:
        return tuple(() for _ in engine.cards.cards), []
    grammar = vocabulary(spec, game.title)
    cards = engine.cards
    amount_field = spec.effects.amount
    parsed: dict[tuple[str, str], tuple[Effect, ...]] = {}
    problems: list[str] = []
    items = {(component.id, item.id): item for component, item in game.items()}
    for key, item in items.items():
        if key[0] not in cards.by_component:
            continue
        found: list[Effect] = []
        for name in spec.effects.fields:
            for statement in _statements(item.fields.get(name)):
                try:
                    effect = grammar.parse(statement)
                except ValueError as exc:
                    problems.append(f"{item.field_where(name)}: effect '{clipped(statement, 60)}' cannot be executed "
                                    f"({exc}); the card plays without it")  # fmt: skip
                    continue
                if effect.amount == UNSET:
                    given = item.fields.get(amount_field) if amount_field else None
                    effect = dataclasses.replace(effect, amount=given if isinstance(given, int) else 1)
                found.append(effect)
        parsed[key] = tuple(found)
    statements = tuple(parsed.get((cards.component[c], cards.item[c]), ()) for c in cards.cards)
    return statements, problems


def _statements(value: Any) -> list[str]:
    """A field's statements: a text split at ';', or a list of texts."""
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [str(part).strip() for part in value if str(part).strip()]
    return [part.strip() for part in str(value).split(";") if part.strip()]
