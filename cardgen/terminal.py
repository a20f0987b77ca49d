"""What cardgen prints to a terminal: every line goes through `echo`, which shows control characters escaped.

Names, ids and text in a game folder, a log or a results file are a stranger's bytes: an escape sequence in a card's
name (`\\x1b]0;…\\x07`, `\\x1b[2J`) would retitle or clear the terminal, move the cursor or hide the lines after it, and
a carriage return or a right-to-left override can make a line read as something else. `shown` writes such characters
as `\\x1b`, `\\r`, `\\u202e`, so the reader sees that they are there and nothing acts on them. Line breaks and tabs
are kept: they are how cardgen lays out its own output.
"""

from __future__ import annotations

import re
from typing import Any

import click

# C0 controls but tab and line feed, DEL, C1 controls (0x9b is a one-byte CSI), and the bidirectional overrides and
# isolates that reorder what follows them on the line
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    named = {0x0D: "\\r", 0x0B: "\\v", 0x0C: "\\f", 0x08: "\\b", 0x00: "\\0"}
    return named.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def shown(text: str) -> str:
    """`text` with every control character that could act on a terminal written out as an escape."""
    return _CONTROL.sub(_escaped, text) if _CONTROL.search(text) else text


def echo(message: Any = None, err: bool = False, nl: bool = True) -> None:
    """`click.echo` of `message` as `shown` makes it: what cardgen prints comes through here."""
    click.echo(None if message is None else shown(str(message)), err=err, nl=nl)
