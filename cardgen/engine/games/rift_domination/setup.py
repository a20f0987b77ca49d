"""Rift Domination's set-up: each player in turn is dealt a faction (`deal_faction`) and may repick, chooses a
starting system (`start_places`), then places condition tiles drawn at random (`draw_tile`, `tile_places`) until
every planet but the starting planets in use has one; `begin_play` puts the factions' units, resources and upgrades
on the board and starts the first turn. Functions of the state, called by `state.RiftState`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.games.rift_domination import turn
from cardgen.engine.games.rift_domination.model import BUILD, SETUP_FACTION, SETUP_START, SETUP_TILES

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState


def deal_faction(state: RiftState, player: int) -> None:
    """A random faction not dealt before."""
    left = [f for f in range(len(state.engine.factions)) if f not in state.offered]
    pick = left[state.rng.randbelow(len(left))]
    state.chance.record("faction", [player, state.engine.factions[pick].item])
    state.offered.append(pick)
    state.faction[player] = pick


def start_places(state: RiftState) -> list[int]:
    """The starting systems of the player count's colour nobody has taken."""
    taken = {state.engine.node_system[h] for h in state.home if h >= 0}
    colour = state.engine.start_colour(state.n)
    return [
        state.engine.systems.index(s)
        for s in state.engine.start_systems[colour]
        if state.engine.systems.index(s) not in taken
    ]


def tile_places(state: RiftState) -> list[int]:
    """The planets in use still without a condition tile (starting planets get none)."""
    homes = set(state.home)
    return [h for h in range(len(state.on)) if state.on[h] and state.engine.is_planet[h] and h not in homes
            and h not in state.tile]  # fmt: skip


def pick(state: RiftState, player: int, choice: int) -> None:
    """A set-up choice: keep or repick the faction, a starting system, a planet for the tile drawn."""
    if state.phase == SETUP_FACTION:
        if choice == 1:
            state.repicked[player] += 1
            deal_faction(state, player)
            return
    elif state.phase == SETUP_START:
        state.home[player] = state.engine.home_planet(choice, state.engine.start_colour(state.n))
    else:
        state.tile[choice] = state.placing
    after_choice(state)


def after_choice(state: RiftState) -> None:
    """The next player's set-up choice, the next set-up step once every player has made it, or the game."""
    first = state.first_player if state.first_player is not None else 0
    if state.phase == SETUP_FACTION:
        state.player = state._next_seat(state.player)
        if state.player == first:
            state.phase = SETUP_START
        else:
            deal_faction(state, state.player)
        return
    if state.phase == SETUP_START:
        state.player = state._next_seat(state.player)
        if state.player == first:
            state.phase = SETUP_TILES
            draw_tile(state)
        return
    state.player = state._next_seat(state.player)
    draw_tile(state)


def draw_tile(state: RiftState) -> None:
    """The next condition tile to place; the game begins when every planet has one or none are left."""
    if not tile_places(state):
        begin_play(state)
        return
    if not state.tile_pool:
        state.events.add("tiles-ran-out")
        begin_play(state)
        return
    state.placing = state.tile_pool.pop()


def begin_play(state: RiftState) -> None:
    """Each player starts on the home planet with the faction's units, resources and upgrades and a military base,
    and draws the set-up's OCC-cards; the first player's turn begins."""
    e = state.engine
    state.placing = -1
    for player in range(state.n):
        faction = e.factions[state.faction[player]]
        state.events.add(f"faction:{faction.item}")
        state.events.add(f"players:{state.n}")
        home = state.home[player]
        state.owner[home] = player
        state.upgrades[home] = ["military_base"] + [name for name, k in faction.upgrades for _ in range(k)]
        state.resources[player] = faction.resources
        state.roster[player] = list(faction.roster)
        for kind, count in faction.starting_units:
            for _ in range(count):
                state._add(player, kind, home)
        state._draw_occ(player, e.setup_occ)
    state.phase = BUILD
    state.player = state.first_player if state.first_player is not None else 0
    turn.start(state)
