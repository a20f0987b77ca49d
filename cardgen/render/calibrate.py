"""The duplex calibration sheet: marks on both sides at known positions, from which a user reads the back offset.

Page 1 (front) has crosses at five known points. Page 2 (back) has, at the place where each cross should land after a
long-edge flip, a pair of millimetre scales. Print both pages double-sided at actual size, pierce the centre of each
front cross with a pin (or hold the sheet against a light), and read on the back where the holes land: the X and Y
values read there are the offset to pass as `--back-offset X,Y` (back pages are moved by that much).
"""

from __future__ import annotations

from reportlab.lib.colors import Color

from cardgen.units import MM, Size

SCALE_MM = 5  # the scales run from −5 to +5 mm
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


def draw_calibration(canvas, paper: Size, font: str, duplex: str = "long-edge") -> None:
    """Draw the two pages on a canvas whose page size is `paper`."""
    points = calibration_points(paper)
    canvas.setPageSize(paper.points)
    canvas.setTrimBox(None)
    canvas.setBleedBox(None)
    _text(
        canvas,
        font,
        paper,
        [
            "cardgen duplex calibration — front",
            f"Print both pages double-sided ({duplex} flip), at actual size (never 'fit to page').",
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
            "cardgen duplex calibration — back",
            "Read X on the horizontal scale and Y on the vertical scale where each hole lands (values in mm).",
            "Use the average as: cardgen build --back-offset X,Y",
        ],
    )
    for x, y in points:
        bx, by = (paper.width - x, y) if duplex == "long-edge" else (x, paper.height - y)
        _scales(canvas, bx, by, font)
    canvas.showPage()


def _text(canvas, font: str, paper: Size, lines: list[str]) -> None:
    canvas.setFillColor(INK)
    for i, line in enumerate(lines):
        canvas.setFont(font, 11 if i == 0 else 8)
        canvas.drawCentredString(paper.width / 2 * MM, (paper.height - 15 - i * 5) * MM, line)


def _cross(canvas, x: float, y: float) -> None:
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.25)
    canvas.line((x - 8) * MM, y * MM, (x + 8) * MM, y * MM)
    canvas.line(x * MM, (y - 8) * MM, x * MM, (y + 8) * MM)
    canvas.circle(x * MM, y * MM, 3 * MM, stroke=1, fill=0)


def _scales(canvas, x: float, y: float, font: str) -> None:
    """Millimetre scales centred on (x, y): ticks every 0.5 mm, numbered every millimetre, positive right and up."""
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setFont(font, 4.5)
    steps = SCALE_MM * 2
    for i in range(-steps, steps + 1):
        value = i / 2
        tick = 2.5 if i % 2 == 0 else 1.2
        canvas.setLineWidth(0.3 if i else 0.6)
        canvas.line((x + value) * MM, y * MM, (x + value) * MM, (y + tick) * MM)  # X scale above the line
        canvas.line(x * MM, (y + value) * MM, (x - tick) * MM, (y + value) * MM)  # Y scale left of the line
        if i % 2 == 0 and i % 4 == 0:
            canvas.drawCentredString((x + value) * MM, (y + 3.2) * MM, f"{value:+g}" if value else "0")
            canvas.drawRightString((x - 3) * MM, (y + value - 0.6) * MM, f"{value:+g}" if value else "0")
    canvas.setLineWidth(0.3)
    canvas.line((x - SCALE_MM) * MM, y * MM, (x + SCALE_MM) * MM, y * MM)
    canvas.line(x * MM, (y - SCALE_MM) * MM, x * MM, (y + SCALE_MM) * MM)


__all__ = ["calibration_points", "draw_calibration"]
