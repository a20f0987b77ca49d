"""The values a build passes between its stages: print options, a component's prepared faces, the job a writer gets,
and what the build reports.

`build` (the orchestrator) renders and prepares a component's faces into a `ComponentJob`; a writer (`imposed` for
print PDFs, `shop` for print-shop PDFs and PNGs, `sheets` for boards) turns the job into a file. Writers depend on
this module, never on `build`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.data.games import Component, Game, Item
from cardgen.render.imposition import MarkStyle, SheetPlan
from cardgen.units import Size, paper_size

if TYPE_CHECKING:  # the drawing (reportlab) loads when a face is drawn: planning a build does not need it
    from cardgen.render.draw import FaceDrawer, PreparedFace
    from cardgen.render.pdf import Document
    from cardgen.render.separation import Separation
    from cardgen.render.shops import Shop


@dataclass(frozen=True)
class PrintOptions:
    """How to print: paper, duplex, back offset, imposition and output format. Lengths in mm."""

    paper: str = "a4"  # a name or WxHmm (`units.parse_paper`)
    duplex: str = "long-edge"  # long-edge | short-edge | off
    back_offset: tuple[float, float] = (0.0, 0.0)
    layout: str | None = None  # None: each component's default; grid | fold
    format: str = "pdf"  # pdf | shop-pdf | shop-images | png | tts | ttp
    gutter: float = 0.0
    marks: MarkStyle = field(default_factory=MarkStyle)
    allow_overflow: bool = False
    overlap: float = 10.0
    dpi: int = 300
    ink: str = "full"  # full | light: large dark areas as outlined tints (render/ink.py)
    shop: str | None = None  # a print shop's id (render/shops.py)
    cmyk: bool = False  # PDFs in CMYK PDF/X-1a (render/pdfx.py), also when the shop asks for it

    @property
    def paper_size(self) -> Size:
        return paper_size(self.paper)

    @property
    def print_shop(self) -> Shop | None:
        """The shop the files are for (`--shop`), if any."""
        from cardgen.render.shops import shop

        return shop(self.shop) if self.shop else None

    def separation(self) -> Separation | None:
        """How colours become inks, when the PDFs are CMYK (`--cmyk`, or a shop that asks for PDF/X)."""
        from cardgen.render.separation import Separation

        shop = self.print_shop
        if shop is not None and shop.pdfx and shop.ink_limit is not None:
            return Separation(shop.ink_limit)
        return Separation() if self.cmyk and self.format in ("pdf", "shop-pdf") else None


DUPLEX = ("long-edge", "short-edge")  # the ways a double-sided file is turned
LIGHT_SUFFIX = "-light-ink"  # `--ink both`: a file's light-ink twin, beside it (red-deck-light-ink.pdf)
PACKED_FORMATS = frozenset({"pdf"})  # formats whose small components share sheets (`render/packing.py`)


def face_size(component: Component, paper: Size) -> Size:
    """The trim size of one face: the component's box, or the paper itself for page-sized sheets."""
    if component.box is not None:
        return component.box
    return paper.rotated() if component.landscape else paper


def component_bleed(game: Game, component: Component) -> float:
    """How far a component's faces are printed beyond their trim, mm (its own setting, else the game's)."""
    if component.spec and component.spec.bleed is not None:
        return component.spec.bleed
    if component.kind == "sheets":
        return 0.0
    return game.manifest.settings.bleed


def game_notes(game: Game) -> list[str]:
    """What a build tells about the components it does not print."""
    notes = []
    pieces = [c.id for c in game.components if c.kind == "pieces"]
    empty = [c.id for c in game.components if c.kind != "pieces" and not c.items]
    if pieces:
        notes.append(f"{game.id}: not printed (bought or borrowed, not cut): {', '.join(pieces)}")
    if empty:
        notes.append(f"{game.id}: no contents written yet, nothing printed for: {', '.join(empty)}")
    return notes + fetched_notes(game)


def fetched_notes(game: Game) -> list[str]:
    """Which copy of a sheet fetched from an address a build printed: when it was fetched (cardgen/remote.py)."""
    from cardgen.data.model import ITEM_KEY
    from cardgen.remote import kept_copy

    notes = []
    for component in game.components:
        table = getattr(component.spec, ITEM_KEY[component.kind], None) if component.spec else None
        url = getattr(table, "url", None)
        kept = kept_copy(url) if isinstance(url, str) else None
        if kept is not None:
            notes.append(f"{game.id}: {component.id}: items from {url} as fetched {kept.when}")
    return notes


# How each kind of file prints, as the PDF's subject and the print guide say it.
SIDES_NOTE = {
    "long-edge": "print double-sided, flip on the long edge, at actual size",
    "short-edge": "print double-sided, flip on the short edge, at actual size",
    "single": "print single-sided at actual size",
    "fold": "print single-sided at actual size, fold along the line and glue",
    "backs-after": "print single-sided at actual size; backs follow on pages of their own",
    "tiled": "print single-sided at actual size; trim and join the pages along the crosshairs",
}


