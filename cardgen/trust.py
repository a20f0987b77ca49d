"""Which games' own code may run: the user's trust store, never the game folder's say.

A game's `checks.py` is Python and would run with the user's rights. Whoever opens a folder decides whether it
runs, not the folder: a `cardgen.toml` shipped beside a stranger's data cannot grant it. The decision is kept in the
user's own configuration, `$XDG_CONFIG_HOME/cardgen/trust.json` (else `~/.config/cardgen/trust.json`), one JSON file
written atomically by `cardgen trust GAME` and `cardgen untrust GAME`. Each entry is keyed by the game folder's real
path and holds the SHA-256 of the `checks.py` the user trusted: a changed file (or the same folder name elsewhere)
is not trusted until the user says so again, and only the bytes that were trusted are run (the loader checks the
hash of what it executes). `--trust-code` trusts whatever is there for one run; bundled games are cardgen's own code.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.errors import DataError, display_path
from cardgen.paths import default_data_dir

FORMAT = "cardgen-trust/1"
CHECKS_FILE = "checks.py"


@dataclass(frozen=True)
class Decision:
    """Whether a game's checks.py runs: `reason` says why not (and how to change it); `sha256` pins the bytes that
    may run (None: whatever is there, as with `--trust-code` or a bundled game)."""

    runs: bool
    reason: str = ""
    sha256: str | None = None


TRUSTED = Decision(True)


def store_path() -> Path:
    """The user's trust store: `$XDG_CONFIG_HOME/cardgen/trust.json`, else `~/.config/cardgen/trust.json`."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cardgen" / "trust.json"


def checks_sha256(folder: Path) -> str | None:
    """The SHA-256 of the game's checks.py (None when it has none)."""
    path = folder / CHECKS_FILE
    if not path.is_file():
        return None
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise DataError(f"{display_path(path)}: cannot read ({exc.strerror})") from None


def is_bundled(folder: Path) -> bool:
    """Whether a game folder ships with cardgen (its code is cardgen's own, so trusted)."""
    return folder.resolve().parent == default_data_dir().resolve()


def decide(game_id: str, folder: Path) -> Decision:
    """Whether the checks.py of the game in `folder` may run without `--trust-code`."""
    if is_bundled(folder):
        return TRUSTED
    again = f"run 'cardgen trust {game_id}' to run it, or pass --trust-code for one run"
    trusted = _read().get(_key(folder))
    if trusted is None:
        return Decision(False, f"checks.py is code from the game folder: {again}")
    if trusted != checks_sha256(folder):
        return Decision(False, f"checks.py changed since you trusted it: {again}")
    return Decision(True, sha256=trusted)


def trust(folder: Path) -> str:
    """Trust the checks.py now in `folder` (by its SHA-256, returned); the store is rewritten atomically."""
    sha = checks_sha256(folder)
    if sha is None:
        raise DataError(f"{display_path(folder / CHECKS_FILE)}: not found: the game has no code to trust")
    games = _read()
    games[_key(folder)] = sha
    _write(games)
    return sha


def untrust(folder: Path) -> bool:
    """Forget the game in `folder`; False when it was not trusted."""
    games = _read()
    if games.pop(_key(folder), None) is None:
        return False
    _write(games)
    return True


def _key(folder: Path) -> str:
    return str(folder.resolve())


def user_record(path: Path, record_format: str, part: str, what: str, remedy: str) -> Any:
    """The `part` of a JSON record of the user's own configuration tagged `record_format` (the trust store, the
    fetch grants): `{}` when there is none yet, None when the file is not such a record; a `DataError` naming the
    file (and `what` it is, and the `remedy`) when it cannot be read."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DataError(f"{display_path(path)}: cannot read {what} ({exc}); {remedy}") from None
    return data.get(part) if isinstance(data, dict) and data.get("format") == record_format else None


def _read() -> dict[str, str]:
    """The trusted folders and their checks.py hashes; none when there is no store yet."""
    path = store_path()
    shown = display_path(path)
    games = user_record(path, FORMAT, "games", "the trust store", "remove it to trust nothing")
    if not isinstance(games, dict) or not all(
        isinstance(key, str) and isinstance(entry, dict) and isinstance(entry.get("checks.py"), str)
        for key, entry in games.items()
    ):
        raise DataError(f"{shown}: not a cardgen trust store; remove it to trust nothing")
    return {key: entry["checks.py"] for key, entry in games.items()}


def _write(games: dict[str, str]) -> None:
    from cardgen.output import write_atomic

    entries = {key: {"checks.py": sha} for key, sha in sorted(games.items())}
    text = json.dumps({"format": FORMAT, "games": entries}, indent=1) + "\n"
    write_atomic(store_path(), text.encode("utf-8"))
