"""A starfield: stars as vector dots over a background and, when asked for, a nebula of layered smooth noise.

The nebula is the one raster of the generated art. It is made once per distinct nebula (seed, palette, strength,
size in pixels) at the face's print resolution and kept by that content's hash for the rest of the process — and in
the user's cache for later processes ($XDG_CACHE_HOME/cardgen/nebulae) — as a JPEG (smooth clouds compress to a few
dozen kB where raw pixels would take megabytes). reportlab names an image by a digest of its pixels, so a nebula
that many faces share is embedded once per PDF. numpy and Pillow are imported only when a nebula is drawn: a build
without one does not load them.
"""

from __future__ import annotations

import hashlib
import io
import math
import random
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgen.render.art import RGB, Box, fill, hex_rgb, mix, rng, stroke

MM = 72 / 25.4
STAR_TINTS = tuple(hex_rgb(c) for c in ("#ffffff", "#d6e4ff", "#fff0d2", "#ffe0e6"))
MAX_STARS = 20_000  # a density of 50 stars per cm² over an A4 page is about 31,000: bounded
WORK = 3  # the nebula's noise is worked out at 1/WORK of the print resolution, then enlarged
MAX_PIXELS = 20_000_000  # an A3 board with its bleed at 300 dpi is about 18 million
KEPT = 16  # nebulae kept decoded in memory (one poker card at 300 dpi is about 2.3 MB decoded)
_nebulae: OrderedDict[str, Any] = OrderedDict()  # content hash → reportlab ImageReader of the JPEG
made = 0  # nebulae this process made or read back from the user's cache (the tests count them)
DISK = True  # keep nebulae in the user's cache between processes (a benchmark of making them turns it off)
STORED = 400  # nebulae kept there (a card's is 20–60 kB, a board's a few hundred)


DENSITY = 6.0  # stars per cm² unless the layout says
NEBULA = 0.7


def draw(
    canvas: Any, box: Box, seed: str, palette: Sequence[RGB], density: float | None, nebula: float | None, dpi: int
) -> None:
    """A starfield filling `box`: the palette's darkest colour, a nebula of strength `nebula` (0: none, vector only)
    in its middle colours, and `density` stars per square centimetre tinted by its lightest."""
    density = DENSITY if density is None else density
    nebula = NEBULA if nebula is None else nebula
    if nebula > 0:
        image = nebula_image(seed, palette, nebula, *raster_size(box, dpi))
        canvas.drawImage(image, box.x, box.y, box.w, box.h)
    else:
        fill(canvas, palette[0])
        canvas.rect(box.x, box.y, box.w, box.h, stroke=0, fill=1)
    stars(canvas, box, rng(seed, "stars"), palette, density)


def raster_size(box: Box, dpi: int) -> tuple[int, int]:
    """The nebula's size in pixels: the box at `dpi`, or as near as `MAX_PIXELS` allows (a board-sized box is
    drawn at a lower resolution; the clouds are soft)."""
    scale = dpi / 72
    if (box.w * scale) * (box.h * scale) > MAX_PIXELS:
        scale = math.sqrt(MAX_PIXELS / (box.w * box.h))
    return max(1, round(box.w * scale)), max(1, round(box.h * scale))


def stars(canvas: Any, box: Box, r: random.Random, palette: Sequence[RGB], density: float) -> None:
    """Faint stars as dots grouped by colour, brightness and size (one path each), then a few bright ones with a
    glow and four spikes."""
    area_cm2 = (box.w / MM) * (box.h / MM) / 100
    count = min(MAX_STARS, round(density * area_cm2))
    tints = (*STAR_TINTS, mix(palette[-1], (1.0, 1.0, 1.0), 0.5))
    groups: dict[tuple[int, float, float], list[tuple[float, float]]] = {}
    for _ in range(count):
        x, y = box.x + r.random() * box.w, box.y + r.random() * box.h
        size = min(0.22, 0.045 * (1 / max(r.random(), 1e-3)) ** 0.45)  # mm: many faint, few large
        brightness = round(min(1.0, 0.25 + 0.75 * size / 0.16 * r.uniform(0.6, 1.0)), 1)
        groups.setdefault((r.randrange(len(tints)), brightness, round(size, 2)), []).append((x, y))
    canvas.setLineCap(1)  # a round cap on a line of no length is a dot: four numbers a star, not a circle's 26
    for (tint, brightness, size), dots in sorted(groups.items()):
        stroke(canvas, tints[tint], 2 * size * MM, brightness)
        path = canvas.beginPath()
        for x, y in dots:
            path.moveTo(x, y)
            path.lineTo(x, y)
        canvas.drawPath(path, stroke=1, fill=0)
    for _ in range(max(1, round(count / 90))):
        x, y = box.x + r.uniform(0.04, 0.96) * box.w, box.y + r.uniform(0.04, 0.96) * box.h
        bright_star(canvas, x, y, r.uniform(0.28, 0.5) * MM, tints[r.randrange(len(tints))], r.uniform(0.6, 1.0))


