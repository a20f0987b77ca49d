"""Star Commander's records, actions and effect vocabulary.

Card abilities are data: each Domain, core ship and station card lists `effects`, statements of a small vocabulary
(`VOCABULARY`) the engine executes, e.g. `gain-credits 4`, `ready: draw 1 if-hand-at-most=4`, `hp 1 class=Small,Medium`.
A statement is `[trigger:] verb [amount] [key=value ...]`. On a command the statements without a trigger happen when
it resolves; a response command's trigger names the window it answers (none: any response window). On a technology,
ship or station a statement without a trigger is a lasting modifier and a trigger says when it acts; a ship's or
station's `scrap:`, `explore:` and `enter-enemy-system:` concern that piece, a technology's concern all its owner's
ships. A statement the engine does not know is a data problem `cardgen play` reports (`parse_effects`), and the card's
ability is then not executed — never silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple

from cardgen.errors import clipped, signed_number, whole_number

# verb -> (allowed keys, whether it takes a target, one line of meaning); the docs page is generated from this table
VOCABULARY: dict[str, tuple[frozenset[str], bool, str]] = {}
NUMBER_KEYS = frozenset({"min", "max", "max-enemies", "if-systems", "if-hand-at-most", "if-techs", "keep", "at-least"})
AMOUNT_MOST = 999  # far above any card's number, and no loop of the engine runs 10^4000 times


def _verb(name: str, keys: str = "", targeted: bool = False, meaning: str = "") -> None:
    VOCABULARY[name] = (frozenset(keys.split()), targeted, meaning)


_verb("reminder", meaning="the text restates rules the engine already plays (no effect of its own)")
_verb("gain-credits", "per at-least max if-systems if-here", meaning="gain N credits (per matching system, capped)")
_verb("gain-scrap-value", meaning="gain the scrap value of the ship just destroyed")
_verb("draw", "if-techs if-hand-at-most", meaning="draw N cards from Domain decks of domains you control")
_verb("discard", meaning="discard N cards from hand")
_verb("cycle", meaning="draw N cards, then discard as many")
_verb("remove-development", "target keep", True, "remove N of your developments from the target system")
_verb("boost-attack", "target", True, "target ship has +N attack until the end of the turn")
_verb("deal-damage", "target", True, "deal N damage to the target (a picket: to the ship that entered)")
_verb("prevent", meaning="prevent up to N of the damage assigned to one of your ships")
_verb("shipyard-grant", "where", meaning="this phase, build one ship where you have a station, as at a capital")
_verb("discount", "next min", meaning="the next ship you build this phase costs N less (at least min)")
_verb("attack", "class type", meaning="your ships of a class (or stations) have +N attack")
_verb("hp", "class type", meaning="your ships of a class (or stations) have +N hit points")
_verb("cost", "class min", meaning="your ships of a class cost N more (negative: less), at least min")
_verb("siege-weight", meaning="counts as N ships when developments are removed in a siege")
_verb("shipyard", meaning="ships may be built in this station's system as at a capital")
_verb("cancel", meaning="cancel the command answered; it is discarded without effect")
_verb("ceasefire", "target", True, "no damage is dealt in the target system this turn")
_verb("lift-siege", "target", True, "the target system you control is not under siege this turn")
_verb("build-fighter", "target", True, "build a Fighter (pay it) in a contested system of yours in combat")
_verb("embargo", "target", True, "the target player cannot trade until the end of their next turn")
_verb("arrange-top", meaning="look at the top N cards of a Domain deck and put them back in any order")
_verb("pin", "target", True, "the target ship that has not jumped cannot jump or retreat this turn")
_verb("annex", "target", True, "build the first development on an adjacent explored system without a ship")
_verb("conquest-limit", "where", meaning="your Homeworld loses at most N developments per End phase")
_verb("fighter-jumps", "into", meaning="your Fighters may jump N times a turn into systems you control")
_verb("hand-limit", meaning="your hand limit is N higher")
_verb("siege-immunity", "max-enemies needs", meaning="no siege while at most max-enemies enemy ships are there")
_verb("aura-hp", meaning="your other ships and stations in this system have +N hit points")
_verb("fighter-slots", meaning="this system holds N more of your Fighters")
_verb("retreat-after-jump", meaning="this ship may retreat even if it jumped this turn")
_verb("jump-now", "target", True, "target ship you control jumps one system now (Fighters too)")
_verb("peek", "where", meaning="look at N face-down systems (adjacent to the explored one, or anywhere)")
_verb("cloak", "target", True, "target ship you control cannot be targeted or damaged and deals no damage")
_verb("extra-jumps", meaning="this turn each of your ships (not Fighters) may jump N more times")
_verb("spare-jump", meaning="once per turn one of your ships (not a Fighter) may jump N more times")
_verb("shield", meaning="once per turn prevent N damage dealt to one of your ships")
_verb("orthogonal-jumps", meaning="your ships may also jump to systems that share a side")
_verb("far-retreat", meaning="your ships may retreat to any system you control, even after jumping")
_verb("trade-draw-discount", meaning="paying credits to draw a card costs N less")
_verb("pay-draw", meaning="when another player plays a command, you may pay N credit(s) to draw a card")
_verb("escort", meaning="your other ships here take N less damage from each attacking ship")
_verb("gate", meaning="your ships here may jump to any system you control with your Homeworld or another gate")

TRIGGERS = frozenset(
    {"ready", "scrap", "explore", "enemy-enters", "enter-enemy-system", "command-played", "damage-assigned",
     "ship-destroyed", "trade-discard"}
)  # fmt: skip
TARGETS = frozenset(
    {"own-ship", "enemy-in-armed-system", "own-uncontested-system", "combat-system", "own-system",
     "own-combat-system", "player", "unjumped-ship", "adjacent-uncontrolled-system"}
)  # fmt: skip


@dataclass(frozen=True)
class Effect:
    """One parsed statement of a card's `effects`."""

    verb: str
    amount: int = 0
    trigger: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def opt(self, key: str, default: str = "") -> str:
        for k, v in self.options:
            if k == key:
                return v
        return default

    def num(self, key: str, default: int = 0) -> int:
        value = self.opt(key)
        return int(value) if value else default


