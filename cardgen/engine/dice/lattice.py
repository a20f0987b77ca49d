"""The dice-battle chain over hits taken, solved with arrays (numpy): for battles in which a side's state is a function
of the hits it has taken (its targets picked by a fixed policy that looks only at its own state).

The game gives its fire schedule as `Fire` slots in firing order: a side's shots by the hits its side has taken, and
each shot's chance to hit by the hits the enemy has taken (its target changes as they land), one table of chances
per variant of the round (Space Empires 4X: with and without the fleet-size bonus); and, by cell (hits on the
attacker, hits on the defender), what a round's end there leads to (`fate`: `FIGHTS_ON` or the game's code of an
ending, a win or a retreat) and the variant of the round that starts there. Consecutive slots of one side with the
same chances fire as one volley: its n shots score j hits with a chance that depends on the hits the enemy has
taken so far, so each volley has one table of those chances by (table, n, enemy hits, j), built shot by shot once.

Hits only add up, so probability flows from one total of hits to higher totals. The solver walks the anti-diagonals
(hits on the attacker + hits on the defender = t) in order, a diagonal's cells as one vector. A volley that scores
j hits moves mass j diagonals on, into a ring of buffers (one per volley boundary). At a diagonal, the mass that
arrived mid-round is first carried to the round's end by the chance that the rest of the round scores nothing;
the rounds that end there start again (or the battle ends, or a side retreats); a round that scores nothing returns
to its own start, so a start's mass is divided by the chance of scoring something, once. Then all of it, arrived
and started, fires through the round's volleys, and what hits goes ahead. A volley fires only over the cells where
its ships live and each variant of the round only where it holds mass worth following (`FLOOR`: what the cells left
out held is counted, not lost). It is the same chain as `chain.solve`'s, taken a diagonal at a time instead of a
position at a time; numpy stays out of the engine's start-up, so only the calculators import this module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

ATTACKER, DEFENDER = 0, 1
FIGHTS_ON = 0  # a cell's fate: the round starts again there (any other fate is the game's code of an ending)
# A cell whose mass is below this probability at every boundary of a diagonal (a fleet all but untouched while the
# enemy's is nearly gone, in a large battle) does not fire: what it would have scored is dropped and counted, so the
# report can say how much probability was not followed (about 1e-27 in the largest battle, where the cells left out
# are half the work). Every figure a report prints (six decimals) is the same as with no floor.
FLOOR = 1e-30


@dataclass(frozen=True)
class Fire:
    """One slot of the fire schedule: side `side`'s shots by the hits its side has taken, and `chances[table, enemy
    hits]`, the chance one shot hits (zero once the enemy is gone)."""

    side: int
    shots: np.ndarray
    chances: np.ndarray


@dataclass(frozen=True)
class Volley:
    """Consecutive slots of one side with the same chances: their shots by the hits their own side has taken, and
    `jumps[table, n, enemy hits, j]`, the chance that n shots score j hits (a cell's chances side by side)."""

    side: int
    shots: np.ndarray
    jumps: np.ndarray

    @property
    def most(self) -> int:
        """The volley's shots at full strength."""
        return int(self.jumps.shape[3]) - 1


def volleys(schedule: Sequence[Fire]) -> list[Volley]:
    """The schedule's slots joined into volleys: consecutive slots of one side whose shots have the same chances
    (the same type and technology, or types that differ only where it does not count) fire as one."""
    runs: list[tuple[int, np.ndarray, np.ndarray]] = []  # (side, chances, shots)
    for slot in schedule:
        if runs and runs[-1][0] == slot.side and np.array_equal(runs[-1][1], slot.chances):
            runs[-1] = (slot.side, runs[-1][1], runs[-1][2] + slot.shots)
        else:
            runs.append((slot.side, slot.chances, slot.shots))
    out = []
    for side, chances, shots in runs:
        most = int(shots[0])
        jumps = np.zeros((chances.shape[0], most + 1, chances.shape[1], most + 1))  # in place: the largest are 39 MB
        for table, chance in enumerate(chances):
            _jump_table(chance, jumps[table])
        out.append(Volley(side, shots, jumps))
    return out


def _jump_table(chance: np.ndarray, table: np.ndarray) -> None:
    """Fill table[n, h, j] (zeros): the chance that n shots fired at an enemy that has taken h hits score j hits,
    each shot hitting with `chance[h + hits so far]` (zero once the enemy is gone)."""
    most = table.shape[0] - 1
    padded = np.zeros(len(chance) + most + 1)
    padded[: len(chance)] = chance
    window = sliding_window_view(padded, most + 1)[: len(chance)]  # window[h, j] = chance[h + j]
    miss = 1 - window
    table[0, :, 0] = 1.0
    for n in range(1, most + 1):  # n - 1 shots score at most n - 1 hits: the row's zeros past that stay zero
        last = table[n - 1, :, :n]
        np.multiply(last, miss[:, :n], out=table[n, :, :n])
        table[n, :, 1 : n + 1] += last * window[:, :n]


def solve(volleys: Sequence[Volley], fate: np.ndarray, variant: np.ndarray, variants: Sequence[tuple[int, int]],
          floor: float = FLOOR) -> tuple[np.ndarray, float, int, float]:  # fmt: skip
    """Push the probability through the chain, one anti-diagonal at a time (see the module's docstring): the mass
    each cell ends with (for the cells where the battle ends), the expected rounds, the states that held
    probability and the probability not followed (cells under `floor`: see FLOOR; 0 follows every cell). `fate[ha,
    hd]` says what a round's end at a cell leads to (`FIGHTS_ON`, or the game's code of an ending), `variant[ha,
    hd]` which of `variants` (each side's chance table) the round that starts there fires with."""
    full_a, full_d = fate.shape[0] - 1, fate.shape[1] - 1
    count = len(volleys)
    highest = max(full_a, full_d) + 1
    # each volley's table as rows of j, in the order (table, n, enemy hits): a span's chances are one `take` of whole
    # rows, and along a diagonal the enemy's hits step by one from cell to cell, so the rows lie side by side
    flat = [v.jumps.reshape(-1, v.most + 1) for v in volleys]
    depth = np.array([v.jumps.shape[2] for v in volleys], dtype=np.int64)
    per_table = depth * np.array([v.most + 1 for v in volleys], dtype=np.int64)
    by_attacker = np.array([v.side == ATTACKER for v in volleys])
    # a ring of twice the widest volley's rows: a volley's hits seldom wrap around its end
    ring = 2 * (max(v.most for v in volleys) + 1)
    variant, ranked, opens = _in_order_of_opening(fate, variant, len(variants))
    table_of = np.array([[variants[v][vol.side] for v in ranked] for vol in volleys], dtype=np.int64)
    first_row = table_of * per_table[:, None]  # [volley, variant]: where its chance table's rows begin
    # boundary k + 1 is where volley k's hits land, a row per diagonal: indexed by the attacker's hits when the
    # attacker fired (the defender's hits move it along the diagonal), else by the defender's; the attacker's
    # volleys' boundaries are kept apart from the defender's, so a diagonal's are read and cleared as slices
    attacker_fired, defender_fired = np.flatnonzero(by_attacker), np.flatnonzero(~by_attacker)
    landing = [np.zeros((ring, len(fired), len(variants), highest)) for fired in (attacker_fired, defender_fired)]
    place = {int(k): p for fired in (attacker_fired, defender_fired) for p, k in enumerate(fired)}
    buffers = [landing[v.side][:, place[k]].swapaxes(0, 1) for k, v in enumerate(volleys)]  # [variant, row, cell]
    fired_rows = np.empty((ring, highest))  # one span's chances of j hits, a row per j
    shots = np.zeros((count, highest), dtype=np.int64)
    most = max(v.most for v in volleys) + 1
    tables = max(v.jumps.shape[0] for v in volleys)
    none_hit = np.zeros((count, tables, most, highest))  # none_hit[k, table, n, enemy hits]
    for k, v in enumerate(volleys):
        shots[k, : len(v.shots)] = v.shots
        none_hit[k, :, : v.most + 1, : v.jumps.shape[2]] = v.jumps[..., 0]
    none_hit_flat = none_hit.reshape(-1)
    none_hit_at = (np.arange(count)[:, None] * tables + table_of) * most  # [volley, variant]: where its chances begin
    sides = [v.side for v in volleys]
    # the grid's cells a diagonal after another (diagonal t's cell i at begins[t] + i): its fates, variants and
    # settled mass read and written as slices
    diagonals = full_a + full_d + 1
    lows = [max(0, t - full_d) for t in range(diagonals)]
    begins: list[int] = np.cumsum([0] + [min(full_a, t) - lows[t] + 1 for t in range(diagonals)]).tolist()
    every_ha = np.concatenate([np.arange(lows[t], min(full_a, t) + 1) for t in range(diagonals)])
    every_hd = np.repeat(np.arange(diagonals), np.diff(begins)) - every_ha
    fate_along, variant_along = fate[every_ha, every_hd], variant[every_ha, every_hd]
    settled_along = np.zeros(len(every_ha))
    rounds, states, unfollowed = 1.0, 0, 0.0
    for t in range(diagonals):
        lo, hi = lows[t], min(full_a, t)
        row = t % ring
        first = row + 1 if row + 1 < ring else 0  # the ring row of the next diagonal
        under_way = sum(1 for o in opens if o <= t)
        arrived = np.zeros((count + 1, under_way, hi - lo + 1))
        # (a row's columns off the diagonal only ever take zeros: hits past the enemy's last are never scored)
        by_attacker_now = landing[ATTACKER][row, :, :under_way, lo : hi + 1]
        by_defender_now = landing[DEFENDER][row, :, :under_way, t - hi : t - lo + 1]
        arrived[attacker_fired + 1] = by_attacker_now
        arrived[defender_fired + 1] = by_defender_now[:, :, ::-1]
        by_attacker_now[...] = 0.0
        by_defender_now[...] = 0.0
        if t == 0:
            arrived[0, variant[0, 0], 0] = 1.0  # the first round: no retreat before it
        # only the cells between the first and the last that hold mass worth following have anything to do: the
        # probability that reached the others is dropped and counted
        first_held, past_held = _span(arrived.max(axis=(0, 1)) > floor)
        unfollowed += float(arrived[:, :, :first_held].sum() + arrived[:, :, past_held:].sum())
        if first_held == past_held:
            continue
        arrived = arrived[:, :, first_held:past_held]
        along = slice(begins[t] + first_held, begins[t] + past_held)
        lo, hi = lo + first_held, lo + past_held - 1
        ha = np.arange(lo, hi + 1)
        hd = t - ha
        size = len(ha)
        cells = np.arange(size)
        going = fate_along[along] == FIGHTS_ON
        own_variant = np.where(going | (t == 0), variant_along[along], 0)  # where no round starts, any under way
        own = np.where(by_attacker[:, None], ha, hd)
        aim = np.where(by_attacker[:, None], hd, ha)
        n = shots[np.arange(count)[:, None], own]  # (count, cells)
        index = (none_hit_at[:, :under_way, None] + n[:, None, :]) * highest + aim[:, None, :]
        quiet = none_hit_flat.take(index)  # (count, variants, cells): the chance volley k scores nothing
        rest = np.empty((count + 1, under_way, size))  # the chance the rest of the round scores nothing
        rest[count] = 1.0
        for k in range(count - 1, -1, -1):
            np.multiply(rest[k + 1], quiet[k], out=rest[k])
        ended = (arrived * rest).sum(axis=(0, 1))
        settled_along[along] = np.where(going, 0.0, ended)
        # the rounds that start here: what ended, divided by the chance that a round scores something
        started = np.zeros(size)
        np.divide(ended, 1.0 - rest[0, own_variant, cells], out=started, where=going)
        starts = float(started.sum())
        if not math.isfinite(starts):
            raise ValueError("a battle in which no shot can ever hit")  # cannot happen: a 1 always hits
        rounds += starts
        arrived[0, own_variant, cells] += started
        in_table = n * depth[:, None] + aim  # (count, cells): each cell's row in table 0 of each volley
        row_of = in_table[:, None, :] + first_row[:, :under_way, None]  # (count, variants, cells)
        firing: list[int] = np.count_nonzero(n, axis=1).tolist()  # a volley's ships dwindle as its side's hits grow
        peak = arrived.max(axis=0)  # (variants, cells)
        # where each variant holds mass worth following
        spans: list[tuple[int, int]] = [_span(held) for held in peak > floor]
        for which, (start, stop) in enumerate(spans):
            for outside in (slice(0, start), slice(stop, size)):
                if outside.start < outside.stop:  # what the cells left out would have scored
                    left = arrived[:count, which, outside]
                    unfollowed += float(left.sum() - (left * rest[:count, which, outside]).sum())
        mass = arrived[0]  # in place: `arrived` is not read again
        for k in range(count):
            if k:
                np.add(mass, arrived[k], out=mass)
            states += int(np.count_nonzero(mass))
            by_attacker_k = sides[k] == ATTACKER
            cut = (0, firing[k]) if by_attacker_k else (size - firing[k], size)
            for which, (start, stop) in enumerate(spans):
                start, stop = max(start, cut[0]), min(stop, cut[1])
                if start >= stop:
                    continue
                # the most shots, where the volley's side has taken the fewest hits
                width = int(n[k, start if by_attacker_k else stop - 1]) + 1
                # the chances (cells, j) turned to rows of j and weighed by each cell's mass, in one pass
                chances = flat[k].take(row_of[k, which, start:stop], axis=0)[:, :width].T
                fired = np.multiply(chances, mass[which, start:stop], out=fired_rows[:width, : stop - start])
                mass[which, start:stop] = fired[0]
                # the mass that scored j = 1, 2, … hits goes to the ring rows of diagonals t + j: by the attacker's
                # hits when the attacker fired, else by the defender's (the cells then run the other way)
                if by_attacker_k:
                    columns, ahead = slice(lo + start, lo + stop), fired[1:]
                else:
                    columns, ahead = slice(t - lo - stop + 1, t - lo - start + 1), fired[1:, ::-1]
                buffer = buffers[k][which]
                split = min(width - 1, ring - first)
                buffer[first : first + split, columns] += ahead[:split]
                if split < width - 1:
                    buffer[: width - 1 - split, columns] += ahead[split:]
        states += int(np.count_nonzero(mass + arrived[count]))
    settled = np.zeros(fate.shape)
    settled[every_ha, every_hd] = settled_along
    return settled, rounds, states, unfollowed


def _span(held: np.ndarray) -> tuple[int, int]:
    """The first and past-the-last marked cell (an empty span when none is)."""
    marked = np.flatnonzero(held)
    return (int(marked[0]), int(marked[-1]) + 1) if len(marked) else (0, 0)


def _in_order_of_opening(fate: np.ndarray, variant: np.ndarray,
                         variants: int) -> tuple[np.ndarray, list[int], list[int]]:  # fmt: skip
    """The variants renumbered in the order they first start a round (so the ones under way on a diagonal are
    always the first few): each cell's new number, the old number of each new one, and where each opens."""
    starts = (fate == FIGHTS_ON) | (np.add.outer(np.arange(fate.shape[0]), np.arange(fate.shape[1])) == 0)
    ranked = sorted(range(variants), key=lambda v: (_first_diagonal(starts & (variant == v)), v))
    renumber = np.empty(variants, dtype=np.int64)
    renumber[ranked] = np.arange(variants)
    variant = renumber[variant]
    return variant, ranked, [_first_diagonal(starts & (variant == v)) for v in range(variants)]


def _first_diagonal(cells: np.ndarray) -> int:
    """The lowest total of hits among the marked cells (a huge number when none is)."""
    marked = np.argwhere(cells)
    return int(marked.sum(axis=1).min()) if len(marked) else 1 << 30
