"""The command line: a thin click shell over functions the tests call directly.

Exit codes used by every command: 0 success; 1 the data breaks a rule; 2 the input could not be read. Errors are
printed once here, one line each, on stderr — never as a Python traceback (set CARDGEN_DEBUG=1 to see one for an
internal error).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from cardgen.data import Game, load_games
from cardgen.errors import EXIT_INPUT, CardgenError
from cardgen.paths import default_data_dir, default_templates_dir

EXIT_INTERNAL = 3


@dataclass(frozen=True)
class Context:
    """What every command needs: where the games and their layouts are."""

    data_dir: Path
    templates_dir: Path


class CardgenGroup(click.Group):
    """Renders `CardgenError` as one line per problem with the error's exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except CardgenError as exc:
            for line in exc.lines():
                click.echo(f"cardgen: error: {line}", err=True)
            ctx.exit(exc.exit_code)


@click.group(cls=CardgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of games (one folder per game). Default: the bundled card_data/.",
)
@click.option(
    "--templates-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of layouts (one folder per game, plus _common/). Default: the bundled templates/.",
)
@click.version_option(package_name="cardgen")
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None, templates_dir: Path | None) -> None:
    """Print-and-play PDFs from YAML card data, checked against the rulebooks."""
    ctx.obj = Context(data_dir or default_data_dir(), templates_dir or default_templates_dir())


@cli.command("list")
@click.argument("games", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_obj
def list_command(obj: Context, games: tuple[str, ...], as_json: bool) -> None:
    """List the games and their components, with counts (copies included)."""
    loaded = load_games(obj.data_dir, games)
    if as_json:
        click.echo(json.dumps([game_summary(game) for game in loaded], indent=2))
        return
    for game in loaded:
        low, high = game.players
        players = f"{low} players" if low == high else f"{low}–{high} players"
        click.echo(f"{game.id}  {game.title}  ({players})")
        width = max((len(c.id) for c in game.components), default=0)
        for component in game.components:
            note = "" if component.file else "  (contents not written yet)"
            click.echo(f"  {component.id:<{width}}  {component.kind:<8}  {component.count:>4}{note}")


def game_summary(game: Game) -> dict:
    """The `cardgen list --json` entry of one game."""
    return {
        "id": game.id,
        "title": game.title,
        "players": list(game.players),
        "components": [{"id": c.id, "kind": c.kind, "count": c.count} for c in game.components],
    }


def main() -> None:
    """Console-script entry point."""
    try:
        cli.main(prog_name="cardgen", standalone_mode=True)
    except CardgenError as exc:  # raised outside a command, e.g. while parsing options
        for line in exc.lines():
            click.echo(f"cardgen: error: {line}", err=True)
        sys.exit(exc.exit_code)
    except Exception as exc:  # a bug in cardgen, not in the user's input
        if os.environ.get("CARDGEN_DEBUG"):
            raise
        click.echo(
            f"cardgen: internal error: {type(exc).__name__}: {exc} "
            "(set CARDGEN_DEBUG=1 to see where; please report it)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


__all__ = ["EXIT_INPUT", "cli", "main"]
