"""Which games have a reference engine, and building one from a loaded game's data and facts.

A game's engine is the one its package's plugin names (cardgen/engine/plugin.py); its rules are imported when a
game of it is first built, never to list the engines.
"""

from __future__ import annotations

from collections.abc import Callable

from cardgen.data.games import Game
from cardgen.engine.core import GameEngine
from cardgen.engine.plugin import plugins
from cardgen.errors import DataError, did_you_mean

# game id → how to build its engine, filled from the plugins as games are built (a test puts a toy game's here)
ENGINES: dict[str, Callable[[Game], GameEngine]] = {}


def engine_ids() -> list[str]:
    """The games with a reference engine."""
    return sorted(set(ENGINES) | {plugin.id for plugin in plugins().values() if plugin.engine})


def build_engine(game: Game) -> GameEngine:
    """The reference engine of a game, reading the same card data that gets printed."""
    if game.id not in ENGINES:
        plugin = plugins().get(game.id)
        factory = plugin.engine_factory() if plugin else None
        if factory is None:
            names = engine_ids()
            raise DataError(
                f"no reference engine for '{game.id}'{did_you_mean(game.id, names)}; engines: {', '.join(names)}"
            )
        ENGINES[game.id] = factory
    return ENGINES[game.id](game)
