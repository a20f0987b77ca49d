"""Pages of a PDF rendered with pdfium, each page and bitmap closed at once.

pypdfium2 closes a page or bitmap nobody closed from a garbage-collector finalizer, at whatever moment its last
reference goes. Ctrl-C or SIGTERM arriving inside such a finalizer raises there, where Python swallows the exception
and prints "Exception ignored in: <finalize object …>" with a traceback — a build being stopped then says so with a
traceback on the terminal. Closing both explicitly, in the code that used them, keeps the interrupt where it
belongs (`tests/test_render_raster.py`). They are closed with Ctrl-C and SIGTERM held (`close`): pypdfium2 forgets
an object only after closing it, and a stop raised in between left it in pypdfium2's tracker, which said so on the
terminal as the process ended ("Weakref … was not cleaned up from ObjectTracker?").
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
            close(bitmap)
    finally:
        close(page)


def close(*opened: Any) -> None:
    """Close pypdfium2 objects (documents, pages, bitmaps) in turn, a Ctrl-C or SIGTERM that arrives meanwhile
    raised once they are closed."""
    from cardgen import stopping

    with stopping.held():
        for thing in opened:
            thing.close()


def render_page(document: Any, index: int, **options: Any) -> Image.Image:
    """The page as `rendered` gives it, copied into an image that owns its pixels (for an image kept after)."""
    with rendered(document, index, **options) as image:
        return image.copy()
