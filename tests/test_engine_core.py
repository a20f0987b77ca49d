"""The engine core, on a toy game built from the demo data: seeds, clones, legality, agents, runner, logs, replay.

The toy ("high ship"): each player holds a shuffled copy of the demo ship deck; in turn a player reveals one of the two
top cards of their deck; after both played, the higher attack scores a point; after three rounds the higher score
wins. Small, but it has chance (shuffles), choices, hidden order, and a card conservation invariant.
"""

from __future__ import annotations

import json
from enum import Enum

import pytest

from cardgen.data import load_games
from cardgen.engine import registry
from cardgen.engine.agents import GreedyAgent, RandomAgent
from cardgen.engine.core import CHANCE, TERMINAL, GameEngine, IllegalAction, State, derive_seed, fields
from cardgen.engine.flow import PASS as PASS_RESPONSE
from cardgen.engine.flow import Flow
from cardgen.engine.runner import PlaySpec, play_game, play_many, replay, summarise, write_log

from conftest import FIXTURES, REPO, copy_game, run_cli

ROUNDS = 3


class HighShipState(State):
    def __init__(self, engine: HighShip, seed: int, players: int):
        super().__init__(seed)
        self.engine = engine
        self.decks = [list(engine.cards) for _ in range(players)]
        for seat, deck in enumerate(self.decks):
            self.shuffle(deck, f"deck {seat}")
        self.played: list[list[str]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.player = 0
        self.round = 0

    def current_player(self) -> int:
        return TERMINAL if self.round >= ROUNDS else self.player

    def _legal_actions(self) -> list[int]:
        return [0, 1] if len(self.decks[self.player]) >= 2 else [0]

    def _apply(self, action: int) -> None:
        card = self.decks[self.player].pop(action)
        self.played[self.player].append(card)
        self.player += 1
        if self.player == len(self.decks):
            attacks = [self.engine.attack[p[-1]] for p in self.played]
            best = max(attacks)
            if attacks.count(best) == 1:
                self.scores[attacks.index(best)] += 1
                self.applied.add(self.played[attacks.index(best)][-1])
            self.player = 0
            self.round += 1
            self.turns += 1
            if self.round >= ROUNDS:
                self.ending = "rounds played"

    def returns(self) -> list[float]:
        return [float(s) for s in self.scores]

    def clone(self) -> HighShipState:
        other = HighShipState.__new__(HighShipState)
        self._copy_base(other)
        other.engine, other.player, other.round, other.scores = self.engine, self.player, self.round, list(self.scores)
        other.decks, other.played = [list(d) for d in self.decks], [list(p) for p in self.played]
        return other

    def determinize(self, player: int, rng) -> HighShipState:
        """Every deck's order is hidden, the player's own included."""
        copy = self.reseeded(rng)
        for deck in copy.decks:
            rng.shuffle(deck)
        return copy

    def invariant_violations(self) -> list[str]:
        out = []
        for seat in range(len(self.decks)):
            if sorted(self.decks[seat] + self.played[seat]) != sorted(self.engine.cards):
                out.append(f"seat {seat}: cards created or lost")
        return out


class HighShip(GameEngine):
    id = "demo"
    min_players, max_players = 2, 4

    def __init__(self, game):
        ships = game.component("ships")
        self.cards = [item.id for item in ships.items for _ in range(item.count)]
        self.attack = {item.id: item.fields["attack"] for item in ships.items}

    def _new_state(self, players: int, seed: int) -> HighShipState:
        return HighShipState(self, seed, players)

    def heuristic(self, state: State, player: int) -> float:
        return state.returns()[player]

    def abilities(self):
        return sorted(self.attack)


@pytest.fixture(autouse=True)
def toy_engine(monkeypatch):
    monkeypatch.setitem(registry.ENGINES, "demo", HighShip)
    from cardgen.engine import runner

    runner._ENGINES.clear()
    yield
    runner._ENGINES.clear()


@pytest.fixture
def engine() -> HighShip:
    (game,) = load_games(FIXTURES / "card_data")
    return HighShip(game)


def spec(**changes) -> PlaySpec:
    base = dict(
        game_id="demo", data_dir=str(FIXTURES / "card_data"), players=2, root_seed=7, agents=("random",), check=True
    )
    return PlaySpec(**{**base, **changes})


def test_seeds_derive_from_root_and_index_only():
    assert derive_seed(7, 3) == derive_seed(7, 3)
    assert len({derive_seed(7, i) for i in range(1000)}) == 1000
    assert derive_seed(7, 3) != derive_seed(8, 3)


def test_same_seed_same_shuffles_and_chance_log(engine):
    a, b = engine.new_state(2, 11), engine.new_state(2, 11)
    assert a.decks == b.decks and a.chance.events == b.chance.events
    assert engine.new_state(2, 12).decks != a.decks


def test_clone_is_independent_including_the_random_generator(engine):
    state = engine.new_state(2, 5)
    copy = state.clone()
    state.apply(0)
    assert copy.decks != state.decks and copy.played == [[], []]
    twin = copy.clone()  # a clone's generator continues exactly where its original's was
    assert [copy.rng.random() for _ in range(3)] == [twin.rng.random() for _ in range(3)]


def test_illegal_actions_are_rejected_with_a_reason(engine):
    state = engine.new_state(2, 5)
    with pytest.raises(IllegalAction, match="not legal now"):
        state.apply(5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(0)


def test_agents_choose_legal_actions_deterministically(engine):
    state = engine.new_state(2, 5)
    picks = [RandomAgent(engine, 0, 99).choose(state, [0, 1]) for _ in range(3)]
    assert picks == [RandomAgent(engine, 0, 99).choose(state, [0, 1])] * 3
    assert GreedyAgent(engine, 0, 99).choose(state, [0, 1]) in (0, 1)


def test_results_do_not_depend_on_the_number_of_processes():
    one = play_many(spec(), 60, jobs=1)
    two = play_many(spec(), 60, jobs=2, batch=7)
    strip = [(r.index, r.seed, r.scores, r.winners, r.actions) for r in one]
    assert strip == [(r.index, r.seed, r.scores, r.winners, r.actions) for r in two]
    a, b = summarise(spec(), one, 1.0), summarise(spec(), two, 2.0)
    a.pop("actions_per_second"), b.pop("actions_per_second")
    assert a == b
    assert a["games"] == 60 and a["invariant_violations"] == 0


def test_summary_reports_wins_lengths_endings_and_unused_abilities():
    results = play_many(spec(agents=("greedy", "random")), 40)
    summary = summarise(spec(agents=("greedy", "random")), results, 1.0, ["scout", "frigate", "dreadnought", "ghost"])
    assert summary["endings"] == {"rounds played": 40}
    assert summary["length"]["actions"] == {"mean": 6.0, "min": 6, "max": 6}
    assert sum(v for k, v in summary["wins"].items() if k.startswith("seat")) == pytest.approx(40)  # ties share a win
    assert summary["wins"]["agent greedy"] + summary["wins"]["agent random"] == pytest.approx(40)
    assert any("'ghost'" in p and "never applied" in p for p in summary["data_problems"])


def test_log_replays_exactly_and_detects_tampering(tmp_path):
    results = [play_game(spec(log=True), i) for i in range(3)]
    log = tmp_path / "games.jsonl"
    write_log(log, results)
    assert all(ok for _, ok, _ in replay(log, FIXTURES / "card_data"))
    lines = log.read_text().splitlines()
    step = json.loads(lines[1])
    step["chance"] = [["roll", ["tampered", 1]]]
    lines[1] = json.dumps(step)
    log.write_text("\n".join(lines) + "\n")
    outcomes = replay(log, FIXTURES / "card_data")
    assert not outcomes[0][1] and "chance events differ" in outcomes[0][2]


def test_game_longer_than_the_bound_is_a_failure_not_a_hang(monkeypatch):
    monkeypatch.setattr(HighShip, "max_actions", 3)
    result = play_game(spec(), 0)
    assert result.ending == "too long" and result.violations and result.winners == []


def test_play_command_json_and_replay_command(tmp_path):
    log = tmp_path / "log.jsonl"
    args = ["--data-dir", FIXTURES / "card_data", "play", "demo", "--games", "12", "--seed", "3", "--json", "--check"]
    run = run_cli(*args, "--log", log)
    assert run.code == 0, run.err
    summary = json.loads(run.out)
    assert set(summary) >= {"game", "players", "games", "seed", "wins", "length", "endings", "invariant_violations",
                            "data_problems", "actions_per_second"}  # fmt: skip
    again = json.loads(run_cli(*args).out)
    summary.pop("actions_per_second"), again.pop("actions_per_second")
    assert summary == again
    replayed = run_cli("--data-dir", FIXTURES / "card_data", "replay", log)
    assert replayed.code == 0 and replayed.out.count("reproduced") == 12


def test_play_rejects_unknown_agents_and_games(tmp_path):
    run = run_cli("--data-dir", FIXTURES / "card_data", "play", "demo", "--agents", "smart")
    assert run.code == 2 and "unknown agent 'smart'" in run.err
    copy = copy_game("demo", tmp_path, FIXTURES / "card_data")  # the same game under an id no engine plays
    copy.edit("game.yaml", "id: demo", "id: plain")
    copy.folder.rename(copy.data / "plain")
    run = run_cli("--data-dir", copy.data, "play", "plain")
    assert run.code == 2 and "no reference engine for 'plain'" in run.err
    for wrong in ("mcts:0", "greedy:5", "mcts:lots", "mcts:2000000"):
        run = run_cli("--data-dir", FIXTURES / "card_data", "play", "demo", "--agents", f"random,{wrong}")
        assert run.code == 2 and "only mcts takes a budget" in run.err, (wrong, run.err)


def test_play_with_a_search_agent_from_the_command_line(tmp_path):
    log = tmp_path / "mcts.jsonl"
    args = ("--data-dir", FIXTURES / "card_data", "play", "demo", "--agents", "mcts:20,random", "--games", "4")
    run = run_cli(*args, "--json", "--log", log)
    assert run.code == 0, run.err
    summary = json.loads(run.out)
    assert summary["agents"] == ["mcts:20", "random"] and set(summary["wins"]) >= {"agent mcts:20", "agent random"}
    header = json.loads(log.read_text().splitlines()[0])
    assert header["agents"] == ["mcts:20", "random"]
    assert run_cli("--data-dir", FIXTURES / "card_data", "replay", log).code == 0


# --- chance nodes and the search agent, on a dice game --------------------------------------------------------------

GOAL = 12
HOLD, ROLL = 0, 1


class PigState(State):
    """Pig to 12: on your turn roll a die as often as you like, adding the pips to your turn total; a 1 loses the turn
    total, holding banks it. The die is an explicit chance node, so a search sees the odds."""

    perfect_information = True

    def __init__(self, seed: int):
        super().__init__(seed)
        self.banked = [0, 0]
        self.pot = 0
        self.player = 0
        self.rolling = False

    def current_player(self) -> int:
        if max(self.banked) >= GOAL:
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def _legal_actions(self) -> list[int]:
        return [HOLD, ROLL]

    def _apply(self, action: int) -> None:
        if action == ROLL:
            self.rolling = True
            return
        self.banked[self.player] += self.pot
        self.pot, self.player = 0, 1 - self.player
        self.turns += 1

    def is_chance_node(self) -> bool:
        return self.rolling and max(self.banked) < GOAL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(pips, 1 / 6) for pips in range(1, 7)]

    def apply_chance(self, outcome: int) -> None:
        self.rolling = False
        if outcome == 1:
            self.pot, self.player = 0, 1 - self.player
            self.turns += 1
        else:
            self.pot += outcome
            if self.banked[self.player] + self.pot >= GOAL:  # reaching the goal wins at once
                self.banked[self.player] += self.pot
                self.pot = 0

    def returns(self) -> list[float]:
        if max(self.banked) < GOAL:
            return [0.0, 0.0]
        return [1.0, 0.0] if self.banked[0] >= GOAL else [0.0, 1.0]

    def clone(self) -> PigState:
        other = PigState.__new__(PigState)
        self._copy_base(other)
        other.banked, other.pot, other.player, other.rolling = list(self.banked), self.pot, self.player, self.rolling
        return other

    def observation(self, player: int) -> tuple:
        return (player, tuple(self.banked), self.pot, self.player, self.rolling)


class Pig(GameEngine):
    id = "demo"
    min_players = max_players = 2
    max_actions = 2_000

    def __init__(self, game=None):
        pass

    def _new_state(self, players: int, seed: int) -> PigState:
        return PigState(seed)


@pytest.fixture
def pig(monkeypatch):
    monkeypatch.setitem(registry.ENGINES, "demo", Pig)
    from cardgen.engine import runner

    runner._ENGINES.clear()
    yield Pig()
    runner._ENGINES.clear()


def test_a_chance_node_is_resolved_by_the_states_generator_and_logged(pig):
    state = pig.new_state(2, 3)
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    state.apply(ROLL)  # apply resolves the die at once
    assert not state.is_chance_node() and state.chance.events[-1][0] == "chance"
    assert state.chance.events[-1][1] in range(1, 7)
    twin = pig.new_state(2, 3)
    twin.apply(ROLL)
    assert twin.chance.events == state.chance.events  # the same seed rolls the same


def test_a_game_without_chance_nodes_refuses_chance_outcomes(engine):
    state = engine.new_state(2, 5)
    assert not state.is_chance_node()
    with pytest.raises(IllegalAction, match="not a chance node"):
        state.apply_chance(3)
    with pytest.raises(IllegalAction, match="not a chance node"):
        state.chance_outcomes()


def test_games_with_chance_nodes_log_and_replay(pig, tmp_path):
    results = play_many(spec(agents=("random",), log=True), 5)
    path = tmp_path / "pig.jsonl"
    write_log(path, results)
    rolls = [e for r in results for line in r.log for e in line.get("chance", []) if e[0] == "chance"]
    assert rolls and all(1 <= e[1] <= 6 for e in rolls)
    assert all(ok for _, ok, _ in replay(path, FIXTURES / "card_data"))


def test_determinize_never_foresees_the_games_own_draws(engine):
    """A search's copy rolls its own dice: its generator comes from the searcher, not from the game."""
    from cardgen.engine.rng import CounterRng

    state = engine.new_state(2, 5)
    copy = state.determinize(0, CounterRng(1))
    assert copy.rng.state() != state.rng.state()
    assert sorted(copy.decks[1]) == sorted(state.decks[1]) and copy.decks != state.decks  # hidden order redealt
    with pytest.raises(NotImplementedError, match="hidden information but no determinize"):
        State.determinize(state, 0, CounterRng(1))  # the default refuses a game with hidden cards


def test_mcts_beats_random_at_pig_and_finds_the_winning_roll(pig):
    """A game with real decisions (when to stop rolling): 100 iterations a move win most games against random
    from either seat; and with 11 banked of 12 and a pot of 0, rolling (any pip but 1 wins) is preferred."""
    from cardgen.engine.agents import MctsAgent

    first = play_many(spec(agents=("mcts:100", "random")), 30)
    second = play_many(spec(agents=("random", "mcts:100")), 30)
    mcts_wins = sum(r.winners == [0] for r in first) + sum(r.winners == [1] for r in second)
    assert mcts_wins >= 45, mcts_wins  # of 60; random against random is even
    state = pig.new_state(2, 1)
    state.banked = [11, 5]
    assert MctsAgent(pig, 0, 1, 200).choose(state, state.legal_actions()) == ROLL


# --- the task stack and response windows --------------------------------------------------------------------------


class CounterState(Flow, State):
    """A spell is cast; every other player, in turn order, may answer it with a counter from their hand, and a
    counter may itself be countered. A counter that resolves cancels what it answers. Last in, first out."""

    perfect_information = True

    def __init__(self, seed: int, counters: list[int]):
        super().__init__(seed)
        self.n, self.counters = len(counters), list(counters)
        self.cancel: set = set()
        self.resolved: list = []
        self.start_tasks(("cast",))
        self.run()

    def _t_cast(self) -> None:
        self.open_window(("spell", 0), 0, self.n)

    def responses(self, player: int, item) -> list:
        return [("counter", player, item)] if self.counters[player] else []

    def cancelled(self) -> set:
        return self.cancel

    def _resolve(self, item) -> None:
        self.resolved.append(item)
        if item[0] == "counter":
            self.cancel.add(item[2])

    def _legal_actions(self) -> list:
        _kind, player, item = self.decision
        return [PASS_RESPONSE, *self.responses(player, item)]

    def _apply(self, action) -> None:
        player = self.decision[1]
        if action != PASS_RESPONSE:
            self.counters[player] -= 1
        self.answer(player, action, self.n)

    def returns(self) -> list[float]:
        return [1.0 if ("spell", 0) in self.resolved else 0.0] + [0.0] * (self.n - 1)

    def clone(self) -> CounterState:
        other = CounterState.__new__(CounterState)
        self._copy_base(other)
        other.n, other.counters, other.cancel = self.n, list(self.counters), set(self.cancel)
        other.resolved, other.tasks, other.decision = list(self.resolved), list(self.tasks), self.decision
        return other


def test_a_response_window_asks_in_turn_order_and_resolves_last_in_first_out():
    state = CounterState(1, counters=[0, 1, 1])
    spell = ("spell", 0)
    assert state.decision == ("respond", 1, spell)  # player 0 has nothing to answer with: not asked
    state.apply(("counter", 1, spell))
    first = ("counter", 1, spell)
    assert state.decision == ("respond", 2, first)  # the counter opens its own window above the spell's
    twin = state.clone()
    state.apply(("counter", 2, first))  # countering the counter
    assert state.is_terminal()
    assert state.resolved == [("counter", 2, first), spell]  # the last played resolved first; the countered never
    assert state.returns()[0] == 1.0
    twin.apply(PASS_RESPONSE)  # a clone taken mid-window goes on by itself: this time the counter stands,
    assert twin.resolved == [first]  # resolves first, and the spell's window goes on with the next player
    assert twin.decision == ("respond", 2, spell)
    twin.apply(PASS_RESPONSE)
    assert twin.is_terminal() and twin.resolved == [first] and twin.returns()[0] == 0.0  # the spell was cancelled


def test_a_window_with_no_possible_response_closes_at_once():
    state = CounterState(1, counters=[0, 0, 0])
    assert state.is_terminal() and state.resolved == [("spell", 0)]


class CappedPig(Pig):
    """Pig stopped after four turns and judged by the points banked: an adjudicated ending, not a failure."""

    turn_cap = 4

    def adjudicate(self, state: State) -> list[float]:
        banked = state.banked
        if banked[0] == banked[1]:
            return [0.5, 0.5]
        return [1.0, 0.0] if banked[0] > banked[1] else [0.0, 1.0]


def test_a_turn_cap_ends_games_with_an_adjudicated_result_apart_from_failures(monkeypatch, tmp_path):
    monkeypatch.setitem(registry.ENGINES, "demo", CappedPig)
    from cardgen.engine import runner

    runner._ENGINES.clear()
    results = play_many(spec(agents=("random",), log=True), 20)
    endings = {r.ending for r in results}
    assert CappedPig.ADJUDICATED in endings
    capped = [r for r in results if r.ending == CappedPig.ADJUDICATED]
    assert all(r.turns == 4 and not r.violations for r in capped)
    assert all(r.winners == [seat for seat, s in enumerate(r.scores) if s == max(r.scores)] for r in capped)
    summary = summarise(spec(agents=("random",)), results, 1.0)
    assert summary["invariant_violations"] == 0 and summary["endings"][CappedPig.ADJUDICATED] == len(capped)
    path = tmp_path / "capped.jsonl"
    write_log(path, results)
    assert all(ok for _, ok, _ in replay(path, FIXTURES / "card_data"))
    runner._ENGINES.clear()


class RushedPig(Pig):
    """Pig with a designed shortest game of 6 turns: a game the rules end that soon is a rush the data allows."""

    def short_game(self, players: int) -> tuple[int, str] | None:
        return 6, "3 rounds"


def test_games_that_end_by_the_rules_too_soon_are_a_data_problem_with_the_game_to_replay(monkeypatch):
    monkeypatch.setitem(registry.ENGINES, "demo", RushedPig)
    from cardgen.engine import runner

    runner._ENGINES.clear()
    results = play_many(spec(agents=("random",)), 40)
    short = [r for r in results if r.ending != RushedPig.ADJUDICATED and r.turns <= 6]
    assert short and all(r.short == "within 3 rounds" for r in short)
    assert all(not r.short for r in results if r not in short)
    summary = summarise(spec(agents=("random",)), results, 1.0)
    (problem,) = [p for p in summary["data_problems"] if "rush" in p]
    first = short[0]
    assert problem.startswith(f"{len(short)} of 40 games ended by the rules within 3 rounds: a rush the data allows")
    assert f"game {first.index}, {first.turns} turns" in problem and f"--games {first.index + 1}" in problem
    again = play_many(spec(agents=("random",)), first.index + 1)[-1]  # the command it names plays that game again
    assert (again.seed, again.turns, again.scores) == (first.seed, first.turns, first.scores)
    runner._ENGINES.clear()


def test_a_state_knows_it_has_ended_at_the_turn_cap():
    """The contract every engine library documents: a loop over `is_terminal()` ends, at the cap too — the state is
    terminal there, with no legal action, its ending adjudicated and its result the engine's adjudication; a clone
    carries its cap. Star Commander counts its cap in rounds of every player's turn."""
    from cardgen.engine.rng import CounterRng

    engine = CappedPig()
    endings = set()
    for seed in range(30):
        state = engine.new_state(2, seed)
        assert state.turn_cap == 4 and state.clone().turn_cap == 4
        rng = CounterRng(seed)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randbelow(len(legal))])
            steps += 1
            assert steps < 10_000
        endings.add(state.ending)
        if state.ending == engine.ADJUDICATED:
            assert state.turns == 4 and state.legal_actions() == [] and state.clone().is_terminal()
            assert engine.final_scores(state) == engine.adjudicate(state)
    assert engine.ADJUDICATED in endings
    (game,) = load_games(REPO / "card_data", ["star-commander"])
    star = registry.build_engine(game)
    assert star.new_state(3, 1).turn_cap == star.rounds_cap * 3  # type: ignore[attr-defined]


