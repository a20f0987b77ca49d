"""The functions an expression of a rules file may call, each with the one line the rules reference prints.

They are plain Python functions over the values expressions deal in (numbers, text, cards, lists); none can reach
anything but what it is given. A function whose argument is a generator (`sum(x.force for x in column[p][c])`)
receives an iterator; `min`, `max`, `sorted` and `first` take a key as `by=` (`min(x for x in ships, by=x.force)`).
Functions that read the state (`others`, `has`) receive it first; `STATEFUL` names them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardgen import limits
from cardgen.engine.boards import distances_from

FAR = 10_000  # `distances_from`'s distance to a space no path reaches


class Missing:
    """No `by=` key given."""


@dataclass(frozen=True)
class Builtin:
    """One function: its name, how it is called, what it does, its implementation and the arguments it takes."""

    name: str
    call: str  # as the reference shows it: "count(list)"
    meaning: str
    run: Callable[..., Any]
    least: int
    most: int
    keyed: bool = False  # takes `by=`
    stateful: bool = False  # receives the state first


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else list(value)


def _count(value: Any) -> int:
    if isinstance(value, Iterator):
        return sum(1 for item in value if item)
    return len(value)


def _best(pick: Callable[..., Any], values: tuple[Any, ...], by: Callable[[], Any] | None) -> Any:
    if len(values) > 1:
        return pick(values)
    source = values[0]
    if by is None:
        items = _items(source)
        return pick(items) if items else None
    best, best_key, found = None, None, False
    for item in source:
        key = by()
        if not found or (key < best_key if pick is min else key > best_key):
            best, best_key, found = item, key, True
    return best


def _minimum(*values: Any, by: Callable[[], Any] | None = None) -> Any:
    return _best(min, values, by)


def _maximum(*values: Any, by: Callable[[], Any] | None = None) -> Any:
    return _best(max, values, by)


def _sorted(source: Any, by: Callable[[], Any] | None = None) -> list[Any]:
    if by is None:
        return sorted(source)
    keyed = [(by(), index, item) for index, item in enumerate(source)]
    keyed.sort(key=lambda entry: (entry[0], entry[1]))
    return [item for _, _, item in keyed]


def _first(source: Any, by: Callable[[], Any] | None = None) -> Any:
    for item in source:
        return item
    return None


def _top(source: Any) -> Any:
    items = _items(source)
    return items[-1] if items else None


def _bottom(source: Any) -> Any:
    items = _items(source)
    return items[0] if items else None


def _range(*bounds: int) -> list[int]:
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    if high - low > (most := limits.current().rules_list):
        raise ValueError(f"range of {high - low:,} numbers (at most {most:,}: raise it with --limit rules_list=N)")
    return list(range(low, high))


def _index(source: Any, item: Any) -> int:
    items = _items(source)
    return items.index(item) if item in items else -1


def _flat(source: Iterable[Any]) -> list[Any]:
    return [item for part in source for item in part]


def _keys(mapping: Any) -> list[Any]:
    return list(mapping)


def _values(mapping: Any) -> list[Any]:
    return list(mapping.values())


def _distinct(source: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(source))


def _others(state: Any, seat: int) -> list[int]:
    return [(seat + step) % state.n for step in range(1, state.n) if (seat + step) % state.n not in state.out]


def _after(state: Any, seat: int) -> int:
    following = state.next_alive(seat, state.n)
    return seat if following is None else following


def _has(state: Any, card: Any, trigger: str) -> bool:
    return any(effect.trigger == trigger for effect in state.engine.cards.statements[card])


def _field(state: Any, card: Any, name: str) -> Any:
    table = state.engine.cards.fields.get(name)
    if table is None:
        raise KeyError(f"no card field '{name}'")
    return table[card]


def _cards(state: Any, component: str, seat: int | None = None) -> list[Any]:
    cards = state.engine.cards
    if component not in cards.by_component:
        raise KeyError(f"no cards of a component '{component}' (cards: lists {', '.join(cards.by_component)})")
    found = cards.by_component[component]
    if seat is None:
        return list(found)
    return [card for card in found if cards.owner[card] == seat]


def _applied(state: Any, card: Any) -> bool:
    return state.engine.cards.item[card] in state.applied


@lru_cache(maxsize=1024)
def _distances(board: tuple[tuple[int, ...], ...], start: int) -> tuple[int, ...]:
    return tuple(distances_from(board, [start]))


def _distance(board: Any, start: int, end: int) -> Any:
    found = _distances(tuple(tuple(row) for row in board), start)[end]
    return None if found == FAR else found


def _alive(state: Any) -> list[int]:
    return [seat for seat in range(state.n) if seat not in state.out]


def _out(state: Any, seat: int) -> bool:
    return seat in state.out


FUNCTIONS: dict[str, Builtin] = {
    f.name: f
    for f in (
        Builtin(
            "count",
            "count(list)",
            "how many items (of a generator: how many are true: not false, none or 0)",
            _count,
            1,
            1,
        ),
        Builtin("sum", "sum(list)", "the sum of the numbers (0 for none)", sum, 1, 1),
        Builtin(
            "min",
            "min(list, by=key) or min(a, b, …)",
            "the smallest (by the key), or none",
            _minimum,
            1,
            20,
            keyed=True,
        ),
        Builtin(
            "max", "max(list, by=key) or max(a, b, …)", "the largest (by the key), or none", _maximum, 1, 20, keyed=True
        ),
        Builtin("any", "any(list)", "whether any item is true (not 0, none, false or empty)", any, 1, 1),
        Builtin("all", "all(list)", "whether every item is true", all, 1, 1),
        Builtin("first", "first(list)", "the first item, or none", _first, 1, 1, keyed=True),
        Builtin("top", "top(list)", "the last item (the top of a deck), or none", _top, 1, 1),
        Builtin("bottom", "bottom(list)", "the first item (the bottom of a deck), or none", _bottom, 1, 1),
        Builtin(
            "sorted",
            "sorted(list, by=key)",
            "the items sorted (by the key), equal ones as they were",
            _sorted,
            1,
            1,
            keyed=True,
        ),
        Builtin("list", "list(generator)", "the items as a list", _items, 1, 1),
        Builtin("range", "range(n) or range(a, b)", "the numbers 0…n-1 (a…b-1)", _range, 1, 2),
        Builtin("abs", "abs(x)", "the size of a number", abs, 1, 1),
        Builtin("ceil", "ceil(x)", "a number rounded up to a whole number", math.ceil, 1, 1),
        Builtin("floor", "floor(x)", "a number rounded down to a whole number", math.floor, 1, 1),
        Builtin("index", "index(list, item)", "where the item is in the list (0 first), or -1", _index, 2, 2),
        Builtin(
            "flat", "flat(lists)", "lists joined into one (`flat(column[p])`: every card of p's columns)", _flat, 1, 1
        ),
        Builtin("keys", "keys(table)", "a table's keys, in order", _keys, 1, 1),
        Builtin("values", "values(table)", "a table's values, in order", _values, 1, 1),
        Builtin("distinct", "distinct(list)", "the items without repeats, first ones kept", _distinct, 1, 1),
        Builtin(
            "others",
            "others(seat)",
            "the other seats still playing, in turn order after it",
            _others,
            1,
            1,
            stateful=True,
        ),
        Builtin("after", "after(seat)", "the next seat still playing after it", _after, 1, 1, stateful=True),
        Builtin(
            "cards",
            "cards('component') or cards('component', seat)",
            "the game's cards of a component (of one seat's copies)",
            _cards,
            1,
            2,
            stateful=True,
        ),
        Builtin(
            "distance",
            "distance(board, a, b)",
            "the fewest moves from space a to space b of a board (`boards:`), or none",
            _distance,
            3,
            3,
        ),
        Builtin("alive", "alive()", "the seats still playing, in seat order", _alive, 0, 0, stateful=True),
        Builtin("out", "out(seat)", "whether the seat has been eliminated", _out, 1, 1, stateful=True),
        Builtin(
            "has", "has(card, 'trigger')", "whether a card has an effect with that trigger", _has, 2, 2, stateful=True
        ),
        Builtin(
            "applied",
            "applied(card)",
            "whether the card's ability has taken effect in this game (`applied:`)",
            _applied,
            1,
            1,
            stateful=True,
        ),
        Builtin("field", "field(card, 'name')", "a card's field named by a text", _field, 2, 2, stateful=True),
    )
}
