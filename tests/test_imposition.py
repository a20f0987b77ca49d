"""Imposition in-process: honeycombs of hexes, fold sheets and tiled boards hold their geometric promises for many
papers, sizes and bleeds. (The PDF tests check the drawn result through the command line; these check the plans
directly, so that mutation testing — which cannot reach a subprocess — sees them.)"""

from __future__ import annotations

import itertools
import math

import pytest

from cardgen.render.imposition import (
    LayoutError,
    MarkStyle,
    Rect,
    Slot,
    backs_for,
    choose_orientation,
    fold_sheet,
    grid_sheet,
    gutter_for_fold,
    hex_sheet,
    tile_board,
)
from cardgen.render.packing import Pieces, stack
from cardgen.units import HEX_RATIO, PAPER_SIZES_MM, Size

EPS = 1e-6
A4 = Size(*PAPER_SIZES_MM["a4"])
LETTER = Size(*PAPER_SIZES_MM["letter"])
MARKS = MarkStyle()


def centre(rect: Rect) -> tuple[float, float]:
    return rect.x + rect.w / 2, rect.y + rect.h / 2


def inside(rect: Rect, paper: Size, margin: float) -> bool:
    return (
        rect.x >= margin - EPS
        and rect.y >= margin - EPS
        and rect.right <= paper.width - margin + EPS
        and rect.top <= paper.height - margin + EPS
    )


# -- grid sheets ----------------------------------------------------------------------------------------------------

RESERVE = MARKS.offset + MARKS.minimum + MARKS.keepout  # 6 mm: the margin a side with crop marks needs


@pytest.mark.parametrize("gutter", [0.0, 2.5])
def test_faces_that_fit_exactly_are_all_placed_and_a_hair_more_is_one_fewer(gutter: float) -> None:
    """Paper exactly 3 faces (and 2 gutters) wide plus the mark margins holds 3 across; half a millimetre less, 2."""
    face = Size(50, 70)
    exact = Size(2 * RESERVE + 3 * 50 + 2 * gutter, 2 * RESERVE + 2 * 70 + gutter)
    assert choose_orientation(exact, face, 0.0, gutter, MARKS) == (exact, 3, 2)
    short = Size(exact.width - 0.5, exact.height)
    assert choose_orientation(short, face, 0.0, gutter, MARKS) == (short, 2, 2)  # a tie with landscape: portrait
    with pytest.raises(LayoutError, match="does not fit"):
        choose_orientation(Size(2 * RESERVE + 49, 2 * RESERVE + 49), face, 0.0, gutter, MARKS)


def test_the_bleed_widens_the_margin_when_it_is_wider_than_the_mark_offset() -> None:
    face = Size(50, 50)
    paper = Size(2 * (5.0 + MARKS.minimum + MARKS.keepout) + 100, 400)
    assert choose_orientation(paper, face, 5.0, 0.0, MARKS)[1] == 2  # the 5 mm bleed sets the margin
    assert choose_orientation(Size(paper.width - 0.1, 400), face, 5.0, 0.0, MARKS)[1] == 1


def test_portrait_wins_a_tie_and_the_orientation_holding_more_wins_otherwise() -> None:
    square = Size(2 * RESERVE + 100, 2 * RESERVE + 100)
    assert choose_orientation(square, Size(50, 50), 0.0, 0.0, MARKS)[0] == square
    tall = Size(2 * RESERVE + 100, 2 * RESERVE + 160)  # 2 × 2 portrait, 3 × 1 landscape for 50 × 80 faces
    oriented, cols, rows = choose_orientation(tall, Size(50, 80), 0.0, 0.0, MARKS)
    assert (oriented, cols, rows) == (tall, 2, 2)
    wide_face = Size(80, 45)  # portrait: 1 × 3 = 3; landscape: 2 × 2 = 4
    oriented, cols, rows = choose_orientation(tall, wide_face, 0.0, 0.0, MARKS)
    assert oriented == tall.rotated() and (cols, rows) == (2, 2)