def test_sealed_commitments_stay_hidden_until_all_are_in():
    from cardgen.engine.flow import Sealed
    from cardgen.engine.rng import CounterRng

    bids = Sealed(3)
    bids.commit(0, 4)
    assert bids.waiting() == [1, 2] and not bids.complete
    assert bids.seen_by(1) == ("committed", None, None) and bids.seen_by(0) == (4, None, None)
    other = Sealed(3)
    other.commit(0, 1)
    assert other.seen_by(1) == bids.seen_by(1)  # seat 1 cannot tell a bid of 4 from a bid of 1
    with pytest.raises(ValueError, match="already committed"):
        bids.commit(0, 2)
    dealt = {bids.redealt(1, lambda seat: [0, 1, 2, 3, 4, 5], CounterRng(seed)).choices[0] for seed in range(30)}
    assert len(dealt) > 3 and bids.choices[0] == 4  # redealt copies vary; the real commitment stays
    assert bids.redealt(0, lambda seat: [0], CounterRng(1)).choices == [4, None, None]  # own choice kept
    bids.commit(1, 2), bids.commit(2, 0)
    assert bids.complete and bids.seen_by(1) == (4, 2, 0)  # revealed together
    assert bids.redealt(1, lambda seat: [5], CounterRng(1)).choices == [4, 2, 0]  # nothing hidden once revealed


