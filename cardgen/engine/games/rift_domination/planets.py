"""Rift Domination's planets: landing (`land`), negotiation by diplomats (`has_talk`, `may_negotiate`, `negotiate`),
free upgrades and taking control (`control`). Functions of the state, called by `state.RiftState`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.rift_domination.model import (
    BATTLE_UPGRADES,
    Unit,
)

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState


def land(state: RiftState, unit: Unit, planet: int) -> None:
    """Ground units (or a diplomat) reach a planet nobody controls: its condition decides."""
    e, p = state.engine, unit.owner
    tile = state.tile.get(planet, -1)
    if tile < 0:
        control(state, p, planet)
        return
    spec = e.tiles[tile]
    kind = spec["condition"]
    gain = state.fac(p).modifier("consume")
    if gain is not None and kind == "dangerous" and state.ground(unit):  # a policy: The Void consumes the risky ones
        del state.tile[planet]
        state.tiles_gone.append(tile)
        state.consumed.add(planet)
        state.resources[p] += gain
        state.events.add("consume")
        return
    talks = has_talk(state, unit, kind)
    if kind == "civilized" or talks:
        if talks:
            negotiate(state, unit, planet)
        elif state.ground(unit):
            cost = state.fac(p).modifier("civilized-cost")
            cost = e.civilized["pay"] if cost is None else cost
            if state.resources[p] >= cost:
                state.resources[p] -= cost
                control(state, p, planet)
                state._draw_occ(p, state.fac(p).modifier("civilized-occ") or e.civilized["occ_paid"])
        return
    if not state.ground(unit):
        return
    if kind == "dangerous":
        roll = max(state.rng.randbelow(e.die) + 1 for _ in range(state.fac(p).modifier("dangerous-dice") or 1))
        state.chance.record("dangerous", roll)
        if roll >= (state.fac(p).modifier("dangerous-roll") or e.dangerous_roll):
            control(state, p, planet)
            free_upgrade(state, p, planet)
            state.resources[p] += int(spec.get("resources") or 0)
        else:
            for x in [x for x in state.units if x.owner == p and x.node == planet and state.ground(x)]:
                state._destroy(x)
    elif kind == "anomaly":
        state.vp[p] += int(spec.get("vp") or 0) + (state.fac(p).modifier("anomaly-vp") or 0)
        control(state, p, planet)
        for _ in range(state.fac(p).modifier("anomaly-infantry") or e.anomaly_infantry):
            state._add(p, "infantry", planet)
    elif kind == "harvester":
        state.resources[p] += int(spec.get("resources") or 0) + (state.fac(p).modifier("harvester-landing") or 0)
        control(state, p, planet)


def has_talk(state: RiftState, unit: Unit, kind: str) -> bool:
    """The unit negotiates with a planet of that condition (civilized; dangerous too with `negotiate-dangerous`)."""
    dangerous = state.fac(unit.owner).modifier("negotiate-dangerous") is not None
    return state.negotiates(unit) and (kind == "civilized" or (kind == "dangerous" and dangerous))


def may_negotiate(state: RiftState, unit: Unit, planet: int) -> bool:
    """NEGOTIATE: 'Take control over a civilized planet by moving there (even player controlled planets if there
    is no infantry': another player's civilized planet where none of that player's ground units stand."""
    tile, holder = state.tile.get(planet, -1), state.owner.get(planet)
    if tile < 0 or holder is None or not has_talk(state, unit, state.engine.tiles[tile]["condition"]):
        return False
    return not any(x.owner == holder and x.node == planet and state.ground(x) for x in state.units)


def negotiate(state: RiftState, unit: Unit, planet: int) -> None:
    """A negotiated planet: control, one free upgrade, 2 OCC-cards and 2 fighters. From another player, the
    upgrades change hands but the military base, artillery and shield generator, which never do (Battle)."""
    e, p = state.engine, unit.owner
    if state.owner.get(planet) not in (None, p):
        state.upgrades[planet] = [b for b in state.upgrades.get(planet, []) if b not in BATTLE_UPGRADES]
        state.events.add("negotiate:held")
    control(state, p, planet)
    free_upgrade(state, p, planet)
    state._draw_occ(p, e.civilized["occ_negotiated"])
    for _ in range(e.civilized["fighters_negotiated"]):
        state._add(p, "fighter", planet)
    state.events.add("negotiate")


def free_upgrade(state: RiftState, player: int, planet: int) -> None:
    """A free planet upgrade of the player's choice: mines (a fixed policy; the choice is not searched)."""
    if len(state.upgrades.get(planet, [])) < state.slots(planet, player):
        state.upgrades[planet] = [*state.upgrades.get(planet, []), "mines"]


def control(state: RiftState, player: int, planet: int) -> None:
    e = state.engine
    before = state.owner.get(planet)
    state.owner[planet] = player
    state.events.add("control")
    if e.systems[e.node_system[planet]] in e.centre and state.engine.planets[planet - len(e.systems)]["size"] == "huge":
        state.vp[player] += e.centre_vp
    system = e.node_system[planet]
    if before is not None and state.systems_held.get(system) == before:
        del state.systems_held[system]
    planets = [h for h in e.system_planets[system] if state.on[h] and h not in state.consumed]
    if all(state.owner.get(h) == player for h in planets) and state.systems_held.get(system) != player:
        state.systems_held[system] = player
        state.vp[player] += state.fac(player).modifier("system-vp") or e.system_vp
        if state.expansions[player] < state.fac(player).expansions and any(
            k not in state.roster[player] for k in e.units
        ):
            state.later(("roster", player))  # asked once what is under way (a battle's windows) is done
