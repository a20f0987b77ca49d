"""Which games have a reference engine, and building one from a loaded game's data and facts.

Engines register themselves: a module under `cardgen/engine/games/` decorates its engine class with
`@engine("game-id")`; the first request imports every game package's `rules`. Adding an engine is adding a module.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TypeVar

from cardgen.data.games import Game
from cardgen.engine.core import GameEngine
from cardgen.errors import DataError, did_you_mean

E = TypeVar("E", bound=type[GameEngine])

ENGINES: dict[str, Callable[[Game], GameEngine]] = {}
_found = False


def engine(game_id: str) -> Callable[[E], E]:
    """Register an engine class (built with its `from_game`) as the reference engine of a game."""

    def register(cls: E) -> E:
        ENGINES[game_id] = cls.from_game  # type: ignore[attr-defined]
        return cls

    return register


def _discover() -> None:
    global _found
    if not _found:
        from cardgen.engine import games

        for module in pkgutil.iter_modules(games.__path__):
            importlib.import_module(f"{games.__name__}.{module.name}.rules")
        _found = True


def build_engine(game: Game) -> GameEngine:
    """The reference engine of a game, reading the same card data that gets printed."""
    _discover()
    if game.id not in ENGINES:
        hint = did_you_mean(game.id, list(ENGINES))
        raise DataError(f"no reference engine for '{game.id}'{hint}; engines: {', '.join(sorted(ENGINES))}")
    return ENGINES[game.id](game)
