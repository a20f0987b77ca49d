"""`cardgen balance`: the statistics against known values, the reports read back (HTML parsed, PDF text and a
rendered page), resuming an interrupted sweep, comparing two reports, and bad input refused in one line."""

from __future__ import annotations

import json
import math
import random
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cardgen.balance import report
from cardgen.balance.document import interval, percent
from cardgen.balance.journal import kept_games, open_journal
from cardgen.balance.stats import holm, items, outlier_text, outliers, run_figures, verdict
from cardgen.balance.sweep import Sweep, data_fingerprint, run_sweep
from cardgen.engine.executors import Workers
from cardgen.engine.runner import PlaySpec, play_game, play_many, summarise
from cardgen.engine.tally import Tally, tally_of, wilson

from conftest import FIXTURES, REPO, copy_game, run_cli

DATA = str(REPO / "card_data")
LOCAL = Workers(None, 1, "this process")


# -- statistics against known values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), Statistics in Medicine 17, table II, example 1
        (8, 10, 0.4902, 0.9433),
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_intervals_match_published_values(wins: int, n: int, low: float, high: float) -> None:
    assert wilson(wins / n, n) == pytest.approx((low, high), abs=5e-5)


def test_a_seat_is_fair_only_when_its_whole_interval_lies_within_two_points() -> None:
    assert verdict(0.49, 0.515, 0.5, 2) == "within ±2 points of fair"
    assert verdict(0.53, 0.56, 0.5, 2) == "more than 2 points off fair"
    assert verdict(0.40, 0.47, 0.5, 2) == "more than 2 points off fair"
    assert verdict(0.47, 0.53, 0.5, 2).startswith("undecided")  # fair, but too few games to say so within 2 points
    assert verdict(0.3, 0.35, 1 / 3, 3) == "undecided: the interval is wider than ±2 points of fair (play more games)"
    assert verdict(0.9, 1.0, 1.0, 1).startswith("solitaire")


def hand_tally() -> Tally:
    """100 games of 2 players, seat 0 winning 60; an item seen in 40 games, 32 of them won by seat 0."""
    tally = Tally(2, games=100, wins=[120, 80])  # a win is 2 units at 2 players (a shared win 1)
    tally.items["played"]["x"] = [40, 64, 16]
    tally.items["played"]["everywhere"] = [100, 120, 80]  # in every game: nothing to compare with
    tally.items["events"]["y"] = [50, 60, 40]  # no effect at all
    return tally


def test_a_verdict_from_games_mostly_stopped_at_the_turn_cap_says_so() -> None:
    """Balance read from games that did not end by the rules judges the adjudication: every verdict of balance (seats
    and factions) says how many games were stopped at the cap when they were most of them, and the report counts the
    games that ended by the rules."""
    tally = Tally(2, games=1000, wins=[1400, 600])  # seat 0 wins 700 of 1000
    tally.items["events"]["faction:red"] = [1000, 1400, 600]  # red in every game, winning 700 of them (seat 0's)
    tally.items["events"]["won:red"] = [700, 1400, 0]
    tally.unended = 980
    figures = run_figures(tally, ["greedy", "random"])
    assert figures["ended_by_rules"]["wins"] == 20 and figures["ended_by_rules"]["trials"] == 1000
    note = "; but 980 of 1,000 games did not end by the rules (turn cap)"
    assert figures["seats"][0]["verdict"] == "more than 2 points off fair" + note
    assert figures["sides"][0]["verdict"].endswith(note)
    tally.unended = 500  # half: the verdict stands alone
    assert run_figures(tally, ["greedy", "random"])["seats"][0]["verdict"] == "more than 2 points off fair"


def test_an_outlier_is_ranked_by_a_two_proportion_z_score_worked_by_hand() -> None:
    (top, second) = outliers(hand_tally())
    # seat 0 wins 32/40 = 80 % with the item, 28/60 = 46.7 % without; pooled 60 %:
    # z = (0.8 − 0.4667) / sqrt(0.6 · 0.4 · (1/40 + 1/60)) = 0.3333 / 0.1 = 3.333
    assert (top["item"], top["seat"], top["games"]) == ("x", 0, 40)
    assert top["when"]["rate"] == 0.8 and top["otherwise"]["rate"] == 0.4667
    assert top["z"] == pytest.approx(3.333, abs=1e-3)
    assert (top["when"]["low"], top["when"]["high"]) == pytest.approx(wilson(0.8, 40), abs=1e-4)
    assert second["item"] == "y" and second["z"] == 0.0


