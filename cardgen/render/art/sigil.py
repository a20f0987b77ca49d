"""A faction sigil: an emblem of geometric primitives with n-fold rotational symmetry (each motif also mirror-
symmetric, so the emblem has the n mirror lines of a dihedral group too), on an optional round plate. Vector paths.

An emblem is three rings of motifs — an outer one (chevrons, blades, petals, wedges or orbs), an inner one (a star,
petals, blades or wedges) and a centre (a disc, a polygon or a ringed disc) — each picked, sized and coloured from
the seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from cardgen.render.art import RGB, Box, fill, polygon_path, rng, shade, stroke

Motif = Callable[[Any, float, float, float], None]  # canvas, inner radius, outer radius, half the sector (radians)


def draw(canvas: Any, box: Box, seed: str, palette: Sequence[RGB], fold: int | None, plate: bool | None) -> None:
    """A sigil centred in `box`, as large as fits: `fold` copies of each motif around the centre."""
    r = rng(seed, "sigil")
    chosen = r.randint(3, 8)
    fold = fold or chosen
    plate = True if plate is None else plate
    cx, cy = box.centre
    size = min(box.w, box.h) / 2 * 0.96
    main, accent, dark = shade(palette, r.uniform(0.6, 0.8)), shade(palette, 1.0), shade(palette, 0.05)
    canvas.saveState()
    canvas.translate(cx, cy)
    canvas.rotate(90 + r.choice((0, 180 / fold)))  # motifs point along +x; a point or a gap upwards
    canvas.setLineJoin(1)
    if plate:
        _plate(canvas, r, size, fold, dark, main, accent)
        size *= 0.8
    outer = r.choice((_chevron, _blade, _petal, _wedge, _orb))
    inner = r.choice((_star_point, _petal, _blade, _wedge))
    split = r.uniform(0.45, 0.55)
    fill(canvas, main)
    _around(canvas, fold, outer, size * (split + 0.08), size, r.uniform(0.75, 0.95))
    if r.random() < 0.6:  # a ring between the two rings of motifs
        stroke(canvas, main, size * 0.035)
        canvas.circle(0, 0, size * (split + 0.03), stroke=1, fill=0)
    fill(canvas, accent)
    _around(canvas, fold, inner, size * 0.2, size * split, r.uniform(0.65, 1.0))
    _centre(canvas, r, size * r.uniform(0.16, 0.24), fold, main, accent, dark)
    canvas.restoreState()


def _around(canvas: Any, fold: int, motif: Motif, inner: float, outer: float, width: float) -> None:
    """`fold` copies of a motif, evenly turned about the origin; `width` is the share of each sector it spans."""
    half = math.pi / fold * width
    for _ in range(fold):
        motif(canvas, inner, outer, half)
        canvas.rotate(360 / fold)


def _plate(canvas: Any, r: random.Random, size: float, fold: int, dark: RGB, main: RGB, accent: RGB) -> None:
    """A round plate: a dark disc with a double rim and ticks between the rims."""
    fill(canvas, dark)
    canvas.circle(0, 0, size, stroke=0, fill=1)
    stroke(canvas, main, size * 0.05)
    canvas.circle(0, 0, size * 0.95, stroke=1, fill=0)
    stroke(canvas, accent, size * 0.012)
    canvas.circle(0, 0, size * 0.86, stroke=1, fill=0)
    ticks = fold * r.choice((2, 3, 4))
    fill(canvas, accent)
    for _ in range(ticks):
        canvas.drawPath(
            polygon_path(canvas, [(size * 0.87, -size * 0.012), (size * 0.91, 0), (size * 0.87, size * 0.012)]), 0, 1
        )
        canvas.rotate(360 / ticks)


def _chevron(canvas: Any, inner: float, outer: float, half: float) -> None:
    """A chevron pointing outwards."""
    depth = (outer - inner) * 0.45
    side = math.tan(half) * inner
    points = [
        (outer, 0),
        (inner + depth, side),
        (inner, side),
        (outer - depth * 1.1, 0),
        (inner, -side),
        (inner + depth, -side),
    ]
    canvas.drawPath(polygon_path(canvas, points), stroke=0, fill=1)


def _blade(canvas: Any, inner: float, outer: float, half: float) -> None:
    """A long kite, widest a third of the way out."""
    waist = inner + (outer - inner) * 0.35
    side = math.tan(half) * waist * 0.8
    canvas.drawPath(polygon_path(canvas, [(inner, 0), (waist, side), (outer, 0), (waist, -side)]), stroke=0, fill=1)


def _petal(canvas: Any, inner: float, outer: float, half: float) -> None:
    """A pointed lens of two curves."""
    side = math.tan(half) * (inner + outer) / 2 * 1.1
    path = canvas.beginPath()
    path.moveTo(inner, 0)
    path.curveTo(inner + (outer - inner) * 0.25, side, outer - (outer - inner) * 0.3, side, outer, 0)
    path.curveTo(outer - (outer - inner) * 0.3, -side, inner + (outer - inner) * 0.25, -side, inner, 0)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _wedge(canvas: Any, inner: float, outer: float, half: float) -> None:
    """A segment of a ring, its outer edge notched."""
    path = canvas.beginPath()
    steps = 8
    path.moveTo(inner * math.cos(-half), inner * math.sin(-half))
    for step in range(steps + 1):
        a = -half + 2 * half * step / steps
        path.lineTo(outer * math.cos(a), outer * math.sin(a))
        if step == steps // 2:
            path.lineTo(outer * 0.9, 0)
    for step in range(steps, -1, -1):
        a = -half + 2 * half * step / steps
        path.lineTo(inner * math.cos(a), inner * math.sin(a))
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _orb(canvas: Any, inner: float, outer: float, half: float) -> None:
    """A disc between the radii, with a short spoke towards the centre."""
    middle, radius = (inner + outer) / 2, min((outer - inner) / 2, math.sin(half) * (inner + outer) / 2)
    canvas.circle(middle, 0, radius * 0.9, stroke=0, fill=1)
    canvas.rect(inner, -radius * 0.12, middle - inner, radius * 0.24, stroke=0, fill=1)


def _star_point(canvas: Any, inner: float, outer: float, half: float) -> None:
    """One point of a star: its points together make a star of `fold` points."""
    canvas.drawPath(
        polygon_path(
            canvas,
            [
                (0, 0),
                (inner * 1.6 * math.cos(half), inner * 1.6 * math.sin(half)),
                (outer, 0),
                (inner * 1.6 * math.cos(half), -inner * 1.6 * math.sin(half)),
            ],
        ),
        stroke=0,
        fill=1,
    )


def _centre(canvas: Any, r: random.Random, size: float, fold: int, main: RGB, accent: RGB, dark: RGB) -> None:
    """The centre: a disc, a polygon of `fold` sides, or a disc in a ring."""
    look = r.choice(("disc", "polygon", "ringed"))
    fill(canvas, dark)
    canvas.circle(0, 0, size * 1.15, stroke=0, fill=1)
    fill(canvas, main)
    if look == "polygon" and fold >= 3:
        corners = [(size * math.cos(k * math.tau / fold), size * math.sin(k * math.tau / fold)) for k in range(fold)]
        canvas.drawPath(polygon_path(canvas, corners), stroke=0, fill=1)
    elif look == "ringed":
        stroke(canvas, main, size * 0.18)
        canvas.circle(0, 0, size * 0.85, stroke=1, fill=0)
        fill(canvas, accent)
        canvas.circle(0, 0, size * 0.45, stroke=0, fill=1)
    else:
        canvas.circle(0, 0, size, stroke=0, fill=1)
        fill(canvas, accent)
        canvas.circle(0, 0, size * 0.4, stroke=0, fill=1)
