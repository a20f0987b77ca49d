"""The exact odds of a Space Empires 4X battle (`cardgen odds`): the core's chain over hits taken
(`cardgen.engine.dice.lattice`), configured with the game's rules.

A side's state is a function of the hits it has taken (`combat.Side`), so the battle is a Markov chain over (hits on
the attacker, hits on the defender, the shot due in the round, the round's fleet-size bonuses). What this module
gives the core: the fire schedule (the groups in firing order, each with its ships by its side's hits taken and its
chance against the enemy's current target, with and without the fleet-size bonus), the round's variants (which
side has the bonus), and by cell what a round's end leads to (a win, a retreat under the retreat policy, or another
round). No fleet the counter limits allow is too big for it (both sides at their limits, 288 ships and 456 hits a
side: 4.5 million states, under a second), so it never samples; it leaves out only the states holding under 1e-30 of
the probability (`lattice.FLOOR`), and says how much they held in all.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardgen.engine.dice import BattleReport, lattice
from cardgen.engine.dice.lattice import FIGHTS_ON, Fire
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

# the round's variants: which chance table (0: no fleet-size bonus, 1: the bonus) each side fires with; both at once
# would need both sides empty
VARIANTS = ((0, 0), (1, 0), (0, 1))
# what becomes of a battle at a round's end, by cell
ATTACKER_RETREATS, DEFENDER_RETREATS, DEFENDER_WINS, ATTACKER_WINS = range(FIGHTS_ON + 1, FIGHTS_ON + 5)
OUTCOMES = {ATTACKER_WINS: "attacker wins", DEFENDER_WINS: "defender wins", ATTACKER_RETREATS: "attacker retreats",
            DEFENDER_RETREATS: "defender retreats"}  # fmt: skip


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
    volleys = lattice.volleys(_schedule(rules, groups, fleets, order, terrain))
    fate, variant = _fates(rules, groups, fleets, terrain, retreat)
    settled, rounds, states, unfollowed = lattice.solve(volleys, fate, variant, VARIANTS)
    return _summarise(groups, fleets, fate, settled, rounds, states, retreat, unfollowed)


def _schedule(rules: Rules, groups: list[list[Group]], fleets: list[Fleet], order: list[tuple[int, int]],
              terrain: str) -> list[Fire]:  # fmt: skip
    """The firing order as the core's fire schedule: each group's ships by its side's hits taken, and its chance
    against the enemy's current target without and with the fleet-size bonus (tables 0 and 1)."""
    schedule = []
    for side, index in order:
        enemy = fleets[1 - side]
        shooter = groups[side][index]
        chances = np.zeros((2, enemy.full + 1))
        for bonus in (False, True):
            by_target = np.array(
                [to_hit(rules, shooter, g, bonus, terrain) / rules.die_faces for g in groups[1 - side]]
            )
            chances[int(bonus)] = np.where(np.arange(enemy.full + 1) < enemy.full, by_target[enemy.target], 0.0)
        schedule.append(Fire(side, fleets[side].counts[:, index], chances))
    return schedule


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


def _summarise(groups: list[list[Group]], fleets: list[Fleet], fate: np.ndarray, settled: np.ndarray, rounds: float,
               states: int, retreat: bool, unfollowed: float) -> BattleReport:  # fmt: skip
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
        f"precision: a state holding under {lattice.FLOOR:.0e} of the probability is not followed "
        f"({unfollowed:.1e} in all)" if unfollowed else "precision: every state is followed",
    ]  # fmt: skip
    ordered = [dict(sorted(d.items(), key=lambda kv: -kv[1])) for d in survivors]
    return BattleReport(outcomes, ordered, lost, rounds, states, policies, "CP", "rounds", unfollowed)
