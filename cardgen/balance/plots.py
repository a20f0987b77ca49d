"""The report's plots, drawn with matplotlib's Agg backend from the report's figures (never from the games again).

Each plot comes out twice: SVG text, inlined into the HTML (text drawn as paths, so no font is needed to view it),
and PNG bytes for the PDF. Both are deterministic: no dates in the metadata and a fixed salt for SVG ids.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure

matplotlib.rcParams.update({"svg.hashsalt": "cardgen-balance", "svg.fonttype": "path", "font.size": 9})

INK, FAIR, BAND, ACCENT = "#2f3b52", "#b23a48", "#f2d7db", "#2f6db5"


@dataclass(frozen=True)
class Plot:
    """One drawn plot: a title, its SVG text and its PNG bytes."""

    name: str
    title: str
    svg: str
    png: bytes


def _render(name: str, title: str, figure: Figure) -> Plot:
    svg, png = io.StringIO(), io.BytesIO()
    engine = figure.get_layout_engine()
    if engine is not None:  # lay out once, not once per format
        engine.execute(figure)
        figure.set_layout_engine("none")
    figure.savefig(svg, format="svg", metadata={"Date": None, "Creator": None})
    figure.savefig(png, format="png", dpi=150, metadata={"Software": None})
    text = svg.getvalue()
    return Plot(name, title, text[text.index("<svg") :], png.getvalue())


def win_rates(run: dict[str, Any], rows: list[dict[str, Any]], what: str) -> Plot:
    """Win rates with their 95 % intervals against the fair share and its ±2-point band."""
    figure = Figure(figsize=(6.4, 0.45 * len(rows) + 1.2), layout="constrained")
    ax = figure.subplots()
    fair = 1 / run["players"]
    labels = [f"{row['name']} ({row['agent']})" if "agent" in row else row["name"] for row in rows]
    ys = list(range(len(rows)))[::-1]
    ax.axvspan((fair - 0.02) * 100, (fair + 0.02) * 100, color=BAND, label="fair ± 2 points")
    ax.axvline(fair * 100, color=FAIR, linewidth=1, label=f"fair share {fair:.0%}")
    rates = [row["rate"] * 100 for row in rows]
    below = [(row["rate"] - row["low"]) * 100 for row in rows]
    above = [(row["high"] - row["rate"]) * 100 for row in rows]
    ax.errorbar(rates, ys, xerr=[below, above], fmt="o", color=INK, capsize=4, label="win rate, 95 % interval")
    ax.set_yticks(ys, labels)
    ax.set_xlabel("games won (%)")
    ax.set_xlim(0, 100)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    figure.legend(loc="outside lower center", ncol=3, fontsize=7, frameon=False)
    title = f"Win rate by {what}, {run['players']} players, {run['games']:,} games"
    ax.set_title(title)
    return _render(f"{what}-{run['players']}p", title, figure)


def lengths(run: dict[str, Any]) -> Plot:
    """Histograms of the games' lengths in turns and in actions."""
    figure = Figure(figsize=(6.4, 2.6), layout="constrained")
    for ax, what in zip(figure.subplots(1, 2), ("turns", "actions"), strict=True):
        h = run["length"][what]
        edges = [h["start"] - 0.5 + i * h["width"] for i in range(len(h["counts"]))]  # whole numbers mid-bar
        ax.bar(edges, h["counts"], width=h["width"], align="edge", color=ACCENT, edgecolor="white", linewidth=0.5)
        ax.axvline(h["mean"], color=FAIR, linewidth=1)
        ax.set_xlabel(f"{what} (mean {h['mean']:g})")
        ax.set_ylabel("games")
    title = f"Game length, {run['players']} players"
    figure.suptitle(title)
    return _render(f"length-{run['players']}p", title, figure)


def outliers(run: dict[str, Any]) -> Plot | None:
    """The ranked outliers: a seat's win rate in games with the item against games without it."""
    rows = run["outliers"]
    if not rows:
        return None
    figure = Figure(figsize=(6.4, 0.42 * len(rows) + 1.2), layout="constrained")
    ax = figure.subplots()
    ys = list(range(len(rows)))[::-1]
    for key, colour, shift, label in (("when", FAIR, 0.15, "with the item"), ("otherwise", INK, -0.15, "without")):
        figures = [row[key] for row in rows]
        ax.errorbar(
            [f["rate"] * 100 for f in figures],
            [y + shift for y in ys],
            xerr=[[(f["rate"] - f["low"]) * 100 for f in figures], [(f["high"] - f["rate"]) * 100 for f in figures]],
            fmt="o",
            color=colour,
            capsize=3,
            markersize=4,
            label=label,
        )
    labels = [f"{row['item']} (seat {row['seat']}){' *' if row['significant'] else ''}" for row in rows]
    ax.set_yticks(ys, labels, fontsize=7)
    ax.set_xlabel("seat's games won (%); * significant after Holm's correction")
    ax.set_xlim(0, 100)
    figure.legend(loc="outside lower center", ncol=3, fontsize=7, frameon=False)
    title = f"Outliers: win rate with and without, {run['players']} players"
    ax.set_title(title)
    return _render(f"outliers-{run['players']}p", title, figure)


def plots_of(run: dict[str, Any]) -> list[Plot]:
    """Every plot of one player count, in the order the reports show them."""
    drawn = [win_rates(run, run["seats"], "seat")]
    if len(run["agents"]) > 1:
        drawn.append(win_rates(run, run["agents"], "agent"))
    drawn.append(lengths(run))
    spotted = outliers(run)
    return [*drawn, spotted] if spotted else drawn
