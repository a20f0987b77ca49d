"""What a game package tells the generic layer: its engine, its battle calculator, its formulas and their options.

Each package under `cardgen/engine/games/` exports `PLUGIN`, a `GamePlugin` naming its parts by module path: reading
it imports nothing of the game, so `cardgen --help`, listing the engines and printing a game stay quick, and a game's
rules load only when something asks for them. `cli.py`, `formulas.py` and `registry.py` read the games from here and
name none; a sixth game is a sixth package with a `PLUGIN`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardgen.data.games import Game
    from cardgen.engine.battle import BattleReport
    from cardgen.engine.core import GameEngine


@dataclass(frozen=True)
class Option:
    """One command-line option of a game's calculator (`cardgen odds GAME --terrain nebula`), handed to the calculator
    as the keyword its name spells (`--planet-upgrades` → `planet_upgrades`). Text unless `flag` or `choices`."""

    name: str
    help: str
    flag: bool = False
    choices: tuple[str, ...] = ()  # the words it takes, in any case
    default: str | None = None
    required: bool = False

    @property
    def keyword(self) -> str:
        return self.name.removeprefix("--").replace("-", "_")

    def given(self, value: object) -> bool:
        """Whether the command line set it: a flag on, a text not empty, a choice other than its default."""
        return bool(value) and value != self.default


@dataclass(frozen=True)
class Calculator:
    """A game's exact battle calculator: `odds(game, attacker, defender, *, retreat, **options)` in `module`, returning
    a `BattleReport`, with the options it takes beyond the two fleets (its keyword arguments) and a fleet of each side
    as its players write them, for the usage error and `--help`."""

    module: str
    attacker: str
    defender: str
    where: Callable[[Mapping[str, Any]], str]  # the battlefield the options describe ("nebula", "ground, home system")
    options: tuple[Option, ...] = ()

    def calculate(
        self, game: Game, attacker: str, defender: str, retreat: bool, options: Mapping[str, Any]
    ) -> BattleReport:
        """The module's `odds` on two fleets, with the options this calculator takes (by keyword)."""
        report: BattleReport = importlib.import_module(self.module).odds(
            game, attacker, defender, retreat=retreat, **options
        )
        return report


@dataclass(frozen=True)
class GamePlugin:
    """One game's parts, by module path: its engine (`module:Class`, built with the class's `from_game`), its battle
    calculator (`cardgen odds`) and the module whose `FORMULAS` (or `formulas_for(game)`) its layouts call as
    `formula.<name>` (cardgen/formulas.py). A game without one of them leaves it None."""

    id: str
    title: str  # as its game.yaml says it, for `cardgen odds --help`
    engine: str | None = None
    odds: Calculator | None = None
    formulas: str | None = None

    def engine_factory(self) -> Callable[[Game], GameEngine] | None:
        """The engine class's `from_game`, importing the game's rules (None for a game without an engine)."""
        if self.engine is None:
            return None
        module, _, name = self.engine.partition(":")
        factory: Callable[[Game], GameEngine] = getattr(importlib.import_module(module), name).from_game
        return factory


@cache
def plugins() -> dict[str, GamePlugin]:
    """Every game package's plugin by game id, in the packages' order (importing each package's `__init__` only)."""
    from cardgen.engine import games

    found: dict[str, GamePlugin] = {}
    for package in pkgutil.iter_modules(games.__path__):
        if package.ispkg:
            plugin: GamePlugin = importlib.import_module(f"{games.__name__}.{package.name}").PLUGIN
            found[plugin.id] = plugin
    return found
