"""Turning a rules file's compiled expressions and steps into Python functions, without running any of its text.

The rules file is parsed by cardgen's own parser (`syntax.py`) and every name in it is resolved by the compiler
before play. What this module builds are small Python functions written by cardgen from that resolved tree: their
source holds only cardgen's own words — `s` (the state), `e` (the locals), generated names `v3`, `k12` — whole
numbers cardgen computed itself (slots, places in the state's lists), and references to values kept in the unit's
namespace (`k12`: a fact, a text, a card field's table, a helper). No text of the rules file — no name, no string,
no number it wrote — is ever placed in the source, so nothing a rules file says can reach Python's compiler; its
texts and numbers are values in the namespace, its names are places in the state. The namespace's builtins are
only the handful of functions the generated code calls (`NAMESPACE`), so the code cannot reach anything else.

Why code at all: a closure per node of an expression made a described game run at a quarter of its Python twin's
speed — each node a call — where a function per expression and per run of plain steps runs the way hand-written
Python does (benchmarks/described_speed.py measures it). A failure inside generated code is located by the line it
met it on (`Unit.where`), which maps back to the step and file line of the rules file.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from types import CodeType, TracebackType
from typing import Any

from cardgen import limits
from cardgen.engine.described.layout import Card, Family
from cardgen.errors import Location

_units = itertools.count()


def key(value: Any, name: str) -> Any:
    """A table's entry by name (`start_resources.metal`, `types[kind].hp`); a readable error otherwise."""
    if isinstance(value, dict):
        if name in value:
            return value[name]
        for candidate in value:
            if str(candidate) == name:
                return value[candidate]
        raise KeyError(f"no '{name}' in this table (it has: {', '.join(map(str, value))})")
    if value is None:
        raise TypeError(f"none has no '{name}' (a card or a table was expected)")
    raise TypeError(f"{type(value).__name__} {value!r} has no '{name}'")


def attribute(table: tuple[Any, ...], value: Any, name: str) -> Any:
    """A card's field (or a table's entry when the value is not a card)."""
    return table[value] if value.__class__ is Card else key(value, name)


def mark(state: Any, value: Any, index: int, marks: int, name: str) -> Any:
    """A card's mark (or a table's entry when the value is not a card)."""
    return state.marks[value * marks + index] if value.__class__ is Card else key(value, name)


def place(bound: int, count: int | None, name: str, *indices: Any) -> int:
    """The offset of a zone's or value's instance in its family, each subscript checked: one subscript below
    `bound`; or a seat below `bound` and an index below `count`."""
    limits = [bound] if len(indices) == 1 else [bound, count]
    for index, limit in zip(indices, limits, strict=True):
        assert limit is not None
        if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < limit):
            shown = "".join(f"[{i!r}]" for i in indices)
            raise IndexError(f"{name}{shown}: out of range (0 to {limit - 1})")
    if len(indices) == 2:
        assert count is not None
        return int(indices[0]) * count + int(indices[1])
    return int(indices[0])


def plus(a: Any, b: Any) -> Any:
    """`a + b`, a list or a text it builds no longer than the limit (`rules_list`): a loop doubling a list stops."""
    result = a + b
    if result.__class__ in (list, str, tuple) and len(result) > limits.current().rules_list:
        raise ValueError(f"a list or text of {len(result):,} items (at most {limits.current().rules_list:,})")
    return result


def times(a: Any, b: Any) -> Any:
    """`a * b`, bounded like `plus`: a list or a text repeated, or a whole number squared again and again."""
    if a.__class__ in (int, float) and b.__class__ in (int, float):
        result = a * b
        if result.__class__ is int and result.bit_length() > 64 * 1000:
            raise ValueError("a number of more than 19,000 digits")
        return result
    if isinstance(a, list | str | tuple) or isinstance(b, list | str | tuple):
        size = len(a) * b if isinstance(a, list | str | tuple) else len(b) * a
        if size > limits.current().rules_list:
            raise ValueError(f"a list or text of {size:,} items (at most {limits.current().rules_list:,})")
    return a * b


def modulo(a: Any, b: Any) -> Any:
    """`a % b` of numbers only (Python's `%` also formats text, which could make a text of any size)."""
    if not (a.__class__ in (int, float, bool) and b.__class__ in (int, float, bool)):
        raise TypeError(f"% takes numbers, not {type(a).__name__} and {type(b).__name__}")
    return a % b


class Overrun(ValueError):
    """More work between two questions than the limits allow (located where it was found)."""


def visited(state: Any, items: Any) -> Any:
    """A list an expression goes through, counted against the limit (`rules_items`): nested loops stop."""
    state.room -= len(items)
    if state.room < 0:
        raise Overrun(
            f"the expressions went through more than {state.engine.most_items:,} items without a question to a "
            "player (loops inside loops? raise the limit with --limit rules_items=N)"
        )
    return items


