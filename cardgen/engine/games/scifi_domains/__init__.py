"""Scifi Domains' reference engine: `rules` (the engine: facts and cards), `model` (records, phases and the formulas the
rules fix), `state` (the round), `battle` (combat phases with the player's choices), `actions` (typed actions,
imported from there) and `view` (what the greedy agent weighs). Importing `rules` registers the engine; the package
itself imports nothing, so that printing a game, which reads its formulas from `model` (or `odds`), does not load its
whole engine."""
