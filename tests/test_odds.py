"""The exact battle calculator of Space Empires 4X (`cardgen odds`): closed forms, symmetries, the rulebook's
modifiers, agreement with battles rolled shot by shot, and the command line."""

from __future__ import annotations

import json
import math

import pytest

from cardgen.data import load_games
from cardgen.engine.games.space_empires_4x.combat import Group, Rules, closed_form_scout_duel, fight
from cardgen.engine.games.space_empires_4x.exact import exact_odds
from cardgen.engine.games.space_empires_4x.odds import odds
from cardgen.engine.rng import CounterRng
from cardgen.errors import DataError

from conftest import REPO, run_cli


@pytest.fixture(scope="module")
def game():
    (loaded,) = load_games(REPO / "card_data", ["space-empires-4x"])
    return loaded


@pytest.fixture(scope="module")
def rules(game) -> Rules:
    return Rules.from_facts(game.fact)


def test_one_scout_against_one_scout_is_the_closed_form(game):
    result = odds(game, "1 SC", "1 SC", retreat=False)
    assert closed_form_scout_duel() == pytest.approx(0.588, abs=5e-4)
    assert result.outcomes["defender wins"] == pytest.approx(float(closed_form_scout_duel()), abs=1e-12)
    assert result.length == pytest.approx(1 / (1 - 0.7**2), abs=1e-12)  # a round ends it with p 0.51


def test_higher_tactics_fires_first_the_mirror_of_the_defenders_edge(game):
    first = odds(game, "2 DD", "2 DD", attacker_tech="tactics=1", retreat=False).outcomes["attacker wins"]
    plain = odds(game, "2 DD", "2 DD", retreat=False).outcomes["defender wins"]
    assert first == pytest.approx(plain, abs=1e-12) and plain > 0.5


def test_every_distribution_sums_to_one_and_losses_match_survivors(game):
    result = odds(game, "3 DD, 2 CA, 1 BC", "2 BB, 1 CA", defender_tech="defense=1", terrain="open")
    assert sum(result.outcomes.values()) == pytest.approx(1, abs=1e-9)
    for dist in result.survivors:
        assert sum(dist.values()) == pytest.approx(1, abs=1e-9)
    assert result.outcomes["mutual destruction"] == 0
    assert 0 < result.lost[0] < 3 * 9 + 2 * 12 + 15


def test_the_retreat_policy_compares_exactly(game):
    """Retreat (the calculator's stated policy): a side leaves when it expects under half the enemy's hits. 1 SC and
    1 SW expect 4 + 2 = 6 tenths of a hit a round, the lone Scout 3: exactly half, so the defender stays (a float
    sum made 0.4 + 0.2 exceed 0.6 and took the defender out 33.6 % of the time)."""
    from cardgen.engine.games.space_empires_4x.combat import retreats

    assert not retreats(3, 6) and retreats(2, 5) and not retreats(0, 0)
    result = odds(game, "1 SC, 1 SW", "1 SC")
    assert result.outcomes["defender retreats"] == 0
    assert sum(result.outcomes.values()) == pytest.approx(1, abs=1e-12)


def test_counter_limits_cap_groups_not_ships(game):
    """Purchase Limits: a player has 4 Destroyer counters, each a group of 1-6 ships ('Each spaceship Group can
    contain 1-6 units'), so one group of 5 DD is legal and five groups of DD are not."""
    assert odds(game, "5 DD", "1 CA", retreat=False).outcomes["attacker wins"] > 0.5
    assert odds(game, "6 DD, 6 DD, 6 DD, 6 DD", "1 CA", retreat=False).outcomes["attacker wins"] > 0.99
    with pytest.raises(DataError, match="5 groups of DD, but a player has 4 DD counters"):
        odds(game, "1 DD, 1 DD, 1 DD, 1 DD, 1 DD", "1 CA")


