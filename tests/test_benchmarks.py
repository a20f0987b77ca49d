"""Benchmark smoke runs: each script in benchmarks/ runs on a small job and writes its figures.

They assert nothing about speed (machines here are shared and noisy; the figures that matter are ratios from a full
run, see docs/DEVELOPING.md) — only that the benchmarks still run against today's code and measure something.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"
FIXTURES = BENCHMARKS.parent / "tests" / "fixtures"

# the demo game's folders, for benchmarks that can measure any game
DEMO = ["--data-dir", str(FIXTURES / "card_data"), "--templates-dir", str(FIXTURES / "templates"), "--games", "demo"]
SMALL = {
    "balance_scaling.py": [
        "--games",
        "4",
        "--only",
        "scifi-domains",
        "--batch",
        "2",
        "--no-cluster",
    ],  # Dask: its own tests
    "art_speed.py": ["--cards", "3", "--runs", "1"],
    "build_speed.py": ["--cards", "40", "--quick"],
    "engine_speed.py": ["--scale", "0.002", "--no-openspiel", "--min-games", "1", "--only", "battlefield-space"],
    "engine_invariants.py": ["battlefield-space", "--games", "3"],
    "described_twins.py": ["--games", "2", "--only", "battlefield-space"],
    "described_speed.py": ["--scale", "0", "--min-games", "1"],
    "preview_speed.py": ["--runs", "1"],
    "odds_speed.py": ["--quick"],
    "incremental_build.py": [
        *DEMO,
        "--runs",
        "1",
        "--no-whole",
    ],  # the demo game, in-process only: whole-process runs take seconds
    "rift_factions.py": ["--games", "4", "--players", "2"],
    "validate_speed.py": DEMO,  # the demo game: three validations of it
    "agent_strength.py": ["--smoke"],  # Battlefield: Space, two games a row, mcts:5
    "look.py": [
        *DEMO,
        "--inks",
        "full",
    ],  # the demo game, one ink: a build and its PDFs read
    "parallel_speed.py": [
        *DEMO,  # the demo game: every kind of component, a bundled game's art would take a minute under load
        "--runs",
        "1",
        "--jobs",
        "2",
    ],  # the parallel path: its own tests (tests/test_parallel_build.py)
}


def test_every_benchmark_has_a_smoke_run() -> None:
    scripts = {p.name for p in BENCHMARKS.glob("*.py") if p.name != "figures.py"}
    assert scripts == set(SMALL)


@pytest.mark.parametrize("script", sorted(SMALL))
def test_benchmark_runs_and_writes_its_figures(script: str, tmp_path: Path) -> None:
    target = tmp_path / "figures.json"
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *SMALL[script], "--json", str(target)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(target.read_text())
    assert figures["benchmark"] == script.removesuffix(".py")
    numbers = [v for v in _leaves(figures) if isinstance(v, int | float) and not isinstance(v, bool)]
    assert numbers and all(v >= 0 for v in numbers) and any(v > 0 for v in numbers), figures


def _leaves(value: object) -> list[object]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    return [value]
