"""Items from spreadsheets, piece by piece and in-process (so mutation testing sees it): how headers, rows and cells
are read and typed, how values are written back, and the exact messages of every mistake, each naming file, row and
column. `test_tables.py` covers the same through whole games and the command line."""

from __future__ import annotations

import pytest

from cardgen.data.model import CardType, FieldSpec
from cardgen.data.tables import (
    _cell,
    _header_problems,
    _row,
    _typed,
    read_rows,
    read_table,
    table_rows,
    write_table,
)
from cardgen.errors import DataError

SHIP = CardType(
    fields={
        "name": FieldSpec(type="str"),
        "cost": FieldSpec(type="int"),
        "speed": FieldSpec(type="number"),
        "elite": FieldSpec(type="bool"),
        "tags": FieldSpec(type="list"),
        "extra": FieldSpec(type="any"),
        "text": FieldSpec(type="text"),
    }
)
BASE = CardType(fields={"name": FieldSpec(type="str"), "size": FieldSpec(type="int")})
TYPES = {"ship": SHIP, "base": BASE}


def messages(problems):
    return [str(p) for p in problems]


def test_header_problems_are_exact_and_located():
    assert _header_problems(["id", "name", "cost"], 1, "t.csv", "ship", TYPES) == []
    found = _header_problems(["name", "", "cost", "cost", "cots"], 3, "t.csv", "ship", TYPES)
    assert messages(found) == [
        "t.csv:3: no 'id' column: every item needs an id",
        "t.csv:3: column '': a column has no header",
        "t.csv:3: column 'cost': this column header appears twice",
        "t.csv:3: column 'cots': unknown field (did you mean 'cost'?)",
    ]
    # with a type column every card type's fields are known; reserved columns are always known
    assert _header_problems(["id", "type", "name", "size", "cost", "count", "source"], 1, "t.csv", None, TYPES) == []
    # with neither a default type nor a type column nothing can be called unknown
    assert _header_problems(["id", "whatever"], 1, "t.csv", None, TYPES) == []


def test_rows_are_typed_by_their_card_type_and_empty_cells_skipped():
    columns = ["id", "type", "name", "size", "cost"]
    raw, problems = _row(columns, ["a", "base", "Outpost", "3", ""], 5, "t.csv", "ship", TYPES)
    assert raw == {"id": "a", "type": "base", "name": "Outpost", "size": 3} and problems == []
    raw, problems = _row(columns, ["b", "", "Scout", "", "x"], 6, "t.csv", "ship", TYPES)  # default type: ship
    assert raw == {"id": "b", "name": "Scout"} and messages(problems) == [
        "t.csv:6: column 'cost': 'x' is not a whole number"
    ]
    raw, problems = _row(["id"], ["c", "", " "], 7, "t.csv", "ship", TYPES)  # trailing blank cells are fine
    assert raw == {"id": "c"} and problems == []
    raw, problems = _row(["id"], ["c", "", "x"], 8, "t.csv", "ship", TYPES)
    assert raw == {} and messages(problems) == ["t.csv:8: 3 cells but only 1 column headers"]


@pytest.mark.parametrize(
    ("column", "cell", "spec", "value"),
    [
        ("count", " 3 ", None, 3),
        ("source", "designed", None, "designed"),
        ("source", '{"cost": "designed"}', None, {"cost": "designed"}),
        ("front", " ship ", None, "ship"),
        ("name", " Scout ", None, "Scout"),  # no spec (unknown type): the text, stripped
        ("cost", "-4", SHIP.fields["cost"], -4),
        ("speed", "2", SHIP.fields["speed"], 2),
        ("speed", "2.5", SHIP.fields["speed"], 2.5),
        ("elite", "Yes", SHIP.fields["elite"], True),
        ("elite", "n", SHIP.fields["elite"], False),
        ("elite", "0", SHIP.fields["elite"], False),
        ("tags", "a; 2; 2.5;; b", SHIP.fields["tags"], ["a", 2, 2.5, "b"]),
        ("tags", '["a; b", 1]', SHIP.fields["tags"], ["a; b", 1]),
        ("extra", '{"x": [1]}', SHIP.fields["extra"], {"x": [1]}),
        ("extra", "7", SHIP.fields["extra"], 7),
        ("extra", "seven", SHIP.fields["extra"], "seven"),
        ("text", "  two  spaces\nkept ", SHIP.fields["text"], "  two  spaces\nkept "),
        ("name", " Scout ", SHIP.fields["name"], " Scout "),
    ],
)
def test_cells_are_typed(column, cell, spec, value):
    assert _typed(column, cell, spec) == value


