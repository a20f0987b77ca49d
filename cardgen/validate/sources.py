"""Quotes compared with the documents they quote: `sources:` in rules.yaml and `cardgen validate --sources DIR`.

The fact check (`cardgen.validate.facts`) reads a fact's value in its quote, but the quote itself is only as good
as its copying: a quote retyped from memory or "tidied" can still hold the right number. A game names the documents
it quotes (its rulebook, an FAQ, a designer's own rules text)::

    sources:
      - {file: rulebook.txt, title: Rift Domination rulebook}

and `cardgen validate --sources DIR` reads each named file from DIR and looks for every quoted passage in them:
facts' `quote:` (each row of a table quote), the 'single-quoted words' in the citations of facts, checks and
contradictions' readings. A passage with an ellipsis (`…` or `...`) is its pieces, each looked for on its own.
Comparison is verbatim once whitespace, typographic quotes, dashes and the minus sign are made plain and double
quotes and Markdown emphasis (`**`) left out. A passage not
found is a violation naming its place in rules.yaml and the nearest text of the sources (file, line, how alike).

The documents stay where the user keeps them: cardgen never ships or copies them (the bundled games' rulebooks are
reference material, see docs/guide/rules-and-checks.md), and a source file is read only from the folder named on
the command line, never through a link leading out of it.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cardgen import limits
from cardgen.data.games import Game
from cardgen.errors import DataError, display_path
from cardgen.files import inside, require_regular
from cardgen.validate.base import Violation
from cardgen.validate.facts import QUOTED, unmarked

_PLAIN = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
                        "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ", "\u2026": "…"})  # fmt: skip
_MARKUP = re.compile(r'\*\*|__|"')  # Markdown emphasis and double quotes: not compared (a quote in YAML drops them)
_ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")
_SPACE = re.compile(r"\s+")
NEAR = 0.6  # how alike (difflib's ratio) a text must be to be offered as the nearest


def plain(text: str) -> str:
    """The text as compared: typographic quotes, dashes, minus and no-break spaces made plain, double quotes and
    Markdown's emphasis (`**`) left out, whitespace runs as one space."""
    return _SPACE.sub(" ", _MARKUP.sub("", text.translate(_PLAIN))).strip()


@dataclass(frozen=True)
class Passage:
    """One quoted passage (a piece of it, when the quote has an ellipsis) and where rules.yaml gives it."""

    text: str
    what: str  # `facts.win_vp`, `facts.win_vp.quote[2]`, `checks[3].cite`, `contradictions[1].readings[0].cite`
    where: str  # rules.yaml:line


