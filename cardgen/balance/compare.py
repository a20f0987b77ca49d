"""Before and after: what a data change did to the seats and the cards, read from two balance reports (JSON).

Each difference comes with both rates and their intervals and a two-proportion z score (|z| ≥ 2 is unlikely to be
chance alone at 95 %), so a designer who edited one card sees whether the change shows beyond the noise. The cards'
changes are many comparisons (every item at every seat): each also carries its p value after Holm's correction for
all of them (`stats.holm`), and only those below 0.05 after it are called significant.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from cardgen.balance.stats import SIGNIFICANCE, holm_by_value, p_value
from cardgen.errors import DataError, display_path, read_text
from cardgen.files import require_regular

REPORT_FORMAT = "cardgen-balance/1"


def read_report(path: Path) -> dict[str, Any]:
    """An earlier `balance.json`, or a one-line `DataError` saying why it cannot be compared with."""
    shown = display_path(path)
    require_regular(path, "--compare ")
    try:
        data = json.loads(read_text(path, "a balance report"))
    except DataError as exc:
        raise DataError(f"--compare {exc.problems[0]}") from None
    except (ValueError, RecursionError) as exc:
        raise DataError(f"--compare {shown}: not JSON ({getattr(exc, 'msg', exc)})") from None
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT or not isinstance(data.get("runs"), list):
        raise DataError(f"--compare {shown}: not a cardgen balance report (balance.json)")
    for index, run in enumerate(data["runs"]):
        _check_run(run, f"--compare {shown}: runs[{index}]")
    return data


def _check_run(run: Any, where: str) -> None:
    """Every rate a comparison reads is a share with its interval and a count of trials: a report someone edited
    (a rate of 5.0) is named by its field instead of breaking the arithmetic (a square root of a negative number)."""
    for i, seat in enumerate(_rows(run, "seats", where)):
        _check_rate(seat, f"{where}.seats[{i}]")
    for i, row in enumerate(_rows(run, "items", where)):
        _check_rate(row.get("occurred"), f"{where}.items[{i}].occurred")
        for s, seat in enumerate(_rows(row, "seats", f"{where}.items[{i}]")):
            _check_rate(seat.get("when"), f"{where}.items[{i}].seats[{s}].when")


def _rows(parent: Any, key: str, where: str) -> list[dict[str, Any]]:
    rows = parent.get(key) if isinstance(parent, dict) else None
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise DataError(f"{where}: '{key}' is not a list of objects (a damaged balance report)")
    return rows


def _check_rate(figure: Any, where: str) -> None:
    if not isinstance(figure, dict):
        raise DataError(f"{where}: not an object with a rate (a damaged balance report)")
    for key in ("rate", "low", "high"):
        value = figure.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise DataError(f"{where}.{key}: {json.dumps(value)[:24]} is not a share from 0 to 1")
    trials = figure.get("trials")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 0:
        raise DataError(f"{where}.trials: {json.dumps(trials)[:24]} is not a count of games")


def compare(old: dict[str, Any], new: dict[str, Any], shown: str) -> dict[str, Any]:
    """Per player count in both reports: each seat's and each item's win rates before and after."""
    if old.get("game") != new["game"]:
        raise DataError(f"--compare {shown}: a report of {old.get('game')}, not of {new['game']}")
    before = {run.get("players"): run for run in old["runs"] if isinstance(run, dict)}
    runs = []
    try:
        for run in new["runs"]:
            if run["players"] in before:
                runs.append(_compare_run(before[run["players"]], run))
    except (KeyError, TypeError, IndexError) as exc:
        raise DataError(f"--compare {shown}: a damaged balance report ({type(exc).__name__}: {exc})") from None
    if not runs:
        raise DataError(f"--compare {shown}: no player count in common with this run")
    return {"file": shown, "produced": old.get("produced", {}), "runs": runs}


def _compare_run(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    seats = [_change(a["name"], a, b) for a, b in zip(old["seats"], new["seats"], strict=False)]
    earlier = {(row["kind"], row["item"]): row for row in old["items"]}
    cards, tested = [], []
    for row in new["items"]:
        was = earlier.get((row["kind"], row["item"]))
        if was is None:
            continue
        changes = [
            _change(f"seat {s}", a["when"], b["when"])
            for s, (a, b) in enumerate(zip(was["seats"], row["seats"], strict=False))
        ]
        tested += [p_value(change["z"]) for change in changes]
        biggest = max(changes, key=lambda c: (abs(c["z"]), c["name"]), default=None)
        cards.append(
            {
                "kind": row["kind"],
                "item": row["item"],
                "occurred": _change("occurred", was["occurred"], row["occurred"]),
                "seat": biggest,
            }
        )
    adjusted = holm_by_value(tested)
    for card in cards:
        if card["seat"] is not None:
            corrected = adjusted[p_value(card["seat"]["z"])]
            card["seat"] |= {"p_holm": float(f"{corrected:.4g}"), "comparisons": len(tested)}
            card["seat"]["significant"] = corrected < SIGNIFICANCE
    cards.sort(key=lambda c: (-abs(c["seat"]["z"]) if c["seat"] else 0, c["kind"], c["item"]))
    return {"players": new["players"], "seats": seats, "items": cards}


def _change(name: str, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Two rates, the change in points and its z score (unpooled: the runs may differ in size)."""
    keys = ("rate", "low", "high", "trials")
    a, b = before["rate"], after["rate"]
    spread = math.sqrt(a * (1 - a) / max(before["trials"], 1) + b * (1 - b) / max(after["trials"], 1))
    z = (b - a) / spread if spread else 0.0
    return {
        "name": name,
        "before": {k: before[k] for k in keys},
        "after": {k: after[k] for k in keys},
        "points": round((b - a) * 100, 2),
        "z": round(z, 3),
    }
