"""Benchmark: how well the agents play each bundled game, from one run.

For every game and player count, greedy plays greedy and the share of games that end by the rules (not at the turn
cap) is counted. At two players the search agent at its default budget (`mcts`: each engine's
`search_iterations`) plays greedy, the seats alternating game by game: its win share with a 95 % Wilson interval,
the processor seconds it takes a decision (choices among two or more actions), and the games an hour two cores play
(two games side by side, each taking the processor seconds measured). `--random-games` also plays it against random.
Prints a Markdown table (docs/guide/agents.md's engine table is this output) and, with `--json`, the figures.

    python benchmarks/agent_strength.py --jobs 2                     # the table: 20 and 32 games a row
    python benchmarks/agent_strength.py --only scifi-domains --search-games 64
    python benchmarks/agent_strength.py --jobs 2 --search-games scifi-domains=64   # 64 for Scifi Domains, 32 the rest
    python benchmarks/agent_strength.py --smoke                      # a tiny job: Battlefield, two games a row
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import figures  # benchmarks/figures.py, beside this script

from cardgen.engine.agents import make_agent
from cardgen.engine.core import ADJUDICATED
from cardgen.engine.runner import GameResult, PlaySpec, engine_for, play_many
from cardgen.engine.tally import wilson

DATA = str(Path(__file__).resolve().parent.parent / "card_data")
GAMES = ("battlefield-space", "scifi-domains", "star-commander", "space-empires-4x", "rift-domination")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=GAMES, help="a game to measure (repeat for more)")
    parser.add_argument("--ending-games", type=int, default=20, help="greedy-vs-greedy games per player count")
    parser.add_argument(
        "--search-games",
        action="append",
        type=search_games,
        default=[],
        help="search-vs-greedy games (two players; 0: none), or GAME=N for one game (default 32)",
    )
    parser.add_argument("--random-games", type=int, default=0, help="search-vs-random games (two players)")
    parser.add_argument("--agent", default="mcts", help="the search agent (default: mcts at each game's budget)")
    parser.add_argument("--players", default=None, help="player counts for the endings, e.g. 2 or 2,3 (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a tiny job: Battlefield: Space, two games a row")
    figures.add_option(parser)
    args = parser.parse_args()
    if args.smoke:
        args.only, args.ending_games, args.search_games, args.random_games = ["battlefield-space"], 2, [(None, 2)], 2
        args.agent = "mcts:5"
    figures.compiled()
    rows = [measure(game, args) for game in args.only or GAMES]
    print()
    print(table(rows))
    figures.write(args.json, "agent_strength", {"agent": args.agent, "seed": args.seed, "games": rows})


def search_games(text: str) -> tuple[str | None, int]:
    """`--search-games N` (every game) or `GAME=N` (that game; a later one wins)."""
    game, _, count = text.rpartition("=")
    if game and game not in GAMES:
        raise argparse.ArgumentTypeError(f"no bundled game {game!r}")
    return game or None, int(count)


def measure(game: str, args: argparse.Namespace) -> dict[str, Any]:
    """One game's figures: its endings at every player count, its search agent against greedy (and random)."""
    engine = engine_for(game, DATA)
    counts = (
        [int(n) for n in args.players.split(",")] if args.players else range(engine.min_players, engine.max_players + 1)
    )
    endings = []
    for players in counts:
        if players < 2:
            continue  # solitaire has no opponent; it plays to its designed end
        results, seconds = play(game, players, ("greedy",), args.ending_games, args)
        ended = sum(r.ending != ADJUDICATED and r.winners != [] for r in results)
        endings.append({"players": players, "games": len(results), "ended_by_rules": ended,
                        "rate": round(ended / len(results), 4), "mean_turns": mean([r.turns for r in results]),
                        "cpu_per_game": mean([r.seconds for r in results]),
                        "thinking_per_seat": mean([sum(r.thinking) / players for r in results]),
                        "wall_seconds": round(seconds, 1)})  # fmt: skip
        print(f"{game}, {players} players: greedy v greedy ended by the rules in {ended} of {len(results)}", flush=True)
    budget = getattr(make_agent(args.agent, engine, 0, 0), "iterations", None)
    figures_: dict[str, Any] = {"game": game, "endings": endings, "agent": args.agent, "iterations": budget}
    asked = dict(args.search_games)  # GAME (or None: every game) -> games
    games = asked.get(game, asked.get(None, 32))
    if not games:  # the endings alone
        return figures_
    search = duel(game, args.agent, "greedy", games, args)
    figures_["against_greedy"] = search
    if args.random_games:
        figures_["against_random"] = duel(game, args.agent, "random", args.random_games, args)
    figures_["game_seconds"] = game_seconds(game, endings, search, args)
    print(f"{game}: game_seconds = {figures_['game_seconds']}", flush=True)
    return figures_


