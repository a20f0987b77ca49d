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
from cardgen.balance.stats import run_figures
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
    strength: int = 0  # games each agent plays against greedy and against random, to measure its strength
    chosen: str = ""  # why these agents, when balance chose them (`agents.choose`)
    auto: int | None = None  # the minutes the choice was made for (`--agents auto`)

    def spec(self, players: int) -> PlaySpec:
        return PlaySpec(self.game, self.data_dir, players, self.seed, self.agents, check=self.check, rotate=self.rotate)

    def trials(self, fewest: int) -> list[PlaySpec]:
        """The strength games: each agent (but random) against greedy and random at the fewest players, two for a
        game that can be played alone, taking the seats in turn."""
        from cardgen.balance.agents import strength_opponents

        if not self.strength:
            return []
        players = max(2, fewest)
        return [PlaySpec(self.game, self.data_dir, players, self.seed, (agent, other), check=self.check, rotate=True)
                for agent in dict.fromkeys(self.agents) for other in strength_opponents(agent)]  # fmt: skip

    @property
    def bundled(self) -> bool:
        return Path(self.data_dir).resolve() == default_data_dir().resolve()

    def command(self) -> str:
        """The command line that reproduces the report (naming the data folder unless it is the bundled one)."""
        counts = self.players
        players = str(counts[0]) if len(counts) == 1 else f"{counts[0]}..{counts[-1]}"
        data = "" if self.bundled else f" --data-dir {self.data_dir}"
        agents = ",".join(self.agents) if self.auto is None else f"auto --minutes {self.auto}"
        return (
            f"cardgen{data} balance {self.game} --players {players} --games {self.games} --agents "
            f"{agents} --seats {'rotate' if self.rotate else 'fixed'} --seed {self.seed} --batch "
            f"{self.batch} --strength {self.strength}" + (" --check" if self.check else "")
        )


Progress = Callable[[int, int], None]  # (player count, games just finished)


def results_file(out: Path, players: int) -> Path:
    return out / f"results-{players}p.jsonl"


def strength_file(out: Path, spec: PlaySpec) -> Path:
    agent, other = (name.replace(":", "-") for name in spec.agents)
    return out / f"strength-{agent}-v-{other}.jsonl"


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
        tally = _swept(sweep, results_file(out, players), data, workers, resume, _count_for(progress, players))
        runs.append(_run(settings, players, tally))
    strength = []
    for spec in settings.trials(engine_for(settings.game, settings.data_dir).min_players):
        sweep = Sweep(spec, settings.strength, settings.batch, groups, settings.bundled)
        tally = _swept(sweep, strength_file(out, spec), data, workers, resume, _count_for(progress, spec.players))
        agent, other = spec.agents
        (row,) = [row for row in run_figures(tally, list(spec.agents), True)["agents"] if row["name"] == agent]
        strength.append({"agent": agent, "against": other, "players": spec.players,
                         **{k: row[k] for k in ("wins", "trials", "rate", "low", "high")}})  # fmt: skip
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
        "chosen": settings.chosen,
        "strength": strength,
    }
    return {"format": FORMAT, "game": game.id, "title": game.title, "produced": produced, "runs": runs}


def _swept(sweep: Sweep, file: Path, data: str, workers: Workers, resume: bool, progress: Any) -> Tally:
    """A sweep played (or finished) with its batches kept in `file`."""
    journal, kept = open_journal(file, sweep.identity(data), resume)
    try:
        return run_sweep(sweep, workers, journal, kept, progress)
    finally:
        journal.close()


def play_on(
    settings: Settings, kind: str, jobs: int, scheduler: str | None, out: Path, resume: bool
) -> tuple[dict[str, Any], str]:
    """`play` on the workers asked for (`executors.open_workers`), with a progress bar on a terminal; the figures
    and where the games ran. The report's files must be writable once the workers answer, before the first game."""
    import sys

    import click

    from cardgen.engine.executors import open_workers
    from cardgen.output import check_writable

    total = settings.games * len(settings.players) + settings.strength * len(settings.trials(2))
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
    """Who played and how strong they are, then each seat's win rate with its interval and verdict, run by run
    (what `cardgen balance` prints)."""
    produced = report["produced"]
    lines = [f"agents: {produced['chosen'] or ', '.join(produced['agents'])}"]
    lines += [
        f"{row['agent']} against {row['against']} ({row['players']} players): won {row['wins']:g} of {row['trials']} "
        f"({row['rate']:.1%}, {row['low']:.1%}–{row['high']:.1%})"
        for row in produced["strength"]
    ]
    lines += [
        f"{run['players']} players, {seat['name']}: {seat['rate']:.1%} ({seat['low']:.1%}–{seat['high']:.1%}) — "
        f"{seat['verdict']}"
        for run in report["runs"]
        for seat in run["seats"]
    ]
    return lines


def _count_for(progress: Progress | None, players: int) -> Callable[[int], None] | None:
    if progress is None:
        return None
    report = progress
    return lambda games: report(players, games)


def _run(settings: Settings, players: int, tally: Tally) -> dict[str, Any]:
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
