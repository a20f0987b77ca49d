"""Errors as values with a location, raised once and rendered once at the edge (the command line).

Every problem cardgen reports about its input names where it is: a file, a line, and the field (or card id) at fault.
`DataError` means the input could not be read (exit code 2); `RuleError` means the data was read but breaks a rule
(exit code 1). Both may carry several problems so that all mistakes of a file are reported together.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

EXIT_RULE = 1
EXIT_INPUT = 2


@dataclass(frozen=True)
class Location:
    """Where something sits in the input: a file, optionally a 1-based line and a dotted field path."""

    file: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        text = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{text}: {self.field}" if self.field else text


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, with its location."""

    where: Location | None
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class CardgenError(Exception):
    """Base of every error cardgen reports to a user; carries one or more located problems."""

    exit_code = EXIT_INPUT

    def __init__(self, problems: list[Problem] | str, where: Location | None = None, *, summary: str = ""):
        if isinstance(problems, str):
            problems = [Problem(where, problems)]
        self.problems = problems
        self.summary = summary  # a closing line after the problems (what happened because of them), not one itself
        super().__init__("\n".join([*(str(p) for p in problems), *([summary] if summary else [])]))

    def lines(self) -> list[str]:
        """One line per problem, then the summary, ready to print."""
        return [" ".join(str(p).split("\n")) for p in self.problems] + ([self.summary] if self.summary else [])


class DataError(CardgenError):
    """The input could not be read: bad YAML, an unknown field, a missing file, an unknown game (exit 2)."""

    exit_code = EXIT_INPUT


class RuleError(CardgenError):
    """The input was read but breaks a rule, for example text that does not fit its box (exit 1)."""

    exit_code = EXIT_RULE


def read_text(path: Path, what: str, encoding: str = "utf-8") -> str:
    """A user's text file, or a `DataError` naming it: `what` says what it should be ("a game log", "a CSV file")."""
    shown = display_path(path)
    try:
        return path.read_text(encoding=encoding)
    except UnicodeDecodeError as exc:
        raise DataError(f"{shown}: not {what}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except OSError as exc:
        raise DataError(f"{shown}: cannot read ({exc.strerror})") from None


def display_path(path: Path | str) -> str:
    """A path as a user wants to read it: relative to the working directory when it lies below it."""
    return _display_path(str(path), os.getcwd())


@functools.lru_cache(maxsize=4096)
def _display_path(path: str, cwd: str) -> str:
    """Kept by path and working directory: loading resolved each file's path several times (lstat per folder), a
    tenth of loading the bundled games."""
    p = Path(path)
    try:  # realpath, not resolve(): a symbolic link loop is shown by its name, not raised as a RuntimeError
        return str(Path(os.path.realpath(p)).relative_to(os.path.realpath(cwd)))
    except ValueError:
        return str(p)


def did_you_mean(word: str, choices: list[str] | set[str] | tuple[str, ...]) -> str:
    """A ' (did you mean ...?)' hint for a misspelt name, or '' when nothing is close."""
    import difflib

    close = difflib.get_close_matches(str(word), sorted(map(str, choices)), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def whole_number(text: str, most: int) -> int | None:
    """`text` as a whole number from 0 to `most` written in ASCII digits, else None. A number from outside (an option,
    a log) is checked before `int()` reads it: `int()` refuses more than 4,300 digits with an error of its own, and
    `str.isdigit()` passes '²' and other digits `int()` cannot read."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(most)):
        return None
    value = int(text)
    return value if value <= most else None


def signed_number(text: str, most: int) -> int | None:
    """`whole_number` with an optional minus sign: from -`most` to `most`, else None."""
    value = whole_number(text.removeprefix("-"), most)
    return -value if value is not None and text.startswith("-") else value


def clipped(text: str, most: int = 24) -> str:
    """`text` as an error message quotes it: at most `most` characters, and how long it was when it is longer."""
    return text if len(text) <= most else f"{text[: most - 1]}… ({len(text):,} characters)"
