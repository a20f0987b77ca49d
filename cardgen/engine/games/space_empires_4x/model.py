"""Space Empires 4X's records and actions: units on the map, the system markers, and what a player may do.

Actions are NamedTuples ending in a `tag`: NamedTuples compare as plain tuples, so the tag keeps two kinds of action
with equal fields (a Load and an Unload of unit 7) apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

MOVE, LOST, ECON, OVER = "move", "lost", "econ", "over"
ON_MAP, TOWED, DEPOSITED, GONE = 0, 1, 2, 3  # where a system marker is
AUTO_UPGRADED = ("SY", "Base", "Decoy")  # 'will automatically receive all later upgrades'
PEEK_DISCARDS = ("danger", "lost-in-space")  # markers with an immediate effect: a peek that reveals them discards them


@dataclass(frozen=True)
class UnitSpec:
    """A row of the Ship Technology chart (rules.yaml `units`)."""

    code: str
    name: str
    cost: int
    cls: str | None
    attack: int
    defense: int
    hull: int
    size_tech: int
    maintained: bool
    basic: bool

    @property
    def armed(self) -> bool:
        return self.attack > 0


@dataclass(frozen=True)
class MarkerSpec:
    """One printed system marker: its set ('home' with its colour, or 'deep'), kind, CP and number."""

    item: str
    set: str
    colour: str | None
    kind: str
    cp: int
    number: int


_new_unit = object.__new__


class Unit:
    """A counter on the map: a group of `count` ships of one type, or a single unit, with the technology it was built
    with (Ship Yards, Bases and Decoys take their owner's current levels instead). `held`: the token of the one state
    that may change it in place (`SE4XState.own`): clones share their units."""

    __slots__ = (
        "att",
        "code",
        "count",
        "dfn",
        "group",
        "held",
        "hex",
        "move",
        "new",
        "owner",
        "peeked",
        "seen",
        "steps",
        "stopped",
        "tac",
        "terra",
        "tow",
        "uid",
    )  # fmt: skip

    def __init__(self, uid: int, owner: int, code: str, group: int, count: int, hex: int, tech: dict[str, int],
                 held: object = None):  # fmt: skip
        self.uid, self.owner, self.code, self.group, self.count, self.hex = uid, owner, code, group, count, hex
        self.held = held
        self.att, self.dfn, self.tac = tech["attack"], tech["defense"], tech["tactics"]
        self.move = tech["movement"]
        self.terra = tech["terraforming"] > 0  # a Colony Ship built after Terraforming may settle Barren Planets
        self.tow = -1  # the marker a Mining Ship tows
        self.steps = 0  # hexes moved this turn
        self.stopped = False  # its movement ended this turn (terrain, an enemy, a Supernova)
        self.peeked = False  # a Cruiser's exploration peek this turn
        self.new = False  # placed in this Economic Phase (a Ship Yard builds nothing yet)
        self.seen = False  # revealed in combat: face up until it is back at one of its colonies

    def copy(self, held: object = None) -> Unit:
        """Every slot assigned in turn (a state copies a unit before it changes it, and a loop of `getattr`/`setattr`
        over the slots was most of a clone's time); tests/test_engine_space_empires.py checks that no slot is missed.
        `held`: the token of the state the copy is for."""
        other = _new_unit(Unit)
        other.held = held
        other.att = self.att
        other.code = self.code
        other.count = self.count
        other.dfn = self.dfn
        other.group = self.group
        other.hex = self.hex
        other.move = self.move
        other.new = self.new
        other.owner = self.owner
        other.peeked = self.peeked
        other.seen = self.seen
        other.steps = self.steps
        other.stopped = self.stopped
        other.tac = self.tac
        other.terra = self.terra
        other.tow = self.tow
        other.uid = self.uid
        return other

    def key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in KEYED)


KEYED = tuple(name for name in Unit.__slots__ if name != "held")  # what a counter is (`key`): not who may change it


class Move(NamedTuple):
    uid: int
    to: int
    tag: str = "move"


class Colonize(NamedTuple):
    uid: int
    tag: str = "colonize"


class Load(NamedTuple):
    uid: int
    tag: str = "load"


class Unload(NamedTuple):
    uid: int
    tag: str = "unload"


class Peek(NamedTuple):
    uid: int
    at: int
    tag: str = "peek"


class PeekChoice(NamedTuple):
    """After a Cruiser's peek, its owner turns the marker face up (one with an immediate effect is then discarded
    harmlessly) or leaves it face down, known to that player alone."""

    reveal: bool
    tag: str = "peek-choice"


class EndMove(NamedTuple):
    tag: str = "end-move"


class Battle(NamedTuple):
    """'If there is more than one battle, the attacker decides the order in which battles occur': the battle (and
    bombardment) at this hex next."""

    at: int
    tag: str = "battle"


class Screen(NamedTuple):
    """Combat Screening: the side with more combat ships keeps one more of this group's ships (one carrying `hits`
    damage) out of the round — it neither fires nor is fired upon."""

    uid: int
    hits: int
    tag: str = "screen"


class OpenFire(NamedTuple):
    """The screening side is done screening: the round's fire begins."""

    tag: str = "open-fire"


class Fire(NamedTuple):
    """The group whose turn it is fires its next ship at this enemy group (at the ship of it already damaged)."""

    target: int
    tag: str = "fire"


class Retreat(NamedTuple):
    """The group whose turn it is retreats to this adjacent hex instead of firing (from the second round)."""

    to: int
    tag: str = "retreat"


class Shift(NamedTuple):
    """Lost in Space: the player to the right moves the lost units one hex."""

    to: int
    tag: str = "shift"


class Research(NamedTuple):
    tech: str
    tag: str = "research"


class Build(NamedTuple):
    code: str
    at: int
    tag: str = "build"


class Upgrade(NamedTuple):
    uid: int
    tag: str = "upgrade"


class Bid(NamedTuple):
    amount: int
    tag: str = "bid"


class Scuttle(NamedTuple):
    uid: int
    tag: str = "scuttle"


class EndEcon(NamedTuple):
    tag: str = "end-econ"
