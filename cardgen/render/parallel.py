"""Building several games at once: one forked worker process per game, output byte-identical to a one-process build.

Each worker inherits the parent's loaded games, layouts and options (the data models are built at run time and do
not pickle, so workers are forked rather than spawned; where `fork` is unavailable the build runs in one process).
A worker writes its files staged (`output.collected`) and hands them back; the parent adopts them into its own
all-or-nothing transaction, so a failure in any game still leaves the output folder as it was. Reports come back
in the order of the games, whatever order the workers finish in.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from cardgen.data.games import Game
from cardgen.output import adopt, collected, discard
from cardgen.paths import default_fonts_dir
from cardgen.render.build import build_game
from cardgen.render.jobs import BuildReport, PrintOptions
from cardgen.render.layouts import Layouts

Staged = list[tuple[Path | None, Path]]

# what forked workers inherit: set just before the pool starts, cleared after
_shared: tuple[list[Game], Layouts, Path, PrintOptions] | None = None


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _build_one(index: int) -> tuple[BuildReport, Staged]:
    assert _shared is not None, "a build worker started without the parent's games"
    games, layouts, out_dir, options = _shared
    with collected() as staged:
        report = build_game(games[index], layouts, default_fonts_dir(), out_dir, options)
    return report, list(staged)


def build_games(
    games: list[Game],
    layouts: Layouts,
    out_dir: Path,
    options: PrintOptions,
    jobs: int,
    done: Callable[[Game, BuildReport], None] | None = None,
) -> list[BuildReport]:
    """Build every game, `jobs` at a time in worker processes; `done` is told of each game as its report arrives
    (in the games' order). Files join the caller's transaction (`output.all_or_nothing`)."""
    global _shared
    _shared = (games, layouts, out_dir, options)
    reports: list[BuildReport] = []
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_build_one, index) for index in range(len(games))]
            try:
                for game, future in zip(games, futures, strict=True):
                    report, staged = future.result()
                    adopt(staged)
                    reports.append(report)
                    if done:
                        done(game, report)
            except BaseException:
                _discard_rest(futures)
                raise
    finally:
        _shared = None
    return reports


def _discard_rest(futures: list[Future[tuple[BuildReport, Staged]]]) -> None:
    """After one game failed: wait for the others and throw their staged files away."""
    for future in futures:
        if future.cancel():
            continue
        try:
            _, staged = future.result()
        except BaseException:
            continue
        discard(staged)
