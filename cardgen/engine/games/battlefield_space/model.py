"""Battlefield: Space's vocabulary: the cards as parallel tuples, the records of a battle, and the column total the
rules fix (facts `abilities`), which the state, the greedy agent and any check or layout read from here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

from cardgen.engine.games.battlefield_space.force import column_total

COLUMNS = 3
NO_CARD = -1
NOBODY = 2  # a column neither player wins: both sides go to the Graveyard
TARGETED = {"column_force_plus": "own", "opponent_column_force_minus": "enemy", "win_ties": "own"}


class Status(IntEnum):
    """Where a Battle Modifier beside the battlefield stands."""

    WAITING = 0
    DONE = 1
    CANCELLED = 2


class Mod:
    """A Battle Modifier beside the battlefield: its card, the column it targets (-1: none yet) and its status."""

    __slots__ = ("card", "status", "target")

    def __init__(self, card: int, target: int = -1, status: Status = Status.WAITING):
        self.card, self.target, self.status = card, target, status

    def copy(self) -> Mod:
        return Mod(self.card, self.target, self.status)

    def key(self) -> tuple[int, int, int]:
        return (self.card, self.target, int(self.status))


@dataclass(frozen=True)
class Cards:
    """Every physical card of both decks as parallel tuples indexed by card number (copies are separate cards)."""

    item: tuple[str, ...]
    owner: tuple[int, ...]
    modifier: tuple[bool, ...]
    force: tuple[int, ...]
    race: tuple[str, ...]
    ability: tuple[str, ...]
    value: tuple[int, ...]
    resolution: tuple[int, ...]
    timing: tuple[str, ...]
    effect: tuple[str, ...]

    @cached_property
    def plain(self) -> tuple[bool, ...]:
        """Ships whose Force is just their printed Force (no ability); modifiers are not plain."""
        return tuple(not m and a == "none" for m, a in zip(self.modifier, self.ability, strict=True))


# the formulas layouts and checks read (cardgen/formulas.py)
FORMULAS = {"column_total": column_total}
