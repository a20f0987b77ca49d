"""Every check kind reports exactly what it expected, what it found and where (in-process, so that mutation testing
sees the checks): one rules.yaml check at a time on the demo game, each breaking the rule one way.

The expectations were worked out by hand against the demo data (ships: 3 Scouts, 2 Frigates, 1 Dreadnought;
hulls 1, 2, 5; costs 2, 5, 12; tokens: ten 1s and four 5s; the game seats 2 to 4)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.data import load_games
from cardgen.validate import validate_game

from conftest import FIXTURES

DESIGNED = "designed (no rulebook citation)"

HOLDING = [  # at the boundaries: a check that holds exactly there must not report
    "{rule: R, check: sum, component: ships, field: hull, expect: 12}",
    "{rule: R, check: sum, component: ships, field: hull, min: 12, max: 12}",
    "{rule: R, check: sum, component: ships, field: hull, expect: 8, args: {copies_count: false}}",
    "{rule: R, check: range, component: ships, field: cost, min: 2, max: 12}",
    "{rule: R, check: per-player, component: tokens, per_player: 7, args: {players: 2, at_least: true}}",
    "{rule: R, check: per-player, component: tokens, per_player: 3.5}",
    "{rule: R, check: count, component: ships, expect: 6}",
    "{rule: R, check: line-up, component: ships, line_up: {2: 4, 3: 3, 4: 2}, held: 1}",
    "{rule: R, check: table, args: {fact: damage_roll, covers: [1, 6]}}",
    "{rule: R, check: table, args: {fact: line_up, keys: [2, 3, 4], monotone: non-increasing}}",
    "{rule: R, check: composition, component: ships, field: faction, expect: {Union: 4, Syndicate: 2}}",
    "{rule: R, check: implies, component: ships, where: {faction: Syndicate}, then: {attack: 3, hull: 2}}",
]

CASES = [
    (
        "{rule: R, check: sum, component: ships, field: hull, expect: 13}",
        [DESIGNED],
        [("hull totals 13", "12", "demo/ships.yaml:3")],
    ),
    (
        "{rule: R, check: sum, component: ships, field: hull, min: 20}",
        [DESIGNED],
        [("hull totals at least 20", "12", "demo/ships.yaml:3")],
    ),
    (
        "{rule: R, check: sum, component: ships, field: hull, max: 10}",
        [DESIGNED],
        [("hull totals at most 10", "12", "demo/ships.yaml:3")],
    ),
    (
        "{rule: R, check: sum, component: ships, field: hull, expect: 12, args: {copies_count: false}}",
        [DESIGNED],
        [("hull totals 12", "8", "demo/ships.yaml:3")],
    ),
    (
        "{rule: R, check: sum, component: ships, field: cost, expect: {fact: deck_size}}",
        ["Demo rules §1 — 'a deck of six ships'"],
        [("cost totals 6", "28", "demo/ships.yaml:3")],
    ),
    (
        "{rule: R, check: sum, field: value, expect: 1}",
        [DESIGNED],
        [("value totals 1", "30", "all components")],
    ),
    (
        "{rule: R, check: composition, component: ships, field: faction, expect: {Union: 3, Syndicate: 3}}",
        [DESIGNED],
        [
            ({"faction = Syndicate": 3}, {"faction = Syndicate": 2}, "demo/ships.yaml:18"),
            ({"faction = Union": 3}, {"faction = Union": 4}, "demo/ships.yaml:10"),
        ],
    ),
    (
        "{rule: R, check: composition, component: ships, field: faction, expect: {Union: 4, Syndicate: 2, Empire: 1}}",
        [DESIGNED],
        [({"faction = Empire": 1}, {"faction = Empire": 0}, "demo/ships.yaml:3")],
    ),
    (
        "{rule: R, check: unique, component: ships, field: faction}",
        [DESIGNED],
        [
            ("faction unique", "'Union' on 3 copies", "demo/ships.yaml:10 (scout.faction)"),
            ("faction unique", "'Syndicate' on 2 copies", "demo/ships.yaml:18 (frigate.faction)"),
            ("faction unique", "'Union' also on 'scout'", "demo/ships.yaml:24 (dreadnought.faction)"),
        ],
    ),
    (
        "{rule: R, check: unique, component: ships, field: name}",
        [DESIGNED],
        [
            ("name unique", "'Scout' on 3 copies", "demo/ships.yaml:6 (scout.name)"),
            ("name unique", "'<Ships & Stations>' on 2 copies", "demo/ships.yaml:14 (frigate.name)"),
        ],
    ),
    (
        "{rule: R, check: unique, component: ships, field: name, args: {copies_count: false}}",
        [],
        [],
    ),
    (
        "{rule: R, check: line-up, component: ships, line_up: {2: 5, 3: 2}, held: 1}",
        [DESIGNED],
        [
            ("at least 7 cards at 2 players (line-up 5 + 2 × 1 held)", 6, "demo/ships.yaml:3"),
            ("a line-up size for 4 players", "none", "demo/ships.yaml:3"),
        ],
    ),
    (
        "{rule: R, check: line-up, component: ships, line_up: {2: 2}, held: 3}",
        [DESIGNED],
        [
            ("at least 8 cards at 2 players (line-up 2 + 2 × 3 held)", 6, "demo/ships.yaml:3"),
            ("a line-up size for 3 players", "none", "demo/ships.yaml:3"),
            ("a line-up size for 4 players", "none", "demo/ships.yaml:3"),
        ],
    ),
    (
        "{rule: R, check: implies, component: ships, where: {faction: Union}, then: {attack: 1}}",
        [DESIGNED],
        [({"attack": 1}, "attack = 7", "demo/ships.yaml:22 (dreadnought.attack)")],
    ),
    (
        "{rule: R, check: any-of, component: ships, fields: [ability]}",
        [DESIGNED],
        [("one of ability set", "none", "demo/ships.yaml:12 (frigate.ability)")],
    ),
    (
        "{rule: R, check: per-player, component: tokens, per_player: 3}",
        [DESIGNED],
        [("12 (3 × 4 players)", 14, "demo/tokens.yaml:6")],
    ),
    (
        "{rule: R, check: per-player, component: tokens, per_player: 8, args: {players: 2, at_least: true}}",
        [DESIGNED],
        [("at least 16 (8 × 2 players)", 14, "demo/tokens.yaml:6")],
    ),
    (
        "{rule: R, check: matches, component: ships, field: name, pattern: '[A-Z][a-z]+'}",
        [DESIGNED],
        [("name matches [A-Z][a-z]+", "<Ships & Stations>", "demo/ships.yaml:14 (frigate.name)")],
    ),
    (
        "{rule: R, check: table, args: {fact: damage_roll, covers: [1, 8]}}",
        [DESIGNED],
        [("every number 1–8 exactly once", "missing [7, 8], more than once [], outside []", "demo/rules.yaml:10")],
    ),
    (
        "{rule: R, check: table, args: {fact: damage_roll, covers: [0, 6]}}",
        [DESIGNED],
        [("every number 0–6 exactly once", "missing [0], more than once [], outside []", "demo/rules.yaml:10")],
    ),
    (
        "{rule: R, check: table, args: {fact: line_up, keys: [2, 3, 4, 5]}}",
        [DESIGNED],
        [("keys ['2', '3', '4', '5']", ["2", "3", "4"], "demo/rules.yaml:7")],
    ),
    (
        "{rule: R, check: table, args: {fact: line_up, keys: [2, 3], monotone: increasing}}",
        [DESIGNED],
        [
            ("values increasing", "2 then 2", "demo/rules.yaml:7"),
            ("values increasing", "2 then 2", "demo/rules.yaml:7"),
            ("keys ['2', '3']", ["2", "3", "4"], "demo/rules.yaml:7"),
        ],
    ),
    (
        "{rule: R, check: table, args: {fact: line_up, monotone: decreasing}}",
        [DESIGNED],
        [
            ("values decreasing", "2 then 2", "demo/rules.yaml:7"),
            ("values decreasing", "2 then 2", "demo/rules.yaml:7"),
        ],
    ),
    (
        "{rule: R, check: count, component: ships, expect: 7}",
        [DESIGNED],
        [(7, 6, "demo/ships.yaml:3")],
    ),
    (
        "{rule: R, check: range, component: ships, field: cost, min: 3, max: 10}",
        [DESIGNED],
        [
            ("cost within [3, 10]", 2, "demo/ships.yaml:7 (scout.cost)"),
            ("cost within [3, 10]", 12, "demo/ships.yaml:21 (dreadnought.cost)"),
        ],
    ),
    (
        "{rule: R, check: required, component: ships, fields: [ability]}",
        [DESIGNED],
        [("ability set", "missing or empty", "demo/ships.yaml:12 (frigate.ability)")],
    ),
    (
        "{rule: R, check: reference, component: ships, field: faction, target: {fact: cost_range}}",
        [DESIGNED],
        [
            ("faction names fact cost_range", "Union", "demo/ships.yaml:10 (scout.faction)"),
            ("faction names fact cost_range", "Syndicate", "demo/ships.yaml:18 (frigate.faction)"),
            ("faction names fact cost_range", "Union", "demo/ships.yaml:24 (dreadnought.faction)"),
        ],
    ),
]


def report(tmp_path: Path, check: str, checks_py: str | None = None, trusted: bool = True):
    folder = tmp_path / "demo"
    shutil.copytree(FIXTURES / "card_data" / "demo", folder)
    if checks_py is not None:
        (folder / "checks.py").write_text(checks_py)
    rules = folder / "rules.yaml"
    text = rules.read_text()
    rules.write_text(text[: text.index("\nchecks:") + 1] + "checks:\n  - " + check + "\n")
    (game,) = load_games(tmp_path, ["demo"])
    return validate_game(game, FIXTURES / "templates", None, trust_code=trusted)


@pytest.mark.parametrize("check", HOLDING, ids=[c[23:70] for c in HOLDING])
def test_a_check_holding_at_its_boundary_reports_nothing(tmp_path: Path, check: str) -> None:
    found = report(tmp_path, check)
    assert found.violations == [] and [r.status for r in found.results] == ["holds"]


@pytest.mark.parametrize(("check", "citations", "violations"), CASES, ids=[c[0][23:70] for c in CASES])
def test_each_check_kind_reports_exactly(tmp_path: Path, check: str, citations: list[str], violations: list) -> None:
    found = report(tmp_path, check)
    shown = [(v.expected, v.actual, v.where.replace(f"{tmp_path}/", "")) for v in found.violations]
    assert shown == violations
    assert sorted({v.citation for v in found.violations}) == citations
    assert all(v.rule == "R" for v in found.violations)
    assert [r.status for r in found.results] == (["violated"] if violations else ["holds"])


# --- counts, custom checks from checks.py, and checks that cannot run (the isolation in validate._run) -------------

CHECKS_PY = """
from cardgen.validate.base import Violation

