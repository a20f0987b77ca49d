"""Space Empires 4X: `combat` (battle resolution shared by the engine and the exact calculator), `odds`
(`cardgen odds`), `rules` (the engine: facts, units, markers, map), `model` (records and actions), `state` (the game)
and `view` (what the greedy agent weighs). Importing the package registers the engine."""

from cardgen.engine.games.space_empires_4x.rules import SE4XEngine
from cardgen.engine.games.space_empires_4x.state import SE4XState

__all__ = ["SE4XEngine", "SE4XState"]
