"""The functions of a rules file's `functions:`, compiled once for any arguments and again for what a call site knows.

`stat(p, kind, 'hp')` is a generated Python function `u7(s, a1, a2, a3)`. Its generic version knows nothing of its
arguments, so a field read of a parameter first asks whether it holds a card (`k3[a] if a.__class__ is Card else
…`), and arithmetic on it is guarded. A call site often knows more: that an argument is a card, a list of cards or a
number of the data (`Code.card`, `cards`, `number`). For each such signature the function is compiled once more with
its parameters known (`variant`), and the call goes there; what the body gives back (a card, a list of cards) is
known at the call site in turn — a number is not: calls nested on their own results could square it unguarded. A
body that does not compile with its parameters known keeps the generic version, whose failure, if any, comes when
it is played.
"""

from __future__ import annotations

from typing import Any

from cardgen.engine.described.codegen import Unit
from cardgen.engine.described.scopes import Code, Frame, Scope
from cardgen.engine.described.syntax import SyntaxProblem, parse
from cardgen.errors import Location

Kind = str | None  # "card", "cards", "number", or None (nothing known)


def kind_of(code: Code) -> Kind:
    """What a call site knows of an argument."""
    if code.card:
        return "card"
    if code.cards:
        return "cards"
    if code.number:
        return "number"
    return None


class UserFunction:
    """A function of `functions:`: its parameters and the name of its generic code (`u3(s, a, b)`), defined once
    every name is known (so functions may call each other in any order), and its versions for known arguments."""

    def __init__(self, name: str, params: list[str], local: str):
        self.name, self.params, self.local = name, params, local
        self.raw: Any = None
        self.where: Location | None = None
        self.result = Code(local)  # what the generic version gives back, once compiled
        self.variants: dict[tuple[Kind, ...], tuple[str, Code]] = {}

    def define(self, compiler: Any) -> None:
        """The generic version (every function's text is known by now, so its calls may go to versions of any
        other); a syntax problem propagates (the builder reports it at the function's line)."""
        self.result = self._compile(compiler, self.local, (None,) * len(self.params))

    def call(self, compiler: Any, arguments: list[Code]) -> Code:
        """The code of a call: to the version for what is known of the arguments, or to the generic one."""
        kinds = tuple(kind_of(code) for code in arguments)
        local, result = self.local, self.result
        if any(kinds) and self.raw is not None:
            local, result = self._variant(compiler, kinds)
        given = "".join(f", {code.text}" for code in arguments)
        # never known as a number: a function of a number multiplying it, called on its own result again and
        # again, would square it unguarded
        return Code(f"{local}(s{given})", card=result.card, cards=result.cards)

    def _variant(self, compiler: Any, kinds: tuple[Kind, ...]) -> tuple[str, Code]:
        found = self.variants.get(kinds)
        if found is not None:
            return found
        unit: Unit = compiler.unit
        local = unit.fresh("u")
        self.variants[kinds] = (local, Code(local))  # a call of itself while compiled: nothing known of its result
        try:
            result = self._compile(compiler, local, kinds)
        except SyntaxProblem:
            self.variants[kinds] = (self.local, self.result)
        else:
            self.variants[kinds] = (local, result)
        return self.variants[kinds]

    def _compile(self, compiler: Any, local: str, kinds: tuple[Kind, ...]) -> Code:
        unit: Unit = compiler.unit
        scope = Scope(Frame())
        locals_ = [unit.fresh("a") for _ in self.params]
        for param, name, kind in zip(self.params, locals_, kinds, strict=True):
            scope.bind_python(param, name, card=kind == "card", cards=kind == "cards", number=kind == "number")
        raw = self.raw
        code: Code = compiler.code(parse(raw), scope) if isinstance(raw, str) else compiler.constant(raw)
        header = f"def {local}(s{''.join(f', {name}' for name in locals_)}):"
        unit.define(local, [(header, self.where), (f"    return {code.text}", self.where)])
        return code
