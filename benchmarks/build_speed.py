"""Benchmark: `cardgen build` (YAML → Jinja → PDF) against a hand-written reportlab script and protograf.

All draw the same N poker cards — a name, three stats and 20–40 words of ability text, on Letter 3×3 sheets with
crop marks. Each side runs as a whole process (start-up and imports included, as a user feels it) with its own
peak memory; the hand-written script and cardgen's pipeline (`build_game`) also report the work alone (the
in-process figure). The sides run `--runs` times, interleaved, and the best run of each counts; the script prints
every ratio of issue 23, the start-up time of `cardgen --help` and `cardgen list`, the time to load the N items,
the bundled games built with one process and with every core (`--jobs`, byte-identical files checked), and the
load average, since machines here are shared and noisy: compare ratios, not absolute figures.

protograf (not a dependency: `pip install protograf pyyaml`, here or in another environment named with
`--protograf-python`) is skipped with the reason when it cannot be imported.

    python benchmarks/build_speed.py            # N = 2,700, three runs of each side
    python benchmarks/build_speed.py --cards 900 --runs 3 --protograf-python /path/to/venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

REPO = Path(__file__).resolve().parent.parent
WORDS = (  # noqa: SIM905 - a sentence reads better than a list here
    "fleet shield jump reactor station credit colony strike hull scout sector nebula salvage cruiser beacon relay "
    "orbit drone armour cannon frontier convoy signal vector engine hangar patrol outpost"
).split()

LAYOUT = """<face bg="#f4f1e8">
  <rect x="0" y="0" w="63.5" h="11" fill="#2f6db5" bleed="true"/>
  <text x="4" y="2" w="55.5" h="7" size="11" font="heading" colour="white" valign="middle"
        field="name">{{ card.name }}</text>
  <text x="4" y="14" w="18" h="6" size="9" field="attack">ATK {{ card.attack }}</text>
  <text x="24" y="14" w="18" h="6" size="9" field="defense">DEF {{ card.defense }}</text>
  <text x="44" y="14" w="16" h="6" size="9" field="cost">CST {{ card.cost }}</text>
  <text x="4" y="24" w="55.5" h="60" size="8" min-size="6" field="ability">{{ card.ability }}</text>
