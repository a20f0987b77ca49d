"""What cardgen asks of a file before it opens one from a folder it does not trust (cardgen/files.py): does it stay
inside its folder with every symbolic link followed, and is it a regular file (a FIFO would block the reader)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardgen.errors import DataError, display_path
from cardgen.files import inside, refusal, require_regular


def test_a_link_that_stays_inside_its_folder_is_inside(tmp_path: Path) -> None:
    root = tmp_path / "game"
    (root / "art").mkdir(parents=True)
    (root / "art" / "logo.png").write_bytes(b"")
    (root / "logo.png").symlink_to("art/logo.png")
    (root / "pictures").symlink_to("art")
    assert inside(root / "logo.png", root)
    assert inside(root / "pictures" / "logo.png", root)
    assert inside(root / "missing.png", root)  # for the reader to report as missing


def test_a_link_out_of_its_folder_a_parent_path_and_the_folder_itself_are_not(tmp_path: Path) -> None:
    root = tmp_path / "game"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("x")
    (root / "leak.txt").symlink_to(tmp_path / "secret.txt")
    (root / "out").symlink_to(tmp_path)
    assert not inside(root / "leak.txt", root)
    assert not inside(root / "out" / "secret.txt", root)
    assert not inside(root / ".." / "secret.txt", root)
    assert not inside(root, root)


def test_a_link_loop_is_neither_an_error_nor_outside(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    assert inside(tmp_path / "a", tmp_path)  # opening it fails, with its name
    assert refusal(tmp_path / "a") is None
    assert display_path(tmp_path / "a").endswith("a")  # was a RuntimeError from Path.resolve


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "file").write_text("x")
    (tmp_path / "through").symlink_to("pipe")
    assert refusal(tmp_path / "pipe") == "not a regular file (a FIFO)"
    assert refusal(tmp_path / "through") == "not a regular file (a FIFO)"
    assert refusal("/dev/null") == "not a regular file (a character device)"
    assert refusal(tmp_path / "file") is None
    assert refusal(tmp_path) is None  # a folder: every reader names it in its own words
    assert refusal(tmp_path / "missing") is None
    with pytest.raises(DataError, match=r"^--compare .*pipe: not a regular file \(a FIFO\)$"):
        require_regular(tmp_path / "pipe", "--compare ")
