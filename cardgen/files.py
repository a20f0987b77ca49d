"""The two questions cardgen asks of every file it reads from a folder it does not trust, before opening it.

A game folder, a templates folder, a project file or a log may come from a stranger. A file may be a symbolic link
that leads out of its folder (`inside` answers whether it stays in), and it may be something other than a regular
file: opening a FIFO for reading waits for a writer that never comes, and a device such as `/dev/zero` never ends
(`refusal` says what it is instead, `require_regular` refuses it). Both look before anything opens the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from cardgen.errors import DataError, display_path

_KINDS = {  # what a file that is not a regular one is, in a user's words
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def real(path: Path | str) -> Path:
    """`path` with every symbolic link followed: `Path.resolve` but for a link loop, which stays a name that cannot
    be opened (the reader says so, with the name) instead of raising `RuntimeError`."""
    return Path(os.path.realpath(path))


def inside(path: Path | str, root: Path | str) -> bool:
    """Whether `path`, every symbolic link on its way followed, lies inside the folder `root` (itself resolved): a
    link that stays within the folder is as good as the file it names."""
    return real(root) in real(path).parents


def display_link(path: Path) -> str:
    """A symbolic link as the user named it: its folder as `display_path` shows it, then its own name (where the
    link leads is what `display_path` would show)."""
    return f"{display_path(path.parent)}/{path.name}"


def refusal(path: Path | str) -> str | None:
    """Why `path` may not be read as a file — "not a regular file (a FIFO)" — or None when it is a regular file, a
    folder or missing (those every reader already names in its own words). Links are followed."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # missing, a link loop, a name the system refuses: opening it will say so
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return f"not a regular file ({_KINDS.get(stat.S_IFMT(mode), 'a special file')})"


def require_regular(path: Path | str, prefix: str = "") -> None:
    """Raise a one-line `DataError` naming `path` (after `prefix`, e.g. "--compare ") if it is a FIFO, a device or a
    socket."""
    reason = refusal(path)
    if reason is not None:
        raise DataError(f"{prefix}{display_path(path)}: {reason}")
