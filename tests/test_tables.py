"""Items from spreadsheets: every bundled component goes to CSV (and XLSX) and back unchanged; mistakes in a table
name the file, the row and the column."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from cardgen.data import load_games
from cardgen.data.model import ITEM_KEY
from cardgen.data.tables import component_rows, write_table
from cardgen.errors import DataError

from conftest import REPO, copy_game, run_cli

GAMES = ["battlefield-space", "scifi-domains", "space-empires-4x", "star-commander"]


def _as_table(game_dir: Path, component, manifest, suffix: str) -> None:
    """Move a component's items out of its YAML file into a table next to it."""
    default_back = manifest.settings.back if component.kind == "deck" else None
    rows = component_rows(component, manifest.card_types, default_back)
    table = game_dir / f"{component.id}{suffix}"
    table.write_bytes(write_table(table, rows, component.id))
    spec = yaml.safe_load(component.file.read_text())
    spec[ITEM_KEY[component.kind]] = {"file": table.name}
    (game_dir / component.file.name).write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False))


def _items(game) -> dict[str, list[tuple]]:
    return {
        c.id: [(i.id, i.count, i.type, i.front, i.back, i.source, dict(i.fields)) for i in c.items]
        for c in game.components
    }


@pytest.mark.parametrize("game_id", GAMES)
def test_every_component_round_trips_through_csv(tmp_path, game_id):
    (original,) = load_games(REPO / "card_data", [game_id])
    data = copy_game(game_id, tmp_path).data
    moved = [c for c in original.components if c.items and c.kind != "pieces"]
    for component in moved:
        _as_table(data / game_id, component, original.manifest, ".csv")
    (again,) = load_games(data, [game_id])
    assert _items(again) == _items(original)
    assert all(c.items[0].where.file.endswith(".csv") for c in again.components if c.id in {m.id for m in moved})


def test_xlsx_round_trip_and_sheets(tmp_path):
    (original,) = load_games(REPO / "card_data", ["scifi-domains"])
    data = copy_game("scifi-domains", tmp_path).data
    for name in ("units", "techs"):
        _as_table(data / "scifi-domains", original.component(name), original.manifest, ".xlsx")
    (again,) = load_games(data, ["scifi-domains"])
    assert _items(again) == _items(original)


@pytest.fixture
def table_game(demo_data: Path) -> Path:
    """The demo game with its ships in ships.csv."""
    ships = demo_data / "demo" / "ships.yaml"
    ships.write_text("type: ship\nfront: ship\ncards: {file: ships.csv}\n")
    (demo_data / "demo" / "ships.csv").write_text(
        "id,count,name,cost,attack,hull,faction,ability\n"
        "scout,3,Scout,2,1,1,Union,Draw a card.\n"
        'frigate,2,"<Ships & Stations>",5,3,2,Syndicate,\n'
        'dreadnought,,Dreadnought,12,7,5,Union,"Gains +1 {attack}\nfor each other ship."\n'
    )
    return demo_data


def test_a_csv_deck_loads_typed(table_game):
    (game,) = load_games(table_game, ["demo"])
    ships = {i.id: i for i in game.component("ships").items}
    assert ships["scout"].count == 3 and ships["scout"].fields["cost"] == 2
    assert ships["frigate"].fields["ability"] == ""  # an empty cell takes the default
    assert ships["dreadnought"].count == 1 and "\nfor each" in ships["dreadnought"].fields["ability"]
    assert ships["dreadnought"].where.line == 4  # the row it was written on


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("scout,3,Scout,2,", "scout,3,Scout,x,", "ships.csv:2: column 'cost': 'x' is not a whole number"),
        ("scout,3,", "scout,three,", "ships.csv:2: column 'count': 'three' is not a whole number"),
        (
            "id,count,name,cost,",
            "id,count,name,cots,",
            "ships.csv:1: column 'cots': unknown field (did you mean 'cost'?)",
        ),
        ("id,count,", "ident,count,", "ships.csv:1: no 'id' column"),
        ("Syndicate,\n", "Empire,\n", "ships.csv:3: column 'faction' (frigate): 'Empire' is not one of"),
        (
            "scout,3,Scout,2,1,1,Union,Draw a card.",
            "scout,3,Scout,2,1,1,Union,Draw a card.,extra",
            "ships.csv:2: 9 cells",
        ),
        ("frigate,2,", "scout,2,", "duplicate id 'scout'"),
    ],
)
def test_table_mistakes_name_file_row_and_column(table_game, old, new, message):
    table = table_game / "demo" / "ships.csv"
    text = table.read_text()
    assert old in text
    table.write_text(text.replace(old, new, 1))
    run = run_cli("--data-dir", table_game, "list")
    assert run.code == 2 and message in run.err, run.err


