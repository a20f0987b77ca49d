"""Generated art: starfields with nebulae, planets, ship silhouettes and faction sigils, drawn from a seed.

Each generator draws from its own `random.Random`, seeded from a SHA-256 of the seed text (never Python's salted
`hash()`), so the same seed draws the same art in every process and build, and another seed other art. Everything
is vector except a starfield's nebula, a raster made once per distinct nebula (`starfield.nebula`). The element that
places art on a face is `<art>` (`cardgen.render.elements.art`); this package knows nothing of markup.

Colours come as a palette: a list of RGB colours, darkest first, that a generator reads along its length (`shade`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

RGB = tuple[float, float, float]

# Named palettes, darkest first: what `palette="…"` names besides a list of the game's colours.
PALETTES: dict[str, tuple[str, ...]] = {
    "nebula": ("#04050d", "#1d1450", "#5a2ea6", "#d04a9e", "#ffc8e4"),
    "ember": ("#0b0403", "#3a0e08", "#9c2c10", "#ee8a26", "#ffe2a6"),
    "ice": ("#020811", "#0a2743", "#1d6a98", "#5cc3da", "#e6fcff"),
    "verdant": ("#030a07", "#0d3121", "#217a4a", "#83c96a", "#eaf7b6"),
    "gold": ("#0a0803", "#37290b", "#8a681d", "#dbb24a", "#fff2c4"),
    "steel": ("#08090c", "#262b34", "#56606f", "#a3aebb", "#f1f4f8"),
    "crimson": ("#0a0305", "#3a0a14", "#8e1b2b", "#d94a4a", "#ffd3c4"),
}
# The traits of a ship's look a layout may name in `<art kind="ship" traits>`, each with its words (art/ship.py).
SHIP_TRAITS: dict[str, tuple[str, ...]] = {
    "nose": ("needle", "blunt", "wedge", "hammer"),
    "wing": ("swept", "delta", "forward", "straight"),
    "engine": ("round", "block"),
    "trim": ("spine", "bands", "tips"),
}


def rng(seed: str, purpose: str) -> random.Random:
    """A generator of its own for one purpose of one seed: the same in every process, different per purpose."""
    digest = hashlib.sha256(f"{purpose}\0{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def hex_rgb(value: str) -> RGB:
    """`#rrggbb` as red, green, blue from 0 to 1."""
    return (int(value[1:3], 16) / 255, int(value[3:5], 16) / 255, int(value[5:7], 16) / 255)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b`."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def shade(palette: Sequence[RGB], t: float) -> RGB:
    """The palette read as a gradient: 0 its first (darkest) colour, 1 its last, between them blended."""
    if len(palette) == 1:
        return palette[0]
    t = min(max(t, 0.0), 1.0) * (len(palette) - 1)
    index = min(int(t), len(palette) - 2)
    return mix(palette[index], palette[index + 1], t - index)


@dataclass(frozen=True)
class Box:
    """Where art is drawn, in points on the face's canvas: the bottom-left corner and the size."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


def fill(canvas: Any, colour: RGB, alpha: float = 1.0) -> None:
    """Set the fill colour and its alpha (alphas rounded to hundredths: each distinct one is a graphics state)."""
    canvas.setFillColorRGB(*colour)
    canvas.setFillAlpha(round(alpha, 2))


def stroke(canvas: Any, colour: RGB, width: float, alpha: float = 1.0) -> None:
    """Set the stroke colour, width and alpha."""
    canvas.setStrokeColorRGB(*colour)
    canvas.setLineWidth(width)
    canvas.setStrokeAlpha(round(alpha, 2))


def smooth_path(canvas: Any, points: Sequence[tuple[float, float]], tension: float = 1.0) -> Any:
    """A closed path through `points` with smooth corners: a Catmull-Rom curve drawn as cubic Béziers."""
    path = canvas.beginPath()
    count = len(points)
    path.moveTo(*points[0])
    for index in range(count):
        p0, p1 = points[index - 1], points[index]
        p2, p3 = points[(index + 1) % count], points[(index + 2) % count]
        c1 = (p1[0] + (p2[0] - p0[0]) * tension / 6, p1[1] + (p2[1] - p0[1]) * tension / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) * tension / 6, p2[1] - (p3[1] - p1[1]) * tension / 6)
        path.curveTo(*c1, *c2, *p2)
    path.close()
    return path


def polygon_path(canvas: Any, points: Sequence[tuple[float, float]]) -> Any:
    """A closed path of straight sides through `points`."""
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    return path


__all__ = [
    "PALETTES",
    "RGB",
    "SHIP_TRAITS",
    "Box",
    "fill",
    "hex_rgb",
    "mix",
    "polygon_path",
    "rng",
    "shade",
    "smooth_path",
    "stroke",
]
