"""Rift Domination's battles in the game: the battle-card windows (`begin_battle`, `next_in_window`, `joiners`),
space and ground battles fought through `battle.fight` (`space_battle`, `ground_battle`, `fight_out`), retreat
points, revenge and the spoils. Functions of the state, called by `state.RiftState`."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from cardgen.engine.core import Action
from cardgen.engine.games.rift_domination import movement, planets
from cardgen.engine.games.rift_domination.battle import DEFENDER, Battle, fight, muster, shield_up, shields_each
from cardgen.engine.games.rift_domination.model import (
    BATTLE_UPGRADES,
    BATTLE_VERBS,
    NO_CARDS,
    Fight,
    Move,
    Played,
    Unit,
)

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState


def battle_cards(state: RiftState, seat: int, side: int) -> list[int]:
    """The battle OCC-cards a seat may play now (Ambush only when it defends), one of each kind."""
    chosen = state.fighting.cards[side] if state.fighting is not None else ()
    out = []
    for c in sorted(set(state.hands[seat])):
        verbs = {e.verb for e in state.engine.occ[c].effects}
        if not state.engine.occ[c].effects:
            continue
        if state.engine.occ[c].when != "battle" or not verbs or not verbs <= set(BATTLE_VERBS):
            continue
        if "first-strike" in verbs and side != DEFENDER:
            continue
        if any(verbs & {e.verb for e in state.engine.occ[x].effects} for x in chosen):
            continue
        out.append(c)
    f = state.fighting
    if f is not None and state.owner.get(f.node) == seat and "military_base" in state.upgrades.get(f.node, []):
        out += [c for c in sorted(set(state.hands[seat])) if recruits(state, c)
                and (state.engine.occ[c].when == "any-time" or seat == state.player)]  # fmt: skip
    if f is not None:  # an immunity card shields units of that type that are in this battle
        for c in sorted(set(state.hands[seat])):
            kind = shields_kind(state, c)
            if kind and any(u.owner == seat and u.node == f.node and u.kind == kind and state.targetable(u)
                            for u in state.units):  # fmt: skip
                out.append(c)
    return out


def shields_kind(state: RiftState, card: int) -> str:
    """The unit type an any-time immunity card protects ('' for any other card)."""
    effects = state.engine.occ[card].effects
    if state.engine.occ[card].when == "any-time" and len(effects) == 1 and effects[0].verb == "immunity":
        return effects[0].opt("unit", "diplomat")
    return ""


def recruits(state: RiftState, card: int) -> bool:
    """A recruiting card ('can you play recruitment OCC-cards while in a battle? Yes'): where the battle is fought
    at the player's military base, its units join the battle."""
    effects = state.engine.occ[card].effects
    return len(effects) == 1 and effects[0].verb == "recruit" and state.engine.occ[card].when != "instant"


def begin_battle(state: RiftState, player: int, other: int, node: int, came: int, ground: bool) -> None:
    """A battle starts: the attacker, then the defender, may play battle OCC-cards (a window each, opened only
    when the seat holds one), then it is fought."""
    state.fighting = Fight(player, other, node, came, ground)
    next_in_window(state)


def next_in_window(state: RiftState) -> None:
    f = state.fighting
    assert f is not None
    while f.stage < 2 and not battle_cards(state, f.seat, f.stage) and not (f.stage == 0 and joiners(state, f)):
        f = dataclasses.replace(f, stage=f.stage + 1)
    state.fighting = f
    if f.stage < 2:
        state.ask("battle", f.seat)
        return
    state.fighting = None
    played = (frozenset(e for c in f.cards[0] for e in state.engine.occ[c].effects),
              frozenset(e for c in f.cards[1] for e in state.engine.occ[c].effects))  # fmt: skip
    back = dict(f.joined)
    if f.ground:
        ground_battle(state, f.attacker, f.node, f.came, f.defender, played, back)
    else:
        space_battle(state, f.attacker, f.node, f.came, f.defender, played, back)
    state._continue()


def rules_for(state: RiftState, ground: bool) -> Battle:
    return Battle(state.engine.battle_rules, state.engine.kinds, ground=ground)


