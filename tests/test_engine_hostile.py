"""Damaged game logs and unplayable data, through the real command line: a located line and exit 2, or a game
reported as differing — never a traceback or an "internal error"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import copy_game


def cardgen(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")}
    command = [sys.executable, "-m", "cardgen", *map(str, args)]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=60, env=env)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """A real two-game log of each engined game, as lines."""
    folder = tmp_path_factory.mktemp("logs")
    found = {}
    for game in ("battlefield-space", "scifi-domains"):
        run = cardgen("play", game, "--games", "2", "--seed", "5", "--log", f"{game}.jsonl", cwd=folder)
        assert run.returncode == 0, run.stderr
        found[game] = (folder / f"{game}.jsonl").read_text().splitlines()
    return found


def _first_step(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if '"action"' in line)


def _damaged(lines: list[str], how: str) -> str | bytes:
    header = json.loads(lines[0])
    step = _first_step(lines)
    if how == "random-bytes":
        return bytes(range(256)) * 3
    if how == "empty":
        return ""
    if how == "null-line":
        return "\n".join([lines[0], "null", *lines[1:]])
    if how == "no-seed":
        del header["seed"]
        return "\n".join([json.dumps(header), *lines[1:]])
    if how == "text-action":
        action = json.loads(lines[step]) | {"action": "attack"}
        return "\n".join([*lines[:step], json.dumps(action), *lines[step + 1 :]])
    if how == "huge-action":
        action = json.loads(lines[step]) | {"action": 10**9}
        return "\n".join([*lines[:step], json.dumps(action), *lines[step + 1 :]])
    if how == "unknown-game":
        return "\n".join([json.dumps(header | {"game": "chess"}), *lines[1:]])
    if how == "seven-players":
        return "\n".join([json.dumps(header | {"players": 7}), *lines[1:]])
    if how == "no-header":
        return "\n".join(lines[1:])
    if how == "truncated":
        return "\n".join(lines[: step + 3])
    raise AssertionError(how)


CASES = [
    ("battlefield-space", "random-bytes", 2, "not a game log: not UTF-8 text"),
    ("battlefield-space", "empty", 2, "the log holds no game"),
    ("battlefield-space", "null-line", 2, "x.jsonl:2: not a log line (expected a JSON object, got NoneType)"),
    ("battlefield-space", "no-seed", 2, "x.jsonl:1: the line has no 'seed'"),
    ("battlefield-space", "text-action", 2, "'action' has the wrong type (\"attack\")"),
    ("scifi-domains", "huge-action", 1, "no legal action number 1000000000 here"),
    ("battlefield-space", "huge-action", 1, "no legal action number 1000000000 here"),
    ("battlefield-space", "unknown-game", 2, "x.jsonl:1: unknown game 'chess'"),
    ("battlefield-space", "seven-players", 2, "x.jsonl:1: 7 players, but battlefield-space is for 2–2"),
    ("battlefield-space", "no-header", 2, "x.jsonl:1: a log must start with a game header line"),
    ("scifi-domains", "truncated", 1, "the log has no end line"),
]


@pytest.mark.parametrize(("game", "how", "code", "message"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_damaged_logs(tmp_path: Path, logs, game: str, how: str, code: int, message: str):
    damaged = _damaged(logs[game], how)
    log = tmp_path / "x.jsonl"
    log.write_bytes(damaged if isinstance(damaged, bytes) else damaged.encode())
    run = cardgen("replay", "x.jsonl", cwd=tmp_path)
    assert run.returncode == code, run.stdout + run.stderr
    assert message in run.stdout + run.stderr
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr


def test_a_log_edited_to_another_player_count_differs(tmp_path: Path, logs):
    header = json.loads(logs["scifi-domains"][0])
    (tmp_path / "x.jsonl").write_text("\n".join([json.dumps(header | {"players": 3}), *logs["scifi-domains"][1:]]))
    run = cardgen("replay", "x.jsonl", cwd=tmp_path)
    assert run.returncode == 1 and "DIFFERS" in run.stdout, run.stdout + run.stderr


def test_an_intact_log_reproduces(tmp_path: Path, logs):
    (tmp_path / "x.jsonl").write_text("\n".join(logs["battlefield-space"]) + "\n")
    run = cardgen("replay", "x.jsonl", cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.count("reproduced") == 2


def test_an_empty_deck_refuses_to_play(tmp_path: Path):
    copy = copy_game("battlefield-space", tmp_path)
    deck = copy.folder / "red-deck.yaml"
    text = deck.read_text()
    deck.write_text(text[: text.index("cards:")] + "cards: []\n")
    run = cardgen("--data-dir", copy.data, "play", "battlefield-space", "--games", "2", cwd=tmp_path)
    assert run.returncode == 2 and "cannot play: the deck 'red-deck' has no cards" in run.stderr, run.stderr


def test_a_game_of_a_million_actions_is_replayed_as_it_is_read(tmp_path: Path, logs):
    """Each step is compared as it is read and dropped: a log of one game with 60,000 actions replays in the memory
    of one (it held every line of the game first: 70 MB here, and 10^6 steps were over a gigabyte)."""
    import tracemalloc

    from cardgen.engine.runner import replay
    from cardgen.paths import default_data_dir

    lines = logs["scifi-domains"]
    step = '{"n":%d,"player":1,"action":15,"label":"research slot 5","chance":[["draw",["techs",15]]]}\n'
    with (tmp_path / "long.jsonl").open("w") as log:
        log.write(lines[0] + "\n")
        log.writelines(step % n for n in range(1, 60_001))
        log.write(lines[_first_step(lines)] + "\n")  # lines after a difference are still checked for their form
    tracemalloc.start()
    try:
        (outcome,) = replay(tmp_path / "long.jsonl", default_data_dir())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert outcome[1] is False and outcome[2].startswith("action 1: ")
    assert peak < 35 * 1024**2, f"{peak / 1024**2:.0f} MB"
