"""The report as one self-contained HTML page: inline SVG plots and an inline style sheet, nothing loaded from
anywhere else (no scripts, no fonts, no images by address), so it opens offline and can be mailed as one file."""

from __future__ import annotations

from html import escape

from cardgen.balance.document import Section, Table
from cardgen.balance.plots import Plot

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; color: #1d2433; max-width: 68rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.5rem; border-bottom: 2px solid #2f6db5; } h3 { margin-top: 1.8rem; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.85rem; }
th, td { border: 1px solid #c9cfdb; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #eef2f8; } td { font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.85rem; color: #56607a; }
#timing td { color: #56607a; }
"""


def render(title: str, sections: list[Section]) -> bytes:
    """The whole page, as UTF-8 bytes."""
    body = "\n".join(_section(section) for section in sections)
    page = (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<style>{STYLE}</style>\n</head>\n'
        f"<body>\n<h1>{escape(title)}</h1>\n{body}\n</body>\n</html>\n"
    )
    return page.encode("utf-8")


def _section(section: Section) -> str:
    parts = [f"<h{section.level}>{escape(section.title)}</h{section.level}>"]
    for block in section.blocks:
        if isinstance(block, Table):
            parts.append(_table(block))
        elif isinstance(block, Plot):
            parts.append(f'<figure id="plot-{escape(block.name)}">{block.svg}<figcaption>{escape(block.title)}'
                         "</figcaption></figure>")  # fmt: skip
        else:
            parts.append(f"<p>{escape(block)}</p>")
    return "\n".join(parts)


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(cell)}</th>" for cell in table.header)
    rows = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>\n" for row in table.rows)
    ident = f' id="{escape(table.name)}"' if table.name else ""
    return f"<table{ident}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>"
