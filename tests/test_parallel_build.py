"""`cardgen build --jobs N`: games built in forked worker processes give the same files, byte for byte, as one
process, and a failure in any worker still leaves the output folder as it was (no file, no temporary file)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.render.parallel import can_fork

from conftest import FIXTURES, run_cli

pytestmark = pytest.mark.skipif(not can_fork(), reason="parallel builds fork worker processes (not on this platform)")


@pytest.fixture
def two_games(tmp_path: Path) -> tuple[Path, Path]:
    """The demo game and a copy of it under another id, with their layouts."""
    data, templates = tmp_path / "card_data", tmp_path / "templates"
    shutil.copytree(FIXTURES / "card_data" / "demo", data / "demo")
    shutil.copytree(FIXTURES / "card_data" / "demo", data / "demo2")
    manifest = data / "demo2" / "game.yaml"
    manifest.write_text(manifest.read_text().replace("id: demo\n", "id: demo2\n", 1))
    shutil.copytree(FIXTURES / "templates" / "demo", templates / "demo")
    shutil.copytree(FIXTURES / "templates" / "demo", templates / "demo2")
    return data, templates


def build(data: Path, templates: Path, out: Path, *args: str):
    return run_cli("--data-dir", data, "--templates-dir", templates, "build", "--out", out, "--trust-code", *args)


def files(folder: Path) -> dict[str, bytes]:
    """The files of a build, without the cache's records (render/cache.py)."""
    every = sorted(folder.rglob("*"))
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in every if p.is_file() and ".cardgen-cache" not in p.parts
    }


def folders(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_dir()}


def test_parallel_and_serial_builds_write_the_same_bytes(two_games, tmp_path):
    data, templates = two_games
    serial, parallel = (
        build(data, templates, tmp_path / "one", "--jobs", "1"),
        build(data, templates, tmp_path / "two", "--jobs", "2"),
    )
    assert serial.code == parallel.code == 0, serial.err + parallel.err
    one, two = files(tmp_path / "one"), files(tmp_path / "two")
    assert one == two and len(one) > 6
    assert {name.split("/")[0] for name in one} == {"demo", "demo2"}
    # the report lists the files in the games' order either way
    assert serial.out.replace(str(tmp_path / "one"), "") == parallel.out.replace(str(tmp_path / "two"), "")


def test_a_failing_worker_leaves_the_output_folder_as_it_was(two_games, tmp_path):
    data, templates = two_games
    out = tmp_path / "out"
    (out / "demo").mkdir(parents=True)
    (out / "demo" / "tokens.pdf").write_bytes(b"an earlier build")  # of a component that does not fail
    layout = templates / "demo" / "ship.xml.j2"  # the first game fails: the second, still building, is thrown away
    layout.write_text(layout.read_text().replace("</face>", "{{ no_such_name.x }}</face>", 1))
    run = build(data, templates, out, "--jobs", "2")
    assert run.code == 2 and "no_such_name" in run.err
    assert files(out) == {"demo/tokens.pdf": b"an earlier build"}  # nothing new, nothing half-written
    assert not list(out.rglob("*.part"))
    assert folders(out) == {"demo"}  # the folders made for the thrown-away files went with them


@pytest.mark.parametrize("allow", [(), ("--allow-overflow",)], ids=["blocked", "allowed"])
def test_overflowing_text_gives_the_same_files_and_report(two_games, tmp_path, allow):
    """Workers plan shared sheets before drawing, assuming no text overflows; a game where text does overflow is
    built again in one process, so the files (an earlier build's PDF of the blocked deck moved aside into stale/)
    and the report are those of a one-process build."""
    data, templates = two_games
    ships = data / "demo2" / "ships.yaml"
    fits = ships.read_text()
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        ships.write_text(fits)
        assert build(data, templates, out, "demo2", "--jobs", jobs).code == 0  # the earlier build
        earlier = files(out)["demo2/ships.pdf"]
        ships.write_text(fits.replace("Draw a card when revealed.", "Draw a card when revealed. " * 60, 1))
        run = build(data, templates, out, "demo2", "--jobs", jobs, *allow)  # its three files shared out
        runs.append((run.code, run.out.replace(str(out), ""), run.err.replace(str(out), ""), files(out)))
    (serial_code, *serial), (parallel_code, *parallel) = runs
    assert serial_code == parallel_code == (0 if allow else 1)
    assert "overflow" in serial[1]
    assert serial == parallel
    written, aside = serial[2].get("demo2/ships.pdf"), serial[2].get("demo2/stale/ships.pdf")
    if allow:
        assert written not in (None, earlier) and aside is None
    else:  # blocked: the earlier file is not left looking current, nor lost
        assert written is None and aside == earlier
        assert "moved /demo2/ships.pdf aside to /demo2/stale/ships.pdf (ships: failed: its text overflows" in serial[1]


def _earlier_build(out: Path) -> None:
    (out / "demo").mkdir(parents=True)
    (out / "demo" / "tokens.pdf").write_bytes(b"an earlier build")


