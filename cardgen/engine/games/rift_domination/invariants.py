"""What must hold in every Rift Domination position (`violations`, `RiftState.invariant_violations`): unit tiles
within the printed counts, no negative resources or VP, expansions within the faction's limit, upgrades within a
planet's slots and warps within a system's limit, every OCC-card and condition tile in exactly one place, units on
the board in use, wormhole tiles within their count, no consumed planet controlled."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState


def violations(state: RiftState) -> list[str]:
    e = state.engine
    out: list[str] = []
    tiles: dict[tuple[int, str], int] = {}
    for u in state.units:
        tiles[(u.owner, u.kind)] = tiles.get((u.owner, u.kind), 0) + 1
    for (seat, kind), mine in tiles.items():
        if mine > e.tiles_per_colour[kind]:
            out.append(f"seat {seat}: {mine} {kind} tiles in play, {e.tiles_per_colour[kind]} printed")
    for seat in range(state.n):
        if state.resources[seat] < 0:
            out.append(f"seat {seat} has {state.resources[seat]} resources")
        if state.vp[seat] < 0:
            out.append(f"seat {seat} has {state.vp[seat]} VP")
        if state.expansions[seat] > state.fac(seat).expansions if state.faction[seat] >= 0 else False:
            out.append(f"seat {seat} expanded its roster beyond its faction's limit")
    for h, built in state.upgrades.items():
        base = e.planets[h - len(e.systems)]["upgrade_slots"] + e.extra_slots  # the home planet's too
        if len(built) > base:
            out.append(f"{e.node_label[h]} holds {len(built)} upgrades, more than its slots")
    most = max([e.warp["per_system"]] + [state.fac(q).modifier("warps-per-system") or 0 for q in range(state.n)
                                         if state.faction[q] >= 0])  # fmt: skip
    for system, inside in enumerate(e.system_planets):
        warps = sum(state.upgrades.get(h, []).count("warp") for h in inside)
        if warps > most:
            out.append(f"system {e.systems[system]} holds {warps} warps")
    cards = sorted(state.deck + state.discard + [c for hand in state.hands for c in hand])
    if cards != list(range(len(e.occ))):
        out.append("an OCC-card is missing or in two places")
    placed = sorted([*state.tile_pool, *state.tile.values(), *state.tiles_gone,
                     *([state.placing] if state.placing >= 0 else [])])  # fmt: skip
    if placed != sorted(set(placed)) or len(placed) > len(e.tiles):
        out.append("a condition tile is in two places")
    for u in state.units:
        if not state.on[u.node]:
            out.append(f"unit {u.uid} is off the board in use")
    if len(state.wormholes) > e.wormhole_tiles or len(set(state.wormholes)) < len(state.wormholes):
        out.append(f"{len(state.wormholes)} wormholes on the board ({e.wormhole_tiles} tiles, one per system)")
    if set(state.consumed) & set(state.owner):
        out.append("a consumed planet is controlled")
    return out
