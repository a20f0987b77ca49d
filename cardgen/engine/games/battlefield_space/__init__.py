"""Battlefield: Space's reference engine: `rules` (the engine: the two decks and the facts), `model` (cards, records
and the column total), `state` (the battle as a task stack) and `view` (what the greedy agent weighs). Importing `rules`
registers the engine; the package imports each name below when it is first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games import exports

if TYPE_CHECKING:
    from cardgen.engine.games.battlefield_space.model import COLUMNS, NO_CARD, NOBODY, Cards, Mod, Status, column_total
    from cardgen.engine.games.battlefield_space.rules import BattlefieldEngine
    from cardgen.engine.games.battlefield_space.state import BattlefieldState

__getattr__ = exports(
    __name__,
    {
        "COLUMNS": "model",
        "NO_CARD": "model",
        "NOBODY": "model",
        "Cards": "model",
        "Mod": "model",
        "Status": "model",
        "column_total": "model",
        "BattlefieldEngine": "rules",
        "BattlefieldState": "state",
    },
)
__all__ = [
    "COLUMNS",
    "NOBODY",
    "NO_CARD",
    "BattlefieldEngine",
    "BattlefieldState",
    "Cards",
    "Mod",
    "Status",
    "column_total",
]
