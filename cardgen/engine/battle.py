"""Dice battles between two fleets, resolved exactly: the probability of every way a battle can end.

A fleet is a multiset of units (a type and the damage it has taken). A battle is fought in rounds until one side
has no unit left; in a round every living unit fires once, in the order the rules give (`FireRules.order_key`:
Space Empires 4X fires by class A to E, then by Tactics, the defender first on a tie), at a target its side's
policy picks, and hits with the probability the rules give. Units fire one after another (a unit destroyed before
its turn does not fire) or, with `simultaneous=True`, all from the round's starting position.

The resolver works on canonical fleet states (sorted tuples of (type, damage)), so equal positions reached in
different ways are computed once. Within a round it carries a distribution over damage states from shot to shot,
merging equal states; across rounds it solves the absorbing Markov chain exactly (a round that changes nothing is a
self-loop: P(s) = Σ T(s, s') P(s') / (1 − T(s, s))). A battle whose state space exceeds `max_states` falls back to
sampling with a counter-based generator, reported as such with its standard error.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardgen.engine.rng import CounterRng

ATTACKER, DEFENDER = 0, 1

Fleet = tuple[tuple[int, int], ...]  # sorted (unit type index, damage taken) of the living units
Position = tuple[Fleet, Fleet]  # (attacker, defender)


@dataclass(frozen=True)
class UnitType:
    """What a unit is in battle: its name, firing class (sort key, lower fires first), attack, defense and hull."""

    name: str
    fire_class: int
    attack: int
    defense: int
    hull: int
    tactics: int = 0


@dataclass(frozen=True)
class Shot:
    """One unit firing: its side, its type and the round's position (for bonuses that depend on fleet sizes)."""

    side: int
    unit: UnitType
    target: UnitType
    position: Position


def d10_to_hit(shot: Shot) -> float:
    """Space Empires 4X: a d10 at or under attack − defense hits, a 1 always hits; +1 attack for a side with at
    least twice as many units as its opponent at the start of the round (the fleet size bonus)."""
    mine, theirs = len(shot.position[shot.side]), len(shot.position[1 - shot.side])
    bonus = 1 if mine >= 2 * theirs else 0
    to_hit = shot.unit.attack + bonus - shot.target.defense
    return min(max(to_hit, 1), 10) / 10


def focus_weakest(units: Sequence[UnitType], fleet: Fleet) -> int:
    """Fire at the enemy unit closest to destruction (least hull left), the lowest-class one on a tie: finishing
    units removes their shots soonest."""
    return min(range(len(fleet)), key=lambda i: (units[fleet[i][0]].hull - fleet[i][1], units[fleet[i][0]].fire_class))


@dataclass(frozen=True)
class FireRules:
    """How a battle is fought: the order units fire in, the chance a shot hits, how each side picks targets,
    whether a round's shots land at once, and when to stop computing exactly."""

    hit_chance: Callable[[Shot], float] = d10_to_hit
    target: Callable[[Sequence[UnitType], Fleet], int] = focus_weakest
    simultaneous: bool = False
    max_states: int = 200_000
    samples: int = 20_000

    @staticmethod
    def order_key(unit: UnitType, side: int) -> tuple[int, int, int]:
        """Class A (0) before B (1)…; higher Tactics first; on a tie the defender fires first."""
        return unit.fire_class, -unit.tactics, 0 if side == DEFENDER else 1


@dataclass
class Odds:
    """How a battle ends: probabilities of each side winning (and of a draw: no unit left that can hurt), the
    distribution of the winner's surviving fleets, and whether the figures are exact or sampled."""

    attacker_wins: float
    defender_wins: float
    draw: float
    endings: dict[Position, float] = field(default_factory=dict)
    exact: bool = True
    samples: int = 0

    @property
    def standard_error(self) -> float:
        """Of `attacker_wins` when sampled (0 when exact)."""
        if self.exact or not self.samples:
            return 0.0
        p = self.attacker_wins
        return math.sqrt(p * (1 - p) / self.samples)


@dataclass
class BattleReport:
    """A game calculator's exact result (`cardgen odds`): each outcome's probability, the survivors' distribution per
    side, the expected cost lost per side (`lost_in`: CP, resources…), the expected length (`length_in`: rounds,
    phases…), the states the chain visited and the policies it assumed."""

    outcomes: dict[str, float]
    survivors: list[dict[str, float]]
    lost: list[float]
    length: float
    states: int
    policies: list[str]
    lost_in: str
    length_in: str

    def as_json(self) -> dict[str, object]:
        key = self.lost_in.lower()
        return {
            "outcomes": {k: round(v, 6) for k, v in self.outcomes.items()},
            "survivors": {side: {k: round(v, 6) for k, v in dist.items()}
                          for side, dist in zip(("attacker", "defender"), self.survivors, strict=True)},
            f"expected_{key}_lost": {"attacker": round(self.lost[0], 4), "defender": round(self.lost[1], 4)},
            f"expected_{self.length_in}": round(self.length, 4),
            "states": self.states,
            "policies": self.policies,
        }  # fmt: skip


