"""A build: what `cardgen build` (and each rebuild of `cardgen watch`) was asked for, as a typed `BuildRequest`,
and `build`, which turns it into files and says what it wrote.

The steps, in order: the cache check (a game whose inputs are unchanged and whose files are intact is not even
loaded, render/cache.py), loading and validating the others, rendering them (while they load, with several cores:
render/parallel.py), settling each game's earlier files and writing its guides, remembering what the next build may
keep, and the report (the file list, the paper, the overflow warnings). Heavy modules (the data models, the renderer)
are imported by the step that needs them, so importing this module costs nothing at start-up.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardgen import limits
from cardgen.build_report import Outcome, print_built, say
from cardgen.errors import DataError, Problem, RuleError
from cardgen.output import all_or_nothing
from cardgen.paths import default_fonts_dir, default_templates_dir
from cardgen.terminal import echo

if TYPE_CHECKING:
    from cardgen.data import Game
    from cardgen.render.build import BuildReport
    from cardgen.render.cache import GameRecord
    from cardgen.render.jobs import PrintOptions
    from cardgen.render.layouts import Layouts
    from cardgen.render.parallel import Speculative
    from cardgen.trust import Decision


@dataclass(frozen=True)
class Printing:
    """How the sheets are printed (the options of `cardgen build` that decide every file's bytes). Lengths in mm,
    the crop marks' weight in points."""

    paper: str = "a4"  # a4 | letter | a3 | a5 | tabloid | ledger | WxHmm (`units.parse_paper`)
    duplex: str = "long-edge"  # long-edge | short-edge | off
    back_offset: tuple[float, float] = (0.0, 0.0)
    layout: str | None = None  # None: each component's default; grid | fold
    format: str = "pdf"  # pdf | shop-pdf | shop-images | png | tts | ttp
    ink: str = "full"  # full | light | both
    gutter: float = 0.0
    mark_length: float = 5.0
    mark_offset: float = 3.0
    mark_weight: float = 0.3
    allow_overflow: bool = False
    shop: str | None = None  # a print shop of render/shops.py (--shop): its bleed, page order, inks or image sizes
    cmyk: bool = False  # CMYK PDF/X-1a (render/pdfx.py); a shop that asks for it implies it

    def options(self) -> PrintOptions:
        """The renderer's print options (importing the renderer's job planning)."""
        from cardgen.render.imposition import MarkStyle
        from cardgen.render.jobs import PrintOptions

        return PrintOptions(
            paper=self.paper,
            duplex=self.duplex,
            back_offset=self.back_offset,
            layout=self.layout,
            format=self.format,
            ink=self.ink.lower(),
            gutter=self.gutter,
            marks=MarkStyle(length=self.mark_length, offset=self.mark_offset, weight=self.mark_weight),
            allow_overflow=self.allow_overflow,
            shop=self.shop.lower() if self.shop else None,
            cmyk=self.cmyk,
        )


@dataclass(frozen=True)
class BuildRequest:
    """Everything a build is asked for: which games, from and to where, how to print them, and how to go about it."""

    data_dir: Path
    templates_dir: Path
    games: tuple[str, ...] = ()  # none: every game of the data folder
    out_dir: Path = Path("output")
    printing: Printing = field(default_factory=Printing)
    validate: bool = True  # False (--no-validate): no check runs, no checks.py is imported
    proof: bool = False
    # the components to build, each `NAME` or `NAME:ID,ID` (cardgen/selection.py); the whole game is still validated
    only: tuple[str, ...] | None = None
    jobs: int | None = None  # None: the number of cores, for builds large enough to gain
    cache: bool = True  # False (--no-cache): every file afresh, nothing recorded
    trust_code: bool = False
    stamp: str | None = None
    tts_base_url: str | None = None
    quiet: bool = False
    changed_since: str | None = None  # only what changed since this version, with a changelog (versions/reprint.py)
    lang: str | None = None  # the edition's language (data/languages.py); None: each game's default

    def check(self) -> None:
        """The options that do not go together: a usage error naming them (a `DataError` for a bad address)."""
        if self.tts_base_url is not None:
            from cardgen.render.tts import check_base_url

            if self.printing.format != "tts":
                raise click.UsageError(f"--tts-base-url is for --format tts, not --format {self.printing.format}")
            check_base_url(self.tts_base_url, self.out_dir)
        if self.changed_since is not None and self.only is not None:
            raise click.UsageError("--changed-since chooses the items itself: it does not go with --only")
        if self.printing.ink == "both" and self.printing.format != "pdf":
            raise click.UsageError(
                f"--ink both writes print PDFs in two inks: it is for --format pdf, not {self.printing.format}"
            )
        check_shop(self.printing.format, self.printing.shop, self.printing.cmyk)

    def settings(self) -> dict[str, Any]:
        """What decides the bytes of a game's files besides its folder, the layouts and the fonts (the cache's key)."""
        decisive = {"printing", "validate", "proof", "only", "trust_code", "stamp", "tts_base_url", "changed_since",
                    "lang"}  # fmt: skip
        return {
            name: dataclasses.asdict(value) if isinstance(value, Printing) else value
            for name, value in vars(self).items()
            if name in decisive
        }


def check_shop(output_format: str, shop_name: str | None, cmyk: bool) -> None:
    """`--shop` names a shop of the format's kind (shop-pdf or shop-images, which need one); `--cmyk` is for PDFs."""
    from cardgen.render.shops import SHOPS

    if cmyk and output_format not in ("pdf", "shop-pdf"):
        raise click.UsageError(f"--cmyk is for --format pdf or shop-pdf (PDFs), not --format {output_format}")
    if shop_name is None:
        if output_format == "shop-images":
            raise click.UsageError(f"--format shop-images needs --shop ({_shops('shop-images')})")
        return
    shop = SHOPS.get(shop_name.lower())
    if shop is None:
        raise click.UsageError(f"--shop {shop_name}: unknown shop (known: {', '.join(SHOPS)})")
    if output_format != shop.format:
        raise click.UsageError(
            f"--shop {shop.id} ({shop.name}) takes --format {shop.format}, not --format {output_format}"
        )


def _shops(output_format: str) -> str:
    from cardgen.render.shops import SHOPS

    return ", ".join(shop.id for shop in SHOPS.values() if shop.format == output_format)


@dataclass(frozen=True)
class Built:
    """What a build did (`cardgen watch` says it): every file of the games built, and the files written afresh
    (the others were kept from an earlier build: render/cache.py)."""

    files: list[Path]
    written: list[Path]


@dataclass
class _Run:
    """What the steps of one build hand on to each other."""

    request: BuildRequest
    inputs: dict[str, str]  # each game's inputs as one hash (empty without the cache)
    kept: dict[str, GameRecord]  # the games whose files are kept as an earlier build wrote them
    loaded: list[Game] = field(default_factory=list)
    said: dict[str, list[str]] = field(default_factory=dict)  # what validation printed, by game
    reports: dict[str, BuildReport] = field(default_factory=dict)
    guides: dict[str, list[Path]] = field(default_factory=dict)
    asides: list[str] = field(default_factory=list)  # what was moved aside or cleared, said once files are committed
    changes: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # --changed-since: each changelog


def build(request: BuildRequest) -> Built:
    """Build the games of `request` into its output folder, all or nothing, and print what was written; raise a
    `CardgenError` (or a click usage error for options that do not go together) when nothing may be printed."""
    request.check()
    # a version named by a revision can move (a branch): a reprint is never taken whole from an earlier build
    inputs = _inputs(request) if request.cache and request.changed_since is None else {}
    run = _Run(request, inputs, _unchanged(request, inputs))
    must_load = bool(len(run.kept) < len(inputs) or not inputs)
    with contextlib.ExitStack() as stack:
        stack.enter_context(_collector_paused())
        speculative = _speculate(request, stack) if must_load and _ahead(request) else None
        if must_load:
            run.loaded = _load_and_validate(run, speculative)
        for record in run.kept.values():
            say(record.warnings, request.quiet)
        if not run.loaded and run.kept:  # nothing to build: the renderer is not even imported
            outcomes = [(record.notes, record.files, record.guides) for record in run.kept.values()]
            print_built(outcomes, request.printing.format, request.printing.paper, request.quiet)
            return Built([f.path for record in run.kept.values() for f in record.files], [])
        _render(run, stack, speculative)
    say(run.asides, request.quiet)
    _remember(run)
    return _report(run)


def _unchanged(request: BuildRequest, inputs: dict[str, str]) -> dict[str, GameRecord]:
    """The cache check: the games built before from exactly these inputs, whose files are intact."""
    from cardgen.render import cache

    return {
        game_id: record
        for game_id, key in inputs.items()
        if (record := cache.unchanged(request.out_dir, game_id, key)) is not None
    }


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a build runs (and in the workers it forks): a build makes about a million
    containers and next to no reference cycles, and looking through the young ones every 50,000 was 3-4 % of a
    2,700-card build (measured peak memory the same: 80 MB, and 151 against 154 MB for Rift Domination). It is on
    again after, when the build's garbage is collected as ever (`cardgen watch` builds again and again)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            # what the build left counts as old, not as a million new containers to look through at the next
            # allocation (0.04 s at the end of the 2,700-card build, spent just before the process exits)
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def _ahead(request: BuildRequest) -> bool:
    """With several cores the games are drawn while they load and are checked (render/parallel.py); otherwise the
    renderer is set up only for data that can be printed (a mistake in the data is reported sooner). `--ink both`
    and `--only` build in one process."""
    workers = request.jobs or os.cpu_count() or 1
    chosen = request.only is not None or request.changed_since is not None
    if chosen or workers < 2 or request.printing.ink == "both":
        return False
    from cardgen.render.parallel import can_fork

    return can_fork()


def _speculate(request: BuildRequest, stack: contextlib.ExitStack) -> Speculative:
    """Workers that draw each game's files as soon as it is loaded (the transaction and the cache opened first)."""
    from cardgen.render import cache
    from cardgen.render.parallel import Speculative

    workers = request.jobs or os.cpu_count() or 1
    stack.enter_context(all_or_nothing(within=request.out_dir))
    stack.enter_context(cache.enabled(request.out_dir, use=request.cache))
    speculative = Speculative(
        lambda: _layouts(request), request.out_dir, request.printing.options(), workers, eager=request.jobs is not None
    )
    return stack.enter_context(speculative)


def _load_and_validate(run: _Run, speculative: Speculative | None) -> list[Game]:
    """Load the games not kept (each handed to the workers as it loads, in the edition built) and refuse to print
    data that breaks a rule, unless told not to check it (the rules read the data, whatever its language)."""
    from cardgen.data import load_games

    request = run.request
    editions: dict[int, Game] = {}

    def edition(game: Game) -> Game:
        if id(game) not in editions:
            editions[id(game)] = _edition(game, request.lang, request.quiet)
        return editions[id(game)]

    todo = [game_id for game_id in run.inputs if game_id not in run.kept] if run.inputs else list(request.games)
    each = (lambda game: speculative.add(edition(game))) if speculative is not None else None
    loaded = load_games(request.data_dir, todo, each)
    if not request.validate:
        echo("cardgen: warning: the data was not checked against its rules (--no-validate)", err=True)
    elif loaded:
        trusted = [trusted_to_run(game, request.trust_code) for game in loaded]
        run.said = _validate_before_build(loaded, trusted, request.quiet)
    return [edition(game) for game in loaded]


def _render(run: _Run, stack: contextlib.ExitStack, speculative: Speculative | None) -> None:
    """Draw the loaded games' files (the workers finish what they started), each game settled as it is done."""
    from cardgen.render import cache
    from cardgen.render.build import build_game

    request = run.request
    options = speculative.options if speculative is not None else request.printing.options()
    layouts = _layouts(request)  # made once per process (by `speculative` too)
    if request.only is not None:
        from cardgen.selection import select

        run.loaded = select(run.loaded, request.only)
    if request.changed_since is not None:
        run.loaded = _reprints(run, request.changed_since)
    _warn_of_marks_in_bleed(run.loaded, request.printing.mark_offset)
    missing = [problem for game in run.loaded for problem in layouts.missing(game)]
    if missing:
        raise DataError(missing)
    total = sum(c.count for g in run.loaded for c in g.components if c.printed)
    if speculative is None:
        stack.enter_context(all_or_nothing(within=request.out_dir))
        stack.enter_context(cache.enabled(request.out_dir, use=request.cache))
    hidden = request.quiet or not sys.stderr.isatty()
    bar = stack.enter_context(click.progressbar(length=total, label="building", file=sys.stderr, hidden=hidden))

    def finish(game: Game, report: BuildReport) -> None:
        _settle(run, game, report, options, layouts)

    if speculative is not None:
        speculative.finish(run.loaded, finish, bar.update)
    else:
        for game in run.loaded:
            finish(game, build_game(game, layouts, default_fonts_dir(), request.out_dir, options, bar.update))


def _settle(run: _Run, game: Game, report: BuildReport, options: PrintOptions, layouts: Layouts) -> None:
    """A game is drawn: move its earlier files aside or clear them, write its guides (and saved object, proof)."""
    from cardgen.render import stale

    request, out_dir = run.request, run.request.out_dir
    run.reports[game.id] = report
    written = run.guides.setdefault(game.id, [])
    blocked = set() if request.printing.allow_overflow else {overflow.component for overflow in report.overflows}
    settled = stale.settle(game, out_dir, report.files, blocked)  # earlier files moved aside or cleared
    run.asides.extend(settled.lines(out_dir / game.id))
    if request.printing.format == "pdf" and report.files:
        from cardgen.render.guide import write_guide

        section = stale.section(settled.stale)
        changes = run.changes.get(game.id)
        written.extend(write_guide(game, report.files, options, out_dir / game.id, bundled_body_font(), section,
                                   changes))  # fmt: skip
    if request.printing.shop and report.files:
        from cardgen.render.guide import write_shop_guide

        shop_folder = report.files[0].path.parent if request.printing.format == "shop-pdf" else None
        folder = shop_folder or out_dir / game.id / "shop-images"
        written.extend(write_shop_guide(game, report.files, options, folder, bundled_body_font()))
    if request.printing.format == "tts" and report.files:
        from cardgen.render.jobs import OutputFile
        from cardgen.render.tts import write_saved_object

        note = game.manifest.description or ""
        folder = out_dir / game.id / "tts"
        saved = write_saved_object(game.title, note, report.files, folder, request.tts_base_url, game.id)
        report.files.append(OutputFile(saved, 1, "saved object"))
    if request.proof:
        trusted = trusted_to_run(game, request.trust_code) if request.validate else None
        written.append(_proof(game, layouts, out_dir, trusted))
    run.asides.extend(stale.keep(out_dir, game.id, settled, written))


def _remember(run: _Run) -> None:
    """After the files are committed: the listing of a whole folder, and what the next build may keep."""
    from cardgen.listing import keep_listing
    from cardgen.render import cache

    request = run.request
    if not request.cache:
        return
    if not request.games and not run.kept and request.only is None and run.loaded:
        keep_listing(request.data_dir, run.loaded)  # every game was loaded: what `cardgen list` would print
    if request.printing.format not in cache.CACHED_FORMATS:
        return
    for game_id, report in run.reports.items():
        key = run.inputs.get(game_id) if not report.overflows and request.only is None else None
        try:
            files, guides, said = report.files, run.guides[game_id], run.said.get(game_id)
            cache.remember(request.out_dir, game_id, files, guides, key, report.notes, said)
        except DataError as exc:  # the files are written; only the next build's shortcut is lost
            echo(f"cardgen: warning: {exc.lines()[0]}; the next build draws every file again", err=True)


def _report(run: _Run) -> Built:
    """The file list, then the overflowing text (an error unless allowed); what was built."""
    request, kept, reports, guides = run.request, run.kept, run.reports, run.guides
    order = run.inputs or [game.id for game in run.loaded]
    outcomes: list[Outcome] = [
        (kept[gid].notes, kept[gid].files, kept[gid].guides) if gid in kept else
        (reports[gid].notes, reports[gid].files, guides[gid])
        for gid in order if gid in kept or gid in reports
    ]  # fmt: skip
    print_built(outcomes, request.printing.format, request.printing.paper, request.quiet)
    overflows = [o for r in reports.values() for o in r.overflows]
    if overflows:
        allowed = request.printing.allow_overflow
        for overflow in overflows:
            echo(f"cardgen: {'warning' if allowed else 'error'}: {overflow}", err=True)
        if not allowed:
            raise RuleError(
                f"{len(overflows)} text box(es) overflow; components with overflowing text were not written "
                "(fix the text or the layout, or use --allow-overflow)"
            )
    written = [f.path for _, files, _ in outcomes for f in files if not f.reused]
    every = [f.path for _, files, _ in outcomes for f in files]
    return Built(every, written + [g for gid in reports for g in guides[gid]])


def trusted_to_run(game: Game, trust_code: bool) -> Decision:
    """Whether the game's checks.py runs: `--trust-code`, else what the user's trust store says (cardgen/trust.py;
    never a project file or the game folder itself)."""
    from cardgen import trust

    return trust.TRUSTED if trust_code else trust.decide(game.id, game.folder)


def _layouts(request: BuildRequest) -> Layouts:
    """The layouts of the templates folder, compiled once per process (render/cache.py)."""
    from cardgen.render import cache
    from cardgen.render.layouts import Layouts

    templates, stamp = request.templates_dir, request.stamp
    return cache.layouts((templates, stamp), lambda: Layouts(templates, stamp=stamp))


def _inputs(request: BuildRequest) -> dict[str, str]:
    """Each game's inputs as one hash (render/cache.py): its files, the layouts, the fonts, cardgen, the options."""
    from cardgen.render import cache

    data_dir = request.data_dir
    names = list(request.games) or sorted(p.parent.name for p in data_dir.glob("*/game.yaml") if p.is_file())
    settings = request.settings()
    layouts = sys.modules.get("cardgen.render.layouts")  # imported by `--set` (and by any build before in-process)
    settings["vars"] = layouts.variables() if layouts else {}
    settings["limits"] = dataclasses.asdict(limits.current())
    layout_dirs = list(dict.fromkeys([request.templates_dir, default_templates_dir()]))
    return {
        name: cache.game_inputs(
            name,
            data_dir,
            layout_dirs,
            default_fonts_dir(),
            {**settings, "trusted": _trusted_for_cache(data_dir, name, request.trust_code)},
        )
        for name in dict.fromkeys(names)
    }


def _trusted_for_cache(data_dir: Path, name: str, trust_code: bool) -> bool | str | None:
    """What decides whether a game's checks.py runs, for its inputs' hash (a change of trust validates again)."""
    from cardgen import trust

    if trust_code:
        return True
    try:
        decision = trust.decide(name, data_dir / name)
    except DataError:  # an unreadable trust store: the build reports it
        return None
    return (decision.sha256 or True) if decision.runs else False


def _proof(game: Game, layouts: Layouts, out_dir: Path, trusted: Decision | None) -> Path:
    """The proof sheet; `trusted` None: not validated (--no-validate), so only text fitting is shown."""
    from cardgen.render.build import GameRenderer
    from cardgen.render.proof import write_proof
    from cardgen.validate import validate_game

    violations = [] if trusted is None else validate_game(game, trust_code=trusted).violations
    target = out_dir / game.id / "proof.pdf"
    write_proof(GameRenderer(game, layouts, default_fonts_dir()), violations, target)
    return target


def bundled_body_font() -> str:
    """The bundled body font with its bold and italic faces registered as a family (the guide's <b> needs it, and a
    process that built nothing, such as a parallel build's parent, has not registered them yet)."""
    from cardgen.render.fonts import load_roles

    return load_roles({}, default_fonts_dir(), default_fonts_dir())["body"].regular


def _warn_of_marks_in_bleed(games: list[Game], mark_offset: float) -> None:
    """Crop marks never start inside the bleed: a smaller --mark-offset is a warning, not an error."""
    widest = max((_widest_bleed(game) for game in games), default=0.0)
    if mark_offset < widest:
        echo(
            f"cardgen: warning: --mark-offset {mark_offset:g} mm is less than the bleed ({widest:g} mm); "
            "crop marks start at the bleed's edge so they are never printed over art",
            err=True,
        )


def _widest_bleed(game: Game) -> float:
    bleeds = [c.spec.bleed for c in game.components if c.spec is not None and c.spec.bleed is not None]
    return max([game.manifest.settings.bleed, *bleeds])


def _edition(game: Game, lang: str | None, quiet: bool) -> Game:
    """The game in the language asked for (`--lang`), or in its default language when it has several; what fell
    back to the default language is said, field by field (data/languages.py)."""
    from cardgen.data.editions import edition
    from cardgen.data.languages import named

    if lang is None and not game.languages:
        return game
    made = edition(game, lang or game.languages[0])
    if made.fallbacks and not quiet:
        default = named(game.languages[0])
        echo(f"note: {game.id}: {len(made.fallbacks)} text(s) of the {named(made.game.language)} edition fell "
             f"back to {default}:", err=True)  # fmt: skip
        for fallback in made.fallbacks:
            echo(f"note:   {fallback.where}", err=True)
    return made.game


def _reprints(run: _Run, since: str) -> list[Game]:
    """`--changed-since`: each game with only the items added or changed since the version `since` names, and its
    changelog kept for the guide; a game with nothing to print is left out, its changelog said."""
    from cardgen.versions.reprint import reprint_plan

    games = []
    for game in run.loaded:
        plan = reprint_plan(game, since, run.request.data_dir)
        run.changes[game.id] = (plan.heading, plan.lines)
        if plan.game is not None:
            games.append(plan.game)
        elif not run.request.quiet:
            said = "; ".join(plan.lines) or "no item changed"
            echo(f"note: {game.id}: nothing to print since {since}: {said}", err=True)
    return games


def _validate_before_build(games: list[Game], trusted: list[Decision], quiet: bool = False) -> dict[str, list[str]]:
    """Refuse to print data that breaks a rule (text fitting is left to the build itself); return the notes and
    warnings it printed, by game (the cache repeats them when it keeps a game as it was).

    `--no-validate` skips this entirely: no check runs, so no code from a game folder (`checks.py`) runs either.
    """
    from cardgen.validate import validate_game

    reports = [validate_game(game, trust_code=trust) for game, trust in zip(games, trusted, strict=True)]
    said: dict[str, list[str]] = {}
    for report in reports:
        lines = said.setdefault(report.game, [])
        if report.skipped:
            lines.append(
                f"cardgen: note: {report.game}: {len(report.skipped)} check(s) skipped: {report.skipped[0].reason}"
            )
        if report.unchecked:
            lines.append(f"cardgen: warning: {report.game}: no rules checks (rules.yaml missing or empty)")
        say(lines, quiet)
    problems = [Problem(None, f"{r.game}: {violation}") for r in reports for violation in r.violations]
    if problems:
        last = "the data breaks the rules above; nothing was printed (--no-validate prints anyway)"
        raise RuleError(problems, summary=last)
    return said


__all__ = ["BuildRequest", "Built", "Printing", "build"]