def as_dicts(game, check):
    yield {"expected": "an even count", "actual": 3, "where": "ships.yaml"}
    yield {"actual": 1}

def as_violations(game, check):
    return [Violation(check.rule, "own citation", "x", "y", "here")]

def nothing(game, check):
    return None

def garbage(game, check):
    yield 42

def crashes(game, check):
    return 1 / 0
"""

MORE = [
    (
        "{rule: R, check: range, component: ships, field: costs, min: 1}",
        True,
        [
            (
                "cardgen: a check names fields its items have",
                "a field of the checked items",
                "unknown field 'costs' (did you mean 'cost'?)",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: required, component: ships, fields: [name, hul]}",
        True,
        [
            (
                "cardgen: a check names fields its items have",
                "a field of the checked items",
                "unknown field 'hul' (did you mean 'hull'?)",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: implies, component: ships, where: {factoin: Union}, then: {attack: 1}}",
        True,
        [
            (
                "cardgen: a check names fields its items have",
                "a field of the checked items",
                "'where' names unknown field 'factoin' (did you mean 'faction'?)",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: range, components: [ships, tokens], field: value, min: 1, cite: Rule 3}",
        True,
        [],
        [("holds", "Rule 3", None)],
    ),
    (
        "{rule: R, check: range, field: label, min: 0}",
        True,
        [
            ("designed (no rulebook citation)", "label within [0, ]", "1", "demo/tokens.yaml:7 (credit-1.label)"),
            ("designed (no rulebook citation)", "label within [0, ]", "5", "demo/tokens.yaml:8 (credit-5.label)"),
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: reference, component: ships, field: faction, target: {component: tokens, field: valeu}}",
        True,
        [
            (
                "cardgen: a check names fields its items have",
                "a field of the target's items",
                "target names unknown field 'valeu' (did you mean 'value'?)",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: reference, component: ships, field: id, target: {component: tokens, field: label}}",
        True,
        [
            ("designed (no rulebook citation)", "id names a label of tokens", "scout", "demo/ships.yaml:4 (scout.id)"),
            (
                "designed (no rulebook citation)",
                "id names a label of tokens",
                "frigate",
                "demo/ships.yaml:12 (frigate.id)",
            ),
            (
                "designed (no rulebook citation)",
                "id names a label of tokens",
                "dreadnought",
                "demo/ships.yaml:19 (dreadnought.id)",
            ),
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: unique, component: ships, field: count}",
        True,
        [
            ("designed (no rulebook citation)", "count unique", "'3' on 3 copies", "demo/ships.yaml:5 (scout.count)"),
            (
                "designed (no rulebook citation)",
                "count unique",
                "'2' on 2 copies",
                "demo/ships.yaml:13 (frigate.count)",
            ),
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: required, component: ships, field: source}",
        True,
        [
            ("designed (no rulebook citation)", "source set", "missing or empty", "demo/ships.yaml:4 (scout.source)"),
            (
                "designed (no rulebook citation)",
                "source set",
                "missing or empty",
                "demo/ships.yaml:12 (frigate.source)",
            ),
            (
                "designed (no rulebook citation)",
                "source set",
                "missing or empty",
                "demo/ships.yaml:19 (dreadnought.source)",
            ),
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, component: ships, where: {faction: Empire}, expect: 0}",
        True,
        [],
        [("holds", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, component: ships, min: 7}",
        True,
        [("designed (no rulebook citation)", "at least 7", 6, "demo/ships.yaml:3")],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, component: ships, max: 5}",
        True,
        [("designed (no rulebook citation)", "at most 5", 6, "demo/ships.yaml:3")],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, component: ships, min: 2, max: 9, expect: 6}",
        True,
        [],
        [("holds", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, component: ships, where: {faction: Union}, expect: 3}",
        True,
        [("designed (no rulebook citation)", 3, 4, "demo/ships.yaml:3")],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, expect: {fact: deck_size}}",
        True,
        [("Demo rules §1 — 'a deck of six ships'", 6, 21, "all components")],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, component: ships, where: {faction: Syndicate}, max: {fact: held}, cite: Rule 9}",
        True,
        [("Rule 9", "at most 1", 2, "demo/ships.yaml:3")],
        [("violated", "Rule 9", None)],
    ),
    (
        "{rule: R, check: custom, function: as_dicts, cite: Rule 7}",
        True,
        [("Rule 7", "an even count", 3, "ships.yaml"), ("Rule 7", None, 1, "")],
        [("violated", "Rule 7", None)],
    ),
    (
        "{rule: R, check: custom, function: as_dicts, cite: Rule 7}",
        False,
        [],
        [("skipped", "Rule 7", "checks.py is code from the game folder: pass --trust-code to run it")],
    ),
    (
        "{rule: R, check: custom, function: as_violations}",
        True,
        [("own citation", "x", "y", "here")],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: custom, function: as_violations}",
        False,
        [],
        [
            (
                "skipped",
                "designed (no rulebook citation)",
                "checks.py is code from the game folder: pass --trust-code to run it",
            )
        ],
    ),
    ("{rule: R, check: custom, function: nothing}", True, [], [("holds", "designed (no rulebook citation)", None)]),
    (
        "{rule: R, check: custom, function: nothing}",
        False,
        [],
        [
            (
                "skipped",
                "designed (no rulebook citation)",
                "checks.py is code from the game folder: pass --trust-code to run it",
            )
        ],
    ),
    (
        "{rule: R, check: custom, function: garbage}",
        True,
        [
            (
                "designed (no rulebook citation)",
                "the check runs",
                "it cannot: demo/checks.py: custom check 'garbage' yielded 42"
                "; a check yields mappings with 'expected', 'actual' and 'where'",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("failed", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: custom, function: garbage}",
        False,
        [],
        [
            (
                "skipped",
                "designed (no rulebook citation)",
                "checks.py is code from the game folder: pass --trust-code to run it",
            )
        ],
    ),
    (
        "{rule: R, check: custom, function: crashes}",
        True,
        [
            (
                "designed (no rulebook citation)",
                "the check runs",
                "it cannot: demo/checks.py:18: custom check 'crashes' failed: ZeroDivisionError: division by zero",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("failed", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: custom, function: crashes}",
        False,
        [],
        [
            (
                "skipped",
                "designed (no rulebook citation)",
                "checks.py is code from the game folder: pass --trust-code to run it",
            )
        ],
    ),
    (
        "{rule: R, check: custom, function: missing_one}",
        True,
        [
            (
                "designed (no rulebook citation)",
                "the check runs",
                "it cannot: demo/checks.py: no check function 'missing_one'",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("failed", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: custom, function: missing_one}",
        False,
        [],
        [
            (
                "skipped",
                "designed (no rulebook citation)",
                "checks.py is code from the game folder: pass --trust-code to run it",
            )
        ],
    ),
    (
        "{rule: R, check: range, component: ships, field: cost, min: abc}",
        True,
        [
            (
                "designed (no rulebook citation)",
                "the check runs",
                "it cannot: TypeError: '<' not supported between instances of 'int' and 'str'",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("failed", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: range, component: ships, field: speed, min: 1}",
        True,
        [
            (
                "cardgen: a check names fields its items have",
                "a field of the checked items",
                "unknown field 'speed'",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: count, component: ships, expect: {fact: no_such_fact}}",
        True,
        [
            (
                "designed (no rulebook citation)",
                "the check runs",
                "it cannot: game 'demo' has no rules fact 'no_such_fact'",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("failed", "designed (no rulebook citation)", None)],
    ),
    (
        "{rule: R, check: range, component: ships, where: {faction: Empire}, field: cost, min: 1}",
        True,
        [
            (
                "cardgen: a check names fields its items have",
                "at least one item to check",
                "selects no items",
                "demo/rules.yaml:12: checks[0]",
            )
        ],
        [("violated", "designed (no rulebook citation)", None)],
    ),
]


@pytest.mark.parametrize(
    ("check", "trusted", "violations", "results"), MORE, ids=[f"{c[0][15:60]}-{c[1]}" for c in MORE]
)
def test_counts_custom_checks_and_failures_report_exactly(tmp_path: Path, check, trusted, violations, results) -> None:
    found = report(tmp_path, check, checks_py=CHECKS_PY, trusted=trusted)
    norm = lambda value: value.replace(f"{tmp_path}/", "") if isinstance(value, str) else value  # noqa: E731
    shown = [(v.citation, v.expected, norm(v.actual), norm(v.where)) for v in found.violations]
    assert shown == violations
    assert [(r.status, r.citation, r.reason) for r in found.results] == results


# --- min-text-size: the sizes the print pipeline sets (after the text fitter shrank them), not those asked for ----

MIN_TEXT = "{rule: R, check: min-text-size, components: [tokens, board]"


def text_report(tmp_path: Path, check: str, label: str = "1"):
    """`report` with the fonts, so text is fitted; `label` replaces the 1-credit token's label."""
    from cardgen.paths import default_fonts_dir

    folder = tmp_path / "demo"
    shutil.copytree(FIXTURES / "card_data" / "demo", folder)
    rules, tokens = folder / "rules.yaml", folder / "tokens.yaml"
    text = rules.read_text()
    rules.write_text(text[: text.index("\nchecks:") + 1] + "checks:\n  - " + check + "\n")
    assert 'label: "1"' in tokens.read_text()
    tokens.write_text(tokens.read_text().replace('label: "1"', f'label: "{label}"'))
    (game,) = load_games(tmp_path, ["demo"])
    found = validate_game(game, FIXTURES / "templates", default_fonts_dir(), trust_code=True)
    return found, [(v.expected, v.actual, v.where.replace(f"{tmp_path}/", "")) for v in found.violations]