def test_a_search_budget_in_milliseconds(pig):
    import time

    from cardgen.engine.agents import check_agent, make_agent

    state = pig.new_state(2, 3)
    agent = make_agent("mcts:40ms", pig, 0, 1)
    start = time.perf_counter()
    assert agent.choose(state, state.legal_actions()) in state.legal_actions()
    assert time.perf_counter() - start >= 0.04
    assert check_agent("mcts:250ms") is None
    for wrong in ("mcts:0ms", "mcts:ms", "greedy:5ms", "mcts:5s"):
        assert "only mcts takes a budget" in (check_agent(wrong) or ""), wrong


def test_agents_take_the_seats_in_turn_when_the_spec_rotates():
    from cardgen.engine.runner import seating

    two = spec(agents=("greedy", "random"), rotate=True)
    assert [seating(two, i) for i in range(3)] == [["greedy", "random"], ["random", "greedy"], ["greedy", "random"]]
    three = spec(players=3, agents=("a", "b"), rotate=True)  # the line-up a, b, a moves on a seat a game
    assert [seating(three, i) for i in range(3)] == [["a", "b", "a"], ["b", "a", "a"], ["a", "a", "b"]]
    assert all(seating(spec(players=3, agents=("a", "b")), i) == ["a", "b", "a"] for i in range(3))  # fixed