def test_holm_adjusts_p_values_as_published() -> None:
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives 0.03 0.06 0.06 0.02
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0] and holm([]) == []


def test_an_outlier_carries_its_p_value_before_and_after_the_correction() -> None:
    (top, second) = outliers(hand_tally())
    # two ranked items at two seats: four comparisons; p(|z| = 3.333) = 0.000858, times 4 = 0.00343
    assert top["comparisons"] == 4
    assert top["p"] == pytest.approx(math.erfc(3.333 / math.sqrt(2)), rel=1e-3)
    assert top["p_holm"] == pytest.approx(4 * top["p"], rel=1e-3) and top["significant"]
    assert (second["p"], second["p_holm"], second["significant"]) == (1.0, 1.0, False)
    assert "p = 0.00086, 0.0034 after correcting for 4 comparisons: significant" in outlier_text(top)


def test_items_that_change_nothing_are_not_called_significant() -> None:
    """200 items dealt into games at random, whatever the winner: the largest of 400 z scores passes 2 by chance,
    and the correction says so."""
    rng = random.Random(3)
    games = 1000
    winners = [rng.random() < 0.5 for _ in range(games)]
    tally = Tally(2, games=games, wins=[2 * sum(winners), 2 * (games - sum(winners))])
    for n in range(200):
        present = [g for g in range(games) if rng.random() < 0.3]
        seat0 = sum(winners[g] for g in present)
        tally.items["played"][f"card-{n}"] = [len(present), 2 * seat0, 2 * (len(present) - seat0)]
    ranked = outliers(tally)
    assert abs(ranked[0]["z"]) > 2.5 and ranked[0]["comparisons"] == 400
    assert not any(row["significant"] for row in ranked)


def test_win_shares_histograms_and_agents_from_a_tally() -> None:
    figures = run_figures(hand_tally(), ["greedy", "random"])
    assert [s["rate"] for s in figures["seats"]] == [0.6, 0.4]
    assert [(a["name"], a["trials"], a["wins"]) for a in figures["agents"]] == [
        ("greedy", 100, 60),
        ("random", 100, 40),
    ]
    tally = Tally(2, games=4, turns=Counter({3: 1, 4: 2, 60: 1}))
    turns = run_figures(tally, ["random"])["length"]["turns"]
    assert (turns["start"], turns["width"], sum(turns["counts"]), turns["mean"]) == (3, 3, 4, 17.75)
    assert turns["counts"][0] == 3 and turns["counts"][-1] == 1


def test_tallies_of_batches_merge_in_any_order_to_the_whole_and_survive_json() -> None:
    spec = PlaySpec("scifi-domains", DATA, 3, 5, ("random",))
    results = [play_game(spec, i) for i in range(9)]
    whole = tally_of(3, results)
    parts = [tally_of(3, results[i : i + 4]) for i in (8, 0, 4)]
    merged = Tally(3)
    for part in parts:
        merged.merge(Tally.from_json(json.loads(json.dumps(part.as_json()))))
    assert merged.as_json() == whole.as_json()
    # the play summary is counted by the same tally: shared wins as shares, lengths, endings
    summary = summarise(spec, results, 1.0)
    assert summary["games"] == 9 and sum(v for k, v in summary["wins"].items() if k.startswith("seat")) == 9
    assert summary["length"]["turns"]["mean"] == round(sum(r.turns for r in results) / 9, 3)


# -- the reports, read back ------------------------------------------------------------------------------------------


class Page(HTMLParser):
    """Every table (by id: rows of cell texts), every tag, and the text of a page."""

    def __init__(self, text: str):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.tags: list[tuple[str, dict[str, str]]] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        found = {k: v or "" for k, v in attrs}
        self.tags.append((tag, found))
        if tag == "table":
            self._table = found.get("id", "")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("balance")
    run = run_cli(
        "balance",
        "battlefield-space",
        "--games",
        "40",
        "--batch",
        "8",
        "--seed",
        "3",
        "--agents",
        "random",
        "--out",
        out,
    )
    assert run.code == 0, run.err
    return out


