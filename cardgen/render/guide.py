"""The print guide: `output/<game>/PRINT.md` and `print-guide.pdf`, for a person who has only the game's files.

A folder of PDFs does not say which ones need double-sided printing, which are folded, what paper each wants, what to
buy, or in what order to cut. The guide says it in a player's words — never a command of the tool that made the
files: every file with its pages, sheets of paper, how to print it (from the way each was imposed, `OutputFile.sides`)
and its ink; what to print on; card and sleeve sizes; the dice and pieces to buy (the game's `pieces` components,
each with the `buy` of its file); a checklist per component; the cutting and assembly steps that apply to this game's
pieces (no hex advice for a game without hexes); and the credits of the fonts and icons its files print. With
double-sided files it also writes `calibration.pdf` (`render/calibrate.py`), the page to print first.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.data.games import Component, Game
from cardgen.output import pending, write_atomic
from cardgen.paths import default_fonts_dir
from cardgen.render.jobs import DUPLEX, SIDES_NOTE, OutputFile, PrintOptions
from cardgen.render.jobs import LIGHT_SUFFIX as LIGHT
from cardgen.render.library import credit
from cardgen.units import Size, paper_label

HOW = {
    "long-edge": "double-sided, flip on the long edge",
    "short-edge": "double-sided, flip on the short edge",
    "single": "single-sided",
    "fold": "single-sided; fold and glue",
    "backs-after": "single-sided; backs on their own pages",
    "tiled": "single-sided; a board over several pages",
}
CALIBRATION = "calibration.pdf"

# what each kind of piece is printed on (a board of several pages: see `_stock`)
STOCK = {
    "deck": "card stock, 200–300 g/m² (or 80–100 g/m² paper, sleeved with an old card behind each)",
    "counters": "80–120 g/m² paper, glued on 1.5–2 mm greyboard (chipboard) before cutting",
    "tiles": "80–120 g/m² paper, glued on 1.5–2 mm greyboard (chipboard) before cutting",
    "sheets": "80–100 g/m² paper",
}


@dataclass(frozen=True)
class Sleeve:
    """A standard card-sleeve size: the cards it is sold for and the sleeve's own outside size, in mm."""

    name: str
    card: tuple[float, float]
    outside: tuple[float, float]


# the common sizes sleeve makers sell (Mayday, Ultra Pro, Gamegenic name them so), smallest first
SLEEVES = (
    Sleeve("mini American", (41, 63), (43, 65)),
    Sleeve("mini European", (44, 68), (46, 71)),
    Sleeve("American", (57.5, 89), (59, 92)),
    Sleeve("European", (59, 92), (62, 95)),
    Sleeve("standard card game", (63.5, 88), (66, 91)),
    Sleeve("square", (70, 70), (73, 73)),
    Sleeve("large square", (80, 80), (83, 83)),
    Sleeve("tarot", (70, 120), (73, 123)),
)
PUNCHES_IN = (0.5, 0.625, 0.75, 1.0, 1.25, 1.5, 2.0)  # circle punches sold in craft shops, inches


def sleeve_for(card: Size) -> str:
    """The sleeves that fit a card of this trim size: the smallest standard size it slips into without rattling
    (at most 1 mm larger than the size the sleeve is sold for, at most 3 mm smaller), else the size to look for."""
    short, long = sorted((card.width, card.height))
    for sleeve in SLEEVES:
        width, height = sleeve.card
        if short <= width + 0.5 and long <= height + 1 and width - short <= 3 and height - long <= 3:
            return (
                f"{sleeve.name} sleeves ({_mm(width)} × {_mm(height)} mm cards; sleeves about {_pair(sleeve.outside)})"
            )
    return f"no standard size: sleeves of at least {_mm(short + 2.5)} × {_mm(long + 3)} mm, or none"


def punch_for(diameter: float) -> str | None:
    """The circle punch that cuts a round piece of this diameter (mm), within half a millimetre, if one is sold."""
    for inches in PUNCHES_IN:
        if abs(inches * 25.4 - diameter) <= 0.5:
            whole, part = divmod(inches, 1)
            name = {0.5: "1/2", 0.625: "5/8", 0.75: "3/4", 0.25: "1/4"}.get(part, "")
            label = f"{int(whole)} {name}".strip() if whole and name else (name or f"{int(whole)}")
            return f"a {label} in ({_mm(inches * 25.4)} mm) circle punch"
    return None


