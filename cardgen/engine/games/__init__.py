"""One package per game engine, each the rules of one rulebook read from that game's facts and cards.

A package's `rules` module holds its engine (registered by importing it: `engine/registry.py`). The package itself
imports nothing until a name is asked of it (`exports`): the formulas a game's layouts and checks read live in its
`model` (or `odds`) module, and printing a game should not load its whole engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def exports(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A package's `__getattr__`: each exported name imported from its module (`names`: name → module) when asked."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
