"""The plain steps of a rules file — those that never wait for a player — as lines of generated code.

`let`, `set`, `add`, `move`, `draw`, `shuffle`, `fill`, `eliminate`, `problem`, `applied`, `played`, `random` and
`roll` each become a statement or two (`steps.Lines`) calling the state's own methods (`DescribedState.move`,
`draw_into`, …); a run of them, with the `if`/`for`/`repeat`/`while` around them, is one generated function.
"""

from __future__ import annotations

from typing import Any

from cardgen.engine.described.compiler import Scope
from cardgen.engine.described.steps import COMPILERS, Lines, Path, Step, StepCompiler, StepProblem, kind
from cardgen.engine.described.syntax import SyntaxProblem, parse_target

kind("let", "give names to values for the rest of the block (a name never changes: use a value for what does)",
     "- let: {card: top(deck), cost: card.cost + 1}")  # fmt: skip
kind("set", "set values (`coins`, `bonus[p][c]`), card marks (`card.damage`) or `turns`",
     "- set: {coins: 0, card.damage: 2}")  # fmt: skip
kind("add", "add to values, marks or `turns` (a negative number takes away)", "- add: {coins: card.value, vp: 1}")
kind("move", "move a card, or every card of a list, to a zone (each card leaves the zone it was in)",
     "- move: hand\n  to: discard", to="the zone it goes to",
     at="top (the default), bottom, or a position")  # fmt: skip
kind("draw", "take the top card of a zone (a random one if the zone draws at random); an empty zone first takes in "
     "its `refill`; nothing to draw: none", "- draw: deck\n  to: hand\n  count: 5",
     to="the zone the card goes to (the default: `hand` of the player)", count="how many (the default: 1)",
     as_="a name for the card drawn (none if there was none), or the list when `count` is given",
     trigger="then carry out the drawn cards' effects with this trigger (draw)")  # fmt: skip
kind("shuffle", "shuffle a zone (the order is logged, so games replay)", "- shuffle: deck")
kind("fill", "deal a line-up full (to its zone's `size`) from its `fill_from` zone; if that runs out, a data "
     "problem is reported", "- fill: market")  # fmt: skip
kind("eliminate", "take a seat out of the game (it gets no more turns, scores nothing)",
     "- eliminate: p\n  why: out of cards", why="why, for the log")  # fmt: skip
kind("problem", "report a data problem (`cardgen play` lists it) and carry on", "- problem: the market ran dry")
kind("applied", "note that a card's ability took effect (the summary lists abilities never applied)",
     "- applied: card")  # fmt: skip
kind("played", "note that a card was played or bought (the summary lists cards never played)", "- played: card")
kind("random", "a random whole number from 0 to below - 1 (logged)", "- random: players\n  as: first",
     as_="its name")  # fmt: skip
kind("roll", "roll dice and add them up (logged)", "- roll: 2\n  sides: 6\n  as: total",
     sides="faces of each die (the default: 6)", as_="its name")  # fmt: skip


