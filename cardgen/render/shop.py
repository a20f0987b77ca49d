"""Print-shop outputs: one face per page including bleed (shop PDF), or one PNG per face at 300 dpi.

Shop PDF pages are exactly trim + bleed, with TrimBox and BleedBox set on every page and each card's back following
its front. PNG files are those pages rasterised (pypdfium2), named `<card-id>-front.png` / `-back.png`, with a
`counts.csv` saying how many copies of each card the deck holds.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cardgen.errors import Location, Problem, RuleError, display_path
from cardgen.output import write_atomic
from cardgen.render import raster
from cardgen.render.imposition import Rect, Slot
from cardgen.render.jobs import ComponentJob, OutputFile
from cardgen.render.pdf import Document
from cardgen.render.raster import render_page
from cardgen.render.shops import Shop
from cardgen.units import Size


def _face_page(doc: Document, job: ComponentJob, key: str) -> None:
    face = job.faces.faces[key]
    bleed = job.bleed
    trim = Rect(bleed, bleed, face.width, face.height)
    page = Rect(0, 0, face.width + 2 * bleed, face.height + 2 * bleed)
    doc.start_page(Size(page.w, page.h), trim=trim, bleed=page)
    doc.place(key, face, Slot(trim, page), bleed, job.shape)
    doc.end_page()


def write_shop_pdf(job: ComponentJob, path: Path) -> OutputFile:
    """Every copy's front then back, one face per page — or back then front, for a shop that asks for it
    (DriveThruCards: back 1, front 1, back 2, front 2 …). A shop's file is preflighted before it is written: what
    the shop would reject fails the build (`RuleError`), naming the page and what."""
    doc = job.document()
    shop = job.options.print_shop
    for entry in job.entries:
        sides = [entry.front, entry.back] if not (shop and shop.backs_first) else [entry.back, entry.front]
        for key in filter(None, sides):
            _face_page(doc, job, key)
    data = doc.finish()
    if shop is not None:
        refuse_rejected(data, shop, path)
    write_atomic(path, data)
    return OutputFile(path, doc.pages, job.component.id)


def refuse_rejected(data: bytes, shop: Shop, path: Path) -> None:
    """Preflight a file for `shop`: a `RuleError` listing what it would reject (warnings are for `cardgen
    preflight` to show)."""
    from cardgen.render.preflight import grouped, preflight

    errors = [finding for finding in grouped(preflight(data, shop)) if finding.error]
    if errors:
        where = Location(display_path(path))
        problems = [Problem(where, f"{shop.name} would reject it: {finding}") for finding in errors]
        raise RuleError(problems, summary=f"{path.name} was not written (cardgen preflight FILE --shop {shop.id})")


def face_images(job: ComponentJob, keys: list[str], dpi: int, transparent: bool = False) -> list[Any]:
    """Each face `key` rendered alone, bleed included, as a PIL image at `dpi` (one PDF page per face, rasterised).
    With `transparent`, what the face does not paint is see-through (RGBA): a round or hex face is clipped to its
    shape grown by the bleed, so the corners of its square are empty; else they are white (RGB)."""
    return list(each_face_image(job, keys, dpi, transparent))


def each_face_image(job: ComponentJob, keys: list[str], dpi: int, transparent: bool = False) -> Iterator[Any]:
    """`face_images` one at a time, each rasterised when it is asked for: a caller that writes or pastes each
    image before taking the next holds one face in memory, not thousands."""
    import pypdfium2 as pdfium

    doc = job.document()
    for key in keys:
        _face_page(doc, job, key)
    pdf = pdfium.PdfDocument(doc.finish())
    scale = dpi / 72 * SHAVE
    fill = (255, 255, 255, 0 if transparent else 255)
    try:
        for index in range(len(keys)):
            yield render_page(pdf, index, scale=scale, fill_color=fill)
    finally:
        raster.close(pdf)


# pdfium rounds the pixel size up; shave a hair off the scale so 69.85 mm at 300 dpi is 825 px, not 826
SHAVE = 1 - 1e-6


def face_pixels(job: ComponentJob, key: str, dpi: int) -> tuple[int, int]:
    """The size in pixels of face `key`'s image at `dpi` (bleed included), known before it is rasterised."""
    face = job.faces.faces[key]
    width, height = (math.ceil((mm + 2 * job.bleed) / 25.4 * dpi * SHAVE) for mm in (face.width, face.height))
    return width, height


def png_names(job: ComponentJob) -> dict[str, str]:
    """Each distinct face's image name: a face drawn for one card as that card's (`scout-front.png`,
    `scout-back.png`); a back drawn the same for several cards once, as its layout (`back-card-back.png`, numbered
    when one layout draws several shared backs)."""
    items = job.component.items
    sharing = Counter(job.faces.item_faces[item.id][1] for item in items)
    names: dict[str, str] = {}
    shared: Counter[str] = Counter()
    for item in items:
        front, back = job.faces.item_faces[item.id]
        if front and front not in names:
            names[front] = f"{item.id}-front.png"
        if back and back not in names:
            if sharing[back] == 1:
                names[back] = f"{item.id}-back.png"
                continue
            layout = item.back or "back"
            shared[layout] += 1
            names[back] = f"back-{layout}{f'-{shared[layout]}' if shared[layout] > 1 else ''}.png"
    return names


def shop_image_names(job: ComponentJob) -> dict[str, str]:
    """Each distinct face's file name in a shop's package: The Game Crafter's as `--format png` names them
    (`scout-front.png`, one `back-….png` for a shared back); MakePlayingCards' numbered in deck order
    (`001-scout-front.png`), so its uploader, which sorts by name, takes them in the deck's order."""
    names = png_names(job)
    if job.options.shop != "mpc":
        return names
    order = {item.id: number for number, item in enumerate(job.component.items, start=1)}
    numbered = {}
    for key, name in names.items():
        card = next((item for item, faces in job.faces.item_faces.items() if key in faces), "")
        numbered[key] = f"{order.get(card, 0):03d}-{name}" if not name.startswith("back-") else f"000-{name}"
    return numbered


def write_shop_images(job: ComponentJob, folder: Path) -> OutputFile:
    """A shop's image package for one component: its faces at the shop's pixel size (300 dpi with the shop's
    bleed: The Game Crafter 825 × 1125 px for a poker card, MakePlayingCards 822 × 1122) and counts.csv."""
    return write_png_faces(job, folder, shop_image_names(job))


def write_png_faces(job: ComponentJob, folder: Path, names_by_key: dict[str, str] | None = None) -> OutputFile:
    """One PNG per distinct face (not per copy, and a back shared by many cards once) and a counts.csv naming
    each card's images; the file's `pages` counts the images."""
    component = job.component
    by_key = names_by_key or png_names(job)
    keys, names = list(by_key), list(by_key.values())
    shaped = job.shape != "rect"  # round and hex pieces: transparent outside their shape (digital tables cut by it)
    for name, image in zip(names, each_face_image(job, keys, job.options.dpi, transparent=shaped), strict=True):
        buffer = io.BytesIO()
        image.save(buffer, "PNG", dpi=(job.options.dpi,) * 2)
        write_atomic(folder / name, buffer.getvalue())
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["card", "count", "front", "back"])
    for item in component.items:
        front, back = job.faces.item_faces[item.id]
        writer.writerow([item.id, item.count, by_key[front] if front else "", by_key[back] if back else ""])
    write_atomic(folder / "counts.csv", table.getvalue().encode())
    return OutputFile(folder, len(names), component.id)
