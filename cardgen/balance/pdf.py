"""The report as a PDF (reportlab's platypus): the same sections, tables and plots as the HTML page, the plots as
the PNGs matplotlib drew, in the bundled Noto Sans so every sign (±, –, ≥) prints."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from cardgen.balance.document import Section, Table
from cardgen.balance.plots import Plot
from cardgen.paths import default_fonts_dir

PAGE_MARGIN = 42  # points


@cache
def _fonts() -> tuple[str, str]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    fonts = default_fonts_dir()
    pdfmetrics.registerFont(TTFont("BalanceSans", str(fonts / "NotoSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("BalanceSans-Bold", str(fonts / "NotoSans-Bold.ttf")))
    return "BalanceSans", "BalanceSans-Bold"


def render(title: str, sections: list[Section]) -> bytes:
    """The whole PDF, as bytes."""
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=A4, title=title, author="cardgen balance", invariant=True,
        leftMargin=PAGE_MARGIN, rightMargin=PAGE_MARGIN, topMargin=PAGE_MARGIN, bottomMargin=PAGE_MARGIN,
    )  # fmt: skip
    styles = _styles()
    story: list[Any] = [_paragraph(title, styles["title"])]
    for section in sections:
        story += _section(section, styles, doc.width)
    doc.build(story)
    return buffer.getvalue()


def _styles() -> dict[str | int, Any]:
    from reportlab.lib.styles import ParagraphStyle

    regular, bold = _fonts()
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=18, leading=22, spaceAfter=10),
        2: ParagraphStyle("h2", fontName=bold, fontSize=14, leading=18, spaceBefore=14, spaceAfter=6),
        3: ParagraphStyle("h3", fontName=bold, fontSize=11.5, leading=15, spaceBefore=10, spaceAfter=4),
        "body": ParagraphStyle("body", fontName=regular, fontSize=9, leading=12, spaceAfter=4),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=7, leading=8.5),
        "head": ParagraphStyle("head", fontName=bold, fontSize=7, leading=8.5),
    }


def _paragraph(text: str, style: Any) -> Any:
    from xml.sax.saxutils import escape

    from reportlab.platypus import Paragraph

    return Paragraph(escape(text), style)


def _section(section: Section, styles: dict[Any, Any], width: float) -> list[Any]:
    flow: list[Any] = [_paragraph(section.title, styles[section.level])]
    for block in section.blocks:
        if isinstance(block, Table):
            flow.append(_table(block, styles, width))
        elif isinstance(block, Plot):
            flow.append(_image(block, width))
        else:
            flow.append(_paragraph(block, styles["body"]))
    return flow


def _table(table: Table, styles: dict[Any, Any], width: float) -> Any:
    from reportlab.lib import colors
    from reportlab.platypus import Table as Grid
    from reportlab.platypus import TableStyle

    rows = [[_paragraph(cell, styles["head"]) for cell in table.header]]
    rows += [[_paragraph(cell, styles["cell"]) for cell in row] for row in table.rows]
    grid = Grid(rows, colWidths=_widths(table, width), repeatRows=1)
    grid.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#c9cfdb")),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef2f8")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]))  # fmt: skip
    return grid


def _widths(table: Table, width: float) -> list[float]:
    """Columns as wide as their longest text wants, within bounds, sharing the page's width."""
    longest = [max(len(word) for row in [table.header, *table.rows] for word in row[i].split() or [""])
               for i in range(len(table.header))]  # fmt: skip
    widest = [max((len(row[i]) for row in table.rows), default=0) for i in range(len(table.header))]
    wants = [min(45, max(3, longest[i], 0.6 * widest[i])) for i in range(len(table.header))]
    return [width * want / sum(wants) for want in wants]


def _image(plot: Plot, width: float) -> Any:
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus import Image

    pixels_wide, pixels_high = ImageReader(io.BytesIO(plot.png)).getSize()
    shown = min(width, pixels_wide * 72 / 150)  # drawn at 150 dpi
    return Image(io.BytesIO(plot.png), width=shown, height=shown * pixels_high / pixels_wide)