def parse_effect(text: str) -> Effect:
    """One statement; a ValueError says what is wrong with it."""
    trigger = None
    if ":" in text:
        trigger, text = (part.strip() for part in text.split(":", 1))
        if trigger not in TRIGGERS:
            raise ValueError(f"unknown trigger '{trigger}' (triggers: {', '.join(sorted(TRIGGERS))})")
    words = text.split()
    if not words:
        raise ValueError("an empty statement")
    verb, *rest = words
    if verb not in VOCABULARY:
        raise ValueError(f"unknown verb '{verb}'")
    keys, targeted, _ = VOCABULARY[verb]
    amount = 0
    if rest and "=" not in rest[0]:
        number = signed_number(rest.pop(0), AMOUNT_MOST)
        if number is None:
            raise ValueError(f"'{verb}' takes a whole number up to {AMOUNT_MOST}, not '{clipped(words[1])}'")
        amount = number
    options = []
    for word in rest:
        key, eq, value = word.partition("=")
        if not eq or key not in keys:
            raise ValueError(f"'{verb}' takes no '{key}' (it takes: {', '.join(sorted(keys)) or 'nothing'})")
        if key == "target" and value not in TARGETS:
            raise ValueError(f"unknown target '{value}'")
        if key in NUMBER_KEYS and whole_number(value, AMOUNT_MOST) is None:  # read with int() as the game is played
            raise ValueError(f"'{key}' takes a whole number from 0 to {AMOUNT_MOST}, not '{clipped(value)}'")
        options.append((key, value))
    if targeted and trigger is None and not any(k == "target" for k, _ in options):
        raise ValueError(f"'{verb}' needs a target=")
    return Effect(verb, amount, trigger, tuple(options))


class Phase(IntEnum):
    READY = 0
    COMMAND = 1
    COMBAT = 2
    END = 3
    OVER = 4


