"""What `cardgen list` prints of the games, and the copy of it that a command which loaded every game keeps.

A listing is kept in the user's cache (render/cache.py) keyed by every byte of the data folder: `cardgen list` after
a build or a check of the whole folder reads it back instead of loading and validating the games again.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen import limits

if TYPE_CHECKING:
    from cardgen.data import Game


def listing_text(loaded: list[Game], as_json: bool) -> str:
    """What `cardgen list` prints for the loaded games."""
    if as_json:
        return json.dumps([game_summary(game) for game in loaded], indent=2) + "\n"
    lines = []
    for game in loaded:
        low, high = game.players
        players = f"{low} players" if low == high else f"{low}–{high} players"
        lines.append(f"{game.id}  {game.title}  ({players})")
        width = max((len(c.id) for c in game.components), default=0)
        for component in game.components:
            note = "  (not printed)" if component.kind == "pieces" else "" if component.items else "  (no contents yet)"
            lines.append(f"  {component.id:<{width}}  {component.kind:<8}  {component.count:>4}{note}")
    return "".join(line + "\n" for line in lines)


def game_summary(game: Game) -> dict[str, Any]:
    """The `cardgen list --json` entry of one game."""
    return {
        "id": game.id,
        "title": game.title,
        "players": list(game.players),
        "components": [{"id": c.id, "kind": c.kind, "count": c.count} for c in game.components],
    }


def listing_parts(games: tuple[str, ...], as_json: bool) -> list[object]:
    """What a kept listing depends on besides the data and cardgen: the games asked for, the format, the limits."""
    return [list(games), as_json, dataclasses.asdict(limits.current())]


def keep_listing(data_dir: Path, loaded: list[Game]) -> None:
    """A command that loaded every game of the folder keeps what `cardgen list` would print of it (both forms), so
    that listing the data after a build or a check reads it back instead of loading everything again."""
    from cardgen.data.games import game_folders
    from cardgen.render import cache

    by_folder = {game.folder.name: game for game in loaded}
    order = list(game_folders(data_dir))  # the order `load_games` lists them in
    if sorted(by_folder) != sorted(order):
        return
    games = [by_folder[name] for name in order]
    for as_json in (False, True):
        cache.keep_listing(data_dir, listing_parts((), as_json), listing_text(games, as_json))
