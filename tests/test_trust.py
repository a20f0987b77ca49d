"""Trust in a game's own checks.py is the user's to give (`cardgen trust GAME`, kept in their configuration folder
by the game folder's real path and the SHA-256 of its checks.py), never the folder's: a changed checks.py asks
again, a copy elsewhere is not trusted, `--trust-code` trusts for one run."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from cardgen import trust

from conftest import FIXTURES, run_cli

MARKS = "Token values are 1 or 5"  # the demo's custom check


@pytest.fixture
def games(tmp_path: Path) -> Path:
    data = tmp_path / "games"
    shutil.copytree(FIXTURES / "card_data" / "demo", data / "demo")
    return data


def validate(data: Path, *args: str):
    return run_cli("--data-dir", data, "--templates-dir", FIXTURES / "templates", "validate", "demo", *args)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_store_is_the_tests_own(own_configuration: Path):
    assert trust.store_path() == own_configuration / "cardgen" / "trust.json"


def test_trust_untrust_and_a_changed_checks_py(games: Path, own_configuration: Path, tmp_path: Path):
    checks = games / "demo" / "checks.py"
    run = validate(games)
    assert (
        run.code == 1  # a partial validation is not a pass
        and (
            "1 skipped (checks.py is code from the game folder: run 'cardgen trust demo' to run it, or pass "
            "--trust-code for one run)"
        )
        in run.out
    )

    run = run_cli("--data-dir", games, "trust", "demo")
    assert run.code == 0, run.err
    assert run.out == (
        f"trusted demo ({games / 'demo'}): its checks.py (sha256 {sha(checks)}) runs on validate and build; "
        "'cardgen untrust demo' undoes it\n"
    )
    store = json.loads((own_configuration / "cardgen" / "trust.json").read_text())
    assert store == {
        "format": "cardgen-trust/1",
        "games": {str((games / "demo").resolve()): {"checks.py": sha(checks)}},
    }
    run = validate(games)
    assert run.code == 0 and "skipped" not in run.out, run.out

    checks.write_text(checks.read_text() + "\n# changed\n")
    run = validate(games)
    assert (
        run.code == 1
        and (
            "1 skipped (checks.py changed since you trusted it: run 'cardgen trust demo' to run it, or pass "
            "--trust-code for one run)"
        )
        in run.out
    )
    assert "skipped" not in validate(games, "--trust-code").out  # for one run, not kept
    assert "1 skipped (checks.py changed" in validate(games).out
    assert run_cli("--data-dir", games, "trust", "demo").code == 0
    assert "skipped" not in validate(games).out

    copy = tmp_path / "elsewhere"
    shutil.copytree(games, copy)
    assert "1 skipped (checks.py is code from the game folder" in validate(copy).out  # another folder: not trusted

    run = run_cli("--data-dir", games, "untrust", "demo")
    assert run.code == 0 and run.out == f"untrusted demo ({games / 'demo'}): its checks.py no longer runs\n"
    assert "1 skipped (checks.py is code from the game folder" in validate(games).out
    run = run_cli("--data-dir", games, "untrust", "demo")
    assert run.code == 0 and run.out == f"demo ({games / 'demo'}) was not trusted: nothing to undo\n"


def test_build_notes_what_it_skipped_and_why(games: Path, tmp_path: Path):
    templates = FIXTURES / "templates"
    args = ("--data-dir", games, "--templates-dir", templates, "build", "demo", "--out", tmp_path / "out")
    run = run_cli(*args)
    assert (
        run.code == 0 and "cardgen: note: demo: 1 check(s) skipped: checks.py is code from the game folder" in run.err
    )
    run_cli("--data-dir", games, "trust", "demo")
    run = run_cli(*args)
    assert run.code == 0 and "skipped" not in run.err, run.err  # trust changed: validated again, not kept


def test_only_the_bytes_trusted_run(games: Path):
    """checks.py changed between the trust store's answer and its loading: the bytes run are the ones hashed."""
    from cardgen.data import load_games
    from cardgen.validate import validate_game

    (game,) = load_games(games, ["demo"])
    report = validate_game(game, trust_code=trust.Decision(True, sha256="0" * 64))
    assert [(v.rule, v.actual) for v in report.violations] == [
        (
            MARKS,
            f"it cannot: {games / 'demo' / 'checks.py'}: changed since you trusted it: run 'cardgen trust demo' again",
        )
    ]


def test_trust_needs_code_and_a_readable_store(games: Path, own_configuration: Path):
    (games / "demo" / "checks.py").unlink()
    run = run_cli("--data-dir", games, "trust", "demo")
    assert run.code == 2 and "checks.py: not found: the game has no code to trust" in run.err
    assert run_cli("--data-dir", games, "trust", "nope").code == 2
    store = own_configuration / "cardgen" / "trust.json"
    store.parent.mkdir()
    store.write_text('{"format": "cardgen-trust/1", "games": {"/x": "yes"}}')
    run = validate(games)
    assert run.code == 2 and "trust.json: not a cardgen trust store; remove it to trust nothing" in run.err


def test_bundled_games_need_no_trust():
    run = run_cli("trust", "scifi-domains")
    assert run.code == 0 and run.out == "scifi-domains is bundled with cardgen: its checks.py always runs\n"
    assert not trust.store_path().exists()


def test_a_validation_with_checks_skipped_is_not_a_pass(games: Path):
    """An untrusted checks.py's checks are skipped: the report says it is not complete and exits 1, in text and JSON,
    unless --allow-unchecked accepts that; trusted for the run, the same game passes."""
    run = validate(games)
    assert run.code == 1 and "demo: NOT COMPLETE — " in run.out and "(--allow-unchecked accepts that)" in run.out
    report = json.loads(validate(games, "--json").out)["games"]["demo"]
    assert report["ok"] is False and report["complete"] is False and report["skipped"] == 1
    assert validate(games, "--allow-unchecked").code == 0
    trusted = validate(games, "--trust-code", "--json")
    assert trusted.code == 0 and json.loads(trusted.out)["games"]["demo"]["complete"] is True
