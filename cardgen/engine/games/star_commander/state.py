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

The class keeps the State interface, the flow (the legal actions by the open question, applying an answer) and the
queries every part needs; each concern past that is a module of functions of the state: the phases of a turn
(`turn`), battles (`combat`), cards drawn, played and resolved (`cards`), the legal actions (`listing`), what the
cards do (`effects`), what a player can see (`hidden`), `invariants` and `labels`. The task handlers are the `@task`
functions of `turn`, `combat` and `cards` (`task_modules`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from cardgen.engine.boards import diagonal_distance
from cardgen.engine.core import compiled, owned
from cardgen.engine.flow import PASS, Flow
from cardgen.engine.games.star_commander import cards, combat, effects, hidden, invariants, labels, listing, turn, view
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


class StarState(Flow):
    """One game of Star Commander."""

    task_modules: ClassVar = (turn, combat, cards)

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
    token: object  # the `held` of the pieces this state may change in place (`own`)
    known: list[list[tuple[int, ...]]]  # known[p][d]: deck d's top cards p has seen, top first (replaced, not changed)
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
    _lasting: dict[int, dict[str, list[tuple[Effect, Piece | None]]]]  # by player, by verb (`lasting`)
    _by_cell: dict[int, list[Piece]] | None  # the pieces by cell while the legal actions are listed (`at`)
    _listing: bool  # the legal actions are being listed: a pure query, so no ability is marked as applied
    _carry: listing.Carry | None  # what the last command listing keeps for the next (`listing.Carry`)

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
        s.pieces, s.token = [], object()
        for p, cell in enumerate(seats):
            for name, count in engine.start_ships.items():
                for _ in range(count):
                    found = s._from_supply(name)
                    if found is None:
                        s.problem(f"not enough {name} cards for {players} players")
                        continue
                    s.pieces.append(Piece(found, p, cell, 0, 0, False, False, False, False, 0, s.token))
        s._lasting, s._by_cell, s._listing, s._carry = {}, None, False, None
        s.known = [[() for _ in s.decks] for _ in range(players)]
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
        self._copy_base(o)  # every field, then those changed in place copied
        if compiled(StarState):
            # and those only ever replaced, which a compiled StarState keeps outside its dictionary (`cardgen.native`)
            o.engine, o.n, o.size, o.jumps, o.home = self.engine, self.n, self.size, self.jumps, self.home
            o.clock, o.active, o.phase, o.fight = self.clock, self.active, self.phase, self.fight
        o.grid, o.revealed, o.aside = list(self.grid), list(self.revealed), list(self.aside)
        o.owner, o.devs, o.credits = list(self.owner), list(self.devs), list(self.credits)
        o.hands = [list(h) for h in self.hands]
        o.techs = list(self.techs)  # a player's technologies and peeks are replaced, never changed: clones share them
        o.decks = [list(d) for d in self.decks]
        o.discards = [list(d) for d in self.discards]
        o.playing, o.supply = list(self.playing), list(self.supply)
        o.pieces = list(self.pieces)
        o.token, self.token = object(), object()  # the pieces are shared now: each copies one before changing it
        o.known = [list(ks) for ks in self.known]
        o.peeked = list(self.peeked)
        o.started, o.last_end = list(self.started), list(self.last_end)
        o.combat_at, o.embargo = list(self.combat_at), list(self.embargo)
        o.vetoed, o.used, o.prevent = set(self.vetoed), set(self.used), dict(self.prevent)
        o.assigned, o.temp = list(self.assigned), self.temp.copy()
        o.abandoned, o.breaches = set(self.abandoned), list(self.breaches)
        o._lasting, o._by_cell, o._listing, o._carry = {}, None, False, None
        return o

    # -- cards and pieces -------------------------------------------------------------------------------------------

    def spec(self, card: int) -> CardSpec:
        return self.engine.cards[card]

    def own(self, piece: Piece) -> Piece:
        """`piece`, this state's own to change: clones share their pieces (`clone`), so one that another state may
        hold too is first copied into its place. Every change to a piece goes through here. The lasting effects
        gathered keep pieces (`lasting`): a copied piece's owner gathers them again, if its card has any."""
        mine = owned(self.pieces, piece, self.token)
        if mine is not piece:
            self._changed(piece.owner, piece.card)
        return mine

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
        if index is None:
            if not self._listing:
                return [piece for piece in self.pieces if piece.cell == cell]
            index = self._by_cell = {}  # listing legal actions: nothing moves meanwhile, so found by cell once
            for piece in self.pieces:
                index.setdefault(piece.cell, []).append(piece)
        return index.get(cell, [])

    def lasting(self, player: int, verb: str) -> Sequence[tuple[Effect, Piece | None]]:
        """A player's lasting effects with a verb: from technologies (piece None) and from their pieces. Cached
        until a technology or a piece comes or goes (`_changed`); pieces are read where they are now. All of a
        player's verbs are gathered in one pass over their cards (listing a turn's actions asks about ten)."""
        verbs = self._lasting.get(player)
        if verbs is None:
            verbs = self._lasting[player] = {}
            table = self.engine.lasting_verbs
            for card in self.techs[player]:
                for name, effects in table[card]:
                    verbs.setdefault(name, []).extend((e, None) for e in effects)
            for piece in self.pieces:
                if piece.owner == player and table[piece.card]:
                    for name, effects in table[piece.card]:
                        verbs.setdefault(name, []).extend((e, piece) for e in effects)
        return verbs.get(verb, ())

    def _changed(self, player: int | None = None, card: int | None = None) -> None:
        """Forget the lasting effects gathered (`lasting`): every player's, or only `player`'s when one of their
        technologies or pieces came or went — and for a piece, only if its card has a lasting effect (a plain
        ship's coming and going changes nobody's; a listing after each build rebuilt them all)."""
        if player is None:
            self._lasting = {}
        elif card is None or self.engine.lasting_verbs[card]:
            self._lasting.pop(player, None)

    def _applies(self, effect: Effect, spec: CardSpec) -> bool:
        classes = effect.opt("class")
        if classes and spec.ship_class not in classes.split(","):
            return False
        kind = effect.opt("type")
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

    def _mark(self, player: int, effect: Effect, source: Piece | None) -> None:
        """A lasting effect took effect: its card's ability has applied (for `data_problems`). Listing the legal
        actions only asks what an effect would do, so nothing is marked meanwhile (the play marks it)."""
        if not self._listing:
            self.applied.add(self.spec(source.card).item if source else self.engine.effect_item[id(effect)])

    def _used_lasting(self, player: int, verb: str, amount: int) -> None:
        if amount:
            for e, src in self.lasting(player, verb):
                self._mark(player, e, src)

    def tech_item(self, player: int, effect: Effect) -> str:
        return next(self.spec(c).item for c in self.techs[player] if effect in self.spec(c).effects)

    def build_cost(self, player: int, card: int) -> int:
        spec = self.spec(card)
        cost, floor = spec.cost, 0
        for e, _ in self.lasting(player, "cost"):
            if self._applies(e, spec) and spec.kind == "ship":
                cost += e.amount
                floor = max(floor, e.num("min"))
        if spec.kind == "ship" and self.temp.discount:
            cost -= self.temp.discount
            floor = max(floor, self.temp.discount_min)
        return max(floor, cost) if cost != spec.cost else cost

    def hand_limit(self, player: int) -> int:
        return self.engine.hand_limit + sum(e.amount for e, _ in self.lasting(player, "hand-limit"))

    def developments(self, player: int) -> int:
        return sum(d for d, o in zip(self.devs, self.owner, strict=True) if o == player)

    def fighters(self, player: int, cell: int | None = None) -> int:
        fighter = self.engine.fighter
        if cell is None:
            return sum(1 for x in self.pieces if x.owner == player and fighter[x.card])
        return sum(1 for x in self.at(cell) if x.owner == player and fighter[x.card])

    def fighter_slots(self, player: int, cell: int) -> int:
        if self.owner[cell] != player:
            return 0
        return self.devs[cell] + sum(
            e.amount for e, src in self.lasting(player, "fighter-slots") if src and src.cell == cell
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

    def domains_of(self, player: int) -> list[int]:
        """The domains a player may draw from: those of the systems they control (a Homeworld counts as all)."""
        found: set[int] = set()
        for cell, o in enumerate(self.owner):
            if o == player:
                d = self.system(cell).domain
                found |= set(range(len(self.decks))) if d < 0 else {d}
        return sorted(found)

    # -- seats and cards --------------------------------------------------------------------------------------------

    def order_from(self, player: int) -> list[int]:
        """The seats still in, in turn order from `player`."""
        return [seat for seat in ((player + i) % self.n for i in range(self.n)) if seat not in self.out]

    def draw_cost(self, player: int) -> int:
        return max(0, self.engine.draw_cost - sum(e.amount for e, _ in self.lasting(player, "trade-draw-discount")))

    def _supply_card(self, name: str) -> int | None:
        return next((c for c in sorted(self.supply) if self.spec(c).name == name), None)

    def return_card(self, card: int) -> None:
        """A card leaves play: a Domain card to its domain's discards, a core card to the supply."""
        domain = self.spec(card).domain
        if domain < 0:
            self.supply.append(card)
        else:
            self.discards[domain].append(card)

    def cell_name(self, cell: int) -> str:
        """A cell as the rulebook's grid names it: column letter, row number (`A1` top left)."""
        row, column = divmod(cell, self.size)
        return f"{'ABCDE'[column]}{row + 1}"

    # -- the flow: legal actions, applying them, response windows ---------------------------------------------------

    def _legal_actions(self) -> list[Any]:
        """A pure query: listing the actions changes nothing (no ability is marked as applied, `_mark`)."""
        self._listing = True
        try:
            return self._list_actions()
        finally:
            self._listing, self._by_cell = False, None

    def _list_actions(self) -> list[Any]:
        if self.decision is None:
            return []
        kind, player, *rest = self.decision
        if kind == "command":
            return [DONE, *listing.command_actions(self, player)]
        if kind == "start":
            return [DONE, *listing.plays(self, player, listing.commands(self, player, "start-of-turn"))]
        if kind == "combat":
            commands = listing.commands(self, player, "combat-phase")
            return [DONE, *listing.plays(self, player, commands), *listing.responses_any(self, player)]
        if kind == "respond":
            return [PASS, *listing.responses(self, player, rest[0])]
        if kind == "assign":
            attacker = self.piece(rest[0])
            assert attacker is not None
            return [Assign(attacker.card, -1), *(Assign(attacker.card, t) for t in combat.targets(self, attacker))]
        if kind == "retreat":
            return [DONE, *combat.retreat_options(self, rest[0], player)]
        if kind == "discard":
            return [Discard(c) for c in listing.distinct(self, self.hands[player])]
        if kind == "domain":
            return [Choose(d) for d in self.domains_of(player) if self.decks[d] or self.discards[d]]
        return []

    def _apply(self, action: Any) -> None:
        assert self.decision is not None
        kind, player, *rest = self.decision
        self.decision = None
        carry, self._carry = self._carry, None  # kept past some actions only (`listing.Carry`)
        touched = None
        if carry is not None and carry.player == player:
            if kind == "command":
                touched = listing.before(self, carry, action)
            elif kind in ("domain", "discard"):  # a card drawn or discarded: the same player's turn goes on
                touched = listing.UNTOUCHED
        if kind == "respond":
            if isinstance(action, Play):
                cards.play(self, player, action.card, action.target, rest[0])
            elif isinstance(action, Ability):
                cards.use_ability(self, player, action.card, rest[0])
            self.run()
            return
        if not isinstance(action, Done):  # the decision comes round again after what the action starts
            if kind == "command":
                self.tasks.append(("command", player))
            elif kind == "start":
                self.tasks.append(("start_window", player))
            elif kind == "combat":
                combat.reopen_window(self, player)
        match action:
            case Done():
                if kind == "command":
                    self.push(("combat", player))
            case Move(card, cell):
                effects.jump(self, player, card, cell)
            case Explore(cell):
                effects.explore(self, player, cell)
            case Build(card, cell):
                effects.build(self, player, card, cell)
            case Scrap(card):
                effects.scrap(self, player, card)
            case Play(card, target):
                cards.play(self, player, card, target)
            case Develop(cell):
                self.credits[player] -= self.engine.development_cost(self.devs[cell])
                self.owner[cell], self.devs[cell] = player, self.devs[cell] + 1
                combat.fighter_excess(self, player)  # Fighters that came in by a jump may outnumber a first development
            case TradeDraw(domain):
                self.credits[player] -= self.draw_cost(player)
                self._used_lasting(player, "trade-draw-discount", 1)
                self.push(("draw_one", player, domain))
            case TradeSell():
                self.push(*[("discard", player)] * self.engine.sell["discard"], ("sold", player))
            case Choose(domain):
                cards.draw_from(self, player, domain)
            case Discard(card):
                self.hands[player].remove(card)
                self.return_card(card)
            case Assign(attacker, target):
                if target >= 0:
                    self.assigned.append((attacker, target))
            case Retreat(card, cell):
                combat.retreat_piece(self, player, card, cell, rest[0])
        self.run()
        if touched is not None and carry is not None:
            self._keep(carry, touched, player)

    def _keep(self, carry: listing.Carry, touched: tuple[int, tuple[int, ...], int], player: int) -> None:
        """Keep the command listing's parts past an action, if the same player's turn goes on (`listing.after`)."""
        decision = self.decision
        if decision is not None and decision[1] == player and decision[0] in ("command", "domain", "discard"):
            self._carry = listing.after(self, carry, touched)

    def ask_again(self) -> None:
        """A position set up by hand: nothing listed before is kept (`listing.Carry`)."""
        self._carry = None
        super().ask_again()

    def responses(self, player: int, item: Any) -> list[Any]:
        return listing.responses(self, player, item)

    def _resolve(self, item: Item) -> None:
        cards.resolve(self, item)

    # -- what players see, labels, invariants -----------------------------------------------------------------------

    def searched(self) -> bool:
        """Search agents search the Command phase's decisions and play battles, windows, retreats, draws and discards
        as greedy does (`view.default_action`)."""
        return self.decision is not None and self.decision[0] == "command"

    def ends_turn(self, action: Any) -> bool:
        """Done in the Command phase ends the turn: the End phase follows (played by default inside a search)."""
        return isinstance(action, Done) and self.decision is not None and self.decision[0] == "command"

    def rollout_action(self, legal: list[Any], rng: CounterRng) -> Any:
        """Inside a search, the decisions it does not search are played as greedy plays them; the rest at random."""
        return legal[rng.randbelow(len(legal))] if self.searched() else view.default_action(self, legal)

    def action_label(self, action: Any) -> str:
        return labels.action_label(self, action)

    def observation(self, player: int) -> tuple[object, ...]:
        return hidden.observation(self, player)

    def determinize(self, player: int, rng: CounterRng) -> StarState:
        return hidden.determinize(self, player, rng)

    def invariant_violations(self) -> list[str]:
        return invariants.violations(self)
