"""Benchmark: Rift Domination's 30 factions played many times — each faction's share of wins per player count.

Every game deals each seat a faction (with one repick), so over thousands of random-play games each faction sits at
every count hundreds of times. A faction whose share of wins lies outside the 95 % Wilson interval around an even
game's 1/players is marked (the flag `cardgen play` raises as a data problem). Prints a Markdown table (the README's
faction balance table is this output) and, with `--json`, the figures.

    python benchmarks/rift_factions.py --games 10000 --jobs 2            # the README's table: 10,000 per count
    python benchmarks/rift_factions.py --games 200 --players 4
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

from cardgen.engine.runner import PlaySpec, engine_for, play_many, wilson

DATA = str(Path(__file__).resolve().parent.parent / "card_data")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--agents", default="random")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4,5,6", help="player counts, e.g. 2 or 2,4")
    figures.add_option(parser)
    args = parser.parse_args()
    engine = engine_for("rift-domination", DATA)
    counts = [int(n) for n in args.players.split(",")]
    table: dict[str, dict[int, dict[str, float]]] = {f.item: {} for f in engine.factions}
    runs = []
    for players in counts:
        spec = PlaySpec("rift-domination", DATA, players, args.seed, tuple(args.agents.split(",")))
        started = time.perf_counter()
        results = play_many(spec, args.games, jobs=args.jobs)
        seconds = time.perf_counter() - started
        seen: Counter[str] = Counter()
        for r in results:
            seen.update(set(r.events))
        flagged = 0
        for f in engine.factions:
            played, won = seen[f"faction:{f.item}"], seen[f"won:{f.item}"]
            low, high = wilson(won / played, played) if played else (0.0, 1.0)
            outside = played > 0 and not low <= 1 / players <= high
            flagged += outside
            table[f.item][players] = {"games": played, "wins": won, "share": won / played if played else 0.0,
                                      "low": low, "high": high, "outside": outside}  # fmt: skip
        runs.append({"players": players, "games": len(results), "seconds": round(seconds, 1), "flagged": flagged})
        print(f"{players} players: {len(results)} games in {seconds:.0f} s, {flagged} factions outside the band")
    names = {f.item: f.name for f in engine.factions}
    print()
    print("| Faction | " + " | ".join(f"{n} players (even {100 / n:.0f} %)" for n in counts) + " |")
    print("|---|" + "---:|" * len(counts))
    for item, row in table.items():
        cells = [f"{100 * row[n]['share']:.0f} %{' ⚑' if row[n]['outside'] else ''}" for n in counts]
        print(f"| {names[item]} | " + " | ".join(cells) + " |")
    figures.write(args.json, "rift_factions", {"agents": args.agents, "games_per_count": args.games, "runs": runs,
                                               "factions": table})  # fmt: skip


if __name__ == "__main__":
    main()
