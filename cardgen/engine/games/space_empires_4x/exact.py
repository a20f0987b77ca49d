"""The exact odds of a Space Empires 4X battle (`cardgen odds`): the chain over hits taken, solved with arrays.

A side's state is a function of the hits it has taken (`combat.Side`), so the battle is a Markov chain over (hits on
the attacker, hits on the defender, the shot due in the round, the round's fleet-size bonuses). Groups of one side
that fire one after another with the same chance against every target fire as one volley: its n shots score j hits
with a chance that depends on the hits the enemy has taken so far (its target changes as they land), so each volley
has one table of those chances by (bonus, n, enemy hits, j), built shot by shot once.

Hits only add up, so probability flows from one total of hits to higher totals. The solver walks the anti-diagonals
(hits on the attacker + hits on the defender = t) in order, a diagonal's cells as one vector. A volley that scores
j hits moves mass j diagonals on, into a ring of buffers (one per volley boundary). At a diagonal, the mass that
arrived mid-round is first carried to the round's end by the chance that the rest of the round scores nothing;
the rounds that end there start again (or the battle ends, or a side retreats); a round that scores nothing returns
to its own start, so a start's mass is divided by the chance of scoring something, once. Then all of it, arrived
and started, fires through the round's volleys, and what hits goes ahead. A volley fires only over the cells where
its ships live and each variant of the round's bonuses only where it holds mass. No fleet the counter limits allow
is too big for it (both sides at their limits, 288 ships and 456 hits a side: 5.4 million states, about 4 s), so it
never samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from cardgen.engine.battle import BattleReport
from cardgen.engine.games.space_empires_4x.combat import (
    ATTACKER,
    DEFENDER,
    RETREAT_SHARE,
    TERRAINS,
    Group,
    Rules,
    Side,
    firing_order,
    to_hit,
)

# the round's fleet-size bonuses (attacker, defender): both at once would need both sides empty
VARIANTS = ((False, False), (True, False), (False, True))
# what becomes of a battle at a round's end, by cell
FIGHTS_ON, ATTACKER_RETREATS, DEFENDER_RETREATS, DEFENDER_WINS, ATTACKER_WINS = range(5)
OUTCOMES = {ATTACKER_WINS: "attacker wins", DEFENDER_WINS: "defender wins", ATTACKER_RETREATS: "attacker retreats",
            DEFENDER_RETREATS: "defender retreats"}  # fmt: skip


@dataclass(frozen=True)
class Volley:
    """Consecutive groups of one side with the same chance against every target: their shots by the hits their own
    side has taken, and `jumps[bonus, enemy hits, n, j]`, the chance that n shots score j hits (a cell's chances
    side by side)."""

    side: int
    shots: np.ndarray
    jumps: np.ndarray

    @property
    def most(self) -> int:
        """The volley's shots at full strength."""
        return int(self.jumps.shape[2]) - 1


class Fleet:
    """One side as arrays over the hits it has taken: ships, each group's ships, the group its enemy fires at."""

    def __init__(self, side: Side):
        self.side = side
        self.full = side.total_hits
        self.counts = np.array([[count for count, _ in state] for state in side.states], dtype=np.int64)
        self.ships = self.counts.sum(axis=1)
        self.target = np.array([side.target(state) if h < self.full else 0 for h, state in enumerate(side.states)])
        mobile = np.array([g.retreats for g in side.groups])
        self.can_retreat = (self.ships > 0) & ~((self.counts > 0) & ~mobile).any(axis=1)


def exact_odds(rules: Rules, attacker: Sequence[Group], defender: Sequence[Group], terrain: str = "open",
               retreat: bool = True) -> BattleReport:  # fmt: skip
    """The battle's exact odds (see the module's docstring): the chain over (hits on the attacker, hits on the
    defender, the shot due, the round's fleet-size bonuses), solved with arrays. The engine never imports this module
    (numpy stays out of its start-up); `odds.py` and the layouts' `formula.battle_odds` do."""
    if terrain not in TERRAINS:
        raise ValueError(f"unknown terrain '{terrain}' (terrains: {', '.join(TERRAINS)})")
    groups = [list(attacker), list(defender)]
    order = firing_order(rules, groups, terrain)
    rank = {slot: n for n, slot in enumerate(order)}
    fleets = [Fleet(Side(groups[s], {i: rank[(s, i)] for i in range(len(groups[s]))})) for s in (0, 1)]
    volleys = _volleys(rules, groups, fleets, order, terrain)
    fate, variant = _fates(rules, groups, fleets, terrain, retreat)
    settled, rounds, states = _solve(volleys, fleets, fate, variant)
    return _summarise(groups, fleets, fate, settled, rounds, states, retreat)