def test_the_html_report_is_self_contained_and_shows_the_json_figures(reports: Path) -> None:
    figures = json.loads((reports / "balance.json").read_text())
    text = (reports / "balance.html").read_text()
    page = Page(text)
    (run,) = figures["runs"]
    rows = page.tables["seats-2p"][1:]
    assert [[r[0], r[4], r[5], r[6]] for r in rows] == [
        [s["name"], percent(s["rate"]), interval(s), s["verdict"]] for s in run["seats"]
    ]
    assert sum(float(r[2]) for r in rows) == 40  # every game has one winner in Battlefield
    items = page.tables["items-2p"][1:]
    assert len(items) == len(run["items"]) and items[0][1] == run["items"][0]["item"]
    assert [r[1].split(": ")[0].split()[-1] for r in page.tables["outliers-2p"][1:]] == [
        o["item"] for o in run["outliers"]
    ]
    figures_shown = [a["id"] for tag, a in page.tags if tag == "figure"]
    assert figures_shown == ["plot-seat-2p", "plot-length-2p", "plot-outliers-2p"]
    assert text.count("<svg") == 3 and "<path" in text
    # offline: no scripts, style sheets, fonts or images from an address
    assert not [tag for tag, _ in page.tags if tag in ("script", "link", "img", "iframe")]
    assert not re.search(r"(src|href)=\"(https?:)?//", text) and "@import" not in text
    assert set(re.findall(r"url\((.)", text)) == {"#"}  # only the plots' own clip paths
    produced = dict(r for r in page.tables["produced"][1:])
    assert produced["seed"] == "3" and produced["to reproduce"] == figures["produced"]["command"]
    assert "time taken" in dict(r for r in page.tables["timing"][1:])
    assert "time" not in json.dumps(figures["produced"])  # the JSON carries no timing: it compares byte for byte


def test_the_pdf_report_says_the_same_and_its_first_page_is_drawn(reports: Path, tmp_path: Path) -> None:
    import pypdfium2
    from pypdf import PdfReader

    figures = json.loads((reports / "balance.json").read_text())
    reader = PdfReader(reports / "balance.pdf")
    text = " ".join(page.extract_text() for page in reader.pages)
    assert len(reader.pages) >= 3 and "Balance of Battlefield: Space" in text
    for seat in figures["runs"][0]["seats"]:
        assert percent(seat["rate"]) in text and interval(seat) in text
    assert "Outliers" in text and figures["produced"]["data"] in text
    image = pypdfium2.PdfDocument(reports / "balance.pdf")[0].render(scale=1).to_pil().convert("L")
    dark = sum(image.histogram()[:128])
    assert dark > 0.01 * image.width * image.height  # text, tables and the seat plot, not a blank page


def test_the_report_opens_in_a_headless_browser_without_errors(reports: Path, browser) -> None:
    browser.get((reports / "balance.html").as_uri())
    assert browser.title == "Balance of Battlefield: Space"
    sizes = browser.execute_script(
        "return [...document.querySelectorAll('figure svg')].map(s => s.getBoundingClientRect().width)"
    )
    assert len(sizes) == 3 and all(width > 300 for width in sizes)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.parametrize(
    ("game", "args"),
    [("star-commander", ["--games", "2"]), ("scifi-domains", ["--games", "6", "--players", "3..4"])],
)
def test_every_engine_gets_both_reports(game: str, args: list[str], tmp_path: Path) -> None:
    run = run_cli("balance", game, *args, "--agents", "random", "--out", tmp_path)
    assert run.code == 0, run.err
    figures = json.loads((tmp_path / "balance.json").read_text())
    html = (tmp_path / "balance.html").read_text()
    for players in figures["produced"]["players"]:
        assert f'id="seats-{players}p"' in html and f"results-{players}p.jsonl" in {p.name for p in tmp_path.iterdir()}
    assert (tmp_path / "balance.pdf").read_bytes().startswith(b"%PDF")
    kinds = {item["kind"] for run in figures["runs"] for item in run["items"]}
    assert kinds == ({"played", "applied"} if game == "star-commander" else {"applied"})


