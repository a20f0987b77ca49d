"""Pages of a PDF rendered with pdfium, each page and bitmap closed at once.

pypdfium2 closes a page or bitmap nobody closed from a garbage-collector finalizer, at whatever moment its last
reference goes. Ctrl-C or SIGTERM arriving inside such a finalizer raises there, where Python swallows the exception
and prints "Exception ignored in: <finalize object …>" with a traceback — a build being stopped then says so with a
traceback on the terminal. Closing both explicitly, in the code that used them, keeps the interrupt where it
belongs (`tests/test_render_raster.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image


def render_page(document: Any, index: int, **options: Any) -> Image.Image:
    """Page `index` of a `pypdfium2.PdfDocument` rendered with `PdfPage.render`'s `options`, as a PIL image that owns
    its pixels; the page and its bitmap are closed before this returns."""
    page = document[index]
    try:
        bitmap = page.render(**options)
        try:
            image: Image.Image = bitmap.to_pil().copy()  # to_pil may share the bitmap's buffer
            return image
        finally:
            bitmap.close()
    finally:
        page.close()
