"""Playing many games: one game per seed derived from the root seed and the game's index, run on any Executor.

`play_game` plays one complete game and returns a `GameResult` (and, on request, its log lines). `play_many` spreads
games over a `concurrent.futures.Executor` (a process pool by default; a distributed executor can replace it) in
fixed-size batches and aggregates the results in index order, so every figure but the timing is identical whatever
the number of processes.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.engine.agents import RandomAgent, make_agent
from cardgen.engine.core import GameEngine, IllegalAction, derive_seed
from cardgen.engine.loop import Attribution, Loop
from cardgen.engine.tally import tally_of, wilson

__all__ = ["GameResult", "PlaySpec", "play_game", "play_many", "replay", "summarise", "wilson", "write_log"]
from cardgen.errors import DataError, display_path
from cardgen.files import require_regular


@dataclass(frozen=True)
class PlaySpec:
    """Everything a worker needs to rebuild the engine and play games: picklable, no live objects."""

    game_id: str
    data_dir: str
    players: int
    root_seed: int
    agents: tuple[str, ...]
    check: bool = False
    log: bool = False
    rotate: bool = False  # seat the agents in turn (`seating`), so that an agent's win rate is not its seat's


def seating(spec: PlaySpec, index: int) -> list[str]:
    """The agent at each seat of game `index`: the line-up (`agents` repeated over the seats), moved on one seat a
    game when the spec rotates — over any `players` games in a row every agent sits at every seat of the line-up's
    as often as it appears in it."""
    lineup = [spec.agents[seat % len(spec.agents)] for seat in range(spec.players)]
    if not spec.rotate:
        return lineup
    shift = index % spec.players
    return lineup[shift:] + lineup[:shift]


@dataclass
class GameResult:
    """One finished (or failed) game."""

    index: int
    seed: int
    scores: list[float]
    winners: list[int]
    turns: int
    actions: int
    ending: str
    violations: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] | None = None
    played: list[str] = field(default_factory=list)
    first: int | None = None
    events: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)  # the agent at each seat (`seating`)
    # per kind ('played', 'applied', 'events'), the items that belong to each seat (`loop.Attribution`)
    by_seat: dict[str, list[list[str]]] = field(default_factory=dict)
    short: str = ""  # what the game was too short for (`GameEngine.short_game`): "within 3 rounds"
    # each seat's choices among two or more actions, the processor seconds its agent took over them (0 for a random
    # agent) and the whole game's (for benchmarks: times, so never part of a tally, a summary or a log)
    choices: list[int] = field(default_factory=list)
    thinking: list[float] = field(default_factory=list)
    seconds: float = 0.0


_ENGINES: dict[tuple[str, str], GameEngine] = {}


def engine_for(game_id: str, data_dir: str) -> GameEngine:
    """The engine of a game, built once per process from its data."""
    key = (game_id, data_dir)
    if key not in _ENGINES:
        from cardgen.data import load_games
        from cardgen.engine.registry import build_engine

        (game,) = load_games(Path(data_dir), [game_id])
        empty = [c.id for c in game.components if c.kind == "deck" and c.file is not None and c.count == 0]
        if empty:
            raise DataError(f"{game_id}: cannot play: the deck '{empty[0]}' has no cards")
        _ENGINES[key] = build_engine(game)
    return _ENGINES[key]


def play_game(spec: PlaySpec, index: int) -> GameResult:
    """Play game number `index` of a run to the end (or to the action bound)."""
    engine = engine_for(spec.game_id, spec.data_dir)
    clock = time.process_time()
    seed = derive_seed(spec.root_seed, index)
    state = engine.new_state(spec.players, seed)
    state.resolve_chance()
    agents = seating(spec, index)
    seats = [make_agent(name, engine, seat, seed) for seat, name in enumerate(agents)]
    log: list[dict[str, Any]] | None = [] if spec.log else None
    if log is not None:
        header = {"game": spec.game_id, "players": spec.players, "seed": seed, "index": index}
        header |= {"root_seed": spec.root_seed, "agents": agents, "chance": state.chance.events[:]}
        log.append(header)
    mine = Attribution(state, engine)
    # a random seat's thinking is not clocked (`Loop`): it stays 0
    loop = Loop(seats, [not isinstance(agent, RandomAgent) for agent in seats], mine, index, engine.max_actions, log,
                spec.check)  # fmt: skip
    actions, seen_chance = loop.play(state, len(state.chance.events))  # the setup's shuffles are in the header
    scores = engine.final_scores(state)
    short = ""
    if (limit := engine.short_game(spec.players)) is not None and state.turns <= limit[0]:
        by_rules = state.is_terminal() and state.ending != engine.ADJUDICATED  # a failed game is not terminal
        short = f"within {limit[1]}" if by_rules else ""
    mine.note(state, None)  # what ending the game made happen
    best = max(scores) if scores else 0
    winners = (
        [seat for seat, score in enumerate(scores) if score == best]
        if state.ending not in ("too long", "stuck")
        else []
    )
    if log is not None:
        log.append({"end": state.ending, "scores": scores, "turns": state.turns, "actions": actions,
                    "chance": state.chance.events[seen_chance:]})  # fmt: skip
    return GameResult(index, seed, scores, winners, state.turns, actions, state.ending or "unknown", loop.violations,
                      list(state.problems), sorted(state.applied), log, sorted(state.cards_played),
                      state.first_player, sorted(state.events), agents, mine.by_seat(spec.players),
                      short, loop.choices, loop.thinking, time.process_time() - clock)  # fmt: skip


def _batch(spec: PlaySpec, indices: list[int]) -> list[GameResult]:
    return [play_game(spec, i) for i in indices]


def play_many(spec: PlaySpec, games: int, executor: Executor | None = None, jobs: int = 1,
              progress: Callable[[int], None] | None = None, batch: int = 20,
              on_batch: Callable[[list[GameResult]], None] | None = None) -> list[GameResult]:  # fmt: skip
    """Play `games` games (indices 0…games−1) and return their results in index order. `on_batch` sees each batch
    as it arrives, in index order (the log writer streams and drops each game's log there, so thousands of logged
    games never sit in memory at once)."""
    chunks = [list(range(start, min(start + batch, games))) for start in range(0, games, batch)]
    results: list[GameResult] = []

    def arrived(done: list[GameResult]) -> None:
        if on_batch:
            on_batch(done)
        results.extend(done)
        if progress:
            progress(len(done))

    if jobs <= 1 and executor is None:
        for chunk in chunks:
            arrived(_batch(spec, chunk))
        return results
    own = executor is None
    pool = executor or ProcessPoolExecutor(max_workers=jobs)
    try:
        for done in pool.map(_batch, [spec] * len(chunks), chunks):  # map yields in the order of the chunks
            arrived(done)
    finally:
        if own:
            pool.shutdown()
    return sorted(results, key=lambda r: r.index)


def summarise(
    spec: PlaySpec,
    results: list[GameResult],
    seconds: float,
    ability_cards: Iterable[str] = (),
    playable: Iterable[str] = (),
    engine_problems: Iterable[str] = (),
    event_problems: Callable[[Counter[str], int], list[str]] | None = None,
) -> dict[str, Any]:
    """The `cardgen play --json` object: everything but `actions_per_second` depends only on the seed (counted by a
    `Tally`, which `cardgen balance` also merges batch by batch)."""
    summary = tally_of(spec.players, results).summary
    return summary(spec, seconds, ability_cards, playable, engine_problems, event_problems)


def write_log(path: Path, results: list[GameResult]) -> None:
    """All games' logs as JSON lines, game after game (written whole, like every output file)."""
    from cardgen.output import write_atomic

    write_atomic(path, log_lines(results))