def test_space_empires_reports_its_events_as_items_and_groups(tmp_path: Path) -> None:
    copy = copy_game("space-empires-4x", tmp_path)
    copy.edit("rules.yaml", "  turn_cap:\n    value: 20", "  turn_cap:\n    value: 2")
    run = run_cli(
        "--data-dir",
        copy.data,
        "balance",
        "space-empires-4x",
        "--games",
        "2",
        "--agents",
        "random",
        "--out",
        tmp_path / "out",
    )
    assert run.code == 0, run.err
    written = json.loads((tmp_path / "out" / "balance.json").read_text())
    (figures,) = written["runs"]
    events = {item["item"] for item in figures["items"] if item["kind"] == "events"}
    assert any(e.startswith("build:") for e in events) and any(e.startswith("marker:") for e in events)
    assert {group["item"] for group in figures["groups"]} >= {"events:build", "events:marker"}
    assert any(" never " in p for p in figures["data_problems"])  # two games: much never happens, and it says how much
    assert "may still happen in up to 77.6% of games" in (tmp_path / "out" / "balance.html").read_text()
    # the report's own "to reproduce" line, run again, gives the same report
    command = shlex.split(written["produced"]["command"])
    assert command[:3] == ["cardgen", "--data-dir", str(copy.data)]
    assert run_cli(*command[1:], "--out", tmp_path / "again").code == 0
    assert (tmp_path / "again" / "balance.json").read_bytes() == (tmp_path / "out" / "balance.json").read_bytes()


def test_rift_domination_reports_each_factions_win_rate(tmp_path: Path) -> None:
    run = run_cli(
        "balance", "rift-domination", "--games", "30", "--players", "2", "--agents", "random", "--out", tmp_path
    )
    assert run.code == 0, run.err
    (figures,) = json.loads((tmp_path / "balance.json").read_text())["runs"]
    events = {item["item"]: item["games"] for item in figures["items"] if item["kind"] == "events"}
    sides = {side["name"]: side for side in figures["sides"]}
    assert sum(side["trials"] for side in sides.values()) == 2 * 30  # every game deals two factions
    for name, side in sides.items():  # the table reads the engine's events, game by game
        assert side["trials"] == events[f"faction:{name}"] and side["wins"] == events.get(f"won:{name}", 0)
    assert sum(side["wins"] for side in sides.values()) >= 30
    html = (tmp_path / "balance.html").read_text()
    assert 'id="sides-2p"' in html and all(name in html for name in sides)


# -- nothing lost: interrupted and resumed sweeps --------------------------------------------------------------------


def sweep_of(games: int = 24, batch: int = 4) -> Sweep:
    return Sweep(PlaySpec("scifi-domains", DATA, 2, 9, ("random", "greedy")), games, batch)


def play(
    sweep: Sweep, results: Path, resume: bool, stop_after: int | None = None, arrived: list[int] | None = None
) -> Tally:
    """A sweep kept in `results`; `arrived` receives the games already kept, then each batch's games as it comes."""
    journal, kept = open_journal(results, sweep.identity(data_fingerprint("scifi-domains", DATA)), resume)
    arrived = [] if arrived is None else arrived

    def progress(games: int) -> None:
        arrived.append(games)
        if stop_after is not None and len(arrived) > stop_after:  # the first call counts the games already kept
            raise KeyboardInterrupt

    try:
        return run_sweep(sweep, LOCAL, journal, kept, progress)
    finally:
        journal.close()


def test_an_interrupted_sweep_resumes_to_the_uninterrupted_tally(tmp_path: Path) -> None:
    whole = play(sweep_of(), tmp_path / "whole.jsonl", resume=False).as_json()
    results = tmp_path / "results.jsonl"
    with pytest.raises(KeyboardInterrupt):
        play(sweep_of(), results, resume=False, stop_after=2)
    assert len(results.read_text().splitlines()) == 1 + 2  # the header and the two batches that finished
    with pytest.raises(KeyboardInterrupt):
        play(sweep_of(), results, resume=True, stop_after=1)
    assert len(results.read_text().splitlines()) == 1 + 3
    arrived: list[int] = []
    assert play(sweep_of(), results, resume=True, arrived=arrived).as_json() == whole
    assert arrived == [12, 4, 4, 4]  # the three batches kept are not played again


