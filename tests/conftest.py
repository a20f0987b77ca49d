"""Shared test helpers: running the command line in-process and copying the demo game to play with."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent


@dataclass
class Run:
    code: int
    out: str
    err: str
    exception: BaseException | None


def run_cli(*args: str | Path) -> Run:
    """Invoke `cardgen ARGS` in-process; an exception other than a clean exit is a test failure."""
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=True)
    exception = result.exception if not isinstance(result.exception, SystemExit) else None
    return Run(result.exit_code, result.stdout, result.stderr, exception)


@pytest.fixture
def demo_data(tmp_path: Path) -> Path:
    """A writable copy of the demo game's data folder (tests/fixtures/card_data)."""
    target = tmp_path / "card_data"
    shutil.copytree(FIXTURES / "card_data", target)
    return target
