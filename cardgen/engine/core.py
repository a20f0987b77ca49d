"""The engine's small surface, the same for every game (after OpenSpiel's Python games).

- A `GameEngine` holds the rules and the data (immutable, built once from a loaded `Game` and its facts).
- A `State` holds what changes. It clones cheaply (each game writes `clone`, copying its own containers — no
  `deepcopy`), owns its seeded counter-based random generator (`engine/rng.py`: two integers to copy), and records
  every shuffle, draw or roll as a chance event in its log, so a game replays exactly from its log.
- Every state answers: whose turn it is (`current_player`), the legal actions in a deterministic order (computed
  once per state by the game's `_legal_actions` and cached), `apply` (illegal actions are rejected with the reason
  by `illegal`, which a game may answer without listing every action), whether the game is over, the scores, and its
  invariants. `do` applies an action already known to be legal (agents, searches and the runner use it).
- Actions are small typed values (NamedTuples, ints, strings): hashable, compared by value, and logged by their
  place in the legal list with their label. A compound choice (which units deploy) is a series of single steps
  ending in a "done" action, never one action per subset.
- Players and endings: seats can be eliminated (`eliminate`, `alive`, `next_alive`) and play on around them;
  `GameEngine.teams` groups seats whose results are shared; a one-player game is a game with `min_players = 1`.
- Hidden information: `observation(player)` is what that player may see, and `determinize(player, rng)` a full
  state consistent with it (hidden cards dealt at random); agents that search decide from determinizations only.
- Chance: a game may stop at an explicit chance node (`is_chance_node`, `chance_outcomes` with probabilities,
  `apply_chance`) where a search wants to see the odds, e.g. dice; otherwise the state's generator decides.
"""

from __future__ import annotations

import hashlib
import math
from abc import ABC, ABCMeta, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from cardgen.engine.rng import CounterRng
from cardgen.native import mypyc_attr

A = TypeVar("A")

Action = Any  # a hashable value: the game's own NamedTuples, ints or strings

TERMINAL = -1
ADJUDICATED = "turn cap (adjudicated)"  # the ending of a game stopped at its turn cap
CHANCE = -2  # `current_player` of a state waiting for a chance outcome (a die roll) rather than a player


class IllegalAction(ValueError):
    """An action the current state does not allow; the message says why."""


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived from parts (root seed, game index, seat…): the same parts give the same seed anywhere."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class ChanceLog:
    """The chance events of a game so far: (kind, outcome) pairs, e.g. ("shuffle", "red-deck"), ("draw", "scout").

    A copy shares its events with the log it came from until either records one (copy on write: a search clones its
    state thousands of times a decision, and a late game's log holds hundreds of events). So events are added only
    by `record`, never by changing `events` in place; readers may index, slice and count it."""

    events: list[tuple[str, Any]] = field(default_factory=list)
    _shared: bool = field(default=False, compare=False, repr=False)  # another log may hold `events` too

    def record(self, kind: str, outcome: Any) -> None:
        if self._shared:
            self.events, self._shared = list(self.events), False
        self.events.append((kind, outcome))

    def copy(self) -> ChanceLog:
        self._shared = True
        return ChanceLog(self.events, True)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # (serializable: `__new__` never calls `__init__`)
