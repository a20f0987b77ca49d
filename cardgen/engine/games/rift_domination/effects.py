"""Rift Domination's card effects as the engine plays them: an OCC card's effects resolved in order (`resolve`, each
verb's handler bound to the vocabulary with `@does`), with its targets, resistance rolls and the verbs that need more
than arithmetic (orbital strikes, blockades, sacrifice, leaps, recruits, sabotage, theft, meteors). Functions of the
state, called by `state.RiftState`. A verb without a handler is read where it applies (a faction's lasting modifiers,
the battle cards in `conflict`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.rift_domination import movement
from cardgen.engine.games.rift_domination.model import (
    VOCABULARY,
    Effect,
    without,
)

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState

does = VOCABULARY.does


def resolve(state: RiftState, player: int, effects: tuple[Effect, ...]) -> None:
    for e in effects:
        VOCABULARY.run(state, player, e)


@does("gain-resources")
def gain_resources(state: RiftState, player: int, effect: Effect) -> None:
    gain = effect.amount * (len(state.planets_of(player)) if effect.opt("per") == "planet" else 1)
    state.resources[player] += min(gain, effect.num("max", gain))


@does("lose-resources")
def lose_resources(state: RiftState, player: int, effect: Effect) -> None:
    for q in range(state.n) if effect.opt("who") == "all" else (player,):
        state.resources[q] -= min(effect.amount, state.resources[q])


@does("gain-vp")
def gain_vp(state: RiftState, player: int, effect: Effect) -> None:
    state.vp[player] += effect.amount


@does("lose-vp")
def lose_vp(state: RiftState, player: int, effect: Effect) -> None:
    state.vp[player] -= min(effect.amount, state.vp[player])


@does("draw")
def draw(state: RiftState, player: int, effect: Effect) -> None:
    state._draw_occ(player, effect.amount)


@does("destroy-own")
def destroy_own(state: RiftState, player: int, effect: Effect) -> None:
    mine = [u for u in state.units if u.owner == player and u.kind == effect.opt("unit")]
    for u in mine[: effect.amount]:
        state._destroy(u)


@does("leap-fleet")
def leap_fleet(state: RiftState, player: int, effect: Effect) -> None:
    leap(state, player)


@does("slow-home")
def slow_home(state: RiftState, player: int, effect: Effect) -> None:
    state.slowed[player] = max(state.slowed[player], effect.amount)


@does("recruit")
def recruit(state: RiftState, player: int, effect: Effect) -> None:
    recruit_now(state, player, effect.amount, effect.opt("locked") == "yes")


@does("fleet-movement")
def fleet_movement_effect(state: RiftState, player: int, effect: Effect) -> None:
    fleet_movement(state, player, effect.amount)


@does("sabotage")
def sabotage_effect(state: RiftState, player: int, effect: Effect) -> None:
    sabotage(state, player, effect.amount)


@does("steal-occ")
def steal_occ(state: RiftState, player: int, effect: Effect) -> None:
    steal(state, player, effect.amount)


@does("damage-home-orbit")
def damage_home_orbit(state: RiftState, player: int, effect: Effect) -> None:
    meteors(state, player, effect.amount)


@does("orbital-strike")
def orbital_strike_effect(state: RiftState, player: int, effect: Effect) -> None:
    orbital_strike(state, player, effect.amount, effect.num("roll", 4))


@does("immunity")
def immunity(state: RiftState, player: int, effect: Effect) -> None:
    state.immune[player] = (state.turns, effect.opt("unit", "diplomat"))


@does("blockade")
def blockade_effect(state: RiftState, player: int, effect: Effect) -> None:
    blockade(state, player)


@does("free-upgrade")
def free_upgrade(state: RiftState, player: int, effect: Effect) -> None:
    name = effect.opt("upgrade")
    for h in state.planets_of(player):
        if len(state.upgrades.get(h, [])) < state.slots(h, player):
            state.upgrades[h] = [*state.upgrades.get(h, []), name]
            break


def orbital_target(state: RiftState, player: int, dice: int) -> tuple[int, str] | None:
    """A policy: the dearest enemy upgrade the dice can destroy (else the dearest) in a system where p has a
    unit; an upgrade that prints no LP has 1."""
    e = state.engine
    here = sorted({e.node_system[u.node] for u in state.units if u.owner == player})
    targets = [(h, name) for s in here for h in e.system_planets[s] if state.owner.get(h) not in (None, player)
               for name in state.upgrades.get(h, [])]  # fmt: skip
    if not targets:
        return None
    return max(targets, key=lambda t: (toughness(state, t[1]) <= dice, int(e.upgrades[t[1]]["cost"]), -t[0], t[1]))


def toughness(state: RiftState, name: str) -> int:
    spec = state.engine.upgrades[name]
    return int(spec.get("lp", 1)) + int(spec.get("shields", 0))


def orbital_strike(state: RiftState, player: int, dice: int, roll: int) -> None:
    """Damage outside a battle does not stay: the upgrade is destroyed when the hits reach its shields + LP."""
    target = orbital_target(state, player, dice)
    if target is None:
        return
    h, name = target
    hits = sum(1 for _ in range(dice) if state.rng.randbelow(state.engine.die) + 1 >= roll)
    state.chance.record("orbital strike", [state.engine.node_label[h], name, hits])
    if hits >= toughness(state, name):
        state.upgrades[h] = without(state.upgrades[h], name)
        state.events.add("orbital-strike:destroyed")


def blockade(state: RiftState, player: int) -> None:
    """A policy: the system where p has most units (the first on the board on a tie) is blockaded."""
    systems = [state.engine.node_system[u.node] for u in state.units if u.owner == player]
    if systems:
        state.blockades[max(sorted(set(systems)), key=systems.count)] = player


def may_sacrifice(state: RiftState, player: int) -> bool:
    kind = next((x.opt("unit", "diplomat") for x in state.fac(player).effects if x.verb == "sacrifice-answer"), None)
    return kind is not None and any(u.owner == player and u.kind == kind for u in state.units)


def sacrifice(state: RiftState, player: int) -> None:
    kind = next(x.opt("unit", "diplomat") for x in state.fac(player).effects if x.verb == "sacrifice-answer")
    state._destroy(next(u for u in state.units if u.owner == player and u.kind == kind))
    state.events.add("sacrifice")


def resists(state: RiftState, other: int) -> bool:
    """Once a round a faction with `resist-occ` rolls against a card played against it."""
    need = state.fac(other).modifier("resist-occ")
    if need is None or state.resisted[other] == state.turns:
        return False
    state.resisted[other] = state.turns
    roll = state.rng.randbelow(state.engine.die) + 1
    state.chance.record("resist", [other, roll])
    if roll >= need:
        state.events.add("resisted")
    return roll >= need


def leap(state: RiftState, player: int) -> None:
    """A policy: p's largest fleet at a system point moves to the next system nearest a planet nobody holds."""
    e = state.engine
    at = [
        u.node for u in state.units if u.owner == player and not e.is_planet[u.node] and not movement.blocked(state, u)
    ]
    if not at:
        return
    fleet = max(sorted(set(at)), key=at.count)
    free = [h for h in range(len(state.on)) if state.on[h] and e.is_planet[h] and h not in state.owner]
    options = [s for s in e.system_next[fleet] if state.on[s]]
    if not options:
        return
    to = min(options, key=lambda s: (min((1 if e.node_system[h] == s else 9) for h in free) if free else 0, s))
    for u in [u for u in state.units if u.owner == player and u.node == fleet]:
        state.own(u).node = to  # no battle on arrival: the leap lands beside enemies, who may attack on their turn


