"""Star Commander's reference engine: `rules` (the engine: facts and cards), `model` (records, actions and the effect
vocabulary the card data's `effects` are written in), `state` (the game) and `view` (what the greedy agent weighs).
Importing the package registers the engine."""

from cardgen.engine.games.star_commander.rules import StarEngine
from cardgen.engine.games.star_commander.state import StarState

__all__ = ["StarEngine", "StarState"]
