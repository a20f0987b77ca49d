"""A game folder as a git revision holds it, copied into a temporary folder without a checkout.

`cardgen diff my-game@playtest-1 my-game` and `cardgen build my-game --changed-since playtest-1` compare the game
with an earlier version kept in git. Reading it must not touch the user's files (no checkout, no index, no stash)
and must run nothing the repository names: a folder downloaded from a stranger may carry a `.git` whose config asks
git to run a program (`core.fsmonitor`, hooks, filters, an ssh command, a pager). So only plumbing that reads
objects runs — `rev-parse`, `ls-tree`, `cat-file blob` — which applies no filter, hook or pager, with those
settings overridden on the command line (which wins over the repository's config), git's own environment variables
cleared and network access refused (a partial clone would otherwise fetch a missing object). Every call has a time
limit, and the files are bounded before they are read (`revision_files`, `revision_bytes`, from the sizes git
lists); symbolic links and submodules are left out, and each name is checked to stay inside the copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from cardgen import limits
from cardgen.errors import DataError, clipped, display_path

GIT_SECONDS = 60.0  # one git call: reading a game's objects takes milliseconds
# Settings that would run a program, overridden whatever the repository's config says (command-line `-c` wins).
SAFE_SETTINGS = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.sshCommand=false",
    "core.pager=cat",
    "protocol.allow=never",
    "credential.helper=",
)
KEPT_VARIABLES = ("GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM")  # where to look, never what to run
BLOB_MODES = {b"100644", b"100755"}  # regular files; 120000 is a symbolic link, 160000 a submodule


class NotInRevision(DataError):
    """The game folder did not exist in the revision (every item of the game is new since)."""


def extract(folder: Path, revision: str, into: Path) -> str:
    """Copy the files `folder` held in git revision `revision` into `into` (a new folder); return the commit."""
    _check_revision(revision)
    shown = display_path(folder)
    if not folder.is_dir():
        raise DataError(f"{shown}: not a folder")
    try:
        inside_repository = _run(folder, "rev-parse", "--is-inside-work-tree", most=100, quiet=True)
    except DataError:
        inside_repository = b""
    if inside_repository.strip() != b"true":
        raise DataError(f"{shown}: not in a git repository, so it has no revision '{clipped(revision, 40)}'")
    prefix = _run(folder, "rev-parse", "--show-prefix", most=10_000).decode("utf-8", "replace").strip()
    commit = _commit(folder, revision, shown)
    listing = _run(folder, "ls-tree", "-r", "-z", "--long", "--full-tree", commit, "--", prefix or ".",
                   most=200 * limits.current().revision_files + 10_000)  # fmt: skip
    entries = _entries(listing, prefix.encode(), shown, revision)
    if not entries:
        raise NotInRevision(f"{shown}: not in revision '{clipped(revision, 40)}' ({commit[:12]})")
    into.mkdir(parents=True)
    for relative, sha, size in entries:
        target = into.joinpath(*relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = _run(folder, "cat-file", "blob", sha, most=size)
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
    return commit


def _check_revision(revision: str) -> None:
    """A revision as git names one: not empty, one line of printable text, not an option."""
    if not revision or len(revision) > 256 or revision.startswith("-") or not revision.isprintable():
        raise DataError(f"'{clipped(revision, 40)}' is not a git revision (a tag, a branch, a commit, HEAD~2)")


def _commit(folder: Path, revision: str, shown: str) -> str:
    try:
        found = _run(folder, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}",
                     most=200, quiet=True)  # fmt: skip
    except DataError:
        found = b""
    commit = found.decode("ascii", "replace").strip()
    if len(commit) < 40:
        raise DataError(f"{shown}: the git repository has no revision '{clipped(revision, 40)}'")
    return commit


def _entries(listing: bytes, prefix: bytes, shown: str, revision: str) -> list[tuple[tuple[str, ...], str, int]]:
    """The regular files below `prefix` as (path parts inside the folder, blob, size), bounded."""
    bounds = limits.current()
    entries, total = [], 0
    for record in filter(None, listing.split(b"\0")):
        head, _, path = record.partition(b"\t")
        fields = head.split()
        if len(fields) != 4 or fields[0] not in BLOB_MODES or fields[1] != b"blob" or not path.startswith(prefix):
            continue
        parts = tuple(path[len(prefix) :].decode("utf-8", "surrogateescape").split("/"))
        if any(part in ("", ".", "..") for part in parts):
            raise DataError(f"{shown}@{clipped(revision, 40)}: a file named '{clipped('/'.join(parts), 60)}'")
        size = int(fields[3])
        total += size
        entries.append((parts, fields[2].decode("ascii"), size))
        if len(entries) > bounds.revision_files:
            raise DataError(_too_many(shown, revision, f"more than {bounds.revision_files:,} files", "revision_files"))
        if total > bounds.revision_bytes:
            raise DataError(_too_many(shown, revision, f"more than {bounds.revision_bytes:,} bytes", "revision_bytes"))
    return entries


def _too_many(shown: str, revision: str, what: str, name: str) -> str:
    return f"{shown}@{clipped(revision, 40)}: {what} (raise it with --limit {name}=N if you mean it)"


def _environment() -> dict[str, str]:
    """The caller's environment without git's own variables (a `GIT_DIR` would point git elsewhere) but those that
    bound where a repository is looked for, with no system config, no prompt, no optional locks and no lazy
    fetching."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in KEPT_VARIABLES}
    quiet = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
    return {**kept, **quiet, "GIT_NO_LAZY_FETCH": "1", "LC_ALL": "C"}


def _run(folder: Path, *arguments: str, most: int, quiet: bool = False) -> bytes:
    """What one git command prints, at most `most` bytes, within `GIT_SECONDS`; a `DataError` with git's first line
    of complaint when it fails (`quiet`: its exit status alone)."""
    git = shutil.which("git")
    if git is None:
        raise DataError("git is not installed: reading a revision of a game needs it (compare two folders instead)")
    settings = [part for setting in SAFE_SETTINGS for part in ("-c", setting)]
    command = [git, "--no-pager", "--literal-pathspecs", *settings, "-C", str(folder), *arguments]
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                                   env=_environment())  # fmt: skip
        late = threading.Event()

        def stop() -> None:
            late.set()
            process.kill()

        timer = threading.Timer(GIT_SECONDS, stop)
        timer.start()
        try:
            assert process.stdout is not None
            data = process.stdout.read(most + 1)
            if len(data) > most:
                process.kill()
            status = process.wait()
        finally:
            timer.cancel()
            if process.poll() is None:
                process.kill()
                process.wait()
        errors.seek(0)
        complaint = errors.read(2_000).decode("utf-8", "replace").strip().splitlines()
    if late.is_set():
        raise DataError(f"{display_path(folder)}: git did not answer within {GIT_SECONDS:g} s")
    if len(data) > most:
        raise DataError(f"{display_path(folder)}: git said more than expected ({most:,} bytes) for {arguments[0]}")
    if status != 0:
        said = "" if quiet or not complaint else f": {clipped(complaint[0], 160)}"
        raise DataError(f"{display_path(folder)}: git {arguments[0]} failed{said}")
    return data
