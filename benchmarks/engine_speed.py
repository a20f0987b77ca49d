"""Benchmark: reference-engine speed per game with random agents on one process, against OpenSpiel's gin rummy.

Each game is played by the runner's own loop (`runner.play_game`: what `cardgen play` and `cardgen balance` run,
with their bookkeeping, under the collector thresholds the `cardgen` program sets, `cli.COLLECTOR_THRESHOLDS`),
random agents at every seat. Printed per game and player count, all from one run: games a
second, player actions a second, steps a second counting chance events too (shuffles, draws and rolls — what
OpenSpiel counts as chance-node actions; chance events per action counted on the first three games), and clones a
second of the states a game passes through (every decision of a seeded game, cloned in turn: what a search agent
does thousands of times a decision).

    python benchmarks/engine_speed.py               # about a minute of games per engine
    python benchmarks/engine_speed.py --scale 0.2   # a quicker look
    CARDGEN_PURE_PYTHON=1 python benchmarks/engine_speed.py   # the engines as pure Python (`cardgen.native`)

If OpenSpiel is installed (`pip install open_spiel`; not a cardgen dependency), the same run plays random games of
its C++ gin rummy from a Python loop of the same shape — ask the legal actions, pick one uniformly with the same
expression as cardgen's random agent, apply it; chance nodes sampled by their probabilities in the same loop —
interleaved with cardgen's games (three slices each, so a change in the machine's load falls on both), and prints
each game's player actions a second as a multiple of gin rummy's: the figure to compare between machines.
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path
from typing import Any

import figures  # benchmarks/figures.py, beside this script

from cardgen import native
from cardgen.cli import COLLECTOR_THRESHOLDS
from cardgen.engine.core import State
from cardgen.engine.runner import PlaySpec, engine_for, play_game

DATA = str(Path(__file__).resolve().parent.parent / "card_data")
# (game, players, games per slice at --scale 1): each about 2-4 s a slice on the development machine
RUNS = [
    ("battlefield-space", 2, 600),
    ("scifi-domains", 2, 300),
    ("scifi-domains", 4, 150),
    ("star-commander", 2, 12),
    ("star-commander", 4, 5),
    ("space-empires-4x", 2, 16),
    ("space-empires-4x", 4, 8),
    ("rift-domination", 2, 20),
    ("rift-domination", 4, 8),
]
TARGETS = {"battlefield-space": 3.0}  # player actions a second against gin rummy's (issue 42); 1x for the others
CLONE_TARGET = 100_000


def measure(game: str, players: int, first: int, games: int, chance_per_action: float) -> dict[str, float]:
    """Games `first`…`first + games - 1` of root seed 1, played by the runner's loop."""
    spec = PlaySpec(game, DATA, players, 1, ("random",))
    engine_for(game, DATA)  # built once per process, before the clock starts
    actions = 0
    start = time.perf_counter()
    for index in range(first, first + games):
        actions += play_game(spec, index).actions
    seconds = time.perf_counter() - start
    steps = actions * (1 + chance_per_action)
    return {"games/s": games / seconds, "actions/s": actions / seconds, "steps/s": steps / seconds}


def chance_per_action(game: str, players: int, games: int) -> float:
    """Chance events per player action over the first games (logged, so counted; outside the timed runs)."""
    spec = PlaySpec(game, DATA, players, 1, ("random",), log=True)
    actions = chance = 0
    for index in range(games):
        result = play_game(spec, index)
        actions += result.actions
        chance += sum(len(line.get("chance", ())) for line in result.log or [])
    return chance / max(1, actions)


def states_of_a_game(game: str, players: int, seed: int = 1) -> list[State]:
    """Every decision state of one seeded random game (copies kept as the game goes on)."""
    from cardgen.engine.agents import RandomAgent

    engine = engine_for(game, DATA)
    state = engine.new_state(players, seed)
    state.resolve_chance()
    agents = [RandomAgent(engine, seat, seed) for seat in range(players)]
    kept = []
    while not state.is_terminal():
        legal = state.legal_actions()
        kept.append(state.clone())
        state.do(agents[state.current_player()].choose(state, legal))
    return kept


