"""What changes in a game described by a rules file: its zones, values and marks, and the flow of its steps.

Cards are numbers (`layout.Card`); zones are lists of them, values one flat list, marks one flat list (card × mark),
and `place` says which zone each card is in. What is left to do is the flow's stack (`engine/flow.py`): tasks
`("block", block, index, env)` run the steps of a block from `index` with the locals `env`, loops and turns are tasks
of their own, and a choice is the flow's question (`Flow.ask`). A task keeps its `env` as it was left and every
task copies it before running, so a clone shares the stack safely. Between two questions at most
`rules_steps` steps run and the expressions go through at most `rules_items` items (cardgen's limits: `cardgen
limits`): a loop that never ends is a located error, never a hang.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.core import ADJUDICATED
from cardgen.engine.described import choices, hidden, invariants, windows
from cardgen.engine.described.codegen import Overrun
from cardgen.engine.described.layout import Card
from cardgen.engine.described.steps import COMPOUND, MOST_NESTED, SIMPLE, Block, Step
from cardgen.engine.described.table import Table
from cardgen.engine.flow import PASS, Flow
from cardgen.errors import DataError

if TYPE_CHECKING:
    from cardgen.engine.described.compiler import Fn
    from cardgen.engine.described.engine import DescribedEngine

FAILURES = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError, RecursionError)  # Overrun too


def _bound(env: list[Any], slots: list[int], action: tuple[Any, ...]) -> list[Any]:
    for slot, value in zip(slots, action[1:], strict=True):
        env[slot] = value
    return env


class RulesFailure(DataError):
    """A rules file whose steps failed while a game was played (a list indexed past its end, a loop without end)."""


class DescribedState(Table, Flow):
    """One game of a described game. Fields are plain lists, so `clone` copies a few lists."""

    task_modules = (choices,)
    engine: DescribedEngine
    n: int
    zones: list[list[Card]]
    place: list[int]
    values: list[Any]
    marks: list[Any]
    passed: bool
    spent: int
    depth: int
    room: int  # items the expressions may still go through before the next question
    at: Step | None

    def __init__(self, engine: DescribedEngine, players: int, seed: int):
        super().__init__(seed)
        self.engine, self.n = engine, players
        self.perfect_information = engine.perfect_information  # type: ignore[misc]  # (each game's own, in Python)
        self.tasks, self.decision, self.passed, self.spent, self.at = [], None, False, 0, None
        self.depth, self.room = 0, engine.most_items
        self.zones = [[] for _ in range(engine.zone_count)]
        self.zones[engine.box] = list(engine.cards.cards)
        self.place = [engine.box] * len(engine.cards)
        self.marks = list(engine.marks_start) * len(engine.cards)
        self.values = [None] * engine.value_count
        for family, start in engine.value_starts:
            for offset in range(family.size(self.n) if family.per_player else family.size(1)):
                seat = family.seat(offset)
                self.values[family.base + offset] = start(self, seat)

    @classmethod
    def setup(cls, engine: DescribedEngine, players: int, seed: int) -> DescribedState:
        state = cls(engine, players, seed)
        state.turn_cap = engine.cap_turns(players)  # known before the first run: a game that asks nobody stops there
        state.tasks.append(("block", engine.setup, 0, [None] * engine.setup_size))
        state.run()
        return state

    # -- running steps ------------------------------------------------------------------------------------------------

    def run(self) -> None:
        """Carry out tasks until a player is asked something or the game ends (`Flow.run`, with the step budget)."""
        tasks, handlers, most = self.tasks, self._handlers, self.engine.most_steps
        self.spent = self.depth = 0
        self.room = self.engine.most_items
        try:
            while True:
                while self.decision is None and tasks:
                    task = tasks.pop()
                    if task[0] == "block":  # most tasks: the rest of a block
                        self.run_block(task[1], task[2], list(task[3]))
                    else:
                        handlers[task[0]](self, *task[1:])
                    self.spent += 1
                    if self.spent > most:
                        self._too_long(task[1] if task[0] == "block" else None)
                if self.decision is not None or self.ending is not None:
                    return
                if self.turn_cap is not None and self.turns >= self.turn_cap:  # a game that asks nobody stops too
                    self.ending = ADJUDICATED
                    return
                self.idle()  # the next round, in this loop (a round that asks nobody must not recurse)
        except RulesFailure:
            raise
        except FAILURES as exc:
            raise self.failure(exc) from None

    def idle(self) -> None:
        """Nothing left to do and no question open: the next round (`round:`), then its end checks."""
        engine = self.engine
        self.tasks.append(("round_over",))
        self.tasks.append(("block", engine.round, 0, [None] * engine.round_size))

    def failure(self, exc: BaseException, step: Step | None = None) -> RulesFailure:
        """A failure located at the line of the rules file the generated code met it on, else at its step."""
        step = step or self.at
        where = self.engine.unit.where(exc.__traceback__)
        if where is None:
            where = step.where if step is not None else self.engine.where
        if isinstance(exc, Overrun):
            return RulesFailure(f"{where}: {exc}")
        return RulesFailure(f"{where}: while playing: {exc}")

    def _too_long(self, block: Block | None = None) -> None:
        overrun = Overrun(
            f"the rules ran {self.engine.most_steps:,} steps without asking a player anything (a loop that never "
            "ends? raise the limit with --limit rules_steps=N)"
        )
        if block is not None:
            raise RulesFailure(f"{block.where}: {overrun}")
        raise overrun

    def tick(self) -> None:
        """One more pass of a loop (counted against the step budget)."""
        self.spent += 1
        if self.spent > self.engine.most_steps:
            self._too_long()

    def too_long(self) -> None:
        """The step budget spent (generated code counts its loops' passes itself and calls this)."""
        self._too_long()

    def run_block(self, block: Block, index: int, env: list[Any]) -> None:
        """The steps of `block` from `index`, each at once; when a compound step leaves work on the stack or asks a
        player (it waits), the rest of the block waits under that work. A failure is located at the step that met
        it (the innermost block's)."""
        if index == 0 and block.run0 is not None:  # the block's own function (`StepCompiler.runner`)
            block.run0(self, env)
            return
        runs, tasks, count = block.runs, self.tasks, block.count
        try:
            while index < count:
                mode, run = runs[index]
                index += 1
                if mode == SIMPLE:
                    run(self, env)
                    continue
                if mode == COMPOUND:
                    mark = len(tasks)
                    run(self, env)
                    if self.decision is None and len(tasks) == mark and self.ending is None:
                        continue  # it finished at once
                    if index < count and self.ending is None:
                        tasks.insert(mark, ("block", block, index, env))
                else:
                    run(self, env, block, index)
                return
        except FAILURES as exc:
            raise self.failure(exc, block.steps[index - 1]) from None

    def enter(self, block: Block, frame: list[Any]) -> None:
        """A procedure's steps: at once while calls nest shallowly, else from the stack (Python's own stack is not
        for a rules file's recursion)."""
        if self.depth < MOST_NESTED:
            self.depth += 1
            self.run_block(block, 0, frame)
            self.depth -= 1  # (a failure ends the run, and the depth with it: `run` sets it back to 0)
        else:
            self.tasks.append(("block", block, 0, frame))

    def _t_block(self, block: Block, index: int, env: list[Any]) -> None:
        self.run_block(block, index, list(env))

    def each(self, body: Block, slot: int, test: Fn | None, items: list[Any], position: int, env: list[Any]) -> None:
        """A `for` loop from `position`: pass after pass at once; when a pass waits, the loop waits under it."""
        tasks = self.tasks
        while position < len(items):
            env[slot] = items[position]
            position += 1
            if test is None or test(self, env):
                self.spent += 1
                if self.spent > self.engine.most_steps:
                    self._too_long()
                mark = len(tasks)
                self.run_block(body, 0, env)
                if self.decision is not None or len(tasks) != mark:  # the pass waits
                    if position < len(items) and self.ending is None:
                        tasks.insert(mark, ("each", body, slot, test, items, position, env))
                    return

    def _t_each(self, body: Block, slot: int, test: Fn | None, items: list[Any], position: int, env: list[Any]) -> None:
        self.each(body, slot, test, items, position, list(env))

    def repeat(self, body: Block, times: int, env: list[Any]) -> None:
        tasks = self.tasks
        while times > 0:
            times -= 1
            self.tick()
            mark = len(tasks)
            self.run_block(body, 0, env)
            if self.decision is not None or len(tasks) != mark:
                if times > 0 and self.ending is None:
                    tasks.insert(mark, ("repeat", body, times, env))
                return

    def _t_repeat(self, body: Block, times: int, env: list[Any]) -> None:
        self.repeat(body, times, list(env))

    def loop(self, body: Block, test: Fn, env: list[Any]) -> None:
        tasks = self.tasks
        while test(self, env):
            self.tick()
            mark = len(tasks)
            self.run_block(body, 0, env)
            if self.decision is not None or len(tasks) != mark:
                if self.ending is None:
                    tasks.insert(mark, ("loop", body, test, env))
                return

    def _t_loop(self, body: Block, test: Fn, env: list[Any]) -> None:
        self.loop(body, test, list(env))

    def _t_round_over(self) -> None:
        self.check_end("round", None)

    # -- what steps do to the table -----------------------------------------------------------------------------------

    def finish(self, ending: str) -> None:
        """The game ends now, as `ending` says."""
        self.ending = ending
        self.tasks.clear()
        self.decision = None
        self._legal = None

    def check_end(self, after: str, seat: int | None) -> None:
        """The end conditions checked `after` an action, a turn or a round."""
        for when, text, moment in self.engine.endings:
            if moment == after and self.ending is None and when(self, seat):
                self.finish(text(self, seat))

    # -- the engine surface -------------------------------------------------------------------------------------------

    def _legal_actions(self) -> list[Any]:
        decision = self.decision
        if decision is None:
            return []
        if decision[0] == "respond":
            return [*windows.responses(self, decision[1], decision[2]), PASS]
        actions: list[Any] = decision[6]  # a choice's or a commitment's actions, never changed: shared
        return actions

    def _apply(self, action: Any) -> None:
        decision = self.answered()
        kind, player = decision[0], decision[1]
        try:
            if kind == "choose":
                _, _, choice, env, block, index, _ = decision
                choices.take(self, choice, action, env, block, index)
            elif kind == "commit":
                windows.committed(self, decision, action)
            else:
                windows.answered(self, player, decision[2], action)
        except FAILURES as exc:
            raise self.failure(exc) from None
        self.run()
        if self.ending is None and self.engine.checks_actions:
            self.check_end("action", player)

    def action_label(self, action: Any) -> str:
        decision = self.decision
        if decision is None:
            return str(action)
        try:
            if decision[0] == "respond":
                return windows.label(self, decision[1], decision[2], action)
            if decision[0] == "commit":
                simultaneous = decision[2]
                env = list(decision[3])
                env[simultaneous.slot] = decision[1]
                chosen = simultaneous.options[action[0]]
                return str(chosen.label(self, _bound(env, chosen.slots, action)))
            return str(decision[2].label(self, action, decision[3]))
        except FAILURES as exc:
            raise self.failure(exc) from None

    def responses(self, player: int, item: Any) -> list[Any]:
        """The answers a player may give to a window (`Flow`): the window's options for them."""
        return windows.responses(self, player, item)

    def _resolve(self, item: Any) -> None:
        """A window's item, its answers resolved: its steps now (`Flow`)."""
        self.tasks.append(("block", item.block, 0, list(item.env)))

    def returns(self) -> list[float]:
        if self.ending is None:
            return [0.0] * self.n
        return self.engine.results(self)

    def clone(self) -> DescribedState:
        other = DescribedState.__new__(DescribedState)
        self._copy_base(other)  # every field, then those changed in place copied
        other.zones = [list(zone) for zone in self.zones]
        other.place = list(self.place)
        other.values = list(self.values)
        other.marks = list(self.marks)
        other.spent, other.depth = 0, 0
        return other

    def observation(self, player: int) -> Any:
        return hidden.observation(self, player)

    def determinize(self, player: int, rng: Any) -> DescribedState:
        return hidden.determinize(self, player, rng)

    def invariant_violations(self) -> list[str]:
        return invariants.violations(self)
