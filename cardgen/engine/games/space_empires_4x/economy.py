"""Space Empires 4X's Economic Phase: what a player may buy (`actions`, `build_problem`), income, maintenance and
Space Wrecks at its start (`begin`), purchases (`build`), the end of a player's phase (`end_of`) and of the round's
(`end_round`: bids decide the order, colonies grow, unspent CP above the carry-over is lost). Functions of the state,
called by `state.SE4XState` (the rules are described in its module docstring)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cardgen.engine.core import Action
from cardgen.engine.games.space_empires_4x.model import (
    AUTO_UPGRADED,
    DEPOSITED,
    GONE,
    OVER,
    Bid,
    Build,
    EndEcon,
    Research,
    Scuttle,
    Unit,
    Upgrade,
)

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.state import SE4XState

TAGS = frozenset({"scuttle", "research", "build", "upgrade", "bid", "end-econ"})  # the actions `act` applies


def raised(levels: dict[str, int], tech: str) -> dict[str, int]:
    """A player's technology levels with one raised a level: a new dict (clones share the old one)."""
    return {**levels, tech: levels[tech] + 1}


def act(state: SE4XState, player: int, action: Action) -> None:
    """Apply one of the player's Economic Phase actions (`TAGS`)."""
    tag = action.tag
    if tag == "scuttle":
        u = state.unit(action.uid)
        state.due[player] -= state.spec(u).hull * u.count
        state._remove(u)
        pay(state, player)
    elif tag == "research":
        state.cp[player] -= state.engine.tech_cost[action.tech][state.tech[player][action.tech] + 1]
        state.tech[player] = raised(state.tech[player], action.tech)
        state.bought[player] = state.bought[player] | {action.tech}
        state.events.add(f"research:{action.tech}")
    elif tag == "build":
        build(state, player, action.code, action.at)
    elif tag == "upgrade":
        u = state.own(state.unit(action.uid))
        cost = upgrade_cost(state, u)
        assert cost is not None
        state.cp[player] -= cost
        t = state.tech[player]
        u.att, u.dfn, u.tac, u.move = t["attack"], t["defense"], t["tactics"], t["movement"]
        state.events.add("upgrade")
    elif tag == "bid":
        state.bid[player] = action.amount
        state.cp[player] -= action.amount
    else:
        end_of(state, player)


def actions(state: SE4XState) -> list[Action]:
    p = state.player
    if state.due[p] > state.cp[p]:
        return [Scuttle(u.uid) for u in state.units if u.owner == p and state.spec(u).maintained]
    out: list[Action] = []
    for t in state.engine.techs:
        if research_cost(state, p, t) is not None:
            out.append(Research(t))
    # what `build_problem` refuses anywhere (too dear, too big) is settled once
    units, size = state.engine.units, state.tech[p]["ship-size"]
    cp = state.cp[p]
    codes = [c for c in state.engine.buildable if units[c].cost <= cp and size >= units[c].size_tech]
    if codes:
        out += _builds(state, p, codes)
    yards = yard_hexes(state, p)  # what `upgrade_cost` asks of every unit, found once: units elsewhere are not asked
    out += [Upgrade(u.uid) for u in state.units if u.owner == p and u.hex in yards
            and upgrade_cost(state, u, yards) is not None]  # fmt: skip
    if not state.bid[p]:
        out += [Bid(a) for a in state.engine.bid_amounts if a <= state.cp[p]]
    out.append(EndEcon())
    return out


