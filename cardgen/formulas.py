"""Formulas a game's rules fix, written once and read by its engine, its checks and its layouts.

A rule that is arithmetic (a multi-build price: the first unit at full price, the others at a fraction, rounded up)
would otherwise be written three times: in the engine, in the game's `checks.py` and in the Jinja of its reference
sheet, free to disagree. It lives instead as a plain function in a module of the game's engine package that
imports nothing of the engine (its `model`), listed there in `FORMULAS`, and the game's plugin names that module
(`PLUGIN.formulas`, cardgen/engine/plugin.py); the engine calls it, `checks.py` imports it, and layouts call it as
`formula.<name>(...)` (the formulas of the game being drawn; none for a game of your own, whose layouts compute in
Jinja). Formulas take and return plain numbers, so a layout can call them safely.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def formulas(game_id: str, game: Any = None) -> dict[str, Callable[..., Any]]:
    """The formulas of a bundled game by name (empty for any other game): those of the module its plugin names
    (cardgen/engine/plugin.py). A module whose formulas need the game's facts (a battle calculator's odds read its
    unit chart) offers `formulas_for(game)` instead of `FORMULAS`."""
    from cardgen.engine.plugin import plugins

    plugin = plugins().get(game_id)
    if plugin is None or plugin.formulas is None:
        return {}
    module = importlib.import_module(plugin.formulas)
    if hasattr(module, "formulas_for"):
        return dict(module.formulas_for(game)) if game is not None else {}
    table: dict[str, Callable[..., Any]] = module.FORMULAS
    return dict(table)
