"""Expressions of a rules file compiled, every name resolved before play, into generated Python (`codegen.py`).

A name means, in this order: a local (a `let`, a loop's or a choice's name, a parameter), a built-in (`players`,
`seats`, `turns`, `ending`), a zone or a value of the game (`hand`, `coins`: the one of `player` when the name stands
alone and belongs to each player), a constant (`constants:`, a table, a rules fact by its name: `line_up.units`,
`hand_limit`). An attribute of a card is its field, its mark or a built-in attribute (`card.cost`, `card.damage`,
`card.owner`); of a table, its key. Anything else is a `SyntaxProblem` located in the rules file before a game
starts. A local of a block is a slot of its frame's `env` (`e[3]`); the names of a generator and a function's
parameters are Python locals of the generated code. `Code` is a compiled expression: its text (cardgen's own words
only: see codegen.py), whether it is cheap to repeat, and its value when it is known before play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgen.engine.described import calls, codegen
from cardgen.engine.described.codegen import Unit
from cardgen.engine.described.functions import FUNCTIONS
from cardgen.engine.described.layout import BUILT_IN_ATTRIBUTES, Card, Cards, Family
from cardgen.engine.described.scopes import BUILT_IN_NAMES, Code, Frame, Names, Scope
from cardgen.engine.described.syntax import Node, SyntaxProblem, chain_of
from cardgen.errors import Location, did_you_mean

Fn = Callable[[Any, list[Any]], Any]

_OPERATORS = {"+": "+", "-": "-", "*": "*", "/": "/", "//": "//", "%": "%"}
_COMPARISONS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": "in", "not in": "not in"}


class Compiler:
    """Compiles parsed expressions against a game's `Names` into code of the game's `Unit`."""

    def __init__(self, names: Names, unit: Unit, fixed_state: Any = None):
        self.names, self.unit, self.fixed_state = names, unit, fixed_state
        self.attributes: set[str] | None = None  # worked out at the first attribute, once every constant is known

    # -- functions of the state and the locals ------------------------------------------------------------------------

    def value(self, node: Node, scope: Scope, where: Location | None = None) -> Fn:
        """A function `f(state, env)` computing the expression."""
        code = self.code(node, scope)
        if code.constant:
            value = code.value
            return lambda s, e: value
        fn: Fn = self.unit.expression(code.text, where)
        return fn

    def zone(self, node: Node, scope: Scope, where: Location | None = None) -> Fn:
        """A function giving the state's index of one zone instance (`hand`, `column[p][c]`, `a if … else b`)."""
        fn: Fn = self.unit.expression(self.zone_code(node, scope), where)
        return fn

    # -- code ---------------------------------------------------------------------------------------------------------

    def code(self, node: Node, scope: Scope) -> Code:
        """The expression's code; an expression of constants only is worked out now."""
        code: Code = getattr(self, f"_{node.kind}")(node, scope)
        if not code.constant and node.kind not in ("name", "constant") and self.fixed(node, scope):
            try:
                value = self.unit.expression(code.text, None)(self.fixed_state, [None] * 8)
            except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as exc:
                raise SyntaxProblem(f"cannot work this out: {exc}", node.column) from None
            return self.constant(value)
        return code

    def constant(self, value: Any) -> Code:
        cards = isinstance(value, list) and bool(value) and all(item.__class__ is Card for item in value)
        number = value.__class__ in (int, float) and abs(value) < 2**64
        numbers = isinstance(value, list) and all(item.__class__ is int and abs(item) < 2**64 for item in value)
        return Code(self.unit.ref(value), True, True, value, cards=cards, number=number, numbers=numbers)

    def fixed(self, node: Node, scope: Scope) -> bool:
        """Whether an expression's value is known before play: constants, facts and what pure functions make of
        them (`range(columns)`, `keys(deck_alliance)`, `line_up.units[2]`)."""
        kind = node.kind
        if kind == "constant":
            return True
        if kind == "name":
            name = node.parts[0]
            return (scope.lookup(name) is None and name not in BUILT_IN_NAMES and name not in self.names.families
                    and (name in self.names.constants or name in self.names.facts))  # fmt: skip
        if kind in ("binary", "compare"):
            return self.fixed(node.parts[1], scope) and self.fixed(node.parts[2], scope)
        if kind in ("and", "or", "not", "negative", "choice", "tuple", "list"):
            return all(self.fixed(part, scope) for part in node.parts)
        if kind == "attribute":
            return self.fixed(node.parts[0], scope)
        if kind in ("index", "slice"):
            return all(self.fixed(part, scope) for part in node.parts if part is not None)
        if kind == "call":
            builtin = FUNCTIONS.get(node.parts[0])
            known = builtin is not None and (not builtin.stateful or node.parts[0] == "cards")  # of the data alone
            return (known and node.parts[0] not in self.names.functions and not node.parts[2]
                    and all(self.fixed(a, scope) for a in node.parts[1]))  # fmt: skip
        return False

    def _constant(self, node: Node, scope: Scope) -> Code:
        return self.constant(node.parts[0])

    def _name(self, node: Node, scope: Scope) -> Code:
        name = node.parts[0]
        local = scope.lookup(name)
        if local is not None:
            known = scope.known_as(name)
            return Code(local, simple=True, card=scope.is_card(name), cards=known == "cards", number=known == "number")
        if name == "players":
            return Code("s.n", simple=True)
        if name == "seats":
            return Code("list(range(s.n))", numbers=True)
        if name == "turns":
            return Code("s.turns", simple=True)
        if name == "ending":
            return Code("s.ending", simple=True)
        family = self.names.families.get(name)
        if family is not None:
            return self._family(family, [], scope, node.column)
        return self.constant(self.constant_named(name, node.column))

    def constant_named(self, name: str, column: int) -> Any:
        """A constant, a table or a rules fact by name (`facts` names a fact when a zone or value has its name)."""
        if name in self.names.constants:
            return self.names.constants[name]
        if name in self.names.facts:
            return self.names.facts[name]
        if name == "facts":
            return self.names.facts
        if name in self.names.functions or name in FUNCTIONS:
            raise SyntaxProblem(f"'{name}' is a function: call it, {name}(…)", column)
        raise SyntaxProblem(f"unknown name '{name}'{did_you_mean(name, self.names.known())}", column)

    def _family(self, family: Family, subscripts: list[Code], scope: Scope, column: int) -> Code:
        """A zone's cards or a value, or, given fewer subscripts than it has, the list of its instances."""
        subscripts = self._owner(family, subscripts, scope, column)
        store = "s.zones" if family.kind == "zone" else "s.values"
        if len(subscripts) == family.dims:
            return Code(f"{store}[{self.place(family, subscripts)}]", cards=family.kind == "zone")
        given = ", ".join(code.text for code in subscripts)
        return Code(f"{self.unit.ref(codegen.instances)}(s, {self.unit.ref(family)}, [{given}])")

    def place(self, family: Family, subscripts: list[Code]) -> str:
        """The code of the state's index of one instance, its subscripts checked in range."""
        base, count, name = family.base, family.count, self.unit.ref(family.name)
        if family.dims == 0:
            return str(base)
        if family.dims == 1:
            (index,) = subscripts
            bound = "s.n" if family.per_player else str(count)
            if index.simple:
                checked = f"_place({bound}, None, {name}, {index.text})"
                return f"({base} + {index.text} if 0 <= {index.text} < {bound} else {checked})"
            return f"({base} + _place({bound}, None, {name}, {index.text}))"
        seat, index = subscripts
        if seat.simple and index.simple:
            return (f"({base} + {seat.text} * {count} + {index.text} if 0 <= {seat.text} < s.n and 0 <= {index.text} "
                    f"< {count} else _place(s.n, {count}, {name}, {seat.text}, {index.text}))")  # fmt: skip
        return f"({base} + _place(s.n, {count}, {name}, {seat.text}, {index.text}))"

    def _owner(self, family: Family, subscripts: list[Code], scope: Scope, column: int) -> list[Code]:
        """The subscripts with the seat of `player` first when a player's zone or value is named alone."""
        if subscripts or not family.per_player:
            return subscripts
        local = scope.lookup("player")
        if local is None:
            raise SyntaxProblem(
                f"'{family.name}' belongs to each player: say whose ({family.name}[p]), or name a 'player' first",
                column,
            )
        return [Code(local, simple=True)]

    def _index(self, node: Node, scope: Scope) -> Code:
        chain, base = chain_of(node)
        if base.kind == "name" and scope.lookup(base.parts[0]) is None and base.parts[0] in self.names.families:
            family = self.names.families[base.parts[0]]
            taken = [self.code(n, scope) for n in chain[: family.dims]]
            result = self._family(family, taken, scope, base.column)
            for index in chain[family.dims :]:
                result = Code(f"{result.text}[{self.code(index, scope).text}]")
            return result
        target, subscript = self.code(node.parts[0], scope), self.code(node.parts[1], scope)
        fact = self.code(base, scope) if base.kind == "name" else None  # a table of the data's numbers: a number
        number = fact is not None and fact.constant and _number_depth(fact.value) == len(chain)
        return Code(f"{target.text}[{subscript.text}]", number=number)

    def _slice(self, node: Node, scope: Scope) -> Code:
        target = self.code(node.parts[0], scope)
        start = self.code(node.parts[1], scope).text if node.parts[1] is not None else ""
        end = self.code(node.parts[2], scope).text if node.parts[2] is not None else ""
        return Code(f"{target.text}[{start}:{end}]", cards=target.cards)

    def _attribute(self, node: Node, scope: Scope) -> Code:
        target, name = self.code(node.parts[0], scope), node.parts[1]
        if self.attributes is None:
            self.attributes = self.names.attributes()
        if name not in self.attributes:
            known = [*self.names.cards.fields, *self.names.marks, *BUILT_IN_ATTRIBUTES]
            raise SyntaxProblem(f"unknown attribute '{name}': no card field, mark or table key has this name"
                                f"{did_you_mean(name, known)}", node.column)  # fmt: skip
        label, cards = self.unit.ref(name), self.names.cards
        if name in self.names.marks:
            index, marks = self.names.marks[name], len(self.names.marks)
            if target.card:
                return Code(f"s.marks[{target.text} * {marks} + {index}]")
            if target.simple:
                x = target.text
                return Code(f"(s.marks[{x} * {marks} + {index}] if {x}.__class__ is Card else _key({x}, {label}))")
            return Code(f"_mark(s, {target.text}, {index}, {marks}, {label})")
        table = cards.fields.get(name) or built_in_table(cards, name)
        if table is not None:
            ref = self.unit.ref(table)
            if target.card:  # a field of numbers only (the data's, bounded) is a number
                return Code(f"{ref}[{target.text}]", number=_numbers(table))
            if target.simple:
                x = target.text
                return Code(f"({ref}[{x}] if {x}.__class__ is Card else _key({x}, {label}))")
            return Code(f"_attribute({ref}, {target.text}, {label})")
        if name in ("zone", "place"):
            return Code(f"{self.unit.ref(codegen.card_zone)}(s, {target.text}, {label})")
        return Code(f"_key({target.text}, {label})")

    def _binary(self, node: Node, scope: Scope) -> Code:
        op, left, right = node.parts[0], self.code(node.parts[1], scope), self.code(node.parts[2], scope)
        joined = op == "+" and left.cards and right.cards  # two lists of cards are one
        if left.number and right.number and op in ("+", "-", "*"):  # of the data's own numbers: as Python's
            return Code(f"({left.text} {op} {right.text})", number=True)
        if op == "*" and any(side.constant and side.value.__class__ is float for side in (left, right)):
            return Code(f"({left.text} * {right.text})", number=True)  # a float: never a list, never unbounded
        number = (
            left.number
            or right.number
            or (left.constant and left.value.__class__ in (int, float))
            or (right.constant and right.value.__class__ in (int, float))
        )
        if op in ("+", "-") and (number or op == "-"):  # adding a number, or taking away: nothing grows much
            return Code(f"({left.text} {op} {right.text})", cards=joined)
        helper = {"+": "_plus", "*": "_times", "%": "_modulo"}.get(op)
        if helper is not None:  # what could build a list, a text or a number of any size is bounded
            return Code(f"{helper}({left.text}, {right.text})", cards=joined)
        return Code(f"({left.text} {_OPERATORS[op]} {right.text})")

    def _negative(self, node: Node, scope: Scope) -> Code:
        return Code(f"(-{self.code(node.parts[0], scope).text})")

    def _compare(self, node: Node, scope: Scope) -> Code:
        op, left, right = node.parts[0], self.code(node.parts[1], scope), self.code(node.parts[2], scope)
        if right.constant and right.value is None and op in ("==", "!="):
            return Code(f"({left.text} {'is' if op == '==' else 'is not'} None)")
        return Code(f"({left.text} {_COMPARISONS[op]} {right.text})")

    def _and(self, node: Node, scope: Scope) -> Code:
        return Code(f"({self.code(node.parts[0], scope).text} and {self.code(node.parts[1], scope).text})")

    def _or(self, node: Node, scope: Scope) -> Code:
        return Code(f"({self.code(node.parts[0], scope).text} or {self.code(node.parts[1], scope).text})")

    def _not(self, node: Node, scope: Scope) -> Code:
        return Code(f"(not {self.code(node.parts[0], scope).text})")

    def _choice(self, node: Node, scope: Scope) -> Code:
        test, yes, no = (self.code(part, scope) for part in node.parts)
        return Code(f"({yes.text} if {test.text} else {no.text})", card=yes.card and no.card,
                    cards=yes.cards and no.cards, number=yes.number and no.number)  # fmt: skip

    def _tuple(self, node: Node, scope: Scope) -> Code:
        return Code("(" + "".join(f"{self.code(part, scope).text}, " for part in node.parts) + ")")

    def _list(self, node: Node, scope: Scope) -> Code:
        return Code("[" + ", ".join(self.code(part, scope).text for part in node.parts) + "]")

    def _collect(self, node: Node, scope: Scope) -> Code:
        inner = scope.child()
        text, plain, _ = self.generator(node.parts[0], inner)
        return Code(f"[{text}]", cards=plain is not None and inner.is_card(node.parts[0].parts[1][0][0]))

    def _generator(self, node: Node, scope: Scope) -> Code:
        raise SyntaxProblem("a generator ('x for x in …') goes inside a function's parentheses or '[ ]'", node.column)

    def generator(self, node: Node, scope: Scope) -> tuple[str, str | None, list[str]]:
        """A generator's code `item for v1 in … if …`, the Python name of its item when the item is its only name
        (`x for x in hand`), and the code of its clauses alone (`for v1 in … if …`); names bound in `scope`."""
        item_node, clauses = node.parts
        parts = []
        for name, source, test, column in clauses:
            source_code = self.code(source, scope)
            local = self.unit.fresh()
            scope.bind_python(name, local, column, card=source_code.cards, number=source_code.numbers)
            parts.append(f"for {local} in _visited(s, {source_code.text})")
            if test is not None:
                parts.append(f"if {self.code(test, scope).text}")
        item = self.code(item_node, scope).text
        plain = item if len(clauses) == 1 and item_node.kind == "name" and item == scope.lookup(clauses[0][0]) else None
        return f"{item} {' '.join(parts)}", plain, parts

    def _call(self, node: Node, scope: Scope) -> Code:
        return calls.call(self, node, scope)

    # -- zones and targets --------------------------------------------------------------------------------------------

    def zone_code(self, node: Node, scope: Scope) -> str:
        """The code of the state's index of one zone instance."""
        if node.kind == "choice":
            test = self.code(node.parts[0], scope).text
            yes, no = self.zone_code(node.parts[1], scope), self.zone_code(node.parts[2], scope)
            return f"({yes} if {test} else {no})"
        chain, base = chain_of(node)
        family = None
        if base.kind == "name" and scope.lookup(base.parts[0]) is None:
            family = self.names.families.get(base.parts[0])
        if family is None or family.kind != "zone":
            zones = [name for name, f in self.names.families.items() if f.kind == "zone"]
            named = base.parts[0] if base.kind == "name" else ""
            hint = did_you_mean(named, zones) if named else ""
            raise SyntaxProblem(f"expected a zone (hand, column[p][c]){hint}; zones: {', '.join(zones)}", node.column)
        subscripts = self._owner(family, [self.code(n, scope) for n in chain], scope, base.column)
        if len(subscripts) != family.dims:
            raise SyntaxProblem(f"'{family.name}' needs {family.dims} subscript(s) here", node.column)
        return self.place(family, subscripts)

    def target(self, node: Node, scope: Scope) -> str:
        """The code of what `set:` and `add:` change: a value (`coins`, `bonus[p][c]`), a card's mark, `turns`."""
        if node.kind == "attribute":
            name = node.parts[1]
            if name not in self.names.marks:
                known = list(self.names.marks)
                raise SyntaxProblem(f"'{name}' is not a mark of cards{did_you_mean(name, known)}", node.column)
            card, index, marks = self.code(node.parts[0], scope), self.names.marks[name], len(self.names.marks)
            check = self.unit.ref(codegen.card_number)
            if card.simple:
                number = f"({card.text} if {card.text}.__class__ is Card else {check}({card.text}))"
                return f"s.marks[{number} * {marks} + {index}]"
            return f"s.marks[{check}({card.text}) * {marks} + {index}]"
        chain, base = chain_of(node)
        name = base.parts[0]
        if name == "turns" and not chain:
            return "s.turns"
        family = self.names.families.get(name)
        if family is None or family.kind != "value" or scope.lookup(name) is not None:
            values = [n for n, f in self.names.families.items() if f.kind == "value"]
            hint = did_you_mean(name, values)
            raise SyntaxProblem(f"'{name}' is not a value of the game (declare it under values:){hint}", node.column)
        subscripts = self._owner(family, [self.code(n, scope) for n in chain], scope, base.column)
        if len(subscripts) != family.dims:
            raise SyntaxProblem(f"'{name}' needs {family.dims} subscript(s) here", node.column)
        return f"s.values[{self.place(family, subscripts)}]"


def _numbers(table: tuple[Any, ...]) -> bool:
    """Whether every value of a field is a number (of the data: bounded) or none (arithmetic on none fails)."""
    return all(value is None or value.__class__ in (int, float) for value in table)


def _number_depth(value: Any, depth: int = 0) -> int | None:
    """How deep a table's numbers lie when every one lies equally deep (`{2: {a: 1}, 3: {a: 2}}` → 2), else none."""
    if value.__class__ in (int, float) and abs(value) < 2**64:
        return depth
    if depth > 8 or not isinstance(value, dict | list | tuple) or not value:
        return None
    depths = {_number_depth(item, depth + 1) for item in (value.values() if isinstance(value, dict) else value)}
    return depths.pop() if len(depths) == 1 else None


def built_in_table(cards: Cards, name: str) -> tuple[Any, ...] | None:
    if name == "id":
        return cards.item
    if name == "component":
        return cards.component
    if name == "owner":
        return cards.owner
    if name == "type":
        return cards.type
    if name == "number":
        return tuple(range(len(cards)))
    return None


__all__ = ["BUILT_IN_ATTRIBUTES", "BUILT_IN_NAMES", "Code", "Compiler", "Fn", "Frame", "Names", "Scope"]
