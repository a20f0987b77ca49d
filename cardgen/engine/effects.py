"""One grammar for card and faction abilities written as data, and the registry of verbs a game declares in it.

A game's `effects:` lists hold statements `[trigger:] verb [amount] [key=value ...]`, e.g. `gain-credits 4`,
`ready: draw 1 if-hand-at-most=4`, `unit-stat 1 unit=carrier stat=lp`. A game declares its verbs once in a
`Vocabulary` (the keys each takes and their types, where it may stand, one line of meaning) and binds the verbs that
happen to handlers with `@vocabulary.does("verb")`; the engine reads the data with `Vocabulary.parse`, which checks a
statement against the declarations and returns a typed `Effect`, and carries one out with `Vocabulary.run`. A sixth
game declares its own `Vocabulary` and names it in its plugin (`GamePlugin.effects`): docs/effects.md is generated
from every plugin's vocabulary (`python -m cardgen.reference`), so the page and the engines cannot disagree.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardgen.errors import clipped, signed_number, whole_number

AMOUNT_MOST = 999  # far above any card's number, and no loop of an engine runs 10^4000 times

Handler = Callable[..., None]


# -- argument types ----------------------------------------------------------------------------------------------------


class Arg:
    """The type of a key's value: `problem` says what is wrong with a value (None: it is fine), `describe` what it
    takes, for the generated page. Values stay text in the `Effect`; `Effect.num` and `Effect.words` read them."""

    def problem(self, key: str, value: str) -> str | None:
        return None

    def describe(self) -> str:
        return "a word"


@dataclass(frozen=True)
class Number(Arg):
    """A whole number from 0 to `AMOUNT_MOST` (read with `Effect.num`)."""

    def problem(self, key: str, value: str) -> str | None:
        if whole_number(value, AMOUNT_MOST) is None:
            return f"'{key}' takes a whole number from 0 to {AMOUNT_MOST}, not '{clipped(value)}'"
        return None

    def describe(self) -> str:
        return "a number"


@dataclass(frozen=True)
class OneOf(Arg):
    """One word of a fixed list (an enumeration)."""

    words: tuple[str, ...]
    noun: str = ""  # what a word names, for the error ("target": "unknown target 'moon'")

    def problem(self, key: str, value: str) -> str | None:
        if value not in self.words:
            return f"unknown {self.noun or key} '{clipped(value)}' (it takes: {', '.join(sorted(self.words))})"
        return None

    def describe(self) -> str:
        if self.noun:  # a list many verbs share: the page lists its words once, under the table
            return f"a {self.noun}"
        return " \\| ".join(f"`{word}`" for word in self.words)


@dataclass(frozen=True)
class Words(Arg):
    """A list of words joined by `separator` (read with `Effect.words`): each one of `choices` when given, else a
    name from the game's data (`what`)."""

    what: str
    separator: str = ","
    choices: tuple[str, ...] = ()

    def problem(self, key: str, value: str) -> str | None:
        words = value.split(self.separator)
        if not all(words) or (self.choices and not set(words) <= set(self.choices)):
            return f"'{key}' takes {self.describe().replace('`', '')}, not '{clipped(value)}'"
        return None

    def describe(self) -> str:
        among = f" of {', '.join(f'`{word}`' for word in self.choices)}" if self.choices else ""
        return f"{self.what}{among}, `{self.separator}`-separated"


@dataclass(frozen=True)
class Name(Arg):
    """One word naming something of the game's data (a unit type, an upgrade), checked where the game uses it."""

    what: str

    def describe(self) -> str:
        return self.what


# -- statements --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """One parsed statement. `options` keep the order the statement gives them; values are text as written (checked
    against their types when parsed), so an Effect hashes and compares as the statement does."""

    verb: str
    amount: int = 0
    trigger: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def opt(self, key: str, default: str = "") -> str:
        """A key's value as written, or `default` when the statement does not give it."""
        for name, value in self.options:
            if name == key:
                return value
        return default

    def num(self, key: str, default: int = 0) -> int:
        """A `Number` key's value, or `default` when the statement does not give it."""
        value = self.opt(key)
        return int(value) if value else default

    def words(self, key: str, separator: str = ",") -> list[str]:
        """A `Words` key's list (empty when the statement does not give it)."""
        value = self.opt(key)
        return value.split(separator) if value else []


