"""How long `cardgen preview` takes: the whole process as a user runs it, and a warm in-process render.

    python benchmarks/preview_speed.py [GAME ITEM] [--runs N]

Prints the median of N whole-process runs (start-up and imports included) and of N in-process renders after a
first, cold one (fonts registered, layouts compiled: the case of a watch loop or an editor plug-in).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import figures  # benchmarks/figures.py, beside this script


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="scifi-domains")
    parser.add_argument("item", nargs="?", default="destroyer")
    parser.add_argument("--runs", type=int, default=5)
    figures.add_option(parser)
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory(prefix="cardgen-preview-speed-")
    out = Path(folder.name) / "preview.png"
    whole = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardgen", "preview", args.game, args.item, "--out", str(out)],
                       check=True, capture_output=True)  # fmt: skip
        whole.append(time.perf_counter() - start)

    from cardgen.data import load_games
    from cardgen.paths import default_data_dir, default_fonts_dir, default_templates_dir
    from cardgen.render.build import GameRenderer
    from cardgen.render.layouts import Layouts
    from cardgen.render.preview import preview_item

    (game,) = load_games(default_data_dir(), [args.game])
    renderer = GameRenderer(game, Layouts(default_templates_dir()), default_fonts_dir())
    warm = []
    for run in range(args.runs + 1):
        start = time.perf_counter()
        preview_item(renderer, args.item, "front", 150, out)
        if run:  # the first render compiles the layouts
            warm.append(time.perf_counter() - start)
    print(f"preview {args.game} {args.item}: whole process {statistics.median(whole):.3f} s, "
          f"warm in-process {statistics.median(warm) * 1000:.1f} ms (median of {args.runs})")  # fmt: skip
    measured = {"whole_process_s": statistics.median(whole), "warm_ms": statistics.median(warm) * 1000}
    figures.write(args.json, "preview_speed", {**measured, "runs": args.runs})
    folder.cleanup()


if __name__ == "__main__":
    main()
