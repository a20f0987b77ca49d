"""Battlefield: Space's reference engine: `rules` (the engine: the two decks and the facts), `model` (cards, records
and the column total), `state` (the battle as a task stack) and `view` (what the greedy agent weighs). Importing the
package registers the engine."""

from cardgen.engine.games.battlefield_space.model import COLUMNS, NO_CARD, NOBODY, Cards, Mod, Status, column_total
from cardgen.engine.games.battlefield_space.rules import BattlefieldEngine
from cardgen.engine.games.battlefield_space.state import BattlefieldState

__all__ = ["COLUMNS", "NOBODY", "NO_CARD", "BattlefieldEngine", "BattlefieldState", "Cards", "Mod", "Status",
           "column_total"]  # fmt: skip
