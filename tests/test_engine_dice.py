"""The core's dice-battle solver (`cardgen.engine.dice`), configured with a toy game written here: closed forms for
small battles, who fires first, simultaneous fire, fixed phases, retreat, an independent simulation for larger
fleets, and the limits it states."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, replace

import pytest

from cardgen.engine.dice import Chain, TooManyStates, draw, solve, spread
from cardgen.engine.rng import CounterRng

ATTACKER, DEFENDER = 0, 1
Fleet = tuple[int, ...]  # the hits each living unit can still take, sorted
Position = tuple[Fleet, Fleet]


@dataclass(frozen=True)
class Toy:
    """Units of one kind a side: each living unit rolls one die a volley, hitting with `chance[side]`; a hit goes to
    the enemy unit closest to destruction (a unit of `hull[side]` hits)."""

    chance: tuple[float, float]
    hull: tuple[int, int] = (1, 1)

    def start(self, attackers: int, defenders: int) -> Position:
        return ((self.hull[0],) * attackers, (self.hull[1],) * defenders)

    def fire(self, pos: Position, side: int, seen: Position | None = None) -> dict[Position, float]:
        """Side `side` fires with the units it has in `seen` (the position the volley starts from, for
        simultaneous fire) at the enemy in `pos`."""
        shots = len((seen or pos)[side])
        dist: dict[Fleet, float] = {pos[1 - side]: 1.0}
        p = self.chance[side]
        for _ in range(shots):
            dist = {k: v for k, v in spread(dist, lambda f: _shot(f, p)).items()}
        return {_with(pos, 1 - side, f): q for f, q in dist.items()}

    def chain(self, first: int = DEFENDER, phases: tuple = (), leaves=lambda pos: None) -> Chain[Position]:
        return Chain(round=(lambda pos: self.fire(pos, first), lambda pos: self.fire(pos, 1 - first)),
                     over=lambda pos: not pos[0] or not pos[1], outcome=_outcome,
                     order=lambda pos: -sum(pos[0]) - sum(pos[1]), phases=phases, leaves=leaves)  # fmt: skip


def _shot(fleet: Fleet, p: float) -> dict[Fleet, float]:
    if not fleet or p == 0:
        return {fleet: 1.0}
    units = sorted(fleet)
    units[0] -= 1
    hit = tuple(sorted(u for u in units if u))
    return {hit: p, fleet: 1 - p} if p < 1 else {hit: 1.0}


def _with(pos: Position, side: int, fleet: Fleet) -> Position:
    return (fleet, pos[1]) if side == ATTACKER else (pos[0], fleet)


def _outcome(pos: Position) -> str:
    return "attacker wins" if pos[0] else "defender wins" if pos[1] else "mutual destruction"


def outcomes(chain: Chain[Position], start: Position) -> dict[str, float]:
    out: dict[str, float] = {}
    for (_, how), p in solve(chain, {start: 1.0}).ends.items():
        out[how] = out.get(how, 0.0) + p
    return out


def test_one_against_one_matches_the_closed_form() -> None:
    """The defender fires first each round: P(attacker wins) = (1−d)·a / (1 − (1−a)(1−d)); the expected rounds are
    1 / (1 − (1−a)(1−d))."""
    a, d = 0.5, 0.3
    toy = Toy((a, d))
    ending = solve(toy.chain(), {toy.start(1, 1): 1.0})
    won = sum(p for (_, how), p in ending.ends.items() if how == "attacker wins")
    assert won == pytest.approx((1 - d) * a / (1 - (1 - a) * (1 - d)), abs=1e-15)
    assert sum(ending.ends.values()) == pytest.approx(1.0, abs=1e-15)
    assert ending.length == pytest.approx(1 / (1 - (1 - a) * (1 - d)), abs=1e-15)
    assert ending.states == 3  # the start and the two ways it ends


def test_the_side_that_fires_first_has_the_edge() -> None:
    """Identical units: whoever fires first wins with a / (1 − (1−a)²)."""
    toy = Toy((0.5, 0.5))
    edge = 0.5 / (1 - 0.25)
    assert outcomes(toy.chain(first=ATTACKER), toy.start(1, 1))["attacker wins"] == pytest.approx(edge, abs=1e-15)
    assert outcomes(toy.chain(first=DEFENDER), toy.start(1, 1))["defender wins"] == pytest.approx(edge, abs=1e-15)


def test_simultaneous_fire_can_destroy_both() -> None:
    """One step in which both sides fire from the round's starting position."""
    a, d = 0.5, 0.3
    toy = Toy((a, d))

    def both(pos: Position) -> dict[Position, float]:
        return spread(toy.fire(pos, ATTACKER), lambda after: toy.fire(after, DEFENDER, seen=pos))

    chain = Chain(round=(both,), over=lambda pos: not pos[0] or not pos[1], outcome=_outcome,
                  order=lambda pos: -sum(pos[0]) - sum(pos[1]))  # fmt: skip
    norm = 1 - (1 - a) * (1 - d)
    found = outcomes(chain, toy.start(1, 1))
    assert found["attacker wins"] == pytest.approx(a * (1 - d) / norm, abs=1e-15)
    assert found["defender wins"] == pytest.approx(d * (1 - a) / norm, abs=1e-15)
    assert found["mutual destruction"] == pytest.approx(a * d / norm, abs=1e-15)