@dataclass
class Document:
    """A source document as compared: its plain text and where each of its lines starts in it."""

    name: str
    text: str
    starts: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, name: str, raw: str) -> Document:
        text, starts = "", []
        for line in raw.splitlines():
            starts.append(len(text))
            line = plain(line)
            text += f"{line} " if line else ""  # a blank line is no more space than a line break
        return cls(name, text, starts)

    def line_at(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def find(self, passage: str) -> int | None:
        """The line where `passage` begins, or None."""
        at = self.text.find(passage)
        return None if at < 0 else self.line_at(at)

    def nearest(self, passage: str) -> tuple[float, int, str]:
        """The text most like `passage`: how alike (difflib's ratio), its line, the text. Candidates are windows of
        the passage's length starting at a word near where the longest pieces they share would put them."""
        matcher = difflib.SequenceMatcher(None, self.text, passage, autojunk=False)
        blocks = sorted(matcher.get_matching_blocks(), key=lambda b: -b.size)[:3]
        words = [w.start() for w in re.finditer(r"\S+", self.text)]
        best = (0.0, 0, "")
        for block in blocks:
            if not block.size:
                continue
            near = bisect.bisect_left(words, block.a - block.b)
            for start in words[max(0, near - 4) : near + 4]:
                window = self.text[start : start + len(passage)]
                ratio = difflib.SequenceMatcher(None, window, passage, autojunk=False).ratio()
                if ratio > best[0]:
                    best = (ratio, self.line_at(start), window)
        return best


@dataclass
class SourceReport:
    """What `--sources` found: the documents read, passages found, and violations for the passages not found."""

    documents: list[str]
    found: int = 0
    violations: list[Violation] = field(default_factory=list)


def passages(game: Game) -> Iterator[Passage]:
    """Every quoted passage of the game's rules.yaml, split at its ellipses."""
    doc = game.rules_doc

    def where(*path: str | int) -> str:
        if doc is None:
            return "rules.yaml"
        return f"{doc.where(()).file}:{doc.line_of(path)}"

    def pieces(text: str, what: str, at: str) -> Iterator[Passage]:
        for piece in _ELLIPSIS.split(plain(unmarked(text))):
            if piece:
                yield Passage(piece, what, at)

    rules = game.rules
    for name, fact in rules.facts.items():
        if fact.origin == "designed":
            continue  # our own decision: its citation explains it and quotes nothing
        for quoted in QUOTED.findall(fact.cite):
            yield from pieces(quoted, f"facts.{name}.cite", where("facts", name, "cite"))
        if isinstance(fact.quote, str):
            yield from pieces(fact.quote, f"facts.{name}.quote", where("facts", name, "quote"))
        elif isinstance(fact.quote, dict):
            for key, row in fact.quote.items():
                yield from pieces(row, f"facts.{name}.quote[{key}]", where("facts", name, "quote", key))
    for n, check in enumerate(rules.checks):
        for quoted in QUOTED.findall(check.cite or ""):
            yield from pieces(quoted, f"checks[{n}] ({check.rule})", where("checks", n, "cite"))
    for n, note in enumerate(rules.contradictions):
        for r, reading in enumerate(note.readings):
            for quoted in QUOTED.findall(reading.cite):
                at = where("contradictions", n, "readings", r, "cite")
                yield from pieces(quoted, f"contradictions[{n}] ({note.topic})", at)


def read_sources(game: Game, folder: Path) -> list[Document]:
    """The game's source documents read from `folder`; a one-line `DataError` for one that is missing, leads out
    of the folder, is not a regular file, is too large or is not UTF-8 text."""
    documents = []
    bound = limits.current().source_bytes
    for source in game.rules.sources:
        path = folder / source.file
        shown = display_path(path)
        if not path.exists():
            raise DataError(f"{shown}: not found (rules.yaml of {game.id} names it in sources:)")
        if not inside(path, folder):
            raise DataError(f"{shown}: leads out of {display_path(folder)} (a link); sources are read only inside it")
        require_regular(path)
        if not path.is_file():
            raise DataError(f"{shown}: not a file")
        if path.stat().st_size > bound:
            raise DataError(f"{shown}: larger than {bound:,} bytes (raise it with --limit source_bytes=N)")
        try:
            raw = path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DataError(f"{shown}: not UTF-8 text (byte {exc.start})") from None
        except OSError as exc:
            raise DataError(f"{shown}: cannot be read ({exc.strerror})") from None
        documents.append(Document.of(source.file, raw))
    return documents


def check_sources(game: Game, folder: Path) -> SourceReport:
    """Look for every quoted passage of the game in its sources; a violation for each one not found verbatim."""
    documents = read_sources(game, folder)
    report = SourceReport([d.name for d in documents])
    for passage in passages(game):
        if any(d.find(passage.text) is not None for d in documents):
            report.found += 1
            continue
        ratio, line, text, name = max((*d.nearest(passage.text), d.name) for d in documents)
        alike = f"nearest {name}:{line} ({ratio:.0%} alike): '{text.strip()}'"
        nearest = alike if ratio >= NEAR else "nothing like it"
        rule = f"{passage.what} is quoted verbatim from the sources"
        report.violations.append(Violation(rule, ", ".join(report.documents), f"'{passage.text}'", nearest,
                                           passage.where))  # fmt: skip
    return report
