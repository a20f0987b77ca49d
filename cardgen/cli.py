"""The command line: a thin click shell over functions the tests call directly.

Exit codes used by every command: 0 success; 1 the data breaks a rule; 2 the input could not be read; 130
interrupted (Ctrl-C) and 143 terminated (SIGTERM), with nothing partial written. Errors are printed once here, one
line each, on stderr — never as a Python traceback (set CARDGEN_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import gc
import importlib.util
import json
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardgen import limits, output, stopping

if TYPE_CHECKING:
    from cardgen.data import Game
    from cardgen.render.jobs import PrintOptions
    from cardgen.render.layouts import Layouts
    from cardgen.trust import Decision
    from cardgen.validate import GameReport
from cardgen.errors import (
    EXIT_INPUT,
    CardgenError,
    DataError,
    Problem,
    RuleError,
    clipped,
    display_path,
    whole_number,
)
from cardgen.output import all_or_nothing, check_writable
from cardgen.paths import default_data_dir, default_fonts_dir, default_templates_dir
from cardgen.terminal import echo


def load_games(
    data_dir: Path, game_ids: list[str] | tuple[str, ...] = (), each: Callable[[Game], None] | None = None
) -> list[Game]:
    """The data layer (pydantic models) loads on first use, so `cardgen --help` starts at once."""
    from cardgen.data import load_games as load

    return load(data_dir, game_ids, each)


EXIT_INTERNAL = 3


@dataclass(frozen=True)
class Context:
    """What every command needs: where the games and their layouts are."""

    data_dir: Path
    templates_dir: Path

    def trusted(self, game: Game, trust_code: bool) -> Decision:
        """Whether the game's checks.py runs: `--trust-code`, else what the user's trust store says (cardgen/trust.py;
        never a project file or the game folder itself)."""
        from cardgen import trust

        return trust.TRUSTED if trust_code else trust.decide(game.id, game.folder)


class CardgenGroup(click.Group):
    """Renders `CardgenError` as one line per problem with the error's exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CardgenError as exc:
            for line in exc.lines():
                echo(f"cardgen: error: {line}", err=True)
            ctx.exit(exc.exit_code)


