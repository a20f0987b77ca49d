"""A balance run from settings to files: a sweep per player count, the report's figures, and `balance.json`,
`balance.html` and `balance.pdf` written together (all or nothing) into the output folder.

`balance.json` depends only on the settings and the data: byte for byte the same whatever executor or number of
processes played the games, and whether or not the sweep was interrupted and resumed. The time taken and where the
games ran appear only in the HTML and PDF, in a section of their own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.balance.journal import open_journal
from cardgen.balance.sweep import Sweep, cardgen_version, data_fingerprint, run_sweep
from cardgen.engine.executors import Workers
from cardgen.engine.runner import PlaySpec, engine_for
from cardgen.engine.tally import Tally
from cardgen.paths import default_data_dir

FORMAT = "cardgen-balance/1"
FILES = ("balance.json", "balance.html", "balance.pdf")


@dataclass(frozen=True)
class Settings:
    """What decides a balance report: the game, player counts, games per count, agents, seed, batch size."""

    game: str
    data_dir: str
    players: tuple[int, ...]
    games: int
    agents: tuple[str, ...]
    seed: int
    batch: int
    check: bool = False
    rotate: bool = True  # the agents take the seats in turn (`runner.seating`)

    def spec(self, players: int) -> PlaySpec:
        return PlaySpec(self.game, self.data_dir, players, self.seed, self.agents, check=self.check, rotate=self.rotate)

    @property
    def bundled(self) -> bool:
        return Path(self.data_dir).resolve() == default_data_dir().resolve()

    def command(self) -> str:
        """The command line that reproduces the report (naming the data folder unless it is the bundled one)."""
        counts = self.players
        players = str(counts[0]) if len(counts) == 1 else f"{counts[0]}..{counts[-1]}"
        data = "" if self.bundled else f" --data-dir {self.data_dir}"
        return (
            f"cardgen{data} balance {self.game} --players {players} --games {self.games} --agents "
            f"{','.join(self.agents)} --seats {'rotate' if self.rotate else 'fixed'} --seed {self.seed} --batch "
            f"{self.batch}" + (" --check" if self.check else "")
        )


Progress = Callable[[int, int], None]  # (player count, games just finished)


def results_file(out: Path, players: int) -> Path:
    return out / f"results-{players}p.jsonl"


def play(
    settings: Settings, workers: Workers, out: Path, resume: bool, progress: Progress | None = None
) -> dict[str, Any]:
    """Play (or finish) every player count's sweep, keeping batches in the results files; the report's figures."""
    from cardgen.data import load_games

    (game,) = load_games(Path(settings.data_dir), [settings.game])
    groups = {item.id: component.id for component in game.components for item in component.items}
    data = data_fingerprint(settings.game, settings.data_dir)
    runs = []
    for players in settings.players:
        sweep = Sweep(settings.spec(players), settings.games, settings.batch, groups, settings.bundled)
        journal, kept = open_journal(results_file(out, players), sweep.identity(data), resume)
        try:
            tally = run_sweep(sweep, workers, journal, kept, _count_for(progress, players))
        finally:
            journal.close()
        runs.append(_run(settings, players, tally))
    produced = {
        "cardgen": cardgen_version(),
        "seed": settings.seed,
        "agents": list(settings.agents),
        "seats": "rotate" if settings.rotate else "fixed",
        "games": settings.games,
        "players": list(settings.players),
        "batch": settings.batch,
        "check": settings.check,
        "data": data,
        "command": settings.command(),
    }
    return {"format": FORMAT, "game": game.id, "title": game.title, "produced": produced, "runs": runs}


def play_on(
    settings: Settings, kind: str, jobs: int, scheduler: str | None, out: Path, resume: bool
) -> tuple[dict[str, Any], str]:
    """`play` on the workers asked for (`executors.open_workers`), with a progress bar on a terminal; the figures
    and where the games ran. The report's files must be writable once the workers answer, before the first game."""
    import sys

    import click

    from cardgen.engine.executors import open_workers
    from cardgen.output import check_writable

    total = settings.games * len(settings.players)
    with (
        open_workers(kind, jobs, scheduler) as workers,
        click.progressbar(length=total, label="games", file=sys.stderr, hidden=not sys.stderr.isatty()) as bar,
    ):
        for name in FILES:
            check_writable(out / name, "--out")
        figures = play(settings, workers, out, resume, lambda _, games: bar.update(games))
    return figures, workers.where


def stopped(settings: Settings, out: Path, stop: BaseException) -> str:
    """What an interrupted sweep kept, and how to finish it."""
    from cardgen import stopping
    from cardgen.balance.journal import kept_games
    from cardgen.errors import display_path

    counts = settings.players
    kept = [kept_games(results_file(out, players)) for players in counts]
    done = ", ".join(f"{k:,} of {settings.games:,} games at {p} players" for p, k in zip(counts, kept, strict=True))
    how = "terminated" if isinstance(stop, stopping.Terminated) else "interrupted"
    return f"cardgen: {how}; kept {done} in {display_path(out)}: run the same command with --resume to finish"


def verdicts(report: dict[str, Any]) -> list[str]:
    """Each seat's win rate with its interval and verdict, run by run (what `cardgen balance` prints)."""
    return [
        f"{run['players']} players, {seat['name']}: {seat['rate']:.1%} ({seat['low']:.1%}–{seat['high']:.1%}) — "
        f"{seat['verdict']}"
        for run in report["runs"]
        for seat in run["seats"]
    ]


def _count_for(progress: Progress | None, players: int) -> Callable[[int], None] | None:
    if progress is None:
        return None
    report = progress
    return lambda games: report(players, games)


def _run(settings: Settings, players: int, tally: Tally) -> dict[str, Any]:
    from cardgen.balance.stats import run_figures

    engine = engine_for(settings.game, settings.data_dir)
    summary = tally.summary(
        settings.spec(players), 0, engine.abilities(), engine.playable(), engine.data_problems(), engine.event_problems
    )
    return run_figures(tally, list(settings.agents), settings.rotate) | {"data_problems": summary["data_problems"]}


def as_json(report: dict[str, Any]) -> bytes:
    """The report's one text: sorted keys, two-space indents, a final newline."""
    return (json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def write(report: dict[str, Any], timing: dict[str, str], out: Path) -> list[Path]:
    """balance.json, balance.html and balance.pdf, appearing together or not at all."""
    from cardgen.balance import html, pdf
    from cardgen.balance.document import build
    from cardgen.output import all_or_nothing, write_atomic

    title, sections = build(report, timing)
    contents = (as_json(report), html.render(title, sections), pdf.render(title, sections))
    paths = [out / name for name in FILES]
    with all_or_nothing():
        for path, data in zip(paths, contents, strict=True):
            write_atomic(path, data)
    return paths
