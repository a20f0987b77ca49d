"""Rift Domination's records and actions, and the effect vocabulary OCC-cards and faction sheets are written in.

An OCC-card's or a faction's `effects` are statements `verb [amount] [key=value ...]` (`VOCABULARY`): on an OCC-card
they happen when it resolves; on a faction sheet they are lasting modifiers. A statement the engine does not know is
a data problem `cardgen play` reports, and the card or faction then plays without it — never silently.

Actions are NamedTuples ending in a `tag` (NamedTuples compare as plain tuples: the tag keeps kinds apart).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from cardgen.errors import clipped, signed_number

# steps of a turn (rules.yaml `turn_steps`; drawing, income and the track happen as the turn starts)
SETUP_FACTION, SETUP_START, SETUP_TILES, PEEK, BUILD, MOVE, RECRUIT, ROSTER, OVER = (
    "faction", "start", "tiles", "peek", "build", "move", "recruit", "roster", "over")  # fmt: skip

# verb -> (keys it takes, where it may stand: "occ" or "faction", one line of meaning)
BATTLE_VERBS = ("first-strike", "reroll-misses", "double-hit", "retreat-any-phase", "battle-shields", "salvage")
VOCABULARY: dict[str, tuple[frozenset[str], str, str]] = {
    "gain-resources": (frozenset({"per", "max"}), "occ", "gain N resources (per planet you control, at most max)"),
    "lose-resources": (frozenset({"who"}), "occ", "lose N resources, as many as you have (who=all: every player)"),
    "gain-vp": (frozenset(), "occ", "gain N victory points"),
    "lose-vp": (frozenset(), "occ", "lose N victory points (never below 0)"),
    "draw": (frozenset(), "occ", "draw N OCC-cards"),
    "destroy-own": (frozenset({"unit"}), "occ", "N of your units of a type are destroyed"),
    "free-upgrade": (frozenset({"upgrade"}), "occ", "build the named upgrade free on a planet you control"),
    "fleet-movement": (frozenset(), "occ", "your largest fleet's units gain N movement points this turn"),
    "cancel": (frozenset(), "occ", "answer an OCC-card played against you: both are discarded without effect"),
    "leap-fleet": (frozenset(), "occ", "your largest fleet moves to an adjacent system for no movement points"),
    "slow-home": (
        frozenset(),
        "occ",
        "your units in your home system have N fewer movement points next turn (at least 1)",
    ),
    "recruit": (
        frozenset({"locked"}),
        "occ",
        "recruit up to N units at your military base, paying their cost (locked=yes: types you have not unlocked)",
    ),
    "first-strike": (frozenset(), "occ", "battle: when you defend, you fire first in the battle's first phase"),
    "reroll-misses": (frozenset(), "occ", "battle: in the first phase, roll again every die of yours that missed"),
    "double-hit": (frozenset(), "occ", "battle: in the first phase, one of your hits deals 2 damage"),
    "retreat-any-phase": (frozenset(), "occ", "battle: you may retreat at the end of any phase"),
    "battle-shields": (frozenset(), "occ", "battle: your dearest unit in it gains N shields until it ends"),
    "salvage": (frozenset(), "occ", "battle: if you win it, gain half the cost of the enemy units destroyed"),
    "sabotage": (frozenset(), "occ", "destroy N enemy upgrades (not a military base) where you have a unit in orbit"),
    "steal-occ": (frozenset(), "occ", "take N OCC-cards from the player holding most (at random)"),
    "damage-home-orbit": (
        frozenset(),
        "occ",
        "N damage to every unit at a planet of your home system (kills 1-LP units)",
    ),
    "orbital-strike": (
        frozenset({"roll"}),
        "occ",
        "roll N dice at an enemy upgrade in a system where you have a unit: each roll or higher deals it 1 damage",
    ),
    "immunity": (frozenset({"unit"}), "occ", "until the end of the round, no unit may target your units of a type"),
    "blockade": (
        frozenset(),
        "occ",
        "enemy units cannot leave the system where you have most units until the start of your next turn",
    ),
    "fighters-per-turn": (frozenset(), "faction", "gain N fighters at the start of your turn instead of 2"),
    "draws-per-turn": (frozenset(), "faction", "draw N OCC-cards at the start of your turn instead of 2"),
    "movement": (frozenset({"unit"}), "faction", "your units (of a type) have N more movement points"),
    "dangerous-roll": (frozenset(), "faction", "you take a dangerous planet on a roll of N or higher"),
    "system-vp": (frozenset(), "faction", "controlling a whole system gives you N VP"),
    "anomaly-vp": (frozenset(), "faction", "anomaly planets give you N more VP"),
    "anomaly-infantry": (frozenset(), "faction", "anomaly planets give you N infantry instead of 2"),
    "upgrade-slots": (frozenset(), "faction", "each of your planets holds N more upgrades"),
    "mine-bonus": (frozenset(), "faction", "each of your mines produces N more resources"),
    "outpost-occ": (frozenset(), "faction", "each of your trading outposts gives N OCC-cards"),
    "civilized-cost": (frozenset(), "faction", "civilized planets cost you N resources to take with infantry"),
    "civilized-occ": (frozenset(), "faction", "civilized planets taken with infantry give you N OCC-cards"),
    "upgrade-cost": (frozenset({"upgrade"}), "faction", "the named planet upgrade costs you N resources"),
    "upgrade-discount": (frozenset(), "faction", "your planet upgrades cost N less (at least 1)"),
    "no-new-bases": (frozenset(), "faction", "you never build a military base (beyond the one on your home planet)"),
    "dangerous-dice": (frozenset(), "faction", "landing on a dangerous planet, roll N dice and keep the best"),
    "negotiate-dangerous": (frozenset(), "faction", "your diplomats negotiate with dangerous planets as if civilized"),
    "diplomat-loss-occ": (frozenset(), "faction", "draw N OCC-cards when one of your diplomats is destroyed"),
    "hand-limit": (frozenset(), "faction", "hold at most N OCC-cards (discard the oldest at the end of your turn)"),
    "harvester-landing": (frozenset(), "faction", "harvester planets give you N more resources on landing"),
    "harvester-bonus": (frozenset(), "faction", "two mines on a harvester give you N a round instead of 2"),
    "win-loot": (
        frozenset({"battle"}),
        "faction",
        "when you win a battle (battle=space: a space battle), take N resources from the loser",
    ),
    "win-salvage": (
        frozenset({"max"}),
        "faction",
        "when you win a battle, gain N per enemy unit destroyed in it (at most max)",
    ),
    "slow-enemies": (
        frozenset(),
        "faction",
        "enemy units have N fewer movement points in systems where you control a planet (never below 1)",
    ),
    "recruit-bonus": (frozenset({"unit"}), "faction", "recruiting at a military base, N units of a type join free"),
    "diplomat-recruit": (
        frozenset({"kinds"}),
        "faction",
        "your diplomats recruit units of these kinds (kinds=a/b) where they stand, as a military base does",
    ),
    "sacrifice-answer": (
        frozenset({"unit"}),
        "faction",
        "instead of resolving an instant OCC-card or one played against you, you may sacrifice a unit of a type",
    ),
    "wormhole-cost": (frozenset(), "faction", "reaching and travelling through a wormhole costs your units N in all"),
    "place-wormhole": (
        frozenset(),
        "faction",
        "once a round, place N wormhole tiles in systems where you control a planet",
    ),
    "consume": (
        frozenset(),
        "faction",
        "landing on a planet with a condition tile, you may discard it unrevealed for N resources; the planet can"
        " never be controlled",
    ),
    "trade-occ": (
        frozenset({"discard"}),
        "faction",
        "once a turn, pay N resources to draw an OCC-card, or discard (discard=) cards to gain N resources",
    ),
    "battle-ward": (frozenset(), "faction", "once a battle, one of your units ignores the first N hits it takes"),
    "revenge": (
        frozenset({"roll"}),
        "faction",
        "when a unit of yours is destroyed in battle, roll: on roll or higher an enemy unit takes N damage",
    ),
    "warp-infantry": (frozenset(), "faction", "your warps slow enemy infantry too"),
    "warps-per-system": (frozenset(), "faction", "you may build N warps in one system"),
    "home-shields": (frozenset(), "faction", "in your home system each of your units with a shield has N more"),
    "buildings-first": (
        frozenset(),
        "faction",
        "in ground battles you defend, your artillery and military bases fire before the attacker",
    ),
    "peek-occ": (
        frozenset(),
        "faction",
        "once a turn, before you draw, look at the top OCC-card and you may put it at the bottom of the deck",
    ),
    "carry": (frozenset({"unit"}), "faction", "your units of a type carry N more units"),
    "resist-occ": (
        frozenset(),
        "faction",
        "once a round, when an OCC-card is played against you, roll a die: on N or higher it has no effect",
    ),
    "unit-stat": (
        frozenset({"unit", "stat", "where"}),
        "faction",
        "your units or upgrades of a type have N more of a battle figure (lp, shields, close, mid, long);"
        " where=ground: in ground battles only",
    ),
}


@dataclass(frozen=True)
class Effect:
    verb: str
    amount: int
    keys: tuple[tuple[str, str], ...] = ()

    def key(self, name: str, default: str = "") -> str:
        return dict(self.keys).get(name, default)


def parse_effect(statement: str, where: str) -> Effect:
    """One statement of the vocabulary; ValueError names what is wrong."""
    words = statement.split()
    if not words:
        raise ValueError("an empty statement")
    verb, rest = words[0], words[1:]
    if verb not in VOCABULARY:
        raise ValueError(f"unknown verb '{verb}'")
    allowed, place, _ = VOCABULARY[verb]
    if place != where:
        raise ValueError(f"'{verb}' belongs on {'an OCC-card' if place == 'occ' else 'a faction sheet'}")
    amount = 1
    keys = []
    for word in rest:
        name, eq, value = word.partition("=")
        if eq:
            if name not in allowed:
                raise ValueError(f"'{verb}' takes no key '{name}'")
            keys.append((name, value))
        else:
            number = signed_number(word, 999)  # far above any sheet's number; the engine loops over some
            if number is None:
                raise ValueError(f"'{clipped(word)}' is not a whole number up to 999")
            amount = number
    return Effect(verb, amount, tuple(keys))


@dataclass(frozen=True)
class Faction:
    item: str
    name: str
    starting_units: tuple[tuple[str, int], ...]
    resources: int
    upgrades: tuple[tuple[str, int], ...]
    roster: tuple[str, ...]
    expansions: int
    income: int
    effects: tuple[Effect, ...]

    def modifier(self, verb: str, unit: str = "") -> int | None:
        """The amount of a lasting effect (for a unit type, when given), or None when the faction has none."""
        for e in self.effects:
            if e.verb == verb and (not unit or e.key("unit") in ("", unit)):
                return e.amount
        return None


@dataclass(frozen=True)
class Occ:
    item: str
    name: str
    when: str  # instant, own-turn, any-time, battle
    effects: tuple[Effect, ...]


class Unit:
    """A unit tile on the board: its kind, where it is and the movement points it has left this turn."""

    __slots__ = ("kind", "mp", "node", "owner", "uid")

    def __init__(self, uid: int, owner: int, kind: str, node: int, mp: int = 0):
        self.uid, self.owner, self.kind, self.node, self.mp = uid, owner, kind, node, mp

    def copy(self) -> Unit:
        return Unit(self.uid, self.owner, self.kind, self.node, self.mp)

    def key(self) -> tuple[int, int, str, int, int]:
        return (self.uid, self.owner, self.kind, self.node, self.mp)


class Pick(NamedTuple):
    """A set-up choice: keep (0) or repick (1) a faction; a starting system; a planet for a condition tile."""

    choice: int
    tag: str = "pick"


class Upgrade(NamedTuple):
    planet: int
    name: str
    tag: str = "upgrade"


class Move(NamedTuple):
    """A unit steps to a point; a unit that carries others takes `carry` of the units beside it along."""

    uid: int
    to: int
    carry: int = 0
    tag: str = "move"


class Play(NamedTuple):
    card: int
    tag: str = "play"


class Recruit(NamedTuple):
    kind: str
    planet: int
    tag: str = "recruit"


class Roster(NamedTuple):
    kind: str
    tag: str = "roster"


class Trade(NamedTuple):
    """Once a turn (a faction's `trade-occ`): 0 buys an OCC-card, 1 sells cards for resources."""

    choice: int
    tag: str = "trade"


class Wormhole(NamedTuple):
    system: int
    tag: str = "wormhole"


class Sacrifice(NamedTuple):
    """Answer a card by sacrificing a unit (a faction's `sacrifice-answer`)."""

    tag: str = "sacrifice"


class Done(NamedTuple):
    tag: str = "done"


BATTLE_UPGRADES = ("military_base", "artillery", "shield_generator")  # never change hands: destroyed or kept
Played = tuple[frozenset[Effect], frozenset[Effect]]  # the battle cards' effects each side played
NO_CARDS: Played = (frozenset(), frozenset())
# an instant card whose every effect is one of these only hurts the player who draws it (a sacrifice answers it)
HARMFUL = frozenset({"lose-resources", "lose-vp", "destroy-own", "slow-home", "damage-home-orbit"})


@dataclass(frozen=True)
class Fight:
    """A battle waiting for its players' battle cards: whose window it is (0 the attacker, 1 the defender) and the
    cards each side played so far."""

    attacker: int
    defender: int
    node: int
    came: int
    ground: bool
    stage: int = 0
    cards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    joined: tuple[tuple[int, int], ...] = ()  # units that joined the attack in its window: (unit, point it left)

    @property
    def seat(self) -> int:
        return self.attacker if self.stage == 0 else self.defender
