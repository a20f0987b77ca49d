"""What changed between two versions of a game: per component the items added, removed and changed (with each field
that changed, old → new), the rules facts and checks that changed, and the checks whose outcome changed.

Items are matched by id within their component (an item that moved to another component is removed from one and
added to the other); an item's values are its copies (`count`), its card type, its layouts and its fields — in every
language it is written in (`name@de`). Two values are the same when they are written the same (`1` and `1.0` are
not). Nothing here reads a file: the two games are loaded already (`versions.source`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardgen.data.games import Component, Game, Item

ITEM_KEYS = ("count", "type", "front", "back")  # what an item holds besides its fields


@dataclass(frozen=True)
class Change:
    """One value that changed: `old` None when it was not there, `new` None when it is gone."""

    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class ItemRef:
    """An item added or removed: its id, what a person calls it and its copies."""

    id: str
    name: str
    count: int


@dataclass(frozen=True)
class ItemChange:
    """An item in both versions whose values differ."""

    id: str
    name: str  # as the new version calls it
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class ComponentChanges:
    """One component: `added` or `removed` whole, or `changed` in its items (or `same`)."""

    id: str
    title: str
    status: str
    added: tuple[ItemRef, ...] = ()
    removed: tuple[ItemRef, ...] = ()
    changed: tuple[ItemChange, ...] = ()


@dataclass(frozen=True)
class RuleChange:
    """A rules fact or check `added`, `removed` or `changed` (with what changed in it)."""

    name: str
    status: str
    changes: tuple[Change, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """A check in both versions whose outcome changed: `holds`, `violated` or `failed` before and after."""

    rule: str
    old: str
    new: str


@dataclass
class GameChanges:
    """Everything that changed from `old` to `new` (the labels say which versions they are)."""

    game: str
    title: str
    old: str
    new: str
    components: list[ComponentChanges]
    facts: list[RuleChange]
    checks: list[RuleChange]
    outcomes: list[Outcome] = field(default_factory=list)
    balance: dict[str, Any] | None = None  # figures that moved, when both versions have a kept balance run

    @property
    def any(self) -> bool:
        """Whether anything changed at all."""
        moved = any(c.status != "same" for c in self.components)
        return moved or bool(self.facts or self.checks or self.outcomes)

    def reprinted(self) -> dict[str, tuple[str, ...]]:
        """Per component, the items whose faces a reprint needs: new ones and changed ones, in the new order."""
        out = {}
        for component in self.components:
            ids = tuple(i.id for i in component.added) + tuple(i.id for i in component.changed)
            if ids:
                out[component.id] = ids
        return out


def values(item: Item) -> dict[str, Any]:
    """What an item holds, as the diff compares it (its translations as `field@lang`)."""
    held: dict[str, Any] = {key: getattr(item, key) for key in ITEM_KEYS}
    held.update(item.fields)
    for name, texts in getattr(item, "translations", {}).items():
        held.update({f"{name}@{lang}": text for lang, text in texts.items()})
    return held


def same(a: Any, b: Any) -> bool:
    """Written the same: `1` is not `1.0` or `true`, and the order of a mapping's keys does not matter."""
    return _written(a) == _written(b)


def _written(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[Change, ...]:
    """The keys whose values differ, in the new mapping's order and then the keys that went."""
    keys = list(dict.fromkeys([*new, *old]))
    return tuple(Change(k, old.get(k), new.get(k)) for k in keys if not same(old.get(k), new.get(k)))


def compare_games(old: Game | None, new: Game, old_label: str, new_label: str) -> GameChanges:
    """What changed from `old` (None: the game did not exist, so everything is new) to `new`."""
    before = {c.id: c for c in old.components} if old else {}
    after = {c.id: c for c in new.components}
    components = [_component(before.get(cid), after.get(cid)) for cid in dict.fromkeys([*after, *before])]
    old_facts = {n: f.model_dump(mode="json") for n, f in old.rules.facts.items()} if old else {}
    new_facts = {n: f.model_dump(mode="json") for n, f in new.rules.facts.items()}
    old_checks = _checks(old.rules.checks if old else [])
    new_checks = _checks(new.rules.checks)
    return GameChanges(
        new.id, new.title, old_label, new_label, components,
        _rules(old_facts, new_facts), _rules(old_checks, new_checks),
    )  # fmt: skip


def _component(old: Component | None, new: Component | None) -> ComponentChanges:
    either = new or old
    assert either is not None
    if old is None or new is None:
        status = "added" if old is None else "removed"
        refs = tuple(ItemRef(i.id, i.name, i.count) for i in either.items)
        return ComponentChanges(either.id, either.title, status, added=refs if new else (), removed=refs if old else ())
    before = {i.id: i for i in old.items}
    now = {i.id: i for i in new.items}
    added = tuple(ItemRef(i.id, i.name, i.count) for i in new.items if i.id not in before)
    removed = tuple(ItemRef(i.id, i.name, i.count) for i in old.items if i.id not in now)
    changed = []
    for item in new.items:
        if item.id in before and (found := changes(values(before[item.id]), values(item))):
            changed.append(ItemChange(item.id, item.name, found))
    status = "changed" if added or removed or changed else "same"
    return ComponentChanges(new.id, new.title, status, added, removed, tuple(changed))


def _checks(checks: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """Checks by their rule (a rule written twice is told apart by its place: `rule (2)`)."""
    out: dict[str, dict[str, Any]] = {}
    for check in checks:
        name, n = check.rule, 1
        while name in out:
            n += 1
            name = f"{check.rule} ({n})"
        out[name] = check.model_dump(mode="json", exclude_defaults=True)
    return out


def _rules(old: Mapping[str, dict[str, Any]], new: Mapping[str, dict[str, Any]]) -> list[RuleChange]:
    out = []
    for name in dict.fromkeys([*new, *old]):
        if name not in old:
            out.append(RuleChange(name, "added", changes({}, new[name])))
        elif name not in new:
            out.append(RuleChange(name, "removed", changes(old[name], {})))
        elif found := changes(old[name], new[name]):
            out.append(RuleChange(name, "changed", found))
    return out


def compare_outcomes(old: Mapping[str, str], new: Mapping[str, str]) -> list[Outcome]:
    """The checks in both versions whose outcome changed, from each version's outcome by rule (`holds`, `violated`,
    `failed`; a check skipped in either version — a checks.py not trusted — is not compared)."""
    return [
        Outcome(rule, old[rule], now)
        for rule, now in new.items()
        if rule in old and old[rule] != now and "skipped" not in (old[rule], now)
    ]