@dataclass(frozen=True)
class Verb:
    """A verb as a game declares it. `where`: the places it may stand (empty: anywhere); `targeted`: it takes a
    `target=` a statement without a trigger must give (a triggered one acts on what triggered it)."""

    name: str
    meaning: str
    keys: Mapping[str, Arg] = field(default_factory=dict)
    where: frozenset[str] = frozenset()
    targeted: bool = False


class Vocabulary:
    """One game's verbs: their declarations (parsing, the page) and the handlers that carry them out.

    `places` name where a verb may stand (`{"occ": "an OCC-card"}`; empty: the game does not say); `triggers` the
    words a statement may start with; `amount` what a statement without a number means. `about` and `notes` are the
    Markdown the generated page puts before and after the table of verbs.
    """

    def __init__(
        self,
        game: str,
        *,
        places: Mapping[str, str] | None = None,
        triggers: Iterable[str] = (),
        amount: int = 0,
        about: str = "",
        notes: str = "",
    ) -> None:
        self.game, self.places, self.triggers = game, dict(places or {}), frozenset(triggers)
        self.amount, self.about, self.notes = amount, about, notes
        self.verbs: dict[str, Verb] = {}
        self.handlers: dict[str, Handler] = {}

    def verb(
        self,
        name: str,
        meaning: str,
        keys: Mapping[str, Arg] | None = None,
        *,
        where: str | Iterable[str] = (),
        targeted: bool = False,
    ) -> Verb:
        """Declare a verb (once): the keys it takes and their types, the places it may stand, what it means."""
        if name in self.verbs:
            raise ValueError(f"{self.game}: the verb '{name}' is declared twice")
        places = frozenset([where] if isinstance(where, str) else where)
        if places - self.places.keys():
            raise ValueError(f"{self.game}: '{name}' stands on {sorted(places)}, not among {sorted(self.places)}")
        self.verbs[name] = declared = Verb(name, meaning, dict(keys or {}), places, targeted)
        return declared

    def does(self, *names: str) -> Callable[[Handler], Handler]:
        """Bind the decorated function as the handler of declared verbs (`@VOCABULARY.does("draw")`)."""

        def bind(handler: Handler) -> Handler:
            for name in names:
                if name not in self.verbs:
                    raise ValueError(f"{self.game}: '{name}' has a handler but is not a declared verb")
                self.handlers[name] = handler
            return handler

        return bind

    def run(self, state: Any, player: int, effect: Effect, *more: Any) -> None:
        """Carry out a statement for a player: its verb's handler, `handler(state, player, effect, *more)` (`more`:
        what else the game's handlers take). A verb without a handler does nothing here: it is a lasting modifier
        the game's rules read where it applies."""
        handler = self.handlers.get(effect.verb)
        if handler is not None:
            handler(state, player, effect, *more)

    def parse(self, statement: str, where: str = "") -> Effect:
        """One statement, checked against the declarations; a ValueError says what is wrong, in one line."""
        trigger = None
        if ":" in statement:
            trigger, statement = (part.strip() for part in statement.split(":", 1))
            if trigger not in self.triggers:
                known = ", ".join(sorted(self.triggers)) or "none in this game"
                raise ValueError(f"unknown trigger '{clipped(trigger)}' (triggers: {known})")
        words = statement.split()
        if not words:
            raise ValueError("an empty statement")
        name, *rest = words
        verb = self.verbs.get(name)
        if verb is None:
            raise ValueError(f"unknown verb '{clipped(name)}'")
        if where and verb.where and where not in verb.where:
            raise ValueError(f"'{name}' belongs on {' or '.join(self.places[p] for p in sorted(verb.where))}")
        amount = self.amount
        if rest and "=" not in rest[0]:
            number = signed_number(rest[0], AMOUNT_MOST)
            if number is None:
                raise ValueError(f"'{name}' takes a whole number up to {AMOUNT_MOST}, not '{clipped(rest[0])}'")
            amount, rest = number, rest[1:]
        options: list[tuple[str, str]] = []
        for word in rest:
            key, eq, value = word.partition("=")
            kind = verb.keys.get(key)
            if not eq or kind is None:
                takes = ", ".join(sorted(verb.keys)) or "nothing"
                raise ValueError(f"'{name}' takes no '{clipped(key)}' (it takes: {takes})")
            if (problem := kind.problem(key, value)) is not None:
                raise ValueError(problem)
            if any(key == given for given, _ in options):
                raise ValueError(f"'{name}' gives '{key}' twice")
            options.append((key, value))
        if verb.targeted and trigger is None and not any(key == "target" for key, _ in options):
            raise ValueError(f"'{name}' needs a target=")
        return Effect(name, amount, trigger, tuple(options))

    def read(
        self, item: str, statements: Iterable[object], where: str = "", what: str = "card"
    ) -> tuple[tuple[Effect, ...], str | None]:
        """A card's `effects` list: every statement parsed, or none and the data problem naming the card (`what`
        'item') and the first statement that cannot be executed (it then plays without its ability, never silently)."""
        parsed = []
        for statement in statements:
            try:
                parsed.append(self.parse(str(statement), where))
            except ValueError as exc:
                return (), f"{what} '{item}': effect '{clipped(str(statement), 60)}' cannot be executed ({exc})"
        return tuple(parsed), None

    def document(self, title: str) -> list[str]:
        """The game's section of docs/effects.md: its about text, the table of verbs, its notes."""
        lines = [f"## {title}", ""]
        if self.about:
            lines += [self.about.strip(), ""]
        if self.triggers:
            lines += ["Triggers: " + ", ".join(f"`{t}`" for t in sorted(self.triggers)) + ".", ""]
        lines += [f"A statement without a number means {self.amount}.", ""]
        placed = bool(self.places)
        head = ["verb", "keys", *(["on"] if placed else []), "meaning"]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for verb in self.verbs.values():
            keys = "; ".join(f"`{key}=` {kind.describe()}" for key, kind in sorted(verb.keys.items())) or "—"
            if verb.targeted:
                keys += " (needed without a trigger)"
            row = [f"`{verb.name}`", keys]
            if placed:
                row.append(" or ".join(self.places[p] for p in sorted(verb.where)) or "anywhere")
            lines.append("| " + " | ".join([*row, verb.meaning]) + " |")
        shared = {(key, kind) for verb in self.verbs.values() for key, kind in verb.keys.items()
                  if isinstance(kind, OneOf) and kind.noun}  # fmt: skip
        for key, kind in sorted(shared, key=lambda pair: pair[0]):
            words = ", ".join(f"`{word}`" for word in sorted(kind.words))
            lines += ["", f"{kind.noun.capitalize()}s (`{key}=`): {words}."]
        if self.notes:
            lines += ["", self.notes.strip()]
        return [*lines, ""]


