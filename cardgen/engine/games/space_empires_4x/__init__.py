"""Space Empires 4X: `combat` (battle resolution shared by the engine and the exact calculator), `odds` (`cardgen
odds`), `rules` (the engine: facts, units, markers, map), `model` (records and actions), `state` (the game) and
`view` (what the greedy agent weighs). Importing `rules` registers the engine; the package itself imports nothing, so
that printing a game, which reads its formulas from `model` (or `odds`), does not load its whole engine."""
