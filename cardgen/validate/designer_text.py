"""Designer text: words on a printed page that say how the game was made rather than how it is played.

A player holding the PDFs has no use for "our reading of the rulebook", a rulebook citation, a cardgen command or
option ("rebuild with --ink light"), the deck a card was sorted into, a "faction 3 of 30" counter or an item's id:
those belong in the proof sheet, the gallery's about page and `cardgen validate --notes`. `findings` lists every
such phrase in a page's text, so a test (tests/test_player_pages.py) can read every page of every bundled game and
name what is wrong where.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# What designer text looks like, each with why it is not for players. Matched case-insensitively on the page's text
# with its whitespace (line breaks too) folded to single spaces, so a phrase wrapped over two lines is still found.
DESIGNER_PHRASES: dict[str, str] = {
    r"\bour (?:own )?readings?\b": "a reading of the rulebook",
    r"\b(?:one|a|this|that|either|another|other) readings?\b(?! (?:aloud|lamp))": "a reading of the rulebook",
    r"\breadings? of (?:the|it|this|that|its)\b": "a reading of the rulebook",
    r"\breadings?:": "a reading of the rulebook",
    r"\brule ?books?\b": "a rulebook citation",
    r"\bnever says\b": "what the rulebook does not say",
    r"\brules? (?:is|are) silent\b": "what the rulebook does not say",
    r"\bdesigned for this edition\b": "provenance of a figure",
    r"\bcardgen\b": "the tool that made the files",
    r"\brebuild(?:s|ing)?\b": "rebuilding the files (a player has only the PDFs)",
    r"(?<![\w-])--[a-z][a-z-]*\b": "a command-line option",
    r"\bonly in the (?:[\w-]+ ){1,3}deck\b": "the deck an item was sorted into",
    r"\b(?:build|research) line-ups?\b": "the line-up a card was sorted into (a footer)",
    r"\b(?:faction|card|tile|counter|marker|token|unit|ship|planet|system|variant)s? \d+ of \d+\b": (
        "a count of the items ('faction 3 of 30')"
    ),
}
_PATTERNS = [(re.compile(pattern, re.IGNORECASE), why) for pattern, why in DESIGNER_PHRASES.items()]

# An item id is told from ordinary words by its shape: kebab-case, two or more lower-case parts joined by hyphens
# (`ind-strip-mining`, `sc1-red`). A one-word id (`frigate`, `d10`, `vespians`) reads as a word and cannot be told
# from one, so it is not looked for.
ID_SHAPE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


@dataclass(frozen=True)
class Finding:
    """One piece of designer text on a page: the text as printed, and why it does not belong there."""

    phrase: str
    why: str

    def __str__(self) -> str:
        return f"'{self.phrase}' ({self.why})"


def page_text(text: str) -> str:
    """A page's extracted text with every run of whitespace (line breaks included) as one space."""
    return " ".join(text.split())


def findings(text: str, ids: Iterable[str] = ()) -> list[Finding]:
    """Every designer phrase in `text` (a page's text), and every id of `ids` printed there as it is written:
    case and hyphens kept, as a whole token. `ids` are the items' ids that are not also names a page shows (the
    caller leaves out an id equal to its item's name, and the components' ids, which are the files' names)."""
    flat = page_text(text)
    found = [Finding(match.group(0), why) for pattern, why in _PATTERNS for match in pattern.finditer(flat)]
    for item_id in ids:
        if ID_SHAPE.fullmatch(item_id) and re.search(rf"(?<![\w-]){re.escape(item_id)}(?![\w-])", flat):
            found.append(Finding(item_id, "an item's id"))
    return found


__all__ = ["DESIGNER_PHRASES", "ID_SHAPE", "Finding", "findings", "page_text"]
