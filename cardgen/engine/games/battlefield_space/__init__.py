"""Battlefield: Space's reference engine: `rules` (the engine: the two decks and the facts), `model` (cards, records and
the column total), `state` (the battle as a task stack) and `view` (what the greedy agent weighs). Importing `rules`
registers the engine; the package itself imports nothing, so that printing a game, which reads its formulas from
`model` (or `odds`), does not load its whole engine."""