def test_a_torn_or_damaged_line_is_dropped_and_its_games_played_again(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    whole = play(sweep_of(), results, resume=False).as_json()
    lines = results.read_bytes().splitlines(keepends=True)
    wins = re.search(rb'"wins":\[(\d+)', lines[2])
    assert wins and b'"games":[4,8]' in lines[2]
    damaged = lines[2][: wins.start(1)] + str(int(wins[1]) + 2).encode() + lines[2][wins.end(1) :]  # two wins more
    results.write_bytes(b"".join([*lines[:2], damaged, *lines[3:-1], lines[-1][:40]]))  # and a torn last line
    arrived: list[int] = []
    assert play(sweep_of(), results, resume=True, arrived=arrived).as_json() == whole
    assert arrived == [16, 4, 4]  # the damaged and the torn batch are played again, the four others are not
    assert all(line.endswith(b"\n") for line in results.read_bytes().splitlines(keepends=True))
    assert kept_games(results) == 24  # the batch written after the torn line is on a line of its own


def _three_players(tally: dict) -> None:
    tally |= {"players": 3, "wins": [2, 1, 1]}
    for kind in ("items", "seat_items"):
        for rows in tally[kind].values():
            for item, row in rows.items():
                rows[item] = row + [0] * (1 if kind == "items" else 2)


@pytest.mark.parametrize(
    ("forge", "problem"),
    [
        (lambda t: t.update(wins=[400, 0]), "the seats won 200, 0 of 4 games"),  # was a TypeError (a complex root)
        (_three_players, "a tally of 3 players in a sweep of 2"),  # was a ValueError merging the tallies
        (lambda t: t.update(games=40), "a tally of 40 games for games 4–7"),
        (lambda t: t.update(turns={"3": -4}), "a negative count"),
        (
            lambda t: t["items"]["applied"].update({"x": [9, 0]}),
            "applied 'x' has 2 counts, not the 3 of a 2-player tally",
        ),
    ],
)
def test_a_forged_batch_is_refused_with_its_line(tmp_path: Path, forge, problem: str) -> None:
    """A line whose checksum holds but which no sweep of the file's header could have written (someone edited it and
    its checksum) is named by its line, not counted as played games or taken for a crash."""
    from cardgen.balance.journal import canonical, checksum
    from cardgen.errors import DataError

    results = tmp_path / "results.jsonl"
    play(sweep_of(games=12), results, resume=False)
    lines = results.read_text().splitlines()
    record = json.loads(lines[2])  # games 4–7
    del record["sha256"]
    forge(record["tally"])
    lines[2] = canonical({**record, "sha256": checksum(record)})
    results.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError) as refused:
        play(sweep_of(games=12), results, resume=True)
    assert refused.value.lines() == [
        f"{results}:3: not a batch this sweep could have played ({problem}): remove the line or the file, or run "
        "without --resume"
    ]


def test_a_line_with_a_number_of_thousands_of_digits_is_dropped_as_damaged(tmp_path: Path) -> None:
    """JSON reads numbers with int(), which refuses more than 4,300 digits: such a line (no checksum can be made of
    it) is a damaged line, dropped and its games played again, like a torn one."""
    results = tmp_path / "results.jsonl"
    play(sweep_of(games=8), results, resume=False)
    with results.open("a") as handle:
        handle.write('{"games": [8, %s], "tally": {}, "sha256": "0"}\n' % ("9" * 5000))
    journal, kept = open_journal(results, sweep_of(games=8).identity(data_fingerprint("scifi-domains", DATA)), True)
    journal.close()
    assert (sorted(kept.tallies), kept.dropped, kept_games(results)) == ([(0, 4), (4, 8)], 1, 8)