@pytest.mark.parametrize("gutter", [0.0, 4.0])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_a_grid_is_centred_with_its_gutters_and_marks_at_every_cut(gutter: float, bleed: float) -> None:
    face = Size(63.5, 88.9)
    plan = grid_sheet(A4, face, bleed, gutter, MARKS)
    xs = sorted({round(s.trim.x, 6) for s in plan.fronts})
    ys = sorted({round(s.trim.y, 6) for s in plan.fronts})
    assert all(b - a == pytest.approx(face.width + gutter) for a, b in itertools.pairwise(xs))
    assert all(b - a == pytest.approx(face.height + gutter) for a, b in itertools.pairwise(ys))
    left, right = xs[0], plan.paper.width - (xs[-1] + face.width)
    bottom, top = ys[0], plan.paper.height - (ys[-1] + face.height)
    assert left == pytest.approx(right) and bottom == pytest.approx(top)
    cuts = {round(v, 4) for x in xs for v in (x, x + face.width)}
    vertical = {round(m.x1, 4) for m in plan.marks if m.x1 == m.x2}
    assert vertical == cuts
    # an edge between neighbours keeps half the gutter of bleed at most; an outer edge the whole bleed
    first = plan.fronts[0]
    assert first.clip.x == pytest.approx(first.trim.x - bleed)
    assert first.clip.right == pytest.approx(first.trim.right + min(bleed, gutter / 2))
    assert first.clip.top == pytest.approx(first.trim.top + bleed)
    assert first.clip.y == pytest.approx(first.trim.y - min(bleed, gutter / 2))
    last = plan.fronts[-1]
    assert last.clip.right == pytest.approx(last.trim.right + bleed)
    assert last.clip.y == pytest.approx(last.trim.y - bleed)
    assert plan.back_marks == []  # duplex: backs are cut along the fronts' marks


def test_duplex_off_repeats_the_marks_on_the_backs_page() -> None:
    plan = grid_sheet(A4, Size(63.5, 88.9), 3.0, 0.0, MARKS, duplex="off")
    assert plan.back_marks == plan.marks and [b.trim for b in plan.backs] == [f.trim for f in plan.fronts]


def test_a_partial_grid_sheet_bleeds_towards_its_empty_slots() -> None:
    """Five of nine slots filled: the fifth face's right edge and the second and third faces' bottom edges face
    empty slots, so their bleed runs the whole way; marks only at the filled columns and rows."""
    full = grid_sheet(A4, Size(63.5, 88.9), 3.0, 0.0, MARKS)
    part = grid_sheet(A4, Size(63.5, 88.9), 3.0, 0.0, MARKS, filled=5)
    assert full.capacity == part.capacity == 9
    slots = part.fronts
    assert slots[4].clip.right == pytest.approx(slots[4].trim.right + 3.0)
    assert slots[3].clip.right == pytest.approx(slots[3].trim.right)  # faces slot 4: no bleed into it
    assert slots[1].clip.y == pytest.approx(slots[1].trim.y)  # slot 4 below it is filled
    assert slots[2].clip.y == pytest.approx(slots[2].trim.y - 3.0)  # slot 5 below it is empty
    assert slots[0].clip.x == pytest.approx(slots[0].trim.x - 3.0)
    assert slots[4].clip.x == pytest.approx(slots[4].trim.x)
    rows_used = {round(v, 4) for s in slots[:5] for v in (s.trim.y, s.trim.top)}
    assert {round(m.y1, 4) for m in part.marks if m.y1 == m.y2} == rows_used


def test_the_sheet_label_sits_in_the_widest_gap_of_the_bottom_margin() -> None:
    style = MarkStyle(keepout=4.0)
    plan = grid_sheet(A4, Size(63.5, 88.9), 0.0, 0.0, style)
    x, y, room = plan.label_at
    xs = sorted({s.trim.x for s in plan.fronts} | {s.trim.right for s in plan.fronts})
    edges = [4.0, *xs, A4.width - 4.0]
    width, a, b = max((b - a, a, b) for a, b in itertools.pairwise(edges))
    assert (x, room) == (pytest.approx((a + b) / 2), pytest.approx(width - 2.0))
    assert y == pytest.approx(min(s.trim.y for s in plan.fronts) / 2)


# -- hex sheets ------------------------------------------------------------------------------------------------------

HEX_CASES = [
    (paper, flat, bleed, pointy)
    for paper in (A4, LETTER)
    for flat in (19.0, 25.4, 38.0, 60.0)
    for bleed in (0.0, 1.5, 3.0)
    for pointy in (False, True)
]


