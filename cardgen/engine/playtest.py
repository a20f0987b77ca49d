"""`cardgen play`: test games with a game's reference engine, a run per player count, and how they went.

A `PlayRequest` says what to play and where (this process, local processes or Dask workers: engine/executors.py);
`play` plays it, writing the log as games finish, and returns one summary per player count (the `cardgen play
--json` objects, `runner.summarise`); `summary_lines` is what the command prints of one of them.
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from cardgen.engine.core import GameEngine
    from cardgen.engine.runner import GameResult


@dataclass(frozen=True)
class PlayRequest:
    """What to play: a game of a data folder, the player counts (a run each), games per count, the root seed, the
    agents by seat, and where the games run."""

    game: str
    data_dir: Path
    counts: tuple[int, ...]
    games: int
    seed: int
    agents: tuple[str, ...]
    rotate: bool = True  # the agents take the seats in turn (`runner.seating`)
    check: bool = False  # the invariants after every action
    log_file: Path | None = None  # every action and chance event as JSON lines
    executor: str = "local"  # local | processes | dask (`executors.choose_kind`)
    jobs: int = 1
    scheduler: str | None = None  # a Dask scheduler's address


def play(request: PlayRequest, engine: GameEngine) -> list[dict[str, Any]]:
    """Play every run of `request` and return their summaries, in the order of the player counts."""
    from cardgen.engine.executors import open_workers
    from cardgen.output import streamed

    summaries = []
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(streamed(request.log_file)) if request.log_file is not None else None
        workers = stack.enter_context(open_workers(request.executor, request.jobs, request.scheduler))

        def write_batch(results: list[GameResult]) -> None:  # logs go to the file as games finish, then are dropped
            if log is not None:
                from cardgen.engine.runner import log_lines

                log.write(log_lines(results))
                for result in results:
                    result.log = None

        for players in request.counts:
            summaries.append(_play_count(request, engine, players, workers.executor, write_batch))
    return summaries


def _play_count(request: PlayRequest, engine: GameEngine, players: int, executor: Any, on_batch: Any) -> dict[str, Any]:
    """One run: the games at one player count, with a progress bar on a terminal."""
    from cardgen.engine.runner import PlaySpec, play_many, summarise

    spec = PlaySpec(request.game, str(request.data_dir), players, request.seed, request.agents, check=request.check,
                    log=request.log_file is not None, rotate=request.rotate)  # fmt: skip
    start = time.perf_counter()
    with click.progressbar(length=request.games, label=f"{players} players", file=sys.stderr,
                           hidden=not sys.stderr.isatty()) as bar:  # fmt: skip
        results = play_many(spec, request.games, executor, 1, bar.update, on_batch=on_batch)
    seconds = time.perf_counter() - start
    abilities, playable, problems = engine.abilities(), engine.playable(), engine.data_problems()
    return summarise(spec, results, seconds, abilities, playable, problems, engine.event_problems)


def whole(request: PlayRequest, summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """The `--json` object: a run's summary, or the runs of several player counts with their violations added up."""
    if len(summaries) == 1:
        return summaries[0]
    violations = sum(s["invariant_violations"] for s in summaries)
    return {"game": request.game, "players": list(request.counts), "invariant_violations": violations,
            "runs": summaries}  # fmt: skip


def summary_lines(s: dict[str, Any]) -> list[str]:
    """What `cardgen play` prints of one run's summary."""
    from cardgen.engine.tally import unseen_note

    rotating = s["seats"] == "rotate" and len(set(s["agents"])) > 1
    lines = [
        f"{s['game']}: {s['games']} games, {s['players']} players, seed {s['seed']}, agents {', '.join(s['agents'])}"
        + (" (taking the seats in turn)" if rotating else ""),
        "wins: " + ", ".join(f"{k} {v:g}" for k, v in s["wins"].items()),
    ]
    for what in ("turns", "actions"):
        st = s["length"][what]
        lines.append(f"{what}: mean {st['mean']:g}, min {st['min']}, max {st['max']}")
    lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in s["endings"].items()))
    lines.append(ended_line(s))
    lines.append(f"invariant violations: {s['invariant_violations']}")
    lines.extend(f"  {example}" for example in s["violation_examples"])
    lines.append(f"data problems: {len(s['data_problems'])}")
    lines.extend(f"  {problem}" for problem in s["data_problems"])
    note = unseen_note(s["games"], s["data_problems"])
    if note:
        lines.append(f"  ({note})")
    lines.append(f"actions per second: {s['actions_per_second']:,.0f}")
    return lines


def ended_line(s: dict[str, Any]) -> str:
    """How many games the rules ended, and how many the turn cap stopped (a safety net that should be rare: a game
    stopped there is judged by the engine's adjudication, not by the rules)."""
    from cardgen.engine.core import ADJUDICATED

    games, ended = s["games"], s["ended_by_rules"]
    capped = s["endings"].get(ADJUDICATED, 0)
    failed = games - ended - capped
    text = f"ended by the rules: {ended} of {games} games ({ended / games:.0%}); stopped at the turn cap: {capped}"
    return text + (f"; failed: {failed}" if failed else "")
