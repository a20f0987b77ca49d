"""The balance figures that moved between two versions of a game, when both have a kept balance run.

`cardgen balance` writes `balance.json`, whose provenance holds the SHA-256 of the game folder it played
(`balance.sweep.data_fingerprint`). A version's run is the report under the search folder (by default `output/`)
whose fingerprint is that of the version's folder — a run made on exactly those files, in whichever output folder it
was kept (`--out output/my-game/balance-v1`). The two are then set side by side as `balance --compare` does
(`balance.compare`): each seat's win rate and each card's, before and after, with the change's z score.

The search is bounded: links are not followed, at most `REPORTS_READ` reports are read, each within the size a
report may have (`MAX_REPORT_BYTES`), and one that cannot be read is passed over.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cardgen.errors import DataError, display_path

REPORT = "balance.json"
REPORTS_READ = 200
MAX_REPORT_BYTES = 50_000_000
SEARCH_DEPTH = 5


def kept_reports(search: Path, game_id: str) -> dict[str, tuple[Path, dict[str, Any]]]:
    """The balance reports of `game_id` below `search`, by the fingerprint of the data each played (the newest
    report of each, by its file's time)."""
    from cardgen.balance.compare import read_report

    found: dict[str, tuple[float, Path, dict[str, Any]]] = {}
    for path in _reports(search):
        try:
            if path.stat().st_size > MAX_REPORT_BYTES:
                continue
            report = read_report(path)
        except (DataError, OSError):
            continue
        fingerprint = report.get("produced", {}).get("data")
        if report.get("game") != game_id or not isinstance(fingerprint, str):
            continue
        when = path.stat().st_mtime
        if fingerprint not in found or when > found[fingerprint][0]:
            found[fingerprint] = (when, path, report)
    return {key: (path, report) for key, (_, path, report) in found.items()}


def _reports(search: Path) -> list[Path]:
    """`balance.json` files below `search` (links not followed, `SEARCH_DEPTH` levels at most), in a fixed order."""
    if not search.is_dir():
        return []
    found = []
    base = len(search.parts)
    for folder, dirs, files in os.walk(search):
        depth = len(Path(folder).parts) - base
        dirs[:] = sorted(d for d in dirs if depth < SEARCH_DEPTH and not Path(folder, d).is_symlink())
        if REPORT in files and not Path(folder, REPORT).is_symlink():
            found.append(Path(folder, REPORT))
            if len(found) >= REPORTS_READ:
                break
    return found


def moved(search: Path, game_id: str, old_folder: Path | None, new_folder: Path) -> dict[str, Any] | None:
    """The balance figures of the two versions side by side, when both have a kept run below `search`; else None,
    or a note saying which version has none (`{"missing": [...]}`)."""
    from cardgen.balance.compare import compare
    from cardgen.balance.sweep import folder_fingerprint

    reports = kept_reports(search, game_id)
    if not reports:
        return None
    old = reports.get(folder_fingerprint(old_folder)) if old_folder is not None else None
    new = reports.get(folder_fingerprint(new_folder))
    if old is None or new is None:
        return {"missing": [name for name, run in (("old", old), ("new", new)) if run is None]}
    compared = compare(old[1], new[1], display_path(old[0]))
    return {"old": display_path(old[0]), "new": display_path(new[0]), "runs": compared["runs"]}
