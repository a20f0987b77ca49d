"""One sheet of an XLSX workbook as rows of text, read as it is inflated and within the limits.

An XLSX file is a zip of XML parts, and a few MB of it can unpack to gigabytes: 1.5 million rows, or one shared
string of 400 MB. openpyxl streams a sheet's rows in read-only mode but reads the shared strings whole, so cardgen
reads the parts itself with expat: each part's declared size is checked before it is opened and its bytes are counted
while it is inflated (`table_unpacked_bytes`), a cell's text is kept only up to `table_cell_length` characters, and the
rows are yielded one at a time so that a reader can stop at its item limit. Parts that declare a DTD are refused
(no entities, no entity bombs).

Cells are read as openpyxl read them with `data_only=True` (cardgen used it before): a formula's cached value,
numbers as written (`4.0` → `4`), booleans as `true`/`false`; only a date differs, read as its serial number (openpyxl
made it a datetime; no card field is a date). A sheet's rows are bounded as they are read: `table_columns` cells in a
row, `table_cells` in the table, empty ones included (20 MB of `<c/>` are five million cells).
"""

from __future__ import annotations

import os
import posixpath
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from cardgen import limits
from cardgen.errors import DataError, did_you_mean, display_path

CHUNK = 1 << 16
COLUMNS = 16_384  # XFD, the last column a sheet can have
_CELL = re.compile(r"^([A-Z]{1,3})(\d{1,7})$")
# the elements read, by the names expat gives them: "namespace local", whichever of the two namespaces (transitional,
# strict) a workbook uses, or the bare local name; looked up once per element (splitting each name cost a third)
_NAMESPACES = (
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main",
    "http://schemas.openxmlformats.org/package/2006/relationships",
)
_ELEMENTS = ("sheet", "Relationship", "si", "t", "rPh", "row", "c", "v", "f")
_LOCAL = {f"{space} {name}": name for space in _NAMESPACES for name in _ELEMENTS} | {n: n for n in _ELEMENTS}
# what `zipfile` raises for a damaged or unusual file: NotImplementedError is its answer to a compression method it
# does not know, RuntimeError to an encrypted part, EOFError to a truncated one
_UNREADABLE = (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, OSError)
Row = tuple[int, list[str]]


class CellProblem(Exception):
    """A cell that cannot be read: its row, its 0-based column and why (the table reader names the column)."""

    def __init__(self, row: int, column: int, message: str):
        super().__init__(message)
        self.row, self.column, self.message = row, column, message


def too_long(row: int, column: int, length: int) -> CellProblem:
    bound = limits.current().table_cell_length
    return CellProblem(
        row,
        column,
        f"the cell holds {length:,} characters, more than the limit of {bound:,} "
        "(raise it with --limit table_cell_length=N if you mean it)",
    )


def too_many_cells(row: int, cells: int | None = None) -> CellProblem:
    """A row with more cells than `table_columns` (`cells`, if known; a sheet is not read further to count them)."""
    bound = limits.current().table_columns
    what = f"the row has {cells:,} cells" if cells is not None else "the row goes on"
    return CellProblem(
        row, bound, f"{what}, more than the limit of {bound:,} (raise it with --limit table_columns=N if you mean it)"
    )


def too_many_cells_in_all(row: int, column: int) -> CellProblem:
    bound = limits.current().table_cells
    return CellProblem(
        row,
        column,
        f"the table has more than {bound:,} cells (empty ones count); reading stopped here "
        "(raise it with --limit table_cells=N if you mean it)",
    )