def test_fixed_phases_come_before_the_repeated_round() -> None:
    """An opening volley by the attacker alone, then rounds with the defender first: a + (1−a)·P(rounds)."""
    a, d = 0.5, 0.3
    toy = Toy((a, d))
    chain = toy.chain(phases=(lambda pos: toy.fire(pos, ATTACKER),))
    rounds = (1 - d) * a / (1 - (1 - a) * (1 - d))
    assert outcomes(chain, toy.start(1, 1))["attacker wins"] == pytest.approx(a + (1 - a) * rounds, abs=1e-15)
    assert solve(chain, {toy.start(1, 1): 1.0}).length == pytest.approx(1 + (1 - a) / (1 - (1 - a) * (1 - d)))


def test_a_side_retreats_at_a_rounds_start_when_its_policy_says_so() -> None:
    """The attacker (2 hits) leaves once damaged. A round: the defender's shot, then the attacker's; the attacker
    wins with a / (1 − (1−d)(1−a)) and retreats with d(1−a) / (1 − (1−d)(1−a))."""
    a, d = 0.5, 0.3
    toy = Toy((a, d), hull=(2, 1))
    chain = toy.chain(leaves=lambda pos: "attacker retreats" if pos[0] == (1,) else None)
    found = outcomes(chain, toy.start(1, 1))
    norm = 1 - (1 - d) * (1 - a)
    assert found["attacker wins"] == pytest.approx(a / norm, abs=1e-15)
    assert found["attacker retreats"] == pytest.approx(d * (1 - a) / norm, abs=1e-15)
    assert found.get("defender wins", 0.0) == 0.0  # the retreat comes before the defender's next shot


def test_a_battle_in_which_no_die_can_hit_is_refused() -> None:
    toy = Toy((0.0, 0.0))
    with pytest.raises(ValueError, match="no die can ever hit"):
        solve(toy.chain(), {toy.start(1, 1): 1.0})


def test_a_chain_past_its_limit_stops_and_says_so() -> None:
    toy = Toy((0.5, 0.3), (2, 1))
    chain = toy.chain()
    met = solve(chain, {toy.start(3, 5): 1.0})
    assert solve(replace(chain, limit=met.states), {toy.start(3, 5): 1.0}).ends == met.ends  # within it: the same
    with pytest.raises(TooManyStates, match="passes 5 positions"):
        solve(replace(chain, limit=5), {toy.start(3, 5): 1.0})


def simulate(toy: Toy, attackers: int, defenders: int, battles: int, seed: int) -> float:
    """An independent simulation of the same rules, written plainly: each round the defender's units roll, then the
    attacker's survivors; every hit goes to the enemy unit with the fewest hits left."""
    rng = CounterRng(seed)
    wins = 0
    for _ in range(battles):
        sides = [[toy.hull[0]] * attackers, [toy.hull[1]] * defenders]
        while sides[0] and sides[1]:
            for side in (DEFENDER, ATTACKER):
                for _ in range(len(sides[side])):
                    enemy = sides[1 - side]
                    if enemy and rng.random() < toy.chance[side]:
                        weakest = enemy.index(min(enemy))
                        enemy[weakest] -= 1
                        if not enemy[weakest]:
                            del enemy[weakest]
        wins += bool(sides[0])
    return wins / battles


@pytest.mark.parametrize(("toy", "attackers", "defenders"),
                         [(Toy((0.5, 0.3), (2, 1)), 3, 5), (Toy((0.4, 0.6), (1, 2)), 4, 2),
                          (Toy((1 / 6, 0.5), (3, 1)), 2, 6)])  # fmt: skip
def test_exact_odds_agree_with_an_independent_simulation(toy: Toy, attackers: int, defenders: int) -> None:
    exact = outcomes(toy.chain(), toy.start(attackers, defenders))
    assert sum(exact.values()) == pytest.approx(1.0, abs=1e-12)
    battles = 2000
    sampled = simulate(toy, attackers, defenders, battles, seed=attackers * 7 + defenders)
    p = exact.get("attacker wins", 0.0)
    assert abs(sampled - p) < 4 * (p * (1 - p) / battles) ** 0.5 + 1e-9, (sampled, p)


def test_equal_positions_are_merged_and_draws_repeat_with_the_seed() -> None:
    toy = Toy((0.5, 0.5), (2, 2))
    step = toy.fire(toy.start(2, 2), ATTACKER)
    assert sorted(step) == [((2, 2), (1, 2)), ((2, 2), (2,)), ((2, 2), (2, 2))]  # two shots, three positions
    assert step[((2, 2), (1, 2))] == pytest.approx(0.5)  # hit-miss and miss-hit merged
    first = [draw(step, CounterRng(7)) for _ in range(3)]
    assert first == [draw(step, CounterRng(7)) for _ in range(3)]


def test_numpy_stays_out_of_the_engines_start_up() -> None:
    """The engines import the core's chain (Rift Domination's rolled battle draws from its distributions); only the
    calculators import the lattice, which needs numpy: `cardgen play` never loads it."""
    games = ("rift_domination", "space_empires_4x")
    modules = ["cardgen.engine.dice"] + [f"cardgen.engine.games.{g}.{m}" for g in games for m in ("rules", "state")]
    code = f"import sys, {', '.join(modules)}; print(sorted(m for m in sys.modules if m == 'numpy'))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stdout
