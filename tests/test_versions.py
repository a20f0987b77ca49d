"""Versions of a game: `cardgen diff OLD NEW` read from its JSON, text and Markdown, between two folders and between
git revisions read without a checkout (and without running anything the repository names), and the balance figures
that moved between two kept runs.

The demo game is kept in a git repository of the test's own: `v1` as it is bundled, `v2` with the Scout costing 3,
the Dreadnought gone, a Corvette new, the cost range's fact changed and a check added.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, run_cli

GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None, reason="git is not installed (apt-get install git)")

CORVETTE = """  - id: corvette
    name: Corvette
    cost: 6
    attack: 2
    hull: 5
    faction: Union
"""


def git(repo: Path, *args: str) -> str:
    identity = ["-c", "user.email=tester@example.org", "-c", "user.name=Tester", "-c", "init.defaultBranch=main"]
    done = subprocess.run([GIT, *identity, *args], cwd=repo, check=True, capture_output=True, text=True)
    return done.stdout


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, path)
    path.write_text(text.replace(old, new, 1))


def to_v2(game: Path) -> None:
    """The playtest changes: Scout 2 → 3, Dreadnought out, Corvette in, costs capped at 10, a check added."""
    ships = game / "ships.yaml"
    edit(ships, "    cost: 2\n", "    cost: 3\n")
    text = ships.read_text()
    start = text.index("  - id: dreadnought")
    ships.write_text(text[:start] + CORVETTE)
    rules = game / "rules.yaml"
    edit(rules, "cost_range: {value: {min: 1, max: 12}, cite: \"Demo rules §3 — 'costs run from 1 to 12'\"}",
         "cost_range: {value: {min: 1, max: 10}, cite: \"Demo rules §3 — 'costs run from 1 to 10'\"}")  # fmt: skip
    edit(rules, "checks:\n", 'checks:\n  - {rule: Ship names are short, check: matches, component: ships, field: name, '
                             'pattern: ".{1,20}"}\n')  # fmt: skip


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository holding the demo game (card_data/ and templates/) at tags v1 and v2; the work tree at v2."""
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(FIXTURES / "card_data" / "demo", root / "card_data" / "demo")
    shutil.copytree(FIXTURES / "templates" / "demo", root / "templates" / "demo")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first playtest")
    git(root, "tag", "v1")
    to_v2(root / "card_data" / "demo")
    git(root, "commit", "-qam", "second playtest")
    git(root, "tag", "v2")
    return root


@pytest.fixture
def work(repo: Path, tmp_path: Path) -> Path:
    """A copy of the repository of the test's own, to change."""
    shutil.copytree(repo, tmp_path / "repo", symlinks=True, ignore=shutil.ignore_patterns("output"))
    return tmp_path / "repo"


def cardgen(root: Path, *args: str | Path):
    """`cardgen` run from the repository's root with its folders."""
    here = Path.cwd()
    os.chdir(root)
    try:
        return run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", *args)
    finally:
        os.chdir(here)


def test_diff_between_two_revisions_lists_items_fields_facts_and_checks(repo):
    run = cardgen(repo, "diff", "demo@v1", "demo@v2", "--format", "json")
    assert run.code == 0, run.err
    found = json.loads(run.out)
    assert (found["format"], found["game"], found["old"], found["new"]) == ("cardgen-diff/1", "demo", "demo@v1",
                                                                            "demo@v2")  # fmt: skip
    ships, tokens, board, cubes = found["components"]
    assert (ships["id"], ships["status"]) == ("ships", "changed")
    assert ships["added"] == [{"id": "corvette", "name": "Corvette", "count": 1}]
    assert ships["removed"] == [{"id": "dreadnought", "name": "Dreadnought", "count": 1}]
    assert ships["changed"] == [{"id": "scout", "name": "Scout", "fields": [{"field": "cost", "old": 2, "new": 3}]}]
    assert [c["status"] for c in (tokens, board, cubes)] == ["same", "same", "same"]
    (fact,) = found["facts"]
    assert (fact["name"], fact["status"]) == ("cost_range", "changed")
    assert {f["field"]: (f["old"], f["new"]) for f in fact["fields"]}["value"] == ({"min": 1, "max": 12},
                                                                                   {"min": 1, "max": 10})  # fmt: skip
    (check,) = found["checks"]
    assert (check["rule"], check["status"]) == ("Ship names are short", "added")
    assert found["outcomes"] == [] and found["changed"] is True