@pytest.mark.parametrize(("paper", "flat", "bleed", "pointy"), HEX_CASES)
def test_a_honeycomb_is_tight_inside_the_margins_and_centred(paper: Size, flat: float, bleed: float, pointy: bool):
    plan = hex_sheet(paper, flat, bleed, MARKS, pointy)
    sheet = plan.paper
    reserve = bleed + MARKS.keepout + 2.0
    box = Size(flat, flat * HEX_RATIO) if pointy else Size(flat * HEX_RATIO, flat)
    assert plan.capacity > 0 and len(plan.backs) == plan.capacity
    for slot in plan.fronts:
        assert math.isclose(slot.trim.w, box.width) and math.isclose(slot.trim.h, box.height)
        assert inside(slot.trim, sheet, reserve)
        assert slot.clip == slot.trim.grown(bleed, bleed, bleed, bleed)
    # neighbours sit exactly the across-flats distance plus both bleeds apart: touching bleeds, never overlapping
    distances = [math.dist(centre(a.trim), centre(b.trim)) for a, b in itertools.combinations(plan.fronts, 2)]
    if distances:
        assert min(distances) == pytest.approx(flat + 2 * bleed)
    # centred on the sheet
    left = min(s.trim.x for s in plan.fronts)
    right = max(s.trim.right for s in plan.fronts)
    bottom = min(s.trim.y for s in plan.fronts)
    top = max(s.trim.top for s in plan.fronts)
    assert left == pytest.approx(sheet.width - right)
    assert bottom == pytest.approx(sheet.height - top)
    # the label sits in the bottom margin, below every hex's bleed
    x, y, room = plan.label_at
    assert x == pytest.approx(sheet.width / 2) and 0 < y < bottom - bleed and room > 0


@pytest.mark.parametrize(("paper", "flat", "bleed", "pointy"), HEX_CASES)
def test_a_honeycomb_has_no_room_for_another_line_of_hexes(paper: Size, flat: float, bleed: float, pointy: bool):
    """Maximal: one more row (pointy) or column (flat) of the same spacing would cross the margin, and the other
    orientation of the paper would not hold more."""
    plan = hex_sheet(paper, flat, bleed, MARKS, pointy)
    sheet, reserve, gap = plan.paper, bleed + MARKS.keepout + 2.0, 2 * bleed
    xs = sorted({round(s.trim.x, 6) for s in plan.fronts})
    ys = sorted({round(s.trim.y, 6) for s in plan.fronts})
    box = plan.fronts[0].trim
    if pointy:  # rows 0.75 of a hex apart (plus the gap along the normal); offset rows shift half a step
        step = box.h * 0.75 + gap * math.sqrt(3) / 2
        span = (len(ys) - 1) * step + box.h
        assert span + step > sheet.height - 2 * reserve - EPS
    else:
        step = box.w * 0.75 + gap * math.sqrt(3) / 2
        span = (len(xs) - 1) * step + box.w
        assert span + step > sheet.width - 2 * reserve - EPS
    other = Size(sheet.height, sheet.width)
    assert hex_sheet(other, flat, bleed, MARKS, pointy).capacity <= plan.capacity


def test_known_honeycomb_counts() -> None:
    """Counts worked out by hand. 25.4 mm flat-topped hexes (29.33 mm across the corners), no bleed, 3.5 mm margins:
    landscape A4 leaves 290 × 203 mm; columns step 0.75 × 29.33 = 22.0 mm, so (290 − 29.33) / 22.0 → 12 columns;
    each holds (203 − 25.4 − 12.7) / 25.4 → 7 hexes (room for the half-step shift): 84, against 8 × 10 = 80 portrait.
    With 3 mm bleed the gap is 6 mm and margins 6.5 mm: portrait 7 columns (step 27.2 mm) of 8 (step 31.4 mm) = 56."""
    counts = {
        (flat, bleed, pointy): hex_sheet(A4, flat, bleed, MARKS, pointy).capacity
        for flat, bleed, pointy in [(25.4, 0.0, False), (25.4, 3.0, False), (38.0, 3.0, True), (60.0, 1.5, False)]
    }
    assert counts == {(25.4, 0.0, False): 84, (25.4, 3.0, False): 56, (38.0, 3.0, True): 30, (60.0, 1.5, False): 12}


