"""Benchmark: `cardgen build --jobs N` against `--jobs 1`, as whole processes (start-up included), interleaved.

Builds the bundled games (or the ones named) into temporary folders, alternating one-process and N-process runs
`--runs` times, and prints the best time of each and their ratio (issue 23's target: all five games at least 1.7×
faster on two cores). It also checks that both wrote the same bytes.

    python benchmarks/parallel_speed.py                  # all bundled games, jobs = cores, 3 runs each
    python benchmarks/parallel_speed.py --games battlefield-space scifi-domains --runs 1
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

CARDGEN = [sys.executable, "-m", "cardgen"]


def build(folders: list[str], games: list[str], jobs: int, out: Path) -> float:
    start = time.perf_counter()
    # --no-cache: each run draws every file (the folders are built into again and again)
    command = [*CARDGEN, *folders, "build", *games, "-q", "--jobs", str(jobs), "--out", str(out), "--no-cache"]
    subprocess.run(command, check=True)
    return time.perf_counter() - start


def contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=[], help="games to build (default: every bundled game)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the parallel runs")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, interleaved")
    parser.add_argument("--data-dir", help="the games' data folder (default: the bundled games)")
    parser.add_argument("--templates-dir", help="their layouts (default: the bundled layouts)")
    figures.add_option(parser)
    args = parser.parse_args()
    figures.compiled()  # as an installed cardgen runs
    folders = [*(["--data-dir", args.data_dir] if args.data_dir else [])]
    folders += ["--templates-dir", args.templates_dir] if args.templates_dir else []
    serial, parallel = [], []
    with tempfile.TemporaryDirectory() as temp:
        one, many = Path(temp) / "one", Path(temp) / "many"
        for _ in range(args.runs):
            serial.append(build(folders, args.games, 1, one))
            parallel.append(build(folders, args.games, args.jobs, many))
        same = contents(one) == contents(many)
    best_serial, best_parallel = min(serial), min(parallel)
    ratio = best_serial / best_parallel
    print(f"--jobs 1: {best_serial:.2f} s   --jobs {args.jobs}: {best_parallel:.2f} s   speed-up {ratio:.2f}x "
          f"(best of {args.runs}; {'identical' if same else 'DIFFERENT'} files)")  # fmt: skip
    report = {"games": args.games or "all", "jobs": args.jobs, "serial_s": best_serial, "parallel_s": best_parallel}
    figures.write(args.json, "parallel_speed", {**report, "speedup": ratio, "identical": same})
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
