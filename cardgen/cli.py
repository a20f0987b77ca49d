"""The command line: a thin click shell over functions the tests call directly. A command reads its options into
the typed request of the function that does the work (`building.BuildRequest` for `build` and `watch`,
`engine.playtest.PlayRequest` for `play`, `balance.report.Settings` for `balance`) and prints what it returns.

Exit codes used by every command: 0 success; 1 the data breaks a rule; 2 the input could not be read; 130
interrupted (Ctrl-C) and 143 terminated (SIGTERM), with nothing partial written. Errors are printed once here, one
line each, on stderr — never as a Python traceback (set CARDGEN_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from cardgen import limits, output, stopping

if TYPE_CHECKING:
    from cardgen.data import Game
    from cardgen.trust import Decision
from cardgen.errors import EXIT_INPUT, CardgenError, DataError, RuleError, display_path
from cardgen.output import all_or_nothing, check_writable
from cardgen.parameters import Language, Length, Offset, Paper, PlayerCounts, Stamp, Whole
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
        from cardgen.building import trusted_to_run

        return trusted_to_run(game, trust_code)


class CardgenGroup(click.Group):
    """Renders `CardgenError` as one line per problem with the error's exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CardgenError as exc:
            for line in exc.lines():
                echo(f"cardgen: error: {line}", err=True)
            ctx.exit(exc.exit_code)


FOLDER = click.Path(file_okay=False, path_type=Path)
FILE = click.Path(dir_okay=False, path_type=Path)


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


PAPER = _option("--paper", Paper(), "a4", "a4, letter, a3, a5, tabloid, ledger, or WxH in mm (300x450) or inches "
                "(8.5x14in).")  # fmt: skip


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
@_flag("--fetch", "Fetch the items games take from addresses (cards: {url: …}) this run, whatever you allowed.")
@_flag("--offline", "Fetch nothing: read the copies kept from the last fetch.")
@click.version_option(package_name="cardgen")
@click.pass_context
def cli(
    ctx: click.Context,
    data_dir: Path | None,
    templates_dir: Path | None,
    limit_options: tuple[str, ...],
    project_file: Path | None,
    fetch: bool,
    offline: bool,
) -> None:
    """Print-and-play PDFs from YAML card data, checked against the rulebooks."""
    from cardgen import network, project

    limits.configure(limit_options)
    network.configure(fetch=fetch, offline=offline)
    found = project.find(project_file)
    ctx.obj = Context(
        data_dir or found.data or default_data_dir(), templates_dir or found.templates or default_templates_dir()
    )


@cli.command("new")
@click.argument("game_id")
@_option("--into", FOLDER, Path("."), "Folder to create the game in (card_data/ and templates/ below it).")
def new_command(game_id: str, into: Path) -> None:
    """Start a new game that lists, validates, builds and plays as it is: manifest, a deck, rules, layouts."""
    from cardgen.scaffold import new_game

    for path in new_game(game_id, into):
        echo(f"created {display_path(path)}")
    where = "" if into.resolve() == Path.cwd().resolve() else f" (in {display_path(into.resolve())})"
    echo(f"next: cardgen validate {game_id} && cardgen build {game_id} && cardgen play {game_id}{where}")


@cli.command("trust")
@click.argument("game_id")
@_flag("--fetch", "Instead: let the game fetch its items from the addresses it names now (cards: {url: …}).")
@click.pass_obj
def trust_command(obj: Context, game_id: str, fetch: bool) -> None:
    """Let the game's own checks.py run on validate and build, as it is now (a changed file asks again)."""
    from cardgen import trust
    from cardgen.data.games import find_game

    folder = find_game(obj.data_dir, game_id)
    if fetch:
        _allow_fetching(game_id, folder)
        return
    if trust.is_bundled(folder):
        echo(f"{game_id} is bundled with cardgen: its checks.py always runs")
        return
    sha = trust.trust(folder)
    echo(
        f"trusted {game_id} ({display_path(folder.resolve())}): its checks.py (sha256 {sha}) runs on validate and "
        f"build; 'cardgen untrust {game_id}' undoes it"
    )


