"""The balance report as a document — sections of text, tables and plots — that the HTML and PDF writers both
render, so the two always say the same thing in the same order, with numbers formatted in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardgen.balance.plots import Plot, plots_of
from cardgen.balance.stats import KIND_NAMES, outlier_text, signed
from cardgen.engine.tally import unseen_note


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[str]]
    name: str = ""  # the HTML table's id: tests and readers find a table by it


@dataclass(frozen=True)
class Section:
    title: str
    blocks: list[str | Table | Plot] = field(default_factory=list)
    level: int = 2


def percent(share: float) -> str:
    return f"{share * 100:.1f} %"


def interval(figure: dict[str, Any]) -> str:
    return f"{figure['low'] * 100:.1f}–{figure['high'] * 100:.1f} %"


def build(report: dict[str, Any], timing: dict[str, str]) -> tuple[str, list[Section]]:
    """The title and sections of a report; `timing` (time taken, where the games ran) stays in its own section."""
    title = f"Balance of {report['title']}"
    sections = [_produced(report, timing), _strength(report)]
    for run in report["runs"]:
        sections += _run(run)
    if "compare" in report:
        sections += _compare(report["compare"])
    return title, sections


def _produced(report: dict[str, Any], timing: dict[str, str]) -> Section:
    p = report["produced"]
    rows = [
        ["game", report["game"]],
        ["players", ", ".join(map(str, p["players"]))],
        ["games per player count", f"{p['games']:,}"],
        ["seed", str(p["seed"])],
        ["agents by seat", ", ".join(p["agents"])],
        ["seating", "the agents take the seats in turn" if p.get("seats") == "rotate" else "fixed"],
        ["invariants checked after every action", "yes" if p["check"] else "no"],
        ["games per batch", str(p["batch"])],
        ["game data (SHA-256 of its folder)", p["data"]],
        ["cardgen", p["cardgen"]],
        ["to reproduce", p["command"]],
    ]
    timed = [[key, value] for key, value in timing.items()]
    note = "These settings decide every figure in the report; the time taken and where the games ran (below) do not."
    return Section(
        "How it was produced",
        [Table(["setting", "value"], rows, "produced"), note, Table(["this run", ""], timed, "timing")],
    )


def _strength(report: dict[str, Any]) -> Section:
    """Who played, why, and how strong each agent measured against greedy and random."""
    p = report["produced"]
    rows = [[row["agent"], row["against"], str(row["players"]), *_won(row)] for row in p.get("strength", [])]
    blocks: list[str | Table | Plot] = []
    if p.get("chosen"):
        blocks.append(f"The agents: {p['chosen']}.")
    blocks.append(
        "A balance figure says how the game plays between these agents: a side that wins against players who never "
        "attack may lose against players who do. Each agent's strength, measured in games of its own against greedy "
        "and random (the seats alternating):"
    )
    if rows:
        blocks.append(Table(["agent", "against", "players", "wins", "games", "win rate", "95 % interval"], rows,
                            "strength"))  # fmt: skip
    else:
        blocks.append("Not measured in this run (--strength 0, or only random played).")
    return Section("Who played", blocks)


def _won(figure: dict[str, Any]) -> list[str]:
    """Wins, trials, rate and interval: the columns every win-rate table shares."""
    return [f"{figure['wins']:g}", f"{figure['trials']:,}", percent(figure["rate"]), interval(figure)]


def _run(run: dict[str, Any]) -> list[Section]:
    plots = {plot.name.split("-")[0]: plot for plot in plots_of(run)}
    n = run["players"]
    won = ["wins", "games", "win rate", "95 % interval"]
    seat_rows = [[s["name"], s["agent"], *_won(s), s["verdict"]] for s in run["seats"]]
    agent_rows = [[a["name"], ", ".join(map(str, a["seats"])), *_won(a)] for a in run["agents"]]
    blocks: list[str | Table | Plot] = [
        Table(["seat", "agent", *won, "verdict"], seat_rows, f"seats-{n}p"),
        plots["seat"],
        "An agent's games count once for each seat it played.",
        Table(["agent", "seats", *won], agent_rows, f"agents-{n}p"),
        *([plots["agent"]] if "agent" in plots else []),
    ]
    ended = run.get("ended_by_rules")
    if ended and ended["trials"]:
        blocks.append(
            f"{ended['wins']:,g} of {ended['trials']:,} games ({percent(ended['rate'])}) ended by the rules; the rest "
            "were stopped at the turn cap and adjudicated (or failed). Where most were, a verdict judges the "
            "adjudication more than the game, and says so."
        )
    if run["first_player"]:
        first = run["first_player"]
        blocks.append(f"The player who took the first turn won {percent(first['rate'])} ({interval(first)}) "
                      f"of {first['trials']:,} games; an even game gives {percent(1 / n)}.")  # fmt: skip
    factions: list[Section] = []
    if run.get("sides"):
        rows = [[side["name"], *_won(side), side["verdict"]] for side in run["sides"]]
        note = (f"Each faction's share of the games it was dealt in (a shared win counts whole); an even game gives "
                f"{percent(1 / n)}.")  # fmt: skip
        factions = [Section("Factions", [note, Table(["faction", *won, "verdict"], rows, f"sides-{n}p")], 3)]
    return [
        Section(f"{n} players: {run['games']:,} games", blocks),
        *factions,
        Section("Game length", [_lengths(run), plots["length"]], 3),
        Section("Outliers", _outliers(run, plots.get("outliers")), 3),
        Section("Cards, abilities and events", [_items(run, "items"), _items(run, "groups")], 3),
        Section("Data problems and invariant violations", _problems(run), 3),
    ]


def _lengths(run: dict[str, Any]) -> Table:
    rows = [[what, f"{h['mean']:g}", str(h["min"]), str(h["max"])] for what, h in run["length"].items()]
    rows += [[f"ended: {ending}", f"{k:,} games", "", ""] for ending, k in run["endings"].items()]
    return Table(["length", "mean", "min", "max"], rows, f"length-{run['players']}p")


def _outliers(run: dict[str, Any], plot: Plot | None) -> list[str | Table | Plot]:
    if not run["outliers"]:
        return ["No item occurred in enough games, and was missing from enough, to compare."]
    held = sum(row["significant"] for row in run["outliers"])
    comparisons = run["outliers"][0]["comparisons"]
    text = (
        "Ranked by how far a seat's win rate in the games with the item lies from its rate in the games without. "
        f"{comparisons:,} comparisons were made (every item seen in enough games, at every seat), so a few large "
        f"differences are expected by chance: {held} of these {len(run['outliers'])} hold after Holm's correction "
        "(p below 0.05 once multiplied by the comparisons still standing)."
    )
    rows = [[str(i), outlier_text(row)] for i, row in enumerate(run["outliers"], 1)]
    return [text, Table(["#", "outlier"], rows, f"outliers-{run['players']}p"), *([plot] if plot else [])]


def _items(run: dict[str, Any], key: str) -> Table:
    seats = range(run["players"])
    header = ["kind", "item" if key == "items" else "group", "games", "share"]
    header += [f"seat {s} wins with it" for s in seats]
    rows = []
    for row in run[key]:
        cells = [
            KIND_NAMES.get(row["kind"], row["kind"]),
            row["item"],
            f"{row['games']:,}",
            percent(row["occurred"]["rate"]),
        ]
        cells += [f"{percent(s['when']['rate'])} ({interval(s['when'])})" for s in row["seats"]]
        rows.append(cells)
    return Table(header, rows, f"{key}-{run['players']}p")


def _problems(run: dict[str, Any]) -> list[str | Table | Plot]:
    violations = run["invariant_violations"]
    blocks: list[str | Table | Plot] = [f"Invariant violations: {violations['total']:,}."]
    if violations["kinds"]:
        rows = [[kind, f"{k:,}"] for kind, k in violations["kinds"].items()]
        blocks.append(Table(["violation", "times"], rows, f"violations-{run['players']}p"))
    blocks.append(f"Data problems: {len(run['data_problems'])}.")
    if run["data_problems"]:
        blocks.append(Table(["data problem"], [[p] for p in run["data_problems"]], f"problems-{run['players']}p"))
        note = unseen_note(run["games"], run["data_problems"])
        if note:
            blocks.append(note[:1].upper() + note[1:] + ".")
    return blocks


def _compare(comparison: dict[str, Any]) -> list[Section]:
    note = (
        "Before is the earlier report, after this one; |z| ≥ 2 marks one change unlikely to be chance alone (95 %). "
        "The cards' changes are many comparisons at once: their last column is the p value after Holm's correction "
        "for all of them, and only a change below 0.05 there is significant."
    )
    sections = [Section(f"Before and after: compared with {comparison['file']}", [note])]
    for run in comparison["runs"]:
        n = run["players"]
        seats = Table(["seat", "before", "after", "change (points)", "z"], [_change_row(c) for c in run["seats"]],
                      f"compare-seats-{n}p")  # fmt: skip
        header = ["kind", "item", "occurred before", "after", "seat", "win rate with it before", "after", "points", "z",
                  "p, corrected"]  # fmt: skip
        items = Table(header, [_compare_item(c) for c in run["items"]], f"compare-items-{n}p")
        sections.append(Section(f"{n} players, before and after", [seats, items], 3))
    return sections


def _compare_item(change: dict[str, Any]) -> list[str]:
    occurred = change["occurred"]
    seat = change["seat"]
    shown = [*_change_row(seat), f"{seat['p_holm']:.2g}" + (" (significant)" if seat["significant"] else "")] \
        if seat else [""] * 6  # fmt: skip
    kind = KIND_NAMES.get(change["kind"], change["kind"])
    return [kind, change["item"], percent(occurred["before"]["rate"]), percent(occurred["after"]["rate"]), *shown]


def _change_row(change: dict[str, Any]) -> list[str]:
    before, after = change["before"], change["after"]
    return [
        change["name"],
        f"{percent(before['rate'])} ({interval(before)})",
        f"{percent(after['rate'])} ({interval(after)})",
        signed(change["points"]),
        signed(change["z"]),
    ]
