"""Agents choose among legal actions: `random` (uniform) and `greedy` (one-step look-ahead on the game's heuristic).

An agent's randomness comes from its own generator, seeded from the game's seed and its seat, so games replay
exactly and do not depend on how many processes ran them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from cardgen.engine.core import GameEngine, State, derive_seed


class Agent(ABC):
    """Picks one of the legal actions."""

    name = "agent"

    def __init__(self, engine: GameEngine, seat: int, seed: int):
        self.engine = engine
        self.seat = seat
        self.rng = random.Random(derive_seed(seed, "agent", seat))

    @abstractmethod
    def choose(self, state: State, legal: list[int]) -> int:
        """One of `legal` for the current state."""


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, state: State, legal: list[int]) -> int:
        # random() * n is uniform enough over a handful of actions and several times cheaper than randrange
        return legal[0] if len(legal) == 1 else legal[int(self.rng.random() * len(legal))]


class GreedyAgent(Agent):
    """Keeps the action the game values best for its seat (`GameEngine.action_value`; ties broken at random)."""

    name = "greedy"

    def choose(self, state: State, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        best: list[int] = []
        best_value = float("-inf")
        for action in legal:
            value = self.engine.action_value(state, action, self.seat)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]


AGENTS: dict[str, Callable[[GameEngine, int, int], Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}
