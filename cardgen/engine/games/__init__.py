"""One package per game engine, each the rules of one rulebook read from that game's facts and cards.

A package's `rules` module holds its engine (registered by importing it: `engine/registry.py`). The packages import
nothing themselves: the formulas a game's layouts and checks read live in its `model` (or `odds`) module, and
printing a game should not load its whole engine.
"""
