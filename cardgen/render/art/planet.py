"""A planet: a sphere shaded by a radial gradient, a surface of bands, continents or craters clipped to its disc,
the night side's soft shadow, an atmosphere's rim and glow, and optionally rings in front of and behind it. All
vector: one shading (`sh`) and paths."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any

from cardgen.render.art import RGB, Box, fill, mix, rng, shade, smooth_path, stroke

WHITE: RGB = (1.0, 1.0, 1.0)
RING_OUTER = 2.1  # the rings' outer edge, planet radii


def draw(
    canvas: Any, box: Box, seed: str, palette: Sequence[RGB], surface: str | None, rings: bool | None,
    atmosphere: float | None, light: float | None,
) -> None:  # fmt: skip
    """A planet centred in `box`, as large as fits with its rings and glow."""
    r = rng(seed, "planet")
    kind = r.choice(("bands", "continents", "craters"))
    surface = surface or kind
    ringed = r.random() < 0.4
    rings = ringed if rings is None else rings
    atmosphere = 0.5 if atmosphere is None else atmosphere
    towards = math.radians(135 if light is None else light)
    light_dir = (math.cos(towards), math.sin(towards))
    cx, cy = box.centre
    radius = min(box.w / (2 * RING_OUTER), box.h * 0.4) if rings else min(box.w, box.h) * 0.42
    tilt, opening = r.uniform(-30, 30), r.uniform(0.16, 0.34)
    if rings:
        _rings(canvas, rng(seed, "rings"), (cx, cy, radius), palette, tilt, opening, front=False)
    _glow(canvas, (cx, cy, radius), palette, atmosphere)
    canvas.saveState()
    disc = canvas.beginPath()
    disc.circle(cx, cy, radius)
    canvas.clipPath(disc, stroke=0, fill=0)
    _sphere(canvas, (cx, cy, radius), palette, light_dir)
    {"bands": _bands, "continents": _continents, "craters": _craters}[surface](
        canvas, r, (cx, cy, radius), palette, tilt
    )
    _night(canvas, (cx, cy, radius), palette, light_dir)
    _rim(canvas, (cx, cy, radius), palette, light_dir, atmosphere)
    canvas.restoreState()
    if rings:
        _rings(canvas, rng(seed, "rings"), (cx, cy, radius), palette, tilt, opening, front=True)


Disc = tuple[float, float, float]


def _colour(rgb: RGB) -> Any:
    from reportlab.lib.colors import Color

    return Color(*rgb)


def _sphere(canvas: Any, disc: Disc, palette: Sequence[RGB], light: tuple[float, float]) -> None:
    """The lit sphere: a radial gradient from a highlight towards the light to the palette's dark at the far limb."""
    cx, cy, radius = disc
    hx, hy = cx + light[0] * radius * 0.45, cy + light[1] * radius * 0.45
    canvas.setFillAlpha(1)  # a shading is painted with the fill alpha of the moment: the glow's would show through
    colours = [mix(shade(palette, 0.9), WHITE, 0.25), shade(palette, 0.7), shade(palette, 0.45), shade(palette, 0.15)]
    canvas.radialGradient(hx, hy, radius * 1.5, [_colour(c) for c in colours], [0.0, 0.25, 0.65, 1.0], extend=True)


def _bands(canvas: Any, r: random.Random, disc: Disc, palette: Sequence[RGB], tilt: float) -> None:
    """A gas giant's bands: wavy stripes of latitude (closer together towards the poles), and perhaps a storm."""
    cx, cy, radius = disc
    canvas.saveState()
    canvas.translate(cx, cy)
    canvas.rotate(tilt * 0.5)
    latitudes = sorted(math.sin(r.uniform(-1.45, 1.45)) for _ in range(r.randint(7, 12)))
    for low, high in itertools.pairwise(latitudes):
        if r.random() < 0.3:
            continue
        fill(canvas, shade(palette, r.uniform(0.25, 0.95)), r.uniform(0.25, 0.6))
        waves = [(r.uniform(1.5, 5), r.uniform(0, math.tau), r.uniform(0.005, 0.02)) for _ in range(3)]
        edge = [(x / 24 * 2 - 1) for x in range(25)]

        def wobble(x: float, base: float, waves: list[tuple[float, float, float]] = waves) -> float:
            return base + sum(a * math.sin(f * x * math.pi + p) for f, p, a in waves)

        points = [(x * radius * 1.1, wobble(x, high) * radius) for x in edge]
        points += [(x * radius * 1.1, wobble(x, low) * radius) for x in reversed(edge)]
        path = canvas.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    if r.random() < 0.6:  # a storm, an oval of two tones
        x, y, size = r.uniform(-0.5, 0.4) * radius, r.uniform(-0.5, 0.5) * radius, r.uniform(0.1, 0.18) * radius
        for scale, tone, alpha in ((1.0, 0.85, 0.55), (0.6, 0.35, 0.5)):
            fill(canvas, shade(palette, tone), alpha)
            canvas.ellipse(x - size * 1.8 * scale, y - size * scale, x + size * 1.8 * scale, y + size * scale, 0, 1)
    canvas.restoreState()