@dataclass(frozen=True)
class OutputFile:
    """One file written, with its page count (or image count for PNG folders) and how to print it: `sides` is
    `long-edge`/`short-edge` (double-sided, turned on that edge), `single`, `fold` (single-sided, fold and glue),
    `backs-after` (backs on pages of their own) or `tiled` (a board over several pages) — the keys of SIDES_NOTE."""

    path: Path
    pages: int
    component: str = ""
    sides: str = "single"
    tts: dict[str, Any] | None = None  # --format tts: the component's Tabletop Simulator object (render/tts.py)
    ink: tuple[float, ...] = ()  # print PDFs: each page's ink coverage, 0–1 (render/ink.py)
    holds: tuple[str, ...] = ()  # small components printed on this file's last sheet (render/packing.py)
    stacked: bool = False  # its last sheet holds pieces of different sizes, block under block
    key: str = ""  # the hash of everything that decided its bytes, when the build keeps a cache (render/cache.py)
    reused: bool = False  # an earlier build's file, still current, kept as it was
    library_icons: tuple[str, ...] = ()  # the icon library's icons it prints (credited in the print guide)

    @property
    def sheets_of_paper(self) -> int:
        """Sheets of paper it prints on: a double-sided file's pages pair up."""
        return (self.pages + 1) // 2 if self.sides in DUPLEX else self.pages


@dataclass(frozen=True)
class OverflowReport:
    """Text that did not fit its box at the minimum size."""

    game: str
    component: str
    item: str
    side: str
    field: str
    overflow_mm: float
    size: float
    language: str = ""  # the edition's (a game in several languages), whose text overflowed

    def __str__(self) -> str:
        return (
            f"{self.game}: {self.component}: card '{self.item}' {self.side}: field '{self.field}' overflows "
            f"its box by {self.overflow_mm:.1f} mm even at {self.size:g} pt" + self.in_language
        )

    @property
    def in_language(self) -> str:
        """` in German (de)`, or nothing for a game in one language."""
        from cardgen.data.languages import named

        return f" in {named(self.language)}" if self.language else ""


@dataclass(frozen=True)
class TextSize:
    """The smallest size at which one field (or icon label) of an item's face is set, after fitting."""

    item: str
    side: str
    what: str
    size: float


@dataclass(frozen=True)
class FittedText:
    """A component's text as a build with default options sets it: what overflows its box, and how small it is."""

    overflows: list[OverflowReport]
    sizes: list[TextSize]


@dataclass
class BuildReport:
    """What a build wrote and what it found."""

    files: list[OutputFile] = field(default_factory=list)
    overflows: list[OverflowReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class FaceSet:
    """The distinct faces of a component: markup hash → prepared face, with how often each is drawn."""

    faces: dict[str, PreparedFace] = field(default_factory=dict)
    uses: Counter[str] = field(default_factory=Counter)
    item_faces: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    # markup hash → a digest of everything that decides how the face is drawn within its game's look: its whole
    # markup, how its ink treats it and its size (what the validator's contrast measures are remembered by)
    drawn: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """One physical copy of an item: its front face and its back face (if any)."""

    item: Item
    front: str
    back: str | None


@dataclass(frozen=True)
class Block:
    """One component's pieces on a sheet it shares with components of other sizes (render/packing.py): a grid of
    its faces, planned on that sheet (slots, backs and marks), drawn with its own job's faces, bleed and shape."""

    job: ComponentJob
    entries: tuple[Entry, ...]
    plan: SheetPlan


@dataclass(frozen=True)
class ComponentJob:
    """Everything a writer needs to print one component: its faces, its copies, how to print, and how to draw."""

    game_id: str
    game_title: str
    component: Component
    faces: FaceSet
    entries: list[Entry]
    options: PrintOptions
    drawer: FaceDrawer
    body_font: str
    face: Size  # trim size of one face, mm
    bleed: float  # mm
    guests: tuple[Component, ...] = ()  # small components printed on this one's last sheet (render/packing.py)
    shared: tuple[Block, ...] = ()  # a last sheet shared with components of other sizes, block by block
    designer: str = ""  # game.yaml's designer and version: the PDF's author and subject
    version: str = ""

    @property
    def copies(self) -> int:
        """The pieces this job prints: its own and those of the components sharing its last sheet."""
        return len(self.entries) + sum(len(block.job.entries) for block in self.shared[1:])

    @property
    def shape(self) -> str:
        return self.component.shape

    @property
    def names(self) -> str:
        """The component's id, and those of the components sharing its sheets: `units + command-ships`."""
        return " + ".join(c.id for c in (self.component, *self.guests))

    @property
    def title(self) -> str:
        return f"{self.game_title} — " + ", ".join(c.title for c in (self.component, *self.guests))

    def library_icons(self) -> tuple[str, ...]:
        """The icon library's icons its faces draw (those of components sharing its sheets too), by name."""
        return tuple(sorted({name for face in self.faces.faces.values() for name in face.library_icons}))

    def text_sizes(self) -> list[TextSize]:
        """Each item's face fields at the smallest size they are set (every item, also those sharing a face)."""
        out = []
        for item, keys in self.faces.item_faces.items():
            for side, key in zip(("front", "back"), keys, strict=True):
                smallest: dict[str, float] = {}
                for text in self.faces.faces[key].texts if key else ():
                    smallest[text.what] = min(text.size, smallest.get(text.what, text.size))
                out += [TextSize(item, side, what, size) for what, size in smallest.items()]
        return out

    def document(self) -> Document:
        """A new PDF for this component, drawing repeated faces once as forms."""
        from cardgen.render.pdf import Document

        return Document(
            self.drawer,
            self.title,
            self.body_font,
            self.faces.uses,
            self.designer or self.game_title,
            self.edition,
            separation=self.options.separation(),
        )

    @property
    def edition(self) -> str:
        """The game and its version, as the PDF's subject begins."""
        return f"{self.game_title} {self.version}".strip()
