"""What the greedy agent weighs in Rift Domination, judged only from what the player can see.

Greedy looks one action ahead on a determinization (the OCC deck and the other hands dealt again from the cards the
player has not seen). The outlook values victory points above all, then planets and upgrades, units at their cost,
resources and the income track, and ground units and diplomats near planets nobody controls yet (so a fleet heads
somewhere before it arrives), and carriers near landers stranded in systems with nothing left to take (landers cross
systems only aboard a carrier). A move that starts a battle is valued by the mean outlook over `BATTLE_ROLLS` rolls
of the battle's dice (each from its own seed, derived from the state so games replay), not by one roll: one lucky
roll made a hopeless attack look good.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from cardgen.engine.games.rift_domination import movement, turn
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.rules import RiftEngine
    from cardgen.engine.games.rift_domination.state import RiftState


def position(state: RiftState, player: int) -> float:
    e = state.engine
    units = [u for u in state.units if u.owner == player]
    value = 10.0 * state.vp[player] + 0.5 * state.resources[player] + 1.5 * state.track[player]
    value += sum(0.8 * e.costs[u.kind] for u in units)
    planets = state.planets_of(player)
    value += 3.0 * len(planets) + sum(1.0 * len(state.upgrades.get(h, [])) for h in planets)
    value += 2.0 * turn.mines(state, player)  # income to come
    free = [h for h in range(len(state.on)) if state.on[h] and e.is_planet[h] and h not in state.owner
            and h not in state.consumed]  # fmt: skip
    if free:
        dist = e.distances.of(state.n, state.towards, free)  # the board in use is the player count's
        landers = [u for u in units if state.ground(u) or state.negotiates(u)]
        value -= sum(0.5 * min(dist[u.node], 12) for u in landers)
        # landers that need a carrier and have nothing left to take in their own system draw the carriers to them
        stuck = sorted({u.node for u in landers if movement.carried(state, u) and e.node_system[u.node] not in
                        {e.node_system[h] for h in free}})  # fmt: skip
        carriers = [u for u in units if movement.capacity(state, u)]
        if stuck:  # the nearest carrier counts (none at all: as far as can be), and a roster that can build one
            to_stuck = e.distances.of(state.n, state.towards, stuck)
            value -= 0.5 * min([min(to_stuck[u.node], 12) for u in carriers] or [12])
            value += 3.0 * any(e.rooms[k] > 0 for k in state.roster[player])
    return value


def outlook(state: RiftState, player: int) -> float:
    if state.is_terminal():
        return 1000.0 * state.returns()[player]
    others = [q for q in range(state.n) if q != player]
    mine = position(state, player)
    return mine - sum(position(state, q) for q in others) / len(others) if others else mine


_last: list[Any] = [None, None]


def action_value(engine: RiftEngine, state: RiftState, action: Any, player: int) -> float:
    legal = state.legal_actions()
    if _last[0] is not legal:  # one determinization per decision, seeded from the state so games replay
        _last[0], _last[1] = legal, state.determinize(player, CounterRng(seed_of(state, player)))
    trial = _last[1].clone()
    trial.do(action, chance=False)
    if trial.fighting is None:
        value = outlook(trial, player)
    else:  # a battle the move starts: its outcome weighed over several rolls of the dice, not one
        dice = CounterRng(seed_of(state, player) ^ 0x5EED)
        value = sum(outlook(_fought(trial.reseeded(dice)), player) for _ in range(BATTLE_ROLLS)) / BATTLE_ROLLS
    return value + (0.01 if action.tag == "done" and state.phase == "move" else 0.0)


def settled_values(state: RiftState) -> list[float]:
    """The search's value of a position: a battle under way fought through by its dice (no card played in its
    windows), then each seat's outlook, squashed into [0, 1]."""
    trial = _fought(state.clone()) if state.fighting is not None else state
    return [1 / (1 + math.exp(-outlook(trial, seat) / 10)) for seat in range(state.n)]


BATTLE_ROLLS = 8  # greedy against random, 600 two-player games (seed 5, seats in turn): 1 roll 73 %, 8 rolls 77 %


def seed_of(state: RiftState, player: int) -> int:
    return (state.turns * 1_000_003 + len(state.chance.events) * 7919 + player) & ((1 << 63) - 1)


def _fought(trial: RiftState) -> RiftState:
    """The trial with the battle it started fought through (Done at every window: the look-ahead plays no card)."""
    while trial.fighting is not None and trial.legal_actions():
        trial.do(trial.legal_actions()[-1], chance=False)
    return trial
