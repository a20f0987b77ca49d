"""Star Commander's fixed rules and cards, read once from `card_data/star-commander`: every number from rules.yaml
(`game.fact`), every card and its `effects` from the card data that gets printed. See `state.py` for the turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from cardgen.data.games import Game
from cardgen.engine.boards import diagonal_neighbours, orthogonal_neighbours, square_grid
from cardgen.engine.core import GameEngine, State
from cardgen.engine.games.star_commander import view
from cardgen.engine.games.star_commander.model import (
    VOCABULARY,
    Build,
    CardSpec,
    Develop,
    Effect,
    Explore,
    Move,
    Play,
    Scrap,
    SystemSpec,
    TradeDraw,
)
from cardgen.engine.games.star_commander.state import StarState

DECKS = ("industry-deck", "statecraft-deck", "science-deck")
# the verbs of a command a kept command listing outlives (`plain_plays`)
PLAIN_VERBS = frozenset({"draw", "discard", "cycle", "gain-credits", "peek", "arrange-top", "discount", "embargo",
                         "extra-jumps", "shipyard-grant", "remove-development", "annex"})  # fmt: skip


class StarEngine(GameEngine):
    """The rules facts, the Domain decks, the System deck and the core ships and stations."""

    id = "star-commander"
    max_actions = 60_000
    playout_horizon = 0  # a search scores the position it reaches by the turn under way played out (`view.turn_values`)
    search_width = 1.0  # and considers greedy's best few commands first
    search_plan = True  # it plans the searching player's own turn, each plan judged with the next player's blow
    # processor seconds a 2-player game, every seat one agent: the `game_seconds` of benchmarks/agent_strength.py's
    # one run over the five games (2026-11-29 night, seed 1; mcts worked out as a greedy game plus each seat's
    # thinking beyond greedy's in its games against greedy)
    game_seconds: ClassVar[Mapping[str, float]] = {"random": 0.13, "greedy": 3.07, "mcts": 63.3}

    def __init__(self, game: Game):
        f = game.fact
        self.min_players, self.max_players = game.players
        self.domains: list[str] = list(f("domains"))
        self.grid: dict[int, int] = {int(k): v for k, v in f("grid_by_players").items()}
        self.start_credits: int = f("starting_credits")
        self.start_developments: int = f("starting_developments")
        self.start_ships: dict[str, int] = f("starting_ships")
        self.draws: int = f("cards_drawn_per_turn")
        self.income: int = f("development_income")
        self.hand_limit: int = f("hand_limit")
        self.draw_cost: int = f("trade_draw_cost")
        self.sell: dict[str, int] = f("trade_discard")
        self.develop_cost: dict[str, int] = f("development_cost")
        self.scrap: dict[str, Any] = f("scrap_value")
        self.jump: dict[str, int] = f("jump")
        self.conquest_developments: int = f("conquest_developments")
        self.turn_cap = f("turn_cap") * self.max_players  # rounds of the slowest count → player turns
        self.rounds_cap: int = f("turn_cap")
        self.short_rounds: int = f("short_game")
        self._jumps: dict[int, tuple[list[tuple[int, ...]], list[tuple[int, ...]]]] = {}
        self.problems: list[str] = []  # card data the engine cannot execute, reported by every game
        self.cards: list[CardSpec] = []
        self.deck_cards: list[list[int]] = []
        for deck in DECKS:
            start = len(self.cards)
            for item in game.component(deck).items:
                self.cards += [self._card(item.id, item.fields)] * item.count
            self.deck_cards.append(list(range(start, len(self.cards))))
        self.core_start = len(self.cards)
        for item in game.component("core-ships").items:
            self.cards += [self._card(item.id, item.fields)] * item.count
        self.lasting = [
            {v: tuple(e for e in c.effects if e.verb == v and e.trigger is None) for v in {e.verb for e in c.effects}}
            for c in self.cards
        ]  # each card's lasting effects by verb (statements without a trigger)
        # the same, only the verbs a card has lasting effects for (`StarState.lasting` gathers them per player); a
        # `reminder` does nothing, so a Fighter's or a station's coming and going changes no one's lasting effects
        self.lasting_verbs = [tuple((verb, found) for verb, found in table.items() if found and verb != "reminder")
                              for table in self.lasting]  # fmt: skip
        self.fighter = [c.fighter for c in self.cards]
        items = sorted({c.item for c in self.cards})
        self.item_index = [items.index(c.item) for c in self.cards]  # copies of one printed card share a number
        self.ship = [c.kind == "ship" for c in self.cards]
        self.station = [c.kind == "station" for c in self.cards]
        self.category = [1 if c.kind == "station" else 2 if c.fighter else 0 for c in self.cards]  # `listing.builds`
        self.printed_cost = [c.cost for c in self.cards]
        # the core pieces' runs of copies (kind, first card, past the last): `listing.supply_cheapest`
        self.core_runs: list[tuple[int, int, int]] = []
        for card in range(self.core_start, len(self.cards)):
            if not self.cards[card].piece:
                continue
            if self.core_runs and self.cards[self.core_runs[-1][1]] is self.cards[card]:  # a copy of the one before
                kind, first, _ = self.core_runs[-1]
                self.core_runs[-1] = (kind, first, card + 1)
            else:
                self.core_runs.append((self.item_index[card], card, card + 1))
        # each card's first statement with a target (`listing.targets`), its `scrap:` abilities (`effects.scrap`)
        self.targeted = [next((e for e in c.effects if e.opt("target")), None) for c in self.cards]
        self.scrap_effects = [tuple(e for e in c.effects if e.trigger == "scrap") for c in self.cards]
        # and its Ready-phase abilities (`turn.ready_abilities`)
        self.ready_effects = [tuple(e for e in c.effects if e.trigger == "ready") for c in self.cards]
        # the commands a kept command listing outlives (`listing.before`): what they change is read afresh by every
        # listing (credits, hands, decks, peeks, another player's embargo) or checked by `listing.Carry.valid`
        # (control, developments, this turn's effects); a piece lost on the way ends the kept listing (`after`)
        self.plain_plays = [c.kind == "command" and all(e.verb in PLAIN_VERBS for e in c.effects) for c in self.cards]
        self.distinct_cards: dict[tuple[int, ...], tuple[int, ...]] = {}  # `listing.distinct`'s answers
        self.distinct_pieces: dict[tuple[int, ...], tuple[int, ...]] = {}  # and `listing.pieces`'
        self.build_actions: dict[int, list[Build]] = {}  # a card's Build action by cell (`listing.builds`)
        self.move_actions: dict[int, list[Move]] = {}  # and its Move action by cell (`listing.moves`)
        self.scrap_actions = [Scrap(card) for card in range(len(self.cards))]  # each card's Scrap action
        self.draw_actions = [TradeDraw(domain) for domain in range(len(DECKS))]  # each domain's TradeDraw
        self.play_actions = [Play(card) for card in range(len(self.cards))]  # and its untargeted Play
        self.explore_actions: list[Explore] = []  # each cell's Explore and Develop actions (`cell_actions`)
        self.develop_actions: list[Develop] = []
        # each statement's card (copies share one CardSpec, so an effect object belongs to one printed card)
        self.effect_item = {id(e): c.item for c in self.cards for e in c.effects}
        self.core_names = sorted({c.name for c in self.cards[self.core_start :]})
        self.systems = [
            self._system(i.id, i.fields) for i in game.component("system-deck").items for _ in range(i.count)
        ]
        self.homeworlds = [s for s, spec in enumerate(self.systems) if spec.homeworld]
        if len(self.homeworlds) < self.max_players:
            self.problems.append(
                f"the System deck holds {len(self.homeworlds)} Homeworlds for {self.max_players} players"
            )

    def cell_actions(self, cells: int) -> tuple[list[Explore], list[Develop]]:
        """Each cell's Explore and Develop action for a board of `cells` (made once for the largest board yet:
        actions are values, and a listing made each anew spent a tenth of its time on them)."""
        if len(self.explore_actions) < cells:
            self.explore_actions = [Explore(cell) for cell in range(cells)]
            self.develop_actions = [Develop(cell) for cell in range(cells)]
        return self.explore_actions, self.develop_actions

    @classmethod
    def from_game(cls, game: Game) -> StarEngine:
        return cls(game)

    def _effects(self, item: str, fields: Mapping[str, Any]) -> tuple[Effect, ...]:
        statements = fields.get("effects") or []
        if not statements and fields.get("text"):
            self.problems.append(f"card '{item}': its text has no effects the engine can execute")
        parsed, problem = VOCABULARY.read(item, statements)
        if problem:
            self.problems.append(problem)
        return parsed

    def _card(self, item: str, f: Mapping[str, Any]) -> CardSpec:
        kind = f.get("card_type") or "ship"
        domain = self.domains.index(f["domain"]) if f.get("domain") else -1
        return CardSpec(
            item, f["name"], kind, domain, f["cost"], f.get("timing") or "", f.get("attack") or 0, f.get("hp") or 0,
            f.get("jump") or 0, f.get("ship_class") or "", self._effects(item, f), f.get("text") or "",
        )  # fmt: skip

    def _system(self, item: str, f: Mapping[str, Any]) -> SystemSpec:
        domain = -1 if f["domain"] == "any" else self.domains.index(f["domain"])
        return SystemSpec(item, f["name"], domain, f["credits"], f["max_development"], f["capital"], f["homeworld"],
                          f["explore_effect"], f["explore_amount"])  # fmt: skip

    def scrap_value(self, cost: int) -> int:
        s = self.scrap
        value = int(cost * s["fraction"]) if s["rounding"] == "down" else -int(-cost * s["fraction"])
        return max(int(s["minimum"]), value)

    def development_cost(self, current: int) -> int:
        """What the next development costs on a system that has `current` (rules.yaml development_cost)."""
        if current == 0:
            return self.develop_cost["first"]
        return current + self.develop_cost["next_over_current"]

    def _new_state(self, players: int, seed: int) -> StarState:
        return StarState.setup(self, players, seed)

    def short_game(self, players: int) -> tuple[int, str] | None:
        """A game the rules end within `short_game` rounds (rules.yaml, designed) is a rush the data allows."""
        return self.short_rounds * players, f"{self.short_rounds} rounds"

    def jumps(self, size: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """The cells one jump away on a board of `size` × `size`: diagonally (the rule), and diagonally or
        orthogonally (a card's orthogonal jumps), worked out once per size and shared by every game."""
        if size not in self._jumps:
            self._jumps[size] = (square_grid(size, size, diagonal_neighbours),
                                 square_grid(size, size, diagonal_neighbours, orthogonal_neighbours))  # fmt: skip
        return self._jumps[size]

    def cap_turns(self, players: int) -> int | None:
        """`turn_cap` counts rounds; a round is one turn of each player."""
        return self.rounds_cap * players

    def adjudicate(self, state: State) -> list[float]:
        assert isinstance(state, StarState)
        return state.adjudicated()

    def playable(self) -> list[str]:
        return sorted({c.item for c in self.cards[: self.core_start]})

    def data_problems(self) -> list[str]:
        return list(self.problems)

    def abilities(self) -> list[str]:
        return sorted({c.item for c in self.cards if c.effects and c.effects[0].verb != "reminder"})

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, StarState)
        return view.outlook(state, player)

    def action_value(self, state: State, action: Any, player: int) -> float:
        assert isinstance(state, StarState)
        return view.action_value(state, action, player)

    def playout_action_value(self, state: State, action: Any, player: int) -> float:
        assert isinstance(state, StarState)
        return view.playout_action_value(state, action, player)

    def playout_value(self, state: State) -> list[float]:
        assert isinstance(state, StarState)
        return view.turn_values(state)
