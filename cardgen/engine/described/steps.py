"""Steps of a rules file compiled into `Step`s: what a turn, a procedure or a card's verb does, one mapping each.

A block is a list of steps (`- draw: deck` / `- if: … then: […]`); each step is a mapping whose first known key
names its kind (`KINDS`, which `cardgen rules-reference` prints). Steps that never wait for a player (`plain.py`:
`let`, `move`, `draw`…, and `if`, `for`, `repeat`, `while` around only such steps) become lines of generated code,
each run of them one function (`codegen.py`). A step that may wait (`call`, `effects`, `end`, a choice, turns, and
`if`/`for`/… around one) is a `Step` object the state's block runner calls (`state.DescribedState.run_block`): when it
leaves work on the flow's stack, the rest of its block waits under that work; a choice (`choose`, RESUMES) takes the
rest of its block with it and carries on once the player has answered (`choices.py`). So a game's turn runs on the
framework's flow (`engine/flow.py`), its questions are the flow's, and a state in the middle of a turn clones like
any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardgen.engine.described.compiler import Code, Compiler, Fn, Frame, Scope
from cardgen.engine.described.syntax import Node, SyntaxProblem, parse, template
from cardgen.errors import Location, clipped, did_you_mean

if TYPE_CHECKING:
    pass

SIMPLE, COMPOUND, RESUMES = 0, 1, 2
MOST_NESTED = 40  # procedure calls run inline inside each other before the flow's stack takes over
Path = tuple[str | int, ...]
Lines = list[tuple[str, Location]]  # statements of generated code, each with the location of its step


Inline = Callable[[], Lines]  # a compound step's code in its block's function
Loop = Callable[[Callable[[str], Lines]], Lines]  # a loop's code, given how to leave the rest of its block waiting


class Step:
    """One compiled step: its `run`, whether it may wait for a player (`mode`), where the rules file wrote it, and
    its code for its block's function (`lines` of a run of plain steps; `inline` for a compound step written out)."""

    __slots__ = ("inline", "lines", "loop", "mode", "run", "where")

    def __init__(self, run: Callable[..., None], mode: int, where: Location, lines: Lines | None = None,
                 inline: Inline | None = None, loop: Loop | None = None):  # fmt: skip
        self.run, self.mode, self.where, self.lines, self.inline, self.loop = run, mode, where, lines, inline, loop


class Block:
    """A list of steps run in order; `simple` when none of them ever waits. `run0(state, env)` runs it from its
    first step: one generated function per block, its steps written out (`StepCompiler.finish`); `runs` holds each
    step's (mode, run) for a block taken up again in its middle (`DescribedState.run_block`)."""

    __slots__ = ("count", "run0", "runs", "simple", "steps", "where")

    def __init__(self, steps: tuple[Step, ...], where: Location):
        self.steps, self.where = steps, where
        self.runs = tuple((step.mode, step.run) for step in steps)
        self.count = len(steps)
        self.simple = all(step.mode == SIMPLE for step in steps)
        self.run0: Callable[[Any, list[Any]], None] | None = None  # written by `StepCompiler.finish`


class StepProblem(ValueError):
    """A step that cannot be compiled: the message and the path of the key at fault."""

    def __init__(self, message: str, path: Path):
        super().__init__(message)
        self.path = path


@dataclass(frozen=True)
class Kind:
    """A step kind as the reference documents it: its other keys (name → meaning), what it does, an example, and
    whether it may wait for a player (then the steps around it cannot become one run of code)."""

    summary: str
    keys: dict[str, str] = field(default_factory=dict)
    example: str = ""
    waits: bool = False


KINDS: dict[str, Kind] = {}  # every step kind, in the order the reference lists them
# how each kind compiles: name → compile(step_compiler, item, scope, path) → `Lines` (plain) or a `Step`
COMPILERS: dict[str, Callable[[StepCompiler, dict[str, Any], Scope, Path], Step | Lines]] = {}


def kind(name: str, summary: str, example: str, waits: bool = False, **keys: str) -> Kind:
    """Declare a step kind for the reference and for checking a step's keys."""
    KINDS[name] = declared = Kind(summary, {k.rstrip("_"): v for k, v in keys.items()}, example, waits)
    return declared