def _volleys(rules: Rules, groups: list[list[Group]], fleets: list[Fleet], order: list[tuple[int, int]],
             terrain: str) -> list[Volley]:  # fmt: skip
    """The firing order's groups joined into volleys: consecutive groups of one side whose shots have the same
    chance against every enemy group, with and without the fleet-size bonus (the same type and technology, or types
    that differ only where it does not count), fire as one."""
    runs: list[tuple[int, list[int], list[int]]] = []  # (side, to-hit by target and bonus, groups)
    for side, index in order:
        key = [to_hit(rules, groups[side][index], target, bonus, terrain)
               for target in groups[1 - side] for bonus in (False, True)]  # fmt: skip
        if runs and runs[-1][0] == side and runs[-1][1] == key:
            runs[-1][2].append(index)
        else:
            runs.append((side, key, [index]))
    volleys = []
    for side, _, members in runs:
        enemy = fleets[1 - side]
        shooter = groups[side][members[0]]
        shots = fleets[side].counts[:, members].sum(axis=1)
        most = int(shots[0])
        jumps = np.zeros((2, enemy.full + 1, most + 1, most + 1))  # filled in place: the largest are 39 MB
        for bonus in (False, True):
            by_target = np.array(
                [to_hit(rules, shooter, g, bonus, terrain) / rules.die_faces for g in groups[1 - side]]
            )
            chance = np.where(np.arange(enemy.full + 1) < enemy.full, by_target[enemy.target], 0.0)
            _jump_table(chance, jumps[int(bonus)])
        volleys.append(Volley(side, shots, jumps))
    return volleys


def _jump_table(chance: np.ndarray, table: np.ndarray) -> None:
    """Fill table[h, n, j] (zeros): the chance that n shots fired at an enemy that has taken h hits score j hits,
    each shot hitting with `chance[h + hits so far]` (zero once the enemy is gone)."""
    most = table.shape[1] - 1
    padded = np.zeros(len(chance) + most + 1)
    padded[: len(chance)] = chance
    window = sliding_window_view(padded, most + 1)[: len(chance)]  # window[h, j] = chance[h + j]
    miss = 1 - window
    table[:, 0, 0] = 1.0
    for n in range(1, most + 1):
        np.multiply(table[:, n - 1], miss, out=table[:, n])
        table[:, n, 1:] += table[:, n - 1, :-1] * window[:, :-1]


def _fates(rules: Rules, groups: list[list[Group]], fleets: list[Fleet], terrain: str,
           retreat: bool) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """By cell (hits on the attacker, hits on the defender): what a round's end there leads to (`FIGHTS_ON`, a
    retreat, a win) and the variant of the round that starts there (its fleet-size bonuses)."""
    a, d = fleets[ATTACKER].ships[:, None], fleets[DEFENDER].ships[None, :]
    bonus = [a >= rules.bonus_ratio * d, d >= rules.bonus_ratio * a]
    variant = np.where(bonus[ATTACKER], 1, np.where(bonus[DEFENDER], 2, 0))
    fate = np.full(variant.shape, FIGHTS_ON)
    if retreat:
        hits = [_expected_hits(rules, groups, fleets, s, bonus[s], terrain) for s in (ATTACKER, DEFENDER)]
        num, den = RETREAT_SHARE.numerator, RETREAT_SHARE.denominator
        leaves = [fleets[ATTACKER].can_retreat[:, None] & (hits[ATTACKER] * den < hits[DEFENDER] * num),
                  fleets[DEFENDER].can_retreat[None, :] & (hits[DEFENDER] * den < hits[ATTACKER] * num)]  # fmt: skip
        fate[leaves[DEFENDER]] = DEFENDER_RETREATS
        fate[leaves[ATTACKER]] = ATTACKER_RETREATS  # the attacker is asked first
    fate[:, fleets[DEFENDER].ships == 0] = ATTACKER_WINS
    fate[fleets[ATTACKER].ships == 0, :] = DEFENDER_WINS
    return fate, variant


def _expected_hits(rules: Rules, groups: list[list[Group]], fleets: list[Fleet], s: int, bonus: np.ndarray,
                   terrain: str) -> np.ndarray:  # fmt: skip
    """By cell, the hits side s expects in a round against the enemy's current target, in die faces (whole numbers,
    so the retreat test compares exactly: see `combat.retreats`); zero once the enemy is gone."""
    enemy = fleets[1 - s]
    by_bonus = []
    for b in (False, True):
        faces = np.array([[to_hit(rules, g, t, b, terrain) for t in groups[1 - s]] for g in groups[s]], dtype=np.int64)
        per_group = faces[:, enemy.target] * (enemy.ships > 0)  # (groups, enemy hits)
        by_bonus.append(fleets[s].counts @ per_group)  # (own hits, enemy hits)
    hits: np.ndarray = np.where(bonus if s == ATTACKER else bonus.T, by_bonus[1], by_bonus[0])
    return hits if s == ATTACKER else hits.T


