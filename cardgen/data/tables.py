"""Items from spreadsheets: a component's cards may live in a CSV or XLSX file instead of YAML.

A component file names the table in place of its list of items::

    type: unit
    front: unit
    cards: {file: units.csv}                  # or {file: units.xlsx, sheet: Units}

The first row holds the column headers: the reserved columns (`id`, `count`, `type`, `front`, `back`, `source`) and
the card type's fields. Cells are typed by the card type — a number column holds numbers, a `bool` column true/false
(yes/no, 1/0), a `list` column its elements separated by `;` — and an empty cell takes the field's default. Cells of
`any` fields (and a `source` that maps fields to origins) hold JSON when they are not plain text. A mistake names the
file, the row and the column: `units.csv:14: column 'cost': 'x' is not a whole number`.

A table is read as it streams (`cardgen.data.xlsx` reads an XLSX file's parts itself) and reading stops at the first
bound it passes (`cardgen.limits`): the item limit (blank rows count), the file's size, an XLSX file's unpacked size,
the cells in a row and in the table, a cell's length. A NUL character in a CSV cell is refused: no text holds one.

`write_table` writes the reverse (`cardgen export-items`), so that data can go from YAML to a spreadsheet and back
unchanged.

A text cell that a spreadsheet would run as a formula — one starting with `=`, `+`, `-`, `@`, a tab or a carriage
return — is written with a leading `'` (as OWASP advises against CSV injection); numbers are written as they are
(`-3` is a number to a spreadsheet, not a formula). Reading drops a leading `'` only when what follows starts with one
of those characters or with another `'`, and writing adds one to a text that starts so, so every value reads back
unchanged: `+2 attack` is written `'+2 attack`, `'=x` is written `''=x`, and `'tis` stays `'tis`.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from cardgen import limits
from cardgen.data.languages import SEPARATOR, refused
from cardgen.data.model import RESERVED_ITEM_KEYS, CardType, FieldSpec
from cardgen.data.xlsx import (
    CellProblem,
    Row,
    column_letters,
    sheet_rows,
    too_long,
    too_many_cells,
    too_many_cells_in_all,
)
from cardgen.data.yaml_source import PathKey, YamlDocument
from cardgen.errors import DataError, Location, Problem, did_you_mean, display_path

LIST_SEPARATOR = ";"
TABLE_SUFFIXES = (".csv", ".xlsx")
_INT = re.compile(r"^[-+]?\d+$")
_PLAIN_NUMBER = re.compile(r"^-?\d+(\.\d+)?([eE][-+]?\d+)?$")
_CSV_FIELD_SIZE = 131_072  # the csv module's own default
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula (OWASP)
SHIELD = "'"
_TRUE, _FALSE = {"true", "yes", "1", "y"}, {"false", "no", "0", "n"}


def read_rows(path: Path, sheet: str | None, shown: str | None = None) -> tuple[str | None, Iterator[Row]]:
    """The sheet read (None for a CSV file) and its non-empty rows, (row number, cells as text), header first, read
    as they are iterated; a `DataError` if the file cannot be read, is larger than `table_bytes` or goes on past the
    item limit, a `CellProblem` for a cell that cannot be read (too long, too many in a row, a NUL character).
    `shown` names the file in messages (a table fetched from an address is named by it), else its path."""
    shown = shown or display_path(path)
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise DataError(f"{shown}: items can come from .csv or .xlsx files")
    if suffix == ".csv" and sheet is not None:
        raise DataError(f"{shown}: a CSV file has no sheets (sheet: is for .xlsx)")
    _check_size(path, shown)
    name, rows = (None, _csv_rows(path, shown)) if suffix == ".csv" else sheet_rows(path, sheet, shown)
    return name, _filled(rows, shown, name)


def _filled(rows: Iterator[Row], shown: str, sheet: str | None) -> Iterator[Row]:
    """The rows that hold something. Reading stops after the item limit's worth of rows below the first: blank rows
    count, since a file of millions of empty lines is no quicker to read than one of items."""
    bound = limits.current().items_per_component
    for read, (number, cells) in enumerate(rows):
        if read > bound:
            where = Location(shown, number, f"sheet '{sheet}'" if sheet is not None else None)
            raise DataError([Problem(where, _too_many_rows(bound))])
        if any(c.strip() for c in cells):
            yield number, cells


def _too_many_rows(bound: int) -> str:
    return (
        f"the table has more than {bound:,} rows below the first (blank ones count), the item limit for one "
        "component; reading stopped here (raise it with --limit items_per_component=N if you mean it)"
    )


def _check_size(path: Path, shown: str) -> None:
    bound = limits.current().table_bytes
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DataError(f"{shown}: cannot read ({exc.strerror})") from None
    if size > bound:
        raise DataError(
            f"{shown}: file of {size:,} bytes is larger than the limit of {bound:,} "
            "(raise it with --limit table_bytes=N if you mean it)"
        )


def _csv_rows(path: Path, shown: str) -> Iterator[Row]:
    """CSV rows with the line each starts on (a quoted cell may span lines), read line by line."""
    bound = limits.current().table_bytes
    csv.field_size_limit(max(bound, _CSV_FIELD_SIZE))  # cells are bounded below, where their column is known
    line, cells_left = 1, limits.current().table_cells
    reader = csv.reader([])  # line 0 until the header is read
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            separator = _separator(handle.readline(bound + 1))
            handle.seek(0)
            reader = csv.reader(_bounded(handle, bound, shown), delimiter=separator)
            for cells in reader:
                _check_cells(cells, line)
                cells_left -= len(cells)
                if cells_left < 0:
                    raise too_many_cells_in_all(line, len(cells) + cells_left)
                yield line, cells
                line = reader.line_num + 1
    except csv.Error as exc:
        raise DataError(f"{shown}:{reader.line_num}: not a readable CSV row ({exc})") from None
    except UnicodeDecodeError:
        raise DataError(f"{shown}:{reader.line_num + 1}: not a CSV table: not UTF-8 text; save it as UTF-8") from None
    except OSError as exc:
        raise DataError(f"{shown}: cannot read ({exc.strerror})") from None


def _separator(header: str) -> str:
    """The separator the header row shows: commas, or the semicolons Excel writes in many locales, or tabs
    (whichever the header holds most of outside quotes; a comma when it holds none)."""
    unquoted = re.sub(r'"[^"]*"', "", header)
    counts = {mark: unquoted.count(mark) for mark in (",", ";", "\t")}
    best = max(counts, key=lambda mark: (counts[mark], mark == ","))
    return best if counts[best] else ","


def _bounded(lines: Iterable[str], bound: int, shown: str) -> Iterator[str]:
    """The lines of a file that grows past its size limit while it is read (its size was checked before)."""
    read = 0
    for line in lines:
        read += len(line)
        if read > bound:
            raise DataError(f"{shown}: grew past the limit of {bound:,} bytes while it was read")
        yield line


def _check_cells(cells: list[str], line: int) -> None:
    if len(cells) > limits.current().table_columns:
        raise too_many_cells(line, len(cells))
    bound = limits.current().table_cell_length
    for column, cell in enumerate(cells):
        if len(cell) > bound:
            raise too_long(line, column, len(cell))
        if "\0" in cell:
            raise CellProblem(line, column, "a NUL character (byte 0) in the cell: is this a text file?")


def read_table(
    path: Path, sheet: str | None, key: str, default_type: str | None, card_types: Mapping[str, CardType],
    languages: tuple[str, ...] = (),
    shown: str | None = None,
) -> tuple[list[tuple[dict[str, Any], PathKey]], YamlDocument, list[Problem]]:  # fmt: skip
    """The items of a table as raw mappings (typed by their card type) with their paths, a document that maps those
    paths to rows (so later errors name the row), and the problems met. Reading stops at the item limit. A column
    `name@de` holds the field's text in another of the game's `languages` (data/languages.py)."""
    shown = shown or display_path(path)
    sheet_read, rows = read_rows(path, sheet, shown)
    doc = YamlDocument(path, None, shown=shown)
    columns: list[str] = []
    try:
        first = next(rows, None)
        if first is None:
            return [], doc, [Problem(Location(shown, 1), "the table is empty: the first row must name the columns")]
        header_line, header = first
        columns = [unshielded(c).strip() for c in header]
        problems = _header_problems(columns, header_line, shown, default_type, card_types, languages)
        if problems:
            return [], doc, problems
        entries: list[tuple[dict[str, Any], PathKey]] = []
        for number, cells in rows:
            path_key: PathKey = (key, number)
            doc.lines[path_key] = number
            raw, found = _row(columns, cells, number, shown, default_type, card_types)
            problems.extend(found)
            if found:  # reported at its cells; the row's item is left out, as an item YAML rejects is
                continue
            for column in raw:
                doc.lines[(*path_key, column)] = number
            entries.append((raw, path_key))
    except CellProblem as exc:
        return [], doc, [Problem(Location(shown, exc.row, _cell_where(exc, columns, sheet_read)), exc.message)]
    return entries, doc, problems


def _cell_where(problem: CellProblem, columns: list[str], sheet: str | None) -> str:
    """`column 'name'` (CSV) or `sheet 'Fleet', cell C5 (column 'name')` (XLSX)."""
    index = problem.column
    column = f"column '{columns[index]}'" if index < len(columns) and columns[index] else f"column {index + 1}"
    if sheet is None:
        return column
    return f"sheet '{sheet}', cell {column_letters(index)}{problem.row} ({column})"


def _header_problems(
    columns: list[str], line: int, shown: str, default_type: str | None, card_types: Mapping[str, CardType],
    languages: tuple[str, ...] = (),
) -> list[Problem]:  # fmt: skip
    known = set(RESERVED_ITEM_KEYS)
    specs: dict[str, FieldSpec] = {}
    for card_type in card_types.values() if "type" in columns else [card_types.get(default_type or "")]:
        known |= set(card_type.fields) if card_type else set()
        specs = {**(card_type.fields if card_type else {}), **specs}
    problems = []
    if "id" not in columns:
        problems.append(Problem(Location(shown, line), "no 'id' column: every item needs an id"))
    seen: set[str] = set()
    for column in columns:
        where = Location(shown, line, f"column '{column}'")
        if not column:
            problems.append(Problem(where, "a column has no header"))
        elif column in seen:
            problems.append(Problem(where, "this column header appears twice"))
        elif SEPARATOR in column and column.partition(SEPARATOR)[0] in known:
            name, _, language = column.partition(SEPARATOR)
            if reason := refused(name, specs.get(name), language, languages):
                problems.append(Problem(where, reason))
        elif column not in known and (default_type or "type" in columns):
            problems.append(Problem(where, f"unknown field{did_you_mean(column, sorted(known))}"))
        seen.add(column)
    return problems


def _row(
    columns: list[str],
    cells: list[str],
    number: int,
    shown: str,
    default_type: str | None,
    card_types: Mapping[str, CardType],
) -> tuple[dict[str, Any], list[Problem]]:
    if len(cells) > len(columns) and any(c.strip() for c in cells[len(columns) :]):
        return {}, [Problem(Location(shown, number), f"{len(cells)} cells but only {len(columns)} column headers")]
    text = dict(zip(columns, cells, strict=False))
    type_name = text.get("type", "").strip() or default_type
    card_type = card_types.get(type_name or "")
    raw: dict[str, Any] = {}
    problems = []
    for column, cell in text.items():
        if cell.strip() == "":
            continue  # an empty cell takes the field's default
        spec = card_type.fields.get(column.partition(SEPARATOR)[0]) if card_type else None  # name@de: as name
        try:
            raw[column] = _typed(column, cell, spec)
        except ValueError as exc:
            problems.append(Problem(Location(shown, number, f"column '{column}'"), str(exc)))
    return raw, problems


def _typed(column: str, cell: str, spec: FieldSpec | None) -> Any:
    """A cell's value as the field's type says; a `ValueError` saying what is wrong otherwise."""
    cell = unshielded(cell)
    value = cell.strip()
    if column == "count":
        return _whole(value)
    if column == "source":
        return json.loads(value) if value.startswith("{") else value
    if column in RESERVED_ITEM_KEYS or spec is None:
        return value
    kind = spec.type
    if kind == "int":
        return _whole(value)
    if kind == "number":
        return _number(value)
    if kind == "bool":
        lowered = value.lower()
        if lowered in _TRUE | _FALSE:
            return lowered in _TRUE
        raise ValueError(f"'{value}' is not true or false")
    if kind == "list" and value.startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"'{value[:40]}' is not a JSON list ({exc.msg})") from None
    if kind == "list":
        return [_scalar(part.strip()) for part in value.split(LIST_SEPARATOR) if part.strip()]
    if kind == "any" and value[:1] in "[{":
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"'{value[:40]}' is not valid JSON ({exc.msg})") from None
    if kind == "any":
        return _scalar(value)
    return cell  # str and text keep their spaces and line breaks


def _whole(value: str) -> int:
    if _INT.match(value):
        return int(value)
    raise ValueError(f"'{value}' is not a whole number")


def _number(value: str) -> int | float:
    if _INT.match(value):
        return int(value)
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"'{value}' is not a number") from None


def _scalar(value: str) -> str | int | float:
    if _INT.match(value):
        return int(value)
    try:
        return float(value)
    except ValueError:
        return value


def table_rows(items: Iterable[Mapping[str, Any]], fields: list[str]) -> list[list[str]]:
    """Rows (header first) for items given as mappings of column → value; the reverse of `read_table`. Text that a
    spreadsheet would run as a formula is shielded (`shielded`)."""
    present = [c for c in fields if any(c in item and item[c] not in (None, "") for item in items)]
    columns = ["id", *(c for c in present if c != "id")]
    rows = [[shielded(c) for c in columns]]
    for item in items:
        rows.append([_cell(item.get(column)) for column in columns])
    return rows


def shielded(text: str) -> str:
    """Text as written to a spreadsheet cell: one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return
    (which Excel and LibreOffice would run as a formula) gets a leading `'`, as OWASP advises. So that reading gives
    every text back, a text that would lose its first character to `unshielded` (`'` followed by one of those or by
    another `'`) gets one too."""
    return SHIELD + text if text.startswith(FORMULA_STARTS) or unshielded(text) != text else text


def unshielded(cell: str) -> str:
    """A cell's text without the `'` that `shielded` put before a formula's first character (or before another
    `'`); any other leading `'` is the text's own."""
    return cell[1:] if cell.startswith(SHIELD) and cell[1:].startswith((*FORMULA_STARTS, SHIELD)) else cell


class NumberCell(str):
    """A cell's text that came from a number: CSV writes the text, XLSX the number (so a spreadsheet sums it)."""

    def number(self) -> int | float:
        return float(self) if any(mark in self for mark in ".eE") else int(self)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float) and _PLAIN_NUMBER.match(str(value)):
        return NumberCell(value)  # a number, "-3" too: a spreadsheet reads it as a number, never as a formula
    return shielded(_text(value))


def _text(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in value):
        for element in value:
            if isinstance(element, str) and (LIST_SEPARATOR in element or _scalar(element) != element):
                return json.dumps(value, ensure_ascii=False)  # cannot be written with the separator unambiguously
        return f"{LIST_SEPARATOR} ".join(str(v) for v in value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=False)
    return str(value)


def write_table(path: Path, rows: list[list[str]], sheet: str) -> bytes:
    """The bytes of a CSV or XLSX file holding `rows` (XLSX: one sheet named `sheet`, numbers as numbers, every
    other cell as text)."""
    if path.suffix.lower() == ".csv":
        buffer = io.StringIO(newline="")
        # the csv module quotes a cell holding a character of the line ending only: "\r" in a cell needs "\r\n"
        ending = "\r\n" if any("\r" in cell for row in rows for cell in row) else "\n"
        csv.writer(buffer, lineterminator=ending).writerows(rows)
        return buffer.getvalue().encode("utf-8")
    from openpyxl import Workbook

    book = Workbook()
    table = book.active
    table.title = sheet[:31]
    for row in rows:
        table.append([cell.number() if isinstance(cell, NumberCell) else cell for cell in row])
        for cell in table[table.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # text, not a formula (no shielded text starts with "=": a second guard)
    buffer_bytes = io.BytesIO()
    book.save(buffer_bytes)
    return buffer_bytes.getvalue()


def component_rows(component: Any, card_types: Mapping[str, CardType], default_back: str | None) -> list[list[str]]:
    """A component's items as table rows, written so that reading them back gives the same items.

    Reserved columns appear only where an item differs from the component's defaults; `for_each` copies are folded
    back into the item they were made from (the component file makes them again)."""
    spec = component.spec
    repeated = list(spec.for_each) if spec and spec.for_each else []
    records, seen = [], set()
    for item in component.items:
        fields = dict(item.fields)
        item_id = item.id
        if repeated:
            values = [fields.pop(name, None) for name in repeated]
            item_id = item.id.removesuffix("-" + "-".join(str(v) for v in values))
            if item_id in seen:
                continue
            seen.add(item_id)
        record: dict[str, Any] = {"id": item_id, **fields}
        record["count"] = item.count if item.count != 1 else None
        record["type"] = item.type if item.type != (spec.type if spec else None) else None
        record["front"] = item.front if item.front != (spec.front if spec else None) else None
        back_default = (spec.back if spec else None) or default_back
        record["back"] = item.back if item.back != back_default else None
        record["source"] = item.source
        for name, texts in item.translations.items():  # name@de: a column per language
            record.update({f"{name}{SEPARATOR}{language}": text for language, text in texts.items()})
        records.append(record)
    declared: list[str] = []
    for item in component.items:
        card_type = card_types.get(item.type or "")
        for name in card_type.fields if card_type else item.fields:
            if name not in declared and name not in repeated:
                declared.append(name)
    translated = sorted({k for record in records for k in record if SEPARATOR in k},
                        key=lambda k: (declared.index(k.partition(SEPARATOR)[0]), k))  # fmt: skip
    return table_rows(records, ["id", "count", "type", "front", "back", "source", *declared, *translated])