def _allow_fetching(game_id: str, folder: Path) -> None:
    """`cardgen trust GAME --fetch`: the addresses the game names now may be fetched on every run."""
    from cardgen import remote

    named = remote.addresses(folder)
    if not named:
        raise DataError(f"{game_id} takes no items from an address (cards: {{url: …}}): nothing to allow")
    for url, _, where in named:
        if reason := remote.refusal(url):
            raise DataError(f"{where}: {url}: {reason}")
    remote.allow(folder, [url for url, _, _ in named])
    for url, _, _ in named:
        echo(f"{game_id} may fetch {url}")
    echo(f"(kept in {display_path(remote.grants_path())}; 'cardgen untrust {game_id} --fetch' undoes it)")


@cli.command("untrust")
@click.argument("game_id")
@_flag("--fetch", "Instead: stop the game fetching its items from addresses (its kept copies are read).")
@click.pass_obj
def untrust_command(obj: Context, game_id: str, fetch: bool) -> None:
    """Stop the game's own checks.py from running (it is reported as skipped again)."""
    from cardgen import trust
    from cardgen.data.games import find_game

    folder = find_game(obj.data_dir, game_id)
    if fetch:
        from cardgen import remote

        done = remote.disallow(folder)
        echo(f"{game_id} no longer fetches from addresses" if done else f"{game_id} was allowed no fetching")
        return
    if trust.untrust(folder):
        echo(f"untrusted {game_id} ({display_path(folder.resolve())}): its checks.py no longer runs")
    else:
        echo(f"{game_id} ({display_path(folder.resolve())}) was not trusted: nothing to undo")


@cli.command("layout-reference")
def layout_reference_command() -> None:
    """Print the layout reference: every element and attribute, icons, sizes, fonts (docs/layout-reference.md)."""
    from cardgen.render.reference import layout_reference

    echo(layout_reference(), nl=False)


@cli.command("rules-reference")
def rules_reference_command() -> None:
    """Print the rules file reference: every section, step and function of engine.yaml (docs/rules-reference.md)."""
    from cardgen.engine.described.reference import page

    echo(page(), nl=False)


@cli.command("icons")
@click.argument("word", default="")
@_option("--sheet", click.Path(dir_okay=False, path_type=Path), None, "Also draw them on a contact sheet (PNG).")
def icons_command(word: str, sheet: Path | None) -> None:
    """List the icon library's icons (name, category, author) whose name, category or author contains WORD."""
    from cardgen.building import bundled_body_font
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
        write_atomic(sheet, contact_sheet(found, bundled_body_font()))
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
    from cardgen.listing import listing_parts, listing_text
    from cardgen.render import cache

    def listed() -> str:
        return listing_text(load_games(obj.data_dir, games), as_json)

    echo(cache.listing(obj.data_dir, listing_parts(games, as_json), listed), nl=False)


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


STAMP = _option("--stamp", Stamp(), None, "A label (a version, a date) printed small at the bottom of every face.")
LANG = _option("--lang", Language(), None, "The edition in this language of the game's (game.yaml languages:), each "
               "text falling back to the default language where it has none (default: the first).")  # fmt: skip


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
        from cardgen.listing import keep_listing

        keep_listing(obj.data_dir, loaded)
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
        from cardgen.validate.printout import notes_lines, report_lines

        for game, report in zip(loaded, reports, strict=True):
            for line in report_lines(report) + (notes_lines(game, report) if notes else []):
                echo(line)
    failed = [r.game for r in reports if not r.ok or (not r.complete and not allow_unchecked)]
    if failed:
        raise RuleError(f"{', '.join(failed)}: not valid (see the report above)")