@pytest.mark.parametrize(
    ("column", "cell", "spec", "message"),
    [
        ("count", "3.5", None, "'3.5' is not a whole number"),
        ("cost", "two", SHIP.fields["cost"], "'two' is not a whole number"),
        ("speed", "fast", SHIP.fields["speed"], "'fast' is not a number"),
        ("elite", "maybe", SHIP.fields["elite"], "'maybe' is not true or false"),
        ("tags", "[1, ", SHIP.fields["tags"], "'[1,' is not a JSON list (Expecting value)"),
        (
            "extra",
            "{oops}",
            SHIP.fields["extra"],
            "'{oops}' is not valid JSON (Expecting property name enclosed in double quotes)",
        ),
    ],
)
def test_bad_cells_say_what_is_wrong(column, cell, spec, message):
    with pytest.raises(ValueError) as caught:
        _typed(column, cell, spec)
    assert str(caught.value) == message


def test_values_are_written_back_as_cells():
    assert _cell(None) == "" and _cell(True) == "true" and _cell(False) == "false"
    assert _cell(["a", 2, 2.5]) == "a; 2; 2.5"
    assert _cell(["a; b", "c"]) == '["a; b", "c"]'  # the separator inside an element: JSON
    assert _cell(["2"]) == '["2"]'  # a text that would read back as a number: JSON
    assert _cell([True]) == "[true]" and _cell([[1]]) == "[[1]]"
    assert _cell({"b": 1, "a": "é"}) == '{"b": 1, "a": "é"}'  # keys in their order, text unescaped
    assert _cell(3) == "3" and _cell("Scout") == "Scout"
    # what a spreadsheet would run as a formula is shielded; a number is written as it is
    assert _cell(-3) == "-3" and _cell(-2.5e-07) == "-2.5e-07" and _cell(float("-inf")) == "'-inf"
    assert _cell("-3") == "'-3" and _cell([-1, 2]) == "'-1; 2" and _cell("=1+1") == "'=1+1"


def test_table_rows_keep_only_columns_with_values_id_first():
    items = [{"name": "Scout", "id": "s", "cost": None, "count": 2}, {"id": "f", "name": "", "cost": 3}]
    assert table_rows(items, ["count", "name", "cost", "id", "hull"]) == [
        ["id", "count", "name", "cost"],
        ["s", "2", "Scout", ""],
        ["f", "", "", "3"],
    ]


