"""The engine's small surface, the same for every game (after OpenSpiel's Python games).

- A `GameEngine` holds the rules and the data (immutable, built once from a loaded `Game` and its facts).
- A `State` holds what changes. It clones cheaply (each game writes `clone`, copying its own containers — no
  `deepcopy`), owns its seeded counter-based random generator (`engine/rng.py`: two integers to copy), and records
  every shuffle, draw or roll as a chance event in its log, so a game replays exactly from its log.
- Every state answers: whose turn it is (`current_player`), the legal actions in a deterministic order, `apply`
  (illegal actions are rejected with a reason), whether the game is over, the scores, and its invariants.
- Hidden information: `observation(player)` is what that player may see, and `determinize(player, rng)` a full
  state consistent with it (hidden cards dealt at random); agents that search decide from determinizations only.
- Chance: a game may stop at an explicit chance node (`is_chance_node`, `chance_outcomes` with probabilities,
  `apply_chance`) where a search wants to see the odds, e.g. dice; otherwise the state's generator decides.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardgen.engine.rng import CounterRng

TERMINAL = -1


class IllegalAction(ValueError):
    """An action the current state does not allow; the message says why."""


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived from parts (root seed, game index, seat…): the same parts give the same seed anywhere."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class ChanceLog:
    """The chance events of a game so far: (kind, outcome) pairs, e.g. ("shuffle", "red-deck"), ("draw", "scout")."""

    events: list[tuple[str, Any]] = field(default_factory=list)

    def record(self, kind: str, outcome: Any) -> None:
        self.events.append((kind, outcome))

    def copy(self) -> ChanceLog:
        return ChanceLog(list(self.events))


class State(ABC):
    """What changes during one game. Subclasses keep their fields plain (lists, ints) so `clone` stays cheap."""

    rng: CounterRng
    chance: ChanceLog
    turns: int
    ending: str | None

    def __init__(self, seed: int):
        self.rng = CounterRng(seed)
        self.chance = ChanceLog()
        self.turns = 0
        self.ending = None
        self.problems: list[str] = []
        self.applied: set[str] = set()  # cards whose ability took effect at least once

    # -- the surface every game implements ------------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal actions, in a fixed order (the same state always lists them the same way)."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action (called by `apply` after the legality check)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """The score of each seat (meaningful once the game is over)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (random generator state and chance log included)."""

    def action_label(self, action: int) -> str:
        """A short human-readable name of an action, for logs."""
        return str(action)

    def invariant_violations(self) -> list[str]:
        """Broken invariants (card conservation, limits…); empty when all hold."""
        return []

    # -- shared behaviour -----------------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def apply(self, action: int) -> None:
        """Apply an action, rejecting an illegal one with the reason."""
        if self.is_terminal():
            raise IllegalAction("the game is over")
        legal = self.legal_actions()
        if action not in legal:
            shown = ", ".join(self.action_label(a) for a in legal[:8])
            raise IllegalAction(f"action {self._label(action)} is not legal now (legal: {shown})")
        self._apply(action)

    def _label(self, action: int) -> str:
        """An action's label, or its number when it names nothing in this game (a corrupted log, a wrong index)."""
        try:
            return self.action_label(action)
        except (IndexError, KeyError, ValueError, TypeError):
            return f"#{action} (no such action)"

    def shuffle(self, cards: list, name: str) -> None:
        """Shuffle in place with the state's generator and record the resulting order as a chance event."""
        self.rng.shuffle(cards)
        self.chance.record("shuffle", [name, list(cards)])

    def problem(self, text: str) -> None:
        """A data problem met while playing (a line-up that could not be refilled, a deck drawn out…)."""
        if text not in self.problems:
            self.problems.append(text)

    def _copy_base(self, other: State) -> None:
        """Copy the shared fields into a fresh clone (subclasses call this from `clone`)."""
        other.rng = self.rng.clone()
        other.chance = self.chance.copy()
        other.turns = self.turns
        other.ending = self.ending
        other.problems = list(self.problems)
        other.applied = set(self.applied)


class GameEngine(ABC):
    """The fixed rules and data of one game, read from the same data that gets printed."""

    id: str
    min_players: int
    max_players: int
    max_actions: int = 20_000  # a game longer than this is reported as a failure, never a hang

    @abstractmethod
    def new_state(self, players: int, seed: int) -> State:
        """The starting state for a number of players, with its random generator seeded."""

    def heuristic(self, state: State, player: int) -> float:
        """How good a state looks for a player; higher is better."""
        return state.returns()[player] if state.is_terminal() else 0.0

    def action_value(self, state: State, action: int, player: int) -> float:
        """How good an action looks to the greedy agent. By default: apply it to a clone and ask the heuristic.
        Games with hidden information override this so the agent judges only by what the player can see."""
        trial = state.clone()
        trial._apply(action)
        return self.heuristic(trial, player)

    def abilities(self) -> Sequence[str]:
        """Ids of cards with an ability the engine tracks (for 'ability never applied' reports)."""
        return ()
