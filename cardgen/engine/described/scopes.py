"""What names mean while a rules file is compiled: the game's names (`Names`), the locals in scope (`Scope`, slots of
a `Frame`), and a compiled expression (`Code`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from cardgen.engine.described.layout import BUILT_IN_ATTRIBUTES, Cards, Family
from cardgen.engine.described.syntax import SyntaxProblem

BUILT_IN_NAMES = {
    "players": "the number of players in this game",
    "seats": "the seats, 0 to players - 1, as a list",
    "turns": "the turns counted so far (`add: {turns: 1}` counts one; the turn cap counts them)",
    "ending": "how the game ended (text), or none while it goes on",
}


class Code(NamedTuple):
    """A compiled expression: its source text, whether repeating it is cheap and harmless, its value if known, and
    whether it is known to be a card (`card`) or a list of cards (`cards`): a card's field is then read straight
    from its table, without asking first whether the value is a card."""

    text: str
    simple: bool = False
    constant: bool = False
    value: Any = None
    card: bool = False
    cards: bool = False
    number: bool = False  # known to be a number of bounded size: arithmetic on it needs no guard
    numbers: bool = False  # known to be a list of such numbers (`range(…)`, `seats`): its items are numbers


class Frame:
    """The locals of one procedure, verb or top-level block: how many slots its `env` needs."""

    def __init__(self) -> None:
        self.size = 0


class Scope:
    """The names visible at a point of a block: each an `env` slot of the frame, or a Python local of generated
    code; a child scope ends with its block."""

    def __init__(self, frame: Frame, parent: Scope | None = None):
        self.frame, self.parent = frame, parent
        self.names: dict[str, str] = {}
        self.slots: dict[str, int] = {}
        self.cards: set[str] = set()  # names that only ever hold a card
        self.known: dict[str, str] = {}  # names known to hold a list of cards ("cards") or a number ("number")
        self.next: int = parent.next if parent else 0

    def child(self) -> Scope:
        return Scope(self.frame, self)

    def lookup(self, name: str) -> str | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def is_card(self, name: str) -> bool:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return name in scope.cards
            scope = scope.parent
        return False

    def known_as(self, name: str) -> str | None:
        """What a parameter is known to hold: "cards", "number", or None."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.known.get(name)
            scope = scope.parent
        return None

    def slot(self, name: str) -> int | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.slots:
                return scope.slots[name]
            scope = scope.parent
        return None

    def _free(self, name: str, column: int) -> None:
        if self.lookup(name) is not None:
            raise SyntaxProblem(f"'{name}' is already a name here: choose another (names do not change)", column)

    def bind(self, name: str, column: int = 1, card: bool = False, number: bool = False) -> int:
        """A local kept in `env` (it lasts while the block waits for a player); `card`: it only holds cards
        (`number`: numbers of the data)."""
        self._free(name, column)
        if card:
            self.cards.add(name)
        if number:
            self.known[name] = "number"
        slot = self.slots[name] = self.next
        self.names[name] = f"e[{slot}]"
        self.next += 1
        self.frame.size = max(self.frame.size, self.next)
        return slot

    def bind_python(
        self,
        name: str,
        local: str,
        column: int = 1,
        shadow: bool = False,
        card: bool = False,
        cards: bool = False,
        number: bool = False,
    ) -> None:
        """A local of generated code only (a generator's item, a function's parameter); `shadow`: a name the rules
        give a meaning of their own (the card of `losses:`), hiding one of the same name; `card`: it holds a card
        (`cards`: a list of cards, `number`: a number of the data — a function's parameter known at its call)."""
        if not shadow:
            self._free(name, column)
        self.names[name] = local
        if card:
            self.cards.add(name)
        if cards or number:
            self.known[name] = "cards" if cards else "number"


@dataclass
class Names:
    """What names in a rules file may mean: the game's zones, values, marks, cards, constants and functions."""

    families: dict[str, Family]
    marks: dict[str, int]
    cards: Cards
    constants: dict[str, Any]
    functions: dict[str, Any] = field(default_factory=dict)  # name → `userfunctions.UserFunction`
    facts: dict[str, Any] = field(default_factory=dict)

    def known(self) -> list[str]:
        return [*self.families, *self.constants, *self.facts, *BUILT_IN_NAMES]

    def attributes(self) -> set[str]:
        """Every name `x.name` may mean: a card's field, mark or built-in attribute, or a key of a table or fact."""
        found = {*self.cards.fields, *self.marks, *BUILT_IN_ATTRIBUTES}
        stack: list[Any] = [*self.facts.values(), *self.constants.values()]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                found.update(str(key) for key in value)
                stack.extend(value.values())
            elif isinstance(value, list | tuple):
                stack.extend(value)
        return found