def may_wait(items: Any) -> bool:
    """Whether steps written so (the raw YAML) may wait for a player: a kind that waits, inside any block."""
    if isinstance(items, list):
        return any(may_wait(item) for item in items)
    if not isinstance(items, dict):
        return False
    if "draw" in items and "trigger" in items:  # the drawn cards' effects may wait
        return True
    for key, value in items.items():
        declared = KINDS.get(key)
        if declared is not None and declared.waits:
            return True
        if key in ("then", "else", "do") and may_wait(value):
            return True
    return False


class StepCompiler:
    """Compiles blocks of steps against the game's names; `problems` collects what cannot be compiled."""

    def __init__(self, compiler: Compiler, where: Callable[[Path], Location], engine: Any):
        self.compiler, self.where, self.engine, self.unit = compiler, where, engine, compiler.unit
        self.problems: list[tuple[str, Path]] = []
        self.blocks: list[Block] = []

    # -- blocks -------------------------------------------------------------------------------------------------------

    def block(self, items: Any, scope: Scope, path: Path) -> Block:
        """A list of steps, each in turn (a step's names are visible to the steps after it); runs of plain steps
        become one function each."""
        steps: list[Step] = []
        pending: Lines = []
        for part in self.parts(items, scope, path):
            if isinstance(part, Step):
                if pending:
                    steps.append(self.function(pending))
                    pending = []
                steps.append(part)
            else:
                pending += part
        if pending:
            steps.append(self.function(pending))
        block = Block(tuple(steps), self.where(path))
        self.blocks.append(block)
        return block

    def parts(self, items: Any, scope: Scope, path: Path) -> list[Step | Lines]:
        if items is None:
            return []
        if not isinstance(items, list):
            self.problems.append(("expected a list of steps ('- step: …')", path))
            return []
        found: list[Step | Lines] = []
        for number, item in enumerate(items):
            try:
                found.append(self.step(item, scope, (*path, number)))
            except StepProblem as exc:
                self.problems.append((str(exc), exc.path))
        return found

    def lines(self, items: Any, scope: Scope, path: Path) -> Lines:
        """The code of steps that never wait (the caller checked with `may_wait`)."""
        found: Lines = []
        for part in self.parts(items, scope, path):
            assert not isinstance(part, Step), "a step that waits among plain steps"
            found += part
        return found

    def function(self, lines: Lines) -> Step:
        """One run of plain steps as one generated function `g(s, e)`."""
        name = self.unit.fresh("g")
        where = lines[0][1]
        run = self.unit.define(name, [(f"def {name}(s, e):", where), *indent(lines)])
        return Step(run, SIMPLE, where, lines=lines)

    def finish(self) -> None:
        """Every block's function, written once every procedure's frame is known (a call builds its frame)."""
        for block in self.blocks:
            block.run0 = self.runner(block)

    def runner(self, block: Block) -> Callable[[Any, list[Any]], None]:
        """A block as one function: plain steps written out, compound ones called or written out, and after each
        compound step, if it left work waiting (a question, tasks on the stack), the rest of the block left under
        that work (`rest`) and a return."""
        name, where, ref = self.unit.fresh("b"), block.where, self.unit.ref(block)
        lines: Lines = [(f"def {name}(s, e):", where), ("    tasks = s.tasks", where)]
        for number, step in enumerate(block.steps):
            last = number + 1 == block.count

            def rest(mark: str, number: int = number, step: Step = step, last: bool = last) -> Lines:
                return [] if last else [(f"tasks.insert({mark}, ('block', {ref}, {number + 1}, e))", step.where)]

            mark = self.unit.fresh("m")
            if step.mode == SIMPLE:
                lines += indent(step.lines or [(f"{self.unit.ref(step.run)}(s, e)", step.where)])
            elif step.mode == RESUMES:
                lines += indent([(f"{self.unit.ref(step.run)}(s, e, {ref}, {number + 1})", step.where),
                                 ("return", step.where)])  # fmt: skip
            elif step.loop is not None:  # a loop leaves itself and the rest of the block waiting
                lines += indent(step.loop(rest))
            else:
                run = step.inline() if step.inline is not None else [(f"{self.unit.ref(step.run)}(s, e)", step.where)]
                if last:
                    lines += indent(run)
                    continue
                lines += indent([(f"{mark} = len(tasks)", step.where), *run,
                                 (f"if s.decision is not None or len(tasks) != {mark} or s.ending is not None:",
                                  step.where),
                                 ("    if s.ending is None:", step.where), *indent(rest(mark), 2),
                                 ("    return", step.where)])  # fmt: skip
        if block.count == 0:
            lines.append(("    pass", where))
        run0: Callable[[Any, list[Any]], None] = self.unit.define(name, lines)
        return run0

    def step(self, item: Any, scope: Scope, path: Path) -> Step | Lines:
        if not isinstance(item, dict) or not item:
            raise StepProblem("a step is a mapping whose first key names it (let:, draw:, if:, choose: …)", path)
        name = next((key for key in item if key in COMPILERS), None)
        if name is None:
            first = str(next(iter(item)))
            hint = did_you_mean(first, list(KINDS))
            raise StepProblem(f"unknown step '{first}'{hint}; steps: {', '.join(KINDS)}", path)
        allowed = {name, *KINDS[name].keys}
        for key in item:
            if key not in allowed:
                takes = ", ".join(sorted(KINDS[name].keys)) or "nothing else"
                hint = did_you_mean(str(key), list(allowed))
                raise StepProblem(f"'{name}' takes no '{key}'{hint} (it takes: {takes})",
                                  (*path, key))  # fmt: skip
        return COMPILERS[name](self, item, scope, (*path, name))

    # -- expressions at a path ----------------------------------------------------------------------------------------

    def code(self, raw: Any, scope: Scope, path: Path) -> Code:
        """A value written in YAML as code: text is an expression, a number or yes/no stands for itself."""
        if not isinstance(raw, str):
            if isinstance(raw, list | dict):
                raise StepProblem("expected an expression, not a list or a mapping", path)
            return self.compiler.constant(raw)
        code: Code = self.compiled(raw, path, lambda node: self.compiler.code(node, scope))
        return code

    def seat(self, spec: dict[str, Any], key: str, key_path: Path, default: str, scope: Scope, path: Path) -> Fn | None:
        """Who a step is for: `spec[key]` where it is written, else the expression `default` where a 'player' is named
        before the step (a turn's, a for:'s), else None (the caller says what that means)."""
        if key in spec:
            return self.value(spec[key], scope, key_path)
        return self.value(default, scope, path) if scope.lookup("player") is not None else None

    def trigger(self, trigger: str, path: Path) -> None:
        """A trigger an effects step names must be one the rules file declares (`effects: triggers:`)."""
        if trigger not in self.engine.triggers:
            known = ", ".join(self.engine.triggers) or "none declared (effects: triggers:)"
            raise StepProblem(f"unknown trigger '{trigger}' (triggers: {known})", (*path[:-1], "trigger"))

    def value(self, raw: Any, scope: Scope, path: Path) -> Fn:
        """A value written in YAML as a function of the state and the locals."""
        code = self.code(raw, scope, path)
        if code.constant:
            value = code.value
            return lambda s, e: value
        fn: Fn = self.unit.expression(code.text, self.where(path))
        return fn

    def zone_code(self, raw: Any, scope: Scope, path: Path) -> str:
        if not isinstance(raw, str):
            raise StepProblem("expected a zone (hand, column[p][c])", path)
        text: str = self.compiled(raw, path, lambda node: self.compiler.zone_code(node, scope))
        return text

    def zone(self, raw: Any, scope: Scope, path: Path) -> Fn:
        fn: Fn = self.unit.expression(self.zone_code(raw, scope, path), self.where(path))
        return fn

    def text_code(self, raw: Any, scope: Scope, path: Path) -> str:
        """A template — text with `{expression}` parts — as code building the text."""
        raw = raw if isinstance(raw, str) else str(raw)
        try:
            parts = template(raw)
            codes = [self.unit.ref(p) if isinstance(p, str) else f"_shown(s, {self.compiler.code(p, scope).text})"
                     for p in parts]  # fmt: skip
        except SyntaxProblem as exc:
            raise StepProblem(f"{exc} (in '{clipped(raw, 60)}', column {exc.column})", path) from None
        if not codes:
            return self.unit.ref("")
        return f"{self.unit.ref('')}.join(({''.join(f'{c}, ' for c in codes)}))"

    def text(self, raw: Any, scope: Scope, path: Path) -> Fn:
        fn: Fn = self.unit.expression(self.text_code(raw, scope, path), self.where(path))
        return fn

    def compiled(self, raw: str, path: Path, how: Callable[[Node], Any]) -> Any:
        try:
            return how(parse(raw))
        except SyntaxProblem as exc:
            raise StepProblem(f"{exc} (in '{clipped(raw, 60)}', column {exc.column}){unbalanced(raw)}", path) from None

    def name(self, raw: Any, scope: Scope, path: Path, card: bool = False) -> int:
        if not isinstance(raw, str) or not raw.isidentifier():
            raise StepProblem(f"expected a name, not {raw!r}", path)
        try:
            return scope.bind(raw, card=card)
        except SyntaxProblem as exc:
            raise StepProblem(str(exc), path) from None

    def clauses(
        self, raw: str, scope: Scope, python: bool, counted: bool = True
    ) -> list[tuple[str, int | str, str | None]]:
        """`x in hand if x.cost > 2 for y in …` as (source code, slot or Python name, test code) clauses, their names
        bound in `scope` (as `env` slots, or as Python locals when the code using them is one function); each
        source's items counted against the item budget (`_visited`) unless the caller counts them itself."""
        prefix = "[0 for "
        try:
            node = parse(prefix + raw + "]")
        except SyntaxProblem as exc:
            raise SyntaxProblem(str(exc), max(1, exc.column - len(prefix))) from None
        if node.kind != "collect":
            raise SyntaxProblem("expected 'name in list'", 1)
        compiled: list[tuple[str, int | str, str | None]] = []
        for name, source, test, column in node.parts[0].parts[1]:
            source_code = self.compiler.code(source, scope)
            where: int | str
            if python:
                where = self.unit.fresh()
                scope.bind_python(name, where, column, card=source_code.cards, number=source_code.numbers)
            else:
                where = scope.bind(name, column, card=source_code.cards, number=source_code.numbers)
            test_code = self.compiler.code(test, scope).text if test is not None else None
            compiled.append((f"_visited(s, {source_code.text})" if counted else source_code.text, where, test_code))
        return compiled

    def function_of(self, code: str, path: Path) -> Fn:
        fn: Fn = self.unit.expression(code, self.where(path))
        return fn


