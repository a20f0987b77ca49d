"""The search agent's parts on a toy game: progressive widening at the root refines greedy's choice, playouts played by
greedy's valuation and stopped at a horizon are scored by the game's evaluation, and decisions a game leaves to its
policy are never searched; then the default agent `cardgen balance` chooses, and the strength it reports."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import pytest

from cardgen.balance.agents import choose, estimate, strength_opponents
from cardgen.engine.agents import GreedyAgent, MctsAgent
from cardgen.engine.core import TERMINAL, GameEngine, State

from conftest import run_cli

VALUES = (3, 9, 1, 7, 5, 0, 8, 2, 6, 4)  # what taking each of ten numbers scores


class TakeState(State):
    """Two players take turns taking one of ten numbers' values, six turns in all; the higher total wins."""

    perfect_information = True

    def __init__(self, seed: int):
        super().__init__(seed)
        self.totals = [0, 0]

    def current_player(self) -> int:
        return TERMINAL if self.turns >= 6 else self.turns % 2

    def _legal_actions(self) -> list[int]:
        return list(range(10))

    def _apply(self, action: int) -> None:
        self.totals[self.turns % 2] += VALUES[action]
        self.turns += 1

    def returns(self) -> list[float]:
        a, b = self.totals
        return [1.0, 0.0] if a > b else [0.0, 1.0] if b > a else [0.5, 0.5]

    def clone(self) -> TakeState:
        other = TakeState.__new__(TakeState)
        self._copy_base(other)
        other.totals = list(self.totals)
        return other


class Take(GameEngine):
    id = "take"
    min_players = max_players = 2

    def __init__(self) -> None:
        self.valued = 0  # calls of the valuation searches play by

    def _new_state(self, players: int, seed: int) -> TakeState:
        return TakeState(seed)

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, TakeState)
        return float(state.totals[player] - state.totals[1 - player])

    def playout_action_value(self, state: State, action: int, player: int) -> float:
        self.valued += 1
        return super().playout_action_value(state, action, player)


def test_widening_at_the_root_keeps_a_small_search_to_greedys_best_moves():
    engine = Take()
    state = engine.new_state(2, 1)
    greedy = GreedyAgent(engine, 0, 1).choose(state, state.legal_actions())
    assert greedy == VALUES.index(9)
    engine.search_width = 0.1  # one move until the root has been visited a hundred times
    assert {MctsAgent(engine, 0, seed, 5).choose(state, state.legal_actions()) for seed in range(8)} == {greedy}
    engine.search_width = None  # every move at once: five iterations try five moves, most of them not greedy's
    assert {MctsAgent(engine, 0, seed, 5).choose(state, state.legal_actions()) for seed in range(8)} != {greedy}


def test_playouts_play_greedy_and_stop_at_the_horizon_scored_by_the_evaluation():
    engine = Take()
    state = engine.new_state(2, 1)
    engine.playout_policy, engine.playout_horizon = "greedy", 2
    MctsAgent(engine, 0, 1, 10).choose(state, state.legal_actions())
    assert engine.valued == 10 * 2 * 10  # ten iterations, two playout moves, ten moves valued for each
    engine.valued, engine.playout_policy = 0, "random"
    MctsAgent(engine, 0, 1, 10).choose(state, state.legal_actions())
    assert engine.valued == 0
    assert engine.playout_value(state) == [0.5, 0.5]  # even totals: the evaluation squashed into [0, 1]


def test_a_playout_that_reaches_the_end_is_scored_by_the_games_search_scores():
    class Margin(Take):
        scored = 0

        def search_scores(self, state: State) -> list[float]:
            self.scored += 1
            assert isinstance(state, TakeState) and state.is_terminal()
            return [0.5, 0.5]

    engine = Margin()
    state = engine.new_state(2, 1)
    MctsAgent(engine, 0, 1, 10).choose(state, state.legal_actions())
    assert engine.scored == 10  # random playouts to the end: every iteration's result is the game's to score
    assert Take().search_scores(TakeState(1)) == Take().final_scores(TakeState(1))  # by default, the result itself


class PlanState(State):
    """Player 0's turn is two picks: a first (0 or 1), then a second worth TURN[first][second]; player 1 then picks a
    number that never counts. A second pick worth 10 follows only the first pick 0, whose other second is worth 0."""

    perfect_information = True
    TURN = ((0, 10), (6, 6))

    def __init__(self, seed: int):
        super().__init__(seed)
        self.picks: list[int] = []
        self.total = 0

    def current_player(self) -> int:
        return TERMINAL if len(self.picks) >= 3 else 0 if len(self.picks) < 2 else 1

    def _legal_actions(self) -> list[int]:
        return [0, 1]

    def _apply(self, action: int) -> None:
        if len(self.picks) == 1:
            self.total += self.TURN[self.picks[0]][action]
        self.picks.append(action)
        self.turns += 1

    def returns(self) -> list[float]:
        return [1.0, 0.0] if self.total > 5 else [0.0, 1.0]

    def clone(self) -> PlanState:
        other = PlanState.__new__(PlanState)
        self._copy_base(other)
        other.picks, other.total = list(self.picks), self.total
        return other


