"""Benchmark: cardgen's full pipeline (YAML → Jinja → PDF) against a minimal hand-written reportlab loop.

Both draw the same N poker cards — a name, three stats and 20–40 words of ability text, on Letter 3×3 sheets with
crop marks — in separate processes (so peak memory is each one's own), one after the other in the same run, and the
script prints cards per second for both, their ratio and peak memory. Compare the ratio, not the absolute figures:
machines here are shared and noisy.

    python benchmarks/build_speed.py            # N = 2,700
    python benchmarks/build_speed.py --cards 900
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
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


def run_cardgen(folder: Path) -> int:
    from cardgen.data import load_games
    from cardgen.paths import default_fonts_dir
    from cardgen.render.build import build_game
    from cardgen.render.jobs import PrintOptions
    from cardgen.render.layouts import Layouts

    (game,) = load_games(folder / "data")
    report = build_game(
        game, Layouts(folder / "templates"), default_fonts_dir(), folder / "out", PrintOptions(paper="letter")
    )
    assert not report.overflows, report.overflows[:3]
    return sum(1 for _ in game.items())


def run_reportlab(folder: Path) -> int:
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
    return len(data)


def child(kind: str, folder: Path) -> None:
    start = time.perf_counter()
    cards = run_cardgen(folder) if kind == "cardgen" else run_reportlab(folder)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"cards": cards, "seconds": seconds, "peak_mb": peak_mb}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=2700)
    parser.add_argument("--child", choices=["cardgen", "reportlab"])
    parser.add_argument("--folder", type=Path)
    figures.add_option(parser)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.folder)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_game(folder, args.cards)
        results = {}
        for kind in ("reportlab", "cardgen"):
            out = subprocess.run(
                [sys.executable, __file__, "--child", kind, "--folder", str(folder)],
                capture_output=True,
                text=True,
                check=True,
            )
            results[kind] = json.loads(out.stdout)
    for kind, r in results.items():
        rate = r["cards"] / r["seconds"]
        print(
            f"{kind:>10}: {r['cards']} cards in {r['seconds']:.2f} s = {rate:,.0f} cards/s, "
            f"peak memory {r['peak_mb']:.0f} MB"
        )
    ratio = (results["cardgen"]["cards"] / results["cardgen"]["seconds"]) / (
        results["reportlab"]["cards"] / results["reportlab"]["seconds"]
    )
    print(f"     ratio: cardgen runs at {ratio:.2f}× the hand-written loop's throughput (target ≥ 0.5)")
    figures.write(args.json, "build_speed", {**results, "ratio": ratio})


if __name__ == "__main__":
    main()
