"""What the greedy agent weighs in Space Empires 4X, and how a game stopped at the turn cap is judged.

`empire` is the adjudicated worth of an empire (and a solitaire run's score): its income plus a tenth of what its
fleet and technology cost. `outlook` (the search agent's heuristic) adds unspent CP and exploration and compares with
the opponents.

The greedy agent values one action from what the player can see, without cloning the game for each move: a move by how
much closer it brings the unit to its goal (a Colony Ship to the nearest planet it may settle, a Mining Ship to a marker
or home with its load, a Scout to the unexplored, warships to the nearest enemy Homeworld once the fleet is strong
enough, home otherwise; a warship well ahead of its fleet waits for it, and a unit already moving carries on before
another starts, since moving one ends the other's move), less the risk of the unexplored (the odds of Danger and Black
Holes among the region's face-down markers, which every player knows from the marker mix); a battle by the strength
it brings against what it sees, an undefended colony by a raid's worth, each over what the hex it leaves was worth (a
ship bombarding a colony stays on it); a battle's choices (targets, screening, retreat) by the calculator's policy;
purchases by a fixed order of needs (Ship Size first, colony ships while planets wait, warships as income allows).
Ending a move or a phase is worth a little more than a move that gains nothing, so units never wander.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardgen.engine.games.space_empires_4x import battle
from cardgen.engine.games.space_empires_4x.model import PEEK_DISCARDS

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.state import SE4XState

RESEARCH_NEED = {"ship-size": 6.0, "attack": 4.0, "defense": 3.5, "movement": 5.0, "terraforming": 2.5,
                 "tactics": 2.0, "ship-yard": 2.0, "exploration": 0.5}  # fmt: skip
WARSHIP_NEED = {"SC": 1.5, "DD": 5.0, "CA": 6.0, "BC": 7.0, "BB": 8.0, "DN": 9.0}
UNSEEN = 8  # the attack a face-down enemy counter is guessed to have (a group of two Destroyers)
STRIKE = 20  # attack points a fleet gathers before warships head for the enemy
ASSAULT = 25.0  # what moving into an enemy Homeworld with the odds is worth beyond the battle's own terms
PACK = 2.0  # hexes ahead of the middle of its fleet at which a warship waits for the rest
RAID = 4.0  # what a warship on an undefended enemy colony is worth (it blockades it and bombards it each turn)
UNDER_WAY = 1.0  # what carrying on with the unit already moving is worth over starting another
HAZARD = 10.0  # hexes of detour a warship takes round a sure loss (a hidden marker by its risk, a Black Hole 0.4)


def fleet_cost(state: SE4XState, player: int) -> int:
    return sum(state.spec(u).cost * u.count for u in state.units if u.owner == player)


def tech_cost(state: SE4XState, player: int) -> int:
    e = state.engine
    return sum(
        e.tech_cost[t][lv] for t, level in state.tech[player].items() for lv in range(e.tech_start[t] + 1, level + 1)
    )


def income(state: SE4XState, player: int) -> int:
    return sum(state.col_cp[h] for h in state.colonies(player))


def empire(state: SE4XState, player: int) -> float:
    if player in state.out:
        return 0.0
    return income(state, player) + (fleet_cost(state, player) + tech_cost(state, player)) / 10


def position(state: SE4XState, player: int) -> float:
    if player in state.out:
        return -100.0
    grounded = sum(1 for h in state.colonies(player) if state.col_cp[h] == 0)
    return (3.0 * income(state, player) + 4.0 * grounded + 0.5 * state.cp[player] + 0.8 * fleet_cost(state, player)
            + 0.7 * tech_cost(state, player) + 0.3 * state.explored[player])  # fmt: skip


def outlook(state: SE4XState, player: int) -> float:
    if state.is_terminal() and state.n > 1:
        return 1000.0 * state.returns()[player]
    others = [q for q in state.alive(state.n) if q != player]
    mine = position(state, player)
    return mine - sum(position(state, q) for q in others) / len(others) if others else mine


# -- the greedy agent's valuation --------------------------------------------------------------------------------------


def distances(state: SE4XState, sources: list[int], hazard: tuple[float, ...] | None = None) -> Sequence[float]:
    """Hexes from the nearest source over the map, or with `hazard` the cheapest way there, entering hex h costing
    hazard[h] (a large number where none is reachable); remembered by the engine (`boards.Distances`)."""
    return state.engine.distances.of(state.n, state.adj, sources, hazard)


class Goals:
    """Distance maps to what each kind of unit of player p is after, computed once per decision."""

    def __init__(self, state: SE4XState, player: int):
        on = state.on
        hexes = range(len(on))
        kind = [state.kind(h) for h in hexes]  # what p knows: turned up, or peeked at and left face down
        peeked = {h for h in state.known[player] if state.known_marker(player, h) >= 0}
        for h in peeked:
            kind[h] = state.kind_for(player, h)
        hidden = [h for h in hexes if on[h] and state.marker_at[h] >= 0 and not state.revealed[h] and h not in peeked]
        enemy_here = {u.hex for u in state.units if u.owner != player}
        terra = state.tech[player]["terraforming"] > 0
        settle = [h for h in hexes if on[h] and state.col_owner[h] == -1 and h not in enemy_here
                  and (kind[h] == "planet" or (terra and kind[h] == "barren"))]  # fmt: skip
        ore = [h for h in hexes if on[h] and kind[h] in ("minerals", "space-wreck") and h not in enemy_here]
        enemy_homes = [state.home[q] for q in state.alive(state.n) if q != player]  # the way to win
        self.risk = {}
        for region in ["deep", *state.colours]:
            kinds = [
                state.engine.markers[state.marker_at[h]].kind for h in hidden if state.engine.hex_region[h] == region
            ]
            deadly = sum(1 for k in kinds if k == "danger") + 0.4 * sum(1 for k in kinds if k == "black-hole")
            self.risk[region] = deadly / len(kinds) if kinds else 0.0
        # warships go round what may destroy them (the unexplored by its risk, known Black Holes) where a way exists:
        # a fleet that only counted hexes stopped at a Black Hole or a hidden marker on the straight way, for good
        hidden_set = set(hidden)
        hazard = tuple(1.0 + (HAZARD * self.risk[state.engine.hex_region[h]] if h in hidden_set else 0.0)
                       + (HAZARD * 0.4 if kind[h] == "black-hole" else 0.0) for h in hexes)  # fmt: skip
        self.unexplored = distances(state, hidden) if hidden else None
        self.settle = distances(state, settle) if settle else None
        self.ore = distances(state, ore) if ore else None
        self.home = distances(state, state.colonies(player), hazard)
        self.enemy = distances(state, enemy_homes, hazard) if enemy_homes else None
        fleet = [u for u in state.units if u.owner == player and state.armed(u) and u.code not in state.engine.immobile]
        attack = sum(state.spec(u).attack * u.count for u in fleet)
        self.strike = attack >= STRIKE
        self.front = 0.0  # how far from its target the middle of the fleet is, by attack: the pack moves together
        if self.enemy is not None and fleet:
            weighted = sorted((self.enemy[u.hex], state.spec(u).attack * u.count) for u in fleet)
            half, running = attack / 2, 0
            for distance, weight in weighted:
                running += weight
                if running >= half:
                    self.front = distance
                    break
        self.colonists = sum(1 for u in state.units if u.owner == player and u.code == "CO")
        self.miners = sum(1 for u in state.units if u.owner == player and u.code == "Miner")
        self.places = len(settle)
        self.ores = len(ore)

    def target(self, state: SE4XState, u: Any) -> tuple[Sequence[float] | None, float]:
        """The distance map a unit heads along, and how much a hex closer is worth."""
        if u.code == "CO":
            return self.settle, 2.0
        if u.code == "Miner":
            return (self.home, 2.0) if u.tow >= 0 else (self.ore, 1.5)
        if u.code == "SC":
            return self.unexplored, 1.0
        if state.armed(u):
            if self.strike and self.enemy is not None:
                ahead = self.enemy[u.hex] < self.front - PACK  # well ahead of the fleet: wait for it
                return self.enemy, (0.0 if ahead else 0.3) * u.count * state.spec(u).hull
            return self.home, 0.1
        return None, 0.0


_last: list[Any] = [None, None]


def goals(state: SE4XState, player: int) -> Goals:
    legal = state.legal_actions()  # a new list whenever the state changes: the key of this decision
    if _last[0] is not legal:
        _last[0], _last[1] = legal, Goals(state, player)
    found: Goals = _last[1]
    return found


_policy: list[Any] = [None, None]


def battle_policy(state: SE4XState) -> Any:
    """The calculator's policy for the battle choice due now (`battle.default`), worked out once per decision."""
    legal = state.legal_actions()
    if _policy[0] is not legal:
        _policy[0], _policy[1] = legal, battle.default(state)
    return _policy[1]