def clones_per_second(states: list[State], minimum: int) -> float:
    """Clones of the states of a game, each in turn, at least `minimum` in all."""
    rounds = max(1, -(-minimum // len(states)))
    start = time.perf_counter()
    for _ in range(rounds):
        for state in states:
            state.clone()
    return rounds * len(states) / (time.perf_counter() - start)


def openspiel_gin_rummy(seconds: float) -> dict[str, float] | None:
    """Random playouts of OpenSpiel's gin rummy, the runner loop's shape (chance outcomes applied as actions, as
    OpenSpiel does, and counted apart)."""
    try:
        import pyspiel
    except ImportError:
        return None
    import random

    game, rng = pyspiel.load_game("gin_rummy"), random.Random(1)
    actions = chance = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample(state.chance_outcomes(), rng.random()))
                chance += 1
            else:
                state.current_player()
                legal = state.legal_actions()
                state.apply_action(legal[0] if len(legal) == 1 else legal[int(rng.random() * len(legal))])
                actions += 1
        state.returns()
        games += 1
    elapsed = time.perf_counter() - start
    return {"games/s": games / elapsed, "actions/s": actions / elapsed, "steps/s": (actions + chance) / elapsed}


def _sample(outcomes: list[tuple[int, float]], point: float) -> int:
    """An outcome drawn by its probability, as cardgen's chance nodes are (`core.sample`)."""
    for outcome, probability in outcomes:
        point -= probability
        if point < 0:
            return outcome
    return outcomes[-1][0]


SLICES = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument("--min-games", type=int, default=2, help="the fewest games of each run in each slice")
    parser.add_argument("--only", default=None, help="games to measure, comma-separated (default: every game)")
    parser.add_argument("--clones", type=int, default=50_000, help="clones timed per game and player count")
    figures.add_option(parser)
    args = parser.parse_args()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)  # as the `cardgen` program runs its commands (`cli.run`)
    runs = [r for r in RUNS if args.only is None or r[0] in args.only.split(",")]
    slices: dict[tuple[str, int], list[dict[str, float]]] = {(game, players): [] for game, players, _ in runs}
    gin_slices: list[dict[str, float]] = []
    ratios = {(game, players): chance_per_action(game, players, max(1, min(games, 3))) for game, players, games in runs}
    clones = max(200, int(args.clones * min(args.scale, 1.0)))
    for index in range(SLICES):  # interleaved: each game and gin rummy take turns, so load changes hit all of them
        for game, players, games in runs:
            count = max(args.min_games, int(games * args.scale))
            row = measure(game, players, index * count, count, ratios[(game, players)])
            # the states cloned are made here and dropped after: held through the run (every game's, about half a
            # million objects), each full collection of the games played after them went through them all
            row["clones/s"] = clones_per_second(states_of_a_game(game, players), clones // SLICES)
            slices[(game, players)].append(row)
        if not args.no_openspiel:
            gin = openspiel_gin_rummy(3.0 * min(args.scale, 1.0))
            if gin is not None:
                gin_slices.append(gin)
    results = {key: _mean(rows) for key, rows in slices.items()}
    report: dict[str, Any] = {"engines": dict(native.STATE)}
    # the engines' hot modules run compiled when the install compiled them (`cardgen.native`); CARDGEN_PURE_PYTHON=1
    # measures the pure-Python engines a machine without a C compiler gets
    print(f"engines: {'compiled' if native.STATE['compiled'] else 'pure Python'} ({native.STATE['why']})")
    for (game, players), r in results.items():
        print(
            f"{game:>18} ({players}p): {r['games/s']:8,.1f} games/s  {r['actions/s']:9,.0f} actions/s  "
            f"{r['steps/s']:9,.0f} steps/s with chance events  {r['clones/s']:9,.0f} clones/s "
            f"({'at' if r['clones/s'] >= CLONE_TARGET else 'below'} the {CLONE_TARGET:,} target)"
        )
        report[f"{game} {players}p"] = r
    if gin_slices:
        gin = _mean(gin_slices)
        print(
            f"{'OpenSpiel gin_rummy':>18} (2p): {gin['games/s']:8,.1f} games/s  "
            f"{gin['actions/s']:9,.0f} actions/s  {gin['steps/s']:9,.0f} steps/s with chance actions"
        )
        report["openspiel gin_rummy"] = gin
        for (game, players), r in results.items():
            ratio = r["actions/s"] / gin["actions/s"]
            target = TARGETS.get(game, 1.0)
            report[f"{game} {players}p"]["x gin rummy actions/s"] = ratio
            verdict = "meets" if ratio >= target else "misses"
            print(f"{game} ({players}p) runs at {ratio:.2f}x gin rummy's player actions/s ({verdict} {target:g}x)")
    else:
        print("no same-run comparison with OpenSpiel (not installed, or --no-openspiel)")
    figures.write(args.json, "engine_speed", report)


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: sum(row[key] for row in rows) / len(rows) for key in rows[0]}


if __name__ == "__main__":
    main()
