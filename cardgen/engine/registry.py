"""Which games have a reference engine, and building one from a loaded game's data and facts.

A game folder holding a rules file (`engine.yaml`) is played from it by the one interpreter of described games
(cardgen/engine/described/), whoever made the folder: the designer's description wins. Otherwise a game's engine is
the one its package's plugin names (cardgen/engine/plugin.py); its rules are imported when a game of it is first
built, never to list the engines.
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
    """The reference engine of a game, reading the same card data that gets printed: its rules file's, if it has
    one, else its plugin's."""
    from cardgen.engine.described.source import rules_file

    if rules_file(game.folder) is not None:
        from cardgen.engine.described.engine import DescribedEngine

        return DescribedEngine.from_game(game)
    if game.id not in ENGINES:
        plugin = plugins().get(game.id)
        factory = plugin.engine_factory() if plugin else None
        if factory is None:
            names = engine_ids()
            raise DataError(
                f"no reference engine for '{game.id}'{did_you_mean(game.id, names)}; engines: {', '.join(names)}; "
                "describe its rules in an engine.yaml beside its cards to play it (cardgen rules-reference)"
            )
        ENGINES[game.id] = factory
    return ENGINES[game.id](game)
