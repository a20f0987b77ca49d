"""Scifi Domains' vocabulary: the card records, the phases, the damage table and the formulas the rules fix.

The formulas (`build_cost`, `replacement_cost`, `end_vp`) live here once: the state calls them with the numbers the
engine read from rules.yaml, and a check or a layout may call them too (this module imports nothing of the engine).
"""

from __future__ import annotations

import math
from enum import Enum, IntEnum
from typing import NamedTuple

DAMAGE = ("dmg_space", "dmg_space_striker", "dmg_ground", "dmg_ground_striker")
STATS = ("hp", *DAMAGE, "striker_capacity", "drop_capacity", "metal_cost")
COMMAND_SHIP = "command_ship"
# which category each kind of damage hits, and where it falls when none of that category is left
# (rules.yaml contradictions: 'Damage for Strikers when there are none')
HITS: dict[str, tuple[str, str | None]] = {
    "dmg_space": ("space", None),
    "dmg_space_striker": ("space_striker", "space"),
    "dmg_ground": ("ground", None),
    "dmg_ground_striker": ("ground_striker", "ground"),
}
STEPS = (("dmg_space", "dmg_space_striker"), ("dmg_ground", "dmg_ground_striker"))  # combat phases 2 and 4
CARRIED = ((("space_striker", "ground_striker"), "striker_capacity"), (("ground",), "drop_capacity"))


class Phase(IntEnum):
    """Where a round stands (rules.yaml `round_phases`); OVER once the last round is scored."""

    OVER = 0
    BUILD = 3
    AGRO = 4
    BATTLE = 5
    REWARDS = 6


class UnitType(NamedTuple):
    name: str
    category: str
    cost: int
    stats: tuple[int, ...]  # STATS order


class TechCard(NamedTuple):
    unit_type: str
    cost: int
    stat: str
    value: int
    item: str


class RewardCard(NamedTuple):
    effect: str
    value: int
    unit_type: str | None
    item: str


class EnemyCard(NamedTuple):
    group: int  # place in the agro order
    category: str
    hp: int
    damage: tuple[int, ...]  # DAMAGE order
    item: str


def build_cost(each: int, count: int, extra_price: float) -> int:
    """Units of one type bought together: the first at full price, the others at `extra_price` of it, rounded up
    (fact `multi_build_extra_price`). A unit never costs less than 1 Metal."""
    each = max(each, 1)
    return math.ceil(each + (count - 1) * each * extra_price)


def replacement_cost(new: int, held: int, surcharge: int) -> int:
    """A tech replacing one of the same type costs the size of the difference plus the surcharge (fact
    `tech_replacement_surcharge`)."""
    return abs(new - held) + surcharge


def end_vp(vp_cards: int, overflow: int, wealth: int, divisor: int) -> float:
    """The final score (fact `end_vp`): VP cards, Reward points spent as VP at the cap, and the Metal value of
    units plus unspent Metal and Research over the divisor."""
    return vp_cards + overflow + wealth / divisor


# the formulas layouts and checks read (cardgen/formulas.py)
FORMULAS = {"build_cost": build_cost, "replacement_cost": replacement_cost, "end_vp": end_vp}


class Source(Enum):
    """Where a unit came from, and so where its card goes when it is destroyed."""

    CARD = "u"  # a Units card: back to the Units discards
    REWARD = "r"  # a Reward/Gain card: back to the Rewards discards
    SHIP = "c"  # the player's Command Ship: counted as lost


_new = object.__new__


class Unit:
    """One of a player's units: its type, its card, the round it was bought and the damage it has taken. `held`: the
    token of the one state that may change it in place (`ScifiState._own_unit`): clones share their units."""

    __slots__ = ("bought", "card", "damage", "held", "kind", "source")

    def __init__(self, kind: str, source: Source, card: int, bought: int, damage: int = 0, held: object = None):
        self.kind, self.source, self.card, self.bought, self.damage = kind, source, card, bought, damage
        self.held = held

    def copy(self, held: object = None) -> Unit:
        """A copy for the state whose token is `held` (slot by slot, without `__init__`)."""
        unit = _new(Unit)
        unit.kind, unit.source, unit.card, unit.bought, unit.damage, unit.held = (
            self.kind, self.source, self.card, self.bought, self.damage, held
        )  # fmt: skip
        return unit

    def key(self) -> tuple[str, str, int, int, int]:
        """The unit as plain values (observations compare these)."""
        return (self.kind, self.source.value, self.card, self.bought, self.damage)

    def __repr__(self) -> str:
        return f"Unit{self.key()}"


class Foe:
    """An agroed enemy in a battle: its card and the hit points it has left."""

    __slots__ = ("card", "hp")

    def __init__(self, card: int, hp: int):
        self.card, self.hp = card, hp

    def copy(self) -> Foe:
        return Foe(self.card, self.hp)


class Fight:
    """The battle being fought: whose, the enemies, the units deployed (places in the player's units) and, during
    deployment, the order units are offered in and how far down it the player has gone (so each set of deployed
    units is reached by one sequence of choices)."""

    __slots__ = ("cursor", "deployed", "foes", "order", "player")

    def __init__(self, player: int, foes: list[Foe], deployed: list[int], order: tuple[int, ...], cursor: int = 0):
        self.player, self.foes, self.deployed, self.order, self.cursor = player, foes, deployed, order, cursor

    def copy(self) -> Fight:
        return Fight(self.player, [f.copy() for f in self.foes], list(self.deployed), self.order, self.cursor)

    def key(self) -> tuple[object, ...]:
        return (self.player, tuple((f.card, f.hp) for f in self.foes), tuple(self.deployed), self.order, self.cursor)
