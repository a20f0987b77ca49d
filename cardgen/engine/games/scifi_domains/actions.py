"""Scifi Domains' actions: small typed values, compared by value and logged by their place in the legal list."""

from __future__ import annotations

from typing import NamedTuple


class Pass(NamedTuple):
    """Stop building and researching, or stop agroing, for this round."""


class Build(NamedTuple):
    """Build `number` units of one type from the Units line-up (any number it holds)."""

    kind: str
    number: int


class Research(NamedTuple):
    """Research the tech in a slot of the Techs line-up."""

    slot: int


class Agro(NamedTuple):
    """Agro the next enemy of a group: 0 Strikers, 1 Space, 2 Ground."""

    group: int


class Reward(NamedTuple):
    """Spend a Reward point on the card in a slot of the Rewards line-up."""

    slot: int


class Deploy(NamedTuple):
    """Combat phase 1: send one more unit (its place in the player's units) into the battle."""

    unit: int


class Done(NamedTuple):
    """Combat phase 1: deploy no more units (the end of a compound choice made one unit at a time)."""


class Absorb(NamedTuple):
    """Combat phases 2 and 4: this unit absorbs as much of the incoming damage as it can."""

    unit: int


class Sacrifice(NamedTuple):
    """Combat phases 3 and 5: this Striker or Ground unit is lost for want of a bay."""

    unit: int


Action = Pass | Build | Research | Agro | Reward | Deploy | Done | Absorb | Sacrifice
PASS = Pass()
DONE = Done()
