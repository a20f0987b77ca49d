"""Naming a version of a game: a game of the data folder as it is now (`my-game`), a game folder anywhere
(`old/my-game`), or either as a git revision holds it (`my-game@playtest-1`, `old/my-game@HEAD~3`).

`opened` loads the version named — a revision from a temporary copy of its files (`versions.revision`), removed
when the block ends — and says where its problems are as the user named it (`my-game@playtest-1/cards.yaml:5`,
not a temporary path). A revision's own checks.py never runs: its copy is a folder nobody trusted.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cardgen.data.games import MANIFEST, Game, find_game, game_folders, load_game
from cardgen.errors import DataError, Location, Problem, clipped, display_path
from cardgen.versions.revision import NotInRevision, extract


@dataclass(frozen=True)
class Version:
    """A version as loaded: how the user named it, its game (None: the game did not exist in that revision), the
    folder it was read from and the commit of a revision."""

    label: str
    game: Game | None
    folder: Path | None
    commit: str | None = None

    @property
    def edition(self) -> str:
        """What a player calls this version: the game's `version:` when it has one, else the revision, else the
        folder's name (never a path: it is printed on a player's page)."""
        if self.game is not None and self.game.manifest.version:
            return self.game.manifest.version
        name, revision = split(self.label)
        return revision if revision is not None else Path(name).name


def game_folder(name: str, data_dir: Path) -> Path:
    """A game of the data folder by id, else a folder holding a game.yaml, else a `DataError` saying what it is not."""
    if data_dir.is_dir() and name in game_folders(data_dir):
        return find_game(data_dir, name)
    path = Path(name)
    if (path / MANIFEST).is_file():
        return path
    raise DataError(
        f"'{clipped(name, 60)}' is neither a game of {display_path(data_dir)} nor a folder holding a {MANIFEST}"
    )


def split(spec: str) -> tuple[str, str | None]:
    """`my-game@v1` → (`my-game`, `v1`); `my-game` → (`my-game`, None)."""
    name, at, revision = spec.rpartition("@")
    return (name, revision) if at else (spec, None)


@contextlib.contextmanager
def opened(spec: str, data_dir: Path) -> Iterator[Version]:
    """The version `spec` names, loaded (from a temporary copy for a revision, removed afterwards)."""
    name, revision = split(spec)
    folder = game_folder(name, data_dir)
    if revision is None:
        yield Version(spec, load_game(folder), folder)
        return
    with tempfile.TemporaryDirectory(prefix="cardgen-revision-") as temporary:
        copy = Path(temporary) / folder.resolve().name
        try:
            commit = extract(folder, revision, copy)
        except NotInRevision:
            yield Version(spec, None, None)
            return
        try:
            game = load_game(copy)
        except DataError as exc:
            raise type(exc)([_renamed(p, copy, spec) for p in exc.problems], summary=exc.summary) from None
        yield Version(spec, game, copy, commit)


def _renamed(problem: Problem, copy: Path, spec: str) -> Problem:
    """A problem in a revision's temporary copy, located where the user named it: `my-game@v1/cards.yaml:5`."""
    where = problem.where
    shown = display_path(copy)
    if where is None or not where.file.startswith(shown):
        return Problem(where, problem.message.replace(shown, spec))
    return Problem(Location(spec + where.file[len(shown) :], where.line, where.field), problem.message)
