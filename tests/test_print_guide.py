"""The print guide and the hints each PDF gives the print dialog: checked against the files actually built."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pdfcheck
import pytest
from pypdf import PdfReader

from conftest import run_cli


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    # a few components of each (a deck, counters that share sheets, a board, a page; two sizes of token in one
    # file), not all: the suite's time
    only = (
        "rewards,command-ships,resource-tokens,start-player-marker,reference,deep-space-markers,map,charts,dice,"
        "credit-tokens,development-tokens"
    )
    run = run_cli("build", "scifi-domains", "space-empires-4x", "star-commander", "--only", only, "--out", out)
    assert run.code == 0, run.err
    assert re.search(r"\d+ files, \d+ pages on \d+ sheets of A4 paper; \d+ to print double-sided", run.out)
    return out


@pytest.mark.parametrize("game", ["scifi-domains", "space-empires-4x", "star-commander"])
def test_the_guide_lists_every_file_with_its_pages(built: Path, game: str):
    guide = (built / game / "PRINT.md").read_text()
    pdfs = sorted(p for p in (built / game).glob("*.pdf") if p.name != "print-guide.pdf")
    row = r"^\| (\S+\.pdf) \| (\d+) \| (\d+) \| ([^|]+) \| (\d+) %(?: \(darkest page (\d+) %\))? \|$"
    rows = {m[0]: m[1:] for m in re.findall(row, guide, re.M)}
    assert sorted(rows) == [p.name for p in pdfs]
    for pdf in pdfs:
        pages, sheets, how, mean, darkest = rows[pdf.name]
        assert int(pages) == len(pdfcheck.page_sizes(pdf))
        assert int(sheets) == ((int(pages) + 1) // 2 if how.startswith("double-sided") else int(pages))
        ink = pdfcheck.ink(pdf)  # each page rendered and measured again: the guide states the file's own figures
        assert int(mean) == round(100 * sum(ink) / len(ink)) and int(darkest or mean) == round(100 * max(ink))
    assert "actual size" in guide and "Cut and assemble" in guide
    butted = game != "star-commander"  # built here: only its round tokens, each cut along its own circle
    assert ("cut on the line" in guide and "`--gutter 3.2`" in guide) == butted  # butted pieces: why, and the way out
    two_tokens = game == "star-commander"  # credit tokens and development tokens stacked on one last sheet
    assert ("credit-tokens.pdf also holds development-tokens" in guide) == two_tokens
    assert ("The last sheets of credit-tokens.pdf hold pieces of two sizes" in guide) == two_tokens
    assert (built / game / "print-guide.pdf").is_file()


def test_the_guide_says_what_to_buy_and_how_to_fold(built: Path):
    guide = (built / "space-empires-4x" / "PRINT.md").read_text()
    assert "## Pieces to buy or borrow" in guide and "Ten-sided dice" in guide
    assert re.search(r"^\| deep-space-markers.pdf \| 1 \| 1 \| single-sided; fold and glue \| \d+ % \|$", guide, re.M)
    assert "fold along the dashed line first" in guide


@pytest.mark.parametrize(
    ("game", "file", "duplex"),
    [
        ("scifi-domains", "rewards.pdf", "/DuplexFlipLongEdge"),
        ("scifi-domains", "reference.pdf", "/Simplex"),
        ("space-empires-4x", "deep-space-markers.pdf", "/Simplex"),  # fold and glue: one side
    ],
)
def test_pdfs_ask_for_actual_size_and_the_right_duplex(built: Path, game: str, file: str, duplex: str):
    reader = PdfReader(built / game / file)
    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/PrintScaling"] == "/None" and preferences["/Duplex"] == duplex
    assert "actual size" in reader.metadata.subject


def test_short_edge_builds_say_so(tmp_path: Path):
    assert (
        run_cli("build", "scifi-domains", "--only", "techs", "--duplex", "short-edge", "--out", tmp_path, "-q").code
        == 0
    )
    preferences = PdfReader(tmp_path / "scifi-domains" / "techs.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/Duplex"] == "/DuplexFlipShortEdge"


def test_files_are_readable_by_others(built: Path):
    """Modes follow the umask, as any tool's files do (temporary files are created 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    for path in (built / "scifi-domains").iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path
