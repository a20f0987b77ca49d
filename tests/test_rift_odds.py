"""Rift Domination's battle calculator (`cardgen odds rift-domination`): hand-computed duels, each skill on a
hand-built side, and thousands of battles rolled die by die (an implementation written here, apart from the
calculator's distributions) agreeing with the exact odds within sampling error."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from cardgen.data import load_games
from cardgen.engine.games.rift_domination.battle import ATTACKER, DEFENDER, Battle, Rules, fight, muster
from cardgen.engine.games.rift_domination.odds import kinds_of, odds
from cardgen.engine.rng import CounterRng

from conftest import REPO, run_cli

DATA = REPO / "card_data"


@pytest.fixture(scope="module")
def game():
    (loaded,) = load_games(DATA, ["rift-domination"])
    return loaded


@pytest.fixture(scope="module")
def kinds(game):
    return kinds_of(game)


def battle(game, ground=False, retreat=True) -> Battle:
    return Battle(Rules.from_facts(game.fact), kinds_of(game), ground=ground, retreat=retreat)


def side(b: Battle, *units) -> int:
    """The number of a side state holding these (kind, shields, LP) units, no repair used yet."""
    return b.number((tuple(sorted(units)), 0, 0))


def index(kinds, name: str) -> int:
    return next(i for i, k in enumerate(kinds) if k.name == name)


def test_the_hit_table_becomes_chances(game):
    rules = Rules.from_facts(game.fact)
    assert rules.hit["close"] == {"close": 5 / 6, "mid": 3 / 6, "far": 2 / 6}
    assert rules.hit["long"]["far"] == 5 / 6 and rules.hit["mid"]["far"] == 4 / 6
    assert rules.space_phases == ("far", "mid", "close") and rules.ground_phases == ("mid", "close")


def test_one_fighter_against_one_fighter_by_hand(game):
    """Far: 2 in 6 to hit, mid 3 in 6, close 5 in 6; the attacker fires first in every phase, and after the close
    phase the close phase repeats: P = 1/3 + (2/3)²·(1/2 + (1/2)²·(5/6)/(1 − (1/6)²)) = 82/126."""
    far, mid, close = Fraction(1, 3), Fraction(1, 2), Fraction(5, 6)
    repeat = close / (1 - (1 - close) ** 2)
    expected = far + (1 - far) ** 2 * (mid + (1 - mid) ** 2 * repeat)
    result = odds(game, "1 fighter", "1 fighter", retreat=False)
    assert result.outcomes["attacker wins"] == pytest.approx(float(expected), abs=1e-12)
    assert result.outcomes["defender wins"] == pytest.approx(1 - float(expected), abs=1e-12)


def duel(game, attacker: str, defender: str) -> Fraction:
    """A one-against-one space battle computed here die by die with fractions: each side has one unit with one
    close weapon; (hits left on A, hits left on D) move through far, mid and repeated close phases."""
    kinds = kinds_of(game)
    a, d = (kinds[index(kinds, n)] for n in (attacker, defender))
    chances = [Fraction(1, 3), Fraction(1, 2), Fraction(5, 6)]
    memo: dict[tuple[int, int, int], Fraction] = {}

    def win(ha: int, hd: int, phase: int) -> Fraction:  # P(attacker wins) with the attacker to fire
        if hd == 0:
            return Fraction(1)
        if ha == 0:
            return Fraction(0)
        key = (ha, hd, phase)
        if key in memo:
            return memo[key]
        p = chances[min(phase, 2)]
        nxt = min(phase + 1, 2)
        if phase >= 2:  # the repeating close phase: solve the loop where both miss
            stay = (1 - p) ** 2
            value = (p * after_a(ha, hd - 1, p) + (1 - p) * p * win(ha - 1, hd, 2)) / (1 - stay)
        else:
            value = p * after_a(ha, hd - 1, p, nxt) + (1 - p) * (p * win(ha - 1, hd, nxt) + (1 - p) * win(ha, hd, nxt))
        memo[key] = value
        return value

    def after_a(ha: int, hd: int, p: Fraction, nxt: int = 2) -> Fraction:  # the attacker hit; the defender fires
        if hd == 0:
            return Fraction(1)
        return p * win(ha - 1, hd, nxt) + (1 - p) * win(ha, hd, nxt)

    return win(a.lp + a.shields, d.lp + d.shields, 0)


@pytest.mark.parametrize("attacker, defender", [("fighter", "carrier"), ("carrier", "fighter"), ("carrier", "carrier")])
def test_a_carrier_needs_its_shield_and_its_lp_broken(game, attacker, defender):
    expected = duel(game, attacker, defender)
    result = odds(game, f"1 {attacker}", f"1 {defender}", retreat=False)
    assert result.outcomes["attacker wins"] == pytest.approx(float(expected), abs=1e-12)


def test_a_hit_takes_a_shield_then_lp_and_goes_to_the_unit_closest_to_destruction(game, kinds):
    b = battle(game)
    carrier, fighter, sentinel = (index(kinds, n) for n in ("carrier", "fighter", "sentinel"))
    start = side(b, (carrier, 1, 1), (fighter, 0, 1))
    after, *_ = b.take(start, 1)
    assert b.sides[after][0] == ((carrier, 1, 1),)  # the fighter (one hit from destruction) goes first
    after, *_ = b.take(after, 1)
    assert b.sides[after][0] == ((carrier, 0, 1),)  # the shield absorbs before the LP
    taunting = side(b, (fighter, 0, 1), (sentinel, 1, 3))
    after, *_ = b.take(taunting, 1)
    assert (fighter, 0, 1) in b.sides[after][0]  # a taunting unit is hit before any other


def test_repair_rush_negates_up_to_four_damage_once(game, kinds):
    b = battle(game)
    tender, flagship = index(kinds, "tender"), index(kinds, "flagship")
    start = side(b, (flagship, 5, 5), (tender, 0, 2))
    after, *_ = b.take(start, 6)
    assert b.sides[after][1] == 1 and sum(u[1] + u[2] for u in b.sides[after][0]) == 12 - 2
    again, *_ = b.take(after, 3)
    assert sum(u[1] + u[2] for u in b.sides[again][0]) == 10 - 3  # used once: no more negation


def test_repair_rush_is_used_by_the_first_damage_it_negates_not_by_a_volley_that_misses(game, kinds):
    """Rulebook, Unit-skills: "REPAIR RUSH: After your enemy has dealt damage in one of the battle phases you can
    negate 4 damage"; the calculator's policy: repairs are used the first time they negate damage. A volley that
    scores nothing, or whose hits all fall on buildings, leaves the Repair Rush for later."""
    b = battle(game, ground=True)
    tender, flagship, outpost = index(kinds, "tender"), index(kinds, "flagship"), index(kinds, "outpost")
    start = side(b, (flagship, 5, 5), (tender, 0, 2))
    missed, *_ = b.take(start, 0)
    assert missed == start and b.sides[missed][1] == 0  # nothing hit: nothing used, the same state
    walls = side(b, (outpost, 0, 1), (tender, 0, 2))  # the outpost is closest to destruction: it takes the hits
    after, *_ = b.take(walls, 2)  # the first negated by the tender's Repair Bldg, the second destroys it
    assert b.sides[after] == (((tender, 0, 2),), 0, 1)
    hit, *_ = b.take(start, 2)
    assert b.sides[hit][1] == 1 and b.left[hit] == b.left[start]  # two damage negated: used once


def test_a_destroyed_kamikaze_strikes_back_on_three_or_more(game, kinds):
    b = battle(game)
    drone, flagship = index(kinds, "drone"), index(kinds, "flagship")
    pos = (side(b, (drone, 0, 1)), side(b, (flagship, 5, 5)))
    dist = b.damage(pos, ATTACKER, 1)
    hurt = {b.left[p[1]]: q for p, q in dist.items()}
    assert hurt == pytest.approx({7: 4 / 6, 10: 2 / 6})


def test_rocket_barrage_destroys_fighters_on_four_or_more(game, kinds):
    b = battle(game)
    flagship, fighter = index(kinds, "flagship"), index(kinds, "fighter")
    pos = muster(b, [[flagship], [fighter] * 4])
    dist = b.opening(pos)
    by_left = {len(b.units(p, DEFENDER)): q for p, q in dist.items()}
    assert by_left == pytest.approx({4: 1 / 8, 3: 3 / 8, 2: 3 / 8, 1: 1 / 8})  # three targets, 3 in 6 each


def test_overload_defensive_ring_and_bombardment_set_up_the_battle(game, kinds):
    b = battle(game, ground=True)
    infantry, bastion, aegis = (index(kinds, n) for n in ("infantry", "bastion", "aegis"))
    goliath, base, shield = (index(kinds, n) for n in ("goliath", "military_base", "shield_generator"))
    outpost = index(kinds, "outpost")
    home = muster(b, [[infantry], [bastion, outpost, base]], orbit=[[goliath], []], home=True)
    defenders = dict((kinds[u[0]].name, u[1:]) for u in b.units(home, DEFENDER))
    assert defenders["bastion"] == (2 + 2, 3 + 2)  # Defensive Ring at home
    assert defenders["military_base"] == (1, 3 - 1) and defenders["outpost"] == (0, 2 - 1)  # bombarded LP
    shielded = muster(b, [[infantry], [outpost, base, shield]], orbit=[[goliath], []])
    names = dict((kinds[u[0]].name, u[1:]) for u in b.units(shielded, DEFENDER))
    assert names["outpost"] == (0, 2) and names["military_base"] == (1 + 4, 3)  # no bombardment; overload on the base
    space = battle(game)
    fleet = muster(space, [[aegis, infantry], [infantry]])
    assert max(u[1] for u in space.units(fleet, ATTACKER)) == 1 + 4  # the dearer unit takes the shields


NEED = {
    "close": {"close": 2, "mid": 4, "far": 5},
    "mid": {"close": 4, "mid": 2, "far": 3},
    "long": {"close": 5, "mid": 3, "far": 2},
}  # the rulebook's table, typed again here


def roll_battle(b: Battle, pos, rng) -> str:
    """One battle rolled die by die (written apart from the calculator's volley distributions)."""

    def volley(shooter: int, at: str) -> None:
        nonlocal pos
        hits = 0
        for unit in b.units(pos, shooter):
            for weapon, dice in zip(("close", "mid", "long"), b.kinds[unit[0]].weapons, strict=True):
                hits += sum(1 for _ in range(dice) if rng.randbelow(6) + 1 >= NEED[weapon][at])
        strike(1 - shooter, hits, False)

    def strike(target: int, hits: int, single: bool) -> None:
        nonlocal pos
        side, kamikaze, _ = b.take(pos[target], hits, single)
        pos = (side, pos[1]) if target == ATTACKER else (pos[0], side)
        for _ in range(kamikaze):
            if rng.randbelow(6) + 1 >= 3:
                strike(1 - target, 3, True)

    for at in b.phases:
        for shooter in (ATTACKER, DEFENDER):
            if not b.over(pos):
                volley(shooter, at)
    while not b.over(pos):
        going = b.leaver(pos)
        if going is not None:
            return "attacker retreats" if going == ATTACKER else "defender retreats"
        for shooter in (ATTACKER, DEFENDER):
            if not b.over(pos):
                volley(shooter, "close")
    a, d = not b.empty[pos[0]], not b.empty[pos[1]]
    return "attacker wins" if a else "defender wins" if d else "mutual destruction"


@pytest.mark.parametrize("attacker, defender, ground", [
    ("3 drone, 1 destroyer", "1 sentinel, 2 fighter", False),
    ("3 infantry, 1 bastion", "2 infantry", True),
])  # fmt: skip
def test_battles_rolled_die_by_die_agree_with_the_exact_odds(game, kinds, attacker, defender, ground):
    exact = odds(game, attacker, defender, ground=ground)
    b = battle(game, ground=ground)
    fleets = [[index(kinds, w.split()[1])] * int(w.split()[0]) for w in attacker.split(", ")]
    att = [k for group in fleets for k in group]
    dfd = [index(kinds, w.split()[1]) for w in defender.split(", ") for _ in range(int(w.split()[0]))]
    if ground:
        dfd.append(index(kinds, "outpost"))
    start = muster(b, [att, dfd])
    rng = CounterRng(20261124)
    n = 3000
    counts: dict[str, int] = {}
    for _ in range(n):
        how = roll_battle(b, start, rng)
        counts[how] = counts.get(how, 0) + 1
    for how, p in exact.outcomes.items():
        share = counts.get(how, 0) / n
        assert abs(share - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-9, (how, share, p)
    fought = [fight(b, start, rng)[0] for _ in range(300)]  # the engine's roll goes through the same phases
    assert abs(fought.count("attacker wins") / 300 - exact.outcomes["attacker wins"]) < 0.1


def test_the_command_line_prints_the_odds_and_refuses_what_does_not_apply():
    run = run_cli("odds", "rift-domination", "--attacker", "2 fighter, 1 carrier", "--defender", "1 carrier", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["where"] == "space" and abs(sum(data["outcomes"].values()) - 1) < 1e-5
    bad = run_cli(
        "odds", "rift-domination", "--attacker", "2 fighter", "--defender", "1 carrier", "--terrain", "nebula"
    )
    assert bad.code != 0 and "--terrain does not apply to rift-domination" in bad.err
    typo = run_cli("odds", "rift-domination", "--attacker", "2 fightr", "--defender", "1 carrier")
    assert typo.code != 0 and "did you mean 'fighter'" in typo.err and "Traceback" not in typo.err
    upgrades = run_cli("odds", "rift-domination", "--attacker", "2 infantry", "--defender", "1 infantry",
                       "--planet-upgrades", "artillery")  # fmt: skip
    assert upgrades.code != 0 and "only in a ground battle" in upgrades.err


def test_a_battle_nobody_can_fire_in_is_refused(game, kinds):
    b = battle(game)
    start = muster(b, [[index(kinds, "diplomat")], [index(kinds, "tender")]])
    with pytest.raises(ValueError, match="no unit has a weapon"):
        fight(b, start, CounterRng(1))


@pytest.mark.parametrize(
    ("attacker", "defender", "ground"),
    [
        ("3 fighter, 2 interceptor, 2 drone", "2 sentinel, 3 fighter, 1 tender", False),  # kamikaze, repair, barrage
        ("2 aegis, 2 goliath, 2 lancer", "2 siege, 2 bomber, 2 destroyer", False),  # overload, every range
        ("4 infantry, 2 bastion", "3 infantry, 1 bastion", True),  # a ground battle: mid and close only
    ],
)
def test_phases_carried_volley_by_volley_are_the_phases_carried_whole(game, attacker, defender, ground):
    """The calculator carries each fixed phase volley by volley, merging equal positions in between (issue 42: at
    16 units a side, carrying a position through both volleys at once took nearly all the time). The distribution
    must be the one `Battle.phase` gives as one step: every ending, its chance, the length and the states met."""
    from cardgen.engine.dice import Chain, solve
    from cardgen.engine.games.rift_domination.battle import chain_of
    from cardgen.engine.games.rift_domination.odds import parse_fleet

    kinds = kinds_of(game)
    b = battle(game, ground=ground)
    fleets = [parse_fleet(kinds, attacker, "attacker"), parse_fleet(kinds, defender, "defender")]
    fighting = [[k for k in fleet if kinds[k].ground == ground] for fleet in fleets]
    orbit = [[k for k in fleet if kinds[k].ground != ground] for fleet in fleets]
    start = muster(b, fighting, orbit)
    chain = chain_of(b)
    assert all(isinstance(phase, tuple) and len(phase) == 2 for phase in chain.phases)
    whole = Chain(round=chain.round, over=chain.over, outcome=chain.outcome, order=chain.order, leaves=chain.leaves,
                  phases=tuple(lambda pos, at=at: b.phase(pos, at) for at in b.phases))  # fmt: skip
    by_volley, by_phase = solve(chain, b.opening(start)), solve(whole, b.opening(start))
    assert by_volley.states == by_phase.states
    assert by_volley.length == pytest.approx(by_phase.length, rel=1e-12)
    assert list(by_volley.ends) == list(by_phase.ends)  # the same endings, first met in the same order
    for key, p in by_phase.ends.items():
        assert by_volley.ends[key] == pytest.approx(p, rel=1e-12, abs=1e-15)


def _solved(game, attacker, defender, ground=False, retreat=True, home=False, upgrades=None, revenge=None, table=True):
    """One battle solved by the table of side states (`pairs`, what `cardgen odds` runs) or a position at a time
    (`chain`), its ends keyed by the sides' units so that the two battles' numbers need not agree."""
    from cardgen.engine.dice import pairs, solve
    from cardgen.engine.games.rift_domination.battle import chain_of, sides_of
    from cardgen.engine.games.rift_domination.odds import parse_fleet, parse_upgrades

    kinds = kinds_of(game)
    b = battle(game, ground=ground, retreat=retreat)
    b.revenge = revenge or (None, None)  # a faction's: each unit of the side destroyed strikes back on a roll
    fleets = [parse_fleet(kinds, attacker, "attacker"), parse_fleet(kinds, defender, "defender")]
    fighting = [[k for k in fleet if kinds[k].ground == ground] for fleet in fleets]
    orbit = [[k for k in fleet if kinds[k].ground != ground] for fleet in fleets]
    if ground:
        fighting[DEFENDER] += [index(kinds, "outpost"), *parse_upgrades(kinds, upgrades)]
    start = muster(b, fighting, orbit, home)
    ending = pairs.solve(sides_of(b), b.opening(start)) if table else solve(chain_of(b), b.opening(start))
    ends = {(b.sides[pos[0]], b.sides[pos[1]], how): p for (pos, how), p in ending.ends.items()}
    return ends, ending.length, ending.states


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("3 fighter, 2 interceptor, 2 drone", "2 sentinel, 3 fighter, 1 tender", {}),  # kamikaze, repair, barrage
        ("3 fighter, 2 interceptor, 2 drone", "2 sentinel, 3 fighter, 1 tender", {"retreat": False}),
        ("2 aegis, 2 goliath, 2 lancer", "2 siege, 2 bomber, 2 destroyer", {}),  # overload, every range
        ("3 drone, 2 flagship", "2 tender, 3 goliath", {}),  # kamikaze against repairs
        ("4 drone, 1 goliath", "3 drone, 1 flagship", {}),  # kamikaze on both sides: strikes struck back
        ("2 flagship, 1 sentinel", "3 goliath", {"home": True}),  # taunt, Defensive Ring
        ("4 infantry, 2 bastion, 2 goliath", "3 infantry, 1 bastion, 1 tender",
         {"ground": True, "upgrades": "artillery,military_base"}),  # a ground battle, bombardment, buildings
        ("4 flagship", "4 flagship", {"retreat": False}),
        ("3 fighter, 2 goliath", "2 drone, 2 destroyer", {"revenge": ((4, 1), None)}),  # a faction's revenge
    ],
)  # fmt: skip
def test_the_table_of_side_states_solves_the_chain_a_position_at_a_time_solves(game, attacker, defender, options):
    """Issue 42: `cardgen odds` solves the battle over a table of the two sides' states with arrays (`dice.pairs`),
    from 9-12 s to under a second at 16 units a side. It must be the chain `chain.solve` solves position by
    position: every ending (each side's units left, how it ended) with its chance, the expected phases and the
    positions met."""
    table, length, states = _solved(game, attacker, defender, **options)
    chain, chain_length, chain_states = _solved(game, attacker, defender, table=False, **options)
    assert states == chain_states
    assert length == pytest.approx(chain_length, rel=1e-12)
    assert set(table) == set(chain)
    for key, p in chain.items():
        assert table[key] == pytest.approx(p, rel=1e-12, abs=1e-15)


def test_takes_gives_take_for_every_number_of_hits(game, kinds):
    """`Battle.takes` (the table's rows) works out every number of hits at once: hit by hit while a repair is
    unused, else one hit and then the next state's row. Each must be `take`'s."""
    b = battle(game)
    tender, flagship, drone, carrier = (index(kinds, n) for n in ("tender", "flagship", "drone", "carrier"))
    repaired = side(b, (flagship, 5, 5), (tender, 0, 2), (drone, 0, 1), (drone, 0, 1), (carrier, 1, 1))
    plain = side(b, (flagship, 5, 5), (drone, 0, 1), (drone, 0, 1), (carrier, 1, 1))
    for start, left, negated in ((repaired, 16, 4), (plain, 14, 0)):
        after, codes = b.takes(DEFENDER, start, 20)
        for hits in range(21):
            number, kamikaze, lost = b.take(start, hits)
            assert after[hits] == number
            assert codes[hits] == b.strike_code(DEFENDER, kamikaze, lost)
        assert codes[0] == 0 and any(codes)  # the drones strike back once destroyed
        # counted apart: shields + LP, the first hits negated by the tender's Repair Rush, then one each
        assert [b.left[n] for n in after] == [left - max(0, min(hits - negated, left)) for hits in range(21)]