def _let(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    names, where = item["let"], steps.where(path)
    if not isinstance(names, dict) or not names:
        raise StepProblem("let: gives names to values: {name: expression, …}", path)
    found: Lines = []
    for name, raw in names.items():
        try:
            code = steps.code(raw, scope, (*path, name))
        except StepProblem:
            steps.name(name, scope, (*path, name))  # named all the same: the steps after it report their own
            raise
        found.append((f"e[{steps.name(name, scope, (*path, name), card=code.card)}] = {code.text}", where))
    return found


def _assign(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path, operator: str) -> Lines:
    key, where = str(path[-1]), steps.where(path)
    pairs = item[key]
    if not isinstance(pairs, dict) or not pairs:
        raise StepProblem(f"{key}: takes targets and expressions: {{coins: 3, card.damage: 0}}", path)
    found: Lines = []
    for target, raw in pairs.items():
        try:
            place = steps.compiler.target(parse_target(str(target)), scope)
        except SyntaxProblem as exc:
            raise StepProblem(str(exc), (*path, target)) from None
        found.append((f"{place} {operator} {steps.code(raw, scope, (*path, target)).text}", where))
    return found


def _set(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    return _assign(steps, item, scope, path, "=")


def _add(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    return _assign(steps, item, scope, path, "+=")


def _move(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    cards, where = steps.code(item["move"], scope, path).text, steps.where(path)
    if "to" not in item:
        raise StepProblem("move: needs to: (the zone the cards go to)", path)
    to = steps.zone_code(item["to"], scope, (*path[:-1], "to"))
    at = item.get("at", "top")
    index = "-1" if at == "top" else "0" if at == "bottom" else steps.code(at, scope, (*path[:-1], "at")).text
    return [(f"s.move_all({cards}, {to}, {index})", where)]


def _draw(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines | Step:
    if "trigger" in item:  # the cards drawn, then their effects with the trigger (which may wait): two steps
        plain = _draw(steps, {k: v for k, v in item.items() if k not in ("trigger", "as")}, scope, path)
        assert isinstance(plain, list)
        text, where = plain[0]
        slot = scope.bind(f"drawn {scope.next}")  # a name no expression can write
        run = steps.function([(f"e[{slot}] = {text}", where)])
        if "as" in item:
            run = steps.function(
                [
                    (f"e[{slot}] = {text}", where),
                    (f"e[{steps.name(item['as'], scope, (*path[:-1], 'as'))}] = e[{slot}]", where),
                ]
            )
        effects = _effects_of(steps, slot, item["trigger"], scope, path)

        def draw_then_effects(s: Any, e: list[Any]) -> None:
            run.run(s, e)
            effects(s, e)

        return Step(draw_then_effects, 1, steps.where(path))
    where = steps.where(path)
    source = steps.zone_code(item["draw"], scope, path)
    to = steps.zone_code(item.get("to", "hand"), scope, (*path[:-1], "to"))
    counted = "count" in item
    count = steps.code(item.get("count", 1), scope, (*path[:-1], "count")).text
    call = f"s.draw_into({source}, {to}, {count}, {counted})"
    if "as" in item:
        return [(f"e[{steps.name(item['as'], scope, (*path[:-1], 'as'))}] = {call}", where)]
    return [(call, where)]


def _effects_of(steps: StepCompiler, slot: int, trigger: str, scope: Scope, path: Path) -> Any:
    steps.trigger(trigger, path)
    player = steps.seat({}, "player", path, "player", scope, path)
    owners = steps.engine.cards.owner

    def run(s: Any, e: list[Any]) -> None:
        drawn = e[slot]
        if drawn is not None:
            s.effects(drawn, trigger, player(s, e) if player is not None else owners.__getitem__)

    return run


def _shuffle(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    return [(f"s.shuffle_zone({steps.zone_code(item['shuffle'], scope, path)})", steps.where(path))]


def _fill(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    return [(f"s.fill({steps.zone_code(item['fill'], scope, path)})", steps.where(path))]


def _eliminate(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    seat = steps.code(item["eliminate"], scope, path).text
    why = steps.text_code(item.get("why", "eliminated"), scope, (*path[:-1], "why"))
    return [(f"s.eliminate({seat}, {why})", steps.where(path))]


def _problem(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    return [(f"s.problem({steps.text_code(item['problem'], scope, path)})", steps.where(path))]


def _note(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    what = str(path[-1])
    card = steps.code(item[what], scope, path).text
    return [(f"s.note({card}, {steps.unit.ref(what)})", steps.where(path))]


def _random(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    below = steps.code(item["random"], scope, path).text
    if "as" not in item:
        raise StepProblem("random: needs as: (a name for the number)", path)
    slot = steps.name(item["as"], scope, (*path[:-1], "as"))
    return [(f"e[{slot}] = s.random_below({below})", steps.where(path))]


def _roll(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    dice = steps.code(item["roll"], scope, path).text
    sides = steps.code(item.get("sides", 6), scope, (*path[:-1], "sides")).text
    if "as" not in item:
        raise StepProblem("roll: needs as: (a name for the total)", path)
    slot = steps.name(item["as"], scope, (*path[:-1], "as"))
    return [(f"e[{slot}] = s.roll_dice({dice}, {sides})", steps.where(path))]


COMPILERS.update({"let": _let, "set": _set, "add": _add, "move": _move, "draw": _draw, "shuffle": _shuffle,
                  "fill": _fill, "eliminate": _eliminate, "problem": _problem, "applied": _note, "played": _note,
                  "random": _random, "roll": _roll})  # fmt: skip
