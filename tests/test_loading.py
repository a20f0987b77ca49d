"""Loading never lies: every kind of bad input gives exit code 2 and a one-line message with file and line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardgen.data import load_games
from cardgen.errors import DataError

from conftest import FIXTURES, run_cli


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"fixture changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def assert_input_error(run, file: str, line: int, *words: str) -> str:
    """Exit code 2, no traceback, and an error line naming file:line and the given words."""
    assert run.exception is None, f"unexpected exception {run.exception!r}"
    assert run.code == 2, (run.code, run.err)
    assert "Traceback" not in run.err + run.out
    matching = [ln for ln in run.err.splitlines() if f"{file}:{line}:" in ln and all(w in ln for w in words)]
    assert matching, f"no error naming {file}:{line} and {words}; got:\n{run.err}"
    return matching[0]


def test_demo_game_lists_with_counts():
    run = run_cli("--data-dir", FIXTURES / "card_data", "list", "--json")
    assert run.code == 0, run.err
    games = json.loads(run.out)
    assert games == [
        {
            "id": "demo",
            "title": "Demo Skirmish",
            "players": [2, 4],
            "components": [
                {"id": "ships", "kind": "deck", "count": 6},
                {"id": "tokens", "kind": "counters", "count": 14},
                {"id": "board", "kind": "sheets", "count": 1},
                {"id": "cubes", "kind": "pieces", "count": 0},
            ],
        }
    ]


def test_a_listing_is_kept_for_unchanged_data_and_never_outlives_a_change(demo_data, tmp_path, monkeypatch):
    """`cardgen list` keeps its output in the user's cache keyed by every byte of the data folder: a second listing
    of unchanged data reads it back, an edit lists afresh, and bad data is an error, never a kept listing."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = run_cli("--data-dir", demo_data, "list")
    assert first.code == 0, first.err
    (kept,) = (tmp_path / "cache" / "cardgen").glob("list-*.txt")
    assert kept.read_text() == first.out
    kept.write_text(first.out.replace("ships", "SHIPS"))  # what a second listing prints comes from the cache
    assert "SHIPS" in run_cli("--data-dir", demo_data, "list").out
    edit(demo_data / "demo" / "ships.yaml", "count: 2", "count: 3")
    changed = run_cli("--data-dir", demo_data, "list")
    assert changed.code == 0 and "ships" in changed.out and changed.out != first.out
    edit(demo_data / "demo" / "ships.yaml", "count: 3", "count: x")
    broken = run_cli("--data-dir", demo_data, "list")
    assert broken.code == 2 and "ships.yaml" in broken.err and broken.out == ""


def test_a_build_or_check_of_every_game_keeps_the_listing_it_would_print(demo_data, tmp_path, monkeypatch):
    """A build or a validation that loaded every game keeps what `cardgen list` (and `list --json`) would print, so
    the listing after them reads it back; it is the listing a fresh run prints, byte for byte. A build of some of
    the games, or one with --no-cache, keeps none."""
    layouts = ["--data-dir", demo_data, "--templates-dir", FIXTURES / "templates"]
    fresh = {}
    for form in ([], ["--json"]):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"fresh{len(form)}"))
        fresh[len(form)] = run_cli("--data-dir", demo_data, "list", *form).out
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    for command in (["build", "demo", "--out", tmp_path / "a", "-q"], ["build", "--out", tmp_path / "b", "--no-cache"]):
        assert run_cli(*layouts, *command).code == 0
        assert not list(cache.glob("cardgen/list-*.txt"))
    assert run_cli(*layouts, "build", "--out", tmp_path / "c", "-q").code == 0
    kept = sorted(p.read_text() for p in cache.glob("cardgen/list-*.txt"))
    assert kept == sorted(fresh.values())
    for form in ([], ["--json"]):
        assert run_cli("--data-dir", demo_data, "list", *form).out == fresh[len(form)]
    for kept_file in cache.glob("cardgen/list-*.txt"):
        kept_file.unlink()
    assert run_cli(*layouts, "validate", "--allow-unchecked").code == 0  # demo's checks.py is not trusted here
    assert sorted(p.read_text() for p in cache.glob("cardgen/list-*.txt")) == sorted(fresh.values())


