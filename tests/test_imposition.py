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
    fold_sheet,
    gutter_for_fold,
    hex_sheet,
    tile_board,
)
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
    assert label_y < min(s.trim.y for s in plan.backs) and room > 0


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


def test_paper_too_small_for_the_overlap_is_refused() -> None:
    with pytest.raises(LayoutError, match="too small to tile"):
        tile_board(Size(30, 30), Size(400, 400), 10.0, 10.0)