def test_hex_sheets_choose_portrait_on_a_tie_and_label_in_the_margin() -> None:
    from cardgen.render.imposition import _hex_positions

    reserve = 1.0 + MARKS.keepout + 2.0
    ties = 0
    for flat in [x / 2 for x in range(30, 160)]:
        plan = hex_sheet(A4, flat, 1.0, MARKS)
        box = Size(flat * HEX_RATIO, flat)
        counts = [len(_hex_positions(paper, box, 2.0, reserve, False)) for paper in (A4, A4.rotated())]
        assert plan.capacity == max(counts)
        if counts[0] == counts[1]:
            ties += 1
            assert plan.paper == A4
        assert plan.label_at == (plan.paper.width / 2, reserve / 2, plan.paper.width / 2)
    assert ties > 0


def test_a_hex_larger_than_the_paper_is_refused() -> None:
    with pytest.raises(LayoutError, match="across the flats"):
        hex_sheet(A4, 300.0, 3.0, MARKS)


# -- fold sheets -----------------------------------------------------------------------------------------------------

FOLD_CASES = [
    (paper, face, bleed, gutter)
    for paper in (A4, LETTER)
    for face in (Size(15.875, 15.875), Size(25.4, 25.4), Size(63.5, 88.9), Size(40.0, 20.0))
    for bleed in (0.0, 1.0, 3.0)
    for gutter in (0.0, 2.0)
]


@pytest.mark.parametrize(("paper", "face", "bleed", "gutter"), FOLD_CASES)
def test_fold_backs_mirror_their_fronts_across_the_fold(paper: Size, face: Size, bleed: float, gutter: float):
    plan = fold_sheet(paper, face, bleed, gutter, MARKS)
    sheet = plan.paper
    fold_y = sheet.height / 2
    gap = gutter_for_fold(bleed)
    assert plan.backs_on_front_page and plan.capacity > 0
    for front, back in zip(plan.fronts, plan.backs, strict=True):
        assert back.rotate == 180
        assert back.trim.x == pytest.approx(front.trim.x) and back.trim.w == pytest.approx(front.trim.w)
        assert back.trim.top == pytest.approx(2 * fold_y - front.trim.y)  # mirror image about the fold
        assert front.trim.y >= fold_y + gap / 2 - EPS and back.trim.top <= fold_y - gap / 2 + EPS
        assert front.clip.y >= fold_y - EPS  # a front's bleed never crosses the fold
        assert inside(front.trim, sheet, MARKS.keepout) and inside(back.trim, sheet, MARKS.keepout)
    nearest = min(s.trim.y for s in plan.fronts)
    assert nearest == pytest.approx(fold_y + gap / 2)  # the halves sit as close to the fold as the gap allows
    (fold,) = plan.fold_marks
    assert fold.y1 == fold.y2 == pytest.approx(fold_y)
    assert fold.x1 == pytest.approx(MARKS.keepout) and fold.x2 == pytest.approx(sheet.width - MARKS.keepout)
    # crop marks above and at the sides only: none in the lower (back) half
    assert plan.marks and all(min(m.y1, m.y2) > fold_y for m in plan.marks)
    _x, label_y, room = plan.label_at
    assert label_y < min(s.trim.y for s in plan.backs)
    assert room == pytest.approx(sheet.width - 2 * MARKS.keepout - 2.0)  # no marks below: the whole width


def test_a_partial_fold_sheet_marks_only_its_filled_slots() -> None:
    full = fold_sheet(A4, Size(25.4, 25.4), 1.0, 0.0, MARKS)
    part = fold_sheet(A4, Size(25.4, 25.4), 1.0, 0.0, MARKS, filled=3)
    assert part.capacity == full.capacity and [s.trim for s in part.fronts] == [s.trim for s in full.fronts]
    columns = {round(x, 4) for s in part.fronts[:3] for x in (s.trim.x, s.trim.right)}
    assert {round(m.x1, 4) for m in part.marks if m.x1 == m.x2} == columns
    # the third face's right edge faces an empty slot: its bleed runs the whole way
    assert part.fronts[2].clip.right == pytest.approx(part.fronts[2].trim.right + 1.0)


@pytest.mark.parametrize(("bleed", "gap"), [(0.0, 2.0), (0.5, 2.0), (1.0, 2.0), (3.0, 6.0), (4.5, 9.0)])
def test_the_fold_gap_is_twice_the_bleed_and_at_least_2_mm(bleed: float, gap: float) -> None:
    assert gutter_for_fold(bleed) == pytest.approx(gap)


