"""The framework's other two ways of deciding, as steps: simultaneous choices and response windows.

`simultaneous:` — every seat chooses among the options (as `choose:` lists them, `player` naming the seat), one after
the other, each choice hidden from the others until all are in (the flow's `Sealed`); then each seat's choice is
carried out in seat order. `window:` — before something happens (`then:`), each other player in turn order after
`player` may answer it with one of the options (`responder` naming them: reveal a card with an `attacked:` effect)
or pass; an answer resolves before what it answers, last in first out, on the flow's response windows
(`Flow.open_window`), and a player with nothing to answer with is not asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardgen.engine.described.choices import CHOOSE_KEYS, Option, option
from cardgen.engine.described.compiler import Fn, Scope
from cardgen.engine.described.steps import COMPILERS, Block, Path, Step, StepCompiler, StepProblem, kind
from cardgen.engine.flow import PASS, Sealed

if TYPE_CHECKING:
    from cardgen.engine.described.state import DescribedState

kind("simultaneous", "every seat chooses among the options, hidden from the others until all have; then each "
     "seat's choice is carried out, in seat order", "- simultaneous:\n    options:\n      - label: bid {n}\n"
     "        for: n in range(coins + 1)\n        do: [{set: {bid: n}}]", waits=True,
     )  # fmt: skip
kind("window", "before `then:` happens, each other player in turn order may answer it with one of the options "
     "(`responder` names them) or pass; answers resolve first, the last first",
     "- window:\n    options:\n      - label: reveal {card.id}\n        for: card in hand[responder] if "
     "has(card, 'attacked')\n        do: [{set: {shielded[responder]: true}}]\n    then: [...]",
     waits=True)  # fmt: skip

SIMULTANEOUS_KEYS = {"players": "the seats that choose (the default: every seat still playing)",
                     "options": CHOOSE_KEYS["options"], "single": CHOOSE_KEYS["single"]}  # fmt: skip
WINDOW_KEYS = {"players": "who may answer, in order (the default: others(player))",
               "as": "the name of the player answering (the default: responder)", "options": "the answers",
               "then": "what happens once every answer has resolved"}  # fmt: skip


class Pending:
    """Something waiting on the flow's stack for its window to close: a window's `then`, or an answer to one."""

    __slots__ = ("block", "env", "what")

    def __init__(self, what: Any, block: Block, env: list[Any]):
        self.what, self.block, self.env = what, block, env

    def relabelled(self, mask: Any) -> Pending:
        return Pending(self.what, self.block, mask(self.env))


@dataclass
class Simultaneous:
    """A compiled `simultaneous`: the seats, the slot of `player`, the options and one listing of their actions."""

    seats: Fn
    slot: int
    options: list[Option]
    actions: Fn
    single_ask: bool

    def listing(self, s: DescribedState, env: list[Any], seat: int) -> list[Any]:
        own = list(env)
        own[self.slot] = seat
        found: list[Any] = self.actions(s, own)
        return found


@dataclass
class Window:
    """A compiled `window`: who may answer, the slot of the one asked, the answers and what they answer."""

    players: Fn
    slot: int
    options: list[Option]
    actions: Fn
    then: Block


def _options(steps: StepCompiler, raw: Any, scope: Scope, path: Path) -> tuple[list[Option], Fn]:
    if not isinstance(raw, list) or not raw:
        raise StepProblem("options: is a list of options", path)
    found, listing = [], []
    for number, entry in enumerate(raw):
        compiled, candidates = option(steps, entry, scope.child(), (*path, number), number)
        found.append(compiled)
        listing.append(candidates)
    return found, steps.function_of(" + ".join(listing), path)


def _keys(spec: Any, allowed: dict[str, str], what: str, path: Path) -> dict[str, Any]:
    if not isinstance(spec, dict):
        raise StepProblem(f"{what}: takes a mapping ({', '.join(allowed)})", path)
    for key in spec:
        if key not in allowed:
            raise StepProblem(f"{what}: takes no '{key}' (it takes: {', '.join(allowed)})", (*path, key))
    if "options" not in spec:
        raise StepProblem(f"{what}: needs options:", path)
    return spec


def compile_simultaneous(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step:
    spec = _keys(item["simultaneous"], SIMULTANEOUS_KEYS, "simultaneous", path)
    seats = steps.value(spec.get("players", "[q for q in seats if not out(q)]"), scope, (*path, "players"))
    inner = scope.child()
    slot = steps.name("player", inner, path)
    options, actions = _options(steps, spec["options"], inner, (*path, "options"))
    single = spec.get("single", "take")
    if single not in ("ask", "take"):
        raise StepProblem("single: is ask or take", (*path, "single"))
    simultaneous = Simultaneous(seats, slot, options, actions, single == "ask")
    steps.engine.sealed = True
    return Step(lambda s, e, block, index: commit_next(s, simultaneous, e, block, index, list(simultaneous.seats(s, e)),
                                                      Sealed(s.n)), 2, steps.where(path))  # fmt: skip


def commit_next(s: DescribedState, simultaneous: Simultaneous, e: list[Any], block: Block, index: int,
                waiting: list[int], sealed: Sealed) -> None:  # fmt: skip
    """Ask the next seat to commit (one with a single action commits it unasked); when none is left, reveal."""
    while waiting:
        seat = waiting[0]
        actions = simultaneous.listing(s, e, seat)
        if len(actions) > 1 or (actions and simultaneous.single_ask):
            s.ask("commit", seat, simultaneous, e, block, index, actions, sealed, tuple(waiting))
            return
        if actions:
            sealed = sealed.copy()
            sealed.commit(seat, actions[0])
        waiting = waiting[1:]
    reveal(s, simultaneous, e, block, index, sealed)


def committed(s: DescribedState, decision: tuple[Any, ...], action: Any) -> None:
    """A seat's choice sealed; the next seat is asked."""
    _, seat, simultaneous, e, block, index, _, sealed, waiting = decision
    sealed = sealed.copy()
    sealed.commit(seat, action)
    commit_next(s, simultaneous, e, block, index, list(waiting[1:]), sealed)


