"""What Star Commander's cards and commands do to the board: a card effect in the effect vocabulary (`apply_effect`),
peeks and arrangements, a piece jumping in (`enter`), exploring, building, placing and scrapping. Functions of the
state, called by `state.StarState`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.star_commander import listing
from cardgen.engine.games.star_commander.model import (
    Effect,
    Piece,
)

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def apply_effect(state: StarState, p: int, e: Effect, card: int, target: int, extra: int) -> None:
    """Carry out one statement of a card for player p (`target`: the chosen target; `extra`: a destroyed card)."""
    n = e.amount
    match e.verb:
        case "gain-credits":
            if e.opt("per") == "developed-system":
                n *= sum(1 for c, o in enumerate(state.owner) if o == p and state.devs[c] >= e.num("at-least"))
            if e.opt("max"):
                n = min(n, e.num("max"))
            if state._condition(p, e, None):
                state.credits[p] += n
        case "gain-scrap-value":
            state.credits[p] += state.engine.scrap_value(state.spec(target).cost)
        case "draw":
            if state._condition(p, e, None):
                state.push(("draw", p, n))
        case "discard":
            state.push(*[("discard", p)] * n)
        case "cycle":
            state.push(("draw", p, n), *[("discard", p)] * n)
        case "remove-development":
            if state.owner[target] == p:
                state.devs[target] = max(1, state.devs[target] - n)
                state._fighter_excess(p)
        case "boost-attack":
            if (x := state.piece(target)) is not None:
                x.boost += n
        case "deal-damage":
            if (x := state.piece(target)) is not None:
                x.damage += n
                state._destroy_broken(x.cell)
        case "prevent":
            state.prevent[target] = state.prevent.get(target, 0) + n
        case "shipyard-grant":
            state.temp.grants += n
        case "discount":
            state.temp.discount, state.temp.discount_min = n, e.num("min", 1)
        case "cancel":
            state.vetoed.add(target)
        case "ceasefire":
            state.temp.ceasefire.add(target)
        case "lift-siege":
            state.temp.lifted.add(target)
        case "build-fighter":
            fighter = state._supply_card("Fighter")
            if fighter is not None and listing.can_build(state, p, fighter, target, scramble=True):
                place(state, p, fighter, target)
        case "embargo":
            state.embargo[target] = True
        case "arrange-top":
            arrange(state, p, target, n)
        case "pin":
            if (x := state.piece(target)) is not None:
                x.pinned = True
        case "annex":
            if state.owner[target] < 0 and state.credits[p] >= state.engine.development_cost(0):
                state.credits[p] -= state.engine.development_cost(0)
                state.owner[target], state.devs[target] = p, 1
                state._fighter_excess(p)
        case "jump-now":
            x = state.piece(target)
            if x is not None:
                dests = list(state.neighbours(x.cell))
                if state.spec(x.card).fighter:  # never into a system of its own already full of Fighters
                    dests = [
                        c for c in dests if state.owner[c] != p or state.fighters(p, c) < state.fighter_slots(p, c)
                    ]
                if dests:
                    enter(state, x, nearest_enemy_home(state, p, dests))
        case "peek":
            origin = state.fight
            peek(state, p, n, None if e.opt("where") == "anywhere" else origin)
        case "cloak":
            if (x := state.piece(target)) is not None:
                x.cloaked = True
        case "extra-jumps":
            state.temp.extra_jumps += n


def nearest_enemy_home(state: StarState, p: int, cells: list[int]) -> int:
    """Where an emergency jump goes: towards the nearest enemy Homeworld (the engine's fixed choice)."""
    homes = [state.home[q] for q in state.alive(state.n) if q != p] or [state.home[p]]
    return min(cells, key=lambda c: (min(state.distance(c, h) for h in homes), c))


def arrange(state: StarState, p: int, d: int, n: int) -> None:
    """Imperial Census: the top n cards go back with the dearest on top (the engine's fixed order), remembered."""
    deck = state.decks[d]
    top = deck[-n:]
    top.sort(key=lambda c: (state.spec(c).cost, c))
    deck[-n:] = top
    state.known[p][d] = list(reversed(top))


def peek(state: StarState, p: int, n: int, around: int | None) -> None:
    """Look at n face-down systems: around a cell first (adjacent ones), else anywhere, nearest to p's ships."""
    hidden = [c for c in range(len(state.grid)) if not state.revealed[c] and c not in state.peeked[p]]
    if around is not None:
        hidden = [c for c in hidden if c in state.neighbours(around)]
    ships = [x.cell for x in state.pieces if x.owner == p] or [state.home[p]]
    hidden.sort(key=lambda c: (min(state.distance(c, s) for s in ships), c))
    state.peeked[p] |= set(hidden[:n])


def mark_move(state: StarState, p: int, x: Piece, cell: int) -> None:
    """The lasting effects a jump relied on: a Fighter's jump, a jump along a side, a jump gate."""
    if state.spec(x.card).fighter:
        state._used_lasting(p, "fighter-jumps", 1)
    elif cell in state.neighbours(x.cell, orthogonal=True) and cell not in state.neighbours(x.cell):
        state._used_lasting(p, "orthogonal-jumps", 1)
    elif cell not in state.neighbours(x.cell, orthogonal=True):
        for e, src in state.lasting(p, "gate"):
            if src is not None and src.cell == x.cell:
                state._mark(p, e, src)
    if state.spec(x.card).fighter and state.fighters(p, cell) >= state.devs[cell]:
        state._used_lasting(p, "fighter-slots", 1)


def enter(state: StarState, x: Piece, cell: int) -> None:
    """A ship arrives in a system: enemy pickets fire, an envoy entering another's system draws."""
    x.cell = cell
    for y in state.at(cell):
        if y.owner != x.owner:
            for e in state.spec(y.card).effects:
                if e.trigger == "enemy-enters" and e.verb == "deal-damage":
                    x.damage += e.amount
                    state.applied.add(state.spec(y.card).item)
    o = state.owner[cell]
    if o >= 0 and o != x.owner:
        for e in state.spec(x.card).effects:
            if e.trigger == "enter-enemy-system":
                state.applied.add(state.spec(x.card).item)
                apply_effect(state, x.owner, e, x.card, -1, -1)
    state._destroy_broken(cell)


def explore(state: StarState, p: int, cell: int) -> None:
    state.revealed[cell] = True
    state.chance.record("explore", [cell, state.grid[cell]])
    for peeks in state.peeked:
        peeks.discard(cell)
    system = state.system(cell)
    n = system.amount
    match system.explore:
        case "gain-credits":
            state.credits[p] += n
        case "draw-cards":
            if system.domain >= 0:
                state.push(*[("draw_one", p, system.domain)] * n)
            else:
                state.push(("draw", p, n))
        case "hazard":
            for x in state.at(cell):
                if x.owner == p:
                    x.damage += n
        case "survey":
            peek(state, p, n, cell)
        case "claim":
            if state.owner[cell] < 0:
                state.owner[cell], state.devs[cell] = p, 1
                state._fighter_excess(p)
    sources = [(c, None) for c in state.techs[p]] + [(x.card, x) for x in state.at(cell) if x.owner == p]
    for card, _ in sources:
        for e in state.spec(card).effects:
            if e.trigger == "explore":
                state.applied.add(state.spec(card).item)
                if e.verb == "peek":
                    peek(state, p, e.amount, cell)
                else:
                    apply_effect(state, p, e, card, -1, -1)
    state._destroy_broken(cell)


def build(state: StarState, p: int, card: int, cell: int) -> None:
    spec = state.spec(card)
    cost = state.build_cost(p, card)
    if spec.kind == "ship" and cost < spec.cost - state.temp.discount:
        state._used_lasting(p, "cost", 1)
    if spec.kind == "ship" and not spec.fighter and cell != state.home[p] and not state.system(cell).capital:
        for e, src in state.lasting(p, "shipyard"):
            if src is not None and src.cell == cell:
                state._mark(p, e, src)
    if spec.fighter and state.fighters(p, cell) >= state.devs[cell]:
        state._used_lasting(p, "fighter-slots", 1)
    state.credits[p] -= cost
    if spec.kind == "ship":
        if state.temp.discount:
            state.temp.discount = 0
        if not shipyard_without_grant(state, p, cell):
            state.temp.grants -= 1
    if spec.domain >= 0:
        state.cards_played.add(spec.item)
        state.hands[p].remove(card)
    else:
        state.supply.remove(card)
    if spec.kind == "station":
        have = sum(1 for x in state.at(cell) if x.owner == p and state.spec(x.card).kind == "station")
        if have >= state.devs[cell]:
            state.breaches.append(f"a station built above the limit in {state._cell(cell)}")
    place(state, p, card, cell)


def shipyard_without_grant(state: StarState, p: int, cell: int) -> bool:
    grants, state.temp.grants = state.temp.grants, 0
    ok = listing.shipyard(state, p, cell)
    state.temp.grants = grants
    return ok


def place(state: StarState, p: int, card: int, cell: int) -> None:
    if card in state.supply:
        state.supply.remove(card)
    state.pieces.append(Piece(card, p, cell, 0, 0, True, False, False, False, 0))
    state._changed()


def scrap(state: StarState, p: int, card: int) -> None:
    x = state.piece(card)
    assert x is not None
    spec = state.spec(card)
    gain = state.engine.scrap_value(spec.cost)
    extra = [e for e in spec.effects if e.trigger == "scrap"]
    extra += [e for c in state.techs[p] for e in state.spec(c).effects if e.trigger == "scrap"]
    for e in extra:
        gain += e.amount
    if extra:
        state.applied.add(spec.item if spec.has("gain-credits") else tech_scrap(state, p))
    state.credits[p] += gain
    state.destroy(x)


def tech_scrap(state: StarState, p: int) -> str:
    return next(state.spec(c).item for c in state.techs[p] if any(e.trigger == "scrap" for e in state.spec(c).effects))
