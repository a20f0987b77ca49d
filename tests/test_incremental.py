"""Incremental builds (cardgen/render/cache.py) and `cardgen watch`: a rebuild writes only the files whose inputs
changed, what it writes is byte for byte what a clean build writes, and a component that fails no longer leaves its
earlier file looking current."""

from __future__ import annotations

import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import FIXTURES, REPO, GameCopy, Run, copy_game, run_cli

CACHE = ".cardgen-cache"


@pytest.fixture
def demo(tmp_path: Path) -> tuple[GameCopy, Path]:
    """A copy of the demo game and of its layouts."""
    shutil.copytree(FIXTURES / "templates" / "demo", tmp_path / "templates" / "demo")
    return copy_game("demo", tmp_path, FIXTURES / "card_data"), tmp_path / "templates"


def build(demo: tuple[GameCopy, Path], out: Path, *args: str) -> Run:
    game, templates = demo
    return run_cli("--data-dir", game.data, "--templates-dir", templates, "build", "demo", "--out", out, *args)


def listed(run: Run) -> dict[str, bool]:
    """The files a build lists, each with whether it says it kept it unchanged."""
    lines = [line.split("  ") for line in run.out.splitlines() if "  " in line and " page" in line]
    return {Path(path).name: what.endswith(", unchanged") for path, what in lines}


def files(folder: Path) -> dict[str, bytes]:
    every = sorted(folder.rglob("*"))
    return {str(p.relative_to(folder)): p.read_bytes() for p in every if p.is_file() and CACHE not in p.parts}


def text_of(pdf: Path) -> str:
    return "".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_a_changed_card_rewrites_its_file_only_and_matches_a_clean_build(demo, tmp_path):
    out = tmp_path / "out"
    first = build(demo, out)
    assert first.code == 0, first.err
    assert listed(first) == {"ships.pdf": False, "tokens.pdf": False, "board.pdf": False}
    assert (out / CACHE / "demo.json").is_file()

    demo[0].edit("ships.yaml", "name: Scout\n", "name: Scoutship\n")
    again = build(demo, out)
    assert again.code == 0, again.err
    assert listed(again) == {"ships.pdf": False, "tokens.pdf": True, "board.pdf": True}
    assert "Scoutship" in text_of(out / "demo" / "ships.pdf")

    clean = build(demo, tmp_path / "clean", "--no-cache")
    assert clean.code == 0, clean.err
    assert not (tmp_path / "clean" / CACHE / "demo.json").exists()  # no cache records (which files are its own: yes)
    assert files(out) == files(tmp_path / "clean")  # byte for byte, guides included


def test_a_changed_card_of_a_component_sharing_another_files_last_sheet_rewrites_that_file(tmp_path):
    """The bilingual fixture prints its five events in a block on the outposts' last sheet: an event changed must
    rewrite outposts.pdf (its key once held the host's own cards only, and the old file was kept)."""
    game = copy_game("outposts", tmp_path, FIXTURES / "languages" / "card_data")
    templates = FIXTURES / "languages" / "templates"
    out = tmp_path / "out"

    def built() -> Run:
        return run_cli("--data-dir", game.data, "--templates-dir", templates, "build", "outposts", "--out", out)

    assert listed(built()) == {"outposts.pdf": False}
    game.edit("events.csv", "Solar Storm", "Ion Storm")
    assert listed(built()) == {"outposts.pdf": False}
    text = "".join(page.extract_text() for page in PdfReader(out / "outposts" / "outposts.pdf").pages)
    assert "Ion Storm" in text and "Solar Storm" not in text


