"""The print guide: `output/<game>/PRINT.md` and `print-guide.pdf`, telling a player how to print what was built.

A folder of PDFs does not say which ones need double-sided printing, which are folded, what to buy, or in what order
to cut. The guide lists every file with its pages, sheets of paper and how to print it (from the way each was
imposed, `OutputFile.sides`), the pieces to buy, and the order to cut and assemble.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgen.data.games import Game
from cardgen.output import write_atomic
from cardgen.render.jobs import SIDES_NOTE, OutputFile, PrintOptions
from cardgen.render.library import credit

HOW = {
    "long-edge": "double-sided, flip on the long edge",
    "short-edge": "double-sided, flip on the short edge",
    "single": "single-sided",
    "fold": "single-sided; fold and glue",
    "backs-after": "single-sided; backs on their own pages",
    "tiled": "single-sided; a board over several pages",
}


# Why cards butt (no default gutter), for the player who cuts: measured on the bundled games, neighbours whose edges
# are both dark and differ are few (Battlefield's fronts, Space Empires 4X's counters in player colours), and a
# gutter wide enough for the usual 1/16 in cutting drift doubles every shared cut and costs counters a quarter of
# each sheet (docs/DEVELOPING.md, issue 20).
BUTTED = (
    "Cards and square counters share cut lines: cut on the line. If your cuts drift (a sliver of the neighbour "
    "shows), rebuild with `--gutter 3.2`."
)


def sheets_of_paper(file: OutputFile) -> int:
    return (file.pages + 1) // 2 if file.sides in ("long-edge", "short-edge") else file.pages


def ink_of(file: OutputFile) -> str:
    """A file's ink coverage as the guide prints it: the mean over its pages and its darkest page."""
    if not file.ink:
        return "–"
    mean = round(100 * sum(file.ink) / len(file.ink))
    return f"{mean} %" if len(file.ink) == 1 else f"{mean} % (darkest page {round(100 * max(file.ink))} %)"


def guide_lines(game: Game, files: list[OutputFile], options: PrintOptions) -> list[str]:
    """The guide as Markdown lines."""
    paper = options.paper.upper() if options.paper == "a4" else options.paper.title()
    duplex = [f for f in files if f.sides in ("long-edge", "short-edge")]
    lines = [
        f"# How to print {game.title}",
        "",
        f'Paper: {paper}. Print every file at **actual size** (100 %, never "fit to page": that shrinks every '
        "piece). Each file holds every copy the game needs: print each once.",
        "",
        "| file | pages | sheets of paper | how to print | ink |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {f.path.name} | {f.pages} | {sheets_of_paper(f)} | {HOW[f.sides]} | {ink_of(f)} |" for f in files]
    total = sum(sheets_of_paper(f) for f in files)
    lines += ["", f"In all: {len(files)} files, {sum(f.pages for f in files)} pages, {total} sheets of paper."]
    shared = [f"{f.path.name} also holds {', '.join(f.holds)}" for f in files if f.holds]
    if shared:
        lines += ["", "Small components share sheets: " + "; ".join(shared) + "."]
    lines += ["", _ink_note(options)]
    pieces = [c for c in game.components if c.kind == "pieces"]
    if pieces:
        lines += ["", "## Pieces to buy or borrow (not printed)", ""]
        lines += [f"- {c.title}" + (f": {c.ref.description}" if c.ref.description else "") for c in pieces]
    lines += ["", "## Cut and assemble, in this order", ""]
    steps = []
    if duplex:
        steps.append(
            "Before the double-sided files, print `cardgen calibrate` (the same paper and flip) and read your "
            "printer's offset; rebuild with `--back-offset X,Y` so backs land behind their fronts."
        )
    steps.append("Print each file as the table says.")
    if any(f.sides == "fold" for f in files):
        steps.append(
            "Fold-and-glue sheets: fold along the dashed line first, glue the two halves together (a thin even coat, "
            "or spray glue), press flat and let dry; cut only then, so fronts and backs stay together."
        )
    if any(f.sides == "backs-after" for f in files):
        steps.append("Backs on their own pages: glue each back page behind its front page before cutting.")
    steps.append(
        "Cut along the crop marks in the margins: first every cut that runs across the whole sheet, then the short "
        "ones. Round and hex pieces: cut along their outline."
    )
    stacked = [f.path.name for f in files if f.stacked]
    if stacked:
        steps.append(
            f"The last sheets of {', '.join(stacked)} hold pieces of two sizes: first cut across the white band "
            "between them."
        )
    butted = any(c.printed and c.kind != "sheets" and c.shape == "rect" for c in game.components)
    if butted and options.gutter == 0:
        steps.append(BUTTED)
    if any(f.sides == "tiled" for f in files):
        steps.append("Boards: trim each page to its crosshairs, lay the pages edge to edge and tape them from behind.")
    lines += [f"{n}. {step}" for n, step in enumerate(steps, 1)]
    if thanks := credit(name for f in files for name in f.library_icons):
        lines += ["", "## Credits", "", f"{thanks}."]
    return lines


