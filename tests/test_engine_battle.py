"""Exact battle odds: closed forms for small battles, an independent simulation for larger ones, and the fallback."""

from __future__ import annotations

import pytest

from cardgen.engine.battle import ATTACKER, BattleResolver, FireRules, Shot, UnitType, d10_to_hit
from cardgen.engine.rng import CounterRng

# units shaped like Space Empires 4X's ships: class (A = 0 fires first), attack, defense, hull
SE4X = [
    UnitType("Scout", 4, 3, 0, 1),
    UnitType("Destroyer", 3, 4, 0, 1),
    UnitType("Cruiser", 2, 4, 1, 2),
    UnitType("Battlecruiser", 1, 5, 1, 2),
    UnitType("Battleship", 0, 5, 2, 3),
]


def test_one_against_one_matches_the_closed_form() -> None:
    """Same class, hull 1: the defender fires first each round. P(attacker wins) = (1−d)·a / (1 − (1−a)(1−d))."""
    units = [UnitType("attacker", 1, 5, 0, 1), UnitType("defender", 1, 3, 0, 1)]
    odds = BattleResolver(units).odds((((0, 0),), ((1, 0),)))
    a, d = 0.5, 0.3
    assert odds.exact and odds.attacker_wins == pytest.approx((1 - d) * a / (1 - (1 - a) * (1 - d)))
    assert odds.attacker_wins + odds.defender_wins == pytest.approx(1.0) and odds.draw == pytest.approx(0.0)


def test_the_lower_class_fires_first() -> None:
    """A class-A ship (fires first) against an identical class-B ship: P = a / (1 − (1−a)²)."""
    units = [UnitType("A", 0, 5, 0, 1), UnitType("B", 1, 5, 0, 1)]
    resolver = BattleResolver(units)
    first = resolver.odds(resolver.position([0], [1]))
    assert first.attacker_wins == pytest.approx(0.5 / (1 - 0.25))
    second = resolver.odds(resolver.position([1], [0]))
    assert second.defender_wins == pytest.approx(0.5 / (1 - 0.25))


def test_simultaneous_fire_can_destroy_both() -> None:
    units = [UnitType("x", 0, 5, 0, 1), UnitType("y", 0, 3, 0, 1)]
    odds = BattleResolver(units, FireRules(simultaneous=True)).odds((((0, 0),), ((1, 0),)))
    a, d = 0.5, 0.3
    norm = 1 - (1 - a) * (1 - d)
    assert odds.attacker_wins == pytest.approx(a * (1 - d) / norm)
    assert odds.defender_wins == pytest.approx(d * (1 - a) / norm)
    assert odds.draw == pytest.approx(a * d / norm)


def test_the_d10_rule_a_one_always_hits_and_the_fleet_size_bonus() -> None:
    big, small = SE4X[4], SE4X[0]
    alone = (((0, 0),), ((4, 0),))
    assert d10_to_hit(Shot(ATTACKER, small, big, alone)) == pytest.approx(0.1)  # 3 − 2 = 1: only the 1
    pair = (((0, 0), (0, 0)), ((4, 0),))
    assert d10_to_hit(Shot(ATTACKER, small, big, pair)) == pytest.approx(0.2)  # twice as many: +1 attack
    assert d10_to_hit(Shot(ATTACKER, UnitType("gun", 0, 15, 0, 1), small, alone)) == pytest.approx(1.0)


def test_units_that_cannot_fire_end_in_a_draw() -> None:
    units = [UnitType("colony ship", 0, 0, 0, 1)]
    odds = BattleResolver(units).odds((((0, 0),), ((0, 0),)))
    assert odds.draw == pytest.approx(1.0)


def simulate(units, attacker: list[int], defender: list[int], battles: int, seed: int) -> float:
    """An independent simulation of the same rules, written plainly: ships fire in class order (defender first on a
    tie), at the enemy with the least hull left, d10 ≤ attack (+1 at twice the ships) − defense, 1 always hits."""
    rng = CounterRng(seed)
    wins = 0
    for _ in range(battles):
        sides = [[[u, 0] for u in attacker], [[u, 0] for u in defender]]
        while sides[0] and sides[1]:
            counts = [len(sides[0]), len(sides[1])]
            order = sorted(((side, ship) for side in (0, 1) for ship in sides[side]),
                           key=lambda sv: (units[sv[1][0]].fire_class, 0 if sv[0] == 1 else 1))  # fmt: skip
            for side, ship in order:
                if ship[1] >= units[ship[0]].hull or not sides[1 - side]:
                    continue
                enemies = [e for e in sides[1 - side] if e[1] < units[e[0]].hull]
                if not enemies:
                    continue
                target = min(enemies, key=lambda e: (units[e[0]].hull - e[1], units[e[0]].fire_class))
                bonus = 1 if counts[side] >= 2 * counts[1 - side] else 0
                to_hit = min(max(units[ship[0]].attack + bonus - units[target[0]].defense, 1), 10)
                if rng.randint(1, 10) <= to_hit:
                    target[1] += 1
            sides = [[s for s in fleet if s[1] < units[s[0]].hull] for fleet in sides]
        wins += bool(sides[0])
    return wins / battles


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [([1, 1, 1, 2, 2, 3], [0, 0, 0, 0, 4, 4]), ([4, 4], [2, 2, 2]), ([0, 0, 0, 0, 0, 0], [3])],
)
def test_exact_odds_agree_with_an_independent_simulation(attacker: list[int], defender: list[int]) -> None:
    resolver = BattleResolver(SE4X)
    odds = resolver.odds(resolver.position(attacker, defender))
    assert odds.exact
    battles = 2000
    sampled = simulate(SE4X, attacker, defender, battles, seed=len(attacker) * 7 + len(defender))
    error = (odds.attacker_wins * (1 - odds.attacker_wins) / battles) ** 0.5
    assert abs(sampled - odds.attacker_wins) < 4 * error + 1e-9, (sampled, odds.attacker_wins)
    assert sum(odds.endings.values()) == pytest.approx(1.0)


def test_a_battle_too_large_to_enumerate_is_sampled_and_says_so() -> None:
    resolver = BattleResolver(SE4X, FireRules(max_states=5, samples=400))
    odds = resolver.odds(resolver.position([1, 1, 1, 2, 2, 3], [0, 0, 0, 0, 4, 4]))
    assert not odds.exact and odds.samples == 400 and odds.standard_error > 0
    exact = BattleResolver(SE4X).odds(resolver.position([1, 1, 1, 2, 2, 3], [0, 0, 0, 0, 4, 4]))
    assert abs(odds.attacker_wins - exact.attacker_wins) < 4 * odds.standard_error
