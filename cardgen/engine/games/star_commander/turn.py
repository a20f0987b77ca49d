"""A turn of Star Commander, phase by phase, except Combat (`combat`): Ready (income from the systems not under
siege, a draw, Ready-phase abilities, a window for start-of-turn commands; skipped on each seat's first turn), Command
(the player's actions, `state.StarState._apply`), End (conquest by the active player's besieging ships, then Cleanup:
captured Homeworlds eliminate their players, abandoned Fighters are lost, damage and this turn's effects clear, the
hand limit). Task handlers (`@task`) and functions of the state, run by `state.StarState`'s flow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.flow import task
from cardgen.engine.games.star_commander import combat, effects, listing
from cardgen.engine.games.star_commander.model import Phase, Piece, Temporary

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


@task
def turn(state: StarState, player: int) -> None:
    state.active, state.turns = player, state.turns + 1
    state.clock += 1
    for piece in state.pieces:  # `jumps` and `moved` count the active player's turn for every piece (Retreat)
        if piece.jumps or piece.moved or (piece.fresh and piece.owner == player):
            piece = state.own(piece)
            piece.jumps, piece.moved = 0, False
            if piece.owner == player:
                piece.fresh = False
    state.abandoned = {x.card for x in state.pieces if x.owner == player and abandoned(state, x)}
    state.phase = Phase.READY
    ready = [("income", player), ("draw", player, state.engine.draws), ("ready_abilities", player),
             ("start_window", player)]  # fmt: skip
    state.push(*(ready if state.started[player] else []), ("command", player))
    state.started[player] = True


def abandoned(state: StarState, piece: Piece) -> bool:
    """A Fighter outside its owner's systems with no ship of theirs there but Fighters (lost at Cleanup if still)."""
    if not state.spec(piece.card).fighter or state.owner[piece.cell] == piece.owner:
        return False
    return all(state.spec(x.card).fighter for x in state.at(piece.cell) if x.owner == piece.owner)


def besieged_maybe(state: StarState) -> set[int]:
    """The systems another player's ship (not a Fighter) stands in: the only ones `under_siege` may find besieged
    (asked of the others it says no, and marks no ability as applied). One pass over the pieces, where asking each
    system would go through them all each time."""
    owner, cards = state.owner, state.engine.cards
    return {x.cell for x in state.pieces if owner[x.cell] != x.owner and cards[x.card].kind == "ship"
            and not cards[x.card].fighter}  # fmt: skip


@task
def income(state: StarState, player: int) -> None:
    maybe = besieged_maybe(state)
    for cell, owner in enumerate(state.owner):
        if owner == player and (cell not in maybe or not state.under_siege(cell)):
            state.credits[player] += state.system(cell).credits + state.devs[cell] * state.engine.income


@task
def ready_abilities(state: StarState, player: int) -> None:
    cards, ready = state.engine.cards, state.engine.ready_effects
    sources: list[tuple[int, Piece | None]] = [(c, None) for c in state.techs[player] if ready[c]]
    sources += [(x.card, x) for x in state.pieces if x.owner == player and ready[x.card]]
    for card, piece in sources:
        for e in ready[card]:
            if effects.condition(state, player, e, piece):
                state.applied.add(cards[card].item)
                effects.apply_effect(state, player, e, card, -1, -1)


@task
def start_window(state: StarState, player: int) -> None:
    if listing.commands(state, player, "start-of-turn"):
        state.ask("start", player)


@task
def command(state: StarState, player: int) -> None:
    state.phase = Phase.COMMAND
    state.ask("command", player)


@task
def end(state: StarState, player: int) -> None:
    """The End phase: the active player's ships besieging a system take developments from it (all of them: the
    system is conquered), then Cleanup."""
    state.phase, state.fight = Phase.END, -1
    maybe = besieged_maybe(state)  # once: below, pieces are only destroyed, and only the system at hand changes hands
    for cell in range(len(state.grid)):
        defender = state.owner[cell]
        if defender < 0 or defender == player or cell not in maybe or not state.under_siege(cell):
            continue
        weight = 0
        for x in state.at(cell):
            spec = state.spec(x.card)
            if x.owner == player and spec.kind == "ship" and not spec.fighter:
                heavy = spec.has("siege-weight")
                weight += heavy.amount if heavy else 1
                if heavy:
                    state.applied.add(spec.item)
        if cell == state.home[defender]:
            for e, _ in state.lasting(defender, "conquest-limit"):
                if weight > e.amount:
                    weight = e.amount
                    state.applied.add(state.tech_item(defender, e))
        state.devs[cell] -= min(weight, state.devs[cell])
        if state.devs[cell] == 0:
            state.owner[cell], state.devs[cell] = player, state.engine.conquest_developments
            combat.fighter_excess(state, player)  # the conqueror's own Fighters there now count against its development
        combat.fighter_excess(state, defender)
    cleanup(state, player)


def cleanup(state: StarState, player: int) -> None:
    state.last_end[player] = state.clock
    for seat in range(state.n):
        if seat not in state.out and state.owner[state.home[seat]] != seat:
            eliminate(state, seat, f"Homeworld taken by seat {state.owner[state.home[seat]]}")
    for piece in [x for x in state.pieces if x.card in state.abandoned]:
        if abandoned(state, piece):
            combat.destroy(state, piece)
    for piece in state.pieces:
        if piece.damage or piece.boost or piece.pinned or piece.cloaked:
            piece = state.own(piece)
            piece.damage, piece.boost, piece.pinned, piece.cloaked = 0, 0, False, False
    state.temp, state.vetoed, state.used = Temporary(), set(), set()
    state.embargo[player] = False
    alive = state.alive(state.n)
    if len(alive) == 1:
        state.phase, state.ending = Phase.OVER, "last Homeworld standing"
        state.tasks, state.decision = [], None
        return
    following = state.next_alive(player, state.n)
    assert following is not None
    state.push(("hand_limit", player), ("turn", following))


@task
def hand_limit(state: StarState, player: int) -> None:
    if len(state.hands[player]) > state.hand_limit(player):
        state.tasks.append(("hand_limit", player))
        state.ask("discard", player)


def eliminate(state: StarState, seat: int, why: str) -> None:
    """A seat is out: its pieces are destroyed, its systems left uncontrolled, its cards discarded."""
    state.eliminate(seat, why)
    for piece in [x for x in state.pieces if x.owner == seat]:
        combat.destroy(state, piece)
    for cell, owner in enumerate(state.owner):
        if owner == seat:
            state.owner[cell], state.devs[cell] = -1, 0
    for card in state.hands[seat] + state.techs[seat]:
        state.return_card(card)
    state.hands[seat], state.techs[seat] = [], []
    state._changed()
