"""Rift Domination by its rules: the board's movement costs, set-up, the turn's steps, planet conditions, systems,
battles, recruiting and upgrades on hand-built states; seeded playouts with every invariant checked, a golden log,
pickling and determinizations.

`ready(players)` plays the set-up (every faction kept, the first starting systems, condition tiles on the first free
planets); `as_faction` swaps a seat's faction for a named one; `put` places a unit tile and `tile_on` a condition tile.
"""

from __future__ import annotations

import json

import pytest

from cardgen.data import load_games
from cardgen.engine.games.rift_domination import conflict, effects, movement, turn
from cardgen.engine.games.rift_domination.model import (
    BUILD,
    MOVE,
    OVER,
    PEEK,
    RECRUIT,
    SETUP_START,
    SETUP_TILES,
    Done,
    Move,
    Pick,
    Play,
    Recruit,
    Roster,
    Sacrifice,
    Trade,
    Upgrade,
    Wormhole,
)
from cardgen.engine.games.rift_domination.rules import RiftEngine
from cardgen.engine.games.rift_domination.state import RiftState
from cardgen.engine.rng import CounterRng
from cardgen.engine.runner import PlaySpec, play_many, summarise

from conftest import (
    FIXTURES,
    REPO,
    check_clone_playouts,
    check_golden_log,
    check_pickle_and_clone,
    copy_game,
    listed_afresh,
    run_cli,
)

DATA = REPO / "card_data"


@pytest.fixture(scope="module")
def engine() -> RiftEngine:
    (game,) = load_games(DATA, ["rift-domination"])
    return RiftEngine.from_game(game)


def ready(engine: RiftEngine, players: int = 2, seed: int = 1) -> RiftState:
    s = engine.new_state(players, seed)
    assert isinstance(s, RiftState)
    while s.phase not in (BUILD, MOVE, RECRUIT):
        s.apply(s.legal_actions()[0])
    return s


def node(engine: RiftEngine, name: str) -> int:
    return engine.node_label.index(name)


def as_faction(s: RiftState, p: int, item: str) -> None:
    s.faction[p] = next(i for i, f in enumerate(s.engine.factions) if f.item == item)
    s._legal, s.carried = None, False


def put(s: RiftState, p: int, kind: str, where: int, mp: int = 1):
    u = s._add(p, kind, where)
    assert u is not None
    u.mp = mp
    s._legal, s.carried = None, False
    return u


def tile_on(s: RiftState, planet: int, condition: str, **fields) -> None:
    """Put a condition tile of that kind (with those rewards) on a planet, taking it from wherever it was."""
    t = next(i for i, spec in enumerate(s.engine.tiles) if spec["condition"] == condition
             and all(spec.get(k) == v for k, v in fields.items()))  # fmt: skip
    for h, placed in list(s.tile.items()):
        if placed == t:
            del s.tile[h]
    if t in s.tile_pool:
        s.tile_pool.remove(t)
    old = s.tile.get(planet)
    if old is not None:
        s.tile_pool.append(old)
    s.tile[planet] = t
    s._legal, s.carried = None, False


def pull(s: RiftState, item: str, skip: int = 0) -> int:
    """Take a copy of an OCC-card out of whatever pile or hand holds it (the copy after `skip` others), for the
    test to place it."""
    card = [i for i, c in enumerate(s.engine.occ) if c.item == item][skip]
    for pile in (s.deck, s.discard, *s.hands):
        if card in pile:
            pile.remove(card)
    return card


def clear_units(s: RiftState) -> None:
    """No units on the board. A state changed by hand is listed afresh: its legal actions and the move listing's
    steps carried past plain moves (`carried`) forgotten, here and wherever a test changes one."""
    s.units = []
    s._legal, s.carried = None, False


def fight_without_cards(s: RiftState) -> None:
    """Answer every battle card window with Done (the battle is then fought at once)."""
    while s.fighting is not None:
        s.apply(Done())


# -- the board ---------------------------------------------------------------------------------------------------------


def test_movement_costs_on_the_board_graph(engine):
    from collections import deque

    def cost(a: str, b: str) -> int:
        start, goal = node(engine, a), node(engine, b)
        seen, queue = {start: 0}, deque([start])
        while queue:
            h = queue.popleft()
            for t in engine.edges[h]:
                if t not in seen:
                    seen[t] = seen[h] + 1
                    queue.append(t)
        return seen[goal]

    assert cost("Mirr", "Talun") == 1  # a planet to another in the same system
    assert cost("B1", "C1") == 1  # a system to the next
    assert cost("Mirr", "Oberyx") == 2  # a planet in the next system
    assert cost("B1", "C2") == 2  # no diagonal moves
    assert engine.systems[engine.node_system[node(engine, "Mirr")]] == "B1"


@pytest.mark.parametrize(
    "players, colour, columns", [(2, "yellow", "BCDE"), (4, "yellow", "BCDE"), (6, "white", "ABCDEF")]
)
def test_set_up_uses_the_board_area_and_starting_systems_of_the_player_count(engine, players, colour, columns):
    s = engine.new_state(players, 3)
    assert isinstance(s, RiftState)
    assert {engine.systems[engine.node_system[h]][0] for h in range(len(s.on)) if s.on[h]} == set(columns)
    while s.phase != SETUP_START:
        s.apply(Pick(0))
    assert {engine.systems[a.choice] for a in s.legal_actions()} == set(engine.start_systems[colour])
    while s.phase == SETUP_START:
        s.apply(s.legal_actions()[-1])
    assert s.phase == SETUP_TILES
    while s.phase == SETUP_TILES:
        s.apply(s.legal_actions()[0])
    planets = [h for h in range(len(s.on)) if s.on[h] and engine.is_planet[h]]
    assert set(s.tile) == set(planets) - set(s.home)  # every planet but the starting planets in use
    for p in range(players):
        faction = s.fac(p)
        assert s.upgrades[s.home[p]][0] == "military_base" and s.owner[s.home[p]] == p
        mine = {k: sum(1 for u in s.units if u.owner == p and u.kind == k) for k, _ in faction.starting_units}
        assert all(mine[k] >= n for k, n in faction.starting_units)  # (+2 fighters for the first player's turn)
    assert s.invariant_violations() == []


