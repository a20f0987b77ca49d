"""`cardgen icons --sheet FILE.png`: the icon library's icons on a contact sheet, each above its name.

The sheet is drawn as one PDF page with the icons' own vector painter (what a layout prints) and rasterised with
pdfium, so it shows the icons as cards will print them.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from cardgen.render import raster
from cardgen.render.library import LibraryIcon, library_painter
from cardgen.render.raster import rendered

COLUMNS = 10
CELL = 72.0  # points: an icon cell, its icon 40 pt square above a line of its name
ICON = 40.0
LABEL_PT = 6.5
DPI = 150


def contact_sheet(icons: Sequence[LibraryIcon], font: str) -> bytes:
    """A PNG of `icons` in a grid of COLUMNS, each with its name in `font` (a registered reportlab font)."""
    import pypdfium2 as pdfium

    columns = max(1, min(COLUMNS, len(icons)))
    rows = max(1, math.ceil(len(icons) / columns))
    width, height = columns * CELL, rows * CELL
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1)
    ink = Color(0.1, 0.12, 0.16)
    for index, icon in enumerate(icons):
        column, row = index % columns, index // columns
        left, top = column * CELL, height - row * CELL
        library_painter(icon, lambda _name: ink)(canvas, left + (CELL - ICON) / 2, top - 8 - ICON, ICON, "ink")
        size = LABEL_PT
        while size > 3 and stringWidth(icon.name, font, size) > CELL - 4:
            size -= 0.25
        canvas.setFont(font, size)
        canvas.setFillColor(ink)
        canvas.drawCentredString(left + CELL / 2, top - CELL + 9, icon.name)
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        with rendered(document, 0, scale=DPI / 72, fill_color=(255, 255, 255, 255)) as page:
            image = page.convert("RGB")
    finally:
        raster.close(document)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