def test_rotating_one_kind_of_agent_changes_no_game():
    fixed = play_many(spec(), 12)
    turning = play_many(spec(rotate=True), 12)
    assert [(r.seed, r.scores, r.winners, r.actions) for r in fixed] == [
        (r.seed, r.scores, r.winners, r.actions) for r in turning
    ]


def test_an_agent_wins_are_counted_where_it_sat():
    """Rotating, each agent plays every seat; its wins are the games won from whichever seat it had."""
    from cardgen.engine.runner import seating
    from cardgen.engine.tally import tally_of

    mixed = spec(agents=("greedy", "random"), rotate=True)
    results = play_many(mixed, 20)
    tally = tally_of(2, results)
    assert tally.agent_seats == {"greedy": 20, "random": 20}
    for agent in ("greedy", "random"):
        won = sum(
            tally.unit // len(r.winners)
            for r in results
            for seat in r.winners
            if seating(mixed, r.index)[seat] == agent
        )
        assert tally.agent_wins[agent] == won
    assert sum(tally.agent_wins.values()) == sum(tally.wins)
    assert [r.agents for r in results[:2]] == [["greedy", "random"], ["random", "greedy"]]
    summary = summarise(mixed, results, 1.0)
    assert summary["seats"] == "rotate"
    assert summary["wins"]["agent greedy"] == tally.agent_wins["greedy"] / tally.unit