FORMATS = ["pdf", "shop-pdf", "shop-images", "png", "tts", "ttp"]


@cli.command("build")
@click.argument("games", nargs=-1)
@_option("--out", FOLDER, None, "Folder to write into; each game gets a subfolder (default: output, output/LANG "
         "with --lang, output/changes with --changed-since).", "out_dir")  # fmt: skip
@PAPER
@_option("--duplex", ["long-edge", "short-edge", "off"], "long-edge", "Where backs go: behind their fronts for a "
         "long- or short-edge flip, or on pages of their own.")  # fmt: skip
@_option("--back-offset", Offset(), "0,0", "Shift back pages by X,Y mm (read it off `cardgen calibrate`).")
@_option("--layout", ["grid", "fold"], None, "Impose every component this way (default: fold for double-sided "
         "counters, grid otherwise).")  # fmt: skip
@_option("--format", FORMATS, "pdf", "pdf: cut-ready sheets; shop-pdf: one face per page with bleed (with --shop: "
         "as that shop asks); shop-images: a shop's image package (--shop tgc|mpc); png: one 300 dpi image per face; "
         "tts: a Tabletop Simulator saved object with its images; ttp: a Tabletop Playground package.",
         "output_format")  # fmt: skip
@_option(
    "--shop",
    ["drivethrucards", "tgc", "mpc"],
    None,
    "The print shop the files are for: drivethrucards "
    "(--format shop-pdf: CMYK PDF/X-1a, backs first, preflighted), tgc or mpc (--format shop-images).",
)
@_flag("--cmyk", "PDFs in CMYK PDF/X-1a (FOGRA39, at most 240 % ink), for a print shop; see docs/guide/print-shops.md.")
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
@click.option("--only", multiple=True, metavar="COMPONENT[,COMPONENT] or COMPONENT:ID,ID", help="Build only these "
              "components, or these items of a component (every copy); repeatable. The whole game is still "
              "validated.")  # fmt: skip
@_option("--jobs", Whole(1, 256), None, "Processes to build with, the files shared out among them "
         "(default: the number of cores, for builds large enough to gain; the files are the same whatever the "
         "number).")  # fmt: skip
@_flag("--no-cache", "Build every file afresh, ignoring what earlier builds recorded in OUT/.cardgen-cache/.")
@_option(
    "--changed-since",
    str,
    None,
    "Print only the items added or changed since this version (a git revision "
    "of the game's folder, a folder holding the earlier game, or GAME@REVISION), with a changelog in PRINT.md.",
)
@LANG
@TRUST_CODE
@LAYOUT_VARIABLES
@STAMP
@click.pass_obj
def build_command(
    obj: Context,
    games: tuple[str, ...],
    out_dir: Path | None,
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
    only: tuple[str, ...],
    jobs: int | None,
    trust_code: bool,
    tts_base_url: str | None,
    no_cache: bool,
    changed_since: str | None,
    lang: str | None,
    stamp: str | None,
    shop: str | None,
    cmyk: bool,
) -> None:
    """Print games into cut-ready PDFs (all bundled games when none is named)."""
    from cardgen.building import BuildRequest, Printing, build

    printing = Printing(paper, duplex, back_offset, layout, output_format, ink, gutter, mark_length, mark_offset,
                        mark_weight, allow_overflow, shop=shop, cmyk=cmyk)  # fmt: skip
    out_dir = out_dir or _default_out(changed_since, lang)
    request = BuildRequest(
        obj.data_dir, obj.templates_dir, games, out_dir, printing, validate=not no_validate, proof=proof,
        only=_components(only), jobs=jobs, cache=not no_cache, trust_code=trust_code, stamp=stamp,
        tts_base_url=tts_base_url, quiet=quiet, changed_since=changed_since, lang=lang,
    )  # fmt: skip
    build(request)