def game_seconds(game: str, endings: list[dict[str, Any]], search: dict[str, Any], args: argparse.Namespace
                 ) -> dict[str, float]:  # fmt: skip
    """Processor seconds of one game at the fewest players (two for a solitaire game) with every seat the same agent
    (`GameEngine.game_seconds`, what `cardgen balance --agents auto` estimates from): random and greedy timed as
    such, the search agent as a greedy game plus each seat's extra thinking over greedy's."""
    results, _ = play(game, 2, ("random",), max(4, args.ending_games // 4), args)
    random_game = mean([r.seconds for r in results])
    greedy = next((e for e in endings if e["players"] == 2), None)
    greedy_game = greedy["cpu_per_game"] if greedy else 0.0
    greedy_thinking = greedy["thinking_per_seat"] if greedy else 0.0
    extra = max(0.0, search["thinking_per_game"] - greedy_thinking)
    return {"random": round(random_game, 3), "greedy": round(greedy_game, 2), "mcts": round(greedy_game + 2 * extra, 1)}


def play(game: str, players: int, agents: tuple[str, ...], games: int, args: argparse.Namespace
         ) -> tuple[list[GameResult], float]:  # fmt: skip
    spec = PlaySpec(game, DATA, players, args.seed, agents, rotate=True)
    started = time.perf_counter()
    results = play_many(spec, games, jobs=args.jobs, batch=1)
    return results, time.perf_counter() - started


def duel(game: str, agent: str, other: str, games: int, args: argparse.Namespace) -> dict[str, Any]:
    """`agent` against `other` at two players, taking the seats in turn: its wins (a shared win counting half), the
    interval, and the processor time it took."""
    results, seconds = play(game, 2, (agent, other), games, args)
    wins = think = 0.0
    choices = 0
    cpu = []
    for r in results:
        seat = r.agents.index(agent)
        wins += 1 / len(r.winners) if seat in r.winners else 0.0
        think += r.thinking[seat]
        choices += r.choices[seat]
        cpu.append(r.seconds)
    low, high = wilson(wins / len(results), len(results))
    per_game = mean(cpu)
    row = {"against": other, "games": len(results), "wins": wins, "share": round(wins / len(results), 4),
           "low": round(low, 4), "high": round(high, 4),
           "ended_by_rules": sum(r.ending != ADJUDICATED and r.winners != [] for r in results),
           "seconds_per_decision": round(think / choices, 4) if choices else 0.0,
           "decisions_per_game": round(choices / len(results), 1), "seconds_per_game": round(per_game, 1),
           "thinking_per_game": round(think / len(results), 2),
           "games_per_hour_two_cores": round(2 * 3600 / per_game, 1) if per_game else 0.0,
           "wall_seconds": round(seconds, 1)}  # fmt: skip
    print(f"{game}: {agent} v {other} won {wins:g} of {len(results)} ({low:.0%}–{high:.0%}), "
          f"{row['seconds_per_decision']:.3f} s a decision", flush=True)  # fmt: skip
    return row


def mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def table(rows: list[dict[str, Any]]) -> str:
    """The engine table: a line per game and player count."""
    lines = [
        "| game | players | greedy v greedy: ended by the rules | search v greedy: wins / games (95 % interval) "
        "| search budget | seconds a decision | games an hour, two cores |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        duel_: dict[str, Any] = row.get("against_greedy") or {}
        for ending in row["endings"]:
            searched = ending["players"] == 2 and bool(duel_)
            cells = [
                f"{ending['ended_by_rules']} / {ending['games']} ({ending['rate']:.0%})",
                f"{duel_['wins']:g} / {duel_['games']} ({duel_['low']:.0%}–{duel_['high']:.0%})" if searched else "",
                f"{row['agent']} ({row['iterations']} iterations)" if searched else "",
                f"{duel_['seconds_per_decision']:.3f}" if searched else "",
                f"{duel_['games_per_hour_two_cores']:g}" if searched else "",
            ]
            lines.append(f"| {row['game']} | {ending['players']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