def bright_star(canvas: Any, x: float, y: float, radius: float, tint: RGB, spike: float) -> None:
    """A bright star: a soft glow of stacked translucent discs, four thin spikes and a white core."""
    for scale, alpha in ((7.0, 0.05), (4.5, 0.08), (2.8, 0.14), (1.8, 0.3)):
        fill(canvas, tint, alpha)
        canvas.circle(x, y, radius * scale, stroke=0, fill=1)
    fill(canvas, mix(tint, (1.0, 1.0, 1.0), 0.5), 0.8)
    length, waist = radius * 9 * spike, radius * 0.28
    path = canvas.beginPath()
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        path.moveTo(x + dy * waist, y - dx * waist)
        path.lineTo(x + dx * length, y + dy * length)
        path.lineTo(x - dy * waist, y + dx * waist)
        path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    fill(canvas, (1.0, 1.0, 1.0))
    canvas.circle(x, y, radius, stroke=0, fill=1)


def forget() -> None:
    """Drop the nebulae kept in this process (a benchmark's runs each make theirs afresh)."""
    _nebulae.clear()


def nebula_image(seed: str, palette: Sequence[RGB], strength: float, width: int, height: int) -> Any:
    """The nebula of these parameters at this size in pixels, as an ImageReader: made on first asking, then kept."""
    key = hashlib.sha256(repr(("nebula", 1, seed, tuple(palette), strength, width, height)).encode()).hexdigest()
    if key in _nebulae:
        _nebulae.move_to_end(key)
        return _nebulae[key]
    from reportlab.lib.utils import ImageReader

    global made
    made += 1
    stored = _stored(key)
    jpeg = _read(stored) if stored else None
    if jpeg is None:
        jpeg = _jpeg(_nebula(rng(seed, "nebula"), palette, strength, width, height))
        if stored:
            _keep(stored, jpeg)
    image = ImageReader(io.BytesIO(jpeg))
    _nebulae[key] = image
    while len(_nebulae) > KEPT:
        _nebulae.popitem(last=False)
    return image


def _stored(key: str) -> Path | None:
    """Where the user's cache keeps this nebula's JPEG between processes (None: no cache here, or `DISK` off): keyed
    by its parameters, this generator's source and the Pillow and numpy that made it, so the same key is the same
    bytes (a build's output stays byte-identical whether a nebula is made or read back)."""
    if not DISK:
        return None
    try:
        from importlib import metadata

        from cardgen.paths import user_cache

        versions = [metadata.version(name) for name in ("pillow", "numpy")]
        source = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
        name = hashlib.sha256(repr((key, source, versions)).encode()).hexdigest()[:40]
        return user_cache() / "nebulae" / f"{name}.jpg"
    except (OSError, RuntimeError, KeyError, metadata.PackageNotFoundError):
        return None


def _read(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return data if data.startswith(b"\xff\xd8") and data.endswith(b"\xff\xd9") else None  # a whole JPEG


def _keep(path: Path, jpeg: bytes) -> None:
    """Keep a nebula in the user's cache (written whole or not at all; the oldest go beyond `STORED`). A cache that
    cannot be written is passed over."""
    try:
        import os
        import tempfile

        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(handle, "wb") as file:
            file.write(jpeg)
        os.replace(temporary, path)  # not the build's transaction: the cache is not the output
        kept = sorted(path.parent.glob("*.jpg"), key=lambda p: (p.stat().st_mtime, p.name))
        for old in kept[:-STORED]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def _nebula(r: random.Random, palette: Sequence[RGB], strength: float, width: int, height: int) -> Any:
    """The nebula's pixels at `width` × `height`: its clouds worked out at a third of that size (a ninth of the
    work: they are soft, their finest detail several pixels across even there) and enlarged smoothly."""
    import numpy as np
    from PIL import Image

    small = _nebula_pixels(r, palette, strength, max(2, round(width / WORK)), max(2, round(height / WORK)))
    result: Any = np.asarray(Image.fromarray(small, "RGB").resize((width, height), Image.Resampling.BICUBIC))
    return result


def _jpeg(pixels: Any) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buffer, "JPEG", quality=90, optimize=False)
    return buffer.getvalue()