def test_diff_of_a_revision_and_the_work_tree_shows_checks_that_now_fail(work):
    edit(work / "card_data" / "demo" / "ships.yaml", "    cost: 3\n", "    cost: 0\n")  # the rules say 1 to 10
    run = cardgen(work, "diff", "demo@v2", "--trust-code")  # NEW: the game as it is now
    assert run.code == 0, run.err
    assert run.out.splitlines() == [
        "Demo Skirmish (demo): demo@v2 → demo",
        "ships (Ship deck): 1 changed",
        "  ~ Scout (scout): cost 3 → 0",
        "check outcomes:",
        "  ! Costs in range: holds → violated",
    ]
    markdown = cardgen(work, "diff", "demo@v1", "demo", "--format", "markdown", "--trust-code").out
    assert "## Ship deck (`ships`)" in markdown
    assert "- **Removed:** Dreadnought (`dreadnought`) ×1" in markdown
    assert "- **Changed:** Scout (`scout`)\n  - cost: 2 → 0" in markdown
    assert "## Check outcomes\n\n- Costs in range: holds → **violated**" in markdown


def test_two_folders_compare_as_their_revisions_do(repo, tmp_path):
    old = tmp_path / "v1" / "demo"
    shutil.copytree(FIXTURES / "card_data" / "demo", old)
    by_folder = json.loads(cardgen(repo, "diff", old, "demo", "--format", "json").out)
    by_revision = json.loads(cardgen(repo, "diff", "demo@v1", "demo", "--format", "json").out)
    assert by_folder["old"] == str(old) and by_revision["old"] == "demo@v1"
    assert {**by_folder, "old": ""} == {**by_revision, "old": ""}
    same = cardgen(repo, "diff", "demo@v2", "demo")
    assert same.out.splitlines()[1:] == ["no changes"]


