"""Space Empires 4X's movement and exploration: the moves a player's units may make (`actions`, `may_enter`), a unit
entering a hex and the marker there acting at once (`enter`), Black Holes, Lost in Space (`shift`), a Cruiser's peek
(`peek`, `peek_choice`), colonizing and a Mining Ship's load (`act`, the actions of a move). Functions of the state,
called by `state.SE4XState`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.core import Action
from cardgen.engine.games.space_empires_4x.model import (
    DEPOSITED,
    GONE,
    LOST,
    MOVE,
    PEEK_DISCARDS,
    TOWED,
    Colonize,
    EndMove,
    Load,
    Peek,
    Unit,
    Unload,
)

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.state import SE4XState

TAGS = frozenset({"move", "colonize", "load", "unload", "peek", "peek-choice", "shift"})  # the actions `act` applies
# the markers that, turned up by a move, change nothing but their own hex (and the unit that turned them up): a move
# listing is carried past them (`act`); any other kind, or a new one, lists every unit again
TURNED_UP_IN_PLACE = frozenset({"minerals", "planet", "barren", "nebula", "asteroids", "black-hole", "supernova",
                                "space-wreck", "warp-point", "doomsday-machine"})  # fmt: skip


def act(state: SE4XState, player: int, action: Action) -> None:
    """Apply one of the player's move actions (`TAGS`)."""
    tag = action.tag
    if tag == "move":
        u = state.unit(action.uid)
        listed = state.listed
        # 'You must complete one unit's movement before moving another unit': the player's other units part-way
        # through their move stop. Past a plain move that is at most the unit it moved (`state.moving`, kept with
        # the number of the listing it was made in); anywhere else every unit is looked at
        known, moving = state.moving
        others = state.units
        if state.carried and known == state.listings:
            others = [state.unit(moving)] if moving >= 0 else []
        for o in others:
            if o.steps and not o.stopped and o.owner == player and o is not u:  # most have not moved: asked first
                state.own(o).stopped = True
                listed.pop(o.uid, None)
        before, t = len(state.units), action.to
        marker = state.marker_at[t] if not state.revealed[t] else -1
        enter(state, u, t, u.hex)
        listed.pop(u.uid, None)
        # carried only past a plain move: no unit gone, no Lost in Space — there only the unit that moved and those it
        # stopped list anything other than before; and where a marker turned up that only lies there (not Danger,
        # not Lost in Space), the units beside its hex too (where they may go and peek changed)
        plain = len(state.units) == before and state.lost is None
        if plain and marker >= 0 and state.revealed[t]:
            if state.engine.markers[marker].kind in TURNED_UP_IN_PLACE:
                adj = state.adj
                for o in state.units:
                    if o.owner == player and (o.hex == t or t in adj[o.hex]):
                        listed.pop(o.uid, None)
            else:
                plain = False
        state.carried &= plain
        if state.carried:  # the one unit of the player still part-way through its move, if any
            moved = state.unit(u.uid)
            state.moving = (state.listings, -1 if moved.stopped else moved.uid)
        return
    state.carried = False
    if tag == "colonize":
        u = state.unit(action.uid)
        state.col_owner[u.hex], state.col_cp[u.hex] = player, 0
        state.events.add(f"marker:{state.kind(u.hex)}")
        state._remove(u)
    elif tag == "load":
        u = state.own(state.unit(action.uid))
        m = state.marker_at[u.hex]
        state.marker_at[u.hex], state.mloc[m], u.tow = -1, (TOWED, u.uid), m
    elif tag == "unload":
        u = state.own(state.unit(action.uid))
        state.mloc[u.tow], u.tow = (DEPOSITED, u.hex), -1
    elif tag == "peek":
        peek(state, state.unit(action.uid), action.at)
    elif tag == "peek-choice":
        peek_choice(state, player, action.reveal)
    else:
        shift(state, action.to)


def actions(state: SE4XState) -> list[Action]:
    """The moving player's move actions, unit by unit in the order of `state.units` (each unit's colonizing,
    loading or peeking, then its moves in the order of its adjacent hexes), then ending the move.

    Each unit's part is kept in `state.listed` (uid → actions) and carried to the next listing past plain moves
    (`state.carried`, cleared by `act` after any other action and by a new turn): there only the unit that moved
    and the units it stopped are listed again. The player's units (`state.mine`, uids in order) are carried too: a
    plain move makes or removes none. A state changed by hand (a test's) clears `carried` itself."""
    p = state.player
    out: list[Action] = []
    if not state.carried:  # every unit listed afresh
        mine = [u for u in state.units if u.owner == p]
        state.listed, state.mine, state.carried = {}, [u.uid for u in mine], True
        state.listings += 1
        listed, every = state.listed, _UnitActions(state, p)
        for u in mine:
            listed[u.uid] = part = every(u)
            out += part
        out.append(EndMove())
        return out
    listed, some = state.listed, None
    for uid in state.mine:
        kept = listed.get(uid)
        if kept is None:
            if some is None:
                some = _UnitActions(state, p)
            listed[uid] = kept = some(state.unit(uid))
        out += kept
    out.append(EndMove())
    return out