def log_lines(results: Iterable[GameResult]) -> bytes:
    """The JSON lines of the games' logs."""
    lines = (json.dumps(line, separators=(",", ":")) for result in results for line in result.log or [])
    return "".join(f"{line}\n" for line in lines).encode("utf-8")


# What each kind of log line must carry, and of which type: a damaged log is named line by line, never a crash.
_HEADER = {"game": str, "players": int, "seed": int, "index": int}
_STEP = {"action": int, "n": int, "chance": list}
_END = {"end": (str, type(None)), "scores": list, "chance": list, "actions": int}


def replay(path: Path, data_dir: Path) -> list[tuple[int, bool, str]]:
    """Replay every game of a log: re-seed, re-apply each logged action, compare chance events and the end.

    A log that cannot be read (not JSON, a line missing a field, an unknown game) is a `DataError` naming the file
    and line; a readable log that does not reproduce is a game reported as differing, with the first difference.
    The log is read line by line and each game replayed as its lines are read (`_Replay`), so neither a log of
    thousands of games nor a game of a million actions sits in memory whole.
    """
    shown = display_path(path)
    require_regular(path)
    try:
        _check_utf8(path, shown)
        handle = path.open("rb")
    except OSError as exc:
        raise DataError(f"{shown}: cannot read ({exc.strerror})") from None
    outcomes: list[tuple[int, bool, str]] = []
    game: _Replay | None = None
    with handle:
        for number, data in enumerate(handle, 1):
            raw = data.decode("utf-8")  # checked whole by _check_utf8
            if not raw.strip():
                continue
            line = _parse_line(raw, shown, number)
            if "game" in line:
                _require(line, _HEADER, shown, number)
                if game is not None:
                    outcomes.append(game.outcome())
                game = _Replay(line, number, str(data_dir), shown)
            elif game is None:
                raise DataError(f"{shown}:{number}: a log must start with a game header line")
            else:
                _require(line, _END if "end" in line else _STEP, shown, number)
                game.step(line)
    if game is not None:
        outcomes.append(game.outcome())
    if not outcomes:
        raise DataError(f"{shown}: the log holds no game (write one with cardgen play --log)")
    return outcomes


