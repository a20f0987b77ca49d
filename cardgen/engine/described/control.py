"""The steps that hold steps: `if`, `for`, `repeat`, `while`, and `call`, `effects`, `end` — each as a `Step` object the
block runner calls when it may wait for a player, and as code written into its block's function (`inline`,
`loop`), or as plain lines of code when nothing inside it ever waits."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardgen.engine.described.compiler import Scope
from cardgen.engine.described.steps import (
    COMPILERS,
    COMPOUND,
    MOST_NESTED,
    Lines,
    Path,
    Step,
    StepCompiler,
    StepProblem,
    block_lines,
    indent,
    kind,
    may_wait,
    suspended,
    tick,
)
from cardgen.engine.described.syntax import SyntaxProblem
from cardgen.errors import clipped, did_you_mean

if TYPE_CHECKING:
    from cardgen.engine.described.state import DescribedState

kind("if", "do `then` when the condition holds, else `else`", "- if: coins >= 3\n  then: [...]\n  else: [...]",
     then="the steps when it holds", else_="the steps when it does not (optional)")  # fmt: skip
kind("for", "do the steps once for each item of a list (the list is taken when the loop starts)",
     "- for: card in hand if card.cost > 2\n  do: [...]", do="the steps")  # fmt: skip
kind("repeat", "do the steps a number of times", "- repeat: 3\n  do: [{draw: deck}]", do="the steps")
kind("while", "do the steps again and again while the condition holds", "- while: count(hand) < 5\n  do: [...]",
     do="the steps")  # fmt: skip
kind("call", "run a procedure (`procedures:`), giving its parameters", "- call: form\n  with: {p: 0, c: 2}",
     waits=True, with_="the procedure's parameters")  # fmt: skip
kind("effects", "carry out a card's effects, or those of every card of a list in order (their statements with "
     "this trigger, or without one)",
     "- effects: card\n  trigger: play", waits=True,
     trigger="which statements (the default: those without a trigger)",
     player="whose effects they are (the default: player, else the card's owner)")  # fmt: skip
kind("end", "end the game now: the text is the ending the log and the summary show", "- end: '{winner} wins'",
     waits=True)  # fmt: skip


def _if(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step | Lines:
    base, where = path[:-1], steps.where(path)
    if not may_wait(item.get("then")) and not may_wait(item.get("else")):
        test = steps.code(item["if"], scope, path).text
        yes = steps.lines(item.get("then"), scope.child(), (*base, "then"))
        no = steps.lines(item.get("else"), scope.child(), (*base, "else"))
        found: Lines = [(f"if {test}:", where), *block_lines(yes, where)]
        if no:
            found += [("else:", where), *indent(no)]
        return found
    test = steps.code(item["if"], scope, path).text
    test_fn = steps.function_of(test, path)
    then = steps.block(item.get("then"), scope.child(), (*base, "then"))
    otherwise = steps.block(item.get("else"), scope.child(), (*base, "else"))

    def run(s: DescribedState, e: list[Any]) -> None:
        branch = then if test_fn(s, e) else otherwise
        if branch.count:
            s.run_block(branch, 0, e)

    def inline() -> Lines:
        found: Lines = [(f"if {test}:", where)]
        found.append((f"    {steps.unit.ref(then)}.run0(s, e)", where) if then.count else ("    pass", where))
        if otherwise.count:
            found += [("else:", where), (f"    {steps.unit.ref(otherwise)}.run0(s, e)", where)]
        return found

    return Step(run, COMPOUND, where, inline=inline)


def _for(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step | Lines:
    raw, where = item["for"], steps.where(path)
    if not isinstance(raw, str):
        raise StepProblem("for: takes 'name in list' (or 'name in list if condition')", path)
    inner = scope.child()
    plain = not may_wait(item.get("do"))
    try:
        clauses = steps.clauses(raw, inner, python=plain, counted=not plain)
    except SyntaxProblem as exc:
        raise StepProblem(f"{exc} (in '{clipped(raw, 60)}')", path) from None
    if len(clauses) != 1:
        raise StepProblem("for: takes one 'name in list'; put another for: inside do:", path)
    source, local, test = clauses[0]
    if plain:  # one Python loop; every item a step of the budget (those the test leaves out too)
        body = steps.lines(item.get("do"), inner, (*path[:-1], "do"))
        fresh = source == "list(range(s.n))" or re.fullmatch(r"k\d+", source)  # `seats`, a constant: never moved
        over = "range(s.n)" if source == "list(range(s.n))" else source if fresh else f"list({source})"
        found: Lines = [(f"for {local} in {over}:", where), *indent(tick(where))]
        if test is not None:
            return [*found, (f"    if {test}:", where), *indent(body, 2)]
        return [*found, *indent(body)]
    block = steps.block(item.get("do"), inner, (*path[:-1], "do"))
    source_fn = steps.function_of(source, path)
    test_fn = steps.function_of(test, path) if test is not None else None
    slot = int(local)

    def run(s: DescribedState, e: list[Any]) -> None:
        s.each(block, slot, test_fn, list(source_fn(s, e)), 0, e)

    def loop(rest: Callable[[str], Lines]) -> Lines:
        unit = steps.unit
        items, index, mark, body = unit.fresh("i"), unit.fresh("n"), unit.fresh("m"), unit.ref(block)
        waiting = f"('each', {body}, {slot}, {unit.ref(test_fn)}, {items}, {index} + 1, e)"
        step: Lines = [*tick(where), (f"{mark} = len(tasks)", where), (f"{body}.run0(s, e)", where),
                       *suspended(mark, [(f"if {index} + 1 < len({items}):", where),
                                         (f"    tasks.insert({mark}, {waiting})", where), *rest(mark)],
                                  where)]  # fmt: skip
        found: Lines = [(f"{items} = list({source})", where), (f"for {index} in range(len({items})):", where),
                        (f"    e[{slot}] = {items}[{index}]", where)]  # fmt: skip
        if test is not None:
            return [*found, (f"    if {test}:", where), *indent(step, 2)]
        return [*found, *indent(step)]

    return Step(run, COMPOUND, where, loop=loop)


def _repeat(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step | Lines:
    where = steps.where(path)
    if not may_wait(item.get("do")):
        times = steps.code(item["repeat"], scope, path).text
        body = steps.lines(item.get("do"), scope.child(), (*path[:-1], "do"))
        return [(f"for _ in range({times}):", where), *indent(tick(where)), *indent(body)]
    times = steps.code(item["repeat"], scope, path).text
    times_fn = steps.function_of(times, path)
    block = steps.block(item.get("do"), scope.child(), (*path[:-1], "do"))

    def loop(rest: Callable[[str], Lines]) -> Lines:
        unit = steps.unit
        count, index, mark, body = unit.fresh("t"), unit.fresh("n"), unit.fresh("m"), unit.ref(block)
        waiting = f"('repeat', {body}, {count} - {index} - 1, e)"
        step: Lines = [*tick(where), (f"{mark} = len(tasks)", where), (f"{body}.run0(s, e)", where),
                       *suspended(mark, [(f"if {index} + 1 < {count}:", where),
                                         (f"    tasks.insert({mark}, {waiting})", where), *rest(mark)],
                                  where)]  # fmt: skip
        return [(f"{count} = {times}", where), (f"for {index} in range({count}):", where), *indent(step)]

    return Step(lambda s, e: s.repeat(block, times_fn(s, e), e), COMPOUND, where, loop=loop)


def _while(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step | Lines:
    where = steps.where(path)
    if not may_wait(item.get("do")):
        test = steps.code(item["while"], scope, path).text
        body = steps.lines(item.get("do"), scope.child(), (*path[:-1], "do"))
        return [(f"while {test}:", where), *indent(tick(where)), *indent(body)]
    test = steps.code(item["while"], scope, path).text
    test_fn = steps.function_of(test, path)
    block = steps.block(item.get("do"), scope.child(), (*path[:-1], "do"))

    def loop(rest: Callable[[str], Lines]) -> Lines:
        unit = steps.unit
        mark, body = unit.fresh("m"), unit.ref(block)
        waiting = f"('loop', {body}, {unit.ref(test_fn)}, e)"
        step: Lines = [
            *tick(where),
            (f"{mark} = len(tasks)", where),
            (f"{body}.run0(s, e)", where),
            *suspended(mark, [(f"tasks.insert({mark}, {waiting})", where), *rest(mark)], where),
        ]
        return [(f"while {test}:", where), *indent(step)]

    return Step(lambda s, e: s.loop(block, test_fn, e), COMPOUND, where, loop=loop)


def _call(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step:
    name = item["call"]
    procedure = steps.engine.procedures.get(name) if isinstance(name, str) else None
    if procedure is None:
        known = list(steps.engine.procedures)
        listed = f"procedures: {', '.join(known)}" if known else "declare it under procedures:"
        raise StepProblem(f"no procedure '{name}'{did_you_mean(str(name), known)} ({listed})", path)
    given = item.get("with") or {}
    if not isinstance(given, dict):
        raise StepProblem("with: takes the parameters by name: {p: 0, c: 2}", (*path[:-1], "with"))
    missing = [p for p in procedure.params if p not in given]
    extra = [p for p in given if p not in procedure.params]
    if missing or extra:
        wrong = f"missing {', '.join(missing)}" if missing else f"no parameter {', '.join(map(str, extra))}"
        raise StepProblem(f"call {name}: {wrong} (it takes: {', '.join(procedure.params) or 'nothing'})",
                          (*path[:-1], "with"))  # fmt: skip
    codes = {procedure.slots[p]: steps.code(given[p], scope, (*path[:-1], "with", p)).text for p in procedure.params}
    where = steps.where(path)
    name = steps.unit.fresh("c")

    def run(s: DescribedState, e: list[Any]) -> None:
        if s.depth < MOST_NESTED:  # at once while calls nest shallowly (`DescribedState.enter`)
            s.depth += 1
            s.run_block(procedure.block, 0, frame(s, e))
            s.depth -= 1
        else:
            s.tasks.append(("block", procedure.block, 0, frame(s, e)))

    def inline() -> Lines:
        called = steps.unit.ref(procedure)
        items = ", ".join(codes.get(slot, "None") for slot in range(procedure.frame.size))
        return [(f"if s.depth < {MOST_NESTED}:", where), ("    s.depth += 1", where),
                (f"    {called}.block.run0(s, [{items}])", where), ("    s.depth -= 1", where), ("else:", where),
                (f"    tasks.append(('block', {called}.block, 0, [{items}]))", where)]  # fmt: skip

    def frame(s: DescribedState, e: list[Any]) -> list[Any]:
        # the callee's frame is only known once every procedure is compiled: made on the first call, then kept
        nonlocal frame
        size = procedure.frame.size
        items = ", ".join(codes.get(slot, "None") for slot in range(size))
        frame = steps.unit.define(name, [(f"def {name}(s, e):", where), (f"    return [{items}]", where)])
        return frame(s, e)

    return Step(run, COMPOUND, where, inline=inline)


def _effects(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step:
    card = steps.value(item["effects"], scope, path)
    trigger = item.get("trigger")
    if trigger is not None:
        steps.trigger(trigger, path)
    player = steps.seat(item, "player", (*path[:-1], "player"), "player", scope, path)
    if player is None:  # each card's own owner
        owners = steps.engine.cards.owner
        player = lambda s, e: owners.__getitem__  # noqa: E731
    return Step(lambda s, e: s.effects(card(s, e), trigger, player(s, e)), COMPOUND, steps.where(path))


def _end(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step:
    text = steps.text(item["end"], scope, path)  # it waits, in the sense that the steps after it must not run
    return Step(lambda s, e: s.finish(text(s, e)), COMPOUND, steps.where(path))


COMPILERS.update({"if": _if, "for": _for, "repeat": _repeat, "while": _while, "call": _call, "effects": _effects,
                  "end": _end})  # fmt: skip
