"""`cardgen build --format tts`: a Tabletop Simulator saved object and the images it loads.

Per component, into `output/<game>/tts/<component>/`:
- decks: face sheets of at most 10 × 7 slots (TTS's largest grid), the last slot of each sheet left for the hidden
  card (it shows the back), and one back image — or, when cards' backs differ, back sheets on the same grid
  (`UniqueBack`). Faces are cut at the trim (no bleed: TTS shows the whole image) at the resolution that keeps a
  sheet within 4,096 px a side (at most 300 dpi): TTS accepts up to 10,000 px, but 4,096 loads on every graphics
  card and in every TTS version, and a 10 × 7 sheet of poker cards is then 160 dpi, sharp at any zoom TTS allows.
- counters and tiles: one front and one back image per distinct piece (TTS tiles take single images), and one
  `Custom_Tile` per copy (round pieces as circles, hexes as hexes), gathered in a bag per component.
- sheets (boards, charts, aids): one `Custom_Board` per sheet from its front, at most 4,096 px a side.
Then `output/<game>/tts/<game>.json`, a saved object (copy it into TTS's Saved Objects folder): a row of one deck,
bag or board per component. Card ids run in sheet order (deck key × 100 + slot); copies repeat their id; names and
descriptions come from the data. Image addresses are `file:///` paths of this folder; `--tts-base-url URL`
replaces that folder with URL (upload the folder, keep its layout): an http(s) address with a host, or a `file:`
address inside the output folder (`check_base_url`). The JSON's shape is the pydantic models below;
`docs/tts-schema.json` is their JSON Schema.
"""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from cardgen.output import write_atomic
from cardgen.render.jobs import ComponentJob, OutputFile
from cardgen.render.shop import face_images

SHEET_PX = 4096
GRID = (10, 7)
MAX_DPI = 300
CARD_MM = 63.5  # a poker card's width: TTS's card mesh at scale 1
TILE_TYPES = {"rect": 0, "hex": 1, "round": 2}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Transform(Strict):
    posX: float = 0.0
    posY: float = 1.0
    posZ: float = 0.0
    rotX: float = 0.0
    rotY: float = 180.0
    rotZ: float = 0.0
    scaleX: float = 1.0
    scaleY: float = 1.0
    scaleZ: float = 1.0


class DeckSheet(Strict):
    FaceURL: str
    BackURL: str
    NumWidth: int
    NumHeight: int
    BackIsHidden: bool = True
    UniqueBack: bool = False
    Type: int = 0


class Card(Strict):
    Name: Literal["Card"] = "Card"
    Transform: Transform
    Nickname: str
    Description: str
    CardID: int
    CustomDeck: dict[str, DeckSheet]


class Deck(Strict):
    Name: Literal["DeckCustom"] = "DeckCustom"
    Transform: Transform
    Nickname: str
    Description: str = ""
    DeckIDs: list[int]
    CustomDeck: dict[str, DeckSheet]
    ContainedObjects: list[Card]


class TileShape(Strict):
    Type: int
    Thickness: float = 0.1
    Stackable: bool = True
    Stretch: bool = True


class TileImage(Strict):
    ImageURL: str
    ImageSecondaryURL: str
    ImageScalar: float = 1.0
    WidthScale: float = 0.0
    CustomTile: TileShape


class Tile(Strict):
    Name: Literal["Custom_Tile"] = "Custom_Tile"
    Transform: Transform
    Nickname: str
    Description: str
    CustomImage: TileImage


class BoardImage(Strict):
    ImageURL: str
    ImageSecondaryURL: str = ""
    ImageScalar: float = 1.0
    WidthScale: float = 0.0


class Board(Strict):
    Name: Literal["Custom_Board"] = "Custom_Board"
    Transform: Transform
    Nickname: str
    Description: str
    CustomImage: BoardImage


class Bag(Strict):
    Name: Literal["Bag"] = "Bag"
    Transform: Transform
    Nickname: str
    Description: str = ""
    ContainedObjects: list[Tile | Board]


class SavedObject(Strict):
    SaveName: str
    GameMode: str
    Date: str = ""
    VersionNumber: str = ""
    GameType: str = ""
    GameComplexity: str = ""
    Tags: list[str] = []
    Gravity: float = 0.5
    PlayArea: float = 0.5
    Table: str = ""
    Sky: str = ""
    Note: str
    TabStates: dict[str, Any] = {}
    LuaScript: str = ""
    LuaScriptState: str = ""
    XmlUI: str = ""
    ObjectStates: list[Deck | Card | Bag | Board]


