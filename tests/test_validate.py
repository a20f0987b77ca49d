"""`cardgen validate`: each kind of check passes on the demo data and fails on a mutation of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli

TEMPLATES = FIXTURES / "templates"


def validate(data: Path, *args: str):
    return run_cli("--data-dir", data, "--templates-dir", TEMPLATES, "validate", "--trust-code", *args)


def violations(data: Path) -> list[dict]:
    run = validate(data, "--json")
    assert run.exception is None, run.exception
    payload = json.loads(run.out)
    return payload["games"]["demo"]["violations"]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def test_demo_data_passes_every_check():
    run = validate(FIXTURES / "card_data")
    assert run.code == 0, run.out + run.err
    assert "demo: 18 checks, all hold" in run.out


def test_json_shape():
    run = validate(FIXTURES / "card_data", "--json")
    demo = json.loads(run.out)["games"]["demo"]
    assert {k: demo[k] for k in ("ok", "checks", "unchecked", "violations")} == {
        "ok": True,
        "checks": 18,
        "unchecked": False,
        "violations": [],
    }
    assert demo["facts"] == {"checked": 8, "unchecked": []}
    assert [r["status"] for r in demo["results"]] == ["holds"] * 18
    assert {"rule", "kind", "citation", "status", "seconds"} <= set(demo["results"][0])
    assert demo["results"][10]["kind"] == "custom" and demo["results"][10]["rule"] == "Token values are 1 or 5"


def test_notes_list_contradictions_with_the_reading_followed():
    run = validate(FIXTURES / "card_data", "--notes")
    assert run.code == 0
    assert "How many ships a player keeps" in run.out
    assert "followed: one ship" in run.out and "why: The rule text is explicit" in run.out


def _only(found: list[dict], rule: str) -> dict:
    matching = [v for v in found if v["rule"] == rule]
    assert matching, f"no violation of '{rule}' in {found}"
    return matching[0]


def test_count_fails_when_a_card_is_dropped(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "  - id: dreadnought\n", "  - id: dreadnought\n    count: 0\n")
    run = validate(demo_data)
    assert run.code == 1
    assert "The ship deck has six cards" in run.out and "expected 6; found 5" in run.out
    assert "Demo rules §1" in run.out
    v = _only(violations(demo_data), "The ship deck has six cards")
    assert v["expected"] == 6 and v["actual"] == 5 and v["citation"].startswith("Demo rules §1")
    assert v["where"].endswith("ships.yaml:3")  # the line listing the cards: the rule is about all of them


def test_composition_fails_when_a_value_changes(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    faction: Syndicate\n", "    faction: Union\n")
    found = [v for v in violations(demo_data) if v["rule"] == "Faction mix"]
    assert {json.dumps(v["expected"]) for v in found} == {'{"faction = Syndicate": 2}', '{"faction = Union": 4}'}
    assert {json.dumps(v["actual"]) for v in found} == {'{"faction = Syndicate": 0}', '{"faction = Union": 6}'}


def test_range_fails_out_of_bounds_and_names_the_field_line(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    cost: 2\n", "    cost: 0\n")
    v = _only(violations(demo_data), "Costs in range")
    assert v["actual"] == 0 and v["expected"] == "cost within [1, 12]"
    assert v["where"].endswith("ships.yaml:7 (scout.cost)")


def test_required_fails_on_an_empty_field(demo_data):
    edit(demo_data / "demo" / "rules.yaml", "fields: [name, hull]", "fields: [name, hull, ability]")
    v = _only(violations(demo_data), "Ships have a name and hull")
    assert v["actual"] == "missing or empty" and "frigate.ability" in v["where"]


def test_unique_fails_on_a_repeated_name(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    name: Dreadnought\n", "    name: Scout\n")
    v = _only(violations(demo_data), "Ship names are unique")
    assert "also on 'scout'" in v["actual"] and "dreadnought.name" in v["where"]


def test_reference_fails_when_its_target_is_gone(demo_data):
    edit(demo_data / "demo" / "rules.yaml", "{value: [Union, Syndicate]", "{value: [Union]")
    v = _only(violations(demo_data), "Factions exist")
    assert v["actual"] == "Syndicate" and "frigate.faction" in v["where"]


def test_reference_to_another_component(demo_data):
    rules = demo_data / "demo" / "rules.yaml"
    edit(
        rules,
        "checks:\n",
        "checks:\n  - {rule: Labels name a token, check: reference, component: tokens, field: label, "
        "target: {component: tokens, field: label}}\n",
    )
    assert validate(demo_data).code == 0
    edit(rules, "target: {component: tokens, field: label}", "target: {component: ships, field: name}")
    v = _only(violations(demo_data), "Labels name a token")
    assert v["actual"] in ("1", "5") and "a name of ships" in v["expected"]


def test_line_up_fails_when_the_deck_cannot_refill(demo_data):
    edit(demo_data / "demo" / "rules.yaml", "held: {value: 1,", "held: {value: 2,")
    found = [v for v in violations(demo_data) if v["rule"] == "The line-up refills"]
    assert [v["expected"] for v in found] == [
        "at least 8 cards at 3 players (line-up 2 + 3 × 2 held)",
        "at least 10 cards at 4 players (line-up 2 + 4 × 2 held)",
    ]
    assert all(v["actual"] == 6 for v in found)


def test_text_fits_uses_the_print_pipeline(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "Draw a card when revealed.", "Draw a card when revealed. " * 60)
    v = _only(violations(demo_data), "Card text fits")
    assert v["expected"] == "ability fits its box (front)" and v["actual"].startswith("overflows by")
    assert "scout.ability" in v["where"]


def test_custom_check_from_the_games_own_checks_py(demo_data):
    edit(demo_data / "demo" / "tokens.yaml", "value: 5}", "value: 3}")
    v = _only(violations(demo_data), "Token values are 1 or 5")
    assert v["actual"] == 3 and "credit-5" in v["where"]


def test_a_check_naming_a_missing_fact_fails_alone(demo_data):
    """A check that cannot run is a violation naming its cause; every other check still runs (and a second broken
    check is reported too)."""
    edit(demo_data / "demo" / "rules.yaml", "expect: {fact: deck_size}", "expect: {fact: deck_sise}")
    edit(demo_data / "demo" / "rules.yaml", "component: ships, field: cost, min:", "component: shps, field: cost, min:")
    edit(demo_data / "demo" / "ships.yaml", "    count: 3\n", "    count: 4\n")  # a real violation beside them
    run = validate(demo_data, "--json")
    assert run.code == 1
    demo = json.loads(run.out)["games"]["demo"]
    statuses = [r["status"] for r in demo["results"]]
    assert statuses.count("failed") == 2 and statuses.count("violated") == 2 and statuses.count("holds") == 14
    causes = " ".join(str(v["actual"]) for v in demo["violations"])
    assert "no rules fact 'deck_sise' (did you mean 'deck_size'?)" in causes
    assert "no component 'shps' (did you mean 'ships'?)" in causes
    assert any(v["where"].endswith("rules.yaml:12: checks[0]") for v in demo["violations"])


def test_an_unknown_check_kind_is_a_data_error(demo_data):
    edit(demo_data / "demo" / "rules.yaml", "check: count, component: ships", "check: cuont, component: ships")
    run = validate(demo_data)
    assert run.code == 2 and "rules.yaml:12" in run.err and "cuont" in run.err


def test_a_fact_without_citation_is_a_data_error(demo_data):
    edit(
        demo_data / "demo" / "rules.yaml",
        """tokens: {value: 14, cite: "Demo rules §5 — '14 credit tokens'"}""",
        "tokens: {value: 14}",
    )
    run = validate(demo_data)
    assert run.code == 2 and "rules.yaml:9" in run.err and "missing required field 'cite'" in run.err


def test_build_refuses_data_that_breaks_a_rule(demo_data, tmp_path):
    edit(demo_data / "demo" / "ships.yaml", "  - id: dreadnought\n", "  - id: dreadnought\n    count: 0\n")
    run = run_cli("--data-dir", demo_data, "--templates-dir", TEMPLATES, "build", "--out", tmp_path, "-q")
    assert run.code == 1 and "The ship deck has six cards" in run.err and "nothing was printed" in run.err
    assert not (tmp_path / "demo").exists()
    forced = run_cli(
        "--data-dir", demo_data, "--templates-dir", TEMPLATES, "build", "--out", tmp_path, "-q", "--no-validate"
    )
    assert forced.code == 0 and "warning" in forced.err and (tmp_path / "demo" / "ships.pdf").exists()


@pytest.mark.parametrize("game", ["battlefield-space"])  # the other games' own test modules validate them
def test_bundled_games_validate(game):
    run = run_cli("validate", game)
    assert run.code == 0, run.out + run.err


def test_a_game_without_rules_is_not_all_hold(demo_data):
    """No rules.yaml (or no checks in it) is reported as unchecked and exits 1, unless --allow-unchecked."""
    (demo_data / "demo" / "rules.yaml").unlink()
    run = validate(demo_data)
    assert run.code == 1 and "demo: NOT CHECKED — it has no rules.yaml" in run.out and "all hold" not in run.out
    assert validate(demo_data, "--allow-unchecked").code == 0
    (demo_data / "demo" / "rules.yaml").write_text("facts: {}\n")
    run = validate(demo_data, "--json")
    assert run.code == 1 and json.loads(run.out)["games"]["demo"]["unchecked"] is True


NEW_KINDS = [
    ("ships.yaml", "    attack: 3\n", "    attack: 4\n", "Syndicate ships attack for 3", "attack = 4"),
    ("ships.yaml", "    attack: 3\n", "    attack: 0\n", "Every ship attacks or has an ability", "none"),
    ("tokens.yaml", "count: 10", "count: 11", "Seven credit tokens a player for two", 15),
    ("ships.yaml", "    hull: 5\n", "    hull: 6\n", "The fleet's hulls total 12", "13"),
    ("ships.yaml", "  - id: dreadnought", "  - id: Dreadnought-2", "Ids are lower-case words", "Dreadnought-2"),
    ("rules.yaml", "hit: [4, 6]", "hit: [5, 6]", "The damage roll covers the die", "missing [4]"),
    ("rules.yaml", "{2: 2, 3: 2, 4: 2}", "{2: 2, 3: 3, 4: 2}", "Line-ups by player count", "3 then 2"),
]


@pytest.mark.parametrize(("file", "old", "new", "rule", "actual"), NEW_KINDS, ids=[k[3] for k in NEW_KINDS])
def test_new_check_kinds_fail_on_a_mutation(demo_data, file, old, new, rule, actual):
    edit(demo_data / "demo" / file, old, new)
    found = [v for v in violations(demo_data) if v["rule"] == rule]
    assert found, f"'{rule}' still holds"
    assert str(actual) in str(found[0]["actual"])


# --- exact reports (in-process, so that mutation testing sees what each check says) ----------------------------------


def _report(data: Path):
    from cardgen.data import load_games
    from cardgen.validate import validate_game

    (game,) = load_games(data, ["demo"])
    return validate_game(game, TEMPLATES, None, trust_code=True)


def test_per_player_reports_the_product_it_expected(demo_data):
    rules = demo_data / "demo" / "rules.yaml"
    edit(demo_data / "demo" / "tokens.yaml", "count: 10", "count: 11")
    (v,) = [v for v in _report(demo_data).violations if v.rule == "Seven credit tokens a player for two"]
    assert (v.expected, v.actual) == ("14 (7 × 2 players)", 15)
    assert v.where.endswith("tokens.yaml:6")  # the line listing the component's items
    edit(rules, "per_player: 7, args: {players: 2}", "per_player: 7, args: {players: 2, at_least: true}")
    assert not [v for v in _report(demo_data).violations if v.rule == "Seven credit tokens a player for two"]
    edit(rules, "per_player: 7, args: {players: 2, at_least: true}", "per_player: 4, args: {at_least: true}")
    (v,) = [v for v in _report(demo_data).violations if v.rule == "Seven credit tokens a player for two"]
    assert (v.expected, v.actual) == ("at least 16 (4 × 4 players)", 15)  # the most players the game seats


def test_every_check_result_is_reported_with_its_kind_and_status(demo_data):
    edit(demo_data / "demo" / "ships.yaml", "    hull: 5\n", "    hull: 6\n")
    report = _report(demo_data)
    results = {r.rule: r.as_json() for r in report.results}
    summed = results["The fleet's hulls total 12"]
    assert {k: summed[k] for k in ("kind", "status")} == {"kind": "sum", "status": "violated"}
    assert summed["seconds"] >= 0 and "reason" not in summed
    assert results["The ship deck has six cards"]["status"] == "holds"
    assert report.as_json()["ok"] is False and report.as_json()["checks"] == len(report.results)


def test_a_check_that_cannot_run_is_a_violation_naming_the_cause(demo_data):
    edit(demo_data / "demo" / "rules.yaml", "field: hull, expect: 12", "field: hull, expect: twelve")
    report = _report(demo_data)
    (v,) = [v for v in report.violations if v.rule == "The fleet's hulls total 12"]
    assert v.expected == "the check runs" and v.actual.startswith("it cannot: ")
    assert "twelve" in v.actual
    (result,) = [r for r in report.results if r.rule == "The fleet's hulls total 12"]
    assert result.status == "failed"


def test_an_unknown_icon_in_card_text_is_named_once_at_the_cards_field(demo_data):
    """A typo in an icon written in a card's text is the card's fault: named at that field's data line (the layout
    line that draws it beside), once, though two checks draw the card."""
    rules = demo_data / "demo" / "rules.yaml"
    edit(rules, "components: [tokens, board]", "components: [ships, tokens, board]")
    edit(demo_data / "demo" / "ships.yaml", "Costs {credits} less", "Costs {credit} less")
    run = validate(demo_data)
    assert run.code == 1
    assert run.out.count("unknown icon '{credit}'") == 1, run.out
    assert "ships.yaml:11: scout.ability:" in run.out and "(did you mean 'credits'?)" in run.out, run.out
    build = run_cli("--data-dir", demo_data, "--templates-dir", FIXTURES / "templates", "build", "--out",
                    demo_data.parent / "out", "-q", "--no-validate")  # fmt: skip
    assert build.code == 2 and "ships.yaml:11: scout.ability:" in build.err, build.err
    assert "; drawn by " in build.err and "ui.xml.j2:" in build.err and "(called from " in build.err, build.err
    assert "demo/ship.xml.j2:" in build.err.split("(called from ", 1)[1], build.err  # the layout that drew the text
