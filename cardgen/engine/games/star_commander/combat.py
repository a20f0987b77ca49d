"""Star Commander's Combat phase: each system holding pieces of two or more players fights, in grid order — a window
for combat commands, damage assigned ship by ship (the active player first, then clockwise), a window for damage
prevention, the hits, a window for each piece destroyed, then retreats — and the destruction of pieces, with the
Fighter limit a lost development can break (`fighter_excess`). Task handlers (`@task`) and functions of the state,
run by `state.StarState`'s flow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.flow import task
from cardgen.engine.games.star_commander import listing
from cardgen.engine.games.star_commander.model import Phase, Piece, Retreat

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


@task
def combat(state: StarState, player: int) -> None:
    """The Combat phase: a battle in every system where two or more players have pieces, then the End phase."""
    state.phase = Phase.COMBAT
    owners: dict[int, set[int]] = {}  # by cell, in one pass over the pieces
    for x in state.pieces:
        owners.setdefault(x.cell, set()).add(x.owner)
    cells = sorted(c for c, here in owners.items() if len(here) > 1)
    state.push(*[("battle", c) for c in cells], ("end", player))


@task
def battle(state: StarState, cell: int) -> None:
    if len({x.owner for x in state.at(cell)}) < 2:
        return
    state.fight, state.assigned, state.prevent = cell, [], {}
    order = tuple(state.order_from(state.active))
    state.push(("combat_window", cell, order, 0), ("assign_all", cell), ("damage", cell), ("retreats", cell, order))


@task
def combat_window(state: StarState, cell: int, order: tuple[int, ...], passes: int) -> None:
    """Before damage is assigned, in turn order from the active player, each may play combat commands; the
    window closes when every player has passed in a row."""
    for step in range(len(order) - passes):
        player = order[(passes + step) % len(order)]
        if listing.commands(state, player, "combat-phase") or listing.responses_any(state, player):
            state.tasks.append(("combat_window", cell, order, passes + step + 1))
            state.ask("combat", player, cell)
            return


def reopen_window(state: StarState, player: int) -> None:
    """After a combat-window play, the window goes round again from the next player."""
    tasks = state.tasks
    window = next(i for i in range(len(tasks) - 1, -1, -1) if tasks[i][0] == "combat_window")
    _, cell, order, _passes = tasks[window]
    start = (order.index(player) + 1) % len(order)
    tasks[window] = ("combat_window", cell, order[start:] + order[:start], 0)


@task
def assign_all(state: StarState, cell: int) -> None:
    if cell in state.temp.ceasefire:
        return
    for player in reversed(state.order_from(state.active)):
        for x in reversed(state.at(cell)):
            if x.owner == player and state.attack(x) > 0:
                state.tasks.append(("assign", x.card))


@task
def assign(state: StarState, attacker: int) -> None:
    piece = state.piece(attacker)
    if piece is None or piece.cell != state.fight or state.attack(piece) == 0:
        return
    if targets(state, piece):
        state.ask("assign", piece.owner, attacker)


def targets(state: StarState, piece: Piece) -> list[int]:
    """The pieces a ship may fire at: the other players' pieces in its system that are not cloaked."""
    return [x.card for x in state.at(piece.cell) if x.owner != piece.owner and not x.cloaked]


@task
def damage(state: StarState, cell: int) -> None:
    if not state.assigned:
        return
    state.combat_at[cell] = state.clock
    item = ("damage", cell)
    state.push(("window", item, tuple(state.order_from(state.active))), ("resolve_item", item), ("hits", cell))