def _on_sphere(centre: tuple[float, float, float], offset: tuple[float, float]) -> tuple[float, float, float]:
    """The point of the unit sphere reached from `centre` by `offset` along its tangent plane (then normalised)."""
    x, y, z = centre
    east = (-y, x, 0.0) if abs(z) < 0.99 else (1.0, 0.0, 0.0)
    norm = math.hypot(*east)
    east = (east[0] / norm, east[1] / norm, east[2] / norm)
    north = (y * east[2] - z * east[1], z * east[0] - x * east[2], x * east[1] - y * east[0])
    point = tuple(c + offset[0] * e + offset[1] * n for c, e, n in zip(centre, east, north, strict=True))
    length = math.sqrt(sum(c * c for c in point))
    return (point[0] / length, point[1] / length, point[2] / length)


def _blob(r: random.Random, centre: tuple[float, float, float], size: float, disc: Disc) -> list[tuple[float, float]]:
    """The outline of a ragged patch on the sphere around `centre`, seen from the front (points behind the limb are
    pulled onto it)."""
    cx, cy, radius = disc
    lobes = [(r.randint(2, 7), r.uniform(0, math.tau), r.uniform(0.08, 0.28)) for _ in range(4)]
    outline = []
    for step in range(36):
        theta = step / 36 * math.tau
        reach = size * (1 + sum(a * math.sin(k * theta + p) for k, p, a in lobes))
        x, y, z = _on_sphere(centre, (reach * math.cos(theta), reach * math.sin(theta)))
        if z < 0:
            norm = math.hypot(x, y) or 1.0
            x, y = x / norm, y / norm
        outline.append((cx + x * radius, cy + y * radius))
    return outline


def _facing(r: random.Random, reach: float = 0.85) -> tuple[float, float, float]:
    """A random point on the sphere's front half, not too close to the limb."""
    while True:
        x, y = r.uniform(-reach, reach), r.uniform(-reach, reach)
        if x * x + y * y < reach * reach:
            return (x, y, math.sqrt(1 - x * x - y * y))


def _continents(canvas: Any, r: random.Random, disc: Disc, palette: Sequence[RGB], tilt: float) -> None:
    """Land masses with lighter highlands, scattered islands and polar caps."""
    land, high = shade(palette, r.uniform(0.55, 0.7)), shade(palette, r.uniform(0.8, 0.95))
    for _ in range(r.randint(3, 5)):
        centre = _facing(r)
        size = r.uniform(0.25, 0.5)
        fill(canvas, land, 0.9)
        canvas.drawPath(smooth_path(canvas, _blob(r, centre, size, disc)), stroke=0, fill=1)
        fill(canvas, high, 0.45)
        canvas.drawPath(smooth_path(canvas, _blob(r, centre, size * 0.45, disc)), stroke=0, fill=1)
    fill(canvas, land, 0.8)
    for _ in range(r.randint(4, 9)):
        canvas.drawPath(smooth_path(canvas, _blob(r, _facing(r, 0.95), r.uniform(0.04, 0.09), disc)), 0, 1)
    fill(canvas, mix(WHITE, shade(palette, 1.0), 0.3), 0.85)
    lean = math.radians(tilt)
    for pole in (1, -1):
        centre = (-math.sin(lean) * 0.2 * pole, math.cos(lean) * 0.97 * pole, 0.25)
        length = math.sqrt(sum(c * c for c in centre))
        centre = (centre[0] / length, centre[1] / length, centre[2] / length)
        canvas.drawPath(smooth_path(canvas, _blob(r, centre, r.uniform(0.25, 0.4), disc)), stroke=0, fill=1)


