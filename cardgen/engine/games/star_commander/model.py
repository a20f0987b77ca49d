"""Star Commander's records, actions and effect vocabulary.

Card abilities are data: each Domain, core ship and station card lists `effects`, statements in the engine's one
effects grammar (cardgen/engine/effects.py) over this game's verbs (`VOCABULARY`), e.g. `gain-credits 4`,
`ready: draw 1 if-hand-at-most=4`, `hp 1 class=Small,Medium`. On a command the statements without a trigger happen
when it resolves; a response command's trigger names the window it answers (none: any response window). On a
technology, ship or station a statement without a trigger is a lasting modifier and a trigger says when it acts; a
ship's or station's `scrap:`, `explore:` and `enter-enemy-system:` concern that piece, a technology's concern all its
owner's ships. A statement the engine does not know is a data problem `cardgen play` reports, and the card's ability
is then not executed — never silently. docs/effects.md is generated from `VOCABULARY`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple

from cardgen.engine.effects import Effect as Effect  # the record the game's modules read, re-exported
from cardgen.engine.effects import Number, OneOf, Vocabulary, Words

ABOUT = """\
Every Domain card, core ship and station of `card_data/star-commander` lists its ability as `effects`
(`cardgen/engine/games/star_commander/model.py`).

- On a **command**, statements without a trigger happen when it resolves. A `response` command's trigger names the
  window it answers (`command-played`, `damage-assigned`, `ship-destroyed`); one without a trigger may be played in
  any response window and in the window before damage is assigned.
- On a **technology, ship or station**, a statement without a trigger is a lasting modifier; a trigger says when it
  acts. A ship's or station's `scrap:`, `explore:` and `enter-enemy-system:` concern that piece; a technology's
  concern all its owner's ships.
