"""A designer's own game outside the repository: scaffold, project file, building parts of a game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfcheck
import pytest

from conftest import FIXTURES, run_cli


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_new_game_lists_validates_and_builds(project: Path):
    run = run_cli("new", "star-trader")
    assert run.code == 0 and "created cardgen.toml" in run.out, run.err
    assert "trust = " not in (project / "cardgen.toml").read_text()  # a project file never grants trust
    assert (project / "card_data" / "star-trader" / "game.yaml").is_file()
    assert run_cli("list").out.startswith("star-trader  Star Trader  (2–4 players)")
    run = run_cli("validate", "star-trader")
    assert run.code == 0 and "5 checks, all hold; 2 facts agree" in run.out, run.out
    run = run_cli("build", "star-trader", "-q")
    assert run.code == 0, run.err
    pdf = project / "output" / "star-trader" / "cards.pdf"
    assert len(pdfcheck.page_sizes(pdf)) == 4  # 12 poker cards: two A4 sheets of 9, fronts and backs
    run = run_cli("play", "star-trader", "--games", "30", "--players", "2..4", "--check", "--agents", "greedy,random")
    assert run.code == 0 and "invariant violations: 0" in run.out and "data problems: 0" in run.out, run.out
    assert "endings: the cards ran out" in run.out  # the scaffold plays by its engine.yaml, out of the box
    run = run_cli("balance", "star-trader", "--games", "20", "--out", project / "balance")
    assert run.code == 0 and (project / "balance" / "balance.html").is_file(), run.err
    again = run_cli("new", "star-trader")
    assert again.code == 2 and "already exists" in again.err
    assert run_cli("new", "../escape").code == 2


def test_project_file_names_folders_never_trust(project: Path):
    shutil.copytree(FIXTURES / "card_data", project / "games")
    shutil.copytree(FIXTURES / "templates", project / "layouts")
    (project / "cardgen.toml").write_text('data = "games"\ntemplates = "layouts"\n')
    run = run_cli("validate", "demo")
    assert run.code == 1 and "1 skipped (checks.py is code from the game folder" in run.out  # not complete
    (project / "cardgen.toml").write_text('data = "games"\ntemplates = "layouts"\ntrust = ["demo"]\n')
    run = run_cli("validate", "demo")
    assert run.code == 2 and run.out == ""
    assert run.err == (
        "cardgen: error: cardgen.toml:3: 'trust' is no longer read from a project file (a folder cannot trust "
        "itself): trust a game's checks.py with 'cardgen trust GAME'\n"
    )
    (project / "cardgen.toml").write_text('dta = "games"\n')
    run = run_cli("list")
    assert run.code == 2 and "cardgen.toml: unknown key 'dta' (did you mean 'data'?)" in run.err


def test_layouts_of_your_own_game_say_which_option_to_add(project: Path):
    shutil.copytree(FIXTURES / "card_data", project / "games")
    run = run_cli("--data-dir", project / "games", "build", "demo", "-q", "--trust-code")
    assert run.code == 2 and "pass --templates-dir, or name it in cardgen.toml" in run.err


def test_only_builds_the_named_components(tmp_path: Path):
    run = run_cli("build", "scifi-domains", "--only", "techs,start-player-marker", "--out", tmp_path, "-q")
    assert run.code == 0, run.err
    assert sorted(p.name for p in (tmp_path / "scifi-domains").iterdir()) == [
        "PRINT.md",
        "calibration.pdf",  # techs print double-sided: the page to print first
        "print-guide.pdf",
        "start-player-marker.pdf",
        "techs.pdf",
    ]
    run = run_cli("build", "scifi-domains", "--only", "tech", "--out", tmp_path, "-q")
    assert run.code == 2 and "no component 'tech' (did you mean 'techs'?)" in run.err


def test_only_a_reference_still_reads_the_other_components(tmp_path: Path):
    """A layout that prints a table of another component's cards (Rift's reference lists the unit cards and the
    carrier's capacity) still sees every component when only it is built."""
    import pdfplumber

    run = run_cli("build", "rift-domination", "--only", "reference", "--out", tmp_path, "-q")
    assert run.code == 0, run.err
    with pdfplumber.open(tmp_path / "rift-domination" / "reference.pdf") as pdf:
        text = " ".join((page.extract_text() or "").replace("\n", " ") for page in pdf.pages)
    assert "a carrier carries 4" in text and "Flagship 13" in text