class State(metaclass=ABCMeta):
    """What changes during one game. Subclasses keep their fields plain (lists, ints) so `clone` stays cheap."""

    rng: CounterRng
    chance: ChanceLog
    perfect_information: ClassVar[bool] = False  # a game whose players see everything but future chance sets this
    turns: int
    ending: str | None

    def __init__(self, seed: int):
        self.rng = CounterRng(seed)
        self.chance = ChanceLog()
        self.turns = 0
        self.turn_cap: int | None = None  # set by `GameEngine.new_state`
        self.ending = None
        self.problems: list[str] = []
        self.applied: set[str] = set()  # cards whose ability took effect at least once
        self.cards_played: set[str] = set()  # cards played or built at least once (games that track it)
        self.first_player: int | None = None  # the seat that took the first turn (games that choose one)
        self.events: set[str] = set()  # what happened at least once ('research:attack'), for `event_problems`
        self.out: dict[int, str] = {}  # eliminated seats and why, in the order they went out
        self._legal: list[Action] | None = None

    # -- the surface every game implements ------------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or TERMINAL."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions, in a fixed order (the same state always lists them the same way)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action (called by `do`; `apply` checks legality first)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """The score of each seat (meaningful once the game is over)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (random generator state and chance log included)."""

    def action_label(self, action: Action) -> str:
        """A short human-readable name of an action, for logs."""
        return str(action)

    def invariant_violations(self) -> list[str]:
        """Broken invariants (card conservation, limits…); empty when all hold."""
        return []

    # -- hidden information ---------------------------------------------------------------------------------------

    def observation(self, player: int) -> Any:
        """Everything `player` may see, as a comparable value: two states that differ only in what the player cannot
        see (the order of a deck, an opponent's hand) give equal observations."""
        raise NotImplementedError(f"{type(self).__name__} does not say what a player sees")

    def determinize(self, player: int, rng: CounterRng) -> State:
        """A full state consistent with `player`'s observation: what the player cannot see is dealt at random from
        what it could be, with `rng` (the searching agent's, never the game's). The copy gets a generator of its own,
        so a search never learns the game's future shuffles. The default serves only games that declare
        `perfect_information`: anywhere else a search would see hidden cards."""
        if not self.perfect_information:
            raise NotImplementedError(f"{type(self).__name__} has hidden information but no determinize")
        return self.reseeded(rng)

    def reseeded(self, rng: CounterRng) -> State:
        """A clone whose generator is drawn from `rng` (a search's copy must not foresee the real game's chance)."""
        copy = self.clone()
        copy.rng = CounterRng(rng.next64())
        copy._legal = None  # a determinization re-deals hidden cards: its legal list is its own
        return copy

    # -- chance nodes ---------------------------------------------------------------------------------------------

    def is_chance_node(self) -> bool:
        """Whether the state waits for a chance outcome (its `current_player` is CHANCE). Most games draw from their
        generator inside `apply` instead; a game exposes a chance node where a search should see the odds."""
        return False

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """The outcomes of the chance node and their probabilities (summing to 1), in a fixed order."""
        raise IllegalAction("not a chance node")

    def apply_chance(self, outcome: Any) -> None:
        """Apply one outcome of the chance node."""
        raise IllegalAction("not a chance node")

    def resolve_chance(self) -> None:
        """Sample chance nodes with the state's own generator until a player (or the end) is to act; each outcome is
        recorded as a chance event, so logs replay."""
        while self.is_chance_node():
            outcome = sample(self.chance_outcomes(), self.rng)
            self.chance.record("chance", outcome)
            self._legal = None
            self.apply_chance(outcome)

    # -- shared behaviour -----------------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Over by the rules, or stopped at the turn cap (`ending` says which)."""
        return self.ending == ADJUDICATED or self.current_player() == TERMINAL

    def legal_actions(self) -> list[Action]:
        """The legal actions of this state, computed once (callers must not change the list); none once it has
        ended."""
        if self._legal is None:
            self._legal = [] if self.ending == ADJUDICATED else self._legal_actions()
        return self._legal

    def illegal(self, action: Action) -> str | None:
        """Why `action` is not legal now, or None when it is. The default looks it up in the legal list; a game
        with many actions may check one directly (the validator must agree with `_legal_actions`)."""
        if self.is_terminal():
            return "the game is over"
        legal = self.legal_actions()
        if action in legal:
            return None
        shown = ", ".join(self.action_label(a) for a in legal[:8])
        return f"action {self._label(action)} is not legal now (legal: {shown})"

    def apply(self, action: Action) -> None:
        """Apply an action, rejecting an illegal one with the reason."""
        if (reason := self.illegal(action)) is not None:
            raise IllegalAction(reason)
        self.do(action)

    def do(self, action: Action, chance: bool = True) -> None:
        """Apply an action known to be legal, then (unless `chance` is False) the chance nodes it leads to."""
        self._legal = None
        self._apply(action)
        if chance:
            self.resolve_chance()
        cap = self.turn_cap
        if cap is not None and self.turns >= cap and self.ending is None and self.current_player() != TERMINAL:
            self.ending = ADJUDICATED  # stopped at the cap: terminal from now on, judged by `adjudicate`
            self._legal = None

    def rollout_action(self, legal: list[Action], rng: CounterRng) -> Action:
        """The move a search's playout makes here: uniformly random by default. A game may play some decisions by a
        fixed sensible policy instead (a battle's bookkeeping choices, say), where random play would drown the value
        of the decisions being searched in noise; it must use only what the player to move can see."""
        return legal[rng.randbelow(len(legal))]

    def ends_turn(self, action: Any) -> bool:
        """Whether `action` ends its player's turn (a search that plans a turn, `GameEngine.search_plan`, judges the
        position before it as the turn ended)."""
        return False

    def searched(self) -> bool:
        """Whether a search agent should search the decision here (True), or play it by `rollout_action` like its
        playouts do. A game turns search off for bookkeeping choices its fixed policy plays well and a search with a
        small budget plays worse (measured: see the game's docstring)."""
        return True

    # -- players ----------------------------------------------------------------------------------------------------

    def eliminate(self, player: int, why: str) -> None:
        """Take a seat out of the game (it gets no more turns); the reason goes into the log's ending."""
        if player not in self.out:
            self.out[player] = why
            self._legal = None

    def alive(self, players: int) -> list[int]:
        """The seats still in the game, in seat order."""
        return [p for p in range(players) if p not in self.out]

    def next_alive(self, after: int, players: int) -> int | None:
        """The next seat still in the game after `after`, in turn order (None when none is left)."""
        for step in range(1, players + 1):
            seat = (after + step) % players
            if seat not in self.out:
                return seat
        return None

    def _label(self, action: Action) -> str:
        """An action's label, or its number when it names nothing in this game (a corrupted log, a wrong index)."""
        try:
            return self.action_label(action)
        except (IndexError, KeyError, ValueError, TypeError):
            return f"#{action} (no such action)"

    def shuffle(self, cards: list[Any], name: str) -> None:
        """Shuffle in place with the state's generator and record the resulting order as a chance event."""
        self.rng.shuffle(cards)
        self.chance.record("shuffle", [name, list(cards)])

    def problem(self, text: str) -> None:
        """A data problem met while playing (a line-up that could not be refilled, a deck drawn out…)."""
        if text not in self.problems:
            self.problems.append(text)

    def _copy_base(self, other: State) -> None:
        """Copy the shared fields into a fresh clone (subclasses call this from `clone`). A Python state's fields come
        along in one copy of the instance's dictionary (fifty attribute stores on a fresh object cost a late game's
        clone 1.5 µs); then each field that changes in place is copied, here and in the subclass's `clone`, which need
        not repeat the fields that are only ever replaced (`test_a_clone_copies_every_field_that_changes_in_place`).
        A state class compiled with mypyc (`cardgen.native`) keeps its fields outside any dictionary: its `clone`
        copies every one of them (`fields` lists them), and these are State's."""
        other.turns, other.turn_cap, other.ending = self.turns, self.turn_cap, self.ending
        other.first_player, other._legal = self.first_player, self._legal  # `_legal` is never changed in place
        if not compiled(type(self)):
            vars(other).update(vars(self))
        other.rng = self.rng.clone()
        other.chance = self.chance.copy()
        other.problems = list(self.problems)
        other.applied = set(self.applied)
        other.cards_played = set(self.cards_played)
        other.events = set(self.events)
        other.out = dict(self.out)


