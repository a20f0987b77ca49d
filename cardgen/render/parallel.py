"""Building on several cores: each game's output files shared out among forked worker processes, byte-identical to a
one-process build.

The unit of work is one output file: a component, with the small components that share its last sheet
(`render/packing.py`). Which components share is decided here before anything is drawn, from their sizes and
counts alone, assuming that no text overflows; a game where that turns out wrong (a component blocked by
overflowing text would not have been packed) or where a worker fails is built again in this process, the way
`build_game` builds it, so the files, the report and any error are the same whatever the number of workers. The
largest units start first, so that the last to finish is a small one.

Workers are forked, not spawned: they inherit the parent's loaded games, layouts and options (the data models are
built at run time and do not pickle; where `fork` is unavailable the build runs in one process). A worker writes its
files staged (`output.collected`) and hands them back; the parent adopts them into its own all-or-nothing
transaction, so a failure in any game still leaves the output folder as it was. Reports come back in the order of
the games, whatever order the workers finish in.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from cardgen.data.games import Component, Game
from cardgen.errors import DataError
from cardgen.output import adopt, collected, discard
from cardgen.paths import default_fonts_dir
from cardgen.render.build import (
    WRITERS,
    GameRenderer,
    build_game,
    component_bleed,
    game_notes,
    shared_sheets,
    write_job,
)
from cardgen.render.jobs import BuildReport, ComponentJob, Entry, FaceSet, PrintOptions, face_size
from cardgen.render.layouts import Layouts

if TYPE_CHECKING:
    from cardgen.render.draw import FaceDrawer

Staged = list[tuple[Path | None, Path]]
POKER_CARD = 63.5 * 88.9  # mm²: the unit of a face's drawing cost in `Unit.cost`
WORTH_FORKING = 150  # poker-card faces: below this a default build stays in one process (`worth_forking`)


@dataclass(frozen=True)
class Unit:
    """One output file of one game: the components printed in it (the host first, then its guests in the order
    they were packed) and a rough cost, for starting the largest first."""

    game: int
    components: tuple[str, ...]
    cost: float


@dataclass(frozen=True)
class Shared:
    """What forked workers inherit: set just before the pool starts, cleared after."""

    games: list[Game]
    layouts: Layouts
    out_dir: Path
    options: PrintOptions
    units: list[Unit]


_shared: Shared | None = None
_renderers: dict[int, GameRenderer] = {}  # in a worker: each game's renderer, set up once


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def units_of(game: Game, index: int, options: PrintOptions) -> list[Unit] | None:
    """The game's output files as units of work, or None when planning them fails (the game is then built in one
    process, which reports the error as a one-process build does)."""
    printed = [c for c in game.components if c.printed]
    if not WRITERS[options.format].packs:
        return [Unit(index, (c.id,), _cost(c, options)) for c in printed]
    try:
        packed = shared_sheets([_outline(game, c, options) for c in printed])
    except DataError:
        return None
    by_id = {c.id: c for c in printed}
    units = []
    for job in packed:
        names = (job.component.id, *(guest.id for guest in job.guests))
        units.append(Unit(index, names, sum(_cost(by_id[name], options) for name in names)))
    return units


def _outline(game: Game, component: Component, options: PrintOptions) -> ComponentJob:
    """A job with the component's sizes and copies but no faces drawn: all that packing reads."""
    entries = [Entry(item, "", "back" if item.back else None) for item in component.items for _ in range(item.count)]
    size, bleed = face_size(component, options.paper_size), component_bleed(game, component)
    no_drawer = cast("FaceDrawer", None)
    return ComponentJob(game.id, game.title, component, FaceSet(), entries, options, no_drawer, "", size, bleed)


def _cost(component: Component, options: PrintOptions) -> float:
    """Distinct faces weighted by their area: roughly what rendering a component costs."""
    size = face_size(component, options.paper_size)
    return len(component.items) * max(1.0, size.width * size.height / POKER_CARD)


Plans = list[list[Unit] | None]  # each game's units (None: built in one process)


def plans_of(games: list[Game], options: PrintOptions) -> Plans:
    """Every game's output files as units of work, planned once for `worth_forking` and `build_games`."""
    return [units_of(game, index, options) for index, game in enumerate(games)]


