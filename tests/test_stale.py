"""Output that is never lost, never stale (cardgen/render/stale.py): an earlier build's file that no longer matches
the game — its component failed, or is no longer in the game — is moved aside into `OUT/<game>/stale/`, said in
the build's output and in PRINT.md, never deleted; the next good build of the component clears it. Files cardgen
did not write are never touched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli


@pytest.fixture
def demo(tmp_path: Path) -> tuple[Path, Path]:
    data, templates = tmp_path / "card_data", tmp_path / "templates"
    shutil.copytree(FIXTURES / "card_data" / "demo", data / "demo")
    shutil.copytree(FIXTURES / "templates" / "demo", templates / "demo")
    return data, templates


def build(demo: tuple[Path, Path], out: Path, *args: str):
    data, templates = demo
    return run_cli(
        "--data-dir", data, "--templates-dir", templates, "build", "demo", "--out", out, "--trust-code", *args
    )


def files(folder: Path) -> dict[str, bytes]:
    """The files of the output folder, without the build's records."""
    every = sorted(folder.rglob("*"))
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in every
        if p.is_file() and ".cardgen-cache" not in p.parts
    }


def stale_section(out: Path) -> list[str]:
    text = (out / "demo" / "PRINT.md").read_text()
    return text.split("## Stale files\n", 1)[1].strip().splitlines()[3:] if "## Stale files" in text else []


def edit(path: Path, old: str, new: str) -> str:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return text


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failed_component_keeps_its_last_good_file_aside_until_it_builds_again(demo, tmp_path, jobs):
    out = tmp_path / "out"
    assert build(demo, out, "--jobs", jobs).code == 0
    good = files(out)
    layout = demo[1] / "demo" / "board.xml.j2"
    before = edit(layout, "</face>", "{{ card.nope }}</face>")

    failed = build(demo, out, "--jobs", jobs)
    assert failed.code == 2
    errors = failed.err.strip().splitlines()
    assert "'nope' is undefined" in errors[0]
    reason = errors[0].removeprefix("cardgen: error: ")
    assert errors[1] == (
        f"cardgen: error: moved {out}/demo/board.pdf aside to {out}/demo/stale/board.pdf (board: failed: {reason})"
    )
    left = files(out)
    assert "demo/board.pdf" not in left  # not taken for a print of today's data
    assert left.pop("demo/stale/board.pdf") == good["demo/board.pdf"]  # and not lost
    assert stale_section(out) == [f"- `stale/board.pdf` (board): failed: {reason}"]
    assert {k: v for k, v in left.items() if k != "demo/PRINT.md"} == {
        k: v for k, v in good.items() if k not in ("demo/board.pdf", "demo/PRINT.md")
    }

    layout.write_text(before)
    mended = build(demo, out, "--jobs", jobs)
    assert mended.code == 0, mended.err
    assert f"cardgen: note: removed {out}/demo/stale/board.pdf: built again" in mended.err
    assert files(out) == good  # the stale copy and its line are gone, with the folder
    assert not (out / "demo" / "stale").exists()


def test_a_renamed_component_moves_its_old_file_aside(demo, tmp_path):
    out = tmp_path / "out"
    assert build(demo, out).code == 0
    good = files(out)
    manifest = demo[0] / "demo" / "game.yaml"
    before = edit(manifest, "- {id: tokens,", "- {id: credits,")

    renamed = build(demo, out, "--no-validate")
    assert renamed.code == 0, renamed.err
    assert (
        f"cardgen: warning: moved {out}/demo/tokens.pdf aside to {out}/demo/stale/tokens.pdf "
        "(tokens: no longer in the game)"
    ) in renamed.err
    now = files(out)
    assert now["demo/stale/tokens.pdf"] == good["demo/tokens.pdf"]
    assert "demo/tokens.pdf" not in now and now["demo/credits.pdf"]
    assert stale_section(out) == ["- `stale/tokens.pdf` (tokens): no longer in the game"]
    assert "stale/tokens.pdf" in (out / "demo" / "PRINT.md").read_text()

    manifest.write_text(before)  # named tokens again: built, its stale copy cleared; credits is gone in turn
    again = build(demo, out)
    assert again.code == 0, again.err
    assert f"cardgen: note: removed {out}/demo/stale/tokens.pdf: built again" in again.err
    assert "moved" in again.err and "stale/credits.pdf (credits: no longer in the game)" in again.err
    assert set(files(out)) == set(good) | {"demo/stale/credits.pdf"}
    assert files(out)["demo/tokens.pdf"] == good["demo/tokens.pdf"]
    assert stale_section(out) == ["- `stale/credits.pdf` (credits): no longer in the game"]