def write_tts_component(job: ComponentJob, folder: Path) -> OutputFile:
    """The images of one component and its TTS object (kept on the returned file for `write_saved_object`)."""
    component = job.component
    if component.kind == "deck" and component.shape == "rect" and component.size is not None:
        obj, images = _deck(job, folder)
    elif component.kind in ("counters", "tiles") or component.kind == "deck":
        obj, images = _tiles(job, folder)
    else:
        obj, images = _boards(job, folder)
    return OutputFile(folder, images, component.id, tts=obj)


def _nickname(fields: dict[str, Any], item_id: str) -> str:
    for key in ("name", "title", "label"):
        if isinstance(fields.get(key), str) and fields[key]:
            return str(fields[key])
    return item_id


def _description(fields: dict[str, Any]) -> str:
    """Every text field of the item for TTS's tooltip — `text` first as it is, any other long one after its name
    (`ability: …`) — then its short fields on one line; markup removed and icons as their names' words."""
    skip = ("name", "title", "effects")
    texts: list[str] = []
    facts: list[str] = []
    for key, value in fields.items():
        if key in skip or not isinstance(value, int | str) or isinstance(value, bool):
            continue
        words = _plain(str(value))
        if key == "text":
            texts.insert(0, words)
        elif isinstance(value, str) and len(words) > 40:
            texts.append(f"{key}: {words}")
        elif words:
            facts.append(f"{key}: {words}")
    return "\n".join(filter(None, [*texts, " · ".join(facts)]))


def _plain(text: str) -> str:
    """Card text without markup: bold and italic marks dropped, `{icon}` and `{icon:colour}` as the icon's name in
    words (`{credits}` → credits, `{hit_point}` → hit point)."""
    text = re.sub(r"\*\*|__|\*", "", text)
    return re.sub(r"\{([A-Za-z0-9_.-]+)(?::[^{}]*)?\}", lambda m: re.sub(r"[_-]+", " ", m.group(1)), text)


def _pixels(
    width_mm: float, height_mm: float, columns: int = 1, rows: int = 1, dpi: float = MAX_DPI
) -> tuple[int, int]:
    """A face's size in pixels: at most `dpi`, with `columns` × `rows` faces within SHEET_PX a side."""
    scale = min(dpi / 25.4, SHEET_PX / (columns * width_mm), SHEET_PX / (rows * height_mm))  # pixels per mm
    return max(1, math.floor(width_mm * scale)), max(1, math.floor(height_mm * scale))


def sheet_grid(faces: int) -> tuple[int, int]:
    """Columns and rows of a deck's face sheets: room for `faces` and the hidden card, at most GRID, and at least
    2 × 2 — Tabletop Simulator refuses a custom deck sheet one card wide or one card high."""
    slots = min(faces + 1, GRID[0] * GRID[1])
    rows = max(2, math.ceil(slots / GRID[0]))
    return max(2, min(GRID[0], math.ceil(slots / rows))), rows


def _faces(job: ComponentJob, keys: list[str], size: tuple[int, int]) -> dict[str, Any]:
    """Each distinct face cut at the trim and resampled to exactly `size` pixels (rendered a little larger first)."""
    from PIL import Image

    unique = list(dict.fromkeys(keys))
    dpi = size[0] / (job.face.width / 25.4) * 1.05
    images = face_images(job, unique, dpi)  # type: ignore[arg-type]
    cut = job.bleed / 25.4 * dpi
    out = {}
    for key, image in zip(unique, images, strict=True):
        box = (round(cut), round(cut), round(image.width - cut), round(image.height - cut))
        out[key] = image.crop(box).convert("RGB").resize(size, Image.Resampling.LANCZOS)
    return out