@task
def hits(state: StarState, cell: int) -> None:
    dealt: dict[int, int] = {}
    for attacker, target in state.assigned:
        a, t = state.piece(attacker), state.piece(target)
        if a is None or t is None or a.cell != cell or t.cell != cell or t.cloaked:
            continue
        amount = state.attack(a)
        for e, src in state.lasting(t.owner, "escort"):
            if src is not None and src is not t and src.cell == cell:
                amount -= e.amount
                state.applied.add(state.spec(src.card).item)
        dealt[target] = dealt.get(target, 0) + max(0, amount)
    for target, amount in dealt.items():
        t = state.piece(target)
        assert t is not None
        prevented = min(amount, state.prevent.get(target, 0))
        amount -= prevented
        if amount and state.lasting(t.owner, "shield") and t.owner not in state.temp.shield_used:
            state.temp.shield_used.add(t.owner)
            e, _ = state.lasting(t.owner, "shield")[0]
            amount -= min(amount, e.amount)
            state.applied.add(state.tech_item(t.owner, e))
        state.own(t).damage += amount
    destroy_broken(state, cell)


def destroy_broken(state: StarState, cell: int) -> None:
    """Pieces whose damage exceeds their hit points are destroyed (rules.yaml `destroyed_when`)."""
    for piece in [x for x in state.at(cell) if x.damage > state.hp(x)]:
        destroy(state, piece)
        item = ("destroyed", piece.card, cell)
        state.push(("window", item, tuple(state.order_from(state.active))), ("resolve_item", item))


def destroy(state: StarState, piece: Piece) -> None:
    pieces = state.pieces
    del pieces[next(i for i, x in enumerate(pieces) if x is piece)]  # by identity: `remove` compared field by field
    state._changed(piece.owner, piece.card)
    state.return_card(piece.card)
    if state.spec(piece.card).has("fighter-slots"):
        fighter_excess(state, piece.owner)


def fighter_excess(state: StarState, player: int) -> None:
    """A player above a Fighter limit after losing developments loses the excess at once (`fighter_excess`)."""
    fighter = state.engine.fighter
    for cell in range(len(state.grid)):
        while state.owner[cell] == player and state.fighters(player, cell) > state.fighter_slots(player, cell):
            destroy(state, next(x for x in reversed(state.at(cell)) if x.owner == player and fighter[x.card]))
    while state.fighters(player) > state.developments(player):
        destroy(state, next(x for x in reversed(state.pieces) if x.owner == player and fighter[x.card]))


@task
def retreats(state: StarState, cell: int, order: tuple[int, ...]) -> None:
    for player in reversed(order):
        state.tasks.append(("retreat", cell, player))


@task
def retreat(state: StarState, cell: int, player: int) -> None:
    if player not in state.out and retreat_options(state, cell, player):
        state.ask("retreat", player, cell)


def retreat_options(state: StarState, cell: int, player: int) -> list[Retreat]:
    """Where each of a player's ships may retreat from a battle: to a system of theirs one jump away (anywhere they
    hold one with a far retreat); not a pinned ship, a ship that jumped this turn or a Fighter, unless an ability
    allows it, and no Fighter into a system with no room for one."""
    far = bool(state.lasting(player, "far-retreat"))
    out = []
    for x in state.at(cell):
        spec = state.spec(x.card)
        if x.owner != player or spec.kind != "ship" or x.pinned:
            continue
        if x.moved and not far and not spec.has("retreat-after-jump"):
            continue
        if spec.fighter and not state.lasting(player, "fighter-jumps") and not far:
            continue
        dests = [c for c, o in enumerate(state.owner) if o == player] if far else state.neighbours(cell)
        dests = [c for c in dests if c != cell and state.owner[c] == player]
        if spec.fighter:
            dests = [c for c in dests if state.fighters(player, c) < state.fighter_slots(player, c)]
        out += [Retreat(x.card, c) for c in dests]
    return out


def retreat_piece(state: StarState, player: int, card: int, cell: int, battle_cell: int) -> None:
    """A ship retreats from the battle in `battle_cell` to `cell`, relying on the abilities that let it; then the player
    may retreat another."""
    x = state.piece(card)
    assert x is not None
    if x.moved and state.spec(card).has("retreat-after-jump"):
        state.applied.add(state.spec(card).item)
    elif x.moved or cell not in state.neighbours(x.cell):
        state._used_lasting(player, "far-retreat", 1)
    x = state.own(x)
    x.moved = True
    x.cell = cell
    state.tasks.append(("retreat", battle_cell, player))
