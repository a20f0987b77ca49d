"""Where the bundled games, layouts and fonts live: inside the wheel when installed, else at the repository root."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """The bundled folder `name` (`card_data`, `templates` or `fonts`)."""
    installed = _PACKAGE / "_bundled" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def default_data_dir() -> Path:
    return bundled("card_data")


def default_templates_dir() -> Path:
    return bundled("templates")


def default_fonts_dir() -> Path:
    return bundled("fonts")


def user_cache() -> Path:
    """The user's own cache folder for cardgen ($XDG_CACHE_HOME/cardgen, else ~/.cache/cardgen)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardgen"