class _UnitActions:
    """A unit's part of the moving player's actions (`actions`), with what the units of one listing share: the
    hexes holding enemy units, and per hex whether the player's units may enter it (`_entries`)."""

    def __init__(self, state: SE4XState, player: int):
        self.state, self.player = state, player
        self.explore = state.tech[player]["exploration"] > 0
        self.enemies: set[int] | None = None  # hexes holding another player's units, found when first asked
        self.entries: dict[int, tuple[bool, bool, bool]] = {}  # per hex: may an unarmed unit, an armed one first, later
        self.reach: dict[tuple[int, int], list[int]] = {}  # per (hex, which of the three): the hexes it may enter
        self.allowed: dict[tuple[str, int], int] = {}  # per (type, Movement level): `state.allowance`

    def __call__(self, u: Unit) -> tuple[Action, ...]:
        state, p = self.state, self.player
        out: list[Action] = []
        h, code = u.hex, u.code
        if code == "CO" and can_colonize(state, u):
            out.append(Colonize(u.uid))
        elif code == "Miner":
            if u.tow < 0 and state.kind(h) in ("minerals", "space-wreck"):
                out.append(Load(u.uid))
            elif u.tow >= 0 and state.col_owner[h] == p:
                out.append(Unload(u.uid))
        elif code == "CA" and self.explore and u.steps == 0 and not u.peeked:
            out += [Peek(u.uid, t) for t in state.adj[h] if state.marker_at[t] >= 0 and not state.revealed[t]]
        if u.stopped:
            return tuple(out)
        allowed = self.allowed.get((code, u.move))  # (an owner's level, for the types that take it, is the same)
        if allowed is None:
            allowed = self.allowed[code, u.move] = state.allowance(u)
        if u.steps >= allowed:
            return tuple(out)
        engine = state.engine
        which = 1 + (u.steps > 0) if engine.units[code].armed else 0
        targets = self.reach.get((h, which))
        if targets is None:  # units stack: the first of a stack works out where its kind may go
            targets = self.reach[h, which] = []
            entries, enemies = self.entries, self.enemies
            if enemies is None:
                enemies = self.enemies = {o.hex for o in state.units if o.owner != p}
            for t in state.adj[h]:
                entry = entries.get(t)
                if entry is None:
                    entry = entries[t] = _entries(state, t, p, enemies)
                if entry[which]:
                    targets.append(t)
        uid = u.uid
        made = engine.move_actions.get(uid) or {}
        out += [made.get(t) or engine.move_action(uid, t) for t in targets]
        return tuple(out)


def _entries(state: SE4XState, t: int, player: int, enemies: set[int]) -> tuple[bool, bool, bool]:
    """Whether `player`'s units may enter hex t now (`may_enter`, worked out once a hex while moves are listed): an
    unarmed unit, an armed unit on its first move, an armed unit later in its move. `enemies`: the hexes holding
    another player's units."""
    m = state.marker_at[t]
    if m < 0 or not state.revealed[t]:  # no marker, or one face down (`state.kind` inlined: asked of every hex)
        unexplored, kind = m >= 0, None
    else:
        unexplored, kind = False, state.engine.markers[m].kind
        if kind == "supernova":
            return False, False, False
    enemy = t in enemies or state.col_owner[t] not in (-1, player)
    return not unexplored and not enemy, True, not (unexplored or kind in ("nebula", "asteroids"))


def may_enter(state: SE4XState, unit: Unit, t: int, owners: dict[int, set[int]] | None = None) -> str | None:
    """Why unit u may not move into hex t now (None: it may); `owners`: who has units where, if known."""
    kind = state.kind(t)
    if kind == "supernova":
        return "units may not move into a Supernova"
    unexplored = state.marker_at[t] >= 0 and not state.revealed[t]
    armed = state.armed(unit)
    there = owners.get(t, ()) if owners is not None else {o.owner for o in state.units_at(t)}
    enemy = any(q != unit.owner for q in there) or state.col_owner[t] not in (-1, unit.owner)
    if not armed:
        if unexplored:
            return "a non-combat unit may not enter an undiscovered hex"
        if enemy:
            return "a non-combat unit may not enter a hex with enemy units or colonies"
        return None
    if (unexplored or kind in ("nebula", "asteroids")) and unit.steps > 0:
        return "a combat unit enters an undiscovered hex, a Nebula or Asteroids only as its first move"
    return None


def can_colonize(state: SE4XState, unit: Unit) -> bool:
    h = unit.hex
    kind = state.kind(h)
    if state.col_owner[h] != -1 or kind not in ("planet", "barren"):
        return False
    if kind == "barren" and not unit.terra:
        return False
    if state.col_owner.count(unit.owner) - 1 >= state.engine.colonies_max:  # the Homeworld has counters of its own
        return False
    return not any(o.owner != unit.owner for o in state.units_at(h))