def column_letters(index: int) -> str:
    """0 → `A`, 27 → `AB`."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def sheet_rows(path: Path, sheet: str | None, shown: str | None = None) -> tuple[str, Iterator[Row]]:
    """The name of the sheet named `sheet` (else the first) and its rows, (row number, cells as text), read as they
    are iterated; a `DataError` naming the file (as `shown`, else its path; and the part) if the workbook cannot be
    read, a `CellProblem` for a cell."""
    shown = shown or display_path(path)
    _check_directory(path, shown)
    try:
        book = zipfile.ZipFile(path)
    except _UNREADABLE as exc:
        raise _unreadable(shown, exc) from None
    try:
        workbook = _Workbook(book, shown)
        part = workbook.sheet_part(sheet)
    except _UNREADABLE as exc:
        book.close()
        raise _unreadable(shown, exc) from None
    except BaseException:
        book.close()
        raise
    return workbook.sheet, _rows(book, workbook, part)


# A workbook holds a few dozen parts, but `zipfile` reads the whole list of them into memory before anything else:
# a 20 MB file can list 230,000 empty parts (some 120 MB and seconds to read), so the list is counted first.
MOST_PARTS = 10_000
_END = struct.Struct("<4s4H2LH")  # the zip's end of central directory record: its last 22 bytes but a comment


def _check_directory(path: Path, shown: str) -> None:
    """Refuse a zip whose end record lists more than `MOST_PARTS` parts (a zip64 count shows as 65,535), before
    `zipfile` reads them; a file without that record is left for `zipfile` to call unreadable."""
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - _END.size - 0xFFFF))  # the record, and a comment of at most 65,535 bytes
            tail = handle.read()
    except OSError as exc:
        raise DataError(f"{shown}: cannot read ({exc.strerror})") from None
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _END.size:
        return
    parts = _END.unpack_from(tail, at)[4]
    if parts > MOST_PARTS:
        raise DataError(
            f"{shown}: the workbook lists {parts:,} parts{' or more' if parts == 0xFFFF else ''}; a workbook holds a "
            f"few dozen (at most {MOST_PARTS:,} are read)"
        )


def _rows(book: zipfile.ZipFile, workbook: _Workbook, part: str) -> Iterator[Row]:
    try:
        with book:
            yield from workbook.rows(part)
    except _UNREADABLE as exc:
        raise _unreadable(workbook.shown, exc) from None


def _unreadable(shown: str, exc: BaseException) -> DataError:
    return DataError(f"{shown}: not a readable XLSX workbook ({type(exc).__name__}: {exc})")


class _Stop(Exception):
    """Raised from a parser's handler to stop reading a sheet."""


class _Workbook:
    """The parts of one workbook, read within one budget of unpacked bytes."""

    def __init__(self, book: zipfile.ZipFile, shown: str):
        self.book, self.shown = book, shown
        self.budget = limits.current().table_unpacked_bytes
        self.main = self.relations("_rels/.rels", "")[0].get("officeDocument", ["xl/workbook.xml"])[0]
        self.sheet = ""
        self.strings_part: str | None = None

    def sheet_part(self, sheet: str | None) -> str:
        """The part holding the sheet named `sheet`, or the first sheet (and where the shared strings are)."""
        sheets: dict[str, str] = {}  # name → relationship id, in the workbook's order

        def start(name: str, attributes: dict[str, str]) -> None:
            if _LOCAL.get(name) == "sheet":  # its relationship id is r:id, in one of two namespaces
                relation = next((value for key, value in attributes.items() if key.endswith(" id")), "")
                sheets.setdefault(attributes.get("name", ""), relation)

        for _ in self.parse(self.main, start):
            pass
        if not sheets:
            raise DataError(f"{self.shown}: the workbook has no sheets")
        if sheet is not None and sheet not in sheets:
            raise DataError(f"{self.shown}: no sheet '{sheet}'{did_you_mean(sheet, list(sheets))}")
        self.sheet = sheet if sheet is not None else next(iter(sheets))
        folder, base = posixpath.split(self.main)
        kinds, ids = self.relations(posixpath.join(folder, "_rels", base + ".rels"), folder)
        self.strings_part = kinds.get("sharedStrings", [None])[0]
        part = ids.get(sheets[self.sheet])
        if part is None:
            raise DataError(f"{self.shown}: sheet '{self.sheet}' names no part of the workbook")
        return part

    def relations(self, part: str, folder: str) -> tuple[dict[str, list[str]], dict[str, str]]:
        """The targets of a relationships part (resolved against `folder`) by the last word of their type
        (`officeDocument`, `sharedStrings`) and by id; none if the part is missing."""
        kinds: dict[str, list[str]] = {}
        ids: dict[str, str] = {}

        def start(name: str, attributes: dict[str, str]) -> None:
            if _LOCAL.get(name) != "Relationship" or attributes.get("TargetMode") == "External":
                return
            target = attributes.get("Target", "")
            joined = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
            kinds.setdefault(attributes.get("Type", "").rpartition("/")[2], []).append(posixpath.normpath(joined))
            ids[attributes.get("Id", "")] = posixpath.normpath(joined)

        if part in self.book.NameToInfo:
            for _ in self.parse(part, start):
                pass
        return kinds, ids

    def rows(self, part: str) -> Iterator[Row]:
        strings = _SharedStrings(self, self.strings_part).read() if self.strings_part else []
        yield from _Sheet(self, part, strings).rows()

    def parse(
        self,
        part: str,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None] | None = None,
        text: Callable[[str], None] | None = None,
    ) -> Iterator[None]:
        """Parse `part` as it is inflated, calling the handlers with expat's names (`_LOCAL` turns them into local
        names); yields after each chunk."""
        try:
            info = self.book.getinfo(part)
        except KeyError:
            raise DataError(f"{self.shown}: not a readable XLSX workbook (no part {part})") from None
        if info.file_size > self.budget:
            raise self.too_big(f"{part} declares {info.file_size:,} bytes unpacked: the parts read would pass")
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.buffer_text = True
        parser.StartDoctypeDeclHandler = lambda *_: self.refuse_dtd(part)
        parser.EntityDeclHandler = lambda *_: self.refuse_dtd(part)
        parser.StartElementHandler = start
        if end is not None:
            parser.EndElementHandler = end
        if text is not None:
            parser.CharacterDataHandler = text
        with self.book.open(info) as stream:
            while True:
                chunk = stream.read(CHUNK)
                self.budget -= len(chunk)
                if self.budget < 0:  # more than the declared size (zipfile stops there, but do not rely on it)
                    raise self.too_big(f"{part} unpacks to more than its declared size: the parts read pass")
                self.feed(parser, part, chunk, final=not chunk)
                yield
                if not chunk:
                    return

    def feed(self, parser: Any, part: str, chunk: bytes, final: bool) -> None:
        try:
            parser.Parse(chunk, final)
        except expat.ExpatError as exc:
            where = f"{part}:{exc.lineno}:{exc.offset + 1}"
            raise DataError(f"{self.shown}: {where}: not well-formed XML ({expat.ErrorString(exc.code)})") from None

    def too_big(self, what: str) -> DataError:
        bound = limits.current().table_unpacked_bytes
        return DataError(
            f"{self.shown}: {what} the limit of {bound:,} bytes (a zip bomb?); "
            "raise it with --limit table_unpacked_bytes=N if you mean it"
        )

    def refuse_dtd(self, part: str) -> None:
        raise DataError(f"{self.shown}: {part} declares a DTD or entities, which a workbook has no use for")