def _solve(volleys: list[Volley], fleets: list[Fleet], fate: np.ndarray,
           variant: np.ndarray) -> tuple[np.ndarray, float, int]:  # fmt: skip
    """Push the probability through the chain, one anti-diagonal at a time: the mass each cell ends with (for the
    cells where the battle ends), the expected rounds and the states that held probability."""
    full_a, full_d = fleets[ATTACKER].full, fleets[DEFENDER].full
    count = len(volleys)
    by_attacker = np.array([v.side == ATTACKER for v in volleys])
    ring = max(v.most for v in volleys) + 1
    variant, ranked, opens = _in_order_of_opening(fate, variant)
    bonus_of = np.array([[VARIANTS[v][vol.side] for v in ranked] for vol in volleys], dtype=np.int64)
    # boundary k + 1 is where volley k's hits land: indexed by the attacker's hits when the attacker fired (the
    # defender's hits move it along the diagonal), else by the defender's
    buffers = np.zeros((count, len(VARIANTS), max(full_a, full_d) + 1, ring))
    attacker_fired, defender_fired = np.flatnonzero(by_attacker), np.flatnonzero(~by_attacker)
    highest = max(full_a, full_d) + 1
    shots = np.zeros((count, highest), dtype=np.int64)
    most = max(v.most for v in volleys) + 1
    none_hit = np.zeros((count, 2, most, highest))  # none_hit[k, bonus, n, enemy hits]
    for k, v in enumerate(volleys):
        shots[k, : len(v.shots)] = v.shots
        none_hit[k, :, : v.most + 1, : v.jumps.shape[1]] = v.jumps[..., 0].transpose(0, 2, 1)
    none_hit_flat = none_hit.reshape(-1)
    settled = np.zeros(fate.shape)
    rounds, states = 1.0, 0
    for t in range(full_a + full_d + 1):
        lo, hi = max(0, t - full_d), min(full_a, t)
        ha = np.arange(lo, hi + 1)
        hd = t - ha
        size = len(ha)
        cells = np.arange(size)
        row = t % ring
        under_way = sum(1 for o in opens if o <= t)
        arrived = np.zeros((count + 1, under_way, size))
        arrived[attacker_fired + 1] = buffers[attacker_fired, :under_way, lo : hi + 1, row]
        arrived[defender_fired + 1] = buffers[defender_fired, :under_way, t - hi : t - lo + 1, row][:, :, ::-1]
        buffers[:, :under_way, :, row] = 0.0
        what = fate[ha, hd]
        going = what == FIGHTS_ON
        own_variant = np.where(going | (t == 0), variant[ha, hd], 0)  # where no round starts, any under way
        if t == 0:
            arrived[0, own_variant[0], 0] = 1.0  # the first round: no retreat before it
        own = np.where(by_attacker[:, None], ha, hd)
        aim = np.where(by_attacker[:, None], hd, ha)
        n = shots[np.arange(count)[:, None], own]  # (count, cells)
        index = ((np.arange(count)[:, None, None] * 2 + bonus_of[:, :under_way, None]) * most + n[:, None, :]) * highest
        quiet = none_hit_flat.take(index + aim[:, None, :])  # (count, variants, cells)
        rest = np.ones((count + 1, under_way, size))
        rest[:count] = np.cumprod(quiet[::-1], axis=0)[::-1]  # the chance the rest of the round scores nothing
        ended = (arrived * rest).sum(axis=(0, 1))
        settled[ha, hd] = np.where(going, 0.0, ended)
        stay = rest[0, own_variant, cells]
        if (going & (stay >= 1.0) & (ended > 0)).any():
            raise ValueError("a battle in which no shot can ever hit")  # cannot happen: a 1 always hits
        started = np.where(going, ended / np.where(going, 1.0 - stay, 1.0), 0.0)
        rounds += float(started.sum())
        arrived[0, own_variant, cells] += started
        firing = np.count_nonzero(n, axis=1)  # a volley's ships dwindle as its side's hits grow: cells at one end
        spans = [_span(held) for held in (arrived != 0).any(axis=0)]  # where each variant holds mass this diagonal
        mass = arrived[0]
        for k, v in enumerate(volleys):
            if k:
                mass = mass + arrived[k]
            states += int(np.count_nonzero(mass))
            cut = (0, firing[k]) if v.side == ATTACKER else (size - firing[k], size)
            for which, (start, stop) in enumerate(spans):
                start, stop = max(start, cut[0]), min(stop, cut[1])
                if start >= stop:
                    continue
                # the most shots, where the volley's side has taken the fewest hits
                width = n[k, start if v.side == ATTACKER else stop - 1] + 1
                chances = v.jumps[bonus_of[k, which], aim[k, start:stop], n[k, start:stop], :width]  # (cells, j)
                fired = mass[which, start:stop, None] * chances
                mass[which, start:stop] = fired[:, 0]
                _deposit(buffers[k][which], fired[:, 1:], t, lo + start, lo + stop - 1, ring, v.side == ATTACKER)
        states += int(np.count_nonzero(mass + arrived[count]))
    return settled, rounds, states


