"""A game of Space Empires 4X (Basic Rules) in progress.

A round is three turns and an Economic Phase (`turns_per_round`). In a turn each player in turn order moves units one
hex at a time, one unit's movement complete before another's (`Move`: moving a unit ends the move of any other that has
moved; a Colony Ship may `Colonize`, a Mining Ship `Load` and `Unload` a marker, a Cruiser with Exploration technology
`Peek` before it moves and then turn the marker up or leave it face down, `PeekChoice`), then `EndMove` fights every
battle where the player's units share a hex with an enemy (`battle`: shot by shot, with the players' screens, targets
and retreats) and bombards enemy colonies there — in the order the player chooses (`Battle`) when there are several.
Markers are turned up the moment a unit enters (the reading in rules.yaml), with their effects: Minerals and Space
Wrecks to tow, Black Holes (a roll for every unit entering), Danger, Supernovas, Lost in Space (the player to the right
chooses the hex: a `Shift` decision of that seat, a die roll in solitaire), terrain that ends a combat unit's move.

The Economic Phase is simultaneous in the rules; the engine takes the players in turn order, each deciding alone
(nothing one buys changes what another may, and no other player sees it before the phase ends): income from the
Homeworld, colonies and deposited Minerals (none when blockaded), Space Wrecks rolled on their table, maintenance (a
player who cannot pay `Scuttle`s groups until it can), then `Research`, `Build`, `Upgrade` and `Bid` until `EndEcon`.
After the last player: bids decide the order, colonies grow, a damaged Homeworld grows back, unspent CP above the
carry-over is lost. A player whose Homeworld falls is out; the last one standing wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cardgen.engine.core import Action, IllegalAction, State, compiled, find_uid, owned
from cardgen.engine.flow import Flow
from cardgen.engine.games.space_empires_4x import battle, conflict, economy, hidden, invariants, movement, view
from cardgen.engine.games.space_empires_4x.battle import Fight
from cardgen.engine.games.space_empires_4x.model import (
    AUTO_UPGRADED,
    ECON,
    GONE,
    MOVE,
    ON_MAP,
    OVER,
    Battle,
    Build,
    Move,
    PeekChoice,
    Shift,
    Unit,
    UnitSpec,
)
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.rules import SE4XEngine


LEVEL_FIELDS = {"attack": "att", "defense": "dfn", "tactics": "tac", "movement": "move"}  # a unit's own levels


class SE4XState(Flow):
    engine: SE4XEngine
    n: int
    on: list[bool]  # hexes in play at this player count
    adj: list[list[int]]  # their neighbours in play
    colours: list[str]  # the Home Systems in play, by seat
    marker_at: list[int]  # the system marker on each hex (-1: none)
    revealed: list[bool]
    mloc: list[tuple[int, int]]  # each marker's place: (ON_MAP, hex), (TOWED, unit), (DEPOSITED, hex), (GONE, 0)
    col_owner: list[int]  # each hex's colony owner (-1: none)
    col_cp: list[int]  # a colony's CP (0: a Colony Ship just landed); a Homeworld's 20 … 5
    home: list[int]  # each seat's Homeworld hex
    tech: list[dict[str, int]]
    cp: list[int]
    explored: list[int]  # markers each player turned up (the agents' measure of exploring)
    due: list[int]  # maintenance still owed in this Economic Phase
    bought: list[set[str]]  # technologies bought this Economic Phase
    bid: list[int]
    built_at: list[dict[int, float]]  # hull built at each yard this phase
    fresh: dict[tuple[int, str, int], int]  # (player, code, hex) -> the group started there this phase
    yards_new: dict[tuple[int, int], int]  # (player, hex) -> Ship Yards placed there this phase
    units: list[Unit]
    token: object  # the `held` of the units this state may change in place (`own`)
    next_uid: int
    phase: str
    turn: int  # 0, 1, 2: the turn of the round
    order: list[int]  # turn order
    player: int  # whose turn or Economic Phase it is
    lost: tuple[int, int, tuple[int, ...], int] | None  # Lost in Space: (chooser, hex, units, mover)
    battles: tuple[int, ...]  # the hexes whose battles the attacker has still to fight this turn, in its order
    at: int  # the hex whose battles are being fought (-1: none)
    pending: tuple[int, ...]  # the enemies still to fight there, before the bombardment
    fight: Fight | None  # the battle under way (`battle`)
    peeking: int  # the hex whose marker a Cruiser has just peeked at, before its owner's choice (-1: none)
    known: list[dict[int, int]]  # per player: hex -> the face-down marker it peeked at there (`known_marker`)
    listed: dict[int, tuple[Action, ...]]  # the last move listing's actions by unit (`movement.actions`)
    mine: list[int]  # the uids of the moving player's units, in order, for that listing (replaced, never changed)
    carried: bool  # whether the next move listing may reuse them (only past plain moves)
    places: dict[int, int]  # uid -> the unit's place in `units` when last looked up (`core.find_uid`)
    # after a plain move: (the number of the move listing it was made in, `listings`; the uid of the player's unit
    # still part-way through its move, -1 for none), for `movement.act`
    moving: tuple[int, int]
    listings: int  # move listings made from nothing so far (`movement.actions`), the number `moving` is kept with

    @classmethod
    def setup(cls, engine: SE4XEngine, players: int, seed: int) -> SE4XState:
        """Markers dealt face down over each region's hexes, Homeworlds face up at 20 CP, the starting forces on them,
        and a die roll for the first player."""
        s = cls(seed)  # (no __init__ of its own: a compiled class's `__new__` would ask for its arguments, `clone`)
        s.engine, s.n = engine, players
        e = engine
        s.on = e.in_play(players)
        s.adj = e.adjacent(players)
        s.colours = list(e.map_players[players])
        hexes = len(e.hex_region)
        s.marker_at = [-1] * hexes
        s.revealed = [False] * hexes
        s.mloc = [(GONE, 0)] * len(e.markers)  # (where, hex or towing unit)
        for region in ["deep", *s.colours]:
            places = [h for h in range(hexes) if e.hex_region[h] == region and h != e.homeworld.get(region)]
            ids = [m for m, spec in enumerate(e.markers) if (spec.colour or "deep") == region]
            s.shuffle(ids, f"{region} markers")
            if len(ids) != len(places):
                s.problem(f"the {region} region has {len(places)} hexes for {len(ids)} markers")
            for h, m in zip(places, ids, strict=False):
                s.marker_at[h], s.mloc[m] = m, (ON_MAP, h)
        s.col_owner = [-1] * hexes
        s.col_cp = [0] * hexes  # a colony's CP (0: a Colony Ship just landed); a Homeworld's steps 20 … 5
        s.home = [e.homeworld[c] for c in s.colours]
        s.tech = [dict(e.tech_start) for _ in range(players)]
        s.cp = [0] * players
        s.explored = [0] * players  # markers each player turned up (the agents' measure of exploring)
        s.due = [0] * players  # maintenance still owed in this Economic Phase
        s.bought = [set() for _ in range(players)]
        s.bid = [0] * players
        s.built_at = [{} for _ in range(players)]  # hull built at each yard this phase
        s.fresh = {}  # (player, code, hex) -> the group started this phase
        s.yards_new = {}  # (player, hex) -> Ship Yards placed there this phase
        s.units, s.token = [], object()
        s.next_uid = 0
        s.peeking = -1
        s.battles = ()
        s.at, s.pending, s.fight = -1, (), None
        s.tasks, s.decision = [], None
        s.known = [{} for _ in range(players)]
        for p, h in enumerate(s.home):
            s.revealed[h] = True
            s.col_owner[h], s.col_cp[h] = p, e.home_income
            for code, count in e.start_forces.items():
                groups = e.start_groups.get(code, count)
                for g in range(groups):
                    size = count // groups + (1 if g < count % groups else 0)
                    s._add_unit(p, code, size, h)
        s.phase = MOVE
        s.turn = 0  # 0, 1, 2: the turn of the round
        first = s.rng.randbelow(players)
        s.chance.record("first player", first)
        s.order = [(first + k) % players for k in range(players)]
        s.first_player = first
        s.player = first
        s.lost = None  # (chooser, hex, units, mover) of Lost in Space
        s.listed, s.mine, s.carried, s.places, s.moving, s.listings = {}, [], False, {}, (-1, -1), 0
        s._start_turn()
        s.run()
        return s

    # -- units and counters -------------------------------------------------------------------------------------------

    def _add_unit(self, player: int, code: str, count: int, h: int) -> Unit:
        group = self._free_number(player, code) if code in self.engine.numbered else 0
        unit = Unit(self.next_uid, player, code, group, count, h, self.tech[player], self.token)
        self.next_uid += 1
        self.units.append(unit)
        self._note_limit(player, code)
        return unit

    def counters_used(self, player: int, code: str) -> int:
        """Counters of a type a player has in play: a numbered type's groups, a single-ship type's ships."""
        return sum(1 for u in self.units if u.owner == player and u.code == code)

    def _free_number(self, player: int, code: str) -> int:
        used = {u.group for u in self.units if u.owner == player and u.code == code}
        return next(g for g in range(1, self.engine.limits[code] + 1) if g not in used)

    def _note_limit(self, player: int, code: str) -> None:
        if self.counters_used(player, code) >= self.engine.limits[code]:
            self.events.add(f"limit:{code}")

    def own(self, unit: Unit) -> Unit:
        """`unit`, this state's own to change: clones share their units (`clone`), so one that another state may
        hold too is first copied into its place. Every change to a unit goes through here."""
        return owned(self.units, unit, self.token)

    def unit(self, uid: int) -> Unit:
        found: Unit | None = find_uid(self, self.units, uid)
        if found is None:
            raise IllegalAction(f"no unit {uid}")
        return found

    def _remove(self, unit: Unit, why: str = "") -> None:
        if unit.tow >= 0:  # 'If a Mining Ship is destroyed while towing a Mineral, the Mineral is also destroyed'
            self.mloc[unit.tow] = (GONE, 0)
            unit = self.own(unit)
            unit.tow = -1
        self.units.remove(unit)

    def spec(self, unit: Unit) -> UnitSpec:
        return self.engine.units[unit.code]

    def spec_of(self, code: str) -> UnitSpec:
        return self.engine.units[code]

    def armed(self, unit: Unit) -> bool:
        return self.engine.units[unit.code].armed

    def level(self, unit: Unit, tech: str) -> int:
        """A unit's technology level: its own, or its owner's current one for Ship Yards, Bases and Decoys."""
        if unit.code in AUTO_UPGRADED:
            return self.tech[unit.owner][tech]
        return getattr(unit, LEVEL_FIELDS[tech])  # type: ignore[no-any-return]

    def allowance(self, unit: Unit) -> int:
        """Hexes a unit may move this turn (Movement table by its level; slow and immobile units)."""
        if unit.code in self.engine.immobile:
            return 0
        hexes = self.engine.movement[self.level(unit, "movement")][self.turn]
        return min(hexes, self.engine.slow_max) if unit.code in self.engine.slow else hexes

    def units_at(self, h: int) -> Iterator[Unit]:
        return (u for u in self.units if u.hex == h)

    def enemies_at(self, h: int, player: int) -> list[Unit]:
        return [u for u in self.units if u.hex == h and u.owner != player]

    def colonies(self, player: int) -> list[int]:
        owners, found, at = self.col_owner, [], -1
        for _ in range(owners.count(player)):  # the list searched in C: asked by every Economic listing
            at = owners.index(player, at + 1)
            found.append(at)
        return found

    def income_colony(self, h: int, player: int) -> bool:
        """A colony of p that produces income (not a Colony Ship just landed)."""
        return self.col_owner[h] == player and self.col_cp[h] >= self.engine.growth[0]

    def blockaded(self, h: int, here: Iterable[Unit] | None = None) -> bool:
        """Enemy warships at the colony at hex h (`here`: the units at h, if known)."""
        owner = self.col_owner[h]
        return any(u.owner != owner and self.armed(u) for u in (self.units_at(h) if here is None else here))

    def terrain(self, h: int) -> str:
        """The terrain a battle at h is fought in: 'nebula', 'asteroids' or 'open'."""
        kind = self.kind(h)
        return kind if kind in ("nebula", "asteroids") else "open"

    def kind(self, h: int) -> str | None:
        """The turned-up marker's kind at a hex (None: no marker, or still face down)."""
        m = self.marker_at[h]
        return self.engine.markers[m].kind if m >= 0 and self.revealed[h] else None

    # -- turn structure ------------------------------------------------------------------------------------------------

    def _start_turn(self) -> None:
        self.phase, self.carried = MOVE, False
        for u in self.units:
            if u.steps or u.stopped or u.peeked:
                u = self.own(u)
                u.steps, u.stopped, u.peeked = 0, False, False

    def _seats(self) -> list[int]:
        return [p for p in self.order if p not in self.out]

    def _next_player(self) -> None:
        """After a player's turn: the next in order, the next turn, or the Economic Phase."""
        seats = self._seats()
        later = [p for p in seats if self.order.index(p) > self.order.index(self.player)]
        if later:
            self.player = later[0]
            self._start_turn()
            return
        self.turn += 1
        if self.turn < self.engine.turns_per_round:
            self.player = seats[0]
            self._start_turn()
            return
        self.phase = ECON
        self.player = seats[0]
        economy.begin(self, self.player)

    def idle(self) -> None:
        """With nothing interrupting it (a battle's choice, a peek, Lost in Space, the order of battles: each asks
        through the flow where it arises), the turn or the Economic Phase asks its player (`Flow`)."""
        if self.phase in (MOVE, ECON):
            self.ask(self.phase, self.player)

    # -- legal actions -------------------------------------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self.phase == OVER or self.decision is None:
            return []
        kind = self.decision[0]
        if kind == "shift":
            return [Shift(h) for h in movement.shift_targets(self)]
        if kind == "peek":
            return [PeekChoice(True), PeekChoice(False)]
        if kind == "fight":
            return battle.legal(self)
        if kind == "order":
            return [Battle(h) for h in self.battles]
        if kind == MOVE:
            return movement.actions(self)
        return economy.actions(self)

    def illegal(self, action: Action) -> str | None:
        """Why `action` is not legal now (None: it is). A malformed action — an unknown kind, a unit, hex, unit type
        or technology that does not exist, a field of the wrong type — is named as such, never a crash."""
        if self.is_terminal():
            return "the game is over"
        try:
            if action in self.legal_actions():
                return None
        except Exception:  # an object whose comparison fails is no action of this game
            return f"{_shown(action)} is not an action of this game"
        try:
            why = self._why_not(action)
        except IllegalAction as exc:  # no such unit
            why = f"{_shown(action)}: {exc}"
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            why = None
        if why is None:
            legal = self.legal_actions()
            shown = ", ".join(self.action_label(a) for a in legal[:8])
            why = f"{_shown(action)} is not legal now (legal: {shown})"
        return why

    def _why_not(self, action: Action) -> str | None:
        """The specific reason for a well-formed Move or Build that is not legal (None: no specific reason)."""
        hexes = range(len(self.on))
        if isinstance(action, Move) and self.phase == MOVE:
            if type(action.to) is not int or action.to not in hexes:
                return f"move to {action.to!r}: no such hex"
            u = self.unit(action.uid)
            if u.owner != self.player:
                return f"{self.action_label(action)}: not a unit of the player to move"
            why = movement.may_enter(self, u, action.to) if action.to in self.adj[u.hex] else "not an adjacent hex"
            done = "its movement is complete (another unit has moved since, or terrain or an enemy ended it)"
            return f"{self.action_label(action)}: {why or (done if u.stopped else 'no movement left this turn')}"
        if isinstance(action, Build) and self.phase == ECON and action.code in self.engine.units and action.at in hexes:
            why = economy.build_problem(self, self.player, action.code, action.at)
            return f"{self.action_label(action)}: {why or 'not an income-producing colony of yours'}"
        return None

    def apply(self, action: Action) -> None:
        """Apply a legal action (as the legal list holds it: a Move to hex 3.0 is the Move to hex 3), rejecting any
        other with the reason, the state unchanged."""
        if (reason := self.illegal(action)) is not None:
            raise IllegalAction(reason)
        legal = self.legal_actions()
        self.do(legal[legal.index(action)])

    # -- applying actions ----------------------------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        p = self.answered()[1]
        self._act(p, action)
        self.run()

    def _act(self, player: int, action: Action) -> None:
        tag = action.tag
        if tag in movement.TAGS:
            movement.act(self, player, action)
            return
        self.carried = False  # the move listing's parts (`movement.actions`) are carried past plain moves only
        if tag in conflict.TAGS:
            conflict.act(self, player, action)
        elif tag in economy.TAGS:
            economy.act(self, player, action)
        else:
            raise IllegalAction(f"unknown action {action!r}")

    def known_marker(self, player: int, h: int) -> int:
        """The face-down marker player p has peeked at on hex h and knows is still there (-1: none)."""
        m = self.known[player].get(h, -1)
        return m if m >= 0 and self.marker_at[h] == m and not self.revealed[h] else -1

    def kind_for(self, player: int, h: int) -> str | None:
        """What player p knows hex h holds: the turned-up marker's kind, or the one it peeked at and left face
        down."""
        m = self.known_marker(player, h)
        return self.engine.markers[m].kind if m >= 0 else self.kind(h)

    # -- results, invariants, observation ----------------------------------------------------------------------------

    def returns(self) -> list[float]:
        if self.n == 1:
            return [view.empire(self, 0)]
        alive = self.alive(self.n)
        if self.phase == OVER and len(alive) == 1:
            return [1.0 if p in alive else 0.0 for p in range(self.n)]
        return [0.0] * self.n

    def invariant_violations(self) -> list[str]:
        return invariants.violations(self)

    def searched(self) -> bool:
        """Search agents search the moves that may start a battle or lead to one (a unit may move where an enemy is,
        or beside it, or onto an enemy colony), each judged by greedy play through the round after it, and otherwise
        move, fight and buy as greedy does: a move of one unit one hex elsewhere changes too little for a search to
        judge. The approach counts (MEASUREMENTS, "Space Empires 4X's search"): searching only the moves onto an
        enemy left greedy to walk the fleet into a battle the search could then only fight."""
        if self.phase != MOVE or self.decision is None or self.decision[0] != "move":
            return False
        mover = self.decision[1]
        foes = {u.hex for u in self.units if u.owner != mover}
        near = foes.union(*(self.adj[h] for h in foes))
        return any(a.tag == "move" and (a.to in near or self.col_owner[a.to] not in (-1, mover))
                   for a in self.legal_actions())  # fmt: skip

    def observation(self, player: int) -> Any:
        return hidden.observation(self, player)

    def determinize(self, player: int, rng: CounterRng) -> State:
        return hidden.determinize(self, player, rng)

    def clone(self) -> SE4XState:
        other = SE4XState.__new__(SE4XState)
        self._copy_base(other)  # every field, then those changed in place copied
        if compiled(SE4XState):
            # and those only ever replaced (or shared by design), which a compiled state keeps outside its dictionary
            # (`cardgen.native`)
            other.engine, other.n = self.engine, self.n
            other.on, other.adj = self.on, self.adj
            other.colours = self.colours
            other.home, other.next_uid, other.phase, other.turn = self.home, self.next_uid, self.phase, self.turn
            other.player, other.lost, other.battles, other.at = self.player, self.lost, self.battles, self.at
            other.pending, other.peeking = self.pending, self.peeking
            other.mine, other.carried = self.mine, self.carried
            other.places, other.moving, other.listings = self.places, self.moving, self.listings
        other.marker_at, other.revealed, other.mloc = list(self.marker_at), list(self.revealed), list(self.mloc)
        other.col_owner, other.col_cp = list(self.col_owner), list(self.col_cp)
        # a player's technology, purchases, hulls built and peeks are replaced, never changed: clones share them
        other.tech = list(self.tech)
        other.cp, other.due, other.bid = list(self.cp), list(self.due), list(self.bid)
        other.explored = list(self.explored)
        other.bought = list(self.bought)
        other.built_at = list(self.built_at)
        other.fresh = dict(self.fresh)
        other.units = list(self.units)
        other.token, self.token = object(), object()  # the units are shared now: each copies one before changing it
        other.order, other.known = list(self.order), list(self.known)
        other.fight = None if self.fight is None else self.fight.copy()
        other.yards_new = dict(self.yards_new)
        other.listed = dict(self.listed)
        return other

    def action_label(self, action: Action) -> str:
        e = self.engine
        tag = action.tag
        if tag in ("move", "colonize", "load", "unload", "peek", "upgrade", "scuttle"):
            u = self.unit(action.uid)
            name = f"{u.code}{u.group or ''}" + (f" x{u.count}" if u.count > 1 else "")
            where = {"move": lambda: f" to {e.hex_label[action.to]}", "peek": lambda: f" at {e.hex_label[action.at]}"}
            return f"{tag} {name} (#{u.uid}) from {e.hex_label[u.hex]}" + where.get(tag, lambda: "")()
        if tag == "peek-choice":
            return f"{'reveal' if action.reveal else 'leave face down'} the marker at {e.hex_label[self.peeking]}"
        if tag == "shift":
            return f"shift the lost units to {e.hex_label[action.to]}"
        if tag == "battle":
            return f"fight the battle at {e.hex_label[action.at]} next"
        if tag in ("screen", "fire", "retreat", "open-fire"):
            return battle.label(self, action)
        if tag == "research":
            return f"research {action.tech} {self.tech[self.player][action.tech] + 1}"
        if tag == "build":
            return f"build {action.code} at {e.hex_label[action.at]}"
        if tag == "bid":
            return f"bid {action.amount} CP"
        return str(tag)


def _shown(action: object) -> str:
    """A malformed action as text, whatever it is (its repr may itself fail)."""
    try:
        return f"action {action!r}"[:200]
    except Exception:
        return f"an action of type {type(action).__name__}"
