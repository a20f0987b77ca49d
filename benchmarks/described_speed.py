"""Benchmark: a game described by its rules file against its Python twin, games interleaved in one run (issue 41).

The same seeded games with random agents are played by the bundled Python engine and by the twin's rules file
(tests/fixtures/described/GAME.engine.yaml), one game of each in turn, so a change in the machine's load falls on
both; it prints games per second of each and the ratio (described / Python: 0.5 means half the speed). The target is
no less than 0.5. Machines here are shared: compare ratios from one run.

    python benchmarks/described_speed.py               # 600 Battlefield games, 300 Scifi Domains games per count
    python benchmarks/described_speed.py --scale 0.1
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import described

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import derive_seed
from cardgen.engine.runner import engine_for

RUNS = [("battlefield-space", 2, 600), ("scifi-domains", 2, 300), ("scifi-domains", 4, 300)]


def play(engine: object, players: int, index: int) -> tuple[float, int]:
    """One random game: its seconds and its actions."""
    start = time.perf_counter()
    seed = derive_seed(1, index)
    state = engine.new_state(players, seed)  # type: ignore[attr-defined]
    agents = [RandomAgent(engine, seat, seed) for seat in range(players)]  # type: ignore[arg-type]
    actions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.do(agents[state.current_player()].choose(state, legal))
        actions += 1
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="a share of the default number of games")
    parser.add_argument("--min-games", type=int, default=5)
    figures.add_option(parser)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for game, players, games in RUNS:
            games = max(args.min_games, int(games * args.scale))
            engines = [engine_for(game, str(described.BUNDLED)),
                       engine_for(game, str(described.twin_data(game, Path(folder) / game)))]  # fmt: skip
            seconds, actions = [0.0, 0.0], [0, 0]
            for index in range(games):
                for k, engine in enumerate(engines):
                    spent, done = play(engine, players, index)
                    seconds[k] += spent
                    actions[k] += done
            ratio = seconds[0] / seconds[1]
            row = {"game": game, "players": players, "games": games, "python_games_per_second": games / seconds[0],
                   "described_games_per_second": games / seconds[1], "ratio": round(ratio, 3),
                   "same_actions": actions[0] == actions[1]}  # fmt: skip
            rows.append(row)
            print(f"{game}, {players} players, {games} games: Python {row['python_games_per_second']:.1f} games/s, "
                  f"described {row['described_games_per_second']:.1f} games/s, ratio {ratio:.2f}")  # fmt: skip
    slowest = min(row["ratio"] for row in rows)
    print(f"slowest ratio {slowest:.2f} (the aim: at least 0.5)")
    figures.write(args.json, "described_speed", {"slowest_ratio": slowest, "runs": rows})


if __name__ == "__main__":
    main()