class _Text:
    """The text of the element being read, kept up to the cell limit and counted beyond it."""

    def __init__(self) -> None:
        self.bound = limits.current().table_cell_length
        self.pieces: list[str] = []
        self.length = 0
        self.open = False

    def reset(self) -> None:
        if self.length:  # most cells of a flood are empty: nothing to drop
            self.pieces = []
            self.length = 0

    def add(self, data: str) -> None:
        if self.open:
            self.length += len(data)
            if self.length <= self.bound:
                self.pieces.append(data)

    def value(self) -> str | int:
        """The text, or its length when it is over the limit."""
        return self.length if self.length > self.bound else "".join(self.pieces)


class _SharedStrings:
    """The workbook's shared strings (`<si>`, the text of its `<t>` outside phonetic runs); one that is too long
    is kept as its length, an error only if a cell uses it."""

    def __init__(self, workbook: _Workbook, part: str):
        self.workbook, self.part = workbook, part
        self.strings: list[str | int] = []
        self.text = _Text()
        self.phonetic = False

    def read(self) -> list[str | int]:
        for _ in self.workbook.parse(self.part, self.start, self.end, self.text.add):
            pass
        return self.strings

    def start(self, qualified: str, attributes: dict[str, str]) -> None:
        name = _LOCAL.get(qualified, "")
        if name == "si":
            self.text.reset()
        elif name == "rPh":
            self.phonetic = True
        elif name == "t" and not self.phonetic:
            self.text.open = True

    def end(self, qualified: str) -> None:
        name = _LOCAL.get(qualified, "")
        if name == "t":
            self.text.open = False
        elif name == "rPh":
            self.phonetic = False
        elif name == "si":
            self.strings.append(self.text.value())


NO_SAVED_VALUE = (
    "a formula with no value saved beside it (the program that wrote the file does not compute formulas): open and "
    "save the file in a spreadsheet program, or write the value itself"
)


