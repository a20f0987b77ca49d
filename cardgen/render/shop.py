"""Print-shop outputs: one face per page including bleed (shop PDF), or one PNG per face at 300 dpi.

Shop PDF pages are exactly trim + bleed, with TrimBox and BleedBox set on every page and each card's back following
its front. PNG files are those pages rasterised (pypdfium2), named `<card-id>-front.png` / `-back.png`, with a
`counts.csv` saying how many copies of each card the deck holds.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from cardgen.render.imposition import Rect, Slot
from cardgen.render.pdf import Document, write_atomic

if TYPE_CHECKING:
    from pathlib import Path

    from cardgen.data.games import Component
    from cardgen.render.build import Entry, FaceSet, GameRenderer


def _face_page(doc: Document, key: str, faces: FaceSet, width: float, height: float, bleed: float, shape: str) -> None:
    trim = Rect(bleed, bleed, width, height)
    page = Rect(0, 0, width + 2 * bleed, height + 2 * bleed)
    from cardgen.units import Size

    doc.start_page(Size(page.w, page.h), trim=trim, bleed=page)
    doc.place(key, faces.faces[key], Slot(trim, page), bleed, "rect" if shape == "rect" else shape)
    doc.end_page()


def write_shop_pdf(
    renderer: GameRenderer, component: Component, faces: FaceSet, entries: list[Entry], path: Path
) -> int:
    """Every copy's front then back, one face per page."""
    doc = _document(renderer, component, faces)
    first = faces.faces[entries[0].front]
    bleed = renderer.bleed(component)
    shape = component.spec.shape if component.spec else "rect"
    for entry in entries:
        _face_page(doc, entry.front, faces, first.width, first.height, bleed, shape)
        if entry.back:
            _face_page(doc, entry.back, faces, first.width, first.height, bleed, shape)
    write_atomic(path, doc.finish())
    return doc.pages


def face_images(renderer: GameRenderer, component: Component, faces: FaceSet, keys: list[str], dpi: int) -> list[Any]:
    """Each face `key` rendered alone, bleed included, as a PIL image at `dpi` (one PDF page per face, rasterised)."""
    import pypdfium2 as pdfium

    doc = _document(renderer, component, faces)
    bleed = renderer.bleed(component)
    shape = component.spec.shape if component.spec else "rect"
    for key in keys:
        face = faces.faces[key]
        _face_page(doc, key, faces, face.width, face.height, bleed, shape)
    pdf = pdfium.PdfDocument(doc.finish())
    # pdfium rounds the pixel size up; shave a hair off the scale so 69.85 mm at 300 dpi is 825 px, not 826
    return [pdf[index].render(scale=dpi / 72 * (1 - 1e-6)).to_pil() for index in range(len(keys))]


def write_png_faces(renderer: GameRenderer, component: Component, faces: FaceSet, folder: Path, dpi: int) -> int:
    """One PNG per face of each card (not per copy) and a counts.csv; returns the number of images."""
    names: list[str] = []
    keys: list[str] = []
    seen: dict[str, tuple[str, str | None]] = {item.id: faces.item_faces[item.id] for item in component.items}
    for item_id, (front, back) in seen.items():
        for side, key in (("front", front), ("back", back)):
            if key:
                keys.append(key)
                names.append(f"{item_id}-{side}.png")
    for name, image in zip(names, face_images(renderer, component, faces, keys, dpi), strict=True):
        buffer = io.BytesIO()
        image.save(buffer, "PNG", dpi=(dpi, dpi))
        write_atomic(folder / name, buffer.getvalue())
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["card", "count", "front", "back"])
    for item in component.items:
        front, back = seen[item.id]
        writer.writerow([item.id, item.count, f"{item.id}-front.png", f"{item.id}-back.png" if back else ""])
    write_atomic(folder / "counts.csv", table.getvalue().encode())
    return len(names)


def _document(renderer: GameRenderer, component: Component, faces: FaceSet) -> Document:
    uses = faces.uses
    return Document(renderer.drawer, f"{renderer.game.title} — {component.title}", renderer.body_font, uses)
