"""Which games have a reference engine, and building one from a loaded game's data and facts."""

from __future__ import annotations

from collections.abc import Callable

from cardgen.data.games import Game
from cardgen.engine.core import GameEngine
from cardgen.errors import DataError, did_you_mean


def _battlefield(game: Game) -> GameEngine:
    from cardgen.engine.games.battlefield_space import BattlefieldEngine

    return BattlefieldEngine.from_game(game)


def _scifi(game: Game) -> GameEngine:
    from cardgen.engine.games.scifi_domains import ScifiEngine

    return ScifiEngine.from_game(game)


ENGINES: dict[str, Callable[[Game], GameEngine]] = {
    "battlefield-space": _battlefield,
    "scifi-domains": _scifi,
}


def build_engine(game: Game) -> GameEngine:
    """The reference engine of a game, reading the same card data that gets printed."""
    if game.id not in ENGINES:
        hint = did_you_mean(game.id, list(ENGINES))
        raise DataError(f"no reference engine for '{game.id}'{hint}; engines: {', '.join(ENGINES)}")
    return ENGINES[game.id](game)
