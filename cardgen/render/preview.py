"""`cardgen preview`: one face, or a component's contact sheet, as a PNG in well under a second.

A designer changing a layout wants to see one card, not a build of the whole game: only the named item's faces are
rendered (through the same layouts, text fitting and drawing as a build), rasterised, and written next to the output.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardgen import limits
from cardgen.data.games import Component, Game, Item
from cardgen.errors import DataError, did_you_mean
from cardgen.output import write_atomic
from cardgen.render.build import GameRenderer
from cardgen.render.jobs import BuildReport, ComponentJob, PrintOptions
from cardgen.render.shop import each_face_image, face_images, face_pixels

GRID_COLUMNS = 6
MIN_DPI = 30  # what `--dpi` accepts


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
    key = back if side == "back" and back else front
    _check_pixels(lambda at: math.prod(face_pixels(job, key, at)), dpi, f"preview {item_id}: its {side}")
    (image,) = face_images(job, [key], dpi, transparent=job.shape != "rect")
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
    keys = list(firsts)
    sized = list({(job.faces.faces[key].width, job.faces.faces[key].height): key for key in keys}.values())
    width, height, cell_w, cell_h = _grid(job, sized, len(keys), dpi)
    what = f"preview --grid {component_id}: a sheet of {len(keys):,} faces"
    sheet_at = lambda at: math.prod(_grid(job, sized, len(keys), at)[:2])  # noqa: E731
    _check_pixels(sheet_at, dpi, what, ": preview its items one by one")
    sheet = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(str(default_fonts_dir() / DEFAULT_ROLES["body"]), 12)
    # each face is pasted as soon as it is rasterised: the sheet and one face in memory, never every face at once
    for index, (image, item) in enumerate(zip(each_face_image(job, keys, dpi), firsts.values(), strict=True)):
        x, y = (index % GRID_COLUMNS) * cell_w + 4, (index // GRID_COLUMNS) * cell_h + 4
        sheet.paste(image, (x, y))
        draw.text((x, y + image.height + 4), f"{item.id} ×{item.count}", fill="black", font=font)
    _save(sheet, target, dpi)
    return target, report


def _grid(job: ComponentJob, sized: list[str], faces: int, dpi: int) -> tuple[int, int, int, int]:
    """The width and height of a contact sheet of `faces` faces, and of its cells (a face and its label), in pixels
    at `dpi`; `sized` holds one face of each size among them."""
    sizes = [face_pixels(job, key, dpi) for key in sized]
    cell_w = max(w for w, _ in sizes) + 8
    cell_h = max(h for _, h in sizes) + 24
    rows = (faces + GRID_COLUMNS - 1) // GRID_COLUMNS
    return cell_w * min(GRID_COLUMNS, faces), cell_h * rows, cell_w, cell_h


def _check_pixels(pixels_at: Callable[[int], int], dpi: int, what: str, instead: str = "") -> None:
    """Refuse an image above the `preview_pixels` limit before any of it is allocated, saying at which --dpi it
    would fit, if any (`pixels_at(dpi)` is its size at a resolution)."""
    most, pixels = limits.current().preview_pixels, pixels_at(dpi)
    if pixels <= most:
        return
    fits = max((at for at in range(MIN_DPI, dpi) if pixels_at(at) <= most), default=None)
    lower = f"lower --dpi (it fits at {fits} dpi)" if fits else f"it fits at no --dpi{instead}"
    raise DataError(
        f"{what} at {dpi} dpi is {pixels:,} pixels, more than the limit of {most:,} (preview_pixels): {lower}, or "
        "raise the limit with --limit preview_pixels=N"
    )


def _save(image: Any, target: Path, dpi: int) -> None:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi))
    write_atomic(target, buffer.getvalue())
