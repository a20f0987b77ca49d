"""Rift Domination's records and actions, and the effect vocabulary OCC-cards and faction sheets are written in.

An OCC-card's or a faction's `effects` are statements in the engine's one effects grammar (cardgen/engine/effects.py)
over this game's verbs (`VOCABULARY`), `verb [amount] [key=value ...]` (no number: 1): on an OCC-card they happen
when it resolves; on a faction sheet they are lasting modifiers. A statement the engine does not know is a data
problem `cardgen play` reports, and the card or faction then plays without it — never silently. docs/effects.md is
generated from `VOCABULARY`.

Actions are NamedTuples ending in a `tag` (NamedTuples compare as plain tuples: the tag keeps kinds apart).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from cardgen.engine.effects import Arg, Name, Number, OneOf, Vocabulary, Words
from cardgen.engine.effects import Effect as Effect  # the record the game's modules read, re-exported

# steps of a turn (rules.yaml `turn_steps`; drawing, income and the track happen as the turn starts)
SETUP_FACTION, SETUP_START, SETUP_TILES, PEEK, BUILD, MOVE, RECRUIT, ROSTER, OVER = (
    "faction", "start", "tiles", "peek", "build", "move", "recruit", "roster", "over")  # fmt: skip

BATTLE_VERBS = ("first-strike", "reroll-misses", "double-hit", "retreat-any-phase", "battle-shields", "salvage")
ABOUT = """\
OCC-cards (`card_data/rift-domination/occ-cards.yaml`) and faction sheets (`faction-sheets.yaml`) list their
abilities as `effects` (`cardgen/engine/games/rift_domination/model.py`). On an OCC-card they happen when it resolves
(the battle verbs: in the battle it is played in); on a faction sheet they are lasting modifiers. A verb stands on
one of the two. An OCC-card or faction without effects is reported by `cardgen play` under `data_problems`."""
VOCABULARY = Vocabulary("rift-domination", places={"occ": "an OCC-card", "faction": "a faction sheet"}, amount=1,
                        about=ABOUT)  # fmt: skip
NUMBER = Number()
UNIT = Name("a unit or upgrade type (`units`, `upgrades`)")
UPGRADE = Name("a planet upgrade (`upgrades`)")


def _occ(name: str, meaning: str, keys: dict[str, Arg] | None = None) -> None:
    VOCABULARY.verb(name, meaning, keys, where="occ")


def _faction(name: str, meaning: str, keys: dict[str, Arg] | None = None) -> None:
    VOCABULARY.verb(name, meaning, keys, where="faction")


_occ(
    "gain-resources",
    "gain N resources (per planet you control, at most max)",
    {"max": NUMBER, "per": OneOf(("planet",))},
)
_occ("lose-resources", "lose N resources, as many as you have (who=all: every player)", {"who": OneOf(("all",))})
_occ("gain-vp", "gain N victory points")
_occ("lose-vp", "lose N victory points (never below 0)")
_occ("draw", "draw N OCC-cards")
_occ("destroy-own", "N of your units of a type are destroyed", {"unit": UNIT})
_occ("free-upgrade", "build the named upgrade free on a planet you control", {"upgrade": UPGRADE})
_occ("fleet-movement", "your largest fleet's units gain N movement points this turn")
_occ("cancel", "answer an OCC-card played against you: both are discarded without effect")
_occ("leap-fleet", "your largest fleet moves to an adjacent system for no movement points")
_occ("slow-home", "your units in your home system have N fewer movement points next turn (at least 1)")
_occ(
    "recruit",
    "recruit up to N units at your military base, paying their cost (locked=yes: types you have not unlocked)",
    {"locked": OneOf(("yes",))},
)
_occ("first-strike", "battle: when you defend, you fire first in the battle's first phase")
_occ("reroll-misses", "battle: in the first phase, roll again every die of yours that missed")
_occ("double-hit", "battle: in the first phase, one of your hits deals 2 damage")
_occ("retreat-any-phase", "battle: you may retreat at the end of any phase")
_occ("battle-shields", "battle: your dearest unit in it gains N shields until it ends")
_occ("salvage", "battle: if you win it, gain half the cost of the enemy units destroyed")
_occ("sabotage", "destroy N enemy upgrades (not a military base) where you have a unit in orbit")
_occ("steal-occ", "take N OCC-cards from the player holding most (at random)")
_occ("damage-home-orbit", "N damage to every unit at a planet of your home system (kills 1-LP units)")
_occ(
    "orbital-strike",
    "roll N dice at an enemy upgrade in a system where you have a unit: each roll or higher deals it 1 damage",
    {"roll": NUMBER},
)
_occ("immunity", "until the end of the round, no unit may target your units of a type", {"unit": UNIT})
_occ("blockade", "enemy units cannot leave the system where you have most units until the start of your next turn")
_faction("fighters-per-turn", "gain N fighters at the start of your turn instead of 2")
_faction("draws-per-turn", "draw N OCC-cards at the start of your turn instead of 2")
_faction("movement", "your units (of a type) have N more movement points", {"unit": UNIT})
_faction("dangerous-roll", "you take a dangerous planet on a roll of N or higher")
_faction("system-vp", "controlling a whole system gives you N VP")
_faction("anomaly-vp", "anomaly planets give you N more VP")
_faction("anomaly-infantry", "anomaly planets give you N infantry instead of 2")
_faction("upgrade-slots", "each of your planets holds N more upgrades")
_faction("mine-bonus", "each of your mines produces N more resources")
_faction("outpost-occ", "each of your trading outposts gives N OCC-cards")
_faction("civilized-cost", "civilized planets cost you N resources to take with infantry")
_faction("civilized-occ", "civilized planets taken with infantry give you N OCC-cards")
_faction("upgrade-cost", "the named planet upgrade costs you N resources", {"upgrade": UPGRADE})
_faction("upgrade-discount", "your planet upgrades cost N less (at least 1)")
_faction("no-new-bases", "you never build a military base (beyond the one on your home planet)")
_faction("dangerous-dice", "landing on a dangerous planet, roll N dice and keep the best")
_faction("negotiate-dangerous", "your diplomats negotiate with dangerous planets as if civilized")
_faction("diplomat-loss-occ", "draw N OCC-cards when one of your diplomats is destroyed")
_faction("hand-limit", "hold at most N OCC-cards (discard the oldest at the end of your turn)")
_faction("harvester-landing", "harvester planets give you N more resources on landing")
_faction("harvester-bonus", "two mines on a harvester give you N a round instead of 2")
_faction(
    "win-loot",
    "when you win a battle (battle=space: a space battle), take N resources from the loser",
    {"battle": OneOf(("space",))},
)
_faction("win-salvage", "when you win a battle, gain N per enemy unit destroyed in it (at most max)", {"max": NUMBER})
_faction(
    "slow-enemies", "enemy units have N fewer movement points in systems where you control a planet (never below 1)"
)
_faction("recruit-bonus", "recruiting at a military base, N units of a type join free", {"unit": UNIT})
_faction(
    "diplomat-recruit",
    "your diplomats recruit units of these kinds (kinds=a/b) where they stand, as a military base does",
    {"kinds": Words("unit types", separator="/")},
)
_faction(
    "sacrifice-answer",
    "instead of resolving an instant OCC-card or one played against you, you may sacrifice a unit of a type",
    {"unit": UNIT},
)
_faction("wormhole-cost", "reaching and travelling through a wormhole costs your units N in all")
_faction("place-wormhole", "once a round, place N wormhole tiles in systems where you control a planet")
_faction(
    "consume",
    "landing on a planet with a condition tile, you may discard it unrevealed for N resources; the planet can"
    " never be controlled",
)
_faction(
    "trade-occ",
    "once a turn, pay N resources to draw an OCC-card, or discard (discard=) cards to gain N resources",
    {"discard": NUMBER},
)
_faction("battle-ward", "once a battle, one of your units ignores the first N hits it takes")
_faction(
    "revenge",
    "when a unit of yours is destroyed in battle, roll: on roll or higher an enemy unit takes N damage",
    {"roll": NUMBER},
)
_faction("warp-infantry", "your warps slow enemy infantry too")
_faction("warps-per-system", "you may build N warps in one system")
_faction("home-shields", "in your home system each of your units with a shield has N more")
_faction("buildings-first", "in ground battles you defend, your artillery and military bases fire before the attacker")
_faction(
    "peek-occ", "once a turn, before you draw, look at the top OCC-card and you may put it at the bottom of the deck"
)
_faction("carry", "your units of a type carry N more units", {"unit": UNIT})
_faction(
    "resist-occ", "once a round, when an OCC-card is played against you, roll a die: on N or higher it has no effect"
)
_faction(
    "unit-stat",
    "your units or upgrades of a type have N more of a battle figure (lp, shields, close, mid, long);"
    " where=ground: in ground battles only",
    {"stat": OneOf(("lp", "shields", "close", "mid", "long")), "unit": UNIT, "where": OneOf(("ground",))},
)


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
            if e.verb == verb and (not unit or e.opt("unit") in ("", unit)):
                return e.amount
        return None


@dataclass(frozen=True)
class Occ:
    item: str
    name: str
    when: str  # instant, own-turn, any-time, battle
    effects: tuple[Effect, ...]


class Unit:
    """A unit tile on the board: its kind, where it is and the movement points it has left this turn. `held`: the
    token of the one state that may change it in place (`RiftState.own`): clones share their units."""

    __slots__ = ("held", "kind", "mp", "node", "owner", "uid")

    def __init__(self, uid: int, owner: int, kind: str, node: int, mp: int = 0, held: object = None):
        self.uid, self.owner, self.kind, self.node, self.mp, self.held = uid, owner, kind, node, mp, held

    def copy(self, held: object = None) -> Unit:
        return Unit(self.uid, self.owner, self.kind, self.node, self.mp, held)

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


def without(items: list[str], name: str) -> list[str]:
    """A copy of `items` less the first `name`: a planet's upgrades are replaced, never changed, so clones share them
    (`RiftState.clone`)."""
    out = list(items)
    out.remove(name)
    return out
