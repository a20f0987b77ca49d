"""The balance figures of one player count, read off a sweep's `Tally`: every number the reports show.

Win rates are shares of games (a shared win counts its share) with 95 % Wilson intervals. A seat's verdict compares its
whole interval with the fair share 1/players ± 2 points: inside it, "within ±2 points of fair"; entirely outside it,
"more than 2 points off fair"; otherwise the games are too few to tell. An item (a card played or built, a card whose
ability applied, an event) belongs to a seat: to its owner in a game that deals each seat its own cards
(`GameEngine.item_seat`), else to the seat whose action it first happened in (`loop.Attribution`). Its "win rate when
played" for a seat is that seat's share of the games in which it played the item, set against its share of the other
games (a two-proportion z score ranks the outliers; a tally made without seats' items counts the games the item occurred
in at all). Many items at every seat make many comparisons, and with a hundred of them a few |z| ≥ 2 are chance: each
outlier also carries its two-sided p value and the p value after Holm's correction for every comparison made (every item
at every seat that had it, and lacked it, in enough games; valid whatever the dependence between them, as a seat's rates
and the other seats' are), and only those below 0.05 after it are called significant.
"""

from __future__ import annotations

import math
from typing import Any

from cardgen.engine.tally import ITEM_KINDS, Tally, wilson

MARGIN = 0.02  # "within ±2 points of fair"
KIND_NAMES = {"played": "card played or built", "applied": "ability applied", "events": "event"}
OUTLIERS = 12
SIGNIFICANCE = 0.05  # an outlier whose p value after Holm's correction is below this is called significant
MIN_GAMES = 5  # an item seen in fewer games (or missing from fewer) is not ranked: nothing to compare


def rate(wins: float, trials: int) -> dict[str, float]:
    """A share with its 95 % Wilson interval, rounded for the report."""
    share = wins / trials if trials else 0.0
    low, high = wilson(share, trials) if trials else (0.0, 1.0)
    return {
        "wins": round(wins, 4),
        "trials": trials,
        "rate": round(share, 4),
        "low": round(low, 4),
        "high": round(high, 4),
    }


def verdict(low: float, high: float, fair: float, players: int, capped: str = "") -> str:
    """Where a win rate's interval lies against the fair share; `capped` (most games adjudicated at the turn cap,
    `capped_note`) is said beside any verdict of balance, which then judges the adjudication more than the game."""
    if players == 1:
        return "solitaire: no fair share to compare with"
    if fair - MARGIN <= low and high <= fair + MARGIN:
        return "within ±2 points of fair" + capped
    if low > fair + MARGIN or high < fair - MARGIN:
        return "more than 2 points off fair" + capped
    return "undecided: the interval is wider than ±2 points of fair (play more games)"


def capped_note(tally: Tally) -> str:
    """The words a verdict carries when most games did not end by the rules (turn cap or failure): '', or
    '; but 98 of 100 games were stopped at the turn cap'."""
    if tally.unended * 2 <= tally.games:
        return ""
    return f"; but {tally.unended:,} of {tally.games:,} games did not end by the rules (turn cap)"