</face>
"""


def make_game(folder: Path, cards: int) -> None:
    rng = random.Random(7)
    game = folder / "data" / "bench"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(
        "id: bench\ntitle: Benchmark\nplayers: [2, 2]\nrulebook: {title: none}\n"
        "card_types:\n  unit:\n    fields:\n      name: {type: str}\n      attack: {type: int}\n"
        "      defense: {type: int}\n      cost: {type: int}\n      ability: {type: text}\n"
        "components:\n  - {id: cards, kind: deck, title: Cards, file: cards.yaml}\n"
    )
    lines = ["type: unit", "front: unit", "cards:"]
    for i in range(cards):
        ability = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 40))).capitalize() + "."
        lines.append(
            f"  - {{id: c{i}, name: Card {i}, attack: {rng.randint(0, 9)}, defense: {rng.randint(0, 9)}, "
            f'cost: {rng.randint(0, 9)}, ability: "{ability}"}}'
        )
    (game / "cards.yaml").write_text("\n".join(lines) + "\n")
    templates = folder / "templates" / "bench"
    templates.mkdir(parents=True)
    (templates / "unit.xml.j2").write_text(LAYOUT)


def run_cardgen(folder: Path) -> dict[str, float]:
    from cardgen.data import load_games
    from cardgen.paths import default_fonts_dir
    from cardgen.render.build import build_game
    from cardgen.render.jobs import PrintOptions
    from cardgen.render.layouts import Layouts

    start = time.perf_counter()
    (game,) = load_games(folder / "data")
    loading = time.perf_counter() - start
    report = build_game(
        game, Layouts(folder / "templates"), default_fonts_dir(), folder / "out", PrintOptions(paper="letter")
    )
    assert not report.overflows, report.overflows[:3]
    return {"cards": sum(1 for _ in game.items()), "load_seconds": loading}


def run_reportlab(folder: Path) -> dict[str, float]:
    """The hand-written loop: read the same YAML, draw the same things with plain reportlab calls."""
    import yaml
    from reportlab.lib.colors import HexColor, white
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    mm = 72 / 25.4
    fonts = REPO / "fonts"
    pdfmetrics.registerFont(TTFont("Body", str(fonts / "NotoSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("Head", str(fonts / "NotoSansDisplay-Bold.ttf")))
    data = yaml.safe_load((folder / "data" / "bench" / "cards.yaml").read_text())["cards"]
    style = ParagraphStyle("body", fontName="Body", fontSize=8, leading=9.6)
    paper_w, paper_h = 215.9, 279.4
    card_w, card_h = 63.5, 88.9
    left, top = (paper_w - 3 * card_w) / 2, (paper_h + 3 * card_h) / 2
    canvas = Canvas(
        str(folder / "hand.pdf"), pagesize=(paper_w * mm, paper_h * mm), invariant=1, initialFontName="Body"
    )
    for index, card in enumerate(data):
        slot = index % 9
        if slot == 0 and index:
            canvas.showPage()
        if slot == 0:
            canvas.setLineWidth(0.3)
            for i in range(4):
                x = left + i * card_w
                canvas.line(x * mm, (top + 3) * mm, x * mm, (top + 4.85) * mm)
                canvas.line(x * mm, (top - 3 * card_h - 3) * mm, x * mm, (top - 3 * card_h - 4.85) * mm)
                y = top - i * card_h
                canvas.line((left - 3) * mm, y * mm, (left - 8) * mm, y * mm)
                canvas.line((left + 3 * card_w + 3) * mm, y * mm, (left + 3 * card_w + 8) * mm, y * mm)
        x = left + (slot % 3) * card_w
        y = top - (slot // 3 + 1) * card_h
        canvas.saveState()
        canvas.setFillColor(HexColor("#f4f1e8"))
        canvas.rect(x * mm, y * mm, card_w * mm, card_h * mm, stroke=0, fill=1)
        canvas.setFillColor(HexColor("#2f6db5"))
        canvas.rect(x * mm, (y + card_h - 11) * mm, card_w * mm, 11 * mm, stroke=0, fill=1)
        canvas.setFillColor(white)
        canvas.setFont("Head", 11)
        canvas.drawString((x + 4) * mm, (y + card_h - 7.5) * mm, card["name"])
        canvas.setFillColor(HexColor("#000000"))
        canvas.setFont("Body", 9)
        for offset, label in ((4, "ATK"), (24, "DEF"), (44, "CST")):
            key = {"ATK": "attack", "DEF": "defense", "CST": "cost"}[label]
            canvas.drawString((x + offset) * mm, (y + card_h - 18) * mm, f"{label} {card[key]}")
        para = Paragraph(card["ability"], style)
        _, height = para.wrap(55.5 * mm, 60 * mm)
        para.drawOn(canvas, (x + 4) * mm, (y + card_h - 24) * mm - height)
        canvas.restoreState()
    canvas.save()
    return {"cards": len(data)}


def run_protograf(folder: Path) -> dict[str, float]:
    """The same cards with protograf (pymupdf underneath; its own fonts, as it finds them, not our TTF files)."""
    import yaml
    from protograf import Card, Create, Data, Deck, Save, T, rectangle, text

    sys.argv = sys.argv[:1]  # protograf's Create() reads the command line
    cards = yaml.load((folder / "data" / "bench" / "cards.yaml").read_text(), Loader=yaml.CSafeLoader)["cards"]
    fields = ["name", "attack", "defense", "cost", "ability"]
    Create(filename=str(folder / "protograf.pdf"), paper="letter", units="mm", margin=5)
    Data(data_list=[fields, *([card[f] for f in fields] for card in cards)])
    Deck(fill="#f4f1e8", card_size="poker", grid_marks=True)
    Card(
        "all",
        rectangle(x=0, y=0, width=63.5, height=11, fill="#2f6db5", stroke="#2f6db5"),
        text(text=T("{{ name }}"), x=4, y=8, font_size=11, stroke="white", align="left"),
        *(
            text(text=T(f"{label} {{{{ {field} }}}}"), x=x, y=18, font_size=9, align="left")
            for x, label, field in ((4, "ATK", "attack"), (24, "DEF", "defense"), (44, "CST", "cost"))
        ),
        text(text=T("{{ ability }}"), x=4, y=24, width=55.5, height=60, wrap=True, font_size=8, align="left"),
    )
    Save()
    return {"cards": len(cards)}


RUNNERS = {"cardgen": run_cardgen, "reportlab": run_reportlab, "protograf": run_protograf}


def child(kind: str, folder: Path) -> None:
    """One side in its own process: the work's own seconds (imports excluded) and the process's peak memory."""
    start = time.perf_counter()
    result = RUNNERS[kind](folder)
    print(json.dumps({**result, "seconds": time.perf_counter() - start}))


@dataclass
class Run:
    """One process: its wall time from start to exit, its peak memory, and what it printed."""

    seconds: float
    peak_mb: float
    out: str


def run(command: list[str], folder: Path) -> Run:
    """Start a process and wait for it; `os.wait4` gives this process's own peak memory."""
    out, err = folder / "stdout.txt", folder / "stderr.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{err.read_text()[-2000:]}")
    return Run(seconds, usage.ru_maxrss / 1024, out.read_text())