def test_table_outside_the_game_folder_or_missing(table_game):
    ships = table_game / "demo" / "ships.yaml"
    ships.write_text("type: ship\nfront: ship\ncards: {file: ../../secret.csv}\n")
    run = run_cli("--data-dir", table_game, "list")
    assert run.code == 2 and "ships.yaml:3: cards.file: '../../secret.csv' lies outside the game folder" in run.err
    ships.write_text("type: ship\nfront: ship\ncards: {file: ships.xlsx, sheet: Fleet}\n")
    run = run_cli("--data-dir", table_game, "list")
    assert run.code == 2 and "'ships.xlsx': file not found" in run.err


def test_xlsx_sheet_is_named(table_game, tmp_path):
    from cardgen.data.tables import read_rows

    rows = [r.split(",") for r in (table_game / "demo" / "ships.csv").read_text().splitlines()[:3]]
    book = table_game / "demo" / "ships.xlsx"
    book.write_bytes(write_table(book, rows, "Fleet"))
    assert list(read_rows(book, "Fleet")[1])[1][1][0] == "scout"
    ships = table_game / "demo" / "ships.yaml"
    ships.write_text("type: ship\nfront: ship\ncards: {file: ships.xlsx, sheet: Flet}\n")
    run = run_cli("--data-dir", table_game, "list")
    assert run.code == 2 and "ships.xlsx: no sheet 'Flet' (did you mean 'Fleet'?)" in run.err


def test_export_items_command(tmp_path):
    out = tmp_path / "units.csv"
    run = run_cli("export-items", "scifi-domains", "units", "--out", out)
    assert run.code == 0 and "10 items" in run.out
    header = out.read_text().splitlines()[0]
    assert header.startswith("id,count,source,name,unit_type")
    run = run_cli("export-items", "scifi-domains", "unit", "--out", out)
    assert run.code == 2 and "did you mean 'units'" in run.err


# --- cells to values, in-process (exact values and row numbers) ----------------------------------------------------

SPECS = {
    "unit": __import__("cardgen.data.model", fromlist=["CardType"]).CardType.model_validate(
        {
            "fields": {
                "name": {"type": "str"},
                "cost": {"type": "int"},
                "speed": {"type": "number"},
                "fast": {"type": "bool"},
                "tags": {"type": "list"},
                "extra": {"type": "any"},
            }
        }
    )
}


def _read(tmp_path, name: str, rows: list[list[object]]):
    from cardgen.data.tables import read_table

    path = tmp_path / name
    if name.endswith(".csv"):
        import csv

        with path.open("w", newline="") as handle:
            csv.writer(handle).writerows(rows)
    else:
        from openpyxl import Workbook

        book = Workbook()
        sheet = book.active
        for row in rows:
            sheet.append(row)
        book.save(path)
    return read_table(path, None, "cards", "unit", SPECS)


@pytest.mark.parametrize("name", ["units.csv", "units.xlsx"])
def test_cells_become_typed_values(tmp_path, name):
    header = ["id", "count", "name", "cost", "speed", "fast", "tags", "extra"]
    rows = [
        header,
        ["scout", 2, " Scout ", 3, 1.5, True, "a; 2; 3.5", "[1, 2]"],
        ["frigate", 1, "Frigate", 4.0 if name.endswith(".xlsx") else 4, 2, False, '["x", "y"]', "7"],
        ["raider", 1, "Raider", 1, "2e1", "yes", "", '{"k": 1}'],
    ]
    entries, doc, problems = _read(tmp_path, name, rows)
    assert problems == []
    values = [raw for raw, _ in entries]
    assert values[0] == {"id": "scout", "count": 2, "name": " Scout ", "cost": 3, "speed": 1.5, "fast": True,
                         "tags": ["a", 2, 3.5], "extra": [1, 2]}  # fmt: skip
    assert values[1]["cost"] == 4 and values[1]["fast"] is False and values[1]["tags"] == ["x", "y"]
    assert values[1]["extra"] == 7 and values[1]["speed"] == 2
    assert values[2]["speed"] == 20.0 and values[2]["fast"] is True and values[2].get("tags", []) == []
    assert values[2]["extra"] == {"k": 1}
    assert [path for _, path in entries] == [("cards", 2), ("cards", 3), ("cards", 4)]
    assert doc.line_of(("cards", 3, "cost")) == 3


