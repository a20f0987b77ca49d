"""`cardgen build --changed-since OLD`: only the faces that differ from an earlier version, every copy, with their
backs and the stamp asked for, and a changelog testers read — measured on the written PDFs and guide.

The repository is `test_versions`'s: the demo game at `v1` as bundled and at `v2` (the work tree) with the Scout
costing 3, the Dreadnought gone and a Corvette new.
"""

from __future__ import annotations

import re
import shutil

import pytest
from pdfcheck import page_sizes, text, words
from test_versions import GIT, cardgen, edit, git, repo, to_v2, work  # noqa: F401  (fixtures)

from conftest import FIXTURES

pytestmark = pytest.mark.skipif(GIT is None, reason="git is not installed (apt-get install git)")


@pytest.fixture(scope="module")
def reprinted(repo):  # noqa: F811
    """`build demo --changed-since v1 --stamp 'playtest 2'` in the repository at v2: its output folder."""
    run = cardgen(repo, "build", "demo", "--changed-since", "v1", "--stamp", "playtest 2", "--trust-code")
    assert run.code == 0, run.err
    return repo / "output" / "changes" / "demo"


def test_only_the_new_and_changed_items_are_printed_every_copy_with_their_backs_and_the_stamp(reprinted):
    assert sorted(p.name for p in reprinted.glob("*.pdf")) == ["calibration.pdf", "print-guide.pdf", "ships.pdf"]
    ships = reprinted / "ships.pdf"
    assert page_sizes(ships) == [(210.0, 297.0)] * 2  # one sheet: its fronts and, behind them, its backs
    fronts = [w["text"] for w in words(ships, 0)]
    assert fronts.count("Scout") == 3 and fronts.count("Corvette") == 1
    assert "Dreadnought" not in fronts and "Frigate" not in " ".join(fronts)  # unchanged or removed: not printed
    backs = [w["text"] for w in words(ships, 1)]
    assert backs.count("scout") == 3 and backs.count("corvette") == 1  # the backs print their card's id
    assert text(ships, 0).count("playtest 2") == 4 and text(ships, 1).count("playtest 2") == 4  # every face stamped


def test_the_changelog_names_items_as_players_do(reprinted):
    guide = (reprinted / "PRINT.md").read_text()
    start = guide.index("## Changes since v1")
    section = guide[start : guide.index("Paper: ", start)]
    assert section.splitlines()[2:] == [
        "- Corvette: new, 1 copy.",
        "- Scout: cost 3 (was 2).",
        "- Dreadnought: removed.",
        "",
    ]
    assert guide.index("## Changes since v1") < guide.index("Paper: A4")  # first thing a tester reads
    for item_id in ("scout", "corvette", "dreadnought"):  # player pages name items, never by id
        assert not re.search(rf"\b{item_id}\b", guide)
    pdf = " ".join(text(reprinted / "print-guide.pdf", 0).split())
    assert "Changes since v1" in pdf and "Scout: cost 3 (was 2)." in pdf and "Dreadnought: removed." in pdf


def test_a_full_build_is_left_as_it_was(repo, tmp_path):  # noqa: F811
    """The reprint goes to output/changes/ unless told otherwise: the full build beside it is not touched."""
    out = tmp_path / "out"
    full = cardgen(repo, "build", "demo", "--out", out, "--trust-code", "-q")
    assert full.code == 0, full.err
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    again = cardgen(repo, "build", "demo", "--changed-since", "v1", "--out", out / "changes", "--trust-code", "-q")
    assert again.code == 0, again.err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and "changes" not in p.parts} == before


def test_the_earlier_version_may_be_a_folder_and_a_count_alone_reprints_every_copy(work, tmp_path):  # noqa: F811
    old = tmp_path / "old" / "demo"
    shutil.copytree(FIXTURES / "card_data" / "demo", old)
    to_v2(old)
    edit(work / "card_data" / "demo" / "tokens.yaml", "count: 4, label", "count: 5, label")
    edit(work / "card_data" / "demo" / "tokens.yaml", "count: 10, label", "count: 9, label")
    run = cardgen(work, "build", "demo", "--changed-since", old, "--trust-code", "-q")
    assert run.code == 0, run.err
    built = work / "output" / "changes" / "demo"
    assert sorted(p.name for p in built.glob("*.pdf")) == ["print-guide.pdf", "tokens.pdf"]
    values = [w["text"] for w in words(built / "tokens.pdf", 0)]
    assert values.count("5") == 5 + 5 and values.count("1") == 9 + 9  # fold sheet: fronts and backs show the value
    guide = (built / "PRINT.md").read_text()
    assert "## Changes since demo" in guide  # a folder without a version: its name
    assert "- 1: copies 9 (was 10)." in guide and "- 5: copies 5 (was 4)." in guide


def test_nothing_changed_prints_nothing_and_says_so(repo, tmp_path):  # noqa: F811
    run = cardgen(repo, "build", "demo", "--changed-since", "v2", "--out", tmp_path / "out", "--trust-code")
    assert run.code == 0, run.err
    assert "note: demo: nothing to print since v2: no item changed" in run.err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def test_changed_since_chooses_its_own_items(repo, tmp_path):  # noqa: F811
    run = cardgen(repo, "build", "demo", "--changed-since", "v1", "--only", "ships", "--out", tmp_path)
    assert run.code == 2 and "--changed-since chooses the items itself: it does not go with --only" in run.err


def test_a_game_new_since_the_revision_prints_whole(work):  # noqa: F811
    """A revision before the game existed: every item is new."""
    git(work, "rm", "-rq", "card_data/demo")
    git(work, "commit", "-qm", "no demo yet")
    git(work, "tag", "before")
    git(work, "checkout", "-q", "v2", "--", "card_data/demo")
    run = cardgen(work, "build", "demo", "--changed-since", "before", "--trust-code", "-q")
    assert run.code == 0, run.err
    built = work / "output" / "changes" / "demo"
    assert sorted(p.name for p in built.glob("*.pdf")) == ["board.pdf", "calibration.pdf", "print-guide.pdf",
                                                          "ships.pdf", "tokens.pdf"]  # fmt: skip
    assert "- Scout (Ship deck): new, 3 copies." in (built / "PRINT.md").read_text()
