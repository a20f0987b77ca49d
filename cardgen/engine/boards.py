"""Boards the engines share: hex maps, square grids moved on diagonally, and graphs of points joined by lanes.

Hexes use axial coordinates (q, r) with the third cube coordinate s = −q − r implied (Amit Patel's "Hexagonal
Grids", redblobgames.com): six neighbours, distance max(|dq|, |dr|, |ds|). A printed map is read in offset
coordinates (column, row) — "odd-q" for flat-topped hexes whose odd columns sit half a hex lower, "odd-r" for
pointy-topped ones whose odd rows sit half a hex to the right — and converted to axial.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Literal

Hex = tuple[int, int]  # axial (q, r)
Square = tuple[int, int]  # (column, row)
Layout = Literal["odd-q", "even-q", "odd-r", "even-r"]

HEX_DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_neighbours(cell: Hex) -> list[Hex]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS]


def hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def offset_to_axial(column: int, row: int, layout: Layout = "odd-q") -> Hex:
    """A printed map's (column, row) as axial coordinates."""
    if layout in ("odd-q", "even-q"):
        shift = (column & 1) if layout == "odd-q" else -(column & 1)
        return column, row - (column - shift) // 2
    shift = (row & 1) if layout == "odd-r" else -(row & 1)
    return column - (row - shift) // 2, row


def diagonal_neighbours(cell: Square, columns: int, rows: int) -> list[Square]:
    """On a square grid moved on diagonally only (like a draughts board): the four diagonal squares on the board."""
    c, r = cell
    around = ((c + 1, r + 1), (c + 1, r - 1), (c - 1, r + 1), (c - 1, r - 1))
    return [(x, y) for x, y in around if 0 <= x < columns and 0 <= y < rows]


def orthogonal_neighbours(cell: Square, columns: int, rows: int) -> list[Square]:
    """On a square grid: the four squares sharing an edge with `cell`, on the board."""
    c, r = cell
    around = ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1))
    return [(x, y) for x, y in around if 0 <= x < columns and 0 <= y < rows]


def square_grid(columns: int, rows: int, *moves: Callable[[Square, int, int], list[Square]]) -> list[tuple[int, ...]]:
    """Neighbour lists by cell number (row by row: row × columns + column), each in number order, for a grid moved on
    by any of `moves` (`diagonal_neighbours`, `orthogonal_neighbours`): worked out once per board, read per move."""
    table = []
    for cell in range(columns * rows):
        row, column = divmod(cell, columns)
        reach = {y * columns + x for move in moves for x, y in move((column, row), columns, rows)}
        table.append(tuple(sorted(reach)))
    return table


def diagonal_distance(a: Square, b: Square) -> int | None:
    """Diagonal steps between two squares on an open grid, or None when they are on squares of different colours
    (a diagonal move keeps the colour, so those can never be reached)."""
    dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    if (dc + dr) % 2:
        return None
    return max(dc, dr)


def distances_from(neighbours: Sequence[Sequence[int]], sources: Iterable[int], far: int = 10_000) -> list[int]:
    """Steps from the nearest source to every node of a graph given as neighbour lists by node number (breadth
    first from all sources at once); `far` where no source reaches."""
    dist = [far] * len(neighbours)
    queue = deque(sources)
    for s in queue:
        dist[s] = 0
    while queue:
        node = queue.popleft()
        for other in neighbours[node]:
            if dist[other] == far:
                dist[other] = dist[node] + 1
                queue.append(other)
    return dist


def costed_distances(
    neighbours: Sequence[Sequence[int]], sources: Iterable[int], cost: Sequence[float], far: float = 10_000.0
) -> list[float]:
    """The cheapest way from every node to the nearest source, entering node n costing `cost[n]` (Dijkstra from all
    sources at once, over neighbour lists by node number): a way round a hazard where one exists; `far` where no
    source is reached."""
    dist = [far] * len(neighbours)
    heap = [(0.0, s) for s in sorted(set(sources))]
    for _, s in heap:
        dist[s] = 0.0
    heapq.heapify(heap)
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist[node]:
            continue
        step = d + cost[node]  # reaching `node` from a neighbour means entering it
        for other in neighbours[node]:
            if step < dist[other]:
                dist[other] = step
                heapq.heappush(heap, (step, other))
    return dist


class Distances:
    """Distance maps remembered for each board, sources and entry costs (`distances_from`, `costed_distances`): an
    agent's evaluation asks for the same few maps thousands of times in a search (a walk of the board each was over
    half of Space Empires 4X's search time). The maps are shared between callers, so never changed. `board` names
    the neighbour lists (the player count, where that fixes the board in use)."""

    def __init__(self, bound: int = 4096):
        self.bound = bound  # a bound on the memory a long sweep may give it
        self.found: dict[tuple[Hashable, tuple[int, ...], tuple[float, ...] | None], Sequence[float]] = {}

    def of(
        self,
        board: Hashable,
        neighbours: Sequence[Sequence[int]],
        sources: Iterable[int],
        cost: tuple[float, ...] | None = None,
    ) -> Sequence[float]:
        key = (board, tuple(sources), cost)
        found = self.found.get(key)
        if found is None:
            if len(self.found) >= self.bound:
                self.found.clear()
            found = self.found[key] = (
                distances_from(neighbours, key[1]) if cost is None else costed_distances(neighbours, key[1], cost)
            )
        return found


__all__ = [
    "HEX_DIRECTIONS",
    "Distances",
    "costed_distances",
    "diagonal_distance",
    "diagonal_neighbours",
    "distances_from",
    "hex_distance",
    "hex_neighbours",
    "offset_to_axial",
    "orthogonal_neighbours",
    "square_grid",
]