def _craters(canvas: Any, r: random.Random, disc: Disc, palette: Sequence[RGB], tilt: float) -> None:
    """A rocky world: dark and light mottling, then craters seen at their angle, each with a lit rim."""
    cx, cy, radius = disc
    for _ in range(7):
        fill(canvas, shade(palette, r.choice((0.2, 0.35, 0.8))), r.uniform(0.15, 0.3))
        canvas.drawPath(smooth_path(canvas, _blob(r, _facing(r), r.uniform(0.2, 0.5), disc)), stroke=0, fill=1)
    for _ in range(r.randint(14, 24)):
        x, y, z = _facing(r, 0.95)
        size = radius * r.uniform(0.03, 0.13)
        canvas.saveState()
        canvas.translate(cx + x * radius, cy + y * radius)
        canvas.rotate(math.degrees(math.atan2(y, x)))
        canvas.scale(max(z, 0.15), 1)
        fill(canvas, shade(palette, 0.12), 0.45)
        canvas.circle(0, 0, size, stroke=0, fill=1)
        stroke(canvas, mix(shade(palette, 0.9), WHITE, 0.3), size * 0.18, 0.5)
        canvas.circle(size * 0.08, 0, size, stroke=1, fill=0)
        canvas.restoreState()


def _night(canvas: Any, disc: Disc, palette: Sequence[RGB], light: tuple[float, float]) -> None:
    """The night side: the disc less a lit circle towards the light, in stacked translucent layers (a soft
    terminator without a raster)."""
    cx, cy, radius = disc
    dark = mix(shade(palette, 0.0), (0.0, 0.0, 0.0), 0.5)
    for step in range(18):
        lit = radius * (1.2 - step * 0.034)
        ox, oy = cx + light[0] * radius * 0.42, cy + light[1] * radius * 0.42
        fill(canvas, dark, 0.085)
        path = canvas.beginPath()
        path.circle(cx, cy, radius * 1.05)
        path.circle(ox, oy, lit)
        canvas.drawPath(path, stroke=0, fill=1, fillMode=0)  # even-odd: the disc outside the lit circle


def _rim(canvas: Any, disc: Disc, palette: Sequence[RGB], light: tuple[float, float], strength: float) -> None:
    """The atmosphere seen edge-on: a thin bright crescent on the lit limb."""
    if strength <= 0:
        return
    cx, cy, radius = disc
    tone = mix(shade(palette, 0.95), WHITE, 0.35)
    for width, alpha in ((0.09, 0.25), (0.05, 0.35), (0.025, 0.5)):
        fill(canvas, tone, alpha * strength * 1.4)
        path = canvas.beginPath()
        path.circle(cx, cy, radius * 1.05)
        shift = radius * width
        path.circle(cx - light[0] * shift, cy - light[1] * shift, radius * (1 - width * 0.2))
        canvas.drawPath(path, stroke=0, fill=1, fillMode=0)


def _glow(canvas: Any, disc: Disc, palette: Sequence[RGB], strength: float) -> None:
    """The atmosphere's haze around the disc: stacked translucent rings fading outwards."""
    if strength <= 0:
        return
    cx, cy, radius = disc
    tone = mix(shade(palette, 0.85), WHITE, 0.2)
    for step in range(8, 0, -1):
        fill(canvas, tone, 0.07 * strength * 2)
        canvas.circle(cx, cy, radius * (1 + 0.018 * step * (0.5 + strength)), stroke=0, fill=1)


def _rings(
    canvas: Any, r: random.Random, disc: Disc, palette: Sequence[RGB], tilt: float, opening: float, front: bool
) -> None:
    """Rings as elliptical bands around the planet; `front` draws only the half that passes in front of it (`r` is
    a fresh generator of the same seed for both halves, so they match)."""
    cx, cy, radius = disc
    canvas.saveState()
    canvas.translate(cx, cy)
    canvas.rotate(tilt)
    canvas.scale(1, opening)
    if front:
        clip = canvas.beginPath()
        clip.rect(-radius * 3, -radius * 3, radius * 6, radius * 3)
        canvas.clipPath(clip, stroke=0, fill=0)
    inner = 1.3
    bands = sorted(r.uniform(inner, RING_OUTER) for _ in range(r.randint(4, 7)))
    edges = [inner, *bands, RING_OUTER]
    for low, high in itertools.pairwise(edges):
        if r.random() < 0.2:
            continue  # a gap
        fill(canvas, mix(shade(palette, r.uniform(0.55, 1.0)), WHITE, 0.15), r.uniform(0.35, 0.75))
        path = canvas.beginPath()
        path.circle(0, 0, high * radius)
        path.circle(0, 0, low * radius)
        canvas.drawPath(path, stroke=0, fill=1, fillMode=0)
    canvas.restoreState()
