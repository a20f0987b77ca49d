"""Where a described game keeps what changes: cards as numbers, zones and values as flat lists, marks per card.

The rules file names zones (`hand`, `column`), values (`coins`, `bonus`) and marks (`damage`); this module turns each
into places in a state's flat lists. A zone or value declared `each: player` has one instance per seat, and one with
`count: N` has N (per seat when both: `column[p][c]`); each instance is one entry of `DescribedState.zones` (a list of
cards) or `DescribedState.values` (any plain value), found by `Family.offset`. A card is a `Card`: an int (its number
among the game's cards) of its own type, so an expression can tell `card.force` from a number's attribute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class Card(int):
    """A card: its number among the game's cards (every copy of every item the rules file lists, in order)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Card({int(self)})"

    def __str__(self) -> str:  # a card in a message is its number
        return int.__repr__(self)

    def __bool__(self) -> bool:  # card number 0 is a card, not nothing: `if card` and `first(…) or …` mean it
        return True


@dataclass(frozen=True)
class Family:
    """A named zone or value with its instances: one, one per seat (`each: player`), N (`count: N`), or both."""

    name: str
    kind: str  # "zone" or "value"
    base: int  # the first instance's place in the state's list
    per_player: bool
    count: int | None  # the second dimension (columns, spaces), or None

    @property
    def dims(self) -> int:
        """How many subscripts address one instance (0, 1 or 2)."""
        return int(self.per_player) + int(self.count is not None)

    def size(self, seats: int) -> int:
        return (seats if self.per_player else 1) * (self.count or 1)

    def offset(self, indices: Sequence[int]) -> int:
        """The instance at `indices` (seat first, then the count's index), relative to `base`."""
        if self.per_player and self.count is not None:
            return indices[0] * self.count + indices[1]
        return indices[0] if indices else 0

    def label(self, offset: int) -> str:
        """The instance's name as an expression writes it: `column[1][2]`, `market`."""
        if self.per_player and self.count is not None:
            return f"{self.name}[{offset // self.count}][{offset % self.count}]"
        if self.per_player or self.count is not None:
            return f"{self.name}[{offset}]"
        return self.name

    def seat(self, offset: int) -> int | None:
        """The seat an instance belongs to, or None for a shared one."""
        if not self.per_player:
            return None
        return offset // self.count if self.count is not None else offset


VISIBLE = ("everyone", "owner", "nobody")


@dataclass
class Zone:
    """How a zone family behaves: who sees it, how it is drawn from, what refills it, what it may hold."""

    family: Family
    visible: str = "everyone"  # everyone | owner (its seat sees it, others count it) | nobody (all count it)
    draw: str = "top"  # top: the last card of the list; random: any card, at random (an unordered pile)
    refill_from: Family | None = None  # drawing from it empty first moves these cards in (same shape)
    refill_shuffle: bool = False
    size: Any = None  # compiled expression: a line-up's size (`refill`), checked as a limit too
    limit: Any = None  # compiled expression: the most cards it may hold (an invariant)
    accepts: Any = None  # compiled expression of `card`: what a determinization may deal into it
    where: Any = None  # the Location of its declaration


@dataclass
class Cards:
    """Every card of the game as parallel tuples indexed by card number, and each field's values."""

    component: tuple[str, ...] = ()
    item: tuple[str, ...] = ()
    owner: tuple[int | None, ...] = ()
    type: tuple[str | None, ...] = ()
    fields: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    statements: tuple[tuple[Any, ...], ...] = ()  # each card's parsed effects (`effects.Effect`)
    cards: tuple[Card, ...] = ()
    by_component: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    seats: dict[str, int] = field(default_factory=dict)  # a component dealt each seat a copy: how many seats

    def __len__(self) -> int:
        return len(self.item)


BUILT_IN_ATTRIBUTES: Mapping[str, str] = {
    "id": "the card's item id (its `id:` in the data)",
    "component": "the id of the component it comes from",
    "owner": "the seat it belongs to (`owner:` or `each: player` in `cards:`), or none",
    "type": "its card type (`type:` in the data)",
    "number": "its number among the game's cards (each copy has its own)",
    "zone": "the name of the zone it is in",
    "place": "its zone's last index (`column[p][2]` → 2, `space[7]` → 7), or 0",
}
