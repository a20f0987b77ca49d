"""Measure how the bundled games print: build time, PDF size, ink per page, smallest text, and a contact sheet.

Each game is built as a user builds it (`cardgen build GAME`, a whole process, `--ink full` and `--ink light`); then
every PDF the build wrote is read back: its pages, bytes, each page's ink coverage (cardgen's own measure: mean
darkness at 36 dpi), the smallest text set on it (pdfplumber's character sizes, points) and one contact sheet per
game and ink (every page of every file tiled small, in the order the print guide lists them) for looking at. With
`--before DIR` (a folder an earlier run wrote its figures and sheets into) the table shows the change per game.

    python benchmarks/look.py --sheets /tmp/look                      # every bundled game
    python benchmarks/look.py --sheets /tmp/after --before /tmp/before --games rift-domination

Issue 37 asks for these figures before and after a restyling; they are for reading, not for a gate.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import figures  # benchmarks/figures.py, beside this script

REPO = Path(__file__).resolve().parent.parent
CONTACT_DPI = 30  # a page small enough that a game's pages fit one sheet, large enough to see its look
COLUMNS = 8


def pdf_figures(path: Path) -> dict[str, Any]:
    """Pages, bytes, ink per page and the smallest text of one PDF."""
    import pdfplumber

    from cardgen.render.ink import coverage

    data = path.read_bytes()
    ink = coverage(data)
    smallest = None
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            sizes = [round(c["size"], 2) for c in page.chars if c["text"].strip()]
            if sizes:
                smallest = min(sizes) if smallest is None else min(smallest, min(sizes))
    return {
        "pages": len(ink),
        "bytes": len(data),
        "ink_mean": sum(ink) / len(ink) if ink else 0.0,
        "ink_max": max(ink, default=0.0),
        "smallest_text_pt": smallest,
    }


def contact_sheet(pdfs: list[Path], target: Path) -> int:
    """Every page of `pdfs` tiled `COLUMNS` to a row on a grey ground; returns the number of pages drawn."""
    import pypdfium2 as pdfium
    from PIL import Image

    pages = []
    for path in pdfs:
        document = pdfium.PdfDocument(path.read_bytes())
        try:
            pages += [page.render(scale=CONTACT_DPI / 72).to_pil().convert("RGB") for page in document]
        finally:
            document.close()
    if not pages:
        return 0
    width = max(p.width for p in pages)
    height = max(p.height for p in pages)
    gap = 6
    rows = -(-len(pages) // COLUMNS)
    sheet = Image.new("RGB", (COLUMNS * (width + gap) + gap, rows * (height + gap) + gap), (90, 90, 90))
    for n, page in enumerate(pages):
        sheet.paste(page, (gap + (n % COLUMNS) * (width + gap), gap + (n // COLUMNS) * (height + gap)))
    sheet.save(target, optimize=True)
    return len(pages)


def build(game: str, out: Path, ink: str, folders: list[str]) -> float:
    """Build one game in a fresh process; the seconds it took."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", *folders, "build", game, "--out", str(out), "--ink", ink],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"cardgen build {game} --ink {ink} failed:\n{done.stderr}")
    return time.perf_counter() - start


def measure(games: list[str], sheets: Path | None, inks: list[str], folders: list[str]) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for ink in inks:
            for game in games:
                out = Path(tmp) / ink
                seconds = build(game, out, ink, folders)
                pdfs = sorted((out / game).glob("*.pdf"))
                files = {p.name: pdf_figures(p) for p in pdfs}
                record = {
                    "build_s": seconds,
                    "files": files,
                    "pages": sum(f["pages"] for f in files.values()),
                    "bytes": sum(f["bytes"] for f in files.values()),
                    "ink_max": max((f["ink_max"] for f in files.values()), default=0.0),
                    "smallest_text_pt": min(
                        (f["smallest_text_pt"] for f in files.values() if f["smallest_text_pt"] is not None),
                        default=None,
                    ),
                }
                if sheets:
                    sheets.mkdir(parents=True, exist_ok=True)
                    contact_sheet(pdfs, sheets / f"{game}-{ink}.png")
                results[f"{game} {ink}"] = record
    return results


def show(results: dict[str, Any], before: dict[str, Any] | None) -> None:
    def change(key: str, field: str, fmt: str) -> str:
        now = format(results[key][field], fmt)
        if before and key in before and before[key][field] is not None:
            return f"{now} ({format(before[key][field], fmt)})"
        return now

    print("game, ink: build s | pages | KB | darkest page ink | smallest text pt   (before, in brackets)")
    for key, record in results.items():
        kb = {**record, "kb": record["bytes"] / 1024}
        results[key] = kb
        if before and key in before:
            before[key]["kb"] = before[key]["bytes"] / 1024
        print(
            f"  {key}: {change(key, 'build_s', '.2f')} | {change(key, 'pages', 'd')} | {change(key, 'kb', '.0f')}"
            f" | {change(key, 'ink_max', '.0%')} | {change(key, 'smallest_text_pt', '.2f')}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=None, help="bundled game ids (default: all)")
    parser.add_argument("--inks", nargs="*", default=["full", "light"], choices=["full", "light"])
    parser.add_argument("--sheets", type=Path, default=None, help="write contact sheets and figures.json here")
    parser.add_argument("--before", type=Path, default=None, help="a folder an earlier run's --sheets wrote")
    parser.add_argument("--data-dir", type=Path, default=REPO / "card_data", help="games to measure (default: bundled)")
    parser.add_argument("--templates-dir", type=Path, default=None, help="their layouts (default: bundled)")
    figures.add_option(parser)
    args = parser.parse_args()
    games = args.games or sorted(p.name for p in args.data_dir.iterdir() if (p / "game.yaml").is_file())
    folders = ["--data-dir", str(args.data_dir)]
    if args.templates_dir:
        folders += ["--templates-dir", str(args.templates_dir)]
    results = measure(games, args.sheets, args.inks, folders)
    before = None
    if args.before and (args.before / "figures.json").is_file():
        before = json.loads((args.before / "figures.json").read_text(encoding="utf-8"))
    if args.sheets:
        (args.sheets / "figures.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    show(results, before)
    figures.write(args.json, "look", {"games": results})


if __name__ == "__main__":
    main()