def _png(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()


def _deck(job: ComponentJob, folder: Path) -> tuple[dict[str, Any], int]:
    from PIL import Image

    component = job.component
    items = [i for i in component.items if i.count]
    per_sheet = GRID[0] * GRID[1] - 1  # the last slot shows the hidden card
    columns, rows = sheet_grid(len(items))
    size = _pixels(job.face.width, job.face.height, columns, rows)
    fronts = [job.faces.item_faces[i.id][0] for i in items]
    backs = [job.faces.item_faces[i.id][1] for i in items]
    faces = _faces(job, [*fronts, *(b for b in backs if b)], size)
    blank = Image.new("RGB", size, "white")
    unique_back = len(set(backs)) > 1
    images = 0
    back_url = ""
    if not unique_back:
        back = faces[backs[0]] if backs[0] else blank
        write_atomic(folder / "back.png", _png(back))
        back_url, images = "back.png", 1
    sheets: dict[str, DeckSheet] = {}
    cards: list[Card] = []
    ids: list[int] = []
    for number, start in enumerate(range(0, len(items), per_sheet), 1):
        chunk = items[start : start + per_sheet]
        face_sheet = Image.new("RGB", (columns * size[0], rows * size[1]), "white")
        back_sheet = Image.new("RGB", face_sheet.size, "white") if unique_back else None
        for slot, item in enumerate(chunk):
            front, back_key = job.faces.item_faces[item.id]
            at = ((slot % columns) * size[0], (slot // columns) * size[1])
            face_sheet.paste(faces[front], at)
            if back_sheet is not None:
                back_sheet.paste(faces[back_key] if back_key else blank, at)
            card_id = number * 100 + slot
            nickname = _nickname(dict(item.fields), item.id)
            for _ in range(item.count):
                ids.append(card_id)
                cards.append(Card(Transform=Transform(), Nickname=nickname, Description=_description(dict(item.fields)),
                                  CardID=card_id, CustomDeck={}))  # fmt: skip
        hidden = (columns * rows - 1) % columns * size[0], (columns * rows - 1) // columns * size[1]
        face_sheet.paste(faces[backs[0]] if backs[0] and not unique_back else blank, hidden)
        write_atomic(folder / f"faces-{number}.png", _png(face_sheet))
        images += 1
        url = back_url
        if back_sheet is not None:
            write_atomic(folder / f"backs-{number}.png", _png(back_sheet))
            url, images = f"backs-{number}.png", images + 1
        sheets[str(number)] = DeckSheet(FaceURL=f"faces-{number}.png", BackURL=url, NumWidth=columns, NumHeight=rows,
                                        UniqueBack=unique_back)  # fmt: skip
    for card in cards:
        key = str(card.CardID // 100)
        card.CustomDeck = {key: sheets[key]}
    scale = job.face.width / CARD_MM
    transform = Transform(scaleX=scale, scaleZ=scale, rotZ=180.0)  # face down, as a deck is dealt
    if len(cards) == 1:
        cards[0].Transform = transform
        return cards[0].model_dump(), images
    deck = Deck(Transform=transform, Nickname=component.title, DeckIDs=ids, CustomDeck=sheets, ContainedObjects=cards)
    return deck.model_dump(), images


def _tiles(job: ComponentJob, folder: Path) -> tuple[dict[str, Any], int]:
    component = job.component
    size = _pixels(job.face.width, job.face.height, dpi=200)  # tokens are small: 200 dpi is more than TTS shows
    items = [i for i in component.items if i.count]
    keys = [k for i in items for k in job.faces.item_faces[i.id] if k]
    faces = _faces(job, keys, size)
    written: dict[str, str] = {}
    for item in items:
        for side, key in zip(("front", "back"), job.faces.item_faces[item.id], strict=True):
            if key and key not in written:
                name = f"{item.id}-{side}.png"
                write_atomic(folder / name, _png(faces[key]))
                written[key] = name
    shape = TileShape(Type=TILE_TYPES.get(component.shape, 0))
    scale = job.face.width / 25.4 / 2  # a tile at scale 1 is about two inches across in TTS
    tiles: list[Tile | Board] = []
    for item in items:
        front, back = job.faces.item_faces[item.id]
        image = TileImage(ImageURL=written[front], ImageSecondaryURL=written[back] if back else written[front],
                          CustomTile=shape)  # fmt: skip
        tile = Tile(Transform=Transform(scaleX=scale, scaleZ=scale), Nickname=_nickname(dict(item.fields), item.id),
                    Description=_description(dict(item.fields)), CustomImage=image)  # fmt: skip
        tiles += [tile] * item.count
    bag = Bag(Transform=Transform(), Nickname=component.title, ContainedObjects=tiles)
    return bag.model_dump(), len(written)


def _boards(job: ComponentJob, folder: Path) -> tuple[dict[str, Any], int]:
    component = job.component
    items = [i for i in component.items if i.count]
    size = _pixels(job.face.width, job.face.height, dpi=150)
    fronts = [job.faces.item_faces[i.id][0] for i in items]
    faces = _faces(job, fronts, size)
    boards: list[Tile | Board] = []
    for item, key in zip(items, fronts, strict=True):
        name = f"{item.id}.png"
        write_atomic(folder / name, _png(faces[key]))
        scale = job.face.width / 25.4 / 10  # a board at scale 1 is about ten inches across in TTS
        fields = dict(item.fields)
        where = Transform(scaleX=scale, scaleZ=scale)
        boards.append(Board(Transform=where, Nickname=_nickname(fields, item.id), Description=_description(fields),
                            CustomImage=BoardImage(ImageURL=name)))  # fmt: skip
    if len(boards) == 1:
        return boards[0].model_dump(), len(boards)
    bag = Bag(Transform=Transform(), Nickname=component.title, ContainedObjects=list(boards))
    return bag.model_dump(), len(boards)


def check_base_url(url: str, out_dir: Path) -> str:
    """`--tts-base-url` as the saved object may use it, or a `DataError` naming the option: an http(s) address with a
    host, or a `file:` address of a folder inside the output folder `out_dir` (a saved object is shared; it must
    not send Tabletop Simulator to read files elsewhere on a player's disk, such as `file:///etc/`)."""
    from urllib.parse import unquote, urlsplit

    from cardgen.errors import DataError, clipped

    wrong = f"--tts-base-url: '{clipped(url, 60)}' is not"
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        raise DataError(f"{wrong} a URL") from None
    if any(c.isspace() or not c.isprintable() for c in url):
        raise DataError(f"{wrong} a URL (it holds a space or a control character)")
    scheme = parts.scheme.lower()
    if scheme in ("http", "https"):
        if not host:
            raise DataError(f"{wrong} an address with a host, like https://example.org/my-game/")
        return url
    if scheme != "file":
        raise DataError(f"{wrong} an http(s) or file: address (the images' folder once uploaded, e.g. https://…/)")
    if not parts.path.startswith("/"):
        raise DataError(f"{wrong} an absolute file: address (file:///…/)")
    inside = out_dir.resolve()
    where = Path(unquote(parts.path)).resolve()
    if parts.netloc not in ("", "localhost") or not where.is_relative_to(inside):
        raise DataError(
            f"--tts-base-url: '{clipped(url, 60)}' is outside the output folder ({inside.as_uri()}/): a file: address "
            "must name a folder inside it"
        )
    return url


def write_saved_object(title: str, description: str, files: list[OutputFile], folder: Path, base_url: str | None,
                       name: str) -> Path:  # fmt: skip
    """The game's saved object: its components' objects in a row, keys of card sheets made unique, addresses made
    absolute (the folder's `file:///` address, or `base_url`)."""
    base = base_url.rstrip("/") + "/" if base_url else folder.resolve().as_uri() + "/"
    objects: list[dict[str, Any]] = []
    next_key = 1
    for x, file in enumerate(f for f in files if f.tts):
        obj = json.loads(json.dumps(file.tts))
        prefix = f"{base}{file.path.name}/"
        next_key = _renumber(obj, next_key, prefix)
        obj["Transform"]["posX"], obj["Transform"]["posZ"] = table_spot(x)
        objects.append(obj)
    saved = SavedObject(SaveName=title, GameMode=title, Note=description, ObjectStates=objects)  # type: ignore[arg-type]
    path = folder / f"{name}.json"
    write_atomic(path, (json.dumps(saved.model_dump(), indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return path


TABLE_ROW = 5  # objects a row
TABLE_STEP = 5.0  # units between objects (a poker card at scale 1 is about 2.2 × 3.1)
TABLE_HALF = 12.0  # every object within this many units of the table's centre (the default table's top spans ±~17)


def table_spot(index: int) -> tuple[float, float]:
    """Where the `index`-th object lies: rows of TABLE_ROW centred on the table, row after row towards the players,
    wrapping back to the first row past TABLE_HALF (objects then stack, still on the table)."""
    rows = int(2 * TABLE_HALF // TABLE_STEP) + 1
    column, row = index % TABLE_ROW, (index // TABLE_ROW) % rows
    return (column - (TABLE_ROW - 1) / 2) * TABLE_STEP, TABLE_HALF - row * TABLE_STEP


def _renumber(obj: dict[str, Any], start: int, prefix: str) -> int:
    """Give a deck's sheets keys unique in the save (start, start+1…), rewrite its card ids, prefix its image
    addresses; returns the next free key."""
    mapping: dict[str, str] = {}

    def key_of(old: str) -> str:
        if old not in mapping:
            mapping[old] = str(start + len(mapping))
        return mapping[old]

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if "CustomDeck" in node:
                node["CustomDeck"] = {key_of(k): v for k, v in node["CustomDeck"].items()}
            if "CardID" in node:
                node["CardID"] = int(key_of(str(node["CardID"] // 100))) * 100 + node["CardID"] % 100
            if "DeckIDs" in node:
                node["DeckIDs"] = [int(key_of(str(i // 100))) * 100 + i % 100 for i in node["DeckIDs"]]
            for field in ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL"):
                if node.get(field):
                    node[field] = prefix + node[field]
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(obj)
    return start + len(mapping)


def schema() -> dict[str, Any]:
    """The JSON Schema of the saved object cardgen writes (docs/tts-schema.json)."""
    return SavedObject.model_json_schema()
