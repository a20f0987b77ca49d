"""The icon library: game-icons.net's icons (CC BY 3.0) that card and counter games use, drawn by name in any colour.

`icon_library/game-icons.json` holds each icon's SVG path (a 512-unit square, y down), its author and category,
curated by `tools/curate_icons.py`; `icon_library/ATTRIBUTION.md` credits the authors as the licence asks. A layout
draws one by name wherever a game icon goes (`{spaceship}`, `{spaceship:red}`, `<icon name="spaceship">`); a name the
game defines in `settings.icons` wins. Icons stay vector: each path is read once into reportlab path operations
(`path_operations`, lines and cubic Béziers) and drawn at any size. A game's print guide and gallery credit the
authors of the icons it printed (`credit`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, black
from reportlab.pdfgen.canvas import FILL_NON_ZERO

FOLDER = Path(__file__).parent / "icon_library"
SOURCE = "game-icons.net"
LICENCE = "CC BY 3.0"

Operation = tuple[str, tuple[float, ...]]  # ("M", (x, y)), ("L", (x, y)), ("C", (x1, y1, x2, y2, x, y)), ("Z", ())


@dataclass(frozen=True)
class LibraryIcon:
    """One icon of the library: its SVG path data in a `side`-unit square (y down), who drew it, its category."""

    name: str
    d: str
    author: str
    category: str
    side: float


@cache
def library() -> dict[str, LibraryIcon]:
    """Every library icon by name (read once per process)."""
    data = json.loads((FOLDER / "game-icons.json").read_text(encoding="utf-8"))
    side = float(data["side"])
    return {
        name: LibraryIcon(name, icon["d"], icon["author"], icon["category"], side)
        for name, icon in data["icons"].items()
    }


def search(word: str = "") -> list[LibraryIcon]:
    """The icons whose name, category or author contains `word` (case-insensitive), by name."""
    word = word.lower()
    return [
        icon for name, icon in sorted(library().items())
        if word in name or word in icon.category.lower() or word in icon.author.lower()
    ]  # fmt: skip


def credit(names: Iterable[str]) -> str | None:
    """'Icons by Delapouite, Lorc from game-icons.net, CC BY 3.0' for the library icons among `names`, or None."""
    icons = library()
    authors = sorted({icons[name].author for name in names if name in icons})
    if not authors:
        return None
    return f"Icons by {', '.join(authors)} from {SOURCE}, {LICENCE}"


_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


@cache
def path_operations(d: str) -> tuple[Operation, ...]:
    """SVG path data as absolute moves, lines and cubic Béziers (quadratics raised, arcs split into quarter turns).

    Reads the whole SVG path grammar: absolute and relative commands, implicit repeats, shorthand curves, and arc
    flags written without separators (`a1 1 0 011 1`)."""
    tokens = _TOKEN.findall(d)
    out: list[Operation] = []
    x = y = start_x = start_y = 0.0
    control: tuple[float, float] | None = None  # the last cubic's (S) or quadratic's (T) second control point
    command, index = "", 0
    while index < len(tokens):
        if tokens[index].isalpha():
            command, index = tokens[index], index + 1
        elif not command:
            raise ValueError(f"path data starts with a number: {d[:20]!r}")
        upper, relative = command.upper(), command.islower()
        arity = _ARITY[upper]
        if upper == "A":
            args = _arc_arguments(tokens, index)
            index += len(args[1])
            values = args[0]
        else:
            values = [float(t) for t in tokens[index : index + arity]]
            index += arity
        if len(values) < arity:
            raise ValueError(f"command {command} needs {arity} numbers")
        dx, dy = (x, y) if relative else (0.0, 0.0)
        previous, control = control, None
        if upper == "M":
            x, y = start_x, start_y = values[0] + dx, values[1] + dy
            out.append(("M", (x, y)))
            command = "l" if relative else "L"  # numbers after a move are lines
        elif upper in "LHV":
            x = values[0] + dx if upper in "LH" else x
            y = (values[1] if upper == "L" else values[0]) + dy if upper in "LV" else y
            out.append(("L", (x, y)))
        elif upper in "CS":
            if upper == "C":
                x1, y1, x2, y2 = values[0] + dx, values[1] + dy, values[2] + dx, values[3] + dy
                ex, ey = values[4] + dx, values[5] + dy
            else:
                x1, y1 = (2 * x - previous[0], 2 * y - previous[1]) if previous and out[-1][0] == "C" else (x, y)
                x2, y2, ex, ey = values[0] + dx, values[1] + dy, values[2] + dx, values[3] + dy
            out.append(("C", (x1, y1, x2, y2, ex, ey)))
            x, y, control = ex, ey, (x2, y2)
        elif upper in "QT":
            if upper == "Q":
                qx, qy, ex, ey = values[0] + dx, values[1] + dy, values[2] + dx, values[3] + dy
            else:
                qx, qy = (2 * x - previous[0], 2 * y - previous[1]) if previous and out[-1][0] == "Q" else (x, y)
                ex, ey = values[0] + dx, values[1] + dy
            # a quadratic is the cubic whose controls lie two thirds of the way to its one control point; kept as
            # "Q" until the end so that a following T knows what came before it
            out.append(("Q", (x + 2 * (qx - x) / 3, y + 2 * (qy - y) / 3, ex + 2 * (qx - ex) / 3,
                              ey + 2 * (qy - ey) / 3, ex, ey)))  # fmt: skip
            x, y, control = ex, ey, (qx, qy)
        elif upper == "A":
            ex, ey = values[5] + dx, values[6] + dy
            rx, ry, rotation, large, sweep = values[:5]
            out.extend(("C", curve) for curve in _arc(x, y, rx, ry, rotation, large, sweep, ex, ey))
            x, y = ex, ey
        else:  # Z
            out.append(("Z", ()))
            x, y = start_x, start_y
    return tuple(("C", values) if kind == "Q" else (kind, values) for kind, values in out)


def _arc_arguments(tokens: list[str], index: int) -> tuple[list[float], list[str]]:
    """An arc's seven numbers; its two flags may be glued to each other and to the next number (`011 1`)."""
    values: list[float] = []
    used: list[str] = []
    while len(values) < 7 and index < len(tokens) and not tokens[index].isalpha():
        token = tokens[index]
        if len(values) in (3, 4) and len(token) > 1 and token[0] in "01":
            values.append(float(token[0]))
            tokens[index] = token[1:]  # the rest is read as the next number
            continue
        values.append(float(token))
        used.append(token)
        index += 1
    return values, used


