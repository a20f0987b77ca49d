"""Running cardgen on hostile input the way a user would: a real process, bounded in time and memory, watched.

A case copies the demo game (data and layouts) into a fresh workspace next to an `outside/` folder holding files a
game folder must never reach, breaks something, and runs `python -m cardgen` in a subprocess with a memory ceiling.
`run_case` returns what happened — exit code, output, seconds, peak memory, which files changed — and the test module
asserts on it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
CACHE = ".cardgen-cache"  # the build's records of what it wrote (cardgen/render/cache.py), not output
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
    left_in_temp: list[str] = field(default_factory=list)  # what the run left in its temporary folder (TMPDIR)


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


# A zygote: one small Python process per test worker that has imported cardgen once and forks a fresh child for
# every case. Each case is still a process of its own — its own memory ceiling, working folder, environment, exit
# code and peak memory, killed if it overruns — but it starts in milliseconds instead of importing cardgen anew
# (which was most of the hostile suite's time).
_ZYGOTE = r"""
import json, os, resource, sys, tempfile, time
import cardgen.cli, cardgen.data, cardgen.render.build, cardgen.validate  # the imports every case would repeat
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_AS, (job["ceiling"], job["ceiling"]))
        os.chdir(job["cwd"])
        os.environ.clear()
        os.environ.update(job["env"])
        tempfile.tempdir = None  # read again from TMPDIR, which the case sets
        # appending: the two streams may share one file, in the order a terminal shows them (line by line)
        written = os.O_WRONLY | os.O_APPEND
        files = [(os.devnull, os.O_RDONLY), (job["out"], written), (job["err"], written)]
        for fd, (path, flags) in enumerate(files):
            os.dup2(os.open(path, flags), fd)
        sys.stdout.reconfigure(line_buffering=True)
        sys.argv = ["cardgen", *job["args"]]
        # what the console script runs: the command, its exit handlers (a temporary folder it made is removed),
        # then `os._exit` with its code
        cardgen.cli.run()
    deadline = time.monotonic() + job["seconds"]
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
        time.sleep(0.002)
    print(json.dumps({"code": os.waitstatus_to_exitcode(status), "maxrss": usage.ru_maxrss}), flush=True)
"""
_zygote: subprocess.Popen[str] | None = None


def _zygote_process() -> subprocess.Popen[str]:
    global _zygote
    if _zygote is None or _zygote.poll() is not None:
        _zygote = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
    return _zygote


def fork_cardgen(
    cwd: Path, args: list[str], env: dict[str, str], out: Path, err: Path, seconds: float
) -> tuple[int, int]:
    """`cardgen ARGS` in `cwd` with exactly `env`, as a process of its own forked from the zygote, its output appended
    to `out` and `err` (they may be one file), killed after `seconds`; its exit code and peak memory (kB)."""
    job = {"cwd": str(cwd), "args": args, "env": env, "out": str(out), "err": str(err), "ceiling": CEILING_BYTES,
           "seconds": seconds}  # fmt: skip
    zygote = _zygote_process()
    assert zygote.stdin is not None and zygote.stdout is not None
    zygote.stdin.write(json.dumps(job) + "\n")
    zygote.stdin.flush()
    answer = json.loads(zygote.stdout.readline())
    return answer["code"], answer["maxrss"]


def run_cardgen(ws: Workspace, args: list[str], stdin: bytes = b"") -> Outcome:
    """`cardgen --data-dir data --templates-dir templates ARGS` in the workspace, as a process of its own (forked
    from the zygote), bounded in time and memory and measured."""
    before = _snapshot(ws.root, ws.out)
    temp = ws.root.parent / f"{ws.root.name}.tmp"
    temp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")} | {"TMPDIR": str(temp)}
    out_path, err_path = ws.root.parent / f"{ws.root.name}.out", ws.root.parent / f"{ws.root.name}.err"
    out_path.write_bytes(b"")
    err_path.write_bytes(b"")
    start = time.perf_counter()
    code, maxrss = fork_cardgen(
        ws.root, ["--data-dir", "data", "--templates-dir", "templates", *args], env, out_path, err_path, SECONDS * 3
    )
    seconds = time.perf_counter() - start
    after = _snapshot(ws.root, ws.out)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    files = sorted(str(p.relative_to(ws.out)) for p in ws.out.rglob("*") if p.is_file() and CACHE not in p.parts)
    return Outcome(
        code,
        out_path.read_text(errors="replace"),
        err_path.read_text(errors="replace"),
        seconds,
        maxrss / 1024,
        changed,
        files,
        sorted(p.name for p in temp.iterdir()),
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
    megabytes: int = MEGABYTES  # peak memory allowed (lower where the point of a case is that memory stays small)
