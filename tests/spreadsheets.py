"""Big and lying spreadsheets for the hostile tests, written quickly: a CSV line by line, an XLSX with `zipfile`
directly (its sheet and shared strings streamed from generators), never built cell by cell with openpyxl.

Each writes the demo game's ship deck (`id`, `name`, `cost`, `attack`, `hull`, `faction`) so that a small one loads.
"""

from __future__ import annotations

import struct
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

COLUMNS = ("id", "name", "cost", "attack", "hull", "faction")
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)


def ship_rows(count: int) -> Iterator[str]:
    """`count` CSV lines of ships after the header, each with its own id."""
    yield ",".join(COLUMNS) + "\n"
    for start in range(0, count, 10_000):
        yield "".join(f"s{number},Scout,2,1,1,Union\n" for number in range(start, min(start + 10_000, count)))


def write_csv(path: Path, lines: Iterable[str]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.writelines(lines)
    return path


def _inline(column: str, text: str) -> str:
    return f'<c r="{column}" t="inlineStr"><is><t>{text}</t></is></c>'


def sheet_rows(count: int, name: str = '<c t="s"><v>0</v></c>') -> Iterator[str]:
    """A sheet's XML: a header row, then `count` ships (ids are numbers, the name cell as given: by default the
    first shared string), streamed."""
    header = "".join(_inline(f"{chr(65 + i)}1", column) for i, column in enumerate(COLUMNS))
    yield f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData><row r="1">{header}</row>'
    tail = f'{name}<c><v>2</v></c><c><v>1</v></c><c><v>1</v></c><c t="inlineStr"><is><t>Union</t></is></c></row>'
    for start in range(0, count, 10_000):  # in blocks: a million small writes would take seconds
        yield "".join(f"<row><c><v>{number}</v></c>{tail}" for number in range(start, min(start + 10_000, count)))
    yield "</sheetData></worksheet>"


def shared_strings(pieces: Iterable[str]) -> Iterator[str]:
    """A shared-strings part whose first string is the text of `pieces`, joined (streamed: it may be huge)."""
    yield f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}"><si><t>'
    yield from pieces
    yield "</t></si></sst>"


def write_xlsx(path: Path, sheet: Iterable[str], strings: Iterable[str] | None = None) -> Path:
    """A minimal but complete workbook (openpyxl and Excel open it) with one sheet, 'Fleet', and shared strings (by
    default one, 'Scout')."""
    strings = shared_strings(["Scout"]) if strings is None else strings
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as book:
        book.writestr("[Content_Types].xml", CONTENT_TYPES)
        book.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{PACKAGE_RELS}"><Relationship Id="rId1" Target="xl/workbook.xml" '
            f'Type="{RELS}/officeDocument"/></Relationships>',
        )
        book.writestr(
            "xl/workbook.xml",
            f'<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets><sheet name="Fleet" sheetId="1" r:id="rId1"/>'
            "</sheets></workbook>",
        )
        book.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<Relationships xmlns="{PACKAGE_RELS}">'
            f'<Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="{RELS}/worksheet"/>'
            f'<Relationship Id="rId2" Target="sharedStrings.xml" Type="{RELS}/sharedStrings"/></Relationships>',
        )
        for name, part in (("xl/worksheets/sheet1.xml", sheet), ("xl/sharedStrings.xml", strings)):
            with book.open(name, "w", force_zip64=True) as stream:
                for text in part:
                    stream.write(text.encode())
    return path


def declare_size(path: Path, part: str, size: int) -> Path:
    """Make the zip's central directory lie: `part` is declared to unpack to `size` bytes (under 4 GB, so no zip64
    field: `zipfile` writes one in the central directory only for larger parts)."""
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, _central_entry(data, part.encode()) + 24, size)
    path.write_bytes(bytes(data))
    return path


def _central_entry(data: bytearray, name: bytes) -> int:
    start = 0
    while (entry := data.find(b"PK\x01\x02", start)) >= 0:
        name_length = struct.unpack_from("<H", data, entry + 28)[0]
        if data[entry + 46 : entry + 46 + name_length] == name:
            return entry
        start = entry + 4
    raise ValueError(f"no {name!r} in the central directory")


def pad_parts(path: Path, count: int) -> Path:
    """Add `count` empty parts to a workbook (a zip lists them all in its central directory)."""
    with zipfile.ZipFile(path, "a", zipfile.ZIP_STORED) as book:
        for index in range(count):
            book.writestr(f"pad/{index}", b"")
    return path
