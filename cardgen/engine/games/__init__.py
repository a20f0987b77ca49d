"""One package per game engine, each the rules of one rulebook read from that game's facts and cards.

A package's `__init__` exports `PLUGIN` (cardgen/engine/plugin.py): its engine, its battle calculator and its
formulas, named by module path, and nothing else is imported with it — printing a game, listing the engines and
`cardgen --help` should not load a game's rules. Its `rules` module holds the engine class.
"""
