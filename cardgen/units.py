"""The one place that converts units and reads sizes: millimetres in, points out.

Layouts, data and options speak millimetres (or inches, when written with `in`); reportlab speaks points. Named sizes
(`poker`, `a4`, …) and `WxH` strings are parsed here, so drawing code only ever receives numbers.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

HEX_RATIO = 2 / math.sqrt(3)  # a regular hexagon's point-to-point ÷ flat-to-flat
MM = 72 / 25.4  # points per millimetre
INCH_MM = 25.4

CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini": (44.45, 63.5),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "square-large": (88.9, 88.9),
}

PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "a5": (148.0, 210.0),
    "tabloid": (279.4, 431.8),
    "ledger": (431.8, 279.4),  # tabloid turned: the same sheet (the imposition picks the orientation either way)
}
PAPER_NAMES = {"a4": "A4", "letter": "Letter", "a3": "A3", "a5": "A5", "tabloid": "Tabloid", "ledger": "Ledger"}
PAPER_MM = (50.0, 1500.0)  # a custom paper's sides: from a small index card to a wide-format roll

_LENGTH = re.compile(r"^\s*(?P<num>\d+(?:\.\d+)?(?:/\d+)?|\.\d+)\s*(?P<unit>mm|cm|in|pt)?\s*$")


def pt(mm: float) -> float:
    """Millimetres to points."""
    return mm * MM


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / MM


def parse_length(value: float | int | str) -> float:
    """A length in millimetres from a number (mm) or a string such as `15.875`, `5/8in`, `3mm`, `1.5cm`, `9pt`."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length, got {value!r}")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError(f"expected a finite length, got {value!r}")
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"'{value}' is not a length (write 63.5, 63.5mm, 2.5in or 5/8in)")
    number = float(Fraction(match["num"])) if "/" in match["num"] else float(match["num"])
    factor = {"mm": 1.0, None: 1.0, "cm": 10.0, "in": INCH_MM, "pt": 1 / MM}[match["unit"]]
    return number * factor


@dataclass(frozen=True)
class Size:
    """A width and height in millimetres."""

    width: float
    height: float

    @property
    def points(self) -> tuple[float, float]:
        return pt(self.width), pt(self.height)

    def rotated(self) -> Size:
        return Size(self.height, self.width)

    def __str__(self) -> str:
        return f"{self.width:g}×{self.height:g} mm"


def parse_size(
    value: str | float | int | list[Any] | tuple[Any, ...], named: dict[str, tuple[float, float]] | None = None
) -> Size:
    """A size from a name (`poker`, `a4`), `WxH` (`63.5x88.9`, `2.5inx3.5in`), a pair, or one length (a square)."""
    names = {**CARD_SIZES_MM, **PAPER_SIZES_MM, **(named or {})}
    if isinstance(value, list | tuple):
        if len(value) != 2:
            raise ValueError(f"a size needs two lengths, got {len(value)}")
        return _checked(Size(parse_length(value[0]), parse_length(value[1])))
    if isinstance(value, str):
        key = value.strip().lower()
        if key in names:
            return Size(*names[key])
        parts = re.split(r"\s*[x×]\s*", key)
        if len(parts) == 2:
            return _checked(Size(parse_length(parts[0]), parse_length(parts[1])))
        if len(parts) > 2 or not _LENGTH.match(key):
            from cardgen.errors import did_you_mean

            raise ValueError(
                f"unknown size '{value}'{did_you_mean(key, list(names))}: use a name ({', '.join(names)}), "
                "WxH in mm such as 63.5x88.9, or one length for a square"
            )
    length = parse_length(value)
    return _checked(Size(length, length))


LARGEST_MM = 5000.0  # five metres: larger than any table, small enough that tiling it stays a few hundred pages


def _checked(size: Size) -> Size:
    if size.width <= 0 or size.height <= 0:
        raise ValueError(f"a size must be positive, got {size}")
    if size.width > LARGEST_MM or size.height > LARGEST_MM:
        raise ValueError(f"a size can be at most {LARGEST_MM:g} mm a side, got {size}")
    return size


_PAPER = re.compile(
    r"^\s*(?P<w>\d+(?:\.\d+)?)\s*(?P<wu>mm|cm|in)?\s*[x×]\s*(?P<h>\d+(?:\.\d+)?)\s*(?P<hu>mm|cm|in)?\s*$"
)


def parse_paper(value: str) -> str:
    """A paper as the build records it: a name (`a4`, `letter`, `a3`, `a5`, `tabloid`, `ledger`, in any case) or a
    custom `WxH` in millimetres, `WxHin` or `WxHcm` (a unit after the height alone applies to both sides, so
    `8.5x14in` is legal paper), written back in millimetres (`215.9x355.6mm`) so the same sheet is one paper. A
    `ValueError` says what is wrong."""
    key = value.strip().lower()
    if key in PAPER_SIZES_MM:
        return key
    match = _PAPER.match(key)
    if match is None:
        names = ", ".join(PAPER_SIZES_MM)
        raise ValueError(f"'{value}' is not a paper: use {names}, or WxH in mm (300x450) or inches (8.5x14in)")
    unit_h = match["hu"] or "mm"
    unit_w = match["wu"] or unit_h
    factor = {"mm": 1.0, "cm": 10.0, "in": INCH_MM}
    width, height = float(match["w"]) * factor[unit_w], float(match["h"]) * factor[unit_h]
    low, high = PAPER_MM
    if not (low <= width <= high and low <= height <= high):
        raise ValueError(f"'{value}': each side of the paper must lie between {low:g} and {high:g} mm")
    return f"{round(width, 3):g}x{round(height, 3):g}mm"


def paper_size(paper: str) -> Size:
    """The size of a paper `parse_paper` wrote (a name or `WxHmm`)."""
    if paper in PAPER_SIZES_MM:
        return Size(*PAPER_SIZES_MM[paper])
    width, height = paper.removesuffix("mm").split("x")
    return Size(float(width), float(height))


def paper_label(paper: str) -> str:
    """A paper as a person names it: `A4`, `Letter`, `Tabloid`, or `300 × 450 mm`."""
    if paper in PAPER_NAMES:
        return PAPER_NAMES[paper]
    size = paper_size(paper)
    return f"{size.width:g} × {size.height:g} mm"