def compiled(cls: type) -> bool:
    """Whether a class was compiled with mypyc (`cardgen.native`): it keeps its own fields outside the instance
    dictionary, and its `clone` must copy each of them."""
    return "__mypyc_attrs__" in cls.__dict__


def fields(state: object) -> dict[str, Any]:
    """Every field of an object: its dictionary's, and those a class compiled with mypyc keeps apart (its
    `__mypyc_attrs__`; a field never set is left out)."""
    found = dict(getattr(state, "__dict__", {}))
    for name in getattr(type(state), "__mypyc_attrs__", ()):
        if name != "__dict__" and hasattr(state, name):
            found[name] = getattr(state, name)
    return found


@mypyc_attr(native_class=False)
class GameEngine(ABC):
    """The fixed rules and data of one game, read from the same data that gets printed."""

    id: str
    min_players: int
    max_players: int
    max_actions: int = 20_000  # a game longer than this is reported as a failure, never a hang
    # A game that may run long by its rules (a scenario's turn limit) is stopped after `turn_cap` turns and judged by
    # `adjudicate`: an ending of its own, reported apart from a game that failed to end (`max_actions`).
    turn_cap: int | None = None
    ADJUDICATED = ADJUDICATED
    # A game whose random playouts rarely end stops a search's playout after this many actions and
    # scores it by `playout_value`; None plays to the end.
    playout_horizon: int | None = None
    # What a search agent does by default (`agents.MctsAgent`): iterations a decision for `mcts` without a budget; the
    # playout policy ("random", or "greedy": each move by `playout_action_value`); progressive widening (None: every
    # move at once; w: a node considers greedy's best ⌈w·√(visits + 1)⌉ moves).
    # `search_plan`: the search plans the searching player's own turn (see `agents.MctsAgent`).
    search_iterations: int = 200
    playout_policy: str = "random"
    search_width: float | None = None
    search_plan: bool = False
    # Processor seconds of one game at the fewest players (two for a game that can be played alone) with every seat
    # played by an agent ("mcts" at its default budget, "greedy", "random"), measured by
    # benchmarks/agent_strength.py: what `cardgen balance` estimates its time from when it chooses its agents.
    game_seconds: ClassVar[Mapping[str, float]] = {}

    def new_state(self, players: int, seed: int) -> State:
        """The starting state for a number of players, with its random generator seeded and its turn cap set (a state
        knows when it has ended: at the cap it is terminal, its ending adjudicated)."""
        state = self._new_state(players, seed)
        state.turn_cap = self.cap_turns(players)
        return state

    @abstractmethod
    def _new_state(self, players: int, seed: int) -> State:
        """The game's own set-up (`new_state` adds the turn cap)."""

    def short_game(self, players: int) -> tuple[int, str] | None:
        """A game that ends by the rules within this many `State.turns` is too short to be the game designed — a rush
        the data allows — and `play` reports it as a data problem with the games to replay: (turns, the same in the
        game's words, e.g. "3 rounds"). None: no such check. The number is a designed fact in rules.yaml
        (`short_game`, in rounds of every player's turn), read by `from_game`."""
        return None

    def cap_turns(self, players: int) -> int | None:
        """The number of `State.turns` after which a game is stopped and adjudicated (None: never)."""
        return self.turn_cap

    def teams(self, players: int) -> list[int] | None:
        """The team of each seat when seats share results (None: every seat plays for itself)."""
        return None

    def final_scores(self, state: State) -> list[float]:
        """A finished (or capped) game's result per seat: adjudicated at a turn cap, shared within teams."""
        scores = self.adjudicate(state) if state.ending == self.ADJUDICATED else state.returns()
        return self.team_returns(scores)

    def team_returns(self, scores: list[float]) -> list[float]:
        """Each seat's result with its team's: every member scores the best result of its team."""
        teams = self.teams(len(scores))
        if teams is None:
            return scores
        best = {team: max(s for s, t in zip(scores, teams, strict=True) if t == team) for team in set(teams)}
        return [best[team] for team in teams]

    def adjudicate(self, state: State) -> list[float]:
        """The result of a game stopped at the turn cap; by default a draw among all seats."""
        seats = len(state.returns())
        return [1.0 / seats] * seats

    def search_scores(self, state: State) -> list[float]:
        """A search playout's result when it reaches the end: `final_scores` by default. A game may blend in how far
        each seat won or lost by, which tells a small search more than a win or a loss alone (values in [0, 1])."""
        return self.final_scores(state)

    def playout_value(self, state: State) -> list[float]:
        """A search playout's result when it stops at `playout_horizon`: each seat's heuristic, squashed into [0, 1]."""
        return [1 / (1 + math.exp(-self.heuristic(state, seat) / 10)) for seat in range(len(state.returns()))]

    def heuristic(self, state: State, player: int) -> float:
        """How good a state looks for a player; higher is better."""
        return state.returns()[player] if state.is_terminal() else 0.0

    def action_value(self, state: State, action: Action, player: int) -> float:
        """How good an action looks to the greedy agent. By default: apply it to a clone and ask the heuristic.
        Games with hidden information override this so the agent judges only by what the player can see."""
        trial = state.clone()
        trial.do(action, chance=False)  # a chance node after it stays open: the agent must not see the roll
        return self.heuristic(trial, player)

    def playout_action_value(self, state: State, action: Action, player: int) -> float:
        """How good an action looks inside a search, where `state` is already one deal of what `player` cannot see
        (a determinization): greedy's valuation by default. A game whose `action_value` deals hidden cards again
        before judging skips that here."""
        return self.action_value(state, action, player)

    def abilities(self) -> Sequence[str]:
        """Ids of cards with an ability the engine tracks (for 'ability never applied' reports)."""
        return ()

    def playable(self) -> Sequence[str]:
        """Ids of cards a player chooses to play or build, when the game tracks it (for 'never played' reports)."""
        return ()

    def item_seat(self, item: str) -> int | None:
        """The seat a card (by item id) always belongs to, in a game that deals each seat its own cards; None where
        cards are shared (a card then counts for the seat whose action it happened in: `loop.Attribution`)."""
        return None

    def event_problems(self, seen: Counter[str], games: int) -> list[str]:
        """Data problems read from the events of many games (`State.events`; `seen` counts the games each event
        happened in): a technology never bought, a limit always binding. None by default."""
        return []

    def data_problems(self) -> Sequence[str]:
        """Problems with the card data found when the engine was built (an ability it cannot execute)."""
        return ()


