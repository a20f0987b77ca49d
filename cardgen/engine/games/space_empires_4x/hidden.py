"""Hidden information in Space Empires 4X: what a player sees (`observation`), and the states it cannot tell apart
(`determinize`), for which a search may not know the face-down markers, the other players' purchases of this Economic
Phase (`forget_purchases`) and which face-down counter is which (`redeal_groups`). Functions of the state, called by
`state.SE4XState.observation` and `.determinize`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.core import frozen
from cardgen.engine.games.space_empires_4x.model import (
    ON_MAP,
    Unit,
)
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.state import SE4XState


def observation(state: SE4XState, player: int) -> Any:
    """What a player sees: the turned-up markers, colonies, its own units and economy in full, and of the other
    players' units where they are — their type and size only once revealed (Colony and Mining Ships always), and
    nothing of what they bought in this Economic Phase until it ends (the phase is simultaneous)."""
    units = []
    for u in state.units:
        if u.owner == player:
            units.append(u.key())
        elif u.new:  # bought in this Economic Phase, which is simultaneous: placed for all to see when it ends
            continue
        elif u.seen or u.code in state.engine.singles:
            units.append((u.uid, u.owner, u.code, u.count, u.hex))
        else:
            units.append((u.uid, u.owner, "?", -1, u.hex))
    kinds = state.engine.markers
    markers = tuple(kinds[m].kind if m >= 0 and (state.revealed[h] or state.known_marker(player, h) >= 0)
                    else (m >= 0) for h, m in enumerate(state.marker_at))  # fmt: skip
    towed = tuple(
        (state.engine.markers[m].kind, where, at) for m, (where, at) in enumerate(state.mloc) if where != ON_MAP
    )
    return frozen([
        state.phase, state.turns, state.turn, state.order, state.player, state.lost, state.peeking, tuple(units),
        markers, towed,
        state.col_owner, state.col_cp, state.cp[player], state.due[player], sorted(state.tech[player].items()),
        sorted(state.bought[player]), state.bid[player], sorted(state.out.items()), state.battles, state.at,
        state.pending, None if state.fight is None else state.fight.key(),
    ])  # fmt: skip


def determinize(state: SE4XState, player: int, rng: CounterRng) -> SE4XState:
    """A state `player` cannot tell from this one: the face-down markers dealt again over the face-down hexes of
    their region (a search never learns what a hex holds before it is explored or peeked at; another player who
    peeked knows the marker dealt there), each other player's face-down groups dealt again among that player's
    face-down counters (`redeal_groups`), and none of their purchases of this Economic Phase
    (`forget_purchases`)."""
    copy = state.reseeded(rng)
    assert isinstance(copy, type(state))
    for region in ["deep", *state.colours]:
        hexes = [h for h, m in enumerate(state.marker_at) if m >= 0 and not state.revealed[h]
                 and state.engine.hex_region[h] == region and state.known_marker(player, h) < 0]  # fmt: skip
        ids = [state.marker_at[h] for h in hexes]
        rng.shuffle(ids)
        for h, m in zip(hexes, ids, strict=True):
            copy.marker_at[h], copy.mloc[m] = m, (ON_MAP, h)
    for q, known in enumerate(copy.known):  # another player who peeked knows what this deal put there
        if q != player:
            copy.known[q] = {h: copy.marker_at[h] if state.known_marker(q, h) >= 0 else m for h, m in known.items()}
    forget_purchases(copy, player)
    redeal_groups(copy, player, rng)
    copy.carried = False  # units and markers changed by hand: the move listing starts afresh (`movement.actions`)
    return copy


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
            u = state.own(u)
            u.code, u.count, u.group, u.att, u.dfn, u.tac, u.move, u.terra = look