# --- the flow: tasks in modules, idle, later, cancel, and every game on it ---------------------------------------


def _flow_module():
    """A game's module of task functions, as a state class names it in `task_modules`."""
    import types

    from cardgen.engine.flow import task

    module = types.ModuleType("toy_tasks")

    @task
    def _deal(state, player: int) -> None:
        state.log.append(("deal", player))

    @task
    def bid(state, player: int) -> None:
        state.log.append(("bid", player))
        state.ask("bid", player)

    module._deal, module.bid = _deal, bid
    return module


def _toy_state(module):
    class Toy(Flow, State):
        task_modules = (module,)
        perfect_information = True

        def __init__(self) -> None:
            super().__init__(0)
            self.log: list = []
            self.idled = 0
            self.tasks, self.decision = [], None

        def idle(self) -> None:
            self.idled += 1

        def _legal_actions(self) -> list:
            return ["ok"]

        def _apply(self, action) -> None:
            self.answered()
            self.run()

        def returns(self) -> list[float]:
            return [0.0]

        def clone(self):
            other = Toy.__new__(Toy)
            self._copy_base(other)
            other.log, other.idled = list(self.log), self.idled
            other.tasks, other.decision = list(self.tasks), self.decision
            return other

    return Toy


def test_task_functions_in_a_module_run_in_order_and_ask_through_the_flow() -> None:
    Toy = _toy_state(_flow_module())
    s = Toy()
    s.push(("deal", 0), ("bid", 1))
    s.later(("deal", 2))  # after everything already waiting
    s.push(("deal", 3))
    s.run()
    assert s.log == [("deal", 3), ("deal", 0), ("bid", 1)]
    assert s.current_player() == 1 and s.decision == ("bid", 1) and s.idled == 0
    copy = s.clone()  # a question open mid-stack clones with the stack
    s.apply("ok")
    assert s.log[-1] == ("deal", 2) and s.decision is None and s.idled == 1
    assert copy.decision == ("bid", 1) and copy.tasks == [("deal", 2)] and copy.log[-1] == ("bid", 1)
    assert s.current_player() == TERMINAL


