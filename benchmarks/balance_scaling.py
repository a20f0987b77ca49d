"""Benchmark: balance sweeps on one process, two local processes and a two-worker Dask `LocalCluster`.

For each bundled engine it plays the same seeded sweep (two players, random agents) through `cardgen balance`'s
sweep code on each executor, after a warm-up that builds the engine in every worker, and prints games per second
and the scaling efficiency (rate on two workers ÷ twice the rate on one; issue 24's target: ≥ 0.8 for Battlefield:
Space on two cores). It then measures the cost of one batch that plays no game (the round trip through the
executor) and of keeping one batch in the results file, and projects the wall time of a 10⁶-game Battlefield: Space
sweep on 2 cores and on a 64-core cluster:

    time(W workers) = max((N / r + B · o) / W,  B · (o + k))

with N games in B batches, r the measured games per second of one worker, o the measured per-batch overhead and
k the client's time to keep one batch (the client and the scheduler handle batches one at a time). The machine
these figures come from is shared: compare the ratios of one run.

    python benchmarks/balance_scaling.py                       # every engine, default game counts
    python benchmarks/balance_scaling.py --only battlefield-space --games 400 --batch 20
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

from cardgen.balance.journal import open_journal
from cardgen.balance.sweep import Sweep, data_fingerprint, play_batch, run_sweep
from cardgen.engine.executors import Workers, open_workers
from cardgen.engine.runner import PlaySpec, play_game
from cardgen.engine.tally import Tally
from cardgen.paths import default_data_dir

# games per measured sweep relative to --games: long games get fewer
ENGINES = {"battlefield-space": 1.0, "scifi-domains": 2.0, "star-commander": 0.1, "space-empires-4x": 0.05}
SWEEP_GAMES, CLUSTER_CORES = 1_000_000, 64


def sweep_rate(sweep: Sweep, workers: Workers, folder: Path) -> float:
    """Games per second of one sweep on `workers`, its results kept in a results file as `cardgen balance` does."""
    identity = sweep.identity(data_fingerprint(sweep.spec.game_id, sweep.spec.data_dir))
    journal, kept = open_journal(folder / f"{time.perf_counter_ns()}.jsonl", identity, resume=False)
    start = time.perf_counter()
    run_sweep(sweep, workers, journal, kept)
    seconds = time.perf_counter() - start
    journal.close()
    return sweep.games / seconds


def warm_up(sweep: Sweep, workers: Workers, folder: Path) -> None:
    """Build the engine in every worker first: a sweep's steady state, not its start-up, is what scales."""
    small = Sweep(sweep.spec, 2 * workers.slots, 1, sweep.groups)
    sweep_rate(small, workers, folder)


def batch_overhead(spec: PlaySpec, workers: Workers, batches: int) -> float:
    """Seconds per batch that plays no game: the executor's round trip (submit, run, result back)."""
    assert workers.executor is not None
    start = time.perf_counter()
    for future in [workers.executor.submit(play_batch, spec, range(0), {}) for _ in range(batches)]:
        future.result()
    return (time.perf_counter() - start) / batches


def keeping_cost(spec: PlaySpec, folder: Path, batches: int = 200) -> float:
    """Seconds to append (and sync) one batch's tally to a results file."""
    tally = Tally(spec.players)
    tally.add(play_game(spec, 0))
    journal, _ = open_journal(folder / "keep.jsonl", {"benchmark": True}, resume=False)
    start = time.perf_counter()
    for i in range(batches):
        journal.append(range(i, i + 1), tally)
    journal.close()
    return (time.perf_counter() - start) / batches


def measure(game: str, games: int, batch: int, cluster: bool, folder: Path) -> dict[str, float]:
    spec = PlaySpec(game, str(default_data_dir()), 2, 7, ("random",))
    sweep = Sweep(spec, max(4, round(games * ENGINES[game])), batch)
    kinds = ["local", "processes", *(["dask"] if cluster else [])]
    rates: dict[str, float] = {}
    for kind in kinds:
        with open_workers(kind, 1 if kind == "local" else 2) as workers:
            warm_up(sweep, workers, folder)
            rates[kind] = sweep_rate(sweep, workers, folder)
    row = {f"{kind}_games_per_s": rate for kind, rate in rates.items()}
    row |= {f"{kind}_efficiency": rate / (2 * rates["local"]) for kind, rate in rates.items() if kind != "local"}
    return row | {"games": sweep.games}


def projection(rate_per_worker: float, overhead: float, keeping: float, batch: int) -> dict[str, float]:
    batches = SWEEP_GAMES / batch
    work = SWEEP_GAMES / rate_per_worker + batches * overhead
    serial = batches * (overhead + keeping)
    return {f"hours_on_{w}": max(work / w, serial) / 3600 for w in (2, CLUSTER_CORES)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="Battlefield games per measured sweep (others scaled)")
    parser.add_argument("--batch", type=int, default=10, help="games per batch in the measured sweeps")
    parser.add_argument("--sweep-batch", type=int, default=200, help="games per batch in the projected 10⁶ sweep")
    parser.add_argument("--only", nargs="*", default=list(ENGINES), choices=list(ENGINES))
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask LocalCluster")
    figures.add_option(parser)
    args = parser.parse_args()
    logging.getLogger("distributed").setLevel(logging.ERROR)
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for game in args.only:
            rows[game] = measure(game, args.games, args.batch, not args.no_cluster, folder)
            row = rows[game]
            shown = "   ".join(f"{k.removesuffix('_games_per_s')} {v:7.1f} games/s" for k, v in row.items()
                               if k.endswith("_per_s"))  # fmt: skip
            effs = "   ".join(f"{k}: {v:.2f}" for k, v in row.items() if k.endswith("efficiency"))
            print(f"{game:<18} {row['games']:>5.0f} games   {shown}   {effs}")
        spec = PlaySpec(args.only[0], str(default_data_dir()), 2, 7, ("random",))
        kind = "processes" if args.no_cluster else "dask"
        with open_workers(kind, 2) as workers:
            batch_overhead(spec, workers, 20)  # warm the workers up
            overhead = batch_overhead(spec, workers, 200)
        keeping = keeping_cost(spec, folder)
    print(f"per batch: {overhead * 1000:.2f} ms round trip on {kind}, {keeping * 1000:.2f} ms to keep in the file")
    result: dict[str, object] = {"engines": rows, "batch_overhead_s": overhead, "keeping_s": keeping, "on": kind}
    if "battlefield-space" in rows:
        per_worker = rows["battlefield-space"][f"{kind}_games_per_s"] / 2
        projected = projection(per_worker, overhead, keeping, args.sweep_batch)
        hours, minutes = projected["hours_on_2"], projected[f"hours_on_{CLUSTER_CORES}"] * 60
        print(f"10⁶ Battlefield games in batches of {args.sweep_batch}: {hours:.1f} h on 2 cores, {minutes:.0f} min "
              f"on {CLUSTER_CORES} ({per_worker:.1f} games/s per worker)")  # fmt: skip
        result |= {"projection": projected, "per_worker_games_per_s": per_worker, "sweep_batch": args.sweep_batch}
    figures.write(args.json, "balance_scaling", result)


if __name__ == "__main__":
    sys.exit(main())
