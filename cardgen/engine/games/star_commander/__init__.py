"""Star Commander's reference engine: `rules` (the engine: facts and cards), `model` (records, actions and the effect
vocabulary the card data's `effects` are written in), `state` (the game) and `view` (what the greedy agent weighs).
Importing `rules` registers the engine; the package itself imports nothing, so that printing a game, which reads its
formulas from `model` (or `odds`), does not load its whole engine."""