class Length(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A finite length in millimetres (or points) within bounds: NaN, infinities and absurd values are refused."""

    name = "number"

    def __init__(self, low: float, high: float, unit: str = "mm"):
        self.low, self.high, self.unit = low, high, unit

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            number = value
        else:
            try:
                number = float(value)
            except ValueError:
                self.fail(f"'{clipped(str(value))}' is not a number", param, ctx)
        if not (math.isfinite(number) and self.low <= number <= self.high):
            self.fail(f"{clipped(str(value))} is not between {self.low:g} and {self.high:g} {self.unit}", param, ctx)
        return number


class Whole(click.IntRange):
    """A whole number within bounds, read without `int()` on a number of thousands of digits (Python refuses more
    than 4,300 with an error of its own) and quoted short when it is wrong."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return super().convert(value, param, ctx)
        number = whole_number(str(value).strip(), self.max if self.max is not None else 2**63 - 1)
        if number is None or (self.min is not None and number < self.min):
            self.fail(f"'{clipped(str(value))}' is not a whole number from {self.min:,} to {self.max:,}", param, ctx)
        return number


class PlayerCounts(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A player count (3) or a range of them (2..4), each between 1 and 99."""

    name = "N or A..B"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, ...]:
        if isinstance(value, tuple):
            return value
        low, dots, high = str(value).partition("..")
        first, last = whole_number(low.strip(), 99), whole_number((high if dots else low).strip(), 99)
        if first is None or last is None or not 1 <= first <= last:
            self.fail(f"'{clipped(str(value))}' is not a player count from 1 to 99 or a range like 2..4", param, ctx)
        return tuple(range(first, last + 1))


class Offset(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """X,Y in millimetres, each finite and within ±`bound`."""

    name = "x,y"
    bound = 25.0

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value
        try:
            x, y = (float(v) for v in str(value).split(","))
        except ValueError:
            self.fail(f"'{clipped(str(value))}' is not X,Y in millimetres (e.g. 0.8,-1.2)", param, ctx)
        if not all(math.isfinite(v) and abs(v) <= self.bound for v in (x, y)):
            bound = f"between -{self.bound:g} and {self.bound:g} mm"
            self.fail(f"'{clipped(str(value))}': each offset must be a number {bound}", param, ctx)
        return x, y


FOLDER = click.Path(file_okay=False, path_type=Path)
FILE = click.Path(dir_okay=False, path_type=Path)
PAPERS = ["a4", "letter"]
GUIDE_FILES = {"proof.pdf": "proof sheet", "calibration.pdf": "duplex calibration: print it first"}


FC = TypeVar("FC", bound=Callable[..., Any])  # a click command function, typed through its decorators


def _option(name: str, kind: Any, default: Any, help: str = "", dest: str | None = None) -> Callable[[FC], FC]:
    """An option with a type and a default (shown by --help unless None); a list of words is a choice of them,
    in any case (`--paper A4`)."""
    if isinstance(kind, list):
        kind = click.Choice(kind, case_sensitive=False)
    names = (name, dest) if dest else (name,)
    return click.option(*names, type=kind, default=default, show_default=default is not None, help=help)


def _flag(name: str, help: str, *more: str) -> Callable[[FC], FC]:
    return click.option(name, *more, is_flag=True, help=help)


@click.group(cls=CardgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@_option("--data-dir", FOLDER, None, "Folder of games (one folder per game). Default: the bundled card_data/.")
@_option(
    "--templates-dir", FOLDER, None, "Folder of layouts (one per game, plus _common/). Default: bundled templates/."
)
@click.option(
    "--limit",
    "limit_options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Raise one of the bounds on what a game folder may ask for (see `cardgen limits`); repeatable.",
)
@_option(
    "--project", FILE, None, "Project file naming data and templates folders (default: ./cardgen.toml).", "project_file"
)
@click.version_option(package_name="cardgen")
@click.pass_context
def cli(
    ctx: click.Context,
    data_dir: Path | None,
    templates_dir: Path | None,
    limit_options: tuple[str, ...],
    project_file: Path | None,
) -> None:
    """Print-and-play PDFs from YAML card data, checked against the rulebooks."""
    from cardgen import project

    limits.configure(limit_options)
    found = project.find(project_file)
    ctx.obj = Context(
        data_dir or found.data or default_data_dir(), templates_dir or found.templates or default_templates_dir()
    )


@cli.command("new")
@click.argument("game_id")
@_option("--into", FOLDER, Path("."), "Folder to create the game in (card_data/ and templates/ below it).")
def new_command(game_id: str, into: Path) -> None:
    """Start a new game that lists, validates and builds as it is: manifest, a deck, rules, layouts."""
    from cardgen.scaffold import new_game

    for path in new_game(game_id, into):
        echo(f"created {display_path(path)}")
    where = "" if into.resolve() == Path.cwd().resolve() else f" (in {display_path(into.resolve())})"
    echo(f"next: cardgen validate {game_id} && cardgen build {game_id}{where}")


@cli.command("trust")
@click.argument("game_id")
@click.pass_obj
def trust_command(obj: Context, game_id: str) -> None:
    """Let the game's own checks.py run on validate and build, as it is now (a changed file asks again)."""
    from cardgen import trust
    from cardgen.data.games import find_game

    folder = find_game(obj.data_dir, game_id)
    if trust.is_bundled(folder):
        echo(f"{game_id} is bundled with cardgen: its checks.py always runs")
        return
    sha = trust.trust(folder)
    echo(
        f"trusted {game_id} ({display_path(folder.resolve())}): its checks.py (sha256 {sha}) runs on validate and "
        f"build; 'cardgen untrust {game_id}' undoes it"
    )


@cli.command("untrust")
@click.argument("game_id")
@click.pass_obj
def untrust_command(obj: Context, game_id: str) -> None:
    """Stop the game's own checks.py from running (it is reported as skipped again)."""
    from cardgen import trust
    from cardgen.data.games import find_game

    folder = find_game(obj.data_dir, game_id)
    if trust.untrust(folder):
        echo(f"untrusted {game_id} ({display_path(folder.resolve())}): its checks.py no longer runs")
    else:
        echo(f"{game_id} ({display_path(folder.resolve())}) was not trusted: nothing to undo")


@cli.command("layout-reference")
def layout_reference_command() -> None:
    """Print the layout reference: every element and attribute, icons, sizes, fonts (docs/layout-reference.md)."""
    from cardgen.render.reference import layout_reference

    echo(layout_reference(), nl=False)


@cli.command("icons")
@click.argument("word", default="")
@_option("--sheet", click.Path(dir_okay=False, path_type=Path), None, "Also draw them on a contact sheet (PNG).")
def icons_command(word: str, sheet: Path | None) -> None:
    """List the icon library's icons (name, category, author) whose name, category or author contains WORD."""
    from cardgen.output import write_atomic
    from cardgen.render.library import LICENCE, SOURCE, search
    from cardgen.render.library_sheet import contact_sheet

    found = search(word)
    if not found:
        raise DataError(f"no icon of the library matches '{word}' (`cardgen icons` lists them all)")
    width = max(len(icon.name) for icon in found)
    for icon in found:
        echo(f"{icon.name:<{width}}  {icon.category:<22}  {icon.author}")
    echo(f'{len(found)} icons from {SOURCE} ({LICENCE}): <icon name="NAME"> or {{NAME}} in a layout')
    if sheet is not None:
        write_atomic(sheet, contact_sheet(found, _bundled_body_font()))
        echo(f"{display_path(sheet)}  contact sheet of {len(found)} icons")


@cli.command("limits")
def limits_command() -> None:
    """List the bounds on what a game folder may ask for, with the values in force."""
    rows = limits.current().describe()
    width = max(len(name) for name, _, _ in rows)
    for name, value, doc in rows:
        echo(f"{name:<{width}}  {value:>12}  {doc}")


@cli.command("list")
@click.argument("games", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_obj
def list_command(obj: Context, games: tuple[str, ...], as_json: bool) -> None:
    """List the games and their components, with counts (copies included)."""
    from cardgen.render import cache

    def listed() -> str:
        return listing_text(load_games(obj.data_dir, games), as_json)

    echo(cache.listing(obj.data_dir, _listing_parts(games, as_json), listed), nl=False)


def listing_text(loaded: list[Game], as_json: bool) -> str:
    """What `cardgen list` prints for the loaded games."""
    if as_json:
        return json.dumps([game_summary(game) for game in loaded], indent=2) + "\n"
    lines = []
    for game in loaded:
        low, high = game.players
        players = f"{low} players" if low == high else f"{low}–{high} players"
        lines.append(f"{game.id}  {game.title}  ({players})")
        width = max((len(c.id) for c in game.components), default=0)
        for component in game.components:
            note = "  (not printed)" if component.kind == "pieces" else "" if component.items else "  (no contents yet)"
            lines.append(f"  {component.id:<{width}}  {component.kind:<8}  {component.count:>4}{note}")
    return "".join(line + "\n" for line in lines)


def _listing_parts(games: tuple[str, ...], as_json: bool) -> list[object]:
    """What a kept listing depends on besides the data and cardgen: the games asked for, the format, the limits."""
    from cardgen import limits

    return [list(games), as_json, dataclasses.asdict(limits.current())]


def _keep_listing(obj: Context, loaded: list[Game]) -> None:
    """A command that loaded every game of the folder keeps what `cardgen list` would print of it (both forms), so
    that listing the data after a build or a check reads it back instead of loading everything again."""
    from cardgen.data.games import game_folders
    from cardgen.render import cache

    by_folder = {game.folder.name: game for game in loaded}
    order = list(game_folders(obj.data_dir))  # the order `load_games` lists them in
    if sorted(by_folder) != sorted(order):
        return
    games = [by_folder[name] for name in order]
    for as_json in (False, True):
        cache.keep_listing(obj.data_dir, _listing_parts((), as_json), listing_text(games, as_json))


TRUST_CODE = _flag(
    "--trust-code", "Run the game's own checks.py (Python). Bundled games are trusted; others only if you say."
)


def _layout_variables(ctx: click.Context, param: click.Parameter, pairs: tuple[str, ...]) -> None:
    """`--set KEY=VALUE`: values every layout sees as `vars.KEY` (reset by each command that takes the option)."""
    if not pairs and "cardgen.render.layouts" not in sys.modules:
        return  # nothing set, and no layout seen yet in this process: nothing to reset
    from cardgen.render.layouts import set_variables

    try:
        set_variables(pairs)
    except ValueError as exc:
        raise DataError(f"--set {exc}") from None


LAYOUT_VARIABLES = click.option(
    "--set", "layout_variables", multiple=True, metavar="KEY=VALUE", callback=_layout_variables, expose_value=False,
    help="A value the layouts see as vars.KEY (text); repeatable.",
)  # fmt: skip


class Stamp(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """One line of printable text: a control character (a tab, a line break, an escape) has no glyph to print."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if bad := next((ch for ch in text if not ch.isprintable()), None):
            where = f"character {text.index(bad) + 1}"
            self.fail(f"{clipped(text, 40)!r} holds the control character {bad!r} ({where}): a stamp is one line "
                      "of printable text", param, ctx)  # fmt: skip
        return text


STAMP = _option("--stamp", Stamp(), None, "A label (a version, a date) printed small at the bottom of every face.")


@cli.command("validate")
@click.argument("games", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@_flag("--notes", "List each game's rulebook contradictions and gaps with the reading followed, and unchecked facts.")
@_flag(
    "--allow-unchecked",
    "Exit 0 for a game that has no rules.yaml or no checks, or whose checks.py was skipped (default: 1).",
)
@_option("--sources", FOLDER, None, "Folder holding the documents rules.yaml names in `sources:`: every quote is "
         "looked for in them, verbatim.")  # fmt: skip
@TRUST_CODE
@LAYOUT_VARIABLES
@click.pass_obj
def validate_command(
    obj: Context,
    games: tuple[str, ...],
    as_json: bool,
    notes: bool,
    allow_unchecked: bool,
    sources: Path | None,
    trust_code: bool,
) -> None:
    """Check card data and rules facts against the rulebooks (exit 1 when a rule is broken or nothing is checked)."""
    from cardgen.validate import validate_game

    loaded = load_games(obj.data_dir, games)
    if not games:
        _keep_listing(obj, loaded)
    if sources is not None and not sources.is_dir():
        raise DataError(f"--sources {display_path(sources)}: not a folder")
    fonts = default_fonts_dir()
    reports = [validate_game(game, obj.templates_dir, fonts, obj.trusted(game, trust_code), sources) for game in loaded]
    if as_json:
        payload: dict[str, Any] = {"games": {r.game: r.as_json() for r in reports}}
        if notes:
            payload["notes"] = {g.id: [c.model_dump() for c in g.rules.contradictions] for g in loaded}
        echo(json.dumps(payload, indent=2, default=str))
    else:
        for game, report in zip(loaded, reports, strict=True):
            _print_report(report)
            if notes:
                _print_notes(game, report)
    failed = [r.game for r in reports if not r.ok or (not r.complete and not allow_unchecked)]
    if failed:
        raise RuleError(f"{', '.join(failed)}: not valid (see the report above)")


def _print_report(report: GameReport) -> None:
    if report.unchecked:
        why = "it has no rules.yaml" if not report.has_rules else "its rules.yaml has no checks"
        echo(f"{report.game}: NOT CHECKED — {why} (--allow-unchecked accepts that)")
    facts = f"{report.facts_checked} facts agree with their sources"
    if report.facts_unchecked:
        facts += f" ({len(report.facts_unchecked)} designed or unchecked: --notes)"
    skipped = f"; {len(report.skipped)} skipped ({report.skipped[0].reason})" if report.skipped else ""
    if report.sources is not None:
        facts += f"; {report.sources.found} quoted passages found verbatim in {', '.join(report.sources.documents)}"
    if report.sources_unnamed:
        skipped += "; its rules.yaml names no sources, so no quote was compared"
    if report.ok:
        if report.sources_unnamed and not report.skipped:
            echo(f"{report.game}: NOT COMPLETE — {report.checks} checks hold{skipped}; {facts} "
                 "(--allow-unchecked accepts that)")  # fmt: skip
        elif report.skipped:
            ran = report.checks - len(report.skipped)
            echo(f"{report.game}: NOT COMPLETE — {ran} of {report.checks} checks ran and hold{skipped}; {facts} "
                 "(--allow-unchecked accepts that)")  # fmt: skip
        elif not report.unchecked:
            echo(f"{report.game}: {report.checks} checks, all hold; {facts}")
        return
    echo(f"{report.game}: {report.checks} checks, {len(report.violations)} violation(s){skipped}")
    for v in report.violations:
        echo(f"  {v.where}: {v.rule}")
        echo(f"      expected {v.expected}; found {v.actual}  [{v.citation}]")


def _print_notes(game: Game, report: GameReport) -> None:
    if not game.rules.contradictions:
        echo(f"  (no contradictions or gaps recorded for {game.id})")
    for note in game.rules.contradictions:
        echo(f"  {note.kind}: {note.topic}")
        for reading in note.readings:
            echo(f"    - {reading.text}  [{reading.cite}]")
        echo(f"    followed: {note.followed}")
        echo(f"    why: {note.why}")
    for name in report.facts_unchecked:
        fact = game.rules.facts[name]
        why = "designed" if fact.origin == "designed" else f"unchecked: {fact.reason}"
        echo(f"  fact {name}: {why}")


@cli.command("build")
@click.argument("games", nargs=-1)
@_option("--out", FOLDER, Path("output"), "Folder to write into; each game gets a subfolder.", "out_dir")
@_option("--paper", PAPERS, "a4")
@_option("--duplex", ["long-edge", "short-edge", "off"], "long-edge", "Where backs go: behind their fronts for a "
         "long- or short-edge flip, or on pages of their own.")  # fmt: skip
@_option("--back-offset", Offset(), "0,0", "Shift back pages by X,Y mm (read it off `cardgen calibrate`).")
@_option("--layout", ["grid", "fold"], None, "Impose every component this way (default: fold for double-sided "
         "counters, grid otherwise).")  # fmt: skip
@_option("--format", ["pdf", "shop-pdf", "png", "tts"], "pdf", "pdf: cut-ready sheets; shop-pdf: one face per page "
         "with bleed; png: one 300 dpi image per face; tts: a Tabletop Simulator saved object with its images.",
         "output_format")  # fmt: skip
@_option("--tts-base-url", str, None, "With --format tts: the address the images will be uploaded to, http(s) "
         "(default: file:/// paths of the output folder; a file: address must lie inside it).")  # fmt: skip
@_option("--ink", ["full", "light", "both"], "full", "light: backs and other large dark areas as pale tints inside an "
         "outline, for home printers (PRINT.md gives each file's ink coverage); both: each PDF in full ink and, beside "
         "it, in light ink (<file>-light-ink.pdf).")  # fmt: skip
@_option("--gutter", Length(0, 50), 0.0, "Space between cards in mm (0: shared cut lines).")
@_option("--mark-length", Length(0, 30), 5.0, "Crop-mark length in mm.")
@_option("--mark-offset", Length(0, 30), 3.0, "Gap between trim and crop mark in mm (marks never start inside the "
         "bleed: a smaller gap becomes the bleed).")  # fmt: skip
@_option("--mark-weight", Length(0.05, 5, "pt"), 0.3, "Crop-mark line weight in points.")
@_flag("--allow-overflow", "Build even if text does not fit (prints warnings).")
@_flag("--quiet", "Print nothing but warnings and errors (no progress, no file list).", "-q")
@_flag("--no-validate", "Print without checking the data (no check runs, no checks.py is imported).")
@_flag("--proof", "Also write proof.pdf: every distinct face once, with id, copies, status.")
@click.option("--only", default=None, metavar="COMPONENT[,COMPONENT]", help="Build only these components "
              "(the whole game is still validated).")  # fmt: skip
@_option("--jobs", Whole(1, 256), None, "Processes to build with, the files shared out among them "
         "(default: the number of cores, for builds large enough to gain; the files are the same whatever the "
         "number).")  # fmt: skip
@_flag("--no-cache", "Build every file afresh, ignoring what earlier builds recorded in OUT/.cardgen-cache/.")
@TRUST_CODE
@LAYOUT_VARIABLES
@STAMP
@click.pass_obj
def build_command(
    obj: Context,
    games: tuple[str, ...],
    out_dir: Path,
    paper: str,
    duplex: str,
    back_offset: tuple[float, float],
    layout: str | None,
    output_format: str,
    ink: str,
    gutter: float,
    mark_length: float,
    mark_offset: float,
    mark_weight: float,
    allow_overflow: bool,
    quiet: bool,
    no_validate: bool,
    proof: bool,
    only: str | None,
    jobs: int | None,
    trust_code: bool,
    tts_base_url: str | None,
    no_cache: bool,
    stamp: str | None,
) -> Built:
    """Print games into cut-ready PDFs (all bundled games when none is named)."""
    from cardgen.render import cache

    if tts_base_url is not None:
        from cardgen.render.tts import check_base_url

        if output_format != "tts":
            raise click.UsageError(f"--tts-base-url is for --format tts, not --format {output_format}")
        check_base_url(tts_base_url, out_dir)
    if ink == "both" and output_format != "pdf":
        raise click.UsageError(f"--ink both writes print PDFs in two inks: it is for --format pdf, not {output_format}")

    # a game built before from exactly these files and options, whose files are intact, is not even loaded
    inputs = {} if no_cache else _inputs(obj, games, click.get_current_context().params, trust_code)
    kept = {gid: record for gid, key in inputs.items() if (record := cache.unchanged(out_dir, gid, key)) is not None}
    todo = [gid for gid in inputs if gid not in kept]
    workers = jobs or os.cpu_count() or 1
    must_load = bool(todo or not inputs)
    # with several cores the games are drawn while they load and are checked (render/parallel.py): the renderer is
    # set up first; otherwise it loads only for data that can be printed (a mistake in the data is reported sooner)
    ahead = must_load and only is None and workers > 1 and ink != "both" and _can_fork()  # both: one process

    def print_options() -> PrintOptions:
        from cardgen.render.imposition import MarkStyle
        from cardgen.render.jobs import PrintOptions

        return PrintOptions(
            paper=paper,
            duplex=duplex,
            back_offset=back_offset,
            layout=layout,
            format=output_format,
            ink=ink.lower(),
            gutter=gutter,
            marks=MarkStyle(length=mark_length, offset=mark_offset, weight=mark_weight),
            allow_overflow=allow_overflow,
        )

    with contextlib.ExitStack() as stack:
        speculative = None
        if ahead:
            from cardgen.render.parallel import Speculative

            options = print_options()
            stack.enter_context(all_or_nothing(within=out_dir))
            stack.enter_context(cache.enabled(out_dir, use=not no_cache))
            speculative = stack.enter_context(
                Speculative(lambda: _layouts(obj, stamp), out_dir, options, workers, eager=jobs is not None)
            )
        each = speculative.add if speculative else None
        loaded = load_games(obj.data_dir, todo if inputs else games, each) if must_load else []
        if no_validate:
            echo("cardgen: warning: the data was not checked against its rules (--no-validate)", err=True)
        said = (
            _validate_before_build(loaded, [obj.trusted(g, trust_code) for g in loaded], quiet)
            if loaded and not no_validate
            else {}
        )
        for record in kept.values():
            _say(record.warnings, quiet)
        if not loaded and kept:  # nothing to build: the renderer is not even imported
            outcomes: list[tuple[list[str], list[Any], list[Path]]] = [(r.notes, r.files, r.guides)
                                                                       for r in kept.values()]  # fmt: skip
            _print_built(outcomes, output_format, paper, quiet)
            return Built([f.path for r in kept.values() for f in r.files], [])
        from cardgen.render import stale
        from cardgen.render.build import BuildReport, build_game
        from cardgen.render.guide import write_guide
        from cardgen.render.jobs import OutputFile

        if speculative is None:
            options = print_options()
        layouts = _layouts(obj, stamp)  # made once per process (by `speculative` too)
        if only is not None:
            loaded = _only(loaded, [name.strip() for name in only.split(",") if name.strip()])
        widest = max((_widest_bleed(game) for game in loaded), default=0.0)
        if mark_offset < widest:
            echo(
                f"cardgen: warning: --mark-offset {mark_offset:g} mm is less than the bleed ({widest:g} mm); "
                "crop marks start at the bleed's edge so they are never printed over art",
                err=True,
            )
        missing = [problem for game in loaded for problem in layouts.missing(game)]
        if missing:
            raise DataError(missing)
        total = sum(c.count for g in loaded for c in g.components if c.printed)
        reports: dict[str, BuildReport] = {}
        guides: dict[str, list[Path]] = {}
        asides: list[str] = []  # what was moved aside or cleared, said once the files are committed
        if speculative is None:
            stack.enter_context(all_or_nothing(within=out_dir))
            stack.enter_context(cache.enabled(out_dir, use=not no_cache))
        bar = stack.enter_context(
            click.progressbar(length=total, label="building", file=sys.stderr, hidden=quiet or not sys.stderr.isatty())
        )

        def finish(game: Game, report: BuildReport) -> None:
            reports[game.id] = report
            written = guides.setdefault(game.id, [])
            blocked = set() if allow_overflow else {overflow.component for overflow in report.overflows}
            settled = stale.settle(game, out_dir, report.files, blocked)  # earlier files moved aside or cleared
            asides.extend(settled.lines(out_dir / game.id))
            if output_format == "pdf" and report.files:
                section = stale.section(settled.stale)
                written.extend(
                    write_guide(game, report.files, options, out_dir / game.id, _bundled_body_font(), section)
                )
            if output_format == "tts" and report.files:
                from cardgen.render.tts import write_saved_object

                note = game.manifest.description or ""
                saved = write_saved_object(
                    game.title, note, report.files, out_dir / game.id / "tts", tts_base_url, game.id
                )
                report.files.append(OutputFile(saved, 1, "saved object"))
            if proof:
                written.append(_proof(game, layouts, out_dir, None if no_validate else obj.trusted(game, trust_code)))
            asides.extend(stale.keep(out_dir, game.id, settled, written))

        if speculative is not None:
            speculative.finish(loaded, finish, bar.update)
        else:
            for game in loaded:
                finish(game, build_game(game, layouts, default_fonts_dir(), out_dir, options, bar.update))
    _say(asides, quiet)
    if not no_cache and not games and not kept and only is None and loaded:
        _keep_listing(obj, loaded)  # every game was loaded: what `cardgen list` would print of them
    if not no_cache and output_format in cache.CACHED_FORMATS:
        for game_id, report in reports.items():  # after the files are committed: what the next build may keep
            key = inputs.get(game_id) if not report.overflows and only is None else None
            try:
                cache.remember(out_dir, game_id, report.files, guides[game_id], key, report.notes, said.get(game_id))
            except DataError as exc:  # the files are written; only the next build's shortcut is lost
                echo(f"cardgen: warning: {exc.lines()[0]}; the next build draws every file again", err=True)
    outcomes = [
        (kept[gid].notes, kept[gid].files, kept[gid].guides) if gid in kept else
        (reports[gid].notes, reports[gid].files, guides[gid])
        for gid in (inputs or [g.id for g in loaded]) if gid in kept or gid in reports
    ]  # fmt: skip
    _print_built(outcomes, output_format, options.paper, quiet)
    overflows = [o for r in reports.values() for o in r.overflows]
    if overflows:
        prefix = "warning" if allow_overflow else "error"
        for overflow in overflows:
            echo(f"cardgen: {prefix}: {overflow}", err=True)
        if not allow_overflow:
            raise RuleError(
                f"{len(overflows)} text box(es) overflow; components with overflowing text were not written "
                "(fix the text or the layout, or use --allow-overflow)"
            )
    written = [f.path for _, files, _ in outcomes for f in files if not f.reused]
    return Built(
        [f.path for _, files, _ in outcomes for f in files], written + [g for gid in reports for g in guides[gid]]
    )


@dataclass(frozen=True)
class Built:
    """What a build did (`cardgen watch` says it): every file of the games built, and the files written afresh
    (the others were kept from an earlier build: render/cache.py)."""

    files: list[Path]
    written: list[Path]


def _can_fork() -> bool:
    from cardgen.render.parallel import can_fork

    return can_fork()


def _layouts(obj: Context, stamp: str | None) -> Layouts:
    """The layouts of the templates folder, compiled once per process (render/cache.py)."""
    from cardgen.render import cache
    from cardgen.render.layouts import Layouts

    return cache.layouts((obj.templates_dir, stamp), lambda: Layouts(obj.templates_dir, stamp=stamp))


# options of `cardgen build` that do not change what it writes
_NOT_OUTPUT = ("games", "out_dir", "quiet", "jobs", "no_cache")


def _inputs(obj: Context, games: tuple[str, ...], params: dict[str, Any], trust_code: bool) -> dict[str, str]:
    """Each game's inputs as one hash (render/cache.py): its files, the layouts, the fonts, cardgen, the options."""
    from cardgen.render import cache

    names = list(games) or sorted(p.parent.name for p in obj.data_dir.glob("*/game.yaml") if p.is_file())
    options = {k: v for k, v in params.items() if k not in _NOT_OUTPUT}
    layouts = sys.modules.get("cardgen.render.layouts")  # imported by `--set` (and by any build before in-process)
    options["vars"] = layouts.variables() if layouts else {}
    layout_dirs = list(dict.fromkeys([obj.templates_dir, default_templates_dir()]))
    bounds = dataclasses.asdict(limits.current())
    return {
        name: cache.game_inputs(
            name,
            obj.data_dir,
            layout_dirs,
            default_fonts_dir(),
            {**options, "trusted": _trusted_for_cache(obj, name, trust_code), "limits": bounds},
        )
        for name in dict.fromkeys(names)
    }


def _trusted_for_cache(obj: Context, name: str, trust_code: bool) -> bool | str | None:
    """What decides whether a game's checks.py runs, for its inputs' hash (a change of trust validates again)."""
    from cardgen import trust

    if trust_code:
        return True
    try:
        decision = trust.decide(name, obj.data_dir / name)
    except DataError:  # an unreadable trust store: the build reports it
        return None
    return (decision.sha256 or True) if decision.runs else False


def _print_built(
    outcomes: list[tuple[list[str], list[Any], list[Path]]], output_format: str, paper: str, quiet: bool
) -> None:
    """The file list of a build (each game's notes, files and guides) and, for print PDFs, the paper it takes."""
    if quiet:  # --quiet: errors and warnings only
        return
    for notes, files, _ in outcomes:
        for note in notes:
            echo(f"note: {note}", err=True)
        for file in files:
            unit = "image" if output_format in ("png", "tts") else "page"
            what = f"{file.pages} {unit}{'' if file.pages == 1 else 's'}"
            what += f" (with {', '.join(file.holds)})" if file.holds else ""
            what += ", unchanged" if file.reused else ""
            echo(f"{display_path(file.path)}  {'saved object' if file.component == 'saved object' else what}")
    every = [f for _, files, _ in outcomes for f in files]
    if output_format != "pdf" or not every:
        return
    for _, _, guides in outcomes:
        for guide in guides:
            what = GUIDE_FILES.get(guide.name, "how to print")
            echo(f"{display_path(guide)}  {what}")
    duplex = sum(f.sides in ("long-edge", "short-edge") for f in every)
    sheets = sum(map(_sheets_of, every))
    paper_name = paper.upper() if paper == "a4" else paper.title()
    echo(
        f"{_count(len(every), 'file')}, {_count(sum(f.pages for f in every), 'page')} on "
        f"{_count(sheets, 'sheet')} of {paper_name} paper; {duplex} to print double-sided — see PRINT.md in each "
        "game's folder"
    )


def _sheets_of(file: Any) -> int:
    """The sheets of paper a file takes: recorded with a file kept from an earlier build (so that a build that
    draws nothing need not import the renderer), else counted as the print guide counts them."""
    from cardgen.render.cache import Kept

    if isinstance(file, Kept):
        return file.sheets
    return int(file.sheets_of_paper)


def _proof(game: Game, layouts: Layouts, out_dir: Path, trusted: Decision | None) -> Path:
    """The proof sheet; `trusted` None: not validated (--no-validate), so only text fitting is shown."""
    from cardgen.render.build import GameRenderer
    from cardgen.render.proof import write_proof
    from cardgen.validate import validate_game

    violations = [] if trusted is None else validate_game(game, trust_code=trusted).violations
    target = out_dir / game.id / "proof.pdf"
    write_proof(GameRenderer(game, layouts, default_fonts_dir()), violations, target)
    return target


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _bundled_body_font() -> str:
    """The bundled body font with its bold and italic faces registered as a family (the guide's <b> needs it, and a
    process that built nothing, such as a parallel build's parent, has not registered them yet)."""
    from cardgen.render.fonts import load_roles

    return load_roles({}, default_fonts_dir(), default_fonts_dir())["body"].regular


def _widest_bleed(game: Game) -> float:
    bleeds = [c.spec.bleed for c in game.components if c.spec is not None and c.spec.bleed is not None]
    return max([game.manifest.settings.bleed, *bleeds])


def _only(games: list[Game], names: list[str]) -> list[Game]:
    """The games with only the named components (each name must be a component of at least one of them)."""
    import dataclasses

    from cardgen.errors import did_you_mean

    known = {c.id for game in games for c in game.components}
    for name in names:
        if name not in known:
            raise click.BadParameter(f"no component '{name}'{did_you_mean(name, sorted(known))}", param_hint="--only")
    chosen = [dataclasses.replace(g, components=tuple(c for c in g.components if c.id in names),
                                  readable=g.readable or g.components) for g in games]  # fmt: skip
    return [game for game in chosen if game.components]


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
        _say(lines, quiet)
    problems = [Problem(None, f"{r.game}: {violation}") for r in reports for violation in r.violations]
    if problems:
        last = "the data breaks the rules above; nothing was printed (--no-validate prints anyway)"
        raise RuleError([*problems, Problem(None, last)])
    return said


def _say(lines: list[str], quiet: bool) -> None:
    """Warnings always, notes unless --quiet, on stderr."""
    for line in lines:
        if not (quiet and line.startswith("cardgen: note:")):
            echo(line, err=True)


@cli.command("watch")
@click.argument("game")
@_option("--out", FOLDER, Path("output"), "Folder to write into; the game gets a subfolder.", "out_dir")
@_option("--paper", PAPERS, "a4")
@_option("--duplex", ["long-edge", "short-edge", "off"], "long-edge", "As for `cardgen build`.")
@_option("--ink", ["full", "light", "both"], "full", "As for `cardgen build`.")
@_option("--format", ["pdf", "shop-pdf", "png", "tts"], "pdf", "As for `cardgen build`.", "output_format")
@click.option("--only", default=None, metavar="COMPONENT[,COMPONENT]", help="Rebuild only these components.")
@_flag("--proof", "Also write proof.pdf on every rebuild.")
@_flag("--poll", "Look for changes every 0.3 s instead of being told (network drives, some containers); a file "
       "saved twice within a second is then seen once.")  # fmt: skip
@LAYOUT_VARIABLES
@STAMP
@TRUST_CODE
@click.pass_context
def watch_command(
    ctx: click.Context,
    game: str,
    out_dir: Path,
    paper: str,
    duplex: str,
    ink: str,
    output_format: str,
    only: str | None,
    proof: bool,
    poll: bool,
    stamp: str | None,
    trust_code: bool,
) -> None:
    """Rebuild a game whenever one of its data files, layouts, fonts or images changes (Ctrl-C stops)."""
    from cardgen import watch
    from cardgen.data.games import find_game

    obj: Context = ctx.obj
    find_game(obj.data_dir, game)  # an unknown game is an error now; a mistake in a known one is for the designer
    watched = watch.folders(obj.data_dir, obj.templates_dir, default_templates_dir(), default_fonts_dir(), game)
    options = dict(paper=paper, duplex=duplex, ink=ink, output_format=output_format, only=only, stamp=stamp)

    def rebuild() -> Built:
        built: Built = ctx.invoke(
            build_command, games=(game,), out_dir=out_dir, quiet=True, jobs=1, proof=proof, trust_code=trust_code,
            **options,
        )  # fmt: skip
        return built

    try:
        watch.watch(rebuild, watched, out_dir / game, [obj.templates_dir, default_templates_dir()], poll)
    except KeyboardInterrupt as stop:
        echo("stopped")
        if isinstance(stop, stopping.Terminated):
            sys.exit(stopping.EXIT_TERMINATED)


@cli.command("export-items")
@click.argument("game")
@click.argument("component")
@_option("--format", ["csv", "xlsx"], "csv", dest="table_format")
@_option("--out", FILE, None, "File to write (default: output/GAME/COMPONENT.csv or .xlsx).", "out_file")
@click.pass_obj
def export_items_command(obj: Context, game: str, component: str, table_format: str, out_file: Path | None) -> None:
    """Write a component's items as a spreadsheet that reads back unchanged (cards: {file: ...})."""
    from cardgen.data.tables import component_rows, write_table
    from cardgen.output import write_atomic

    (loaded,) = load_games(obj.data_dir, [game])
    part = loaded.component(component)
    if part.kind == "pieces" or part.spec is None:
        raise DataError(f"{game}: component '{component}' has no items to export")
    default_back = loaded.manifest.settings.back if part.kind == "deck" else None
    rows = component_rows(part, loaded.manifest.card_types, default_back)
    target = out_file or Path("output") / game / f"{component}.{table_format}"
    if target.suffix.lower() != f".{table_format}":
        raise DataError(f"--out {display_path(target)}: a {table_format} file must end in .{table_format}")
    write_atomic(target, write_table(target, rows, component))
    echo(f"{display_path(target)}  {len(rows) - 1} item{'' if len(rows) == 2 else 's'}, {len(rows[0])} columns")


@cli.command("preview")
@click.argument("game")
@click.argument("item", required=False)
@_option("--side", ["front", "back"], "front")
@_option("--dpi", Whole(30, 600), 150)
@click.option("--grid", "grid", default=None, metavar="COMPONENT", help="A contact sheet of a component's faces.")
@_option("--out", FILE, None, "PNG to write (default: output/GAME/preview/ITEM-SIDE.png).", "out_file")
@LAYOUT_VARIABLES
@STAMP
@click.pass_obj
def preview_command(
    obj: Context, game: str, item: str | None, side: str, dpi: int, grid: str | None, out_file: Path | None,
    stamp: str | None,
) -> None:  # fmt: skip
    """Render one card's face (or a component's faces with --grid) to a PNG, in well under a second."""
    import time

    from cardgen.render.build import GameRenderer
    from cardgen.render.layouts import Layouts
    from cardgen.render.preview import preview_grid, preview_item

    if (item is None) == (grid is None):
        raise click.UsageError("name an ITEM, or a component with --grid")
    start = time.perf_counter()
    (loaded,) = load_games(obj.data_dir, [game])
    renderer = GameRenderer(loaded, Layouts(obj.templates_dir, stamp=stamp), default_fonts_dir())
    folder = Path("output") / game / "preview"
    if grid is not None:
        path, report = preview_grid(renderer, grid, dpi, out_file or folder / f"{grid}-grid.png")
    else:
        assert item is not None
        path, report = preview_item(renderer, item, side, dpi, out_file or folder / f"{item}-{side}.png")
    for overflow in report.overflows:
        echo(f"cardgen: warning: {overflow}", err=True)
    echo(f"{display_path(path)}  ({time.perf_counter() - start:.2f} s)")


EXECUTOR = _option("--executor", ["local", "processes", "dask"], None, "Where games run: this process, --jobs local "
                   "processes, or Dask workers (--scheduler, or a local cluster of --jobs workers). Default: local for "
                   "one job, processes for more, dask with --scheduler.")  # fmt: skip
SEATS = _option(
    "--seats",
    ["rotate", "fixed"],
    "rotate",
    "rotate: the agents take the seats in turn, game after game, so an agent's win rate is not its seat's; fixed: "
    "each agent keeps the seat --agents gives it.",
)


SEED = _option("--seed", Whole(0, 2**63 - 1), 1, "Root seed; each game's seed derives from it.")
CHECK = _flag("--check", "Check the invariants after every action.")
SCHEDULER = _option("--scheduler", str, None, "A Dask scheduler's address (tcp://HOST:8786) whose workers play the "
                    "games (needs the cluster extra: pip install 'cardgen[cluster]').")  # fmt: skip


@cli.command("play")
@click.argument("game")
@_option(
    "--players",
    PlayerCounts(),
    None,
    "Players per game, or a range (2..4) played count by count (default: the fewest).",
)
@_option("--games", Whole(1, 100_000_000), 100, dest="count")
@SEED
@_option(
    "--agents",
    str,
    "random",
    "Agents by seat, comma-separated: random, greedy, mcts (mcts:N for N iterations a decision, mcts:Nms for N ms).",
)
@SEATS
@_option("--jobs", Whole(1, 256), 1, "Processes to spread the games over.")
@EXECUTOR
@SCHEDULER
@_option("--log", FILE, None, "Write every action and chance event as JSON lines.", "log_file")
@_flag("--json", "Print one JSON object.", "as_json")
@CHECK
@click.pass_obj
def play_command(
    obj: Context,
    game: str,
    players: tuple[int, ...] | None,
    count: int,
    seed: int,
    agents: str,
    seats: str,
    jobs: int,
    executor: str | None,
    scheduler: str | None,
    log_file: Path | None,
    as_json: bool,
    check: bool,
) -> None:
    """Play test games with the reference engine and report how they went."""
    import time

    from cardgen.engine.executors import choose_kind, open_workers
    from cardgen.engine.runner import GameResult, PlaySpec, log_lines, play_many, summarise
    from cardgen.output import streamed

    if log_file is not None:
        check_writable(log_file, "--log")
    kind = choose_kind(executor, jobs, scheduler)
    names = _agent_names(agents)
    engine, counts = _engine_and_counts(obj, game, players)
    summaries = []
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(streamed(log_file)) if log_file is not None else None
        workers = stack.enter_context(open_workers(kind, jobs, scheduler))

        def write_batch(results: list[GameResult]) -> None:  # logs go to the file as games finish, then are dropped
            if log is not None:
                log.write(log_lines(results))
                for result in results:
                    result.log = None

        for players_count in counts:
            spec = PlaySpec(game, str(obj.data_dir), players_count, seed, names, check=check,
                            log=log_file is not None, rotate=seats == "rotate")  # fmt: skip
            start = time.perf_counter()
            with click.progressbar(length=count, label=f"{players_count} players", file=sys.stderr,
                                   hidden=not sys.stderr.isatty()) as bar:  # fmt: skip
                results = play_many(spec, count, workers.executor, 1, bar.update, on_batch=write_batch)
            seconds = time.perf_counter() - start
            summaries.append(
                summarise(
                    spec,
                    results,
                    seconds,
                    engine.abilities(),
                    engine.playable(),
                    engine.data_problems(),
                    engine.event_problems,
                )
            )
    violations = sum(s["invariant_violations"] for s in summaries)
    if as_json:
        whole = summaries[0] if len(summaries) == 1 else {
            "game": game, "players": list(counts), "invariant_violations": violations, "runs": summaries,
        }  # fmt: skip
        echo(json.dumps(whole, indent=2))
    else:
        for summary in summaries:
            _print_play(summary)
    if violations:
        raise RuleError(f"{violations} invariant violation(s) (see above)")


def _agent_names(agents: str) -> tuple[str, ...]:
    from cardgen.engine.agents import check_agent

    names = tuple(a.strip() for a in agents.split(","))
    for problem in filter(None, map(check_agent, names)):
        raise click.BadParameter(problem, param_hint="--agents")
    return names


def _engine_and_counts(obj: Context, game: str, players: tuple[int, ...] | None) -> tuple[Any, tuple[int, ...]]:
    """A game's engine and the player counts asked for (by default its fewest), checked against the engine's."""
    from cardgen.engine.runner import engine_for

    engine = engine_for(game, str(_require_game(obj, game)))
    counts = players or (engine.min_players,)
    if not engine.min_players <= min(counts) <= max(counts) <= engine.max_players:
        raise click.BadParameter(
            f"{game} is for {engine.min_players}–{engine.max_players} players", param_hint="--players"
        )
    return engine, counts


def _require_game(obj: Context, game: str) -> Path:
    from cardgen.data.games import find_game

    find_game(obj.data_dir, game)
    return obj.data_dir


def _print_play(s: dict[str, Any]) -> None:
    from cardgen.engine.tally import unseen_note

    echo(
        f"{s['game']}: {s['games']} games, {s['players']} players, seed {s['seed']}, agents {', '.join(s['agents'])}"
        + (" (taking the seats in turn)" if s["seats"] == "rotate" and len(set(s["agents"])) > 1 else "")
    )
    echo("wins: " + ", ".join(f"{k} {v:g}" for k, v in s["wins"].items()))
    for what in ("turns", "actions"):
        st = s["length"][what]
        echo(f"{what}: mean {st['mean']:g}, min {st['min']}, max {st['max']}")
    echo("endings: " + ", ".join(f"{k} {v}" for k, v in s["endings"].items()))
    echo(f"invariant violations: {s['invariant_violations']}")
    for example in s["violation_examples"]:
        echo(f"  {example}")
    echo(f"data problems: {len(s['data_problems'])}")
    for problem in s["data_problems"]:
        echo(f"  {problem}")
    note = unseen_note(s["games"], s["data_problems"])
    if note:
        echo(f"  ({note})")
    echo(f"actions per second: {s['actions_per_second']:,.0f}")


@cli.command("balance")
@click.argument("game")
@_option("--players", PlayerCounts(), None, "Players per game, or a range (2..4), each count a sweep of its own "
         "(default: the fewest).")  # fmt: skip
@_option("--games", Whole(1, 100_000_000), 200, "Games per player count.", "count")
@SEED
@_option("--agents", str, "random", "Agents by seat, comma-separated: random, greedy, mcts (mcts:N).")
@SEATS
@_option("--out", FOLDER, None, "Folder for balance.html, .pdf, .json and the results files (default: "
         "output/GAME/balance).", "out_dir")  # fmt: skip
@_option("--jobs", Whole(1, 1024), 1, "Processes (or local Dask workers) to spread the games over.")
@EXECUTOR
@SCHEDULER
@_option("--batch", Whole(1, 1_000_000), 20, "Games per batch: the unit of work sent to a worker and kept "
         "in the results file.")  # fmt: skip
@_flag("--resume", "Continue the sweep kept in the output folder's results files instead of starting over.")
@_option("--compare", click.Path(dir_okay=False, path_type=Path), None, "An earlier balance.json: show what "
         "changed, per seat and per card.", "compare_file")  # fmt: skip
@CHECK
@click.pass_obj
def balance_command(
    obj: Context,
    game: str,
    players: tuple[int, ...] | None,
    count: int,
    seed: int,
    agents: str,
    seats: str,
    out_dir: Path | None,
    jobs: int,
    executor: str | None,
    scheduler: str | None,
    batch: int,
    resume: bool,
    compare_file: Path | None,
    check: bool,
) -> None:
    """Play seeded games and write a balance report: win rates by seat, agent and card, with intervals, as HTML,
    PDF and JSON."""
    import time

    from cardgen.balance import report
    from cardgen.engine.executors import CLUSTER_EXTRA, choose_kind, open_workers

    kind = choose_kind(executor, jobs, scheduler)
    names = _agent_names(agents)
    _, counts = _engine_and_counts(obj, game, players)
    if importlib.util.find_spec("matplotlib") is None:
        raise DataError(f"cardgen balance draws its plots with matplotlib: {CLUSTER_EXTRA}")
    out = out_dir or Path("output") / game / "balance"
    old = _read_compare(compare_file)
    settings = report.Settings(game, str(obj.data_dir), counts, count, names, seed, batch, check, seats == "rotate")
    start = time.perf_counter()
    try:
        with (
            open_workers(kind, jobs, scheduler) as workers,
            click.progressbar(
                length=count * len(counts), label="games", file=sys.stderr, hidden=not sys.stderr.isatty()
            ) as bar,
        ):
            for name in report.FILES:  # once the workers answer, before the first game
                check_writable(out / name, "--out")
            figures = report.play(settings, workers, out, resume, lambda _, games: bar.update(games))
    except KeyboardInterrupt as stop:
        from cardgen.balance.journal import kept_games

        kept = [kept_games(report.results_file(out, p)) for p in counts]
        done = ", ".join(f"{k:,} of {count:,} games at {p} players" for p, k in zip(counts, kept, strict=True))
        how = "terminated" if isinstance(stop, stopping.Terminated) else "interrupted"
        echo(f"cardgen: {how}; kept {done} in {display_path(out)}: run the same command with "
                   "--resume to finish", err=True)  # fmt: skip
        sys.exit(stopping.exit_code(stop))
    if old is not None:
        from cardgen.balance.compare import compare

        assert compare_file is not None
        figures["compare"] = compare(old, figures, display_path(compare_file))
    seconds = time.perf_counter() - start
    timing = {"time taken": f"{seconds:.1f} s", "where the games ran": workers.where}
    for path in report.write(figures, timing, out):
        echo(display_path(path))
    for run in figures["runs"]:
        for seat in run["seats"]:
            echo(f"{run['players']} players, {seat['name']}: {seat['rate']:.1%} "
                       f"({seat['low']:.1%}–{seat['high']:.1%}) — {seat['verdict']}")  # fmt: skip


def _read_compare(path: Path | None) -> dict[str, Any] | None:
    from cardgen.balance.compare import read_report

    return read_report(path) if path is not None else None


@cli.command("gallery")
@click.argument("games", nargs=-1)
@_option(
    "--out", FOLDER, Path("output") / "gallery", "Folder for the site (a page per game and its images).", "out_dir"
)
@TRUST_CODE
@LAYOUT_VARIABLES
@click.pass_obj
def gallery_command(obj: Context, games: tuple[str, ...], out_dir: Path, trust_code: bool) -> None:
    """A browsable card gallery: every face of every item with its fields and status, offline (open index.html)."""
    from cardgen.render.build import GameRenderer
    from cardgen.render.gallery import write_game, write_home
    from cardgen.render.layouts import Layouts
    from cardgen.validate import validate_game

    loaded = load_games(obj.data_dir, games)
    layouts = Layouts(obj.templates_dir)
    missing = [problem for game in loaded for problem in layouts.missing(game)]
    if missing:
        raise DataError(missing)
    written = []
    with all_or_nothing():
        for game in loaded:
            violations = validate_game(game, trust_code=obj.trusted(game, trust_code)).violations
            renderer = GameRenderer(game, layouts, default_fonts_dir())
            written.append(write_game(renderer, violations, out_dir / game.id))
        home = write_home(written, out_dir)
    for entry in written:
        echo(f"{display_path(out_dir / entry.id / 'index.html')}  {entry.items} items")
    echo(f"{display_path(home)}  open it in a browser (no server needed)")


class OddsCommand(click.Command):
    """`cardgen odds`: the fleets and the options every game's calculator takes (cardgen/engine/plugin.py), read
    from the game plugins when parsing or `--help` first asks for them, so that `cardgen --help` imports none."""

    read_from: object = None  # the plugins the options were read from (read again if they are: a test's own game)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        from cardgen.engine.plugin import plugins

        if plugins() is not self.read_from:
            self.params[1:] = odds_options()  # after GAME
            self.read_from = plugins()
        return super().get_params(ctx)


def odds_options() -> list[click.Parameter]:
    """The two fleets (with each calculator's example), every calculator's own options, and how to fight and print."""
    from cardgen.engine.plugin import calculator_options, calculators

    examples = calculators().values()
    fleets = [(f"'{c.attacker}' ({title})", f"'{c.defender}'") for title, c in examples]
    options: list[click.Parameter] = [
        click.Option(["--attacker"], help=f"The attacking fleet, e.g. {', '.join(a for a, _ in fleets)}."),
        click.Option(["--defender"], help=f"The defending fleet, e.g. {' or '.join(d for _, d in fleets)}."),
    ]
    for title, option in calculator_options().values():
        text = f"{title}: {option.help}"
        if option.flag:
            options.append(click.Option([option.name], is_flag=True, help=text))
        else:
            kind = click.Choice(option.choices, case_sensitive=False) if option.choices else str
            options.append(click.Option([option.name], type=kind, default=option.default, help=text,
                                        show_default=option.default is not None))  # fmt: skip
    return [
        *options,
        click.Option(
            ["--no-retreat"], is_flag=True, help="Fight to the end (the default retreats by the stated policy)."
        ),
        click.Option(["--json", "as_json"], is_flag=True, help="Print one JSON object."),
    ]


@cli.command("odds", cls=OddsCommand)
@click.argument("game")
@click.pass_obj
def odds_command(
    obj: Context,
    /,
    game: str,
    attacker: str | None,
    defender: str | None,
    no_retreat: bool,
    as_json: bool,
    **given: Any,
) -> None:
    """Exact odds of a battle (every outcome's probability, survivors, losses, rounds) by dynamic programming."""
    import time

    from cardgen.engine.plugin import calculators

    games = calculators()
    if game not in games:
        raise click.BadParameter(f"no battle calculator for '{game}'; calculators: {', '.join(sorted(games))}")
    calculator = games[game][1]
    if not attacker or not defender:
        raise click.UsageError(
            f"give both fleets: --attacker '{calculator.attacker}' --defender '{calculator.defender}'"
        )
    if stray := calculator.stray(given):
        raise click.UsageError(f"{', '.join(stray)} does not apply to {game}")
    if missing := calculator.missing(given):
        raise click.UsageError(f"{game} needs {', '.join(missing)}")
    options = calculator.own(given)
    (loaded,) = load_games(obj.data_dir, [game])
    start = time.perf_counter()
    result = calculator.calculate(loaded, attacker, defender, retreat=not no_retreat, options=options)
    where = calculator.where(options)
    seconds = time.perf_counter() - start
    if as_json:
        echo(json.dumps({"game": game, "attacker": attacker, "defender": defender, "where": where,
                               **result.as_json(), "seconds": round(seconds, 4)}, indent=2))  # fmt: skip
        return
    echo(f"{attacker} attacking {defender} ({where}), exact over {result.states} battle states:")
    for outcome, p in result.outcomes.items():
        echo(f"  {outcome:<20} {p:8.2%}")
    for side, dist in zip(("attacker", "defender"), result.survivors, strict=True):
        echo(f"  {side} survivors: " + "; ".join(f"{k} {v:.1%}" for k, v in list(dist.items())[:6]))
    echo(f"  expected {result.lost_in} lost: attacker {result.lost[0]:.2f}, defender {result.lost[1]:.2f}")
    echo(f"  expected {result.length_in}: {result.length:.2f}")
    for policy in result.policies:
        echo(f"  policy — {policy}")


@cli.command("replay")
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_obj
def replay_command(obj: Context, log_file: Path) -> None:
    """Replay a logged game (cardgen play --log) and confirm it reproduces exactly."""
    from cardgen.engine.runner import replay

    outcomes = replay(log_file, obj.data_dir)
    for index, ok, detail in outcomes:
        echo(f"game {index}: {'reproduced' if ok else 'DIFFERS'} — {detail}")
    differ = sum(not ok for _, ok, _ in outcomes)
    if not outcomes or differ:
        raise RuleError(
            f"{differ} of {len(outcomes)} logged games did not reproduce" if outcomes else "no games in the log"
        )


@cli.command("calibrate")
@_option("--paper", PAPERS, "a4")
@_option("--duplex", ["long-edge", "short-edge"], "long-edge")
@_flag("--landscape", "A landscape sheet, for layouts that print landscape (mini cards, hexes).")
@_option("--out", FILE, Path("output") / "calibration.pdf", dest="out_file")
def calibrate_command(paper: str, duplex: str, landscape: bool, out_file: Path) -> None:
    """Print a duplex calibration sheet to measure your printer's back-side offset."""
    from cardgen.render.calibrate import write_calibration
    from cardgen.units import PAPER_SIZES_MM, Size

    size = Size(*PAPER_SIZES_MM[paper])
    write_calibration(out_file, size.rotated() if landscape else size, _bundled_body_font(), duplex)
    echo(f"{display_path(out_file)}  2 pages — print double-sided ({duplex}), at actual size")


def game_summary(game: Game) -> dict[str, Any]:
    """The `cardgen list --json` entry of one game."""
    return {
        "id": game.id,
        "title": game.title,
        "players": list(game.players),
        "components": [{"id": c.id, "kind": c.kind, "count": c.count} for c in game.components],
    }


def main() -> None:
    """Console-script entry point: every outcome is an exit code and, for errors, one line per problem on stderr."""
    shown = output.shown()
    try:
        with stopping.handling():
            code = cli.main(prog_name="cardgen", standalone_mode=False)
    except click.UsageError as exc:  # a mistyped command or option: one line, with where to look
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare `cardgen`: the help, as asked
            echo(exc.ctx.get_help() if exc.ctx else "")
            sys.exit(0)
        command = exc.ctx.command_path if exc.ctx else "cardgen"
        echo(f"cardgen: error: {exc.format_message()} (see '{command} --help')", err=True)
        sys.exit(EXIT_INPUT)
    except click.ClickException as exc:
        echo(f"cardgen: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt) as exc:  # Ctrl-C or SIGTERM; nothing was written (all or nothing)
        stop = exc.__cause__ if isinstance(exc, click.Abort) else exc
        how = "terminated" if isinstance(stop, stopping.Terminated) else "interrupted"
        if output.shown() == shown:
            echo(f"cardgen: {how}; nothing was written", err=True)
        else:  # the signal came as the files were shown, or after: they are whole
            echo(f"cardgen: {how} after its files were written", err=True)
        sys.exit(stopping.exit_code(stop) if isinstance(stop, KeyboardInterrupt) else stopping.EXIT_INTERRUPTED)
    except CardgenError as exc:  # raised outside a command, e.g. while parsing options
        for line in exc.lines():
            echo(f"cardgen: error: {line}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:  # a bug in cardgen, not in the user's input
        if os.environ.get("CARDGEN_DEBUG"):
            raise
        echo(
            f"cardgen: internal error: {type(exc).__name__}: {exc} "
            "(set CARDGEN_DEBUG=1 to see where; please report it)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
    sys.exit(code if isinstance(code, int) else 0)


def run() -> None:
    """The `cardgen` program (console script, `python -m cardgen`): `main`, then the process ends without freeing
    one by one the objects the command built (after a large build about a tenth of a second of a few seconds' run).
    Exit handlers still run and the output is flushed first. Callers in a process of their own use `main`."""
    # A command allocates millions of short-lived objects and few reference cycles: Python's default threshold (a
    # collection every 700 allocations) spent about 5 % of a 2,700-card build collecting, for the same peak memory.
    gc.set_threshold(50_000, 20, 20)
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    atexit._run_exitfuncs()  # what interpreter shutdown would run: pools, temporary folders, logging
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


__all__ = ["EXIT_INPUT", "cli", "main", "run"]