def test_only_files_cardgen_wrote_are_moved(demo, tmp_path):
    """A file beside the build's that cardgen did not write, and one of its own changed by hand since, are left
    where they are, whatever happens to their components."""
    out = tmp_path / "out"
    assert build(demo, out).code == 0
    (out / "demo" / "tokens.pdf").write_bytes(b"edited by hand")
    (out / "demo" / "mine.pdf").write_bytes(b"the user's own")
    before = files(out)
    edit(demo[0] / "demo" / "game.yaml", "- {id: tokens,", "- {id: credits,")
    edit(demo[1] / "demo" / "board.xml.j2", "</face>", "{{ card.nope }}</face>")
    assert build(demo, out, "--no-validate").code == 2
    assert files(out) == {k: v for k, v in before.items() if k != "demo/board.pdf" and k != "demo/PRINT.md"} | {
        "demo/stale/board.pdf": before["demo/board.pdf"],
        "demo/PRINT.md": (out / "demo" / "PRINT.md").read_bytes(),
    }


def test_moves_are_part_of_the_build_so_a_failed_build_moves_nothing_else(demo, tmp_path):
    """A renamed component's file is moved in the build's transaction: when a later game then fails, that move is
    thrown away with the build's files (only the failed component's own file is moved aside, with its note)."""
    data, templates = demo
    shutil.copytree(data / "demo", data / "demo2")
    edit(data / "demo2" / "game.yaml", "id: demo\n", "id: demo2\n")
    shutil.copytree(templates / "demo", templates / "demo2")
    out = tmp_path / "out"
    both = ("--data-dir", data, "--templates-dir", templates, "build", "demo", "demo2", "--out", out, "--jobs", "1")
    assert run_cli(*both, "--trust-code").code == 0
    good = files(out)
    edit(data / "demo" / "game.yaml", "- {id: tokens,", "- {id: credits,")  # demo is built first and is good
    edit(templates / "demo2" / "board.xml.j2", "</face>", "{{ card.nope }}</face>")  # then demo2 fails
    failed = run_cli(*both, "--no-validate")
    assert failed.code == 2 and "tokens.pdf" not in failed.err, failed.err
    now = files(out)
    assert now.pop("demo2/stale/board.pdf") == good.pop("demo2/board.pdf")
    assert now.pop("demo2/PRINT.md") != good.pop("demo2/PRINT.md")  # its note
    assert now == good  # demo's tokens.pdf where it was, no credits.pdf


def test_only_some_components_built_leaves_the_others(demo, tmp_path):
    out = tmp_path / "out"
    assert build(demo, out).code == 0
    good = files(out)
    assert build(demo, out, "--only", "ships").code == 0
    assert {k for k in files(out)} == {k for k in good}


def test_a_forged_record_cannot_reach_outside_the_game_folder(demo, tmp_path):
    """An output folder that came with a download may hold a record naming '../' files: they are never moved."""
    import hashlib
    import json

    out = tmp_path / "out"
    assert build(demo, out).code == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file")
    record = out / ".cardgen-cache" / "demo.files.json"
    data = json.loads(record.read_text())
    sha = hashlib.sha256(victim.read_bytes()).hexdigest()
    data["files"]["../../victim.txt"] = {"component": "gone", "sha256": sha}
    record.write_text(json.dumps(data))
    assert build(demo, out, "--no-cache").code == 0  # the game is built (not kept as it was): the record is read
    assert victim.read_text() == "the user's own file"
    assert not (out / "demo" / "stale").exists()
