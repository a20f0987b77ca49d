"""Sheets larger than a card: full-page sheets (reference sheets, forms) and boards tiled over several pages.

A board larger than the paper is split into overlapping parts (`imposition.tile_board`). Each page shows its part,
a dashed line through the middle of every overlap it shares with a neighbour, and crosshairs on that line at the same
board positions on both pages: cut one page along the line, lay it over the other and line the crosshairs up. Both
are black over white, visible on dark and light art alike.
"""

from __future__ import annotations

from reportlab.lib.colors import Color

from cardgen.errors import DataError
from cardgen.render.draw import PreparedFace
from cardgen.render.imposition import Line, Rect, Slot, Tile, backs_for, tile_board
from cardgen.render.jobs import ComponentJob
from cardgen.render.pdf import Document
from cardgen.units import MM

TILE_MARGIN = 10.0  # mm kept clear at the paper's edge on tiled pages
# Seams and crosshairs are drawn twice, a wide white stroke under a thin black one, so they show on the board's dark
# bands as a white line with black dashes and on its light areas as black dashes (a grey line vanished on dark art).
SEAM = Color(0, 0, 0)
SEAM_UNDER = Color(1, 1, 1)
SEAM_WIDTH, UNDER_WIDTH = 0.6, 1.8  # points


def write_boards(doc: Document, job: ComponentJob) -> None:
    """Every sheet of a component: full pages, or boards tiled over pages."""
    component, entries = job.component, job.entries
    for number, entry in enumerate(entries, 1):
        face = job.faces.faces[entry.front]
        if component.size is None:  # size: page or page-landscape
            trim = Rect(0, 0, job.face.width, job.face.height)
            doc.start_page(job.face)
            doc.place(entry.front, face, Slot(trim, trim), 0.0)
            doc.end_page()
            if entry.back:  # a double-sided sheet: its back is the next page, placed as any back for the duplex edge
                (back,) = backs_for([Slot(trim, trim)], job.face, job.options.duplex)
                doc.start_page(job.face)
                doc.place(entry.back, job.faces.faces[entry.back], back, 0.0)
                doc.end_page()
            continue
        if entry.back:
            raise DataError(
                f"{job.game_id}: {component.id}: '{entry.item.id}' has a back, but a sheet larger than the paper is "
                "printed in parts, one side only: make the back a sheet of its own"
            )
        paper, tiles = tile_board(job.options.paper_size, component.size, job.options.overlap, TILE_MARGIN)
        doc.uses[entry.front] = max(doc.uses[entry.front], 2)  # drawn on several pages: draw it once, as a form
        rows = max(t.row for t in tiles) + 1
        cols = max(t.col for t in tiles) + 1
        for tile in tiles:
            doc.start_page(paper)
            _draw_part(doc, entry.front, face, tile)
            _alignment_guides(doc, tile, tiles)
            label = (
                f"{job.game_title} · {component.id} {number}/{len(entries)} · part {tile.row + 1},{tile.col + 1} "
                f"of {rows}×{cols} · cut along a dashed line and line up the crosshairs"
            )
            doc.label(label, (paper.width / 2, TILE_MARGIN / 2, paper.width - 2 * TILE_MARGIN))
            doc.end_page()


def _draw_part(doc: Document, key: str, face: PreparedFace, tile: Tile) -> None:
    c = doc.canvas
    c.saveState()
    path = c.beginPath()
    place = tile.place
    path.rect(place.x * MM, place.y * MM, place.w * MM, place.h * MM)
    c.clipPath(path, stroke=0, fill=0)
    c.translate((place.x - tile.window.x) * MM, (place.y - tile.window.y) * MM)
    doc.draw(key, face, 0.0)
    c.restoreState()


def _alignment_guides(doc: Document, tile: Tile, tiles: list[Tile]) -> None:
    """Dashed lines through the middle of each overlap with a neighbour, with crosshairs at shared positions."""
    window, place = tile.window, tile.place

    def to_page(x: float, y: float) -> tuple[float, float]:
        return place.x + x - window.x, place.y + y - window.y

    lines: list[Line] = []
    crosses: list[tuple[float, float]] = []
    for other in tiles:
        if other.row == tile.row and abs(other.col - tile.col) == 1:
            left, right = (tile, other) if other.col > tile.col else (other, tile)
            x = (left.window.right + right.window.x) / 2
            lines.append(Line(*to_page(x, window.y), *to_page(x, window.top)))
            crosses += [to_page(x, window.y + window.h * f) for f in (0.2, 0.5, 0.8)]
        if other.col == tile.col and abs(other.row - tile.row) == 1:
            upper, lower = (tile, other) if other.row > tile.row else (other, tile)
            y = (upper.window.y + lower.window.top) / 2
            lines.append(Line(*to_page(window.x, y), *to_page(window.right, y)))
            crosses += [to_page(window.x + window.w * f, y) for f in (0.2, 0.5, 0.8)]
    doc.lines(lines, UNDER_WIDTH, SEAM_UNDER)
    doc.lines(lines, SEAM_WIDTH, SEAM, dash=(4, 3))
    c = doc.canvas
    for width, colour in ((UNDER_WIDTH, SEAM_UNDER), (SEAM_WIDTH, SEAM)):
        c.saveState()
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        for x, y in crosses:
            c.circle(x * MM, y * MM, 2.5 * MM, stroke=1, fill=0)
            c.line((x - 4) * MM, y * MM, (x + 4) * MM, y * MM)
            c.line(x * MM, (y - 4) * MM, x * MM, (y + 4) * MM)
        c.restoreState()