def run_figures(tally: Tally, agents: list[str], rotate: bool = False) -> dict[str, Any]:
    """Everything the report shows for one player count (plain JSON values, the same for the same tally); `rotate`:
    the agents took the seats in turn (`runner.seating`)."""
    n, unit, fair = tally.games, tally.unit, 1 / tally.players
    capped = capped_note(tally)
    lineup = [agents[seat % len(agents)] for seat in range(tally.players)]
    turns = rotate and len(set(lineup)) > 1
    seats = []
    for seat, units in enumerate(tally.wins):
        won = rate(units / unit, n)
        judged = {"fair": round(fair, 4), "verdict": verdict(won["low"], won["high"], fair, tally.players, capped)}
        seats.append({"name": f"seat {seat}", "agent": "each in turn" if turns else lineup[seat], **won, **judged})
    return {
        "players": tally.players,
        "games": n,
        "seats": seats,
        "agents": _agents(tally, lineup, turns),
        "first_player": rate(tally.first_wins / unit, tally.first_games) if tally.first_games else None,
        "length": {"turns": histogram(tally.turns), "actions": histogram(tally.actions)},
        "endings": dict(sorted(tally.endings.items())),
        "ended_by_rules": rate(n - tally.unended, n),
        "sides": sides(tally),
        "items": items(tally, ("played", "applied", "events")),
        "groups": items(tally, ("groups",)),
        "outliers": outliers(tally),
        "invariant_violations": {
            "total": tally.violations,
            "kinds": dict(sorted(tally.violation_kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
            "examples": [v for _, v in tally.examples],
        },
        "problems": dict(sorted(tally.problems.items(), key=lambda kv: (-kv[1], kv[0]))),
    }


def sides(tally: Tally) -> list[dict[str, Any]]:
    """The sides a game deals its players (an engine's events `faction:X` in every game X is played and `won:X` in
    every game it wins, a shared win counting whole): each side's win rate against the fair 1/players, best first."""
    events = tally.items["events"]
    rows = []
    for item, (games, *_) in events.items():
        kind, _, name = item.partition(":")
        if kind == "faction" and games:
            won = events.get(f"won:{name}", [0])[0]
            figure = rate(won, games)
            rows.append({"name": name, **figure, "verdict": verdict(figure["low"], figure["high"], 1 / tally.players,
                                                                    tally.players, capped_note(tally))})  # fmt: skip
    return sorted(rows, key=lambda r: (-r["rate"], r["name"]))


def _agents(tally: Tally, lineup: list[str], turns: bool) -> list[dict[str, Any]]:
    """Each agent's share of the seats it played (an agent on two seats of a game plays two trials), counted where
    it actually sat (a tally written before agents were counted apart falls back to its fixed seats)."""
    rows = []
    for name in dict.fromkeys(lineup):
        seats = list(range(tally.players)) if turns else [s for s, agent in enumerate(lineup) if agent == name]
        if tally.agent_seats:
            trials, wins = tally.agent_seats[name], tally.agent_wins[name] / tally.unit
        else:
            trials, wins = tally.games * len(seats), sum(tally.wins[s] for s in seats) / tally.unit
        rows.append({"name": name, "seats": seats, **rate(wins, trials)})
    return rows


def histogram(counts: dict[int, int], bins: int = 24) -> dict[str, Any]:
    """Games per length in at most `bins` equal whole-number bins, with mean, min and max."""
    n = sum(counts.values())
    if not n:
        return {"mean": 0.0, "min": 0, "max": 0, "start": 0, "width": 1, "counts": []}
    low, high = min(counts), max(counts)
    width = max(1, math.ceil((high - low + 1) / bins))
    binned = [0] * ((high - low) // width + 1)
    for value, k in counts.items():
        binned[(value - low) // width] += k
    mean = round(sum(v * k for v, k in counts.items()) / n, 3)
    return {"mean": mean, "min": low, "max": high, "start": low, "width": width, "counts": binned}


def items(tally: Tally, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per item: the games it occurred in and, per seat, the seat's win rate in the games in which it played the
    item (in which the item occurred, for a tally without seats' items) and in the others."""
    rows, n = [], tally.players
    attributed = any(tally.seat_items.get(kind) for kind in ITEM_KINDS)
    for kind in kinds:
        for item, (games, *wins) in sorted(tally.items[kind].items()):
            if attributed:
                mine = tally.seat_items[kind].get(item, [0] * (2 * n))
                seats = [_when(tally, seat, mine[seat], mine[n + seat]) for seat in range(n)]
            else:
                seats = [_when(tally, seat, games, units) for seat, units in enumerate(wins)]
            rows.append(
                {"kind": kind, "item": item, "games": games, "occurred": rate(games, tally.games), "seats": seats}
            )
    return rows


def _when(tally: Tally, seat: int, games: int, units: int) -> dict[str, Any]:
    """A seat's win rate in the games an item occurred in, in the others, and the z score of the difference."""
    unit, n = tally.unit, tally.games
    with_it, without = units / unit, (tally.wins[seat] - units) / unit
    z = 0.0
    if 0 < games < n:
        pooled = (with_it + without) / n
        spread = math.sqrt(pooled * (1 - pooled) * (1 / games + 1 / (n - games)))
        z = (with_it / games - without / (n - games)) / spread if spread else 0.0
    return {"when": rate(with_it, games), "otherwise": rate(without, n - games), "z": round(z, 3)}


def outliers(tally: Tally) -> list[dict[str, Any]]:
    """The items whose presence goes with the largest change in a seat's win rate, strongest first, each with its p
    value, that p value after Holm's correction for every comparison made, and whether it is significant."""
    ranked, tested = [], []
    for row in items(tally, ("played", "applied", "events")):
        compared = [(seat, figures) for seat, figures in enumerate(row["seats"]) if _comparable(figures)]
        if not compared or tally.players < 2:
            continue
        tested += [p_value(figures["z"]) for _, figures in compared]
        seat, figures = max(compared, key=lambda s: (abs(s[1]["z"]), -s[0]))
        games = figures["when"]["trials"]
        ranked.append({"kind": row["kind"], "item": row["item"], "seat": seat, "games": games, **figures})
    ranked.sort(key=lambda r: (-abs(r["z"]), r["kind"], r["item"]))
    adjusted = holm_by_value(tested)
    capped = capped_note(tally).removeprefix("; ")
    for row in ranked[:OUTLIERS]:
        p = p_value(row["z"])
        row.update(p=_rounded(p), p_holm=_rounded(adjusted[p]), comparisons=len(tested))
        row["significant"] = adjusted[p] < SIGNIFICANCE
        if capped:  # an item's effect on games the turn cap decided is the adjudication's as much as the game's
            row["capped"] = capped
    return ranked[:OUTLIERS]


def _comparable(figures: dict[str, Any]) -> bool:
    """Whether a seat had the item in enough games, and lacked it in enough, to compare the two."""
    return bool(min(figures["when"]["trials"], figures["otherwise"]["trials"]) >= MIN_GAMES)


def p_value(z: float) -> float:
    """The two-sided p value of a standard normal z score."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjustment of `ps` (in their order): the i-th smallest times (m − i + 1), never below the
    one before it, at most 1 (Holm 1979, Scandinavian Journal of Statistics 6)."""
    m = len(ps)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda i: ps[i])):
        running = max(running, min(1.0, (m - rank) * ps[index]))
        adjusted[index] = running
    return adjusted


def holm_by_value(ps: list[float]) -> dict[float, float]:
    """Each p value of `ps` to its Holm-adjusted value (equal p values get equal adjusted ones)."""
    return dict(zip(ps, holm(ps), strict=True))


def _rounded(p: float) -> float:
    """Four significant figures: a p value spans orders of magnitude."""
    return float(f"{p:.4g}")


def outlier_text(row: dict[str, Any]) -> str:
    """'card played or built ind-gunboat: seat 0 wins 64 % ± 3 % of the 412 games with it, 48 % ± 2 % without
    (z = +5.1; p = 3.4e-07, 1.6e-05 after correcting for 48 comparisons: significant)'"""
    when, otherwise = row["when"], row["otherwise"]
    held = "significant" if row["significant"] else "may be chance"
    if row.get("capped"):
        held += f"; {row['capped']}"
    return (
        f"{KIND_NAMES[row['kind']]} {row['item']}: seat {row['seat']} wins {percent_pm(when)} of the "
        f"{row['games']:g} games with it, {percent_pm(otherwise)} without (z = {signed(row['z'])}; "
        f"p = {row['p']:.2g}, {row['p_holm']:.2g} after correcting for {row['comparisons']:,} comparisons: {held})"
    )


def signed(value: float) -> str:
    """'+1.3', '-2.0', and '+0.0' rather than '-0.0' for a small negative."""
    return f"{round(value, 1) + 0.0:+.1f}"


def percent_pm(figure: dict[str, Any]) -> str:
    """'64 % ± 3 %': the rate and half the width of its interval."""
    half = (figure["high"] - figure["low"]) / 2
    return f"{figure['rate']:.0%} ± {half:.0%}".replace("%", " %")
