"""Benchmark: balance sweeps on one process, two local processes and a two-worker Dask `LocalCluster`.

For each bundled engine it plays the same seeded sweep (two players, random agents) through `cardgen balance`'s
sweep code on each executor, after a warm-up that builds the engine in every worker, and prints games per second
and the scaling efficiency (rate on two workers ÷ twice the rate on one; issue 24's target: ≥ 0.8 for Battlefield:
Space on two cores). On a shared machine two workers may not get two cores, so it also measures the CPU time of
this process and the workers together per game against one process's: the efficiency two dedicated cores would
give, overhead included (the figure that does not depend on what else the machine runs). It then measures the
cost of one batch that plays no game (the round trip through the executor) and of keeping one batch in the results
file, and projects the wall time of a 10⁶-game Battlefield: Space sweep on 2 cores and on a 64-core cluster:

    time(W workers) = max((N / r + B · o) / W,  B · (o + k))

with N games in B batches, r the measured games per second of one worker, o the measured per-batch overhead and
k the client's time to keep one batch (the client and the scheduler handle batches one at a time). The machine
these figures come from is shared: compare the ratios of one run.

    python benchmarks/balance_scaling.py                       # every engine, default game counts
    python benchmarks/balance_scaling.py --only battlefield-space --games 400 --batch 20
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import figures  # benchmarks/figures.py, beside this script

from cardgen.balance.journal import open_journal
from cardgen.balance.sweep import Sweep, data_fingerprint, play_batch, run_sweep
from cardgen.engine.executors import Workers, open_workers
from cardgen.engine.runner import PlaySpec, play_game
from cardgen.engine.tally import Tally
from cardgen.paths import default_data_dir

# games per measured sweep relative to --games: long games get fewer
ENGINES = {"battlefield-space": 1.0, "scifi-domains": 1.0, "star-commander": 0.03, "space-empires-4x": 0.016}
SWEEP_GAMES, CLUSTER_CORES = 1_000_000, 64


def worker_pids(workers: Workers) -> list[int]:
    """The processes that play the games besides this one (private attributes: a benchmark may look inside)."""
    executor: Any = workers.executor
    if executor is None:
        return []
    if hasattr(executor, "_processes"):  # ProcessPoolExecutor
        return list(executor._processes)
    return list(executor._client.run(os.getpid).values())  # Dask: the workers; the scheduler runs in this process


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) of this process and of `pids`, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime and stime, the 14th and 15th fields
    return total


def sweep_rate(sweep: Sweep, workers: Workers, folder: Path) -> tuple[float, float]:
    """Games per second of one sweep on `workers` (its results kept in a results file as `cardgen balance` does),
    and CPU seconds per game spent by this process and the workers together."""
    identity = sweep.identity(data_fingerprint(sweep.spec.game_id, sweep.spec.data_dir))
    journal, kept = open_journal(folder / f"{time.perf_counter_ns()}.jsonl", identity, resume=False)
    pids = worker_pids(workers)
    start, cpu = time.perf_counter(), cpu_seconds(pids)
    run_sweep(sweep, workers, journal, kept)
    seconds, cpu = time.perf_counter() - start, cpu_seconds(pids) - cpu
    journal.close()
    return sweep.games / seconds, cpu / sweep.games


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


def measure(
    game: str, games: int, batch: int | None, pools: dict[str, Workers], runs: int, folder: Path
) -> dict[str, float]:
    """Games per second on each executor, the best of `runs` rounds interleaved (the machine is shared: a round
    where another job took a core should not count); by default 16 batches, so two workers stay busy to the end."""
    spec = PlaySpec(game, str(default_data_dir()), 2, 7, ("random",))
    count = max(4, round(games * ENGINES[game]))
    sweep = Sweep(spec, count, batch or max(1, count // 16))
    rates: dict[str, float] = dict.fromkeys(pools, 0.0)
    cpu: dict[str, float] = dict.fromkeys(pools, float("inf"))  # CPU seconds per game, all processes together
    for workers in pools.values():
        warm_up(sweep, workers, folder)
    for _ in range(runs):
        for kind, workers in pools.items():
            rate, per_game = sweep_rate(sweep, workers, folder)
            rates[kind], cpu[kind] = max(rates[kind], rate), min(cpu[kind], per_game)
    row = {f"{kind}_games_per_s": rate for kind, rate in rates.items()}
    row |= {f"{kind}_cpu_ms_per_game": seconds * 1000 for kind, seconds in cpu.items()}
    for kind in (k for k in pools if k != "local"):
        row[f"{kind}_efficiency"] = rates[kind] / (2 * rates["local"])
        # the share of all CPU time spent playing: the efficiency two dedicated cores would give, overhead included
        row[f"{kind}_cpu_efficiency"] = cpu["local"] / cpu[kind]
    return row | {"games": sweep.games, "batch": sweep.batch}


def projection(rate_per_worker: float, overhead: float, keeping: float, batch: int) -> dict[str, float]:
    batches = SWEEP_GAMES / batch
    work = SWEEP_GAMES / rate_per_worker + batches * overhead
    serial = batches * (overhead + keeping)
    return {f"hours_on_{w}": max(work / w, serial) / 3600 for w in (2, CLUSTER_CORES)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="Battlefield games per measured sweep (others scaled)")
    parser.add_argument(
        "--batch", type=int, default=None, help="games per batch in the measured sweeps (default: 16 batches)"
    )
    parser.add_argument("--sweep-batch", type=int, default=200, help="games per batch in the projected 10⁶ sweep")
    parser.add_argument("--only", nargs="*", default=list(ENGINES), choices=list(ENGINES))
    parser.add_argument("--runs", type=int, default=3, help="interleaved rounds; the best of each executor counts")
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask LocalCluster")
    figures.add_option(parser)
    args = parser.parse_args()
    logging.getLogger("distributed").setLevel(logging.ERROR)
    rows: dict[str, dict[str, float]] = {}
    kinds = ["local", "processes", *([] if args.no_cluster else ["dask"])]
    with tempfile.TemporaryDirectory() as temp, contextlib.ExitStack() as stack:
        folder = Path(temp)
        pools = {kind: stack.enter_context(open_workers(kind, 1 if kind == "local" else 2)) for kind in kinds}
        for game in args.only:
            rows[game] = measure(game, args.games, args.batch, pools, args.runs, folder)
            row = rows[game]
            shown = "   ".join(f"{k.removesuffix('_games_per_s')} {v:7.1f} games/s" for k, v in row.items()
                               if k.endswith("_per_s"))  # fmt: skip
            effs = "   ".join(f"{k}: {v:.2f}" for k, v in row.items() if "efficiency" in k or "cpu" in k)
            print(f"{game:<18} {row['games']:>5.0f} games, {row['batch']:>3.0f} a batch   {shown}   {effs}", flush=True)
        spec = PlaySpec(args.only[0], str(default_data_dir()), 2, 7, ("random",))
        kind = kinds[-1]
        batch_overhead(spec, pools[kind], 20)  # warm the workers up
        overhead = min(batch_overhead(spec, pools[kind], 200) for _ in range(args.runs))
        keeping = min(keeping_cost(spec, folder) for _ in range(args.runs))
    print(f"per batch: {overhead * 1000:.2f} ms round trip on {kind}, {keeping * 1000:.2f} ms to keep in the file")
    result: dict[str, object] = {"engines": rows, "batch_overhead_s": overhead, "keeping_s": keeping, "on": kind}
    if "battlefield-space" in rows:
        row = rows["battlefield-space"]
        # a worker on a core of its own plays 1 / (CPU per game) games a second; on this shared machine, half the rate
        per_worker = {"dedicated": 1000 / row[f"{kind}_cpu_ms_per_game"], "shared": row[f"{kind}_games_per_s"] / 2}
        for case, rate in per_worker.items():
            projected = projection(rate, overhead, keeping, args.sweep_batch)
            hours, minutes = projected["hours_on_2"], projected[f"hours_on_{CLUSTER_CORES}"] * 60
            print(f"10⁶ Battlefield games in batches of {args.sweep_batch}, {rate:.0f} games/s a worker ({case} cores):"
                  f" {hours:.2f} h on 2 cores, {minutes:.1f} min on {CLUSTER_CORES}")  # fmt: skip
            result[f"projection_{case}"] = projected | {"games_per_s_per_worker": rate}
        result["sweep_batch"] = args.sweep_batch
    figures.write(args.json, "balance_scaling", result)


if __name__ == "__main__":
    sys.exit(main())