def test_technology_is_per_group(game):
    """Ships keep the technology they were built with ('Ship Size Technology … You may use this new tech in the same
    Economic Turn it was purchased'; older ships are not refitted): a group may name its own levels."""
    mixed = odds(game, "2 DD attack=2, 2 DD", "2 CA", retreat=False)
    both = odds(game, "2 DD attack=2, 2 DD attack=2", "2 CA", retreat=False)
    none = odds(game, "2 DD, 2 DD", "2 CA", retreat=False)
    assert none.outcomes["attacker wins"] < mixed.outcomes["attacker wins"] < both.outcomes["attacker wins"]
    side = odds(game, "2 DD, 2 DD", "2 CA", attacker_tech="attack=2", retreat=False)
    assert side.outcomes == both.outcomes  # the side's levels are every group's unless it names its own
    own = odds(game, "2 DD, 2 DD attack=0", "2 CA", attacker_tech="attack=2", retreat=False)
    assert own.outcomes == mixed.outcomes
    with pytest.raises(DataError, match="--attacker: 'speed=1' is not one of"):
        odds(game, "2 DD speed=1", "2 CA")


def test_what_is_not_modelled_is_said_with_the_result(game):
    plain = odds(game, "2 DD", "1 CA").policies
    assert not any("raiders" in p or "fighters" in p for p in plain)
    assert any(p.startswith("retreat:") and "at the round's start" in p for p in plain)
    with_raider = odds(game, "1 R, 2 F", "1 CA").policies
    assert any("raiders: fight uncloaked" in p for p in with_raider)
    assert any("fighters: fight as plain ships" in p for p in with_raider)
    with pytest.raises(DataError, match="has no attack: it is not a combat unit"):
        odds(game, "1 Mine", "1 CA")


def test_terrain_and_hull_size_limit_technology(game):
    asteroids = odds(game, "2 CA", "2 CA", attacker_tech="attack=2", terrain="asteroids", retreat=False)
    bare = odds(game, "2 CA", "2 CA", terrain="asteroids", retreat=False)
    assert asteroids.outcomes == bare.outcomes  # asteroids: attack technology counts zero
    nebula = odds(game, "2 CA", "2 CA", defender_tech="defense=2", terrain="nebula", retreat=False)
    assert nebula.outcomes == odds(game, "2 CA", "2 CA", terrain="nebula", retreat=False).outcomes
    scout3 = odds(game, "1 SC", "1 SC", attacker_tech="attack=3", retreat=False)
    scout1 = odds(game, "1 SC", "1 SC", attacker_tech="attack=1", retreat=False)
    assert scout3.outcomes == scout1.outcomes  # hull size 1 caps attack technology at 1


def test_the_fleet_size_bonus_adds_one_to_hit(rules):
    sc = Group("SC", 1, "E", 3, 0, 1, 6, True)
    two, one = Group("SC", 2, "E", 3, 0, 1, 6, True), sc
    with_bonus = exact_odds(rules, [two], [one], retreat=False).outcomes["attacker wins"]
    no_bonus = exact_odds(Rules(**{**rules.__dict__, "bonus_attack": 0}), [two], [one], retreat=False)
    assert with_bonus > no_bonus.outcomes["attacker wins"]


@pytest.mark.parametrize(
    ("attacker", "defender", "terrain", "retreat"),
    [("2 DD, 1 CA", "1 BB", "open", True), ("3 SC, 1 BC", "2 CA", "open", False), ("2 BB", "4 DD", "nebula", True)],
)
def test_battles_rolled_shot_by_shot_agree_with_the_exact_odds(game, rules, attacker, defender, terrain, retreat):
    from cardgen.engine.games.space_empires_4x.odds import parse_fleet, parse_tech

    a = parse_fleet(game, attacker, parse_tech(game, None, "attacker"), "attacker")
    d = parse_fleet(game, defender, parse_tech(game, None, "defender"), "defender")
    exact = exact_odds(rules, a, d, terrain, retreat)
    rng, n = CounterRng(2026), 2500
    counts: dict[str, int] = {}
    for _ in range(n):
        outcome, _ = fight(rules, a, d, terrain, retreat, rng)
        counts[outcome] = counts.get(outcome, 0) + 1
    for outcome, p in exact.outcomes.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-9) / n)
        assert abs(counts.get(outcome, 0) / n - p) < 4.5 * sigma + 1e-9, (outcome, counts, exact.outcomes)