@pytest.mark.parametrize("item", ["pale-engineers", "vigil-order", "tessellate", "vespians"])
def test_a_home_planet_starts_with_no_more_upgrades_than_its_slots(engine, item):
    """Planet upgrades — 'Players can build two planet upgrades on every planet in the game'; Set up — 'Every player
    places a military base on their home planet card': the base and the faction's starting upgrades fit the slots
    (the Tessellate Collective's sheet adds one)."""
    s = engine.new_state(2, 1)
    assert isinstance(s, RiftState)
    while s.phase != SETUP_START:
        s.apply(Pick(0))
    as_faction(s, s.player, item)
    while s.phase not in (BUILD, MOVE, RECRUIT):
        s.apply(s.legal_actions()[0])
    p = next(seat for seat in range(2) if s.fac(seat).item == item)
    built = s.upgrades[s.home[p]]
    assert built[0] == "military_base" and len(built) <= s.slots(s.home[p], p)


def test_a_faction_may_be_repicked_once(engine):
    s = engine.new_state(2, 5)
    first = s.faction[s.player]
    s.apply(Pick(1))
    assert s.faction[s.player] != first and s.legal_actions() == [Pick(0)]


def test_a_turn_draws_two_occ_cards_gains_the_track_and_two_fighters_and_moves_the_track(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "nox")  # no effects
    before = (s.resources[p], s.track[p], len(s.hands[p]), sum(1 for u in s.units if u.owner == p))
    s.hands[p] = []
    s.deck = [c for c in s.deck if s.engine.occ[c].when != "instant"] + [
        c for c in s.deck if s.engine.occ[c].when == "instant"
    ]
    s.deck = [c for c in s.deck if s.engine.occ[c].when != "instant"]
    s.discard = [c for c in range(len(s.engine.occ)) if c not in s.deck and all(c not in h for h in s.hands)]
    turn.start(s)
    assert s.resources[p] == before[0] + before[1] + turn.mines(s, p)
    assert s.track[p] == before[1] + 1 and len(s.hands[p]) == 2
    fighters = [u for u in s.units if u.owner == p and u.kind == "fighter" and u.node == s.home[p]]
    assert len(fighters) >= 2


# -- planets -----------------------------------------------------------------------------------------------------------


def near_free_planet(s: RiftState, p: int) -> int:
    home = s.home[p]
    return next(t for t in s.engine.edges[home] if s.engine.is_planet[t] and s.on[t] and t not in s.owner)


def test_a_civilized_planet_costs_two_resources_and_gives_an_occ_card(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "nox")
    target = near_free_planet(s, p)
    tile_on(s, target, "civilized")
    s.phase, s.resources[p] = MOVE, 5
    hand = len(s.hands[p])
    trooper = put(s, p, "infantry", s.home[p])
    s.apply(Move(trooper.uid, target))
    assert s.owner[target] == p and s.resources[p] == 3 and len(s.hands[p]) >= hand  # instant cards resolve at once


def test_a_diplomat_negotiates_for_an_upgrade_two_occ_cards_and_two_fighters(engine):
    s = ready(engine)
    p = s.player
    target = near_free_planet(s, p)
    tile_on(s, target, "civilized")
    s.phase = MOVE
    envoy = put(s, p, "diplomat", s.home[p])
    s.apply(Move(envoy.uid, target))
    assert s.owner[target] == p and s.upgrades[target] == ["mines"]
    assert sum(1 for u in s.units if u.owner == p and u.kind == "fighter" and u.node == target) == 2


@pytest.mark.parametrize("guarded", [False, True])
def test_a_diplomat_negotiates_a_players_civilized_planet_that_no_infantry_holds(engine, guarded):
    """Unit-skills, NEGOTIATE — 'Take control over a civilized planet by moving there (even player controlled planets
    if there is no infantry': the planet, the upgrades that change hands (Battle — 'Military bases, artillery and
    shield generators can never be controlled by another player'), a free upgrade, 2 OCC-cards and 2 fighters;
    the holder's infantry on the planet stop it."""
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    target = near_free_planet(s, p)
    tile_on(s, target, "civilized")
    s.owner[target], s.upgrades[target] = q, ["artillery", "trading_outpost"]
    if guarded:
        put(s, q, "infantry", target)
    s.phase = MOVE
    envoy = put(s, p, "diplomat", s.home[p])
    s.apply(Move(envoy.uid, target))
    if guarded:
        assert s.owner[target] == q and s.upgrades[target] == ["artillery", "trading_outpost"]
        assert "negotiate" not in s.events
    else:
        assert s.owner[target] == p and s.upgrades[target] == ["trading_outpost", "mines"]
        assert sum(1 for u in s.units if u.owner == p and u.kind == "fighter" and u.node == target) == 2


def test_a_dangerous_planet_is_taken_on_three_or_more_and_destroys_the_landing_otherwise(engine):
    seen = set()
    for seed in range(30):
        s = ready(engine, seed=seed)
        p = s.player
        as_faction(s, p, "nox")
        target = near_free_planet(s, p)
        tile_on(s, target, "dangerous", resources=5)
        s.phase = MOVE
        trooper = put(s, p, "infantry", s.home[p])
        before = s.resources[p]
        s.apply(Move(trooper.uid, target))
        roll = next(o for k, o in reversed(s.chance.events) if k == "dangerous")
        taken = s.owner.get(target) == p
        assert taken == (roll >= 3) and (trooper in s.units) == taken
        if taken:
            assert s.resources[p] == before + 5 and "mines" in s.upgrades[target]
        seen.add(taken)
    assert seen == {True, False}


def test_an_anomaly_gives_its_vp_and_two_infantry(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "nox")
    target = near_free_planet(s, p)
    tile_on(s, target, "anomaly", vp=2)
    s.phase = MOVE
    vp = s.vp[p]
    trooper = put(s, p, "infantry", s.home[p])
    s.apply(Move(trooper.uid, target))
    assert s.vp[p] >= vp + 2 and sum(1 for u in s.units if u.node == target and u.kind == "infantry") == 3


def test_a_harvester_gives_its_resources_on_landing(engine):
    s = ready(engine)
    p = s.player
    target = near_free_planet(s, p)
    tile_on(s, target, "harvester", resources=7)
    s.phase = MOVE
    before = s.resources[p]
    trooper = put(s, p, "infantry", s.home[p])
    s.apply(Move(trooper.uid, target))
    assert s.owner[target] == p and s.resources[p] == before + 7