def recruit_now(state: RiftState, player: int, count: int, locked: bool, at: int = -1) -> None:
    """A policy: up to `count` units of the dearest affordable type (of the roster, or of the types not unlocked)
    at p's first military base (at the base where a battle is being fought, when `at` names it)."""
    bases = [at] if at >= 0 else [h for h in state.planets_of(player) if "military_base" in state.upgrades.get(h, [])]
    kinds = [k for k in state.engine.units if (k not in state.roster[player]) == locked]
    affordable = [k for k in kinds if state.engine.costs[k] <= state.resources[player]]
    if not bases or not affordable:
        return
    kind = max(affordable, key=lambda k: (state.engine.costs[k], k))
    for _ in range(count):
        if state.engine.costs[kind] > state.resources[player] or state._add(player, kind, bases[0]) is None:
            return
        state.resources[player] -= state.engine.costs[kind]


def cancels(state: RiftState, card: int) -> bool:
    return card in state.engine.cancelling


def target(state: RiftState, player: int, effects: tuple[Effect, ...]) -> int | None:
    """The player a card is played against (its sabotage's or theft's victim under the policies), if any."""
    for e in effects:
        if e.verb == "sabotage":
            here = {u.node for u in state.units if u.owner == player}
            owners = [state.owner[h] for h in sorted(here) if state.owner.get(h) not in (None, player)
                      and any(n != "military_base" for n in state.upgrades.get(h, []))]  # fmt: skip
            return owners[0] if owners else None
        if e.verb == "steal-occ":
            others = [q for q in range(state.n) if q != player and state.hands[q]]
            return max(others, key=lambda q: (len(state.hands[q]), -q)) if others else None
        if e.verb == "orbital-strike":
            target = orbital_target(state, player, e.amount)
            return state.owner[target[0]] if target else None
    return None


def fleet_movement(state: RiftState, player: int, amount: int) -> None:
    """A policy: the point where p has most units (the first on the board on a tie) is 'one of your fleets'."""
    nodes = [u.node for u in state.units if u.owner == player]
    if nodes:
        fleet = max(sorted(set(nodes)), key=nodes.count)
        for u in state.units:
            if u.owner == player and u.node == fleet:
                state.own(u).mp += amount


def sabotage(state: RiftState, player: int, amount: int) -> None:
    """A policy: the dearest enemy upgrade (not a military base) at a planet where p has a unit."""
    for _ in range(amount):
        here = {u.node for u in state.units if u.owner == player}
        targets = [(int(state.engine.upgrades[name]["cost"]), h, name) for h in sorted(here)
                   if state.owner.get(h) not in (None, player) for name in state.upgrades.get(h, [])
                   if name != "military_base"]  # fmt: skip
        if not targets:
            return
        _, h, name = max(targets)
        state.upgrades[h] = without(state.upgrades[h], name)


def steal(state: RiftState, player: int, amount: int) -> None:
    for _ in range(amount):
        others = [q for q in range(state.n) if q != player and state.hands[q]]
        if not others:
            return
        victim = max(others, key=lambda q: (len(state.hands[q]), -q))
        card = state.hands[victim].pop(state.rng.randbelow(len(state.hands[victim])))
        state.chance.record("steal", [victim, state.engine.occ[card].item])
        state.hands[player].append(card)


def meteors(state: RiftState, player: int, amount: int) -> None:
    """Damage outside a battle does not stay (a reading): a unit with no more shields + LP than the damage is
    destroyed, any other is unharmed."""
    system = state.engine.node_system[state.home[player]]
    planets = set(state.engine.system_planets[system])
    for u in [u for u in state.units if u.node in planets]:
        spec = state.engine.units[u.kind]
        if int(spec["lp"]) + int(spec["shields"]) <= amount:
            state._destroy(u)
