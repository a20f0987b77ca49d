"""Space Empires 4X's invariants beyond the units' and seats': markers accounted for (`marker_violations`) and a
battle under way consistent with the board (`fight_violations`); `SE4XState.invariant_violations` adds them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.space_empires_4x.model import (
    DEPOSITED,
    MOVE,
    ON_MAP,
    TOWED,
)

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.state import SE4XState


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
