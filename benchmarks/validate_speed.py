"""Benchmark: `cardgen validate` as a designer runs it — the first time, again unchanged, and after one card changed.

Nearly all of a bundled game's validation is `text-contrast`, which draws every distinct face twice in each ink and
renders it. Each face's figures are remembered in the user's cache (`render/contrast.Remembered`), so a validation
after a change measures the faces that changed. For each game this runs three whole processes (start-up and imports
included, as a user feels them) with a cache folder of their own, emptied before the first:

- first: an empty cache (what a fresh machine pays);
- again: nothing changed (every face remembered);
- one card changed: a copy of the game in which the first text field of one item with a text field reads otherwise.

Each prints wall time, CPU time (`os.wait4`) and peak memory, and checks that the first and second reports are the
same (a remembered figure is the measured one).

    python benchmarks/validate_speed.py                          # every bundled game
    python benchmarks/validate_speed.py --games rift-domination
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import figures  # benchmarks/figures.py, beside this script

REPO = Path(__file__).resolve().parent.parent
GAMES = ["battlefield-space", "scifi-domains", "star-commander", "space-empires-4x", "rift-domination"]


def validate(data: Path, templates: Path, game: str, cache: Path) -> dict[str, Any]:
    """One `cardgen validate GAME --json` process: its seconds, CPU seconds, peak MB and report (timings removed)."""
    command = [sys.executable, "-m", "cardgen", "--data-dir", str(data), "--templates-dir", str(templates)]
    command += ["validate", game, "--json"]
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        printed = out.read().decode()
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: a rule broken (the changed card may break one)
        sys.exit(f"{' '.join(command)} failed")
    report = re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0', printed)
    return {"seconds": round(seconds, 2), "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
            "peak_mb": round(usage.ru_maxrss / 1024), "report": report}  # fmt: skip


def one_card_changed(data: Path, game: str, into: Path) -> Path:
    """A copy of the game's folder in which one card's text (its first text field of eight characters or more, found
    as a field's value in its file) reads otherwise: the data folder holding it."""
    from cardgen.data import load_games

    shutil.copytree(data / game, into / game)
    (loaded,) = load_games(data, [game])
    for component in loaded.components:
        if component.file is None:
            continue
        path = into / game / Path(component.file).resolve().relative_to((data / game).resolve())  # the copy's
        text = path.read_text(encoding="utf-8")
        for item in component.items:
            for value in item.fields.values():
                if not isinstance(value, str) or len(value) < 8 or " " not in value:
                    continue
                for written in (f': "{value}', f": {value}"):  # the field's value, not a comment or a title
                    at = text.find(written)
                    if at >= 0:
                        at += len(written) - len(value)
                        path.write_text(text[:at] + "Changed " + text[at:], encoding="utf-8")
                        return into
    sys.exit(f"{game}: no card text to change")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="games to validate, comma-separated")
    parser.add_argument("--data-dir", type=Path, default=REPO / "card_data")
    parser.add_argument("--templates-dir", type=Path, default=REPO / "templates")
    figures.add_option(parser)
    args = parser.parse_args()
    figures.compiled()
    rows: dict[str, Any] = {}
    print(f"{'game':>20}  {'first':>22}  {'again':>22}  {'one card changed':>22}")
    for game in args.games.split(","):
        with tempfile.TemporaryDirectory() as scratch:
            cache, copy = Path(scratch) / "cache", Path(scratch) / "data"
            first = validate(args.data_dir, args.templates_dir, game, cache)
            again = validate(args.data_dir, args.templates_dir, game, cache)
            changed = validate(one_card_changed(args.data_dir, game, copy), args.templates_dir, game, cache)
        same = first["report"] == again["report"]
        row: dict[str, Any] = {"same_report": same}
        for name, run in (("first", first), ("again", again), ("changed", changed)):
            row[name] = {key: value for key, value in run.items() if key != "report"}
        rows[game] = row
        cells = [f"{run['seconds']:6.2f} s cpu {run['cpu_seconds']:6.2f} s" for run in (first, again, changed)]
        print(f"{game:>20}  " + "  ".join(f"{cell:>22}" for cell in cells) + ("" if same else "  REPORTS DIFFER"))
        if not same:
            sys.exit(f"{game}: the remembered report differs from the measured one")
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    figures.write(args.json, "validate_speed", {"games": rows, "load_average": load[0]})


if __name__ == "__main__":
    main()
