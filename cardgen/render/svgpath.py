"""SVG path data (`d="M 2 2 L 10 2 Q 14 6 10 10 Z"`) as the operations a PDF path is made of.

`parse` reads the whole SVG path grammar — M/m L/l H/h V/v C/c S/s Q/q T/t A/a Z/z, commands repeated implicitly,
numbers such as `1.5e-2` and `-.5.5` (two numbers) — and returns absolute moves, lines, cubic Béziers and closes:
quadratic curves are raised to cubics and elliptical arcs split into cubics of at most a quarter turn, so a PDF
draws them exactly as it draws any curve. Coordinates stay in the units and orientation they were written in;
`draw` maps them (the face's millimetres, y down) onto a reportlab path. A mistake raises `PathDataError` naming the
character where reading stopped. The `<path>` element, `<g clip="path(…)">`, the icon library and generated art
share this one reader.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

# ("move", (x, y)), ("line", (x, y)), ("curve", (x1, y1, x2, y2, x, y)), ("close", ())
Op = tuple[str, tuple[float, ...]]

ARGUMENTS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_SEPARATORS = " \t\r\n\f,"
MAX_ARC_SEGMENTS = 4  # cubics per arc: a quarter turn each is within 0.03 % of the ellipse


class PathDataError(ValueError):
    """Path data that cannot be read; `position` is the 0-based index of the character where reading stopped."""

    def __init__(self, message: str, data: str, position: int):
        near = data[position : position + 16]
        where = f"at character {position + 1} ('{near}')" if near else "at its end"
        super().__init__(f"{message} {where}")
        self.position = position


class _Reader:
    """The characters of path data, read left to right."""

    def __init__(self, data: str):
        self.data = data
        self.position = 0

    def skip(self) -> None:
        while self.position < len(self.data) and self.data[self.position] in _SEPARATORS:
            self.position += 1

    def at_end(self) -> bool:
        self.skip()
        return self.position >= len(self.data)

    def at_number(self) -> bool:
        self.skip()
        return self.position < len(self.data) and self.data[self.position] in "+-.0123456789"

    def number(self) -> float:
        self.skip()
        match = _NUMBER.match(self.data, self.position)
        if match is None:
            raise PathDataError("expected a number", self.data, self.position)
        value = float(match.group(0))
        if not math.isfinite(value):
            raise PathDataError("expected a finite number", self.data, self.position)
        self.position = match.end()
        return value

    def flag(self) -> float:
        """An arc's flag: one character, `0` or `1`, which may touch the next number (`a5 5 0 015 5`)."""
        self.skip()
        if self.position >= len(self.data) or self.data[self.position] not in "01":
            raise PathDataError("expected an arc flag (0 or 1)", self.data, self.position)
        self.position += 1
        return float(self.data[self.position - 1])

    def arguments(self, command: str) -> list[float]:
        if command.lower() == "a":
            rx, ry, rotation = self.number(), self.number(), self.number()
            return [rx, ry, rotation, self.flag(), self.flag(), self.number(), self.number()]
        return [self.number() for _ in range(ARGUMENTS[command.lower()])]


def parse(data: str) -> tuple[Op, ...]:
    """The path's operations in absolute coordinates; raise `PathDataError` at the first mistake."""
    reader = _Reader(data)
    if reader.at_end():
        raise PathDataError("empty path data: expected M", data, 0)
    if data[reader.position] not in "Mm":
        raise PathDataError("path data must start with M or m", data, reader.position)
    pen = _Pen()
    while not reader.at_end():
        letter = data[reader.position]
        if letter.lower() not in ARGUMENTS:
            raise PathDataError("expected a path command (M L H V C S Q T A Z) or a number", data, reader.position)
        reader.position += 1
        command = letter
        while True:
            pen.command(command, reader.arguments(command))
            if command in "Zz" or not reader.at_number():
                break
            command = {"M": "L", "m": "l"}.get(command, command)  # numbers after a move are lines
    return tuple(pen.ops)


