"""Where a benchmark's figures go besides the console: `--json FILE` writes them for tools (and the smoke test)."""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path
from typing import Any


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")


def write(path: Path | None, name: str, figures: dict[str, Any]) -> None:
    """The figures of one run, with the machine they were measured on (ratios from one run are what compare)."""
    if path is None:
        return
    record = {"benchmark": name, "python": platform.python_version(), "machine": platform.machine(), **figures}
    path.write_text(json.dumps(record, indent=2, default=str) + "\n", encoding="utf-8")
