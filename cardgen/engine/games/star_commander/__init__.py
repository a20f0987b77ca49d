"""Star Commander's reference engine: `rules` (the engine: facts and cards), `model` (records, actions and the effect
vocabulary the card data's `effects` are written in), `state` (the game) and `view` (what the greedy agent weighs).
`PLUGIN` names the engine by module path, so that listing the games loads no rules."""

from cardgen.engine.plugin import GamePlugin

PLUGIN = GamePlugin(
    id="star-commander",
    title="Star Commander",
    engine="cardgen.engine.games.star_commander.rules:StarEngine",
    effects="cardgen.engine.games.star_commander.model:VOCABULARY",
)