def reveal(s: DescribedState, simultaneous: Simultaneous, e: list[Any], block: Block, index: int,
           sealed: Sealed) -> None:  # fmt: skip
    """Every choice carried out, in seat order; then the rest of the block."""
    if index < len(block.steps):
        s.tasks.append(("block", block, index, e))
    for seat in reversed(range(s.n)):
        action = sealed.choices[seat]
        if action is None:
            continue
        chosen, env = _bound(simultaneous, e, seat, action)
        s.tasks.append(("block", chosen.block, 0, env))


def compile_window(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step:
    spec = _keys(item["window"], WINDOW_KEYS, "window", path)
    players = steps.seat(spec, "players", (*path, "players"), "others(player)", scope, path)
    if players is None:
        raise StepProblem("window: needs players: (who may answer), or a 'player' named before", path)
    inner = scope.child()
    slot = steps.name(spec.get("as", "responder"), inner, (*path, "as"))
    options, actions = _options(steps, spec["options"], inner, (*path, "options"))
    then = steps.block(spec.get("then"), scope.child(), (*path, "then"))
    window = Window(players, slot, options, actions, then)

    def run(s: DescribedState, e: list[Any]) -> None:
        seats = [int(seat) for seat in window.players(s, e)]
        s.open_window(Pending(window, then, list(e)), -1, s.n, seats=seats)

    return Step(run, 1, steps.where(path))


def responses(s: DescribedState, player: int, item: Any) -> list[Any]:
    """The answers `player` may give to a window (none to an answer)."""
    if not isinstance(item, Pending) or not isinstance(item.what, Window):
        return []
    env = list(item.env)
    env[item.what.slot] = player
    found: list[Any] = item.what.actions(s, env)
    return found


def _bound(what: Any, frame: list[Any], player: int, action: Any) -> tuple[Any, list[Any]]:
    """The option of a window or a simultaneous choice a player's action took, and a copy of the frame with the
    player and the option's names bound."""
    env = list(frame)
    env[what.slot] = player
    chosen = what.options[action[0]]
    for slot, value in zip(chosen.slots, action[1:], strict=True):
        env[slot] = value
    return chosen, env


def answered(s: DescribedState, player: int, item: Any, action: Any) -> None:
    """A player's answer (or pass) to the window they were asked about."""
    if action == PASS:
        s.answer(player, PASS, s.n)
        return
    chosen, env = _bound(item.what, item.env, player, action)
    s.answer(player, Pending(chosen, chosen.block, env), s.n, seats=())


def label(s: DescribedState, player: int, item: Any, action: Any) -> str:
    if action == PASS:
        return "pass"
    chosen, env = _bound(item.what, item.env, player, action)
    return str(chosen.label(s, env))


COMPILERS["simultaneous"] = compile_simultaneous
COMPILERS["window"] = compile_window
