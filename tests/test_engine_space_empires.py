"""Space Empires 4X by its rules: one test per rule on hand-built states, then seeded playouts with every invariant
checked, a golden log that replays, pickling, clones and determinizations.

A hand-built state starts from a real set-up; `clear` takes every unit off the map, `place` puts units down and
`show` swaps a marker of a wanted kind onto a hex (so every marker stays accounted for). Seat 0 plays red (Homeworld
3.3), seat 1 yellow (13.13) at two players.
"""

from __future__ import annotations

import json

import pytest

from cardgen.data import load_games
from cardgen.engine.core import IllegalAction
from cardgen.engine.games.space_empires_4x import battle, conflict, economy, movement
from cardgen.engine.games.space_empires_4x.model import (
    ECON,
    LOST,
    MOVE,
    OVER,
    Battle,
    Bid,
    Build,
    Colonize,
    EndEcon,
    EndMove,
    Fire,
    Load,
    Move,
    OpenFire,
    Peek,
    PeekChoice,
    Research,
    Retreat,
    Screen,
    Scuttle,
    Shift,
    Unit,
    Unload,
    Upgrade,
)
from cardgen.engine.games.space_empires_4x.rules import SE4XEngine
from cardgen.engine.games.space_empires_4x.state import ON_MAP, SE4XState
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
RED, YELLOW = 0, 1


@pytest.fixture(scope="module")
def engine() -> SE4XEngine:
    (game,) = load_games(DATA, ["space-empires-4x"])
    return SE4XEngine.from_game(game)


def fresh(engine: SE4XEngine, players: int = 2, seed: int = 1) -> SE4XState:
    """A new game with seat 0 to move first (the die roll for the first player is overridden)."""
    s = engine.new_state(players, seed)
    assert isinstance(s, SE4XState)
    s.order = list(range(players))
    s.player = 0
    return s


def clear(s: SE4XState) -> SE4XState:
    """No units on the map. A state changed by hand is listed afresh: its legal actions and the move listing's
    parts carried past plain moves (`carried`) forgotten, here and wherever a test changes one."""
    s.units = []
    s._legal, s.carried = None, False
    return s


def place(s: SE4XState, p: int, code: str, h: int, count: int = 1):
    s._legal, s.carried = None, False
    return s._add_unit(p, code, count, h)


def settle(s: SE4XState) -> None:
    """Play the battle under way (if any) to its end by the default choices (the calculator's policies)."""
    while s.fight is not None:
        s.apply(battle.default(s))


def end_move(s: SE4XState) -> None:
    """End the mover's move and fight its battles by the default choices."""
    s.apply(EndMove())
    settle(s)


def show(s: SE4XState, h: int, kind: str | None, revealed: bool = True) -> None:
    """Put a marker of `kind` on hex h face up (or face down), swapping it with what h held; None empties the hex."""
    if kind is None:
        if s.marker_at[h] >= 0:
            movement.discard(s, h)
    else:
        here = s.marker_at[h]
        if here < 0 or s.engine.markers[here].kind != kind:
            kinds = s.engine.markers
            m = next(m for m, (where, at) in enumerate(s.mloc)
                     if where == ON_MAP and kinds[m].kind == kind and at != h and at not in s.home)  # fmt: skip
            other = s.mloc[m][1]
            s.marker_at[other], s.mloc[m] = here, (ON_MAP, h)
            if here >= 0:
                s.mloc[here] = (ON_MAP, other)
            s.marker_at[h] = m
    s.revealed[h] = revealed
    s._legal, s.carried = None, False


def hexes(s: SE4XState, h: int) -> list[int]:
    return s.adj[h]


def to_econ(s: SE4XState) -> None:
    while s.phase == MOVE:
        end_move(s)


def through_econ(s: SE4XState) -> None:
    to_econ(s)
    while s.phase == ECON:
        if s.due[s.player] > s.cp[s.player]:
            s.apply(s.legal_actions()[0])
        else:
            s.apply(EndEcon())


# -- set-up, movement and exploration ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_follows_the_facts(engine, players):
    s = engine.new_state(players, 3)
    assert isinstance(s, SE4XState)
    for p, h in enumerate(s.home):
        mine = {u.code: (u.count, len([x for x in s.units if x.owner == p and x.code == u.code]))
                for u in s.units if u.owner == p}  # fmt: skip
        assert mine == {"SY": (4, 1), "SC": (1, 3), "CO": (1, 3), "Miner": (1, 1)}  # four yards in one group
        assert all(u.hex == h for u in s.units if u.owner == p)
        assert s.col_cp[h] == 20 and s.revealed[h] and s.marker_at[h] == -1
    on_map = sum(1 for where, _ in s.mloc if where == ON_MAP)
    assert on_map == 102 + 25 * players
    assert sum(s.on) == 102 + 26 * players  # absent colours' Home Systems are out of play
    assert not any(s.revealed[h] for h in range(len(s.on)) if h not in s.home)
    assert s.chance.events[-1][0] == "first player" and s.first_player == s.order[0]
    assert s.invariant_violations() == []


