"""Benchmark: `cardgen build` against the fastest honest hand-written reportlab script doing the same job (issue 42).

The job (issue 23's): N poker cards — a name, three stats and 20–40 words of ability text — on Letter 3×3 sheets
with bleed and crop marks, in TrueType fonts. Every side is a whole process (start-up and imports included, as a
user feels it), run `--runs` times interleaved so that the machine's load falls on all of them; the median of each
counts, with its CPU time and peak memory (`os.wait4`: the largest process of a build, its workers included).

- the hand-written script (`run_reportlab`): PyYAML's C loader, the same fonts, rl_accel, `simpleSplit` wrapping
  (faster than a Paragraph for plain text), each text shrunk until it fits, the same bleed, clips, marks and labels;
  it skips what cardgen does besides (validation, the print guide and its ink coverage): that counts against cardgen.
  `same_cards` checks that both PDFs hold the same pages with the same words.
- `cardgen build` cold (`--no-cache`, a fresh output folder), with one process (`--jobs 1`) and two (`--jobs 2`):
  the ratios to the script (above 1: cardgen is faster), the only ratios printed — both sides drew the same cards.
- the same build again, cache kept: a no-op rebuild, and a rebuild after one card's text changed (seconds only:
  the script has nothing like them to compare with), each with `--jobs 1` and `--jobs 2`.
- cardgen's pipeline alone in a process (`build_game`) against the script's loop alone (the in-process ratio),
  `cardgen --help` and `cardgen list`, and protograf when it can be imported (not a dependency: `pip install
  protograf pyyaml`, here or in another environment named with `--protograf-python`; skipped with the reason).

Machines here are shared and noisy: compare ratios from one run, and read the load average printed with them.
`benchmarks/parallel_speed.py` measures the bundled games with one process and with every core.

    python benchmarks/build_speed.py                      # N = 2,700, five runs of each side
    python benchmarks/build_speed.py --cards 900 --runs 3 --protograf-python /path/to/venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    """The hand-written script: the fastest honest way to draw the same cards with reportlab alone.

    It reads the YAML with PyYAML's C loader, registers the same TrueType fonts (rl_accel measures them), and draws
    what cardgen draws: each card clipped to its trim and the bleed on the sheet's outer edges, background and title
    bar painted into the bleed, the name and stats each shrunk if wider than their box, the ability wrapped to its
    box (reportlab's `simpleSplit`, faster than a Paragraph for plain text) and shrunk by 0.1 pt until it fits,
    down to 6 pt; crop marks and a sheet label on every sheet. It skips what cardgen does besides (validation,
    the print guide and its ink coverage, the build record): that work counts against cardgen."""
    import yaml
    from reportlab.lib.colors import Color, HexColor, black, white
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    mm = 72 / 25.4
    fonts = REPO / "fonts"
    pdfmetrics.registerFont(TTFont("Body", str(fonts / "NotoSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("Head", str(fonts / "NotoSansDisplay-Bold.ttf")))
    cards = yaml.load((folder / "data" / "bench" / "cards.yaml").read_bytes(), Loader=yaml.CSafeLoader)["cards"]
    paper_w, paper_h, card_w, card_h, bleed = 215.9, 279.4, 63.5, 88.9, 3.0
    left, bottom = (paper_w - 3 * card_w) / 2, (paper_h - 3 * card_h) / 2
    cream, blue, grey = HexColor("#f4f1e8"), HexColor("#2f6db5"), Color(0.35, 0.35, 0.35)
    canvas = Canvas(str(folder / "hand.pdf"), pagesize=(paper_w * mm, paper_h * mm), invariant=1)

    def shrunk(text: str, font: str, size: float, width: float) -> float:
        while stringWidth(text, font, size) > width and size > 6:
            size -= 0.1
        return size

    def wrapped(text: str, width: float, height: float, size: float = 8.0) -> tuple[list[str], float]:
        while True:
            lines = simpleSplit(text, "Body", size, width)
            if len(lines) * size * 1.2 <= height or size <= 6:
                return lines, size
            size = max(size - 0.1, 6.0)

    sheets = (len(cards) + 8) // 9
    for index, card in enumerate(cards):
        slot = index % 9
        if slot == 0:
            if index:
                canvas.showPage()
            canvas.setLineWidth(0.3)
            for i in range(4):
                x, y = (left + i * card_w) * mm, (bottom + i * card_h) * mm
                canvas.line(x, (paper_h - 1.5) * mm, x, (paper_h - bottom + 3) * mm)
                canvas.line(x, 1.5 * mm, x, (bottom - 3) * mm)
                canvas.line((left - 8) * mm, y, (left - 3) * mm, y)
                canvas.line((paper_w - left + 3) * mm, y, (paper_w - left + 8) * mm, y)
            canvas.setFillColor(grey)
            canvas.setFont("Body", 5)
            label = f"Benchmark · cards · sheet {index // 9 + 1}/{sheets} · front"
            canvas.drawCentredString((paper_w - left - card_w / 2) * mm, bottom / 2 * mm, label)
        column, row = slot % 3, slot // 3
        x, y = left + column * card_w, bottom + (2 - row) * card_h
        canvas.saveState()
        x0, y0 = x - (bleed if column == 0 else 0), y - (bleed if row == 2 else 0)
        x1, y1 = x + card_w + (bleed if column == 2 else 0), y + card_h + (bleed if row == 0 else 0)
        clip = canvas.beginPath()  # the bleed only on the sheet's outer edges: neighbours share cut lines
        clip.rect(x0 * mm, y0 * mm, (x1 - x0) * mm, (y1 - y0) * mm)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(x * mm, y * mm)
        canvas.setFillColor(cream)
        canvas.rect(-bleed * mm, -bleed * mm, (card_w + 2 * bleed) * mm, (card_h + 2 * bleed) * mm, stroke=0, fill=1)
        canvas.setFillColor(blue)
        canvas.rect(-bleed * mm, (card_h - 11) * mm, (card_w + 2 * bleed) * mm, (11 + bleed) * mm, stroke=0, fill=1)
        canvas.setFillColor(white)
        size = shrunk(card["name"], "Head", 11, 55.5 * mm)
        canvas.setFont("Head", size)
        canvas.drawString(4 * mm, (card_h - 5.5) * mm - size * 0.35, card["name"])
        canvas.setFillColor(black)
        for offset, label, key, width in STATS:
            text = f"{label} {card[key]}"
            size = shrunk(text, "Body", 9, width * mm)
            canvas.setFont("Body", size)
            canvas.drawString(offset * mm, (card_h - 14) * mm - size, text)
        lines, size = wrapped(card["ability"], 55.5 * mm, 60 * mm)
        ability = canvas.beginText(4 * mm, (card_h - 24) * mm - size)
        ability.setFont("Body", size, size * 1.2)
        for line in lines:
            ability.textLine(line)
        canvas.drawText(ability)
        canvas.restoreState()
    canvas.save()
    return {"cards": len(cards)}


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


STATS = ((4, "ATK", "attack", 18), (24, "DEF", "defense", 18), (44, "CST", "cost", 16))  # x, label, field, width
RUNNERS = {"cardgen": run_cardgen, "reportlab": run_reportlab, "protograf": run_protograf}


def child(kind: str, folder: Path) -> None:
    """One side in its own process: the work's own seconds (imports excluded) and the process's peak memory."""
    start = time.perf_counter()
    result = RUNNERS[kind](folder)
    print(json.dumps({**result, "seconds": time.perf_counter() - start}))


@dataclass
class Run:
    """One process: its wall time from start to exit, its CPU time and peak memory (its children's included), and
    what it printed."""

    seconds: float
    cpu_seconds: float
    peak_mb: float
    out: str


def run(command: list[str], folder: Path) -> Run:
    """Start a process and wait for it; `os.wait4` gives its CPU time and peak resident memory, with those of the
    workers it forked and reaped (the peak is the largest single process's, not their sum)."""
    out, err = folder / "stdout.txt", folder / "stderr.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{err.read_text()[-2000:]}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.read_text())


def protograf_missing(python: str) -> str | None:
    """Why protograf cannot run in that Python, or None when it can."""
    probe = subprocess.run([python, "-c", "import protograf, yaml"], capture_output=True, text=True)
    if probe.returncode == 0:
        return None
    return f"protograf is not installed for {python} (pip install protograf pyyaml; or --protograf-python PATH)"


def one_card_edits(folder: Path) -> Callable[[], None]:
    """Each call changes the ability of the card in the middle of the deck, or changes it back: the data then differs
    from the last build's by one card, whichever side built last."""
    cards = folder / "data" / "bench" / "cards.yaml"
    plain, edited = 'ability: "', 'ability: "Edited. '

    def edit() -> None:
        lines = cards.read_text().splitlines(keepends=True)
        middle = len(lines) // 2
        line = lines[middle]
        lines[middle] = line.replace(edited, plain, 1) if edited in line else line.replace(plain, edited, 1)
        cards.write_text("".join(lines))

    return edit


@dataclass
class Side:
    """One thing measured: its command, and what is done before each run (not timed)."""

    command: list[str]
    before: Callable[[], None] = lambda: None


def sides(args: argparse.Namespace, folder: Path) -> dict[str, Side]:
    """Every side of the comparison. cardgen's cold runs build with `--no-cache` into a folder emptied before each
    run; its rebuilds keep the cache of an earlier build of the same data (no-op) or of data differing by one card."""
    me = [sys.executable, __file__, "--folder", str(folder), "--child"]
    cardgen = [sys.executable, "-m", "cardgen", "--data-dir", str(folder / "data"), "--templates-dir"]
    cardgen += [str(folder / "templates"), "build", "-q", "--paper", "letter"]

    def build(jobs: int, out: str, *more: str) -> list[str]:
        return [*cardgen, "--jobs", str(jobs), "--out", str(folder / out), *more]

    def emptied(out: str) -> Callable[[], None]:
        return lambda: shutil.rmtree(folder / out, ignore_errors=True)

    result = {"hand-written": Side([*me, "reportlab"])}
    for jobs in JOBS:
        result[f"cold, --jobs {jobs}"] = Side(build(jobs, "cold", "--no-cache"), emptied("cold"))
    result["cardgen in-process"] = Side([*me, "cardgen"])
    if args.quick:
        return result
    for jobs in JOBS:
        result[f"no-op, --jobs {jobs}"] = Side(build(jobs, "kept"))
    edit = one_card_edits(folder)
    for jobs in JOBS:  # both build into the same folder: before each run one card differs from its last build
        result[f"one card, --jobs {jobs}"] = Side(build(jobs, "edited"), edit)
    result["cardgen --help"] = Side([sys.executable, "-m", "cardgen", "--help"])
    result["cardgen list"] = Side([sys.executable, "-m", "cardgen", "list"])  # unchanged data: the kept listing
    # a cache folder of its own, removed as the command's exit handlers run (`cli.run`)
    fresh = "import atexit, os, shutil, sys, tempfile; os.environ['XDG_CACHE_HOME'] = cache = tempfile.mkdtemp(); "
    fresh += "atexit.register(shutil.rmtree, cache, True); "
    fresh += "sys.argv = ['cardgen', 'list']"
    result["cardgen list, first"] = Side([sys.executable, "-c", fresh + "; from cardgen.cli import run; run()"])
    if args.protograf:
        result["protograf"] = Side([args.protograf, __file__, "--folder", str(folder), "--child", "protograf"])
    return result


JOBS = (1, 2)  # per core, and every core of the two-core machine the targets are set on


def measure(args: argparse.Namespace, folder: Path) -> dict[str, list[Run]]:
    """Every side `args.runs` times, interleaved, so that a change in the machine's load falls on all of them."""
    plan = sides(args, folder)
    if not args.quick:  # the rebuilds start from a cached build of the same data
        run(plan["no-op, --jobs 1"].command, folder)
        run(plan["one card, --jobs 1"].command, folder)
    runs: dict[str, list[Run]] = {name: [] for name in plan}
    for _ in range(args.runs):
        for name, side in plan.items():
            side.before()
            runs[name].append(run(side.command, folder))
    return runs


def same_cards(folder: Path) -> bool:
    """Whether the hand-written PDF and cardgen's hold the same pages with the same words on them (first, middle
    and last sheet): the two sides did the same work."""
    import pypdfium2

    paths = (folder / "hand.pdf", folder / "cold" / "bench" / "cards.pdf")
    hand, built = (pypdfium2.PdfDocument(path) for path in paths)
    try:
        if len(hand) != len(built):
            return False
        for number in {0, len(hand) // 2, len(hand) - 1}:
            words = []
            for document in (hand, built):
                page = document[number]
                text = page.get_textpage()
                words.append(sorted(text.get_text_range().split()))
                text.close()
                page.close()
            if words[0] != words[1]:
                return False
        return True
    finally:
        hand.close()
        built.close()


def summarise(runs: dict[str, list[Run]], cards: int) -> dict[str, Any]:
    """The median run of each side, printed, and the ratios between sides that did the same work."""
    report: dict[str, Any] = {}
    for name, measured in runs.items():
        side = {
            "seconds": statistics.median(r.seconds for r in measured),
            "cpu_seconds": statistics.median(r.cpu_seconds for r in measured),
            "peak_mb": max(r.peak_mb for r in measured),
            "runs": [round(r.seconds, 3) for r in measured],
        }
        if name in ("hand-written", "cardgen in-process", "protograf"):
            printed = [json.loads(r.out) for r in measured]
            side["in_process_seconds"] = statistics.median(p["seconds"] for p in printed)  # the work alone
        report[name] = side
    hand = report["hand-written"]
    alone = report["cardgen in-process"]["in_process_seconds"]
    ratios: dict[str, float] = {"in_process": hand["in_process_seconds"] / alone}
    rounds: dict[str, float] = {}
    for jobs in JOBS:  # the same cards, the same PDF: hand-written seconds over cardgen's (above 1: cardgen faster)
        cold = f"cold, --jobs {jobs}"
        ratios[cold] = hand["seconds"] / report[cold]["seconds"]
        pairs = zip(runs["hand-written"], runs[cold], strict=True)  # each round's sides ran back to back
        rounds[cold] = statistics.median(h.seconds / c.seconds for h, c in pairs)
    if "protograf" in report:
        ratios["protograf"] = report["protograf"]["seconds"] / report["cold, --jobs 1"]["seconds"]
    report["ratios"] = ratios
    report["ratios_median_of_rounds"] = rounds
    return report


def show(report: dict[str, Any], args: argparse.Namespace, skipped: str | None) -> None:
    """The figures, one side a line, the --jobs 1 and --jobs 2 runs of each build beside each other."""
    hand = report["hand-written"]

    def cells(name: str) -> str:
        side = report[name]
        return f"{side['seconds']:6.2f} s  cpu {side['cpu_seconds']:5.2f} s  peak {side['peak_mb']:4.0f} MB"

    print(f"{args.cards:,} poker cards, Letter 3×3 with crop marks; median of {args.runs} interleaved runs")
    alone = hand["in_process_seconds"]
    print(f"{'hand-written reportlab':>26}: {cells('hand-written')}  (the work alone {alone:.2f} s)")
    print(f"{'':>26}  {'--jobs 1':<40}  --jobs 2")
    for kind in ("cold", "no-op", "one card"):
        if f"{kind}, --jobs 1" in report:
            print(f"{'cardgen build, ' + kind:>26}: {cells(f'{kind}, --jobs 1')}  {cells(f'{kind}, --jobs 2')}")
    ratios, rounds = report["ratios"], report["ratios_median_of_rounds"]
    one, two = "cold, --jobs 1", "cold, --jobs 2"
    print(f"{'ratio, cold':>26}: {ratios[one]:.2f}× the hand-written script (target ≥ 0.7; median of rounds "
          f"{rounds[one]:.2f}×)  {ratios[two]:.2f}× (target ≥ 1.2; median of rounds {rounds[two]:.2f}×)")  # fmt: skip
    print(f"{'peak memory':>26}: {report[one]['peak_mb']:.0f} MB and {report[two]['peak_mb']:.0f} MB "
          "(target ≤ 80; the largest process of a build)")  # fmt: skip
    print(f"{'ratio, in-process':>26}: {ratios['in_process']:.2f}× (cardgen's pipeline alone against the script's "
          "loop)")  # fmt: skip
    if "protograf" in ratios:
        print(f"{'ratio, protograf':>26}: cardgen build --jobs 1 is {ratios['protograf']:.1f}× faster")
    else:
        print(f"{'protograf':>26}: skipped — {skipped}")
    if "cardgen --help" in report:
        print(f"{'start-up':>26}: cardgen --help {report['cardgen --help']['seconds'] * 1000:.0f} ms, cardgen list "
              f"{report['cardgen list']['seconds'] * 1000:.0f} ms (the first listing of the data "
              f"{report['cardgen list, first']['seconds'] * 1000:.0f} ms)")  # fmt: skip
    print(f"{'same cards':>26}: {'yes' if report['same_cards'] else 'NO'} (page count and the words on three sheets)")
    load = report["load"]
    print(f"{'load average':>26}: {' '.join(f'{v:.2f}' for v in load[0])} before, "
          f"{' '.join(f'{v:.2f}' for v in load[1])} after")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=2700)
    parser.add_argument("--runs", type=int, default=5, help="runs of each side, interleaved (the median counts)")
    parser.add_argument("--protograf-python", dest="protograf", default=sys.executable,
                        help="a Python with protograf installed (default: this one)")  # fmt: skip
    parser.add_argument("--no-protograf", dest="protograf", action="store_const", const=None)
    parser.add_argument("--quick", action="store_true",
                        help="the hand-written script and cold builds once, nothing else (smoke runs)")  # fmt: skip
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
        report = summarise(measure(args, folder), args.cards)
        report["same_cards"] = same_cards(folder)
    report["load"] = [load_before, os.getloadavg()]
    report["cpus"] = os.cpu_count()
    show(report, args, skipped)
    figures.write(args.json, "build_speed", {**report, "cards": args.cards, "protograf_skipped": skipped})
    if not report["same_cards"]:
        sys.exit("the hand-written script and cardgen drew different cards")


if __name__ == "__main__":
    main()