def ink_of(file: OutputFile) -> str:
    """A file's ink coverage as the guide prints it: the mean over its pages and its darkest page."""
    if not file.ink:
        return "–"
    mean = round(100 * sum(file.ink) / len(file.ink))
    return f"{mean} %" if len(file.ink) == 1 else f"{mean} % (darkest page {round(100 * max(file.ink))} %)"


def guide_lines(
    game: Game, files: list[OutputFile], options: PrintOptions, calibration: OutputFile | None = None,
    fonts: Sequence[str] = (),
) -> list[str]:  # fmt: skip
    """The guide as Markdown lines. `calibration`: the calibration page written beside the files; `fonts`: the
    credit lines of the fonts the files print (`font_credits`)."""
    paper = paper_label(options.paper)
    full = [f for f in files if not f.path.stem.endswith(LIGHT)]
    light = [f for f in files if f.path.stem.endswith(LIGHT)]
    listed = ([calibration] if calibration else []) + files
    lines = [
        f"# How to print {game.title}",
        "",
        f'Paper: {paper}. Print every file at **actual size** (100 %, never "fit to page": that shrinks every '
        "piece). Each file holds every copy the game needs: print each once.",
        "",
        *_needs(game, full, paper),
        "## The files",
        "",
        "| file | pages | sheets of paper | how to print | ink |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {f.path.name} | {f.pages} | {f.sheets_of_paper} | {HOW[f.sides]} | {ink_of(f)} |" for f in listed]
    lines += ["", f"In all: {_count(full)}." + (f" Light-ink versions: {_count(light)}." if light else "")]
    shared = [f"{f.path.name} also holds {', '.join(f.holds)}" for f in full if f.holds]
    if shared:
        lines += ["", "Small pieces share sheets: " + "; ".join(shared) + "."]
    lines += ["", _ink_note(options, bool(light))]
    lines += _sleeves(game)
    lines += _checklist(game, full)
    lines += ["", "## Cut and assemble, in this order", ""]
    lines += [f"{n}. {step}" for n, step in enumerate(_steps(game, full, options, calibration), 1)]
    lines += shops_section(game)
    thanks = [*fonts, *filter(None, [credit(name for f in files for name in f.library_icons)])]
    if thanks:
        lines += ["", "## Credits", "", *(f"- {line}." for line in thanks)]
    return lines


def shops_section(game: Game) -> list[str]:
    """Which files go to which print shop or virtual table, each deck by name (the files of a shop's own build)."""
    decks = [c for c in game.components if c.printed and c.kind == "deck"]
    if not decks:
        return []
    pdfs = ", ".join(f"shop/{c.id}.pdf" for c in decks)
    folders = ", ".join(f"shop-images/{c.id}/" for c in decks)
    return [
        "",
        "## Ordering printed cards",
        "",
        "| shop or table | send | what it is |",
        "|---|---|---|",
        f"| DriveThruCards | {pdfs} | one PDF per deck, CMYK PDF/X-1a, each card's back before its front, 1/8 in "
        "bleed |",
        f"| The Game Crafter | {folders} | one PNG per card face at 825 × 1125 px (poker), counts.csv: copies |",
        f"| MakePlayingCards | {folders} | one PNG per card face at 822 × 1122 px (poker), numbered in deck "
        "order, counts.csv |",
        "| Tabletop Playground | ttp/ | a package: Templates/ and Textures/ |",
        "| Tabletop Simulator | tts/ | a saved object with its images |",
    ]


def write_shop_guide(game: Game, files: list[OutputFile], options: PrintOptions, folder: Path, font: str) -> list[Path]:
    """PRINT.md and print-guide.pdf beside a shop's files: which file goes to the shop, as what."""
    shop = options.print_shop
    if shop is None:
        return []
    lines = [f"# {game.title} for {shop.name}", "", "| file | what to order | pages or images |", "|---|---|---|"]
    for file in files:
        component = next((c for c in game.components if c.id == file.component), None)
        if component is None:
            continue
        copies = sum(item.count for item in component.items)
        what = f"{component.title}: {copies} {'cards' if component.kind == 'deck' else 'pieces'}"
        lines.append(f"| {file.path.name}{'/' if file.path.suffix == '' else ''} | {what} | {file.pages} |")
    lines += shops_section(game)
    markdown, pdf = folder / "PRINT.md", folder / "print-guide.pdf"
    write_atomic(markdown, ("\n".join(lines) + "\n").encode("utf-8"))
    write_atomic(pdf, _pdf(game, lines, options, font))
    return [markdown, pdf]