def test_odds_on_the_command_line(tmp_path):
    run = run_cli("odds", "space-empires-4x", "--attacker", "1 SC", "--defender", "1 SC", "--no-retreat", "--json")
    assert run.code == 0, run.err
    figures = json.loads(run.out)
    assert figures["outcomes"]["defender wins"] == pytest.approx(0.588235, abs=1e-6)
    assert any("targets" in p for p in figures["policies"])
    assert figures["unfollowed"] == 0  # a small battle: every cell is followed
    for args, message in [
        (["--attacker", "2 DX", "--defender", "1 BB"], "unknown unit 'DX'"),
        (["--attacker", "2 CO", "--defender", "1 BB"], "not a combat unit"),
        (["--attacker", "9 DD", "--defender", "1 BB"], "1–6 ships"),
        (["--attacker", "2 DD", "--defender", "1 BB", "--attacker-tech", "attack=9"], "goes up to 3"),
        (["--attacker", "2 DD"], "give both fleets"),
    ]:
        bad = run_cli("odds", "space-empires-4x", *args)
        assert bad.code != 0 and message in bad.err and bad.exception is None and "Traceback" not in bad.err, bad.err
    other = run_cli("odds", "star-commander", "--attacker", "1 SC", "--defender", "1 SC")
    assert other.code != 0 and "no battle calculator" in other.err


@pytest.mark.parametrize(("attacker", "defender"), [("2 DD, 1 CA", "1 BB"), ("3 SC", "2 DD"), ("1 BC, 2 SC", "2 CA"),
                                                 ("2 DD", "2 DD attack=1")])  # fmt: skip
def test_the_cores_two_representations_agree(game, rules, attacker, defender):
    """The core solves a battle either a position at a time (`dice.chain`, which Rift Domination uses) or an
    anti-diagonal of hits at a time with arrays (`dice.lattice`, Space Empires 4X's): configured here with the same
    rules (no retreat, no fleet-size bonus, which the lattice keys by the round's start), group by group shot by
    shot, the chain gives the lattice's odds and length."""
    from cardgen.engine.dice import Chain, solve, spread
    from cardgen.engine.games.space_empires_4x.combat import Side, firing_order, to_hit
    from cardgen.engine.games.space_empires_4x.odds import parse_fleet, parse_tech

    plain = Rules(**{**rules.__dict__, "bonus_attack": 0})
    groups = [parse_fleet(game, text, parse_tech(game, None, side), side)
              for text, side in ((attacker, "attacker"), (defender, "defender"))]  # fmt: skip
    order = firing_order(plain, groups, "open")
    rank = {slot: n for n, slot in enumerate(order)}
    sides = [Side(groups[s], {i: rank[(s, i)] for i in range(len(groups[s]))}) for s in (0, 1)]

    def volley(side: int, index: int):
        enemy = sides[1 - side]

        def shot(hits: int) -> dict[int, float]:
            if hits == enemy.total_hits:
                return {hits: 1.0}
            p = to_hit(plain, groups[side][index], enemy.target_at(hits), False, "open") / plain.die_faces
            return {hits + 1: p, hits: 1 - p}

        def fire(pos: tuple[int, int]) -> dict[tuple[int, int], float]:
            dist = {pos[1 - side]: 1.0}
            for _ in range(sides[side].states[pos[side]][index][0]):  # its ships left fire one by one
                dist = spread(dist, shot)
            return {((pos[0], h) if side == 0 else (h, pos[1])): q for h, q in dist.items()}

        return fire

    def over(pos: tuple[int, int]) -> bool:
        return sides[0].ships(pos[0]) == 0 or sides[1].ships(pos[1]) == 0

    chain = Chain(round=[volley(side, index) for side, index in order], over=over,
                  outcome=lambda pos: "defender wins" if sides[0].ships(pos[0]) == 0 else "attacker wins",
                  order=sum)  # fmt: skip
    ending = solve(chain, {(0, 0): 1.0})
    found = {"attacker wins": 0.0, "defender wins": 0.0}
    for (_, how), p in ending.ends.items():
        found[how] += p
    arrays = exact_odds(plain, groups[0], groups[1], "open", retreat=False)
    assert found["attacker wins"] == pytest.approx(arrays.outcomes["attacker wins"], abs=1e-12)
    assert found["defender wins"] == pytest.approx(arrays.outcomes["defender wins"], abs=1e-12)
    assert ending.length == pytest.approx(arrays.length, abs=1e-9)


