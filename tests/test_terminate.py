"""SIGTERM (`kill`, a CI time-out, a service manager) stops cardgen as Ctrl-C does: exit 143, no temporary file,
the output folder as it was (a build writes all its files or none), every forked worker stopped and waited for."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardgen.paths import default_data_dir

EARLIER = {"battlefield-space/red-deck.pdf": b"an earlier build", "notes.txt": b"the user's own"}


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder (None) below `root`."""
    return {p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None for p in root.rglob("*")}


def environment(tmp_path: Path) -> dict[str, str]:
    """The user's caches and settings in the test's folder, not the real ones."""
    return {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config")}


def _terminated_build(out: Path, env: dict[str, str], args: tuple[str, ...], staged: int, group: bool):
    """A build of every bundled game into `out`, sent SIGTERM once it has staged `staged` files (0: a second in,
    before it stages any), to cardgen alone or to its process group as a CI runner's time-out sends it; its exit
    code, stderr and whether any process is left."""
    command = [sys.executable, "-m", "cardgen", "--data-dir", str(default_data_dir()), "build", "--out", str(out)]
    process = subprocess.Popen(
        [*command, "-q", "--no-cache", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,  # its own process group: the workers it forks are in it too
    )
    if staged:
        _wait_for(lambda: process.poll() is not None or len(list(out.rglob("*.part"))) >= staged)
    else:
        time.sleep(1.0)
    with contextlib.suppress(ProcessLookupError):  # it may have ended already
        if group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    try:
        os.killpg(process.pid, 0)
        left = True
    except ProcessLookupError:
        left = False
    return process.returncode, err.decode(), left


# format, --jobs, files staged before SIGTERM (0: before any), sent to the whole process group. Staged files are
# counted rather than seconds waited: the signal comes at the same point of the build however loaded the machine
# (a build stages each file as it is written and commits them all at its end, so later points are the same code)
CASES = [
    ("pdf", "1", 0, False),
    ("pdf", "1", 3, True),
    ("pdf", "2", 1, False),
    ("pdf", "2", 8, True),
    ("png", "1", 1, False),
    ("png", "2", 20, False),
    ("png", "2", 60, True),
    ("tts", "2", 5, True),
]


@pytest.mark.parametrize(("output_format", "jobs", "staged", "group"), CASES)
def test_sigterm_during_a_build_leaves_the_output_folder_as_it_was(tmp_path, output_format, jobs, staged, group):
    env = environment(tmp_path)
    for attempt in range(6):  # a build that ended before the signal reached it proves nothing: sooner
        out = tmp_path / f"out{attempt}"
        for name, data in EARLIER.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_bytes(data)
        before = tree(out)
        code, err, left = _terminated_build(out, env, ("--format", output_format, "--jobs", jobs), staged, group)
        assert not left, f"a worker process outlived cardgen: {err}"
        assert not list(out.rglob("*.part")), err
        finished = code == 0 or err.strip().endswith("after its files were written")
        if not finished:
            break
        staged //= 2
    assert code == 143, err
    assert err.strip().splitlines()[-1] == "cardgen: terminated; nothing was written", err
    assert "Traceback" not in err, err
    assert tree(out) == before, err  # failed once under heavy load, not since: err says where


def _wait_for(ready, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ready() and time.monotonic() < deadline:
        time.sleep(0.02)


def test_sigterm_during_play_leaves_no_log(tmp_path):
    """`play --log` streams its log into a temporary file: terminated, neither it nor a log is left."""
    log = tmp_path / "logs" / "games.jsonl"
    log.parent.mkdir()
    command = [sys.executable, "-m", "cardgen", "play", "scifi-domains", "--games", "100000", "--log", str(log)]
    with subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment(tmp_path)
    ) as child:
        _wait_for(lambda: any(p.stat().st_size > 100_000 for p in log.parent.glob("*.part")))  # games are logged
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    assert child.returncode == 143, err
    assert err.decode().strip().splitlines()[-1] == "cardgen: terminated; nothing was written"
    assert list(log.parent.iterdir()) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_during_balance_keeps_whole_batches(tmp_path, jobs):
    """A sweep's results file keeps every finished batch whole (no torn line), and says how to resume; its report
    files are not written."""
    out = tmp_path / "balance"
    command = [
        sys.executable,
        "-m",
        "cardgen",
        "balance",
        "scifi-domains",
        "--games",
        "2000",
        "--batch",
        "2",
        "--agents",
    ]
    command += ["random"]
    command += ["--jobs", jobs, "--out", str(out)]
    with subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment(tmp_path)
    ) as child:
        _wait_for(lambda: any(len(p.read_bytes().splitlines()) >= 4 for p in out.glob("*.jsonl")))
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    assert child.returncode == 143, err
    assert "cardgen: terminated; kept " in err.decode() and "--resume" in err.decode()
    results = list(out.glob("*.jsonl"))
    assert results and all(p.read_bytes().endswith(b"\n") for p in results)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in results)
    assert not list(tmp_path.rglob("*.part"))