# -- duplex backs ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", [A4, A4.rotated()])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge", "off"])
def test_backs_land_where_the_duplexer_turns_the_sheet(paper: Size, duplex: str) -> None:
    front = Slot(Rect(10, 20, 30, 40), Rect(7, 17, 36, 46))
    (back,) = backs_for([front], paper, duplex)
    if duplex == "off":
        assert back == front
    elif (duplex == "long-edge") == (paper.width < paper.height):  # turned about a vertical edge
        assert back.trim == Rect(paper.width - 40, 20, 30, 40) and back.rotate == 0
        assert back.clip == Rect(paper.width - 43, 17, 36, 46)
    else:  # turned about a horizontal edge: mirrored top to bottom and upside down
        assert back.trim == Rect(10, paper.height - 60, 30, 40) and back.rotate == 180
        assert back.clip == Rect(7, paper.height - 63, 36, 46)


# -- boards tiled over pages -----------------------------------------------------------------------------------------

BOARDS = [Size(400, 280), Size(600, 600), Size(250, 180), Size(800, 300), Size(180, 250)]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("overlap", [5.0, 10.0, 20.0])
def test_tiles_cover_the_board_with_the_overlap_on_the_fewest_pages(board: Size, paper: Size, overlap: float):
    margin = 10.0
    sheet, tiles = tile_board(paper, board, overlap, margin)
    rows = max(t.row for t in tiles) + 1
    cols = max(t.col for t in tiles) + 1
    assert len(tiles) == rows * cols
    area = Size(sheet.width - 2 * margin, sheet.height - 2 * margin)
    for tile in tiles:
        window, place = tile.window, tile.place
        assert (place.w, place.h) == (window.w, window.h)
        assert inside(place, sheet, margin)
        assert place.x == pytest.approx(sheet.width - place.right)  # centred
        assert window.x >= -EPS and window.y >= -EPS
        assert window.right <= board.width + EPS and window.top <= board.height + EPS
        assert window.w == pytest.approx(min(area.width, board.width))
    by_place = {(t.row, t.col): t.window for t in tiles}
    assert by_place[(0, 0)].x == pytest.approx(0) and by_place[(0, 0)].top == pytest.approx(board.height)
    assert by_place[(rows - 1, cols - 1)].right == pytest.approx(board.width)
    assert by_place[(rows - 1, cols - 1)].y == pytest.approx(0)
    for (r, c), window in by_place.items():
        if c + 1 < cols:
            assert window.right - by_place[(r, c + 1)].x >= overlap - EPS
        if r + 1 < rows:
            assert by_place[(r + 1, c)].top - window.y >= overlap - EPS
    # fewest pages: with one column or row fewer, in either orientation, the board would not be covered
    for candidate in (paper, paper.rotated()):
        w, h = candidate.width - 2 * margin, candidate.height - 2 * margin
        fewest = math.ceil(max(board.width - overlap, 0) / (w - overlap)) * math.ceil(
            max(board.height - overlap, 0) / (h - overlap)
        )
        assert len(tiles) <= max(fewest, 1)


@pytest.mark.parametrize("paper", [Size(30, 30), Size(30, 300), Size(300, 30), Size(29, 300)])
def test_paper_too_small_for_the_overlap_is_refused(paper: Size) -> None:
    """Printable area no wider (or taller) than the overlap cannot advance: refused, in either orientation."""
    with pytest.raises(LayoutError, match="too small to tile"):
        tile_board(paper, Size(400, 400), 10.0, 10.0)


def test_tiling_takes_portrait_on_a_tie() -> None:
    sheet, tiles = tile_board(A4, Size(400, 400), 10.0, 10.0)
    _, rotated_tiles = tile_board(A4.rotated(), Size(400, 400), 10.0, 10.0)
    assert len(tiles) == len(rotated_tiles) and sheet == A4


# -- crop marks ------------------------------------------------------------------------------------------------------