def _nebula_pixels(r: random.Random, palette: Sequence[RGB], strength: float, width: int, height: int) -> Any:
    """RGB pixels over the palette's darkest colour: a faint haze of broad noise, clouds of finer noise bent by a
    slow flow (domain warping) where it is thick, coloured along the palette and lighter where denser, dimmed by
    dark dust."""
    import numpy as np

    longest = max(width, height)
    haze = _spread(_fractal(r, width, height, 0.9, 3))
    reach = round(longest * 0.12)  # how far the flow bends the clouds: they are made that much larger all round
    clouds = _fractal(r, width + 2 * reach, height + 2 * reach, 2.0, 6, gain=0.55)
    flow_x, flow_y = _fractal(r, width, height, 1.2, 3), _fractal(r, width, height, 1.2, 3)
    clouds = _spread(_warped(clouds, reach, (flow_x - 0.5) * 2 * reach, (flow_y - 0.5) * 2 * reach))
    hue = _spread(_fractal(r, width, height, 0.7, 3))
    dust = _spread(_fractal(r, width, height, 1.6, 6, gain=0.6))
    thick = np.clip((haze - 0.35) / 0.55, 0, 1) ** 1.5
    lit = np.clip((clouds - 0.55 + 0.15 * strength) / 0.45, 0, 1) ** 1.2
    density = strength * (0.45 * thick * (0.4 + clouds) + lit * (0.3 + 0.7 * thick))
    density *= 1 - 0.8 * np.clip((dust - 0.55) / 0.3, 0, 1) ** 1.5  # dark dust in front of the glow
    stops = np.linspace(0, 1, len(palette))
    along = np.clip(0.3 + 0.35 * hue + 0.45 * density, 0, 1)
    colour = np.stack([np.interp(along, stops, [c[i] for c in palette]) for i in range(3)], -1)
    base = np.asarray(palette[0], np.float32)
    covered = np.clip(density * 1.4, 0, 1)[..., None]
    image = base * (1 - covered) + colour * covered
    result: Any = (np.clip(image, 0, 1) * 255 + 0.5).astype(np.uint8)
    return result


def _spread(field: Any) -> Any:
    """`field` stretched to fill [0, 1]: noise clusters about its middle, and thresholds need it the same for every
    seed."""
    low, high = float(field.min()), float(field.max())
    return (field - low) / max(high - low, 1e-6)


def _fractal(r: random.Random, width: int, height: int, cells: float, octaves: int, gain: float = 0.5) -> Any:
    """Fractal value noise in [0, 1]: octaves of random lattices, each finer and fainter, smoothly interpolated."""
    import numpy as np
    from PIL import Image

    total = np.zeros((height, width), np.float32)
    amplitude, weight, longest = 1.0, 0.0, max(width, height)
    for octave in range(octaves):
        across = cells * 2.03**octave
        columns = max(2, math.ceil(across * width / longest) + 2)
        rows = max(2, math.ceil(across * height / longest) + 2)
        lattice = np.frombuffer(r.randbytes(columns * rows * 4), "<u4").reshape(rows, columns) / 2**32
        spread = Image.fromarray(lattice.astype(np.float32), "F").resize((width, height), Image.Resampling.BICUBIC)
        total += np.asarray(spread) * amplitude
        weight += amplitude
        amplitude *= gain
    result: Any = np.clip(total / weight, 0, 1)
    return result


def _warped(field: Any, margin: int, dx: Any, dy: Any) -> Any:
    """The middle of `field` (`margin` pixels in from each edge, the size of `dx`) sampled at each pixel moved by
    (dx, dy) pixels, bilinearly; moves are at most `margin`, so no sample falls outside."""
    import numpy as np

    height, width = dx.shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    x = np.clip(xs + margin + dx, 0, field.shape[1] - 1.001)
    y = np.clip(ys + margin + dy, 0, field.shape[0] - 1.001)
    x0, y0 = x.astype(np.int32), y.astype(np.int32)
    fx, fy = x - x0, y - y0
    top = field[y0, x0] * (1 - fx) + field[y0, x0 + 1] * fx
    bottom = field[y0 + 1, x0] * (1 - fx) + field[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy
