"""docs/rules-reference.md, the reference of a rules file (engine.yaml), generated from the code that reads it.

Every section and key comes from the schema (`source.py`, each field's description), every step kind from its
declaration (`steps.KINDS`), every function from `functions.FUNCTIONS`, every bound from the constants that enforce
it. `cardgen rules-reference` prints it; `python -m cardgen.reference` rewrites the page; tests/test_described.py
fails while page and code disagree.
"""

from __future__ import annotations

import typing
from types import UnionType
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from cardgen.engine.described import (
    battles,
    choices,
    compiler,
    control,
    functions,
    plain,
    source,
    steps,
    syntax,
    windows,
)
from cardgen.limits import Limits

PAGE = "docs/rules-reference.md"

PREAMBLE = """# The rules file reference (engine.yaml)

Generated from the code by `python -m cardgen.reference` (`cardgen rules-reference` prints it); do not edit:
tests/test_described.py fails while this page and the code disagree. The guide with worked examples is
docs/guide/rules-as-data.md.

A game folder holding an `engine.yaml` is played from it: `cardgen play`, `replay`, `balance`, `--check` and the
agents work on it as on the bundled games. The file is data: cardgen reads it with its own parser and never runs it
as Python; every name in it is checked before a game starts, and a mistake is reported with its file, line and
field.
"""

SECTIONS: list[tuple[str, type[BaseModel]]] = [
    ("cards: (each entry)", source.CardsFrom),
    ("zones: (each zone)", source.ZoneSpec),
    ("refill: (of a zone)", source.Refill),
    ("values: (each value)", source.ValueSpec),
    ("effects:", source.EffectsSpec),
    ("effects: verbs: (each verb)", source.VerbSpec),
    ("tables: (each table)", source.TableSpec),
    ("boards: (each board)", source.BoardSpec),
    ("grid: (of a board)", source.GridSpec),
    ("battles: (each kind)", source.BattleSpec),
    ("functions: (each function)", source.FunctionSpec),
    ("procedures: (each procedure)", source.ProcedureSpec),
    ("end: (each ending)", source.EndSpec),
    ("invariants: (each invariant)", source.InvariantSpec),
]


def _kind(annotation: Any) -> str:
    """A field's type in words."""
    if annotation is source.Expression or annotation == source.Expression:
        return "expression"
    if annotation is source.Steps or annotation == source.Steps:
        return "steps"
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is typing.Annotated:
        named = any(getattr(meta, "pattern", None) for meta in getattr(annotation, "__metadata__", ()))
        return "name" if named and args[0] is str else _kind(args[0])
    if origin is Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if origin in (UnionType, typing.Union):
        kinds = [_kind(a) for a in args if a is not type(None)]
        return " or ".join(dict.fromkeys(kinds))
    if origin is list:
        return f"list of {_kind(args[0])}" if args else "list"
    if origin is dict:
        return f"{_kind(args[0])} → {_kind(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "mapping"
    names = {str: "text", int: "number", float: "number", bool: "yes/no"}
    for python, word in names.items():
        if annotation is python or (get_args(annotation) and get_args(annotation)[0] is python):
            return word
    text = getattr(annotation, "__name__", str(annotation))
    return {"StrictStr": "text", "StrictInt": "number", "StrictFloat": "number", "StrictBool": "yes/no"}.get(
        text, text.lower()
    )


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _model(title: str, model: type[BaseModel]) -> list[str]:
    about = " ".join((model.__doc__ or "").split())
    lines = [f"### {title}", "", about, "", "| key | takes | meaning |", "|---|---|---|"]
    for name, field in model.model_fields.items():
        key = field.alias or name
        value = field.default
        shown = {True: "true", False: "false"}.get(value, value) if isinstance(value, bool) else value
        plain = field.is_required() or field.default_factory is not None or value in (None, [], {})
        default = "" if plain or f"`{shown}`" in (field.description or "") else f" (default: `{shown}`)"
        lines.append(f"| `{key}` | {_kind(field.annotation)} | {_cell(field.description or '')}{default} |")
    return [*lines, ""]


STEPS = """\
`setup:`, `round:`, `turn:`, a procedure's `do:`, a verb's `do:` and the blocks inside steps (`then:`, `do:`) are
lists of steps. A step is a mapping whose first key names it; its other keys are listed with it. A name a step
gives (`let:`, `as:`, a loop's name) lasts to the end of the block it is in, and never changes: what changes is kept
in values and marks. Choices (`choose:`, `turns:`, `simultaneous:`, `window:`) are the questions put to players;
everything else runs at once."""

NAMES = """\
A name in an expression is, in this order: a name a step or a parameter gave; a built-in name (below); a zone or a
value of the game — `hand`, `coins` alone mean the one of `player` when it belongs to each player, `hand[p]` a
seat's; a constant, a table, a board, or a rules fact by its name (`hand_limit`, `line_up.units`, `facts.x` when a
zone or value has taken the fact's name). `card.cost` is a card's field, `card.damage` its mark, `table.key` a
table's entry. Every name is checked before a game starts."""

FUNCTIONS = """\
A function given a generator (`sum(x.force for x in column[p][c] if x.type == 'ship')`) works on its items;
`min`, `max` and `sorted` take a key as `by=` (`min(x for x in ships, by=(x.force, -x.number))`: the first item with
the smallest key)."""