class TooManyStates(Exception):
    pass


class BattleResolver:
    """Exact odds for one set of unit types and rules; positions are memoised across calls."""

    def __init__(self, units: Sequence[UnitType], rules: FireRules | None = None):
        self.units = tuple(units)
        self.rules = rules or FireRules()
        self._endings: dict[Position, dict[Position, float]] = {}

    def position(self, attacker: Sequence[int], defender: Sequence[int]) -> Position:
        """A starting position from the unit type indices of each side (no damage taken)."""
        return (tuple(sorted((u, 0) for u in attacker)), tuple(sorted((u, 0) for u in defender)))

    def odds(self, start: Position, seed: int = 1) -> Odds:
        """The exact odds of a battle from `start`, or sampled ones if it is too large to compute."""
        try:
            endings = self._solve(start)
        except TooManyStates:
            return self.sample(start, self.rules.samples, seed)
        return self._summary(endings, exact=True, samples=0)

    def round(self, start: Position) -> dict[Position, float]:
        """The distribution of positions at the end of one round of fire from `start`."""
        ships = [(side, kind, damage) for side in (ATTACKER, DEFENDER) for kind, damage in start[side]]
        hull = [self.units[kind].hull for _, kind, _ in ships]
        order = sorted(range(len(ships)), key=lambda i: self.rules.order_key(self.units[ships[i][1]], ships[i][0]))
        opening = tuple(s[2] for s in ships)
        damages: dict[tuple[int, ...], float] = {opening: 1.0}
        for shooter in order:
            side, kind, _ = ships[shooter]
            unit = self.units[kind]
            if unit.attack <= 0:
                continue
            after: dict[tuple[int, ...], float] = defaultdict(float)
            for state, p in damages.items():
                view = opening if self.rules.simultaneous else state  # what the shooter sees when it fires
                enemies = [i for i, s in enumerate(ships) if s[0] != side and view[i] < hull[i]]
                if view[shooter] >= hull[shooter] or not enemies:  # destroyed before its turn, or nothing to hit
                    after[state] += p
                    continue
                fleet = tuple((ships[i][1], view[i]) for i in enemies)
                target = enemies[self.rules.target(self.units, fleet)]
                chance = self.rules.hit_chance(Shot(side, unit, self.units[ships[target][1]], start))
                if chance > 0:
                    hit = list(state)
                    hit[target] = min(hit[target] + 1, hull[target])
                    after[tuple(hit)] += p * chance
                if chance < 1:
                    after[state] += p * (1 - chance)
            damages = after
        out: dict[Position, float] = defaultdict(float)
        for state, p in damages.items():
            fleets: list[list[tuple[int, int]]] = [[], []]
            for (side, kind, _), damage, most in zip(ships, state, hull, strict=True):
                if damage < most:
                    fleets[side].append((kind, damage))
            out[(tuple(sorted(fleets[0])), tuple(sorted(fleets[1])))] += p
        return dict(out)

    def _solve(self, position: Position) -> dict[Position, float]:
        if position in self._endings:
            return self._endings[position]
        if len(self._endings) >= self.rules.max_states:
            raise TooManyStates
        if self._over(position):
            self._endings[position] = {position: 1.0}
            return self._endings[position]
        step = self.round(position)
        stay = step.pop(position, 0.0)
        if stay >= 1 - 1e-12:  # nothing can ever change: neither side can hurt the other
            self._endings[position] = {position: 1.0}
            return self._endings[position]
        result: dict[Position, float] = defaultdict(float)
        for nxt, p in step.items():
            for end, q in self._solve(nxt).items():
                result[end] += p * q / (1 - stay)
        self._endings[position] = dict(result)
        return self._endings[position]

    def _over(self, position: Position) -> bool:
        return not position[ATTACKER] or not position[DEFENDER]

    def sample(self, start: Position, samples: int, seed: int = 1) -> Odds:
        """Monte Carlo odds: `samples` battles fought shot by shot with a seeded generator."""
        rng = CounterRng(seed)
        endings: dict[Position, float] = defaultdict(float)
        for _ in range(samples):
            position = start
            for _ in range(10_000):
                if self._over(position):
                    break
                step = self.round(position)
                if step.get(position, 0.0) >= 1 - 1e-12:
                    break
                point, chosen = rng.random(), position
                for nxt, p in step.items():
                    point -= p
                    chosen = nxt
                    if point < 0:
                        break
                position = chosen
            endings[position] += 1 / samples
        return self._summary(dict(endings), exact=False, samples=samples)

    def _summary(self, endings: dict[Position, float], exact: bool, samples: int) -> Odds:
        attacker = sum(p for (a, d), p in endings.items() if a and not d)
        defender = sum(p for (a, d), p in endings.items() if d and not a)
        return Odds(attacker, defender, max(0.0, 1.0 - attacker - defender), endings, exact, samples)


__all__ = ["ATTACKER", "DEFENDER", "BattleResolver", "FireRules", "Odds", "Shot", "UnitType", "d10_to_hit"]
