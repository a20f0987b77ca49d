"""A project file, `cardgen.toml`, names a designer's folders once instead of on every command.

::

    # cardgen.toml
    data = "card_data"          # the folder of games (one folder per game)
    templates = "templates"     # their layouts
    trust = ["my-game"]         # games whose checks.py may run (as --trust-code would allow)

cardgen reads `cardgen.toml` from the working directory, or the file `--project FILE` names. Paths are relative to
the file. `--data-dir` and `--templates-dir` still win over it. Unknown keys are errors, as everywhere else.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.errors import DataError, did_you_mean, display_path
from cardgen.files import refusal, require_regular

FILE_NAME = "cardgen.toml"
_KEYS: dict[str, type] = {"data": str, "templates": str, "trust": list}


@dataclass(frozen=True)
class Project:
    """What a project file says: its folders and the games it trusts to run code."""

    path: Path | None = None
    data: Path | None = None
    templates: Path | None = None
    trust: tuple[str, ...] = field(default_factory=tuple)


def find(explicit: Path | None) -> Project:
    """The project named by `--project`, else `./cardgen.toml` if there is one, else an empty project."""
    path = explicit if explicit is not None else Path(FILE_NAME)
    if explicit is None and not path.is_file() and refusal(path) is None:  # a FIFO here is refused, not passed by
        return Project()
    return read(path)


def read(path: Path) -> Project:
    shown = display_path(path)
    require_regular(path)
    try:
        values = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{shown}: project file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{shown}: cannot read the project file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{shown}: invalid TOML ({exc})") from None
    for key, value in values.items():
        if key not in _KEYS:
            raise DataError(
                f"{shown}: unknown key '{key}'{did_you_mean(key, list(_KEYS))}; known: data, templates, trust"
            )
        wrong_trust = key == "trust" and not (isinstance(value, list) and all(isinstance(v, str) for v in value))
        if not isinstance(value, _KEYS[key]) or wrong_trust:
            kind = "a list of game ids" if key == "trust" else "a folder path in quotes"
            raise DataError(f"{shown}: '{key}' must be {kind}")
    base = path.resolve().parent
    return Project(
        path,
        base / values["data"] if "data" in values else None,
        base / values["templates"] if "templates" in values else None,
        tuple(values.get("trust", ())),
    )
