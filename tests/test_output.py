"""Writing output all or nothing (`cardgen/output.py`): a failed command leaves the output folder as it was — no
file, no temporary file, and no folder it made on the way."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.output import all_or_nothing, write_atomic


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