@pytest.mark.parametrize("name", ["units.csv", "units.xlsx"])
def test_bad_cells_name_their_row_and_column(tmp_path, name):
    rows = [
        ["id", "cost", "fast", "speed", "tags"],
        ["scout", "three", "maybe", "fast", "[1, "],
        ["frigate", 1, "true", 1, "a"],
        ["raider", 1, "true", 1, "a", *(["surplus"] if name.endswith(".csv") else [])],
    ]
    _, _, problems = _read(tmp_path, name, rows)
    shown = [str(p).split(name, 1)[1] for p in problems]
    assert shown[:4] == [
        ":2: column 'cost': 'three' is not a whole number",
        ":2: column 'fast': 'maybe' is not true or false",
        ":2: column 'speed': 'fast' is not a number",
        ":2: column 'tags': '[1,' is not a JSON list (Expecting value)",
    ]
    assert shown[4:] == ([":4: 6 cells but only 5 column headers"] if name.endswith(".csv") else [])


# --- bounds: a table is read as it streams and stops at the first limit it passes ----------------------------------


@pytest.fixture
def small_limits():
    """Limits low enough to pass with a small file (restored afterwards)."""
    from dataclasses import replace

    from cardgen import limits

    before = limits.current()
    limits.use(replace(before, items_per_component=3, table_cell_length=20, table_bytes=20_000))
    yield limits.current()
    limits.use(before)


def _problems(tmp_path, name: str, rows: list[list[object]]) -> list[str]:
    """The problems reading a table met, or the one that stopped it."""
    try:
        _, _, problems = _read(tmp_path, name, rows)
    except DataError as exc:
        problems = exc.problems
    return [str(p).split(name, 1)[1] for p in problems]


@pytest.mark.parametrize("name", ["units.csv", "units.xlsx"])
def test_reading_stops_at_the_item_limit(tmp_path, small_limits, name):
    rows = [["id", "cost"], *([f"u{n}", n] for n in range(3))]
    assert _problems(tmp_path, name, rows) == []
    sheet = ": sheet 'Sheet'" if name.endswith(".xlsx") else ""
    assert _problems(tmp_path, name, [*rows, ["u3", 3], ["u4", 4]]) == [
        f":5{sheet}: the table has more than 3 rows below the first (blank ones count), the item limit for one "
        "component; reading stopped here (raise it with --limit items_per_component=N if you mean it)"
    ]


@pytest.mark.parametrize("name", ["units.csv", "units.xlsx"])
def test_blank_rows_count_towards_the_item_limit(tmp_path, small_limits, name):
    rows = [["id", "cost"], ["u0", 0], [" "], ["u1", 1]]
    assert _problems(tmp_path, name, rows) == []
    assert _problems(tmp_path, name, [*rows, [" "]])[0].startswith(":5")


@pytest.mark.parametrize("name", ["units.csv", "units.xlsx"])
def test_a_row_with_more_cells_than_the_limit_is_named(tmp_path, small_limits, name):
    from dataclasses import replace

    from cardgen import limits

    limits.use(replace(limits.current(), table_columns=3))
    assert _problems(tmp_path, name, [["id", "cost", "name"], ["a", 1, "x"]]) == []
    where = (
        ":2: sheet 'Sheet', cell D2 (column 4): the row goes on"
        if name.endswith(".xlsx")
        else (":2: column 4: the row has 4 cells")
    )
    assert _problems(tmp_path, name, [["id", "cost", "name"], ["a", 1, "x", "y"]]) == [
        f"{where}, more than the limit of 3 (raise it with --limit table_columns=N if you mean it)"
    ]


@pytest.mark.parametrize("name", ["units.csv", "units.xlsx"])
def test_reading_stops_at_the_cell_limit_empty_cells_counted(tmp_path, small_limits, name):
    from dataclasses import replace

    from cardgen import limits

    limits.use(replace(limits.current(), table_cells=7))
    rows = [["id", "cost", "name"], ["a", 1, " "]]  # the blank cell is written (a space), and read
    assert _problems(tmp_path, name, rows) == []
    where = ":3: sheet 'Sheet', cell B3 (column 'cost')" if name.endswith(".xlsx") else ":3: column 'cost'"
    assert _problems(tmp_path, name, [*rows, ["b", 2, " "]]) == [
        f"{where}: the table has more than 7 cells (empty ones count); reading stopped here "
        "(raise it with --limit table_cells=N if you mean it)"
    ]


