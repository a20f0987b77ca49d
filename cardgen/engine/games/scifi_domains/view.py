"""What the greedy agent weighs in Scifi Domains, judged only from what the player can see.

Greedy looks one action ahead: outside battles by the `outlook` of the state after the action, agro decisions by
the group's average enemy (never the pile's next card), battle choices by the engine's default choices (deploy what
fits, absorb with the unit that survives, sacrifice the weakest), which are what a careful player does without
search. Search agents play battle choices the same way and search the rest (`ScifiState.searched`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.games.scifi_domains.actions import PASS, Agro
from cardgen.engine.games.scifi_domains.model import Phase

if TYPE_CHECKING:
    from cardgen.engine.games.scifi_domains.state import ScifiState


def outlook(state: ScifiState, player: int) -> float:
    """Victory points so far, plus the fighting strength of units and techs, plus unspent Reward points."""
    units = state.units[player]
    power = sum(state.power(player, i) + 0.3 * state.stat(player, units[i].kind, "hp") for i in range(len(units)))
    rounds = state.engine.rounds
    rounds_left = rounds - state.round + 1
    return state.victory_points(player) + 0.25 * power * rounds_left / rounds + 0.9 * state.points[player]


def agro_value(state: ScifiState, player: int, action: Any) -> float:
    """Agro another enemy while the player's units can still kill the enemies in front of them with room to spare
    and soak what they deal; stop otherwise. Judged from the group's average enemy, never the pile."""
    if action == PASS:
        return 0.0
    enemies = state.engine.enemies
    group = [enemies[c] for c in state.engine.group_cards[action.group]]
    avg_hp = sum(e.hp for e in group) / len(group)
    avg_dmg = sum(sum(e.damage) for e in group) / len(group)
    units = state.units[player]
    power = sum(state.power(player, i) for i in range(len(units)))
    toughness = sum(state.stat(player, u.kind, "hp") for u in units)
    facing_hp = sum(enemies[c].hp for c in state.agroed[player]) + avg_hp
    facing_dmg = sum(sum(enemies[c].damage) for c in state.agroed[player]) + avg_dmg
    return (power - facing_hp) * 0.5 + (toughness - 1.5 * facing_dmg) * 0.25


def action_value(state: ScifiState, action: Any, player: int) -> float:
    if state.phase == Phase.BATTLE:
        return 1.0 if action == state.default_choice() else 0.0
    if isinstance(action, Agro) or (action == PASS and state.phase == Phase.AGRO):
        return agro_value(state, player, action)
    trial = state.clone()
    trial.do(action, chance=False)
    return outlook(trial, player)