def test_a_longer_sweep_reuses_the_batches_of_a_shorter_one(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    play(sweep_of(games=10), results, resume=False)  # batches 0–3, 4–7, 8–9
    assert (
        play(sweep_of(games=24), results, resume=True).as_json()
        == play(sweep_of(games=24), tmp_path / "fresh.jsonl", resume=False).as_json()
    )


def test_ctrl_c_keeps_what_finished_and_resume_gives_the_same_report(tmp_path: Path) -> None:
    # enough games that the sweep cannot end between a look at its results and the signal (compiled, a batch of
    # two takes a few milliseconds)
    args = ["balance", "scifi-domains", "--games", "120", "--batch", "2", "--agents", "greedy,random"]
    out = tmp_path / "resumed"
    results = report.results_file(out, 2)
    with subprocess.Popen([sys.executable, "-m", "cardgen", *args, "--out", str(out)], stderr=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, text=True) as child:  # fmt: skip
        deadline = time.monotonic() + 60
        while not (results.exists() and len(results.read_bytes().splitlines()) >= 4) and time.monotonic() < deadline:
            time.sleep(0.02)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    kept = len(results.read_bytes().splitlines()) - 1
    assert child.returncode == 130, err
    assert f"interrupted; kept {2 * kept} of 120 games at 2 players" in err and "--resume" in err
    assert 3 <= kept < 60 and not (out / "balance.json").exists()
    settings = report.Settings("scifi-domains", DATA, (2,), 120, ("greedy", "random"), 1, 2)
    resumed = report.as_json(report.play(settings, LOCAL, out, resume=True))  # what `--resume` runs, minus drawing
    assert resumed == uninterrupted(tmp_path, 120, 2, ("greedy", "random"))


def uninterrupted(folder: Path, games: int, batch: int, agents: tuple[str, ...], seed: int = 1) -> bytes:
    """The balance.json of a sweep of scifi-domains at 2 players played in one go in this process."""
    settings = report.Settings("scifi-domains", DATA, (2,), games, agents, seed, batch)
    return report.as_json(report.play(settings, LOCAL, folder / f"whole-{seed}", resume=False))


# -- bad input: one line, no traceback, nothing written --------------------------------------------------------------


def run_main(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """`cardgen ARGS` through the console entry point (which renders every error as one line), in this process."""
    from cardgen.cli import main

    monkeypatch.setattr(sys, "argv", ["cardgen", *args])
    with pytest.raises(SystemExit) as stopped:
        main()
    return int(stopped.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["balance", "battlefield-spac"], "unknown game 'battlefield-spac'"),
        (["balance", "battlefield-space", "--players", "3"], "battlefield-space is for 2–2 players"),
        (["balance", "battlefield-space", "--players", "2..x"], "is not a player count"),
        (["balance", "battlefield-space", "--compare", "missing.json"], "--compare missing.json: cannot read"),
        (["balance", "battlefield-space", "--compare", "notes.txt"], "--compare notes.txt: not JSON"),
        (["balance", "battlefield-space", "--agents", "wizard"], "wizard"),
        (["balance", "battlefield-space", "--executor", "processes", "--scheduler", "tcp://x:9"], "needs --executor"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    args: list[str], message: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("notes.txt").write_text("not a report")
    code, err = run_main(monkeypatch, capsys, *args, "--out", "out")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and message in lines[0] and lines[0].startswith("cardgen: error: ")
    assert not Path("out").exists() or not list(Path("out").glob("balance.*"))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda run: run["seats"][0].update(rate=5.0), "runs[0].seats[0].rate: 5.0 is not a share from 0 to 1"),
        (lambda run: run["seats"][1].update(low=-1), "runs[0].seats[1].low: -1 is not a share from 0 to 1"),
        (lambda run: run["seats"][0].update(trials="many"), 'runs[0].seats[0].trials: "many" is not a count of games'),
        (lambda run: run["items"][0]["seats"][1]["when"].update(rate=float("nan")), "when.rate: NaN is not a share"),
        (lambda run: run.update(items={}), "runs[0]: 'items' is not a list of objects (a damaged balance report)"),
    ],
)
def test_a_comparison_with_impossible_rates_is_refused_before_playing(
    tmp_path: Path, monkeypatch, capsys, edit, message: str
) -> None:
    """An earlier report someone edited (a rate of 5.0 broke a square root: an internal error after every game was
    played) is refused by the field at fault before a game is played."""
    monkeypatch.chdir(tmp_path)
    old = json.loads(uninterrupted(tmp_path, 4, 4, ("random",)))
    edit(old["runs"][0])
    Path("old.json").write_text(json.dumps(old))
    code, err = run_main(monkeypatch, capsys, "balance", "scifi-domains", "--games", "4", "--compare", "old.json")
    assert code == 2 and err.startswith("cardgen: error: --compare old.json: ") and message in err, err
    assert err.count("\n") == 1 and not Path("output").exists()