def _ink_note(options: PrintOptions) -> str:
    if options.ink == "light":
        return (
            "Ink: the share of each page the printer covers. Built with `--ink light`: backs in their light designs "
            "(outlines and pale tints on white), other large dark areas as pale tints inside an outline."
        )
    return (
        "Ink: the share of each page the printer covers. On a home printer, rebuild with `--ink light` to print "
        "backs in their light designs and other large dark areas as pale tints inside an outline."
    )


def write_guide(
    game: Game, files: list[OutputFile], options: PrintOptions, folder: Path, font: str, stale: Sequence[str] = ()
) -> list[Path]:
    """Write PRINT.md and a print-guide.pdf of the same text into `folder`; return their paths. `stale` is the last
    section: the earlier files moved aside (render/stale.py)."""
    lines = guide_lines(game, files, options) + (["", *stale] if stale else [])
    markdown = folder / "PRINT.md"
    write_atomic(markdown, ("\n".join(lines) + "\n").encode("utf-8"))
    pdf = folder / "print-guide.pdf"
    write_atomic(pdf, _pdf(game, lines, options, font))
    return [markdown, pdf]


def _pdf(game: Game, lines: list[str], options: PrintOptions, font: str) -> bytes:
    """The guide as a page or two of text and one table, set with the game's body font."""
    from xml.sax.saxutils import escape

    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    from cardgen.units import MM

    body = ParagraphStyle("body", fontName=font, bulletFontName=font, fontSize=10, leading=13, spaceAfter=4)
    heading = ParagraphStyle("heading", parent=body, fontSize=15, leading=19, spaceAfter=8)
    sub = ParagraphStyle("sub", parent=body, fontSize=12, leading=16, spaceBefore=8)
    cell = ParagraphStyle("cell", parent=body, fontSize=9, leading=11, spaceAfter=0)  # a game's files on one page

    def inline(text: str) -> str:
        text = escape(text)
        while "**" in text:
            text = text.replace("**", "<b>", 1).replace("**", "</b>", 1)
        while "`" in text:  # commands in bold: a monospace font would be one more (unembedded) font
            text = text.replace("`", "<b>", 1).replace("`", "</b>", 1)
        return text

    story: list[Any] = []
    rows: list[list[str]] = []
    for line in lines:
        if line.startswith("| ") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
            continue
        if rows:
            widths = [w * (options.paper_size.width - 36) * MM for w in (0.27, 0.08, 0.1, 0.29, 0.26)]
            table = Table([[Paragraph(inline(c), cell) for c in row] for row in rows], widths, repeatRows=1)
            rules = [
                ("FONTNAME", (0, 0), (-1, -1), font),  # else Table sets an unembedded Helvetica
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.2, colors.grey),
            ]
            table.setStyle(TableStyle(rules))
            story += [table, Spacer(1, 6)]
            rows = []
        if line.startswith("# "):
            story.append(Paragraph(f"<b>{inline(line[2:])}</b>", heading))
        elif line.startswith("## "):
            story.append(Paragraph(f"<b>{inline(line[3:])}</b>", sub))
        elif line and not line.startswith("|---"):
            story.append(Paragraph(inline(line), body))
    buffer = io.BytesIO()
    size = options.paper_size.points
    document = SimpleDocTemplate(buffer, pagesize=size, leftMargin=18 * MM, rightMargin=18 * MM, topMargin=18 * MM,
                                 bottomMargin=18 * MM, title=f"{game.title} — how to print",
                                 subject=SIDES_NOTE["single"], creator="cardgen", invariant=1,
                                 initialFontName=font)  # fmt: skip
    document.build(story)
    return buffer.getvalue()
