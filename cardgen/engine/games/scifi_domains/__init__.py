"""Scifi Domains' reference engine: `rules` (the engine: facts and cards), `model` (records, phases and the formulas the
rules fix), `state` (the round), `battle` (combat phases with the player's choices), `actions` (typed actions,
imported from there) and `view` (what the greedy agent weighs). `PLUGIN` names them by module path, so that listing
the games and printing one, which reads its formulas from `model`, load no rules."""

from cardgen.engine.plugin import GamePlugin

PLUGIN = GamePlugin(
    id="scifi-domains",
    title="Scifi Domains",
    engine="cardgen.engine.games.scifi_domains.rules:ScifiEngine",
    formulas="cardgen.engine.games.scifi_domains.model",
)
