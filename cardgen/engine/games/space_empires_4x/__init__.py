"""Space Empires 4X: `combat` (battle resolution shared by the engine and the exact calculator), `odds` (`cardgen
odds space-empires-4x` and the layouts' `formula.battle_odds`), `rules` (the engine: facts, units, markers, map),
`model` (records and actions), `state` (the game) and `view` (what the greedy agent weighs). `PLUGIN` names them by
module path, so that listing the games, `cardgen odds --help` and printing one load no rules."""

from cardgen.engine.plugin import Calculator, GamePlugin, Option

PLUGIN = GamePlugin(
    id="space-empires-4x",
    title="Space Empires 4X",
    engine="cardgen.engine.games.space_empires_4x.rules:SE4XEngine",
    odds=Calculator(
        module="cardgen.engine.games.space_empires_4x.odds",
        attacker="2 DD, 1 CA",
        defender="1 BB",
        where=lambda options: str(options["terrain"]),
        options=(
            Option("--attacker-tech", "technology levels, e.g. attack=1,defense=0,tactics=1."),
            Option("--defender-tech", "technology levels of the defender."),
            Option("--terrain", "the hex's terrain.", choices=("open", "asteroids", "nebula"), default="open"),
        ),
    ),
    formulas="cardgen.engine.games.space_empires_4x.odds",
)