def test_a_game_without_an_engine_is_refused(tmp_path: Path) -> None:
    copy = copy_game("demo", tmp_path, FIXTURES / "card_data")  # the demo game under an id no engine plays
    copy.edit("game.yaml", "id: demo", "id: plain")
    copy.folder.rename(copy.data / "plain")
    run = run_cli("--data-dir", copy.data, "balance", "plain", "--out", tmp_path / "out")
    assert run.code == 2 and "no reference engine for 'plain'" in run.err and not (tmp_path / "out").exists()


def test_resuming_another_sweeps_results_is_refused(tmp_path: Path) -> None:
    assert run_cli("balance", "scifi-domains", "--games", "4", "--agents", "random", "--out", tmp_path).code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    run = run_cli(
        "balance", "scifi-domains", "--games", "4", "--seed", "2", "--agents", "random", "--out", tmp_path, "--resume"
    )
    assert run.code == 2 and "holds another sweep (its seed differ)" in run.err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_comparison_shows_both_runs_figures(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    (old / "balance.json").write_bytes(uninterrupted(tmp_path, 20, 20, ("random",)))
    args = ["balance", "scifi-domains", "--games", "20", "--seed", "2", "--agents", "random", "--out", new]
    run = run_cli(*args, "--compare", old / "balance.json")
    assert run.code == 0, run.err
    before = json.loads((old / "balance.json").read_text())["runs"][0]
    after = json.loads((new / "balance.json").read_text())
    seats = after["compare"]["runs"][0]["seats"]
    for change, was, now in zip(seats, before["seats"], after["runs"][0]["seats"], strict=True):
        assert (change["before"]["rate"], change["after"]["rate"]) == (was["rate"], now["rate"])
        assert change["points"] == pytest.approx((now["rate"] - was["rate"]) * 100, abs=0.01)
    rows = Page((new / "balance.html").read_text()).tables["compare-seats-2p"][1:]
    assert [r[1] for r in rows] == [f"{percent(s['rate'])} ({interval(s)})" for s in before["seats"]]
    items = Page((new / "balance.html").read_text()).tables["compare-items-2p"][1:]
    changes = after["compare"]["runs"][0]["items"]
    assert len(items) == len(changes) > 0
    # every card at both seats is one comparison; each change's p value is corrected for all of them (Holm)
    assert {c["seat"]["comparisons"] for c in changes} == {2 * len(changes)}
    for change, row in zip(changes, items, strict=True):
        p = math.erfc(abs(change["seat"]["z"]) / math.sqrt(2))
        assert p - 1e-3 <= change["seat"]["p_holm"] <= min(1.0, 2 * len(changes) * p) + 1e-3
        assert row[-1].startswith(f"{change['seat']['p_holm']:.2g}")
    top = changes[0]["seat"]  # the largest |z| of all: Holm multiplies its p value by every comparison made
    smallest = math.erfc(abs(top["z"]) / math.sqrt(2))
    assert top["p_holm"] == pytest.approx(min(1.0, 2 * len(changes) * smallest), rel=1e-3, abs=1e-4)
    assert not any(c["seat"]["significant"] for c in changes)  # 20 random games against 20 others: no real change


def test_a_worker_that_read_other_game_data_stops_the_sweep(tmp_path: Path, monkeypatch) -> None:
    from cardgen.balance import sweep as sweeps
    from cardgen.errors import DataError

    played = sweeps.play_batch
    monkeypatch.setattr(sweeps, "play_batch", lambda spec, games, groups: ("0" * 64, played(spec, games, groups)[1]))
    with pytest.raises(DataError, match="a worker read other game data than this machine"):
        play(sweep_of(), tmp_path / "results.jsonl", resume=False)
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 1  # nothing kept from such a worker


def test_resuming_a_file_that_is_not_a_results_file_is_refused(tmp_path: Path) -> None:
    report.results_file(tmp_path, 2).write_text('{"sweep": "something else"}\n')
    run = run_cli("balance", "scifi-domains", "--games", "4", "--agents", "random", "--out", tmp_path, "--resume")
    assert run.code == 2 and "not a cardgen balance results file" in run.err
    assert not (tmp_path / "balance.json").exists()


def test_the_plots_come_with_the_plain_install_and_a_damaged_one_is_told_so(monkeypatch, capsys, tmp_path: Path):
    """`cardgen balance` works after the README's first command: matplotlib is a dependency, Dask alone the
    cluster extra; an install missing it is told to reinstall, not sent to an extra."""
    import importlib.util
    import tomllib

    from conftest import REPO

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("matplotlib") for d in project["dependencies"])
    assert not any(d.startswith("matplotlib") for d in project["optional-dependencies"]["cluster"])
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    monkeypatch.chdir(tmp_path)
    code, err = run_main(monkeypatch, capsys, "balance", "scifi-domains")
    assert code == 2 and err.strip() == (
        "cardgen: error: cardgen balance draws its plots with matplotlib, which is not installed: reinstall cardgen"
    )