def kind_index(state: RiftState, kind: str, player: int = -1, ground: bool = False, building: bool = False) -> int:
    """A unit's or upgrade's kind in battle: the owner's faction's variant where its effects change it."""
    if player >= 0 and (state.faction[player], kind, ground) in state.engine.variant:
        return state.engine.variant[(state.faction[player], kind, ground)]
    return next(i for i, k in enumerate(state.engine.kinds) if k.name == kind and k.building == building)


def joiners(state: RiftState, fight: Fight) -> list[Action]:
    """FAQ — 'Can you move 2 fleets at the same time to attack the same target simultaneously? Yes': in the
    attacker's window, its other units that can step to the battle's point join the attack (space units a space
    battle, with their cargo; ground units a ground battle)."""
    out: list[Action] = []
    node, adj, through = fight.node, state.adj, fight.node in state.wormholes  # a step's target: a next point, or
    for u in state.units:  # a wormhole's system (`movement.moves`): units that reach neither are not asked
        if (u.owner == fight.attacker and u.mp > 0 and u.node != node and (through or node in adj[u.node])
                and state.ground(u) == fight.ground):  # fmt: skip
            out += [m for m in movement.moves(state, u) if isinstance(m, Move) and m.to == node]
    return out


def space_battle(state: RiftState, player: int, node: int, came: int, other: int, played: Played = NO_CARDS,
                  back: dict[int, int] | None = None) -> None:  # fmt: skip
    """Every space unit of p and of q at the point fights (ground units aboard are cargo)."""
    mine = [u for u in state.units if u.owner == player and u.node == node and not state.ground(u)]
    theirs = [u for u in state.units if u.owner == other and u.node == node and not state.ground(u)]
    fight_out(state, player, other, node, came, mine, theirs, False, [], played=played, back=back)


def retreat_point(state: RiftState, other: int, node: int) -> int | None:
    """Where a defender's fleet retreats (a reading, rules.yaml): a next point holding no other player's unit,
    inside the system when an enemy blockade holds it there; the one fewest steps from its home planet, the
    first on the board on a tie. None when there is no such point (the defender cannot retreat)."""
    e = state.engine
    held = {u.node for u in state.units if u.owner != other}
    blocked = state.blockades.get(e.node_system[node]) not in (None, other)
    options = [t for t in state.adj[node] if t not in held
               and not (blocked and e.node_system[t] != e.node_system[node])]  # fmt: skip
    if not options:
        return None
    steps, frontier = {state.home[other]: 0}, [state.home[other]]
    while frontier:
        nxt = []
        for h in frontier:
            for t in state.adj[h]:
                if t not in steps:
                    steps[t] = steps[h] + 1
                    nxt.append(t)
        frontier = nxt
    return min(options, key=lambda t: (steps.get(t, len(state.adj)), t))


def ground_battle(state: RiftState, player: int, planet: int, came: int, other: int, played: Played = NO_CARDS,
                   back: dict[int, int] | None = None) -> None:  # fmt: skip
    mine = [
        u for u in state.units if u.owner == player and u.node == planet and state.ground(u) and state.targetable(u)
    ]
    theirs = [
        u for u in state.units if u.owner == other and u.node == planet and state.ground(u) and state.targetable(u)
    ]
    buildings = ["outpost"] + [b for b in state.upgrades.get(planet, []) if b in BATTLE_UPGRADES]
    orbit = [u for u in state.units if u.owner == player and u.node == planet and not state.ground(u)]
    won = fight_out(state, player, other, planet, came, mine, theirs, True, buildings, orbit, played, back)
    if won:
        kept = [b for b in state.upgrades.get(planet, []) if b not in BATTLE_UPGRADES]
        state.upgrades[planet] = kept
        planets.control(state, player, planet)