def _arc(
    x0: float, y0: float, rx: float, ry: float, rotation: float, large: float, sweep: float, x: float, y: float
) -> list[tuple[float, ...]]:
    """An SVG endpoint arc as cubic Béziers of at most a quarter turn each (SVG 1.1, appendix F.6)."""
    if (x0, y0) == (x, y):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [(x0, y0, x, y, x, y)]
    phi = math.radians(rotation)
    cos, sin = math.cos(phi), math.sin(phi)
    hx, hy = (x0 - x) / 2, (y0 - y) / 2
    x1, y1 = cos * hx + sin * hy, -sin * hx + cos * hy
    scale = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    factor = math.sqrt(max(numerator, 0) / (rx * rx * y1 * y1 + ry * ry * x1 * x1))
    if large == sweep:
        factor = -factor
    cx1, cy1 = factor * rx * y1 / ry, -factor * ry * x1 / rx
    cx, cy = cos * cx1 - sin * cy1 + (x0 + x) / 2, sin * cx1 + cos * cy1 + (y0 + y) / 2
    start = math.atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
    turn = math.atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx) - start
    if sweep and turn < 0:
        turn += 2 * math.pi
    elif not sweep and turn > 0:
        turn -= 2 * math.pi
    pieces = max(1, math.ceil(abs(turn) / (math.pi / 2) - 1e-9))
    step = turn / pieces
    handle = 4 / 3 * math.tan(step / 4)

    def point(angle: float, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        px, py = rx * (math.cos(angle) + dx), ry * (math.sin(angle) + dy)
        return cx + cos * px - sin * py, cy + sin * px + cos * py

    curves: list[tuple[float, ...]] = []
    for piece in range(pieces):
        a, b = start + piece * step, start + (piece + 1) * step
        c1 = point(a, -handle * math.sin(a), handle * math.cos(a))
        c2 = point(b, handle * math.sin(b), -handle * math.cos(b))
        end = (x, y) if piece == pieces - 1 else point(b)
        curves.append((*c1, *c2, *end))
    return curves


def draw_path(canvas: Any, operations: Iterable[Operation]) -> Any:
    """A reportlab path of the operations, in the canvas's current coordinates."""
    path = canvas.beginPath()
    for kind, values in operations:
        if kind == "M":
            path.moveTo(*values)
        elif kind == "L":
            path.lineTo(*values)
        elif kind == "C":
            path.curveTo(*values)
        else:
            path.close()
    return path


def library_painter(icon: LibraryIcon, colour: Callable[[str], Color | None]) -> Callable[..., None]:
    """A function drawing a library icon in a square of `size` points whose bottom-left corner is (x, y): black,
    or filled with the colour it is given (game-icons are black shapes on nothing)."""
    operations = path_operations(icon.d)

    def paint(canvas: Any, x: float, y: float, size: float, instead: str | None = None) -> None:
        fill = colour(instead) if instead else black
        if fill is None:  # 'none': nothing to draw
            return
        canvas.saveState()
        canvas.translate(x, y + size)
        canvas.scale(size / icon.side, -size / icon.side)  # the SVG's y runs down
        canvas.setFillColor(fill)
        canvas.drawPath(draw_path(canvas, operations), stroke=0, fill=1, fillMode=FILL_NON_ZERO)  # SVG's rule
        canvas.restoreState()

    return paint
