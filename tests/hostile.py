"""Running cardgen on hostile input the way a user would: a real process, bounded in time and memory, watched.

A case copies the demo game (data and layouts) into a fresh workspace next to an `outside/` folder holding files a
game folder must never reach, breaks something, and runs `python -m cardgen` in a subprocess with a memory ceiling.
`run_case` returns what happened — exit code, output, seconds, peak memory, which files changed — and the test module
asserts on it.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
SECONDS = 10.0
MEGABYTES = 500
CEILING_BYTES = 2 * 1024**3  # address-space ceiling so that a runaway case fails instead of taking the machine down


@dataclass
class Workspace:
    """A game folder a case may break, and everything around it that must stay untouched."""

    root: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def game(self) -> Path:
        return self.root / "data" / "demo"

    @property
    def layouts(self) -> Path:
        return self.root / "templates" / "demo"

    @property
    def out(self) -> Path:
        return self.root / "out"

    @property
    def outside(self) -> Path:
        return self.root / "outside"

    def edit(self, relative: str, old: str, new: str, count: int = 1) -> None:
        """Replace text in a file of the workspace (the text must be there: a case that edits nothing is a bug)."""
        path = self.root / relative
        text = path.read_text()
        assert old in text, f"{relative} has no {old!r}"
        path.write_text(text.replace(old, new, count))

    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        return path


def make_workspace(root: Path) -> Workspace:
    ws = Workspace(root)
    shutil.copytree(FIXTURES / "card_data", ws.data)
    shutil.copytree(FIXTURES / "templates", root / "templates")
    ws.write("outside/secret.txt", "TOP-SECRET-CONTENT\n")
    ws.write("outside/game.yaml", "id: outside\n")
    ws.out.mkdir()
    return ws


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    seconds: float
    peak_mb: float
    changed_outside_out: list[str] = field(default_factory=list)
    files_in_out: list[str] = field(default_factory=list)


def _snapshot(root: Path, skip: Path) -> dict[str, str]:
    state = {}
    for path in sorted(root.rglob("*")):
        if skip in path.parents or path == skip or "__pycache__" in path.parts:
            continue
        if path.is_file() and not path.is_symlink():
            state[str(path.relative_to(root))] = hashlib.sha1(path.read_bytes()).hexdigest()
        else:
            state[str(path.relative_to(root))] = "link" if path.is_symlink() else "dir"
    return state


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CEILING_BYTES, CEILING_BYTES))


def run_cardgen(ws: Workspace, args: list[str], stdin: bytes = b"") -> Outcome:
    """`python -m cardgen --data-dir data --templates-dir templates ARGS` in the workspace, bounded and measured."""
    before = _snapshot(ws.root, ws.out)
    command = [sys.executable, "-m", "cardgen", "--data-dir", "data", "--templates-dir", "templates", *args]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")}
    out_path, err_path = ws.root.parent / f"{ws.root.name}.out", ws.root.parent / f"{ws.root.name}.err"
    start = time.perf_counter()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        process = subprocess.Popen(
            command, cwd=ws.root, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, preexec_fn=_limit_memory
        )
        killer = threading.Timer(SECONDS * 3, process.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            killer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    after = _snapshot(ws.root, ws.out)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    files = sorted(str(p.relative_to(ws.out)) for p in ws.out.rglob("*") if p.is_file())
    return Outcome(
        process.returncode,
        out_path.read_text(errors="replace"),
        err_path.read_text(errors="replace"),
        seconds,
        usage.ru_maxrss / 1024,
        changed,
        files,
    )


@dataclass(frozen=True)
class Case:
    """One hostile input: how to break the workspace, the command to run, the exit code and the text to expect."""

    name: str
    edit: Callable[[Workspace], object] | None
    args: tuple[str, ...]
    code: int
    expect: str | tuple[str, ...]  # text the error (or, for exit 0/1, the output) must contain
    outputs: tuple[str, ...] = ()  # files the run may leave in out/ (a rule violation that still built others)
