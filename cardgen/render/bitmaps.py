"""Raster images checked before they are decoded: a 400 kB PNG can hold 400 megapixels."""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from cardgen import limits
from cardgen.errors import DataError


def open_unchecked(source: Path | BinaryIO) -> Any:
    """Open an image lazily (header only) without Pillow's own bomb check, so `check_pixels` can apply cardgen's
    limit with cardgen's message (Pillow would refuse above 179 megapixels with its own, or warn above 89)."""
    from PIL import Image

    saved = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None
    try:
        return Image.open(source)
    finally:
        Image.MAX_IMAGE_PIXELS = saved


def check_pixels(size: tuple[int, int], shown: str) -> None:
    """Refuse an image larger than the pixel limit before it is decoded (a 400 kB PNG can hold 400 megapixels)."""
    bound = limits.current().image_pixels
    pixels = size[0] * size[1]
    if pixels > bound:
        raise DataError(
            f"{shown}: image of {size[0]:,} × {size[1]:,} = {pixels:,} pixels is more than the limit of {bound:,} "
            "(--limit image_pixels=N)"
        )
