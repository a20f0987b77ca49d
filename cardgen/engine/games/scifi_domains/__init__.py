"""Scifi Domains' reference engine: `rules` (the engine: facts and cards), `model` (records, phases and the formulas
the rules fix), `state` (the round), `battle` (combat phases with the player's choices), `actions` (typed actions,
imported from there) and `view` (what the greedy agent weighs). Importing the package registers the engine."""

from cardgen.engine.games.scifi_domains.model import Phase, Source, Unit
from cardgen.engine.games.scifi_domains.rules import ScifiEngine
from cardgen.engine.games.scifi_domains.state import ScifiState

__all__ = ["Phase", "ScifiEngine", "ScifiState", "Source", "Unit"]