def worth_forking(plans: Plans) -> bool:
    """Whether a build is large enough to gain from workers (each sets up its fonts and renderers again)."""
    units = [unit for plan in plans for unit in plan or ()]
    return len(units) > 1 and sum(unit.cost for unit in units) >= WORTH_FORKING


def _build_unit(number: int) -> tuple[BuildReport, Staged]:
    """In a worker: render the unit's components and, unless text overflows and blocks one, write its file."""
    assert _shared is not None, "a build worker started without the parent's games"
    unit = _shared.units[number]
    game, options = _shared.games[unit.game], _shared.options
    if unit.game not in _renderers:
        _renderers[unit.game] = GameRenderer(game, _shared.layouts, default_fonts_dir())
    renderer = _renderers[unit.game]
    components = {c.id: c for c in game.components}
    report = BuildReport()
    with collected() as staged:
        jobs = [renderer.job(components[name], options, report) for name in unit.components]
        if options.allow_overflow or not report.overflows:
            writer = WRITERS[options.format]
            files = renderer.cache.files(_shared.out_dir, options) if renderer.cache else None  # kept when current
            job = _packed(jobs, unit) if writer.packs else jobs[0]
            report.files.append(write_job(writer, job, _shared.out_dir / game.id, files))
    return report, list(staged)


def _packed(jobs: list[ComponentJob], unit: Unit) -> ComponentJob:
    """The unit's components packed as the whole game's plan packed them (the same sizes and counts give the same
    sheets: blocks of mixed sizes included); anything else is a failure, and the game is built in one process."""
    packed = shared_sheets(jobs)
    names = tuple(n for job in packed for n in (job.component.id, *(guest.id for guest in job.guests)))
    if len(packed) != 1 or names != unit.components:
        raise RuntimeError(f"the components {', '.join(unit.components)} did not pack as planned")
    return packed[0]


def build_games(
    games: list[Game],
    layouts: Layouts,
    out_dir: Path,
    options: PrintOptions,
    jobs: int,
    done: Callable[[Game, BuildReport], None] | None = None,
    plans: Plans | None = None,
) -> list[BuildReport]:
    """Build every game, its files shared out among `jobs` worker processes; `done` is told of each game as its
    report is complete (in the games' order). Files join the caller's transaction (`output.all_or_nothing`)."""
    global _shared
    plans = plans_of(games, options) if plans is None else plans
    units = [unit for plan in plans for unit in plan or ()]
    _shared = Shared(games, layouts, out_dir, options, units)
    reports: list[BuildReport] = []
    workers = max(1, min(jobs, len(units)))
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            largest_first = sorted(range(len(units)), key=lambda n: -units[n].cost)
            futures: dict[int, Future[tuple[BuildReport, Staged]]] = {
                n: pool.submit(_build_unit, n) for n in largest_first
            }
            try:
                for index, game in enumerate(games):
                    numbers = [n for n, unit in enumerate(units) if unit.game == index]
                    report = _gathered(game, [futures[n] for n in numbers], plans[index] is None)
                    if report is None:  # one process, as `build_game` builds it (and fails)
                        report = build_game(game, layouts, default_fonts_dir(), out_dir, options)
                    reports.append(report)
                    if done:
                        done(game, report)
            except BaseException:
                _discard_rest(list(futures.values()))
                raise
    finally:
        _shared = None
    return reports


def _gathered(game: Game, futures: list[Future[tuple[BuildReport, Staged]]], unplanned: bool) -> BuildReport | None:
    """The game's report from its units (their files adopted), or None when it must be built in one process: it
    could not be planned, a unit failed, or overflowing text blocked a component that was packed with others."""
    results = []
    failed = unplanned
    for future in futures:
        try:
            results.append(future.result())
        except Exception:
            failed = True
    blocked = any(report.overflows and not report.files for report, _ in results)
    if failed or blocked:
        for _, staged in results:
            discard(staged)
        return None
    order = {c.id: n for n, c in enumerate(game.components)}
    report = BuildReport(notes=game_notes(game))
    for unit_report, staged in results:
        adopt(staged)
        report.files.extend(unit_report.files)
        report.overflows.extend(unit_report.overflows)
    report.overflows.sort(key=lambda overflow: order[overflow.component])  # as rendered: in the game's order
    return report


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
