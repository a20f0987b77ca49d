"""The icon library: game-icons.net's icons (CC BY 3.0) that card and counter games use, drawn by name in any colour.

`icon_library/game-icons.json` holds each icon's SVG path (a 512-unit square, y down), its author and category,
curated by `tools/curate_icons.py`; `icon_library/ATTRIBUTION.md` credits the authors as the licence asks. A layout
draws one by name wherever a game icon goes (`{spaceship}`, `{spaceship:red}`, `<icon name="spaceship">`); a name the
game defines in `settings.icons` wins. Icons stay vector: each path is read once into reportlab path operations
(`svgpath.parse`, lines and cubic Béziers) and drawn at any size. A game's print guide and gallery credit the
authors of the icons it printed (`credit`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, black
from reportlab.pdfgen.canvas import FILL_NON_ZERO

from cardgen.render import svgpath

FOLDER = Path(__file__).parent / "icon_library"
SOURCE = "game-icons.net"
LICENCE = "CC BY 3.0"


@dataclass(frozen=True)
class LibraryIcon:
    """One icon of the library: its SVG path data in a `side`-unit square (y down), who drew it, its category."""

    name: str
    d: str
    author: str
    category: str
    side: float


@cache
def library() -> dict[str, LibraryIcon]:
    """Every library icon by name (read once per process)."""
    data = json.loads((FOLDER / "game-icons.json").read_text(encoding="utf-8"))
    side = float(data["side"])
    return {
        name: LibraryIcon(name, icon["d"], icon["author"], icon["category"], side)
        for name, icon in data["icons"].items()
    }


def search(word: str = "") -> list[LibraryIcon]:
    """The icons whose name, category or author contains `word` (case-insensitive), by name."""
    word = word.lower()
    return [
        icon for name, icon in sorted(library().items())
        if word in name or word in icon.category.lower() or word in icon.author.lower()
    ]  # fmt: skip


def credit(names: Iterable[str]) -> str | None:
    """'Icons by Delapouite, Lorc from game-icons.net, CC BY 3.0' for the library icons among `names`, or None."""
    icons = library()
    authors = sorted({icons[name].author for name in names if name in icons})
    if not authors:
        return None
    return f"Icons by {', '.join(authors)} from {SOURCE}, {LICENCE}"


@cache
def operations(d: str) -> tuple[svgpath.Op, ...]:
    """An icon's path data read once (`svgpath.parse`: absolute moves, lines and cubics)."""
    return svgpath.parse(d)


def _same(x: float, y: float) -> tuple[float, float]:
    return x, y


def library_painter(icon: LibraryIcon, colour: Callable[[str], Color | None]) -> Callable[..., None]:
    """A function drawing a library icon in a square of `size` points whose bottom-left corner is (x, y): black,
    or filled with the colour it is given (game-icons are black shapes on nothing)."""
    ops = operations(icon.d)

    def paint(canvas: Any, x: float, y: float, size: float, instead: str | None = None) -> None:
        fill = colour(instead) if instead else black
        if fill is None:  # 'none': nothing to draw
            return
        canvas.saveState()
        canvas.translate(x, y + size)
        canvas.scale(size / icon.side, -size / icon.side)  # the SVG's y runs down
        canvas.setFillColor(fill)
        canvas.drawPath(
            svgpath.draw(ops, canvas.beginPath(), _same), stroke=0, fill=1, fillMode=FILL_NON_ZERO
        )  # SVG's rule
        canvas.restoreState()

    return paint