def _span(held: np.ndarray) -> tuple[int, int]:
    """The first and past-the-last marked cell (an empty span when none is)."""
    marked = np.flatnonzero(held)
    return (int(marked[0]), int(marked[-1]) + 1) if len(marked) else (0, 0)


def _in_order_of_opening(fate: np.ndarray, variant: np.ndarray) -> tuple[np.ndarray, list[int], list[int]]:
    """The variants renumbered in the order they first start a round (so the ones under way on a diagonal are
    always the first few): each cell's new number, the old number of each new one, and where each opens."""
    starts = (fate == FIGHTS_ON) | (np.add.outer(np.arange(fate.shape[0]), np.arange(fate.shape[1])) == 0)
    ranked = sorted(range(len(VARIANTS)), key=lambda v: (_first_diagonal(starts & (variant == v)), v))
    renumber = np.empty(len(VARIANTS), dtype=np.int64)
    renumber[ranked] = np.arange(len(VARIANTS))
    variant = renumber[variant]
    return variant, ranked, [_first_diagonal(starts & (variant == v)) for v in range(len(VARIANTS))]


def _first_diagonal(cells: np.ndarray) -> int:
    """The lowest total of hits among the marked cells (a huge number when none is)."""
    marked = np.argwhere(cells)
    return int(marked.sum(axis=1).min()) if len(marked) else 1 << 30


def _deposit(buffer: np.ndarray, ahead: np.ndarray, t: int, lo: int, hi: int, ring: int, by_attacker: bool) -> None:
    """Add the mass that scored j = 1, 2, … hits from diagonal t (`ahead[cell, j - 1]`, one variant's) to the ring rows
    of diagonals t + j: by the attacker's hits when the attacker fired, else by the defender's (the cells then run
    the other way)."""
    if by_attacker:
        columns = slice(lo, hi + 1)
    else:
        columns, ahead = slice(t - hi, t - lo + 1), ahead[::-1]
    first = (t + 1) % ring
    split = min(ahead.shape[1], ring - first)
    buffer[columns, first : first + split] += ahead[:, :split]
    if split < ahead.shape[1]:
        buffer[columns, : ahead.shape[1] - split] += ahead[:, split:]


def _summarise(groups: list[list[Group]], fleets: list[Fleet], fate: np.ndarray, settled: np.ndarray, rounds: float,
               states: int, retreat: bool) -> BattleReport:  # fmt: skip
    outcomes = {"attacker wins": 0.0, "defender wins": 0.0, "attacker retreats": 0.0, "defender retreats": 0.0,
                "mutual destruction": 0.0}  # fmt: skip
    for kind, name in OUTCOMES.items():
        outcomes[name] = float(settled[fate == kind].sum())
    survivors: list[dict[str, float]] = [{}, {}]
    lost = [0.0, 0.0]
    for s in (ATTACKER, DEFENDER):
        by_hits = settled.sum(axis=1 - s)
        cost = np.array([g.cost for g in groups[s]])
        lost[s] = float(by_hits @ ((fleets[s].counts[0] - fleets[s].counts) @ cost))
        for h in np.flatnonzero(by_hits):
            left = ", ".join(
                f"{count} {g.code}" for g, count in zip(groups[s], fleets[s].counts[h], strict=True) if count
            )
            survivors[s][left or "none"] = survivors[s].get(left or "none", 0.0) + float(by_hits[h])
    policies = [
        "targets: the enemy ship closest to destruction, then the group firing earliest, the dearer, the first listed",
        "screening: none",
        "retreat: from round 2 a side whose ships can all retreat leaves when it expects under half the enemy's hits, "
        "whole and at the round's start, before any shot (not each ship in its turn to fire)"
        if retreat else "retreat: none (--no-retreat)",
        "mutual destruction: impossible (fire is never simultaneous)",
    ]  # fmt: skip
    ordered = [dict(sorted(d.items(), key=lambda kv: -kv[1])) for d in survivors]
    return BattleReport(outcomes, ordered, lost, rounds, states, policies, "CP", "rounds")