def action_value(state: SE4XState, action: Any, player: int) -> float:
    tag = action.tag
    if tag in ("end-move", "end-econ"):
        return 0.01
    if tag in ("screen", "open-fire", "fire", "retreat"):  # in battle, greedy plays the calculator's policy
        return 1.0 if action == battle_policy(state) else 0.0
    g = goals(state, player)
    if tag == "move":
        return _move_value(state, g, state.unit(action.uid), action.to)
    if tag == "colonize":
        return 20.0
    if tag == "load":
        return 8.0
    if tag == "unload":
        return 10.0
    if tag == "peek":
        return 1.0
    if tag == "peek-choice":  # turn up what the reveal discards (a hazard cleared); keep the rest to itself
        discarded = state.engine.markers[state.marker_at[state.peeking]].kind in PEEK_DISCARDS
        return (1.0 if discarded else 0.0) if action.reveal else 0.5
    if tag == "shift":  # moving an opponent's lost units: towards the unexplored (and its dangers), away from home
        return (1.0 if state.marker_at[action.to] >= 0 and not state.revealed[action.to] else 0.0) + 0.1 * min(
            (state.engine.distance(action.to, h) for h in state.colonies(player)), default=0
        )
    if tag == "scuttle":
        return -float(state.spec(state.unit(action.uid)).cost)
    if tag == "research":
        need = RESEARCH_NEED.get(action.tech, 0.0)
        if action.tech == "ship-size" and state.tech[player]["ship-size"] >= 4:
            need = 1.0
        if action.tech in ("attack", "defense", "tactics") and state.tech[player]["ship-size"] < 3:
            need = 0.5
        if action.tech == "terraforming" and not any(state.kind(h) == "barren" for h in range(len(state.on))):
            need = 0.2
        return need
    if tag == "build":
        return _build_value(state, g, player, action.code)
    if tag == "upgrade":
        return 1.5
    if tag == "battle":  # the battles in map order (the order the engine fought them in before it was a choice)
        return -float(action.at)
    return -1.0  # bids: greedy keeps its CP