def test_movement_follows_the_technology_table(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    for level, per_turn in engine.movement.items():
        s.tech[RED]["movement"] = level
        scout, colony_ship, yard = place(s, RED, "SC", home), place(s, RED, "CO", home), place(s, RED, "SY", home)
        for turn in range(3):
            s.turn = turn
            assert s.allowance(scout) == per_turn[turn]
            assert s.allowance(colony_ship) == 1 and s.allowance(yard) == 0
        s.units = []
    assert engine.movement[7] == [3, 3, 3] and engine.movement[2] == [1, 1, 2]


def test_an_undiscovered_hex_is_entered_only_as_a_first_move_and_ends_the_move(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    a, b = hexes(s, home)[:2]
    show(s, a, "planet")
    show(s, b, "planet", revealed=False)
    s.tech[RED]["movement"] = 4  # two hexes a turn
    scout = place(s, RED, "SC", home)
    colony_ship = place(s, RED, "CO", home)
    assert Move(scout.uid, b) in s.legal_actions()
    assert Move(colony_ship.uid, b) not in s.legal_actions()
    assert "non-combat unit may not enter an undiscovered hex" in s.illegal(Move(colony_ship.uid, b))
    s.apply(Move(scout.uid, a))
    beyond = [h for h in hexes(s, a) if s.marker_at[h] >= 0 and not s.revealed[h]]
    assert beyond and all(Move(scout.uid, h) not in s.legal_actions() for h in beyond)
    s2 = clear(fresh(engine))
    show(s2, b, "planet", revealed=False)
    scout = place(s2, RED, "SC", home)
    s2.tech[RED]["movement"] = 4
    s2.apply(Move(scout.uid, b))
    assert s2.revealed[b] and scout.stopped and not any(m.tag == "move" for m in s2.legal_actions())


def test_a_units_movement_is_complete_before_another_unit_moves(engine):
    """Movement: 'You must complete one unit's movement before moving another unit' — once a second unit moves, the
    first may not go on, though it has movement left."""
    s = clear(fresh(engine))
    home = s.home[RED]
    a = hexes(s, home)[0]
    show(s, a, "planet")
    s.tech[RED]["movement"] = 4  # two hexes a turn
    first, second = place(s, RED, "SC", home), place(s, RED, "SC", home)
    s.apply(Move(first.uid, a))
    assert Move(first.uid, home) in s.legal_actions()  # its move may go on
    s.apply(Move(second.uid, a))
    assert Move(first.uid, home) not in s.legal_actions() and Move(second.uid, home) in s.legal_actions()
    with pytest.raises(IllegalAction, match="movement is complete"):
        s.apply(Move(first.uid, home))


def test_nebula_and_asteroids_end_a_combat_units_move(engine):
    for kind in ("nebula", "asteroids"):
        s = clear(fresh(engine))
        home = s.home[RED]
        h = hexes(s, home)[0]
        show(s, h, kind)
        s.tech[RED]["movement"] = 7
        scout = place(s, RED, "SC", home)
        s.apply(Move(scout.uid, h))
        assert scout.stopped and Move(scout.uid, home) not in s.legal_actions()


def test_a_black_hole_destroys_a_unit_entering_on_seven_to_ten(engine):
    outcomes = set()
    for seed in range(40):
        s = clear(fresh(engine, seed=seed))
        h = hexes(s, s.home[RED])[0]
        show(s, h, "black-hole")
        scout = place(s, RED, "SC", s.home[RED])
        s.apply(Move(scout.uid, h))
        roll = next(outcome for kind, outcome in reversed(s.chance.events) if kind == "black hole")
        assert (scout in s.units) == (roll <= 6)
        outcomes.add(scout in s.units)
        if scout in s.units:
            assert not scout.stopped  # survivors may continue
    assert outcomes == {True, False}


def test_danger_destroys_the_units_and_leaves_the_hex_empty(engine):
    s = clear(fresh(engine))
    h = next(h for h in range(len(s.on)) if s.on[h] and s.engine.hex_region[h] == "deep")
    near = hexes(s, h)[0]
    show(s, near, None)
    s.revealed[near] = True
    show(s, h, "danger", revealed=False)
    scout = place(s, RED, "SC", near)
    s.apply(Move(scout.uid, h))
    assert scout not in s.units and s.marker_at[h] == -1 and s.invariant_violations() == []


def test_a_supernova_sends_units_back_and_is_never_entered(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    h = hexes(s, home)[0]
    show(s, h, "supernova", revealed=False)
    scout = place(s, RED, "SC", home)
    s.apply(Move(scout.uid, h))
    assert scout.hex == home and scout.stopped and s.revealed[h]
    other = place(s, RED, "SC", home)
    assert s.illegal(Move(other.uid, h)).endswith("units may not move into a Supernova")


@pytest.mark.parametrize("players, mover, chooser", [(2, 0, 1), (3, 1, 0), (3, 0, 2)])
def test_lost_in_space_lets_the_player_to_the_right_shift_the_units(engine, players, mover, chooser):
    s = clear(fresh(engine, players))
    s.player = mover
    home = s.home[mover]
    h = hexes(s, home)[0]
    show(s, h, "lost-in-space", revealed=False)
    scout = place(s, mover, "SC", home)
    s.apply(Move(scout.uid, h))
    assert s.phase == LOST and s.current_player() == chooser and s.marker_at[h] == -1
    targets = [a.to for a in s.legal_actions()]
    assert sorted(targets) == sorted(t for t in hexes(s, h) if s.kind(t) != "supernova")
    s.apply(Shift(targets[0]))
    assert s.phase == MOVE and s.current_player() == mover
    assert scout not in s.units or (scout.hex in (targets[0], h) and scout.stopped)


def test_solitaire_lost_in_space_shifts_by_a_die_roll(engine):
    s = clear(fresh(engine, 1))
    h = hexes(s, s.home[0])[0]
    show(s, h, "lost-in-space", revealed=False)
    scout = place(s, 0, "SC", s.home[0])
    s.apply(Move(scout.uid, h))
    assert s.phase == MOVE and s.chance.events[-1][0] in ("lost in space", "explore", "black hole")
    assert scout not in s.units or scout.hex != h


def test_minerals_are_towed_home_and_pay_once(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    h = hexes(s, home)[0]
    show(s, h, "minerals")
    cp = s.engine.markers[s.marker_at[h]].cp
    miner = place(s, RED, "Miner", h)
    s.apply(Load(miner.uid))
    assert s.marker_at[h] == -1 and miner.tow >= 0
    s.apply(Move(miner.uid, home))
    s.apply(Unload(miner.uid))
    to_econ(s)
    assert s.cp[RED] == 20 + cp  # no ship pays maintenance here
    through_econ(s)
    to_econ(s)
    assert s.cp[RED] == min(20 + cp, 30) + 20


def test_a_destroyed_miner_loses_its_load(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    show(s, h, "minerals")
    miner = place(s, RED, "Miner", h)
    s.apply(Load(miner.uid))
    m = miner.tow
    s._remove(miner)
    assert s.mloc[m][0] == 3 and s.invariant_violations() == []


def test_a_space_wreck_raises_the_technology_its_roll_names(engine):
    raised = set()
    for seed in range(30):
        s = clear(fresh(engine, seed=seed))
        home = s.home[RED]
        h = hexes(s, home)[0]
        show(s, h, "space-wreck")
        miner = place(s, RED, "Miner", h)
        s.apply(Load(miner.uid))
        s.apply(Move(miner.uid, home))
        s.apply(Unload(miner.uid))
        before = dict(s.tech[RED])
        to_econ(s)
        roll, tech = next(o for k, o in s.chance.events if k == "space wreck")
        assert next(t for t, lo, hi in engine.wreck_table if lo <= roll <= hi) == tech
        assert s.tech[RED] == before | {tech: before[tech] + 1}
        raised.add(tech)
    assert len(raised) >= 4


# -- colonies ---------------------------------------------------------------------------------------------------------


def test_a_colony_ship_settles_a_planet_which_grows_1_3_5(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    show(s, h, "planet")
    colony_ship = place(s, RED, "CO", h)
    s.apply(Colonize(colony_ship.uid))
    assert s.col_owner[h] == RED and s.col_cp[h] == 0 and colony_ship not in s.units
    grown = []
    for _ in range(4):
        through_econ(s)
        grown.append(s.col_cp[h])
    assert grown == [1, 3, 5, 5]


def test_a_barren_planet_needs_terraforming(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    show(s, h, "barren")
    plain = place(s, RED, "CO", h)
    assert Colonize(plain.uid) not in s.legal_actions()
    s.tech[RED]["terraforming"] = 1
    terraformer = place(s, RED, "CO", h)  # built after the technology
    assert Colonize(terraformer.uid) in s.legal_actions() and Colonize(plain.uid) not in s.legal_actions()


# -- combat -----------------------------------------------------------------------------------------------------------


def test_entering_enemy_warships_stops_the_move_and_the_battle_follows(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    show(s, h, "planet")
    s.tech[RED]["movement"] = 7
    destroyers = place(s, RED, "DD", s.home[RED], 3)
    place(s, YELLOW, "SC", h)
    s.apply(Move(destroyers.uid, h))
    assert destroyers.stopped
    end_move(s)
    _, (where, outcome, _left) = next(e for e in reversed(s.chance.events) if e[0] == "battle")
    assert where == engine.hex_label[h] and outcome in ("attacker wins", "defender wins", "attacker retreats")
    owners = {u.owner for u in s.units if u.hex == h}
    assert len(owners) <= 1 and s.invariant_violations() == []


def test_enemy_non_combat_units_in_the_way_are_destroyed_at_once(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    show(s, h, "planet")
    scout = place(s, RED, "SC", s.home[RED])
    miner = place(s, YELLOW, "Miner", h)
    s.apply(Move(scout.uid, h))
    assert miner not in s.units and not scout.stopped


def test_non_combat_units_left_alone_in_a_battle_are_destroyed(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    show(s, h, "planet")
    place(s, RED, "DD", s.home[RED], 6)
    colony_ship = place(s, YELLOW, "CO", h)
    guard = place(s, YELLOW, "SC", h)
    s.apply(Move(s.units[0].uid, h))
    end_move(s)
    if guard not in s.units:
        assert colony_ship not in s.units


def test_decoys_are_destroyed_when_combat_starts(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    show(s, h, "planet")
    decoy = place(s, YELLOW, "Decoy", h)
    guards = place(s, YELLOW, "DD", h, 6)
    place(s, RED, "SC", h)
    end_move(s)
    battle = next(o for k, o in s.chance.events if k == "battle")
    assert len(battle[2][1]) == 1 and battle[2][1][0] == guards.count  # the Destroyers fought without the Decoy
    assert guards in s.units and decoy not in s.units


def test_bombardment_steps_a_homeworld_down_by_five_and_its_fall_ends_the_game(engine):
    s = clear(fresh(engine))
    target = s.home[YELLOW]
    place(s, RED, "DN", target, 6)
    s.tech[RED]["attack"] = 3  # to-hit 6 + 3 = 9 against a colony
    steps = []
    while s.phase != OVER:
        end_move(s)
        steps.append(s.col_cp[target])
        while s.phase == MOVE and s.player != RED:
            end_move(s)
        if s.phase == ECON:
            through_econ(s)
    assert all(v % 5 == 0 for v in steps)
    assert s.ending == "last Homeworld standing" and s.returns() == [1.0, 0.0]
    assert YELLOW in s.out and not any(u.owner == YELLOW for u in s.units)


def test_a_colony_hit_loses_a_step_and_a_new_colony_falls_to_one_hit(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[YELLOW])[0]
    s.col_owner[h], s.col_cp[h] = YELLOW, 5
    conflict.hit_colony(s, h)
    assert s.col_cp[h] == 3
    conflict.hit_colony(s, h)
    conflict.hit_colony(s, h)
    assert s.col_owner[h] == -1
    s.col_owner[h], s.col_cp[h] = YELLOW, 0
    conflict.hit_colony(s, h)
    assert s.col_owner[h] == -1


def test_retreat_goes_to_an_explored_empty_hex_no_farther_from_a_colony(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    h = hexes(s, home)[0]
    for t in hexes(s, h):
        if t != home:
            show(s, t, "planet", revealed=False)
    assert battle.retreat_hex(s, RED, h) == home  # the only explored neighbour
    place(s, YELLOW, "SC", home)
    assert battle.retreat_hex(s, RED, h) is None  # enemy units block it
    farther = next(t for t in hexes(s, h) if engine.distance(t, home) == 2)
    show(s, farther, "planet")
    assert battle.retreat_hex(s, RED, h) is None  # farther from every colony than the battle


def test_retreat_may_go_no_farther_from_any_one_colony_not_only_the_nearest(engine):
    """Retreat: 'an adjacent System (hex) which is the same distance, or less, from one of its colonies' — a hex
    farther from the nearest colony is allowed when it is no farther from another one."""
    s = clear(fresh(engine))
    home = s.home[RED]
    h = hexes(s, home)[0]
    away = next(t for t in hexes(s, h) if engine.distance(t, home) == 2)
    other = next(c for c in range(len(s.on)) if s.on[c] and c not in s.home and s.marker_at[c] >= 0
                 and engine.distance(c, away) == 2 and engine.distance(c, h) == 3)  # fmt: skip
    s.col_owner[other], s.col_cp[other] = RED, 3
    for t in hexes(s, h):
        if t not in (away, home):
            show(s, t, "planet", revealed=False)
    show(s, away, "planet")
    place(s, YELLOW, "SC", home)  # the Homeworld, nearer than the battle, is blocked
    assert min(engine.distance(away, c) for c in (home, other)) > engine.distance(h, home)  # farther from the nearest
    assert battle.retreat_hex(s, RED, h) == away


def test_a_battle_played_by_the_default_choices_is_the_calculators_battle_roll_for_roll(engine, monkeypatch):
    """The default choices are the calculator's policies and each shot draws from the game's stream as `combat.fight`
    does: with retreat impossible, the engine's battle is `combat.fight`'s, shot for shot, in every terrain."""
    from cardgen.engine.games.space_empires_4x.combat import fight

    outcomes = set()
    for seed in range(40):
        s = clear(fresh(engine, seed=seed))
        h = hexes(s, s.home[RED])[0]
        show(s, h, ("planet", "nebula", "asteroids")[seed % 3])
        s.tech[RED]["attack"] = 1  # built after the technology: the groups carry it
        groups = [place(s, RED, "CA", h, 2), place(s, RED, "DD", h, 2)]
        s.tech[RED]["attack"] = 0
        groups += [place(s, YELLOW, "DD", h, 3), place(s, YELLOW, "SC", h, 2), place(s, YELLOW, "CA", h, 1)]
        monkeypatch.setattr(battle, "retreat_hexes", lambda state, player, at: [])
        stream = s.rng.clone()
        expected = fight(engine.combat, [battle.group(s, u, False) for u in groups[:2]],
                         [battle.group(s, u, False) for u in groups[2:]], s.terrain(h), False, stream)  # fmt: skip
        end_move(s)
        _, (where, outcome, left) = next(e for e in s.chance.events if e[0] == "battle")
        assert (outcome, left) == expected and where == engine.hex_label[h]
        assert s.rng.state() == stream.state()
        outcomes.add(outcome)
    assert outcomes == {"attacker wins", "defender wins"}


def test_the_attacker_decides_the_order_of_its_battles(engine, monkeypatch):
    """Combat: 'If there is more than one battle, the attacker decides the order in which battles occur' — after
    its move the attacker chooses the next battle while two or more remain; the last follows at once."""
    fought = []
    begin = battle.begin

    def spy(state, p, q, h, attackers, defenders):
        fought.append(attackers[0].code)
        begin(state, p, q, h, attackers, defenders)

    monkeypatch.setattr(battle, "begin", spy)
    s = clear(fresh(engine))
    first, later = sorted(hexes(s, s.home[RED])[:2])
    for h, code in ((first, "DD"), (later, "CA")):
        show(s, h, "planet")
        place(s, RED, code, h)
        place(s, YELLOW, "SC", h)
    end_move(s)
    assert s.legal_actions() == [Battle(first), Battle(later)] and s.player == RED and not fought
    s.apply(Battle(later))
    settle(s)
    assert fought == ["CA", "DD"] and s.player == YELLOW and s.phase == MOVE


def test_screening_keeps_ships_out_of_the_round(engine):
    """Combat Screening: 'if a player has more combat capable ships than their opponent, that player may choose to
    screen (protect) ships from combat for the current round (up to the difference in ship count). A screened ship
    may neither fire nor be fired upon' — two Scouts screened leave Yellow's Destroyer one target and Red one shot."""
    for seed in range(20):
        s = clear(fresh(engine, seed=seed))
        h = hexes(s, s.home[RED])[0]
        show(s, h, "planet")
        destroyer, scouts = place(s, RED, "DD", h), place(s, RED, "SC", h, 2)
        place(s, YELLOW, "DD", h)
        s.apply(EndMove())
        assert s.current_player() == RED
        assert s.legal_actions() == [Screen(destroyer.uid, 0), Screen(scouts.uid, 0), OpenFire()]
        s.apply(Screen(scouts.uid, 0))
        assert s.fight is not None and s.fight.round == 1 and s.fight.screener == 0  # one more may be screened
        s.apply(Screen(scouts.uid, 0))
        shots = [o for k, o in s.chance.events if k == "shot"]
        assert 1 <= len(shots) <= 2  # Yellow's Destroyer, then Red's: no shot from the Scouts
        assert scouts in s.units and scouts.count == 2  # never fired upon
        if s.fight is not None:  # both Destroyers missed: the next round, screening again
            assert s.fight.round == 2 and s.fight.screener == 0 and s.fight.fighters[1].screened == []


def test_each_ship_chooses_its_target(engine):
    """Who May Fire: 'A unit (ship) with Attack Strength may fire at any opposing unit unless Screened' — Red's
    Destroyer chooses between Yellow's Scout and Destroyer; the default is the calculator's (the ship closest to
    destruction, then the group firing earliest)."""
    chosen = 0
    for seed in range(10):
        s = clear(fresh(engine, seed=seed))
        h = hexes(s, s.home[RED])[0]
        show(s, h, "planet")
        place(s, RED, "DD", h)
        scout, destroyer = place(s, YELLOW, "SC", h), place(s, YELLOW, "DD", h)
        s.apply(EndMove())
        assert s.current_player() == YELLOW
        assert s.legal_actions() == [Screen(scout.uid, 0), Screen(destroyer.uid, 0), OpenFire()]
        s.apply(OpenFire())  # Yellow's Destroyer fires first (the defender), at the one target there is
        if s.fight is None:
            continue  # its shot ended the battle
        assert s.current_player() == RED and s.legal_actions() == [Fire(scout.uid), Fire(destroyer.uid)]
        assert battle.default(s) == Fire(destroyer.uid)  # equal hulls left: the Destroyer fired earlier
        fired = sum(1 for k, _ in s.chance.events if k == "shot")
        s.apply(Fire(scout.uid))
        shot = [o for k, o in s.chance.events if k == "shot"][fired]
        assert (scout in s.units) == (shot > 4)  # 4 + 0 - 0: a roll of 4 or less hits the Scout
        chosen += 1
    assert chosen >= 3


def test_a_group_retreats_at_its_own_turn_to_fire_from_the_second_round(engine):
    """Resolve Combat: 'After the first combat round, a player may choose to have a unit retreat instead of firing'
    — no retreat is offered in the first round; in the second, Red's Destroyer (class D) is offered it at its own
    turn, after Yellow's Cruiser (class C) has fired that round."""
    retreated = 0
    for seed in range(40):
        s = clear(fresh(engine, seed=seed))
        home = s.home[RED]
        h = hexes(s, home)[0]
        show(s, h, "planet")
        destroyer = place(s, RED, "DD", h)
        place(s, YELLOW, "CA", h)
        s.apply(EndMove())
        while s.fight is not None and not any(a.tag == "retreat" for a in s.legal_actions()):
            assert s.fight.round == 1 or s.current_player() == YELLOW or s.fight.fired
            s.apply(battle.default(s))
        if s.fight is None:
            continue
        assert s.fight.round == 2 and s.current_player() == RED
        shots = sum(1 for k, _ in s.chance.events if k == "shot")
        assert shots == 3  # round one's two shots, then Yellow's Cruiser's in round two, before Red's choice
        assert Retreat(home) in s.legal_actions()
        s.apply(Retreat(home))
        assert s.fight is None and destroyer.hex == home and s.player == YELLOW
        _, (_, outcome, left) = next(e for e in s.chance.events if e[0] == "battle")
        assert outcome == "attacker retreats" and left == [[1], [1]]
        retreated += 1
    assert retreated >= 5


def test_a_retreat_into_a_black_hole_rolls_like_any_entry(engine):
    """Black Holes: 'A roll of 1-6 and the unit survives, 7-10 means the unit is destroyed', for every unit entering
    (the reading in rules.yaml) — a unit retreating into the hex (Retreat) enters it too."""
    outcomes = set()
    for seed in range(60):
        s = clear(fresh(engine, seed=seed))
        home = s.home[RED]
        h = hexes(s, home)[0]
        hole = next(t for t in hexes(s, h) if t in hexes(s, home))
        for t in hexes(s, h):
            if t not in (home, hole):
                show(s, t, "planet", revealed=False)
        show(s, hole, "black-hole")
        place(s, YELLOW, "SC", home)  # the Homeworld is blocked: the Black Hole is the only way out
        cruiser = place(s, RED, "CA", h)
        place(s, YELLOW, "DD", h)
        assert battle.retreat_hexes(s, RED, h) == [hole]
        s.apply(EndMove())
        while s.fight is not None and Retreat(hole) not in s.legal_actions():
            s.apply(battle.default(s))
        if s.fight is None:
            continue
        s.apply(Retreat(hole))
        rolls = [outcome for kind, outcome in s.chance.events if kind == "black hole"]
        assert len(rolls) == 1 and (cruiser in s.units) == (rolls[0] <= 6)
        outcomes.add(cruiser in s.units)
    assert outcomes == {True, False}


# -- the Economic Phase -----------------------------------------------------------------------------------------------


def test_income_less_maintenance_and_scuttling_when_short(engine):
    s = clear(fresh(engine))
    place(s, RED, "SY", s.home[RED], 4)
    place(s, RED, "BB", s.home[RED], 6)  # 18 hull to maintain, 20 income
    place(s, RED, "BB", s.home[RED], 4)  # 12 more: 30 due against 20
    to_econ(s)
    assert s.player == RED and s.due[RED] == 30 and s.cp[RED] == 20
    assert all(isinstance(a, Scuttle) for a in s.legal_actions())
    s.apply(s.legal_actions()[1])
    assert s.due[RED] == 0 and s.cp[RED] == 2 and s.invariant_violations() == []


def test_research_one_level_per_technology_per_phase_at_the_chart_cost(engine):
    s = clear(fresh(engine))
    place(s, RED, "SY", s.home[RED], 4)
    to_econ(s)
    s.cp[RED] = 100
    s.apply(Research("ship-size"))
    assert s.tech[RED]["ship-size"] == 2 and s.cp[RED] == 100 - engine.tech_cost["ship-size"][2]
    assert Research("ship-size") not in s.legal_actions()
    assert s.illegal(Research("ship-size")) is not None
    s.apply(Research("attack"))
    assert s.cp[RED] == 90 - 20


def test_building_needs_ship_size_yard_capacity_and_a_free_counter(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    place(s, RED, "SY", home, 2)  # capacity 2 hull at level 1
    to_econ(s)
    s.cp[RED] = 200
    assert Build("DD", home) not in s.legal_actions()  # Destroyers need Ship Size 2
    assert "Ship Size technology too low" in s.illegal(Build("DD", home))
    s.apply(Research("ship-size"))
    s.apply(Build("DD", home))
    s.apply(Build("DD", home))
    assert "no Ship Yard capacity left" in s.illegal(Build("DD", home))
    dd = [u for u in s.units if u.code == "DD"]
    assert len(dd) == 1 and dd[0].count == 2  # ships bought together at one place form one group
    s.apply(Build("SY", home))
    assert "one Ship Yard per planet" in s.illegal(Build("SY", home))
    assert economy.yard_room(s, RED, home) == 0  # a Ship Yard placed this phase builds nothing yet
    for _ in range(engine.limits["Decoy"]):
        s.apply(Build("Decoy", home))
    assert "every Decoy counter is in play" in s.illegal(Build("Decoy", home))


def test_group_counters_run_out_at_the_counter_limit(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    for _ in range(engine.limits["DD"]):
        place(s, RED, "DD", home)
    place(s, RED, "SY", home, 4)
    to_econ(s)
    s.cp[RED], s.tech[RED]["ship-size"] = 200, 2
    s._legal, s.carried = None, False
    assert s.illegal(Build("DD", home)).endswith("every DD counter is in play")
    assert "limit:DD" in s.events


def test_upgrades_cost_hull_size_per_ship_at_a_ship_yard(engine):
    s = clear(fresh(engine))
    home = s.home[RED]
    place(s, RED, "SY", home, 4)
    cruisers = place(s, RED, "CA", home, 3)
    to_econ(s)
    s.cp[RED] = 30
    s.tech[RED]["attack"] = 1
    s._legal, s.carried = None, False
    s.apply(Upgrade(cruisers.uid))
    assert s.cp[RED] == 30 - 2 * 3 and cruisers.att == 1


def test_unspent_cp_above_thirty_is_lost(engine):
    s = clear(fresh(engine))
    through_econ(s)
    assert s.cp[RED] == 20
    through_econ(s)
    assert s.cp[RED] == 30


def test_the_highest_bid_moves_first(engine):
    s = clear(fresh(engine, 3))
    to_econ(s)
    s.apply(EndEcon())
    s.apply(Bid(2))
    s.apply(EndEcon())
    s.apply(Bid(1))
    s.apply(EndEcon())
    assert s.order == [1, 0, 2] and s.player == 1 and s.phase == MOVE


def test_a_blockaded_colony_pays_nothing_and_builds_nothing(engine):
    s = clear(fresh(engine))
    h = hexes(s, s.home[RED])[0]
    s.col_owner[h], s.col_cp[h] = RED, 5
    place(s, RED, "SY", h, 1)
    place(s, YELLOW, "DD", h, 1)  # set down after the battles: the colony is blockaded
    s.phase, s.player = ECON, RED
    economy.begin(s, RED)
    assert s.cp[RED] == 20 and s.blockaded(h) and "blockaded" in s.illegal(Build("SC", h))


def test_an_illegal_action_is_rejected_with_the_reason(engine):
    s = clear(fresh(engine))
    colony_ship = place(s, RED, "CO", s.home[RED])
    far = next(h for h in range(len(s.on)) if s.on[h] and h not in s.adj[s.home[RED]] and h != s.home[RED])
    with pytest.raises(IllegalAction, match="not an adjacent hex"):
        s.apply(Move(colony_ship.uid, far))


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 8)])
def test_listed_moves_and_builds_are_those_the_rules_allow_one_at_a_time(engine, players, seed):
    """Movement (rulebook 6.0: adjacent hexes, a non-combat unit never into an undiscovered hex or beside enemies, a
    combat unit into a Nebula, Asteroids or an undiscovered hex only as its first move) and building (7.0: CP, Ship
    Size, counters in play, Ship Yard capacity, no blockade) are listed from facts counted once a listing
    (`movement.actions`, `economy._builds`). At every Move and Economic decision of seeded random games, the list
    must be what asking `may_enter` and `build_problem` about each unit and hex, or each type and colony, gives.
    A move listing carried past plain moves (only the unit that moved and those it stopped listed again) must be,
    action for action and in order, the listing of the same state from nothing; and a move made there, which stops
    only the unit the last plain move left part-way (`state.moving`), must leave the units as a clone's move, which
    looks at every unit, leaves them."""
    s, rng = engine.new_state(players, seed), CounterRng(3000 + seed)
    checked = {MOVE: 0, ECON: 0, "carried": 0, "known": 0}
    for _ in range(3000):
        if s.is_terminal():
            break
        carried = s.carried
        legal = s.legal_actions()
        kind = s.decision[0] if s.decision else None
        p = s.player
        if kind == MOVE:
            expected = [Move(u.uid, t) for u in s.units if u.owner == p and not u.stopped and u.steps < s.allowance(u)
                        for t in s.adj[u.hex] if movement.may_enter(s, u, t) is None]  # fmt: skip
            assert sorted(a for a in legal if isinstance(a, Move)) == sorted(expected), s.turn
            checked[MOVE] += 1
            if carried:
                assert listed_afresh(s) == legal, s.turn
                checked["carried"] += 1
                if checked["carried"] % 4 == 0:  # a search's determinization deals the others' face-down groups
                    dealt = s.determinize((p + 1) % players, CounterRng(seed))  # again: the mover's, here
                    assert dealt.legal_actions() == listed_afresh(dealt), s.turn
        elif kind == ECON and s.due[p] <= s.cp[p]:
            expected = [Build(code, h) for h in s.colonies(p) if s.income_colony(h, p) for code in engine.buildable
                        if economy.build_problem(s, p, code, h) is None]  # fmt: skip
            assert sorted(a for a in legal if isinstance(a, Build)) == sorted(expected), s.turn
            checked[ECON] += 1
        action = legal[rng.randbelow(len(legal))]
        if isinstance(action, Move) and s.carried and s.moving[0] == s.listings:
            twin = s.clone()
            twin.carried = False  # as changed by hand: its move looks at every unit
            s.do(action)
            twin.do(action)
            assert [(u.uid, u.hex, u.steps, u.stopped) for u in s.units] == [
                (u.uid, u.hex, u.steps, u.stopped) for u in twin.units
            ], s.turn
            checked["known"] += 1
        else:
            s.do(action)
    assert checked[MOVE] > 100 and checked[ECON] > 10 and checked["carried"] > 50 and checked["known"] > 50, checked


# -- playouts, logs and copies ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def short_game(tmp_path_factory) -> str:
    """The bundled game with a one-round cap (three turns and an Economic Phase), so 200 random games per player
    count with every check fit in a test; benchmarks/engine_invariants.py plays the full 20 rounds thousands of
    times."""
    copy = copy_game("space-empires-4x", tmp_path_factory.mktemp("short"))
    copy.edit("rules.yaml", "  turn_cap:\n    value: 20", "  turn_cap:\n    value: 1")
    return str(copy.data)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_two_hundred_seeded_games_keep_every_invariant(short_game, players):
    spec = PlaySpec("space-empires-4x", short_game, players, 11, ("random",), check=True)
    summary = summarise(spec, play_many(spec, 200), 1.0)
    assert summary["games"] == 200 and summary["invariant_violations"] == 0, summary["violation_examples"]


def test_greedy_beats_random_and_conquers(engine):
    spec = PlaySpec("space-empires-4x", str(DATA), 2, 2, ("greedy", "random"), check=True)
    summary = summarise(spec, play_many(spec, 4), 1.0)
    assert summary["invariant_violations"] == 0
    assert summary["wins"].get("agent greedy", 0) == 4, summary["wins"]
    assert summary["endings"].get("last Homeworld standing", 0) >= 1, summary["endings"]


GOLDEN = FIXTURES / "golden" / "space-empires-4x.jsonl"


def test_golden_log_replays_exactly(tmp_path, short_game):
    """Seed 2026's first 2-player game on the short game; CARDGEN_UPDATE_GOLDEN=1 regenerates it after a change."""
    spec = PlaySpec("space-empires-4x", short_game, 2, 2026, ("greedy", "random"), log=True)
    check_golden_log(spec, GOLDEN, tmp_path)


def test_states_pickle_and_clones_are_independent(engine):
    check_pickle_and_clone(engine, 3, 5, 300, 200)


def test_clones_share_units_and_players_records_until_one_changes_them(engine):
    """Clones share counters and each player's technology, purchases, hulls built and peeks (`SE4XState.clone`): a
    counter is copied into its place before it changes (`SE4XState.own`), the records are replaced, never changed.
    From every 500th decision of seeded games at two and four players, a clone played to the end leaves the
    original's counters, records and observation as they were; the clones did change them."""

    def held(state) -> tuple[object, ...]:
        records = [sorted(t.items()) for t in state.tech], [sorted(b) for b in state.bought]
        records += [sorted(b.items()) for b in state.built_at], [sorted(k.items()) for k in state.known]
        return [(u.key(), u.steps, u.stopped, u.peeked, u.new, u.seen, u.tow) for u in state.units], records

    def changed(clone, state) -> bool:
        return held(clone) != held(state)

    check_clone_playouts(engine, ((2, 3), (4, 5)), 500, lambda state: (*held(state), state.observation(0)), changed)


def test_a_units_copy_carries_every_slot():
    """A state copies a unit slot by slot before it changes one it shares with a clone (`Unit.copy`, written out for
    speed): a slot added later must be copied; `held` is the copy's new holder's."""
    unit = Unit(7, 1, "DD", 2, 3, 11, {"attack": 1, "defense": 1, "tactics": 1, "movement": 2, "terraforming": 1})
    for number, name in enumerate(Unit.__slots__):
        setattr(unit, name, f"value {number}")  # a distinct value in every slot
    token = object()
    copy = unit.copy(token)
    assert copy is not unit and copy.key() == unit.key() and copy.held is token
    assert [getattr(copy, name) for name in Unit.__slots__ if name != "held"] == [
        f"value {n}" for n, name in enumerate(Unit.__slots__) if name != "held"
    ]


def test_determinizations_keep_what_a_player_sees_and_redeal_the_face_down_markers(engine):
    rng = CounterRng(9)
    s = engine.new_state(2, 2)
    changed = 0
    for _ in range(300):
        for player in range(2):
            seen = s.observation(player)
            deal = s.determinize(player, rng)
            assert deal.observation(player) == seen and deal.invariant_violations() == []
            changed += deal.marker_at != s.marker_at
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    assert changed > 0


def test_determinizations_redeal_the_enemys_face_down_groups_among_its_face_down_counters(engine):
    """A search must not see what an enemy counter is: its face-down groups are dealt again among its face-down
    counters (which keep their places), while revealed groups, single ships, Ship Yards, the searcher's own units
    and whatever the searcher can see stay as they are."""
    s = clear(fresh(engine))
    home = s.home[YELLOW]
    away = [h for h in hexes(s, home) if s.on[h]][:4]
    fleet = place(s, YELLOW, "BB", away[0], 3)
    decoy = place(s, YELLOW, "Decoy", away[1])
    scout = place(s, YELLOW, "SC", away[2], 2)
    shown = place(s, YELLOW, "DD", away[3], 2)
    shown.seen = True
    yard = place(s, YELLOW, "SY", home)
    miner = place(s, YELLOW, "Miner", away[1])
    mine = place(s, RED, "CA", s.home[RED], 2)
    raider = place(s, YELLOW, "DD", s.home[RED])  # face down, but beside the searcher's own ships
    bought = place(s, YELLOW, "CA", home)  # bought in this Economic Phase: not seen by the others until it ends
    bought.new = True
    before = {u.uid: u.key() for u in s.units}
    looks = sorted((u.code, u.count, u.group) for u in (fleet, decoy, scout))
    rng = CounterRng(4)
    where_the_fleet_went = set()
    for _ in range(40):
        deal = s.determinize(RED, rng)
        assert isinstance(deal, SE4XState)
        assert deal.observation(RED) == s.observation(RED) and deal.invariant_violations() == []
        units = {u.uid: u for u in deal.units}
        assert (
            sorted((units[u.uid].code, units[u.uid].count, units[u.uid].group) for u in (fleet, decoy, scout)) == looks
        )
        assert all(units[u.uid].key() == before[u.uid] for u in (shown, yard, miner, mine, raider))  # not redealt
        assert bought.uid not in units
        assert all(units[u.uid].hex == u.hex for u in (fleet, decoy, scout))  # the counters stay where they are
        where_the_fleet_went |= {u.hex for u in units.values() if u.code == "BB"}
        assert {u.uid: u.key() for u in s.units} == before  # the real state is untouched
        own = s.determinize(YELLOW, rng)  # the owner knows its own counters
        assert {u.uid: u.key() for u in own.units} == before
    assert where_the_fleet_went == {away[0], away[1], away[2]}


def test_what_a_player_buys_in_the_economic_phase_is_unseen_until_the_phase_ends(engine):
    """The Economic Phase is simultaneous: the engine takes the players in turn, so a later player must neither see
    nor search with what an earlier one bought."""
    s = clear(fresh(engine))
    for p in (RED, YELLOW):
        place(s, p, "SY", s.home[p], 2)
    to_econ(s)
    assert s.phase == ECON and s.player == RED
    s.cp[RED] = 200
    s.apply(Build("SC", s.home[RED]))
    scout = next(u for u in s.units if u.owner == RED and u.code == "SC")
    assert scout.new
    seen = s.observation(YELLOW)
    assert not any(entry[0] == scout.uid for entry in seen[UNITS])
    assert scout.key() in s.observation(RED)[UNITS]  # its buyer sees it in full
    rng = CounterRng(2)
    theirs, mine = s.determinize(YELLOW, rng), s.determinize(RED, rng)
    assert isinstance(theirs, SE4XState) and isinstance(mine, SE4XState)
    assert scout.uid not in {u.uid for u in theirs.units} and scout.uid in {u.uid for u in mine.units}
    assert theirs.observation(YELLOW) == seen and theirs.invariant_violations() == []
    assert theirs.fresh == {} and all(not b for q, b in enumerate(theirs.built_at) if q != YELLOW)
    s.apply(EndEcon())
    while s.phase == ECON:  # the other players end theirs
        s.apply(EndEcon())
    assert any(entry[0] == scout.uid for entry in s.observation(YELLOW)[UNITS])  # placed for all to see


UNITS, MARKERS = 7, 8  # where the units and the markers sit in an observation


def peeking_cruiser(engine: SE4XEngine, kind: str) -> tuple[SE4XState, object, int]:
    """Red's Cruiser at home with Exploration technology, a face-down marker of `kind` next to it."""
    s = clear(fresh(engine))
    s.tech[RED]["exploration"] = 1
    cruiser = place(s, RED, "CA", s.home[RED])
    target = next(h for h in hexes(s, s.home[RED]) if s.on[h])
    show(s, target, kind, revealed=False)
    s._legal, s.carried = None, False
    return s, cruiser, target


def test_a_cruiser_peeks_and_its_owner_chooses_to_reveal_or_keep_the_marker_face_down(engine):
    """'Once seen, you choose to reveal or leave it face down': left face down, the marker is known to the peeker
    alone (its observation and its determinizations keep it; the other player's do not)."""
    s, cruiser, target = peeking_cruiser(engine, "planet")
    peek = Peek(cruiser.uid, target)
    assert peek in s.legal_actions()
    marker = s.marker_at[target]
    s.apply(peek)
    assert s.legal_actions() == [PeekChoice(True), PeekChoice(False)] and s.current_player() == RED
    s.apply(PeekChoice(False))
    assert not s.revealed[target] and s.marker_at[target] == marker and s.peeking == -1
    assert s.kind(target) is None and s.kind_for(RED, target) == "planet" and s.kind_for(YELLOW, target) is None
    assert s.observation(RED)[MARKERS][target] == "planet" and s.observation(YELLOW)[MARKERS][target] is True
    assert Peek(cruiser.uid, target) not in s.legal_actions()  # one peek a turn
    from cardgen.engine.games.space_empires_4x.view import Goals

    red, yellow = Goals(s, RED), Goals(s, YELLOW)  # greedy's colony ships head for what their player knows
    assert red.settle is not None and red.settle[target] == 0
    assert yellow.settle is None or yellow.settle[target] > 0
    rng, moved = CounterRng(3), 0
    for _ in range(30):
        mine, theirs = s.determinize(RED, rng), s.determinize(YELLOW, rng)
        assert isinstance(mine, SE4XState) and isinstance(theirs, SE4XState)
        assert mine.marker_at[target] == marker and mine.observation(RED) == s.observation(RED)
        assert theirs.observation(YELLOW) == s.observation(YELLOW) and theirs.invariant_violations() == []
        moved += theirs.marker_at[target] != marker
        assert theirs.kind_for(RED, target) == engine.markers[theirs.marker_at[target]].kind  # red knows that deal
    assert moved > 0
    assert s.invariant_violations() == []


@pytest.mark.parametrize(("kind", "gone"), [("danger", True), ("lost-in-space", True), ("planet", False)])
def test_a_revealed_peek_discards_a_marker_with_an_immediate_effect(engine, kind, gone):
    s, cruiser, target = peeking_cruiser(engine, kind)
    s.apply(Peek(cruiser.uid, target))
    s.apply(PeekChoice(True))
    assert (s.marker_at[target] < 0) == gone and s.known_marker(RED, target) == -1
    assert cruiser.hex == s.home[RED] and cruiser in s.units  # no harm to the Cruiser
    if not gone:
        assert s.revealed[target] and s.observation(YELLOW)[MARKERS][target] == kind


@pytest.mark.parametrize(("kind", "reveal"), [("danger", True), ("lost-in-space", True), ("planet", False),
                                              ("minerals", False), ("black-hole", False)])  # fmt: skip
def test_greedy_turns_up_only_what_the_reveal_discards(engine, kind, reveal):
    from cardgen.engine.games.space_empires_4x.view import action_value

    s, cruiser, target = peeking_cruiser(engine, kind)
    s.apply(Peek(cruiser.uid, target))
    best = max(s.legal_actions(), key=lambda a: action_value(s, a, RED))
    assert best == PeekChoice(reveal)


def test_hidden_groups_show_only_where_they_are(engine):
    s = clear(fresh(engine))
    group = place(s, YELLOW, "BB", s.home[YELLOW], 3)
    seen = s.observation(RED)
    assert (group.uid, YELLOW, "?", -1, group.hex) in seen[UNITS]
    group.seen = True
    assert (group.uid, YELLOW, "BB", 3, group.hex) in s.observation(RED)[UNITS]


def test_the_engine_reads_its_numbers_from_rules_yaml(tmp_path):
    copy = copy_game("space-empires-4x", tmp_path)
    copy.edit("rules.yaml", "  homeworld_income:\n    value: 20", "  homeworld_income:\n    value: 25")
    copy.edit("rules.yaml", "value: {SY: 4, SC: 3, CO: 3, Miner: 1}", "value: {SY: 4, SC: 2, CO: 3, Miner: 1}")
    (game,) = load_games(copy.data, ["space-empires-4x"])
    s = SE4XEngine.from_game(game).new_state(2, 1)
    assert s.col_cp[s.home[0]] == 25 and sum(1 for u in s.units if u.owner == 0 and u.code == "SC") == 2


def test_play_reports_a_technology_never_bought(tmp_path):
    copy = copy_game("space-empires-4x", tmp_path)
    copy.edit("rules.yaml", "terraforming: {name: Terraforming, start: 0, costs: {1: 20}",
              "terraforming: {name: Terraforming, start: 0, costs: {1: 900}")  # fmt: skip
    copy.edit("rules.yaml", "  turn_cap:\n    value: 20", "  turn_cap:\n    value: 3")
    run = run_cli("--data-dir", copy.data, "play", "space-empires-4x", "--games", "3", "--json")
    assert run.code == 0, run.err
    problems = json.loads(run.out)["data_problems"]
    assert "technology 'terraforming': never bought in 3 games" in problems
    assert not any("technology 'ship-size'" in p for p in problems)
    text = run_cli("--data-dir", copy.data, "play", "space-empires-4x", "--games", "3").out
    assert "may still happen in up to 63.2% of games, at 95 % confidence" in text  # 1 − 0.05^(1/3): three is few


def test_event_problems_name_what_never_happened(engine):
    from collections import Counter

    seen = Counter({f"build:{c}": 30 for c in engine.buildable} | {f"research:{t}": 30 for t in engine.techs})
    seen |= Counter({f"marker:{k}": 30 for k in ("minerals", "planet", "danger")} | {"limit:DD": 30, "limit:SC": 3})
    problems = engine.event_problems(seen, 30)
    assert "marker 'black-hole': its effect never triggered in 30 games" in problems
    assert not any("'danger'" in p for p in problems)
    assert any(p.startswith("purchase limits reached in every one of 30 games: DD") for p in problems)
    assert any(p.startswith("purchase limits never reached") and "SC" not in p.split(":")[1] for p in problems)


# -- malformed actions ------------------------------------------------------------------------------------------------

BAD_VALUES = (-1, 10**6, None, "x", 1.5, [], True)


def fingerprint(s: SE4XState) -> object:
    """Everything an action could change: every player's view, the units in full, the economy, the dice so far."""
    return (
        [s.observation(p) for p in range(s.n)], [u.key() for u in s.units], list(s.cp), list(s.due), list(s.bid),
        [dict(t) for t in s.tech], list(s.marker_at), list(s.revealed), list(s.mloc), s.phase, s.player, s.turn,
        s.lost, s.peeking, list(s.chance.events), s.rng.counter, s.rng.key,
    )  # fmt: skip


def malformed(action) -> list:
    """The action with each field in turn set to a value out of range or of the wrong type, its tag changed, and
    things that are no action at all."""
    out = [action._replace(tag="no-such-action"), (), "move", None, 42, ("move",)]
    for name in action._fields:
        if name != "tag":
            out += [action._replace(**{name: value}) for value in BAD_VALUES]
    return out


def test_every_malformed_action_is_refused_with_a_reason_and_changes_nothing(engine):
    """The engine contract (core.IllegalAction): an action the state does not allow raises IllegalAction with the
    reason — a Move of no unit, to no hex, a Build of no unit type, a Research of no technology, a field of the wrong
    type, no action at all — and leaves the state as it was. Seeded random play over every phase; each legal action
    met is mutated field by field."""
    import random

    rng = random.Random(38)
    tried, tags = 0, set()
    for seed in range(2):
        s = engine.new_state(2, seed)
        assert isinstance(s, SE4XState)
        for step in range(400):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            kinds = {a.tag: a for a in rng.sample(legal, len(legal))}  # one action of each kind, at random
            before = fingerprint(s)
            for action in kinds.values() if step % 5 == 0 or s.phase != MOVE else ():
                tags.add(action.tag)
                for bad in malformed(action):
                    try:
                        if bad in legal:
                            continue
                    except Exception:
                        pass
                    why = s.illegal(bad)
                    assert isinstance(why, str) and why, bad
                    with pytest.raises(IllegalAction) as caught:
                        s.apply(bad)
                    assert str(caught.value), bad
                    tried += 1
            assert fingerprint(s) == before, "a refused action changed the state"
            s.apply(rng.choice(legal))
    assert tried > 500 and {"move", "end-move", "research", "build", "bid", "end-econ"} <= tags, (tried, tags)


def test_an_action_equal_to_a_legal_one_is_applied_as_the_legal_one(engine):
    """A Move to hex 3.0 equals the Move to hex 3: it is played as the legal action, so no float hex enters the
    state (the engine contract: apply plays only the legal actions)."""
    s = clear(fresh(engine))
    home = s.home[RED]
    a = hexes(s, home)[0]
    show(s, a, "planet")
    scout = place(s, RED, "SC", home)
    s.apply(Move(scout.uid, float(a)))
    assert scout.hex == a and type(scout.hex) is int
