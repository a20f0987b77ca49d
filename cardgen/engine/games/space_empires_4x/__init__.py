"""Space Empires 4X: `combat` (battle resolution shared by the engine and the exact calculator), `odds`
(`cardgen odds`), `rules` (the engine: facts, units, markers, map), `model` (records and actions), `state` (the game)
and `view` (what the greedy agent weighs). Importing `rules` registers the engine;
the package imports each name below when it is first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games import exports

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.rules import SE4XEngine
    from cardgen.engine.games.space_empires_4x.state import SE4XState

__getattr__ = exports(
    __name__,
    {
        "SE4XEngine": "rules",
        "SE4XState": "state",
    },
)
__all__ = ["SE4XEngine", "SE4XState"]
