"""The dice-battle chain over canonical positions: fixed phases carried forward, then the repeated round solved exactly.

A game supplies its positions (any hashable value, canonical: equal positions reached in different ways must be
equal, so each is computed once) and its rules as functions of a position: the fixed phases (each a distribution of
the positions it leads to), the steps of the round that repeats until the battle is over (the volleys in firing
order), when the battle is over and with which outcome, which side leaves before a round (the retreat policy), and
an order of damage left in which no position can lead to one before it.

`solve` carries the starting distribution through the fixed phases (volley by volley where a game gives a phase's
volleys), merging equal positions, then solves the
repeated round as an absorbing chain over (position, step due): positions are taken in the game's order, each once,
after every position that can lead to it; at a position the steps that change nothing form a loop back to the
round's start, summed in closed form (the round's start mass divided by the chance that the round changes
something); what changes goes on to later positions. The mass that ends the battle, per (position, outcome), the
expected number of phases and rounds, and the positions met are the result.

A chain with a `limit` stops with `TooManyStates` past it. The bundled calculators bound what they accept instead
(Rift Domination: 16 units a side), so neither samples.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

Position = TypeVar("Position", bound=Hashable)
Step = Callable[[Position], Mapping[Position, float]]  # the positions a phase or a volley leads to, with chances


@dataclass(frozen=True)
class Chain(Generic[Position]):
    """A game's battle as the chain sees it (see the module's docstring). `over` is asked first of every position
    met (it should be cheap); `outcome` names how a battle that is over ended; `leaves` the outcome of a retreat
    before a round starts there, or None; `order` sorts positions so that none leads to one sorted before it."""

    round: Sequence[Step[Position]]
    over: Callable[[Position], bool]
    outcome: Callable[[Position], str]
    order: Callable[[Position], Any]
    # each fixed phase: one step, or the volleys of a phase as a tuple of steps, carried one after the other with
    # equal positions merged in between (the same distribution as the phase as one step, a fraction of the moves:
    # a phase of two volleys from n positions takes n x hits + m x hits moves, not n x hits x hits)
    phases: Sequence[Step[Position] | tuple[Step[Position], ...]] = ()
    leaves: Callable[[Position], str | None] = lambda position: None
    limit: int | None = None  # the most positions the round may meet; beyond it `solve` stops with TooManyStates


class TooManyStates(ValueError):
    """A battle whose chain meets more positions than its `limit`: the game says what it accepts instead."""


@dataclass
class Ending(Generic[Position]):
    """How a battle ends: the probability of each (final position, outcome), in the order first met; its length (the
    expected phases and rounds fought); and the number of positions the repeated round met."""

    ends: dict[tuple[Position, str], float] = field(default_factory=dict)
    length: float = 0.0
    states: int = 0


def spread(dist: Mapping[Position, float], step: Step[Position]) -> dict[Position, float]:
    """The distribution after `step` from each position of `dist`, equal positions merged."""
    out: dict[Position, float] = {}
    get = out.get  # the calculators' innermost loop: one lookup saved per move
    for pos, p in dist.items():
        for nxt, q in step(pos).items():
            out[nxt] = get(nxt, 0.0) + p * q
    return out


def solve(chain: Chain[Position], start: Mapping[Position, float]) -> Ending[Position]:
    """Every way the battle from `start` (a distribution) can end, exactly (see the module's docstring)."""
    result: Ending[Position] = Ending()
    ends = result.ends

    def finish(pos: Position, p: float) -> None:
        key = (pos, chain.outcome(pos))
        ends[key] = ends.get(key, 0.0) + p

    dist = dict(start)
    for phase in chain.phases:
        live = {pos: p for pos, p in dist.items() if not chain.over(pos)}
        for pos, p in dist.items():
            if chain.over(pos):
                finish(pos, p)
        result.length += sum(live.values())
        for step in phase if isinstance(phase, tuple) else (phase,):
            live = spread(live, step)
        dist = live
    steps_of_round = tuple(chain.round)
    steps = len(steps_of_round)
    seen = set(dist)
    heap: list[tuple[Any, Position]] = []
    pending: list[dict[Position, float]] = [{} for _ in range(steps)]  # mass at a position with step k due
    queued: set[Position] = set()

    over, order, limit = chain.over, chain.order, chain.limit  # read once: push runs for every move

    def push(pos: Position, step: int, p: float) -> None:
        seen.add(pos)
        if over(pos):
            finish(pos, p)
            return
        if pos not in queued:
            if limit is not None and len(queued) >= limit:
                raise TooManyStates(f"the battle's chain passes {limit:,} positions")
            queued.add(pos)
            heapq.heappush(heap, (order(pos), pos))
        due = pending[step]
        due[pos] = due.get(pos, 0.0) + p

    for pos, p in dist.items():
        push(pos, 0, p)
    while heap:  # each position once, after every position that can lead to it
        _, pos = heapq.heappop(heap)
        mass = [due.pop(pos, 0.0) for due in pending]
        moves = [step(pos) for step in steps_of_round]
        stay = [move.get(pos, 0.0) for move in moves]  # the chance a step changes nothing
        rest = stay[-1]  # the chance the rest of the round from step k changes nothing (k = steps - 1 down to 1)
        begins = mass[0]  # the round's start: what was there, and what got through the rest of a round unchanged
        for k in range(steps - 1, 0, -1):
            begins += mass[k] * rest
            rest = stay[k - 1] * rest
        going = chain.leaves(pos) if begins else None
        total = [0.0] * steps  # every pass of the mass through each step, the returns to the start summed
        if going is not None:  # a round would start here; the retreat ends the battle instead
            key = (pos, going)
            ends[key] = ends.get(key, 0.0) + begins
        else:
            if rest >= 1.0:
                raise ValueError("a battle in which no die can ever hit")
            total[0] = begins / (1.0 - rest)
        for k in range(1, steps):
            total[k] = mass[k] + stay[k - 1] * total[k - 1]
        result.length += total[0]
        for k, move in enumerate(moves):
            after = (k + 1) % steps
            for nxt, q in move.items():
                if nxt != pos:
                    push(nxt, after, total[k] * q)
    result.states = len(seen)
    return result


def draw(dist: Mapping[Position, float], rng: Any) -> Position:
    """One position drawn from `dist` with `rng.random()` (positions sorted, so a seed gives the same draw)."""
    point = rng.random()
    last = None
    for pos, p in sorted(dist.items()):  # the games' positions are tuples of numbers: they sort
        last = pos
        point -= p
        if point < 0:
            return pos
    assert last is not None
    return last
