"""A game of Rift Domination in progress.

Set-up: each player in turn is dealt a random faction and may repick once (`Pick(0)` keeps, `Pick(1)` repicks);
then, in turn order, chooses a starting system of the colour the player count uses (`Pick(system)`); then the
condition tiles, drawn at random, are placed in turn order on planets the players choose (`Pick(planet)`) until every
planet but the starting planets in use has one. Each player starts on the home planet with the faction's units,
resources and upgrades and a military base, and draws two OCC-cards.

A turn (rules.yaml `turn_steps`): draw OCC-cards (instant ones resolve at once), gain the resources the track shows
and 2 fighters, move the track up, build planet upgrades (`Upgrade` … `Done`), move units one point at a time
(`Move`; a battle or a landing resolves where a unit arrives, and units with movement left may move on), play
OCC-cards (`Play`), then recruit at military bases (`Recruit` … `Done`). Controlling every planet of a system gives
its VP and, while the faction has expansions left, a unit type for the roster (`Roster`). When a player reaches the
VP the player count needs, the round is played to its end; the most VP wins.

`RiftState` keeps the fields, the flow (what is asked, the answers applied, a unit's arrival steps) and the queries
every module needs; each concern is a module of functions of the state: `setup`, `turn` (the turn's steps),
`movement`, `conflict` (battles), `planets` (landing, negotiation, control), `effects` (the cards' verbs), `hidden`
(observation, determinization) and `invariants`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from cardgen.engine.core import Action, State, compiled, find_uid, owned
from cardgen.engine.flow import Flow
from cardgen.engine.games.rift_domination import conflict, effects, hidden, invariants, movement, planets, setup, turn
from cardgen.engine.games.rift_domination.model import (
    BUILD,
    HARMFUL,
    MOVE,
    OVER,
    PEEK,
    RECRUIT,
    SETUP_FACTION,
    SETUP_START,
    SETUP_TILES,
    Done,
    Faction,
    Fight,
    Pick,
    Play,
    Roster,
    Sacrifice,
    Unit,
)
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.rules import RiftEngine


class RiftState(Flow):
    engine: RiftEngine
    n: int
    on: list[bool]
    adj: list[list[int]]  # each point's neighbours on the board in use
    towards: list[list[int]]  # the points one step before each point (a planet reaches the next system in one)
    phase: str
    player: int
    faction: list[int]  # faction index per seat (-1 before set-up)
    repicked: list[int]
    offered: list[int]  # the factions dealt so far (none is dealt twice)
    home: list[int]  # each seat's home planet node
    units: list[Unit]
    token: object  # the `held` of the units this state may change in place (`own`)
    next_uid: int
    owner: dict[int, int]  # planet node -> controlling seat
    upgrades: dict[int, list[str]]  # planet node -> upgrades built there
    tile: dict[int, int]  # planet node -> condition tile index (face down until control)
    consumed: set[int]
    tile_pool: list[int]  # condition tiles not yet placed (drawn from the top)
    placing: int  # the condition tile being placed
    resources: list[int]
    vp: list[int]
    track: list[int]
    roster: list[list[str]]
    expansions: list[int]
    systems_held: dict[int, int]  # system -> seat that controls all its planets
    deck: list[int]
    discard: list[int]
    hands: list[list[int]]
    # a battle waiting for its players' battle cards: (attacker, defender, point, came from, ground, whose window
    # (0 attacker, 1 defender), the attacker's cards, the defender's cards)
    fighting: Fight | None
    steps: list[tuple[str, int, int, int]]  # what is still to happen where a unit arrived
    slowed: list[int]  # movement points each seat's units in its home system lose on its next turn (Ion Storm)
    tiles_gone: list[int]  # condition tiles consumed (discarded unrevealed)
    wormholes: list[int]  # systems holding a wormhole tile, in the order they were placed
    placed: list[tuple[int, int]]  # per seat: (round, wormholes placed in it)
    traded: bool  # the player whose turn it is has used its faction's trade this turn
    immune: dict[int, tuple[int, str]]  # seat -> (round, unit type no unit may target until that round ends)
    blockades: dict[int, int]  # system -> the seat whose blockade keeps enemy units in it
    resisted: list[int]  # the round each seat last rolled against a card played against it (-1: never)
    rounds_left: int  # -1 until someone reaches the VP to win; then the turns left in the round
    seats_done: int
    listed: dict[int, tuple[Action, ...]]  # the last move listing's steps by unit (`turn.move_actions`)
    movers: list[int]  # the uids of the units that listing went through, in order (replaced, never changed)
    places: dict[int, int]  # uid -> the unit's place in `units` when last looked up (`core.find_uid`)
    cargo_at: dict[int, tuple[int, ...]]  # point -> the carriers whose listed steps counted the cargo there
    carried: bool  # whether the next move listing may reuse them (only past plain moves: `_apply`)

    @classmethod
    def setup(cls, engine: RiftEngine, players: int, seed: int) -> RiftState:
        s = cls(seed)  # (no __init__ of its own: a compiled class's `__new__` would ask for its arguments, `clone`)
        s.engine, s.n = engine, players
        s.on = engine.in_play(players)
        s.adj = [[t for t in near if s.on[t]] for near in engine.edges]  # the board in use, once per game
        s.towards = [[] for _ in s.adj]  # the same steps reversed: a search from targets counts steps towards them
        for a, near in enumerate(s.adj):
            for b in near:
                s.towards[b].append(a)
        s.player = s.rng.randbelow(players)  # 'The youngest player' starts: a die roll stands in for age
        s.chance.record("first player", s.player)
        s.first_player = s.player
        s.faction, s.repicked, s.offered = [-1] * players, [0] * players, []
        s.home = [-1] * players
        s.units, s.next_uid, s.token = [], 0, object()
        s.owner, s.upgrades, s.tile, s.consumed = {}, {}, {}, set()
        s.resources, s.vp, s.track = [0] * players, [0] * players, [engine.track_first] * players
        s.roster, s.expansions = [[] for _ in range(players)], [0] * players
        s.systems_held = {}
        s.deck = list(range(len(engine.occ)))
        s.shuffle(s.deck, "OCC deck")
        s.discard, s.hands = [], [[] for _ in range(players)]
        s.tile_pool = list(range(len(engine.tiles)))
        s.shuffle(s.tile_pool, "condition tiles")
        s.placing = -1
        s.tasks, s.decision = [], None
        s.slowed = [0] * players
        s.tiles_gone, s.wormholes, s.placed, s.traded = [], [], [(-1, 0)] * players, False
        s.immune, s.blockades, s.resisted = {}, {}, [-1] * players
        s.fighting = None
        s.steps = []
        s.rounds_left, s.seats_done = -1, 0
        s.listed, s.movers, s.cargo_at, s.carried, s.places = {}, [], {}, False, {}
        s.phase = SETUP_FACTION
        setup.deal_faction(s, s.player)
        s.run()
        return s

    # -- helpers -------------------------------------------------------------------------------------------------------

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n

    def fac(self, player: int) -> Faction:
        return self.engine.factions[self.faction[player]]

    def _add(self, player: int, kind: str, node: int) -> Unit | None:
        """A unit tile of the player's colour onto the board (none when every tile of that type is in play)."""
        if sum(1 for u in self.units if u.owner == player and u.kind == kind) >= self.engine.tiles_per_colour[kind]:
            self.events.add(f"tiles-short:{kind}")
            return None
        unit = Unit(self.next_uid, player, kind, node, held=self.token)
        self.next_uid += 1
        self.units.append(unit)
        return unit

    def own(self, unit: Unit) -> Unit:
        """`unit`, this state's own to change: clones share their units (`clone`), so one that another state may
        hold too is first copied into its place. Every change to a unit goes through here."""
        return owned(self.units, unit, self.token)

    def unit(self, uid: int) -> Unit:
        found = self.find(uid)
        if found is None:
            raise KeyError(f"no unit {uid}")
        return found

    def find(self, uid: int) -> Unit | None:
        """The unit of that uid, None when it has gone (`core.find_uid`)."""
        found: Unit | None = find_uid(self, self.units, uid)
        return found

    def ground(self, unit: Unit) -> bool:
        return unit.kind in self.engine.ground_kinds

    def slots(self, planet: int, player: int) -> int:
        base = int(self.engine.planets[planet - len(self.engine.systems)]["upgrade_slots"])
        return base + (self.fac(player).modifier("upgrade-slots") or 0)

    def planets_of(self, player: int) -> list[int]:
        return sorted(h for h, o in self.owner.items() if o == player)

    def _draw_occ(self, player: int, count: int) -> None:
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    return
                self.deck, self.discard = self.discard, []
                self.shuffle(self.deck, "OCC deck")
            card = self.deck.pop()
            self.chance.record("draw", [player, self.engine.occ[card].item])
            if self.engine.occ[card].when == "instant":
                self.discard.append(card)
                said = self.engine.occ[card].effects
                if said and all(x.verb in HARMFUL for x in said) and effects.may_sacrifice(self, player):
                    effects.sacrifice(self, player)  # a policy: a card that only hurts is answered with a sacrifice
                else:
                    effects.resolve(self, player, said)
                self.events.add(f"play:{self.engine.occ[card].item}")
            else:
                self.hands[player].append(card)

    # -- legal actions -----------------------------------------------------------------------------------------------

    def idle(self) -> None:
        """With nothing interrupting it (a card's window, a battle's, a roster choice: each asks through the flow),
        the turn asks its player for the step it is at (`Flow`)."""
        if self.phase != OVER:
            self.ask(self.phase, self.player)

    def _legal_actions(self) -> list[Action]:
        e = self.engine
        if self.phase == OVER or self.decision is None:
            return []
        kind, q = self.decision[0], self.decision[1]
        if kind == "respond":  # the target of a card may answer it with a card that cancels it
            return [*self.responses(q, self.decision[2]), Done()]
        if kind == "battle":  # a battle's window: battle OCC-cards (the attacker's units may join), Done
            f = self.fighting
            assert f is not None
            joining = conflict.joiners(self, f) if f.stage == 0 else []
            return [Play(c) for c in conflict.battle_cards(self, f.seat, f.stage)] + joining + [Done()]
        if kind == "roster":
            return [Roster(k) for k in e.units if k not in self.roster[q]] or [Done()]
        player, phase = self.player, self.phase
        if phase == PEEK:
            return [Pick(0), Pick(1)]
        if phase == SETUP_FACTION:
            return [Pick(0), Pick(1)] if self.repicked[player] < e.repicks else [Pick(0)]
        if phase == SETUP_START:
            return [Pick(s) for s in setup.start_places(self)]
        if phase == SETUP_TILES:
            return [Pick(h) for h in setup.tile_places(self)]
        out: list[Action] = []
        if phase == BUILD:
            out = turn.build_actions(self, player)
        elif phase == MOVE:
            out = turn.move_actions(self, player)
        elif phase == RECRUIT:
            out = turn.recruit_actions(self, player)
        out.append(Done())
        return out

    # -- applying actions ----------------------------------------------------------------------------------------------

    def responses(self, player: int, item: Any) -> list[Action]:
        """What the target of a card played (`item`: ("card", card, who played it)) may answer it with: a card
        that cancels it, or a sacrifice (`Done` lets it take effect)."""
        answers: list[Action] = [Play(c) for c in sorted(set(self.hands[player])) if effects.cancels(self, c)]
        return answers + ([Sacrifice()] if effects.may_sacrifice(self, player) else [])

    def _resolve(self, item: Any) -> None:
        """No answer: the card played takes effect."""
        _, card, player = item
        effects.resolve(self, player, self.engine.occ[card].effects)

    def _t_roster(self, player: int) -> None:
        self.ask("roster", player)

    def _apply(self, action: Action) -> None:
        kind, player, *rest = self.answered()
        carried, self.carried = self.carried, False  # the move listing's steps: carried past plain moves only
        if carried and kind == MOVE and action.tag == "move":
            unit, units = self.unit(action.uid), (len(self.units), self.next_uid)
            came, moved = unit.node, self._move(unit, action.to, action.carry)
            self.run()
            still = self.decision == (MOVE, player) and self.fighting is None and not self.steps
            if still and (len(self.units), self.next_uid) == units:
                # a plain move: no battle under way, no unit destroyed or new, the player still moving (a landing or
                # a negotiation changes no unit's steps). Only the units that moved (the unit and its cargo) and the
                # carriers whose steps counted the cargo at either point list other steps
                listed = self.listed
                for x in moved:
                    listed.pop(x.uid, None)
                if moved[0].mp <= 0:  # the unit moved has no movement points left (its cargo spends none)
                    self.movers = [uid for uid in self.movers if uid != moved[0].uid]
                if len(moved) > 1 or unit.kind in self.engine.carried:  # units that need a carrier left a point
                    cargo_at = self.cargo_at
                    for uid in (*cargo_at.pop(came, ()), *cargo_at.pop(action.to, ())):
                        listed.pop(uid, None)
                self.carried = True
            return
        if kind == "respond":
            self._answer(player, action, rest[0])
        elif kind == "battle":
            self._battle_answer(player, action)
        elif kind == "roster":
            if action.tag == "roster":
                self.roster[player].append(action.kind)
                self.expansions[player] += 1
        else:
            self._turn(player, action)
        self.run()

    def _answer(self, player: int, action: Action, item: tuple[str, int, int]) -> None:
        """The target's answer to a card played against it: `Done` lets it resolve (the window's last step);
        a cancelling card or a sacrifice leaves it without effect."""
        if action.tag == "sacrifice":
            self.cancel(item)
            effects.sacrifice(self, player)
        elif action.tag == "play":  # the answer cancels the card played: both are discarded, nothing happens
            self.hands[player].remove(action.card)
            self.discard.append(action.card)
            self.events.add(f"play:{self.engine.occ[action.card].item}")
            self.cancel(item)
            self.events.add("cancelled")

    def _battle_answer(self, player: int, action: Action) -> None:
        """A battle's window: cards played into it, units joining the attack, or `Done` for the next window."""
        f = self.fighting
        assert f is not None
        if action.tag == "done":
            self.fighting = dataclasses.replace(f, stage=f.stage + 1)
            conflict.next_in_window(self)
            return
        if action.tag == "move":
            self._move(self.unit(action.uid), action.to, action.carry)
        else:
            self.hands[player].remove(action.card)
            self.discard.append(action.card)
            self.events.add(f"play:{self.engine.occ[action.card].item}")
            if conflict.recruits(self, action.card):  # recruiting during the battle
                effect = self.engine.occ[action.card].effects[0]
                effects.recruit_now(self, player, effect.amount, effect.opt("locked") == "yes", at=f.node)
                self.events.add("battle-recruit")
            elif conflict.shields_kind(self, action.card):  # played on another's turn too
                effects.resolve(self, player, self.engine.occ[action.card].effects)
                self.events.add("battle-immunity")
            else:  # a battle card: it acts when the battle is fought
                cards = (
                    (f.cards[0] + (action.card,), f.cards[1])
                    if f.stage == 0
                    else (f.cards[0], f.cards[1] + (action.card,))
                )
                self.fighting = dataclasses.replace(f, cards=cards)
        assert self.fighting is not None
        self.ask("battle", self.fighting.seat)

    def _turn(self, player: int, action: Action) -> None:
        """A choice at the step the turn (or the set-up) is at."""
        tag = action.tag
        if tag == "pick":
            if self.phase == PEEK:
                turn.peek(self, action.choice)
            else:
                setup.pick(self, player, action.choice)
        elif tag == "upgrade":
            turn.build(self, player, action.planet, action.name)
        elif tag == "move":
            self._move(self.unit(action.uid), action.to, action.carry)
        elif tag == "trade":
            turn.trade(self, player, action.choice)
        elif tag == "wormhole":
            turn.place_wormhole(self, player, action.system)
        elif tag == "play":
            self.hands[player].remove(action.card)
            self.discard.append(action.card)
            self.events.add(f"play:{self.engine.occ[action.card].item}")
            target = effects.target(self, player, self.engine.occ[action.card].effects)
            if target is not None and effects.resists(self, target):
                return
            if target is not None and self.responses(target, None):  # the target may answer it
                self.open_window(("card", action.card, player), player, self.n, seats=(target,))
                return
            effects.resolve(self, player, self.engine.occ[action.card].effects)
        elif tag == "recruit":
            turn.recruit(self, player, action.kind, action.planet)
        elif tag == "done":
            if self.phase == BUILD:
                self.phase = MOVE
            elif self.phase == MOVE:
                self.phase = RECRUIT
            else:
                turn.end(self)

    # -- movement, battles and planets ------------------------------------------------------------------------------

    def _move(self, unit: Unit, to: int, carry: int = 0) -> list[Unit]:
        """A unit steps to the next point (or through a wormhole) with its cargo; what happens there (a space battle,
        then a ground battle or a landing) runs as steps, so a battle can stop for its players' battle cards and
        carry on afterwards. Cargo spends none of its own movement points. The units that moved, the unit first."""
        came = unit.node
        cargo = [self.own(x) for x in movement.cargo(self, unit)[:carry]] if carry else []
        unit = self.own(unit)
        if to in self.adj[came]:
            unit.mp -= 1
        else:
            unit.mp -= movement.wormhole_cost(self, unit.owner)
            self.events.add("wormhole-travel")
        unit.node = to
        for x in cargo:
            x.node = to
        if cargo:
            self.events.add("carry")
        if self.fighting is not None:  # joining the attack on the battle's point before it is fought (FAQ)
            f = self.fighting
            self.fighting = dataclasses.replace(f, joined=f.joined + tuple((x.uid, came) for x in [unit, *cargo]))
            # their arrival steps come after the battle, as the first fleet's do
            self.steps += [("planet", x.uid, to, came) for x in [unit, *cargo]]
            self.events.add("join-attack")
        else:
            self.steps = [("space", unit.uid, to, came), ("planet", unit.uid, to, came)]
            self.steps += [("planet", x.uid, to, came) for x in cargo]
            self._continue()
        return [unit, *cargo]

    def _continue(self) -> None:
        while self.steps and self.fighting is None:
            kind, uid, to, came = self.steps.pop(0)
            if kind == "planet" and not self.engine.is_planet[to]:  # nothing lands on a point of open space
                continue
            u = self.find(uid)
            if u is None or u.node != to:  # destroyed on the way, or gone back with a retreat: nothing more here
                continue
            p = u.owner
            if kind == "space":
                grounds = self.engine.ground_kinds
                if u.kind not in grounds:  # the first enemy fleet there, in the units' order, fights it
                    for x in self.units:  # (a loop: asked at every step a fleet takes)
                        if x.node == to and x.owner != p and x.kind not in grounds:
                            conflict.begin_battle(self, p, x.owner, to, came, False)
                            break
                continue
            holder = self.owner.get(to)
            if holder is not None and holder != p and self.ground(u):
                conflict.begin_battle(self, p, holder, to, came, True)
            elif holder is not None and holder != p and planets.may_negotiate(self, u, to):
                planets.negotiate(self, u, to)
            elif holder is None and to not in self.consumed and (self.ground(u) or self.negotiates(u)):
                planets.land(self, u, to)

    def negotiates(self, unit: Unit) -> bool:
        return "negotiate" in self.engine.units[unit.kind]["skills"]

    def targetable(self, unit: Unit) -> bool:
        """Not under a card's immunity ('no unit may target your diplomats' until the round ends)."""
        found = self.immune.get(unit.owner)
        return found is None or found != (self.turns, unit.kind)

    def _destroy(self, unit: Unit) -> None:
        """A unit leaves the board (once: a card drawn for a lost diplomat may destroy others on the way)."""
        if unit not in self.units:
            return
        self.units.remove(unit)
        if self.negotiates(unit):
            self._draw_occ(unit.owner, self.fac(unit.owner).modifier("diplomat-loss-occ") or 0)

    # -- results, invariants, observation ------------------------------------------------------------------------

    def standings(self) -> list[float]:
        best = max(self.vp)
        winners = [p for p in range(self.n) if self.vp[p] == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.n)]

    def returns(self) -> list[float]:
        return self.standings() if self.phase == OVER else [0.0] * self.n

    def invariant_violations(self) -> list[str]:
        return invariants.violations(self)

    def observation(self, player: int) -> Any:
        """What the player sees (`hidden.observation`)."""
        return hidden.observation(self, player)

    def determinize(self, player: int, rng: CounterRng) -> State:
        """The deck, the other players' hands and the rewards under untaken condition tiles dealt again
        (`hidden.redeal`)."""
        copy = self.reseeded(rng)
        assert isinstance(copy, RiftState)
        hidden.redeal(self, copy, player, rng)
        copy.carried = False  # changed by hand: the move listing starts afresh (`turn.move_actions`)
        return copy

    def clone(self) -> RiftState:
        other = RiftState.__new__(RiftState)
        self._copy_base(other)  # every field, then those changed in place copied
        if compiled(RiftState):
            # and those only ever replaced, which a compiled RiftState keeps outside its dictionary (`cardgen.native`)
            other.engine, other.n = self.engine, self.n
            other.on, other.adj = self.on, self.adj
            other.towards = self.towards
            other.phase, other.player = self.phase, self.player
            other.next_uid, other.placing = self.next_uid, self.placing
            other.fighting, other.traded, other.rounds_left = self.fighting, self.traded, self.rounds_left
            other.seats_done, other.movers = self.seats_done, self.movers
            other.places, other.carried = self.places, self.carried
        other.faction, other.repicked, other.offered = list(self.faction), list(self.repicked), list(self.offered)
        other.home, other.units = list(self.home), list(self.units)
        other.token, self.token = object(), object()  # the units are shared now: each copies one before changing it
        other.owner, other.upgrades = dict(self.owner), dict(self.upgrades)  # upgrades: replaced, never changed
        other.tile, other.consumed, other.tile_pool = dict(self.tile), set(self.consumed), list(self.tile_pool)
        other.resources, other.vp, other.track = list(self.resources), list(self.vp), list(self.track)
        other.roster, other.expansions = [list(r) for r in self.roster], list(self.expansions)
        other.systems_held = dict(self.systems_held)
        other.deck, other.discard, other.hands = list(self.deck), list(self.discard), [list(h) for h in self.hands]
        other.steps = list(self.steps)
        other.slowed = list(self.slowed)
        other.tiles_gone, other.wormholes, other.placed = list(self.tiles_gone), list(self.wormholes), list(self.placed)
        other.immune, other.blockades = dict(self.immune), dict(self.blockades)
        other.resisted = list(self.resisted)
        other.listed, other.cargo_at = dict(self.listed), dict(self.cargo_at)  # `movers` is replaced, never changed
        return other

    def action_label(self, action: Action) -> str:
        e = self.engine
        tag = action.tag
        if tag == "pick":
            if self.phase == PEEK:
                return "put the top OCC-card at the bottom" if action.choice else "leave the top OCC-card"
            if self.phase == SETUP_FACTION:
                return f"{'repick' if action.choice else 'keep'} {e.factions[self.faction[self.player]].name}"
            if self.phase == SETUP_START:
                return f"start in {e.systems[action.choice]}"
            return f"place a {e.tiles[self.placing]['condition']} tile on {e.node_label[action.choice]}"
        if tag == "upgrade":
            return f"build {action.name} on {e.node_label[action.planet]}"
        if tag == "move":
            u = self.unit(action.uid)
            cargo = f" carrying {action.carry}" if action.carry else ""
            return f"move {u.kind} #{u.uid} {e.node_label[u.node]} -> {e.node_label[action.to]}{cargo}"
        if tag == "trade":
            return "buy an OCC-card" if action.choice == 0 else "sell OCC-cards"
        if tag == "wormhole":
            return f"place a wormhole in {e.systems[action.system]}"
        if tag == "sacrifice":
            return "sacrifice a unit instead"
        if tag == "play":
            return f"play {e.occ[action.card].name}"
        if tag == "recruit":
            return f"recruit {action.kind} at {e.node_label[action.planet]}"
        if tag == "roster":
            return f"add {action.kind} to the roster"
        return str(tag)
