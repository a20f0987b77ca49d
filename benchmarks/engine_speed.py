"""Benchmark: reference-engine speed per game with random agents on one process.

Prints, for each game with an engine, games/second, player actions/second, and steps/second counting chance events
too (shuffles, draws and rolls — what OpenSpiel counts as chance-node actions in its playouts), all measured in one
run. Compare the figures within a run; machines here are shared and noisy.

    python benchmarks/engine_speed.py               # 2,000 Battlefield games, 300 Scifi Domains games per count
    python benchmarks/engine_speed.py --scale 0.2   # a quicker look
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import derive_seed
from cardgen.engine.runner import engine_for

DATA = str(Path(__file__).resolve().parent.parent / "card_data")
RUNS = [("battlefield-space", 2, 2000), ("scifi-domains", 2, 300), ("scifi-domains", 4, 300)]


def measure(game: str, players: int, games: int) -> dict[str, float]:
    engine = engine_for(game, DATA)
    actions = chance = 0
    start = time.perf_counter()
    for index in range(games):
        seed = derive_seed(1, index)
        state = engine.new_state(players, seed)
        agents = [RandomAgent(engine, seat, seed) for seat in range(players)]
        while not state.is_terminal():
            legal = state.legal_actions()
            state._apply(agents[state.current_player()].choose(state, legal))
            actions += 1
        chance += len(state.chance.events)
    seconds = time.perf_counter() - start
    return {"games/s": games / seconds, "actions/s": actions / seconds, "steps/s": (actions + chance) / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    args = parser.parse_args()
    for game, players, games in RUNS:
        count = max(10, int(games * args.scale))
        r = measure(game, players, count)
        print(
            f"{game:>18} ({players}p, {count} games): {r['games/s']:8,.0f} games/s  {r['actions/s']:9,.0f} actions/s  "
            f"{r['steps/s']:9,.0f} steps/s with chance events"
        )


if __name__ == "__main__":
    main()
