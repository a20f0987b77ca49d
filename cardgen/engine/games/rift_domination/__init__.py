"""Rift Domination: `battle` (the battle rules: exact odds and one battle rolled, shared by the calculator and the
engine), `odds` (`cardgen odds rift-domination`), `rules` (the engine: facts, units, factions, OCC deck, planets, the
board as a graph of points), `model` (records, actions, the effect vocabulary), `state` (the game) and `view` (what
the greedy agent weighs). Importing `rules` registers the engine; the package itself imports nothing, so that
printing a game, which reads its formulas from `model` (or `odds`), does not load its whole engine."""
