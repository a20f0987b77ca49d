"""What must hold in every state of a described game (`cardgen play --check` tests it after every action).

Three come with every game: every card is in exactly one zone (and where the state says it is); every value stays
within its `min` and `max`; no zone holds more than its `limit` or a line-up more than its `size`. The rules file adds
its own (`invariants:`, each an expression that must be true, per player or once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.engine.described.state import DescribedState


def violations(s: DescribedState) -> list[str]:
    """Every broken invariant of the state, one line each."""
    return [*_cards(s), *_values(s), *_zones(s), *_declared(s)]


def _cards(s: DescribedState) -> list[str]:
    engine = s.engine
    items, labels = engine.cards.item, engine.zone_labels
    found = [0] * len(engine.cards)
    out = []
    for zone, cards in enumerate(s.zones):
        for card in cards:
            found[card] += 1
            if s.place[card] != zone:
                out.append(f"card {items[card]} #{card} lies in {labels[zone]} but is recorded elsewhere")
    for number, times in enumerate(found):
        if times != 1:
            out.append(f"card {items[number]} #{number} is in {times} zones, not exactly one")
    return out


def _values(s: DescribedState) -> list[str]:
    out = []
    for family, low, high in s.engine.bounds:
        for offset in range(family.size(s.n) if family.per_player else family.size(1)):
            seat = family.seat(offset)
            value = s.values[family.base + offset]
            least = low(s, seat) if low is not None else None
            most = high(s, seat) if high is not None else None
            if least is not None and value < least:
                out.append(f"{family.label(offset)} is {value}, below its minimum {least}")
            if most is not None and value > most:
                out.append(f"{family.label(offset)} is {value}, above its maximum {most}")
    return out


def _zones(s: DescribedState) -> list[str]:
    engine = s.engine
    out = []
    for zone, limit in engine.limits:
        if engine.zone_seat(zone) is not None and engine.zone_seat(zone) >= s.n:  # type: ignore[operator]
            continue
        most = limit(s, engine.zone_seat(zone))
        if most is not None and len(s.zones[zone]) > most:
            out.append(f"{engine.zone_labels[zone]} holds {len(s.zones[zone])} cards, more than {most}")
    return out


def _declared(s: DescribedState) -> list[str]:
    out = []
    for check, message, each in s.engine.checks:
        for seat in range(s.n) if each else [None]:
            if not check(s, seat):
                out.append(message(s, seat))
    return out