- A card whose text only restates rules the engine already plays (the Fighter's, a printed jump of 2) says `reminder`.
- A card with text and no effects is reported by `cardgen play` under `data_problems`.
- Of the targets (`target=`) only those on which the effect could change something are offered (a siege can only be
  lifted where there is one)."""

NOTES = """\
Where a card leaves a small choice the engine does not offer as a decision, it makes it the same way every time:
an emergency jump goes towards the nearest enemy Homeworld; Imperial Census puts the dearest of the top cards on top;
a peek looks at the face-down systems nearest the player's ships (around the explored system for `where=adjacent`);
Adaptive Shielding prevents damage on the first damaged ship each turn; Picket Platforms always fire; optional
"may draw" abilities always draw. Everything else is the player's decision (which card, which target, which deck)."""

TRIGGERS = ("ready", "scrap", "explore", "enemy-enters", "enter-enemy-system", "command-played", "damage-assigned",
            "ship-destroyed", "trade-discard")  # fmt: skip
TARGETS = ("own-ship", "enemy-in-armed-system", "own-uncontested-system", "combat-system", "own-system",
           "own-combat-system", "player", "unjumped-ship", "adjacent-uncontrolled-system")  # fmt: skip
VOCABULARY = Vocabulary("star-commander", triggers=TRIGGERS, about=ABOUT, notes=NOTES)

TARGET = {"target": OneOf(TARGETS, noun="target")}
NUMBER = Number()
CLASSES = Words("ship classes", choices=("Fighter", "Small", "Medium", "Large"))
STATIONS = OneOf(("station",))  # `type=station`: the modifier is for stations instead of a class of ships

_verb = VOCABULARY.verb
_verb("reminder", "the text restates rules the engine already plays (no effect of its own)")
_verb("gain-credits", "gain N credits (per matching system, capped)",
      {"per": OneOf(("developed-system",)), "at-least": NUMBER, "max": NUMBER, "if-systems": NUMBER,
       "if-here": OneOf(("own-system",))})  # fmt: skip
_verb("gain-scrap-value", "gain the scrap value of the ship just destroyed")
_verb("draw", "draw N cards from Domain decks of domains you control", {"if-techs": NUMBER, "if-hand-at-most": NUMBER})
_verb("discard", "discard N cards from hand")
_verb("cycle", "draw N cards, then discard as many")
_verb("remove-development", "remove N of your developments from the target system", {**TARGET, "keep": NUMBER},
      targeted=True)  # fmt: skip
_verb("boost-attack", "target ship has +N attack until the end of the turn", TARGET, targeted=True)
_verb("deal-damage", "deal N damage to the target (a picket: to the ship that entered)", TARGET, targeted=True)
_verb("prevent", "prevent up to N of the damage assigned to one of your ships")
_verb("shipyard-grant", "this phase, build one ship where you have a station, as at a capital",
      {"where": OneOf(("own-station",))})  # fmt: skip
_verb("discount", "the next ship you build this phase costs N less (at least min)",
      {"next": OneOf(("ship",)), "min": NUMBER})  # fmt: skip
_verb("attack", "your ships of a class (or stations) have +N attack", {"class": CLASSES, "type": STATIONS})
_verb("hp", "your ships of a class (or stations) have +N hit points", {"class": CLASSES, "type": STATIONS})
_verb("cost", "your ships of a class cost N more (negative: less), at least min", {"class": CLASSES, "min": NUMBER})
_verb("siege-weight", "counts as N ships when developments are removed in a siege")
_verb("shipyard", "ships may be built in this station's system as at a capital")
_verb("cancel", "cancel the command answered; it is discarded without effect")
_verb("ceasefire", "no damage is dealt in the target system this turn", TARGET, targeted=True)
_verb("lift-siege", "the target system you control is not under siege this turn", TARGET, targeted=True)
_verb("build-fighter", "build a Fighter (pay it) in a contested system of yours in combat", TARGET, targeted=True)
_verb("embargo", "the target player cannot trade until the end of their next turn", TARGET, targeted=True)
_verb("arrange-top", "look at the top N cards of a Domain deck and put them back in any order")
_verb("pin", "the target ship that has not jumped cannot jump or retreat this turn", TARGET, targeted=True)
_verb("annex", "build the first development on an adjacent explored system without a ship", TARGET, targeted=True)
_verb("conquest-limit", "your Homeworld loses at most N developments per End phase", {"where": OneOf(("homeworld",))})
_verb("fighter-jumps", "your Fighters may jump N times a turn into systems you control",
      {"into": OneOf(("own-system",))})  # fmt: skip
_verb("hand-limit", "your hand limit is N higher")
_verb("siege-immunity", "no siege while at most max-enemies enemy ships are there",
      {"max-enemies": NUMBER, "needs": OneOf(("own-station",))})  # fmt: skip
_verb("aura-hp", "your other ships and stations in this system have +N hit points")
_verb("fighter-slots", "this system holds N more of your Fighters")
_verb("retreat-after-jump", "this ship may retreat even if it jumped this turn")
_verb("jump-now", "target ship you control jumps one system now (Fighters too)", TARGET, targeted=True)
_verb("peek", "look at N face-down systems (adjacent to the explored one, or anywhere)",
      {"where": OneOf(("adjacent", "anywhere"))})  # fmt: skip
_verb("cloak", "target ship you control cannot be targeted or damaged and deals no damage", TARGET, targeted=True)
_verb("extra-jumps", "this turn each of your ships (not Fighters) may jump N more times")
_verb("spare-jump", "once per turn one of your ships (not a Fighter) may jump N more times")
_verb("shield", "once per turn prevent N damage dealt to one of your ships")
_verb("orthogonal-jumps", "your ships may also jump to systems that share a side")
_verb("far-retreat", "your ships may retreat to any system you control, even after jumping")
_verb("trade-draw-discount", "paying credits to draw a card costs N less")
_verb("pay-draw", "when another player plays a command, you may pay N credit(s) to draw a card")
_verb("escort", "your other ships here take N less damage from each attacking ship")
_verb("gate", "your ships here may jump to any system you control with your Homeworld or another gate")
del _verb


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
    # the token of the one state that may change it in place (`StarState.own`): clones share their pieces
    held: object = field(default=None, compare=False, repr=False)

    def copy(self, held: object = None) -> Piece:
        return Piece(self.card, self.owner, self.cell, self.damage, self.jumps, self.fresh, self.moved,
                     self.pinned, self.cloaked, self.boost, held)  # fmt: skip


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
