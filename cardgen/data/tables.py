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

`write_table` writes the reverse (`cardgen export-items`), so that data can go from YAML to a spreadsheet and back
unchanged.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cardgen.data.model import RESERVED_ITEM_KEYS, CardType, FieldSpec
from cardgen.data.yaml_source import PathKey, YamlDocument
from cardgen.errors import DataError, Location, Problem, did_you_mean, display_path, read_text

LIST_SEPARATOR = ";"
TABLE_SUFFIXES = (".csv", ".xlsx")
_INT = re.compile(r"^[-+]?\d+$")
_TRUE, _FALSE = {"true", "yes", "1", "y"}, {"false", "no", "0", "n"}


def read_rows(path: Path, sheet: str | None) -> list[tuple[int, list[str]]]:
    """(row number, cells as text) for every non-empty row, header first; a `DataError` if the file cannot be read."""
    shown = display_path(path)
    if path.suffix.lower() == ".csv":
        if sheet is not None:
            raise DataError(f"{shown}: a CSV file has no sheets (sheet: is for .xlsx)")
        text = read_text(path, "a CSV table", encoding="utf-8-sig")
        numbered = _csv_rows(text, shown)
    elif path.suffix.lower() == ".xlsx":
        numbered = _xlsx_rows(path, sheet)
    else:
        raise DataError(f"{shown}: items can come from .csv or .xlsx files")
    return [(n, cells) for n, cells in numbered if any(c.strip() for c in cells)]


def _csv_rows(text: str, shown: str) -> list[tuple[int, list[str]]]:
    """CSV rows with the line each starts on (a quoted cell may span lines)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    rows, line = [], 1
    try:
        for cells in reader:
            rows.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise DataError(f"{shown}:{reader.line_num}: not a readable CSV row ({exc})") from None
    return rows


def _xlsx_rows(path: Path, sheet: str | None) -> list[tuple[int, list[str]]]:
    shown = display_path(path)
    try:
        from openpyxl import load_workbook
    except ImportError:  # pragma: no cover - openpyxl is a dependency
        raise DataError(f"{shown}: reading .xlsx needs openpyxl (pip install openpyxl)") from None
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds of errors for damaged files
        raise DataError(f"{shown}: not a readable XLSX workbook ({type(exc).__name__}: {exc})") from None
    try:
        if sheet is None:
            table = book.worksheets[0]
        elif sheet in book.sheetnames:
            table = book[sheet]
        else:
            raise DataError(f"{shown}: no sheet '{sheet}'{did_you_mean(sheet, book.sheetnames)}")
        return [
            (number, ["" if cell is None else _cell_text(cell) for cell in row])
            for number, row in enumerate(table.iter_rows(values_only=True), start=1)
        ]
    finally:
        book.close()


def _cell_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_table(
    path: Path, sheet: str | None, key: str, default_type: str | None, card_types: Mapping[str, CardType]
) -> tuple[list[tuple[dict[str, Any], PathKey]], YamlDocument, list[Problem]]:
    """The items of a table as raw mappings (typed by their card type) with their paths, a document that maps those
    paths to rows (so later errors name the row), and the problems met."""
    shown = display_path(path)
    rows = read_rows(path, sheet)
    doc = YamlDocument(path, None)
    if not rows:
        return [], doc, [Problem(Location(shown, 1), "the table is empty: the first row must name the columns")]
    (header_line, header), body = rows[0], rows[1:]
    columns = [c.strip() for c in header]
    problems = _header_problems(columns, header_line, shown, default_type, card_types)
    if problems:
        return [], doc, problems
    entries = []
    for number, cells in body:
        path_key: PathKey = (key, number)
        doc.lines[path_key] = number
        raw, found = _row(columns, cells, number, shown, default_type, card_types)
        problems.extend(found)
        for column in raw:
            doc.lines[(*path_key, column)] = number
        entries.append((raw, path_key))
    return entries, doc, problems


def _header_problems(
    columns: list[str], line: int, shown: str, default_type: str | None, card_types: Mapping[str, CardType]
) -> list[Problem]:
    known = set(RESERVED_ITEM_KEYS)
    for card_type in card_types.values() if "type" in columns else [card_types.get(default_type or "")]:
        known |= set(card_type.fields) if card_type else set()
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
        spec = card_type.fields.get(column) if card_type else None
        try:
            raw[column] = _typed(column, cell, spec)
        except ValueError as exc:
            problems.append(Problem(Location(shown, number, f"column '{column}'"), str(exc)))
    return raw, problems


def _typed(column: str, cell: str, spec: FieldSpec | None) -> Any:
    """A cell's value as the field's type says; a `ValueError` saying what is wrong otherwise."""
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
    """Rows (header first) for items given as mappings of column → value; the reverse of `read_table`."""
    present = [c for c in fields if any(c in item and item[c] not in (None, "") for item in items)]
    columns = ["id", *(c for c in present if c != "id")]
    rows = [columns]
    for item in items:
        rows.append([_cell(item.get(column), column) for column in columns])
    return rows


def _cell(value: Any, column: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in value):
        for element in value:
            if isinstance(element, str) and (LIST_SEPARATOR in element or _scalar(element) != element):
                return json.dumps(value, ensure_ascii=False)  # cannot be written with the separator unambiguously
        return f"{LIST_SEPARATOR} ".join(str(v) for v in value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=False)
    return str(value)


def write_table(path: Path, rows: list[list[str]], sheet: str) -> bytes:
    """The bytes of a CSV or XLSX file holding `rows` (XLSX: one sheet named `sheet`, every cell as text)."""
    if path.suffix.lower() == ".csv":
        buffer = io.StringIO(newline="")
        csv.writer(buffer, lineterminator="\n").writerows(rows)
        return buffer.getvalue().encode("utf-8")
    from openpyxl import Workbook

    book = Workbook()
    table = book.active
    table.title = sheet[:31]
    for row in rows:
        table.append(row)
        for cell in table[table.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # text, not a formula: "=1+1" on a card stays "=1+1" when read back
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
        records.append(record)
    declared: list[str] = []
    for item in component.items:
        card_type = card_types.get(item.type or "")
        for name in card_type.fields if card_type else item.fields:
            if name not in declared and name not in repeated:
                declared.append(name)
    return table_rows(records, ["id", "count", "type", "front", "back", "source", *declared])