def test_nothing_changed_loads_nothing_and_a_damaged_or_stale_file_is_rebuilt(demo, tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert build(demo, out).code == 0
    before = files(out)

    def no_loading(*args, **kwargs):
        raise AssertionError("an unchanged game was loaded")

    with monkeypatch.context() as patch:
        patch.setattr("cardgen.data.load_games", no_loading)
        same = build(demo, out)
    assert same.code == 0, same.err
    assert listed(same) == {"ships.pdf": True, "tokens.pdf": True, "board.pdf": True}
    assert "3 files, " in same.out  # the summary as a full build prints it

    (out / "demo" / "tokens.pdf").write_bytes(b"edited by hand")  # bytes the cache did not write: rebuilt
    layout = demo[1] / "demo" / "board.xml.j2"  # a layout that only the board uses
    layout.write_text(layout.read_text().replace("</face>", '<rect x="1" y="1" w="2" h="2" fill="black"/></face>'))
    mended = build(demo, out)
    assert mended.code == 0, mended.err
    assert listed(mended) == {"ships.pdf": True, "tokens.pdf": False, "board.pdf": False}
    assert files(out)["demo/tokens.pdf"] == before["demo/tokens.pdf"]
    assert files(out)["demo/board.pdf"] != before["demo/board.pdf"]

    letter = build(demo, out, "--paper", "letter")  # an option decides every file
    assert set(listed(letter).values()) == {False}
    (demo[0].folder / "art.png").write_bytes(b"a new picture")  # so does an image or font in the game's folder
    art = build(demo, out, "--paper", "letter")
    assert art.code == 0 and set(listed(art).values()) == {False}


def test_layout_values_and_the_stamp_decide_what_is_kept(demo, tmp_path):
    out = tmp_path / "out"
    layout = demo[1] / "demo" / "board.xml.j2"
    layout.write_text(layout.read_text().replace("{{ card.title }}", "{{ card.title }} {{ vars.get('edition', '') }}"))
    assert build(demo, out, "--set", "edition=Kickstarter").code == 0
    retail = build(demo, out, "--set", "edition=Retail")  # only the board prints vars
    assert retail.code == 0, retail.err
    assert listed(retail) == {"ships.pdf": True, "tokens.pdf": True, "board.pdf": False}
    assert "Retail" in text_of(out / "demo" / "board.pdf")
    stamped = build(demo, out, "--set", "edition=Retail", "--stamp", "v0.2")  # on every face
    assert set(listed(stamped).values()) == {False}
    assert "v0.2" in text_of(out / "demo" / "ships.pdf")


def test_a_failed_component_moves_its_earlier_file_aside_and_says_so(demo, tmp_path):
    out = tmp_path / "out"
    assert build(demo, out).code == 0
    kept = files(out)
    layout = demo[1] / "demo" / "board.xml.j2"
    good = layout.read_text()
    layout.write_text(good.replace("</face>", "{{ card.nope }}</face>", 1))
    failed = build(demo, out)
    assert failed.code == 2
    assert "'nope' is undefined" in failed.err
    assert "moved" in failed.err and "stale/board.pdf" in failed.err and "failed" in failed.err
    left = files(out)
    assert "demo/board.pdf" not in left  # not taken for a print of today's data
    assert left.pop("demo/stale/board.pdf") == kept["demo/board.pdf"]  # nor lost (tests/test_stale.py)
    unchanged = {n: b for n, b in kept.items() if n not in ("demo/board.pdf", "demo/PRINT.md")}
    assert {name: left[name] for name in left if name != "demo/PRINT.md"} == unchanged

    layout.write_text(good)
    mended = build(demo, out)
    assert mended.code == 0, mended.err
    assert listed(mended) == {"ships.pdf": True, "tokens.pdf": True, "board.pdf": False}
    assert files(out) == kept


def test_watch_rebuilds_a_changed_card_prints_a_problem_and_stops_on_ctrl_c(demo, tmp_path):
    """`cardgen watch` as a user runs it: a process that rebuilds on every change until Ctrl-C."""
    game, templates = demo
    out = tmp_path / "out"
    command = [sys.executable, "-m", "cardgen", "--data-dir", str(game.data), "--templates-dir", str(templates)]
    watch = subprocess.Popen(
        [*command, "watch", "demo", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
    )
    seen: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [seen.put(line) for line in watch.stdout or ()], daemon=True).start()
    said: list[str] = []

    def wait_for(text: str, poke: Path | None = None) -> str:
        """The first line (from now) holding `text`; `poke` is touched every few seconds in case the watcher was
        not yet listening when the file changed."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                line = seen.get(timeout=3)
            except queue.Empty:
                if poke is not None:
                    poke.touch()
                continue
            said.append(line)
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r} in: {''.join(said)}")

    ships = game.folder / "ships.yaml"
    try:
        wait_for("watching")
        game.edit("ships.yaml", "name: Scout\n", "name: Scoutship\n")
        rebuilt = wait_for("ships.yaml: rebuilt", poke=ships)
        assert "ships.pdf" in rebuilt and "tokens.pdf" not in rebuilt and "board.pdf" not in rebuilt
        assert "Scoutship" in text_of(out / "demo" / "ships.pdf")
        clean = build(demo, tmp_path / "clean", "--no-cache")  # the other ships' faces came from watch's memory
        assert clean.code == 0 and files(out / "demo") == files(tmp_path / "clean" / "demo")

        layout = templates / "demo" / "board.xml.j2"  # layouts stay compiled between rebuilds, until one changes
        layout.write_text(layout.read_text().replace("</face>", '<rect x="1" y="1" w="2" h="2" fill="black"/></face>'))
        assert "rebuilt board.pdf" in wait_for("board.xml.j2: ", poke=layout)

        game.edit("ships.yaml", "cost: 2\n", "cost: x\n")
        wait_for("ships.yaml: failed: 1 problem above", poke=ships)
        assert any("ships.yaml:7" in line and "expected a whole number, got 'x'" in line for line in said)
    finally:
        watch.send_signal(signal.SIGINT)
        code = watch.wait(timeout=30)
    time.sleep(0.1)
    while not seen.empty():
        said.append(seen.get())
    assert code == 0, "".join(said)
    assert said[-1].strip() == "stopped" and not any("Traceback" in line for line in said)


@pytest.mark.parametrize(
    "records",
    [
        "not json {",
        '{"format": 2, "files": "a string", "game": {"inputs": 1, "shas": [1, 2]}}',
        '{"format": 2, "files": {"demo/ships.pdf": {"key": 3}}, "game": {"inputs": "x", "shas": {}, "files": 5}}',
    ],
    ids=["not-json", "wrong-shapes", "wrong-fields"],
)
def test_damaged_records_mean_a_full_build(demo, tmp_path, records):
    out = tmp_path / "out"
    (out / CACHE).mkdir(parents=True)
    (out / CACHE / "demo.json").write_text(records)
    run = build(demo, out)
    assert run.code == 0 and run.exception is None, run.err
    assert listed(run) == {"ships.pdf": False, "tokens.pdf": False, "board.pdf": False}  # every file drawn
    again = build(demo, out)  # and recorded afresh
    assert again.code == 0 and set(listed(again).values()) == {True}


def test_records_that_cannot_be_written_are_a_warning(demo, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / CACHE).write_text("a file where the cache's folder should be")
    run = build(demo, out)
    assert run.code == 0, run.err
    assert "warning" in run.err and "the next build draws every file again" in run.err
    assert set(listed(run)) == {"ships.pdf", "tokens.pdf", "board.pdf"}


def test_watch_of_an_unknown_game_is_an_error_at_once():
    run = run_cli("watch", "no-such-game")
    assert run.code == 2 and "unknown game 'no-such-game'" in run.err


def test_a_font_file_changed_in_place_is_read_again_after_forget(tmp_path):
    """What `cardgen watch` does when a font file changes: fonts are registered once per process, by file."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from cardgen.render import fonts

    font = tmp_path / "Body.ttf"
    shutil.copy(REPO / "fonts" / "NotoSans-Regular.ttf", font)
    name, _ = fonts.register_file(font)
    before = stringWidth("Watch me", name, 10)
    shutil.copy(REPO / "fonts" / "NotoSansDisplay-Bold.ttf", font)
    fonts.register_file(font)
    assert stringWidth("Watch me", name, 10) == before  # still the first file's
    fonts.forget()
    assert fonts.register_file(font)[0] == name
    assert stringWidth("Watch me", name, 10) != before


def test_the_watchers_own_error_is_one_located_line(tmp_path):
    """An error of watchfiles' Rust watcher (a folder it cannot follow, the system's limit of watches) ends the watch
    with a one-line error naming the folders, not an internal error; any other error is not hidden."""
    from cardgen.errors import DataError
    from cardgen.watch import _reported

    WatchfilesRustInternalError = type("WatchfilesRustInternalError", (RuntimeError,), {})

    def batches(error):
        yield set()
        raise error

    with pytest.raises(DataError, match=r"^cannot watch .*demo: error in underlying watcher: no more watches$"):
        list(
            _reported(
                batches(WatchfilesRustInternalError("error in underlying watcher: no more watches")),
                [tmp_path / "demo"],
            )
        )
    with pytest.raises(RuntimeError, match="a bug"):
        list(_reported(batches(RuntimeError("a bug")), [tmp_path]))
