"""What must hold in every Star Commander position (`StarState.invariant_violations`): every card and System card
in exactly one place, no negative credits, hands within their limits, Fighters within the developments that carry
them, developments within each system's maximum and only in controlled systems, an end by the turn cap; and any
breach the rules recorded as it happened (`breaches`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def violations(state: StarState) -> list[str]:
    out = list(state.breaches)
    engine = state.engine
    places = [c for d in state.decks for c in d] + [c for d in state.discards for c in d]
    places += [c for h in state.hands for c in h] + [c for t in state.techs for c in t] + state.playing
    places += state.supply + [x.card for x in state.pieces]
    if sorted(places) != list(range(len(engine.cards))):
        out.append(f"cards: {len(places)} places for {len(engine.cards)} cards ({len(set(places))} distinct)")
    if sorted(state.grid + state.aside) != list(range(len(engine.systems))):
        out.append("systems: the grid and the cards aside do not hold every System card once")
    fighters: dict[tuple[int, int], int] = {}
    for x in state.pieces:
        if engine.fighter[x.card]:
            fighters[x.owner, x.cell] = fighters.get((x.owner, x.cell), 0) + 1
        if x.owner in state.out:
            out.append(f"an eliminated seat still has {state.spec(x.card).name} on the grid")
    for seat in range(state.n):
        if state.credits[seat] < 0:
            out.append(f"seat {seat}: {state.credits[seat]} credits")
        if len(state.hands[seat]) > state.hand_limit(seat):
            out.append(f"seat {seat}: {len(state.hands[seat])} cards in hand, limit {state.hand_limit(seat)}")
        total = sum(k for (owner, _), k in fighters.items() if owner == seat)
        if total > state.developments(seat):
            out.append(f"seat {seat}: {total} Fighters for {state.developments(seat)} developments")
    systems = engine.systems
    for cell, owner in enumerate(state.owner):
        devs = state.devs[cell]
        if (owner >= 0) != (devs > 0):
            out.append(f"{state.cell_name(cell)}: owner {owner} with {devs} developments")
        if devs > systems[state.grid[cell]].max_development:
            out.append(f"{state.cell_name(cell)}: {devs} developments, max {systems[state.grid[cell]].max_development}")
        here = fighters.get((owner, cell), 0)
        if owner >= 0 and here > 0 and here > state.fighter_slots(owner, cell):
            out.append(f"{state.cell_name(cell)}: more Fighters than its development allows")
    if state.turn_cap is not None and state.turns > state.turn_cap + 1:
        out.append(f"no end after {state.turns} turns (cap {state.turn_cap})")
    return out