class _Sheet:
    """A worksheet's rows, gathered as its XML is parsed and handed out one by one."""

    def __init__(self, workbook: _Workbook, part: str, strings: list[str | int]):
        self.workbook, self.part, self.strings = workbook, part, strings
        self.ready: list[tuple[int, dict[int, str], CellProblem | None]] = []
        self.row, self.cells = 0, dict[int, str]()
        self.problem: CellProblem | None = None
        self.column, self.kind = -1, ""
        self.columns = limits.current().table_columns
        self.cells_left = limits.current().table_cells
        self.stop = False
        self.text = _Text()
        self.phonetic = False
        self.formula = False  # the cell being read holds a formula (its value is the one saved with it)

    def rows(self) -> Iterator[Row]:
        try:
            for _ in self.workbook.parse(self.part, self.start, self.end, self.text.add):
                yield from self.take()
        except _Stop:
            yield from self.take()  # the rows before the one that stopped the reading, then its problem

    def take(self) -> Iterator[Row]:
        """The rows parsed so far; a problem waits for its row, so that the header (read by then) names its
        column."""
        for number, cells, problem in self.ready:
            if problem is not None:
                raise problem
            yield number, [cells.get(i, "") for i in range(max(cells, default=-1) + 1)]
        self.ready.clear()

    def start(self, qualified: str, attributes: dict[str, str]) -> None:
        name = _LOCAL.get(qualified, "")
        if name == "c":
            self.column = self.cell_column(attributes.get("r")) if "r" in attributes else self.column + 1
            if self.column >= self.columns:
                raise too_many_cells(self.row)
            self.cells_left -= 1
            if self.cells_left < 0:  # empty cells cost time too: 20 MB of <c/> are 5 million of them
                self.problem = self.problem or too_many_cells_in_all(self.row, self.column)
                self.stop = True  # at the end of this row (at most table_columns cells away)
            self.kind = attributes.get("t", "n")
            self.formula = False
            self.text.reset()
        elif name == "row":
            self.row = _whole(attributes["r"], self.row) if "r" in attributes else self.row + 1
            self.cells, self.column, self.problem = {}, -1, None
        elif name == "rPh":
            self.phonetic = True
        elif name == "f":
            self.formula = True
        elif name == "v" or (name == "t" and not self.phonetic):
            self.text.open = True

    def end(self, qualified: str) -> None:
        name = _LOCAL.get(qualified, "")
        if name == "c":
            if not self.text.length:
                if self.formula:  # read as empty, a count would silently become 1
                    self.problem = self.problem or CellProblem(self.row, self.column, NO_SAVED_VALUE)
                return  # an empty cell
            try:
                value = self.cell_text()
            except CellProblem as exc:
                self.problem = self.problem or exc
                return
            if value:
                self.cells[self.column] = value
        elif name in ("v", "t"):
            self.text.open = False
        elif name == "row":
            self.ready.append((self.row, self.cells, self.problem))
            if self.stop:
                raise _Stop
        elif name == "rPh":
            self.phonetic = False

    def cell_column(self, reference: str | None) -> int:
        match = _CELL.match(reference or "")
        index = -1
        for letter in match.group(1) if match else "":
            index = (index + 1) * 26 + ord(letter) - 65
        if not match or index >= COLUMNS:
            raise DataError(
                f"{self.workbook.shown}:{self.row}: sheet '{self.workbook.sheet}': '{reference}' is not a cell"
            )
        return index

    def cell_text(self) -> str:
        value = self.text.value()
        if isinstance(value, int):
            raise too_long(self.row, self.column, value)
        if not value or self.kind in ("str", "inlineStr", "e", "d"):
            return value
        if self.kind == "s":
            return self.shared(value)
        if self.kind == "b":
            return "true" if value.strip() not in ("0", "") else "false"
        return self.number(value)

    def shared(self, index: str) -> str:
        digits = index.strip()
        position = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 9 else len(self.strings)
        if position >= len(self.strings):
            raise CellProblem(self.row, self.column, f"refers to shared string {index[:20]}, which is not there")
        value = self.strings[position]
        if isinstance(value, int):
            raise too_long(self.row, self.column, value)
        return value

    def number(self, text: str) -> str:
        """A number as openpyxl gives it, as text: `4.0` → `4`, `1E-5` → `1e-05`."""
        try:
            if any(mark in text for mark in ".eE"):
                number = float(text)
                return str(int(number)) if number.is_integer() else str(number)
            return str(int(text))
        except (ValueError, OverflowError):
            raise CellProblem(self.row, self.column, f"'{text[:40]}' is not a number") from None


def _whole(text: str, previous: int) -> int:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 7 else previous + 1