@pytest.mark.parametrize("name", ["units.csv", "units.xlsx"])
def test_a_cell_longer_than_the_limit_is_named(tmp_path, small_limits, name):
    where = ":3: sheet 'Sheet', cell C3 (column 'name')" if name.endswith(".xlsx") else ":3: column 'name'"
    assert _problems(tmp_path, name, [["id", "cost", "name"], ["a", 1, "x" * 20], ["b", 2, "y" * 21]]) == [
        f"{where}: the cell holds 21 characters, more than the limit of 20 "
        "(raise it with --limit table_cell_length=N if you mean it)"
    ]


def test_a_table_larger_than_the_limit(tmp_path, small_limits):
    with pytest.raises(DataError, match=r"units.csv: file of 2\d,\d+ bytes is larger than the limit of 20,000 "):
        _read(tmp_path, "units.csv", [["id", "name"], *([f"u{n}", "x" * 18] for n in range(1000))])


def test_a_nul_character_in_a_csv_cell(tmp_path):
    assert _problems(tmp_path, "units.csv", [["id", "name"], ["a", "A"], ["b", "B\0ad"]]) == [
        ":3: column 'name': a NUL character (byte 0) in the cell: is this a text file?"
    ]


def test_a_shared_string_over_the_limit_is_named_where_a_cell_uses_it(tmp_path, small_limits):
    from spreadsheets import shared_strings, sheet_rows, write_xlsx

    from cardgen.data.tables import read_table

    book = write_xlsx(tmp_path / "ships.xlsx", sheet_rows(2), shared_strings(["x" * 1000]))
    _, _, problems = read_table(book, None, "cards", None, {})
    assert [str(p).split("ships.xlsx", 1)[1] for p in problems] == [
        ":2: sheet 'Fleet', cell B2 (column 'name'): the cell holds 1,000 characters, more than the limit of 20 "
        "(raise it with --limit table_cell_length=N if you mean it)"
    ]


def test_xlsx_parts_are_bounded_as_declared_and_as_inflated(tmp_path):
    from dataclasses import replace

    from spreadsheets import declare_size, shared_strings, sheet_rows, write_xlsx

    from cardgen import limits
    from cardgen.data.tables import read_rows

    book = write_xlsx(tmp_path / "ships.xlsx", sheet_rows(2), shared_strings(["x" * 100_000]))
    before = limits.current()
    limits.use(replace(before, table_unpacked_bytes=50_000))
    try:
        with pytest.raises(DataError, match=r"ships.xlsx: xl/sharedStrings.xml declares 100,1\d\d bytes unpacked: "
                                            r"the parts read would pass the limit of 50,000 bytes"):  # fmt: skip
            list(read_rows(book, None)[1])
        declare_size(book, "xl/sharedStrings.xml", 1_000)  # a lie: zipfile stops at the declared size
        with pytest.raises(DataError, match=r"ships\.xlsx: not a readable XLSX workbook \(BadZipFile: Bad CRC-32"):
            list(read_rows(book, None)[1])
    finally:
        limits.use(before)


@pytest.mark.parametrize(
    ("part", "xml", "message"),
    [
        (
            "xl/sharedStrings.xml",
            '<!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">]><sst><si><t>&a;</t></si></sst>',
            "xl/sharedStrings.xml declares a DTD or entities",
        ),
        ("xl/worksheets/sheet1.xml", "<worksheet><sheetData><row>", "xl/worksheets/sheet1.xml:1:28: not well-formed"),
        (
            "xl/worksheets/sheet1.xml",
            '<worksheet><sheetData><row r="1"><c t="s"><v>7</v></c></row></sheetData></worksheet>',
            "ships.xlsx:1: sheet 'Fleet', cell A1 (column 1): refers to shared string 7, which is not there",
        ),
        (
            "xl/worksheets/sheet1.xml",
            '<worksheet><sheetData><row r="1"><c r="1A"><v>7</v></c></row></sheetData></worksheet>',
            "ships.xlsx:1: sheet 'Fleet': '1A' is not a cell",
        ),
    ],
)
def test_damaged_workbooks_are_named(tmp_path, part, xml, message):
    from spreadsheets import shared_strings, sheet_rows, write_xlsx

    from cardgen.data.tables import read_table

    parts = {"xl/worksheets/sheet1.xml": sheet_rows(1), "xl/sharedStrings.xml": shared_strings(["Scout"]), part: [xml]}
    book = write_xlsx(tmp_path / "ships.xlsx", parts["xl/worksheets/sheet1.xml"], parts["xl/sharedStrings.xml"])
    try:
        _, _, problems = read_table(book, None, "cards", "unit", SPECS)
    except DataError as exc:
        problems = exc.problems
    assert any(message in str(p) for p in problems), problems


