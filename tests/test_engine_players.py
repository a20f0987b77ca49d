"""Players and endings in the engine core: eliminated seats, teams sharing a result, one-player games.

Two toys. "Skirmish": four fleets in two teams (seats 0 and 2 against 1 and 3), each with three hull points; in turn a
fleet fires at a living enemy fleet (the action is the target's seat); a fleet at zero is eliminated and gets no more
turns; the last team with a fleet wins, and its eliminated members win with it. "Patrol": one player, five turns,
each a safe step (+1) or a risky jump (a die: 1–2 lose 2, else +3); the result is the distance over 15.
"""

from __future__ import annotations

import pytest

from cardgen.engine import registry
from cardgen.engine.agents import MctsAgent, RandomAgent
from cardgen.engine.core import CHANCE, TERMINAL, GameEngine, IllegalAction, State
from cardgen.engine.runner import PlaySpec, play_many, replay, write_log

from conftest import FIXTURES

HULL = 3


class SkirmishState(State):
    perfect_information = True

    def __init__(self, seed: int, players: int):
        super().__init__(seed)
        self.n = players
        self.hull = [HULL] * players
        self.turn = 0

    def team(self, seat: int) -> int:
        return seat % 2

    def current_player(self) -> int:
        return TERMINAL if self.ending else self.turn

    def _legal_actions(self) -> list[int]:
        return [p for p in self.alive(self.n) if self.team(p) != self.team(self.turn)]

    def _apply(self, target: int) -> None:
        self.hull[target] -= 1
        if self.hull[target] == 0:
            self.eliminate(target, f"hull destroyed by seat {self.turn}")
        if len({self.team(p) for p in self.alive(self.n)}) == 1:
            self.ending = f"team {self.team(self.turn)} stands"
            return
        nxt = self.next_alive(self.turn, self.n)
        assert nxt is not None
        self.turn = nxt
        self.turns += 1

    def returns(self) -> list[float]:
        if not self.ending:
            return [0.0] * self.n
        return [1.0 if p in self.alive(self.n) else 0.0 for p in range(self.n)]

    def clone(self) -> SkirmishState:
        other = SkirmishState.__new__(SkirmishState)
        self._copy_base(other)
        other.n, other.hull, other.turn = self.n, list(self.hull), self.turn
        return other

    def observation(self, player: int) -> tuple:
        return (player, tuple(self.hull), self.turn, self.ending)

    def invariant_violations(self) -> list[str]:
        out = [f"seat {p} has {h} hull but is out" for p, h in enumerate(self.hull) if p in self.out and h > 0]
        out += [f"seat {p} is eliminated but acts" for p in self.out if p == self.turn and not self.ending]
        return out


class Skirmish(GameEngine):
    id = "demo"
    min_players, max_players = 2, 4

    def __init__(self, game=None):
        pass

    def _new_state(self, players: int, seed: int) -> SkirmishState:
        return SkirmishState(seed, players)

    def teams(self, players: int) -> list[int]:
        return [seat % 2 for seat in range(players)]


SAFE, JUMP = "step", "jump"


class PatrolState(State):
    perfect_information = True

    def __init__(self, seed: int):
        super().__init__(seed)
        self.distance = 0
        self.rolling = False

    def current_player(self) -> int:
        if self.turns >= 5:
            return TERMINAL
        return CHANCE if self.rolling else 0

    def _legal_actions(self) -> list[str]:
        return [SAFE, JUMP]

    def _apply(self, action: str) -> None:
        if action == JUMP:
            self.rolling = True
            return
        self.distance += 1
        self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        if self.turns >= 5:
            self.ending = "patrol over"

    def is_chance_node(self) -> bool:
        return self.rolling

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(face, 1 / 6) for face in range(1, 7)]

    def apply_chance(self, face: int) -> None:
        self.distance += -2 if face <= 2 else 3
        self.rolling = False
        self._end_turn()

    def returns(self) -> list[float]:
        return [max(0.0, self.distance / 15)]

    def clone(self) -> PatrolState:
        other = PatrolState.__new__(PatrolState)
        self._copy_base(other)
        other.distance, other.rolling = self.distance, self.rolling
        return other