def _default_out(changed_since: str | None, lang: str | None) -> Path:
    """Where a build writes unless told: output/, a reprint in output/changes/, an edition in output/LANG/ — never
    over the full build in the default language."""
    out = Path("output") / "changes" if changed_since is not None else Path("output")
    return out / lang if lang is not None else out


def _components(only: tuple[str, ...]) -> tuple[str, ...] | None:
    """`--only a,b --only c:x,y`: the components (and items) to build, as the build request keeps them."""
    from cardgen.selection import parse_only

    return parse_only(only)


@cli.command("diff")
@click.argument("old")
@click.argument("new", required=False)
@_option("--format", ["text", "markdown", "json"], "text", "How to print the changes.", "output_format")
@_option("--balance-dir", FOLDER, Path("output"), "Where kept balance runs are looked for (balance.json files "
         "below it, matched to each version by the data they played).")  # fmt: skip
@TRUST_CODE
@click.pass_obj
def diff_command(
    obj: Context, old: str, new: str | None, output_format: str, balance_dir: Path, trust_code: bool
) -> None:
    """What changed between two versions of a game: items, facts, checks and balance figures. OLD and NEW are a
    game (my-game), a game folder, or either at a git revision (my-game@playtest-1); NEW defaults to OLD as it is
    now."""
    from cardgen.versions.report import as_json, diff, markdown_lines, text_lines
    from cardgen.versions.source import split

    changes = diff(old, new or split(old)[0], obj.data_dir, balance_dir, trust_code)
    if output_format == "json":
        echo(json.dumps(as_json(changes), indent=2, ensure_ascii=False))
        return
    for line in (markdown_lines if output_format == "markdown" else text_lines)(changes):
        echo(line)


@cli.command("watch")
@click.argument("game")
@_option("--out", FOLDER, None, "Folder to write into; the game gets a subfolder (default: output, output/LANG "
         "with --lang).", "out_dir")  # fmt: skip
@PAPER
@_option("--duplex", ["long-edge", "short-edge", "off"], "long-edge", "As for `cardgen build`.")
@_option("--ink", ["full", "light", "both"], "full", "As for `cardgen build`.")
@_option("--format", FORMATS, "pdf", "As for `cardgen build`.", "output_format")
@click.option("--only", multiple=True, metavar="COMPONENT[,COMPONENT] or COMPONENT:ID,ID",
              help="Rebuild only these components or items; repeatable.")  # fmt: skip
@_flag("--proof", "Also write proof.pdf on every rebuild.")
@_flag("--poll", "Look for changes every 0.3 s instead of being told (network drives, some containers); a file "
       "saved twice within a second is then seen once.")  # fmt: skip
