"""`cardgen validate --sources DIR`: every quote of rules.yaml looked for, verbatim, in the documents it names.

The demo game gets a rulebook of its own, written here; the bundled games' quotes are looked for in
`../shared/rulebooks/` (reference material beside the repository, never shipped), skipped with the reason where that
folder is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgen.data import load_games
from cardgen.validate.sources import Document, check_sources, passages, plain

from conftest import FIXTURES, REPO, run_cli

SHARED = REPO.parent / "shared"
BUNDLED = sorted(p.name for p in (REPO / "card_data").iterdir() if (p / "rules.yaml").is_file())

# The demo rulebook, as a designer might keep it: typographic quotes, a sentence over two lines, Markdown emphasis.
DEMO_RULES = """\
§1 The game has a deck of six ships: four Union ships and
two Syndicate ships.
§2 There are the two factions, the Union and the Syndicate.
§3 Ship costs run from 1 to 12.
§4 Line-up: with 2, 3 or 4 players, two ships are on offer; each player keeps **one ship**.
§5 There are 14 credit tokens.
§6 To attack, roll a die: 1\u20133 misses, 4\u20136 hits.
"""


def with_sources(data: Path, rules_text: str = DEMO_RULES, file: str = "demo-rules.txt") -> Path:
    """The demo copy's rules.yaml names `file` as its source; the source folder holds the rulebook above."""
    rules = data / "demo" / "rules.yaml"
    rules.write_text(f'sources:\n  - {{file: {file}, title: "Demo rules"}}\n' + rules.read_text())
    folder = data.parent / "sources"
    folder.mkdir(exist_ok=True)
    (folder / "demo-rules.txt").write_text(rules_text, encoding="utf-8")
    return folder


def validate(data: Path, *args: str | Path):
    return run_cli("--data-dir", data, "--templates-dir", FIXTURES / "templates", "validate", "--trust-code", *args)


def test_plain_text_as_compared():
    assert plain("it\u2019s \u201cZERO\u201d \u2013 **one**\n  ship") == "it's ZERO - one ship"


def test_a_document_finds_a_passage_across_lines_and_names_its_line():
    document = Document.of("rules.txt", "first line\n\nsecond half of a\nsentence here\n")
    assert document.find("a sentence here") == 3
    assert document.find("first line second") == 1  # a blank line is no more than a break
    assert document.find("not in it") is None
    ratio, line, text = document.nearest("second half of the sentence")
    assert line == 3 and ratio > 0.8 and text.startswith("second half")


def test_the_demo_quotes_are_found(demo_data):
    folder = with_sources(demo_data)
    run = validate(demo_data, "--sources", folder)
    assert run.code == 0, run.out + run.err
    assert "9 quoted passages found verbatim in demo-rules.txt" in run.out
    payload = json.loads(validate(demo_data, "--sources", folder, "--json").out)
    assert payload["games"]["demo"]["sources"] == {"documents": ["demo-rules.txt"], "found": 9, "not_found": 0}


def test_passages_split_at_ellipses_and_come_from_facts_checks_and_readings(demo_data):
    rules = demo_data / "demo" / "rules.yaml"
    rules.write_text(
        rules.read_text().replace('cite: "Demo rules §4"}', "cite: \"Demo rules §4 — 'keeps … one ship'\"}")
    )
    game = load_games(demo_data, ["demo"])[0]
    found = [(p.text, p.what) for p in passages(game)]
    assert ("keeps", "contradictions[0] (How many ships a player keeps)") in found
    assert ("one ship", "contradictions[0] (How many ships a player keeps)") in found
    assert ("four Union ships", "facts.faction_mix.quote[Union]") in found


def test_a_changed_quote_is_reported_with_the_nearest_text(demo_data):
    folder = with_sources(demo_data, DEMO_RULES.replace("14 credit tokens", "15 credit tokens"))
    run = validate(demo_data, "--sources", folder)
    assert run.code == 1
    assert "rules.yaml:" in run.out and "facts.tokens.cite is quoted verbatim from the sources" in run.out
    assert "expected '14 credit tokens'; found nearest demo-rules.txt:6 (" in run.out
    game = load_games(demo_data, ["demo"])[0]
    report = check_sources(game, folder)
    assert report.found == 8 and len(report.violations) == 1
    assert report.violations[0].where.endswith(f"rules.yaml:{_line_of(demo_data, 'tokens:')}")


def _line_of(data: Path, text: str) -> int:
    lines = (data / "demo" / "rules.yaml").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_nothing_like_it(demo_data):
    folder = with_sources(demo_data, DEMO_RULES.replace("There are 14 credit tokens.", ""))
    game = load_games(demo_data, ["demo"])[0]
    [violation] = check_sources(game, folder).violations
    assert violation.actual == "nothing like it" or "alike" in violation.actual


def test_a_game_naming_no_sources_is_not_complete(demo_data, tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    run = validate(demo_data, "--sources", folder)
    assert run.code == 1
    assert "NOT COMPLETE" in run.out and "names no sources" in run.out
    assert validate(demo_data, "--sources", folder, "--allow-unchecked").code == 0
    payload = json.loads(validate(demo_data, "--sources", folder, "--json").out)
    assert payload["games"]["demo"]["complete"] is False


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "demo-rules.txt: not found (rules.yaml of demo names it in sources:)"),
        ("link-out", "leads out of"),
        ("binary", "not UTF-8 text"),
        ("folder", "not a file"),
    ],
)
def test_bad_sources_get_one_line(demo_data, tmp_path, setup, message):
    folder = with_sources(demo_data)
    source = folder / "demo-rules.txt"
    if setup == "missing":
        source.unlink()
    elif setup == "link-out":
        outside = tmp_path / "outside.txt"
        outside.write_text(DEMO_RULES)
        source.unlink()
        source.symlink_to(outside)
    elif setup == "binary":
        source.write_bytes(b"\xff\xfe\x00rules")
    else:
        source.unlink()
        source.mkdir()
    run = validate(demo_data, "--sources", folder)
    assert run.code != 0 and run.exception is None
    errors = [line for line in run.err.splitlines() if line.strip()]
    assert len(errors) == 1 and message in errors[0], run.err


@pytest.mark.parametrize("file", ["../outside.txt", "/etc/passwd", "a//b.txt", "a\\\\b.txt"])
def test_a_source_must_lie_inside_the_folder(demo_data, file):
    with_sources(demo_data, file=file)
    run = validate(demo_data)
    assert run.code == 2 and "a source is a path inside the --sources folder" in run.err


def test_sources_must_be_a_folder(demo_data, tmp_path):
    run = validate(demo_data, "--sources", tmp_path / "nowhere")
    assert run.code != 0 and "--sources" in run.err and "not a folder" in run.err


@pytest.mark.skipif(not (SHARED / "rulebooks").is_dir(), reason="../shared/rulebooks/ is not beside the repository")
@pytest.mark.parametrize("game_id", BUNDLED)
def test_every_bundled_quote_is_in_its_rulebook(game_id):
    game = load_games(REPO / "card_data", [game_id])[0]
    assert game.rules.sources, f"{game_id} names no sources"
    report = check_sources(game, SHARED)
    assert not report.violations, "\n".join(f"{v.where}: {v.expected} — {v.actual}" for v in report.violations)
    assert report.found >= 30