class Patrol(GameEngine):
    """A one-player engine (the runner builds engines from a game's data; this one needs none)."""

    id, min_players, max_players = "demo", 1, 1

    def __init__(self, game=None):
        self.game = game

    def _new_state(self, players: int, seed: int) -> PatrolState:
        return PatrolState(seed)


@pytest.fixture
def registered(monkeypatch):
    from cardgen.engine import runner

    def use(engine: type[GameEngine]) -> None:
        monkeypatch.setitem(registry.ENGINES, "demo", engine)
        runner._ENGINES.clear()

    yield use
    runner._ENGINES.clear()


def spec(players: int, **changes) -> PlaySpec:
    base = dict(game_id="demo", data_dir=str(FIXTURES / "card_data"), players=players, root_seed=3,
                agents=("random",), check=True)  # fmt: skip
    return PlaySpec(**{**base, **changes})


def test_an_eliminated_seat_gets_no_more_turns_and_cannot_be_targeted():
    state = Skirmish().new_state(4, 1)
    for _ in range(HULL):
        state.apply(1)  # seat 0 fires at seat 1 three times (turns pass 0 → 1 → 2 → 3 → 0 …)
        while state.current_player() != 0:
            state.apply(state.legal_actions()[-1])  # the others fire at seat 3 or seat 2
    assert 1 in state.out and state.out[1] == "hull destroyed by seat 0"
    assert 1 not in state.legal_actions()
    with pytest.raises(IllegalAction, match="not legal"):
        state.apply(1)
    turns_taken = []
    while not state.is_terminal():
        turns_taken.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert 1 not in turns_taken and not state.invariant_violations()


def test_teams_share_a_result_and_eliminated_members_win_with_their_team(registered, tmp_path):
    registered(Skirmish)
    results = play_many(spec(4, log=True), 40)
    assert all(not r.violations for r in results)
    for r in results:
        assert r.scores[0] == r.scores[2] and r.scores[1] == r.scores[3] and r.scores[0] != r.scores[1]
        assert r.winners in ([0, 2], [1, 3])
    # in some games a winning team lost a member on the way: that member still scores 1
    engine = Skirmish()
    survivors = []
    for r in results:
        state = engine.new_state(4, r.seed)
        rng = RandomAgent(engine, 0, r.seed)
        while not state.is_terminal():
            state.apply(rng.choose(state, state.legal_actions()))
        survivors.append(sum(state.returns()) < sum(engine.final_scores(state)))
    assert any(survivors)
    path = tmp_path / "skirmish.jsonl"
    write_log(path, results)
    assert all(ok for _, ok, _ in replay(path, FIXTURES / "card_data"))


def test_search_plays_for_its_team():
    engine = Skirmish()
    state = engine.new_state(4, 5)
    state.hull = [3, 1, 3, 3]  # seat 1 is one shot from elimination: finishing it is the team's best move
    assert MctsAgent(engine, 0, 9, 300).choose(state, state.legal_actions()) == 1


def test_a_one_player_game_runs_replays_and_searches(registered, tmp_path):
    registered(Patrol)
    results = play_many(spec(1, agents=("random",), log=True), 30)
    assert all(len(r.scores) == 1 and r.ending == "patrol over" and not r.violations for r in results)
    path = tmp_path / "patrol.jsonl"
    write_log(path, results)
    assert all(ok for _, ok, _ in replay(path, FIXTURES / "card_data"))
    searched = play_many(spec(1, agents=("mcts:200",)), 30)
    mean = sum(r.scores[0] for r in searched) / 30
    assert mean > sum(r.scores[0] for r in results) / 30  # jumping is worth 4/3 a turn against 1: search jumps