SHARED_BOUND = 100_000  # entries an engine's memo of shared answers keeps before it forgets them all (a sweep's memory)


def shared_action(made: dict[int, dict[int, A]], unit: int, to: int, make: Callable[[int, int], A]) -> A:
    """The action `make(unit, to)` (a unit's move, say), made once and kept in `made`, by unit and then destination,
    for every state of an engine to share: an action is an immutable value, and listings that made them anew spent a
    tenth or more of their instructions on it (a NamedTuple's `__new__` is Python code). Callers look in `made`
    first and come here for what is not there yet."""
    if len(made) >= SHARED_BOUND:
        made.clear()
    action = made.setdefault(unit, {})[to] = make(unit, to)
    return action


class Held(Protocol):
    """A piece of a state that clones share until one of them changes it (`owned`): a unit, say."""

    held: object

    def copy(self, held: object) -> Any: ...


H = TypeVar("H", bound=Held)


def owned(pieces: list[H], piece: H, token: object) -> H:
    """`piece` (one of the state's `pieces`), the state's own to change: a clone shares its original's pieces and
    both states take new tokens (`object()`), so a piece whose `held` is not the state's `token` may be another
    state's too and is first copied into its place (`piece.copy(token)`). Every change to a piece goes through here;
    a state that has not been cloned since it made a piece changes it in place."""
    if piece.held is token:
        return piece
    mine: H = piece.copy(token)
    for index, other in enumerate(pieces):  # found by identity (a piece may compare equal by value)
        if other is piece:
            pieces[index] = mine
            return mine
    raise ValueError("a piece the state does not have")


