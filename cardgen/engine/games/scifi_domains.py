"""Scifi Domains, played from `card_data/scifi-domains`: three rounds of build, research, agro, combat and rewards.

Each round (rules.yaml `round_phases`): 1 repair units, pass the Start Player Marker (from round 2), collect
production (fact `production_phase`); 2 refresh the three line-ups; 3 in turn order each player builds Units of one
type (the first at full price, the others at half, the total rounded up), researches a Tech (a replacement costs the
size of the difference plus 1), or passes for the round; 4 players agro enemies one at a time, Strikers, then Space,
then Ground; 5 each player's battle runs combat steps 1–7 (`combat_phases`); 6 in turn order players spend Reward
points on Reward/Gain cards, at the cap of 8 cards each point is 1 VP. After round 3 the VP formula and the tiebreak
(`end_vp`, `tiebreak`) decide. The readings of the rulebook's gaps are those recorded in rules.yaml.

Player decisions are typed actions (`Pass`, `Build`, `Research`, `Agro`, `Reward` below). Inside a battle the engine
plays the owner's side by fixed, documented choices the rulebook leaves to the player (`deploy`, `absorb`, `strike`;
recorded as a reading in rules.yaml): all units a bay can carry deploy, damage is soaked by a unit that survives it if
there is one (the weakest such), otherwise by the cheapest unit in the way, and damage is dealt to kill as many
enemies as possible, weakest first.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from cardgen.data.games import Game
from cardgen.engine.core import TERMINAL, GameEngine, State, frozen
from cardgen.engine.registry import engine
from cardgen.engine.rng import CounterRng


class Pass(NamedTuple):
    """Stop building and researching, or stop agroing, for this round."""


class Build(NamedTuple):
    """Build `count` units of one type from the Units line-up (any number it holds)."""

    kind: str
    count: int


class Research(NamedTuple):
    """Research the tech in a slot of the Techs line-up."""

    slot: int


class Agro(NamedTuple):
    """Agro the next enemy of a group: 0 Strikers, 1 Space, 2 Ground."""

    group: int


class Reward(NamedTuple):
    """Spend a Reward point on the card in a slot of the Rewards line-up."""

    slot: int


Action = Pass | Build | Research | Agro | Reward
PASS = Pass()
DAMAGE = ("dmg_space", "dmg_space_striker", "dmg_ground", "dmg_ground_striker")
STATS = ("hp", *DAMAGE, "striker_capacity", "drop_capacity", "metal_cost")
# which category each kind of damage hits, and where it falls when none of that category is left
# (rules.yaml contradictions: 'Damage for Strikers when there are none')
HITS = {
    "dmg_space": ("space", None),
    "dmg_space_striker": ("space_striker", "space"),
    "dmg_ground": ("ground", None),
    "dmg_ground_striker": ("ground_striker", "ground"),
}


def _hit_by(candidates: list, category: Callable[[Any], str], kind: str) -> list:
    """What damage of a kind may hit among candidates: its own category, else its fallback category (HITS)."""
    own, fallback = HITS[kind]
    targets = [x for x in candidates if category(x) == own]
    if not targets and fallback:
        targets = [x for x in candidates if category(x) == fallback]
    return targets


@dataclass(frozen=True)
class UnitType:
    name: str
    category: str
    cost: int
    stats: tuple[int, ...]  # STATS order


@engine("scifi-domains")
class ScifiEngine(GameEngine):
    """The rules facts and every card of Scifi Domains."""

    id = "scifi-domains"
    max_actions = 20_000

    def __init__(self, game: Game):
        f = game.fact
        self.min_players, self.max_players = game.players
        self.rounds = f("rounds")
        self.start = f("start_resources")
        self.line_up = {"units": f("line_up_units"), "techs": f("line_up_techs"), "rewards": f("line_up_rewards")}
        self.reward_cap = f("reward_cap")
        self.overflow_vp = f("overflow_vp_per_reward_point")
        self.extra_price = f("multi_build_extra_price")
        self.surcharge = f("tech_replacement_surcharge")
        self.stacking = set(f("stacking_tech_types"))
        self.agro_order = list(f("agro_order"))
        self.kill_points = f("reward_points_per_kill")
        self.hold_bonus = f("ground_hold_bonus")
        self.clear_bonus = f("ground_clear_bonus")
        self.vp_divisor = f("end_vp")["divisor"]
        self.types: dict[str, UnitType] = {}
        self.unit_cards: list[str] = []
        for item in game.component("units").items:
            self._add_type(item)
            self.unit_cards += [item.fields["unit_type"]] * item.count
        ships = game.component("command-ships").items
        self._add_type(ships[0])
        self.type_names = sorted(t for t in self.types if t != "command_ship")
        self.techs = [
            (i.fields["unit_type"], i.fields["research_cost"], i.fields["bonus_stat"], i.fields["bonus_value"], i.id)
            for i in game.component("techs").items
            for _ in range(i.count)
        ]
        self.rewards = [
            (i.fields["effect"], i.fields["value"], i.fields.get("unit_type"), i.id)
            for i in game.component("rewards").items
            for _ in range(i.count)
        ]
        self.enemies = [
            (
                self.agro_order.index(i.fields["group"]),
                i.fields["category"],
                i.fields["hp"],
                tuple(i.fields[d] for d in DAMAGE),
                i.id,
            )
            for i in game.component("enemies").items
            for _ in range(i.count)
        ]
        self.group_cards = [[c for c, enemy in enumerate(self.enemies) if enemy[0] == g] for g in range(3)]

    @classmethod
    def from_game(cls, game: Game) -> ScifiEngine:
        return cls(game)

    def _add_type(self, item) -> None:
        f = item.fields
        stats = tuple(f[s] for s in STATS)
        self.types[f["unit_type"]] = UnitType(f["unit_type"], f["category"], f["metal_cost"], stats)

    def new_state(self, players: int, seed: int) -> ScifiState:
        return ScifiState.setup(self, players, seed)

    def abilities(self) -> list[str]:
        return sorted({t[4] for t in self.techs} | {r[3] for r in self.rewards})

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, ScifiState)
        return state.outlook(player)

    def action_value(self, state: State, action: Any, player: int) -> float:
        assert isinstance(state, ScifiState)
        if isinstance(action, Agro) or (action == PASS and state.phase == 4):
            return state.agro_value(player, action)  # judged without peeking at the enemy pile
        return super().action_value(state, action, player)


class ScifiState(State):
    """Resources, units, tableaus, line-ups, enemy piles and whose turn it is."""

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
        # a unit: [type, source ("u" unit card, "r" reward card, "c" Command Ship), card index, round bought, damage]
        s.units = [[["command_ship", "c", p, 0, 0]] for p in range(players)]
        s.techs = [[] for _ in range(players)]
        s.rewards = [[] for _ in range(players)]
        s.lost_ships: list[int] = []
        s.decks = {
            "units": list(range(len(engine.unit_cards))),
            "techs": list(range(len(engine.techs))),
            "rewards": list(range(len(engine.rewards))),
        }
        s.lines = {name: [] for name in s.decks}
        s.discards = {name: [] for name in s.decks}
        for name in s.decks:
            s.shuffle(s.decks[name], name)
        s.agroed = [[] for _ in range(players)]
        # rules.yaml agro_enemies: 'each player draws as if from their own pile' — an effectively unlimited deck
        # per player and group (piles[player][group]), reshuffled whole when it runs out
        s.piles = [[[] for _ in range(3)] for _ in range(players)]
        for p in range(players):
            for g in range(3):
                s._refill_pile(p, g)
        s.stage = [0] * players
        s.starter = s.rng.randrange(players)
        s.chance.record("start player", s.starter)
        s.round, s.phase, s.turn, s.active = 0, 0, 0, [True] * players
        s.next_round()
        return s

    # -- the engine surface -----------------------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == 0 else self.turn

    def _legal_actions(self) -> list[Action]:
        p = self.turn
        if self.phase == 3:
            return [PASS, *self._builds(p), *self._researches(p)]
        if self.phase == 4:
            return [PASS, *(Agro(g) for g in range(self.stage[p], 3))]
        if self.phase == 6:
            return [Reward(i) for i in range(len(self.lines["rewards"]))]
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
        raise ValueError(f"not a Scifi Domains action: {action!r}")

    def _apply(self, action: Any) -> None:
        p = self.turn
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
        if self.phase == 3:
            self._next_builder()
        elif self.phase == 4:
            self._next_agro()
        elif self.phase == 6:
            self._next_reward_turn()

    def returns(self) -> list[float]:
        if self.phase != 0:
            return [0.0] * self.n
        vp = [self.victory_points(p) for p in range(self.n)]
        best = max(vp)
        leaders = [p for p in range(self.n) if vp[p] == best]
        breaks = {p: self.tiebreak(p) for p in leaders}
        top = max(breaks.values())
        winners = [p for p in leaders if breaks[p] == top]
        return [1.0 if p in winners else 0.0 for p in range(self.n)]

    def clone(self) -> ScifiState:
        o = ScifiState.__new__(ScifiState)
        self._copy_base(o)
        o.engine, o.n = self.engine, self.n
        for name in (
            "metal",
            "research",
            "metal_prod",
            "research_prod",
            "overflow",
            "points",
            "lost_ships",
            "stage",
            "active",
        ):
            setattr(o, name, list(getattr(self, name)))
        o.units = [[list(u) for u in us] for us in self.units]
        o.techs = [list(t) for t in self.techs]
        o.rewards = [list(r) for r in self.rewards]
        o.decks = {k: list(v) for k, v in self.decks.items()}
        o.lines = {k: list(v) for k, v in self.lines.items()}
        o.discards = {k: list(v) for k, v in self.discards.items()}
        o.piles = [[list(g) for g in piles] for piles in self.piles]
        o.agroed = [list(x) for x in self.agroed]
        o.starter, o.round, o.phase, o.turn = self.starter, self.round, self.phase, self.turn
        return o

    # -- hidden information -----------------------------------------------------------------------------------------

    def observation(self, player: int) -> tuple:
        """Everything but the order of the face-down decks and enemy piles (their contents can be counted)."""
        public = ("metal", "research", "metal_prod", "research_prod", "overflow", "points", "lost_ships", "stage",
                  "active", "units", "techs", "rewards", "agroed")  # fmt: skip
        return (
            player, self.round, self.phase, self.turn, self.starter, self.turns, self.ending,
            *(frozen(getattr(self, name)) for name in public),
            frozen(sorted(self.lines.items())), frozen(sorted(self.discards.items())),
            tuple((name, tuple(sorted(deck))) for name, deck in sorted(self.decks.items())),
            tuple(tuple(sorted(pile)) for piles in self.piles for pile in piles),
        )  # fmt: skip

    def determinize(self, player: int, rng: CounterRng) -> ScifiState:
        """The same state with every face-down deck and enemy pile in a new random order."""
        s = self.reseeded(rng)
        assert isinstance(s, ScifiState)
        for name in sorted(s.decks):
            rng.shuffle(s.decks[name])
        for piles in s.piles:
            for pile in piles:
                rng.shuffle(pile)
        return s

    # -- round structure --------------------------------------------------------------------------------------------

    def next_round(self) -> None:
        """Phases 1 and 2, then the first Build decision (or the end of the game after the last round)."""
        if self.round == self.engine.rounds:
            self.phase = 0
            self.ending = f"{self.engine.rounds} rounds played"
            return
        self.round += 1
        self.turns += 1
        for p in range(self.n):
            for unit in self.units[p]:
                unit[4] = 0  # repaired
            self.metal[p] += self.metal_prod[p]
            self.research[p] += self.research_prod[p]
        if self.round > 1:
            self.starter = (self.starter + 1) % self.n
        for name in self.decks:
            self.decks[name] += self.lines[name] + self.discards[name]
            self.lines[name], self.discards[name] = [], []
            self.shuffle(self.decks[name], name)
            self._refill(name)
        self.phase, self.active, self.turn = 3, [True] * self.n, self.starter

    def _order(self) -> list[int]:
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
        self.phase, self.active, self.stage = 4, [True] * self.n, [0] * self.n
        self.turn = self.starter

    def _next_agro(self) -> None:
        nxt = self._next_active(self.turn)
        if nxt is not None:
            self.turn = nxt
            return
        for p in self._order():
            self._battle(p)
        self.phase, self.turn = 6, self.starter
        self._next_reward_turn(start=True)

    def _next_reward_turn(self, start: bool = False) -> None:
        """The next player (in turn order) with Reward points; points beyond the cap become VP at once."""
        order = self._order()
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

    def stat(self, p: int, unit_type: str, name: str) -> int:
        """A unit type's stat for a player: the printed value plus the player's techs for that type."""
        base = self.engine.types[unit_type].stats[STATS.index(name)]
        techs = self.engine.techs
        return base + sum(techs[t][3] for t in self.techs[p] if techs[t][0] == unit_type and techs[t][2] == name)

    def build_cost(self, p: int, unit_type: str, count: int) -> int:
        each = max(self.stat(p, unit_type, "metal_cost"), 1)
        return math.ceil(each + (count - 1) * each * self.engine.extra_price)

    def _builds(self, p: int) -> list[Build]:
        actions = []
        in_line: dict[str, int] = {}
        for card in self.lines["units"]:
            kind = self.engine.unit_cards[card]
            in_line[kind] = in_line.get(kind, 0) + 1
        for kind in self.engine.type_names:
            for count in range(1, in_line.get(kind, 0) + 1):
                if self.build_cost(p, kind, count) <= self.metal[p]:
                    actions.append(Build(kind, count))
        return actions

    def _build(self, p: int, unit_type: str, count: int) -> None:
        self.metal[p] -= self.build_cost(p, unit_type, count)
        for _ in range(count):
            card = next(c for c in self.lines["units"] if self.engine.unit_cards[c] == unit_type)
            self.lines["units"].remove(card)
            self.units[p].append([unit_type, "u", card, self.round, 0])
        self._refill("units")

    def tech_cost(self, p: int, card: int) -> int | None:
        """What a tech from the line-up costs a player, or None when the player may not take it."""
        kind, cost = self.engine.techs[card][0], self.engine.techs[card][1]
        if kind in self.engine.stacking:
            return cost
        held = [t for t in self.techs[p] if self.engine.techs[t][0] == kind]
        if not held:
            return cost
        return abs(cost - self.engine.techs[held[0]][1]) + self.engine.surcharge

    def _researches(self, p: int) -> list[Research]:
        out = []
        for slot, card in enumerate(self.lines["techs"]):
            cost = self.tech_cost(p, card)
            if cost is not None and cost <= self.research[p]:
                out.append(Research(slot))
        return out

    def _research(self, p: int, slot: int) -> None:
        card = self.lines["techs"].pop(slot)
        self.research[p] -= self.tech_cost(p, card)
        kind = self.engine.techs[card][0]
        if kind not in self.engine.stacking:
            for old in [t for t in self.techs[p] if self.engine.techs[t][0] == kind]:
                self.techs[p].remove(old)
                self.discards["techs"].append(old)
        self.techs[p].append(card)
        self.applied.add(self.engine.techs[card][4])
        self._refill("techs")

    def _refill(self, name: str) -> None:
        """Deal the line-up full; a deck that runs out is rebuilt from its shuffled discards."""
        size = self.engine.line_up[name][self.n]
        line, deck = self.lines[name], self.decks[name]
        while len(line) < size:
            if not deck:
                if not self.discards[name]:
                    self.problem(f"the {name.title()} line-up could not be refilled at {self.n} players")
                    return
                deck += self.discards[name]
                self.discards[name] = []
                self.shuffle(deck, f"{name} discards")
            line.append(deck.pop())

    # -- agro and battle --------------------------------------------------------------------------------------------

    def _refill_pile(self, p: int, group: int) -> None:
        """A player's own pile of a group: every enemy card of the group not already in front of them, shuffled."""
        in_front = set(self.agroed[p])
        pile = [c for c in self.engine.group_cards[group] if c not in in_front]
        self.shuffle(pile, f"enemies {self.engine.agro_order[group]} for seat {p}")
        self.piles[p][group] = pile

    def _agro(self, p: int, group: int) -> None:
        if not self.piles[p][group]:
            self._refill_pile(p, group)
            if not self.piles[p][group]:
                self.problem(f"a player agroed every printed {self.engine.agro_order[group]} enemy at once")
                return
        card = self.piles[p][group].pop()
        self.chance.events.append(("agro", (p, card)))
        self.agroed[p].append(card)
        self.stage[p] = group
        self._check_printed(group)

    def _check_printed(self, group: int) -> None:
        """Players draw as if from piles of their own, but the table holds one printed set: when the enemies of a
        group in front of all players at once outnumber the printed cards, a game at this player count needs a
        second set (the rulebook's 'consider creating two or three sets')."""
        printed = len(self.engine.group_cards[group])
        out = sum(1 for cards in self.agroed for c in cards if self.engine.enemies[c][0] == group)
        if out > printed:
            name = self.engine.agro_order[group]
            self.problem(f"at {self.n} players more {name} enemies were out at once than the {printed} printed")

    def _battle(self, p: int) -> None:
        """Combat phases 1-7 for one player against the enemies they agroed."""
        e = self.engine
        enemies = [[card, e.enemies[card][2]] for card in self.agroed[p]]  # [card, hp left]
        fighting = self._deploy(p)
        for step in (("dmg_space", "dmg_space_striker"), ("dmg_ground", "dmg_ground_striker")):
            alive_units = [u for u in fighting if self._alive(p, u)]
            alive_enemies = [x for x in enemies if x[1] > 0]
            incoming = [sum(e.enemies[x[0]][3][DAMAGE.index(d)] for x in alive_enemies) for d in step]
            for kind, amount in zip(step, incoming, strict=True):
                self._absorb(p, fighting, kind, amount)
            for kind in step:
                dealt = sum(self.stat(p, u[0], kind) for u in alive_units)
                self._strike(enemies, kind, dealt)
            fighting = self._check_bays(p, fighting)
        killed = sum(1 for x in enemies if x[1] <= 0)
        points = killed * e.kill_points
        ground_alive = any(e.types[u[0]].category == "ground" for u in fighting if self._alive(p, u))
        if ground_alive:
            points += e.hold_bonus
            if not any(e.enemies[x[0]][1] == "ground" and x[1] > 0 for x in enemies):
                points += e.clear_bonus
        self.points[p] += points
        self.agroed[p] = []  # back to the player's own effectively unlimited piles
        for unit in [u for u in self.units[p] if not self._alive(p, u)]:
            self._destroy(p, unit)

    def _alive(self, p: int, unit: list) -> bool:
        return unit[4] < self.stat(p, unit[0], "hp")

    def _deploy(self, p: int) -> list[list]:
        """Step 1: every non-Striker Space unit; Strikers and Ground units bought before this round need a bay each
        (the strongest go first); the rest stay home."""
        e = self.engine
        units = self.units[p]
        space = [u for u in units if e.types[u[0]].category == "space"]
        striker_room = sum(self.stat(p, u[0], "striker_capacity") for u in space)
        drop_room = sum(self.stat(p, u[0], "drop_capacity") for u in space)
        chosen = list(space)
        for category_needs in (("space_striker", "ground_striker"), ("ground",)):
            group = [u for u in units if e.types[u[0]].category in category_needs]
            group.sort(key=lambda u: (u[3] != self.round, -self._power(p, u)))
            for unit in group:
                if unit[3] == self.round:
                    chosen.append(unit)
                elif category_needs[0] == "ground" and drop_room > 0:
                    drop_room -= 1
                    chosen.append(unit)
                elif category_needs[0] != "ground" and striker_room > 0:
                    striker_room -= 1
                    chosen.append(unit)
        return chosen

    def _power(self, p: int, unit: list) -> int:
        return sum(self.stat(p, unit[0], d) for d in DAMAGE)

    def _targets(self, p: int, fighting: list[list], kind: str) -> list[list]:
        """The units that damage of a kind may hit; Striker damage falls on the other units when no Striker is left."""
        types = self.engine.types
        return _hit_by([u for u in fighting if self._alive(p, u)], lambda u: types[u[0]].category, kind)

    def _absorb(self, p: int, fighting: list[list], kind: str, amount: int) -> None:
        """Soak damage one unit at a time: the weakest unit that survives it, else the cheapest unit in the way."""
        e = self.engine
        while amount > 0:
            targets = self._targets(p, fighting, kind)
            if not targets:
                return
            left = {id(u): self.stat(p, u[0], "hp") - u[4] for u in targets}
            survivors = [u for u in targets if left[id(u)] > amount]
            if survivors:
                unit = min(survivors, key=lambda u: left[id(u)])
                unit[4] += amount
                return
            unit = min(targets, key=lambda u: (e.types[u[0]].cost if u[1] != "c" else 99, left[id(u)]))
            unit[4] += left[id(unit)]
            amount -= left[id(unit)]

    def _strike(self, enemies: list[list], kind: str, amount: int) -> None:
        """Deal damage to kill as many enemies as possible, the weakest first."""
        cards = self.engine.enemies
        while amount > 0:
            targets = _hit_by([x for x in enemies if x[1] > 0], lambda x: cards[x[0]][1], kind)
            if not targets:
                return
            target = min(targets, key=lambda x: (x[1], x[0]))
            hit = min(amount, target[1])
            target[1] -= hit
            amount -= hit

    def _check_bays(self, p: int, fighting: list[list]) -> list[list]:
        """Steps 3 and 5: Strikers and Ground units from earlier rounds beyond the bays left are sacrificed; with no
        non-Striker Space unit left, every non-Striker Ground unit is lost."""
        e = self.engine
        alive = [u for u in fighting if self._alive(p, u)]
        space = [u for u in alive if e.types[u[0]].category == "space"]
        for needs, room_stat in (
            (("space_striker", "ground_striker"), "striker_capacity"),
            (("ground",), "drop_capacity"),
        ):
            room = sum(self.stat(p, u[0], room_stat) for u in space)
            carried = [u for u in alive if e.types[u[0]].category in needs and u[3] != self.round]
            carried.sort(key=lambda u: -self._power(p, u))
            for unit in carried[room:]:
                unit[4] = self.stat(p, unit[0], "hp")
        if not space:
            for unit in alive:
                if e.types[unit[0]].category == "ground":
                    unit[4] = self.stat(p, unit[0], "hp")
        return [u for u in fighting if self._alive(p, u)]

    def _destroy(self, p: int, unit: list) -> None:
        self.units[p].remove(unit)
        if unit[1] == "u":
            self.discards["units"].append(unit[2])
        elif unit[1] == "r":
            self.rewards[p].remove(unit[2])
            self.discards["rewards"].append(unit[2])
        else:
            self.lost_ships.append(p)

    # -- rewards and the end ------------------------------------------------------------------------------------------

    def _take_reward(self, p: int, slot: int) -> None:
        card = self.lines["rewards"].pop(slot)
        self.points[p] -= 1
        self.rewards[p].append(card)
        effect, value, unit_type, item = self.engine.rewards[card]
        if effect == "metal":
            self.metal[p] += value
        elif effect == "research":
            self.research[p] += value
        elif effect == "metal_production":
            self.metal_prod[p] += value
        elif effect == "research_production":
            self.research_prod[p] += value
        elif effect == "unit":
            self.units[p].append([unit_type, "r", card, self.round, 0])
        self.applied.add(item)
        self._refill("rewards")

    def units_metal(self, p: int) -> int:
        """The printed Metal cost of a player's surviving units (Command Ships count nothing)."""
        return sum(self.engine.types[u[0]].cost for u in self.units[p] if u[1] != "c")

    def victory_points(self, p: int) -> float:
        cards = sum(self.engine.rewards[c][1] for c in self.rewards[p] if self.engine.rewards[c][0] == "vp")
        wealth = (self.units_metal(p) + self.metal[p] + self.research[p]) / self.engine.vp_divisor
        return cards + self.overflow[p] + wealth

    def tiebreak(self, p: int) -> int:
        return self.metal[p] + self.units_metal(p)

    # -- what the greedy agent weighs ---------------------------------------------------------------------------------

    def outlook(self, p: int) -> float:
        """Victory points so far, plus the fighting strength of units and techs, plus unspent Reward points."""
        power = sum(self._power(p, u) + 0.3 * self.stat(p, u[0], "hp") for u in self.units[p])
        rounds_left = self.engine.rounds - self.round + 1
        return self.victory_points(p) + 0.25 * power * rounds_left / self.engine.rounds + 0.9 * self.points[p]

    def agro_value(self, p: int, action: Any) -> float:
        """Agro another enemy while the player's units can still kill the enemies in front of them with room to
        spare and soak what they deal; stop otherwise. Judged from the group's average enemy, never the pile."""
        if action == PASS:
            return 0.0
        e = self.engine
        group = action.group
        cards = [c for c in range(len(e.enemies)) if e.enemies[c][0] == group]
        avg_hp = sum(e.enemies[c][2] for c in cards) / len(cards)
        avg_dmg = sum(sum(e.enemies[c][3]) for c in cards) / len(cards)
        power = sum(self._power(p, u) for u in self.units[p])
        toughness = sum(self.stat(p, u[0], "hp") for u in self.units[p])
        facing_hp = sum(e.enemies[c][2] for c in self.agroed[p]) + avg_hp
        facing_dmg = sum(sum(e.enemies[c][3]) for c in self.agroed[p]) + avg_dmg
        return (power - facing_hp) * 0.5 + (toughness - 1.5 * facing_dmg) * 0.25

    def invariant_violations(self) -> list[str]:
        e, out = self.engine, []
        held_units = [u[2] for us in self.units for u in us if u[1] == "u"]
        zones = {
            "units": (
                len(e.unit_cards),
                self.decks["units"] + self.lines["units"] + self.discards["units"] + held_units,
            ),
            "techs": (
                len(e.techs),
                self.decks["techs"]
                + self.lines["techs"]
                + self.discards["techs"]
                + [t for ts in self.techs for t in ts],
            ),
            "rewards": (
                len(e.rewards),
                self.decks["rewards"]
                + self.lines["rewards"]
                + self.discards["rewards"]
                + [r for rs in self.rewards for r in rs],
            ),
        }
        for p in range(self.n):
            for g, pile in enumerate(self.piles[p]):
                ours = pile + [c for c in self.agroed[p] if e.enemies[c][0] == g]
                if len(ours) != len(set(ours)) or not set(ours) <= set(e.group_cards[g]):
                    out.append(f"seat {p}: enemy pile {e.agro_order[g]} holds a card twice or one of another group")
        for name, (total, cards) in zones.items():
            if sorted(cards) != list(range(total)):
                out.append(
                    f"{name}: {len(cards)} cards accounted for ({len(set(cards))} distinct), {total} in the deck"
                )
        for p in range(self.n):
            if min(self.metal[p], self.research[p], self.points[p], self.metal_prod[p], self.research_prod[p]) < 0:
                out.append(f"seat {p}: a negative resource")
            if len(self.rewards[p]) > e.reward_cap:
                out.append(f"seat {p}: {len(self.rewards[p])} Reward/Gain cards, above the cap of {e.reward_cap}")
            kinds = [e.techs[t][0] for t in self.techs[p] if e.techs[t][0] not in e.stacking]
            if len(kinds) != len(set(kinds)):
                out.append(f"seat {p}: two techs for one unit type")
        for name, line in self.lines.items():
            if len(line) > e.line_up[name][self.n]:
                out.append(f"the {name} line-up holds {len(line)} cards, above {e.line_up[name][self.n]}")
        ships = sum(1 for us in self.units for u in us if u[1] == "c") + len(self.lost_ships)
        if ships != self.n:
            out.append(f"{ships} Command Ships accounted for, {self.n} players")
        return out
