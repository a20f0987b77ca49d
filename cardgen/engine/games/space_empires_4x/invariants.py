"""Space Empires 4X's invariants (`violations`, which `SE4XState.invariant_violations` returns): CP, technology,
the counter mix, units in legal places, markers accounted for (`marker_violations`) and a battle under way consistent
with the board (`fight_violations`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.space_empires_4x.model import (
    DEPOSITED,
    ECON,
    MOVE,
    ON_MAP,
    TOWED,
)

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.model import Unit
    from cardgen.engine.games.space_empires_4x.state import SE4XState


def violations(state: SE4XState) -> list[str]:
    """Every invariant of the game that does not hold (`SE4XState.invariant_violations`): CP, technology levels,
    the counter mix and colony counters, units in legal places, no enemies sharing a hex once the battles are
    fought, a peek only in a move, the markers and the battle under way."""
    e = state.engine
    out: list[str] = []
    counters: dict[tuple[int, str], list[Unit]] = {}
    for u in state.units:
        counters.setdefault((u.owner, u.code), []).append(u)
    for p in range(state.n):
        if state.cp[p] < 0:
            out.append(f"seat {p} has {state.cp[p]} CP")
        for t, level in state.tech[p].items():
            if not e.tech_start[t] <= level <= e.tech_max[t]:
                out.append(f"seat {p}: {t} at level {level}, outside {e.tech_start[t]}–{e.tech_max[t]}")
        for code, limit in e.limits.items():
            mine = counters.get((p, code), [])
            if len(mine) > limit:
                out.append(f"seat {p}: {len(mine)} {code} counters in play, the mix has {limit}")
            if code in e.numbered and len({u.group for u in mine}) != len(mine):
                out.append(f"seat {p}: two {code} groups share a number")
        if len(state.colonies(p)) - (p not in state.out) > e.colonies_max:
            out.append(f"seat {p}: more colonies than colony counters")
    for u in state.units:
        single = u.code not in e.numbered  # a counter without a group number is one unit
        if (single and u.count != 1) or not 1 <= u.count <= e.group_max:
            out.append(f"unit {u.uid} ({u.code}) holds {u.count} ships")
        if not state.on[u.hex] or state.kind(u.hex) == "supernova":
            out.append(f"unit {u.uid} ({u.code}) is on hex {e.hex_label[u.hex]}, which is not a legal place")
        if u.code in e.immobile and state.col_owner[u.hex] != u.owner:
            out.append(f"unit {u.uid} ({u.code}) never moves but is off its colony")
        if u.owner in state.out:
            out.append(f"unit {u.uid} belongs to a player who is out")
    if state.phase == ECON:
        for h in {u.hex for u in state.units}:
            armed = {u.owner for u in state.units_at(h) if state.armed(u)}
            owners = {u.owner for u in state.units_at(h)}
            if len(armed) > 1 or (armed and len(owners) > 1):
                out.append(f"hex {e.hex_label[h]} holds enemies after every battle")
    if state.peeking >= 0 and (state.phase != MOVE or state.known_marker(state.player, state.peeking) < 0):
        out.append(f"a peek at hex {e.hex_label[state.peeking]} waits outside a move or at no face-down marker")
    out += marker_violations(state)
    out += fight_violations(state)
    return out


def fight_violations(state: SE4XState) -> list[str]:
    """A battle under way: each group in it is on the board at the battle's hex with the ships the battle counts,
    none carrying its hull's worth of hits, and screens only while screening is due."""
    fight = state.fight
    if fight is None:
        return []
    out = [] if state.phase == MOVE else [f"a battle is under way in the {state.phase} phase"]
    units = {u.uid: u for u in state.units}
    for f in fight.fighters:
        u = units.get(f.uid)
        if f.gone:
            continue
        if f.ships() == 0:
            if u is not None:
                out.append(f"unit {f.uid} ({u.code}) has no ship left in the battle but is still in play")
            continue
        if u is None or u.hex != fight.at or u.owner != fight.players[f.side] or u.count != f.ships():
            out.append(f"unit {f.uid}: the battle counts {f.ships()} ships at {state.engine.hex_label[fight.at]}")
        if any(not 0 <= hits < f.group.hull for hits in [*f.active, *f.screened]):
            out.append(f"unit {f.uid}: a ship in the battle carries {f.active + f.screened} hits")
    if fight.screen_left < 0 or (fight.screener < 0) != (fight.screen_left == 0):
        out.append(f"{fight.screen_left} screens left with side {fight.screener} screening")
    return out


def marker_violations(state: SE4XState) -> list[str]:
    out = []
    towing = {u.uid: u.tow for u in state.units if u.tow >= 0}
    for m, (where, at) in enumerate(state.mloc):
        if where == ON_MAP and state.marker_at[at] != m:
            out.append(f"marker {m} is on hex {at} but the hex holds {state.marker_at[at]}")
        if where == TOWED and towing.get(at) != m:
            out.append(f"marker {m} is towed by a unit that does not tow it")
        if where == DEPOSITED and state.col_owner[at] < 0:
            out.append(f"marker {m} is deposited where there is no colony")
    for h, m in enumerate(state.marker_at):
        if m >= 0 and state.mloc[m] != (ON_MAP, h):
            out.append(f"hex {h} shows marker {m}, which is elsewhere")
    for uid, m in towing.items():
        if state.mloc[m] != (TOWED, uid):
            out.append(f"unit {uid} tows marker {m}, which is elsewhere")
    return out
