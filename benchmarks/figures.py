"""What every benchmark shares: where its figures go besides the console (`--json FILE` writes them for tools and
the smoke test), and cardgen's code compiled as an installed copy has it (`compiled`)."""

from __future__ import annotations

import argparse
import compileall
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


def compiled() -> None:
    """Write the bytecode of cardgen's modules, as `pip install .` does. An editable install (the test command's)
    never writes it where PYTHONDONTWRITEBYTECODE is set (this machine's environment sets it): every process then
    compiles about 120 modules from source first, some 45 ms of a whole-process figure no user of an installed
    cardgen pays."""
    import cardgen

    compileall.compile_dir(Path(cardgen.__file__).parent, quiet=1)