def count(value: Any) -> int:
    return len(value) if isinstance(value, list | tuple | str | dict) else sum(1 for item in value if item)


def shown(state: Any, value: Any) -> str:
    """A value in a label or a message: a card by its item id, none as 'none', a whole float without '.0'."""
    if value.__class__ is Card:
        return str(state.engine.cards.item[value])
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def first(values: Iterable[Any]) -> Any:
    for item in values:
        return item
    return None


def card_number(value: Any) -> int:
    if value.__class__ is not Card:
        raise TypeError(f"only a card has marks, not {value!r}")
    return int(value)


def card_zone(state: Any, value: Any, name: str) -> Any:
    if value.__class__ is not Card:
        return key(value, name)
    family, offset = state.engine.zone_family[state.place[value]]
    if name == "zone":
        return family.name
    return offset % family.count if family.count is not None else 0


def seat(state: Any, seat: Any) -> int:
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.n):
        raise IndexError(f"no seat {seat!r} (seats 0 to {state.n - 1})")
    return int(seat)


def instances(state: Any, family: Family, given: list[Any]) -> list[Any]:
    """The instances of a family given fewer subscripts than it has (`column[p]`: p's columns)."""
    store = state.zones if family.kind == "zone" else state.values
    counted = range(family.count or 1)
    if family.per_player and not given:
        return [[store[family.base + family.offset([p, c])] for c in counted] for p in range(state.n)]
    if family.per_player:
        seat = given[0]
        if not (isinstance(seat, int) and 0 <= seat < state.n):
            raise IndexError(f"{family.name}[{seat!r}]: no such seat (seats 0 to {state.n - 1})")
        return [store[family.base + family.offset([seat, c])] for c in counted]
    return [store[family.base + c] for c in counted]


def by_key(pairs: Any, name: str) -> Any:
    """`min`, `max` or `sorted` of (key, item) pairs by key: the first item of the smallest (largest) key."""
    if name == "sorted":
        keyed = [(key, index, item) for index, (key, item) in enumerate(pairs)]
        keyed.sort(key=lambda entry: (entry[0], entry[1]))
        return [item for _, _, item in keyed]
    best, best_key, found = None, None, False
    for key, item in pairs:
        if not found or (key < best_key if name == "min" else key > best_key):
            best, best_key, found = item, key, True
    return best


NAMESPACE: dict[str, Any] = {
    "Card": Card, "_key": key, "_attribute": attribute, "_mark": mark, "_place": place, "_count": count,
    "_first": first, "_shown": shown, "_plus": plus, "_times": times, "_modulo": modulo, "_visited": visited,
    "sum": sum, "any": any, "all": all, "min": min, "max": max, "len": len,
    "list": list,
    "sorted": sorted, "tuple": tuple, "range": range,
}  # fmt: skip


class Unit:
    """The functions generated for one game: their shared namespace, and where each line came from."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {"__builtins__": {}, **NAMESPACE}
        self.names: dict[Any, str] = {}
        self.counter = itertools.count()
        self.lines: dict[str, list[Location | None]] = {}  # a generated file's name → the location of each line
        self.sources: list[str] = []  # every function's source, as written (for the tests to read)
        self.number = next(_units)

    def ref(self, value: Any) -> str:
        """A name in the namespace for a value (a text, a table, a helper): the source never holds the value."""
        token = (type(value), value) if isinstance(value, int | float | str | bool | type(None)) else id(value)
        name = self.names.get(token)
        if name is None:
            name = self.names[token] = f"k{next(self.counter)}"
            self.namespace[name] = value
        return name

    def fresh(self, prefix: str = "v") -> str:
        """A new name for a Python local of generated code (a generator's item, a temporary)."""
        return f"{prefix}{next(self.counter)}"

    def define(self, name: str, lines: Sequence[tuple[str, Location | None]]) -> Any:
        """Compile one function's source (lines, each with the rules file's location it came from) and return it."""
        filename = f"<rules {self.number}:{name}>"
        source = "\n".join(text for text, _ in lines) + "\n"
        self.sources.append(source)
        self.lines[filename] = [None, *(where for _, where in lines)]
        code: CodeType = compile(source, filename, "exec")
        exec(code, self.namespace)
        return self.namespace[name]

    def expression(self, text: str, where: Location | None, params: str = "s, e") -> Callable[..., Any]:
        """A function `f(s, e)` returning an expression's value."""
        name = self.fresh("f")
        return self.define(name, [(f"def {name}({params}):", where), (f"    return {text}", where)])  # type: ignore[no-any-return]

    def where(self, traceback: TracebackType | None) -> Location | None:
        """The rules file's location of the innermost line of generated code a failure passed through."""
        found = None
        while traceback is not None:
            code = traceback.tb_frame.f_code
            lines = self.lines.get(code.co_filename)
            if lines is not None and 0 < traceback.tb_lineno < len(lines):
                found = lines[traceback.tb_lineno] or found
            traceback = traceback.tb_next
        return found
