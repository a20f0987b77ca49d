"""What Star Commander's cards and commands do to the board: the handlers of the verbs in the effect vocabulary
(`model.VOCABULARY`, bound with `@does`; `apply_effect` runs one statement), the conditions a statement can carry
(`condition`), peeks and arrangements, a piece jumping (`jump`, `enter`), exploring, building, placing and scrapping.
Functions of the state, called by `state.StarState`, `cards` and `turn`.
A verb without a handler here is a lasting modifier the state reads where it applies (`lasting`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.star_commander import combat, listing
from cardgen.engine.games.star_commander.model import (
    VOCABULARY,
    Effect,
    Piece,
)

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState

does = VOCABULARY.does


def apply_effect(state: StarState, player: int, effect: Effect, card: int, target: int, extra: int) -> None:
    """Carry out one statement of a card for player p (`target`: the chosen target, a destroyed card for
    `gain-scrap-value`); `card` and `extra` are what the state passes and no handler needs."""
    VOCABULARY.run(state, player, effect, target)


def condition(state: StarState, player: int, effect: Effect, piece: Piece | None) -> bool:
    """Whether a statement's conditions hold for the player (`if-systems`, `if-here` for the piece carrying it,
    `if-hand-at-most`, `if-techs`)."""
    if effect.opt("if-systems") and sum(1 for o in state.owner if o == player) < effect.num("if-systems"):
        return False
    if effect.opt("if-here") and (piece is None or state.owner[piece.cell] != player):
        return False
    if effect.opt("if-hand-at-most") and len(state.hands[player]) > effect.num("if-hand-at-most"):
        return False
    return not (effect.opt("if-techs") and len(state.techs[player]) < effect.num("if-techs"))


@does("gain-credits")
def gain_credits(state: StarState, player: int, effect: Effect, target: int) -> None:
    n = effect.amount
    if effect.opt("per") == "developed-system":
        n *= sum(1 for c, o in enumerate(state.owner) if o == player and state.devs[c] >= effect.num("at-least"))
    if effect.opt("max"):
        n = min(n, effect.num("max"))
    if condition(state, player, effect, None):
        state.credits[player] += n


@does("gain-scrap-value")
def gain_scrap_value(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.credits[player] += state.engine.scrap_value(state.spec(target).cost)


@does("draw")
def draw(state: StarState, player: int, effect: Effect, target: int) -> None:
    if condition(state, player, effect, None):
        state.push(("draw", player, effect.amount))


@does("discard")
def discard(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.push(*[("discard", player)] * effect.amount)


@does("cycle")
def cycle(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.push(("draw", player, effect.amount), *[("discard", player)] * effect.amount)


@does("remove-development")
def remove_development(state: StarState, player: int, effect: Effect, target: int) -> None:
    if state.owner[target] == player:
        state.devs[target] = max(1, state.devs[target] - effect.amount)
        combat.fighter_excess(state, player)


@does("boost-attack")
def boost_attack(state: StarState, player: int, effect: Effect, target: int) -> None:
    if (x := state.piece(target)) is not None:
        state.own(x).boost += effect.amount


@does("deal-damage")
def deal_damage(state: StarState, player: int, effect: Effect, target: int) -> None:
    if (x := state.piece(target)) is not None:
        state.own(x).damage += effect.amount
        combat.destroy_broken(state, x.cell)


@does("prevent")
def prevent(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.prevent[target] = state.prevent.get(target, 0) + effect.amount


@does("shipyard-grant")
def shipyard_grant(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.temp.grants += effect.amount


@does("discount")
def discount(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.temp.discount, state.temp.discount_min = effect.amount, effect.num("min", 1)


@does("cancel")
def cancel(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.vetoed.add(target)


@does("ceasefire")
def ceasefire(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.temp.ceasefire.add(target)


@does("lift-siege")
def lift_siege(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.temp.lifted.add(target)


@does("build-fighter")
def build_fighter(state: StarState, player: int, effect: Effect, target: int) -> None:
    fighter = state._supply_card("Fighter")
    if fighter is not None and listing.can_build(state, player, fighter, target, scramble=True):
        place(state, player, fighter, target)


@does("embargo")
def embargo(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.embargo[target] = True


@does("arrange-top")
def arrange_top(state: StarState, player: int, effect: Effect, target: int) -> None:
    arrange(state, player, target, effect.amount)


@does("pin")
def pin(state: StarState, player: int, effect: Effect, target: int) -> None:
    if (x := state.piece(target)) is not None:
        state.own(x).pinned = True


@does("annex")
def annex(state: StarState, player: int, effect: Effect, target: int) -> None:
    if state.owner[target] < 0 and state.credits[player] >= state.engine.development_cost(0):
        state.credits[player] -= state.engine.development_cost(0)
        state.owner[target], state.devs[target] = player, 1
        combat.fighter_excess(state, player)


@does("jump-now")
def jump_now(state: StarState, player: int, effect: Effect, target: int) -> None:
    x = state.piece(target)
    if x is not None:
        dests = list(state.neighbours(x.cell))
        if state.spec(x.card).fighter:  # never into a system of its own already full of Fighters
            dests = [
                c
                for c in dests
                if state.owner[c] != player or state.fighters(player, c) < state.fighter_slots(player, c)
            ]
        if dests:
            enter(state, x, nearest_enemy_home(state, player, dests))


@does("peek")
def peek_systems(state: StarState, player: int, effect: Effect, target: int) -> None:
    peek(state, player, effect.amount, None if effect.opt("where") == "anywhere" else state.fight)


@does("cloak")
def cloak(state: StarState, player: int, effect: Effect, target: int) -> None:
    if (x := state.piece(target)) is not None:
        state.own(x).cloaked = True


@does("extra-jumps")
def extra_jumps(state: StarState, player: int, effect: Effect, target: int) -> None:
    state.temp.extra_jumps += effect.amount


def nearest_enemy_home(state: StarState, player: int, cells: list[int]) -> int:
    """Where an emergency jump goes: towards the nearest enemy Homeworld (the engine's fixed choice)."""
    homes = [state.home[q] for q in state.alive(state.n) if q != player] or [state.home[player]]
    return min(cells, key=lambda c: (min(state.distance(c, h) for h in homes), c))


def arrange(state: StarState, player: int, d: int, n: int) -> None:
    """Imperial Census: the top n cards go back with the dearest on top (the engine's fixed order), remembered."""
    deck = state.decks[d]
    top = deck[-n:]
    top.sort(key=lambda c: (state.spec(c).cost, c))
    deck[-n:] = top
    state.known[player][d] = tuple(reversed(top))


def peek(state: StarState, player: int, n: int, around: int | None) -> None:
    """Look at n face-down systems: around a cell first (adjacent ones), else anywhere, nearest to p's ships."""
    hidden = [c for c in range(len(state.grid)) if not state.revealed[c] and c not in state.peeked[player]]
    if around is not None:
        hidden = [c for c in hidden if c in state.neighbours(around)]
    ships = [x.cell for x in state.pieces if x.owner == player] or [state.home[player]]
    hidden.sort(key=lambda c: (min(state.distance(c, s) for s in ships), c))
    state.peeked[player] = state.peeked[player] | set(hidden[:n])  # replaced, never changed: clones share them


def jump(state: StarState, player: int, card: int, cell: int) -> None:
    """A piece jumps to a neighbouring system (a ship past its jumps uses the spare jump an ability gives)."""
    x = state.piece(card)
    assert x is not None
    x = state.own(x)
    spec = state.spec(card)
    if x.jumps >= spec.jump + state.temp.extra_jumps and not spec.fighter:
        state.temp.spare_used = True
        state._used_lasting(player, "spare-jump", 1)
    x.jumps += 1
    x.moved = True
    mark_move(state, player, x, cell)
    enter(state, x, cell)


def mark_move(state: StarState, player: int, piece: Piece, cell: int) -> None:
    """The lasting effects a jump relied on: a Fighter's jump, a jump along a side, a jump gate."""
    if state.spec(piece.card).fighter:
        state._used_lasting(player, "fighter-jumps", 1)
    elif cell in state.neighbours(piece.cell, orthogonal=True) and cell not in state.neighbours(piece.cell):
        state._used_lasting(player, "orthogonal-jumps", 1)
    elif cell not in state.neighbours(piece.cell, orthogonal=True):
        for e, src in state.lasting(player, "gate"):
            if src is not None and src.cell == piece.cell:
                state._mark(player, e, src)
    if state.spec(piece.card).fighter and state.fighters(player, cell) >= state.devs[cell]:
        state._used_lasting(player, "fighter-slots", 1)


def enter(state: StarState, piece: Piece, cell: int) -> None:
    """A ship arrives in a system: enemy pickets fire, an envoy entering another's system draws."""
    piece = state.own(piece)
    piece.cell = cell
    for y in state.at(cell):
        if y.owner != piece.owner:
            for e in state.spec(y.card).effects:
                if e.trigger == "enemy-enters" and e.verb == "deal-damage":
                    piece.damage += e.amount
                    state.applied.add(state.spec(y.card).item)
    o = state.owner[cell]
    if o >= 0 and o != piece.owner:
        for e in state.spec(piece.card).effects:
            if e.trigger == "enter-enemy-system":
                state.applied.add(state.spec(piece.card).item)
                apply_effect(state, piece.owner, e, piece.card, -1, -1)
    combat.destroy_broken(state, cell)


def explore(state: StarState, player: int, cell: int) -> None:
    state.revealed[cell] = True
    state.chance.record("explore", [cell, state.grid[cell]])
    state.peeked = [peeks - {cell} if cell in peeks else peeks for peeks in state.peeked]
    system = state.system(cell)
    n = system.amount
    match system.explore:
        case "gain-credits":
            state.credits[player] += n
        case "draw-cards":
            if system.domain >= 0:
                state.push(*[("draw_one", player, system.domain)] * n)
            else:
                state.push(("draw", player, n))
        case "hazard":
            for x in state.at(cell):
                if x.owner == player:
                    state.own(x).damage += n
        case "survey":
            peek(state, player, n, cell)
        case "claim":
            if state.owner[cell] < 0:
                state.owner[cell], state.devs[cell] = player, 1
                combat.fighter_excess(state, player)
    sources = [(c, None) for c in state.techs[player]] + [(x.card, x) for x in state.at(cell) if x.owner == player]
    for card, _ in sources:
        for e in state.spec(card).effects:
            if e.trigger == "explore":
                state.applied.add(state.spec(card).item)
                if e.verb == "peek":
                    peek(state, player, e.amount, cell)
                else:
                    apply_effect(state, player, e, card, -1, -1)
    combat.destroy_broken(state, cell)


def build(state: StarState, player: int, card: int, cell: int) -> None:
    spec = state.spec(card)
    cost = state.build_cost(player, card)
    if spec.kind == "ship" and cost < spec.cost - state.temp.discount:
        state._used_lasting(player, "cost", 1)
    if spec.kind == "ship" and not spec.fighter and cell != state.home[player] and not state.system(cell).capital:
        for e, src in state.lasting(player, "shipyard"):
            if src is not None and src.cell == cell:
                state._mark(player, e, src)
    if spec.fighter and state.fighters(player, cell) >= state.devs[cell]:
        state._used_lasting(player, "fighter-slots", 1)
    state.credits[player] -= cost
    if spec.kind == "ship":
        if state.temp.discount:
            state.temp.discount = 0
        if not shipyard_without_grant(state, player, cell):
            state.temp.grants -= 1
    if spec.domain >= 0:
        state.cards_played.add(spec.item)
        state.hands[player].remove(card)
    else:
        state.supply.remove(card)
    if spec.kind == "station":
        have = sum(1 for x in state.at(cell) if x.owner == player and state.spec(x.card).kind == "station")
        if have >= state.devs[cell]:
            state.breaches.append(f"a station built above the limit in {state.cell_name(cell)}")
    place(state, player, card, cell)


def shipyard_without_grant(state: StarState, player: int, cell: int) -> bool:
    grants, state.temp.grants = state.temp.grants, 0
    ok = listing.shipyard(state, player, cell)
    state.temp.grants = grants
    return ok


def place(state: StarState, player: int, card: int, cell: int) -> None:
    if card in state.supply:
        state.supply.remove(card)
    state.pieces.append(Piece(card, player, cell, 0, 0, True, False, False, False, 0, state.token))
    state._changed(player, card)


def scrap(state: StarState, player: int, card: int) -> None:
    x = state.piece(card)
    assert x is not None
    spec = state.spec(card)
    gain = state.engine.scrap_value(spec.cost)
    scraps = state.engine.scrap_effects
    extra = [*scraps[card], *(e for c in state.techs[player] for e in scraps[c])]
    for e in extra:
        gain += e.amount
    if extra:
        state.applied.add(spec.item if spec.has("gain-credits") else tech_scrap(state, player))
    state.credits[player] += gain
    combat.destroy(state, x)


def tech_scrap(state: StarState, player: int) -> str:
    return next(
        state.spec(c).item for c in state.techs[player] if any(e.trigger == "scrap" for e in state.spec(c).effects)
    )