@dataclass(frozen=True)
class CardSpec:
    """A Domain card or a core ship/station card as printed (one per physical copy)."""

    item: str  # the card's id in the data
    name: str
    kind: str  # command | technology | ship | station
    domain: int  # index into the domains; -1 for core cards
    cost: int
    timing: str = ""
    attack: int = 0
    hp: int = 0
    jump: int = 0
    ship_class: str = ""  # Fighter | Small | Medium | Large; "" for stations and non-pieces
    effects: tuple[Effect, ...] = ()
    text: str = ""

    @property
    def piece(self) -> bool:
        return self.kind in ("ship", "station")

    @property
    def fighter(self) -> bool:
        return self.ship_class == "Fighter"

    def has(self, verb: str) -> Effect | None:
        return next((e for e in self.effects if e.verb == verb), None)


@dataclass(frozen=True)
class SystemSpec:
    item: str
    name: str
    domain: int  # -1: every domain (a Homeworld)
    credits: int
    max_development: int
    capital: bool
    homeworld: bool
    explore: str
    amount: int


@dataclass(slots=True)
class Piece:
    """A ship or station in play."""

    card: int
    owner: int
    cell: int
    damage: int
    jumps: int  # jumps made this turn (the active player's: every piece's count restarts with each turn)
    fresh: bool  # built this turn (not controlled since the start of the turn: cannot move)
    moved: bool  # jumped or retreated this turn, the active player's (cannot retreat)
    pinned: bool
    cloaked: bool
    boost: int

    def copy(self) -> Piece:
        return Piece(self.card, self.owner, self.cell, self.damage, self.jumps, self.fresh, self.moved,
                     self.pinned, self.cloaked, self.boost)  # fmt: skip


@dataclass
class Temporary:
    """Until-the-end-of-the-turn effects (cleared in Cleanup)."""

    ceasefire: set[int] = field(default_factory=set)
    lifted: set[int] = field(default_factory=set)
    discount: int = 0
    discount_min: int = 1
    grants: int = 0
    extra_jumps: int = 0
    spare_used: bool = False
    shield_used: set[int] = field(default_factory=set)

    def copy(self) -> Temporary:
        return Temporary(set(self.ceasefire), set(self.lifted), self.discount, self.discount_min, self.grants,
                         self.extra_jumps, self.spare_used, set(self.shield_used))  # fmt: skip


# -- actions -----------------------------------------------------------------------------------------------------------
# NamedTuples compare as tuples, so each action ends with a tag that keeps kinds with equal fields apart
# (Explore(3) must never equal Develop(3) in a legal list).


class Done(NamedTuple):
    """End the command phase or the retreats, or pass in a window."""

    tag: str = "done"


class Move(NamedTuple):
    card: int
    cell: int
    tag: str = "move"


class Explore(NamedTuple):
    cell: int
    tag: str = "explore"


class Build(NamedTuple):
    """A core card from the supply, or a Domain ship or station card from hand."""

    card: int
    cell: int
    tag: str = "build"


class Scrap(NamedTuple):
    card: int
    tag: str = "scrap"


class Play(NamedTuple):
    """A command or technology from hand; `target` is a cell, a piece's card or a seat, as its effect says."""

    card: int
    target: int = -1
    tag: str = "play"


class Develop(NamedTuple):
    cell: int
    tag: str = "develop"


class TradeDraw(NamedTuple):
    domain: int
    tag: str = "trade-draw"


class TradeSell(NamedTuple):
    """Discard two cards for credits (the cards are chosen next)."""

    tag: str = "trade-sell"


class Choose(NamedTuple):
    """The Domain deck a draw comes from."""

    domain: int
    tag: str = "choose"


class Discard(NamedTuple):
    card: int
    tag: str = "discard"


class Assign(NamedTuple):
    """A ship's damage goes to a piece (its card), or nowhere (-1: it holds fire)."""

    attacker: int
    target: int
    tag: str = "assign"


class Retreat(NamedTuple):
    card: int
    cell: int
    tag: str = "retreat"


class Ability(NamedTuple):
    """Use a card's triggered ability in a response window (a technology such as Signal Decryption)."""

    card: int
    tag: str = "ability"


DONE = Done()
Action = (
    Done
    | Move
    | Explore
    | Build
    | Scrap
    | Play
    | Develop
    | TradeDraw
    | TradeSell
    | Choose
    | Discard
    | Assign
    | Retreat
    | Ability
)


Item = tuple[Any, ...]  # an entry of the task stack: (task name, arguments…)
