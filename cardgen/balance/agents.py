"""Who plays a balance sweep, and how strong they are.

Balance read from agents that cannot play says little about a game: a faction that wins against random players may
lose against players who attack. So `cardgen balance` plays, by default, the strongest agent of the ladder — the
game's search agent at its default budget (`mcts`), then `greedy`, then `random` — whose estimated time fits the
time budget (`--minutes`), and measures the strength of the agents it used: each plays `greedy` and `random` at the
fewest players, the seats alternating, and the report gives its win share with a 95 % Wilson interval.

The estimate is the engine's `game_seconds` (processor seconds of one game at its fewest players, two for a game that
can be played alone, with every seat that agent, measured by benchmarks/agent_strength.py), in proportion to the square
of the players at each count (each seat plays, and the games run longer), on one process: more processes finish
sooner but never change the choice. It is a fixed figure, not a timing of this machine, so the same command chooses
the same agents anywhere, on any number of processes, and its report stays the same byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.engine.core import GameEngine

LADDER = ("mcts", "greedy", "random")  # strongest first
OPPONENTS = ("greedy", "random")  # what an agent's strength is measured against


@dataclass(frozen=True)
class Choice:
    """The agent a sweep plays and why: the agent, its estimated time for the whole run in seconds (None: not
    measured for this game) and the sentence the report prints."""

    agent: str
    seconds: float | None
    why: str


def estimate(engine: GameEngine, agent: str, counts: tuple[int, ...], games: int, strength: int) -> float | None:
    """Processor seconds the sweep and its strength games would take (on one process), or None where the game has no
    figure for the agent. Not divided by the processes asked for: the same command must play the same games on one
    process, two or a cluster."""
    per_game = engine.game_seconds.get(agent.partition(":")[0])
    if per_game is None:
        return None
    reference = max(2, engine.min_players)  # the player count `game_seconds` was measured at
    games_worth = sum((players / reference) ** 2 for players in counts) * games  # more seats, and longer games
    games_worth += len(strength_opponents(agent)) * strength / 2  # a strength game: one seat of two is the agent's
    return per_game * games_worth


def choose(engine: GameEngine, counts: tuple[int, ...], games: int, strength: int, minutes: float) -> Choice:
    """The strongest agent of the ladder whose estimate fits `minutes` (random always fits: it is the floor)."""
    budget = minutes * 60
    for agent in LADDER:
        seconds = estimate(engine, agent, counts, games, strength)
        if agent == "random" or (seconds is not None and seconds <= budget):
            shown = "" if seconds is None else f" (an estimated {_duration(seconds)} on one process)"
            stronger = LADDER[: LADDER.index(agent)]
            over = [a for a in stronger if (s := estimate(engine, a, counts, games, strength)) is not None
                    and s > budget]  # fmt: skip
            unknown = [a for a in stronger if estimate(engine, a, counts, games, strength) is None]
            if stronger and len(unknown) == len(stronger):
                why = f"{agent}: this game has no measured time for {' or '.join(unknown)} (name one with --agents)"
                return Choice(agent, seconds, why)
            why = f"{agent}, the strongest agent that fits {minutes:g} minutes{shown}"
            if over:
                why += f"; {', '.join(over)} would take longer"
            if unknown:
                why += f"; {', '.join(unknown)} not measured for this game"
            return Choice(agent, seconds, why)
    raise AssertionError("random always fits")  # pragma: no cover


def strength_opponents(agent: str) -> tuple[str, ...]:
    """The agents an agent's strength is measured against: greedy and random, less itself (random: none)."""
    return tuple(other for other in OPPONENTS if other != agent and agent != "random")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"