def _count(files: Sequence[OutputFile]) -> str:
    pages, sheets = sum(f.pages for f in files), sum(f.sheets_of_paper for f in files)
    return f"{len(files)} files, {pages} pages, {sheets} sheets of paper"


def _needs(game: Game, files: list[OutputFile], paper: str) -> list[str]:
    """What to get before printing: paper and card stock for the kinds of piece printed (sheets of each), greyboard,
    the pieces to buy with their counts (from the game's data), and the tools."""
    kinds = {c.id: c.kind for c in game.components}
    on_card = sum(f.sheets_of_paper for f in files if kinds.get(f.component) == "deck")
    on_paper = sum(f.sheets_of_paper for f in files) - on_card
    calibrating = any(f.sides in DUPLEX for f in files)
    if on_paper:
        needs = [f"Paper, 80–100 g/m²: {_sheets(on_paper)} of {paper}" + (" (and one for the calibration page)."
                                                                          if calibrating else ".")]  # fmt: skip
    else:  # every file goes on card stock: paper only for the calibration page, if any
        needs = [f"Paper, 80–100 g/m²: one sheet of {paper}, for the calibration page."] if calibrating else []
    if on_card:
        needs.append(f"Card stock, 200–300 g/m²: {_sheets(on_card)} of {paper}, for the cards (or paper and sleeves).")
    where = {name: f for f in files for name in (f.component, *f.holds)}
    mounted = [where[c.id].sides for c in game.components if c.kind in ("counters", "tiles") and c.id in where]
    if any(sides != "fold" for sides in mounted):
        needs.append("Greyboard (chipboard), 1–2 mm, and a glue stick or spray glue, to mount counters and tiles.")
    elif mounted:
        needs.append("Glue (stick or spray) for the fold-and-glue counters; 1 mm greyboard in the fold if you like.")
    for pieces in (c for c in game.components if c.kind == "pieces" and c.items):
        what = pieces.spec.buy if pieces.spec and pieces.spec.buy else pieces.title
        each = ", ".join(f"{i.count} {i.id.replace('_', ' ').replace('-', ' ')}" for i in pieces.items)
        needs.append(f"To buy: {pieces.count} × {what}" + (f" ({each})" if len(pieces.items) > 1 else "") + ".")
    tools = "A craft knife, a metal ruler and a cutting mat (or good scissors)"
    if any(f.sides in ("fold", "tiled", "backs-after") for f in files):
        tools += "; glue" + (", and tape for the boards" if any(f.sides == "tiled" for f in files) else "")
    needs.append(tools + ".")
    return ["## What you need", "", *(f"- {need}" for need in needs), ""]


def _sheets(count: int) -> str:
    return f"{count} sheet" if count == 1 else f"{count} sheets"


def _ink_note(options: PrintOptions, twins: bool) -> str:
    note = "Ink: the share of each page the printer covers."
    if twins:
        return note + (
            f" A file with a `{LIGHT}.pdf` version beside it can be printed that way instead, for home printers: "
            "the same pieces with pale backs and tints instead of large dark areas (files without one have no large "
            "dark areas). Print either a file or its light-ink version, not both."
        )
    if options.ink == "light":
        return note + " These files print backs and other large dark areas as pale tints inside an outline."
    return note


def _sleeves(game: Game) -> list[str]:
    decks = [c for c in game.components if c.printed and c.kind == "deck" and c.box is not None]
    if not decks:
        return []
    rows = [f"| {c.title} | {c.count} | {_pair((c.box.width, c.box.height))} | {sleeve_for(c.box)} |"
            for c in decks if c.box is not None]  # fmt: skip
    return ["", "## Cards and sleeves", "", "| cards | count | size | sleeves |", "|---|---|---|---|", *rows]


def _checklist(game: Game, files: list[OutputFile]) -> list[str]:
    """One line per printed component: its file and pages, what to print it on, how to cut it, how many."""
    where: dict[str, OutputFile] = {}
    for file in files:
        for name in (file.component, *file.holds):
            where.setdefault(name, file)
    lines = ["", "## Checklist, component by component", ""]
    for component in (c for c in game.components if c.printed and c.id in where):
        file = where[component.id]
        pages = f"{file.pages} page{'s' if file.pages != 1 else ''}"
        guest = component.id != file.component
        pages = f"the last sheet of {file.path.name}" if guest else f"{file.path.name}, {pages}"
        stock = "the paper of that file" if guest else _stock(component, file)
        if guest and component.kind in ("counters", "tiles") and file.sides != "fold":
            stock += ", glued on greyboard before cutting"
        size = (
            f" of {_pair((component.box.width, component.box.height))}"
            if component.box and component.kind != "sheets"
            else ""
        )
        lines.append(
            f"- [ ] **{component.title}** — {component.count} {_noun(component)}{size}: {pages}, {HOW[file.sides]}, "
            f"on {stock}; {_cut(component, file)}."
        )
    return lines


