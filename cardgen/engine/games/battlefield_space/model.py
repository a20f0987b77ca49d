"""Battlefield: Space's vocabulary: the cards as parallel tuples, the records of a battle, and the column total the
rules fix (facts `abilities`), which the state, the greedy agent and any check or layout read from here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property

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


def column_total(k: Cards, columns: list[list[int]], card: int) -> int:
    """The Force of one player's ships in column c with their abilities (facts `abilities`), without modifiers."""
    ships = [x for x in columns[card] if not k.modifier[x]]
    plain = k.plain
    if all(plain[x] for x in ships):  # the common case: no ability in the column
        force = k.force
        return sum(force[x] for x in ships)
    column_bonus = sum(k.value[x] for x in ships if k.ability[x] == "column_bonus")
    total = 0
    for x in ships:
        ability = k.ability[x]
        total += k.force[x] + column_bonus - (k.value[x] if ability == "column_bonus" else 0)
        if ability == "race_synergy_column":
            total += k.value[x] * sum(1 for y in ships if y != x and k.race[y] == k.race[x])
        elif ability == "race_synergy_battle":
            race = k.race[x]
            total += k.value[x] * sum(
                1 for col in columns for y in col if y != x and not k.modifier[y] and k.race[y] == race
            )
    return total


# the formulas layouts and checks read (cardgen/formulas.py)
FORMULAS = {"column_total": column_total}
