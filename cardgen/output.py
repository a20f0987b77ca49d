"""Writing output files: each file atomically, and a whole command's files all or nothing.

Every file cardgen writes goes through `write_atomic`: the bytes go to a hidden temporary file in the target folder,
which is renamed over the target, so a reader never sees half a file. Inside `all_or_nothing()` (the CLI wraps each
build in one) the renames wait until the block ends without an error: a build that fails half-way — a broken
layout in the third component, an interrupt — leaves the output folder exactly as it was, with no partial file, no
mix of new and old files, and no folder made for files that were then thrown away.

Files are created with the permissions the user's umask gives (as `open()` would), not the 0600 of a temporary file.
A target that cannot be written (its folder is a file, read-only, a folder where the file should be) is a located
`DataError`, not a traceback.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

from cardgen import stopping
from cardgen.errors import DataError, display_path


class Change(NamedTuple):
    """One change a transaction holds until it ends: a temporary file to rename over its target (`write`), a
    target to delete (`delete`), an earlier file to move aside (`move`, source to target), a folder to remove if
    it is empty by then (`prune`), all done when it commits; a folder made on the way (`folder`: kept when it
    commits, removed again when it does not)."""

    kind: str
    target: Path
    source: Path | None = None


Staged = list[Change]
_staged: Staged | None = None
_shown = 0  # how many times this process has shown files (a transaction committed, a file written outside one)


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` via a temporary file in the same folder and a rename (deferred inside a transaction)."""
    with streamed(path) as handle:
        handle.write(data)


@contextlib.contextmanager
def streamed(path: Path) -> Iterator[BinaryIO]:
    """A file written piece by piece (a long game log) that still appears whole or not at all: the pieces go to a
    temporary file in the target folder, renamed over `path` when the block ends normally (deferred inside a
    transaction) and removed when it raises."""
    shown = display_path(path)
    mask = stopping.block()  # the folders made and the temporary file are noted before a signal can stop us
    try:
        fd, temp = _temporary(path)
    except BaseException:
        stopping.release(mask)
        raise
    try:
        stopping.release(mask)  # Ctrl-C or SIGTERM from here on removes the temporary file
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.chmod(temp, _umask_mode())
        if _staged is None:
            _show(temp, path)
        else:
            _staged.append(Change("write", path, temp))
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise DataError(f"{shown}: cannot write ({exc.strerror})") from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _temporary(path: Path) -> tuple[int, Path]:
    """A new temporary file beside `path` (its folders made, and noted in the transaction)."""
    shown = display_path(path)
    try:
        if path.is_dir():
            raise DataError(f"{shown}: cannot write the file: a folder of that name is in the way")
        made = _missing(path.parent)
        path.parent.mkdir(parents=True, exist_ok=True)
        if _staged is not None:
            _staged.extend(Change("folder", folder) for folder in made)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except (FileExistsError, NotADirectoryError):
        raise DataError(f"{shown}: cannot write: a file stands where a folder is needed on that path") from None
    except OSError as exc:
        raise DataError(f"{shown}: cannot write ({exc.strerror})") from None
    return fd, Path(name)


@contextlib.contextmanager
def all_or_nothing(alone: bool = False, within: Path | None = None) -> Iterator[None]:
    """Files written inside the block appear together when it ends normally, and not at all when it raises. Inside
    another transaction they join it, unless `alone`: then they are committed when this block ends, whatever the
    other one does (a failed component's file moved aside with its note, though the build's files are not).

    `within` names the output folder when other processes write into it too (parallel build workers): a folder one
    process made and another put a file in cannot be removed by the first when both throw their files away, so on
    failure every empty folder below `within` that was not there when the block began is removed as well."""
    global _staged
    outer, _staged = _staged, []
    staged = _staged
    before = _folders(within) if within is not None else set()
    try:
        yield
    except BaseException:
        discard(staged)
        if within is not None:
            _prune(within, before)
        raise
    finally:
        _staged = outer
    if outer is not None and not alone:
        outer.extend(staged)
        return
    _commit(staged)


# how deep below an output folder cardgen makes folders: OUT/<game>/tts/<component>/, OUT/<game>/stale/
_DEPTH = 4


def _folders(root: Path, depth: int = _DEPTH) -> set[Path]:
    """The folders below `root` (and `root` itself) down to `depth` levels: those a build may make and must remove."""
    found = {root} if root.is_dir() else set()
    if depth and found:
        with contextlib.suppress(OSError), os.scandir(root) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    found |= _folders(Path(entry.path), depth - 1)
    return found


