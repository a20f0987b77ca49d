"""What changes in a game of Scifi Domains: resources, units, tableaus, line-ups, enemy piles, whose turn it is.

Each round (rules.yaml `round_phases`): 1 repair units, pass the Start Player Marker (from round 2), collect
production (fact `production_phase`); 2 refresh the three line-ups; 3 in turn order each player builds Units of one
type (the first at full price, the others at half, the total rounded up), researches a Tech (a replacement costs the
size of the difference plus 1), or passes for the round; 4 players agro enemies one at a time, Strikers, then Space,
then Ground; 5 each player's battle runs combat steps 1–7 (`combat_phases`, in `battle.py`); 6 in turn order players
spend Reward points on Reward/Gain cards, at the cap of 8 cards each point is 1 VP. After round 3 the VP formula and
the tiebreak (`end_vp`, `tiebreak`) decide. The readings of the rulebook's gaps are those recorded in rules.yaml.

Face-down decks and enemy piles are kept unordered, and a card is drawn from one uniformly at random (`_draw`,
logged as a chance event): the same odds as shuffling and drawing from the top, without shuffling a hundred cards
that nobody will see in that order. Only the card drawn is chance; what is left stays a set.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from cardgen.engine.core import compiled, frozen, owned
from cardgen.engine.games.scifi_domains.actions import (
    PASS,
    Absorb,
    Action,
    Agro,
    Build,
    Deploy,
    Done,
    Pass,
    Research,
    Reward,
    Sacrifice,
)
from cardgen.engine.games.scifi_domains.battle import Battle
from cardgen.engine.games.scifi_domains.model import (
    COMMAND_SHIP,
    STATS,
    Phase,
    Source,
    Unit,
    build_cost,
    end_vp,
    replacement_cost,
)
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.scifi_domains.rules import ScifiEngine

LINES = ("units", "techs", "rewards")
TURNS = {Phase.BUILD: "build", Phase.AGRO: "agro", Phase.REWARDS: "rewards"}  # the questions the round's turns ask
STAT_INDEX = {name: i for i, name in enumerate(STATS)}


class ScifiState(Battle):
    """One game of Scifi Domains. Fields are plain lists and small records so `clone` stays cheap."""

    engine: ScifiEngine
    n: int
    metal: list[int]
    research: list[int]
    metal_prod: list[int]
    research_prod: list[int]
    overflow: list[int]  # VP from Reward points spent at the cap
    points: list[int]  # unspent Reward points
    units: list[list[Unit]]
    token: object  # the `held` of the units this state may change in place (`_own_unit`)
    techs: list[list[int]]
    rewards: list[list[int]]
    lost_ships: list[int]  # seats whose Command Ship was destroyed
    decks: dict[str, list[int]]
    lines: dict[str, list[int]]
    discards: dict[str, list[int]]
    agroed: list[list[int]]
    piles: list[list[list[int]]]  # piles[player][group]: a player's own, effectively unlimited, enemy pile
    stage: list[int]  # the agro group each player has reached
    active: list[bool]
    starter: int
    round: int
    phase: Phase
    turn: int
    tables: list[dict[str, tuple[int, ...]] | None]  # each player's unit stats with their techs (None: to compute)

    @classmethod
    def setup(cls, engine: ScifiEngine, players: int, seed: int) -> ScifiState:
        s = cls(seed)
        s.engine, s.n = engine, players
        start = engine.start
        s.metal = [start["metal"]] * players
        s.research = [start["research"]] * players
        s.metal_prod = [start["metal_production"]] * players
        s.research_prod = [start["research_production"]] * players
        s.overflow = [0] * players
        s.points = [0] * players
        s.token = object()
        s.units = [[Unit(COMMAND_SHIP, Source.SHIP, p, 0, held=s.token)] for p in range(players)]
        s.techs = [[] for _ in range(players)]
        s.rewards = [[] for _ in range(players)]
        s.lost_ships = []
        s.decks = {
            "units": list(range(len(engine.unit_cards))),
            "techs": list(range(len(engine.techs))),
            "rewards": list(range(len(engine.rewards))),
        }
        s.lines = {name: [] for name in LINES}
        s.discards = {name: [] for name in LINES}
        s.agroed = [[] for _ in range(players)]
        # rules.yaml agro_enemies: 'each player draws as if from their own pile' — an effectively unlimited deck
        # per player and group, made whole again when it runs out
        s.piles = [[list(engine.group_cards[g]) for g in range(3)] for _ in range(players)]
        s.stage = [0] * players
        s.starter = s.rng.randrange(players)
        s.chance.record("start player", s.starter)
        s.round, s.phase, s.turn, s.active = 0, Phase.OVER, 0, [True] * players
        s.tasks, s.decision, s.fight = [], None, None
        s.tables = [None] * players
        s.next_round()
        s.run()
        return s

    # -- the engine surface -----------------------------------------------------------------------------------------

    def idle(self) -> None:
        """Between battles the round's phase asks the player whose turn it is (`Flow`)."""
        if self.phase in TURNS:
            self.ask(TURNS[self.phase], self.turn)

    def _legal_actions(self) -> list[Action]:
        p = self.turn
        if self.phase == Phase.BUILD:
            return [PASS, *self._builds(p), *self._researches(p)]
        if self.phase == Phase.AGRO:
            agro = self.engine.numbered(Agro, 3)
            return [PASS, *(agro[g] for g in range(self.stage[p], 3) if self._can_agro(p, g))]
        if self.phase == Phase.REWARDS:
            slots = len(self.lines["rewards"])
            return [*self.engine.numbered(Reward, slots)[:slots]]
        if self.phase == Phase.BATTLE:
            return self.battle_choices()
        return []

    def action_label(self, action: Any) -> str:
        match action:
            case Pass():
                return "pass"
            case Build(kind, count):
                return f"build {count} {kind}"
            case Research(slot):
                return f"research slot {slot + 1}"
            case Agro(group):
                return f"agro {self.engine.agro_order[group]}"
            case Reward(slot):
                return f"reward slot {slot + 1}"
            case Deploy(unit) | Absorb(unit) | Sacrifice(unit):
                verb = type(action).__name__.lower()
                return f"{verb} {self.units[self.fight_player][unit].kind} #{unit + 1}"
            case Done():
                return "done"
        raise ValueError(f"not a Scifi Domains action: {action!r}")

    def _apply(self, action: Any) -> None:
        p = self.turn
        if self.phase == Phase.BATTLE:
            self.battle_choice(action)
            return
        self.answered()
        match action:
            case Pass():
                self.active[p] = False
            case Build(kind, count):
                self._build(p, kind, count)
            case Research(slot):
                self._research(p, slot)
            case Agro(group):
                self._agro(p, group)
            case Reward(slot):
                self._take_reward(p, slot)
        if self.phase == Phase.BUILD:
            self._next_builder()
        elif self.phase == Phase.AGRO:
            self._next_agro()
        elif self.phase == Phase.REWARDS:
            self._next_reward_turn()
        self.run()

    def rollout_action(self, legal: list[Action], rng: CounterRng) -> Action:
        """In playouts, battles are fought by the careful default choices (deploy what fits, absorb with a unit that
        survives, sacrifice the weakest): random deployments and absorptions would make every line look alike."""
        if self.phase == Phase.BATTLE:
            return self.default_choice()
        return legal[rng.randbelow(len(legal))]

    def searched(self) -> bool:
        """Search agents play battle choices by the default choices and search the rest. Measured with seed 11:
        mcts:100 searching battle choices too won 0 of 8 games against greedy (it kept units home to save their
        value); with battle choices by the default, 4 of 8. Random and greedy agents still make every choice."""
        return self.phase != Phase.BATTLE

    def returns(self) -> list[float]:
        if self.phase != Phase.OVER:
            return [0.0] * self.n
        vp = [self.victory_points(p) for p in range(self.n)]
        best = max(vp)
        leaders = [p for p in range(self.n) if vp[p] == best]
        breaks = {p: self.tiebreak(p) for p in leaders}
        top = max(breaks.values())
        return [1.0 if p in leaders and breaks[p] == top else 0.0 for p in range(self.n)]

    def clone(self) -> ScifiState:
        o = ScifiState.__new__(ScifiState)
        self._copy_base(o)  # every field, then those changed in place copied
        if compiled(ScifiState):
            # and those only ever replaced, which a compiled state keeps outside any dictionary (`cardgen.native`)
            o.engine, o.n, o.starter = self.engine, self.n, self.starter
            o.round, o.phase, o.turn = self.round, self.phase, self.turn
        o.metal, o.research = list(self.metal), list(self.research)
        o.metal_prod, o.research_prod = list(self.metal_prod), list(self.research_prod)
        o.overflow, o.points, o.lost_ships = list(self.overflow), list(self.points), list(self.lost_ships)
        o.stage, o.active = list(self.stage), list(self.active)
        o.units = [list(us) for us in self.units]  # a unit is copied before it changes (`_own_unit`): shared
        o.token, self.token = object(), object()
        o.techs = [list(t) for t in self.techs]
        o.rewards = [list(r) for r in self.rewards]
        o.decks = {k: list(v) for k, v in self.decks.items()}
        o.lines = {k: list(v) for k, v in self.lines.items()}
        o.discards = {k: list(v) for k, v in self.discards.items()}
        o.piles = [list(piles) for piles in self.piles]  # a pile is replaced, never changed (`_agro`): shared
        o.agroed = [list(x) for x in self.agroed]
        o.fight = self.fight.copy() if self.fight else None
        o.tables = list(self.tables)  # a table is replaced, never changed: clones may share it
        return o

    # -- hidden information -----------------------------------------------------------------------------------------

    def observation(self, player: int) -> tuple[object, ...]:
        """Everything but the order of the face-down decks and enemy piles (their contents can be counted)."""
        public = ("metal", "research", "metal_prod", "research_prod", "overflow", "points", "lost_ships", "stage",
                  "active", "techs", "rewards", "agroed")  # fmt: skip
        return (
            player, self.round, int(self.phase), self.turn, self.starter, self.turns, self.ending,
            *(frozen(getattr(self, name)) for name in public),
            tuple(tuple(u.key() for u in us) for us in self.units),
            frozen(sorted(self.lines.items())), frozen(sorted(self.discards.items())),
            tuple((name, tuple(sorted(deck))) for name, deck in sorted(self.decks.items())),
            tuple(tuple(sorted(pile)) for piles in self.piles for pile in piles),
            tuple(self.tasks), self.decision, self.fight.key() if self.fight else None,
        )  # fmt: skip

    def determinize(self, player: int, rng: CounterRng) -> ScifiState:
        """The same state with a generator of the searcher's: face-down decks and enemy piles are unordered sets
        whose every draw is chance, so a new generator is all a player's ignorance of them needs."""
        s = self.reseeded(rng)
        assert isinstance(s, ScifiState)
        return s

    # -- round structure --------------------------------------------------------------------------------------------

    def next_round(self) -> None:
        """Phases 1 and 2, then the first Build decision (or the end of the game after the last round)."""
        if self.round == self.engine.rounds:
            self.phase = Phase.OVER
            self.ending = f"{self.engine.rounds} rounds played"
            return
        self.round += 1
        self.turns += 1
        for p in range(self.n):
            for i, unit in enumerate(self.units[p]):
                if unit.damage:
                    self._own_unit(p, i).damage = 0  # repaired
            self.metal[p] += self.metal_prod[p]
            self.research[p] += self.research_prod[p]
        if self.round > 1:
            self.starter = (self.starter + 1) % self.n
        for name in LINES:  # line-ups and discards are shuffled back (an unordered deck needs no shuffle)
            self.decks[name] += self.lines[name] + self.discards[name]
            self.lines[name], self.discards[name] = [], []
            self._refill(name)
        self.phase, self.active, self.turn = Phase.BUILD, [True] * self.n, self.starter

    def order(self) -> list[int]:
        """The seats in turn order this round, from the start player."""
        return [(self.starter + i) % self.n for i in range(self.n)]

    def _next_active(self, after: int) -> int | None:
        for i in range(1, self.n + 1):
            p = (after + i) % self.n
            if self.active[p]:
                return p
        return None

    def _next_builder(self) -> None:
        nxt = self._next_active(self.turn)
        if nxt is not None:
            self.turn = nxt
            return
        self.phase, self.active, self.stage = Phase.AGRO, [True] * self.n, [0] * self.n
        self.turn = self.starter

    def _next_agro(self) -> None:
        nxt = self._next_active(self.turn)
        if nxt is not None:
            self.turn = nxt
            return
        self.phase = Phase.BATTLE
        self.start_tasks(*[("battle", p) for p in self.order()], ("rewards",))
        self.run()

    def _t_rewards(self) -> None:
        self.phase, self.turn = Phase.REWARDS, self.starter
        self._next_reward_turn(start=True)

    def _next_reward_turn(self, start: bool = False) -> None:
        """The next player (in turn order) with Reward points; points beyond the cap become VP at once."""
        order = self.order()
        begin = 0 if start else (order.index(self.turn) + 1) % self.n
        for _ in range(2 * self.n * (1 + max(self.points, default=0))):
            if not any(self.points):
                break
            p = order[begin]
            begin = (begin + 1) % self.n
            if self.points[p] == 0:
                continue
            if len(self.rewards[p]) >= self.engine.reward_cap:
                self.overflow[p] += self.points[p] * self.engine.overflow_vp
                self.points[p] = 0
                continue
            if not self.lines["rewards"]:
                self.problem("the Rewards line-up was empty while a player still had Reward points")
                self.points[p] = 0
                continue
            self.turn = p
            return
        self.next_round()

    # -- building and research ------------------------------------------------------------------------------------

    def stat(self, player: int, unit_type: str, name: str) -> int:
        """A unit type's stat for a player: the printed value plus the player's techs for that type."""
        table = self.tables[player]
        if table is None:
            table = self.tables[player] = self._stat_table(player)
        return table[unit_type][STAT_INDEX[name]]

    def _stat_table(self, player: int) -> dict[str, tuple[int, ...]]:
        rows = {kind: list(t.stats) for kind, t in self.engine.types.items()}
        for card in self.techs[player]:
            tech = self.engine.techs[card]
            rows[tech.unit_type][STAT_INDEX[tech.stat]] += tech.value
        return {kind: tuple(row) for kind, row in rows.items()}

    def build_cost(self, player: int, unit_type: str, count: int) -> int:
        return build_cost(self.stat(player, unit_type, "metal_cost"), count, self.engine.extra_price)

    def _builds(self, player: int) -> list[Build]:
        """Each type in the line-up, 1, 2, … of its units while the player's Metal pays for them (the prices and the
        actions are the engine's, made once: `prices_of`, `builds_of`)."""
        engine = self.engine
        line = tuple(self.lines["units"])
        in_line = engine.line_counts.get(line)
        if in_line is None:
            in_line = engine.count_line(line)
        metal = self.metal[player]
        table = self.tables[player]
        if table is None:
            table = self.tables[player] = self._stat_table(player)
        cost = STAT_INDEX["metal_cost"]
        actions: list[Build] = []
        known_prices, known_builds = engine.prices, engine.build_actions
        for kind, available in in_line:
            each = table[kind][cost]
            prices = known_prices.get(each)
            if prices is None or len(prices) < available:
                prices = engine.prices_of(each, available)
            # prices never fall as the count grows (`prices_of`): the affordable counts come first
            affordable = bisect_right(prices, metal, 0, available)
            if affordable:
                builds = known_builds[kind]
                actions += (builds if len(builds) >= affordable else engine.builds_of(kind, affordable))[:affordable]
        return actions

    def _build(self, player: int, unit_type: str, count: int) -> None:
        self.metal[player] -= self.build_cost(player, unit_type, count)
        for _ in range(count):
            card = next(c for c in self.lines["units"] if self.engine.unit_cards[c] == unit_type)
            self.lines["units"].remove(card)
            self.units[player].append(Unit(unit_type, Source.CARD, card, self.round, held=self.token))
        self._refill("units")

    def tech_cost(self, player: int, card: int) -> int:
        """What a tech from the line-up costs a player (a replacement costs the difference plus the surcharge)."""
        tech = self.engine.techs[card]
        if tech.unit_type in self.engine.stacking:
            return tech.cost
        held = [t for t in self.techs[player] if self.engine.techs[t].unit_type == tech.unit_type]
        if not held:
            return tech.cost
        return replacement_cost(tech.cost, self.engine.techs[held[0]].cost, self.engine.surcharge)

    def _researches(self, player: int) -> list[Research]:
        """The line-up's techs the player's Research pays for (`tech_cost`, with the player's held types read once)."""
        engine = self.engine
        techs, stacking, surcharge = engine.techs, engine.stacking, engine.surcharge
        held: dict[str, int] = {}  # a type's first held tech's cost, as `tech_cost` reads it
        for card in self.techs[player]:
            tech = techs[card]
            held.setdefault(tech.unit_type, tech.cost)
        budget, line = self.research[player], self.lines["techs"]
        slots = engine.numbered(Research, len(line))
        out = []
        for slot, card in enumerate(line):
            tech = techs[card]
            cost = tech.cost
            if tech.unit_type not in stacking and tech.unit_type in held:
                cost = replacement_cost(cost, held[tech.unit_type], surcharge)
            if cost <= budget:
                out.append(slots[slot])
        return out

    def _research(self, player: int, slot: int) -> None:
        card = self.lines["techs"].pop(slot)
        self.research[player] -= self.tech_cost(player, card)
        kind = self.engine.techs[card].unit_type
        if kind not in self.engine.stacking:
            for old in [t for t in self.techs[player] if self.engine.techs[t].unit_type == kind]:
                self.techs[player].remove(old)
                self.discards["techs"].append(old)
        self.techs[player].append(card)
        self.tables[player] = None
        self.applied.add(self.engine.techs[card].item)
        self._refill("techs")

    def _refill(self, name: str) -> None:
        """Deal the line-up full; a deck that runs out is rebuilt from its discards."""
        size = self.engine.line_up[name][self.n]
        line, deck = self.lines[name], self.decks[name]
        while len(line) < size:
            if not deck:
                if not self.discards[name]:
                    self.problem(f"the {name.title()} line-up could not be refilled at {self.n} players")
                    return
                deck += self.discards[name]
                self.discards[name] = []
            line.append(self._draw(deck, name))

    def _own_unit(self, player: int, index: int) -> Unit:
        """The player's unit at `index`, this state's own to change: clones share their units (`clone`), so one that
        another state may hold too is first copied into its place (`core.owned`)."""
        return owned(self.units[player], self.units[player][index], self.token)

    def _draw(self, deck: list[int], name: str) -> int:
        """A card drawn at random from an unordered deck (the odds of a shuffled deck's top card), logged."""
        i = self.rng.randbelow(len(deck))
        deck[i], deck[-1] = deck[-1], deck[i]
        card = deck.pop()
        self.chance.record("draw", (name, card))
        return card

    # -- agro -----------------------------------------------------------------------------------------------------

    def _refill_pile(self, player: int, group: int) -> None:
        """A player's own pile of a group: every enemy card of the group not already in front of them."""
        in_front = set(self.agroed[player])
        self.piles[player][group] = [c for c in self.engine.group_cards[group] if c not in in_front]

    def _can_agro(self, player: int, group: int) -> bool:
        """Whether a player has an enemy of a group left to agro: one in their pile, or one of the group not already
        in front of them (their pile is made whole again from those). With every printed enemy of a group in front of
        them there is none, and agroing it is no action at all: offered, it let a search agent agro nothing again and
        again until the game's action bound (seed 1, game 9: 20,000 actions)."""
        if self.piles[player][group]:
            return True
        in_front = sum(1 for c in self.agroed[player] if self.engine.enemies[c].group == group)
        return in_front < len(self.engine.group_cards[group])

    def _agro(self, player: int, group: int) -> None:
        if not self.piles[player][group]:
            self._refill_pile(player, group)
        # drawn from a copy: clones share a pile until one of them draws from it (`clone`)
        pile = self.piles[player][group] = list(self.piles[player][group])
        card = self._draw(pile, f"enemies {self.engine.agro_order[group]} for seat {player}")
        self.agroed[player].append(card)
        self.stage[player] = group
        self._check_printed(group)

    def _check_printed(self, group: int) -> None:
        """Players draw as if from piles of their own, but the table holds one printed set: when the enemies of a
        group in front of all players at once outnumber the printed cards, a game at this player count needs a
        second set (the rulebook's 'consider creating two or three sets')."""
        printed = len(self.engine.group_cards[group])
        out = sum(1 for cards in self.agroed for c in cards if self.engine.enemies[c].group == group)
        if out > printed:
            name = self.engine.agro_order[group]
            self.problem(f"at {self.n} players more {name} enemies were out at once than the {printed} printed")

    # -- rewards and the end ------------------------------------------------------------------------------------------

    def _take_reward(self, player: int, slot: int) -> None:
        card = self.lines["rewards"].pop(slot)
        self.points[player] -= 1
        self.rewards[player].append(card)
        reward = self.engine.rewards[card]
        if reward.effect == "metal":
            self.metal[player] += reward.value
        elif reward.effect == "research":
            self.research[player] += reward.value
        elif reward.effect == "metal_production":
            self.metal_prod[player] += reward.value
        elif reward.effect == "research_production":
            self.research_prod[player] += reward.value
        elif reward.effect == "unit" and reward.unit_type:
            self.units[player].append(Unit(reward.unit_type, Source.REWARD, card, self.round, held=self.token))
        self.applied.add(reward.item)
        self._refill("rewards")

    def destroy(self, player: int, unit: Unit) -> None:
        """A destroyed unit leaves play: its card to its discards, a Command Ship counted as lost."""
        self.units[player].remove(unit)
        if unit.source is Source.CARD:
            self.discards["units"].append(unit.card)
        elif unit.source is Source.REWARD:
            self.rewards[player].remove(unit.card)
            self.discards["rewards"].append(unit.card)
        else:
            self.lost_ships.append(player)

    def units_metal(self, player: int) -> int:
        """The printed Metal cost of a player's surviving units (Command Ships count nothing)."""
        return sum(self.engine.types[u.kind].cost for u in self.units[player] if u.source is not Source.SHIP)

    def victory_points(self, player: int) -> float:
        rewards = self.engine.rewards
        cards = sum(rewards[c].value for c in self.rewards[player] if rewards[c].effect == "vp")
        wealth = self.units_metal(player) + self.metal[player] + self.research[player]
        return end_vp(cards, self.overflow[player], wealth, self.engine.vp_divisor)

    def tiebreak(self, player: int) -> int:
        return self.metal[player] + self.units_metal(player)

    def invariant_violations(self) -> list[str]:
        e, out = self.engine, []
        held_units = [u.card for us in self.units for u in us if u.source is Source.CARD]
        techs = [t for ts in self.techs for t in ts]
        rewards = [r for rs in self.rewards for r in rs]
        zones = {
            "units": (len(e.unit_cards), held_units),
            "techs": (len(e.techs), techs),
            "rewards": (len(e.rewards), rewards),
        }
        for name, (total, held) in zones.items():
            cards = self.decks[name] + self.lines[name] + self.discards[name] + held
            if sorted(cards) != list(range(total)):
                out.append(
                    f"{name}: {len(cards)} cards accounted for ({len(set(cards))} distinct), {total} in the deck"
                )
        for p in range(self.n):
            for g, pile in enumerate(self.piles[p]):
                ours = pile + [c for c in self.agroed[p] if e.enemies[c].group == g]
                if len(ours) != len(set(ours)) or not set(ours) <= set(e.group_cards[g]):
                    out.append(f"seat {p}: enemy pile {e.agro_order[g]} holds a card twice or one of another group")
            if min(self.metal[p], self.research[p], self.points[p], self.metal_prod[p], self.research_prod[p]) < 0:
                out.append(f"seat {p}: a negative resource")
            if len(self.rewards[p]) > e.reward_cap:
                out.append(f"seat {p}: {len(self.rewards[p])} Reward/Gain cards, above the cap of {e.reward_cap}")
            kinds = [e.techs[t].unit_type for t in self.techs[p] if e.techs[t].unit_type not in e.stacking]
            if len(kinds) != len(set(kinds)):
                out.append(f"seat {p}: two techs for one unit type")
        for name, line in self.lines.items():
            if len(line) > e.line_up[name][self.n]:
                out.append(f"the {name} line-up holds {len(line)} cards, above {e.line_up[name][self.n]}")
        ships = sum(1 for us in self.units for u in us if u.source is Source.SHIP) + len(self.lost_ships)
        if ships != self.n:
            out.append(f"{ships} Command Ships accounted for, {self.n} players")
        out += self.battle_violations()
        return out