def test_xlsx_cells_read_as_openpyxl_reads_them(tmp_path):
    """Numbers, booleans, rich and inline text, formulas' cached values, gaps between cells and rows (a formula with
    no cached value is refused: test_a_formula_without_its_saved_value_is_named_not_read_as_empty)."""
    from spreadsheets import write_xlsx

    from cardgen.data.tables import read_rows

    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        '<row r="2"><c r="B2"><v>4.0</v></c><c r="D2"><v>1E-5</v></c><c t="b"><v>1</v></c>'
        '<c t="str"><f>A1</f><v>=cached</v></c><c t="s"><v>1</v></c><c t="inlineStr"><is><t>in</t></is></c></row>'
        '<row r="5"><c r="B5"><v>-3</v></c></row></sheetData></worksheet>'
    )
    strings = ["<sst><si><t>x</t></si><si><r><t>ri</t></r><r><t>ch</t></r><rPh><t>no</t></rPh></si></sst>"]
    book = write_xlsx(tmp_path / "cells.xlsx", [sheet], strings)
    assert list(read_rows(book, None)[1]) == [
        (2, ["", "4", "", "1e-05", "true", "=cached", "rich", "in"]),
        (5, ["", "-3"]),
    ]


# --- export: no cell a spreadsheet would run as a formula, and every value read back unchanged ---------------------

TRICKY = ["=1+1", "+2 attack", "-", "-3", "@SUM(A1)", "\tindented", "\rreturn", "'=quoted", "''=twice", "'plain", "'"]