def test_a_whole_system_gives_its_vp_and_a_roster_choice(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "nox")
    home_system = engine.node_system[s.home[p]]
    other = next(h for h in engine.system_planets[home_system] if h != s.home[p])
    tile_on(s, other, "harvester", resources=4)
    s.phase = MOVE
    vp = s.vp[p]
    trooper = put(s, p, "infantry", s.home[p])
    s.apply(Move(trooper.uid, other))
    assert s.vp[p] == vp + 1 and s.current_player() == p
    assert all(isinstance(a, Roster) for a in s.legal_actions())
    s.apply(Roster("goliath"))
    assert "goliath" in s.roster[p] and s.expansions[p] == 1


# -- battles, recruiting, upgrades -------------------------------------------------------------------------------------


def test_moving_into_an_enemy_fleet_starts_a_space_battle_won_for_a_vp(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    spot = engine.node_system[s.home[p]]
    fleet = [put(s, p, "flagship", s.home[p]) for _ in range(1)]
    put(s, q, "fighter", spot)
    vp = list(s.vp)
    s.phase = MOVE
    s.apply(Move(fleet[0].uid, spot))
    fight_without_cards(s)
    outcome = next(o for k, o in reversed(s.chance.events) if k == "battle")[1]
    assert outcome == "attacker wins" and s.vp[p] == vp[p] + 1
    assert not any(u.owner == q for u in s.units)


def test_an_outgunned_defender_retreats_to_the_next_point_nearest_its_home(engine):
    """Battle — 'Phase 4 (optional): Retreat (attacker or defender)'; FAQ — 'After you resolve the close combat phase,
    you can retreat': three unarmed tenders, which one fighter cannot destroy in the three phases, leave after the
    close phase (the retreat policy: under half the other side's expected hits) for the free point next to the battle
    nearest their home planet; nobody wins the battle's VP."""
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    spot = engine.node_system[s.home[p]]
    tenders = [put(s, q, "tender", spot) for _ in range(3)]
    fighter = put(s, p, "fighter", s.home[p])
    vp = list(s.vp)
    s.phase = MOVE
    s.apply(Move(fighter.uid, spot))
    fight_without_cards(s)
    outcome = next(o for k, o in reversed(s.chance.events) if k == "battle")[1]
    assert outcome == "defender retreats" and s.vp == vp
    escape = tenders[0].node
    assert all(u in s.units and u.node == escape for u in tenders) and escape in s.adj[spot]
    assert escape != s.home[p] and fighter.node == spot


def test_a_second_fleet_joins_the_attack_on_the_same_point(engine, monkeypatch):
    """FAQ — 'Can you move 2 fleets at the same time to attack the same target simultaneously? A: Yes.': the first
    fleet's arrival opens the battle; before it is fought the attacker's fleet from another point steps in and fights
    with it, and on a retreat each fleet goes back to the point it came from (Battle, Phase 4)."""
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    home = s.home[p]
    spot = engine.node_system[home]
    other = next(h for h in engine.system_planets[spot] if h != home)
    first, second = put(s, p, "flagship", home), put(s, p, "goliath", other)
    put(s, q, "sentinel", spot)
    fought = []

    def retreat(battle, start, rng):
        fought.append(sorted(engine.kinds[u[0]].name for u in battle.units(start, 0)))
        return "attacker retreats", start

    monkeypatch.setattr("cardgen.engine.games.rift_domination.conflict.fight", retreat)
    s.phase = MOVE
    s.apply(Move(first.uid, spot))
    assert s.fighting is not None and Move(second.uid, spot) in s.legal_actions()
    s.apply(Move(second.uid, spot))
    fight_without_cards(s)
    assert fought == [["flagship", "goliath"]]
    assert (first.node, second.node) == (home, other)


def test_a_fleet_joins_the_attack_through_a_wormhole(engine, monkeypatch):
    """FAQ — 'Can you move 2 fleets at the same time to attack the same target simultaneously? A: Yes.': a fleet far
    from the battle's point joins through a wormhole when the battle is in one wormhole's system and the fleet in
    another's (Timewarper: crossing costs it one point); without the wormhole beside it, it is not offered."""
    s = ready(engine)
    p, q = s.player, 1 - s.player
    as_faction(s, p, "timewarper")
    clear_units(s)
    spot, far = engine.node_system[s.home[p]], engine.node_system[s.home[q]]
    s.wormholes += [spot, far]
    first, second = put(s, p, "flagship", s.home[p]), put(s, p, "goliath", far)
    put(s, q, "sentinel", spot)

    def retreat(battle, start, rng):
        return "attacker retreats", start

    monkeypatch.setattr("cardgen.engine.games.rift_domination.conflict.fight", retreat)
    s.phase = MOVE
    s.apply(Move(first.uid, spot))
    assert s.fighting is not None and spot not in s.adj[far]
    assert Move(second.uid, spot) in s.legal_actions()
    s.wormholes.remove(far)
    s._legal = None
    assert Move(second.uid, spot) not in s.legal_actions()


def test_landing_on_an_enemy_planet_fights_its_outpost_and_military_base(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    target = s.home[q]
    s.upgrades[target] = ["military_base", "mines"]
    spot = engine.node_system[target]
    for _ in range(8):
        put(s, p, "infantry", spot)
    put(s, p, "goliath", spot)  # bombards from orbit
    s.phase = MOVE
    first = next(u for u in s.units if u.kind == "infantry")
    s.apply(Move(first.uid, target))
    fight_without_cards(s)
    assert next(o for k, o in reversed(s.chance.events) if k == "battle")[0] == engine.node_label[target]
    if s.owner[target] == p:
        assert s.upgrades[target] == ["mines"]  # the military base never changes hands; the mine does


def test_recruiting_needs_a_military_base_the_roster_the_cost_and_a_free_tile(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "nox")
    s.phase, s.resources[p] = RECRUIT, 100
    s._legal, s.carried = None, False
    kinds = {a.kind for a in s.legal_actions() if isinstance(a, Recruit)}
    assert kinds == set(s.roster[p])
    assert all(a.planet == s.home[p] for a in s.legal_actions() if isinstance(a, Recruit))
    while sum(1 for u in s.units if u.owner == p and u.kind == "infantry") < engine.tiles_per_colour["infantry"]:
        s.apply(Recruit("infantry", s.home[p]))
    assert Recruit("infantry", s.home[p]) not in s.legal_actions()


def test_upgrades_fill_the_slots_and_one_warp_per_system(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "nox")
    s.phase, s.resources[p] = BUILD, 100
    s.upgrades[s.home[p]] = ["military_base"]
    s._legal, s.carried = None, False
    s.apply(Upgrade(s.home[p], "warp"))
    assert not any(isinstance(a, Upgrade) and a.planet == s.home[p] for a in s.legal_actions())  # two slots used
    other = next(h for h in engine.system_planets[engine.node_system[s.home[p]]] if h != s.home[p])
    s.owner[other] = p
    s._legal, s.carried = None, False
    assert Upgrade(other, "warp") not in s.legal_actions() and Upgrade(other, "mines") in s.legal_actions()


def test_faction_effects_change_the_rules(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "tessellate")
    assert s.slots(s.home[p], p) == 3
    as_faction(s, p, "helix-swarm")
    fighter = put(s, p, "fighter", s.home[p])
    assert movement.points(s, fighter) == 2
    as_faction(s, p, "ashen-forge")
    assert turn.upgrade_cost(s, p, "artillery") == 1 and turn.upgrade_cost(s, p, "mines") == 4


def test_occ_cards_do_what_their_effects_say(engine):
    s = ready(engine, 3)
    p = s.player
    surge = next(i for i, c in enumerate(engine.occ) if c.item == "rift-surge")
    s.resources = [5, 1, 0]
    effects.resolve(s, p, engine.occ[surge].effects)
    assert s.resources == [3, 0, 0]
    cache = next(i for i, c in enumerate(engine.occ) if c.item == "supply-cache")
    s.phase = MOVE
    for q in range(3):
        if cache in s.hands[q]:
            s.hands[q].remove(cache)
    s.deck = [c for c in s.deck if c != cache]
    s.discard = [c for c in s.discard if c != cache]
    s.hands[p].append(cache)
    s._legal, s.carried = None, False
    before = s.resources[p]
    s.apply(Play(cache))
    assert s.resources[p] == before + 3 and cache in s.discard and s.invariant_violations() == []


def test_the_round_is_played_out_after_a_player_reaches_the_vp(engine):
    s = ready(engine, 3)
    first = s.player
    s.vp[first] = engine.win_vp[3]
    s.apply(Done())
    s.apply(Done())
    s.apply(Done())  # the first player's turn ends: two more turns in the round
    assert s.phase != OVER
    for _ in range(2):
        while s.player != first and s.phase != OVER:
            s.apply(Done())
    assert s.phase == OVER and s.returns()[first] == 1.0


def test_play_reports_a_card_whose_effects_cannot_be_executed(tmp_path):
    copy = copy_game("rift-domination", tmp_path)
    copy.edit("occ-cards.yaml", 'effects: ["gain-resources 3"]', 'effects: ["gain-gold 3"]')
    copy.edit("faction-sheets.yaml", '    effects: ["consume 4"]\n', "")
    run = run_cli("--data-dir", copy.data, "play", "rift-domination", "--games", "2", "--json")
    assert run.code == 0, run.err
    problems = json.loads(run.out)["data_problems"]
    assert any("supply-cache" in p and "unknown verb 'gain-gold'" in p for p in problems)
    assert any(p.startswith("faction 'the-void': no effects") for p in problems)
    assert not any("vespians" in p for p in problems)  # every bundled faction's text is executed


def test_an_effect_amount_is_a_bounded_whole_number():
    """Read before the game is played: a 5,000-digit amount (Python's int() refuses it; 4,000 digits would be a loop
    of 10^4000) or a digit int() cannot read is a data problem naming it, shortened."""
    from cardgen.engine.games.rift_domination.model import VOCABULARY

    assert VOCABULARY.parse("gain-resources -3", "occ").amount == -3
    for word in ("9" * 5000, "1000", "²"):
        with pytest.raises(ValueError, match="'gain-resources' takes a whole number up to 999"):
            VOCABULARY.parse(f"gain-resources {word}", "occ")
    with pytest.raises(ValueError, match=r"'99999999999999999999999… \(5,000 characters\)'"):
        VOCABULARY.parse("gain-resources " + "9" * 5000, "occ")


# -- playouts, logs and copies -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seeded_games_keep_every_invariant(players):
    spec = PlaySpec("rift-domination", str(DATA), players, 17, ("random",), check=True)
    summary = summarise(spec, play_many(spec, 12), 1.0)  # thousands in docs/MEASUREMENTS.md
    assert summary["invariant_violations"] == 0, summary["violation_examples"]
    assert summary["endings"] == {"victory points reached": 12}


def test_greedy_plays_whole_games():
    """Greedy is still weak here (about two games in three against random, docs/MEASUREMENTS.md): this guards the
    agent's way through set-up, windows, carrying and battles (every game ends by VP, no violation), not its
    strength."""
    spec = PlaySpec("rift-domination", str(DATA), 2, 3, ("greedy", "random"), check=True)
    summary = summarise(spec, play_many(spec, 6), 1.0)
    assert summary["invariant_violations"] == 0 and summary["endings"] == {"victory points reached": 6}
    assert summary["wins"].get("agent greedy", 0) >= 1, summary["wins"]


GOLDEN = FIXTURES / "golden" / "rift-domination.jsonl"


def test_golden_log_replays_exactly(tmp_path):
    spec = PlaySpec("rift-domination", str(DATA), 3, 2026, ("greedy", "random", "random"), log=True)
    check_golden_log(spec, GOLDEN, tmp_path)


def test_states_pickle_and_clones_are_independent(engine):
    check_pickle_and_clone(engine, 3, 5, 150, 100)


def test_clones_share_units_and_upgrades_until_one_changes_them(engine):
    """Clones share unit tiles and planets' upgrades (`RiftState.clone`): a unit is copied into its place before it
    moves or its movement points change (`RiftState.own`), and upgrades are replaced, never changed (`without`).
    From every 60th decision of seeded games at two and four players, a clone played to the end leaves the
    original's units, upgrades and observation as they were; the clones did move units and change upgrades."""

    def held(state) -> tuple[object, ...]:
        upgrades = sorted((h, list(v)) for h, v in state.upgrades.items())
        return [u.key() for u in state.units], upgrades, state.observation(0)

    def changed(clone, state) -> bool:
        return held(clone)[:2] != held(state)[:2]

    check_clone_playouts(engine, ((2, 3), (4, 5)), 60, held, changed)


def test_determinizations_keep_what_a_player_sees_and_redeal_the_rest(engine):
    rng = CounterRng(9)
    s = engine.new_state(3, 2)
    changed = rewards = 0
    for _ in range(200):
        if s.is_terminal():
            break
        for player in range(3):
            deal = s.determinize(player, rng)
            assert deal.observation(player) == s.observation(player) and deal.invariant_violations() == []
            changed += deal.deck != s.deck
            rewards += deal.tile != s.tile
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    assert changed > 0 and rewards > 0


def test_a_faction_that_wins_beyond_chance_is_a_data_problem(engine):
    from collections import Counter

    seen = Counter({"players:2": 1000, "faction:myrr-brood": 60, "won:myrr-brood": 45, "faction:nox": 60,
                    "won:nox": 31, "faction:helix-swarm": 10, "won:helix-swarm": 10})  # fmt: skip
    problems = [p for p in engine.event_problems(seen, 1000) if p.startswith("faction '")]
    assert problems == [
        "faction 'myrr-brood' wins 75% of 60 games (95 % interval 63%–84%), not the 50% of an even game"
    ]


def test_more_occ_effects_sabotage_steal_march_and_meteors(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    target = s.home[q]
    s.upgrades[target] = ["military_base", "trading_outpost"]
    put(s, p, "fighter", target)
    effects.sabotage(s, p, 1)
    assert s.upgrades[target] == ["military_base"]  # never the military base
    s.hands[q], s.hands[p] = [s.deck.pop()], []
    effects.steal(s, p, 1)
    assert len(s.hands[p]) == 1 and s.hands[q] == []
    scout = put(s, p, "fighter", s.home[p], mp=1)
    effects.fleet_movement(s, p, 1)
    assert scout.mp == 2
    effects.meteors(s, p, 1)
    assert scout not in s.units  # one LP, no shield


@pytest.mark.parametrize("answer", [True, False])
def test_a_card_played_against_a_player_opens_a_response_window(engine, answer):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    s.upgrades[s.home[q]] = ["military_base", "mines"]
    put(s, p, "fighter", s.home[q])
    sabotage, counter = pull(s, "sabotage"), pull(s, "counterintelligence")
    s.hands[p].append(sabotage)
    s.hands[q].append(counter)
    s.phase = MOVE
    s._legal, s.carried = None, False
    assert Play(counter) not in s.legal_actions() or s.current_player() != q
    s.apply(Play(sabotage))
    assert s.current_player() == q and s.legal_actions() == [Play(counter), Done()]
    s.apply(Play(counter) if answer else Done())
    assert s.current_player() == p and s.invariant_violations() == []
    assert s.upgrades[s.home[q]] == (["military_base", "mines"] if answer else ["military_base"])


def test_more_faction_effects(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    as_faction(s, p, "korathi")
    base = engine.kinds[conflict.kind_index(s, "military_base", p, True, building=True)]
    assert base.lp == engine.upgrades["military_base"]["lp"] + 2
    s.phase, s.resources[p] = RECRUIT, 50
    s._legal, s.carried = None, False
    infantry = sum(1 for u in s.units if u.owner == p and u.kind == "infantry")
    s.apply(Recruit("infantry", s.home[p]))  # one recruited, one free
    assert sum(1 for u in s.units if u.owner == p and u.kind == "infantry") == infantry + 2
    as_faction(s, p, "pale-engineers")
    assert turn.upgrade_cost(s, p, "warp") == 3 and turn.upgrade_cost(s, p, "artillery") == 1
    as_faction(s, p, "drift-nomads")
    s.phase = BUILD
    s._legal, s.carried = None, False
    assert not any(isinstance(a, Upgrade) and a.name == "military_base" for a in s.legal_actions())
    as_faction(s, p, "kethra-raiders")
    s.resources[q] = 5
    conflict.spoils(s, p, q, 3, ground=False)
    assert s.resources[q] == 3
    as_faction(s, q, "starless-covenant")
    home_system = engine.node_system[s.home[q]]
    raider = put(s, p, "destroyer", home_system)
    assert movement.points(s, raider) == int(engine.units["destroyer"]["movement"]) - 1
    as_faction(s, p, "quorin-archive")
    s.hands[p] = [c for c in s.deck[:10]]
    s.deck = s.deck[10:]
    s.phase = RECRUIT
    s.apply(Done())
    assert len(s.hands[p]) == 8


def test_units_without_weapons_share_a_point_without_a_battle(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    spot = engine.node_system[s.home[p]]
    envoy = put(s, p, "diplomat", s.home[p])
    put(s, q, "tender", spot)
    s.phase = MOVE
    s.apply(Move(envoy.uid, spot))
    assert envoy in s.units and not any(k == "battle" for k, _ in s.chance.events)


def test_battle_cards_are_played_in_windows_before_the_battle(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    spot = engine.node_system[s.home[p]]
    attacker = put(s, p, "flagship", s.home[p])
    put(s, q, "fighter", spot)
    shields, ambush, ambush_too = pull(s, "emergency-shields"), pull(s, "ambush"), pull(s, "ambush", skip=1)
    s.discard += s.hands[p] + s.hands[q]  # every card stays accounted for
    s.hands[p], s.hands[q] = [shields, ambush_too], [ambush]
    s.phase = MOVE
    s._legal, s.carried = None, False
    s.apply(Move(attacker.uid, spot))
    assert s.current_player() == p and s.legal_actions() == [Play(shields), Done()]  # no Ambush for an attacker
    s.apply(Play(shields))
    assert s.legal_actions() == [Done()]
    s.apply(Done())
    assert s.current_player() == q and s.legal_actions() == [Play(ambush), Done()]
    s.apply(Play(ambush))
    s.apply(Done())
    assert s.fighting is None and any(k == "battle" for k, _ in s.chance.events)
    assert s.current_player() == p and shields in s.discard and ambush in s.discard
    assert s.invariant_violations() == []


def test_battle_cards_change_the_battle(engine):
    from cardgen.engine.games.rift_domination.battle import ATTACKER, DEFENDER, Battle, muster

    b = Battle(engine.battle_rules, engine.kinds)
    fighter = next(i for i, k in enumerate(engine.kinds) if k.name == "fighter")
    start = muster(b, [[fighter], [fighter]])
    plain = b.phase(start, "far", first=True)
    won_first = sum(q for pos, q in plain.items() if b.empty[pos[1]])
    b.cards = (frozenset(), frozenset({"first-strike"}))
    ambushed = b.phase(start, "far", first=True)
    assert sum(q for pos, q in ambushed.items() if b.empty[pos[0]]) == pytest.approx(won_first)  # the defender first
    assert b.volley(b.units(start, ATTACKER), "far", reroll=True) == pytest.approx([4 / 9, 5 / 9])
    b.cards = (frozenset({"double-hit"}), frozenset())
    assert any(b.left[pos[DEFENDER]] == 0 for pos in b.phase(start, "far", first=True))


def test_a_card_drawn_for_a_lost_diplomat_may_destroy_a_unit_already_doomed(engine):
    """Found by 5,000 games: Lumen Choir draws for a lost diplomat; a Mutiny drawn destroys a fighter the battle was
    about to remove too."""
    s = ready(engine)
    p = s.player
    as_faction(s, p, "lumen-choir")
    clear_units(s)
    envoy, fighter = put(s, p, "diplomat", s.home[p]), put(s, p, "fighter", s.home[p])
    mutiny = pull(s, "mutiny")
    s.deck.append(mutiny)  # the top of the deck
    s._destroy(envoy)
    assert fighter not in s.units
    s._destroy(fighter)  # already gone: nothing happens
    assert s.invariant_violations() == []


def test_leap_ion_storm_and_recruiting_cards(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "nox")
    clear_units(s)
    system = engine.node_system[s.home[p]]
    fleet = [put(s, p, "carrier", system) for _ in range(2)]
    effects.leap(s, p)
    assert fleet[0].node in engine.system_next[system] and fleet[1].node == fleet[0].node
    s.slowed[p] = 1
    runner = put(s, p, "destroyer", s.home[p])
    turn.start(s)
    assert runner.mp == int(engine.units["destroyer"]["movement"]) - 1 and s.slowed[p] == 0
    s.resources[p] = 100
    locked = [k for k in engine.units if k not in s.roster[p]]
    effects.recruit_now(s, p, 2, locked=True)
    dearest = max(locked, key=lambda k: (int(engine.units[k]["cost"]), k))
    assert sum(1 for u in s.units if u.kind == dearest) == min(2, engine.tiles_per_colour[dearest])


# -- carrying, wormholes, blockades and the rest of the factions and cards --------------------------------------------


def moving(s: RiftState, p: int) -> RiftState:
    s.phase, s.player = MOVE, p
    s._legal, s.carried = None, False
    return s


def test_units_that_use_capacity_cross_systems_only_aboard_a_carrier(engine):
    s = ready(engine)
    p = s.player
    clear_units(s)
    system = engine.node_system[s.home[p]]
    nxt = next(t for t in s.adj[system] if not engine.is_planet[t])
    walkers = [put(s, p, "infantry", system) for _ in range(5)]
    moving(s, p)
    assert not any(a.tag == "move" and a.to == nxt for a in s.legal_actions())  # alone: only within the system
    assert Move(walkers[0].uid, s.home[p]) in s.legal_actions()
    carrier = put(s, p, "carrier", system, mp=2)
    room = int(engine.units["carrier"]["capacity"])
    assert Move(carrier.uid, nxt, room) in s.legal_actions() and Move(carrier.uid, nxt) in s.legal_actions()
    s.apply(Move(carrier.uid, nxt, room))
    aboard = [u for u in walkers if u.node == nxt]
    assert len(aboard) == room and all(u.mp == 1 for u in aboard) and carrier.mp == 1  # cargo spends nothing
    as_faction(s, p, "brass-armada")
    assert movement.capacity(s, carrier) == room + 2


def test_a_carrier_offers_to_take_what_its_cargo_takes_whether_or_not_all_fit(engine):
    """A carrier's move into another system is offered with the units its cargo policy takes (`movement.cargo`);
    the listing counts them without ordering when all fit (`cargo_size`). Every size from none to more than fit,
    and units of another player or another point left out."""
    s = ready(engine)
    p = s.player
    clear_units(s)
    system = engine.node_system[s.home[p]]
    nxt = next(t for t in s.adj[system] if not engine.is_planet[t])
    carrier = put(s, p, "carrier", system, mp=2)
    room = int(engine.units["carrier"]["capacity"])
    put(s, 1 - p, "infantry", system)  # another player's
    put(s, p, "infantry", nxt)  # another point
    for walkers in range(room + 3):
        moving(s, p)
        offered = [a.carry for a in s.legal_actions() if a.tag == "move" and a.uid == carrier.uid and a.to == nxt]
        taken = len(movement.cargo(s, carrier))
        assert movement.cargo_size(s, carrier) == taken == min(walkers, room)
        assert offered == ([0, taken] if taken else [0]), walkers
        put(s, p, "infantry", system)


def test_the_timewarper_places_wormholes_and_crosses_them_for_one_point(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    as_faction(s, p, "timewarper")
    clear_units(s)
    s.phase = BUILD
    s._legal, s.carried = None, False
    mine = engine.node_system[s.home[p]]
    assert Wormhole(mine) in s.legal_actions()
    s.apply(Wormhole(mine))
    assert not any(a.tag == "wormhole" for a in s.legal_actions())  # once a round
    far = engine.node_system[s.home[q]]
    s.wormholes.append(far)
    ship = put(s, p, "destroyer", mine, mp=1)
    moving(s, p)
    assert Move(ship.uid, far) in s.legal_actions()
    as_faction(s, q, "nox")
    other = put(s, q, "destroyer", mine, mp=1)
    moving(s, q)
    assert Move(other.uid, far) not in s.legal_actions()  # reach 1 + travel 1 for everyone else
    other.mp = 2
    s._legal, s.carried = None, False
    s.apply(Move(other.uid, far))
    assert other.node == far and other.mp == 0 and s.invariant_violations() == []


def test_a_blockade_keeps_enemy_units_in_the_system_until_its_player_moves_again(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    system = engine.node_system[s.home[p]]
    put(s, p, "carrier", system)
    put(s, p, "carrier", system)
    enemy = put(s, q, "destroyer", system, mp=2)
    effects.resolve(s, p, next(c.effects for c in engine.occ if c.item == "blockade"))
    moving(s, q)
    leaving = [a for a in s.legal_actions() if a.tag == "move" and engine.node_system[a.to] != system]
    assert leaving == [] and any(a.tag == "move" and a.uid == enemy.uid for a in s.legal_actions())
    s.player = p
    turn.start(s)
    assert s.blockades == {}


def test_an_orbital_strike_picks_an_upgrade_its_dice_can_destroy(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    s.upgrades[s.home[q]] = ["military_base", "mines"]
    put(s, p, "fighter", engine.node_system[s.home[q]])
    assert effects.orbital_target(s, p, 2) == (s.home[q], "mines")  # the base's 1 shield + 3 LP outlast two dice
    destroyed = 0
    for seed in range(400):
        trial = s.reseeded(CounterRng(seed))
        effects.orbital_strike(trial, p, 2, 4)
        destroyed += "mines" not in trial.upgrades[s.home[q]]
    assert abs(destroyed / 400 - 0.75) < 0.07  # at least one of two dice shows 4+


def test_diplomatic_immunity_keeps_diplomats_out_of_a_lost_battle(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    planet = s.home[q]
    s.upgrades[planet] = []
    envoy = put(s, q, "diplomat", planet)
    put(s, p, "infantry", planet)
    effects.resolve(s, q, next(c.effects for c in engine.occ if c.item == "diplomatic-immunity"))
    assert not s.targetable(envoy)
    for seed in range(20):
        trial = s.reseeded(CounterRng(seed))
        conflict.ground_battle(trial, p, planet, engine.node_system[planet], q)
        assert any(u.uid == envoy.uid for u in trial.units)
    s.turns += 1
    assert s.targetable(envoy)  # until the end of the round
    immunity = pull(s, "diplomatic-immunity")  # played in the battle's window, on the attacker's turn
    s.discard += s.hands[q] + s.hands[p]
    s.hands[q], s.hands[p] = [immunity], []
    conflict.begin_battle(s, p, q, planet, engine.node_system[planet], True)
    assert s.current_player() == q and Play(immunity) in s.legal_actions()
    s.apply(Play(immunity))
    assert not s.targetable(envoy) and s.fighting is not None


def test_the_void_consumes_a_dangerous_planet(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "the-void")
    clear_units(s)
    system = engine.node_system[s.home[p]]
    other = next(h for h in engine.system_planets[system] if h != s.home[p])
    tile_on(s, other, "dangerous")
    lander = put(s, p, "infantry", system)
    moving(s, p)
    before = s.resources[p]
    s.apply(Move(lander.uid, other))
    assert other in s.consumed and other not in s.tile and s.resources[p] == before + 4
    assert other not in s.owner and s.invariant_violations() == []


def test_the_oru_syndicate_trades_once_a_turn(engine):
    s = ready(engine)
    p = s.player
    as_faction(s, p, "oru-syndicate")
    moving(s, p)
    s.resources[p], hand = 5, len(s.hands[p])
    assert Trade(0) in s.legal_actions() and (Trade(1) in s.legal_actions()) == (hand >= 2)
    s.apply(Trade(0))
    assert s.resources[p] == 2 and len(s.hands[p]) >= hand  # an instant card drawn resolves at once
    assert not any(a.tag == "trade" for a in s.legal_actions())
    s.traded = False
    s.hands[p] += [s.deck.pop(), s.deck.pop()]
    s._legal, s.carried = None, False
    cards = len(s.hands[p])
    s.apply(Trade(1))
    assert s.resources[p] == 5 and len(s.hands[p]) == cards - 2 and s.invariant_violations() == []


def test_seraph_ironclad_and_vigil_change_the_battle_they_fight(engine, monkeypatch):
    import cardgen.engine.games.rift_domination.conflict as conflict_module

    seen = []

    def record(battle, start, rng):
        seen.append((battle, start))
        return "defender wins", start

    monkeypatch.setattr(conflict_module, "fight", record)  # the battle a fight in the game rolls
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    home = s.home[q]
    put(s, p, "carrier", home)
    put(s, q, "sentinel", home)
    as_faction(s, q, "ironclad")
    conflict.space_battle(s, p, home, engine.node_system[home], q)
    battle, start = seen[-1]
    ((_, shields, _),) = battle.units(start, 1)
    assert shields == int(engine.units["sentinel"]["shields"]) + 1  # at home, each unit with a shield has one more
    as_faction(s, q, "seraph-concord")
    conflict.space_battle(s, p, home, engine.node_system[home], q)
    battle, start = seen[-1]
    ((_, shields, _),) = battle.units(start, 1)
    assert shields == int(engine.units["sentinel"]["shields"]) + 1  # one hit ignored: a shield used once
    as_faction(s, q, "vigil-order")
    conflict.ground_battle(s, p, home, engine.node_system[home], q)
    assert seen[-1][0].buildings_first == (False, True)


def test_cinder_revenge_and_vigil_buildings_in_the_battle_chain(engine):
    from cardgen.engine.games.rift_domination.battle import ATTACKER, DEFENDER, Battle, exact_odds, muster

    def kind(name, building=False):
        return next(i for i, k in enumerate(engine.kinds) if k.name == name and k.building == building)

    b = Battle(engine.battle_rules, engine.kinds)
    start = muster(b, [[kind("fighter")], [kind("fighter")]])
    assert b.damage(start, DEFENDER, 1) == {(start[0], b.number(((), 0, 0))): 1.0}
    b = Battle(engine.battle_rules, engine.kinds, revenge=(None, (5, 1)))
    start = muster(b, [[kind("fighter")], [kind("fighter")]])
    after = b.damage(start, DEFENDER, 1)
    both = sum(q for pos, q in after.items() if b.empty[pos[ATTACKER]])
    assert both == pytest.approx(2 / 6)  # the cult's fighter strikes back on 5 or 6
    g = Battle(engine.battle_rules, engine.kinds, ground=True, buildings_first=(False, True))
    start = muster(g, [[kind("infantry")], [kind("artillery", building=True)]])
    phase = g.phase(start, "mid")
    plain = Battle(engine.battle_rules, engine.kinds, ground=True)
    before = plain.phase(muster(plain, [[kind("infantry")], [kind("artillery", building=True)]]), "mid")
    won = sum(q for pos, q in phase.items() if g.empty[pos[ATTACKER]])
    volley = g.fire(start, DEFENDER, "mid", part="buildings")
    assert won == pytest.approx(sum(q for pos, q in volley.items() if g.empty[pos[ATTACKER]]))  # before it is hit
    assert won > sum(q for pos, q in before.items() if plain.empty[pos[ATTACKER]])  # the infantry fires first there
    with pytest.raises(ValueError, match="buildings firing first"):
        exact_odds(g, start)


def test_graviton_warps_slow_infantry_and_two_fit_in_a_system(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    s.upgrades[s.home[q]] = ["military_base", "warp"]
    system = engine.node_system[s.home[q]]
    walker, ship = put(s, p, "infantry", system), put(s, p, "destroyer", system)
    as_faction(s, q, "nox")
    assert movement.points(s, walker) == 1 and movement.points(s, ship) == 1  # infantry are not affected by a warp
    as_faction(s, q, "graviton-pact")
    assert movement.points(s, walker) == 1  # slowed, but never below 1
    other = next(h for h in engine.system_planets[system] if h != s.home[q])
    s.owner[other], s.resources[q], s.phase, s.player = q, 50, BUILD, q
    s._legal, s.carried = None, False
    assert Upgrade(other, "warp") in s.legal_actions()


def test_lattice_minds_peek_at_the_top_card_before_drawing(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    as_faction(s, q, "lattice-minds")
    s.player = q
    turn.start(s)
    s.ask_again()  # the flow asks the player whose turn was started by hand
    assert s.phase == PEEK and s.current_player() == q and s.legal_actions() == [Pick(0), Pick(1)]
    top = s.deck[-1]
    assert s.observation(q)[-2] == top and s.observation(p)[-2] is None
    assert s.determinize(q, CounterRng(5)).deck[-1] == top
    s.apply(Pick(1))
    assert s.deck[0] == top and s.phase == BUILD and s.invariant_violations() == []


def test_echo_wardens_roll_once_a_round_against_a_card(engine):
    s = ready(engine)
    q = 1 - s.player
    as_faction(s, q, "echo-wardens")
    resisted = 0
    for seed in range(300):
        trial = s.reseeded(CounterRng(seed))
        first = effects.resists(trial, q)
        assert effects.resists(trial, q) is False  # once a round
        resisted += first
    assert abs(resisted / 300 - 0.5) < 0.09  # 4 or higher on a die


def test_vespian_diplomats_recruit_where_they_stand_and_can_be_sacrificed(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    as_faction(s, q, "vespians")
    clear_units(s)
    spot = engine.node_system[s.home[q]]
    put(s, q, "diplomat", spot)
    s.phase, s.player, s.resources[q] = RECRUIT, q, 10
    s._legal, s.carried = None, False
    assert Recruit("fighter", spot) in s.legal_actions() and Recruit("carrier", spot) not in s.legal_actions()
    s.upgrades[s.home[q]] = ["military_base", "mines"]
    put(s, p, "fighter", s.home[q])
    sabotage = pull(s, "sabotage")
    s.hands[p].append(sabotage)
    s.hands[q] = [c for c in s.hands[q] if not engine.occ[c].effects or engine.occ[c].effects[0].verb != "cancel"]
    moving(s, p)
    s.apply(Play(sabotage))
    assert s.current_player() == q and Sacrifice() in s.legal_actions()
    s.apply(Sacrifice())
    assert s.upgrades[s.home[q]] == ["military_base", "mines"]
    assert not any(u.owner == q and u.kind == "diplomat" for u in s.units) and s.invariant_violations() == []


def test_a_recruiting_card_played_in_a_battle_at_the_base_adds_fighting_units(engine):
    s = ready(engine)
    p, q = s.player, 1 - s.player
    clear_units(s)
    base = s.home[q]
    put(s, q, "fighter", base)
    raider = put(s, p, "flagship", engine.node_system[base], mp=2)
    recruitment = pull(s, "recruitment")
    s.discard += s.hands[p] + s.hands[q]
    s.hands[p], s.hands[q] = [], [recruitment]
    s.resources[q] = 20
    moving(s, p)
    s.apply(Move(raider.uid, base))
    assert s.current_player() == q and Play(recruitment) in s.legal_actions()
    before = sum(1 for u in s.units if u.owner == q)
    s.apply(Play(recruitment))
    assert sum(1 for u in s.units if u.owner == q) > before and "battle-recruit" in s.events
    s.apply(Done())
    assert s.fighting is None and s.invariant_violations() == []


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (4, 9)])
def test_a_move_listing_carried_past_plain_moves_is_the_listing_from_nothing(engine, players, seed):
    """After a plain move (no battle, landing or negotiation, nothing destroyed), only the units that moved and the
    carriers at either point are listed again (`turn.move_actions`, `RiftState._apply`). At every Move decision of
    seeded random games, the listing must be, action for action and in order, that of the same state listed from
    nothing."""
    s, rng = engine.new_state(players, seed), CounterRng(4000 + seed)
    checked = {"moves": 0, "carried": 0}
    for _ in range(4000):
        if s.is_terminal():
            break
        carried = s.carried
        legal = s.legal_actions()
        if s.decision is not None and s.decision[0] == MOVE:
            assert listed_afresh(s) == legal, s.turns
            checked["moves"] += 1
            checked["carried"] += carried
        s.do(legal[rng.randbelow(len(legal))])
    assert checked["moves"] > 200 and checked["carried"] > 100, checked


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (4, 9), (4, 21)])
def test_the_fleets_that_may_join_an_attack_are_every_unit_with_a_step_there(engine, players, seed):
    """FAQ — a second fleet joins the attack on the same point. `conflict.joiners` asks only the units that could
    step to the battle's point (beside it, or anywhere when it is a wormhole's system); at every battle window of
    seeded random games its list must be that of every attacking unit's steps to the point."""
    s, rng = engine.new_state(players, seed), CounterRng(5000 + seed)
    windows = 0
    for _ in range(6000):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        f = s.fighting
        if s.decision is not None and s.decision[0] == "battle" and f is not None and f.stage == 0:
            every = [m for u in s.units if u.owner == f.attacker and u.mp > 0 and u.node != f.node
                     and s.ground(u) == f.ground
                     for m in movement.moves(s, u) if isinstance(m, Move) and m.to == f.node]  # fmt: skip
            assert conflict.joiners(s, f) == every, s.turns
            windows += 1
        s.do(legal[rng.randbelow(len(legal))])
    assert windows > 5, windows
