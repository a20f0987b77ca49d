"""`--format ttp`: a Tabletop Playground package — card templates and their textures — for every printed component.

Tabletop Playground reads a package folder: `Templates/*.json` (one object template each) and `Textures/` (their
images). Every component becomes card templates, one per sheet of faces: a deck's cards, a counter set's or tile
set's pieces (flat cards of their size) and a sheet component's boards (one face each) alike. A card template is
`Type: "Card"` with a 32-hex-digit `GUID`, `FrontTexture` (a sheet of faces), `BackTexture` with `BackIndex` −2 (one
back image for all) or −3 (a sheet of backs laid out like the fronts), `NumHorizontal` × `NumVertical`, `Width` and
`Height` in centimetres, `Indices` (the sheet's faces in the stack, a card's index once per copy) and `CardNames`.
Sheets follow the Tabletop Simulator export's limits (`render/tts.py`): at most 10 × 7 faces and 4,096 px a side.
The GUIDs are derived from the game, component and sheet, so a rebuild replaces the same templates.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from pathlib import Path
from typing import Any

from cardgen.output import write_atomic
from cardgen.render.jobs import ComponentJob, OutputFile
from cardgen.render.tts import GRID, _faces, _nickname, _pixels

THICKNESS_CM = {"deck": 0.05, "counters": 0.2, "tiles": 0.2, "sheets": 0.05}


def write_ttp(job: ComponentJob, target: Path) -> OutputFile:
    """The component's templates in the game's package (`target`'s folder: `ttp/`) under `Templates/`, its
    textures under `Textures/`; the returned file is its first template, its `pages` the number of templates."""
    package = target.parent
    component = job.component
    items = [item for item in component.items if item.count]
    per_sheet = GRID[0] * GRID[1]
    columns = min(GRID[0], max(1, len(items)))
    rows = min(GRID[1], math.ceil(len(items) / columns)) if items else 1
    size = _pixels(job.face.width, job.face.height, columns, rows)
    keys = [key for item in items for key in job.faces.item_faces[item.id] if key]
    faces = _faces(job, keys, size)
    backs = {job.faces.item_faces[item.id][1] for item in items}
    one_back = len(backs) == 1
    names = {"back": f"{component.id}-back.jpg"}
    shared_back = next(iter(backs)) if one_back else None
    if shared_back is not None:
        write_atomic(package / "Textures" / names["back"], _jpeg(faces[shared_back]))
    templates = 0
    for number, start in enumerate(range(0, len(items), per_sheet), start=1):
        chunk = items[start : start + per_sheet]
        front_sheet = _sheet(faces, [job.faces.item_faces[item.id][0] for item in chunk], columns, rows, size)
        front = f"{component.id}-faces-{number}.jpg"
        write_atomic(package / "Textures" / front, _jpeg(front_sheet))
        back, back_index = "", -2
        if one_back and None not in backs:
            back = names["back"]
        elif not one_back:
            back, back_index = f"{component.id}-backs-{number}.jpg", -3
            back_keys = [job.faces.item_faces[item.id][1] for item in chunk]
            write_atomic(package / "Textures" / back, _jpeg(_sheet(faces, back_keys, columns, rows, size)))
        template = card_template(job, number, chunk, (front, back, back_index), (columns, rows))
        text = json.dumps(template, indent=1, ensure_ascii=False) + "\n"
        write_atomic(package / "Templates" / f"{component.id}-{number}.json", text.encode("utf-8"))
        templates += 1
    return OutputFile(package / "Templates" / f"{component.id}-1.json", templates, component.id)


def card_template(
    job: ComponentJob, number: int, items: list[Any], textures: tuple[str, str, int], grid: tuple[int, int]
) -> dict[str, Any]:
    """One sheet's card template, as Tabletop Playground's editor saves one."""
    front, back, back_index = textures
    component = job.component
    indices = [slot for slot, item in enumerate(items) for _ in range(item.count)]
    return {
        "Type": "Card",
        "GUID": guid(job.game_id, component.id, number),
        "Name": component.title if number == 1 else f"{component.title} ({number})",
        "Metadata": "",
        "CollisionType": "Regular",
        "Friction": 0.7,
        "Restitution": 0,
        "Density": 0.5,
        "SurfaceType": "Cardboard",
        "Roughness": 1,
        "Metallic": 0,
        "PrimaryColor": {"R": 255, "G": 255, "B": 255},
        "SecondaryColor": {"R": 0, "G": 0, "B": 0},
        "Flippable": True,
        "AutoStraighten": False,
        "ShouldSnap": True,
        "ScriptName": "",
        "Blueprint": "",
        "Models": [],
        "Collision": [],
        "SnapPointsGlobal": False,
        "SnapPoints": [],
        "ZoomViewDirection": {"X": 0, "Y": 0, "Z": 0},
        "FrontTexture": front,
        "BackTexture": back,
        "HiddenTexture": "",
        "BackIndex": back_index,
        "HiddenIndex": 0,
        "NumHorizontal": grid[0],
        "NumVertical": grid[1],
        "Width": round(job.face.width / 10, 3),
        "Height": round(job.face.height / 10, 3),
        "Thickness": THICKNESS_CM.get(component.kind, 0.05),
        "HiddenCardsBackIndex": False,
        "UsedWithCardHolders": component.kind == "deck",
        "CanStack": True,
        "UsePrimaryColorForEdge": False,
        "EdgeColor": {"R": 255, "G": 255, "B": 255},
        "Indices": indices,
        "CardNames": {str(slot): _nickname(dict(item.fields), item.id) for slot, item in enumerate(items)},
        "CardMetadata": {str(slot): item.id for slot, item in enumerate(items)},
        "CardTags": {},
    }


def guid(*parts: object) -> str:
    """A 32-hex-digit GUID, the same for the same game, component and sheet."""
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:32].upper()


def _sheet(faces: dict[str, Any], keys: list[str | None], columns: int, rows: int, size: tuple[int, int]) -> Any:
    from PIL import Image

    sheet = Image.new("RGB", (columns * size[0], rows * size[1]), "white")
    for slot, key in enumerate(keys):
        if key:
            sheet.paste(faces[key], ((slot % columns) * size[0], (slot // columns) * size[1]))
    return sheet


def _jpeg(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=90)
    return buffer.getvalue()