def test_two_handlers_for_one_task_are_refused() -> None:
    module = _flow_module()

    class Twice(Flow, State):
        def _t_bid(self, player: int) -> None: ...

    with pytest.raises(TypeError, match="two handlers for task 'bid'"):
        type("Again", (Twice,), {"task_modules": (module,)})


def test_a_cancelled_item_closes_its_window_and_never_resolves() -> None:
    Toy = _toy_state(_flow_module())
    s = Toy()
    s.responses = lambda player, item: ["answer"]  # type: ignore[method-assign]
    s._resolve = lambda item: s.log.append(("resolved", item))  # type: ignore[method-assign]
    s.open_window("spell", 0, 3, seats=(2,))
    s.push(("deal", 1))
    s.run()
    assert s.decision == ("respond", 2, "spell")
    s.answered()
    s.cancel("spell")
    s.run()
    assert ("resolved", "spell") not in s.log and not s.tasks
    s.open_window("spell", 0, 3, seats=())  # nobody asked: it resolves at once
    s.run()
    assert s.log[-1] == ("resolved", "spell")


def test_every_game_runs_on_the_flow_and_none_says_who_acts_itself() -> None:
    """Which player acts is the flow's answer (the open question's player), never a game's own chain of checks."""
    import importlib

    from cardgen.engine.plugin import plugins

    for plugin in plugins().values():
        module, _, name = plugin.engine.partition(":")
        engine = getattr(importlib.import_module(module), name)
        state = importlib.import_module(engine.__module__.rsplit(".", 1)[0] + ".state")
        classes = [c for c in vars(state).values() if isinstance(c, type) and issubclass(c, State) and c is not State]
        assert classes, plugin.id
        for cls in classes:
            assert issubclass(cls, Flow), f"{plugin.id}: {cls.__name__} does not run on the flow"
            owners = [k for k in cls.__mro__ if "current_player" in vars(k)]
            assert owners[0] is Flow, f"{plugin.id}: {owners[0].__name__} says who acts itself"


