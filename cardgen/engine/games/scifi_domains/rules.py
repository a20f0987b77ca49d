"""Scifi Domains' fixed rules and cards, read once from `card_data/scifi-domains`: every number from rules.yaml
(`game.fact`), every card from the card data that gets printed."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from cardgen.data.games import Game
from cardgen.engine.core import SHARED_BOUND, GameEngine, State
from cardgen.engine.games.scifi_domains import view
from cardgen.engine.games.scifi_domains.actions import Build
from cardgen.engine.games.scifi_domains.model import (
    COMMAND_SHIP,
    DAMAGE,
    STATS,
    EnemyCard,
    RewardCard,
    TechCard,
    UnitType,
    build_cost,
)
from cardgen.engine.games.scifi_domains.state import ScifiState

T = TypeVar("T")


class ScifiEngine(GameEngine):
    """The rules facts and every card of Scifi Domains."""

    id = "scifi-domains"
    max_actions = 20_000
    # the search considers greedy's best few moves first: mcts:200 won 18 of 32 against greedy this way
    # (benchmarks/agent_strength.py, 2026-11-29), 20 of 40 spreading its iterations over every move
    search_width = 1.0
    # and scores a finished playout half by the win, half by σ(VP lead / 2 VP) (`search_scores`; greedy's games end
    # about 2 VP apart): mcts:600 this way won 13 of 16 against greedy (seed 2), 600 iterations scoring the win alone
    # 9 of 16, 200 with the margin 9 of 16, 200 scoring the win alone 9 of 16; on seed 1, 21 of 32 (48–80 %),
    # 0.61 s a decision (benchmarks/agent_strength.py, 2026-11-29), where 200 iterations scoring the win had won 18
    search_iterations = 600
    search_margin: float | None = 2.0
    # processor seconds a 2-player game, every seat one agent: the `game_seconds` of benchmarks/agent_strength.py's
    # one run over the five games (2026-11-29 night, seed 1; mcts worked out as a greedy game plus each seat's
    # thinking beyond greedy's in its games against greedy)
    game_seconds: ClassVar[Mapping[str, float]] = {"random": 0.01, "greedy": 0.01, "mcts": 40.2}

    def __init__(self, game: Game):
        f = game.fact
        self.min_players, self.max_players = game.players
        self.rounds: int = f("rounds")
        self.start: dict[str, int] = f("start_resources")
        self.line_up: dict[str, dict[int, int]] = {
            "units": f("line_up_units"),
            "techs": f("line_up_techs"),
            "rewards": f("line_up_rewards"),
        }
        self.reward_cap: int = f("reward_cap")
        self.overflow_vp: int = f("overflow_vp_per_reward_point")
        self.extra_price: float = f("multi_build_extra_price")
        self.surcharge: int = f("tech_replacement_surcharge")
        self.stacking: set[str] = set(f("stacking_tech_types"))
        self.agro_order: list[str] = list(f("agro_order"))
        self.kill_points: int = f("reward_points_per_kill")
        self.hold_bonus: int = f("ground_hold_bonus")
        self.clear_bonus: int = f("ground_clear_bonus")
        self.vp_divisor: int = f("end_vp")["divisor"]
        self.types: dict[str, UnitType] = {}
        self.unit_cards: list[str] = []
        for item in game.component("units").items:
            self._add_type(item.fields)
            self.unit_cards += [item.fields["unit_type"]] * item.count
        self._add_type(game.component("command-ships").items[0].fields)
        self.type_names = sorted(t for t in self.types if t != COMMAND_SHIP)
        self.techs = [
            TechCard(i.fields["unit_type"], i.fields["research_cost"], i.fields["bonus_stat"],
                     i.fields["bonus_value"], i.id)
            for i in game.component("techs").items
            for _ in range(i.count)
        ]  # fmt: skip
        self.rewards = [
            RewardCard(i.fields["effect"], i.fields["value"], i.fields.get("unit_type"), i.id)
            for i in game.component("rewards").items
            for _ in range(i.count)
        ]
        self.enemies = [
            EnemyCard(self.agro_order.index(i.fields["group"]), i.fields["category"], i.fields["hp"],
                      tuple(i.fields[d] for d in DAMAGE), i.id)
            for i in game.component("enemies").items
            for _ in range(i.count)
        ]  # fmt: skip
        self.group_cards = [[c for c, e in enumerate(self.enemies) if e.group == g] for g in range(3)]
        # what a Build listing reads (each Build decision lists them): by a unit's price, the prices of 1, 2, … units
        # bought together, and each type's Build actions by count (actions are values: every state may share them)
        self.prices: dict[int, list[int]] = {}
        self.build_actions: dict[str, list[Build]] = {kind: [] for kind in self.type_names}
        self.line_counts: dict[tuple[int, ...], list[tuple[str, int]]] = {}
        # `numbered`: the actions that name a number (a slot, a unit)
        self.by_number: dict[Callable[[int], Any], list[Any]] = {}

    def numbered(self, kind: Callable[[int], T], count: int) -> list[T]:
        """`kind(0)`, `kind(1)`, … at least `count` of them: the actions that name a slot, a group or a unit by its
        number (Research, Agro, Reward, Deploy, Absorb, Sacrifice), made once and shared (an action is a value)."""
        actions: list[T] = self.by_number.setdefault(kind, [])
        while len(actions) < count:
            actions.append(kind(len(actions)))
        return actions

    def count_line(self, line: tuple[int, ...]) -> list[tuple[str, int]]:
        """The types in a Units line-up with their cards, in type order; remembered (line-ups recur: every Build
        decision of a round lists the same one until someone builds), up to a bound on a long sweep's memory."""
        counts: dict[str, int] = {}
        for card in line:
            kind = self.unit_cards[card]
            counts[kind] = counts.get(kind, 0) + 1
        if len(self.line_counts) >= SHARED_BOUND:
            self.line_counts.clear()
        found = self.line_counts[line] = [(kind, counts[kind]) for kind in self.type_names if kind in counts]
        return found

    def prices_of(self, each: int, count: int) -> list[int]:
        """The dearest `build_cost` among 1, 2, … units of one price bought together, at least `count` of them: a
        non-decreasing list, so the first count dearer than a budget is found by bisection, whatever the extra price
        (half a unit's price by the rules: then each entry is the price itself)."""
        prices = self.prices.setdefault(each, [])
        while len(prices) < count:
            price = build_cost(each, len(prices) + 1, self.extra_price)
            prices.append(max(price, prices[-1]) if prices else price)
        return prices

    def builds_of(self, kind: str, count: int) -> list[Build]:
        """A type's Build actions of 1, 2, … units, at least `count` of them."""
        actions = self.build_actions[kind]
        while len(actions) < count:
            actions.append(Build(kind, len(actions) + 1))
        return actions

    @classmethod
    def from_game(cls, game: Game) -> ScifiEngine:
        return cls(game)

    def _add_type(self, f: Mapping[str, Any]) -> None:
        self.types[f["unit_type"]] = UnitType(
            f["unit_type"], f["category"], f["metal_cost"], tuple(f[s] for s in STATS)
        )

    def _new_state(self, players: int, seed: int) -> ScifiState:
        return ScifiState.setup(self, players, seed)

    def abilities(self) -> list[str]:
        return sorted({t.item for t in self.techs} | {r.item for r in self.rewards})

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, ScifiState)
        return view.outlook(state, player)

    def search_scores(self, state: State) -> list[float]:
        """Half the win, half the margin: each seat's result blended with σ(its VP lead over the best other seat /
        `search_margin`), so that a playout won by much scores more than one won by a fraction of a point."""
        scores = self.final_scores(state)
        if self.search_margin is None or state.ending == self.ADJUDICATED:
            return scores
        assert isinstance(state, ScifiState)
        vp = [state.victory_points(p) for p in range(state.n)]
        lead = [vp[p] - max(v for q, v in enumerate(vp) if q != p) for p in range(state.n)]
        return [0.5 * scores[p] + 0.5 / (1 + math.exp(-lead[p] / self.search_margin)) for p in range(state.n)]

    def action_value(self, state: State, action: Any, player: int) -> float:
        assert isinstance(state, ScifiState)
        return view.action_value(state, action, player)