def test_preview_renders_one_face_at_its_size(tmp_path: Path):
    from PIL import Image

    out = tmp_path / "scout.png"
    base = ["--data-dir", FIXTURES / "card_data", "--templates-dir", FIXTURES / "templates", "preview", "demo"]
    run = run_cli(*base, "scout", "--dpi", "100", "--out", out)
    assert run.code == 0 and "scout.png" in run.out, run.err
    width, height = Image.open(out).size
    assert (width, height) == pytest.approx(((63.5 + 6) / 25.4 * 100, (88.9 + 6) / 25.4 * 100), abs=1.5)
    back = tmp_path / "back.png"
    assert run_cli(*base, "scout", "--side", "back", "--dpi", "100", "--out", back).code == 0
    assert Image.open(back).getpixel((width // 2, 10)) != Image.open(out).getpixel((width // 2, 10))
    missing = run_cli(*base, "scuot")
    assert missing.code == 2 and "no item 'scuot' (did you mean 'scout'?)" in missing.err
    assert Image.open(out).mode == "RGB"  # a card: opaque; a round counter: see-through outside its circle
    token = tmp_path / "token.png"
    assert run_cli(*base, "credit-1", "--dpi", "100", "--out", token).code == 0
    with Image.open(token) as image:
        assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0 and image.getpixel((43, 43))[3] == 255


def test_preview_grid_shows_each_distinct_face_once(tmp_path: Path):
    from PIL import Image

    out = tmp_path / "grid.png"
    base = ["--data-dir", FIXTURES / "card_data", "--templates-dir", FIXTURES / "templates", "preview", "demo"]
    run = run_cli(*base, "--grid", "ships", "--dpi", "50", "--out", out)
    assert run.code == 0, run.err
    cell = (63.5 + 6) / 25.4 * 50 + 8
    assert Image.open(out).width == pytest.approx(3 * cell, abs=3)  # scout, frigate, dreadnought: one row of three
    assert run_cli(*base).code == 2


def test_proof_sheet_shows_each_face_with_its_status(demo_data: Path, tmp_path: Path):
    import pdfcheck as check

    ships = demo_data / "demo" / "ships.yaml"
    ships.write_text(ships.read_text().replace("Draw a card when revealed.", "Draw a card when revealed. " * 60))
    run = run_cli("--data-dir", demo_data, "--templates-dir", FIXTURES / "templates", "build", "--out", tmp_path, "-q",
                  "--proof", "--allow-overflow", "--trust-code")  # fmt: skip
    assert run.code == 0, run.err
    proof = tmp_path / "demo" / "proof.pdf"
    words = check.words(proof, 0)
    text = " ".join(w["text"] for w in words)
    assert "scout ×3" in text and "frigate ×2" in text and "dreadnought ×1" in text
    scout = next(w for w in words if w["text"] == "scout")
    status = [w["text"] for w in words if 2 < w["y"] - scout["y"] < 4 and abs(w["x"] - scout["x"]) < 30]
    assert " ".join(status).startswith("text overflows: ability"), status
    assert text.count(" ok") == 2


def test_a_projects_layouts_stay_inside_its_templates_folder(project: Path):
    """The templates folder a cardgen.toml names is held to what --templates-dir is: an include that is a symbolic
    link out of it is refused with the including line, and a link that stays inside it is followed."""
    shutil.copytree(FIXTURES / "card_data", project / "games")
    shutil.copytree(FIXTURES / "templates", project / "layouts")
    (project / "cardgen.toml").write_text('data = "games"\ntemplates = "layouts"\n')
    (project / "secret.txt").write_text("TOP-SECRET-CONTENT\n")
    layout = project / "layouts" / "demo" / "ship.xml.j2"
    layout.write_text(layout.read_text().replace('<face bg="paper">', '<face bg="paper">\n{% include "demo/part" %}'))
    (project / "layouts" / "demo" / "part").symlink_to(project / "secret.txt")
    run = run_cli("build", "demo", "-q")
    assert run.code == 2 and "TOP-SECRET" not in run.err, run.err
    assert run.err.strip() == (
        "cardgen: error: layouts/demo/ship.xml.j2:4: demo: ships: card 'scout' front: layouts/demo/part: leads "
        "outside the templates folder layouts (a symbolic link)"
    )
    (project / "layouts" / "demo" / "part").unlink()
    (project / "layouts" / "demo" / "blank.xml.j2").write_text("<!-- nothing -->\n")
    (project / "layouts" / "demo" / "part").symlink_to("blank.xml.j2")
    run = run_cli("build", "demo", "-q")
    assert run.code == 0, run.err


def test_printed_files_name_the_designer_and_the_version_from_game_yaml(demo_data: Path, tmp_path: Path):
    """Every PDF cardgen writes carries game.yaml's designer as its author and the title and version in its
    subject; without a designer the author is the game's title, never reportlab's "anonymous"."""
    from pypdf import PdfReader

    manifest = demo_data / "demo" / "game.yaml"
    text = manifest.read_text()
    base = ["--data-dir", demo_data, "--templates-dir", FIXTURES / "templates", "build", "-q", "--trust-code"]
    run = run_cli(*base, "--out", tmp_path / "plain", "--proof")
    assert run.code == 0, run.err
    for pdf in sorted((tmp_path / "plain" / "demo").glob("*.pdf")):
        meta = PdfReader(pdf).metadata
        assert meta.author == "Demo Skirmish" and meta.subject.startswith("Demo Skirmish"), (pdf.name, meta)
    manifest.write_text(text.replace("title: Demo Skirmish\n", "title: Demo Skirmish\ndesigner: Ada Lovelace\n"
                                     "version: '1.2'\n"))  # fmt: skip
    for form in ("pdf", "shop-pdf"):
        run = run_cli(*base, "--out", tmp_path / form, "--format", form, "--proof")
        assert run.code == 0, run.err
        files = sorted((tmp_path / form / "demo").rglob("*.pdf"))
        assert len(files) >= 3, files
        for pdf in files:
            meta = PdfReader(pdf).metadata
            assert meta.author == "Ada Lovelace", (form, pdf.name, meta.author)
            assert meta.subject.startswith("Demo Skirmish 1.2"), (form, pdf.name, meta.subject)
