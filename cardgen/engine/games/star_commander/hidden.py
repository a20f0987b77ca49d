"""What a Star Commander player can see (`observation`) and a game dealt again from it (`determinize`): face-down
systems they have not looked at, the part of each Domain deck they have not seen and the other players' hands (whose
domains are public). Functions of the state, called by `state.StarState`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.core import frozen
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def observation(state: StarState, player: int) -> tuple[object, ...]:
    systems = tuple(
        state.grid[c] if state.revealed[c] or c in state.peeked[player] else -1 for c in range(len(state.grid))
    )
    hands = tuple(
        tuple(sorted(h)) if seat == player else tuple(sorted(state.spec(c).domain for c in h))
        for seat, h in enumerate(state.hands)
    )
    known = tuple(state.known[player])
    return (
        player, state.turns, int(state.phase), state.active, state.fight, state.ending, systems, frozen(state.owner),
        frozen(state.devs), frozen(state.credits), hands, frozen(state.techs), tuple(len(d) for d in state.decks),
        frozen(state.discards), frozen(state.playing), tuple(sorted(state.supply)), known,
        tuple((x.card, x.owner, x.cell, x.damage, x.jumps, x.fresh, x.moved, x.pinned, x.cloaked, x.boost)
              for x in state.pieces),
        frozen(state.embargo), tuple(sorted(state.vetoed)), frozen(state.assigned), tuple(state.tasks), state.decision,
        frozen(state.combat_at), frozen(state.last_end),  # which systems are contested
    )  # fmt: skip


def determinize(state: StarState, player: int, rng: CounterRng) -> StarState:
    """Face-down systems the player has not seen, the unseen part of each Domain deck and the other players'
    hands (whose domains are public) are dealt again at random from what they could be."""
    s = state.reseeded(rng)
    assert isinstance(s, type(state))
    cells = [c for c in range(len(s.grid)) if not s.revealed[c] and c not in s.peeked[player]]
    pool = [s.grid[c] for c in cells] + s.aside
    rng.shuffle(pool)
    for c in cells:
        s.grid[c] = pool.pop()
    s.aside = pool
    for d, deck in enumerate(s.decks):
        known = len(s.known[player][d])
        unseen = deck[: len(deck) - known]
        slots = [(seat, i) for seat in range(s.n) if seat != player for i, c in enumerate(s.hands[seat])
                 if s.spec(c).domain == d]  # fmt: skip
        pool = unseen + [s.hands[seat][i] for seat, i in slots]
        rng.shuffle(pool)
        for seat, i in slots:
            s.hands[seat][i] = pool.pop()
        deck[: len(deck) - known] = pool
    for seat in range(s.n):
        if seat != player:
            s.peeked[seat] = set()
            s.known[seat] = [() for _ in s.decks]
    return s
