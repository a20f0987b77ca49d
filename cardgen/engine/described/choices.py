"""The steps where players decide: `choose` (one player picks an option), `turns` (players take turns in order).

A choice lists its options, each a kind of action with the names it binds (`for: kind in unit_types for count in
range(1, 4)`), a condition and a label (`build {count} {kind}`); the legal actions are every binding of every
option, in the order written — `(option, value, …)` tuples, so they compare and hash and a search agent can key its
tree on them. The question is the flow's (`Flow.ask`): the state's `current_player` is the player asked, and the
answer carries the rest of the block with it. `pass:` options end a choice repeated `until: pass`, and a player who
passes is out of a `turns: {until: pass}` round. Sugar for the common actions of card games: `play:` (a card from a
zone, paying its cost, its `play` effects carried out) and `buy:` (a card bought into a zone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardgen.engine.described.compiler import Fn, Scope
from cardgen.engine.described.steps import COMPILERS, RESUMES, Block, Step, StepCompiler, StepProblem, kind
from cardgen.engine.described.syntax import SyntaxProblem
from cardgen.engine.flow import task
from cardgen.errors import clipped

if TYPE_CHECKING:
    from cardgen.engine.described.state import DescribedState

Path = tuple[str | int, ...]

kind("choose", "a player picks one of the options (each a kind of action, bound to names); the legal actions are "
     "every binding of every option, in the order written",
     "- choose:\n    player: p\n    from: range(3)\n    as: column\n    label: place column {column + 1}",
     waits=True)  # fmt: skip
kind("turns", "each player in turn order takes a turn (the `turn:` steps, or `do:`), `player` naming them; with "
     "`until: pass`, turns go round among the players who have not passed until all have",
     "- turns:\n    from: starter\n    until: pass\n    do: [...]", waits=True)  # fmt: skip

CHOOSE_KEYS = {
    "player": "who chooses (the default: player)",
    "options": "the options: a list of {label, for, if, do}, {pass: label}, {play: …} or {buy: …}",
    "from": "one option's shortcut: the list to choose from (with as:, if:, label:)",
    "as": "the shortcut's name for the item chosen (visible to the steps after the choice)",
    "if": "the shortcut's condition on the item",
    "label": "what the log calls the action: text with {expressions}",
    "do": "the shortcut's steps once chosen",
    "single": "ask (ask even when only one action is legal) or take (the default: take it without asking)",
    "none": "steps when no action is legal (the default: nothing: the choice is skipped)",
    "until": "pass: ask again after each action until the player picks a pass option",
}
OPTION_KEYS = {"label", "for", "if", "do", "pass", "play", "buy"}
SUGAR_KEYS = {
    "from": "the zone the card comes from (play: hand; buy: market)",
    "to": "the zone it goes to (play: play; buy: discard)",
    "cost": "what it costs (an expression of card; none: free)",
    "pay": "the value the cost is paid from (coins)",
    "if": "a further condition on card",
    "label": "the action's label (play {card.name})",
    "then": "steps after it (card is named)",
}
TURN_KEYS = {
    "from": "the first seat (the default: 0)",
    "until": "pass: go round among the players who have not passed",
    "count": "count each turn in turns (the default: true)",
    "do": "the steps of a turn (the default: the game's turn:)",
}


@dataclass
class Option:
    """One option of a choice: the slots its names are bound to when taken, its label, its steps, whether it
    passes; its candidates are part of the choice's generated `actions`."""

    slots: list[int]
    label: Fn
    block: Block
    passes: bool = False


@dataclass
class Choice:
    """A compiled `choose`: who, every action (one generated function listing them all), the options, and what to
    do with one action or none."""

    player: Fn
    options: list[Option]
    single_ask: bool
    none: Block
    repeat: bool
    actions: Callable[[Any, list[Any]], list[tuple[Any, ...]]] = lambda s, e: []

    def bind(self, action: tuple[Any, ...], e: list[Any]) -> Option:
        option = self.options[action[0]]
        slots = option.slots
        if len(slots) == 1:
            e[slots[0]] = action[1]
        else:
            for slot, value in zip(slots, action[1:], strict=True):
                e[slot] = value
        chosen: Option = option
        return chosen

    def label(self, s: DescribedState, action: tuple[Any, ...], e: list[Any]) -> str:
        env = list(e)
        return str(self.bind(action, env).label(s, env))


