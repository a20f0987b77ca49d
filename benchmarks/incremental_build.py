"""Benchmark: incremental builds (cardgen/render/cache.py) — a clean build, a no-op rebuild, one card changed.

Copies the bundled games into a temporary folder and times three builds, each as a whole process (start-up and
imports included, as a user runs `cardgen build`) and in-process (after start-up: cardgen imported; the work a
watch loop does):

- clean: an empty output folder, so every file is drawn;
- no-op: the same build again, nothing changed (issue 21's target: at most 0.5 s of work after start-up for all five
  bundled games);
- one card: one card's name changed; only the file(s) that card is printed in are drawn again.

It also checks that each in-process one-card rebuild left exactly the bytes a clean build (`--no-cache`) of the
changed data writes, and prints the start-up of `cardgen --version` for scale. Machines here are shared: compare
figures from one run.

    python benchmarks/incremental_build.py                     # the five games, best of 3
    python benchmarks/incremental_build.py --games battlefield-space --runs 1
    python benchmarks/incremental_build.py --data-dir tests/fixtures/card_data \
        --templates-dir tests/fixtures/templates --games demo --runs 1 --no-whole      # the smoke run
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

REPO = Path(__file__).resolve().parent.parent
CARDGEN = [sys.executable, "-m", "cardgen"]
# one card per game whose name changes (file in the game's folder, old text, new text)
EDITS = {
    "scifi-domains": ("units.yaml", "name: Frigate\n", "name: Frigate Mk II\n"),
    "battlefield-space": ("red-deck.yaml", "name: Hive Drone\n", "name: Hive Drones\n"),
    "demo": ("ships.yaml", "name: Scout\n", "name: Scoutship\n"),  # tests/fixtures: the smoke run's small game
}


def edit(data: Path, game: str, undo: bool = False) -> None:
    file, old, new = EDITS[game]
    path = data / game / file
    text = path.read_text(encoding="utf-8")
    before, after = (new, old) if undo else (old, new)
    assert before in text, f"{path}: {before!r} not found"
    path.write_text(text.replace(before, after, 1), encoding="utf-8")


def whole(folders: list[str], games: list[str], out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([*CARDGEN, *folders, "build", *games, "-q", "--jobs", "1", "--out", str(out)], check=True)
    return time.perf_counter() - start


def in_process(folders: list[str], games: list[str], out: Path, *more: str) -> float:
    from cardgen.cli import cli

    start = time.perf_counter()
    cli.main([*folders, "build", *games, "-q", "--jobs", "1", "--out", str(out), *more], standalone_mode=False)
    return time.perf_counter() - start


def contents(folder: Path) -> dict[str, bytes]:
    every = sorted(folder.rglob("*"))
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in every if p.is_file() and ".cardgen-cache" not in p.parts
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=[], help="games to build (default: every bundled game)")
    parser.add_argument("--card-in", choices=sorted(EDITS), default=None, help="game whose card changes")
    parser.add_argument("--runs", type=int, default=3, help="runs of each (the best is kept)")
    parser.add_argument("--data-dir", type=Path, default=REPO / "card_data", help="the games (copied first)")
    parser.add_argument("--templates-dir", type=Path, default=REPO / "templates", help="their layouts")
    parser.add_argument("--no-whole", action="store_true", help="in-process figures only (the smoke run)")
    figures.add_option(parser)
    args = parser.parse_args()
    figures.compiled()  # as an installed cardgen runs
    changed = args.card_in or next((g for g in EDITS if not args.games or g in args.games), None)
    if changed is None or (args.games and changed not in args.games):
        parser.error(f"--games must include one of {', '.join(EDITS)} (the game whose card changes)")
    temp = Path(tempfile.mkdtemp(prefix="cardgen-incremental-"))
    data = temp / "card_data"
    shutil.copytree(args.data_dir, data)
    folders = ["--data-dir", str(data), "--templates-dir", str(args.templates_dir)]
    start = time.perf_counter()
    subprocess.run([*CARDGEN, "--version"], check=True, capture_output=True)
    startup = time.perf_counter() - start

    timings: dict[str, list[float]] = {name: [] for name in ("clean", "noop", "one_card")}
    for run in range(0 if args.no_whole else args.runs):
        out = temp / f"out-{run}"
        timings["clean"].append(whole(folders, args.games, out))
        timings["noop"].append(whole(folders, args.games, out))
        edit(data, changed)
        timings["one_card"].append(whole(folders, args.games, out))
        edit(data, changed, undo=True)

    import cardgen.render.build  # start-up: imported before the clock starts
    import cardgen.validate  # noqa: F401

    inside: dict[str, list[float]] = {name: [] for name in timings}
    same = True
    for run in range(args.runs):
        out = temp / f"in-{run}"
        inside["clean"].append(in_process(folders, args.games, out))
        inside["noop"].append(in_process(folders, args.games, out))
        edit(data, changed)
        inside["one_card"].append(in_process(folders, args.games, out))
        in_process(folders, args.games, temp / "clean", "--no-cache")  # the changed data, drawn from nothing
        same = same and contents(out / changed) == contents(temp / "clean" / changed)
        shutil.rmtree(temp / "clean")
        edit(data, changed, undo=True)
    shutil.rmtree(temp)

    best = {name: min(values) for name, values in timings.items() if values}
    best_inside = {name: min(values) for name, values in inside.items()}
    games = ", ".join(args.games) or "all bundled games"
    print(f"{games} (best of {args.runs}); `cardgen --version` starts in {startup:.2f} s")
    for name, label in (("clean", "clean build"), ("noop", "no-op rebuild"), ("one_card", f"one card ({changed})")):
        outside = f"whole process {best[name]:6.2f} s   " if best else ""
        print(f"  {label:<32} {outside}in-process {best_inside[name]:6.3f} s")
    print(f"  one-card rebuild {'byte-identical' if same else 'DIFFERENT'} to a clean build of the changed data")
    measured = {"in_process_s": best_inside, "startup_s": startup, "identical": same}
    if best:
        measured["whole_process_s"] = best
    figures.write(args.json, "incremental_build", {"games": args.games or "all", "runs": args.runs, **measured})
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