def test_agents_in_turn_are_judged_where_they_sat_and_the_report_says_so(tmp_path: Path) -> None:
    turning = json.loads(uninterrupted(tmp_path, 12, 4, ("greedy", "random")))
    (run,) = turning["runs"]
    assert turning["produced"]["seats"] == "rotate" and "--seats rotate" in turning["produced"]["command"]
    assert [s["agent"] for s in run["seats"]] == ["each in turn", "each in turn"]
    assert [(a["name"], a["seats"], a["trials"]) for a in run["agents"]] == [
        ("greedy", [0, 1], 12),
        ("random", [0, 1], 12),
    ]
    assert sum(a["wins"] for a in run["agents"]) == pytest.approx(sum(s["wins"] for s in run["seats"]))
    settings = report.Settings("scifi-domains", DATA, (2,), 12, ("greedy", "random"), 1, 4, rotate=False)
    fixed = json.loads(report.as_json(report.play(settings, LOCAL, tmp_path / "fixed", resume=False)))
    (run,) = fixed["runs"]
    assert [s["agent"] for s in run["seats"]] == ["greedy", "random"] and fixed["produced"]["seats"] == "fixed"
    assert [(a["seats"], a["wins"]) for a in run["agents"]] == [
        ([0], run["seats"][0]["wins"]),
        ([1], run["seats"][1]["wins"]),
    ]


def test_a_card_counts_for_the_seat_it_belongs_to() -> None:
    """Battlefield deals each seat its own deck: an ability counts for its card's owner, whoever's move set it off;
    in a game of shared cards (Star Commander) a card counts for the seat whose action it happened in."""
    from cardgen.engine.runner import engine_for

    spec = PlaySpec("battlefield-space", DATA, 2, 3, ("random",))
    engine = engine_for("battlefield-space", DATA)
    for result in play_many(spec, 6):
        mine = result.by_seat["applied"]
        assert all(engine.item_seat(item) == seat for seat, items in enumerate(mine) for item in items)
        assert sorted(item for items in mine for item in items) == result.applied  # each once, none lost
    shared = PlaySpec("star-commander", DATA, 2, 4, ("random",))
    for result in play_many(shared, 2):
        for kind in ("played", "applied"):
            attributed = [item for items in result.by_seat[kind] for item in items]
            assert sorted(attributed) == getattr(result, kind) and len(set(attributed)) == len(attributed)


def test_a_seats_win_rate_with_a_card_counts_the_games_it_played_the_card() -> None:
    tally = hand_tally()  # 100 games, seat 0 winning 60
    tally.seat_items["played"]["x"] = [30, 10, 48, 2]  # seat 0 had x in 30 games (won 24), seat 1 in 10 (won 1)
    (row,) = [r for r in items(tally, ("played",)) if r["item"] == "x"]
    zero, one = row["seats"]
    assert (zero["when"]["trials"], zero["when"]["rate"]) == (30, 0.8)
    assert (zero["otherwise"]["trials"], zero["otherwise"]["rate"]) == (70, 0.5143)  # (60 − 24) / 70
    assert (one["when"]["trials"], one["when"]["rate"]) == (10, 0.1)
    assert row["games"] == 40  # the games it occurred in at all stay as they were


def test_the_report_pdf_is_drawn_after_reportlab_forgot_its_fonts() -> None:
    """`cardgen watch` resets reportlab's font registry (`fonts.forget`); a balance report drawn after it in the same
    process registers its fonts again (it kept them registered once per process, and failed with a KeyError)."""
    from cardgen.balance import pdf
    from cardgen.balance.document import Section
    from cardgen.render import fonts

    assert pdf.render("before", [Section("one", [])]).startswith(b"%PDF")
    fonts.forget()
    assert pdf.render("after", [Section("one", [])]).startswith(b"%PDF")
