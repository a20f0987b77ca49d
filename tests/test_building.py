"""`cardgen.building`: a build asked for as a typed `BuildRequest` and done by `build`, with no command line in the
way — the files it writes, their pages, what it keeps on the next build, and the options it refuses together."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import click
import pytest
from pdfcheck import words
from pypdf import PdfReader

from cardgen.building import BuildRequest, Printing, build
from cardgen.errors import RuleError

from conftest import FIXTURES, GameCopy, copy_game, run_cli

MM = 72 / 25.4


@pytest.fixture
def demo(tmp_path: Path) -> tuple[GameCopy, Path]:
    """A copy of the demo game and of its layouts."""
    shutil.copytree(FIXTURES / "templates" / "demo", tmp_path / "templates" / "demo")
    return copy_game("demo", tmp_path, FIXTURES / "card_data"), tmp_path / "templates"


def request(demo: tuple[GameCopy, Path], out: Path, **given: object) -> BuildRequest:
    game, templates = demo
    defaults: dict[str, object] = {"games": ("demo",), "out_dir": out, "jobs": 1, "trust_code": True, "quiet": True}
    return BuildRequest(game.data, templates, **{**defaults, **given})  # type: ignore[arg-type]


def pages(pdf: Path) -> int:
    return len(PdfReader(pdf).pages)


def text_of(pdf: Path) -> str:
    return "".join(page.extract_text() for page in PdfReader(pdf).pages)


def contents(folder: Path) -> dict[str, bytes]:
    every = sorted(folder.rglob("*"))
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in every if p.is_file() and ".cardgen-cache" not in p.parts
    }


def test_a_build_writes_each_component_and_its_guide_then_keeps_them(demo, tmp_path):
    out = tmp_path / "out"
    built = build(request(demo, out))
    game = out / "demo"
    assert sorted(p.name for p in built.files) == ["board.pdf", "ships.pdf", "tokens.pdf"]
    assert all(p.parent == game and p.is_file() for p in built.files)
    assert {p.name for p in built.written} == {"board.pdf", "ships.pdf", "tokens.pdf", "PRINT.md", "print-guide.pdf",
                                               "calibration.pdf"}  # fmt: skip
    assert all(p.is_file() for p in built.written)
    assert "Dreadnought" in text_of(game / "ships.pdf")
    assert all(pages(pdf) >= 1 for pdf in built.files)
    assert "ships.pdf" in (game / "PRINT.md").read_text(encoding="utf-8")

    again = build(request(demo, out))  # nothing changed: every file kept, none written
    assert again.files == built.files
    assert again.written == []


def paper(pdf: Path) -> tuple[int, int]:
    box = PdfReader(pdf).pages[0].mediabox
    return round(float(box.width) / MM), round(float(box.height) / MM)


def test_the_print_options_decide_the_sheets(demo, tmp_path):
    letter = build(request(demo, tmp_path / "letter", printing=Printing(paper="letter")))
    a4 = build(request(demo, tmp_path / "a4"))
    assert paper(next(p for p in letter.files if p.name == "ships.pdf")) == (216, 279)  # US Letter, portrait
    assert paper(next(p for p in a4.files if p.name == "ships.pdf")) == (210, 297)


def test_only_builds_the_named_components_and_a_proof_when_asked(demo, tmp_path):
    out = tmp_path / "out"
    built = build(request(demo, out, only=("ships",), proof=True))
    assert [p.name for p in built.files] == ["ships.pdf"]
    assert sorted(p.name for p in (out / "demo").glob("*.pdf")) == [
        "calibration.pdf", "print-guide.pdf", "proof.pdf", "ships.pdf"
    ]  # fmt: skip
    assert "dreadnought ×1\nok" in text_of(out / "demo" / "proof.pdf")  # each face once, with its status
    with pytest.raises(click.BadParameter, match="no component 'shipz'"):
        build(request(demo, tmp_path / "other", only=("shipz",)))


def test_a_broken_rule_prints_nothing_unless_validation_is_off(demo, tmp_path):
    game, _ = demo
    game.edit("ships.yaml", "cost: 12", "cost: 13")  # the rules say costs run from 1 to 12
    out = tmp_path / "out"
    with pytest.raises(RuleError, match="nothing was printed"):
        build(request(demo, out))
    assert not out.exists() or contents(out) == {}
    unchecked = build(request(demo, out, validate=False))
    assert sorted(p.name for p in unchecked.files) == ["board.pdf", "ships.pdf", "tokens.pdf"]


@pytest.mark.parametrize(
    ("printing", "url", "message"),
    [
        (Printing(), "https://example.org/", "--tts-base-url is for --format tts, not --format pdf"),
        (Printing(format="png", ink="both"), None, "--ink both writes print PDFs in two inks: it is for --format pdf"),
    ],
)
def test_options_that_do_not_go_together_are_a_usage_error_before_anything_is_read(demo, tmp_path, printing, url,
                                                                                     message):  # fmt: skip
    out = tmp_path / "out"
    with pytest.raises(click.UsageError, match=message):
        build(request(demo, out, printing=printing, tts_base_url=url))
    assert not out.exists()


def test_the_command_line_asks_for_the_same_build(demo, tmp_path):
    """`cardgen build` with options is `build` of the request they make: the same bytes."""
    game, templates = demo
    options = ["--paper", "letter", "--gutter", "2", "--mark-length", "4", "--stamp", "v2", "--jobs", "1"]
    run = run_cli("--data-dir", game.data, "--templates-dir", templates, "build", "demo", "--out", tmp_path / "cli",
                  "--trust-code", "-q", *options)  # fmt: skip
    assert run.code == 0, run.err
    printing = Printing(paper="letter", gutter=2.0, mark_length=4.0)
    build(request(demo, tmp_path / "direct", printing=printing, stamp="v2"))
    assert contents(tmp_path / "cli") == contents(tmp_path / "direct")
    assert contents(tmp_path / "cli") != {}


def test_a_request_is_frozen_and_its_settings_name_what_decides_the_files(demo, tmp_path):
    asked = request(demo, tmp_path)
    with pytest.raises(dataclasses.FrozenInstanceError):
        asked.quiet = False  # type: ignore[misc]
    settings = asked.settings()
    assert settings["printing"]["paper"] == "a4"
    assert not {"games", "out_dir", "quiet", "jobs", "cache", "data_dir", "templates_dir"} & set(settings)


def test_watch_rebuilds_with_the_request_its_options_make(demo, tmp_path, monkeypatch):
    """Each rebuild of `cardgen watch` is `build` of one request (quiet, one process), not a re-entered command."""
    from cardgen import building, watch

    asked: list[BuildRequest] = []
    built: list[object] = []

    def recorded(request: BuildRequest) -> building.Built:
        asked.append(request)
        return build(request)

    def once(rebuild, *args, **kwargs):  # the watch loop, cut to its first build
        built.append(rebuild())

    monkeypatch.setattr(building, "build", recorded)
    monkeypatch.setattr(watch, "watch", once)
    game, templates = demo
    run = run_cli("--data-dir", game.data, "--templates-dir", templates, "watch", "demo", "--out", tmp_path / "watched",
                  "--paper", "letter", "--proof", "--trust-code")  # fmt: skip
    assert run.code == 0, run.err
    (made,) = asked
    assert made == BuildRequest(game.data, templates, ("demo",), tmp_path / "watched", Printing(paper="letter"),
                                proof=True, jobs=1, trust_code=True, quiet=True)  # fmt: skip
    assert [p.name for p in built[0].files] == ["ships.pdf", "tokens.pdf", "board.pdf"]  # type: ignore[attr-defined]
    build(request(demo, tmp_path / "direct", printing=Printing(paper="letter"), proof=True))
    assert contents(tmp_path / "watched") == contents(tmp_path / "direct")


def test_the_command_line_and_the_request_import_nothing_heavy():
    """`cardgen build --help` and a `BuildRequest` made in a fresh process import neither the data models, the
    renderer nor the validator (nor pydantic, Jinja, reportlab): the command line starts at once."""
    import json
    import subprocess
    import sys

    script = (
        "import json, sys\nfrom cardgen.cli import cli\n"
        "try:\n    cli(['build', '--help'])\nexcept SystemExit:\n    pass\n"
        "from cardgen.building import BuildRequest, Printing\nBuildRequest(__import__('pathlib').Path('.'), "
        "__import__('pathlib').Path('.'), printing=Printing(paper='letter'))\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = json.loads(run.stdout.splitlines()[-1])
    heavy = ("cardgen.data", "cardgen.render", "cardgen.validate", "cardgen.engine", "pydantic", "jinja2", "reportlab")
    assert "cardgen.building" in loaded
    assert [module for module in loaded if module.startswith(heavy)] == []


def test_watch_counts_the_problems_of_a_refused_build_not_its_closing_line(demo, tmp_path, capsys):
    """Two rules broken: two error lines, the closing line that nothing was printed, and `failed: 2 problems`."""
    from cardgen.watch import _rebuild

    game, _ = demo
    ships = game.data / "demo" / "ships.yaml"
    ships.write_text(ships.read_text().replace("    count: 3\n", "    count: 4\n", 1).replace("hull: 5", "hull: 4"))
    with pytest.raises(RuleError) as refused:
        build(request(demo, tmp_path / "out"))
    assert len(refused.value.problems) == 2 and "nothing was printed" in refused.value.summary
    _rebuild(lambda: build(request(demo, tmp_path / "out")), "ships.yaml")
    said = capsys.readouterr()
    assert said.err.count("cardgen: error:") == 3 and "failed: 2 problems above" in said.out, said


def test_only_prints_chosen_items_of_a_component_every_copy_and_several_components(demo, tmp_path):
    """`--only ships:scout,dreadnought --only tokens:credit-5`: three Scouts and a Dreadnought (no Frigate), and the
    four 5-credit tokens; the board is not printed. Read back from the sheets."""
    out = tmp_path / "out"
    built = build(request(demo, out, only=("ships:scout,dreadnought", "tokens:credit-5")))
    assert sorted(p.name for p in built.files) == ["ships.pdf", "tokens.pdf"]
    ships = [w["text"] for w in words(out / "demo" / "ships.pdf", 0)]
    assert ships.count("Scout") == 3 and ships.count("Dreadnought") == 1 and "Frigate" not in " ".join(ships)
    tokens = [w["text"] for w in words(out / "demo" / "tokens.pdf", 0)]
    assert tokens.count("5") == 4 + 4 and "1" not in tokens  # a fold sheet: each front and its back show the value


def test_only_values_read_as_components_and_items():
    from cardgen.selection import parse_only

    assert parse_only(()) is None
    assert parse_only(["ships,tokens"]) == ("ships", "tokens")
    assert parse_only(["ships:scout, frigate", "tokens", "ships:scout,dreadnought"]) == (
        "ships:scout,frigate,dreadnought",
        "tokens",
    )
    assert parse_only(["ships:scout", "ships"]) == ("ships",)  # the whole component wins
    for bad in ("ships:", ":scout", "ships: , "):
        with pytest.raises(click.BadParameter, match="is not COMPONENT:ID,ID"):
            parse_only([bad])


def test_only_an_unknown_item_is_named_with_its_component(demo, tmp_path):
    with pytest.raises(click.BadParameter, match="no item 'scuot' in component 'ships' \\(did you mean 'scout'\\?\\)"):
        build(request(demo, tmp_path / "out", only=("ships:scuot",)))
    assert not (tmp_path / "out").exists()


def test_the_cycle_collector_rests_while_a_build_runs_and_works_again_after(demo, tmp_path, monkeypatch):
    """A build makes about a million containers and next to no cycles: the collector is off while it draws (and in
    the workers it forks), on again after it, whether it succeeded or failed, without looking through them all."""
    import gc

    from cardgen.render import build as render_build

    seen = []
    drawing = render_build.build_game

    def watching(*args, **kwargs):
        seen.append(gc.isenabled())
        return drawing(*args, **kwargs)

    monkeypatch.setattr(render_build, "build_game", watching)
    enable, counts = gc.enable, []

    def enabling() -> None:
        counts.append(gc.get_count()[0])  # what is young when the collector comes back, to look through at once
        enable()

    monkeypatch.setattr(gc, "enable", enabling)
    assert gc.isenabled()
    build(request(demo, tmp_path / "out", jobs=1))
    assert seen == [False] and gc.isenabled()
    assert counts == [0]  # what the build made counts as old
    demo[0].edit("ships.yaml", "cost: 12", "cost: 13")  # the rules say costs run from 1 to 12
    with pytest.raises(RuleError):
        build(request(demo, tmp_path / "broken", jobs=1))
    assert gc.isenabled()