class _Pen:
    """Where the path is, turning each command into absolute operations."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self.x = self.y = 0.0
        self.start = (0.0, 0.0)
        self.control: tuple[float, float] | None = None  # the last cubic's second control point (for S)
        self.quadratic: tuple[float, float] | None = None  # the last quadratic's control point (for T)

    def command(self, command: str, values: list[float]) -> None:
        name, relative = command.lower(), command.islower()
        dx, dy = (self.x, self.y) if relative else (0.0, 0.0)
        control, quadratic = None, None
        if name == "m":
            self.x, self.y = values[0] + dx, values[1] + dy
            self.start = (self.x, self.y)
            self.ops.append(("move", (self.x, self.y)))
        elif name == "z":
            self.ops.append(("close", ()))
            self.x, self.y = self.start
        elif name in "lhv":
            if name == "h":
                self.x = values[0] + dx
            elif name == "v":
                self.y = values[0] + dy
            else:
                self.x, self.y = values[0] + dx, values[1] + dy
            self.ops.append(("line", (self.x, self.y)))
        elif name in "cs":
            if name == "s":  # the first control point mirrors the last cubic's second (none: the current point)
                mx, my = self.control or (self.x, self.y)
                values = [2 * self.x - mx - dx, 2 * self.y - my - dy, *values]
            x1, y1, x2, y2, x, y = (v + (dx if i % 2 == 0 else dy) for i, v in enumerate(values))
            self.ops.append(("curve", (x1, y1, x2, y2, x, y)))
            control, (self.x, self.y) = (x2, y2), (x, y)
        elif name in "qt":
            if name == "t":  # the control point mirrors the last quadratic's (none: the current point)
                mx, my = self.quadratic or (self.x, self.y)
                qx, qy, x, y = 2 * self.x - mx, 2 * self.y - my, values[0] + dx, values[1] + dy
            else:
                qx, qy, x, y = values[0] + dx, values[1] + dy, values[2] + dx, values[3] + dy
            self._quadratic(qx, qy, x, y)
            quadratic = (qx, qy)
        else:
            rx, ry, rotation, large, sweep, x, y = values
            self.ops.extend(arc(self.x, self.y, rx, ry, rotation, bool(large), bool(sweep), x + dx, y + dy))
            self.x, self.y = x + dx, y + dy
        self.control, self.quadratic = control, quadratic

    def _quadratic(self, qx: float, qy: float, x: float, y: float) -> None:
        """A quadratic Bézier as the cubic that draws it: control points two thirds of the way to its control."""
        c1 = (self.x + 2 / 3 * (qx - self.x), self.y + 2 / 3 * (qy - self.y))
        c2 = (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y))
        self.ops.append(("curve", (*c1, *c2, x, y)))
        self.x, self.y = x, y


def arc(
    x0: float, y0: float, rx: float, ry: float, rotation: float, large: bool, sweep: bool, x: float, y: float
) -> list[Op]:
    """An SVG elliptical arc from (x0, y0) to (x, y) as cubic Béziers (SVG 1.1, appendix F.6.5 and F.6.6)."""
    if (x0, y0) == (x, y):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("line", (x, y))]
    phi = math.radians(rotation % 360)
    cos_phi, sin_phi = math.cos(phi), math.sin(phi)
    mx, my = (x0 - x) / 2, (y0 - y) / 2
    x1 = cos_phi * mx + sin_phi * my
    y1 = -sin_phi * mx + cos_phi * my
    scale = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
    if scale > 1:  # radii too small to reach: scaled up until they just do
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
    denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
    root = math.sqrt(max(numerator, 0.0) / denominator) if denominator else 0.0
    if large == sweep:
        root = -root
    cx1, cy1 = root * rx * y1 / ry, -root * ry * x1 / rx
    cx = cos_phi * cx1 - sin_phi * cy1 + (x0 + x) / 2
    cy = sin_phi * cx1 + cos_phi * cy1 + (y0 + y) / 2
    start = math.atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
    extent = math.atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx) - start
    if sweep and extent < 0:
        extent += 2 * math.pi
    elif not sweep and extent > 0:
        extent -= 2 * math.pi
    count = max(1, min(MAX_ARC_SEGMENTS, math.ceil(abs(extent) / (math.pi / 2) - 1e-9)))
    step = extent / count
    handle = 4 / 3 * math.tan(step / 4)

    def point(angle: float) -> tuple[float, float]:
        ex, ey = rx * math.cos(angle), ry * math.sin(angle)
        return cx + cos_phi * ex - sin_phi * ey, cy + sin_phi * ex + cos_phi * ey

    def tangent(angle: float) -> tuple[float, float]:
        ex, ey = -rx * math.sin(angle), ry * math.cos(angle)
        return cos_phi * ex - sin_phi * ey, sin_phi * ex + cos_phi * ey

    ops: list[Op] = []
    for index in range(count):
        a0, a1 = start + index * step, start + (index + 1) * step
        (px, py), (qx, qy) = point(a0), point(a1)
        (tx0, ty0), (tx1, ty1) = tangent(a0), tangent(a1)
        end = (x, y) if index == count - 1 else (qx, qy)  # the last lands exactly where the path said
        ops.append(("curve", (px + handle * tx0, py + handle * ty0, qx - handle * tx1, qy - handle * ty1, *end)))
    return ops


def bounds(ops: tuple[Op, ...]) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of every point and control point: a box the path lies inside."""
    xs = [v for _, values in ops for v in values[0::2]]
    ys = [v for _, values in ops for v in values[1::2]]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def draw(ops: tuple[Op, ...], path: Any, point: Callable[[float, float], tuple[float, float]]) -> Any:
    """Add the operations to a reportlab path object, each coordinate pair mapped through `point`."""
    for name, values in ops:
        if name == "move":
            path.moveTo(*point(*values))
        elif name == "line":
            path.lineTo(*point(*values))
        elif name == "curve":
            path.curveTo(*point(*values[0:2]), *point(*values[2:4]), *point(*values[4:6]))
        else:
            path.close()
    return path


__all__ = ["Op", "PathDataError", "arc", "bounds", "draw", "parse"]
