"""Rift Domination: `battle` (the battle rules: exact odds and one battle rolled, shared by the calculator and the
engine), `odds` (`cardgen odds rift-domination`), `rules` (the engine: facts, units, factions, OCC deck, planets, the
board as a graph of points), `model` (records, actions, the effect vocabulary), `state` (the game) and `view` (what
the greedy agent weighs). `PLUGIN` names them by module path, so that listing the games, `cardgen odds --help` and
printing one load no rules."""

from collections.abc import Mapping
from typing import Any

from cardgen.engine.plugin import Calculator, GamePlugin, Option


def battlefield(options: Mapping[str, Any]) -> str:
    """Where the battle is fought: "space" or "ground", in the defender's home system or not."""
    return ("ground" if options["ground"] else "space") + (", home system" if options["home"] else "")


PLUGIN = GamePlugin(
    id="rift-domination",
    title="Rift Domination",
    engine="cardgen.engine.games.rift_domination.rules:RiftEngine",
    effects="cardgen.engine.games.rift_domination.model:VOCABULARY",
    odds=Calculator(
        module="cardgen.engine.games.rift_domination.odds",
        attacker="2 fighter, 1 carrier",
        defender="1 carrier",
        where=battlefield,
        options=(
            Option(
                "--ground", "a ground battle (the defender's outpost and upgrades fight; other units orbit).", flag=True
            ),
            Option("--planet-upgrades", "with --ground, the defender's upgrades (military_base,…)."),
            Option("--home", "the defender fights in its home system (Defensive Ring).", flag=True),
        ),
    ),
)