@LANG
@LAYOUT_VARIABLES
@STAMP
@TRUST_CODE
@click.pass_obj
def watch_command(
    obj: Context,
    game: str,
    out_dir: Path | None,
    paper: str,
    duplex: str,
    ink: str,
    output_format: str,
    only: tuple[str, ...],
    proof: bool,
    poll: bool,
    lang: str | None,
    stamp: str | None,
    trust_code: bool,
) -> None:
    """Rebuild a game whenever one of its data files, layouts, fonts or images changes (Ctrl-C stops)."""
    from cardgen import watch
    from cardgen.building import BuildRequest, Printing, build
    from cardgen.data.games import find_game

    find_game(obj.data_dir, game)  # an unknown game is an error now; a mistake in a known one is for the designer
    watched = watch.folders(obj.data_dir, obj.templates_dir, default_templates_dir(), default_fonts_dir(), game)
    printing = Printing(paper=paper, duplex=duplex, format=output_format, ink=ink)
    out_dir = out_dir or _default_out(None, lang)
    request = BuildRequest(obj.data_dir, obj.templates_dir, (game,), out_dir, printing, proof=proof,
                           only=_components(only), jobs=1, trust_code=trust_code, stamp=stamp, quiet=True,
                           lang=lang)  # fmt: skip
    try:
        watch.watch(lambda: build(request), watched, out_dir / game, [obj.templates_dir, default_templates_dir()], poll)
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
@LANG
@LAYOUT_VARIABLES
@STAMP
@click.pass_obj
def preview_command(
    obj: Context, game: str, item: str | None, side: str, dpi: int, grid: str | None, out_file: Path | None,
    lang: str | None, stamp: str | None,
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
    if lang is not None or loaded.languages:
        from cardgen.data.editions import edition

        loaded = edition(loaded, lang or loaded.languages[0]).game
    renderer = GameRenderer(loaded, Layouts(obj.templates_dir, stamp=stamp), default_fonts_dir())
    folder = Path("output") / game / "preview" / (lang or "")
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
    from cardgen.engine.executors import choose_kind
    from cardgen.engine.playtest import PlayRequest, play, summary_lines, whole

    if log_file is not None:
        check_writable(log_file, "--log")
    kind = choose_kind(executor, jobs, scheduler)
    names = _agent_names(agents)
    engine, counts = _engine_and_counts(obj, game, players)
    request = PlayRequest(game, obj.data_dir, counts, count, seed, names, seats == "rotate", check, log_file, kind,
                          jobs, scheduler)  # fmt: skip
    summaries = play(request, engine)
    if as_json:
        echo(json.dumps(whole(request, summaries), indent=2))
    else:
        for summary in summaries:
            for line in summary_lines(summary):
                echo(line)
    violations = sum(s["invariant_violations"] for s in summaries)
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


@cli.command("balance")
@click.argument("game")
@_option("--players", PlayerCounts(), None, "Players per game, or a range (2..4), each count a sweep of its own "
         "(default: the fewest).")  # fmt: skip
@_option("--games", Whole(1, 100_000_000), 200, "Games per player count.", "count")
@SEED
@_option("--agents", str, "auto", "Agents by seat, comma-separated: random, greedy, mcts (mcts:N); auto: the "
         "strongest of mcts, greedy and random whose estimated time fits --minutes.")  # fmt: skip
@_option("--minutes", Whole(1, 10_000_000), 10, "The time --agents auto may take (minutes of one process; more "
         "--jobs finish sooner but choose the same).")  # fmt: skip
@_option("--strength", Whole(0, 1_000_000), 20, "Games each agent plays against greedy and against random, to "
         "measure its strength (0: none).")  # fmt: skip
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
    minutes: int,
    strength: int,
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
    from cardgen.engine.executors import choose_kind

    kind = choose_kind(executor, jobs, scheduler)
    engine, counts = _engine_and_counts(obj, game, players)
    chosen, names, auto = "", tuple[str, ...](), None
    if agents.strip() == "auto":
        from cardgen.balance.agents import choose

        choice = choose(engine, counts, count, strength, minutes)
        names, chosen, auto = (choice.agent,), choice.why, minutes
    else:
        names = _agent_names(agents)
    if importlib.util.find_spec("matplotlib") is None:  # a dependency: missing only from a damaged install
        raise DataError("cardgen balance draws its plots with matplotlib, which is not installed: reinstall cardgen")
    out = out_dir or Path("output") / game / "balance"
    old = _read_compare(compare_file)
    settings = report.Settings(game, str(obj.data_dir), counts, count, names, seed, batch, check, seats == "rotate",
                               strength, chosen, auto)  # fmt: skip
    start = time.perf_counter()
    try:
        figures, where = report.play_on(settings, kind, jobs, scheduler, out, resume)
    except KeyboardInterrupt as stop:
        echo(report.stopped(settings, out, stop), err=True)
        sys.exit(stopping.exit_code(stop))
    if old is not None:
        from cardgen.balance.compare import compare

        assert compare_file is not None
        figures["compare"] = compare(old, figures, display_path(compare_file))
    seconds = time.perf_counter() - start
    timing = {"time taken": f"{seconds:.1f} s", "where the games ran": where}
    for path in report.write(figures, timing, out):
        echo(display_path(path))
    for line in report.verdicts(figures):
        echo(line)


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


@cli.command("preflight")
@click.argument("pdf_file", type=click.Path(path_type=Path, dir_okay=False))
@_option("--shop", ["drivethrucards"], "drivethrucards", "The shop whose rules the file is checked against.")
def preflight_command(pdf_file: Path, shop: str) -> None:
    """What a print shop would reject in a PDF: RGB, transparency, ink over its limit, fonts not embedded, page
    boxes, bleed, images under 300 dpi, text too near the cut; one line each, with the page and where (exit 1)."""
    from cardgen.render.preflight import check_file, grouped

    findings = grouped(check_file(pdf_file, shop))
    for finding in findings:
        echo(f"{display_path(pdf_file)}: {'error' if finding.error else 'warning'}: {finding}")
    errors = sum(finding.error for finding in findings)
    if errors:
        raise RuleError(f"{display_path(pdf_file)}: {errors} kind(s) of problem {shop} would reject")
    echo(f"{display_path(pdf_file)}: nothing {shop} would reject")


@cli.command("calibrate")
@PAPER
@_option("--duplex", ["long-edge", "short-edge"], "long-edge")
@_flag("--landscape", "A landscape sheet, for layouts that print landscape (mini cards, hexes).")
@_option("--out", FILE, Path("output") / "calibration.pdf", dest="out_file")
def calibrate_command(paper: str, duplex: str, landscape: bool, out_file: Path) -> None:
    """Print a duplex calibration sheet to measure your printer's back-side offset."""
    from cardgen.building import bundled_body_font
    from cardgen.render.calibrate import write_calibration
    from cardgen.units import paper_size

    size = paper_size(paper)
    write_calibration(out_file, size.rotated() if landscape else size, bundled_body_font(), duplex)
    echo(f"{display_path(out_file)}  2 pages — print double-sided ({duplex}), at actual size")


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
        _stop(exc.__cause__ if isinstance(exc, click.Abort) else exc, shown)
    except CardgenError as exc:  # raised outside a command, e.g. while parsing options
        for line in exc.lines():
            echo(f"cardgen: error: {line}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:  # a bug in cardgen, not in the user's input
        stop = stopping.stopped()
        if stop is not None:  # a stop a library caught and wrapped in an error of its own
            _stop(stop, shown)
        if os.environ.get("CARDGEN_DEBUG"):
            raise
        echo(
            f"cardgen: internal error: {type(exc).__name__}: {exc} "
            "(set CARDGEN_DEBUG=1 to see where; please report it)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
    sys.exit(code if isinstance(code, int) else 0)


def _stop(stop: BaseException | None, shown: int) -> NoReturn:
    """Ctrl-C or SIGTERM ended the command: say so in one line and exit 130 or 143."""
    how = "terminated" if isinstance(stop, stopping.Terminated) else "interrupted"
    if output.shown() == shown:
        echo(f"cardgen: {how}; nothing was written", err=True)
    else:  # the signal came as the files were shown, or after: they are whole
        echo(f"cardgen: {how} after its files were written", err=True)
    sys.exit(stopping.exit_code(stop) if isinstance(stop, KeyboardInterrupt) else stopping.EXIT_INTERRUPTED)


# A command allocates millions of short-lived objects and few reference cycles: Python's default thresholds (a
# collection every 700 allocations) spent about 5 % of a 2,700-card build collecting, for the same peak memory
# (benchmarks/engine_speed.py plays its games under the same thresholds, as `cardgen play` does)
COLLECTOR_THRESHOLDS = (50_000, 20, 20)


def run() -> None:
    """The `cardgen` program (console script, `python -m cardgen`): `main`, then the process ends without freeing
    one by one the objects the command built (after a large build about a tenth of a second of a few seconds' run).
    Exit handlers still run and the output is flushed first. Callers in a process of their own use `main`."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
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