def test_csv_files_are_read_by_row_with_their_line_numbers(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text('id,text\na,"two\nlines"\n,\nb,x\n', encoding="utf-8")
    assert list(read_rows(path, None)[1]) == [(1, ["id", "text"]), (2, ["a", "two\nlines"]), (5, ["b", "x"])]
    with pytest.raises(DataError, match=r"t.csv: a CSV file has no sheets \(sheet: is for .xlsx\)$"):
        read_rows(path, "Units")
    other = tmp_path / "t.ods"
    other.write_text("x")
    with pytest.raises(DataError, match=r"t.ods: items can come from .csv or .xlsx files$"):
        read_rows(other, None)
    bad = tmp_path / "bad.csv"
    bad.write_text("id\n" + "x" * 200_000 + "\n")  # beyond the csv module's field size limit: the cell limit
    assert messages(read_table(bad, None, "cards", "ship", TYPES)[2]) == [
        f"{bad}:2: column 'id': the cell holds 200,000 characters, more than the limit of 10,000 "
        "(raise it with --limit table_cell_length=N if you mean it)"
    ]


def test_a_table_maps_its_rows_for_later_errors(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("id,name,cost\n\na,Scout,2\nb,Frigate,x\n", encoding="utf-8")
    entries, doc, problems = read_table(path, None, "cards", "ship", TYPES)
    # the row with a cell in error is reported there once and left out (as YAML leaves out an item it rejects)
    assert [raw for raw, _ in entries] == [{"id": "a", "name": "Scout", "cost": 2}]
    assert [key for _, key in entries] == [("cards", 3)]
    assert (
        doc.lines[("cards", 3)] == 3 and doc.lines[("cards", 3, "cost")] == 3 and ("cards", 4, "cost") not in doc.lines
    )
    assert messages(problems) == [f"{path}:4: column 'cost': 'x' is not a whole number"]
    path.write_text("\n\n", encoding="utf-8")
    assert messages(read_table(path, None, "cards", "ship", TYPES)[2]) == [
        f"{path}:1: the table is empty: the first row must name the columns"
    ]
    path.write_text("name\nScout\n", encoding="utf-8")
    entries, _, problems = read_table(path, None, "cards", "ship", TYPES)
    assert entries == [] and messages(problems) == [f"{path}:1: no 'id' column: every item needs an id"]


def test_csv_and_xlsx_are_written_and_read_back(tmp_path):
    rows = [["id", "name"], ["a", "Scout, the first"], ["b", "'=1+1"]]  # a formula's text as table_rows shields it
    csv_path = tmp_path / "t.csv"
    data = write_table(csv_path, rows, "ignored")
    assert data == b'id,name\na,"Scout, the first"\nb,\'=1+1\n'
    assert write_table(csv_path, [["a\rb"]], "ignored") == b'"a\rb"\r\n'  # a carriage return in a cell is quoted
    csv_path.write_bytes(data)
    assert [cells for _, cells in read_rows(csv_path, None)[1]] == rows
    book = tmp_path / "t.xlsx"
    book.write_bytes(write_table(book, rows, "A sheet name longer than thirty-one letters"))
    sheet, read = read_rows(book, "A sheet name longer than thirty")
    assert sheet == "A sheet name longer than thirty" and [cells for _, cells in read] == rows  # 31 letters kept
    assert [cells for _, cells in read_rows(book, None)[1]] == rows  # the first sheet by default
    with pytest.raises(DataError, match=r"t.xlsx: no sheet 'Sheet'$"):
        read_rows(book, "Sheet")
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"not a zip")
    with pytest.raises(DataError, match=r"broken.xlsx: not a readable XLSX workbook \(\w+"):
        read_rows(broken, None)


# --- facts and places in a loaded game (cardgen/data/games.py) -----------------------------------------------------


@pytest.fixture(scope="module")
def demo():
    from cardgen.data import load_games

    from conftest import FIXTURES

    (game,) = load_games(FIXTURES / "card_data", ["demo"])
    return game


def test_fact_parts_by_dotted_path(demo):
    import dataclasses

    from cardgen.data.rules import Fact

    assert demo.fact("line_up.2") == 2 and demo.fact("cost_range.max") == 12 and demo.fact("factions.1") == "Syndicate"
    facts = {**demo.rules.facts, "table": Fact(value={"-1": "a", -2: "b", "x": [10, 20]}, cite="c", origin="designed")}
    game = dataclasses.replace(demo, rules=demo.rules.model_copy(update={"facts": facts}))
    assert game.fact("table.-1") == "a" and game.fact("table.-2") == "b" and game.fact("table.x.1") == 20
    for name, part in (
        ("table.x.2", "2"),
        ("table.y", "y"),
        ("factions.x", "x"),
        ("deck_size.0", "0"),
        ("table.x.-1", "-1"),
    ):
        with pytest.raises(DataError, match=rf"^game 'demo': rules fact '{name}' has no part '{part}'$"):
            game.fact(name)
    with pytest.raises(DataError, match=r"^game 'demo' has no rules fact 'deck_sise' \(did you mean 'deck_size'\?\)$"):
        game.fact("deck_sise.1")
    assert game.cite("line_up.2") == "Demo rules §4 — 'with 2, 3 or 4 players, two ships are on offer'"


def test_places_in_game_yaml(demo):
    import dataclasses

    where = demo.where(("settings", "card_size"))
    assert where.file.endswith("demo/game.yaml") and where.line is not None and where.field == "settings.card_size"
    bare = dataclasses.replace(demo, manifest_doc=None)
    assert str(bare.where(("components", 2, "id"))).endswith("demo/game.yaml: components.2.id")
    with pytest.raises(DataError, match=r"^game 'demo' has no component 'shipz' \(did you mean 'ships'\?\)$"):
        demo.component("shipz")


def test_unknown_games_are_named_with_the_known_ones(tmp_path):
    from cardgen.data.games import find_game

    from conftest import FIXTURES

    with pytest.raises(DataError, match=r"^unknown game 'dem' \(did you mean 'demo'\?\); games in .*card_data: demo$"):
        find_game(FIXTURES / "card_data", "dem")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"^unknown game 'x'; games in .*empty: none$"):
        find_game(tmp_path / "empty", "x")
    with pytest.raises(DataError, match=r"nowhere: data folder not found$"):
        find_game(tmp_path / "nowhere", "x")