def fight_out(state: RiftState, player: int, other: int, node: int, came: int, mine: list[Unit], theirs: list[Unit],
              ground: bool, buildings: list[str], orbit: list[Unit] | None = None, played: Played = NO_CARDS,
              back: dict[int, int] | None = None) -> bool:  # fmt: skip
    """Resolve a battle with `battle.fight` and the battle cards played; survivors stay, the losers' units there
    are destroyed, the winner gains the battle VP. True when p (the attacker) won."""
    battle = rules_for(state, ground)
    escape = None if ground else retreat_point(state, other, node)
    battle.can_retreat = (True, escape is not None)  # 'Retreat (attacker or defender)'
    battle.cards = (frozenset(e.verb for e in played[0]), frozenset(e.verb for e in played[1]))
    battle.revenge = (revenge(state, player), revenge(state, other))
    battle.buildings_first = (False, ground and state.fac(other).modifier("buildings-first") is not None)
    kinds = state.engine.kinds
    fleet_a = [kind_index(state, u.kind, player, ground) for u in mine]
    fleet_d = [kind_index(state, u.kind, other, ground) for u in theirs]
    fleet_d += [kind_index(state, b, other, ground, building=True) for b in buildings]
    if not any(sum(kinds[k].weapons) for k in fleet_a + fleet_d):
        return False  # nothing there can fire (envoys and tenders alone): no battle, the units share the point
    start = muster(battle, [fleet_a, fleet_d], [[kind_index(state, u.kind, player) for u in orbit or []], []])
    for side, seat in ((0, player), (1, other)):
        extra = state.fac(seat).modifier("home-shields")
        if extra and state.engine.node_system[node] == state.engine.node_system[state.home[seat]]:
            start = shields_each(battle, start, side, extra)
        ward = state.fac(seat).modifier("battle-ward")  # 'ignores the first hit it takes': a shield used once
        if ward:
            start = shield_up(battle, start, side, ward)
        for e in played[side]:
            if e.verb == "battle-shields":
                start = shield_up(battle, start, side, e.amount)
    outcome, end = fight(battle, start, state.rng)
    state.chance.record("battle", [state.engine.node_label[node], outcome])
    state.events.add("battle")
    for side, units in ((0, mine), (1, theirs)):
        left = [kinds[x[0]].name for x in battle.units(end, side) if not kinds[x[0]].building]
        for u in units:
            if u.kind in left:
                left.remove(u.kind)
            else:
                state._destroy(u)
    if ground:
        standing = {kinds[x[0]].name for x in battle.units(end, DEFENDER) if kinds[x[0]].building}
        state.upgrades[node] = [b for b in state.upgrades.get(node, []) if b not in BATTLE_UPGRADES or b in standing]
    if outcome == "attacker retreats":  # a fleet retreats with its cargo
        going = mine if ground else [u for u in state.units if u.owner == player and u.node == node]
        for u in going:
            if u in state.units:  # each to the point it came from (a unit that joined the attack, its own)
                u = state.own(u)
                u.node, u.mp = (back or {}).get(u.uid, came), 0
    elif outcome == "defender retreats" and escape is not None:  # its fleet with its cargo; a planet's own stay
        for u in [u for u in state.units if u.owner == other and u.node == node]:
            if not (state.engine.is_planet[node] and state.ground(u)):
                state.own(u).node = escape
        state.events.add("defender-retreats")
    winner = {"attacker wins": player, "defender wins": other}.get(outcome)
    if winner is not None:
        state.vp[winner] += state.engine.battle_vp
        loser = other if winner == player else player
        for u in [x for x in state.units if x.owner == loser and x.node == node and state.targetable(x)]:
            if not ground or state.ground(u):
                state._destroy(u)  # the beaten side's cargo at that point goes down with its fleet
        spoils(state, winner, loser, len(theirs) if winner == player else len(mine), ground)
        beaten = theirs if winner == player else mine
        if any(e.verb == "salvage" for e in played[0 if winner == player else 1]):
            state.resources[winner] += sum(state.engine.costs[u.kind] for u in beaten) // 2
    return winner == player


def revenge(state: RiftState, seat: int) -> tuple[int, int] | None:
    found = next((x for x in state.fac(seat).effects if x.verb == "revenge"), None)
    return None if found is None else (found.num("roll", 5), found.amount)


def spoils(state: RiftState, winner: int, loser: int, destroyed: int, ground: bool) -> None:
    """What a winning faction takes from a battle (`win-loot`, `win-salvage`)."""
    for e in state.fac(winner).effects:
        if e.verb == "win-loot" and (e.opt("battle") != "space" or not ground):
            taken = min(e.amount, state.resources[loser])
            state.resources[loser] -= taken
            state.resources[winner] += taken
        elif e.verb == "win-salvage":
            state.resources[winner] += min(e.amount * destroyed, e.num("max", e.amount * destroyed))