class Plan(GameEngine):
    id = "plan"
    min_players = max_players = 2
    playout_horizon = 0  # a leaf is judged where the tree stops, by the evaluation

    def __init__(self) -> None:
        self.judged: list[tuple[int, ...]] = []  # the picks of every position the search judged
        self.ended = 0  # positions judged after player 1's move (the game's end)

    def _new_state(self, players: int, seed: int) -> PlanState:
        return PlanState(seed)

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, PlanState)
        self.judged.append(tuple(state.picks))
        return float(state.total if player == 0 else -state.total)

    def search_scores(self, state: State) -> list[float]:
        self.ended += 1
        return super().search_scores(state)


def test_a_search_that_plans_its_turn_keeps_the_best_plan_and_stops_where_the_turn_ends():
    """Planning (`search_plan`): the tree holds the searching player's own picks only, each leaf the position at the
    end of its turn, and the move played starts the best plan (first 0, then 10), where the mean of its seconds
    (5) is below the other first's (6). Without planning a small search goes by the mean and into player 1's move."""
    engine = Plan()
    engine.search_plan = True
    state = engine.new_state(2, 1)
    assert {MctsAgent(engine, 0, seed, 24).choose(state, [0, 1]) for seed in range(8)} == {0}
    assert {len(picks) for picks in engine.judged} == {1, 2} and engine.ended == 0  # never a move of player 1's
    engine.search_plan, engine.judged = False, []
    assert {MctsAgent(engine, 0, seed, 24).choose(state, [0, 1]) for seed in range(8)} == {1}
    assert engine.ended > 0


class Costed(GameEngine):
    id = "costed"
    min_players, max_players = 2, 4
    game_seconds: ClassVar[Mapping[str, float]] = {"mcts": 100.0, "greedy": 10.0, "random": 0.1}

    def _new_state(self, players: int, seed: int) -> State:
        raise AssertionError("choosing an agent estimates; it never plays")


def test_balance_chooses_the_strongest_agent_its_time_allows():
    engine = Costed()
    # 200 games and 20 strength games against each of greedy and random, on one process whatever --jobs says (the
    # same command plays the same games on any number of processes)
    assert estimate(engine, "mcts", (2,), 200, 20) == pytest.approx(100 * (200 + 20))
    assert estimate(engine, "greedy", (2, 4), 200, 20) == pytest.approx(10 * (200 + 800 + 10))
    slow = choose(engine, (2,), 200, 20, 60)
    assert slow.agent == "greedy" and "mcts would take longer" in slow.why and "60 minutes" in slow.why
    assert choose(engine, (2,), 200, 20, 400).agent == "mcts"
    assert choose(engine, (2,), 10**6, 20, 1).agent == "random"  # the floor: always fits
    unmeasured = choose(Take(), (2,), 10, 0, 60)  # a game with no figures: nothing else is estimated
    assert unmeasured.agent == "random" and "no measured time for mcts or greedy" in unmeasured.why
    assert strength_opponents("mcts") == ("greedy", "random") and strength_opponents("greedy") == ("random",)
    assert strength_opponents("random") == ()


def test_a_balance_report_names_its_agents_and_their_strength(tmp_path: Path):
    out = tmp_path / "out"
    run = run_cli("balance", "scifi-domains", "--games", "4", "--agents", "greedy", "--strength", "6", "--out", out)
    assert run.code == 0, run.err
    report = json.loads((out / "balance.json").read_text())
    (row,) = report["produced"]["strength"]
    assert (row["agent"], row["against"], row["trials"]) == ("greedy", "random", 6) and row["low"] <= row["rate"]
    assert "--strength 6" in report["produced"]["command"]
    assert "greedy against random (2 players): won" in run.out
    html = (out / "balance.html").read_text()
    assert 'id="strength"' in html and "Who played" in html
    assert (out / "strength-greedy-v-random.jsonl").is_file()


def test_a_card_outlier_from_games_mostly_stopped_at_the_turn_cap_says_so():
    """A card's effect on games the turn cap decided is the adjudication's as much as the game's: its outlier line
    says how many games were stopped there when they were most of them."""
    from cardgen.balance.stats import outlier_text, outliers
    from cardgen.engine.tally import Tally

    tally = Tally(2, games=100, wins=[120, 80])
    tally.items["played"]["x"] = [40, 64, 16]  # seat 0 wins 32 of the 40 games with it, 28 of the 60 without
    tally.unended = 90
    (row,) = outliers(tally)
    assert outlier_text(row).endswith("; but 90 of 100 games did not end by the rules (turn cap))")
    tally.unended = 10
    (row,) = outliers(tally)
    assert "turn cap" not in outlier_text(row)
