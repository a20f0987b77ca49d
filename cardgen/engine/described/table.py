"""What the steps of a rules file do to the table: cards moved, drawn, shuffled and dealt, dice rolled, effects carried
out — the methods of a described game's state that generated code calls (`s.move_all(…)`, `s.draw_into(…)`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.described.layout import Card

if TYPE_CHECKING:
    from cardgen.engine.core import ChanceLog
    from cardgen.engine.described.engine import DescribedEngine
    from cardgen.engine.rng import CounterRng


class Table:
    """A mixin of `DescribedState`: the zones, the places of the cards, the chance log."""

    if TYPE_CHECKING:
        engine: DescribedEngine
        zones: list[list[Card]]
        place: list[int]
        rng: CounterRng
        chance: ChanceLog
        tasks: list[tuple[Any, ...]]
        applied: set[str]
        cards_played: set[str]
        n: int

        def shuffle(self, cards: list[Any], name: str) -> None: ...

        def problem(self, text: str) -> None: ...

        def tick(self) -> None: ...

    def move(self, card: Card, zone: int, index: int = -1) -> None:
        """A card leaves its zone (if it is in one: a card just drawn is not) for `zone`, on top or at `index`."""
        old = self.place[card]
        if old >= 0:
            cards = self.zones[old]
            if cards and cards[-1] == card:
                cards.pop()
            else:
                cards.remove(card)
        if index < 0:
            self.zones[zone].append(card)
        else:
            self.zones[zone].insert(index, card)
        self.place[card] = zone

    def move_all(self, cards: Any, zone: int, index: int = -1) -> None:
        """`move:` — a card, or every card of a list (taken before any moves), to `zone` (on top, or from `index`)."""
        if cards.__class__ is Card:
            if index < 0:  # the usual move: one card onto a zone (`move`, written out)
                old = self.place[cards]
                if old >= 0:
                    source = self.zones[old]
                    if source and source[-1] == cards:
                        source.pop()
                    else:
                        source.remove(cards)
                self.zones[zone].append(cards)
                self.place[cards] = zone
            else:
                self.move(cards, zone, index)
        elif cards is not None:
            for card in list(cards):
                self.move(card, zone, index)
                if index >= 0:
                    index += 1

    def draw_into(self, source: int, zone: int, count: int, counted: bool) -> Any:
        """`draw:` — up to `count` cards from `source` onto `zone`: the card (or none), or the list when counted."""
        if not counted and count == 1:  # the usual draw: one card, straight onto its zone
            card = self.draw(source)
            if card is not None:
                self.zones[zone].append(card)
                self.place[card] = zone
            return card
        drawn = []
        for _ in range(count):
            card = self.draw(source)
            if card is None:
                break
            self.move(card, zone)
            drawn.append(card)
        if counted:
            return drawn
        return drawn[0] if drawn else None

    def random_below(self, below: int) -> int:
        number = self.rng.randbelow(below)
        self.chance.record("random", number)
        return number

    def roll_dice(self, dice: int, sides: int) -> int:
        rolled = [self.rng.randint(1, sides) for _ in range(dice)]
        self.chance.record("roll", rolled)
        return sum(rolled)

    def note(self, card: Card, what: str) -> None:
        """`applied:` or `played:` — the card's item, for the summary's 'never applied' and 'never played'."""
        (self.applied if what == "applied" else self.cards_played).add(self.engine.cards.item[card])

    def draw(self, zone: int) -> Card | None:
        """The top card of a zone, or a random one of a zone drawn at random, taken out of it (the caller moves it
        somewhere at once); an empty zone first takes in its `refill` zone's cards; None when nothing is left."""
        engine = self.engine
        cards = self.zones[zone]
        if not cards:
            source = engine.refill.get(zone)
            if source is None or not self.zones[source[0]]:
                return None
            for card in list(self.zones[source[0]]):
                self.move(card, zone)
            if source[1]:
                self.shuffle_zone(zone)
        if engine.random_draw[zone]:
            index = self.rng.randbelow(len(cards))
            cards[index], cards[-1] = cards[-1], cards[index]
        card = cards.pop()
        self.place[card] = -1
        self.chance.record("draw", [engine.zone_labels[zone], card])
        return card

    def shuffle_zone(self, zone: int) -> None:
        self.shuffle(self.zones[zone], self.engine.zone_labels[zone])

    def fill(self, zone: int) -> None:
        """A line-up dealt to its size from its `fill_from` zone."""
        engine = self.engine
        size_fn, source, short = engine.fill[zone]
        size = size_fn(self, engine.zone_seat(zone))
        while len(self.zones[zone]) < size:
            self.tick()
            card = self.draw(source)
            if card is None:
                if short:  # `short: allowed`: the line-up stays short (the cards ran out)
                    return
                self.problem(f"{engine.zone_labels[zone]} could not be filled to {size} at {self.n} players: "
                             f"{engine.zone_labels[source]} ran out")  # fmt: skip
                return
            self.move(card, zone)

    def effects(self, cards: Any, trigger: str | None, player: Any) -> None:
        """A card's statements with `trigger` (None: those without one), or those of every card of a list in
        order, each its verb's steps; `player` is whose they are (a seat, or a function of the card)."""
        engine = self.engine
        found = []
        for card in [cards] if cards.__class__ is Card else list(cards or ()):
            seat = player(card) if callable(player) else player
            found += [(card, effect, seat) for effect in engine.cards.statements[card] if effect.trigger == trigger]
        for card, effect, seat in reversed(found):
            verb = engine.verbs[effect.verb]
            if verb.applied:
                self.applied.add(engine.cards.item[card])
            if verb.block.steps:
                self.tasks.append(("block", verb.block, 0, verb.frame(effect, card, seat, engine)))