def protograf_missing(python: str) -> str | None:
    """Why protograf cannot run in that Python, or None when it can."""
    probe = subprocess.run([python, "-c", "import protograf, yaml"], capture_output=True, text=True)
    if probe.returncode == 0:
        return None
    return f"protograf is not installed for {python} (pip install protograf pyyaml; or --protograf-python PATH)"


def measure(args: argparse.Namespace, folder: Path) -> dict[str, list[Run]]:
    """Every side `args.runs` times, interleaved, so that a change in the machine's load falls on all of them."""
    me = [sys.executable, __file__, "--folder", str(folder), "--child"]
    cardgen = [sys.executable, "-m", "cardgen", "--data-dir", str(folder / "data"), "--templates-dir"]
    cardgen += [str(folder / "templates"), "build", "-q", "--paper", "letter", "--out", str(folder / "out")]
    cardgen += ["--no-cache"]  # every run draws every card (else the second run keeps the first one's files)
    commands = {"hand-written": [*me, "reportlab"], "cardgen in-process": [*me, "cardgen"]}
    if not args.quick:
        commands["cardgen build"] = cardgen
        commands["cardgen --help"] = [sys.executable, "-m", "cardgen", "--help"]
        commands["cardgen list"] = [sys.executable, "-m", "cardgen", "list"]  # unchanged data: the kept listing
        fresh = "import os, sys, tempfile; os.environ['XDG_CACHE_HOME'] = tempfile.mkdtemp(); "
        fresh += "sys.argv = ['cardgen', 'list']"
        commands["cardgen list, first"] = [sys.executable, "-c", fresh + "; from cardgen.cli import run; run()"]
        for jobs in (1, args.jobs):  # the bundled games, one process against every core (issue 23: ≥ 1.7×)
            build = ["build", "-q", "--jobs", str(jobs), "--out", str(folder / f"bundled-{jobs}"), "--no-cache"]
            commands[f"bundled, --jobs {jobs}"] = [sys.executable, "-m", "cardgen", *build]
    if args.protograf:
        commands["protograf"] = [args.protograf, __file__, "--folder", str(folder), "--child", "protograf"]
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            runs[name].append(run(command, folder))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=2700)
    parser.add_argument("--runs", type=int, default=3, help="runs of each side, interleaved (the best counts)")
    parser.add_argument("--protograf-python", dest="protograf", default=sys.executable,
                        help="a Python with protograf installed (default: this one)")  # fmt: skip
    parser.add_argument("--no-protograf", dest="protograf", action="store_const", const=None)
    parser.add_argument("--quick", action="store_true",
                        help="the hand-written script and the pipeline once, nothing else (smoke runs)")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes for the parallel build of the bundled games (default: the cores)")  # fmt: skip
    parser.add_argument("--child", choices=sorted(RUNNERS))
    parser.add_argument("--folder", type=Path)
    figures.add_option(parser)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.folder)
        return
    figures.compiled()  # as an installed cardgen runs
    if args.quick:
        args.runs, args.protograf = 1, None
    skipped = protograf_missing(args.protograf) if args.protograf else "--quick" if args.quick else "--no-protograf"
    if skipped:
        args.protograf = None
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_game(folder, args.cards)
        runs = measure(args, folder)
        report = summarise(runs, args.cards)
        if not args.quick:
            serial, parallel = (_contents(folder / f"bundled-{jobs}") for jobs in (1, args.jobs))
            report["parallel_identical"] = serial == parallel
    report["load"] = [load_before, os.getloadavg()]
    print(f"    load average {' '.join(f'{v:.2f}' for v in load_before)} before, "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())} after; best of {args.runs} interleaved runs")  # fmt: skip
    ratios = report["ratios"]
    if "whole" in ratios:
        print(f"   ratio, whole process: cardgen build runs at {ratios['whole']:.2f}× the hand-written script's "
              f"throughput (target ≥ 0.7; median of the rounds {report['ratios_median_of_rounds']['whole']:.2f}×), "
              f"peak {report['cardgen build']['peak_mb']:.0f} MB (target ≤ 100)")  # fmt: skip
    print(f"   ratio, in-process:    cardgen at {ratios['in_process']:.2f}× the hand-written loop's throughput")
    if "protograf" in ratios:
        print(f"   ratio, protograf:     cardgen build is {ratios['protograf']:.1f}× faster (target ≥ 15)")
    else:
        print(f"   protograf: skipped — {skipped}")
    if not args.quick:
        print(f"   start-up: cardgen --help {report['cardgen --help']['seconds'] * 1000:.0f} ms, cardgen list "
              f"{report['cardgen list']['seconds'] * 1000:.0f} ms (target ≤ 150 ms each; the first listing of the "
              f"data {report['cardgen list, first']['seconds'] * 1000:.0f} ms); loading {args.cards:,} "
              f"items {report['cardgen in-process']['load_seconds']:.2f} s (target ≤ 0.25 s)")  # fmt: skip
    if "parallel" in ratios:
        same = "identical files" if report["parallel_identical"] else "DIFFERENT FILES"
        print(f"   ratio, parallel:      the bundled games build {ratios['parallel']:.2f}× faster with --jobs "
              f"{args.jobs} than with one process (target ≥ 1.7 on two cores; {same})")  # fmt: skip
    figures.write(args.json, "build_speed", {**report, "protograf_skipped": skipped})
    if not report.get("parallel_identical", True):
        sys.exit("the parallel build wrote different files")


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def summarise(runs: dict[str, list[Run]], cards: int) -> dict:
    """The best run of each side, printed, and the ratios between them."""
    report: dict = {}
    for name, sides in runs.items():
        best = min(sides, key=lambda r: r.seconds)
        side = {"seconds": best.seconds, "peak_mb": max(r.peak_mb for r in sides)}
        if name in ("hand-written", "cardgen in-process", "protograf"):
            printed = [json.loads(r.out) for r in sides]
            side["in_process_seconds"] = min(p["seconds"] for p in printed)  # the work alone, imports excluded
            if "load_seconds" in printed[0]:
                side["load_seconds"] = min(p["load_seconds"] for p in printed)
        report[name] = side
        if "--help" in name or " list" in name or name.startswith("bundled"):
            continue
        rate = cards / best.seconds
        print(f"{name:>22}: {cards} cards in {best.seconds:.2f} s whole process = {rate:,.0f} cards/s"
              + (f" (the work alone {side['in_process_seconds']:.2f} s)" if "in_process_seconds" in side else "")
              + f", peak memory {side['peak_mb']:.0f} MB")  # fmt: skip
    hand = report["hand-written"]
    ratios = {"in_process": hand["in_process_seconds"] / report["cardgen in-process"]["in_process_seconds"]}
    if "cardgen build" not in report:
        report["ratios"] = ratios
        return report
    ratios["whole"] = hand["seconds"] / report["cardgen build"]["seconds"]
    if "protograf" in report:
        ratios["protograf"] = report["protograf"]["seconds"] / report["cardgen build"]["seconds"]
    one, many = (name for name in report if name.startswith("bundled"))
    ratios["parallel"] = report[one]["seconds"] / report[many]["seconds"]
    report["ratios"] = ratios
    # each round's sides ran back to back: the median of the rounds' ratios shrugs off a burst of load
    rounds = zip(runs["hand-written"], runs["cardgen build"], strict=True)
    report["ratios_median_of_rounds"] = {"whole": statistics.median(h.seconds / c.seconds for h, c in rounds)}
    return report


if __name__ == "__main__":
    main()