def test_sigterm_during_preview_leaves_no_picture(tmp_path):
    """A contact sheet at 600 dpi takes seconds: terminated, neither it nor a temporary file is left."""
    out = tmp_path / "previews"
    command = [sys.executable, "-m", "cardgen", "preview", "scifi-domains", "--grid", "units", "--dpi", "600"]
    for delay in (2.5, 1.2, 0.6, 0.3):  # one that finished before the signal proves nothing: sooner
        with subprocess.Popen(
            [*command, "--out", str(out / "grid.png")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=environment(tmp_path),
        ) as child:
            time.sleep(delay)
            child.send_signal(signal.SIGTERM)
            _, err = child.communicate(timeout=60)
        # finished, or stopped between writing the picture and exiting (a loaded machine): proves nothing, sooner
        if child.returncode != 0 and b"after its files were written" not in err:
            break
        shutil.rmtree(out)
    assert child.returncode == 143, err
    assert err.decode().strip().splitlines()[-1] == "cardgen: terminated; nothing was written"
    assert not out.exists() or list(out.iterdir()) == []


def test_a_stop_a_library_wraps_in_its_own_error_still_ends_as_a_stop(monkeypatch, capsys):
    """pydantic building a schema catches whatever is raised inside and raises a `SchemaError` of its own: SIGTERM
    arriving there once ended as 'internal error' (exit 3). The stop raised in the command is remembered, so the
    command ends as a stop (exit 143, one line) whatever error carried it out."""
    from cardgen import cli

    @cli.cli.command("wrap-a-stop")
    def wrap_a_stop() -> None:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises in this thread before the sleep ends
        except KeyboardInterrupt:
            raise RuntimeError("SchemaError: Error building 'model' schema") from None

    monkeypatch.setattr(sys, "argv", ["cardgen", "wrap-a-stop"])
    try:
        with pytest.raises(SystemExit) as ended:
            cli.main()
    finally:
        cli.cli.commands.pop("wrap-a-stop")
    assert ended.value.code == 143
    assert capsys.readouterr().err == "cardgen: terminated; nothing was written\n"


def test_a_second_signal_while_stopping_does_not_cut_the_clean_up_short():
    """A worker of a build stopped by SIGTERM to its process group gets the group's signal and then its parent's:
    the second once interrupted a clean-up (pypdfium2 closing a document in a generator's `finally`), and the build
    ended with a traceback from the generator's finaliser and pypdfium2's warning about a half-closed object. Once a
    stop has been raised in a command, a further signal is not raised again; the next command stops as usual."""
    from cardgen import stopping

    cleaned = False
    with pytest.raises(stopping.Terminated), stopping.handling():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises before the sleep ends
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # the parent's signal, during the clean-up
            time.sleep(0.05)
            cleaned = True
    assert cleaned
    with pytest.raises(KeyboardInterrupt), stopping.handling():  # a new command: its stop is raised
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