def test_loaded_items_carry_fields_layouts_and_lines():
    (game,) = load_games(FIXTURES / "card_data")
    ships = game.component("ships")
    frigate = next(i for i in ships.items if i.id == "frigate")
    assert frigate.count == 2
    assert frigate.fields["name"] == "<Ships & Stations>"
    assert frigate.fields["ability"] == ""  # the card type's default
    assert frigate.front == "ship" and frigate.back == "card-back"  # the game's default back
    assert frigate.where.line == 12
    assert frigate.field_lines["cost"] == 15
    tokens = game.component("tokens")
    assert tokens.size.width == pytest.approx(15.875)
    assert ships.size.width == pytest.approx(63.5) and ships.size.height == pytest.approx(88.9)


def test_syntax_error_names_file_and_line(demo_data):
    (demo_data / "demo" / "tokens.yaml").write_text("type: token\nfront: token\ncounters: [a\n")
    assert_input_error(run_cli("--data-dir", demo_data, "list"), "tokens.yaml", 4, "invalid YAML", "began on line 3")


def test_duplicate_key_is_an_error(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    cost: 5\n", "    cost: 5\n    cost: 6\n")
    line = assert_input_error(run_cli("--data-dir", demo_data, "list"), "ships.yaml", 16, "duplicate key 'cost'")
    assert "line 15" in line


def test_duplicate_key_in_manifest_is_an_error(demo_data):
    edit(demo_data / "demo" / "game.yaml", "title: Demo Skirmish\n", "title: Demo Skirmish\ntitle: Other\n")
    assert_input_error(run_cli("--data-dir", demo_data, "list"), "game.yaml", 4, "duplicate key 'title'")


def test_unknown_field_has_did_you_mean(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    attack: 1\n", "    atack: 1\n")
    line = assert_input_error(run_cli("--data-dir", demo_data, "list"), "ships.yaml", 8, "unknown field 'atack'")
    assert "did you mean 'attack'" in line
    assert "scout" in line  # the card id


def test_unknown_manifest_field_has_did_you_mean(demo_data):
    edit(demo_data / "demo" / "game.yaml", "players: [2, 4]", "player: [2, 4]")
    run = run_cli("--data-dir", demo_data, "list")
    line = assert_input_error(run, "game.yaml", 4, "unknown field 'player'")
    assert "did you mean 'players'" in line
    assert_input_error(run, "game.yaml", 2, "missing required field 'players'")


def test_wrong_type_names_field_and_value(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    cost: 5\n", "    cost: five\n")
    line = assert_input_error(run_cli("--data-dir", demo_data, "list"), "ships.yaml", 15, "cards[1] (frigate).cost")
    assert "expected a whole number, got 'five'" in line


def test_missing_field(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    hull: 5\n", "")
    assert_input_error(
        run_cli("--data-dir", demo_data, "list"), "ships.yaml", 19, "dreadnought", "missing required field 'hull'"
    )


def test_value_out_of_range_and_choices(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    cost: 12\n", "    cost: 40\n")
    edit(demo_data / "demo" / "ships.yaml", "    faction: Syndicate\n", "    faction: Syndicat\n")
    run = run_cli("--data-dir", demo_data, "list")
    assert_input_error(run, "ships.yaml", 21, "dreadnought", "cost", "less than or equal to 20")
    line = assert_input_error(run, "ships.yaml", 18, "frigate", "faction")
    assert "did you mean 'Syndicate'" in line


def test_all_errors_of_a_file_are_reported_together(demo_data):
    path = demo_data / "demo" / "ships.yaml"
    edit(path, "    attack: 1\n", "    atack: 1\n")
    edit(path, "    cost: 5\n", "    cost: five\n    cost: 6\n")
    edit(path, "    hull: 5\n", "")
    run = run_cli("--data-dir", demo_data, "list")
    assert run.code == 2
    assert len(run.err.strip().splitlines()) == 4, run.err


def test_unknown_game():
    run = run_cli("--data-dir", FIXTURES / "card_data", "list", "demp")
    assert run.code == 2
    assert "unknown game 'demp'" in run.err and "did you mean 'demo'" in run.err


def test_missing_component_file(demo_data):
    (demo_data / "demo" / "tokens.yaml").unlink()
    run = run_cli("--data-dir", demo_data, "list")
    assert run.code == 2
    assert re.search(r"tokens\.yaml: file not found", run.err), run.err


def test_component_file_outside_the_game_folder(demo_data):
    edit(demo_data / "demo" / "game.yaml", "file: tokens.yaml", "file: ../tokens.yaml")
    assert_input_error(run_cli("--data-dir", demo_data, "list"), "game.yaml", 36, "outside the game folder")


def test_missing_data_dir(tmp_path):
    run = run_cli("--data-dir", tmp_path / "nowhere", "list")
    assert run.code == 2 and "data folder not found" in run.err


def test_duplicate_ids_within_a_game(demo_data):
    edit(demo_data / "demo" / "tokens.yaml", "id: credit-5", "id: scout")
    assert_input_error(run_cli("--data-dir", demo_data, "list"), "tokens.yaml", 8, "duplicate id 'scout'")


def test_game_id_must_match_folder(demo_data):
    edit(demo_data / "demo" / "game.yaml", "id: demo", "id: demo2")
    assert_input_error(run_cli("--data-dir", demo_data, "list"), "game.yaml", 2, "must match its folder name")


def test_unknown_card_type(demo_data):
    edit(demo_data / "demo" / "tokens.yaml", "type: token", "type: tokn")
    line = assert_input_error(run_cli("--data-dir", demo_data, "list"), "tokens.yaml", 1, "unknown card type 'tokn'")
    assert "did you mean 'token'" in line


def test_bad_size(demo_data):
    edit(demo_data / "demo" / "tokens.yaml", "size: 5/8in", "size: 5/8inch")
    assert_input_error(run_cli("--data-dir", demo_data, "list"), "tokens.yaml", 2, "size")


def test_not_utf8(demo_data):
    (demo_data / "demo" / "tokens.yaml").write_bytes(b"type: token\nfront: \xff\xfe\n")
    run = run_cli("--data-dir", demo_data, "list")
    assert run.code == 2 and "tokens.yaml" in run.err and "UTF-8" in run.err


def test_load_games_raises_located_problems(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    attack: 1\n", "    atack: 1\n")
    with pytest.raises(DataError) as caught:
        load_games(demo_data)
    (problem,) = [p for p in caught.value.problems if "atack" in p.message]
    assert problem.where.line == 8


def _problems(data) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_games(data)
    return [str(p) for p in caught.value.problems]


def test_a_broken_manifest_field_is_reported_with_the_component_files_mistakes(demo_data):
    """A bad `players` (or title, rulebook…) does not hide the mistakes of the component files: the manifest is
    salvaged with placeholders so that the files can still be read, and everything is reported together."""
    edit(demo_data / "demo" / "game.yaml", "players: [2, 4]", "players: [0, 4]")
    edit(demo_data / "demo" / "ships.yaml", "    attack: 1\n", "    atack: 1\n")
    found = _problems(demo_data)
    assert any("game.yaml:4: players" in p and "1 ≤ min ≤ max" in p for p in found), found
    assert any("ships.yaml:8" in p and "'atack'" in p for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("title: Demo Skirmish", "title: [Demo]", "game.yaml:3: title"),
        ("rulebook:\n  title: cardgen's own demo rules", "rulebook:\n  titel: x", "game.yaml:5: rulebook.title"),
        ("id: demo\n", "id: Demo Game!\n", "game.yaml:2: id"),
    ],
)
def test_each_salvageable_manifest_part_keeps_the_files_readable(demo_data, old, new, where):
    edit(demo_data / "demo" / "game.yaml", old, new)
    edit(demo_data / "demo" / "ships.yaml", "    attack: 1\n", "    atack: 1\n")
    found = _problems(demo_data)
    assert any(f"demo/{where}" in p for p in found), found
    assert any("ships.yaml:8" in p for p in found), found


def test_broken_card_types_stop_before_the_component_files(demo_data):
    """Without valid card types (or component list) the files cannot be read: only the manifest's problems."""
    edit(demo_data / "demo" / "game.yaml", "      cost: {type: int, min: 0, max: 20}", "      cost: {type: integer}")
    edit(demo_data / "demo" / "ships.yaml", "    attack: 1\n", "    atack: 1\n")
    found = _problems(demo_data)
    assert found and all("game.yaml" in p for p in found), found
    assert any("cost.type" in p and "'integer'" in p for p in found), found


DEEP = {  # YAML nested past the limit of 100 levels: the line of the 101st level, whichever way it is written
    "flow": ("a: " + "[" * 150 + "]" * 150, 1),
    "block": ("".join("  " * i + f"k{i}:\n" for i in range(150)) + "  " * 150 + "v: 1\n", 101),
    "flow on a later line": ("x: 1\ny:\n  - " + "[" * 120 + "1" + "]" * 120 + "\n", 3),
    "past libyaml's own limit": ("a: " + "{b: " * 2000 + "1" + "}" * 2000, 1),
}


@pytest.mark.parametrize("composer", ["libyaml stops deep nesting", "walked first"])
@pytest.mark.parametrize("case", sorted(DEEP))
def test_nesting_past_the_limit_names_its_line(monkeypatch, case, composer):
    """With a libyaml that refuses deep nesting itself (0.2.6) the limit is checked while building, one pass less
    over the file; with an older one every event is walked first. Both report the same line."""
    from cardgen.data import yaml_source

    monkeypatch.setattr(yaml_source, "SAFE_COMPOSER", composer.startswith("libyaml") and yaml_source.SAFE_COMPOSER)
    text, line = DEEP[case]
    with pytest.raises(DataError) as caught:
        yaml_source.parse_yaml(text, Path("deep.yaml"))
    assert caught.value.lines() == [
        f"deep.yaml:{line}: YAML nests deeper than 100 levels (raise with --limit yaml_depth=N)"
    ]
    allowed = "a: " + "[" * 99 + "]" * 99  # 100 levels
    assert yaml_source.parse_yaml(allowed, Path("ok.yaml")).problems == []


def test_text_values_reached_through_aliases_count_towards_the_alias_limit():
    """Text values of a mapping are built inline (a fast path); one reached through an alias still counts as an
    expanded value, inside an expansion or not."""
    from dataclasses import replace

    from cardgen import limits
    from cardgen.data.yaml_source import parse_yaml

    direct = "s: &s text\nm: {" + ", ".join(f"k{i}: *s" for i in range(12)) + "}\n"
    nested = "s: &s text\nm: &m {a: *s, b: 1}\nl: [" + ", ".join(["*m"] * 6) + "]\n"
    saved = limits.current()
    limits.use(replace(saved, yaml_alias_values=10))
    try:
        for text in (direct, nested):
            with pytest.raises(DataError, match="aliases expand to more than 10 values"):
                parse_yaml(text, Path("bomb.yaml"))
        doc = parse_yaml("s: &s text\nm: {a: *s, b: *s}\n", Path("ok.yaml"))
        assert doc.value == {"s": "text", "m": {"a": "text", "b": "text"}} and doc.lines[("m", "b")] == 2
    finally:
        limits.use(saved)


def test_paths_are_shown_relative_to_the_working_folder_of_the_moment(tmp_path, monkeypatch):
    """Display paths are kept per path and working folder: a change of folder shows the same file differently."""
    from cardgen.errors import display_path

    game = tmp_path / "data" / "demo"
    game.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert display_path(game / "game.yaml") == "data/demo/game.yaml"
    monkeypatch.chdir(game)
    assert display_path(game / "game.yaml") == "game.yaml"
    assert display_path("game.yaml") == "game.yaml"
    monkeypatch.chdir(tmp_path / "data")
    assert display_path("game.yaml") == "game.yaml"  # a relative path is relative to the folder of the moment
    assert display_path(tmp_path / "elsewhere.yaml") == str(tmp_path / "elsewhere.yaml")  # outside: as given


@pytest.mark.parametrize("reader", ["libyaml", "PyYAML's own"])
def test_a_control_character_names_its_line_and_column(monkeypatch, reader):
    """The reader error has only a position (UTF-8 bytes with libyaml, characters with PyYAML's reader): the message
    gives the line and column, counted in characters, whichever reader found it."""
    import yaml

    from cardgen.data import yaml_source

    if reader == "PyYAML's own":
        monkeypatch.setattr(yaml_source, "_LOADER", yaml.SafeLoader)
    elif yaml_source._LOADER is yaml.SafeLoader:
        pytest.skip("PyYAML was built without libyaml")
    text = 'a: é\r\nb:\n  - ü\n  - "éé\x07"\n'
    with pytest.raises(DataError) as caught:
        yaml_source.parse_yaml(text, Path("ctrl.yaml"))
    (line,) = caught.value.lines()
    assert line.startswith("ctrl.yaml:4: invalid YAML: unacceptable character #x0007 at column 8 (")
