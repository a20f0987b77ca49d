"""Games described by a rules file, for the tests and the benchmarks: the fixtures' folders and the twins' logs.

The twins are the bundled Battlefield: Space and Scifi Domains described as data (tests/fixtures/described/
GAME.engine.yaml): a copy of the bundled game's folder with that engine.yaml beside its cards is played by the rules
file's interpreter, and `compare` plays the same seeds with the same agents through both engines and compares their
logs action by action — the player, the action's place in the legal list, its label, and every chance event with its
cards named by item id (the two engines number their cards each their own way). The benchmark
benchmarks/described_twins.py runs it on a thousand games per player count; tests/test_described_twins.py on a few.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.engine.runner import PlaySpec, engine_for, play_game

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data"
DESCRIBED = ROOT / "tests" / "fixtures" / "described"  # the described games' folders, and the twins' rules files
TWINS = ("battlefield-space", "scifi-domains")


def twin_data(game: str, root: Path) -> Path:
    """A data folder under `root` holding the bundled game's folder with its twin rules file beside the cards."""
    data = root / "card_data"
    if not (data / game / "engine.yaml").is_file():
        shutil.copytree(BUNDLED / game, data / game, dirs_exist_ok=True)
        shutil.copy(DESCRIBED / f"{game}.engine.yaml", data / game / "engine.yaml")
    return data


def fixture_data(game: str, root: Path) -> Path:
    """A data folder under `root` holding a copy of a described fixture game (to change it in a test)."""
    data = root / "card_data"
    shutil.copytree(DESCRIBED / game, data / game, dirs_exist_ok=True)
    return data


def _item_ids(engine: Any) -> dict[str, list[str]]:
    """How each engine names its cards in chance events: a card list by deck name → item ids."""
    if hasattr(engine, "unit_cards"):  # Scifi Domains' Python engine: a numbering per deck
        game = _game(engine.id)
        units = [item.id for item in game.component("units").items for _ in range(item.count)]
        return {"units": units, "techs": [t.item for t in engine.techs], "rewards": [r.item for r in engine.rewards],
                "enemies": [e.item for e in engine.enemies]}  # fmt: skip
    return {"": list(engine.cards.item)}  # Battlefield's and the rules file's: one numbering of every card


def _game(game_id: str) -> Any:
    from cardgen.data import load_games

    (game,) = load_games(BUNDLED, [game_id])
    return game


def normalized(engine: Any, events: list[Any], names: dict[str, list[str]]) -> list[Any]:
    """Chance events with their cards named by item id: ('draw', 'scout'), ('shuffle', ['a', 'b', …])."""
    out = []
    for kind, outcome in events:
        if kind == "shuffle":
            deck, cards = outcome
            out.append(("shuffle", [_name(names, deck, c) for c in cards]))
        elif kind == "draw":
            deck, card = outcome
            out.append(("draw", _name(names, deck, card)))
        else:  # the start player (Scifi's 'start player', a rules file's 'random'), a battle's rounds
            out.append(({"start player": "random"}.get(kind, kind), outcome))
    return out


def _name(names: dict[str, list[str]], deck: Any, card: int) -> str:
    if "" in names:
        return names[""][card]
    return names["enemies" if str(deck).startswith("enemies") else str(deck)][card]


@dataclass
class Difference:
    """The first place two logs of one game part: the game, the line, and what each engine logged there."""

    index: int
    line: int
    python: Any
    described: Any


def compare(game: str, described: Path, players: int, games: int, agents: tuple[str, ...] = ("random",),
            seed: int = 1, start: int = 0) -> tuple[int, list[Difference], list[str]]:  # fmt: skip
    """Play games `start`…`start + games - 1` through the Python engine and its twin; (games played, the first
    difference of each game that differs, the invariant violations the twin met)."""
    python_spec = PlaySpec(game, str(BUNDLED), players, seed, agents, log=True)
    twin_spec = PlaySpec(game, str(described), players, seed, agents, log=True, check=True)
    python_names = _item_ids(engine_for(game, str(BUNDLED)))
    twin_engine = engine_for(game, str(described))
    twin_names = _item_ids(twin_engine)
    differences, violations = [], []
    for index in range(start, start + games):
        python, twin = play_game(python_spec, index), play_game(twin_spec, index)
        violations += twin.violations
        found = _first_difference(python.log or [], twin.log or [], python_names, twin_names, twin_engine)
        if found is not None:
            differences.append(Difference(index, *found))
    return games, differences, violations


def _first_difference(python: list[dict[str, Any]], twin: list[dict[str, Any]], python_names: dict[str, list[str]],
                      twin_names: dict[str, list[str]], engine: Any) -> tuple[int, Any, Any] | None:  # fmt: skip
    for line, (ours, theirs) in enumerate(zip(python, twin, strict=False)):
        a = {k: v for k, v in ours.items() if k not in ("game", "seed", "index", "root_seed", "agents", "chance")}
        b = {k: v for k, v in theirs.items() if k not in ("game", "seed", "index", "root_seed", "agents", "chance")}
        if a != b or normalized(None, ours["chance"], python_names) != normalized(engine, theirs["chance"], twin_names):
            return line, ours, theirs
    if len(python) != len(twin):
        return min(len(python), len(twin)), len(python), len(twin)
    return None