def _check_utf8(path: Path, shown: str) -> None:
    """A log that is not UTF-8 text is refused as a whole before any line is read as JSON (read in 1 MB pieces)."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                raise DataError(
                    f"{shown}: not a game log: not UTF-8 text (byte {offset + exc.start}); save it as UTF-8"
                ) from None
            offset += len(chunk)
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise DataError(f"{shown}: not a game log: not UTF-8 text (byte {offset}); save it as UTF-8") from None


def _parse_line(raw: str, shown: str, number: int) -> dict[str, Any]:
    try:
        line = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise DataError(f"{shown}:{number}: not a JSON line ({getattr(exc, 'msg', 'nested too deeply')})") from None
    except ValueError:  # json reads numbers with int(), which refuses more than 4,300 digits
        raise DataError(f"{shown}:{number}: a number of more than 4,300 digits (no log holds one)") from None
    if not isinstance(line, dict):
        raise DataError(f"{shown}:{number}: not a log line (expected a JSON object, got {type(line).__name__})")
    return line


def _require(line: dict[str, Any], fields: dict[str, Any], shown: str, number: int) -> None:
    for name, kind in fields.items():
        if name not in line:
            raise DataError(f"{shown}:{number}: the line has no '{name}'")
        value = line[name]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise DataError(f"{shown}:{number}: '{name}' has the wrong type ({json.dumps(value)[:40]})")


class _Replay:
    """One logged game replayed line by line as the log is read: each step is applied and compared when it arrives
    and then dropped, so a game of a million actions takes the memory of one (`replay` held every line of a game
    before replaying it: 10^6 steps were gigabytes). After the first difference or the end line, the game's later
    lines are only checked for their form."""

    def __init__(self, header: dict[str, Any], number: int, data_dir: str, shown: str):
        self.index = header["index"]
        try:
            self.engine = engine_for(header["game"], data_dir)
        except DataError as exc:
            raise DataError(f"{shown}:{number}: {exc.problems[0]}") from None
        engine = self.engine
        if not engine.min_players <= header["players"] <= engine.max_players:
            raise DataError(
                f"{shown}:{number}: {header['players']} players, but {header['game']} is for "
                f"{engine.min_players}–{engine.max_players}"
            )
        self.state = engine.new_state(header["players"], header["seed"])
        self.state.resolve_chance()
        self.result: tuple[bool, str] | None = None
        if _jsonable(self.state.chance.events) != header.get("chance", []):
            self.result = False, "the setup's chance events (shuffles) differ from the log"
        self.seen = len(self.state.chance.events)

    def step(self, step: dict[str, Any]) -> None:
        """Apply one logged line (an action or the end) and compare; nothing once the game has an outcome."""
        if self.result is None:
            self.result = self._end(step) if "end" in step else self._action(step)

    def outcome(self) -> tuple[int, bool, str]:
        """(game index, reproduced, what was found) once the game's lines are all read."""
        ok, detail = self.result or (False, "the log has no end line")
        return self.index, ok, detail

    def _end(self, step: dict[str, Any]) -> tuple[bool, str]:
        state, engine = self.state, self.engine
        if _jsonable(state.chance.events[self.seen :]) != step["chance"]:
            return False, "chance events after the last action differ"
        scores = engine.final_scores(state)
        if scores != step["scores"] or state.ending != step["end"]:
            return False, f"ended {state.ending} {scores}, log says {step['end']} {step['scores']}"
        return True, f"{step['actions']} actions and their chance events match, scores {step['scores']}"

    def _action(self, step: dict[str, Any]) -> tuple[bool, str] | None:
        state = self.state
        legal = [] if state.is_terminal() else state.legal_actions()
        if not 0 <= step["action"] < len(legal):
            return False, f"action {step['n']}: no legal action number {step['action']} here"
        action = legal[step["action"]]
        if "label" in step and state.action_label(action) != step["label"]:
            return (
                False,
                f"action {step['n']}: the log says '{step['label']}', here it is '{state.action_label(action)}'",
            )
        try:
            state.apply(action)
        except IllegalAction as exc:
            return False, f"action {step['n']}: {exc}"
        if _jsonable(state.chance.events[self.seen :]) != step["chance"]:
            return False, f"action {step['n']}: chance events differ from the log"
        self.seen = len(state.chance.events)
        return None


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))
