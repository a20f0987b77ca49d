"""How Rift Domination's units move: movement points for the turn (`points`), carriers and their cargo (`capacity`,
`carried`, `cargo`), wormholes (`wormhole_cost`), blockades (`blocked`) and the steps a unit may take (`moves`).
Functions of the state, called by `state.RiftState` and the game's modules; the steps themselves (a unit arriving,
the battles and landings it sets off) are `RiftState._move`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardgen.engine.core import Action
from cardgen.engine.games.rift_domination.model import Move, Unit

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState


def points(state: RiftState, unit: Unit) -> int:
    """Movement points for the turn: the card, the faction, and warps in the unit's system."""
    e = state.engine
    mp = int(e.units[unit.kind]["movement"]) + (state.fac(unit.owner).modifier("movement", unit.kind) or 0)
    system = e.node_system[unit.node]
    for q in range(state.n):
        slow = state.fac(q).modifier("slow-enemies") if q != unit.owner else None
        if slow and any(state.owner.get(h) == q for h in e.system_planets[system]):
            mp = max(e.warp["minimum"], mp - slow)
    for h in e.system_planets[system]:  # 'infantry units are not affected by the warp' (but `warp-infantry`)
        warps, holder = state.upgrades.get(h, []).count("warp"), state.owner.get(h)
        if not warps or holder is None:
            continue
        if holder == unit.owner:
            mp += e.warp["own"] * warps if unit.kind != "infantry" else 0
        elif unit.kind != "infantry" or state.fac(holder).modifier("warp-infantry") is not None:
            mp = max(e.warp["minimum"], mp - e.warp["enemy"] * warps)
    return mp


def capacity(state: RiftState, unit: Unit) -> int:
    room = state.engine.rooms[unit.kind]
    return room + (state.fac(unit.owner).modifier("carry", unit.kind) or 0) if room else 0


def carried(state: RiftState, unit: Unit) -> bool:
    """A unit that uses capacity crosses into another system only aboard a unit that carries."""
    return unit.kind in state.engine.carried


def cargo(state: RiftState, unit: Unit) -> list[Unit]:
    """What a carrier takes along (a policy), within its capacity: units that take planets first, then the
    dearest, then the oldest."""
    room = capacity(state, unit)
    return _loaded(state, room, _beside(state, unit)) if room else []


def _loaded(state: RiftState, room: int, beside: list[Unit]) -> list[Unit]:
    """`cargo`'s choice among the units `beside` a carrier with `room`."""
    e, out = state.engine, list[Unit]()
    needs, costs, first = e.needs, e.costs, e.takes_planets
    for x in sorted(beside, key=lambda x: (x.kind not in first, -costs[x.kind], x.uid)):
        need = needs[x.kind]
        if need <= room:
            out.append(x)
            room -= need
    return out


def _beside(state: RiftState, unit: Unit) -> list[Unit]:
    """The units beside a carrier that need one."""
    kinds, owner, node = state.engine.carried, unit.owner, unit.node
    return [x for x in state.units if x.node == node and x.owner == owner and x.kind in kinds and x is not unit]


def cargo_size(state: RiftState, unit: Unit, room: int | None = None) -> int:
    """How many units `cargo` takes along: all of those beside the carrier when they fit together (no order to
    work out), else as many as its order fits. `room`: its `capacity`, if known."""
    room = capacity(state, unit) if room is None else room
    if not room:
        return 0
    beside, needs = _beside(state, unit), state.engine.needs
    if sum(needs[x.kind] for x in beside) <= room:
        return len(beside)
    return len(_loaded(state, room, beside))


def wormhole_cost(state: RiftState, player: int) -> int:
    found = state.fac(player).modifier("wormhole-cost")
    return state.engine.wormhole_cost if found is None else found


def blocked(state: RiftState, unit: Unit) -> bool:
    """An enemy's blockade keeps the unit in its system."""
    holder = state.blockades.get(state.engine.node_system[unit.node])
    return holder is not None and holder != unit.owner


def moves(state: RiftState, unit: Unit, listing: bool = False) -> list[Action]:
    """A unit's steps: to the next points (one movement point), and between wormholes; crossing into another
    system needs no enemy blockade and, for a unit that uses capacity, a carrier (`Move.carry`: its cargo). For the
    move listing (`listing`), a carrier whose steps counted its cargo is noted in `state.cargo_at` by its point."""
    e = state.engine
    systems = e.node_system
    node, uid = unit.node, unit.uid
    here = systems[node]
    near = state.adj[node]
    targets: Sequence[int] = near if unit.mp >= 1 else ()  # a step to the next point costs one movement point
    if not e.is_planet[node] and here in state.wormholes and wormhole_cost(state, unit.owner) <= unit.mp:
        targets = [*targets, *(s for s in state.wormholes if s != here and state.on[s] and s not in near)]
    stays = blocked(state, unit) or unit.kind in e.carried  # may not cross into another system
    taken = -1
    out: list[Action] = []
    made = e.move_actions.get(uid) or {}
    for t in targets:
        if systems[t] == here:
            out.append(made.get(t) or e.move_action(uid, t))
        elif not stays:
            out.append(made.get(t) or e.move_action(uid, t))
            if taken < 0:
                room = capacity(state, unit)
                taken = cargo_size(state, unit, room) if room else 0
                if listing and room:  # its steps change as cargo comes and goes
                    state.cargo_at[node] = (*state.cargo_at.get(node, ()), uid)
            if taken:
                out.append(Move(uid, t, taken))
    return out
