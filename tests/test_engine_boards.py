"""Shared boards: hex distances and neighbours, offset maps, diagonal grids and point graphs."""

from __future__ import annotations

import itertools

import pytest

from cardgen.engine.boards import (
    Distances,
    costed_distances,
    diagonal_distance,
    diagonal_neighbours,
    distances_from,
    hex_distance,
    hex_neighbours,
    offset_to_axial,
    orthogonal_neighbours,
    square_grid,
)

AREA = [(q, r) for q in range(-4, 5) for r in range(-4, 5)]


def test_every_hex_has_six_neighbours_one_step_away() -> None:
    for cell in AREA:
        around = hex_neighbours(cell)
        assert len(set(around)) == 6 and all(hex_distance(cell, n) == 1 for n in around)


def test_hex_distance_is_a_metric() -> None:
    for a, b, c in itertools.islice(itertools.product(AREA, repeat=3), 0, 40_000, 7):
        assert hex_distance(a, b) == hex_distance(b, a)
        assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)
    assert hex_distance((0, 0), (3, -1)) == 3 and hex_distance((0, 0), (2, 2)) == 4


def test_hex_distance_is_the_fewest_steps() -> None:
    """Breadth-first search over neighbours agrees with the formula."""
    seen = {(0, 0): 0}
    frontier = [(0, 0)]
    while frontier:
        nxt = []
        for cell in frontier:
            for other in hex_neighbours(cell):
                if other not in seen and hex_distance((0, 0), other) <= 5:
                    seen[other] = seen[cell] + 1
                    nxt.append(other)
        frontier = nxt
    assert all(steps == hex_distance((0, 0), cell) for cell, steps in seen.items())
    assert len(seen) == 1 + 3 * 5 * 6


@pytest.mark.parametrize("layout", ["odd-q", "even-q", "odd-r", "even-r"])
def test_offset_maps_give_every_cell_its_own_hex_and_six_neighbours_inside(layout: str) -> None:
    cells = {
        offset_to_axial(column, row, layout): (column, row) for column, row in itertools.product(range(9), range(9))
    }
    assert len(cells) == 81  # one hex per printed cell
    inner = [axial for axial, (column, row) in cells.items() if 0 < column < 8 and 0 < row < 8]
    assert all(all(n in cells for n in hex_neighbours(axial)) for axial in inner)


def test_odd_q_neighbours_on_a_printed_map() -> None:
    """Flat-topped hexes, odd columns half a hex lower: (1, 1) touches (0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)"""
    printed = {offset_to_axial(c, r, "odd-q"): (c, r) for c, r in itertools.product(range(4), range(4))}
    around = {printed[cell] for cell in hex_neighbours(offset_to_axial(1, 1, "odd-q"))}
    assert around == {(0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)}


def test_odd_r_neighbours_on_a_printed_map() -> None:
    """Pointy-topped hexes, odd rows half a hex to the right (Space Empires 4X's map): (1, 1) touches (1, 0),
    (2, 0), (0, 1), (2, 1), (1, 2), (2, 2)"""
    printed = {offset_to_axial(c, r, "odd-r"): (c, r) for c, r in itertools.product(range(4), range(4))}
    around = {printed[cell] for cell in hex_neighbours(offset_to_axial(1, 1, "odd-r"))}
    assert around == {(1, 0), (2, 0), (0, 1), (2, 1), (1, 2), (2, 2)}


def test_diagonal_grids_keep_the_colour() -> None:
    assert sorted(diagonal_neighbours((0, 0), 8, 8)) == [(1, 1)]
    assert len(diagonal_neighbours((3, 3), 8, 8)) == 4
    assert diagonal_distance((0, 0), (3, 3)) == 3 and diagonal_distance((0, 0), (4, 2)) == 4
    assert diagonal_distance((0, 0), (1, 0)) is None


def test_square_grids_number_cells_row_by_row_with_neighbours_in_order() -> None:
    """A 3 × 3 board: the centre reaches the four corners diagonally, and every other cell with orthogonal moves too;
    a corner reaches the centre only (the tables Star Commander's jumps read)."""
    diagonal = square_grid(3, 3, diagonal_neighbours)
    both = square_grid(3, 3, diagonal_neighbours, orthogonal_neighbours)
    assert diagonal[4] == (0, 2, 6, 8) and diagonal[0] == (4,) and diagonal[1] == (3, 5)
    assert both[4] == (0, 1, 2, 3, 5, 6, 7, 8) and both[0] == (1, 3, 4)
    assert sorted(orthogonal_neighbours((0, 0), 3, 3)) == [(0, 1), (1, 0)]
    wide = square_grid(4, 2, diagonal_neighbours)  # columns and rows differ: cell 5 is column 1 of row 1
    assert wide[5] == (0, 2)


def test_distances_from_every_source_at_once():
    # a path 0-1-2-3 and a lone node 4
    neighbours = [[1], [0, 2], [1, 3], [2], []]
    assert distances_from(neighbours, [0]) == [0, 1, 2, 3, 10_000]
    assert distances_from(neighbours, [0, 3], far=99) == [0, 1, 1, 0, 99]


def test_remembered_distances_are_the_walks_answers_kept_per_board_sources_and_costs():
    """`Distances` answers what `distances_from` and `costed_distances` would, for each board, sources and costs
    apart, and forgets everything once it holds its bound (a long sweep must not grow it without end)."""
    path = [[1], [0, 2], [1, 3], [2], []]  # 0-1-2-3 and a lone node 4
    ring = [[1, 3], [0, 2], [1, 3], [2, 0], []]
    memo = Distances(bound=4)
    assert memo.of("path", path, [0]) == distances_from(path, [0]) == [0, 1, 2, 3, 10_000]
    assert memo.of("ring", ring, [0]) == distances_from(ring, [0]) == [0, 1, 2, 1, 10_000]  # the board is the key's
    costly = (1.0, 5.0, 1.0, 1.0, 1.0)
    assert memo.of("ring", ring, [0], costly) == costed_distances(ring, [0], costly) == [0.0, 1.0, 2.0, 1.0, 10_000.0]
    assert memo.of("path", path, [0]) is memo.of("path", path, (0,))  # asked again: the same answer, not a new walk
    assert len(memo.found) == 3
    memo.of("path", path, [3])
    memo.of("path", path, [2])  # the fifth answer: the first four are forgotten
    assert len(memo.found) == 1 and memo.of("path", path, [0]) == [0, 1, 2, 3, 10_000]
