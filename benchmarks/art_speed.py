"""Benchmark: what generated art (`<art>`) costs a build — the same deck of N poker cards built without art, with
vector art on every card (a starless-nebula starfield, a planet and a ship), with a nebula of its own on every card,
and with one nebula every card shares.

Each variant is built in this process with `build_game` (print PDF, Letter), the kept nebulae forgotten before
every run so each run makes its rasters afresh; the variants run `--runs` times, interleaved, and the best run of
each counts. Machines here are shared and noisy: compare the ratios, not absolute figures.

    python benchmarks/art_speed.py              # N = 54, three runs of each variant
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script

REPO = Path(__file__).resolve().parent.parent
CARD = """<face bg="#f4f1e8">
  {art}
  <rect x="0" y="0" w="63.5" h="11" fill="#2f6db5" bleed="true"/>
  <text x="4" y="2" w="55.5" h="7" size="11" font="heading" colour="white" valign="middle"
        field="name">{{{{ card.name }}}}</text>
  <text x="4" y="62" w="55.5" h="22" size="8" min-size="6" field="ability">{{{{ card.ability }}}}</text>
</face>
"""
VARIANTS = {
    "no art": "",
    "vector art": '<art kind="starfield" x="0" y="0" w="63.5" h="88.9" bleed="true" nebula="0"/>'
    '<art kind="planet" x="30" y="12" w="30" h="30"/><art kind="ship" x="4" y="14" w="28" h="44"/>',
    "a nebula per card": '<art kind="starfield" x="0" y="0" w="63.5" h="88.9" bleed="true"/>',
    "one shared nebula": '<art kind="starfield" seed="deck" x="0" y="0" w="63.5" h="88.9" bleed="true"/>',
}
WORDS = "fleet shield jump reactor station credit colony strike hull scout sector nebula salvage cruiser".split()  # noqa: SIM905


def make_game(folder: Path, cards: int, art: str) -> None:
    rng = random.Random(7)
    game = folder / "data" / "artbench"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(
        "id: artbench\ntitle: Art benchmark\nplayers: [2, 2]\nrulebook: {title: none}\nsettings: {card_size: poker}\n"
        "card_types:\n  unit: {fields: {name: {type: str}, ability: {type: text}}}\n"
        "components:\n  - {id: cards, kind: deck, title: Cards, file: cards.yaml}\n"
    )
    lines = ["type: unit", "front: unit", "cards:"]
    for i in range(cards):
        ability = " ".join(rng.choice(WORDS) for _ in range(rng.randint(15, 30))).capitalize() + "."
        lines.append(f'  - {{id: c{i}, name: Card {i}, ability: "{ability}"}}')
    (game / "cards.yaml").write_text("\n".join(lines) + "\n")
    templates = folder / "templates" / "artbench"
    templates.mkdir(parents=True)
    (templates / "unit.xml.j2").write_text(CARD.format(art=art))


def build(folder: Path) -> tuple[float, int]:
    """One build of the deck in `folder`: seconds and the PDF's size in bytes."""
    from cardgen.data import load_games
    from cardgen.paths import default_fonts_dir
    from cardgen.render.art import starfield
    from cardgen.render.build import build_game
    from cardgen.render.jobs import PrintOptions
    from cardgen.render.layouts import Layouts

    starfield.forget()
    starfield.DISK = False  # the benchmark measures making the art, not reading it back
    start = time.perf_counter()
    (game,) = load_games(folder / "data")
    build_game(game, Layouts(folder / "templates"), default_fonts_dir(), folder / "out", PrintOptions(paper="letter"))
    seconds = time.perf_counter() - start
    return seconds, (folder / "out" / "artbench" / "cards.pdf").stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=54)
    parser.add_argument("--runs", type=int, default=3)
    figures.add_option(parser)
    options = parser.parse_args()
    figures.compiled()
    sys.path.insert(0, str(REPO))
    with tempfile.TemporaryDirectory() as temporary:
        folders = {}
        for index, (name, art) in enumerate(VARIANTS.items()):
            folders[name] = Path(temporary) / str(index)
            make_game(folders[name], options.cards, art)
        build(folders["no art"])  # imports and fonts once, outside the timings
        best: dict[str, float] = {}
        sizes: dict[str, int] = {}
        for _ in range(options.runs):
            for name, folder in folders.items():
                seconds, sizes[name] = build(folder)
                best[name] = min(best.get(name, seconds), seconds)
    plain = best["no art"]
    print(f"{options.cards} poker cards, print PDF (Letter), best of {options.runs} runs")
    for name in VARIANTS:
        print(f"  {name:<18} {best[name]:6.2f} s  ×{best[name] / plain:4.2f}  PDF {sizes[name] / 1e6:6.2f} MB")
    figures.write(
        options.json,
        "art_speed",
        {"cards": options.cards, "runs": options.runs, "seconds": best, "pdf_bytes": sizes,
         "ratios": {name: best[name] / plain for name in VARIANTS}},
    )  # fmt: skip


if __name__ == "__main__":
    main()
