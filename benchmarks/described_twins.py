"""Benchmark: the twins — Battlefield: Space and Scifi Domains described as data — play the same games as the Python
engines, action by action (issue 41).

For every player count of each game, the same seeded games with the same agents (random against random: the greedy
agent of a described game weighs its rules file's `evaluate:`, not the Python engine's view, so greedy games differ by
design) are played through the bundled Python engine and through its rules file (tests/fixtures/described/
GAME.engine.yaml beside a copy of the bundled cards), and the two logs are compared line by line: the player, the
action's place among the legal actions, its label, every chance event with its cards named by item id, and the
ending and scores. The twin plays with `--check` (every invariant after every action). It prints the games compared,
the games that differ (with the first difference) and the invariant violations.

    python benchmarks/described_twins.py                 # 1,000 games per player count of each twin
    python benchmarks/described_twins.py --games 50 --only scifi-domains
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--only", choices=described.TWINS, default=None)
    parser.add_argument("--seed", type=int, default=1)
    figures.add_option(parser)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for game in [args.only] if args.only else described.TWINS:
            data = described.twin_data(game, Path(folder) / game)
            engine = described.engine_for(game, str(data))
            for players in range(engine.min_players, engine.max_players + 1):
                start = time.perf_counter()
                played, differences, violations = described.compare(game, data, players, args.games, seed=args.seed)
                row = {"game": game, "players": players, "agents": "random, random", "games": played,
                       "identical": played - len(differences), "violations": len(violations),
                       "seconds": round(time.perf_counter() - start, 1),
                       "first_difference": repr(differences[0])[:400] if differences else None}  # fmt: skip
                rows.append(row)
                print(f"{game}, {players} players, random v random: {row['identical']} of {played} games identical "
                      f"action by action, {row['violations']} invariant violations ({row['seconds']} s)")  # fmt: skip
                if differences:
                    print(f"  first difference: {row['first_difference']}")
    figures.write(args.json, "described_twins", {"seed": args.seed, "runs": rows})
    if any(r["identical"] != r["games"] or r["violations"] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
