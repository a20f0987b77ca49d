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
}


def formulas(game_id: str) -> dict[str, Callable[..., Any]]:
    """The formulas of a bundled game by name (empty for any other game)."""
    module = MODULES.get(game_id)
    if module is None:
        return {}
    table: dict[str, Callable[..., Any]] = importlib.import_module(module).FORMULAS
    return dict(table)