def _move_value(state: SE4XState, g: Goals, u: Any, to: int) -> float:
    dist, weight = g.target(state, u)
    value = 0.0
    if dist is not None:
        value += weight * (dist[u.hex] - dist[to])
    p = u.owner
    if state.marker_at[to] >= 0 and not state.revealed[to] and state.known_marker(p, to) < 0:
        value += 3.0 - g.risk[state.engine.hex_region[to]] * state.spec(u).cost * u.count
    elif state.kind_for(p, to) == "black-hole":
        value -= 0.4 * state.spec(u).cost * u.count
    # a battle or a raid is worth what it is worth over where the unit is: a ship bombarding a colony stays on it
    # rather than hopping out and back in
    value += _contact_value(state, u, to) - _contact_value(state, u, u.hex)
    if u.steps > 0 and value > 0:
        value += UNDER_WAY  # finish one unit's move first: moving another ends this one's (Movement)
    return value


def _contact_value(state: SE4XState, u: Any, h: int) -> float:
    """What unit u being at hex h with an enemy or an enemy colony there is worth: by the odds of the ships that can
    join it this turn against what it sees, and a Homeworld they can take above all (0: no enemy there)."""
    p = u.owner
    enemies = state.enemies_at(h, p)
    if not enemies and state.col_owner[h] in (-1, p):
        return 0.0
    near = {h, *state.adj[h]}  # the player's ships there or next to it can join the attack this turn
    mine = sum(state.spec(x).attack * x.count for x in state.units if x.owner == p and x.hex in near
               and state.armed(x) and (x.hex == h or x is u or not x.stopped))  # fmt: skip
    theirs = sum(state.spec(x).attack * x.count if x.seen or x.code in state.engine.singles else UNSEEN
                 for x in enemies if state.armed(x) or not x.seen)  # fmt: skip
    home = h in (state.home[q] for q in state.alive(state.n) if q != p)
    if theirs == 0 and not home:
        return RAID  # an undefended colony: worth a raid (a blockade, its steps bombarded away), not a detour
    ratio = mine / max(theirs, 1)
    value = 5.0 * (min(ratio, 4.0) - 1.5)
    if ratio >= 1.5 and home:
        value += ASSAULT  # the way to win: a Homeworld the fleet on the spot can take
    return value


def _build_value(state: SE4XState, g: Goals, player: int, code: str) -> float:
    upkeep = sum(state.spec(u).hull * u.count for u in state.units if u.owner == player and state.spec(u).maintained)
    if code == "CO":
        return 8.0 if g.places > g.colonists else -1.0
    if code == "Miner":
        return 6.0 if g.ores > g.miners else -1.0
    if code == "SY":
        return 1.0
    if code == "Base":
        return 2.0
    if code in WARSHIP_NEED:
        if upkeep + state.spec_of(code).hull > 0.5 * income(state, player):
            return -1.0
        return WARSHIP_NEED[code]
    return -1.0