def _noun(component: Component) -> str:
    one = {"deck": "card", "counters": "counter", "tiles": "tile", "sheets": "sheet"}[component.kind]
    return one if component.count == 1 else f"{one}s"


def _stock(component: Component, file: OutputFile) -> str:
    if file.sides == "tiled":
        return "160–200 g/m² paper (or 80–100 g/m² glued on greyboard for a flat board)"
    if file.sides == "fold" and component.kind != "deck":
        return "80–100 g/m² paper (a sheet of 1 mm greyboard in the fold makes sturdy counters)"
    return STOCK[component.kind]


def _cut(component: Component, file: OutputFile) -> str:
    if file.sides == "tiled":
        return "trim at the crosshairs and join the pages"
    if component.kind == "sheets" and component.size is None:
        return "no cutting"
    if component.shape == "round" and component.box is not None:
        punch = punch_for(component.box.width)
        return f"cut round ({_mm(component.box.width)} mm" + (f"; {punch} does it" if punch else "") + ")"
    if component.shape == "hex":
        return "cut the six sides of each hex"
    return "cut on the crop marks"


def _steps(game: Game, files: list[OutputFile], options: PrintOptions, calibration: OutputFile | None) -> list[str]:
    """The cutting and assembly steps that apply to this game's pieces, in order."""
    printed = [c for c in game.components if c.printed]
    steps = []
    if calibration is not None:
        flip = "long" if calibration.sides == "long-edge" else "short"
        steps.append(
            f"First print {CALIBRATION} double-sided (flip on the {flip} edge). Pierce the centre of each cross on "
            "the front with a pin and read on the back where the holes land. Within 1 mm of the targets: your "
            "printer lines backs up well enough. Further off: set your printer's back-side (duplex) position "
            "adjustment by the amounts read, if it has one; the cards' bleed hides up to 2 mm."
        )
    steps.append("Print each file as the table says, on the paper the checklist names.")
    where = {name: f for f in files for name in (f.component, *f.holds)}
    if any(c.kind in ("counters", "tiles") and where[c.id].sides != "fold" for c in printed if c.id in where):
        steps.append(
            "Counters and tiles: glue each printed sheet on greyboard (for double-sided ones, the front on one face "
            "and the back page exactly behind it), press flat under books and let dry before cutting."
        )
    if any(f.sides == "fold" for f in files):
        steps.append(
            "Fold-and-glue sheets: fold along the dashed line first, glue the two halves together (a thin even "
            "coat, or spray glue; a sheet of greyboard between them makes sturdy counters), press flat and let "
            "dry; cut only then, so fronts and backs stay together."
        )
    if any(f.sides == "backs-after" for f in files):
        steps.append("Backs on their own pages: glue each back page behind its front page before cutting.")
    if any(c.kind != "sheets" or c.size is not None for c in printed):
        steps.append(
            "Cut along the crop marks in the margins: first every cut that runs across the whole sheet, then the "
            "short ones."
        )
    if any(c.shape == "round" for c in printed):
        steps.append("Round pieces: cut along their circle, or use a circle punch of their size.")
    if any(c.shape == "hex" for c in printed):
        steps.append("Hex pieces: cut the long straight lines first, then the six sides of each hex.")
    stacked = [f.path.name for f in files if f.stacked]
    if stacked:
        steps.append(
            f"The last sheets of {', '.join(stacked)} hold pieces of two sizes: first cut across the white band "
            "between them."
        )
    butted = any(c.kind != "sheets" and c.shape == "rect" for c in printed)
    if butted and options.gutter == 0:
        steps.append("Cards and square counters share cut lines: cut exactly on the line; one cut frees two pieces.")
    if any(f.sides == "tiled" for f in files):
        steps.append("Boards: trim each page to its crosshairs, lay the pages edge to edge and tape them from behind.")
    if any(c.kind == "deck" for c in printed):
        steps.append("Cards: round the corners with a corner punch if you have one, and sleeve them if you like.")
    return steps