def _builds(state: SE4XState, p: int, codes: list[str]) -> list[Action]:
    """Every build the player may make, colony by colony, of the types `codes` (those the player can afford and
    has the Ship Size for): `build_problem`'s rules with what they count worked out once — the player's counters in
    play by type, each colony's units, blockade, Ship Yards and Base — rather than once a (type, colony). The moves
    and builds test holds the two to the same list at every Economic decision of seeded games."""
    engine = state.engine
    used: dict[str, int] = {}
    colonies = state.colonies(p)
    by_hex: dict[int, list[Unit]] = {h: [] for h in colonies}
    for u in state.units:
        if u.hex in by_hex:
            by_hex[u.hex].append(u)
        if u.owner == p:
            used[u.code] = used.get(u.code, 0) + 1
    limits, numbered, group_max, fresh = engine.limits, engine.numbered, engine.group_max, state.fresh
    # per type: at its counter limit (only joining a group built this phase then), its hull
    kinds = [(code, used.get(code, 0) >= limits[code], engine.units[code].hull) for code in codes]
    out: list[Action] = []
    for h in colonies:
        here = by_hex[h]
        if not state.income_colony(h, p) or state.blockaded(h, here):
            continue
        room = yard_room(state, p, h, here)
        for code, at_limit, hull in kinds:
            if code == "SY":
                yards = [u for u in here if u.owner == p and u.code == "SY"]
                if state.yards_new.get((p, h)) or (yards[0].count >= group_max if yards else at_limit):
                    continue
            else:
                if at_limit:
                    joined = fresh.get((p, code, h))
                    if joined is None or code not in numbered or state.unit(joined).count >= group_max:
                        continue
                if code == "Base":
                    if any(u.code == "Base" for u in here if u.owner == p):
                        continue
                elif code != "Decoy" and room < hull:
                    continue
            out.append(Build(code, h))
    return out


def research_cost(state: SE4XState, player: int, t: str) -> int | None:
    level = state.tech[player][t]
    if t in state.bought[player] or level >= state.engine.tech_max[t]:
        return None
    cost = state.engine.tech_cost[t][level + 1]
    return cost if cost <= state.cp[player] else None


def yard_room(state: SE4XState, player: int, h: int, here: Iterable[Unit] | None = None) -> float:
    """The hulls the player's Ship Yards at hex h may still build this phase (`here`: the units at h, if known)."""
    units = state.units_at(h) if here is None else here
    yards = sum(u.count for u in units if u.owner == player and u.code == "SY") - state.yards_new.get((player, h), 0)
    return yards * state.engine.yard_capacity[state.tech[player]["ship-yard"]] - state.built_at[player].get(h, 0.0)


def build_problem(state: SE4XState, player: int, code: str, h: int) -> str | None:
    """Why player p may not build one `code` at colony h now (None: it may). The listing works the same rules out
    for every type and colony at once (`_builds`)."""
    spec = state.engine.units[code]
    if spec.cost > state.cp[player]:
        return "not enough CP"
    here = list(state.units_at(h))
    if state.blockaded(h, here):
        return "the colony is blockaded (nothing is placed where enemy warships wait)"
    if state.tech[player]["ship-size"] < spec.size_tech:
        return "Ship Size technology too low"
    used = state.counters_used(player, code)
    fresh = state.fresh.get((player, code, h))
    joins = fresh is not None and code in state.engine.numbered and state.unit(fresh).count < state.engine.group_max
    if code == "SY":
        existing = [u for u in here if u.owner == player and u.code == "SY"]
        if state.yards_new.get((player, h)):
            return "one Ship Yard per planet per Economic Phase"
        if existing and existing[0].count >= state.engine.group_max:
            return "the Ship Yard group is full"
        if not existing and used >= state.engine.limits[code]:
            return "every Ship Yard counter is in play"
        return None
    if not joins and used >= state.engine.limits[code]:
        return f"every {code} counter is in play"
    if code == "Base":
        return "one Base per colony" if any(u.code == "Base" for u in here if u.owner == player) else None
    if code == "Decoy":
        return None
    if yard_room(state, player, h, here) < spec.hull:
        return "no Ship Yard capacity left here"
    return None


def yard_hexes(state: SE4XState, player: int) -> set[int]:
    """The hexes where the player has Ship Yards."""
    return {u.hex for u in state.units if u.owner == player and u.code == "SY"}


def upgrade_cost(state: SE4XState, unit: Unit, yards: set[int] | None = None) -> int | None:
    """What upgrading a unit to its owner's technology costs (None: it may not be upgraded now); `yards`: the hexes
    of the owner's Ship Yards (`yard_hexes`), if known."""
    p = unit.owner
    if unit.code in AUTO_UPGRADED or not state.armed(unit) or unit.new:
        return None
    t = state.tech[p]
    if (unit.att, unit.dfn, unit.tac, unit.move) == (t["attack"], t["defense"], t["tactics"], t["movement"]):
        return None
    if unit.hex not in (yard_hexes(state, p) if yards is None else yards):  # upgrades are made at a Ship Yard
        return None
    cost = state.spec(unit).hull * unit.count * state.engine.upgrade_cost
    return cost if cost <= state.cp[p] else None


