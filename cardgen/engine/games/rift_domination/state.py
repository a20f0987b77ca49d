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
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from cardgen.engine.core import Action, State, frozen
from cardgen.engine.flow import Flow
from cardgen.engine.games.rift_domination import conflict, effects, planets
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
    Move,
    Pick,
    Play,
    Recruit,
    Roster,
    Sacrifice,
    Trade,
    Unit,
    Upgrade,
    Wormhole,
)
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.rules import RiftEngine


class RiftState(Flow, State):
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

    def __init__(self, engine: RiftEngine, players: int, seed: int):
        super().__init__(seed)
        self.engine, self.n = engine, players

    @classmethod
    def setup(cls, engine: RiftEngine, players: int, seed: int) -> RiftState:
        s = cls(engine, players, seed)
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
        s.units, s.next_uid = [], 0
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
        s.phase = SETUP_FACTION
        s._deal_faction(s.player)
        s.run()
        return s

    # -- set-up --------------------------------------------------------------------------------------------------------

    def _deal_faction(self, p: int) -> None:
        left = [f for f in range(len(self.engine.factions)) if f not in self.offered]
        pick = left[self.rng.randbelow(len(left))]
        self.chance.record("faction", [p, self.engine.factions[pick].item])
        self.offered.append(pick)
        self.faction[p] = pick

    def _start_places(self) -> list[int]:
        taken = {self.engine.node_system[h] for h in self.home if h >= 0}
        colour = self.engine.start_colour(self.n)
        return [
            self.engine.systems.index(s)
            for s in self.engine.start_systems[colour]
            if self.engine.systems.index(s) not in taken
        ]

    def _tile_places(self) -> list[int]:
        homes = set(self.home)
        return [h for h in range(len(self.on)) if self.on[h] and self.engine.is_planet[h] and h not in homes
                and h not in self.tile]  # fmt: skip

    def _next_seat(self, p: int) -> int:
        return (p + 1) % self.n

    def _after_setup_choice(self) -> None:
        first = self.first_player if self.first_player is not None else 0
        if self.phase == SETUP_FACTION:
            self.player = self._next_seat(self.player)
            if self.player == first:
                self.phase = SETUP_START
            else:
                self._deal_faction(self.player)
            return
        if self.phase == SETUP_START:
            self.player = self._next_seat(self.player)
            if self.player == first:
                self.phase = SETUP_TILES
                self._draw_tile()
            return
        self.player = self._next_seat(self.player)
        self._draw_tile()

    def _draw_tile(self) -> None:
        if not self._tile_places():
            self._begin_play()
            return
        if not self.tile_pool:
            self.events.add("tiles-ran-out")
            self._begin_play()
            return
        self.placing = self.tile_pool.pop()

    def _begin_play(self) -> None:
        e = self.engine
        self.placing = -1
        for p in range(self.n):
            faction = e.factions[self.faction[p]]
            self.events.add(f"faction:{faction.item}")
            self.events.add(f"players:{self.n}")
            home = self.home[p]
            self.owner[home] = p
            self.upgrades[home] = ["military_base"] + [name for name, k in faction.upgrades for _ in range(k)]
            self.resources[p] = faction.resources
            self.roster[p] = list(faction.roster)
            for kind, count in faction.starting_units:
                for _ in range(count):
                    self._add(p, kind, home)
            self._draw_occ(p, e.setup_occ)
        self.phase = BUILD
        self.player = self.first_player if self.first_player is not None else 0
        self._start_turn()

    # -- helpers -------------------------------------------------------------------------------------------------------

    def fac(self, p: int) -> Faction:
        return self.engine.factions[self.faction[p]]

    def _add(self, p: int, kind: str, node: int) -> Unit | None:
        """A unit tile of p's colour onto the board (none when every tile of that type is in play)."""
        if sum(1 for u in self.units if u.owner == p and u.kind == kind) >= self.engine.tiles_per_colour[kind]:
            self.events.add(f"tiles-short:{kind}")
            return None
        unit = Unit(self.next_uid, p, kind, node)
        self.next_uid += 1
        self.units.append(unit)
        return unit

    def unit(self, uid: int) -> Unit:
        return next(u for u in self.units if u.uid == uid)

    def ground(self, u: Unit) -> bool:
        return bool(self.engine.units[u.kind]["role"] == "ground")

    def slots(self, planet: int, p: int) -> int:
        base = int(self.engine.planets[planet - len(self.engine.systems)]["upgrade_slots"])
        return base + (self.fac(p).modifier("upgrade-slots") or 0)

    def planets_of(self, p: int) -> list[int]:
        return sorted(h for h, o in self.owner.items() if o == p)

    def _draw_occ(self, p: int, count: int) -> None:
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    return
                self.deck, self.discard = self.discard, []
                self.shuffle(self.deck, "OCC deck")
            card = self.deck.pop()
            self.chance.record("draw", [p, self.engine.occ[card].item])
            if self.engine.occ[card].when == "instant":
                self.discard.append(card)
                said = self.engine.occ[card].effects
                if said and all(x.verb in HARMFUL for x in said) and effects.may_sacrifice(self, p):
                    effects.sacrifice(self, p)  # a policy: a card that only hurts is answered with a sacrifice
                else:
                    effects.resolve(self, p, said)
                self.events.add(f"play:{self.engine.occ[card].item}")
            else:
                self.hands[p].append(card)

    def _blocked(self, u: Unit) -> bool:
        """An enemy's blockade keeps the unit in its system."""
        holder = self.blockades.get(self.engine.node_system[u.node])
        return holder is not None and holder != u.owner

    # -- turns ---------------------------------------------------------------------------------------------------------

    def _start_turn(self) -> None:
        """A turn begins: the player's blockades lift; a faction with `peek-occ` looks at the top card first."""
        p = self.player
        self.blockades = {s: q for s, q in self.blockades.items() if q != p}
        self.traded = False
        if self.fac(p).modifier("peek-occ") is not None and self.deck:
            self.phase = PEEK
            return
        self._draw_and_gain()

    def _draw_and_gain(self) -> None:
        """Steps 1–3: draw, income and fighters, the track; then the build step."""
        e, p = self.engine, self.player
        fac = self.fac(p)
        outposts = sum(u == "trading_outpost" for h in self.planets_of(p) for u in self.upgrades.get(h, []))
        per_outpost = fac.modifier("outpost-occ") or e.upgrades["trading_outpost"]["occ"]
        self._draw_occ(p, (fac.modifier("draws-per-turn") or e.occ_per_turn) + outposts * per_outpost)
        self.resources[p] += self.track[p] + fac.income + self._mines(p)
        bases = [h for h in self.planets_of(p) if "military_base" in self.upgrades.get(h, [])]
        fleets = [u.node for u in self.units if u.owner == p]
        where = bases[0] if bases else (fleets[0] if fleets else -1)
        if where >= 0:
            for _ in range(fac.modifier("fighters-per-turn") or e.fighters_per_turn):
                self._add(p, "fighter", where)
        self.track[p] = min(e.track_last, self.track[p] + e.track_step)
        for u in self.units:
            if u.owner == p:
                u.mp = self._movement(u)
                if self.slowed[p] and self.engine.node_system[u.node] == self.engine.node_system[self.home[p]]:
                    u.mp = max(self.engine.warp["minimum"], u.mp - self.slowed[p])
        self.slowed[p] = 0
        self.phase = BUILD

    def _mines(self, p: int) -> int:
        e = self.engine
        per_mine = e.upgrades["mines"]["resources"] + (self.fac(p).modifier("mine-bonus") or 0)
        total = 0
        for h in self.planets_of(p):
            mines = self.upgrades.get(h, []).count("mines")
            total += mines * per_mine
            tile = self.tile.get(h, -1)
            if tile >= 0 and e.tiles[tile]["condition"] == "harvester" and mines >= e.harvester_bonus["mines"]:
                total += self.fac(p).modifier("harvester-bonus") or e.harvester_bonus["resources"]
        return total

    def _movement(self, u: Unit) -> int:
        """Movement points for the turn: the card, the faction, and warps in the unit's system."""
        e = self.engine
        mp = int(e.units[u.kind]["movement"]) + (self.fac(u.owner).modifier("movement", u.kind) or 0)
        system = e.node_system[u.node]
        for q in range(self.n):
            slow = self.fac(q).modifier("slow-enemies") if q != u.owner else None
            if slow and any(self.owner.get(h) == q for h in e.system_planets[system]):
                mp = max(e.warp["minimum"], mp - slow)
        for h in e.system_planets[system]:  # 'infantry units are not affected by the warp' (but `warp-infantry`)
            warps, holder = self.upgrades.get(h, []).count("warp"), self.owner.get(h)
            if not warps or holder is None:
                continue
            if holder == u.owner:
                mp += e.warp["own"] * warps if u.kind != "infantry" else 0
            elif u.kind != "infantry" or self.fac(holder).modifier("warp-infantry") is not None:
                mp = max(e.warp["minimum"], mp - e.warp["enemy"] * warps)
        return mp

    def capacity(self, u: Unit) -> int:
        room = int(self.engine.units[u.kind]["capacity"])
        return room + (self.fac(u.owner).modifier("carry", u.kind) or 0) if room else 0

    def carried(self, u: Unit) -> bool:
        """A unit that uses capacity crosses into another system only aboard a unit that carries."""
        return int(self.engine.units[u.kind]["used_capacity"]) > 0

    def _cargo(self, u: Unit) -> list[Unit]:
        """What a carrier takes along (a policy), within its capacity: units that take planets first, then the
        dearest, then the oldest."""
        room, out = self.capacity(u), list[Unit]()
        if not room:
            return out
        beside = [x for x in self.units if x.owner == u.owner and x.node == u.node and x is not u and self.carried(x)]
        cards = self.engine.units
        for x in sorted(beside, key=lambda x: (not (self.ground(x) or self.negotiates(x)), -int(cards[x.kind]["cost"]),
                                               x.uid)):  # fmt: skip
            need = int(cards[x.kind]["used_capacity"])
            if need <= room:
                out.append(x)
                room -= need
        return out

    def _wormhole_cost(self, p: int) -> int:
        found = self.fac(p).modifier("wormhole-cost")
        return self.engine.wormhole_cost if found is None else found

    def _moves(self, u: Unit) -> list[Action]:
        """A unit's steps: to the next points (one movement point), and between wormholes; crossing into another
        system needs no enemy blockade and, for a unit that uses capacity, a carrier (`Move.carry`: its cargo)."""
        e = self.engine
        here = e.node_system[u.node]
        targets = [(t, 1) for t in self.adj[u.node]]
        if not e.is_planet[u.node] and here in self.wormholes:
            cost = self._wormhole_cost(u.owner)
            targets += [(s, cost) for s in self.wormholes if s != here and self.on[s] and s not in self.adj[u.node]]
        blocked, carried = self._blocked(u), self.carried(u)
        cargo = -1
        out: list[Action] = []
        for t, cost in targets:
            if cost > u.mp:
                continue
            crossing = e.node_system[t] != here
            if crossing and (blocked or carried):
                continue
            out.append(Move(u.uid, t))
            if crossing:
                cargo = len(self._cargo(u)) if cargo < 0 else cargo
                if cargo:
                    out.append(Move(u.uid, t, cargo))
        return out

    def _end_turn(self) -> None:
        limit = self.fac(self.player).modifier("hand-limit")
        hand = self.hands[self.player]
        if limit is not None and len(hand) > limit:  # the oldest cards go first (a policy)
            self.discard += hand[: len(hand) - limit]
            del hand[: len(hand) - limit]
        self.seats_done += 1
        if self.seats_done % self.n == 0:
            self.turns += 1  # rounds played (the turn cap counts rounds)
        target = self.engine.win_vp[self.n]
        if self.rounds_left < 0 and max(self.vp) >= target:
            self.rounds_left = self.n - self.seats_done % self.n if self.seats_done % self.n else 0
            # 'the round is still played to the end': seats after this one in the round still play
        elif self.rounds_left > 0:
            self.rounds_left -= 1
        if self.rounds_left == 0:
            self.phase, self.ending = OVER, "victory points reached"
            for p, share in enumerate(self.standings()):
                if share:
                    self.events.add(f"won:{self.fac(p).item}")
            return
        self.player = self._next_seat(self.player)
        self._start_turn()

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
        p = self.player
        if self.phase == PEEK:
            return [Pick(0), Pick(1)]
        if self.phase == SETUP_FACTION:
            return [Pick(0), Pick(1)] if self.repicked[p] < e.repicks else [Pick(0)]
        if self.phase == SETUP_START:
            return [Pick(s) for s in self._start_places()]
        if self.phase == SETUP_TILES:
            return [Pick(h) for h in self._tile_places()]
        out: list[Action] = []
        if self.phase == BUILD:
            for h in self.planets_of(p):
                if len(self.upgrades.get(h, [])) >= self.slots(h, p):
                    continue
                for name in e.upgrades:
                    if name == "military_base" and self.fac(p).modifier("no-new-bases") is not None:
                        continue
                    if self.upgrade_cost(p, name) <= self.resources[p] and self._may_build(h, name, p):
                        out.append(Upgrade(h, name))
            out += self._wormhole_places(p)
        elif self.phase == MOVE:
            for u in self.units:
                if u.owner == p and u.mp > 0:
                    out += self._moves(u)
            out += self._trades(p)
            out += [Play(c) for c in sorted(set(self.hands[p])) if e.occ[c].when in ("own-turn", "any-time")
                    and e.occ[c].effects and not effects.cancels(self, c)]  # fmt: skip
        elif self.phase == RECRUIT:
            bases = [h for h in self.planets_of(p) if "military_base" in self.upgrades.get(h, [])]
            places = {(kind, h): None for kind in self.roster[p] for h in bases}
            for effect in self.fac(p).effects:  # the Vespians' diplomats recruit where they stand
                if effect.verb == "diplomat-recruit":
                    envoys = sorted({u.node for u in self.units if u.owner == p and self.negotiates(u)})
                    for kind in effect.opt("kinds").split("/"):
                        places.update({(kind, h): None for h in envoys if kind in e.units})
            for kind, h in places:
                cost = int(e.units[kind]["cost"])
                mine = sum(1 for u in self.units if u.owner == p and u.kind == kind)
                if cost <= self.resources[p] and mine < e.tiles_per_colour[kind]:
                    out.append(Recruit(kind, h))
        out.append(Done())
        return out

    def upgrade_cost(self, p: int, name: str) -> int:
        for effect in self.fac(p).effects:
            if effect.verb == "upgrade-cost" and effect.opt("upgrade") == name:
                return effect.amount
        cost = int(self.engine.upgrades[name]["cost"])
        discount = self.fac(p).modifier("upgrade-discount")
        return max(1, cost - discount) if discount else cost

    def _may_build(self, h: int, name: str, p: int) -> bool:
        if name != "warp":
            return True
        limit = self.fac(p).modifier("warps-per-system") or self.engine.warp["per_system"]
        return (
            sum(self.upgrades.get(q, []).count("warp") for q in self.engine.system_planets[self.engine.node_system[h]])
            < limit
        )

    def _wormhole_places(self, p: int) -> list[Action]:
        """Once a round (`place-wormhole`), a wormhole tile in a system where p controls a planet."""
        amount = self.fac(p).modifier("place-wormhole")
        when, count = self.placed[p]
        if (
            amount is None
            or (when == self.turns and count >= amount)
            or len(self.wormholes) >= self.engine.wormhole_tiles
        ):
            return []
        systems = sorted({self.engine.node_system[h] for h in self.planets_of(p)} - set(self.wormholes))
        return [Wormhole(s) for s in systems]

    def _trades(self, p: int) -> list[Action]:
        """Once a turn (`trade-occ`): buy an OCC-card, or sell cards, for the amount."""
        effect = next((x for x in self.fac(p).effects if x.verb == "trade-occ"), None)
        if effect is None or self.traded:
            return []
        out: list[Action] = [Trade(0)] if self.resources[p] >= effect.amount else []
        return out + ([Trade(1)] if len(self.hands[p]) >= effect.num("discard", 2) else [])

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

    def _t_roster(self, p: int) -> None:
        self.ask("roster", p)

    def _apply(self, action: Action) -> None:
        kind, p, *rest = self.answered()
        if kind == "respond":
            self._answer(p, action, rest[0])
        elif kind == "battle":
            self._battle_answer(p, action)
        elif kind == "roster":
            if action.tag == "roster":
                self.roster[p].append(action.kind)
                self.expansions[p] += 1
        else:
            self._turn(p, action)
        self.run()

    def _answer(self, p: int, action: Action, item: tuple[str, int, int]) -> None:
        """The target's answer to a card played against it: `Done` lets it resolve (the window's last step);
        a cancelling card or a sacrifice leaves it without effect."""
        if action.tag == "sacrifice":
            self.cancel(item)
            effects.sacrifice(self, p)
        elif action.tag == "play":  # the answer cancels the card played: both are discarded, nothing happens
            self.hands[p].remove(action.card)
            self.discard.append(action.card)
            self.events.add(f"play:{self.engine.occ[action.card].item}")
            self.cancel(item)
            self.events.add("cancelled")

    def _battle_answer(self, p: int, action: Action) -> None:
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
            self.hands[p].remove(action.card)
            self.discard.append(action.card)
            self.events.add(f"play:{self.engine.occ[action.card].item}")
            if conflict.recruits(self, action.card):  # recruiting during the battle
                effect = self.engine.occ[action.card].effects[0]
                effects.recruit_now(self, p, effect.amount, effect.opt("locked") == "yes", at=f.node)
                self.events.add("battle-recruit")
            elif conflict.shields_kind(self, action.card):  # played on another's turn too
                effects.resolve(self, p, self.engine.occ[action.card].effects)
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

    def _turn(self, p: int, action: Action) -> None:
        """A choice at the step the turn (or the set-up) is at."""
        tag = action.tag
        if tag == "pick":
            self._pick(p, action.choice)
        elif tag == "upgrade":
            self.resources[p] -= self.upgrade_cost(p, action.name)
            self.upgrades.setdefault(action.planet, []).append(action.name)
            self.events.add(f"upgrade:{action.name}")
        elif tag == "move":
            self._move(self.unit(action.uid), action.to, action.carry)
        elif tag == "trade":
            self._trade(p, action.choice)
        elif tag == "wormhole":
            when, count = self.placed[p]
            self.placed[p] = (self.turns, count + 1 if when == self.turns else 1)
            self.wormholes.append(action.system)
            self.events.add("wormhole")
        elif tag == "play":
            self.hands[p].remove(action.card)
            self.discard.append(action.card)
            self.events.add(f"play:{self.engine.occ[action.card].item}")
            target = effects.target(self, p, self.engine.occ[action.card].effects)
            if target is not None and effects.resists(self, target):
                return
            if target is not None and self.responses(target, None):  # the target may answer it
                self.open_window(("card", action.card, p), p, self.n, seats=(target,))
                return
            effects.resolve(self, p, self.engine.occ[action.card].effects)
        elif tag == "recruit":
            self.resources[p] -= int(self.engine.units[action.kind]["cost"])
            self._add(p, action.kind, action.planet)
            self.events.add(f"recruit:{action.kind}")
            for effect in self.fac(p).effects:
                if effect.verb == "recruit-bonus":
                    for _ in range(effect.amount):
                        self._add(p, effect.opt("unit"), action.planet)
        elif tag == "done":
            if self.phase == BUILD:
                self.phase = MOVE
            elif self.phase == MOVE:
                self.phase = RECRUIT
            else:
                self._end_turn()

    def _trade(self, p: int, choice: int) -> None:
        effect = next(x for x in self.fac(p).effects if x.verb == "trade-occ")
        self.traded = True
        self.events.add(f"trade:{'buy' if choice == 0 else 'sell'}")
        if choice == 0:
            self.resources[p] -= effect.amount
            self._draw_occ(p, 1)
            return
        k = effect.num("discard", 2)  # the oldest cards go (a policy)
        self.discard += self.hands[p][:k]
        del self.hands[p][:k]
        self.resources[p] += effect.amount

    def _pick(self, p: int, choice: int) -> None:
        if self.phase == PEEK:
            if choice:
                self.deck.insert(0, self.deck.pop())
                self.events.add("peek:bottom")
            self._draw_and_gain()
            return
        if self.phase == SETUP_FACTION:
            if choice == 1:
                self.repicked[p] += 1
                self._deal_faction(p)
                return
            self._after_setup_choice()
        elif self.phase == SETUP_START:
            self.home[p] = self.engine.home_planet(choice, self.engine.start_colour(self.n))
            self._after_setup_choice()
        else:
            self.tile[choice] = self.placing
            self._after_setup_choice()

    # -- movement, battles and planets ------------------------------------------------------------------------------

    def _move(self, u: Unit, to: int, carry: int = 0) -> None:
        """A unit steps to the next point (or through a wormhole) with its cargo; what happens there (a space battle,
        then a ground battle or a landing) runs as steps, so a battle can stop for its players' battle cards and
        carry on afterwards. Cargo spends none of its own movement points."""
        came = u.node
        cargo = self._cargo(u)[:carry] if carry else []
        if to in self.adj[came]:
            u.mp -= 1
        else:
            u.mp -= self._wormhole_cost(u.owner)
            self.events.add("wormhole-travel")
        u.node = to
        for x in cargo:
            x.node = to
        if cargo:
            self.events.add("carry")
        if self.fighting is not None:  # joining the attack on the battle's point before it is fought (FAQ)
            f = self.fighting
            self.fighting = dataclasses.replace(f, joined=f.joined + tuple((x.uid, came) for x in [u, *cargo]))
            self.steps += [("planet", x.uid, to, came) for x in [u, *cargo]]  # after the battle, as the first fleet's
            self.events.add("join-attack")
            return
        self.steps = [("space", u.uid, to, came), ("planet", u.uid, to, came)]
        self.steps += [("planet", x.uid, to, came) for x in cargo]
        self._continue()

    def _continue(self) -> None:
        while self.steps and self.fighting is None:
            kind, uid, to, came = self.steps.pop(0)
            u = next((x for x in self.units if x.uid == uid), None)
            if u is None or u.node != to:  # destroyed on the way, or gone back with a retreat: nothing more here
                continue
            p = u.owner
            if kind == "space":
                enemies = [x for x in self.units if x.node == to and x.owner != p and not self.ground(x)]
                if enemies and not self.ground(u):
                    conflict.begin_battle(self, p, enemies[0].owner, to, came, False)
                continue
            if not self.engine.is_planet[to]:
                continue
            holder = self.owner.get(to)
            if holder is not None and holder != p and self.ground(u):
                conflict.begin_battle(self, p, holder, to, came, True)
            elif holder is not None and holder != p and planets.may_negotiate(self, u, to):
                planets.negotiate(self, u, to)
            elif holder is None and to not in self.consumed and (self.ground(u) or self.negotiates(u)):
                planets.land(self, u, to)

    def negotiates(self, u: Unit) -> bool:
        return "negotiate" in self.engine.units[u.kind]["skills"]

    def targetable(self, u: Unit) -> bool:
        """Not under a card's immunity ('no unit may target your diplomats' until the round ends)."""
        found = self.immune.get(u.owner)
        return found is None or found != (self.turns, u.kind)

    def _destroy(self, u: Unit) -> None:
        """A unit leaves the board (once: a card drawn for a lost diplomat may destroy others on the way)."""
        if u not in self.units:
            return
        self.units.remove(u)
        if self.negotiates(u):
            self._draw_occ(u.owner, self.fac(u.owner).modifier("diplomat-loss-occ") or 0)

    # -- results, invariants, observation ------------------------------------------------------------------------

    def standings(self) -> list[float]:
        best = max(self.vp)
        winners = [p for p in range(self.n) if self.vp[p] == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.n)]

    def returns(self) -> list[float]:
        return self.standings() if self.phase == OVER else [0.0] * self.n

    def invariant_violations(self) -> list[str]:
        e = self.engine
        out: list[str] = []
        tiles: dict[tuple[int, str], int] = {}
        for u in self.units:
            tiles[(u.owner, u.kind)] = tiles.get((u.owner, u.kind), 0) + 1
        for (p, kind), mine in tiles.items():
            if mine > e.tiles_per_colour[kind]:
                out.append(f"seat {p}: {mine} {kind} tiles in play, {e.tiles_per_colour[kind]} printed")
        for p in range(self.n):
            if self.resources[p] < 0:
                out.append(f"seat {p} has {self.resources[p]} resources")
            if self.vp[p] < 0:
                out.append(f"seat {p} has {self.vp[p]} VP")
            if self.expansions[p] > self.fac(p).expansions if self.faction[p] >= 0 else False:
                out.append(f"seat {p} expanded its roster beyond its faction's limit")
        for h, built in self.upgrades.items():
            base = e.planets[h - len(e.systems)]["upgrade_slots"] + e.extra_slots  # the home planet's too
            if len(built) > base:
                out.append(f"{e.node_label[h]} holds {len(built)} upgrades, more than its slots")
        most = max([e.warp["per_system"]] + [self.fac(q).modifier("warps-per-system") or 0 for q in range(self.n)
                                             if self.faction[q] >= 0])  # fmt: skip
        for system, inside in enumerate(e.system_planets):
            warps = sum(self.upgrades.get(h, []).count("warp") for h in inside)
            if warps > most:
                out.append(f"system {e.systems[system]} holds {warps} warps")
        cards = sorted(self.deck + self.discard + [c for hand in self.hands for c in hand])
        if cards != list(range(len(e.occ))):
            out.append("an OCC-card is missing or in two places")
        placed = sorted([*self.tile_pool, *self.tile.values(), *self.tiles_gone,
                         *([self.placing] if self.placing >= 0 else [])])  # fmt: skip
        if placed != sorted(set(placed)) or len(placed) > len(e.tiles):
            out.append("a condition tile is in two places")
        for u in self.units:
            if not self.on[u.node]:
                out.append(f"unit {u.uid} is off the board in use")
        if len(self.wormholes) > e.wormhole_tiles or len(set(self.wormholes)) < len(self.wormholes):
            out.append(f"{len(self.wormholes)} wormholes on the board ({e.wormhole_tiles} tiles, one per system)")
        if set(self.consumed) & set(self.owner):
            out.append("a consumed planet is controlled")
        return out

    def observation(self, player: int) -> Any:
        """The board, every unit, upgrades, VP, resources; the player's own OCC hand; the condition tiles' kinds
        (their rewards only once taken); the other hands' sizes."""
        tiles = sorted((h, self.engine.tiles[t]["condition"]) for h, t in self.tile.items())
        return frozen([
            self.phase, self.player, self.turns, self.faction, self.home, [u.key() for u in self.units],
            sorted(self.owner.items()), sorted((h, tuple(v)) for h, v in self.upgrades.items()), tiles,
            self.resources, self.vp, self.track, self.roster, sorted(self.hands[player]),
            [len(h) for h in self.hands], len(self.deck), sorted(self.discard), self.decision, self.tasks,
            self.fighting, self.steps, self.slowed, sorted(self.consumed), self.wormholes, self.placed, self.traded,
            sorted(self.immune.items()), sorted(self.blockades.items()), self.resisted,
            self.deck[-1] if self.phase == PEEK and player == self.player and self.deck else None,
            self.placing >= 0 and self.engine.tiles[self.placing]["condition"] if self.placing >= 0 else None,
        ])  # fmt: skip

    def determinize(self, player: int, rng: CounterRng) -> State:
        """The deck and the other players' hands dealt again from the cards the player has not seen, and the rewards
        of the condition tiles nobody has taken again among the tiles of their condition."""
        copy = self.reseeded(rng)
        assert isinstance(copy, RiftState)
        top = self.deck[-1:] if self.phase == PEEK and player == self.player else []  # the card being peeked at
        unseen = len(self.deck) - len(top)
        hidden = self.deck[:unseen] + [c for q, hand in enumerate(self.hands) if q != player for c in hand]
        rng.shuffle(hidden)
        copy.deck = hidden[:unseen] + top
        rest = hidden[unseen:]
        for q in range(self.n):
            if q != player:
                copy.hands[q], rest = rest[: len(self.hands[q])], rest[len(self.hands[q]) :]
        by_kind: dict[str, list[int]] = {}  # the rewards under condition tiles nobody has taken, dealt again
        for h in sorted(self.tile):
            if h not in self.owner:
                by_kind.setdefault(self.engine.tiles[self.tile[h]]["condition"], []).append(h)
        pool_at = {tile: i for i, tile in enumerate(self.tile_pool)}
        for kind, places in by_kind.items():
            spots: list[tuple[str, int]] = [("planet", h) for h in places]
            spots += [("pool", pool_at[x]) for x in self.tile_pool if self.engine.tiles[x]["condition"] == kind]
            tiles = [self.tile[h] for h in places] + [
                x for x in self.tile_pool if self.engine.tiles[x]["condition"] == kind
            ]
            rng.shuffle(tiles)
            for (where, at), tile in zip(spots, tiles, strict=True):
                if where == "planet":
                    copy.tile[at] = tile
                else:
                    copy.tile_pool[at] = tile
        return copy

    def clone(self) -> RiftState:
        other = RiftState.__new__(RiftState)
        self._copy_base(other)
        other.engine, other.n, other.on, other.adj, other.towards = self.engine, self.n, self.on, self.adj, self.towards
        other.phase, other.player = self.phase, self.player
        other.faction, other.repicked, other.offered = list(self.faction), list(self.repicked), list(self.offered)
        other.home, other.units, other.next_uid = list(self.home), [u.copy() for u in self.units], self.next_uid
        other.owner, other.upgrades = dict(self.owner), {h: list(v) for h, v in self.upgrades.items()}
        other.tile, other.consumed, other.tile_pool = dict(self.tile), set(self.consumed), list(self.tile_pool)
        other.placing = self.placing
        other.resources, other.vp, other.track = list(self.resources), list(self.vp), list(self.track)
        other.roster, other.expansions = [list(r) for r in self.roster], list(self.expansions)
        other.systems_held = dict(self.systems_held)
        other.deck, other.discard, other.hands = list(self.deck), list(self.discard), [list(h) for h in self.hands]
        other.tasks, other.decision = list(self.tasks), self.decision
        other.fighting, other.steps = self.fighting, list(self.steps)
        other.slowed = list(self.slowed)
        other.tiles_gone, other.wormholes, other.placed = list(self.tiles_gone), list(self.wormholes), list(self.placed)
        other.traded, other.immune, other.blockades = self.traded, dict(self.immune), dict(self.blockades)
        other.resisted = list(self.resisted)
        other.rounds_left, other.seats_done = self.rounds_left, self.seats_done
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