def test_crop_marks_start_off_the_bleed_and_run_outward_on_each_requested_side() -> None:
    from cardgen.render.imposition import crop_marks

    slots = [Slot(Rect(20 + 50 * c, 30 + 80 * r, 50, 80), Rect(17 + 50 * c, 27 + 80 * r, 56, 86))
             for r in range(2) for c in range(2)]  # fmt: skip
    style = MarkStyle(length=5.0, offset=2.0, keepout=1.5, minimum=1.5)
    marks = crop_marks(slots, A4, 3.0, style)  # the 3 mm bleed pushes the marks out past the 2 mm offset
    xs, ys = [20.0, 70.0, 120.0], [30.0, 110.0, 190.0]
    top = sorted((m.x1, m.y1, m.y2) for m in marks if m.x1 == m.x2 and m.y1 > 190)
    bottom = sorted((m.x1, m.y1, m.y2) for m in marks if m.x1 == m.x2 and m.y1 < 30)
    left = sorted((m.y1, m.x1, m.x2) for m in marks if m.y1 == m.y2 and m.x1 < 20)
    right = sorted((m.y1, m.x1, m.x2) for m in marks if m.y1 == m.y2 and m.x1 > 120)
    assert top == [(x, 193.0, 198.0) for x in xs]
    assert bottom == [(x, 27.0, 22.0) for x in xs]
    assert left == [(y, 17.0, 12.0) for y in ys]
    assert right == [(y, 123.0, 128.0) for y in ys]
    assert len(marks) == 12
    only_top_and_right = crop_marks(slots, A4, 3.0, style, sides="tr")
    assert sorted(only_top_and_right, key=repr) == sorted([m for m in marks if m.y1 > 190 or m.x1 > 120], key=repr)
    assert crop_marks([], A4, 3.0, style) == []


def test_crop_marks_shorten_near_the_paper_edge_and_vanish_below_the_minimum() -> None:
    from cardgen.render.imposition import crop_marks

    style = MarkStyle(length=5.0, offset=2.0, keepout=1.5, minimum=1.5)
    near_left = [Slot(Rect(7.0, 50, 50, 80), Rect(7.0, 50, 50, 80))]  # 7 − 2 offset − 1.5 keep-out: 3.5 mm of mark
    marks = crop_marks(near_left, A4, 0.0, style, sides="l")
    assert {(m.x1, m.x2) for m in marks} == {(5.0, 1.5)}
    exactly = [Slot(Rect(5.0, 50, 50, 80), Rect(5.0, 50, 50, 80))]  # room for exactly the minimum: drawn
    assert {round(m.x1 - m.x2, 6) for m in crop_marks(exactly, A4, 0.0, style, sides="l")} == {1.5}
    too_close = [Slot(Rect(4.9, 50, 50, 80), Rect(4.9, 50, 50, 80))]
    assert crop_marks(too_close, A4, 0.0, style, sides="l") == []
    nearly = [Slot(Rect(20.00002, 50, 50, 80), Rect(20, 50, 50, 80)), Slot(Rect(70, 50, 50, 80), Rect(70, 50, 50, 80))]
    assert len({m.x1 for m in crop_marks(nearly, A4, 0.0, style, sides="t")}) == 3  # lines 20 nm apart are one cut


# -- sheets shared by components of different sizes (render/packing.py) --------------------------------------------

RIFT = [Pieces(Size(16, 16), 3, 0, 78), Pieces(Size(280, 44), 3, 0, 2)]  # unit tiles' last sheet, the two tracks
ROUND = [Pieces(Size(19.05, 19.05), 3, 6, 12), Pieces(Size(15.875, 15.875), 3, 6, 18), Pieces(Size(24, 24), 3, 6, 5)]
CARDS = [Pieces(Size(63.5, 88.9), 3, 0, 2), Pieces(Size(14, 14), 3, 6, 25), Pieces(Size(20, 20), 0, 0, 4)]


def _overlap(a: Rect, b: Rect) -> bool:
    return min(a.right, b.right) - max(a.x, b.x) > EPS and min(a.top, b.top) - max(a.y, b.y) > EPS


def _crosses(line, rect: Rect) -> bool:
    """Whether a straight mark enters a rectangle's inside."""
    x1, x2 = sorted((line.x1, line.x2))
    y1, y2 = sorted((line.y1, line.y2))
    return x1 < rect.right - EPS and x2 > rect.x + EPS and y1 < rect.top - EPS and y2 > rect.y + EPS


SHARED = [
    (RIFT, A4, "long-edge", False),
    (RIFT, A4, "off", False),
    (ROUND, LETTER, "short-edge", False),
    (ROUND, A4, "long-edge", True),
    (ROUND, LETTER, "long-edge", True),
    (ROUND[:1], A4, "long-edge", True),
    (CARDS, A4, "long-edge", False),
    (CARDS, LETTER, "off", False),
]


