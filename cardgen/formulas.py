"""Formulas a game's rules fix, written once and read by its engine, its checks and its layouts.

A rule that is arithmetic (Scifi Domains' multi-build price: the first unit at full price, the others at a fraction,
rounded up) would otherwise be written three times: in the engine, in the game's `checks.py` and in the Jinja of
its reference sheet, free to drift apart. It lives instead as a plain function in the game's engine package's
`model` module (which imports nothing of the engine), listed there in `FORMULAS`; the engine calls it, `checks.py`
imports it, and layouts call it as `formula.<name>(...)` (the formulas of the game being drawn; none for a game of
your own, whose layouts compute in Jinja). Formulas take and return plain numbers, so a layout can call them safely.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

# game id → the module whose FORMULAS a game's layouts may call
MODULES = {
    "scifi-domains": "cardgen.engine.games.scifi_domains.model",
    "battlefield-space": "cardgen.engine.games.battlefield_space.model",
    "space-empires-4x": "cardgen.engine.games.space_empires_4x.odds",
}


def formulas(game_id: str, game: Any = None) -> dict[str, Callable[..., Any]]:
    """The formulas of a bundled game by name (empty for any other game). A module whose formulas need the game's
    facts (Space Empires 4X's battle odds read its unit chart) offers `formulas_for(game)` instead of `FORMULAS`."""
    module_name = MODULES.get(game_id)
    if module_name is None:
        return {}
    module = importlib.import_module(module_name)
    if hasattr(module, "formulas_for"):
        return dict(module.formulas_for(game)) if game is not None else {}
    table: dict[str, Callable[..., Any]] = module.FORMULAS
    return dict(table)
