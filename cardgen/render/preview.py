"""`cardgen preview`: one face, or a component's contact sheet, as a PNG in well under a second.

A designer changing a layout wants to see one card, not a build of the whole game: only the named item's faces are
rendered (through the same layouts, text fitting and drawing as a build), rasterised, and written next to the output.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

from cardgen.data.games import Component, Game, Item
from cardgen.errors import DataError, did_you_mean
from cardgen.output import write_atomic
from cardgen.render.build import GameRenderer
from cardgen.render.jobs import BuildReport, PrintOptions
from cardgen.render.shop import face_images

GRID_COLUMNS = 6


def find_item(game: Game, item_id: str) -> tuple[Component, Item]:
    for component, item in game.items():
        if item.id == item_id:
            return component, item
    known = [item.id for _, item in game.items()]
    raise DataError(f"{game.id} has no item '{item_id}'{did_you_mean(item_id, known)}")


def preview_item(renderer: GameRenderer, item_id: str, side: str, dpi: int, target: Path) -> tuple[Path, BuildReport]:
    """Render one item's front or back to `target` (PNG); the report holds any text that overflowed."""
    component, item = find_item(renderer.game, item_id)
    if side == "back" and not item.back:
        raise DataError(f"{renderer.game.id}: '{item_id}' has no back")
    alone = dataclasses.replace(component, items=(item,))
    report = BuildReport()
    job = renderer.job(alone, PrintOptions(), report)
    front, back = job.faces.item_faces[item.id]
    (image,) = face_images(job, [back if side == "back" and back else front], dpi, transparent=job.shape != "rect")
    _save(image, target, dpi)
    return target, report


def preview_grid(renderer: GameRenderer, component_id: str, dpi: int, target: Path) -> tuple[Path, BuildReport]:
    """Every distinct front of a component, once each, in a contact sheet labelled with item ids and copies."""
    from PIL import Image, ImageDraw, ImageFont

    from cardgen.paths import default_fonts_dir
    from cardgen.render.fonts import DEFAULT_ROLES

    component = renderer.game.component(component_id)
    if not component.printed:
        raise DataError(f"{renderer.game.id}: component '{component_id}' has nothing to preview")
    report = BuildReport()
    job = renderer.job(component, PrintOptions(), report)
    firsts: dict[str, Item] = {}
    for item in component.items:
        firsts.setdefault(job.faces.item_faces[item.id][0], item)
    images = face_images(job, list(firsts), dpi)
    cell_w = max(i.width for i in images) + 8
    cell_h = max(i.height for i in images) + 24
    rows = (len(images) + GRID_COLUMNS - 1) // GRID_COLUMNS
    sheet = Image.new("RGB", (cell_w * min(GRID_COLUMNS, len(images)), cell_h * rows), "white")
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(str(default_fonts_dir() / DEFAULT_ROLES["body"]), 12)
    for index, (image, item) in enumerate(zip(images, firsts.values(), strict=True)):
        x, y = (index % GRID_COLUMNS) * cell_w + 4, (index // GRID_COLUMNS) * cell_h + 4
        sheet.paste(image, (x, y))
        draw.text((x, y + image.height + 4), f"{item.id} ×{item.count}", fill="black", font=font)
    _save(sheet, target, dpi)
    return target, report


def _save(image: Any, target: Path, dpi: int) -> None:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi))
    write_atomic(target, buffer.getvalue())
