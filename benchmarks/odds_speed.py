"""How long `cardgen odds` takes: the largest fleets the calculators accept, and a few typical battles.

    python benchmarks/odds_speed.py [--group-size N] [--skip-largest] [--quick] [--git-ref REF] [--no-whole]

Space Empires 4X's counter limits cap groups, not ships (rules.yaml `counter_limits`, `group_size`): a side at its
limits fields every combat counter — 5 SC, 4 DD, 4 CA, 4 BC, 4 BB, 2 DN, 4 SY, 2 Base, 4 R, 4 CV, 8 F, 3 SW, 48
groups — each of `--group-size` ships (6, the most a group holds: 288 ships and 456 hits a side). The largest
battles are that fleet against itself with no retreat, and with retreat an attacker without its Ship Yards and
Bases (which never move, so a side with them never retreats). Rift Domination's calculator takes at most 16 units a
side (`MAX_UNITS`): a mixed 16 against 16; 16 Flagships against 16 with no retreat (5 shields and 5 LP each, two
dice at every range: 25,920 states, every pair of the two sides' damage taken); and its largest chains, where a
side's state is more than its damage taken: Repair Tenders (repairs used) and Strike Drones (kamikaze strikes back)
beside Flagships, 81,466 and 102,196 states. Each battle runs once as a whole
process (`cardgen odds … --json`: start-up, loading the game and printing included) and once in-process (the calculator
alone, the game already loaded: wall and CPU time; on a machine shared with other work the CPU time compares), in a
child process either way, so `--git-ref` can time another commit's code (`git archive REF`) on the same battles: the
solver of 11a62e9 takes about an hour for the largest battle, so give it `--group-size 1` (the 48-ship fleets the
issue measured) or `--skip-largest`.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

REPO = Path(__file__).resolve().parent.parent
COUNTERS = {"SC": 5, "DD": 4, "CA": 4, "BC": 4, "BB": 4, "DN": 2, "SY": 4, "Base": 2, "R": 4, "CV": 4, "F": 8, "SW": 3}
IMMOBILE = ("SY", "Base")


def fleet(size: int, mobile_only: bool = False) -> str:
    """Every combat counter of one player (rules.yaml's counter limits), each a group of `size` ships."""
    return ", ".join(f"{size} {code}" for code, n in COUNTERS.items() for _ in range(n)
                     if not (mobile_only and code in IMMOBILE))  # fmt: skip


def battles(size: int, skip_largest: bool, quick: bool) -> list[tuple[str, str, str, str, list[str]]]:
    """(name, game, attacker, defender, extra options)."""
    if quick:
        return [("README example", "space-empires-4x", "2 DD, 1 CA", "1 BB", []),
                ("Rift: README example", "rift-domination", "1 fighter, 1 carrier", "1 carrier", [])]  # fmt: skip
    largest = [] if skip_largest else [
        (f"largest, no retreat ({size} a group)", "space-empires-4x", fleet(size), fleet(size), ["--no-retreat"]),
        (f"largest, retreat ({size} a group)", "space-empires-4x", fleet(size, mobile_only=True), fleet(size), []),
    ]  # fmt: skip
    return [
        *largest,
        ("48 ships a side, no retreat (issue 42)", "space-empires-4x", fleet(1), fleet(1), ["--no-retreat"]),
        ("seven groups a side", "space-empires-4x", "5 SC, 4 DD, 4 CA, 4 BC, 2 BB, 2 BB, 2 DN",
         "4 SY, 2 Base, 4 DD, 4 CA, 2 BB, 2 BB, 4 BC", []),
        ("README example", "space-empires-4x", "2 DD, 1 CA", "1 BB", []),
        ("Rift: 16 a side", "rift-domination", "4 flagship, 4 goliath, 4 destroyer, 4 carrier",
         "4 goliath, 4 flagship, 4 sentinel, 4 carrier", []),
        *([] if skip_largest else [
            ("Rift: 16 flagships a side, no retreat", "rift-domination", "16 flagship", "16 flagship",
             ["--no-retreat"]),
            ("Rift: tenders against flagships", "rift-domination", "4 tender, 12 flagship", "16 flagship",
             ["--no-retreat"]),
            ("Rift: drones and tenders (its largest)", "rift-domination", "8 drone, 4 tender, 4 flagship",
             "4 tender, 12 flagship", ["--no-retreat"]),
            ("Rift: drones and tenders, retreat", "rift-domination", "8 drone, 4 tender, 4 flagship",
             "4 tender, 12 flagship", []),
        ]),
        ("Rift: README example", "rift-domination", "1 fighter, 1 carrier", "1 carrier", []),
    ]  # fmt: skip


IN_PROCESS = """
import json, sys, time
from cardgen.data import load_games
from cardgen.paths import default_data_dir
game_id, attacker, defender, retreat = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
(game,) = load_games(default_data_dir(), [game_id])
if game_id == "space-empires-4x":
    from cardgen.engine.games.space_empires_4x.odds import odds
    try:  # the solver's own imports (numpy) belong to the whole process, not to the calculator's time
        import cardgen.engine.games.space_empires_4x.exact
    except ImportError:  # a commit before the array solver
        pass
else:
    from cardgen.engine.games.rift_domination.odds import odds
    try:
        import cardgen.engine.dice.pairs
    except ImportError:  # a commit before the table of side states
        pass
start, cpu = time.perf_counter(), time.process_time()
result = odds(game, attacker, defender, retreat=retreat)
print(json.dumps({"seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu,
                  "states": result.states, "outcomes": result.outcomes,
                  "solver": sys.modules[odds.__module__].__file__}))
"""


def code_of(ref: str | None) -> tuple[dict[str, str], Path]:
    """The environment and folder that run `ref`'s cardgen (its cardgen/ and card_data/ unpacked), or this tree's."""
    env = dict(os.environ)
    if ref is None:
        return env, REPO
    archive = subprocess.run(["git", "archive", ref, "cardgen", "card_data"], cwd=REPO, check=True,
                             capture_output=True).stdout  # fmt: skip
    root = Path(tempfile.mkdtemp(prefix="odds-ref-"))
    atexit.register(shutil.rmtree, root, True)
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    env["PYTHONPATH"] = str(root)
    return env, root  # run there: a child's first import path is its working folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group-size", type=int, default=6, help="ships in each group of the largest fleets")
    parser.add_argument("--skip-largest", action="store_true", help="only the 48-ship and typical battles")
    parser.add_argument("--quick", action="store_true", help="only the two README examples (the smoke test)")
    parser.add_argument("--git-ref", default=None, help="time this commit's calculator instead of the tree's")
    parser.add_argument("--no-whole", action="store_true", help="in-process only")
    figures.add_option(parser)
    args = parser.parse_args()
    if args.git_ref is None:
        figures.compiled()  # the bytecode an installed cardgen has
    env, folder = code_of(args.git_ref)
    measured = []
    for name, game, attacker, defender, extra in battles(args.group_size, args.skip_largest, args.quick):
        retreat = "--no-retreat" not in extra
        run = subprocess.run([sys.executable, "-c", IN_PROCESS, game, attacker, defender, "1" if retreat else "0"],
                             env=env, cwd=folder, check=True, capture_output=True, text=True)  # fmt: skip
        inside = json.loads(run.stdout)
        whole = whole_cpu = None
        if not args.no_whole:
            start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-m", "cardgen", "odds", game, "--attacker", attacker, "--defender",
                            defender, *extra, "--json"], env=env, cwd=folder, check=True,
                           capture_output=True)  # fmt: skip
            whole = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            whole_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        measured.append({"battle": name, "game": game, "whole_process_s": whole, "whole_process_cpu_s": whole_cpu,
                         "in_process_s": inside["seconds"],
                         "in_process_cpu_s": inside["cpu_seconds"], "states": inside["states"],
                         "outcomes": inside["outcomes"]})  # fmt: skip
        shown = "" if whole is None else f"whole process {whole:6.2f} s (CPU {whole_cpu:5.2f} s), "
        print(
            f"{name:<40} {shown}in-process {inside['seconds']:7.3f} s (CPU {inside['cpu_seconds']:7.3f} s), "
            f"{inside['states']:>9,} states"
        )
    figures.write(args.json, "odds_speed", {"git_ref": args.git_ref or "working tree",
                                            "battles": {m.pop("battle"): m for m in measured}})  # fmt: skip


if __name__ == "__main__":
    main()
