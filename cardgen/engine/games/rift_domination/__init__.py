"""Rift Domination: `battle` (the battle rules: exact odds and one battle rolled, shared by the calculator and the
engine), `odds` (`cardgen odds rift-domination`), `rules` (the engine: facts, units, factions, OCC deck, planets, the
board as a graph of points), `model` (records, actions, the effect vocabulary), `state` (the game) and `view` (what
the greedy agent weighs). Importing `rules` registers the engine;
the package imports each name below when it is first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games import exports

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.rules import RiftEngine
    from cardgen.engine.games.rift_domination.state import RiftState

__getattr__ = exports(
    __name__,
    {
        "RiftEngine": "rules",
        "RiftState": "state",
    },
)
__all__ = ["RiftEngine", "RiftState"]
