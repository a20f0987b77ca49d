"""What a build says: each game's notes and files (written, or kept from an earlier build) with their pages, its
guides, and for print PDFs the paper it all takes; notes and warnings on stderr (`--quiet` keeps the warnings)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgen.errors import display_path
from cardgen.terminal import echo

GUIDE_FILES = {"proof.pdf": "proof sheet", "calibration.pdf": "duplex calibration: print it first"}

# what a build reports of a game: its notes, its files (written or kept) and its guides
Outcome = tuple[list[str], list[Any], list[Path]]


def print_built(outcomes: Sequence[Outcome], output_format: str, paper: str, quiet: bool) -> None:
    """The file list of a build (each game's notes, files and guides) and, for print PDFs, the paper it takes."""
    if quiet:  # --quiet: errors and warnings only
        return
    for notes, files, _ in outcomes:
        for note in notes:
            echo(f"note: {note}", err=True)
        for file in files:
            unit = "image" if output_format in ("png", "tts") else "page"
            what = f"{file.pages} {unit}{'' if file.pages == 1 else 's'}"
            what += f" (with {', '.join(file.holds)})" if file.holds else ""
            what += ", unchanged" if file.reused else ""
            echo(f"{display_path(file.path)}  {'saved object' if file.component == 'saved object' else what}")
    every = [f for _, files, _ in outcomes for f in files]
    if output_format != "pdf" or not every:
        return
    for _, _, guides in outcomes:
        for guide in guides:
            echo(f"{display_path(guide)}  {GUIDE_FILES.get(guide.name, 'how to print')}")
    duplex = sum(f.sides in ("long-edge", "short-edge") for f in every)
    sheets = sum(map(_sheets_of, every))
    from cardgen.units import paper_label

    paper_name = paper_label(paper)
    echo(
        f"{_count(len(every), 'file')}, {_count(sum(f.pages for f in every), 'page')} on "
        f"{_count(sheets, 'sheet')} of {paper_name} paper; {duplex} to print double-sided — see PRINT.md in each "
        "game's folder"
    )


def _sheets_of(file: Any) -> int:
    """The sheets of paper a file takes: recorded with a file kept from an earlier build (so that a build that
    draws nothing need not import the renderer), else counted as the print guide counts them."""
    from cardgen.render.cache import Kept

    if isinstance(file, Kept):
        return file.sheets
    return int(file.sheets_of_paper)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def say(lines: list[str], quiet: bool) -> None:
    """Warnings always, notes unless --quiet, on stderr."""
    for line in lines:
        if not (quiet and line.startswith("cardgen: note:")):
            echo(line, err=True)
