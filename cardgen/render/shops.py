"""The print shops cardgen writes files for, and what each asks of them (gathered from their guides, 2026-11).

A shop is data: its bleed, safe zone and cut tolerance, what it takes (a PDF per deck, or an image per face), its
ink limit and page order for PDFs, its pixel sizes for images. `--shop NAME` picks one; the writers (`render/shop.py`,
`render/shop_images.py`) and `cardgen preflight` (`render/preflight.py`) read it from here.
"""

from __future__ import annotations

from dataclasses import dataclass

INCH = 25.4  # mm


@dataclass(frozen=True)
class Shop:
    """What one shop wants. Lengths in mm; `ink_limit` in % (None: the shop takes RGB)."""

    id: str
    name: str
    format: str  # shop-pdf | shop-images: the --format that writes its files
    bleed: float
    safe: float  # keep text this far inside the trim
    cut_tolerance: float  # the cut drifts this far: text closer to the trim than this is lost
    ink_limit: float | None = None
    backs_first: bool = False  # shop PDFs: back 1, front 1, back 2, front 2 …
    pdfx: bool = False  # shop PDFs: CMYK PDF/X-1a:2003
    dpi: int = 300
    images: str = ""  # shop images: how a face's file is named (`{n}`: the card's number, `{side}`, `{card}`)


SHOPS: dict[str, Shop] = {
    "drivethrucards": Shop(
        "drivethrucards", "DriveThruCards", "shop-pdf", bleed=INCH / 8, safe=INCH / 8, cut_tolerance=INCH / 16,
        ink_limit=240.0, backs_first=True, pdfx=True,
    ),
    # The Game Crafter: one image per face, 300 dpi including 1/8 in bleed (825 × 1125 px for a poker card)
    "tgc": Shop(
        "tgc", "The Game Crafter", "shop-images", bleed=INCH / 8, safe=INCH / 8, cut_tolerance=INCH / 16,
        images="{card}-{side}.png",
    ),
    # MakePlayingCards: 822 × 1122 px for a poker card, 300 dpi: 0.12 in of bleed a side
    "mpc": Shop(
        "mpc", "MakePlayingCards", "shop-images", bleed=0.12 * INCH, safe=0.12 * INCH, cut_tolerance=INCH / 16,
        images="{n:03d}-{card}-{side}.png",
    ),
}  # fmt: skip


def shop(name: str) -> Shop:
    """The shop called `name` (its id, any case); a `KeyError` naming the known ones otherwise."""
    found = SHOPS.get(name.lower())
    if found is None:
        raise KeyError(f"unknown shop '{name}' (known: {', '.join(SHOPS)})")
    return found
