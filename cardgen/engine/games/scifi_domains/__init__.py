"""Scifi Domains' reference engine: `rules` (the engine: facts and cards), `model` (records, phases and the formulas
the rules fix), `state` (the round), `battle` (combat phases with the player's choices), `actions` (typed actions,
imported from there) and `view` (what the greedy agent weighs). Importing `rules` registers the engine;
the package imports each name below when it is first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games import exports

if TYPE_CHECKING:
    from cardgen.engine.games.scifi_domains.model import Phase, Source, Unit
    from cardgen.engine.games.scifi_domains.rules import ScifiEngine
    from cardgen.engine.games.scifi_domains.state import ScifiState

__getattr__ = exports(
    __name__,
    {
        "Phase": "model",
        "Source": "model",
        "Unit": "model",
        "ScifiEngine": "rules",
        "ScifiState": "state",
    },
)
__all__ = ["Phase", "ScifiEngine", "ScifiState", "Source", "Unit"]