def test_a_shared_action_is_made_once_and_forgotten_past_the_bound(monkeypatch):
    """`core.shared_action`: the engines' listings share a unit's move actions between states; the same action
    object comes back for the same unit and destination, and past `SHARED_BOUND` units everything is forgotten."""
    from collections import namedtuple

    from cardgen.engine import core

    Move = namedtuple("Move", "uid to")
    made: dict[int, dict[int, tuple[int, int]]] = {}
    first = core.shared_action(made, 7, 3, Move)
    assert first == Move(7, 3) and made[7][3] is first
    monkeypatch.setattr(core, "SHARED_BOUND", 3)
    for unit in range(3):
        core.shared_action(made, unit, 0, Move)
    assert made == {2: {0: Move(2, 0)}}  # units 0 and 1 joined 7; at three units the table was emptied for unit 2


def test_a_piece_is_found_by_its_remembered_place_checked_on_every_use():
    """`core.find_uid`: a piece found by the place remembered for its uid, that place checked against the list each
    time; a list changed under it (a piece removed before it, one appended, the list replaced by hand) is looked
    through again into a new dictionary, so a clone that shares the old one still finds its own pieces."""
    from types import SimpleNamespace

    from cardgen.engine.core import find_uid

    def piece(uid: int) -> SimpleNamespace:
        return SimpleNamespace(uid=uid)

    state = SimpleNamespace(places={}, units=[piece(u) for u in (4, 7, 9)])
    assert find_uid(state, state.units, 9) is state.units[2]
    remembered = state.places
    assert remembered == {4: 0, 7: 1, 9: 2}
    assert find_uid(state, state.units, 7) is state.units[1] and state.places is remembered  # no second look
    clone = SimpleNamespace(places=state.places, units=list(state.units))
    del state.units[0]  # 7 and 9 move up a place: 7's remembered place holds 9 now
    assert find_uid(state, state.units, 7) is state.units[0] and state.places == {7: 0, 9: 1}
    assert remembered == {4: 0, 7: 1, 9: 2}  # replaced, not changed: the clone's places still hold
    assert find_uid(clone, clone.units, 4) is clone.units[0] and clone.places is remembered
    state.units.append(piece(12))
    assert find_uid(state, state.units, 12) is state.units[2]
    assert find_uid(state, state.units, 4) is None  # gone
    state.units = [piece(9)]  # replaced by hand: a stale place holds another uid
    assert find_uid(state, state.units, 9) is state.units[0]
    assert find_uid(state, state.units, 7) is None