def unbalanced(raw: str) -> str:
    """A hint for an expression cut short: in a YAML {…} mapping or […] list, a comma ends the value."""
    if raw.count("(") > raw.count(")") or raw.count("[") > raw.count("]"):
        return "; a comma inside {…} or […] ends a YAML value there: put the expression in quotes"
    return ""


def indent(lines: Lines, depth: int = 1) -> Lines:
    return [("    " * depth + text, where) for text, where in lines]


def suspended(mark: str, then: Lines, where: Location) -> Lines:
    """After a loop's pass: if it left work waiting, leave the loop and the rest of its block under it, and return."""
    return [(f"if s.decision is not None or len(tasks) != {mark} or s.ending is not None:", where),
            ("    if s.ending is None:", where), *indent(then, 2), ("    return", where)]  # fmt: skip


def tick(where: Location) -> Lines:
    """One more pass of a loop, counted against the step budget (`DescribedState.tick`, written out)."""
    return [("s.spent += 1", where), ("if s.spent > _most_steps:", where), ("    s.too_long()", where)]


def block_lines(lines: Lines, where: Location) -> Lines:
    """A block's body: its lines, or `pass`."""
    return indent(lines) if lines else [("    pass", where)]


@dataclass
class Procedure:
    """A compiled procedure: its parameters' slots, its frame and its steps (compiled after every name is known)."""

    params: list[str]
    frame: Frame
    slots: dict[str, int]
    block: Block = field(default_factory=lambda: Block((), Location("engine.yaml")))


__all__ = ["COMPOUND", "KINDS", "RESUMES", "SIMPLE", "Block", "Procedure", "Step", "StepCompiler", "StepProblem"]