def test_min_text_size_holds_at_the_default_for_counters_and_sheets(tmp_path: Path) -> None:
    found, shown = text_report(tmp_path, MIN_TEXT + "}")  # the token backs' labels are set at exactly 6.5 pt
    assert shown == [] and [r.status for r in found.results] == ["holds"]


def test_min_text_size_measures_text_after_the_fitter_shrank_it(tmp_path: Path) -> None:
    """The layout asks for 6.5 pt; a longer label is shrunk to 6.1 pt to fit its box, and that is what is judged."""
    _, shown = text_report(tmp_path, MIN_TEXT + "}", label="one credit tok")
    where = "demo/tokens.yaml:7 (credit-1.label)"
    assert shown == [("text at least 6.5 pt", "label set at 6.1 pt on the back (layout 'token-back')", where)]


def test_min_text_size_counts_icon_labels_and_takes_a_size_of_its_own(tmp_path: Path) -> None:
    _, shown = text_report(tmp_path, "{rule: R, check: min-text-size, component: tokens, min: 14.5}")
    where = "demo/tokens.yaml:7 (credit-1.{})"
    assert shown == [
        ("text at least 14.5 pt", "label set at 14.0 pt on the front (layout 'token') (and on 1 more item)",
         where.format("label")),
        ("text at least 14.5 pt", "icon 'credits' label set at 14.1 pt on the back (layout 'token-back') "
         "(and on 1 more item)", where.format("icon 'credits' label")),
        ("text at least 14.5 pt", "label set at 6.5 pt on the back (layout 'token-back') (and on 1 more item)",
         where.format("label")),
    ]  # fmt: skip


def test_min_text_size_refuses_a_size_that_is_not_a_number(tmp_path: Path) -> None:
    found, shown = text_report(tmp_path, MIN_TEXT + ", min: big}")
    assert [r.status for r in found.results] == ["failed"]
    assert shown[0][1] == "it cannot: check 'R': min must be a text size in points, got 'big'"


def test_inline_markup_is_measured_at_the_size_it_sets() -> None:
    from cardgen.render.textfit import TextBox, fit_text, set_sizes

    box = TextBox('plain <font size="5">small</font> and <sup>up</sup>', "Helvetica", None, 300, 40, 8, 6)
    sizes = sorted(set(set_sizes(fit_text(box))))
    assert sizes[0] == 5 and sizes[-1] == 8 and len(sizes) == 3  # the superscript is set smaller than 8 pt