def test_reading_a_revision_runs_nothing_the_repository_names_and_touches_no_file(work, tmp_path):
    """A repository whose config runs a program on index reads (fsmonitor), on checkouts (hooks), on reading a
    file's content (a smudge filter) and as a pager: reading a revision runs none of them and leaves the work tree,
    the index and HEAD as they were."""
    marker = tmp_path / "ran"
    evil = f"sh -c 'touch {marker}'"
    config = work / ".git" / "config"
    config.write_text(config.read_text() + f'[core]\n\tfsmonitor = {evil}\n\tpager = {evil}\n'
                      f'[filter "evil"]\n\tsmudge = {evil}\n\tclean = cat\n\trequired = true\n')  # fmt: skip
    (work / ".gitattributes").write_text("*.yaml filter=evil\n")
    hooks = work / ".git" / "hooks"
    for name in ("post-checkout", "pre-commit", "reference-transaction", "post-index-change"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {marker}\n")
        (hooks / name).chmod(0o755)
    before = {p: p.read_bytes() for p in sorted(work.rglob("*")) if p.is_file()}
    run = cardgen(work, "diff", "demo@v1", "demo@HEAD", "--format", "json")
    assert run.code == 0, run.err
    assert json.loads(run.out)["components"][0]["changed"][0]["id"] == "scout"  # read as committed, not smudged
    assert not marker.exists()
    after = {p: p.read_bytes() for p in sorted(work.rglob("*")) if p.is_file()}
    assert after == before  # nothing written: no index refreshed, no file checked out


def test_a_revision_is_read_within_the_limits_and_its_mistakes_are_named_where_the_user_named_them(work):
    many = cardgen(work, "--limit", "revision_files=3", "diff", "demo@v1")
    assert many.code == 2
    assert "demo@v1: more than 3 files (raise it with --limit revision_files=N" in many.err
    big = cardgen(work, "--limit", "revision_bytes=1000", "diff", "demo@v1")
    assert big.code == 2 and "more than 1,000 bytes" in big.err
    unknown = cardgen(work, "diff", "demo@v9")
    assert unknown.code == 2 and "the git repository has no revision 'v9'" in unknown.err
    option = cardgen(work, "diff", "demo@--output=/tmp/x")
    assert option.code == 2 and "is not a git revision" in option.err
    ships = work / "card_data" / "demo" / "ships.yaml"
    edit(ships, "    cost: 3\n", "    cost: three\n")
    git(work, "commit", "-qam", "a mistake")
    git(work, "tag", "broken")
    broken = cardgen(work, "diff", "demo@broken")
    assert broken.code == 2
    line = next(line for line in broken.err.splitlines() if "cost" in line)
    assert line.startswith("cardgen: error: demo@broken/ships.yaml:") and "cardgen-revision" not in broken.err


def test_a_folder_outside_git_has_no_revisions(tmp_path, monkeypatch):
    shutil.copytree(FIXTURES / "card_data" / "demo", tmp_path / "card_data" / "demo")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # whatever repository holds /tmp
    run = cardgen(tmp_path, "diff", "demo@v1")
    assert run.code == 2
    assert "card_data/demo: not in a git repository, so it has no revision 'v1'" in run.err


def test_balance_figures_that_moved_between_two_kept_runs(tmp_path):
    """Battlefield: Space at two revisions, each with a balance run of its own kept in its own folder: the diff finds
    each run by the data it played and sets the seats side by side."""
    root = tmp_path / "repo"
    shutil.copytree(REPO / "card_data" / "battlefield-space", root / "card_data" / "battlefield-space")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "v1")
    git(root, "tag", "v1")
    args = ("balance", "battlefield-space", "--games", "20", "--batch", "10")
    first = cardgen(root, *args, "--out", root / "output" / "balance-v1")
    assert first.code == 0, first.err
    before = json.loads(cardgen(root, "diff", "battlefield-space@v1", "--format", "json").out)
    assert before["balance"]["old"] == before["balance"]["new"]  # the same data: the same run, both sides
    manifest = root / "card_data" / "battlefield-space" / "game.yaml"
    manifest.write_text(manifest.read_text() + "# the second playtest\n")  # other data: another run
    half = json.loads(cardgen(root, "diff", "battlefield-space@v1", "--format", "json").out)
    assert half["balance"] == {"missing": ["new"]}
    from cardgen.balance import sweep

    sweep._FINGERPRINTS.clear()  # a process of its own in real life: this one remembers the data it played
    second = cardgen(root, *args, "--seed", "2", "--out", root / "output" / "balance-v2")
    assert second.code == 0, second.err
    found = json.loads(cardgen(root, "diff", "battlefield-space@v1", "--format", "json").out)["balance"]
    assert found["old"].endswith("balance-v1/balance.json") and found["new"].endswith("balance-v2/balance.json")
    (run,) = found["runs"]
    old_report = json.loads((root / "output" / "balance-v1" / "balance.json").read_text())
    new_report = json.loads((root / "output" / "balance-v2" / "balance.json").read_text())
    seat = run["seats"][0]
    assert seat["before"]["rate"] == old_report["runs"][0]["seats"][0]["rate"]
    assert seat["after"]["rate"] == new_report["runs"][0]["seats"][0]["rate"]
    text = cardgen(root, "diff", "battlefield-space@v1").out
    assert f"2 players: seat 0 {seat['before']['rate']:.1%} → {seat['after']['rate']:.1%}" in text
