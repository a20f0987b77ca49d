"""A ship seen from above, nose up: a mirror-symmetric silhouette of hull, wings, engines and gun barrels, outlined,
bevelled along its spine, with a canopy, trim and engine glow. Vector paths.

Its look comes from three sources, coarsest first: the `family` (a faction: the nose, the hull's profile, the wings'
and engines' style, the trim and the hull's tone — every ship of a family shares them), the `class` (the proportions:
length, beam, wingspan, engines, guns — known class names have their own, any other word draws its own from itself)
and the attributes a layout gives, which win. `traits` names some of the family's traits outright (a nose, a wing,
an engine, a trim: `SHIP_TRAITS`), so a layout can give each faction the look it designs; the traits it leaves out
still come from the family.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cardgen.render.art import RGB, SHIP_TRAITS, Box, fill, mix, polygon_path, rng, shade, stroke

Point = tuple[float, float]
# class → length (share of the box's height), beam (share of the length), wingspan (share of the box's width),
# engines, guns
CLASSES: dict[str, tuple[float, float, float, int, int]] = {
    "fighter": (0.6, 0.16, 0.8, 1, 2),
    "scout": (0.62, 0.12, 0.4, 1, 0),
    "bomber": (0.66, 0.2, 0.9, 2, 2),
    "corvette": (0.72, 0.18, 0.5, 2, 2),
    "frigate": (0.8, 0.17, 0.45, 2, 4),
    "destroyer": (0.88, 0.14, 0.4, 3, 4),
    "cruiser": (0.92, 0.2, 0.55, 3, 6),
    "battleship": (0.96, 0.26, 0.6, 4, 8),
    "carrier": (0.96, 0.3, 0.35, 4, 2),
    "transport": (0.8, 0.3, 0.25, 2, 0),
}


def with_traits(look: Family, traits: str | None) -> Family:
    """The family's look with the traits named (e.g. `"hammer straight block"`) put in their place."""
    if not traits:
        return look
    named = {trait: word for word in traits.split() for trait, words in SHIP_TRAITS.items() if word in words}
    return replace(
        look,
        nose=named.get("nose", look.nose),
        wing=named.get("wing", look.wing),
        engine=named.get("engine", look.engine),
        trim=named.get("trim", look.trim),
    )


@dataclass(frozen=True)
class Family:
    """A faction's look."""

    nose: str  # needle | blunt | wedge | hammer
    wing: str  # swept | delta | forward | straight
    engine: str  # round | block
    trim: str  # spine | bands | tips
    tone: float  # where the hull's colour lies along the palette
    bulge: float  # a widening of the hull amidships
    canards: bool  # small wings near the nose

    @classmethod
    def of(cls, name: str) -> Family:
        r = rng(name, "ship family")
        return cls(
            nose=r.choice(SHIP_TRAITS["nose"]),
            wing=r.choice(SHIP_TRAITS["wing"]),
            engine=r.choice(SHIP_TRAITS["engine"]),
            trim=r.choice(SHIP_TRAITS["trim"]),
            tone=r.uniform(0.5, 0.7),
            bulge=r.uniform(0.0, 0.35),
            canards=r.random() < 0.35,
        )


def proportions(name: str) -> tuple[float, float, float, int, int]:
    """A class's proportions: its own for a known name, else drawn from the name."""
    if name.lower() in CLASSES:
        return CLASSES[name.lower()]
    r = rng(name, "ship class")
    return (r.uniform(0.6, 0.95), r.uniform(0.12, 0.3), r.uniform(0.2, 0.9), r.randint(1, 4), 2 * r.randint(0, 3))


