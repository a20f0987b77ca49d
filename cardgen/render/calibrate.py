"""The duplex calibration sheet: marks on both sides at known positions, from which a user reads the back offset.

Page 1 (front) has crosses at five known points. Page 2 (back) has, at the place where each cross should land after
the flip (about the paper's long or short edge, portrait or landscape, as `imposition.backs_for` places card backs),
a target and a pair of millimetre scales: an X scale below it and a Y scale to its left, apart so they never cross.
Print both pages double-sided at actual size, pierce the centre of each
front cross with a pin (or hold the sheet against a light), and read on the back where the holes land: the X and Y
values read there are the offset to pass as `--back-offset X,Y` (back pages are moved by that much).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color

from cardgen.output import write_atomic
from cardgen.units import MM, Size

SCALE_MM = 5  # the scales run from −5 to +5 mm
TICK_MM = 2.5  # the length of a scale's numbered ticks
# mm between the target and each scale's line: beyond the scale's half-length plus a tick and a clear 1.5 mm, so the
# X scale's −5 tick stops short of the Y scale's ticks (at 7 mm the two −5 ticks crossed)
SCALE_GAP = SCALE_MM + TICK_MM + 1.5
INK = Color(0, 0, 0)


def calibration_points(paper: Size) -> list[tuple[float, float]]:
    """The front crosses' positions (mm): the centre and 35 mm in from each corner."""
    inset = 35.0
    return [
        (paper.width / 2, paper.height / 2),
        (inset, inset),
        (paper.width - inset, inset),
        (inset, paper.height - inset),
        (paper.width - inset, paper.height - inset),
    ]


def draw_calibration(canvas: Any, paper: Size, font: str, duplex: str = "long-edge", for_player: bool = False) -> None:
    """Draw the two pages on a canvas whose page size is `paper`. `for_player`: the copy shipped in a game's folder,
    which says what to do with the offset in a player's words (a player has the PDFs, not the tool)."""
    flip = f"flip on the {duplex.split('-')[0]} edge"
    points = calibration_points(paper)
    canvas.setPageSize(paper.points)
    canvas.setTrimBox(None)
    canvas.setBleedBox(None)
    _text(
        canvas,
        font,
        paper,
        [
            "Duplex calibration — front" if for_player else "cardgen duplex calibration — front",
            f"Print both pages double-sided ({flip}), at actual size (never 'fit to page').",
            "Pierce the centre of each cross with a pin, then read on the back where each hole lands.",
        ],
    )
    for x, y in points:
        _cross(canvas, x, y)
    canvas.showPage()
    canvas.setPageSize(paper.points)
    _text(
        canvas,
        font,
        paper,
        [
            "Duplex calibration — back" if for_player else "cardgen duplex calibration — back",
            "Read X on the horizontal scale and Y on the vertical scale where each hole lands (values in mm).",
            (
                "Within 1 mm: print as it is. Further off: shift the back side by X, Y in your printer's settings."
                if for_player
                else "Use the average as: cardgen build --back-offset X,Y"
            ),
        ],
    )
    about_vertical = (duplex == "long-edge") != (paper.width > paper.height)
    for x, y in points:
        bx, by = (paper.width - x, y) if about_vertical else (x, paper.height - y)
        _scales(canvas, bx, by, font)
    canvas.showPage()


def _text(canvas: Any, font: str, paper: Size, lines: list[str]) -> None:
    canvas.setFillColor(INK)
    for i, line in enumerate(lines):
        canvas.setFont(font, 11 if i == 0 else 8)
        canvas.drawCentredString(paper.width / 2 * MM, (paper.height - 15 - i * 5) * MM, line)


def _cross(canvas: Any, x: float, y: float) -> None:
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.25)
    canvas.line((x - 8) * MM, y * MM, (x + 8) * MM, y * MM)
    canvas.line(x * MM, (y - 8) * MM, x * MM, (y + 8) * MM)
    canvas.circle(x * MM, y * MM, 3 * MM, stroke=1, fill=0)


def _scales(canvas: Any, x: float, y: float, font: str) -> None:
    """A target at (x, y), an X scale on a line below it and a Y scale on a line to its left: ticks every 0.5 mm,
    numbered every 2 mm, positive right and up. Read a hole's X straight down on the X scale, its Y straight left."""
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setFont(font, 4.5)
    canvas.setLineWidth(0.2)
    canvas.circle(x * MM, y * MM, 1.0 * MM, stroke=1, fill=0)
    x_line, y_line = y - SCALE_GAP, x - SCALE_GAP
    for i in range(-SCALE_MM * 2, SCALE_MM * 2 + 1):
        value = i / 2
        tick = TICK_MM if i % 2 == 0 else 1.2
        canvas.setLineWidth(0.3 if i else 0.6)
        canvas.line((x + value) * MM, x_line * MM, (x + value) * MM, (x_line + tick) * MM)  # X: ticks up
        canvas.line(y_line * MM, (y + value) * MM, (y_line + tick) * MM, (y + value) * MM)  # Y: ticks right
        if i % 4 == 0:
            label = f"{value:g}"  # no plus sign: labels 2 mm apart must not touch
            canvas.drawCentredString((x + value) * MM, (x_line - 2.0) * MM, label)
            canvas.drawRightString((y_line - 0.8) * MM, (y + value - 0.6) * MM, label)
    canvas.setLineWidth(0.3)
    canvas.line((x - SCALE_MM) * MM, x_line * MM, (x + SCALE_MM) * MM, x_line * MM)
    canvas.line(y_line * MM, (y - SCALE_MM) * MM, y_line * MM, (y + SCALE_MM) * MM)


def calibration_pdf(
    paper: Size, font: str, duplex: str, for_player: bool = False, author: str = "cardgen", edition: str = ""
) -> bytes:
    """The two-page calibration sheet as a PDF (the same bytes for the same arguments); `author` and `edition`
    (the game and its version) go into its metadata."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=font)
    canvas.setTitle(f"{edition} — duplex calibration" if edition else "duplex calibration")
    canvas.setAuthor(author)
    canvas.setSubject(f"{edition + ' — ' if edition else ''}print it first, double-sided, at actual size")
    draw_calibration(canvas, paper, font, duplex, for_player)
    canvas.save()
    return buffer.getvalue()


def write_calibration(path: Path, paper: Size, font: str, duplex: str) -> None:
    """The two-page calibration sheet, written atomically to `path`."""
    write_atomic(path, calibration_pdf(paper, font, duplex))


__all__ = ["calibration_pdf", "calibration_points", "draw_calibration", "write_calibration"]