@pytest.mark.parametrize(("blocks", "paper", "duplex", "fold"), SHARED)
def test_blocks_of_different_sizes_share_a_sheet_without_touching(blocks, paper, duplex, fold):
    """Every piece and its bleed lies inside the paper's marked margin, no bleed paints on another piece or into
    another block's bleed, no crop mark runs into any piece, and each block holds its count and its size."""
    plans = stack(paper, blocks, MARKS, duplex, fold)
    assert plans is not None and [len(p.fronts) for p in plans] == [b.count for b in blocks]
    sheet = plans[0].paper
    assert {p.paper for p in plans} == {sheet} and sheet in (paper, paper.rotated())
    sides = [[s for s in p.fronts + (p.backs if fold else [])] for p in plans]
    clips = [s.clip for block in sides for s in block]
    for a, b in itertools.permutations([s for block in sides for s in block], 2):
        assert not _overlap(a.clip, b.trim), (a, b)  # no bleed paints on another piece
    for one, other in itertools.combinations(sides, 2):  # nor into another block's bleed
        assert not any(_overlap(a.clip, b.clip) for a in one for b in other)
    assert all(inside(clip, sheet, MARKS.keepout) for clip in clips)
    for plan, pieces in zip(plans, blocks, strict=True):
        assert {(s.trim.w, s.trim.h) for s in plan.fronts} == {(pieces.face.width, pieces.face.height)}
        first_row = [s.trim for s in plan.fronts if s.trim.top == plan.fronts[0].trim.top]
        assert first_row[0].x + first_row[-1].right == pytest.approx(sheet.width)  # centred across the sheet
        for line in plan.marks:
            assert inside(Rect(min(line.x1, line.x2), min(line.y1, line.y2), abs(line.x2 - line.x1),
                               abs(line.y2 - line.y1)), sheet, MARKS.keepout - EPS)  # fmt: skip
            assert not any(_crosses(line, clip) for clip in clips), line
        assert plan.marks, "every block gets its crop marks"
    if fold:  # backs mirrored across the fold, turned, and every front above it
        fold_y = sheet.height / 2
        for plan in plans:
            assert all(s.trim.y >= fold_y for s in plan.fronts)
            assert [s.trim for s in plan.backs] == [s.trim.mirrored_y(fold_y) for s in plan.fronts]
        assert plans[0].fold_marks and all(not p.fold_marks for p in plans[1:])
    else:
        for plan in plans:
            assert plan.backs == backs_for(plan.fronts, sheet, duplex)
            assert plan.back_marks == (plan.marks if duplex == "off" else [])


def test_shared_sheets_turn_to_landscape_only_when_a_block_needs_it_and_refuse_what_does_not_fit():
    plans = stack(A4, ROUND, MARKS, "long-edge")
    assert plans is not None and plans[0].paper == A4
    plans = stack(A4, RIFT, MARKS, "long-edge")  # the 280 mm counter tracks fit across a landscape sheet only
    assert plans is not None and plans[0].paper == A4.rotated()
    assert stack(A4, [Pieces(Size(16, 16), 3, 6, 90), Pieces(Size(24, 24), 3, 6, 40)], MARKS, "long-edge") is None
    assert stack(A4, [Pieces(Size(300, 220), 3, 0, 1)], MARKS, "long-edge") is None
    assert stack(LETTER, RIFT, MARKS, "long-edge") is None  # the tracks are wider than Letter
    assert stack(A4, RIFT, MARKS, "long-edge", fold=True) is None  # too tall for a fold sheet's upper half


def test_spare_height_is_shared_between_the_gaps_and_marks_of_neighbours_meet_halfway():
    plans = stack(A4, ROUND, MARKS, "long-edge")
    assert plans is not None
    edges = [(max(s.trim.top for s in p.fronts), min(s.trim.y for s in p.fronts)) for p in plans]
    gaps = [A4.height - edges[0][0]] + [b - t for (_, b), (t, _) in itertools.pairwise(edges)] + [edges[-1][1]]
    reserve = RESERVE  # every block here has a 3 mm bleed: 6 mm of margin for its marks above and below
    assert max(gaps[1:-1]) - min(gaps[1:-1]) < EPS and gaps[1] > 2 * reserve
    assert gaps[0] == pytest.approx(gaps[1] - reserve) and gaps[-1] == pytest.approx(gaps[1] - reserve)
    upper, lower = plans[0], plans[1]
    down = min(min(ln.y1, ln.y2) for ln in upper.marks)
    up = max(max(ln.y1, ln.y2) for ln in lower.marks)
    assert down > up  # the upper block's marks and the lower's never reach each other's