def draw(
    canvas: Any, box: Box, seed: str, palette: Sequence[RGB], family: str | None, ship_class: str | None,
    length: float | None, beam: float | None, wings: float | None, engines: int | None, weapons: int | None,
    traits: str | None = None,
) -> None:  # fmt: skip
    """A ship centred in `box`, nose up."""
    look = with_traits(Family.of(family if family is not None else seed), traits)
    base = proportions(ship_class if ship_class is not None else seed)
    length = base[0] if length is None else length
    beam = base[1] if beam is None else beam
    wings = base[2] if wings is None else wings
    engines = base[3] if engines is None else engines
    weapons = base[4] if weapons is None else weapons
    hull_length = box.h * length * 0.86  # the engines' glow needs room behind the tail
    hull_width = min(hull_length * beam, box.w * 0.9)
    span = max(box.w * wings * 0.96, hull_width) / 2
    parts = _parts(look, hull_length, hull_width, span, engines, weapons, rng(seed, "ship"))
    cx, cy = box.centre
    canvas.saveState()
    canvas.translate(cx, cy + box.h * 0.05)
    canvas.setLineJoin(1)
    hull, dark, light = shade(palette, look.tone), shade(palette, 0.03), shade(palette, 1.0)
    glow = mix(light, (0.55, 0.85, 1.0), 0.5)
    _exhaust(canvas, parts.exhausts, glow)
    stroke(canvas, dark, max(hull_width * 0.05, 0.6))  # the outline: every part stroked, then filled over
    fill(canvas, hull)
    for shape in parts.shapes:
        canvas.drawPath(polygon_path(canvas, shape), stroke=1, fill=1)
    for shape in parts.shapes:
        canvas.drawPath(polygon_path(canvas, shape), stroke=0, fill=1)
    _bevel(canvas, parts.shapes, hull_length, span)
    _details(canvas, look, parts, hull_length, hull_width, dark, light)
    canvas.restoreState()


@dataclass
class Parts:
    """The silhouette's closed shapes (already mirrored), where the engines' glow starts, and the hull's outline."""

    shapes: list[list[Point]]
    exhausts: list[tuple[float, float, float]]  # x, y, width
    hull: list[Point]  # the right half, nose to tail
    wing_roots: tuple[float, float]  # the wings' leading and trailing edge at the hull, y
    wing: list[Point]  # the right wing (empty without wings)


def _mirrored(right: list[Point]) -> list[Point]:
    """A right half (x ≥ 0, in order) closed by its mirror image."""
    return [*right, *[(-x, y) for x, y in reversed(right)]]


def _profile(nose: str, t: float, bulge: float) -> float:
    """The hull's half-width, as a share of the widest, at `t` from the nose (0) to the tail (1)."""
    shapes = {
        "needle": min(1.0, (t / 0.5) ** 0.85),
        "blunt": min(1.0, math.sqrt(t / 0.22)),
        "wedge": min(1.0, t / 0.75),
        "hammer": 0.75 if t < 0.16 else (0.5 if t < 0.3 else 1.0),
    }
    width = float(shapes[nose]) * (1 + bulge * math.exp(-(((t - 0.55) / 0.15) ** 2)))
    return width * (0.8 if t > 0.92 else 1.0)  # the tail narrows to the engines


