"""Pages rendered with pdfium are closed by the code that used them, never by a garbage-collector finalizer: an
interrupt arriving inside a finalizer is swallowed with a traceback on the terminal (a fresh-clone CI run saw
`Exception ignored in: <finalize object …>` under a SIGTERM test)."""

from __future__ import annotations

import io
import sys

import pytest
from reportlab.pdfgen.canvas import Canvas

from cardgen.render import ink, raster


def _pdf(pages: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(72, 72), invariant=1)
    for number in range(pages):
        canvas.setFillGray(number / pages)
        canvas.rect(0, 0, 36, 72, stroke=0, fill=1)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


@pytest.fixture
def closes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each page and bitmap pdfium closed was closed explicitly (a `close` of pypdfium2's on the stack)."""
    import pypdfium2.raw as pdfium_c

    seen: list[bool] = []

    def watching(original):
        def close(raw):
            frame, explicit = sys._getframe(1), False
            while frame is not None:
                explicit |= frame.f_code.co_name == "close" and "pypdfium2" in frame.f_code.co_filename
                frame = frame.f_back
            seen.append(explicit)
            return original(raw)

        return close

    for name in ("FPDF_ClosePage", "FPDFBitmap_Destroy"):
        monkeypatch.setattr(pdfium_c, name, watching(getattr(pdfium_c, name)))
    return seen


def test_the_ink_measure_closes_every_page_and_bitmap_itself(closes: list[bool]) -> None:
    shares = ink.coverage(_pdf(4))
    assert len(shares) == 4 and shares[0] > shares[3]  # black on the first page, light grey on the last
    assert len(closes) == 8 and all(closes), closes  # 4 pages and 4 bitmaps, none left to a finalizer


def test_a_rendered_page_owns_its_pixels(closes: list[bool]) -> None:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(_pdf(2))
    try:
        image = raster.render_page(document, 1, scale=1, grayscale=True)
    finally:
        document.close()
    assert image.size == (72, 72) and image.getpixel((60, 36)) == 255 and image.getpixel((10, 36)) < 200
    assert closes == [True, True]


def test_a_stop_inside_pdfiums_close_waits_until_the_page_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM arriving as pdfium closes a page: pypdfium2 forgets an object only once it is closed, and a stop raised
    in between left the page in its tracker, which printed "Weakref … was not cleaned up from ObjectTracker?" under
    the build's last line as the process ended (a SIGTERM test's build saw it). The stop is raised once the page and
    its bitmap are closed, and nothing is left in the tracker."""
    import signal
    import threading

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c
    from pypdfium2.internal import bases

    from cardgen import stopping

    closing = pdfium_c.FPDF_ClosePage

    def close(raw):  # the signal comes while pdfium closes the page, to this thread: a signal sent to the process
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)  # may land in another (an xdist worker's), and
        return closing(raw)  # be seen only after the test

    monkeypatch.setattr(pdfium_c, "FPDF_ClosePage", close)
    document = pdfium.PdfDocument(_pdf(1))
    try:
        before = {kind: set(refs) for kind, refs in bases.ObjectTracker.items()}
        with (
            stopping.handling(),
            pytest.raises(stopping.Terminated),
            raster.rendered(document, 0, scale=1, grayscale=True) as image,
        ):
            assert image.size == (72, 72)
        left = [ref for kind, refs in bases.ObjectTracker.items() for ref in refs - before.get(kind, set())]
        assert left == [], left
    finally:
        raster.close(document)
