"""How a turn runs, for every game: a stack of small tasks, the question a player is asked, response windows and
sealed choices.

A game's turn is rarely one function: a battle is a sequence of steps, a card asks its owner where it goes, a
response interrupts the card it answers. `Flow` keeps what is left to do as plain tuples `(name, *arguments)` in the
state (so a state in the middle of a chain clones, pickles and logs like any other), carries them out with the
game's task handlers, and stops when one of them `ask`s a player something. Which player acts is the flow's answer
— the player the open question (`decision`) is put to — so no game writes `current_player` itself. The player's
answer is applied by the game, which then calls `run` to carry on.

Task handlers are the state's `_t_<name>(self, *arguments)` methods, or plain functions in the game's modules
marked `@task` (`def damage(state, cell)`) and named by the state class in `task_modules`; a game splits its turn
over modules this way. When the stack runs dry with no question open, `run` calls `idle`: a game whose turn is a
loop of the same few choices (Rift Domination's build, move and recruit steps) asks there, a game run wholly by tasks
(Battlefield: Space) leaves it empty.

A response window (`open_window`) asks players, one at a time in turn order after the one who acted (or the seats a
game names), whether they answer a played card or effect. A response opens its own window above the one it answers;
the last played resolves first (last in, first out); when everyone has passed on an item, it resolves and the window
below continues with the next player. A cancelled item (`cancelled`) resolves as nothing.

Simultaneous choices (sealed bids, face-down orders) are kept in a `Sealed`: each seat commits in turn, hidden from
the others until all have.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any, ClassVar, TypeVar

from cardgen.engine.core import TERMINAL, State
from cardgen.native import mypyc_attr

PASS = "pass"

F = TypeVar("F", bound=Callable[..., None])


TASKS: dict[int, tuple[Callable[..., None], str]] = {}  # each `task` function (by its id) and its task name


def task(function: F) -> F:
    """Mark a module-level function `name(state, *arguments)` as the handler of task `name` (leading underscores
    dropped) for the state classes that list its module in `task_modules`. Noted in `TASKS`, not on the function:
    a compiled function takes no attributes (`hatch_build.py`)."""
    TASKS[id(function)] = function, function.__name__.lstrip("_")
    return function


@mypyc_attr(allow_interpreted_subclasses=True)
class Flow(State):
    """A `State` whose turns run on the flow. Subclasses define task handlers (`_t_<name>` methods, or
    `@task` functions in `task_modules`), `idle` when the turn itself asks, and, for response windows,
    `responses(player, item)` (the responses a player may make to `item`) and `_resolve(item)`."""

    tasks: list[tuple[Any, ...]]
    decision: tuple[Any, ...] | None  # the open question: (kind, player, *details)
    task_modules: ClassVar[Sequence[ModuleType]] = ()
    _handlers: ClassVar[dict[str, Callable[..., None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        handlers: dict[str, Callable[..., None]] = {}
        for klass in reversed(cls.__mro__):
            handlers.update({n[3:]: f for n, f in vars(klass).items() if n.startswith("_t_") and callable(f)})
        for module in cls.task_modules:
            for function in vars(module).values():
                found = TASKS.get(id(function))
                if found is not None and found[0] is function:
                    name = found[1]
                    if name in handlers:
                        raise TypeError(f"{cls.__name__}: two handlers for task '{name}'")
                    handlers[name] = function
        cls._handlers = handlers

    def _copy_base(self, other: State) -> None:
        """State's fields, and the flow's: the tasks and the open question."""
        super()._copy_base(other)
        assert isinstance(other, Flow)
        other.tasks, other.decision = list(self.tasks), self.decision

    def current_player(self) -> int:
        """The player the open question is put to; TERMINAL when none is open."""
        decision = self.decision
        return TERMINAL if decision is None else int(decision[1])

    def start_tasks(self, *tasks: tuple[Any, ...]) -> None:
        self.tasks, self.decision = [], None
        self.push(*tasks)

    def push(self, *tasks: tuple[Any, ...]) -> None:
        """Tasks to run next, in the order given (the first given runs first)."""
        self.tasks.extend(reversed(tasks))

    def later(self, *tasks: tuple[Any, ...]) -> None:
        """Tasks to run once everything already waiting is done, in the order given."""
        self.tasks[:0] = reversed(tasks)

    def ask(self, kind: str, player: int, *rest: Any) -> None:
        """Stop the stack until `player` answers (`current_player` is then that player)."""
        self.decision = (kind, player, *rest)

    def answered(self) -> tuple[Any, ...]:
        """Close the open question (the game is applying its answer) and return it."""
        decision = self.decision
        assert decision is not None, "no question is open"
        self.decision = None
        return decision

    def run(self) -> None:
        """Carry out tasks until one asks a player something; with none left and no question open, `idle`."""
        tasks, handlers = self.tasks, self._handlers
        while self.decision is None and tasks:
            task = tasks.pop()
            handlers[task[0]](self, *task[1:])
        if self.decision is None:
            self.idle()

    def idle(self) -> None:
        """Called when no task is left and no question is open: ask the player whose turn it is, or nothing (the
        game is over, or a chance node is next)."""

    def ask_again(self) -> None:
        """Drop the open question and carry on from the position as it stands (for a position set up by hand: a
        test, a puzzle)."""
        self.decision = None
        self.run()

    def waiting(self, name: str) -> bool:
        """Whether a task of this name is still to run."""
        return any(t[0] == name for t in self.tasks)

    # -- response windows -----------------------------------------------------------------------------------------

    def open_window(self, item: Any, actor: int, players: int, seats: Iterable[int] | None = None) -> None:
        """Offer a response to `item` to every other player in turn order after `actor` (or to `seats`, in the
        order given); then resolve it."""
        order = [(actor + step) % players for step in range(1, players)] if seats is None else list(seats)
        self.push(("window", item, tuple(order)), ("resolve_item", item))

    def _t_window(self, item: Any, waiting: tuple[int, ...]) -> None:
        if not waiting:
            return
        player, rest = waiting[0], waiting[1:]
        if not self.responses(player, item):
            self.push(("window", item, rest))
            return
        self.tasks.append(("window", item, rest))  # the players still to be asked, after this one answers
        self.ask("respond", player, item)

    def answer(self, player: int, response: Any, players: int, seats: Iterable[int] | None = None) -> None:
        """Apply a `respond` decision: PASS, or a response that goes above the item it answers (offered to every
        other player after `player`, or to `seats`)."""
        self.decision = None
        if response != PASS:
            self.open_window(response, player, players, seats)
        self.run()

    def cancel(self, item: Any) -> None:
        """`item`, waiting on the stack, resolves as nothing: its window closes and it is not resolved."""
        self.tasks[:] = [t for t in self.tasks if not (t[0] in ("window", "resolve_item") and t[1] == item)]

    def _t_resolve_item(self, item: Any) -> None:
        if item in self.cancelled():
            return
        self._resolve(item)

    def cancelled(self) -> set[Any]:
        """Items cancelled while waiting on the stack (a game keeps them in its state)."""
        return set()

    def responses(self, player: int, item: Any) -> list[Any]:
        """The responses `player` may make to `item` (none by default: windows close at once)."""
        return []

    def _resolve(self, item: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} opens response windows but does not resolve items")


class Sealed:
    """Simultaneous choices made one seat at a time (sealed bids, face-down orders): each commitment stays hidden
    from the other players until every seat has committed, then all are revealed together. Keep one in the state;
    `seen_by` goes into observations and `redealt` into determinizations."""

    __slots__ = ("choices",)

    def __init__(self, players: int):
        self.choices: list[Any] = [None] * players

    def commit(self, player: int, choice: Any) -> None:
        if self.choices[player] is not None:
            raise ValueError(f"seat {player} has already committed")
        self.choices[player] = choice

    def waiting(self) -> list[int]:
        """The seats still to commit, in seat order."""
        return [seat for seat, choice in enumerate(self.choices) if choice is None]

    @property
    def complete(self) -> bool:
        return all(choice is not None for choice in self.choices)

    def seen_by(self, player: int) -> tuple[Any, ...]:
        """What `player` knows: everything once complete; before, their own choice and who else has committed."""
        if self.complete:
            return tuple(self.choices)
        return tuple(c if seat == player or c is None else "committed" for seat, c in enumerate(self.choices))

    def redealt(self, player: int, options: Callable[[int], list[Any]], rng: Any) -> Sealed:
        """A copy with the other seats' hidden commitments replaced by random choices from `options(seat)` (for a
        determinization: the player cannot know them)."""
        copy = self.copy()
        if not self.complete:
            for seat, choice in enumerate(self.choices):
                if seat != player and choice is not None:
                    choices = options(seat)
                    copy.choices[seat] = choices[rng.randbelow(len(choices))]
        return copy

    def copy(self) -> Sealed:
        other = Sealed(0)
        other.choices = list(self.choices)
        return other


__all__ = ["PASS", "Flow", "Sealed", "task"]
