"""A project file, `cardgen.toml`, names a designer's folders once instead of on every command.

::

    # cardgen.toml
    data = "card_data"          # the folder of games (one folder per game)
    templates = "templates"     # their layouts

cardgen reads `cardgen.toml` from the working directory, or the file `--project FILE` names. Paths are relative to
the file. `--data-dir` and `--templates-dir` still win over it. Unknown keys are errors, as everywhere else.

A project file never grants trust: it can be shipped beside a stranger's data, and a `trust` key in it is an error
saying where trust now lives (`cardgen trust GAME`, the user's own trust store: cardgen/trust.py).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from cardgen import limits
from cardgen.errors import DataError, did_you_mean, display_path
from cardgen.files import refusal, require_regular

FILE_NAME = "cardgen.toml"
_KEYS: dict[str, type] = {"data": str, "templates": str}


@dataclass(frozen=True)
class Project:
    """What a project file says: its folders."""

    path: Path | None = None
    data: Path | None = None
    templates: Path | None = None


def find(explicit: Path | None) -> Project:
    """The project named by `--project`, else `./cardgen.toml` if there is one, else an empty project."""
    path = explicit if explicit is not None else Path(FILE_NAME)
    if explicit is None and not path.is_file() and refusal(path) is None:  # a FIFO here is refused, not passed by
        return Project()
    return read(path)


def read(path: Path) -> Project:
    """The project file at `path`, or a `DataError` naming it: read whole only when it is within `project_bytes`."""
    shown = display_path(path)
    most = limits.current().project_bytes
    require_regular(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(most + 1)
        if len(data) > most:
            raise DataError(
                f"{shown}: the project file is larger than the limit of {most:,} bytes (a project file names a few "
                "folders; --limit project_bytes=N reads a larger one)"
            )
        text = data.decode("utf-8")
        values = tomllib.loads(text)
    except FileNotFoundError:
        raise DataError(f"{shown}: project file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{shown}: cannot read the project file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{shown}: invalid TOML ({exc})") from None
    except RecursionError:  # tomllib reads nested arrays and inline tables by recursion
        raise DataError(f"{shown}: invalid TOML (arrays or inline tables nest too deeply)") from None
    if "trust" in values:
        raise DataError(
            f"{shown}{_line_of(text, 'trust')}: 'trust' is no longer read from a project file (a folder cannot trust "
            "itself): trust a game's checks.py with 'cardgen trust GAME'"
        )
    for key, value in values.items():
        if key not in _KEYS:
            raise DataError(f"{shown}: unknown key '{key}'{did_you_mean(key, list(_KEYS))}; known: data, templates")
        if not isinstance(value, _KEYS[key]):
            raise DataError(f"{shown}: '{key}' must be a folder path in quotes")
    base = path.resolve().parent
    return Project(
        path,
        base / values["data"] if "data" in values else None,
        base / values["templates"] if "templates" in values else None,
    )


def _line_of(text: str, key: str) -> str:
    """`:LINE` of the first line that sets `key` at the top level ('' when it cannot be told)."""
    pattern = re.compile(rf"""^\s*["']?{re.escape(key)}["']?\s*=""")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return f":{number}"
    return ""
