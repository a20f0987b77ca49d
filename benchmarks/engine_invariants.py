"""Benchmark: thousands of seeded games with every invariant checked after every action, per player count.

The test suite plays hundreds of games per count (with a short turn cap); this plays the full game many times over,
the run an engine's closing note quotes ("10,000 games, zero violations"). It prints, per player count, the games,
actions, invariant violations, endings, the data problems `cardgen play` would report, and the time taken.

    python benchmarks/engine_invariants.py star-commander --games 3334 --jobs 2     # 10,002 games over 2–4 players
    python benchmarks/engine_invariants.py star-commander --games 10000 --players 2 --jobs 2
    python benchmarks/engine_invariants.py scifi-domains --games 1000 --agents random,greedy
    python benchmarks/engine_invariants.py star-merchants --data-dir tests/fixtures/described --games 3334
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

from cardgen.engine.runner import PlaySpec, engine_for, play_many, summarise

DATA = str(Path(__file__).resolve().parent.parent / "card_data")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--agents", default="random")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default=None, help="player counts, e.g. 2 or 2,4 (default: every count)")
    parser.add_argument("--data-dir", default=DATA, help="the data folder holding the game (default: card_data)")
    figures.add_option(parser)
    args = parser.parse_args()
    data = str(Path(args.data_dir).resolve())
    engine = engine_for(args.game, data)
    rows = []
    counts = range(engine.min_players, engine.max_players + 1)
    if args.players:
        counts = [int(n) for n in args.players.split(",")]
    for players in counts:
        spec = PlaySpec(args.game, data, players, args.seed, tuple(args.agents.split(",")), check=True)
        start = time.perf_counter()
        results = play_many(spec, args.games, jobs=args.jobs)
        seconds = time.perf_counter() - start
        summary = summarise(
            spec, results, seconds, engine.abilities(), engine.playable(), engine.data_problems(), engine.event_problems
        )
        row = {
            "players": players,
            "games": summary["games"],
            "actions": sum(r.actions for r in results),
            "invariant_violations": summary["invariant_violations"],
            "violation_examples": summary["violation_examples"],
            "endings": summary["endings"],
            "data_problems": summary["data_problems"],
            "seconds": round(seconds, 1),
        }
        rows.append(row)
        print(f"{players} players: {row['games']} games, {row['actions']:,} actions, "
              f"{row['invariant_violations']} violations, {row['seconds']} s, endings {row['endings']}")  # fmt: skip
        for problem in row["data_problems"]:
            print(f"  {problem}")
    total = sum(r["games"] for r in rows)
    print(f"total: {total} games, {sum(r['invariant_violations'] for r in rows)} invariant violations")
    figures.write(args.json, "engine_invariants", {"game": args.game, "agents": args.agents, "seed": args.seed,
                                                    "runs": rows})  # fmt: skip


if __name__ == "__main__":
    main()
