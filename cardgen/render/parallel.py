"""Building on several cores: each game's output files shared out among forked worker processes while the games
are still loading, byte-identical to a one-process build.

The unit of work is one output file: a component, with the small components that share its last sheet
(`render/packing.py`). Which components share is decided here before anything is drawn, from their sizes and
counts alone, assuming that no text overflows; a game where that turns out wrong (a component blocked by
overflowing text would not have been packed) or where a worker fails is built again in this process, the way
`build_game` builds it, so the files, the report and any error are the same whatever the number of workers.

The games are drawn while they load (`Speculative`). The loader hands over each game as soon as it is read
(`load_games(..., each=...)`); its files are planned here and a worker process is forked that inherits everything
loaded so far. The first worker is forked as soon as the first game is planned, before this process has even
imported the renderer (reportlab, Jinja, the fonts): both import it at once, and the worker starts drawing while
this process loads and checks the other games. This process is one of the `jobs`: with two it loads, checks, then
draws beside one worker. A worker claims files from a table in shared memory (the games in order, the largest
files of each first) and ends when none of the games it knows has a file left; the next one forked knows every
game loaded by then. So loading, checking the rules and writing the print guides run beside the drawing instead of
before and after it (`docs/PROFILE.md` has the timeline). Nothing is committed before the whole build is known
good: every file is written staged (`output.collected`) and adopted into the command's all-or-nothing transaction
once the data has passed its checks, and thrown away when anything fails (a game that does not load, a broken
rule, an interrupt). Reports come back in the order of the games, whatever order the files are drawn in.

Workers are forked, not spawned: they inherit the parent's loaded games, layouts and options (the data models are
built at run time and do not pickle; where `fork` is unavailable the build runs in one process).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from cardgen import stopping
from cardgen.data.games import Component, Game
from cardgen.errors import DataError
from cardgen.output import Staged, adopt, collected, discard
from cardgen.paths import default_fonts_dir
from cardgen.render.jobs import (
    PACKED_FORMATS,
    BuildReport,
    ComponentJob,
    Entry,
    FaceSet,
    PrintOptions,
    component_bleed,
    face_size,
    game_notes,
)
from cardgen.render.packing import shared_sheets

if TYPE_CHECKING:  # the renderer (reportlab, Jinja) is imported after the first worker is forked: it does so too
    from cardgen.render.build import GameRenderer
    from cardgen.render.draw import FaceDrawer
    from cardgen.render.layouts import Layouts

Result = tuple[BuildReport, Staged] | None  # a unit's report and staged files; None: it failed
POKER_CARD = 63.5 * 88.9  # mm²: the unit of a face's drawing cost in `Unit.cost`
WORTH_FORKING = 150  # poker-card faces: below this a default build stays in one process
MAX_UNITS = 1 << 16  # files one build can share out (the claim table's size); the rest are built in this process


@dataclass(frozen=True)
class Unit:
    """One output file of one game: the components printed in it (the host first, then its guests in the order
    they were packed) and a rough cost, for starting the largest first."""

    game: int
    components: tuple[str, ...]
    cost: float


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def units_of(game: Game, index: int, options: PrintOptions) -> list[Unit] | None:
    """The game's output files as units of work, or None when planning them fails (the game is then built in one
    process, which reports the error as a one-process build does)."""
    printed = [c for c in game.components if c.printed]
    if options.format not in PACKED_FORMATS:
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


def _packed(jobs: list[ComponentJob], unit: Unit) -> ComponentJob:
    """The unit's components packed as the whole game's plan packed them (the same sizes and counts give the same
    sheets: blocks of mixed sizes included); anything else is a failure, and the game is built in one process."""
    packed = shared_sheets(jobs)
    names = tuple(n for job in packed for n in (job.component.id, *(guest.id for guest in job.guests)))
    if len(packed) != 1 or names != unit.components:
        raise RuntimeError(f"the components {', '.join(unit.components)} did not pack as planned")
    return packed[0]


@dataclass
class _Worker:
    """A forked worker as the parent sees it: where its results arrive."""

    pid: int
    results: Connection
    knows: int  # the files planned when it was forked (it takes only those)


@dataclass
class Speculative:
    """A build whose files are drawn by forked workers while the games are still loading (see the module's notes).

    Use it as a context manager around loading and building: `add` is the loader's `each` callback, `finish` builds
    what is left and reports every game in order. Leaving the block, normally or by an error, stops the workers; the
    staged files of units never adopted are thrown away.
    """

    make_layouts: Callable[[], Layouts]  # made when first needed: after the first worker is forked
    out_dir: Path
    options: PrintOptions
    jobs: int
    eager: bool  # `--jobs` was given: fork for any build of more than one file
    games: list[Game] = field(default_factory=list)
    plans: list[list[int] | None] = field(default_factory=list)  # each game's unit numbers (None: one process)
    units: list[Unit] = field(default_factory=list)
    renderers: dict[int, GameRenderer] = field(default_factory=dict)
    results: dict[int, Result] = field(default_factory=dict)
    workers: dict[int, _Worker] = field(default_factory=dict)
    loading: bool = True
    forking: bool = False
    broken: bool = False  # a worker ended without saying so (killed): what it claimed never comes back
    claims: Any = None  # shared memory: 1 for every unit a worker has taken, then a stop flag at MAX_UNITS
    lock: Any = None
    unsent: Staged = field(default_factory=list)  # the files of the unit this process draws, until handed over

    @functools.cached_property
    def layouts(self) -> Layouts:
        return self.make_layouts()

    def __enter__(self) -> Speculative:
        context = multiprocessing.get_context("fork")
        self.claims = context.RawArray("b", MAX_UNITS + 1)
        self.lock = context.Lock()
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is not None and issubclass(kind, stopping.Terminated):
            self._forward(signal.SIGTERM)  # `kill` reached this process alone: its workers stop too
        self._stop()

    def add(self, game: Game) -> None:
        """The loader's callback: plan the game's files and fork workers that can take them, then set up its renderer
        (fonts, icons) for the workers forked later (a failure only means the game is built in one process, which
        reports it)."""
        index = len(self.games)
        self.games.append(game)
        plan = units_of(game, index, self.options)
        if plan is not None and len(self.units) + len(plan) > MAX_UNITS:
            plan = None
        numbers = None if plan is None else list(range(len(self.units), len(self.units) + len(plan)))
        self.units.extend(plan or ())
        self.plans.append(numbers)
        self._collect(block=False)
        self._spawn()
        if self.forking and numbers is not None:
            self._renderer(index)  # set up here once, for the workers forked later

    def _renderer(self, index: int) -> GameRenderer | None:
        """The game's renderer, set up once in each process that needs it (None: it cannot be, e.g. a font is
        missing; building the game in one process reports that)."""
        from cardgen.render.build import GameRenderer

        if index not in self.renderers:
            try:
                self.renderers[index] = GameRenderer(self.games[index], self.layouts, default_fonts_dir())
            except DataError:
                return None
        return self.renderers[index]

    def finish(
        self,
        games: list[Game],
        done: Callable[[Game, BuildReport], None] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[BuildReport]:
        """Build what is left of `games` (the games `add` was given, now checked); tell `done` of each game's report
        in the games' order and `progress` of the copies drawn."""
        if [id(g) for g in games] != [id(g) for g in self.games]:
            raise RuntimeError("a speculative build finished with games it was not given")
        self.loading = False
        reports: list[BuildReport] = []
        while len(reports) < len(games):
            self._collect(block=False)
            self._spawn()  # a worker that ended is replaced at once
            index = len(reports)
            game, numbers = games[index], self.plans[index]
            if numbers is None or all(n in self.results for n in numbers):
                report = self._gathered(game, numbers)
                if report is None:  # one process, as `build_game` builds it (and fails)
                    from cardgen.render.build import build_game

                    report = build_game(game, self.layouts, default_fonts_dir(), self.out_dir, self.options, progress)
                elif progress:
                    progress(sum(c.count for c in game.components if c.printed))
                reports.append(report)
                if done:
                    done(game, report)
                continue
            number = self._claim(self._order()) if self.forking else None  # this process draws too
            if number is not None:
                result = self._result(number)
                with stopping.held():  # from `unsent` to `results` whole: `_stop` finds the files in one of them
                    self.results[number] = result
                    self.unsent = []
            else:
                self._wait_for_results()
        return reports

    # the parent's side

    def _spawn(self) -> None:
        """Fork workers while there are files no worker has taken and fewer than `jobs` processes at work (none
        after a worker was killed: this process draws the rest)."""
        if self.broken:
            return
        if not self.forking:
            cost = sum(unit.cost for unit in self.units)
            self.forking = len(self.units) > (0 if self.eager else 1) and (self.eager or cost >= WORTH_FORKING)
            if not self.forking:
                return
        # this process is one of the `jobs`: it loads and checks the games, then draws beside the workers. Once
        # every game is loaded, a worker that knows only the first ones does not count (it ends with them): one
        # that knows every game is forked at once beside it
        for _ in range(min(max(1, self.jobs - 1) - self._at_work(), self._unclaimed())):  # never more than files
            if not self._fork():
                return

    def _at_work(self) -> int:
        return sum(1 for w in self.workers.values() if self.loading or w.knows == len(self.units))

    def _order(self) -> list[int]:
        """The files planned so far in the order workers take them: the games in order, so that each is complete
        (and its guide written) while the next ones draw; the largest files of each first."""
        return sorted(range(len(self.units)), key=lambda n: (self.units[n].game, -self.units[n].cost, n))

    def _unclaimed(self) -> int:
        """How many of the files planned so far no process has taken."""
        with self.lock:
            return sum(1 for n in range(len(self.units)) if self.claims[n] == 0)

    def _fork(self) -> bool:
        known = self._order()
        reader, writer = multiprocessing.Pipe(duplex=False)
        gc.freeze()  # the worker's collections leave the objects it inherits alone (fewer pages copied on write)
        # Ctrl-C and SIGTERM wait until the worker is forked and known here: Python runs its fork hooks (logging's
        # lock) in between, where an interrupt is printed and dropped ("Exception ignored"), and a worker not yet
        # recorded would not be waited for
        held = stopping.block()
        try:
            pid = os.fork()
        except OSError:  # no more processes: what is left is built in this one
            pid = -1
        if pid == 0:  # the worker: it never returns into the parent's code
            code = 1
            try:
                reader.close()
                self._serve(known, writer, held)
                code = 0
            except KeyboardInterrupt as stop:
                code = stopping.exit_code(stop)
            finally:
                # `os._exit` skips `atexit`: the icon placeholders' folder, if this worker made one, goes now
                icons = sys.modules.get("cardgen.render.icons")
                if icons is not None:
                    with contextlib.suppress(Exception):
                        icons.remove_folder()
                os._exit(code)
        try:
            gc.unfreeze()
            writer.close()
            if pid < 0:
                reader.close()
                return False
            self.workers[pid] = _Worker(pid, reader, len(known))
        finally:
            stopping.release(held)  # a Ctrl-C or SIGTERM held back is raised here
        if self.options.format == "pdf":
            from cardgen.render.guide import load_guide
            from cardgen.render.ink import load_coverage

            load_coverage()  # the first worker imports it for itself; every later one inherits it from here
            load_guide()  # the guides are written here: set up while the worker draws, not after
        return True

    def _collect(self, block: bool) -> None:
        """Read what the workers have sent; reap the ones that ended."""
        if not self.workers:
            return
        by_reader = {worker.results: worker for worker in self.workers.values()}
        for reader in wait(list(by_reader), timeout=None if block else 0):
            worker = by_reader[cast(Connection, reader)]
            with stopping.held():  # a result received is kept: `_stop` throws its files away
                try:
                    message = worker.results.recv()
                except (EOFError, OSError):
                    message, self.broken = None, True
                if message is not None:
                    number, result = message
                    self.results[number] = result
            if message is not None:
                continue
            worker.results.close()
            os.waitpid(worker.pid, 0)
            del self.workers[worker.pid]

    def _wait_for_results(self) -> None:
        self._spawn()
        if self.workers:
            self._collect(block=True)
            return
        # no worker left and none can be forked: what was claimed and never came back failed, the rest likewise
        for number in range(len(self.units)):
            self.results.setdefault(number, None)

    def _gathered(self, game: Game, numbers: list[int] | None) -> BuildReport | None:
        """The game's report from its units (their files adopted), or None when it must be built in one process: it
        could not be planned, a unit failed, or overflowing text blocked a component that was packed with others."""
        if numbers is None:
            return None
        with stopping.held():  # the files go from `results` to the transaction whole
            results = [self.results.pop(n) for n in numbers]
            done = [result for result in results if result is not None]
            blocked = any(report.overflows and not report.files for report, _ in done)
            if len(done) < len(results) or blocked:
                discard([change for _, staged in done for change in staged])  # every file, then the folders made
                return None
            for _, staged in done:
                adopt(staged)
        order = {c.id: n for n, c in enumerate(game.components)}
        report = BuildReport(notes=game_notes(game))
        for unit_report, _ in done:
            report.files.extend(unit_report.files)
            report.overflows.extend(unit_report.overflows)
        report.overflows.sort(key=lambda overflow: order[overflow.component])  # as rendered: in the game's order
        return report

    def _stop(self) -> None:
        """No worker takes another file; wait for the ones at work and throw away every file not adopted (a second
        Ctrl-C or SIGTERM waits until this is done: workers left running would leave their files behind)."""
        with stopping.held():
            if self.claims is not None:
                self.claims[MAX_UNITS] = 1
            while self.workers:
                with contextlib.suppress(OSError):
                    self._collect(block=True)
            discard([change for result in self.results.values() if result is not None for change in result[1]])
            discard(self.unsent)
            self.results.clear()
            self.unsent = []

    def _forward(self, signum: int) -> None:
        for pid in self.workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    # the worker's side

    def _serve(self, known: list[int], results: Connection, mask: set[signal.Signals]) -> None:
        """Take the largest file of the games known at the fork that no other worker has taken, build it, send it;
        say so and end when none is left. Stopped (Ctrl-C, SIGTERM, the parent gone), it throws away the files
        it has not sent: those it sent are the parent's."""
        try:
            stopping.release(mask)  # the mask the parent had before the fork: signals held since are raised here
            while (number := self._claim(known)) is not None:
                result = self._result(number)
                with stopping.held():  # sent whole, and then no longer this process's to throw away
                    results.send((number, result))
                    self.unsent = []
            results.send(None)
        except BaseException:
            discard(self.unsent)
            raise

    def _result(self, number: int) -> Result:
        try:
            return self._build_unit(self.units[number])
        except Exception:  # the game is built again in one process, which reports the error
            return None

    def _claim(self, known: list[int]) -> int | None:
        with self.lock:
            if self.claims[MAX_UNITS]:
                return None
            for number in known:
                if not self.claims[number]:
                    self.claims[number] = 1
                    return number
        return None

    def _build_unit(self, unit: Unit) -> tuple[BuildReport, Staged]:
        """Render the unit's components and, unless text overflows and blocks one, write its file."""
        from cardgen.render import ink
        from cardgen.render.build import WRITERS, write_job

        game, options = self.games[unit.game], self.options
        renderer = self._renderer(unit.game)
        if renderer is None:
            raise RuntimeError(f"{game.id}: no renderer")
        components = {c.id: c for c in game.components}
        report = BuildReport()
        spare = max(0, self.jobs - len(self.units))  # fewer files than processes: one idles, and measures ink
        with collected() as staged, ink.sharing(spare):
            self.unsent = staged  # thrown away if this process is stopped before it is handed over
            jobs = [renderer.job(components[name], options, report) for name in unit.components]
            if options.allow_overflow or not report.overflows:
                writer = WRITERS[options.format]
                files = renderer.cache.files(self.out_dir, options) if renderer.cache else None  # kept when current
                job = _packed(jobs, unit) if writer.packs else jobs[0]
                report.files.append(write_job(writer, job, self.out_dir / game.id, files, aside=False))
        return report, list(staged)