def compile_choose(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step:
    """`choose:` — the options, or the one-option shortcut (`from`, `as`, `if`, `label`, `do`)."""
    spec = item["choose"]
    if not isinstance(spec, dict):
        raise StepProblem("choose: takes a mapping (player:, options: or from:/as:/label:)", path)
    for key in spec:
        if key not in CHOOSE_KEYS:
            raise StepProblem(f"choose: takes no '{key}' (it takes: {', '.join(CHOOSE_KEYS)})", (*path, key))
    player = steps.seat(spec, "player", (*path, "player"), "player", scope, path)
    if player is None:
        raise StepProblem("choose: needs player: (who chooses), or a 'player' named before", path)
    options: list[Option] = []
    listing: list[str] = []
    if "options" in spec:
        raw = spec["options"]
        if not isinstance(raw, list) or not raw:
            raise StepProblem("options: is a list of options", (*path, "options"))
        for number, entry in enumerate(raw):
            compiled, candidates = option(steps, entry, scope.child(), (*path, "options", number), number)
            options.append(compiled)
            listing.append(candidates)
    elif "from" in spec:
        if "as" not in spec:
            raise StepProblem("choose: from: needs as: (a name for the item chosen)", path)
        shortcut = {"for": f"{spec['as']} in {spec['from']}", "label": spec.get("label", "{" + str(spec["as"]) + "}")}
        if "if" in spec:
            shortcut["if"] = spec["if"]
        shortcut["do"] = spec.get("do", [])
        compiled, candidates = option(steps, shortcut, scope, path, 0)  # its name is visible after the choice
        options.append(compiled)
        listing.append(candidates)
    else:
        raise StepProblem("choose: needs options: (or from: and as:)", path)
    single = spec.get("single", "take")
    if single not in ("ask", "take"):
        raise StepProblem("single: is ask or take", (*path, "single"))
    until = spec.get("until")
    if until not in (None, "pass"):
        raise StepProblem("until: takes pass (ask again until the player passes)", (*path, "until"))
    if until and not any(option.passes for option in options):
        raise StepProblem("until: pass needs a pass option ({pass: end turn})", (*path, "until"))
    none = steps.block(spec.get("none"), scope.child(), (*path, "none"))
    choice = Choice(player, options, single == "ask", none, until == "pass")
    choice.actions = steps.function_of(" + ".join(listing), path)
    return Step(lambda s, e, block, index: ask(s, choice, e, block, index), RESUMES, steps.where(path))


def option(steps: StepCompiler, entry: Any, scope: Scope, path: Path, number: int) -> tuple[Option, str]:
    """An option, and the code listing its actions: `[(number, v1, v2) for v1 in … if … for v2 in …]`."""
    if not isinstance(entry, dict) or not entry:
        raise StepProblem(
            "an option is a mapping: {label:, for:, if:, do:}, {pass: label}, {play: …} or {buy: …}", path
        )
    for key in entry:
        if key not in OPTION_KEYS:
            raise StepProblem(f"an option takes no '{key}' (it takes: {', '.join(sorted(OPTION_KEYS))})", (*path, key))
    index = steps.unit.ref(number)
    if "pass" in entry:
        label = steps.text(entry["pass"], scope, (*path, "pass"))
        block = steps.block(entry.get("do"), scope, (*path, "do"))
        return Option([], label, block, passes=True), f"[({index},)]"
    if "play" in entry or "buy" in entry:
        return _sugar(steps, entry, scope, path, number)
    listed = scope.child()  # the candidates' names, as Python locals of the listing
    clauses: list[tuple[str, int | str, str | None]] = []
    raw = entry.get("for")
    if raw is not None:
        try:
            clauses = steps.clauses(str(raw), listed, python=True)
        except SyntaxProblem as exc:
            raise StepProblem(f"{exc} (in '{clipped(str(raw), 60)}')", (*path, "for")) from None
    test = steps.code(entry["if"], listed, (*path, "if")).text if "if" in entry else None
    names = [name.split(" in ", 1)[0].strip() for name in _names(raw)] if raw is not None else []
    slots = [steps.name(name, scope, (*path, "for")) for name in names]
    label = steps.text(entry.get("label", "choose"), scope, (*path, "label"))
    block = steps.block(entry.get("do"), scope, (*path, "do"))
    if not clauses:
        return Option([], label, block), f"([({index},)] if {test} else [])" if test else f"[({index},)]"
    values = "".join(f"{local}, " for _, local, _ in clauses)
    loops = " ".join(f"for {local} in {source}" + (f" if {check}" if check else "") for source, local, check in clauses)
    return Option(slots, label, block), f"[({index}, {values}) {loops}{f' if {test}' if test else ''}]"


def _names(raw: Any) -> list[str]:
    """The names a `for:` of an option binds, in order (`kind in a for count in b` → kind, count)."""
    from cardgen.engine.described.syntax import parse

    node = parse("[0 for " + str(raw) + "]")
    return [clause[0] for clause in node.parts[0].parts[1]]


def _sugar(steps: StepCompiler, entry: dict[str, Any], scope: Scope, path: Path, number: int) -> tuple[Option, str]:
    """`play:` and `buy:`: a card from a zone, its cost paid, moved, its effects (play) and the steps after."""
    verb = "play" if "play" in entry else "buy"
    spec = entry[verb] or {}
    base = (*path, verb)
    if not isinstance(spec, dict):
        raise StepProblem(f"{verb}: takes a mapping ({', '.join(SUGAR_KEYS)})", base)
    for key in spec:
        if key not in SUGAR_KEYS:
            raise StepProblem(f"{verb}: takes no '{key}' (it takes: {', '.join(SUGAR_KEYS)})", (*base, key))
    source = spec.get("from", "hand" if verb == "play" else "market")
    to = spec.get("to", "play" if verb == "play" else "discard")
    cost, pay = spec.get("cost"), spec.get("pay")
    if (cost is None) != (pay is None):
        raise StepProblem(f"{verb}: cost: and pay: go together (cost: card.cost, pay: coins)", base)
    trial = scope.child()  # each piece checked at its own key first, so a mistake is named where it was written
    steps.zone_code(source, trial, (*base, "from"))
    steps.zone_code(to, trial, (*base, "to"))
    trial.bind_python("card", "card")
    for key in ("cost", "pay", "if"):
        if key in spec:
            steps.code(spec[key], trial, (*base, key))
    condition = [f"({cost}) <= {pay}"] if cost is not None else []
    if "if" in spec:
        condition.append(f"({spec['if']})")
    generic: dict[str, Any] = {"for": f"card in {source}", "label": spec.get("label", verb + " {card.id}")}
    if condition:
        generic["if"] = " and ".join(condition)
    body: list[Any] = []
    if cost is not None:
        body.append({"add": {pay: f"-({cost})"}})
    body += [{"move": "card", "to": to}, {"played": "card"}]
    if verb == "play":
        body.append({"effects": "card", "trigger": "play"} if "play" in steps.engine.triggers else {"effects": "card"})
    body += list(spec.get("then") or [])
    generic["do"] = body
    return option(steps, generic, scope, path, number)


def ask(s: DescribedState, choice: Choice, e: list[Any], block: Block, index: int) -> None:
    """Put the choice to its player, or take its one action, or skip it; the rest of the block follows."""
    actions = choice.actions(s, e)
    if not actions:
        for skipped in choice.options:  # a name of a choice not made is none
            for slot in skipped.slots:
                e[slot] = None
        if index < len(block.steps):
            s.tasks.append(("block", block, index, e))
        s.run_block(choice.none, 0, e)
        return
    if len(actions) == 1 and not choice.single_ask:
        take(s, choice, actions[0], e, block, index)
        return
    s.ask("choose", choice.player(s, e), choice, e, block, index, actions)


def take(s: DescribedState, choice: Choice, action: tuple[Any, ...], e: list[Any], block: Block, index: int) -> None:
    """Carry out one action of a choice: its names bound, its steps, then (again, if repeated) the rest."""
    env = list(e)
    option = choice.bind(action, env)
    if option.passes:
        s.passed = True
    if choice.repeat and not option.passes:
        s.tasks.append(("choose_again", choice, e, block, index))  # asked again; the rest of the block after that
    elif index < len(block.steps):
        s.tasks.append(("block", block, index, env))
    s.run_block(option.block, 0, env)


@task
def choose_again(s: DescribedState, choice: Choice, e: list[Any], block: Block, index: int) -> None:
    """A repeated choice, asked again after an action."""
    ask(s, choice, list(e), block, index)


# -- turns ------------------------------------------------------------------------------------------------------------


@dataclass
class Turns:
    """A compiled `turns`: the first seat, whether to go round until all pass, whether to count, the turn's steps
    (`do:`, run in the caller's frame) or the game's `turn:` (a procedure: a fresh frame each turn), and the slot
    of `player`."""

    first: Fn
    until_pass: bool
    count: bool
    block: Block | None
    slot: int
    procedure: Any = None  # the game's `turn:` (`steps.Procedure`), read when the turn is played


def compile_turns(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Step:
    spec = item["turns"] if isinstance(item["turns"], dict) else {}
    if item["turns"] not in (None, {}) and not isinstance(item["turns"], dict):
        raise StepProblem("turns: takes a mapping (from:, until:, count:, do:) or nothing", path)
    for key in spec:
        if key not in TURN_KEYS:
            raise StepProblem(f"turns: takes no '{key}' (it takes: {', '.join(TURN_KEYS)})", (*path, key))
    first = steps.value(spec.get("from", 0), scope, (*path, "from"))
    until = spec.get("until")
    if until not in (None, "pass"):
        raise StepProblem("until: takes pass", (*path, "until"))
    count = spec.get("count", True)
    if not isinstance(count, bool):
        raise StepProblem("count: is true or false", (*path, "count"))
    if "do" in spec:
        inner = scope.child()
        slot = steps.name("player", inner, path)
        turns = Turns(first, until == "pass", count, steps.block(spec["do"], inner, (*path, "do")), slot)
    else:
        turn = steps.engine.turn
        if turn is None:
            raise StepProblem("turns: without do: plays the game's turn: steps, and there are none", path)
        turns = Turns(first, until == "pass", count, None, turn.slots["player"], turn)
    return Step(lambda s, e: start_turns(s, turns, e), 1, steps.where(path))


def start_turns(s: DescribedState, turns: Turns, e: list[Any]) -> None:
    first = turns.first(s, e)
    seats = [(first + step) % s.n for step in range(s.n)]
    seats = [seat for seat in seats if seat not in s.out]
    if seats:
        s.tasks.append(("turn", turns, tuple(seats), 0, e))


@task
def turn(s: DescribedState, turns: Turns, seats: tuple[int, ...], position: int, e: list[Any]) -> None:
    """One player's turn; after it, the end checks of `after: turn`, then the next seat's."""
    seat = seats[position]
    if seat in s.out:
        _next_turn(s, turns, seats, position, e, passed=True)
        return
    s.tasks.append(("turn_over", turns, seats, position, e, seat))
    procedure = turns.procedure
    env = [None] * procedure.frame.size if procedure is not None else list(e)
    env[turns.slot] = seat
    s.passed = False
    if turns.count:
        s.turns += 1
    block = procedure.block if procedure is not None else turns.block
    assert block is not None
    s.run_block(block, 0, env)


@task
def turn_over(s: DescribedState, turns: Turns, seats: tuple[int, ...], position: int, e: list[Any], seat: int) -> None:
    passed = s.passed
    s.passed = False
    s.check_end("turn", seat)
    if s.ending is None:
        _next_turn(s, turns, seats, position, e, passed)


def _next_turn(
    s: DescribedState, turns: Turns, seats: tuple[int, ...], position: int, e: list[Any], passed: bool
) -> None:
    if not turns.until_pass:
        if position + 1 < len(seats):
            s.tasks.append(("turn", turns, seats, position + 1, e))
        return
    if passed or seats[position] in s.out:  # out of this round of turns
        seats = seats[:position] + seats[position + 1 :]
        position -= 1
    if seats:
        s.tasks.append(("turn", turns, seats, (position + 1) % len(seats), e))


COMPILERS["choose"] = compile_choose
COMPILERS["turns"] = compile_turns
