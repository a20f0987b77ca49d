"""Battlefield: Space's reference engine: `rules` (the engine: the two decks and the facts), `model` (cards, records and
the column total), `state` (the battle as a task stack) and `view` (what the greedy agent weighs). `PLUGIN` names
them by module path, so that listing the games and printing one, which reads its formulas from `model`, load no
rules."""

from cardgen.engine.plugin import GamePlugin

PLUGIN = GamePlugin(
    id="battlefield-space",
    title="Battlefield: Space",
    engine="cardgen.engine.games.battlefield_space.rules:BattlefieldEngine",
    formulas="cardgen.engine.games.battlefield_space.model",
)
