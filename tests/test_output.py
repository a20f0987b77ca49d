"""Writing output all or nothing (`cardgen/output.py`): a failed command leaves the output folder as it was — no
file, no temporary file, and no folder it made on the way."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from cardgen.output import all_or_nothing, streamed, write_atomic
from cardgen.stopping import Terminated, handling


def tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) + ("/" if p.is_dir() else "") for p in root.rglob("*")}


def test_a_failed_transaction_takes_its_files_and_the_folders_it_made(tmp_path):
    (tmp_path / "kept").mkdir()  # an empty folder that was there before: it stays
    before = tree(tmp_path)
    with pytest.raises(RuntimeError), all_or_nothing():
        write_atomic(tmp_path / "game" / "deck" / "faces.png", b"x")
        write_atomic(tmp_path / "kept" / "new" / "file.pdf", b"y")
        write_atomic(tmp_path / "game" / "other.pdf", b"z")
        raise RuntimeError("the build failed half-way")
    assert tree(tmp_path) == before


def test_a_failed_transaction_within_the_output_folder_takes_folders_other_processes_left(tmp_path):
    """Parallel build workers write into one output folder: worker A makes `game/tts/` and `game/tts/red/`, this
    process writes `game/tts/blue/x.png` (`tts` already there). When both throw their files away, A cannot remove
    `tts` (this process's file is still in it) and this process never made it — so the output folder's transaction
    removes every empty folder below it that was not there when it began, and keeps those that were."""
    out = tmp_path / "out"
    (out / "kept" / "empty").mkdir(parents=True)
    before = tree(tmp_path)
    with pytest.raises(RuntimeError), all_or_nothing(within=out):
        (out / "game" / "tts" / "red").mkdir(parents=True)  # another process's, unknown to this one
        write_atomic(out / "game" / "tts" / "blue" / "x.png", b"x")
        (out / "game" / "tts" / "red").rmdir()  # that process threw its own away; `tts` held this one's file
        raise RuntimeError("stopped")
    assert tree(tmp_path) == before


def test_a_committed_transaction_keeps_its_files_and_folders(tmp_path):
    with all_or_nothing():
        write_atomic(tmp_path / "game" / "deck" / "faces.png", b"x")
        assert not (tmp_path / "game" / "deck" / "faces.png").exists()  # not before the end
    assert tree(tmp_path) == {"game/", "game/deck/", "game/deck/faces.png"}


def test_a_folder_another_file_went_into_is_left(tmp_path):
    with pytest.raises(RuntimeError), all_or_nothing():
        write_atomic(tmp_path / "game" / "a.pdf", b"x")
        (tmp_path / "game" / "theirs.txt").write_text("not the build's")  # written beside it by someone else
        raise RuntimeError
    assert tree(tmp_path) == {"game/", "game/theirs.txt"}


def test_sigterm_while_a_file_is_written_leaves_no_temporary_file(tmp_path):
    with pytest.raises(Terminated), handling(), streamed(tmp_path / "games.jsonl") as handle:
        handle.write(b"a first game\n")
        os.kill(os.getpid(), signal.SIGTERM)
        handle.write(b"never reached\n")
    assert tree(tmp_path) == set()


def test_sigterm_during_a_commit_waits_for_every_file(tmp_path, monkeypatch):
    """A commit is not cut in half: the signal that arrives as the first file is shown is raised after the last."""
    replace = os.replace

    def signalled(source, target):
        os.kill(os.getpid(), signal.SIGTERM)
        replace(source, target)

    with pytest.raises(Terminated), handling(), all_or_nothing():
        write_atomic(tmp_path / "a.pdf", b"a")
        write_atomic(tmp_path / "b.pdf", b"b")
        monkeypatch.setattr(os, "replace", signalled)
    assert tree(tmp_path) == {"a.pdf", "b.pdf"}


def test_a_signal_held_back_is_not_raised_after_its_command_ended():
    """A signal recorded while a step held it back belongs to the command it arrived in: once that command's
    `handling` has ended, nothing raises it into whatever runs next in the process (in-process CLI runs)."""
    from cardgen import stopping

    with pytest.raises(RuntimeError), handling():
        mask = stopping.block()
        stopping._stop(signal.SIGTERM, None)  # arrives while held: recorded, not raised
        raise RuntimeError  # the command ends before the hold is released
    stopping.release(mask)  # outside the command: no Terminated
    with stopping.held():
        pass
