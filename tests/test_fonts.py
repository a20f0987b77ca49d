"""`fonts.TrueTypeFont.splitString` answers as reportlab's own `TTFont.splitString`, text after text; a font role's
bold and italic faces are read when inline markup first sets them, from beside the role's file only."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pdfplumber
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.paths import default_fonts_dir
from cardgen.render import fonts
from cardgen.render.fonts import TrueTypeFont

from conftest import FIXTURES, Run, run_cli, write_game

# ASCII, Latin-1, the symbols card text uses, a no-break space, control characters, and characters no font here has
ALPHABET = "abcdefghij KLMNOP 0123456789 .,;:!?'\"()[]<>&\\%" + "éüßÆ·—–×÷→★♦\xa0\t\n\x01\x7f" + "\U0001f600中"


class Doc:
    """What reportlab keys a font's subsets by (a document; weakly referenced)."""


def test_split_string_matches_reportlab() -> None:
    path = str(default_fonts_dir() / "NotoSans-Regular.ttf")
    theirs, ours = TTFont("ReportlabSplit", path), TrueTypeFont("CardgenSplit", path)
    rng = random.Random(42)
    for documents in range(3):  # a fresh document starts its subsets afresh
        doc_a, doc_b = Doc(), Doc()
        for _ in range(400):
            text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30)))
            assert ours.splitString(text, doc_b) == theirs.splitString(text, doc_a), (documents, text)
        assert ours.state[doc_b].assignments == theirs.state[doc_a].assignments
        assert ours.state[doc_b].subsets == theirs.state[doc_a].subsets
    # past the first subset: a font whose characters need more than 256 codes
    doc_a, doc_b = Doc(), Doc()
    wide = "".join(chr(c) for c in range(0x100, 0x24F))
    for _ in range(2):  # characters new to the document, then the same texts with every character known
        for start in range(0, len(wide), 7):
            text = wide[start : start + 9] + " plain"
            assert ours.splitString(text, doc_b) == theirs.splitString(text, doc_a)
    assert ours.splitString(b"bytes too", doc_b) == theirs.splitString(b"bytes too", doc_a)


GAME = """id: styled
title: Styled
players: [2, 2]
rulebook: {title: none}
settings:
  fonts: {body: Mine-Regular.ttf}
card_types:
  card:
    fields:
      name: {type: str}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
"""
FRONT = '<face bg="white"><text x="4" y="4" w="55" h="30" size="10">{{ card.name | rich }}</text></face>\n'


def styled(root: Path, name: str, bold: Path | bytes | None) -> Path:
    """A game whose body role is a font of its own (Exo 2 as `Mine-Regular.ttf`, its italic beside it), its bold the
    bytes `bold`, or a link to `bold` when it is a path outside the game."""
    cards = f"type: card\nfront: front\ncards:\n  - {{id: a, name: '{name}'}}\n"
    write_game(root, "styled", {"game.yaml": GAME, "cards.yaml": cards}, {"front.xml.j2": FRONT})
    folder = root / "card_data" / "styled"
    shutil.copy(default_fonts_dir() / "Exo2-Regular.ttf", folder / "Mine-Regular.ttf")
    shutil.copy(default_fonts_dir() / "Exo2-Italic.ttf", folder / "Mine-Italic.ttf")
    if isinstance(bold, bytes):
        (folder / "Mine-Bold.ttf").write_bytes(bold)
    elif bold is not None:
        (folder / "Mine-Bold.ttf").symlink_to(bold)
    return root


def build(root: Path) -> Run:
    return run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", "build", "--jobs", "1",
                   "--out", root / "out", "--no-cache")  # fmt: skip


def test_a_roles_bold_and_italic_faces_are_read_only_when_markup_sets_them(tmp_path: Path) -> None:
    """A face costs about 2 MB of memory read: plain text never reads the bold and italic beside the regular."""
    bold = (default_fonts_dir() / "Exo2-Bold.ttf").read_bytes()
    fonts.forget()
    assert build(styled(tmp_path / "plain", "Plain words", bold)).code == 0
    assert fonts.font_file("cg-Mine-Regular") is not None
    assert fonts.font_file("cg-Mine-Bold") is None and fonts.font_file("cg-Mine-Italic") is None
    root = styled(tmp_path / "italic", "*Leaning* words", bold)
    assert build(root).code == 0
    assert fonts.font_file("cg-Mine-Italic") is not None
    with pdfplumber.open(root / "out" / "styled" / "cards.pdf") as pdf:
        assert {"Exo2-Italic", "Exo2-Regular"} <= {char["fontname"].split("+")[-1] for char in pdf.pages[0].chars}


def test_a_bold_file_that_is_no_font_is_said_at_the_role(tmp_path: Path) -> None:
    run = build(styled(tmp_path, "Plain words", b"not a font at all"))
    assert run.code == 2
    assert "game.yaml:6: settings.fonts.body: " in run.err and "Mine-Bold.ttf: not a readable TrueType font" in run.err


def test_a_bold_file_linked_from_outside_the_game_is_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "Secret-Bold.ttf"
    outside.parent.mkdir()
    shutil.copy(default_fonts_dir() / "Exo2-Bold.ttf", outside)
    fonts.forget()
    run = build(styled(tmp_path / "game", "**Bold** words", outside))
    assert run.code == 0, run.err
    assert fonts.font_file("cg-Secret-Bold") is None and fonts.font_file("cg-Mine-Bold") is None
    assert fonts.font_file("cg-Mine-Regular") is not None


def test_a_build_after_fonts_are_forgotten_draws_the_faces_it_kept(tmp_path: Path) -> None:
    """`cardgen watch` forgets the fonts when a font file changes; faces prepared before it (kept for the next build
    of the process) may set bold text, and drawing them reads the bold again."""
    data = FIXTURES / "card_data"
    for out in ("first", "second"):
        run = run_cli("--data-dir", data, "--templates-dir", FIXTURES / "templates", "build", "demo", "--jobs", "1",
                      "--out", tmp_path / out)  # fmt: skip
        assert run.code == 0, (run.err, run.exception)
        fonts.forget()
