"""What a run of games adds up to, kept as exact counts that merge in any order.

A `Tally` holds everything `cardgen play`'s summary and `cardgen balance`'s report read: wins per seat, the games'
lengths as counts per value, endings, problems, violations, and for every card played, ability applied and event
seen, the games it occurred in and each seat's wins in those games. Shared wins are counted in whole units of
1/lcm(1…players) of a game, so sums are integers: tallies of batches merged in any order, on any number of
processes or machines, give the same tally, and a million games need no more memory than a hundred. A tally
round-trips through JSON (`as_json`, `from_json`), which is how batches travel from a worker and into a results file.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardgen.engine.core import GameEngine

if TYPE_CHECKING:
    from cardgen.engine.runner import GameResult, PlaySpec

FAILED = ("too long", "stuck")
EXAMPLES = 5  # violations kept word for word; the rest are counted by kind
# GameResult's per-game sets of what happened, and the groups they fall in (a card's component, an event's kind)
ITEM_KINDS = ("played", "applied", "events", "groups")


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion observed over n trials (95 % by default)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((share * (1 - share) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def win_unit(players: int) -> int:
    """How many units make one game's win: every share 1/k (k winners of `players`) is a whole number of them."""
    return math.lcm(*range(1, players + 1))


@dataclass
class Tally:
    """The counts of a run of games at one player count (see the module docstring)."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)  # per seat, in win units
    turns: Counter[int] = field(default_factory=Counter)  # games per number of turns
    actions: Counter[int] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    winner_sets: Counter[str] = field(default_factory=Counter)  # "0,1" → games won by exactly seats 0 and 1
    unended: int = 0  # games that reached the turn cap or failed
    first_games: int = 0  # games with a chosen first player and a winner
    first_wins: int = 0  # the first player's wins in them, in win units
    problems: Counter[str] = field(default_factory=Counter)
    violations: int = 0
    violation_kinds: Counter[str] = field(default_factory=Counter)
    examples: list[tuple[int, str]] = field(default_factory=list)  # (game index, violation), first games first
    items: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # kind → item → [games, wins per seat…]
    # kind → item → [games in which seat s had it, for each seat…, seat s's wins in those games, for each seat…]:
    # an item belongs to the seat whose action it first happened in (`loop.Attribution`)
    seat_items: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    agent_seats: Counter[str] = field(default_factory=Counter)  # seats each agent played (a game's seats count apart)
    agent_wins: Counter[str] = field(default_factory=Counter)  # their wins, in win units
    short: int = 0  # games that ended by the rules too soon (`GameEngine.short_game`)
    short_within: str = ""  # how soon: "within 3 rounds"
    short_examples: list[tuple[int, int]] = field(default_factory=list)  # (game index, turns), first games first

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        for kind in ITEM_KINDS:
            self.items.setdefault(kind, {})
            self.seat_items.setdefault(kind, {})

    @property
    def unit(self) -> int:
        return win_unit(self.players)

    def add(self, result: GameResult, group_of: Mapping[str, str] | None = None) -> None:
        """Count one finished game; `group_of` names the group of each card (its component), and an event's group
        is what comes before its colon ('build' of 'build:DD')."""
        unit = self.unit
        share = unit // len(result.winners) if result.winners else 0
        self.games += 1
        for seat in result.winners:
            self.wins[seat] += share
        for seat, agent in enumerate(result.agents):
            self.agent_seats[agent] += 1
            self.agent_wins[agent] += share if seat in result.winners else 0
        self.turns[result.turns] += 1
        self.actions[result.actions] += 1
        self.endings[result.ending] += 1
        self.winner_sets[",".join(map(str, result.winners))] += 1
        self.unended += result.ending in (*FAILED, GameEngine.ADJUDICATED)
        if result.first is not None and result.winners:
            self.first_games += 1
            self.first_wins += share if result.first in result.winners else 0
        self.problems.update(result.problems)
        if result.short:
            self.short += 1
            self.short_within = result.short
            self.short_examples = sorted([*self.short_examples, (result.index, result.turns)])[:EXAMPLES]
        self.violations += len(result.violations)
        self.violation_kinds.update(violation_kind(v) for v in result.violations)
        room = EXAMPLES - len(self.examples)
        self.examples += [(result.index, v) for v in result.violations[: max(0, room)]]
        groups = _groups(result.played, result.applied, result.events, group_of)
        present = (result.played, result.applied, result.events, groups)
        for kind, items in zip(ITEM_KINDS, present, strict=True):
            table = self.items[kind]
            for item in set(items):
                row = table.setdefault(item, [0] * (self.players + 1))
                row[0] += 1
                for seat in result.winners:
                    row[1 + seat] += share
        n = self.players
        for seat, mine in enumerate(_seat_items(result, group_of, n)):
            won = share if seat in result.winners else 0
            for kind, items in zip(ITEM_KINDS, mine, strict=True):
                table = self.seat_items[kind]
                for item in items:
                    row = table.setdefault(item, [0] * (2 * n))
                    row[seat] += 1
                    row[n + seat] += won

    def merge(self, other: Tally) -> None:
        """Add another tally of the same player count (the order of merges never changes the outcome)."""
        if other.players != self.players:
            raise ValueError(f"cannot merge a tally of {other.players} players into one of {self.players}")
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        for counts, more in self._counters(other):
            counts.update(more)
        self.unended += other.unended
        self.first_games += other.first_games
        self.first_wins += other.first_wins
        self.violations += other.violations
        self.examples = sorted(self.examples + other.examples, key=lambda e: e[0])[:EXAMPLES]
        self.short += other.short
        self.short_within = self.short_within or other.short_within
        self.short_examples = sorted(self.short_examples + other.short_examples)[:EXAMPLES]
        for kind in ITEM_KINDS:
            table = self.items[kind]
            for item, row in other.items[kind].items():
                old = table.get(item, [0] * (self.players + 1))
                table[item] = [a + b for a, b in zip(old, row, strict=True)]
            seats = self.seat_items[kind]
            for item, row in other.seat_items[kind].items():
                old = seats.get(item, [0] * (2 * self.players))
                seats[item] = [a + b for a, b in zip(old, row, strict=True)]

    def _counters(self, other: Tally) -> list[tuple[Counter[Any], Counter[Any]]]:
        names = (
            "turns",
            "actions",
            "endings",
            "winner_sets",
            "problems",
            "violation_kinds",
            "agent_seats",
            "agent_wins",
        )
        return [(getattr(self, name), getattr(other, name)) for name in names]

    # -- JSON ----------------------------------------------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """Plain JSON values, keys sorted by the writer: the same tally always gives the same text."""
        return {
            "players": self.players,
            "games": self.games,
            "wins": self.wins,
            "turns": {str(k): v for k, v in sorted(self.turns.items())},
            "actions": {str(k): v for k, v in sorted(self.actions.items())},
            "endings": dict(self.endings),
            "winner_sets": dict(self.winner_sets),
            "unended": self.unended,
            "first": [self.first_games, self.first_wins],
            "problems": dict(self.problems),
            "violations": self.violations,
            "violation_kinds": dict(self.violation_kinds),
            "examples": [list(e) for e in self.examples],
            "items": self.items,
            "seat_items": self.seat_items,
            "agents": {"seats": dict(self.agent_seats), "wins": dict(self.agent_wins)},
            "short": [self.short, self.short_within, [list(e) for e in self.short_examples]],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        """The tally `as_json` wrote (a `KeyError`, `TypeError` or `ValueError` for anything else)."""
        first_games, first_wins = data["first"]
        tally = cls(
            players=int(data["players"]),
            games=int(data["games"]),
            wins=[int(w) for w in data["wins"]],
            turns=Counter({int(k): int(v) for k, v in data["turns"].items()}),
            actions=Counter({int(k): int(v) for k, v in data["actions"].items()}),
            endings=Counter(data["endings"]),
            winner_sets=Counter(data["winner_sets"]),
            unended=int(data["unended"]),
            first_games=int(first_games),
            first_wins=int(first_wins),
            problems=Counter(data["problems"]),
            violations=int(data["violations"]),
            violation_kinds=Counter(data["violation_kinds"]),
            examples=[(int(i), str(v)) for i, v in data["examples"]],
            items={kind: _item_rows(data["items"][kind]) for kind in ITEM_KINDS},
            seat_items={kind: _item_rows(data["seat_items"][kind]) for kind in ITEM_KINDS},
            agent_seats=Counter({str(k): int(v) for k, v in data["agents"]["seats"].items()}),
            agent_wins=Counter({str(k): int(v) for k, v in data["agents"]["wins"].items()}),
        )
        short, within, examples = data.get("short", [0, "", []])  # a tally kept before short games were counted
        tally.short, tally.short_within = int(short), str(within)
        tally.short_examples = [(int(i), int(t)) for i, t in examples]
        if len(tally.wins) != tally.players:
            raise ValueError(f"{len(tally.wins)} seats' wins for {tally.players} players")
        return tally

    def impossible(self) -> str | None:
        """What no run of `games` games could have counted (a tally read from a file someone edited), or None: the
        statistics read a tally as exact counts, and a share above one or a row of the wrong length breaks them."""
        n, unit, players = self.games, self.unit, self.players
        counters = {name: getattr(self, name) for name in ("turns", "actions", "endings", "winner_sets")}
        rows = [(kind, item, row, players + 1) for kind in ITEM_KINDS for item, row in self.items[kind].items()]
        rows += [(kind, item, row, 2 * players) for kind in ITEM_KINDS for item, row in self.seat_items[kind].items()]
        numbers = [n, *self.wins, self.unended, self.first_games, self.first_wins, self.violations]
        numbers += [v for c in (*counters.values(), self.agent_seats, self.agent_wins) for v in c.values()]
        if any(v < 0 for v in numbers + [v for *_, row, _ in rows for v in row]):
            return "a negative count"
        if any(w > n * unit for w in self.wins) or sum(self.wins) > n * unit:
            return f"the seats won {', '.join(f'{w / unit:g}' for w in self.wins)} of {n} games"
        for name, counts in counters.items():
            if sum(counts.values()) != n:
                return f"{name} count {sum(counts.values())} games, not {n}"
        if self.unended > n or self.first_games > n or self.first_wins > self.first_games * unit:
            return f"{self.unended} unended and {self.first_games} first-player games in {n} games"
        if sum(self.agent_seats.values()) != n * players or sum(self.agent_wins.values()) > n * unit:
            return f"agents' seats and wins {dict(self.agent_seats)}, {dict(self.agent_wins)} in {n} games"
        for kind, item, row, length in rows:
            if len(row) != length:
                return f"{kind} '{item}' has {len(row)} counts, not the {length} of a {players}-player tally"
            had = row[:1] * players if length == players + 1 else row[:players]
            if any(seen > n or won > seen * unit for seen, won in zip(had, row[len(row) - players :], strict=True)):
                return f"{kind} '{item}' counts {row} in {n} games"
        return None

    # -- the `cardgen play --json` summary ------------------------------------------------------------------------

    def summary(
        self,
        spec: PlaySpec,
        seconds: float,
        ability_cards: Iterable[str] = (),
        playable: Iterable[str] = (),
        engine_problems: Iterable[str] = (),
        event_problems: Callable[[Counter[str], int], list[str]] | None = None,
    ) -> dict[str, Any]:
        """The `cardgen play --json` object: everything but `actions_per_second` depends only on the seed."""
        n = self.games
        applied, played = set(self.items["applied"]), set(self.items["played"])
        data_problems = list(engine_problems)
        data_problems += [f"{text} (in {k} of {n} games)" for text, k in sorted(self.problems.items())]
        data_problems += [f"card '{card}': never played in {n} games" for card in sorted(set(playable) - played)]
        data_problems += [
            f"card '{card}': its ability never applied in {n} games"
            for card in sorted(set(ability_cards) - applied - (set(playable) - played))
        ]
        if event_problems is not None and n:
            data_problems += event_problems(Counter({e: row[0] for e, row in self.items["events"].items()}), n)
        data_problems += self.ending_problems()
        if self.short:
            index, turns = self.short_examples[0]
            data_problems.append(
                f"{self.short} of {n} games ended by the rules {self.short_within}: a rush the data allows "
                f"(the first: game {index}, {turns} turns; replay it with `cardgen play {spec.game_id} --players "
                f"{spec.players} --seed {spec.root_seed} --agents {','.join(spec.agents)} --games {index + 1} --log "
                f"games.jsonl`, the last game of the log)"
            )
        total_actions = sum(value * k for value, k in self.actions.items())
        return {
            "game": spec.game_id,
            "players": spec.players,
            "games": n,
            "seed": spec.root_seed,
            "agents": list(spec.agents),
            "seats": "rotate" if spec.rotate else "fixed",
            "wins": {k: round(v, 3) for k, v in sorted(self.wins_by_name(spec.agents).items())},
            "length": {"turns": _stats(self.turns), "actions": _stats(self.actions)},
            "endings": dict(sorted(self.endings.items())),
            "ended_by_rules": n - self.unended,
            "invariant_violations": self.violations,
            "violation_examples": [v for _, v in self.examples],
            "data_problems": data_problems,
            "actions_per_second": round(total_actions / seconds, 1) if seconds > 0 else None,
        }

    def wins_by_name(self, agents: Sequence[str]) -> dict[str, float]:
        """Games won per seat ('seat 0') and per agent ('agent greedy', wherever it sat), a shared win counting its
        share."""
        named = {f"seat {seat}": units / self.unit for seat, units in enumerate(self.wins) if units}
        for agent in dict.fromkeys(agents):
            if self.agent_wins[agent]:
                named[f"agent {agent}"] = self.agent_wins[agent] / self.unit
        return named

    def ending_problems(self) -> list[str]:
        """Games that never end by the rules, always end alike, or favour the first player beyond chance."""
        out: list[str] = []
        n, players = self.games, self.players
        if n == 0:
            return out
        if self.unended == n:
            out.append(f"no game ended by the rules at {players} players: all {n} reached the turn cap or failed")
        if n >= 20 and len(self.winner_sets) == 1 and self.unended < n and players > 1:  # solitaire always 'wins'
            (seats,) = self.winner_sets
            shown = [int(s) for s in seats.split(",")] if seats else []
            out.append(f"every game at {players} players ended alike: seats {shown} won all {n}")
        if self.first_games >= 30:
            share = self.first_wins / self.unit / self.first_games
            low, high = wilson(share, self.first_games)
            fair = 1 / players
            if not low <= fair <= high:
                side = "more" if share > fair else "less"
                out.append(
                    f"the first player wins {share:.0%} of {self.first_games} games (95% interval "
                    f"{low:.0%}–{high:.0%}), {side} than the {fair:.0%} of an even game"
                )
        return out


def tally_of(players: int, results: Iterable[GameResult], group_of: Mapping[str, str] | None = None) -> Tally:
    """The tally of finished games."""
    tally = Tally(players)
    for result in results:
        tally.add(result, group_of)
    return tally


def violation_kind(violation: str) -> str:
    """A violation without the game and action it happened at, so equal violations count together."""
    return re.sub(r"^game \d+( action \d+)?: ", "", violation)


def _seat_items(result: GameResult, group_of: Mapping[str, str] | None, players: int) -> list[tuple[set[str], ...]]:
    """Each seat's items of the game by kind (`ITEM_KINDS`), its groups as `Tally.add` reads a game's (`_groups`)."""
    out: list[tuple[set[str], ...]] = []
    for seat in range(players):
        played, applied, events = (set(result.by_seat[k][seat]) if k in result.by_seat else set()
                                   for k in ("played", "applied", "events"))  # fmt: skip
        out.append((played, applied, events, _groups(played, applied, events, group_of)))
    return out


def _groups(
    played: Iterable[str], applied: Iterable[str], events: Iterable[str], group_of: Mapping[str, str] | None
) -> set[str]:
    """The groups items fall in: a card's component ('played:red-deck'), an event's kind ('events:build')."""
    groups = {f"played:{group_of.get(c, '?')}" for c in played} if group_of else set()
    groups |= {f"applied:{group_of.get(c, '?')}" for c in applied} if group_of else set()
    return groups | {f"events:{event.partition(':')[0]}" for event in events}


def _item_rows(rows: Mapping[str, Any]) -> dict[str, list[int]]:
    return {str(item): [int(n) for n in row] for item, row in rows.items()}


def _stats(counts: Counter[int]) -> dict[str, float]:
    n = sum(counts.values())
    if not n:
        return {"mean": 0.0, "min": 0, "max": 0}
    return {"mean": round(sum(v * k for v, k in counts.items()) / n, 3), "min": min(counts), "max": max(counts)}


def unseen_note(games: int, problems: Iterable[str]) -> str | None:
    """A line to read after problems of things that never happened: how often each may still happen. With 0 of n
    games the 95 % upper bound of its rate is 1 − 0.05^(1/n), about 3/n (the rule of three)."""
    if not games or not any(" never " in problem for problem in problems):
        return None
    bound = 1 - 0.05 ** (1 / games)
    return (
        f"what never happened in {games} games may still happen in up to {bound:.1%} of games, at 95 % confidence: "
        "play more games to tell a rare card from a dead one"
    )