@pytest.mark.parametrize("failure", ["load", "rule", "layout"])
def test_a_later_game_that_fails_throws_away_what_was_drawn_ahead(two_games, tmp_path, monkeypatch, failure):
    """With several processes the first game is drawn while the second loads and is checked: when the second fails
    (its data does not load, it breaks a rule, it names a layout that is missing), the error is the one-process
    build's and the output folder is as it was, though a worker had drawn the first game's files."""
    from cardgen.render import parallel

    data, templates = two_games
    if failure == "load":
        ships = data / "demo2" / "ships.yaml"
        ships.write_text(ships.read_text().replace("    hull: 1\n", "    hull: 1\n    armour: 2\n", 1))
    elif failure == "rule":
        rules = data / "demo2" / "rules.yaml"
        rules.write_text(rules.read_text().replace("tokens: {value: 14,", "tokens: {value: 15,", 1))
    else:
        (templates / "demo2" / "ship.xml.j2").unlink()
    forks = []
    fork = parallel.Speculative._fork
    monkeypatch.setattr(parallel.Speculative, "_fork", lambda self: forks.append(len(self.games)) or fork(self))
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        _earlier_build(out)
        run = build(data, templates, out, "--jobs", jobs)
        runs.append((run.code, run.err.replace(str(out), "OUT").replace(str(data), "DATA"), files(out)))
        assert not list(out.rglob("*.part"))
        assert folders(out) == {"demo"}
    assert forks and forks[0] == 1  # a worker was drawing the first game before the second was read
    (serial_code, serial_err, serial_files), parallel_run = runs[0], runs[1]
    assert serial_code != 0 and serial_err
    assert runs[0] == parallel_run
    assert serial_files == {"demo/tokens.pdf": b"an earlier build"}


def test_a_killed_worker_is_replaced_by_this_process(two_games, tmp_path, monkeypatch):
    """A worker that dies without a word (killed, out of memory) loses only time: what it had taken is drawn
    again here and the files are those of one process."""
    import os
    import signal

    from cardgen.render import parallel

    parent = os.getpid()
    draw = parallel.Speculative._build_unit

    def dies_in_a_worker(self, unit):
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return draw(self, unit)

    data, templates = two_games
    serial = build(data, templates, tmp_path / "one", "--jobs", "1")
    monkeypatch.setattr(parallel.Speculative, "_build_unit", dies_in_a_worker)
    forks = []
    fork = parallel.Speculative._fork
    monkeypatch.setattr(parallel.Speculative, "_fork", lambda self: forks.append(self.broken) or fork(self))
    killed = build(data, templates, tmp_path / "two", "--jobs", "2")
    assert serial.code == killed.code == 0, killed.err
    assert forks and not any(forks)  # no worker forked once one was known to be killed
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert serial.out.replace(str(tmp_path / "one"), "") == killed.out.replace(str(tmp_path / "two"), "")


def test_an_interrupt_while_checking_leaves_nothing_and_no_process(two_games, tmp_path, monkeypatch):
    """Ctrl-C after the workers started: no file appears, no temporary file stays, every worker is waited for."""
    import os

    from cardgen import building
    from cardgen.render import parallel

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    data, templates = two_games
    monkeypatch.setattr(building, "_validate_before_build", interrupted)
    forked: set[int] = set()
    fork = parallel.Speculative._fork

    def noted(self) -> bool:
        done = fork(self)
        forked.update(self.workers)  # the workers' process ids
        return done

    monkeypatch.setattr(parallel.Speculative, "_fork", noted)
    out = tmp_path / "out"
    _earlier_build(out)
    run = build(data, templates, out, "--jobs", "2")
    assert run.code != 0
    assert files(out) == {"demo/tokens.pdf": b"an earlier build"}
    assert not list(out.rglob("*.part"))
    assert folders(out) == {"demo"}
    assert forked
    for pid in forked:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # waited for: not running, not even a zombie


def test_a_ctrl_c_that_arrives_while_a_worker_is_forked_is_not_lost(two_games, tmp_path):
    """Python runs its fork hooks between forking and returning, and an interrupt raised inside one is printed and
    dropped ("Exception ignored"): the build would carry on and write everything. The interrupt is held back
    until the worker is forked and recorded, then stops the build like any other."""
    import subprocess
    import sys

    data, templates = two_games
    out = tmp_path / "out"
    driver = tmp_path / "interrupted_fork.py"
    driver.write_text(
        "import os, signal, sys\n"
        "os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))  # Ctrl-C mid-fork\n"
        f"sys.argv = ['cardgen', '--data-dir', {str(data)!r}, '--templates-dir', {str(templates)!r}, 'build',\n"
        f"            '--out', {str(out)!r}, '--trust-code', '--jobs', '2', '-q']\n"
        "from cardgen.cli import run\n"
        "run()\n"
    )
    run = subprocess.run([sys.executable, str(driver)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 130, run.stderr
    assert run.stderr.strip().splitlines()[-1] == "cardgen: interrupted; nothing was written"
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_a_parallel_build_leaves_no_temporary_folder_behind(two_games, tmp_path):
    """Inline icons are drawn through placeholder images in a temporary folder (render/icons.py). A forked worker
    ends with `os._exit`, which skips `atexit`: had it made a folder of its own, every `--jobs 2` build would leave
    one behind in the system's temporary folder. Workers share the parent's, which the parent removes."""
    import os
    import subprocess
    import sys

    data, templates = two_games
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    command = [sys.executable, "-m", "cardgen", "--data-dir", data, "--templates-dir", templates, "build", "--out",
               tmp_path / "out", "--trust-code", "--jobs", "2", "--no-cache", "-q"]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "TMPDIR": scratch})
    assert run.returncode == 0, run.stderr
    assert {p.parts[-2] for p in (tmp_path / "out").rglob("*.pdf")} == {"demo", "demo2"}  # both games, icons drawn
    left = {p.name for p in scratch.iterdir()}
    assert {name for name in left if not name.startswith("_jinja2-cache-")} == set()  # Jinja's cache is kept on purpose
