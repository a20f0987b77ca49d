"""`--only`: which components of a game a build prints, and which of their items.

Each `--only` value names components (`ships,tokens`) or chosen items of one component (`ships:scout,frigate`); the
option may be given several times (`--only ships:scout --only tokens`). A build keeps the values as written, one
component each (`BuildRequest.only`: `("ships:frigate,scout", "tokens")`), so the request stays plain text; `select`
turns them into games holding only what was chosen, every copy of each chosen item. The whole game is still
loaded and validated, and a layout still reads every component (`Game.readable`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from cardgen.errors import did_you_mean

if TYPE_CHECKING:
    from cardgen.data import Game

OPTION = "--only"


def parse_only(values: Iterable[str]) -> tuple[str, ...] | None:
    """The `--only` values as a build keeps them: one entry per component, `NAME` or `NAME:ID,ID` with its ids in
    the order given and each once (a component named twice keeps every item asked for; named alone, all of them).
    None when no value was given."""
    chosen: dict[str, list[str] | None] = {}
    given = False
    for value in values:
        given = True
        name, colon, ids = value.partition(":")
        if colon:
            name = name.strip()
            items = [i.strip() for i in ids.split(",") if i.strip()]
            if not name or not items:
                raise click.BadParameter(
                    f"'{value}' is not COMPONENT:ID,ID (e.g. ships:scout,frigate)", param_hint=OPTION
                )
            if name not in chosen:
                chosen[name] = []
            known = chosen[name]
            if known is not None:
                known.extend(i for i in items if i not in known)
            continue
        for part in (p.strip() for p in value.split(",")):
            if part:
                chosen[part] = None  # the whole component, whatever else asked for some of it
    if not given:
        return None
    return tuple(name if items is None else f"{name}:{','.join(items)}" for name, items in chosen.items())


def choices(only: Iterable[str]) -> dict[str, tuple[str, ...] | None]:
    """`parse_only`'s entries as component → the ids chosen (None: every item)."""
    out: dict[str, tuple[str, ...] | None] = {}
    for entry in only:
        name, colon, ids = entry.partition(":")
        out[name] = tuple(ids.split(",")) if colon else None
    return out


def select(games: list[Game], only: Iterable[str]) -> list[Game]:
    """The games with only the chosen components and items (each component must belong to at least one game, each
    id to its component); a game left with nothing is left out."""
    chosen = choices(only)
    known = {c.id: c for game in games for c in game.components}
    for name, ids in chosen.items():
        if name not in known:
            raise click.BadParameter(f"no component '{name}'{did_you_mean(name, sorted(known))}", param_hint=OPTION)
        items = [item.id for game in games for c in game.components if c.id == name for item in c.items]
        for item_id in ids or ():
            if item_id not in items:
                hint = did_you_mean(item_id, items)
                raise click.BadParameter(f"no item '{item_id}' in component '{name}'{hint}", param_hint=OPTION)
    selected = []
    for game in games:
        components = []
        for component in game.components:
            if component.id not in chosen:
                continue
            ids = chosen[component.id]
            if ids is not None:
                component = dataclasses.replace(component, items=tuple(i for i in component.items if i.id in ids))
            components.append(component)
        if components:
            selected.append(dataclasses.replace(game, components=tuple(components),
                                                readable=game.readable or game.components))  # fmt: skip
    return selected


__all__ = ["choices", "parse_only", "select"]
