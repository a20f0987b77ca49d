"""The report as a PDF (reportlab's platypus): the same sections, tables and plots as the HTML page, the plots as
the PNGs matplotlib drew, in the bundled Noto Sans so every sign (±, –, ≥) prints."""

from __future__ import annotations

import io
from typing import Any

from cardgen.balance.document import Section, Table
from cardgen.balance.plots import Plot
from cardgen.paths import default_fonts_dir

PAGE_MARGIN = 42  # points


def _fonts() -> tuple[str, str]:
    """The report's fonts, registered with reportlab — again if its registry was reset since (`fonts.forget`)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if "BalanceSans-Bold" not in pdfmetrics.getRegisteredFontNames():
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
    from reportlab.platypus import Spacer

    flow: list[Any] = [_paragraph(section.title, styles[section.level])]
    for block in section.blocks:
        if isinstance(block, Table):
            flow += [_table(block, styles, width), Spacer(1, 6)]
        elif isinstance(block, Plot):
            flow += [_image(block, width), Spacer(1, 6)]
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


def _widths(table: Table, width: float, size: float = 7) -> list[float]:
    """Each column at least as wide as its longest word (no word is broken), the page's width shared out by how
    much text each column holds beyond that."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    regular, bold = _fonts()
    padding = 13  # the cell's left and right padding (6 pt each) and the grid line

    def measure(text: str, header: bool) -> float:
        return float(stringWidth(text, bold if header else regular, size)) + padding

    columns = range(len(table.header))
    cells = [[(row[i], row is table.header) for row in [table.header, *table.rows]] for i in columns]
    least = [max(measure(word, head) for text, head in cell for word in text.split() or [""]) for cell in cells]
    whole = [max(measure(text, head) for text, head in cell) for cell in cells]
    spare, room = width - sum(least), [w - m for w, m in zip(whole, least, strict=True)]
    if spare <= 0 or not sum(room):
        return [m * width / sum(least) for m in least] if spare <= 0 else [m + spare / len(least) for m in least]
    share = min(1.0, spare / sum(room))
    widths = [m + r * share for m, r in zip(least, room, strict=True)]
    return [w + (width - sum(widths)) / len(widths) for w in widths]


def _image(plot: Plot, width: float) -> Any:
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus import Image

    pixels_wide, pixels_high = ImageReader(io.BytesIO(plot.png)).getSize()
    shown = min(width, pixels_wide * 72 / 150)  # drawn at 150 dpi
    return Image(io.BytesIO(plot.png), width=shown, height=shown * pixels_high / pixels_wide)
