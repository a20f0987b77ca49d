"""`cardgen build --changed-since OLD`: only the faces that differ from an earlier version, and the changelog.

Each game built is compared with its version OLD names (`reprint_plan`): a git revision of its folder
(`playtest-1`), a folder holding the earlier game, or any version `cardgen diff` takes (`my-game@v1`). The items
added or changed since are printed, every copy, with their backs, on as few sheets as the usual imposition needs
(small components share sheets); the changelog ("Scout: cost 2 → 3; Dreadnought: removed") becomes a section of
PRINT.md and of the print guide. A game in which nothing printable changed is not built.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from cardgen.data.games import MANIFEST, Game
from cardgen.versions.diff import compare_games
from cardgen.versions.report import changelog
from cardgen.versions.source import opened, split

OPTION = "--changed-since"


@dataclass(frozen=True)
class Reprint:
    """One game's reprint: the game with only the items to print, and the changelog's heading and lines."""

    game: Game | None  # None: nothing to print
    heading: str
    lines: list[str]


def old_spec(since: str, game: Game) -> str:
    """The version `since` names for this game: itself when it names a game folder or a version (`x@rev`), else a
    git revision of the game's own folder."""
    if split(since)[1] is not None or (Path(since) / MANIFEST).is_file():
        return since
    return f"{game.folder}@{since}"


def reprint_plan(game: Game, since: str, data_dir: Path) -> Reprint:
    """What to reprint of `game` (an edition: data/editions.py) since the version `since` names, the earlier version
    taken in the same language, so that the changes are those its readers see."""
    with opened(old_spec(since, game), data_dir) as old:
        before = _same_edition(old.game, game.language) if old.game is not None else None
        changes = compare_games(before, game, old.label, game.id)
        heading = f"Changes since {old.edition}"
    chosen = changes.reprinted()
    lines = changelog(changes)
    if not chosen:
        return Reprint(None, heading, lines)
    components = tuple(
        dataclasses.replace(c, items=tuple(i for i in c.items if i.id in chosen[c.id]))
        for c in game.components
        if c.id in chosen and c.printed
    )
    if not components:
        return Reprint(None, heading, lines)
    return Reprint(dataclasses.replace(game, components=components, readable=game.readable or game.components),
                   heading, lines)  # fmt: skip


def _same_edition(game: Game, language: str) -> Game:
    """An earlier version in the language of the edition built (as loaded when the edition is none, or when the
    earlier version had not that language yet: its texts were the default language's)."""
    from cardgen.data.editions import edition

    return edition(game, language).game if language and language in game.languages else game