def find_uid(state: Any, pieces: Sequence[Any], uid: int) -> Any | None:
    """The piece of `pieces` (a state's list) whose `uid` is `uid`, None when there is none. Found by its place,
    remembered in `state.places` (uid -> place) and checked on every use; a place gone wrong (a piece removed before
    it, or the list changed by hand) remembers every place anew in a new dictionary, so clones may share one. A move
    applied looks its piece up: a scan of a late game's pieces was a tenth of a game with a hundred units."""
    places = state.places
    at = places.get(uid, -1)
    if 0 <= at < len(pieces) and pieces[at].uid == uid:
        return pieces[at]
    state.places = places = {piece.uid: at for at, piece in enumerate(pieces)}
    at = places.get(uid, -1)
    return pieces[at] if at >= 0 else None


def sample(outcomes: Sequence[tuple[Any, float]], rng: CounterRng) -> Any:
    """One outcome drawn by its probability (the last absorbs rounding)."""
    point = rng.random()
    for outcome, probability in outcomes:
        point -= probability
        if point < 0:
            return outcome
    return outcomes[-1][0]


def frozen(value: object) -> object:
    """Nested lists and tuples as nested tuples, so observations compare and hash."""
    return tuple(frozen(v) for v in value) if isinstance(value, list | tuple) else value
