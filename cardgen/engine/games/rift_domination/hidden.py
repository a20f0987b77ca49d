"""What a Rift Domination player sees (`observation`) and what a search may not know (`redeal`): the deck and the
other players' hands, and the rewards under condition tiles nobody has taken. `RiftState.observation` and
`RiftState.determinize` use them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.core import frozen
from cardgen.engine.games.rift_domination.model import PEEK
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState


def observation(state: RiftState, player: int) -> Any:
    """The board, every unit, upgrades, VP, resources; the player's own OCC hand; the condition tiles' kinds
    (their rewards only once taken); the other hands' sizes."""
    tiles = sorted((h, state.engine.tiles[t]["condition"]) for h, t in state.tile.items())
    return frozen([
        state.phase, state.player, state.turns, state.faction, state.home, [u.key() for u in state.units],
        sorted(state.owner.items()), sorted((h, tuple(v)) for h, v in state.upgrades.items()), tiles,
        state.resources, state.vp, state.track, state.roster, sorted(state.hands[player]),
        [len(h) for h in state.hands], len(state.deck), sorted(state.discard), state.decision, state.tasks,
        state.fighting, state.steps, state.slowed, sorted(state.consumed), state.wormholes, state.placed, state.traded,
        sorted(state.immune.items()), sorted(state.blockades.items()), state.resisted,
        state.deck[-1] if state.phase == PEEK and player == state.player and state.deck else None,
        state.placing >= 0 and state.engine.tiles[state.placing]["condition"] if state.placing >= 0 else None,
    ])  # fmt: skip


def redeal(state: RiftState, copy: RiftState, player: int, rng: CounterRng) -> None:
    """Into `copy` (a reseeded copy of `state`): the deck and the other players' hands dealt again from the cards
    the player has not seen, and the rewards of the condition tiles nobody has taken again among the tiles of their
    condition."""
    top = state.deck[-1:] if state.phase == PEEK and player == state.player else []  # the card being peeked at
    unseen = len(state.deck) - len(top)
    hidden = state.deck[:unseen] + [c for q, hand in enumerate(state.hands) if q != player for c in hand]
    rng.shuffle(hidden)
    copy.deck = hidden[:unseen] + top
    rest = hidden[unseen:]
    for q in range(state.n):
        if q != player:
            copy.hands[q], rest = rest[: len(state.hands[q])], rest[len(state.hands[q]) :]
    by_kind: dict[str, list[int]] = {}  # the rewards under condition tiles nobody has taken, dealt again
    for h in sorted(state.tile):
        if h not in state.owner:
            by_kind.setdefault(state.engine.tiles[state.tile[h]]["condition"], []).append(h)
    pool_at = {tile: i for i, tile in enumerate(state.tile_pool)}
    for kind, places in by_kind.items():
        spots: list[tuple[str, int]] = [("planet", h) for h in places]
        spots += [("pool", pool_at[x]) for x in state.tile_pool if state.engine.tiles[x]["condition"] == kind]
        tiles = [state.tile[h] for h in places] + [
            x for x in state.tile_pool if state.engine.tiles[x]["condition"] == kind
        ]
        rng.shuffle(tiles)
        for (where, at), tile in zip(spots, tiles, strict=True):
            if where == "planet":
                copy.tile[at] = tile
            else:
                copy.tile_pool[at] = tile
