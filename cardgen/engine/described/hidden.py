"""What a player of a described game sees, and a full state consistent with it (for search agents).

A zone is seen by everyone (`visible: everyone`, the default), by its owner only (`owner`: the others see how many
cards it holds), or by nobody (`nobody`: a deck; everyone sees its size). A player's observation holds every zone
they see, the sizes of those they do not, the values, the marks of cards they see, and the flow's stack and open
question with every unseen card masked.

A determinization relabels the cards a player cannot see: within each pool (the cards of one component and one
owner), the unseen cards are dealt at random to the unseen places they could be in — a zone's `accepts:` says which
cards it may hold (a hand of ships only) — and every reference to a card (its zone, its marks, the locals on the flow's
stack) follows it. What the player knows is kept; what they cannot know is drawn from the searcher's generator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardgen.engine.core import frozen
from cardgen.engine.described.layout import Card
from cardgen.engine.described.windows import Pending
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.described.state import DescribedState

HIDDEN = -1  # an unseen card in an observation


def seen(s: DescribedState, zone: int, player: int) -> bool:
    """Whether `player` sees the cards of a zone instance."""
    visible = s.engine.zone_visible[zone]
    return visible == "everyone" or (visible == "owner" and s.engine.zone_seat(zone) == player)


def observation(s: DescribedState, player: int) -> tuple[Any, ...]:
    """Everything `player` may see, as a comparable value."""
    zones = tuple(tuple(cards) if seen(s, z, player) else len(cards) for z, cards in enumerate(s.zones))
    visible = _visible_cards(s, player)
    marks = len(s.engine.marks_start)
    card_marks = tuple(tuple(s.marks[c * marks : (c + 1) * marks]) if visible[c] else None for c in range(len(visible)))
    mask = _masker(lambda card: card if visible[card] else HIDDEN)
    decision = s.decision
    shown_decision: Any = None
    if decision is not None and decision[0] == "respond":
        shown_decision = (decision[0], decision[1], mask(decision[2]))
    elif decision is not None:
        own = decision[1] == player
        shown_decision = (decision[0], decision[1], mask(decision[3]), decision[5], mask(decision[6]) if own else None)
        if decision[0] == "commit":  # the seats' sealed choices: only the player's own, and who has committed
            shown_decision += (mask(decision[7].seen_by(player)), decision[8])
    return (
        player, s.turns, s.ending, tuple(sorted(s.out.items())), s.passed, frozen(mask(s.values)), zones, card_marks,
        tuple(mask(task) for task in s.tasks), shown_decision,
    )  # fmt: skip


def _visible_cards(s: DescribedState, player: int) -> list[bool]:
    visible = [False] * len(s.place)
    for zone, cards in enumerate(s.zones):
        if seen(s, zone, player):
            for card in cards:
                visible[card] = True
    return visible


def _masker(replace: Callable[[Card], Any]) -> Callable[[Any], Any]:
    """A function rewriting every card inside nested tuples and lists (other values kept as they are)."""

    def mask(value: Any) -> Any:
        if value.__class__ is Card:
            return replace(value)
        if isinstance(value, Pending):
            return ("pending", mask(value.env))
        if isinstance(value, tuple):
            return tuple(mask(v) for v in value)
        if isinstance(value, list):
            return [mask(v) for v in value]
        return value

    return mask


def determinize(s: DescribedState, player: int, rng: CounterRng) -> DescribedState:
    """A state `player` cannot tell from `s`, the cards they cannot see dealt at random from what they could be."""
    copy = s.reseeded(rng)
    assert copy.__class__ is s.__class__
    if s.perfect_information:
        return copy
    engine = s.engine
    pools: dict[Any, list[tuple[int, int]]] = {}  # pool → the unseen places (zone, position)
    for zone, cards in enumerate(s.zones):
        if not seen(s, zone, player):
            for position, card in enumerate(cards):
                pools.setdefault(engine.pool[card], []).append((zone, position))
    mapping: dict[Card, Card] = {}
    for places in pools.values():
        dealt = _deal(s, places, rng)
        for (zone, position), card in zip(places, dealt, strict=True):
            mapping[s.zones[zone][position]] = card
    if any(old != new for old, new in mapping.items()):
        _relabel(copy, mapping)
    _redeal_commitments(copy, player, rng)
    return copy


def _redeal_commitments(s: DescribedState, player: int, rng: CounterRng) -> None:
    """Other seats' sealed choices of a `simultaneous` step, which the player cannot know, chosen again at random."""
    decision = s.decision
    if decision is None or decision[0] != "commit":
        return
    simultaneous, env = decision[2], decision[3]
    sealed = decision[7].redealt(player, lambda seat: simultaneous.listing(s, env, seat) or [None], rng)
    s.decision = (*decision[:7], sealed, decision[8])


def _deal(s: DescribedState, places: list[tuple[int, int]], rng: CounterRng) -> list[Card]:
    """The pool's cards dealt at random to its places, each zone's `accepts` respected (constrained places first)."""
    engine = s.engine
    cards = [s.zones[zone][position] for zone, position in places]
    shuffled = list(cards)
    rng.shuffle(shuffled)
    dealt: list[Card | None] = [None] * len(places)
    for index, (zone, _) in enumerate(places):
        accepts = engine.accepts.get(zone)
        if accepts is not None:
            pick = next((c for c in shuffled if accepts(s, c)), None)
            if pick is None:  # nothing it may hold is left: keep the card that is there
                pick = cards[index]
            shuffled.remove(pick)
            dealt[index] = pick
    rest = iter(shuffled)
    return [card if card is not None else next(rest) for card in dealt]


def _relabel(s: DescribedState, mapping: dict[Card, Card]) -> None:
    """Every reference to a card replaced by its new label: zones, places, marks, the flow's stack and question."""
    marks = len(s.engine.marks_start)
    old_marks = list(s.marks)
    for old, new in mapping.items():
        s.marks[new * marks : (new + 1) * marks] = old_marks[old * marks : (old + 1) * marks]
    s.zones = [[mapping.get(card, card) for card in cards] for cards in s.zones]
    for zone, cards in enumerate(s.zones):
        for card in cards:
            s.place[card] = zone
    relabel = _masker(lambda card: mapping.get(card, card))

    def mask(value: Any) -> Any:
        if isinstance(value, Pending):
            return value.relabelled(relabel)
        if isinstance(value, tuple):
            return tuple(mask(v) for v in value)
        return relabel(value)

    s.values = relabel(s.values)
    s.tasks = [mask(task) for task in s.tasks]
    if s.decision is not None:
        s.decision = mask(s.decision)
    s._legal = None