def test_shielding_is_undone_exactly():
    from cardgen.data.tables import FORMULA_STARTS, shielded, unshielded

    for text in [*TRICKY, "plain", "", "it's", "'-"]:
        cell = shielded(text)
        assert unshielded(cell) == text
        assert not cell.startswith(FORMULA_STARTS)


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_exported_text_is_never_a_formula_and_reads_back(demo_data, suffix):
    game = demo_data / "demo"
    names = iter(TRICKY)
    ships = game / "ships.yaml"
    ships.write_text(
        ships.read_text().replace("name: Scout", f"name: {json_text(next(names))}")
        + "".join(
            f"  - {{id: s{n}, name: {json_text(name)}, cost: 1, attack: 1, hull: 1, faction: Union, "
            f"ability: {json_text(name)}}}\n"
            for n, name in enumerate(names)
        )
    )
    tokens = game / "tokens.yaml"
    tokens.write_text(tokens.read_text().replace('label: "5", value: 5', 'label: "-5", value: -3'))
    (original,) = load_games(demo_data, ["demo"])
    for component in ("ships", "tokens"):
        table = game / f"{component}.{suffix}"
        run = run_cli("--data-dir", demo_data, "export-items", "demo", component, "--format", suffix, "--out", table)
        assert run.code == 0, run.err
        text = table.read_text() if suffix == "csv" else ""
        if component == "ships" and text:
            assert "'=1+1" in text and "'+2 attack" in text and "'@SUM(A1)" in text and "'''=twice" in text
            cells = [cell for line in text.splitlines() for cell in line.split(",")]
            assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)
        if component == "tokens" and text:
            assert "credit-5,4,'-5,-3\n" in text  # the text "-5" shielded; a number is no formula: written as it is
        spec = yaml.safe_load((game / f"{component}.yaml").read_text())
        spec[ITEM_KEY[original.component(component).kind]] = {"file": table.name}
        (game / f"{component}.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False))
    (again,) = load_games(demo_data, ["demo"])
    assert _items(again) == _items(original)
    assert {i.fields["name"] for i in again.component("ships").items} >= set(TRICKY)
    assert [i.fields["value"] for i in again.component("tokens").items] == [1, -3]


def json_text(text: str) -> str:
    import json

    return json.dumps(text)


def test_a_bad_number_in_a_cell_is_one_error_not_two(table_game):
    """A cell that is not a number is reported once, at its row and column, as in YAML: not again as a missing
    required field."""
    table = table_game / "demo" / "ships.csv"
    table.write_text(table.read_text().replace("scout,3,Scout,2,", "scout,3,Scout,x,", 1))
    run = run_cli("--data-dir", table_game, "list")
    assert run.code == 2 and "ships.csv:2: column 'cost': 'x' is not a whole number" in run.err, run.err
    assert "missing" not in run.err and run.err.count("cost") == 1, run.err


@pytest.mark.parametrize("separator", [";", "\t"])
def test_a_semicolon_or_tab_separated_csv_reads_as_its_header_shows(table_game, separator):
    """Excel saves 'CSV' with semicolons in many locales (and some tools with tabs): the header row shows which
    separator the file uses."""
    table = table_game / "demo" / "ships.csv"
    table.write_text(
        separator.join(["id", "count", "name", "cost", "attack", "hull", "faction", "ability"]) + "\n"
        + separator.join(["scout", "3", "Scout", "2", "1", "1", "Union", "Draw a card, then discard one."]) + "\n"
        + separator.join(["frigate", "2", "Frigate", "5", "3", "2", "Syndicate", '"Two; or three."']) + "\n"
    )  # fmt: skip
    (game,) = load_games(table_game, ["demo"])
    ships = {i.id: i for i in game.component("ships").items}
    assert ships["scout"].count == 3 and ships["scout"].fields["ability"] == "Draw a card, then discard one."
    assert ships["frigate"].fields["cost"] == 5 and ships["frigate"].fields["ability"] == "Two; or three."


def test_a_rule_about_a_whole_table_points_at_the_line_naming_it_not_its_first_row(table_game):
    """The deck's count is no fault of its first card: the violation names ships.yaml's `cards: {file: ...}`."""
    table = table_game / "demo" / "ships.csv"
    table.write_text(table.read_text().replace("scout,3,", "scout,4,", 1))
    run = run_cli("--data-dir", table_game, "validate", "demo", "--json")
    assert run.code == 1, run.err
    import json

    violations = json.loads(run.out)["games"]["demo"]["violations"]
    found = [v for v in violations if v["rule"] == "The ship deck has six cards"]
    assert len(found) == 1 and found[0]["where"].endswith("demo/ships.yaml:3"), found


def test_an_exported_workbook_holds_numbers_as_numbers_and_reads_back(tmp_path):
    """Excel flags numbers stored as text and sums them as 0: counts and number fields go out as numbers, text
    that looks like a number (a name "007") stays text, and the workbook reads back to the same items."""
    from openpyxl import load_workbook

    from cardgen.data.tables import read_table, table_rows

    out = tmp_path / "units.xlsx"
    run = run_cli("export-items", "scifi-domains", "units", "--format", "xlsx", "--out", out)
    assert run.code == 0, run.err
    sheet = load_workbook(out).active
    header = [c.value for c in sheet[1]]
    rows = list(sheet.iter_rows(min_row=2))
    counts = [row[header.index("count")] for row in rows if row[header.index("count")].value is not None]
    assert counts and all(c.data_type == "n" and isinstance(c.value, int) for c in counts)
    assert all(row[header.index("name")].data_type == "s" for row in rows)
    written = table_rows([{"id": "a", "name": "007", "cost": 3}], ["id", "name", "cost"])
    book = tmp_path / "t.xlsx"
    book.write_bytes(write_table(book, written, "Sheet"))
    cells = next(load_workbook(book).active.iter_rows(min_row=2))
    assert (cells[1].value, cells[1].data_type, cells[2].value, cells[2].data_type) == ("007", "s", 3, "n")
    entries, _, problems = read_table(book, "Sheet", "cards", "unit", SPECS)
    assert not problems and entries[0][0] == {"id": "a", "name": "007", "cost": 3}


def test_a_formula_without_its_saved_value_is_named_not_read_as_empty(table_game):
    """A workbook written by a script holds formulas with no value saved beside them: read as empty, a count
    would silently become 1. It is refused at its cell."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Fleet"
    sheet.append(["id", "count", "name", "cost", "attack", "hull", "faction"])
    sheet.append(["scout", "=1+2", "Scout", 2, 1, 1, "Union"])
    book.save(table_game / "demo" / "ships.xlsx")
    (table_game / "demo" / "ships.yaml").write_text(
        "type: ship\nfront: ship\ncards: {file: ships.xlsx, sheet: Fleet}\n"
    )
    run = run_cli("--data-dir", table_game, "list")
    assert run.code == 2, run.err
    assert "ships.xlsx:2: sheet 'Fleet', cell B2 (column 'count'): a formula with no value saved" in run.err, run.err
