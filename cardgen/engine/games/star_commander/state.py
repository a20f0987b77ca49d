"""What changes in a game of Star Commander: the grid, developments, credits, hands, technologies, ships and stations.

A turn (rules.yaml `phases`): Ready (skipped on each player's own first turn: income from systems and developments
not under siege, draw one card from a domain you control, Ready-phase abilities, start-of-turn commands); Command
(move, explore, build, scrap, play commands and technologies, trade, develop, in any order until the player is done);
Combat (each system holding pieces of two or more players, in grid order: commands and abilities, damage assigned by
the active player then clockwise, damage-prevention responses, damage resolved, retreats); End (conquest by the active
player's besieging ships, then Cleanup: captured Homeworlds eliminate their players, end-of-turn effects and damage
clear, the hand limit). The last player holding a Homeworld wins.

Readings where the rulebook leaves a gap follow rules.yaml (facts and `contradictions`): a 3×3 grid for 2 players in
opposite corners and 5×5 for 3–4 (`grid_by_players`), damage clears in Cleanup (`damage_clears`), a ship's whole
attack goes to one target (`damage_assignment`), conquest is the active player's (`conquest_by`), exploring is a
choice made by the ship's owner and a system must be explored before it is developed (`explore_first`), retreats
follow each system's combat (`retreat_step`), a player above the Fighter limit after losing developments loses the
excess Fighters at once (`fighter_excess`), a system is contested from combat there until the end of its
controller's next turn (`contested`), a ship built this turn is not scrapped until the next, a Domain deck that
runs out is rebuilt from its discards, systems fight in grid order with windows before damage, after it is assigned
and when a ship is destroyed, and no trades between players are played (agents do not negotiate).

Domain decks are ordered and shuffled once (Imperial Census can look at the top); what a player knows of them and of
face-down systems (`known`, `peeked`) survives determinization. Response windows use `Flow`; only players who
hold a response they can use are asked (a table asks everyone; the answer "pass" is the same).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.boards import diagonal_distance
from cardgen.engine.core import State, frozen
from cardgen.engine.flow import PASS, Flow
from cardgen.engine.games.star_commander import effects, listing
from cardgen.engine.games.star_commander.model import (
    DONE,
    Ability,
    Assign,
    Build,
    CardSpec,
    Choose,
    Develop,
    Discard,
    Done,
    Effect,
    Explore,
    Item,
    Move,
    Phase,
    Piece,
    Play,
    Retreat,
    Scrap,
    Temporary,
    TradeDraw,
    TradeSell,
)
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.rules import StarEngine


class StarState(Flow, State):
    """One game of Star Commander."""

    engine: StarEngine
    n: int
    size: int
    jumps: tuple[list[tuple[int, ...]], list[tuple[int, ...]]]  # cells one jump away: diagonally; also orthogonally
    grid: list[int]  # the system card on each cell
    revealed: list[bool]
    aside: list[int]  # system cards not on the grid
    owner: list[int]  # -1: uncontrolled
    devs: list[int]
    home: list[int]  # each seat's Homeworld cell
    credits: list[int]
    hands: list[list[int]]
    techs: list[list[int]]
    decks: list[list[int]]  # top of a deck = end of its list
    discards: list[list[int]]
    playing: list[int]  # commands and technologies on the response stack
    supply: list[int]  # core cards not in play
    pieces: list[Piece]
    known: list[list[list[int]]]  # known[p][d]: the top cards of deck d that p has seen, top first
    peeked: list[set[int]]  # cells whose face-down system each player has looked at
    started: list[bool]  # seats that have had a turn (the Ready phase is skipped on a seat's first)
    clock: int
    last_end: list[int]  # the clock of each seat's last finished turn (0: none yet)
    combat_at: list[int]  # clock of the last combat in each cell (-1: never)
    embargo: list[bool]
    vetoed: set[int]
    used: set[tuple[int, int]]  # (ability card, answered card): triggered abilities used
    prevent: dict[int, int]
    assigned: list[tuple[int, int]]
    temp: Temporary
    active: int
    phase: Phase
    fight: int
    abandoned: set[int]
    breaches: list[str]
    _lasting: dict[tuple[int, str], list[tuple[Effect, Piece | None]]]
    _by_cell: dict[int, list[Piece]] | None  # the pieces by cell while the legal actions are listed
    _listing: bool  # the legal actions are being listed: a pure query, so no ability is marked as applied

    @classmethod
    def setup(cls, engine: StarEngine, players: int, seed: int) -> StarState:
        s = cls(seed)
        s.engine, s.n = engine, players
        s.size = size = engine.grid[players]
        s.jumps = engine.jumps(size)
        last = size - 1
        corners = [0, last, last * size + last, last * size]  # clockwise from the top left
        seats = [corners[0], corners[2]] if players == 2 else corners[:players]
        homeworlds = list(engine.homeworlds)
        s.shuffle(homeworlds, "homeworlds")
        others = [c for c in range(len(engine.systems)) if c not in homeworlds[:players]]
        s.shuffle(others, "system deck")
        s.grid = [-1] * (size * size)
        s.home = list(seats)
        for p, cell in enumerate(seats):
            s.grid[cell] = homeworlds[p]
        free = [c for c in range(size * size) if s.grid[c] < 0]
        if len(others) < len(free):
            s.problem(f"the System deck cannot fill the {size}×{size} grid")
        for cell, card in zip(free, others, strict=False):
            s.grid[cell] = card
        s.aside = others[len(free) :]
        s.revealed = [c in seats for c in range(size * size)]
        s.owner = [-1] * (size * size)
        s.devs = [0] * (size * size)
        for p, cell in enumerate(seats):
            s.owner[cell], s.devs[cell] = p, engine.start_developments
        s.credits = [engine.start_credits] * players
        s.hands = [[] for _ in range(players)]
        s.techs = [[] for _ in range(players)]
        s.decks = [list(d) for d in engine.deck_cards]
        for d, deck in enumerate(s.decks):
            s.shuffle(deck, engine.domains[d])
        s.discards = [[] for _ in s.decks]
        s.playing = []
        s.supply = list(range(engine.core_start, len(engine.cards)))
        s.pieces = []
        for p, cell in enumerate(seats):
            for name, count in engine.start_ships.items():
                for _ in range(count):
                    found = s._from_supply(name)
                    if found is None:
                        s.problem(f"not enough {name} cards for {players} players")
                        continue
                    s.pieces.append(Piece(found, p, cell, 0, 0, False, False, False, False, 0))
        s._lasting, s._by_cell, s._listing = {}, None, False
        s.known = [[[] for _ in s.decks] for _ in range(players)]
        s.peeked = [set() for _ in range(players)]
        s.started = [False] * players
        s.clock, s.last_end, s.combat_at = 0, [0] * players, [-1] * (size * size)
        s.embargo = [False] * players
        s.vetoed, s.used, s.prevent, s.assigned = set(), set(), {}, []
        s.temp = Temporary()
        s.phase, s.fight, s.abandoned, s.breaches = Phase.READY, -1, set(), []
        s.active = s.first_player = s.rng.randrange(players)
        s.chance.record("first player", s.active)
        s.start_tasks(("turn", s.active))
        s.run()
        return s

    # -- the engine surface -----------------------------------------------------------------------------------------

    def returns(self) -> list[float]:
        if self.phase != Phase.OVER:
            return [0.0] * self.n
        alive = self.alive(self.n)
        return [1.0 / len(alive) if p in alive else 0.0 for p in range(self.n)]

    def adjudicated(self) -> list[float]:
        """A game stopped at the turn cap (rules.yaml `turn_cap`): the most developments wins, ties share."""
        devs = [sum(d for c, d in enumerate(self.devs) if self.owner[c] == p) for p in range(self.n)]
        best = max(devs)
        top = [p for p in range(self.n) if devs[p] == best and p not in self.out]
        return [1.0 / len(top) if p in top else 0.0 for p in range(self.n)]

    def clone(self) -> StarState:
        o = StarState.__new__(StarState)
        self._copy_base(o)
        o.engine, o.n, o.size, o.jumps = self.engine, self.n, self.size, self.jumps
        o.grid, o.revealed, o.aside = list(self.grid), list(self.revealed), list(self.aside)
        o.owner, o.devs, o.home = list(self.owner), list(self.devs), self.home
        o.credits = list(self.credits)
        o.hands = [list(h) for h in self.hands]
        o.techs = [list(t) for t in self.techs]
        o.decks = [list(d) for d in self.decks]
        o.discards = [list(d) for d in self.discards]
        o.playing, o.supply = list(self.playing), list(self.supply)
        o.pieces = [p.copy() for p in self.pieces]
        o.known = [[list(k) for k in ks] for ks in self.known]
        o.peeked = [set(p) for p in self.peeked]
        o.started, o.clock, o.last_end = list(self.started), self.clock, list(self.last_end)
        o.combat_at, o.embargo = list(self.combat_at), list(self.embargo)
        o.vetoed, o.used, o.prevent = set(self.vetoed), set(self.used), dict(self.prevent)
        o.assigned, o.temp = list(self.assigned), self.temp.copy()
        o.active, o.phase, o.fight = self.active, self.phase, self.fight
        o.abandoned, o.breaches = set(self.abandoned), list(self.breaches)
        o._lasting, o._by_cell, o._listing = {}, None, False
        o.tasks, o.decision = list(self.tasks), self.decision
        return o

    # -- cards and pieces -------------------------------------------------------------------------------------------

    def spec(self, card: int) -> CardSpec:
        return self.engine.cards[card]

    def piece(self, card: int) -> Piece | None:
        for piece in self.pieces:
            if piece.card == card:
                return piece
        return None

    def _from_supply(self, name: str) -> int | None:
        cards = self.engine.cards
        card = next((c for c in self.supply if cards[c].name == name), None)
        if card is not None:
            self.supply.remove(card)
        return card

    def at(self, cell: int) -> list[Piece]:
        index = self._by_cell
        if index is not None:  # listing legal actions: nothing moves meanwhile
            return index.get(cell, [])
        return [piece for piece in self.pieces if piece.cell == cell]

    def lasting(self, p: int, verb: str) -> list[tuple[Effect, Piece | None]]:
        """A player's lasting effects with a verb: from technologies (piece None) and from their pieces. Cached
        until a technology or a piece comes or goes (`_changed`); pieces are read where they are now."""
        key = (p, verb)
        found = self._lasting.get(key)
        if found is None:
            table = self.engine.lasting
            found = [(e, None) for c in self.techs[p] for e in table[c].get(verb, ())]
            found += [(e, x) for x in self.pieces if x.owner == p for e in table[x.card].get(verb, ())]
            self._lasting[key] = found
        return found

    def _changed(self) -> None:
        self._lasting = {}

    def _applies(self, e: Effect, spec: CardSpec) -> bool:
        classes = e.opt("class")
        if classes and spec.ship_class not in classes.split(","):
            return False
        kind = e.opt("type")
        return not kind or spec.kind == kind

    def attack(self, piece: Piece) -> int:
        if piece.cloaked:
            return 0
        return max(0, self.spec(piece.card).attack + self._bonus(piece, "attack") + piece.boost)

    def hp(self, piece: Piece) -> int:
        aura = 0
        for e, src in self.lasting(piece.owner, "aura-hp"):
            if src is not None and src is not piece and src.cell == piece.cell:
                aura += e.amount
                self._mark(piece.owner, e, src)
        return self.spec(piece.card).hp + self._bonus(piece, "hp") + aura

    def _bonus(self, piece: Piece, verb: str) -> int:
        """A piece's bonus from its owner's lasting `attack` or `hp` effects that cover its class or type."""
        spec, bonus = self.spec(piece.card), 0
        for e, src in self.lasting(piece.owner, verb):
            if self._applies(e, spec):
                bonus += e.amount
                self._mark(piece.owner, e, src)
        return bonus

    def _mark(self, p: int, e: Effect, src: Piece | None) -> None:
        """A lasting effect took effect: its card's ability has applied (for `data_problems`). Listing the legal
        actions only asks what an effect would do, so nothing is marked meanwhile (the play marks it)."""
        if not self._listing:
            self.applied.add(self.spec(src.card).item if src else self.engine.effect_item[id(e)])

    def _used_lasting(self, p: int, verb: str, amount: int) -> None:
        if amount:
            for e, src in self.lasting(p, verb):
                self._mark(p, e, src)

    def _tech_item(self, p: int, e: Effect) -> str:
        return next(self.spec(c).item for c in self.techs[p] if e in self.spec(c).effects)

    def build_cost(self, p: int, card: int) -> int:
        spec = self.spec(card)
        cost, floor = spec.cost, 0
        for e, _ in self.lasting(p, "cost"):
            if self._applies(e, spec) and spec.kind == "ship":
                cost += e.amount
                floor = max(floor, e.num("min"))
        if spec.kind == "ship" and self.temp.discount:
            cost -= self.temp.discount
            floor = max(floor, self.temp.discount_min)
        return max(floor, cost) if cost != spec.cost else cost

    def hand_limit(self, p: int) -> int:
        return self.engine.hand_limit + sum(e.amount for e, _ in self.lasting(p, "hand-limit"))

    def developments(self, p: int) -> int:
        return sum(d for d, o in zip(self.devs, self.owner, strict=True) if o == p)

    def fighters(self, p: int, cell: int | None = None) -> int:
        fighter = self.engine.fighter
        if cell is None:
            return sum(1 for x in self.pieces if x.owner == p and fighter[x.card])
        return sum(1 for x in self.pieces if x.owner == p and x.cell == cell and fighter[x.card])

    def fighter_slots(self, p: int, cell: int) -> int:
        if self.owner[cell] != p:
            return 0
        return self.devs[cell] + sum(
            e.amount for e, src in self.lasting(p, "fighter-slots") if src and src.cell == cell
        )

    # -- the grid ---------------------------------------------------------------------------------------------------

    def system(self, cell: int) -> Any:
        return self.engine.systems[self.grid[cell]]

    def neighbours(self, cell: int, orthogonal: bool = False) -> tuple[int, ...]:
        """The cells one jump away, along diagonals (and along rows and columns with `orthogonal`), in number order:
        the board's tables (`boards.square_grid`), shared and never changed."""
        return self.jumps[orthogonal][cell]

    def distance(self, a: int, b: int) -> int:
        """Jumps between two cells along diagonals (`boards.diagonal_distance`; a cell of the other colour, which no
        diagonal jump reaches, counts as far away)."""
        (ra, ca), (rb, cb) = divmod(a, self.size), divmod(b, self.size)
        steps = diagonal_distance((ca, ra), (cb, rb))
        return 2 * self.size if steps is None else steps

    def contested(self, cell: int) -> bool:
        """Combat (damage assigned) in a system its controller holds since the end of their previous turn (rules.yaml
        `contested`): a system attacked on another player's turn stays contested until its controller's turn ends."""
        o = self.owner[cell]
        return o >= 0 and self.combat_at[cell] > self.last_end[o]

    def under_siege(self, cell: int) -> bool:
        o = self.owner[cell]
        if o < 0 or cell in self.temp.lifted:
            return False
        here = self.at(cell)
        enemies = [
            x for x in here if x.owner != o and self.spec(x.card).kind == "ship" and not self.spec(x.card).fighter
        ]
        if not enemies or any(x.owner == o and self.attack(x) > 0 for x in here):
            return False
        for e, _ in self.lasting(o, "siege-immunity"):
            has_station = any(x.owner == o and self.spec(x.card).kind == "station" for x in here)
            if has_station and len(enemies) <= e.num("max-enemies"):
                self._used_lasting(o, "siege-immunity", 1)
                return False
        return True

    def domains_of(self, p: int) -> list[int]:
        """The domains a player may draw from: those of the systems they control (a Homeworld counts as all)."""
        found: set[int] = set()
        for cell, o in enumerate(self.owner):
            if o == p:
                d = self.system(cell).domain
                found |= set(range(len(self.decks))) if d < 0 else {d}
        return sorted(found)

    # -- turn structure ---------------------------------------------------------------------------------------------

    def _t_turn(self, p: int) -> None:
        self.active, self.turns = p, self.turns + 1
        self.clock += 1
        for piece in self.pieces:  # `jumps` and `moved` count the active player's turn for every piece (Retreat)
            piece.jumps, piece.moved = 0, False
            if piece.owner == p:
                piece.fresh = False
        self.abandoned = {x.card for x in self.pieces if x.owner == p and self._abandoned(x)}
        self.phase = Phase.READY
        ready = [("income", p), ("draw", p, self.engine.draws), ("ready_abilities", p), ("start_window", p)]
        self.push(*(ready if self.started[p] else []), ("command", p))
        self.started[p] = True

    def _abandoned(self, piece: Piece) -> bool:
        if not self.spec(piece.card).fighter or self.owner[piece.cell] == piece.owner:
            return False
        return all(self.spec(x.card).fighter for x in self.at(piece.cell) if x.owner == piece.owner)

    def _t_income(self, p: int) -> None:
        for cell, o in enumerate(self.owner):
            if o == p and not self.under_siege(cell):
                self.credits[p] += self.system(cell).credits + self.devs[cell] * self.engine.income

    def _t_ready_abilities(self, p: int) -> None:
        cards = self.engine.cards
        sources = [(c, None) for c in self.techs[p]] + [(x.card, x) for x in self.pieces if x.owner == p]
        for card, piece in sources:
            for e in cards[card].effects:
                if e.trigger == "ready" and self._condition(p, e, piece):
                    self.applied.add(cards[card].item)
                    effects.apply_effect(self, p, e, card, -1, -1)

    def _condition(self, p: int, e: Effect, piece: Piece | None) -> bool:
        if e.opt("if-systems") and sum(1 for o in self.owner if o == p) < e.num("if-systems"):
            return False
        if e.opt("if-here") and (piece is None or self.owner[piece.cell] != p):
            return False
        if e.opt("if-hand-at-most") and len(self.hands[p]) > e.num("if-hand-at-most"):
            return False
        return not (e.opt("if-techs") and len(self.techs[p]) < e.num("if-techs"))

    def _t_start_window(self, p: int) -> None:
        if listing.commands(self, p, "start-of-turn"):
            self.ask("start", p)

    def _t_command(self, p: int) -> None:
        self.phase = Phase.COMMAND
        self.ask("command", p)

    def _t_combat(self, p: int) -> None:
        self.phase = Phase.COMBAT
        cells = [c for c in range(len(self.grid)) if len({x.owner for x in self.at(c)}) > 1]
        self.push(*[("battle", c) for c in cells], ("end", p))

    def order_from(self, p: int) -> list[int]:
        return [q for q in ((p + i) % self.n for i in range(self.n)) if q not in self.out]

    def _t_battle(self, cell: int) -> None:
        if len({x.owner for x in self.at(cell)}) < 2:
            return
        self.fight, self.assigned, self.prevent = cell, [], {}
        order = tuple(self.order_from(self.active))
        self.push(("combat_window", cell, order, 0), ("assign_all", cell), ("damage", cell), ("retreats", cell, order))

    def _t_combat_window(self, cell: int, order: tuple[int, ...], passes: int) -> None:
        """Before damage is assigned, in turn order from the active player, each may play combat commands; the
        window closes when every player has passed in a row."""
        for step in range(len(order) - passes):
            p = order[(passes + step) % len(order)]
            if listing.commands(self, p, "combat-phase") or self._responses_any(p):
                self.tasks.append(("combat_window", cell, order, passes + step + 1))
                self.ask("combat", p, cell)
                return

    def _t_assign_all(self, cell: int) -> None:
        if cell in self.temp.ceasefire:
            return
        for p in reversed(self.order_from(self.active)):
            for x in reversed(self.at(cell)):
                if x.owner == p and self.attack(x) > 0:
                    self.tasks.append(("assign", x.card))

    def _t_assign(self, attacker: int) -> None:
        piece = self.piece(attacker)
        if piece is None or piece.cell != self.fight or self.attack(piece) == 0:
            return
        if self._targets_for(piece):
            self.ask("assign", piece.owner, attacker)

    def _targets_for(self, piece: Piece) -> list[int]:
        return [x.card for x in self.at(piece.cell) if x.owner != piece.owner and not x.cloaked]

    def _t_damage(self, cell: int) -> None:
        if not self.assigned:
            return
        self.combat_at[cell] = self.clock
        item = ("damage", cell)
        self.push(("window", item, tuple(self.order_from(self.active))), ("resolve_item", item), ("hits", cell))

    def _t_hits(self, cell: int) -> None:
        dealt: dict[int, int] = {}
        for attacker, target in self.assigned:
            a, t = self.piece(attacker), self.piece(target)
            if a is None or t is None or a.cell != cell or t.cell != cell or t.cloaked:
                continue
            amount = self.attack(a)
            for e, src in self.lasting(t.owner, "escort"):
                if src is not None and src is not t and src.cell == cell:
                    amount -= e.amount
                    self.applied.add(self.spec(src.card).item)
            dealt[target] = dealt.get(target, 0) + max(0, amount)
        for target, amount in dealt.items():
            t = self.piece(target)
            assert t is not None
            prevented = min(amount, self.prevent.get(target, 0))
            amount -= prevented
            if amount and self.lasting(t.owner, "shield") and t.owner not in self.temp.shield_used:
                self.temp.shield_used.add(t.owner)
                e, _ = self.lasting(t.owner, "shield")[0]
                amount -= min(amount, e.amount)
                self.applied.add(self._tech_item(t.owner, e))
            t.damage += amount
        self._destroy_broken(cell)

    def _destroy_broken(self, cell: int) -> None:
        """Pieces whose damage exceeds their hit points are destroyed (rules.yaml `destroyed_when`)."""
        for piece in [x for x in self.at(cell) if x.damage > self.hp(x)]:
            self.destroy(piece)
            item = ("destroyed", piece.card, cell)
            self.push(("window", item, tuple(self.order_from(self.active))), ("resolve_item", item))

    def destroy(self, piece: Piece) -> None:
        self.pieces.remove(piece)
        self._changed()
        self._return_card(piece.card)
        if self.spec(piece.card).has("fighter-slots"):
            self._fighter_excess(piece.owner)

    def _return_card(self, card: int) -> None:
        d = self.spec(card).domain
        if d < 0:
            self.supply.append(card)
        else:
            self.discards[d].append(card)

    def _t_retreats(self, cell: int, order: tuple[int, ...]) -> None:
        for p in reversed(order):
            self.tasks.append(("retreat", cell, p))

    def _t_retreat(self, cell: int, p: int) -> None:
        if p not in self.out and self._retreats(cell, p):
            self.ask("retreat", p, cell)

    def _retreats(self, cell: int, p: int) -> list[Retreat]:
        far = bool(self.lasting(p, "far-retreat"))
        out = []
        for x in self.at(cell):
            spec = self.spec(x.card)
            if x.owner != p or spec.kind != "ship" or x.pinned:
                continue
            if x.moved and not far and not spec.has("retreat-after-jump"):
                continue
            if spec.fighter and not self.lasting(p, "fighter-jumps") and not far:
                continue
            dests = [c for c, o in enumerate(self.owner) if o == p] if far else self.neighbours(cell)
            dests = [c for c in dests if c != cell and self.owner[c] == p]
            if spec.fighter:
                dests = [c for c in dests if self.fighters(p, c) < self.fighter_slots(p, c)]
            out += [Retreat(x.card, c) for c in dests]
        return out

    def _t_end(self, p: int) -> None:
        self.phase, self.fight = Phase.END, -1
        for cell in range(len(self.grid)):
            q = self.owner[cell]
            if q < 0 or q == p or not self.under_siege(cell):
                continue
            weight = 0
            for x in self.at(cell):
                spec = self.spec(x.card)
                if x.owner == p and spec.kind == "ship" and not spec.fighter:
                    heavy = spec.has("siege-weight")
                    weight += heavy.amount if heavy else 1
                    if heavy:
                        self.applied.add(spec.item)
            if cell == self.home[q]:
                for e, _ in self.lasting(q, "conquest-limit"):
                    if weight > e.amount:
                        weight = e.amount
                        self.applied.add(self._tech_item(q, e))
            self.devs[cell] -= min(weight, self.devs[cell])
            if self.devs[cell] == 0:
                self.owner[cell], self.devs[cell] = p, self.engine.conquest_developments
                self._fighter_excess(p)  # the conqueror's own Fighters there now count against its development
            self._fighter_excess(q)
        self._cleanup(p)

    def _fighter_excess(self, q: int) -> None:
        """A player above a Fighter limit after losing developments loses the excess at once (`fighter_excess`)."""
        for cell in range(len(self.grid)):
            while self.owner[cell] == q and self.fighters(q, cell) > self.fighter_slots(q, cell):
                self.destroy(next(x for x in reversed(self.at(cell)) if x.owner == q and self.spec(x.card).fighter))
        while self.fighters(q) > self.developments(q):
            self.destroy(next(x for x in reversed(self.pieces) if x.owner == q and self.spec(x.card).fighter))

    def _cleanup(self, p: int) -> None:
        self.last_end[p] = self.clock
        for q in range(self.n):
            if q not in self.out and self.owner[self.home[q]] != q:
                self._eliminate(q, f"Homeworld taken by seat {self.owner[self.home[q]]}")
        for piece in [x for x in self.pieces if x.card in self.abandoned]:
            if self._abandoned(piece):
                self.destroy(piece)
        for piece in self.pieces:
            piece.damage, piece.boost, piece.pinned, piece.cloaked = 0, 0, False, False
        self.temp, self.vetoed, self.used = Temporary(), set(), set()
        self.embargo[p] = False
        alive = self.alive(self.n)
        if len(alive) == 1:
            self.phase, self.ending = Phase.OVER, "last Homeworld standing"
            self.tasks, self.decision = [], None
            return
        nxt = self.next_alive(p, self.n)
        assert nxt is not None
        self.push(("hand_limit", p), ("turn", nxt))

    def _t_hand_limit(self, p: int) -> None:
        if len(self.hands[p]) > self.hand_limit(p):
            self.tasks.append(("hand_limit", p))
            self.ask("discard", p)

    def _eliminate(self, q: int, why: str) -> None:
        self.eliminate(q, why)
        for piece in [x for x in self.pieces if x.owner == q]:
            self.destroy(piece)
        for cell, o in enumerate(self.owner):
            if o == q:
                self.owner[cell], self.devs[cell] = -1, 0
        for card in self.hands[q] + self.techs[q]:
            self._return_card(card)
        self.hands[q], self.techs[q] = [], []
        self._changed()

    # -- drawing ----------------------------------------------------------------------------------------------------

    def _t_draw(self, p: int, count: int, domain: int = -1) -> None:
        self.push(*[("draw_one", p, domain)] * count)

    def _t_draw_one(self, p: int, domain: int) -> None:
        if len(self.hands[p]) >= self.hand_limit(p):  # Hand Limit: discard first
            self.tasks.append(("draw_one", p, domain))
            self.ask("discard", p)
            return
        options = [domain] if domain >= 0 else [d for d in self.domains_of(p) if self.decks[d] or self.discards[d]]
        if not options:
            self.problem("a player could not draw: every Domain deck they may draw from was used up")
            return
        if len(options) > 1:
            self.ask("domain", p)
            return
        self._draw_from(p, options[0])

    def _draw_from(self, p: int, d: int) -> None:
        deck = self.decks[d]
        if not deck:
            if not self.discards[d]:
                self.problem(f"the {self.engine.domains[d]} deck and its discards were used up")
                return
            deck += self.discards[d]
            self.discards[d] = []
            self.shuffle(deck, self.engine.domains[d])
            self.problem(f"the {self.engine.domains[d]} deck ran out and its discards were shuffled in")
            for known in self.known:
                known[d] = []
        card = deck.pop()
        if len(self.hands[p]) >= self.engine.hand_limit:  # kept only thanks to a higher hand limit
            self._used_lasting(p, "hand-limit", 1)
        for known in self.known:
            if known[d]:
                known[d].pop(0)
        self.chance.record("draw", [p, card])
        self.hands[p].append(card)

    # -- legal actions ----------------------------------------------------------------------------------------------

    def _legal_actions(self) -> list[Any]:
        """A pure query: listing the actions changes nothing (no ability is marked as applied, `_mark`)."""
        self._listing = True
        try:
            return self._list_actions()
        finally:
            self._listing = False

    def _list_actions(self) -> list[Any]:
        if self.decision is None:
            return []
        kind, p, *rest = self.decision
        if kind == "command":
            self._by_cell = {}
            for piece in self.pieces:
                self._by_cell.setdefault(piece.cell, []).append(piece)
            try:
                return [DONE, *listing.command_actions(self, p)]
            finally:
                self._by_cell = None
        if kind == "start":
            return [DONE, *listing.plays(self, p, listing.commands(self, p, "start-of-turn"))]
        if kind == "combat":
            return [DONE, *listing.plays(self, p, listing.commands(self, p, "combat-phase")), *self._responses_any(p)]
        if kind == "respond":
            return [PASS, *self.responses(p, rest[0])]
        if kind == "assign":
            attacker = self.piece(rest[0])
            assert attacker is not None
            return [Assign(attacker.card, -1), *(Assign(attacker.card, t) for t in self._targets_for(attacker))]
        if kind == "retreat":
            return [DONE, *self._retreats(rest[0], p)]
        if kind == "discard":
            return [Discard(c) for c in listing.distinct(self, self.hands[p])]
        if kind == "domain":
            return [Choose(d) for d in self.domains_of(p) if self.decks[d] or self.discards[d]]
        return []

    def draw_cost(self, p: int) -> int:
        return max(0, self.engine.draw_cost - sum(e.amount for e, _ in self.lasting(p, "trade-draw-discount")))

    def _supply_card(self, name: str) -> int | None:
        return next((c for c in sorted(self.supply) if self.spec(c).name == name), None)

    # -- responses --------------------------------------------------------------------------------------------------

    def _responses_any(self, p: int) -> list[Any]:
        """Response commands playable in any window (no trigger of their own)."""
        cards = listing.commands(self, p, "response")
        cards = [c for c in cards if all(e.trigger is None for e in self.spec(c).effects)]
        return listing.plays(self, p, cards)

    def responses(self, player: int, item: Any) -> list[Any]:
        out: list[Any] = list(self._responses_any(player))
        trigger = {"card": "command-played", "damage": "damage-assigned", "destroyed": "ship-destroyed"}[item[0]]
        for card in listing.commands(self, player, "response"):
            if any(e.trigger == trigger for e in self.spec(card).effects):
                out += [Play(card, t) for t in listing.targets(self, player, card, item)]
        if item[0] == "card" and item[1] != player and self.spec(item[2]).kind == "command":
            for card in self.techs[player]:
                e = next((e for e in self.spec(card).effects if e.trigger == "command-played"), None)
                if e and self.credits[player] >= e.amount and (card, item[2]) not in self.used:
                    out.append(Ability(card))
        return out

    def _t_resolve_item(self, item: Item) -> None:
        if item[0] == "card" and item[2] in self.vetoed:  # cancelled: discarded without effect
            self.playing.remove(item[2])
            self._return_card(item[2])
            return
        self._resolve(item)

    def _resolve(self, item: Item) -> None:
        if item[0] != "card":
            return
        _, p, card, target = item[:4]
        spec = self.spec(card)
        self.playing.remove(card)
        if spec.kind == "technology":
            self.techs[p].append(card)
            self._changed()
            return
        self._return_card(card)
        self.applied.add(spec.item)
        extra = item[4] if len(item) > 4 else -1
        # one task per statement, in the printed order: a statement's own steps (a draw) finish before the next
        self.push(*[("effect", p, card, i, target, extra) for i in range(len(spec.effects))])

    def _t_effect(self, p: int, card: int, index: int, target: int, extra: int) -> None:
        e = self.spec(card).effects[index]
        if e.trigger is None or e.trigger in ("command-played", "damage-assigned", "ship-destroyed"):
            effects.apply_effect(self, p, e, card, target, extra)

    def _play(self, p: int, card: int, target: int, answered: Item | None = None) -> None:
        """Play a card from hand: pay it, put it on the stack and offer the other players a response."""
        spec = self.spec(card)
        self.cards_played.add(spec.item)
        self.hands[p].remove(card)
        self.credits[p] -= spec.cost
        self.playing.append(card)
        extra = answered[1] if answered and answered[0] == "destroyed" else -1
        item = ("card", p, card, target, extra)
        self.push(("window", item, tuple(q for q in self.order_from(p) if q != p)), ("resolve_item", item))

    # -- effects ----------------------------------------------------------------------------------------------------

    # -- applying actions -------------------------------------------------------------------------------------------

    def action_label(self, action: Any) -> str:
        names = self.engine.cards
        match action:
            case Done():
                return "done"
            case "pass":
                return "pass"
            case Move(card, cell):
                return f"move {names[card].name} to {self._cell(cell)}"
            case Explore(cell):
                return f"explore {self._cell(cell)}"
            case Build(card, cell):
                return f"build {names[card].name} at {self._cell(cell)}"
            case Scrap(card):
                return f"scrap {names[card].name}"
            case Play(card, target):
                return f"play {names[card].name}" + (f" on {target}" if target >= 0 else "")
            case Develop(cell):
                return f"develop {self._cell(cell)}"
            case TradeDraw(d):
                return f"trade 3 credits for a {self.engine.domains[d]} card"
            case TradeSell():
                return "trade two cards for credits"
            case Choose(d):
                return f"draw from {self.engine.domains[d]}"
            case Discard(card):
                return f"discard {names[card].name}"
            case Assign(attacker, target):
                what = "hold fire" if target < 0 else f"fire at {names[target].name}"
                return f"{names[attacker].name} #{attacker}: {what}"
            case Retreat(card, cell):
                return f"retreat {names[card].name} to {self._cell(cell)}"
            case Ability(card):
                return f"use {names[card].name}"
        raise ValueError(f"not a Star Commander action: {action!r}")

    def _cell(self, cell: int) -> str:
        r, c = divmod(cell, self.size)
        return f"{'ABCDE'[c]}{r + 1}"

    def _apply(self, action: Any) -> None:
        assert self.decision is not None
        kind, p, *rest = self.decision
        self.decision = None
        if kind == "respond":
            if isinstance(action, Play):
                self._play(p, action.card, action.target, rest[0])
            elif isinstance(action, Ability):
                self.used.add((action.card, rest[0][2]))
                self.credits[p] -= self.spec(action.card).effects[0].amount
                self.applied.add(self.spec(action.card).item)
                self.push(("draw", p, 1))
            self.run()
            return
        if not isinstance(action, Done):  # the decision comes round again after what the action starts
            if kind == "command":
                self.tasks.append(("command", p))
            elif kind == "start":
                self.tasks.append(("start_window", p))
            elif kind == "combat":
                self._reopen_combat(p)
        match action:
            case Done():
                if kind == "command":
                    self.push(("combat", p))
            case Move(card, cell):
                x = self.piece(card)
                assert x is not None
                if x.jumps >= self.spec(card).jump + self.temp.extra_jumps and not self.spec(card).fighter:
                    self.temp.spare_used = True
                    self._used_lasting(p, "spare-jump", 1)
                x.jumps += 1
                x.moved = True
                effects.mark_move(self, p, x, cell)
                effects.enter(self, x, cell)
            case Explore(cell):
                effects.explore(self, p, cell)
            case Build(card, cell):
                effects.build(self, p, card, cell)
            case Scrap(card):
                effects.scrap(self, p, card)
            case Play(card, target):
                self._play(p, card, target)
            case Develop(cell):
                self.credits[p] -= self.engine.development_cost(self.devs[cell])
                self.owner[cell], self.devs[cell] = p, self.devs[cell] + 1
                self._fighter_excess(p)  # Fighters that came in by a jump may outnumber a first development
            case TradeDraw(d):
                self.credits[p] -= self.draw_cost(p)
                self._used_lasting(p, "trade-draw-discount", 1)
                self.push(("draw_one", p, d))
            case TradeSell():
                self.push(*[("discard", p)] * self.engine.sell["discard"], ("sold", p))
            case Choose(d):
                self._draw_from(p, d)
            case Discard(card):
                self.hands[p].remove(card)
                self._return_card(card)
            case Assign(attacker, target):
                if target >= 0:
                    self.assigned.append((attacker, target))
            case Retreat(card, cell):
                x = self.piece(card)
                assert x is not None
                if x.moved and self.spec(card).has("retreat-after-jump"):
                    self.applied.add(self.spec(card).item)
                elif x.moved or cell not in self.neighbours(x.cell):
                    self._used_lasting(p, "far-retreat", 1)
                x.moved = True
                x.cell = cell
                self.tasks.append(("retreat", rest[0], p))
        self.run()

    def _reopen_combat(self, p: int) -> None:
        """After a combat-window play, the window goes round again from the next player."""
        window = next(i for i in range(len(self.tasks) - 1, -1, -1) if self.tasks[i][0] == "combat_window")
        _, cell, order, _passes = self.tasks[window]
        start = (order.index(p) + 1) % len(order)
        self.tasks[window] = ("combat_window", cell, order[start:] + order[:start], 0)

    def _t_discard(self, p: int) -> None:
        if self.hands[p]:
            self.ask("discard", p)

    def _t_sold(self, p: int) -> None:
        gain = self.engine.sell["gain"]
        for card in self.techs[p]:
            for e in self.spec(card).effects:
                if e.trigger == "trade-discard":
                    gain += e.amount
                    self.applied.add(self.spec(card).item)
        self.credits[p] += gain

    # -- hidden information -----------------------------------------------------------------------------------------

    def observation(self, player: int) -> tuple[object, ...]:
        systems = tuple(
            self.grid[c] if self.revealed[c] or c in self.peeked[player] else -1 for c in range(len(self.grid))
        )
        hands = tuple(
            tuple(sorted(h)) if q == player else tuple(sorted(self.spec(c).domain for c in h))
            for q, h in enumerate(self.hands)
        )
        known = tuple(tuple(k) for k in self.known[player])
        return (
            player, self.turns, int(self.phase), self.active, self.fight, self.ending, systems, frozen(self.owner),
            frozen(self.devs), frozen(self.credits), hands, frozen(self.techs), tuple(len(d) for d in self.decks),
            frozen(self.discards), frozen(self.playing), tuple(sorted(self.supply)), known,
            tuple((x.card, x.owner, x.cell, x.damage, x.jumps, x.fresh, x.moved, x.pinned, x.cloaked, x.boost)
                  for x in self.pieces),
            frozen(self.embargo), tuple(sorted(self.vetoed)), frozen(self.assigned), tuple(self.tasks), self.decision,
            frozen(self.combat_at), frozen(self.last_end),  # which systems are contested
        )  # fmt: skip

    def determinize(self, player: int, rng: CounterRng) -> StarState:
        """Face-down systems the player has not seen, the unseen part of each Domain deck and the other players'
        hands (whose domains are public) are dealt again at random from what they could be."""
        s = self.reseeded(rng)
        assert isinstance(s, StarState)
        cells = [c for c in range(len(s.grid)) if not s.revealed[c] and c not in s.peeked[player]]
        pool = [s.grid[c] for c in cells] + s.aside
        rng.shuffle(pool)
        for c in cells:
            s.grid[c] = pool.pop()
        s.aside = pool
        for d, deck in enumerate(s.decks):
            known = len(s.known[player][d])
            unseen = deck[: len(deck) - known]
            slots = [(q, i) for q in range(s.n) if q != player for i, c in enumerate(s.hands[q])
                     if s.spec(c).domain == d]  # fmt: skip
            pool = unseen + [s.hands[q][i] for q, i in slots]
            rng.shuffle(pool)
            for q, i in slots:
                s.hands[q][i] = pool.pop()
            deck[: len(deck) - known] = pool
        for q in range(s.n):
            if q != player:
                s.peeked[q] = set()
                s.known[q] = [[] for _ in s.decks]
        return s

    # -- invariants -------------------------------------------------------------------------------------------------

    def invariant_violations(self) -> list[str]:
        out = list(self.breaches)
        e = self.engine
        places = [c for d in self.decks for c in d] + [c for d in self.discards for c in d]
        places += [c for h in self.hands for c in h] + [c for t in self.techs for c in t] + self.playing
        places += self.supply + [x.card for x in self.pieces]
        if sorted(places) != list(range(len(e.cards))):
            out.append(f"cards: {len(places)} places for {len(e.cards)} cards ({len(set(places))} distinct)")
        if sorted(self.grid + self.aside) != list(range(len(e.systems))):
            out.append("systems: the grid and the cards aside do not hold every System card once")
        fighters: dict[tuple[int, int], int] = {}
        for x in self.pieces:
            if e.fighter[x.card]:
                fighters[x.owner, x.cell] = fighters.get((x.owner, x.cell), 0) + 1
            if x.owner in self.out:
                out.append(f"an eliminated seat still has {self.spec(x.card).name} on the grid")
        for p in range(self.n):
            if self.credits[p] < 0:
                out.append(f"seat {p}: {self.credits[p]} credits")
            if len(self.hands[p]) > self.hand_limit(p):
                out.append(f"seat {p}: {len(self.hands[p])} cards in hand, limit {self.hand_limit(p)}")
            total = sum(k for (q, _), k in fighters.items() if q == p)
            if total > self.developments(p):
                out.append(f"seat {p}: {total} Fighters for {self.developments(p)} developments")
        systems = e.systems
        for cell, o in enumerate(self.owner):
            devs = self.devs[cell]
            if (o >= 0) != (devs > 0):
                out.append(f"{self._cell(cell)}: owner {o} with {devs} developments")
            if devs > systems[self.grid[cell]].max_development:
                out.append(f"{self._cell(cell)}: {devs} developments, max {systems[self.grid[cell]].max_development}")
            if o >= 0 and fighters.get((o, cell), 0) > 0 and fighters[o, cell] > self.fighter_slots(o, cell):
                out.append(f"{self._cell(cell)}: more Fighters than its development allows")
        if self.turn_cap is not None and self.turns > self.turn_cap + 1:
            out.append(f"no end after {self.turns} turns (cap {self.turn_cap})")
        return out