MUTABLE = (list, dict, set, bytearray)


def _copied_apart(original: object, clone: object, where: str, depth: int = 2) -> list[str]:
    """Where `clone` holds, `depth` levels down, the same changeable container or record object as `original`."""
    if original is not clone or original is None:
        return []
    if isinstance(original, MUTABLE) or (hasattr(original, "__dict__") and not isinstance(original, (type, Enum))):
        return [where]
    if depth and isinstance(original, tuple):
        return [w for i, item in enumerate(original) for w in _copied_apart(item, clone[i], f"{where}[{i}]", depth - 1)]
    return []


# Fields a clone shares by design: the engine (fixed rules), the legal-action list (never changed in place), the board
# of a game (fixed at its start), what the move listings carry that is replaced and never changed in place (the
# units' places, `core.find_uid`; the units a listing goes through); and lists whose items it shares, each item only
# ever replaced: Scifi Domains' stat tables, Space Empires 4X's technology levels, purchases, hulls built and peeks.
SHARED_BY_DESIGN = {"engine", "_legal", "home", "on", "adj", "towards", "colours", "jumps", "places", "movers", "mine"}
ITEMS_SHARED = {
    "scifi-domains": {"tables"},
    "space-empires-4x": {"tech", "bought", "built_at", "known"},
    "star-commander": {"techs", "peeked"},
}


@pytest.mark.parametrize("game_id", ["battlefield-space", "scifi-domains", "star-commander", "space-empires-4x",
                                     "rift-domination"])  # fmt: skip
def test_a_clone_copies_every_field_that_changes_in_place(game_id):
    """`State._copy_base` copies the instance's dictionary whole, so a field an engine's `clone` forgets would be
    shared silently: every changeable container must be a new one in the clone, one level into lists of them too
    (a player's hand inside the hands), unless it is shared by design. Units (items of `pieces`/`units` lists) are
    held apart by their tokens (`core.owned`), tested by each engine's `check_clone_playouts`."""
    from cardgen.engine.rng import CounterRng

    (game,) = load_games(REPO / "card_data", [game_id])
    engine, rng = registry.build_engine(game), CounterRng(4)
    state = engine.new_state(3 if engine.max_players >= 3 else 2, 9)
    for _ in range(150):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randbelow(len(legal))])
    clone, shared, by_design = state.clone(), [], SHARED_BY_DESIGN | ITEMS_SHARED.get(game_id, set())
    for name, value in fields(state).items():  # a compiled state keeps its own fields apart (`core.fields`)
        theirs = getattr(clone, name)
        if name in SHARED_BY_DESIGN:
            continue
        if value is theirs:
            shared += _copied_apart(value, theirs, name)
        elif name not in by_design and isinstance(value, list) and len(theirs) == len(value):  # hands in the hands
            same = [i for i, item in enumerate(value) if item is theirs[i] and isinstance(item, MUTABLE)]
            shared += [f"{name}[{i}]" for i in same]
    assert shared == [], f"{game_id}: the clone shares {shared}"


def test_a_chance_log_copy_shares_its_events_until_either_records():
    from cardgen.engine.core import ChanceLog

    log = ChanceLog()
    log.record("draw", 1)
    copy = log.copy()
    assert copy.events is log.events and copy == log  # nothing copied yet
    copy.record("roll", 6)
    assert log.events == [("draw", 1)] and copy.events == [("draw", 1), ("roll", 6)]
    later = copy.copy()
    copy.record("roll", 2)  # the log that was copied copies too, before it records
    assert later.events == [("draw", 1), ("roll", 6)] and copy.events[-1] == ("roll", 2)
    log.record("draw", 3)
    assert log.events == [("draw", 1), ("draw", 3)] and later.events[0] == ("draw", 1)
