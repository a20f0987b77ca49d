"""The results file of a sweep: every finished batch's tally, appended as it arrives, so nothing played is lost.

The file is JSON Lines: a header line naming the sweep (game, players, seed, agents, batch size, the data's and
cardgen's fingerprints), then one line per finished batch (`{"games": [start, stop], "tally": {...}}`), each line
carrying the SHA-256 of its own canonical JSON. Why this format and not Parquet: a batch is one `write` of one
line, flushed and synced before the next batch is counted as kept, so a process killed at any instant leaves at
worst one torn last line, which the checksum exposes and a resume drops; Parquet keeps its index in a footer
written at close, so a killed writer leaves an unreadable file, and appending means rewriting it. A tally is a few
kilobytes of counts (not one row per game), which JSON carries without a columnar format's gains, and the lines stay
readable with any tool. This is the one file cardgen writes in place rather than atomically (`cardgen/output.py`):
it exists to be appended to while a sweep runs.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cardgen import stopping
from cardgen.engine.tally import Tally
from cardgen.errors import DataError, display_path
from cardgen.files import require_regular

FORMAT = "cardgen-balance-results/1"


def canonical(value: Any) -> str:
    """The one text of a JSON value that checksums and byte-for-byte comparisons use."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def checksum(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def _line(record: dict[str, Any]) -> bytes:
    return (canonical({**record, "sha256": checksum(record)}) + "\n").encode("utf-8")


def _record(text: bytes) -> dict[str, Any] | None:
    """A line's record when it is whole and its checksum holds, else None."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    claimed = data.pop("sha256", None)
    return data if claimed == checksum(data) else None


@dataclass
class Kept:
    """What a results file already holds: tallies by their games' index range, and the lines it had to drop."""

    tallies: dict[tuple[int, int], Tally]
    dropped: int = 0


class Journal:
    """An open results file that finished batches are appended to."""

    def __init__(self, path: Path, handle: IO[bytes]):
        self.path, self._handle = path, handle

    def append(self, games: range, tally: Tally) -> None:
        """Keep one batch: written, flushed and synced before this returns."""
        line = _line({"games": [games.start, games.stop], "tally": tally.as_json()})
        with stopping.held():  # a SIGTERM or Ctrl-C waits for the line: it is kept whole (no torn last line)
            self._handle.write(line)
            self._handle.flush()
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()


def open_journal(path: Path, sweep: dict[str, Any], resume: bool) -> tuple[Journal, Kept]:
    """The results file of `sweep`, with what it kept: continued when `resume` and it belongs to the same sweep,
    else started anew. A torn or damaged line (a write cut short by a kill) is dropped and its games played again."""
    shown = display_path(path)
    require_regular(path)  # read with --resume, else written in place: a FIFO would block either way
    kept = _read(path, sweep, shown) if resume and path.exists() else None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if kept is None:
            handle = path.open("wb")
            handle.write(_line({"sweep": sweep, "format": FORMAT}))
            handle.flush()
            return Journal(path, handle), Kept({})
        _cut_torn_tail(path)
        return Journal(path, path.open("ab")), kept
    except OSError as exc:
        raise DataError(f"{shown}: cannot write the results file ({exc.strerror})") from None


def _read(path: Path, sweep: dict[str, Any], shown: str) -> Kept:
    try:
        with path.open("rb") as handle:
            _check_header(_record(handle.readline()), sweep, shown)
            kept = Kept({})
            for number, text in enumerate(handle, 2):  # line by line: a million games' file never sits in memory whole
                batch = _batch(_record(text))
                if batch is None:
                    kept.dropped += 1
                else:
                    _check_batch(*batch, sweep, f"{shown}:{number}")
                    kept.tallies.setdefault(*batch)
            return kept
    except OSError as exc:
        raise DataError(f"{shown}: cannot read the results file ({exc.strerror})") from None


def kept_games(path: Path) -> int:
    """How many games a results file holds whole (0 when it is missing or unreadable): what an interrupted sweep
    kept, counted from the file itself, so a batch kept a moment before the interrupt is counted too."""
    try:
        with path.open("rb") as handle:
            handle.readline()
            batches = dict(filter(None, (_batch(_record(text)) for text in handle)))
    except OSError:
        return 0
    return sum(tally.games for tally in batches.values())


def _check_header(header: dict[str, Any] | None, sweep: dict[str, Any], shown: str) -> None:
    if header is None or header.get("format") != FORMAT or not isinstance(header.get("sweep"), dict):
        raise DataError(f"{shown}: not a cardgen balance results file (remove it, or run without --resume)")
    if header["sweep"] != sweep:
        differ = sorted(k for k in {*sweep, *header["sweep"]} if sweep.get(k) != header["sweep"].get(k))
        raise DataError(
            f"{shown}: holds another sweep (its {', '.join(differ)} differ): run without --resume to start over"
        )


def _check_batch(games: tuple[int, int], tally: Tally, sweep: dict[str, Any], where: str) -> None:
    """A whole line (its checksum holds) that no sweep of this file's header could have written is refused with
    its line: it was edited, and resuming would count it as played games."""
    start, stop = games
    batch, players = sweep.get("batch"), sweep.get("players")
    problem: str | None
    if not (isinstance(batch, int) and 0 <= start < stop <= start + batch and start % batch == 0):
        problem = f"games {start}–{stop - 1} are not a batch of {batch}"
    elif tally.players != players:
        problem = f"a tally of {tally.players} players in a sweep of {players}"
    elif tally.games != stop - start:
        problem = f"a tally of {tally.games} games for games {start}–{stop - 1}"
    else:
        problem = tally.impossible()
    if problem is not None:
        raise DataError(
            f"{where}: not a batch this sweep could have played ({problem}): remove the line or the file, or run "
            "without --resume"
        )


def _batch(record: dict[str, Any] | None) -> tuple[tuple[int, int], Tally] | None:
    if record is None:
        return None
    try:
        start, stop = record["games"]
        return (int(start), int(stop)), Tally.from_json(record["tally"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _cut_torn_tail(path: Path) -> None:
    """Remove a last line without its newline (a write cut short), so the next line starts on a line of its own."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)
