"""Star Commander's reference engine: `rules` (the engine: facts and cards), `model` (records, actions and the effect
vocabulary the card data's `effects` are written in), `state` (the game) and `view` (what the greedy agent weighs).
Importing `rules` registers the engine;
the package imports each name below when it is first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games import exports

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.rules import StarEngine
    from cardgen.engine.games.star_commander.state import StarState

__getattr__ = exports(
    __name__,
    {
        "StarEngine": "rules",
        "StarState": "state",
    },
)
__all__ = ["StarEngine", "StarState"]
