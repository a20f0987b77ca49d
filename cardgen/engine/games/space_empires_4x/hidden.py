"""What a search may not know in Space Empires 4X: the other players' purchases of this Economic Phase
(`forget_purchases`) and which face-down counter is which (`redeal_groups`); `SE4XState.determinize` uses both."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.space_empires_4x.model import (
    Unit,
)
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.state import SE4XState


def forget_purchases(state: SE4XState, player: int) -> None:
    """The other players' purchases of this Economic Phase, which `player` has not seen (the phase is
    simultaneous; the engine takes the players in turn), are left out of a search's state, with the records that
    point at them (their CP, which nobody else sees, stays spent)."""
    if not any(u.new and u.owner != player for u in state.units):
        return
    state.units = [u for u in state.units if not u.new or u.owner == player]
    state.fresh = {key: uid for key, uid in state.fresh.items() if key[0] == player}
    state.yards_new = {key: k for key, k in state.yards_new.items() if key[0] == player}
    state.built_at = [b if q == player else {} for q, b in enumerate(state.built_at)]


def redeal_groups(state: SE4XState, player: int, rng: CounterRng) -> None:
    """Shuffle what the other players' face-down counters are — type, size, group number and the technology
    built into them — among each player's own face-down counters, which keep their places and their moves this
    turn. A searching player then knows how many counters an enemy has where, as the table shows, and which
    groups the enemy owns in all (a simplification: purchases are secret at the table), but not which counter
    is which: a Decoy may be the fleet and the fleet a Decoy. Left as they are: groups revealed in combat,
    single ships (always face up), Ship Yards and Bases (they never move: a search keeps them on colonies), and
    counters sharing a hex with another player's (the rules of combat already say what they can be). (What the
    others bought in this Economic Phase is gone already: `_forget_purchases`.)"""
    e = state.engine
    owners_at: dict[int, set[int]] = {}
    for u in state.units:
        owners_at.setdefault(u.hex, set()).add(u.owner)
    hidden: dict[int, list[Unit]] = {}
    for u in state.units:
        if (u.owner != player and not u.seen and len(owners_at[u.hex]) == 1
                and u.code not in e.singles and u.code not in e.immobile):  # fmt: skip
            hidden.setdefault(u.owner, []).append(u)
    for owner in sorted(hidden):
        units = hidden[owner]
        looks = [(u.code, u.count, u.group, u.att, u.dfn, u.tac, u.move, u.terra) for u in units]
        rng.shuffle(looks)
        for u, look in zip(units, looks, strict=True):
            u.code, u.count, u.group, u.att, u.dfn, u.tac, u.move, u.terra = look