def _steps() -> list[str]:
    lines = ["## Steps", "", STEPS, "", "| step | its other keys | what it does | example |", "|---|---|---|---|"]
    below = {"choose": "(below)", "turns": "(below)", "simultaneous": "(below)", "window": "(below)"}
    for name, declared in steps.KINDS.items():
        others = "; ".join(f"`{k}:` {v}" for k, v in declared.keys.items()) or below.get(name, "—")
        example = "<br>".join(f"`{line}`" for line in declared.example.splitlines())
        lines.append(f"| `{name}:` | {_cell(others)} | {_cell(declared.summary)} | {example} |")
    lines += ["", "### choose:", "", "| key | meaning |", "|---|---|"]
    lines += [f"| `{k}:` | {_cell(v)} |" for k, v in choices.CHOOSE_KEYS.items()]
    lines += ["", "An option is `{label:, for:, if:, do:}` (its names bound by `for:`, in the order written), "
              "`{pass: label}` (it ends a choice repeated `until: pass`, and a player's part in `turns: {until: "
              "pass}`), or one of the two kinds of action of card games, which take:", "",
              "| key | `play:` / `buy:` |", "|---|---|"]  # fmt: skip
    lines += [f"| `{k}:` | {_cell(v)} |" for k, v in choices.SUGAR_KEYS.items()]
    lines += ["", "`play:` moves the card, pays, notes it played and carries out its `play:` effects (its effects "
              "without a trigger when the game declares no `play` trigger); `buy:` moves it and pays.", ""]  # fmt: skip
    keyed: list[tuple[str, dict[str, str]]] = [
        ("turns:", choices.TURN_KEYS), ("simultaneous:", windows.SIMULTANEOUS_KEYS), ("window:", windows.WINDOW_KEYS)
    ]  # fmt: skip
    for heading, keys in keyed:
        lines += [f"### {heading}", "", "| key | meaning |", "|---|---|"]
        lines += [f"| `{k}:` | {_cell(v)} |" for k, v in keys.items()]
        lines.append("")
    return lines


def _expressions() -> list[str]:
    lines = ["## Expressions", "", "An expression is text in a YAML value (quote it when it holds `{`, `:` or a comma "
             "inside `{…}`): Python's own spelling, read by cardgen's parser.", "", "```", syntax.GRAMMAR.rstrip(),
             "```", "", NAMES, "", "### Built-in names", "", "| name | meaning |", "|---|---|"]  # fmt: skip
    lines += [f"| `{k}` | {_cell(v)} |" for k, v in compiler.BUILT_IN_NAMES.items()]
    lines += ["", "### Attributes every card has", "", "Besides its fields (`card.cost`) and marks (`card.damage`):",
              "", "| attribute | meaning |", "|---|---|"]  # fmt: skip
    lines += [f"| `card.{k}` | {_cell(v)} |" for k, v in compiler.BUILT_IN_ATTRIBUTES.items()]
    lines += ["", "### Functions", "", FUNCTIONS, "", "| call | gives |", "|---|---|"]
    lines += [f"| `{f.call}` | {_cell(f.meaning)} |" for f in functions.FUNCTIONS.values()]
    return [*lines, ""]


def _limits() -> list[str]:
    bounds = Limits()
    rows = [
        ("steps between two questions to a player (`--limit rules_steps=N`)", f"{bounds.rules_steps:,}"),
        ("items the expressions go through between two questions (`--limit rules_items=N`)",
         f"{bounds.rules_items:,}"),
        ("items in one list or characters in one text an expression builds, numbers `range(…)` gives "
         "(`--limit rules_list=N`)", f"{bounds.rules_list:,}"),
        ("digits of a number a multiplication makes", "19,000"),
        ("procedure calls nested before the flow's stack takes over", f"{steps.MOST_NESTED:,}"),
        ("characters in one expression", f"{syntax.MOST_LENGTH:,}"),
        ("levels an expression nests", f"{syntax.MOST_DEPTH:,}"),
        ("units a side in one battle", f"{battles.MOST_UNITS:,}"),
        ("positions `odds` solves exactly (beyond: estimated)", f"{battles.MOST_POSITIONS:,}"),
    ]  # fmt: skip
    lines = ["## Bounds", "", "A rules file comes from a folder cardgen does not trust: what it may ask for is "
             "bounded, and going past a bound is an error naming the step, never a hang. The first three are "
             "cardgen's limits (`cardgen limits`): raise one for a run with `--limit NAME=N`.", "",
             "| what | at most |", "|---|---|"]  # fmt: skip
    return [*lines, *(f"| {what} | {most} |" for what, most in rows), ""]


def page() -> str:
    """docs/rules-reference.md as the code says it."""
    assert plain and windows and control  # their step kinds are declared when they are imported
    lines = [PREAMBLE, "## The file", "", "| section | takes | meaning |", "|---|---|---|"]
    for name, field in source.Spec.model_fields.items():
        lines.append(f"| `{name}:` | {_kind(field.annotation)} | {_cell(field.description or '')} |")
    lines += ["", "## Sections", ""]
    for title, model in SECTIONS:
        lines += _model(title, model)
    lines += ["### marks:, constants:", "", "Each takes names and expressions: a mark's start value (every card "
              "starts with it), a constant's value (worked out before play from facts, tables and other "
              "constants).", ""]  # fmt: skip
    lines += [*_steps(), *_expressions(), *_limits()]
    return "\n".join(lines).rstrip("\n") + "\n"