# -- the generated page ------------------------------------------------------------------------------------------------

PAGE = "docs/effects.md"
PREAMBLE = """# Card effects: one grammar, a vocabulary per game

Generated from the games' vocabularies by `python -m cardgen.reference`; do not edit (`tests/test_effects.py` fails
while this page and the code disagree).

Card and faction abilities are data: a card's `effects` lists statements the reference engine executes. The printed
`text` is for players; `effects` is what `cardgen play` does, so a designer changing a card changes both. A statement
the engine does not know is reported by `cardgen play` under `data_problems`, and the card then plays without its
ability — never silently.

Every game writes them in one grammar, `[trigger:] verb [amount] [key=value ...]`: an optional trigger and a colon,
a verb, an optional whole number (-999 to 999), then keys. A key's value is one word: a number (0 to 999), a word of
a fixed list, a list of words, or a name from the game's data. A game declares its verbs in a `Vocabulary`
(`cardgen/engine/effects.py`) and names it in its plugin (`GamePlugin.effects`); the sections below come from
those declarations.
"""


def vocabularies() -> dict[str, tuple[str, Vocabulary]]:
    """Every game's vocabulary (importing the module its plugin names), by game id, with the game's title."""
    from cardgen.engine.plugin import plugins

    found = {}
    for game, plugin in plugins().items():
        if plugin.effects:
            module, _, name = plugin.effects.partition(":")
            found[game] = (plugin.title, getattr(importlib.import_module(module), name))
    return found


def page() -> str:
    """docs/effects.md as the vocabularies declare it."""
    lines = [PREAMBLE]
    for title, vocabulary in vocabularies().values():
        lines += vocabulary.document(title)
    return "\n".join(lines).rstrip("\n") + "\n"
