"""The command line's value types: each checks a value as it is parsed and refuses it in one line naming the option
(a length out of bounds, a number of thousands of digits, a control character in a stamp), never with a traceback."""

from __future__ import annotations

import math
from typing import Any

import click

from cardgen.errors import clipped, whole_number


class Length(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A finite length in millimetres (or points) within bounds: NaN, infinities and absurd values are refused."""

    name = "number"

    def __init__(self, low: float, high: float, unit: str = "mm"):
        self.low, self.high, self.unit = low, high, unit

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            number = value
        else:
            try:
                number = float(value)
            except ValueError:
                self.fail(f"'{clipped(str(value))}' is not a number", param, ctx)
        if not (math.isfinite(number) and self.low <= number <= self.high):
            self.fail(f"{clipped(str(value))} is not between {self.low:g} and {self.high:g} {self.unit}", param, ctx)
        return number


class Whole(click.IntRange):
    """A whole number within bounds, read without `int()` on a number of thousands of digits (Python refuses more
    than 4,300 with an error of its own) and quoted short when it is wrong."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return super().convert(value, param, ctx)
        number = whole_number(str(value).strip(), self.max if self.max is not None else 2**63 - 1)
        if number is None or (self.min is not None and number < self.min):
            self.fail(f"'{clipped(str(value))}' is not a whole number from {self.min:,} to {self.max:,}", param, ctx)
        return number


class PlayerCounts(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A player count (3) or a range of them (2..4), each between 1 and 99."""

    name = "N or A..B"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, ...]:
        if isinstance(value, tuple):
            return value
        low, dots, high = str(value).partition("..")
        first, last = whole_number(low.strip(), 99), whole_number((high if dots else low).strip(), 99)
        if first is None or last is None or not 1 <= first <= last:
            self.fail(f"'{clipped(str(value))}' is not a player count from 1 to 99 or a range like 2..4", param, ctx)
        return tuple(range(first, last + 1))


class Offset(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """X,Y in millimetres, each finite and within ±`bound`."""

    name = "x,y"
    bound = 25.0

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value
        try:
            x, y = (float(v) for v in str(value).split(","))
        except ValueError:
            self.fail(f"'{clipped(str(value))}' is not X,Y in millimetres (e.g. 0.8,-1.2)", param, ctx)
        if not all(math.isfinite(v) and abs(v) <= self.bound for v in (x, y)):
            bound = f"between -{self.bound:g} and {self.bound:g} mm"
            self.fail(f"'{clipped(str(value))}': each offset must be a number {bound}", param, ctx)
        return x, y


class Stamp(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """One line of printable text: a control character (a tab, a line break, an escape) has no glyph to print."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if bad := next((ch for ch in text if not ch.isprintable()), None):
            where = f"character {text.index(bad) + 1}"
            self.fail(f"{clipped(text, 40)!r} holds the control character {bad!r} ({where}): a stamp is one line "
                      "of printable text", param, ctx)  # fmt: skip
        return text


class Paper(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A paper: a name (a4, letter, a3, a5, tabloid, ledger) or a custom WxH in mm or inches (`units.parse_paper`),
    as the build records it (a custom size in mm)."""

    name = "paper"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from cardgen.units import parse_paper

        try:
            return parse_paper(str(value))  # a recorded paper reads back as itself
        except ValueError as exc:
            self.fail(str(exc).replace(str(value), clipped(str(value), 40)), param, ctx)


class Language(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A language code as game.yaml lists it (en, de, pt-BR): it also names a folder of the output."""

    name = "language"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        import re

        from cardgen.data.model import LANGUAGE_PATTERN

        text = str(value)
        if not re.match(LANGUAGE_PATTERN, text) or len(text) > 20:
            self.fail(f"'{clipped(text, 40)}' is not a language code (en, de, pt-BR)", param, ctx)
        return text
