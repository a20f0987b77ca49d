"""Agents choose among legal actions: `random` (uniform), `greedy` (one-step look-ahead on the game's heuristic)
and `mcts` (information-set Monte Carlo tree search, `mcts:400` for 400 iterations a decision, `mcts:250ms` for a
quarter of a second a decision: a time budget depends on the machine, so only an iteration budget replays).

An agent's randomness comes from its own generator, seeded from the game's seed and its seat, so games replay
exactly and do not depend on how many processes ran them.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from cardgen.engine.core import Action, GameEngine, State, derive_seed
from cardgen.engine.rng import CounterRng
from cardgen.errors import DataError, clipped, whole_number


class Agent(ABC):
    """Picks one of the legal actions."""

    name = "agent"

    def __init__(self, engine: GameEngine, seat: int, seed: int):
        self.engine = engine
        self.seat = seat
        self.rng = random.Random(derive_seed(seed, "agent", seat))

    @abstractmethod
    def choose(self, state: State, legal: list[Action]) -> Action:
        """One of `legal` for the current state."""


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, state: State, legal: list[Action]) -> Action:
        # random() * n is uniform enough over a handful of actions and several times cheaper than randrange
        return legal[0] if len(legal) == 1 else legal[int(self.rng.random() * len(legal))]


class GreedyAgent(Agent):
    """Keeps the action the game values best for its seat (`GameEngine.action_value`; ties broken at random)."""

    name = "greedy"

    def choose(self, state: State, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        best: list[Action] = []
        best_value = float("-inf")
        for action in legal:
            value = self.engine.action_value(state, action, self.seat)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]


@dataclass
class Node:
    """One node of the search tree: statistics of the move that led here, by the player who made it."""

    player: int = -1
    visits: int = 0
    available: int = 0  # how often the move was legal when its parent was visited (information sets differ)
    reward: float = 0.0
    best: float = -math.inf  # the searching player's best result met below (a planned turn: `search_plan`)
    children: dict[Action, Node] = field(default_factory=dict)
    rank: dict[Action, int] | None = None  # greedy's order of the moves at the root, for progressive widening


class MctsAgent(Agent):
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012): each iteration deals a
    determinization of what the agent cannot see, walks the one tree of its information set choosing moves by UCB
    among those legal in that deal (availability counts instead of parent visits), adds one node, plays on and backs
    up each player's result. It never sees hidden cards or the game's future draws: states come from `determinize`,
    whose generator is the agent's. The move played is the most visited.

    What a game's engine tunes (`GameEngine.search_iterations`, `playout_horizon`, `playout_policy`,
    `search_width`, `search_scores`): the default budget; playouts that stop after a horizon and are scored by the
    game's evaluation (a value function); playouts played by greedy's valuation instead of at random; how a playout
    that reaches the end is scored (the result, or blended with the margin); and progressive widening at the
    root, which considers greedy's best few moves first and one more as the visits grow (Coulom 2007; Chaslot et al.
    2008), so that a small budget refines greedy's choice rather than spreading itself over every move. Values are
    compared after min–max normalisation over the tree (as MuZero does), so a game's evaluation needs no particular
    scale.

    A game whose turn is many decisions of one player can have the search plan that turn (`search_plan`): the tree
    holds only the searching player's own moves up to the one that ends the turn, a leaf is the position there judged
    by `playout_value` (the turn ended and scored, as a horizon of zero does), a node's value is the best plan found
    below it rather than the mean (a plan of one's own moves is the player's to choose: a bad continuation tried
    once says nothing of the move before it), UCB compares those best values, and the move played starts the best
    plan found. What the other players may do then is the value's to foresee."""

    name = "mcts"
    exploration = 0.7  # results lie in [0, 1]: a constant below √2 suits games this noisy

    def __init__(
        self, engine: GameEngine, seat: int, seed: int, iterations: int | None = None, milliseconds: int | None = None
    ):
        super().__init__(engine, seat, seed)
        self.search_rng = CounterRng(derive_seed(seed, "mcts", seat))
        self.iterations = iterations if iterations is not None else engine.search_iterations
        self.seconds = milliseconds / 1000 if milliseconds is not None else None
        self.greedy = engine.playout_policy == "greedy"
        self.width = engine.search_width
        self.plan = engine.search_plan
        self.low, self.high = 0.0, 1.0

    def choose(self, state: State, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if not state.searched():
            return self._played(state, legal, choosing=True)
        root = Node()
        if self.width is not None:  # greedy's order of the moves, judged as greedy judges them
            values = [self.engine.action_value(state, a, self.seat) for a in legal]
            root.rank = {legal[i]: place for place, i in enumerate(sorted(range(len(legal)), key=lambda i: -values[i]))}
        self.low, self.high = math.inf, -math.inf
        if self.seconds is None:
            for _ in range(self.iterations):
                self._iterate(root, state.determinize(self.seat, self.search_rng))
        else:
            deadline = time.perf_counter() + self.seconds
            while root.visits == 0 or time.perf_counter() < deadline:
                self._iterate(root, state.determinize(self.seat, self.search_rng))

        def rank(a: Action) -> tuple[float, int, int]:  # the most visited (planning: the start of the best plan found)
            if a not in root.children:
                return -math.inf, -1, 0
            child = root.children[a]
            return (child.best if self.plan else 0.0), child.visits, -legal.index(a)

        return max(legal, key=rank)

    def _iterate(self, root: Node, game: State) -> None:
        node, path = root, [root]
        while not game.is_terminal():
            actions = game.legal_actions()
            if len(actions) == 1 or not game.searched():  # no choice, or one the search leaves to the game's policy
                game.do(actions[0] if len(actions) == 1 else self._played(game, actions))
                continue
            player = game.current_player()
            if self.plan and player != self.seat:  # the turn ended otherwise (no move ended it): judged here
                break
            if node.rank is not None:
                actions = self._widened(node, actions)
            untried = [a for a in actions if a not in node.children]
            for a in actions:
                if a in node.children:
                    node.children[a].available += 1
            if untried:  # expand one move not tried in this information set, then play on
                action = untried[0] if node.rank is not None else untried[self.search_rng.randbelow(len(untried))]
                child = node.children[action] = Node(player, available=1)
                if not (self.plan and game.ends_turn(action)):  # a plan's end is judged before it (`_rollout`)
                    game.do(action)
                path.append(child)
                break
            action = max(actions, key=lambda a: self._ucb(node.children[a]))
            node = node.children[action]
            path.append(node)
            if self.plan and game.ends_turn(action):
                break
            game.do(action)
        result = self._rollout(game)
        for value in result:
            self.low, self.high = min(self.low, value), max(self.high, value)
        mine = result[self.seat]
        for visited in path:
            visited.visits += 1
            visited.best = max(visited.best, mine)
            if visited.player >= 0:
                visited.reward += result[visited.player]

    def _widened(self, node: Node, actions: list[Action]) -> list[Action]:
        """The moves the root may consider now: greedy's best ⌈width·√(visits + 1)⌉ (a move legal only in other
        deals than the real one comes last)."""
        assert node.rank is not None and self.width is not None
        rank, last = node.rank, len(node.rank)
        allowed = math.ceil(self.width * math.sqrt(node.visits + 1))
        return sorted(actions, key=lambda a: rank.get(a, last))[:allowed]

    def _ucb(self, child: Node) -> float:
        mean = child.best if self.plan else child.reward / child.visits
        spread = self.high - self.low
        if spread > 1e-9:
            mean = (mean - self.low) / spread
        return mean + self.exploration * math.sqrt(math.log(max(child.available, 1)) / child.visits)

    def _rollout(self, game: State) -> list[float]:
        """Play on to the end or the game's horizon — uniformly at random unless the game knows better for some
        decisions (`State.rollout_action`), or by greedy's valuation — and score each seat in [0, 1]."""
        engine = self.engine
        steps, horizon = 0, engine.playout_horizon if engine.playout_horizon is not None else engine.max_actions
        while not game.is_terminal() and steps < horizon:
            actions = game.legal_actions()
            game.do(actions[0] if len(actions) == 1 else self._played(game, actions))
            steps += 1
        if game.is_terminal():  # over by the rules, or adjudicated at the turn cap
            return engine.search_scores(game)
        if engine.playout_horizon is not None:
            return engine.team_returns(engine.playout_value(game))
        return [0.5] * len(game.returns())

    def _played(self, game: State, actions: list[Action], choosing: bool = False) -> Action:
        """A move the search does not search (a playout's, or a decision the game leaves to its policy): greedy's, or
        the game's `rollout_action` (uniformly random unless the game knows better)."""
        if not self.greedy:
            return game.rollout_action(actions, self.search_rng)
        return self._greedy(game, actions, choosing)

    def _greedy(self, game: State, actions: list[Action], real: bool = False) -> Action:
        """Greedy's move: on the real state as the greedy agent judges it, or inside a search on the deal itself
        (`GameEngine.playout_action_value`)."""
        player, engine = game.current_player(), self.engine
        judge = engine.action_value if real else engine.playout_action_value
        best: list[Action] = []
        best_value = -math.inf
        for action in actions:
            value = judge(game, action, player)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif value >= best_value - 1e-12:
                best.append(action)
        return best[0] if len(best) == 1 else best[self.search_rng.randbelow(len(best))]


AGENTS: dict[str, Callable[[GameEngine, int, int], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MctsAgent,
}


def make_agent(spec: str, engine: GameEngine, seat: int, seed: int) -> Agent:
    """An agent from its name, with a budget for search agents: `mcts`, `mcts:400` (iterations a decision) or
    `mcts:250ms` (time a decision)."""
    if (problem := check_agent(spec)) is not None:
        raise DataError(problem)
    name, _, budget = spec.partition(":")
    if budget.endswith("ms"):
        return MctsAgent(engine, seat, seed, milliseconds=int(budget[:-2]))
    return MctsAgent(engine, seat, seed, int(budget)) if budget else AGENTS[name](engine, seat, seed)


def check_agent(spec: str) -> str | None:
    """Why an agent spec is wrong, or None (for the command line's one-line errors)."""
    name, _, budget = spec.partition(":")
    if name not in AGENTS:
        return f"unknown agent '{name}' (agents: {', '.join(AGENTS)}; mcts:N for N iterations a decision)"
    number = budget.removesuffix("ms")
    if budget and (name != "mcts" or not whole_number(number, 1_000_000)):
        return (
            f"agent '{clipped(spec, 40)}': only mcts takes a budget, iterations from 1 to 1,000,000 (mcts:400) or "
            "milliseconds (mcts:250ms)"
        )
    return None
