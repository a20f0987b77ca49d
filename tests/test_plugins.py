"""A plugin per game (cardgen/engine/plugin.py): each bundled game's plugin names parts that exist, reading the plugins
loads no game's rules, and a sixth game's plugin gets `cardgen odds`, its formulas and its engine without a line of
the generic layer changing."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardgen.data import load_games
from cardgen.engine import games, registry
from cardgen.engine.core import GameEngine
from cardgen.engine.plugin import plugins
from cardgen.formulas import formulas

from conftest import FIXTURES, run_cli

BUNDLED = ["battlefield-space", "rift-domination", "scifi-domains", "space-empires-4x", "star-commander"]


def test_every_game_package_has_a_plugin_naming_parts_that_exist() -> None:
    assert list(plugins()) == BUNDLED
    for plugin in plugins().values():
        module, _, name = (plugin.engine or "").partition(":")
        engine = getattr(__import__(module, fromlist=[name]), name)
        assert issubclass(engine, GameEngine) and engine.id == plugin.id
        if plugin.formulas:
            table = __import__(plugin.formulas, fromlist=["_"])
            assert hasattr(table, "FORMULAS") or hasattr(table, "formulas_for"), plugin.id
        if plugin.odds:
            calculate = __import__(plugin.odds.module, fromlist=["odds"]).odds
            keywords = inspect.signature(calculate).parameters
            assert {option.keyword for option in plugin.odds.options} | {"retreat"} <= set(keywords), plugin.id


def test_the_terrains_offered_are_those_the_battle_rules_know() -> None:
    from cardgen.engine.games.space_empires_4x.combat import TERRAINS

    (terrain,) = [o for o in plugins()["space-empires-4x"].odds.options if o.name == "--terrain"]  # type: ignore[union-attr]
    assert terrain.choices == tuple(TERRAINS) and terrain.default == TERRAINS[0]


def test_reading_the_plugins_and_the_odds_help_loads_no_rules() -> None:
    """`cardgen odds --help` and listing the games import each game package's `__init__` and nothing more of it."""
    script = (
        "import sys\nfrom cardgen.cli import cli\nfrom cardgen.engine.registry import engine_ids\nprint(engine_ids())\n"
        "try:\n    cli(['odds', '--help'])\nexcept SystemExit:\n    pass\n"
        "import json\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('cardgen.engine'))))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    *_, loaded = run.stdout.splitlines()
    assert "--planet-upgrades" in run.stdout and "'space-empires-4x'" in run.stdout
    packages = sorted(f"cardgen.engine.games.{package}" for package in plugins_folders())
    assert [module for module in json.loads(loaded) if module.startswith("cardgen.engine.games.")] == packages


def plugins_folders() -> list[str]:
    return [p.name for p in Path(games.__path__[0]).iterdir() if (p / "__init__.py").exists()]


SIXTH = {
    "__init__.py": """
        from cardgen.engine.plugin import Calculator, GamePlugin, Option

        PLUGIN = GamePlugin(
            id="demo",
            title="Demo Skirmish",
            engine="cardgen.engine.games.sixth.rules:DemoEngine",
            odds=Calculator(
                module="cardgen.engine.games.sixth.odds",
                attacker="2 scout",
                defender="1 frigate",
                where=lambda options: f"{options['weather']}, {options['range']} range",
                options=(
                    Option("--weather", "the weather.", choices=("sun", "rain"), default="sun"),
                    Option("--range", "how far apart the fleets start.", required=True),
                ),
            ),
            formulas="cardgen.engine.games.sixth.model",
        )
    """,
    "model.py": """
        def double_cost(cost):
            return 2 * cost

        FORMULAS = {"double_cost": double_cost}
    """,
    "odds.py": """
        from cardgen.engine.dice import BattleReport

        def odds(game, attacker, defender, *, weather="sun", range=None, retreat=True):
            attack = {item.id: item.fields["attack"] for item in game.component("ships").items}
            strength = [sum(int(n) * attack[kind] for n, kind in (e.split() for e in fleet.split(",")))
                        for fleet in (attacker, defender)]
            win = strength[0] / sum(strength)
            return BattleReport({"attacker wins": win, "defender wins": 1 - win}, [{}, {}], [0.0, 0.0], 1.0, 1,
                                [f"retreat: {retreat}"], "cost", "rounds")
    """,
    "rules.py": """
        from cardgen.engine.core import GameEngine

        class DemoEngine(GameEngine):
            id = "demo"
            min_players = max_players = 2

            def __init__(self, game):
                self.game = game

            @classmethod
            def from_game(cls, game):
                return cls(game)

            def _new_state(self, players, seed):
                raise AssertionError("this test builds the engine through the plugin; it never plays a game")
    """,
}


@pytest.fixture
def sixth_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A sixth game package, `cardgen.engine.games.sixth` for the demo game, found where the bundled ones are."""
    package = tmp_path / "sixth"
    package.mkdir()
    for name, text in SIXTH.items():
        (package / name).write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "ENGINES", {})
    plugins.cache_clear()
    yield
    plugins.cache_clear()
    for name in [m for m in sys.modules if m.startswith("cardgen.engine.games.sixth")]:
        del sys.modules[name]


def test_a_sixth_game_gets_odds_formulas_and_an_engine_from_its_plugin(sixth_game: None) -> None:
    data = ("--data-dir", FIXTURES / "card_data")
    fleets = ("--attacker", "2 scout", "--defender", "1 frigate")
    run = run_cli(*data, "odds", "demo", *fleets, "--weather", "RAIN", "--range", "long", "--no-retreat", "--json")
    assert run.code == 0, run.err
    report = json.loads(run.out)
    assert report["where"] == "rain, long range" and report["outcomes"] == {"attacker wins": 0.4, "defender wins": 0.6}
    assert report["policies"] == ["retreat: False"] and report["game"] == "demo"
    text = run_cli(*data, "odds", "demo", *fleets, "--range", "close")
    assert text.out.startswith("2 scout attacking 1 frigate (sun, close range), exact over 1 battle states:")

    assert "--weather [sun|rain] Demo Skirmish: the weather. [default: sun]" in " ".join(
        run_cli("odds", "--help").out.split()
    )
    assert "give both fleets: --attacker '2 scout' --defender '1 frigate'" in run_cli(*data, "odds", "demo").err
    assert "demo needs --range" in run_cli(*data, "odds", "demo", *fleets).err
    stray = run_cli("odds", "space-empires-4x", "--attacker", "2 DD", "--defender", "1 BB", "--weather", "rain")
    assert stray.code == 2 and "--weather does not apply to space-empires-4x" in stray.err
    unknown = run_cli("odds", "demos")
    assert "calculators: demo, rift-domination, space-empires-4x" in unknown.err

    (game,) = load_games(FIXTURES / "card_data", ["demo"])
    assert formulas("demo", game)["double_cost"](6) == 12
    assert type(registry.build_engine(game)).__name__ == "DemoEngine"
    assert "demo" in registry.engine_ids()


def test_a_game_without_an_engine_is_refused_with_the_engines_there_are() -> None:
    (game,) = load_games(FIXTURES / "card_data", ["demo"])
    with pytest.raises(Exception, match=r"no reference engine for 'demo'; engines: battlefield-space, rift-domination"):
        registry.build_engine(game)


def test_a_game_package_without_a_plugin_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "seventh").mkdir()
    (tmp_path / "seventh" / "__init__.py").write_text("ENGINE = 'rules'\n", encoding="utf-8")
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    plugins.cache_clear()
    try:
        with pytest.raises(
            TypeError, match=r"cardgen.engine.games.seventh: a game package exports PLUGIN = GamePlugin"
        ):
            plugins()
    finally:
        plugins.cache_clear()
        sys.modules.pop("cardgen.engine.games.seventh", None)
