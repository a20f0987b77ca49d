"""The reference engine: plays complete games by the rulebooks from the same data that gets printed.

`core` is the small surface every game offers, `agents` choose actions, `runner` plays many seeded games on any
Executor and summarises them, `games/` holds one module per game.
"""
