"""Calls in a rules file's expressions: the game's own functions (`functions:`), cardgen's (`functions.py`), and those
given a generator (`sum(x.force for x in column[p][c])`), written as Python's own comprehensions and builtins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.described import codegen
from cardgen.engine.described.functions import FUNCTIONS
from cardgen.engine.described.scopes import Code, Scope
from cardgen.engine.described.syntax import Node, SyntaxProblem, chain_of
from cardgen.errors import did_you_mean

if TYPE_CHECKING:
    from cardgen.engine.described.compiler import Compiler

_GENERATOR_CALLS = ("sum", "count", "any", "all", "first", "min", "max", "list", "sorted")


def call(compiler: Compiler, node: Node, scope: Scope) -> Code:
    """A call of a function of `functions:` (its generated code) or of a built-in one."""
    name, arguments, keywords = node.parts
    user = compiler.names.functions.get(name)
    if user is not None:
        if keywords:
            raise SyntaxProblem(f"'{name}' takes no named arguments", node.column)
        if len(arguments) != len(user.params):
            raise SyntaxProblem(f"{name}({', '.join(user.params)}) takes {len(user.params)} argument(s)",
                                node.column)  # fmt: skip
        return user.call(compiler, [compiler.code(a, scope) for a in arguments])  # type: ignore[no-any-return]
    builtin = FUNCTIONS.get(name)
    if builtin is None:
        known = [*FUNCTIONS, *compiler.names.functions]
        raise SyntaxProblem(f"unknown function '{name}'{did_you_mean(name, known)}", node.column)
    if not builtin.least <= len(arguments) <= builtin.most:
        raise SyntaxProblem(f"{builtin.call}: {len(arguments)} argument(s)", node.column)
    for key, _ in keywords:
        if key != "by" or not builtin.keyed:
            raise SyntaxProblem(f"{builtin.call} takes no '{key}='", node.column)
    if arguments and arguments[0].kind == "generator":
        if len(arguments) != 1:
            raise SyntaxProblem(f"{builtin.call}: a generator goes alone", node.column)
        return over(compiler, name, arguments[0], keywords[0][1] if keywords else None, scope.child())
    if keywords:
        raise SyntaxProblem(f"by= needs a generator to name the item: {name}(x for x in …, by=x.cost)",
                            node.column)  # fmt: skip
    if name == "flat" and (fast := flat(compiler, arguments[0], scope)) is not None:
        return fast
    codes = [compiler.code(a, scope) for a in arguments]
    given = ", ".join(code.text for code in codes)
    if name == "count":
        (counted,) = codes
        if counted.cards:
            return Code(f"len({counted.text})", number=True)
        if counted.simple:
            return Code(f"(len({counted.text}) if {counted.text}.__class__ is list else _count({counted.text}))",
                        number=True)  # fmt: skip
        return Code(f"_count({given})", number=True)
    if name in ("min", "max") and len(codes) > 1:  # of several values: Python's own
        return Code(f"{name}({given})", number=all(code.number for code in codes))
    function = compiler.unit.ref(builtin.run)
    if name == "range":
        return Code(f"{function}({given})", numbers=True)
    if builtin.stateful:
        return Code(f"{function}(s, {given})", cards=name == "cards")
    return Code(f"{function}({given})")


def flat(compiler: Compiler, node: Node, scope: Scope) -> Code | None:
    """`flat(column[p])`: every card of a seat's zones of a family, read straight from the state's list."""
    chain, base = _chain(node)
    if base.kind != "name" or scope.lookup(base.parts[0]) is not None:
        return None
    family = compiler.names.families.get(base.parts[0])
    if family is None or family.kind != "zone" or family.count is None or len(chain) != family.dims - 1:
        return None
    subscripts = compiler._owner(family, [compiler.code(n, scope) for n in chain], scope, node.column)
    if family.per_player:
        first = f"{family.base} + {compiler.unit.ref(codegen.seat)}(s, {subscripts[0].text}) * {family.count}"
    else:
        first = str(family.base)
    zone, card = compiler.unit.fresh(), compiler.unit.fresh()
    start = compiler.unit.fresh()
    return Code(f"[{card} for {start} in ({first},) for {zone} in range({start}, {start} + {family.count}) "
                f"for {card} in s.zones[{zone}]]", cards=True)  # fmt: skip


def over(compiler: Compiler, name: str, node: Node, by: Node | None, scope: Scope) -> Code:
    """A function of a generator (`sum(x.force for x in column[p][c] if x.type == 'ship')`) as Python's own."""
    text, plain, clauses = compiler.generator(node, scope)
    card = plain is not None and scope.is_card(node.parts[1][0][0])  # the items are the cards of a list
    # One `for` clause: a list comprehension (quicker than a generator in CPython), never longer than its source, a
    # list that exists already. Several clauses multiply: a generator, whose items are counted as they come.
    items = f"[{text}]" if len(node.parts[1]) == 1 else f"({text})"
    if name in _GENERATOR_CALLS and name not in ("min", "max", "sorted", "first", "count"):
        item = compiler.code(node.parts[0], scope) if name == "sum" else None
        call = f"sum({items})" if name == "sum" else f"[{text}]" if name == "list" else f"{name}({text})"
        return Code(call, cards=card and name == "list", number=item is not None and item.number)
    if name == "count":
        counted = f"1 {' '.join(clauses)}"
        if card:  # a card is always true: count the items the clauses let through
            return Code(f"len([{counted}])" if len(node.parts[1]) == 1 else f"sum({counted})", number=True)
        if plain is not None:
            return Code(f"sum({counted} if ({plain}.__class__ is Card or {plain}))", number=True)
        return Code(f"sum(1 for _item in ({text}) if _item)", number=True)
    if name == "first":
        return Code(f"_first({text})")
    if by is None:
        if name == "sorted":
            return Code(f"sorted({items})", cards=card)
        return Code(f"{name}({items}, default=None)")
    key = compiler.code(by, scope).text
    if plain is not None:  # the key of the item is the key of the generator's name: Python's own key=
        default = "" if name == "sorted" else ", default=None"
        return Code(f"{name}({items}, key=lambda {plain}: {key}{default})", cards=card and name == "sorted")
    pairs = f"(({key}), {node_item(text)}) {' '.join(clauses)}"
    return Code(f"{compiler.unit.ref(codegen.by_key)}(({pairs}), {compiler.unit.ref(name)})")


def node_item(text: str) -> str:
    """The item of a generator's code `item for …` (the text before its first clause)."""
    return text.split(" for ", 1)[0]


def _chain(node: Node) -> tuple[list[Node], Node]:
    return chain_of(node)
