"""Star Commander's actions as a player reads them in a log (`StarState.action_label`): cards by name, cells by
column letter and row number (`StarState.cell_name`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.games.star_commander.model import (
    Ability,
    Assign,
    Build,
    Choose,
    Develop,
    Discard,
    Done,
    Explore,
    Move,
    Play,
    Retreat,
    Scrap,
    TradeDraw,
    TradeSell,
)

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def action_label(state: StarState, action: Any) -> str:
    names, cell_name = state.engine.cards, state.cell_name
    match action:
        case Done():
            return "done"
        case "pass":
            return "pass"
        case Move(card, cell):
            return f"move {names[card].name} to {cell_name(cell)}"
        case Explore(cell):
            return f"explore {cell_name(cell)}"
        case Build(card, cell):
            return f"build {names[card].name} at {cell_name(cell)}"
        case Scrap(card):
            return f"scrap {names[card].name}"
        case Play(card, target):
            return f"play {names[card].name}" + (f" on {target}" if target >= 0 else "")
        case Develop(cell):
            return f"develop {cell_name(cell)}"
        case TradeDraw(domain):
            return f"trade 3 credits for a {state.engine.domains[domain]} card"
        case TradeSell():
            return "trade two cards for credits"
        case Choose(domain):
            return f"draw from {state.engine.domains[domain]}"
        case Discard(card):
            return f"discard {names[card].name}"
        case Assign(attacker, target):
            what = "hold fire" if target < 0 else f"fire at {names[target].name}"
            return f"{names[attacker].name} #{attacker}: {what}"
        case Retreat(card, cell):
            return f"retreat {names[card].name} to {cell_name(cell)}"
        case Ability(card):
            return f"use {names[card].name}"
    raise ValueError(f"not a Star Commander action: {action!r}")