def begin(state: SE4XState, player: int) -> None:
    """Income (Homeworld, colonies, deposited Minerals, none where blockaded), Space Wrecks, maintenance due."""
    e = state.engine
    income = 0
    for h in state.colonies(player):
        if state.blockaded(h):
            continue
        income += state.col_cp[h]
    for m, (where, at) in enumerate(state.mloc):
        if where != DEPOSITED or state.col_owner[at] != player or state.blockaded(at):
            continue
        spec = e.markers[m]
        state.mloc[m] = (GONE, 0)
        state.events.add(f"marker:{spec.kind}")
        if spec.kind == "minerals":
            income += spec.cp
        else:  # a Space Wreck: a random technology one level up
            roll = state.rng.randbelow(e.die) + 1
            tech = next(t for t, lo, hi in e.wreck_table if lo <= roll <= hi)
            state.chance.record("space wreck", [roll, tech])
            if state.tech[player][tech] < e.tech_max[tech]:
                state.tech[player] = raised(state.tech[player], tech)
    state.cp[player] += income
    state.due[player] = sum(
        state.spec(u).hull * u.count for u in state.units if u.owner == player and state.spec(u).maintained
    )
    pay(state, player)


def pay(state: SE4XState, player: int) -> None:
    if state.due[player] <= state.cp[player]:
        state.cp[player] -= state.due[player]
        state.due[player] = 0


def build(state: SE4XState, player: int, code: str, h: int) -> None:
    spec = state.engine.units[code]
    state.cp[player] -= spec.cost
    state.events.add(f"build:{code}")
    if code == "SY":  # placed this phase: it builds nothing until the next
        state.yards_new[(player, h)] = state.yards_new.get((player, h), 0) + 1
        existing = next((u for u in state.units_at(h) if u.owner == player and u.code == "SY"), None)
        if existing is not None:
            state.own(existing).count += 1
        else:
            state._add_unit(player, code, 1, h).new = True
        return
    if code not in ("Base", "Decoy"):
        state.built_at[player] = {**state.built_at[player], h: state.built_at[player].get(h, 0.0) + spec.hull}
    fresh = state.fresh.get((player, code, h))
    if fresh is not None and code in state.engine.numbered and state.unit(fresh).count < state.engine.group_max:
        state.own(state.unit(fresh)).count += 1
        return
    u = state._add_unit(player, code, 1, h)
    u.new = True
    state.fresh[(player, code, h)] = u.uid


def end_of(state: SE4XState, player: int) -> None:
    seats = state._seats()
    after = [q for q in seats if state.order.index(q) > state.order.index(player)]
    if after:
        state.player = after[0]
        begin(state, state.player)
        return
    end_round(state)


def end_round(state: SE4XState) -> None:
    """Bids set the order, colonies grow, Homeworlds grow back, CP above the carry-over is lost."""
    e = state.engine
    seats = state._seats()
    top = max(state.bid[p] for p in seats)
    if top > 0 and sum(1 for p in seats if state.bid[p] == top) == 1:
        winner = next(p for p in seats if state.bid[p] == top)
        state.order = [winner] + [p for p in state.order if p != winner]
    for h, q in enumerate(state.col_owner):
        if q < 0:
            continue
        if h == state.home[q]:
            state.col_cp[h] = min(e.home_income, state.col_cp[h] + e.regrowth)
        else:
            later = [g for g in e.growth if g > state.col_cp[h]]
            state.col_cp[h] = later[0] if later else state.col_cp[h]
    for p in range(state.n):
        state.cp[p] = min(state.cp[p], e.carry_max)
        state.bid[p] = 0
        state.bought[p] = set()
        state.built_at[p] = {}
    state.fresh = {}
    state.yards_new = {}
    for u in state.units:
        if u.new:
            state.own(u).new = False
    state.turns = state.turns + 1  # not +=: mypyc (hatch_build.py)
    state.turn = 0
    if state.n == 1 and e.turn_cap is not None and state.turns >= e.turn_cap:
        state.phase, state.ending = OVER, f"solitaire: {e.turn_cap} Economic Phases played"
        return
    state.player = state._seats()[0]
    state._start_turn()
