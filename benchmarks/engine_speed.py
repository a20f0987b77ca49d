"""Benchmark: reference-engine speed per game with random agents on one process.

Prints, for each game with an engine, games/second, player actions/second, and steps/second counting chance events
too (shuffles, draws and rolls — what OpenSpiel counts as chance-node actions in its playouts), all measured in one
run. Compare the figures within a run; machines here are shared and noisy.

    python benchmarks/engine_speed.py               # 2,000 Battlefield games, 300 Scifi Domains games per count,
                                                    # 40 and 15 Star Commander games (2 and 4 players)
    python benchmarks/engine_speed.py --scale 0.2   # a quicker look

If OpenSpiel is installed (`pip install open_spiel`; not a cardgen dependency), the same run also plays random
games of its C++ gin rummy from a Python loop, interleaved with cardgen's games (three slices each, so a change in
the machine's load falls on both), and prints each game's speed as a multiple of it — the figure to compare
between machines, since absolute speeds here vary with the load.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import derive_seed
from cardgen.engine.runner import engine_for

DATA = str(Path(__file__).resolve().parent.parent / "card_data")
RUNS = [
    ("battlefield-space", 2, 2000),
    ("scifi-domains", 2, 300),
    ("scifi-domains", 4, 300),
    ("star-commander", 2, 40),
    ("star-commander", 4, 15),
    ("space-empires-4x", 2, 30),
    ("space-empires-4x", 4, 15),
    ("rift-domination", 2, 30),
    ("rift-domination", 4, 15),
]


def measure(game: str, players: int, games: int, clones: int = 20_000) -> dict[str, float]:
    engine = engine_for(game, DATA)
    actions = chance = 0
    start = time.perf_counter()
    for index in range(games):
        seed = derive_seed(1, index)
        state = engine.new_state(players, seed)
        agents = [RandomAgent(engine, seat, seed) for seat in range(players)]
        while not state.is_terminal():  # a state at its turn cap is terminal (random Star Commander games reach it)
            legal = state.legal_actions()
            state.do(agents[state.current_player()].choose(state, legal))
            actions += 1
        chance += len(state.chance.events)
    seconds = time.perf_counter() - start
    return {"games/s": games / seconds, "actions/s": actions / seconds, "steps/s": (actions + chance) / seconds,
            "clones/s": clones_per_second(engine, players, clones)}  # fmt: skip


def clones_per_second(engine: object, players: int, count: int = 20_000) -> float:
    """Clones of a state a few actions into a game (what a search agent does thousands of times a decision)."""
    state = engine.new_state(players, 1)  # type: ignore[attr-defined]
    for _ in range(10):
        state.apply(state.legal_actions()[0])
    start = time.perf_counter()
    for _ in range(count):
        state.clone()
    return count / (time.perf_counter() - start)


def openspiel_gin_rummy(seconds: float = 10.0) -> dict[str, float] | None:
    """Random playouts of OpenSpiel's gin rummy (chance outcomes applied as actions, as OpenSpiel does)."""
    try:
        import pyspiel
    except ImportError:
        return None
    import random

    game, rng = pyspiel.load_game("gin_rummy"), random.Random(1)
    actions = chance = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games/s": games / elapsed, "actions/s": actions / elapsed, "steps/s": (actions + chance) / elapsed}


SLICES = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument("--min-games", type=int, default=4, help="the fewest games of each run in each slice")
    parser.add_argument("--only", default=None, help="games to measure, comma-separated (default: every game)")
    figures.add_option(parser)
    args = parser.parse_args()
    runs = [r for r in RUNS if args.only is None or r[0] in args.only.split(",")]
    slices: dict[tuple[str, int], list[dict[str, float]]] = {(game, players): [] for game, players, _ in runs}
    gin_slices: list[dict[str, float]] = []
    for _ in range(SLICES):  # interleaved: each game and gin rummy take turns, so load changes hit all of them
        for game, players, games in runs:
            count = max(args.min_games, int(games * args.scale / SLICES))
            slices[(game, players)].append(measure(game, players, count, max(500, int(20_000 * min(args.scale, 1.0)))))
        if not args.no_openspiel:
            gin = openspiel_gin_rummy(10.0 * min(args.scale, 1.0) / SLICES)
            if gin is not None:
                gin_slices.append(gin)
    results = {key: _mean(rows) for key, rows in slices.items()}
    for (game, players), r in results.items():
        print(
            f"{game:>18} ({players}p): {r['games/s']:8,.0f} games/s  {r['actions/s']:9,.0f} actions/s  "
            f"{r['steps/s']:9,.0f} steps/s with chance events  {r['clones/s']:9,.0f} clones/s"
        )
    report = {f"{game} {players}p": r for (game, players), r in results.items()}
    if gin_slices:
        gin = _mean(gin_slices)
        print(
            f"{'OpenSpiel gin_rummy':>18} (2p):      {gin['games/s']:8,.0f} games/s  "
            f"{gin['actions/s']:9,.0f} actions/s  {gin['steps/s']:9,.0f} steps/s with chance actions"
        )
        report["openspiel gin_rummy"] = gin
        for (game, players), r in results.items():
            ratio = r["actions/s"] / gin["actions/s"]
            report[f"{game} {players}p"]["x gin rummy actions/s"] = ratio
            print(f"{game} ({players}p) runs at {ratio:.2f}x gin rummy's player actions/s")
    else:
        print("no same-run comparison with OpenSpiel (not installed, or --no-openspiel)")
    figures.write(args.json, "engine_speed", report)


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: sum(row[key] for row in rows) / len(rows) for key in rows[0]}


if __name__ == "__main__":
    main()