def _prune(root: Path, before: set[Path]) -> None:
    """Remove the empty folders below `root` (and `root`) that were not there `before`, innermost first."""
    with stopping.held():
        for folder in sorted(_folders(root) - before, key=lambda p: len(p.parts), reverse=True):
            with contextlib.suppress(OSError):  # not empty: something else is in it
                folder.rmdir()


def _missing(folder: Path) -> list[Path]:
    """The folders that writing into `folder` makes, outermost first."""
    made = []
    while not folder.exists() and folder != folder.parent:
        made.append(folder)
        folder = folder.parent
    return made[::-1]


def _commit(staged: Staged) -> None:
    global _shown
    with stopping.held():  # all of it: a SIGTERM half-way would leave a mix of old and new files
        for change in staged:
            if change.kind == "delete":
                change.target.unlink(missing_ok=True)
            elif change.kind == "move":
                assert change.source is not None
                change.target.parent.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(FileNotFoundError):  # gone since (by hand): nothing to move
                    os.replace(change.source, change.target)
            elif change.kind == "write":
                assert change.source is not None
                os.replace(change.source, change.target)
        for change in staged:
            if change.kind == "prune":
                with contextlib.suppress(OSError):  # not empty: it stays
                    change.target.rmdir()
        _shown += 1


def _show(temp: Path, path: Path) -> None:
    global _shown
    with stopping.held():
        os.replace(temp, path)
        _shown += 1


def shown() -> int:
    """A count that grows whenever files written are shown: a command stopped by a signal after it grew did not
    stop with nothing written."""
    return _shown


@contextlib.contextmanager
def collected() -> Iterator[Staged]:
    """For a worker process: files written inside the block are staged, and when it ends normally they stay staged
    (neither shown nor discarded) in the list it yields, for the parent to `adopt` into its own transaction; when it
    raises they are discarded."""
    global _staged
    outer, _staged = _staged, []
    staged = _staged
    try:
        yield staged
    except BaseException:
        discard(staged)
        raise
    finally:
        _staged = outer


def adopt(staged: Staged) -> None:
    """Files a worker staged (`collected`): part of the current transaction, or shown at once outside one."""
    if _staged is not None:
        _staged.extend(staged)
    else:
        _commit(staged)


def discard(staged: Staged) -> None:
    """Throw away staged files (their temporary files; the targets are untouched) and the folders made for them,
    innermost first, where nothing else has been put in them."""
    with stopping.held():  # a second Ctrl-C or SIGTERM does not cut the clean-up short
        for change in staged:
            if change.kind == "write" and change.source is not None:
                change.source.unlink(missing_ok=True)
        for change in reversed(staged):
            if change.kind == "folder":
                with contextlib.suppress(OSError):  # not empty (another file, not ours, went there), or gone already
                    change.target.rmdir()


def remove(path: Path) -> None:
    """Delete a file cardgen wrote and no longer needs (deferred, like writes, inside a transaction)."""
    if not path.is_file():
        return
    if _staged is None:
        path.unlink(missing_ok=True)
    else:
        _staged.append(Change("delete", path))


def unwrite(path: Path) -> None:
    """Take back a file written in this transaction (its temporary file goes; the target is left as it was), or,
    outside one or when none was written there, delete it as `remove` does."""
    staged = [c for c in _staged or () if c.kind == "write" and c.target == path and c.source is not None]
    if not staged:
        remove(path)
        return
    assert _staged is not None
    for change in staged:
        _staged.remove(change)
    discard(staged)
    remove(path)  # an earlier build's file there: it goes too


def move(source: Path, target: Path) -> None:
    """Move a file (an earlier build's, set aside) to `target`, its folder made if need be (deferred, like writes,
    inside a transaction: thrown away, it leaves the file where it was)."""
    if _staged is None:
        _commit([Change("move", target, source)])
    else:
        _staged.append(Change("move", target, source))


def prune(folder: Path) -> None:
    """Remove `folder` if it is empty once the transaction's changes are done (at once outside one)."""
    if _staged is None:
        _commit([Change("prune", folder)])
    else:
        _staged.append(Change("prune", folder))


def pending(path: Path) -> Path:
    """Where the bytes the current transaction will put at `path` are now (its temporary file), else `path`."""
    for change in reversed(_staged or ()):
        if change.kind == "write" and change.target == path and change.source is not None:
            return change.source
    return path


def check_writable(path: Path, option: str) -> None:
    """Fail before a long job, not after it: `path` must be a file that can be created (its folder made if needed)."""
    shown = display_path(path)
    if path.is_dir():
        raise DataError(f"{option} {shown}: is a folder, not a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except (FileExistsError, NotADirectoryError):
        raise DataError(
            f"{option} {shown}: cannot write: a file stands where a folder is needed on that path"
        ) from None
    except OSError as exc:
        raise DataError(f"{option} {shown}: cannot write ({exc.strerror})") from None
