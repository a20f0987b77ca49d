"""Colours as printing inks: sRGB → CMYK through an ICC profile, with a total-ink limit.

This is the one place cardgen turns a colour into inks. The profile is `profiles/cardgen-fogra39-230.icc`, built
with ArgyllCMS from Fogra's FOGRA39L characterization data (coated paper, ISO 12647-2; the data as packaged by
Debian's icc-profiles-free, zlib licence — see `profiles/README.md`), separating for a total of at most 230 % ink
with a straight black ramp. Colours go through it with littleCMS (Pillow's ImageCms) from sRGB, relative colorimetric
with black point compensation: colours the press can print stay as they are, sRGB's black becomes the press's
darkest black, and colours beyond the press's gamut are clipped to its edge.

Then the shop's limit is enforced pixel by pixel (`limit_ink`): where cyan + magenta + yellow + black exceed it,
cyan, magenta and yellow shrink in proportion and black stays — the darkest colours lose a little saturation, never
their black. Text and thin lines of a neutral grey (r = g = b) print in black ink alone (`grey_as_black`), at the
black that matches their lightness in the profile: pure black type is K 100, which no misregistered plate can
blur. Only type stays vector (`render/pdfx.py`), so only type is affected.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

PROFILE = Path(__file__).parent / "profiles" / "cardgen-fogra39-230.icc"
PROFILE_INK = 230  # % the profile separates for at most
# The print condition the profile characterises, as PDF/X names it (a condition registered with the ICC).
CONDITION = "FOGRA39"
CONDITION_NAME = (
    "Offset printing, according to ISO 12647-2:2004/Amd 1, OFCOM, paper type 1 or 2 = coated art, 115 g/m2, "
    "tone value increase curves A (CMY) and B (K)"
)
REGISTRY = "http://www.color.org"

Inks = tuple[float, float, float, float]  # cyan, magenta, yellow, black: 0–1 each


@dataclass(frozen=True)
class Separation:
    """How a file's colours become inks: at most `ink_limit` % in total anywhere, encoded images with `margin` %
    to spare (a JPEG's decoded pixels wander a little from what was encoded)."""

    ink_limit: float = 240.0
    margin: float = 8.0

    @property
    def target(self) -> float:
        """The total ink (%) images and colours are separated to."""
        return min(PROFILE_INK, self.ink_limit - self.margin)

    def image(self, rgb: Image.Image) -> Image.Image:
        """An RGB image as CMYK inks within the limit."""
        from PIL import Image, ImageCms

        cmyk = ImageCms.applyTransform(rgb.convert("RGB"), _transform())
        assert cmyk is not None
        return Image.fromarray(limit_ink(_array(cmyk), self.target), "CMYK")

    def colour(self, red: float, green: float, blue: float, text: bool = False) -> Inks:
        """One colour (0–1 each) as inks; a neutral grey of text or lines (`text`) in black ink alone."""
        if text and red == green == blue:
            return (0.0, 0.0, 0.0, grey_as_black(red))
        return _colour(round(red * 255), round(green * 255), round(blue * 255), round(self.target, 3))


def limit_ink(pixels: Any, total: float) -> Any:
    """CMYK pixels (uint8 array, …×4) with at most `total` % ink each: cyan, magenta and yellow scaled down together
    where the sum is over, black kept."""
    import numpy as np

    budget = total * 255 / 100
    sums = pixels.sum(axis=-1, dtype=np.uint16)
    over = sums > budget
    if not over.any():  # the profile separates within 230 %: most images need nothing
        return pixels
    limited = pixels.copy()
    chosen = limited[over].astype(np.float64)
    room = np.clip(budget - chosen[:, 3], 0, None)
    chosen[:, :3] *= (room / np.maximum(chosen[:, :3].sum(axis=-1), 1e-9))[:, None]
    limited[over] = np.floor(chosen).astype(np.uint8)  # down, never up: rounding must not push a pixel over
    return limited


def total_ink(pixels: Any) -> Any:
    """Each CMYK pixel's total ink in % (uint8 array … ×4 → float array …)."""
    return pixels.sum(axis=-1, dtype="uint16") * (100 / 255)


def grey_as_black(level: float) -> float:
    """The black ink (0–1) whose lightness in the profile matches an sRGB grey `level` (0 black – 1 white)."""
    import numpy as np

    ramp, lightness = _black_ramp()
    wanted = _grey_lightness(level)
    # the ramp's lightness falls as black rises: interpolate on it reversed
    return float(np.interp(wanted, lightness[::-1], ramp[::-1]))


def _array(image: Image.Image) -> Any:
    import numpy as np

    return np.asarray(image, dtype=np.uint8).copy()


@functools.cache
def _transform() -> Any:
    from PIL import ImageCms

    source = ImageCms.createProfile("sRGB")
    target = ImageCms.getOpenProfile(str(PROFILE))
    return ImageCms.buildTransform(
        source, target, "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )  # fmt: skip


@functools.cache
def _colour(red: int, green: int, blue: int, target: float) -> Inks:
    from PIL import Image, ImageCms

    cmyk = ImageCms.applyTransform(Image.new("RGB", (1, 1), (red, green, blue)), _transform())
    assert cmyk is not None
    limited = limit_ink(_array(cmyk), target)[0, 0]
    return (int(limited[0]) / 255, int(limited[1]) / 255, int(limited[2]) / 255, int(limited[3]) / 255)


@functools.cache
def _black_ramp() -> tuple[Any, Any]:
    """Black ink 0–1 in 256 steps and the CIE L* each prints at in the profile."""
    import numpy as np
    from PIL import Image, ImageCms

    ramp = np.arange(256, dtype=np.uint8)
    strip = np.zeros((1, 256, 4), dtype=np.uint8)
    strip[0, :, 3] = ramp
    lab = ImageCms.applyTransform(Image.fromarray(strip, "CMYK"), _to_lab())
    assert lab is not None
    lightness = np.asarray(lab, dtype=np.float64)[0, :, 0] * 100 / 255
    return ramp / 255, lightness


def _grey_lightness(level: float) -> float:
    """CIE L* of an sRGB grey, scaled so that sRGB black is the profile's black (K 100) and white its paper."""
    import numpy as np

    linear = level / 12.92 if level <= 0.04045 else ((level + 0.055) / 1.055) ** 2.4
    star = 116 * linear ** (1 / 3) - 16 if linear > 0.008856 else 903.3 * linear
    _, lightness = _black_ramp()
    darkest, paper = float(np.min(lightness)), float(np.max(lightness))
    return darkest + star / 100 * (paper - darkest)


@functools.cache
def _to_lab() -> Any:
    from PIL import ImageCms

    return ImageCms.buildTransform(
        ImageCms.getOpenProfile(str(PROFILE)), ImageCms.createProfile("LAB"), "CMYK", "LAB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )  # fmt: skip


def to_rgb(cmyk: Image.Image) -> Image.Image:
    """CMYK pixels as sRGB through the profile (relative colorimetric, black point to black point): how a viewer
    soft-proofing the print shows it, for comparing with the RGB the inks were separated from."""
    from PIL import ImageCms

    rgb = ImageCms.applyTransform(cmyk, _to_rgb())
    assert rgb is not None
    return rgb


@functools.cache
def _to_rgb() -> Any:
    from PIL import ImageCms

    return ImageCms.buildTransform(
        ImageCms.getOpenProfile(str(PROFILE)), ImageCms.createProfile("sRGB"), "CMYK", "RGB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )  # fmt: skip
