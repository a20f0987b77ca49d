"""Pages of a PDF rendered with pdfium, each page and bitmap closed at once.

pypdfium2 closes a page or bitmap nobody closed from a garbage-collector finalizer, at whatever moment its last
reference goes. Ctrl-C or SIGTERM arriving inside such a finalizer raises there, where Python swallows the exception
and prints "Exception ignored in: <finalize object …>" with a traceback — a build being stopped then says so with a
traceback on the terminal. Closing both explicitly, in the code that used them, keeps the interrupt where it
belongs (`tests/test_render_raster.py`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image


@contextlib.contextmanager
def rendered(document: Any, index: int, **options: Any) -> Iterator[Image.Image]:
    """Page `index` of a `pypdfium2.PdfDocument` rendered with `PdfPage.render`'s `options`, as a PIL image valid
    inside the block only (it may share the bitmap's buffer); the page and its bitmap are closed as the block ends."""
    page = document[index]
    try:
        bitmap = page.render(**options)
        try:
            yield bitmap.to_pil()
        finally:
            bitmap.close()
    finally:
        page.close()


def render_page(document: Any, index: int, **options: Any) -> Image.Image:
    """The page as `rendered` gives it, copied into an image that owns its pixels (for an image kept after)."""
    with rendered(document, index, **options) as image:
        return image.copy()
