"""A sweep: many seeded games at one player count, played in batches on any executor, each batch's tally kept in
the results file as it arrives, and resumable from that file.

Game `i` is always the runner's game `i` (its seed derives from the root seed and `i`), batches are fixed index
ranges, and a batch travels back as an exact `Tally`; so the final tally — and every report made from it — is the
same whether the games ran in this process, on local processes or on a Dask cluster, in one go or resumed after an
interruption. A batch that a lost worker was playing is run again by Dask's scheduler; a batch that never came back
is simply still to play when the sweep resumes.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from cardgen.balance.journal import Journal, Kept
from cardgen.engine.executors import Workers
from cardgen.engine.runner import PlaySpec, play_game
from cardgen.engine.tally import Tally
from cardgen.errors import CardgenError, DataError

_FINGERPRINTS: dict[tuple[str, str], str] = {}


def cardgen_version() -> str:
    try:
        return version("cardgen")
    except PackageNotFoundError:  # pragma: no cover - a source tree on sys.path without an install
        return "unknown"


def data_fingerprint(game_id: str, data_dir: str) -> str:
    """SHA-256 over the game folder's files (names and bytes): equal only for the same data, on any machine."""
    key = (game_id, data_dir)
    if key not in _FINGERPRINTS:
        from cardgen.data.games import find_game

        _FINGERPRINTS[key] = folder_fingerprint(find_game(Path(data_dir), game_id))
    return _FINGERPRINTS[key]


def folder_fingerprint(folder: Path) -> str:
    """`data_fingerprint` of a game folder (cardgen diff finds a version's balance run by it)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


BUNDLED = "<bundled>"  # the data folder of a batch sent out: "the bundled games, wherever this worker has them"


def here(spec: PlaySpec) -> PlaySpec:
    """A batch's spec with the data folder of the machine it runs on."""
    if spec.data_dir != BUNDLED:
        return spec
    from cardgen.paths import default_data_dir

    return replace(spec, data_dir=str(default_data_dir()))


@dataclass(frozen=True)
class Sweep:
    """The games of one sweep: `games` games of `spec`, `batch` at a time; `groups` maps each card to its component.
    A sweep of the `bundled` games sends its batches with `BUNDLED` as their data folder, so a worker reads the
    bundled games of its own installation (the data fingerprint each batch returns proves they are the same)."""

    spec: PlaySpec
    games: int
    batch: int
    groups: Mapping[str, str] = field(default_factory=dict)
    bundled: bool = False

    @property
    def sent(self) -> PlaySpec:
        return replace(self.spec, data_dir=BUNDLED) if self.bundled else self.spec

    def batches(self) -> list[range]:
        return [range(start, min(start + self.batch, self.games)) for start in range(0, self.games, self.batch)]

    def identity(self, data: str) -> dict[str, Any]:
        """What a results file must match to be resumed: everything that decides a batch's games but their count."""
        spec = self.spec
        return {
            "game": spec.game_id,
            "players": spec.players,
            "seed": spec.root_seed,
            "agents": list(spec.agents),
            "seats": "rotate" if spec.rotate else "fixed",
            "check": spec.check,
            "batch": self.batch,
            "data": data,
            "cardgen": cardgen_version(),
        }


def play_batch(spec: PlaySpec, games: range, groups: Mapping[str, str]) -> tuple[str, Tally]:
    """Play one batch where it runs (this process or a worker): the data's fingerprint as this worker read it, and
    the tally of the batch's games."""
    spec = here(spec)
    tally = Tally(spec.players)
    for index in games:
        tally.add(play_game(spec, index), groups)
    return data_fingerprint(spec.game_id, spec.data_dir), tally


Progress = Callable[[int], None]


def run_sweep(sweep: Sweep, workers: Workers, journal: Journal, kept: Kept, progress: Progress | None = None) -> Tally:
    """Play the batches the results file does not hold yet, appending each as it arrives; the merged tally of all."""
    expected = data_fingerprint(sweep.spec.game_id, sweep.spec.data_dir)
    planned = {(games.start, games.stop) for games in sweep.batches()}
    tallies = {key: t for key, t in kept.tallies.items() if key in planned}
    todo = [games for games in sweep.batches() if (games.start, games.stop) not in tallies]
    if progress:
        progress(sum(t.games for t in tallies.values()))

    def arrived(games: range, fingerprint: str, tally: Tally) -> None:
        if fingerprint != expected:
            raise DataError(
                f"{sweep.spec.game_id}: a worker read other game data than this machine (games {games.start}–"
                f"{games.stop - 1}): install the same data on every worker"
            )
        journal.append(games, tally)
        tallies[(games.start, games.stop)] = tally
        if progress:
            progress(tally.games)

    if workers.executor is None:
        for games in todo:
            arrived(games, *play_batch(sweep.sent, games, sweep.groups))
    else:
        _spread(sweep, workers, todo, arrived)
    total = Tally(sweep.spec.players)
    for key in sorted(tallies):
        total.merge(tallies[key])
    return total


def _spread(sweep: Sweep, workers: Workers, todo: list[range], arrived: Callable[[range, str, Tally], None]) -> None:
    """Keep every worker busy with a few batches in hand; keep each batch the moment it is done, in whatever order
    they finish (the tally does not depend on it)."""
    assert workers.executor is not None
    waiting = list(reversed(todo))
    running: dict[cf.Future[tuple[str, Tally]], range] = {}
    try:
        while waiting or running:
            while waiting and len(running) < 2 * workers.slots:
                games = waiting.pop()
                running[workers.executor.submit(play_batch, sweep.sent, games, sweep.groups)] = games
            done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f].start):
                games = running.pop(future)
                arrived(games, *_result(future, games))
    finally:
        for future in running:
            future.cancel()


def _result(future: cf.Future[tuple[str, Tally]], games: range) -> tuple[str, Tally]:
    try:
        return future.result()
    except CardgenError:
        raise
    except Exception as exc:
        if type(exc).__name__ == "KilledWorker":  # the scheduler gave up after losing several workers on it
            raise DataError(
                f"games {games.start}–{games.stop - 1} were lost with every worker that tried them ({exc}); "
                "the batches already kept stay in the results file: --resume"
            ) from None
        raise