def shift_targets(state: SE4XState) -> list[int]:
    assert state.lost is not None
    return [t for t in state.adj[state.lost[1]] if state.kind(t) != "supernova"]


def enter(state: SE4XState, unit: Unit, t: int, came: int, counts: bool = True) -> None:
    """Unit u moves into hex t: the marker there is turned up and acts at once; enemies there stop it."""
    unit = state.own(unit)
    unit.hex = t
    if counts:
        unit.steps += 1
    if state.col_owner[t] == unit.owner:
        unit.seen = False  # back at one of its colonies: face down again
    m = state.marker_at[t]
    found = m >= 0 and not state.revealed[t]
    if found:
        state.revealed[t] = True
        state.explored[unit.owner] += 1
        state.chance.record("explore", [state.engine.hex_label[t], state.engine.markers[m].kind])
    kind = state.kind(t)
    armed = state.armed(unit)
    if kind == "black-hole":
        if not survives_black_hole(state, unit):
            return
    elif found and kind == "danger":
        state.events.add("marker:danger")
        discard(state, t)
        state._remove(unit)
        return
    elif kind == "supernova":  # only when just found: a known Supernova cannot be entered
        state.events.add("marker:supernova")
        unit.hex, unit.stopped = came, True
        return
    elif found and kind == "lost-in-space":
        state.events.add("marker:lost-in-space")
        discard(state, t)
        unit.stopped = True
        chooser = (state.player - 1) % state.n if state.n > 1 else -1
        while chooser in state.out:
            chooser = (chooser - 1) % state.n
        state.lost = (chooser, t, (unit.uid,), state.player)
        if chooser == -1 or chooser == state.player:  # solitaire: a die roll picks the hex
            targets = shift_targets(state)
            if targets:
                pick = targets[state.rng.randbelow(len(targets))]
                state.chance.record("lost in space", state.engine.hex_label[pick])
                shift(state, pick)
            else:
                state.lost = None
        else:
            state.phase = LOST
            if shift_targets(state):
                state.ask("shift", chooser)
            else:
                state.phase, state.lost = MOVE, None
        return
    elif kind in ("nebula", "asteroids") and armed:
        state.events.add(f"marker:{kind}")
        unit.stopped = True
    if found and armed:
        unit.stopped = True  # 'Entering such a space ends the unit's movement' (a Black Hole's survivors go on)
    if not armed:  # enemies there stop, or are destroyed by, combat units only
        return
    enemies = state.enemies_at(t, unit.owner)
    if any(state.armed(o) for o in enemies) or state.col_owner[t] not in (-1, unit.owner):
        unit.stopped = True
    else:
        for o in enemies:  # 'only enemy non-combat units … are immediately destroyed'
            state._remove(o)


def survives_black_hole(state: SE4XState, unit: Unit) -> bool:
    """A unit entering a Black Hole hex rolls: 'A roll of 1-6 and the unit survives, 7-10 means the unit is
    destroyed' (every entry, by move, shift or retreat: the reading in rules.yaml)."""
    roll = state.rng.randbelow(state.engine.die) + 1
    state.chance.record("black hole", roll)
    state.events.add("marker:black-hole")
    if roll >= state.engine.black_hole_kills:
        state._remove(unit)
        return False
    return True


def discard(state: SE4XState, h: int) -> None:
    m = state.marker_at[h]
    state.marker_at[h], state.mloc[m] = -1, (GONE, 0)


def shift(state: SE4XState, t: int) -> None:
    assert state.lost is not None
    _, _, uids, mover = state.lost
    state.lost = None
    state.phase = MOVE
    for uid in uids:
        u = next((x for x in state.units if x.uid == uid), None)
        if u is not None:
            u, came = state.own(u), u.hex
            enter(state, u, t, came, counts=False)
            if u in state.units:
                u.stopped = True
    state.player = mover


def peek(state: SE4XState, unit: Unit, t: int) -> None:
    """A Cruiser's sensors show its owner an adjacent face-down marker; the owner then chooses (`PeekChoice`)."""
    unit = state.own(unit)
    unit.peeked = True
    m = state.marker_at[t]
    state.known[unit.owner] = {**state.known[unit.owner], t: m}
    state.peeking = t
    state.ask("peek", unit.owner)
    state.explored[unit.owner] += 1
    state.chance.record("peek", [state.engine.hex_label[t], state.engine.markers[m].kind])
    state.events.add("peek")


def peek_choice(state: SE4XState, player: int, reveal: bool) -> None:
    """'Once seen, you choose to reveal or leave it face down. If revealed and the counter has any immediate
    effect, it is discarded and any negative effects do not affect your Cruiser.'"""
    t, state.peeking = state.peeking, -1
    if not reveal:
        state.events.add("peek:face-down")
        return
    state.known[player] = {h: m for h, m in state.known[player].items() if h != t}  # everyone sees it now
    state.revealed[t] = True
    state.events.add("peek:revealed")
    if state.engine.markers[state.marker_at[t]].kind in PEEK_DISCARDS:
        discard(state, t)