def _mm(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _pair(size: tuple[float, float]) -> str:
    return f"{_mm(size[0])} × {_mm(size[1])} mm"


# --- credits -------------------------------------------------------------------------------------------------------

FONT_NAME = re.compile(rb"/BaseFont\s*/(?:[A-Z]{6}\+)?([A-Za-z0-9_-]+)")


def fonts_in(paths: Iterable[Path]) -> list[str]:
    """The PostScript names of the fonts the PDFs embed (`NotoSans-Bold`), sorted."""
    names: set[str] = set()
    for path in paths:
        names.update(match.decode() for match in FONT_NAME.findall(pending(path).read_bytes()))
    return sorted(names)


def font_credits(names: Iterable[str], fonts_dir: Path | None = None) -> list[str]:
    """'Fonts: Exo 2 (Natanael Gama), Noto Sans — SIL Open Font License 1.1' for the fonts named, from the bundled
    fonts' README; a font not in it is named by its family alone."""
    table = _font_table(fonts_dir or default_fonts_dir())
    by_licence: dict[str, set[str]] = {}
    for name in names:
        family, licence = table.get(name, (_family(name), "its own licence"))
        by_licence.setdefault(licence, set()).add(family)
    return [f"Fonts: {', '.join(sorted(families))} — {licence}" for licence, families in sorted(by_licence.items())]


def _family(name: str) -> str:
    stem = name.split("-")[0]
    return re.sub(r"(?<=[a-z])(?=[A-Z0-9])", " ", stem)


@cache
def _font_table(fonts_dir: Path) -> dict[str, tuple[str, str]]:
    """PostScript-style name (file stem) → (family, licence), from the rows of fonts/README.md:
    `| NotoSans-Regular.ttf, -Bold | Noto Sans | SIL OFL 1.1 (`OFL.txt`) | … |`."""
    try:
        text = (fonts_dir / "README.md").read_text(encoding="utf-8")
    except OSError:
        return {}
    table = {}
    for row in re.findall(r"^\|([^|]+\.ttf[^|]*)\|([^|]+)\|([^|]+)\|", text, re.M):
        files, family, licence = (cell.strip() for cell in row)
        licence = re.sub(r"\s*\(.*\)", "", licence).replace("SIL OFL", "SIL Open Font License")
        family = re.sub(r"\s*\(.*\)", "", family)
        first, *others = (name.strip() for name in files.split(","))
        stem = first.removesuffix(".ttf")
        base = stem.split("-")[0]
        for name in [stem, *(base + other.removesuffix(".ttf") for other in others)]:
            table[name] = (family, licence)
    return table


# --- the files -----------------------------------------------------------------------------------------------------


def write_guide(
    game: Game, files: list[OutputFile], options: PrintOptions, folder: Path, font: str, stale: Sequence[str] = (),
    changes: tuple[str, Sequence[str]] | None = None,
) -> list[Path]:  # fmt: skip
    """Write PRINT.md, a print-guide.pdf of the same text and, when some files print double-sided, the calibration
    page into `folder`; return their paths. `stale` is the last section: the earlier files moved aside
    (render/stale.py); `changes`, a heading and its lines, the first: what changed since an earlier version (a
    reprint, versions/reprint.py)."""
    written = []
    calibration = None
    duplex = [f for f in files if f.sides in DUPLEX]
    if duplex:
        calibration = _write_calibration(folder / CALIBRATION, options, duplex[0].sides, font, game)
        written.append(calibration.path)
    else:  # an earlier build's page, no longer wanted (nothing double-sided now): it goes, if it is as written
        from cardgen.output import remove
        from cardgen.render.stale import read

        if read(folder.parent, folder.name).owns(folder, CALIBRATION):
            remove(folder / CALIBRATION)
    fonts = font_credits(fonts_in(f.path for f in files if f.path.suffix == ".pdf"))
    lines = guide_lines(game, files, options, calibration, fonts) + (["", *stale] if stale else [])
    if changes is not None:  # after the title: what a tester reads first
        heading, told = changes
        lines[1:1] = ["", f"## {heading}", "", *(f"- {line}" for line in told or ["Nothing changed."])]
    markdown = folder / "PRINT.md"
    write_atomic(markdown, ("\n".join(lines) + "\n").encode("utf-8"))
    pdf = folder / "print-guide.pdf"
    write_atomic(pdf, _pdf(game, lines, options, font))
    return [markdown, pdf, *written]


def load_guide() -> None:
    """Import what the guide's PDF is set with (reportlab's platypus: 45 ms, most of it one regular expression its
    paragraphs compile) and read its fonts: a parallel build's parent does it while its first worker draws."""
    import reportlab.platypus  # noqa: F401

    from cardgen.render.fonts import families, load_roles

    families(load_roles({}, default_fonts_dir(), default_fonts_dir())["body"].regular, ("bold",))


def _write_calibration(path: Path, options: PrintOptions, duplex: str, font: str, game: Game) -> OutputFile:
    """The two-page calibration sheet for this paper and flip, worded for a player (`calibrate.py`)."""
    from cardgen.render.calibrate import calibration_pdf
    from cardgen.render.ink import coverage

    edition = f"{game.title} {game.manifest.version or ''}".strip()
    pdf = calibration_pdf(options.paper_size, font, duplex, True, game.manifest.designer or game.title, edition)
    write_atomic(path, pdf)
    return OutputFile(path, 2, "", duplex, ink=tuple(coverage(pdf)))


def _Box(side: float) -> Any:
    """A small square outline: the box of a checklist line."""
    from reportlab.platypus import Flowable

    class Box(Flowable):  # type: ignore[misc]  # reportlab has no type hints
        def wrap(self, *_: float) -> tuple[float, float]:
            return side, side

        def draw(self) -> None:
            self.canv.setLineWidth(0.6)
            self.canv.rect(0, -side * 0.15, side, side, stroke=1, fill=0)

    return Box()


def _pdf(game: Game, lines: list[str], options: PrintOptions, font: str) -> bytes:
    """The guide as a page or two of text and tables, set with the game's body font."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    from cardgen.render.fonts import families
    from cardgen.render.markup import escape
    from cardgen.units import MM

    families(font, ("bold",))  # its headings and file names are set in the font's bold

    body = ParagraphStyle("body", fontName=font, bulletFontName=font, fontSize=10, leading=13, spaceAfter=4)
    heading = ParagraphStyle("heading", parent=body, fontSize=15, leading=19, spaceAfter=8)
    sub = ParagraphStyle("sub", parent=body, fontSize=12, leading=16, spaceBefore=8)
    cell = ParagraphStyle("cell", parent=body, fontSize=9, leading=11, spaceAfter=0)  # a game's files on one page
    item = ParagraphStyle("item", parent=body, leftIndent=12, bulletIndent=0)

    def inline(text: str) -> str:
        text = escape(text)
        while "**" in text:
            text = text.replace("**", "<b>", 1).replace("**", "</b>", 1)
        while "`" in text:  # file names in bold: a monospace font would be one more (unembedded) font
            text = text.replace("`", "<b>", 1).replace("`", "</b>", 1)
        return text

    width = options.paper_size.width - 36
    story: list[Any] = []
    rows: list[list[str]] = []
    for line in [*lines, ""]:
        if line.startswith("| ") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
            continue
        if line.startswith("|---"):
            continue
        if rows:
            shares = (0.27, 0.08, 0.1, 0.29, 0.26) if len(rows[0]) == 5 else (0.28, 0.1, 0.2, 0.42)
            table = Table([[Paragraph(inline(c), cell) for c in row] for row in rows], [s * width * MM for s in shares],
                          repeatRows=1)  # fmt: skip
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
        elif line.startswith("- [ ] "):  # a box to tick (the fonts have no ☐): drawn, beside the line
            tick = Table([[_Box(3.2 * MM), Paragraph(inline(line[6:]), body)]], [7 * MM, (width - 7) * MM])
            tight = [("LEFTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 1)]
            tick.setStyle(
                TableStyle([("FONTNAME", (0, 0), (-1, -1), font), ("VALIGN", (0, 0), (-1, -1), "TOP"), *tight])
            )
            story.append(tick)
        elif line.startswith("- "):
            story.append(Paragraph(inline(line[2:]), item, bulletText="•"))
        elif line:
            story.append(Paragraph(inline(line), body))
    buffer = io.BytesIO()
    size = options.paper_size.points
    edition = f"{game.title} {game.manifest.version or ''}".strip()
    document = SimpleDocTemplate(buffer, pagesize=size, leftMargin=18 * MM, rightMargin=18 * MM, topMargin=18 * MM,
                                 bottomMargin=18 * MM, title=f"{game.title} — how to print",
                                 subject=f"{edition} — {SIDES_NOTE['single']}",
                                 author=game.manifest.designer or game.title, creator=game.title, invariant=1,
                                 initialFontName=font)  # fmt: skip
    document.build(story)
    return buffer.getvalue()