def _parts(
    look: Family, hull_length: float, hull_width: float, span: float, engines: int, weapons: int, r: random.Random
) -> Parts:
    top, half = hull_length / 2, hull_width / 2
    steps = 24
    right = [
        (half * _profile(look.nose, k / steps, look.bulge), top - hull_length * k / steps) for k in range(steps + 1)
    ]
    if look.nose == "hammer":
        right[0] = (right[1][0], top)
    shapes = [_mirrored(right)]

    def width_at(y: float) -> float:
        k = min(steps, max(0, round((top - y) / hull_length * steps)))
        return right[k][0]

    lead, trail = top - hull_length * r.uniform(0.4, 0.52), top - hull_length * r.uniform(0.78, 0.88)
    wing = _wing(look.wing, lead, trail, width_at, span) if span > half * 1.15 else []
    if wing:
        shapes.append(_mirrored(wing))
    if look.canards and span > half * 1.15:
        front = top - hull_length * 0.22
        tip = half + (span - half) * 0.3
        shapes.append(
            _mirrored(
                [
                    (width_at(front) * 0.9, front),
                    (tip, front - hull_length * 0.09),
                    (tip, front - hull_length * 0.12),
                    (width_at(front) * 0.9, front - hull_length * 0.1),
                ]
            )
        )
    exhausts = []
    tail = top - hull_length
    room = max(half * 0.9, (span - half) * 0.5 + half * 0.5) if engines > 2 else half * 0.75
    size = min(hull_width * 0.45, 2 * room / max(engines, 1) * 0.8)
    for index in range(engines):
        x = 0.0 if engines == 1 else -room + 2 * room * index / (engines - 1)
        y = tail if abs(x) <= half else trail
        body = hull_length * 0.16
        if look.engine == "round":
            nacelle = _capsule(x, y + body * 0.3, size / 2, body)
        else:
            nacelle = [
                (x - size / 2, y + body * 0.7),
                (x + size / 2, y + body * 0.7),
                (x + size / 2 * 0.85, y - body * 0.3),
                (x - size / 2 * 0.85, y - body * 0.3),
            ]
        shapes.append(nacelle)
        exhausts.append((x, y - body * 0.3, size * 0.8))
    for index in range(weapons // 2):  # pairs of barrels along the wings' leading edges
        x = half * 0.7 + (max(span, half * 1.4) - half * 0.7) * (index + 0.6) / (weapons // 2 + 0.4)
        y = lead - (x - half) * 0.3 if look.wing in ("swept", "delta") else lead
        reach, width = hull_length * 0.09, max(hull_length * 0.016, 0.6)
        for side in (1, -1):
            bx = side * min(x, span * 0.92)
            shapes.append(
                [
                    (bx - width * 2, y - reach * 0.5),
                    (bx + width * 2, y - reach * 0.5),
                    (bx + width * 2, y),
                    (bx - width * 2, y),
                ]
            )  # the mount
            shapes.append(
                [
                    (bx - width, y - reach * 0.3),
                    (bx + width, y - reach * 0.3),
                    (bx + width * 0.7, y + reach),
                    (bx - width * 0.7, y + reach),
                ]
            )
    if weapons % 2:
        shapes.append(
            [
                (-hull_width * 0.05, top - hull_length * 0.05),
                (hull_width * 0.05, top - hull_length * 0.05),
                (hull_width * 0.03, top + hull_length * 0.08),
                (-hull_width * 0.03, top + hull_length * 0.08),
            ]
        )
    return Parts(shapes, exhausts, right, (lead, trail), wing)


def _wing(style: str, lead: float, trail: float, width_at: Any, span: float) -> list[Point]:
    """The right wing, from its leading root along to its tip and back to its trailing root."""
    chord = lead - trail
    sweep = {"swept": 0.55, "delta": 0.9, "forward": -0.25, "straight": 0.12}[style] * chord
    tip_chord = {"swept": 0.35, "delta": 0.12, "forward": 0.45, "straight": 0.5}[style] * chord
    tip_lead = lead - sweep
    return [
        (width_at(lead) * 0.95, lead),
        (span, tip_lead),
        (span, tip_lead - tip_chord),
        (width_at(trail) * 0.95, trail if style != "forward" else trail + chord * 0.1),
    ]


def _capsule(x: float, y: float, radius: float, length: float) -> list[Point]:
    """A nacelle: a rectangle with a round front, as points."""
    front = [(x + radius * math.cos(a / 8 * math.pi), y + radius * math.sin(a / 8 * math.pi)) for a in range(9)]
    return [*front, (x - radius, y - length * 0.6), (x + radius, y - length * 0.6)][::-1]


def _exhaust(canvas: Any, exhausts: list[tuple[float, float, float]], glow: RGB) -> None:
    """The engines' thrust: stacked translucent flames behind each nozzle, white at the core."""
    for x, y, width in exhausts:
        for scale, alpha in ((1.0, 0.18), (0.75, 0.3), (0.5, 0.55), (0.28, 0.9)):
            fill(canvas, mix(glow, (1.0, 1.0, 1.0), 1 - scale), alpha)
            half, reach = width / 2 * scale * 1.2, width * 2.4 * scale
            path = canvas.beginPath()
            path.moveTo(x - half, y)
            path.curveTo(x - half, y - reach * 0.5, x - half * 0.2, y - reach * 0.9, x, y - reach)
            path.curveTo(x + half * 0.2, y - reach * 0.9, x + half, y - reach * 0.5, x + half, y)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)


def _bevel(canvas: Any, shapes: list[list[Point]], hull_length: float, span: float) -> None:
    """Light on the right half and shade on the left: the silhouette reads as a ridge along the spine."""
    reach = max(hull_length, span * 2)
    for side, colour, alpha in ((1, (1.0, 1.0, 1.0), 0.16), (-1, (0.0, 0.0, 0.0), 0.18)):
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(0 if side > 0 else -reach, -reach, reach, 2 * reach)
        canvas.clipPath(clip, stroke=0, fill=0)
        fill(canvas, colour, alpha)
        for shape in shapes:
            canvas.drawPath(polygon_path(canvas, shape), stroke=0, fill=1)
        canvas.restoreState()


def _details(
    canvas: Any, look: Family, parts: Parts, hull_length: float, hull_width: float, dark: RGB, light: RGB
) -> None:
    """Panel lines, the family's trim and a canopy."""
    top, half = hull_length / 2, hull_width / 2
    stroke(canvas, dark, max(hull_width * 0.018, 0.3), 0.6)
    for k in (0.3, 0.55, 0.8):  # panel seams across the hull
        y = top - hull_length * k
        x = next(px for px, py in parts.hull if py <= y) * 0.85
        canvas.line(-x, y, x, y)
    canvas.line(0, top - hull_length * 0.32, 0, top - hull_length * 0.95)
    fill(canvas, light, 0.85)
    if look.trim == "spine":
        canvas.rect(-half * 0.12, top - hull_length * 0.9, half * 0.24, hull_length * 0.5, stroke=0, fill=1)
    elif look.trim == "bands" and len(parts.shapes) > 1 and parts.wing:
        root, tip = parts.wing[0], parts.wing[1]
        depth = (parts.wing_roots[0] - parts.wing_roots[1]) * 0.3
        for side in (1, -1):
            points = [
                (root[0] * side, root[1] - depth),
                (tip[0] * side, tip[1] - depth * 0.5),
                (tip[0] * side, tip[1] - depth),
                (root[0] * side, root[1] - depth * 1.6),
            ]
            canvas.drawPath(polygon_path(canvas, points), stroke=0, fill=1)
    else:
        y = top - hull_length * 0.02
        canvas.drawPath(
            polygon_path(
                canvas,
                [
                    (0, top),
                    (half * 0.35, y - hull_length * 0.1),
                    (0, y - hull_length * 0.06),
                    (-half * 0.35, y - hull_length * 0.1),
                ],
            ),
            stroke=0,
            fill=1,
        )
    canopy_y, canopy = top - hull_length * 0.2, hull_length * 0.07
    fill(canvas, mix(light, (0.4, 0.75, 1.0), 0.6))
    stroke(canvas, dark, max(hull_width * 0.02, 0.3))
    canvas.ellipse(-half * 0.28, canopy_y - canopy, half * 0.28, canopy_y + canopy, stroke=1, fill=1)
    fill(canvas, (1.0, 1.0, 1.0), 0.6)
    canvas.ellipse(-half * 0.12, canopy_y, half * 0.04, canopy_y + canopy * 0.7, stroke=0, fill=1)