BEFORE = json.loads((REPO / "tests" / "fixtures" / "se4x_odds_before.json").read_text())


@pytest.mark.parametrize("saved", BEFORE, ids=[f"{m['attacker'][:20]} v {m['defender'][:20]} {m['terrain']}"
                                               f"{'' if m['retreat'] else ' no-retreat'}" for m in BEFORE])  # fmt: skip
def test_the_array_solver_gives_the_odds_the_dictionary_solver_gave(game, saved):
    """40 match-ups (small, mixed classes, terrains, technology per side and per group, the fleet-size bonus, a
    certain hit, retreat on and off, up to 48 ships a side) saved from the solver that pushed dictionaries of
    (hits, hits, shot) states (commit 11a62e9): every probability and expectation is the same to 1e-9."""
    result = odds(game, saved["attacker"], saved["defender"], attacker_tech=saved["attacker_tech"],
                  defender_tech=saved["defender_tech"], terrain=saved["terrain"], retreat=saved["retreat"])  # fmt: skip
    assert result.outcomes == pytest.approx(saved["outcomes"], abs=1e-9, rel=0)
    for side in (0, 1):
        kept = {k: v for k, v in result.survivors[side].items() if v > 1e-15}
        assert kept == pytest.approx({k: v for k, v in saved["survivors"][side].items() if v > 1e-15}, abs=1e-9, rel=0)
    assert result.lost == pytest.approx(saved["lost"], abs=1e-9, rel=1e-12)
    assert result.length == pytest.approx(saved["rounds"], abs=1e-9, rel=1e-12)
    assert 0 < result.states <= saved["states_before"]  # volleys: fewer states, each a group's shots at once


def test_cells_under_the_floor_are_counted_not_lost(game, monkeypatch):
    """The lattice leaves out the cells that hold under `lattice.FLOOR` of the probability (1e-30) and counts what
    they held or would have scored as `unfollowed`. 48 ships a side, no retreat: the floor leaves cells out, yet
    every figure is the one that following every cell gives to 1e-15; and with a floor that leaves out much of the
    battle, the probability settled and the probability not followed still add up to one."""
    from cardgen.engine.dice import lattice

    limits = {"SC": 5, "DD": 4, "CA": 4, "BC": 4, "BB": 4, "DN": 2, "SY": 4, "Base": 2, "R": 4, "CV": 4, "F": 8}
    limits["SW"] = 3
    fleet = ", ".join(f"1 {code}" for code, limit in limits.items() for _ in range(limit))
    solve = lattice.solve

    def with_floor(floor: float):
        monkeypatch.setattr(lattice, "solve", lambda *given: solve(*given, floor=floor))
        try:
            return odds(game, fleet, fleet, retreat=False)
        finally:
            monkeypatch.setattr(lattice, "solve", solve)

    floored, every = odds(game, fleet, fleet, retreat=False), with_floor(0.0)
    assert every.unfollowed == 0 and 0 < floored.unfollowed < 1e-25
    assert floored.states < every.states
    assert floored.outcomes == pytest.approx(every.outcomes, abs=1e-15, rel=0)
    assert floored.length == pytest.approx(every.length, abs=0, rel=1e-12)
    assert floored.lost == pytest.approx(every.lost, abs=0, rel=1e-12)
    coarse = with_floor(1e-4)
    assert coarse.unfollowed > 1e-3
    assert sum(coarse.outcomes.values()) + coarse.unfollowed == pytest.approx(1, abs=1e-12)
