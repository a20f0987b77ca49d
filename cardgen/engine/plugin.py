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
    from cardgen.engine.core import GameEngine
    from cardgen.engine.dice import BattleReport


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
    where: Callable[[Mapping[str, Any]], str]  # where the options say it is fought ("nebula", "ground, home system")
    options: tuple[Option, ...] = ()

    def stray(self, given: Mapping[str, Any]) -> list[str]:
        """The options given (by keyword: every calculator's) that this one does not take."""
        own = {option.name for option in self.options}
        return [name for name, (_, option) in calculator_options().items()
                if name not in own and option.given(given[option.keyword])]  # fmt: skip

    def missing(self, given: Mapping[str, Any]) -> list[str]:
        """Its required options not given."""
        return [option.name for option in self.options if option.required and not option.given(given[option.keyword])]

    def own(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The options it takes, by keyword, from every calculator's."""
        return {option.keyword: given[option.keyword] for option in self.options}

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
    calculator (`cardgen odds`), the module whose `FORMULAS` (or `formulas_for(game)`) its layouts call as
    `formula.<name>` (cardgen/formulas.py) and the `Vocabulary` its cards' `effects` are written in (`module:NAME`,
    cardgen/engine/effects.py; docs/effects.md is generated from it). A game without one of them leaves it None."""

    id: str
    title: str  # as its game.yaml says it, for `cardgen odds --help`
    engine: str | None = None
    odds: Calculator | None = None
    formulas: str | None = None
    effects: str | None = None

    def engine_factory(self) -> Callable[[Game], GameEngine] | None:
        """The engine class's `from_game`, importing the game's rules (None for a game without an engine)."""
        if self.engine is None:
            return None
        module, _, name = self.engine.partition(":")
        factory: Callable[[Game], GameEngine] = getattr(importlib.import_module(module), name).from_game
        return factory


def calculators() -> dict[str, tuple[str, Calculator]]:
    """The games with a battle calculator (`cardgen odds`): game id → (title, calculator)."""
    return {game: (plugin.title, plugin.odds) for game, plugin in plugins().items() if plugin.odds}


def calculator_options() -> dict[str, tuple[str, Option]]:
    """Every calculator's own options, each once by name (with the title of the first game taking it)."""
    found: dict[str, tuple[str, Option]] = {}
    for title, calculator in calculators().values():
        for option in calculator.options:
            found.setdefault(option.name, (title, option))
    return found


@cache
def plugins() -> dict[str, GamePlugin]:
    """Every game package's plugin by game id, in the packages' order (importing each package's `__init__` only)."""
    from cardgen.engine import games

    found: dict[str, GamePlugin] = {}
    for package in pkgutil.iter_modules(games.__path__):
        if package.ispkg:
            name = f"{games.__name__}.{package.name}"
            plugin = getattr(importlib.import_module(name), "PLUGIN", None)
            if not isinstance(plugin, GamePlugin):
                raise TypeError(f"{name}: a game package exports PLUGIN = GamePlugin(...) (cardgen/engine/plugin.py)")
            found[plugin.id] = plugin
    return found
