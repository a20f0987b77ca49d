"""`cardgen watch GAME`: rebuild a game whenever one of its files changes, until Ctrl-C.

The game's data folder (its YAML and spreadsheets, images, fonts, rules), its layouts and the shared ones, and the
fonts folder are watched with watchfiles. Each batch of changes runs the same build as `cardgen build GAME`, in this
process, with the cache of `render/cache.py` kept warm: layouts stay compiled until one of them changes, prepared
faces stay in memory, and a file whose inputs did not change is kept as it is — so a rebuild after one card changed
redraws only the file(s) that card is printed in. Each rebuild prints one line: what changed, what was written and how
long it took. Problems (a broken rule, a layout error, text that does not fit) are printed as the build reports them,
and the watch goes on; the next change that mends them rebuilds. Ctrl-C stops it (exit 0).
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import click

from cardgen.errors import CardgenError, DataError, display_path
from cardgen.files import real
from cardgen.terminal import echo

FONT_SUFFIXES = (".ttf", ".otf", ".ttc")


def folders(data_dir: Path, templates_dir: Path, bundled_templates: Path, fonts_dir: Path, game: str) -> list[Path]:
    """What a build of `game` reads: its data folder, its layouts and the shared ones, the fonts."""
    candidates = [
        data_dir / game,
        templates_dir / game,
        templates_dir / "_common",
        bundled_templates / "_common",
        fonts_dir,
    ]
    return [p for p in dict.fromkeys(real(c) for c in candidates) if p.is_dir()]


def symlink_loop(watched: Iterable[Path]) -> str | None:
    """The first symbolic link below `watched` that leads round in a loop — to itself through other links, or to a
    folder it lies in — named as the user reaches it (through the links above it), or None. The polling watcher
    follows links into folders and stops with an internal error of its own at such a link (also one met inside a
    linked folder), without naming it as a user could act on."""
    for top in watched:
        found = _loop_below(top, frozenset({real(top)}))
        if found is not None:
            return f"{display_path(top)}/{found.relative_to(top).as_posix()}"
    return None


def _loop_below(folder: Path, ancestors: frozenset[Path]) -> Path | None:
    """`symlink_loop` below one folder, entering linked folders as the watcher does; `ancestors` are the real folders
    of the way down to it."""
    here = real(folder)
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:  # unreadable: the watcher and the build say so in their own words
        return None
    for entry in entries:
        path = Path(entry.path)
        if entry.is_symlink():
            try:
                target = Path(os.path.realpath(path, strict=True))
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    return path
                continue  # a link to nothing: the build names it if it is used
            if target in ancestors or target == here or target in here.parents:
                return path
        if entry.is_dir():
            found = _loop_below(path, ancestors | {real(path)})
            if found is not None:
                return found
    return None


class Skip:
    """What a rebuild does not need to see: the output folder (and its cache), temporary and hidden files."""

    def __init__(self, out_dir: Path):
        from watchfiles import DefaultFilter

        self.default = DefaultFilter()
        self.out_dir = out_dir.resolve()

    def __call__(self, change: Any, path: str) -> bool:
        where = Path(path)
        if where.name.startswith(".") or where.name.endswith(".part"):
            return False
        if where == self.out_dir or self.out_dir in where.parents:
            return False
        return bool(self.default(change, path))


def watch(
    rebuild: Callable[[], Any], watched: list[Path], output: Path, layouts: Iterable[Path], poll: bool = False
) -> None:
    """Build once, then again after every batch of changes in `watched`, until interrupted (KeyboardInterrupt is
    the caller's to catch). `rebuild` is the build (it returns what `cardgen build` returns) into the game's
    `output` folder; `layouts` are the folders whose changes make the compiled layouts stale."""
    from watchfiles import watch as changes_in

    from cardgen.render import cache, fonts

    layout_dirs = [p.resolve() for p in layouts]
    if poll and (loop := symlink_loop(watched)) is not None:
        raise DataError(f"{loop}: a symbolic link that leads round in a loop: --poll cannot watch it")
    with cache.warm():
        _rebuild(rebuild, "first build")
        listening = False
        # an empty batch every quarter second: the first says the watcher is listening, so the line below is true
        batches = changes_in(
            *watched,
            watch_filter=Skip(output.parent),
            force_polling=poll or None,
            yield_on_timeout=True,
            rust_timeout=250,
        )
        for batch in _reported(batches, watched):
            if not listening:
                echo(f"watching {', '.join(display_path(p) for p in watched)} (Ctrl-C to stop)")
                listening = True
            if not batch:
                continue
            paths = sorted({Path(path) for _, path in batch})
            if any(p.suffix.lower() in FONT_SUFFIXES for p in paths):
                fonts.forget()  # read again: a font file changed in place keeps its name
            if any(d == p or d in p.parents for p in paths for d in layout_dirs):
                cache.forget_layouts()
            _rebuild(rebuild, _names([p for p in paths if p.exists()] or paths))


def _reported(batches: Iterable[Any], watched: list[Path]) -> Iterator[Any]:
    """The watcher's batches; its own error (a folder it cannot read or follow, the system's limit of watches) is
    a one-line `DataError`, not an internal error."""
    try:
        yield from batches
    except RuntimeError as exc:
        if type(exc).__name__ != "WatchfilesRustInternalError":
            raise
        raise DataError(f"cannot watch {', '.join(display_path(p) for p in watched)}: {exc}") from None


def _names(paths: list[Path]) -> str:
    """The files that changed, as the line names them (an editor's temporary files come and go unnamed)."""
    more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
    return ", ".join(p.name for p in paths[:3]) + more


def _rebuild(rebuild: Callable[[], Any], why: str) -> None:
    """One build, and its line: `12:04:31 units.yaml: rebuilt units.pdf, PRINT.md (0.41 s)`."""
    start = time.perf_counter()
    try:
        built = rebuild()
    except (CardgenError, click.ClickException) as exc:
        lines = exc.lines() if isinstance(exc, CardgenError) else [exc.format_message()]
        for line in lines:
            echo(f"cardgen: error: {line}", err=True)
        count = len(exc.problems) if isinstance(exc, CardgenError) else 1  # a closing summary is no problem
        outcome = f"failed: {count} problem{'' if count == 1 else 's'} above"  # they say what was written
    else:
        names = [p.name for p in built.written]
        outcome = f"rebuilt {', '.join(names)}" if names else "up to date, nothing written"
    echo(f"{time.strftime('%H:%M:%S')} {why}: {outcome} ({time.perf_counter() - start:.2f} s)")
