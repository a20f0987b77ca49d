"""Star Commander's greedy agent plays a recognisable strategy: it judges every command by the end of the turn it allows
(not after the next player's income), so it neither hoards nor scraps and rebuilds to keep its turn going, and it judges
a jump into a battle by the fleet that can follow and fires where its shots destroy; the search agent searches the
Command phase and plays the rest as greedy does. Hand-built positions on the helpers of the engine's own tests."""

from __future__ import annotations

import pytest
from test_engine_star_commander import A1, B2, end_turn, fresh, own, put

from cardgen.engine.agents import GreedyAgent, MctsAgent
from cardgen.engine.games.star_commander import view
from cardgen.engine.games.star_commander.model import DONE, Assign, Build, Move


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    from test_engine_star_commander import DATA, StarEngine, load_games

    (game,) = load_games(DATA, ["star-commander"])
    return StarEngine.from_game(game)


def second_round(engine):  # type: ignore[no-untyped-def]
    """Seat 0's Command phase in the second round: both seats have had a turn, so the next Ready phase counts."""
    s = fresh(engine)
    end_turn(s)
    end_turn(s)
    while s.decision is not None and s.decision[:2] != ("command", 0):
        s.apply(s.legal_actions()[0])
    return s


def test_ending_a_turn_that_changes_nothing_is_worth_the_table_as_it_stands(engine):
    """The next player's income and draw come after the turn being judged: counting them made ending the turn look
    worse than any action that kept it going (66 scraps in one game of 1,128 actions before)."""
    s = second_round(engine)
    assert s.started == [True, True]
    assert view.action_value(s, DONE, 0) == pytest.approx(view.outlook(s, 0) - 0.01)


def test_a_jump_into_a_battle_is_judged_by_the_fleet_that_follows(engine):
    """Two Cruisers (3 attack each) beside a one-development system held by a Station (5 hit points: 6 damage
    destroy it): one alone changes nothing; both destroy the Station, besiege the system and take it. Greedy sends
    the first, then the second, and holds the system at the end of its turn."""
    s = second_round(engine)
    own(s, 1, B2)
    put(s, "core-station", 1, B2)
    first, second = put(s, "core-cruiser", 0, A1), put(s, "core-cruiser", 0, A1)
    greedy = GreedyAgent(engine, 0, 1)
    choice = greedy.choose(s, s.legal_actions())
    assert choice in (Move(first.card, B2), Move(second.card, B2))
    while s.active == 0 and not s.is_terminal():
        s.apply(greedy.choose(s, s.legal_actions()) if s.current_player() == 0 else s.legal_actions()[0])
    assert s.owner[B2] == 0


def test_shots_go_where_they_destroy_without_waste(engine):
    """Damage is dealt together after every ship has chosen: greedy counts what is already assigned, finishes a piece
    others have started and never fires at one already doomed."""
    s = second_round(engine)
    own(s, 1, B2)
    station = put(s, "core-station", 1, B2)  # 5 hit points: 6 damage destroy it
    corvette = put(s, "core-corvette", 1, B2)  # 2 hit points
    big = put(s, "core-dreadnought", 0, B2)  # 5 attack
    small = put(s, "core-cruiser", 0, B2)  # 3 attack
    s.assigned = [(big.card, station.card)]
    assert view.assign_value(s, Assign(small.card, station.card)) > view.assign_value(
        s, Assign(small.card, corvette.card)
    )
    s.assigned = [(big.card, corvette.card)]  # 5 > 2: the Corvette is doomed
    assert view.assign_value(s, Assign(small.card, corvette.card)) < view.assign_value(
        s, Assign(small.card, station.card)
    )


def test_greedy_works_out_the_damage_assigned_once_a_decision_and_anew_after_each_shot(engine):
    """Greedy values every shot of one decision from the damage assigned so far, worked out once (`_dealt_now`):
    at every shot's decision of seeded greedy games, each value equals the one worked out from scratch, so nothing
    stale is kept from the shot before."""
    from test_engine_star_commander import StarState

    checked = 0
    for seed in (1, 2, 3):
        s = StarState.setup(engine, 2, seed)
        s.resolve_chance()
        agents = [GreedyAgent(engine, 0, seed), GreedyAgent(engine, 1, seed)]
        while not s.is_terminal() and checked < 60:
            player, legal = s.current_player(), s.legal_actions()
            if s.decision is not None and s.decision[0] == "assign" and len(legal) > 1:
                assert [view.action_value(s, a, player) for a in legal] == [view.assign_value(s, a) for a in legal]
                checked += bool(s.assigned)
            s.apply(agents[player].choose(s, legal))
    assert checked >= 20  # decisions with shots already assigned before them


def test_search_searches_the_command_phase_and_plays_the_rest_as_greedy(engine):
    s = second_round(engine)
    assert s.searched()
    own(s, 1, B2)
    station = put(s, "core-station", 1, B2)
    for item in ("core-fighter", "core-corvette", "core-scout"):
        put(s, item, 1, B2)
    cruiser = put(s, "core-cruiser", 0, B2)
    s.apply(DONE)
    while s.decision is not None and s.decision[0] != "assign":
        s.apply(DONE if DONE in s.legal_actions() else s.legal_actions()[0])
    assert not s.searched() and s.decision == ("assign", 0, cruiser.card)
    greedy = GreedyAgent(engine, 0, 1).choose(s, s.legal_actions())
    assert greedy != Assign(cruiser.card, station.card)  # 3 damage destroy the Corvette, not the Station
    assert {MctsAgent(engine, 0, seed, 3).choose(s, s.legal_actions()) for seed in range(6)} == {greedy}


def test_at_four_players_a_blow_to_one_opponent_counts_whole_and_eliminating_one_is_a_gain(engine):
    """Rules, How to Win: the last Homeworld standing wins, so at 3 and 4 players each opponent must be conquered in
    turn. Greedy's outlook once set its position against the mean of the survivors: a blow to one opponent counted a
    third, and eliminating the weakest raised the survivors' mean and looked like a loss — greedy built fleets it
    never used and 0 of 10 four-player games ended by the rules. Against the sum of every opponent's position (the
    eliminated at -100), both count whole; at 2 players nothing changes."""
    s = fresh(engine, players=4)
    before = view.outlook(s, 0)
    weakened = s.clone()
    weakened.credits[2] -= 10  # 0.4 a credit in seat 2's position: seat 0's outlook gains the whole of it
    assert view.outlook(weakened, 0) == pytest.approx(before + 0.4 * 10)
    gone = s.clone()
    gone.out[3] = "its Homeworld taken"
    assert view.outlook(gone, 0) > before + 50  # seat 3's position became -100
    two = fresh(engine)
    assert view.outlook(two, 0) == pytest.approx(view.position(two, 0) - view.position(two, 1))


def test_a_ship_built_at_home_is_worth_its_cost_at_four_players(engine):
    """Greedy counted 0.4 against every jump a ship had still to go to the nearest enemy Homeworld, so a ship built at
    home (4 jumps from the next corner of the 5×5 grid) was a loss: a Cruiser's 3.0 of strength less 2.0 of credits
    and 1.6 of distance. Four-player games froze with one Dreadnought and four Fighters a seat and hundreds of credits
    unspent until the turn cap (seed 1, game 3). The distance now counts from the player's own Homeworld's: a ship at
    home adds nothing, each jump closer adds 0.4, and a Cruiser is worth building."""
    s = fresh(engine, players=4)
    s.credits[0] = 40
    s._legal, s._carry = None, None
    legal = s.legal_actions()
    cruiser = next(a for a in legal if isinstance(a, Build) and s.spec(a.card).name == "Cruiser")
    assert view.action_value(s, cruiser, 0) > view.action_value(s, DONE, 0)
    assert GreedyAgent(engine, 0, 1).choose(s, legal) != DONE
    ahead, home = s.clone(), s.clone()
    put(home, "core-cruiser", 0, home.home[0])
    put(ahead, "core-cruiser", 0, ahead.neighbours(ahead.home[0])[0])  # one jump closer to every enemy Homeworld
    assert view.position(home, 0) > view.position(s, 0)
    assert view.position(ahead, 0) == pytest.approx(view.position(home, 0) + 0.4)


def test_a_fleet_that_wins_a_homeworld_over_several_rounds_goes_in(engine):
    """A battle goes on every turn until one side is left, but greedy judged a jump into an enemy Homeworld by the
    one round fought in its own turn: a fleet that would lose a ship in it and destroy only Fighters stayed outside,
    and four-player games stalled at the turn cap with one seat's fleet beside the last enemy Homeworld for ten
    rounds (seed 2, game 5). Two Cruisers and two Corvettes (10 attack) against three Fighters and a Cruiser at a
    three-development Homeworld: the first round costs a Cruiser for the three Fighters, the next destroys their
    Cruiser, and the siege takes the Homeworld. Greedy now judges the battles at Homeworlds fought out
    (`view._sieges`) and goes in; a lone Corvette against the same defence is not thrown at it."""
    s = second_round(engine)
    home = s.home[1]
    own(s, 1, home, 3)
    for item in ("core-fighter", "core-fighter", "core-fighter", "core-cruiser"):
        put(s, item, 1, home)
    fleet = [put(s, item, 0, B2) for item in ("core-cruiser", "core-cruiser", "core-corvette", "core-corvette")]
    s.credits = [0, 0]
    lone = s.clone()
    legal = s.legal_actions()
    choice = GreedyAgent(engine, 0, 1).choose(s, legal)
    assert choice in [Move(x.card, home) for x in fleet]
    assert view.action_value(s, choice, 0) > view.action_value(s, DONE, 0)
    lone.pieces = [x for x in lone.pieces if x.card not in {x.card for x in fleet[:3]}]
    lone._changed()
    lone._legal, lone._carry = None, None
    assert view.action_value(lone, Move(fleet[3].card, home), 0) < view.action_value(lone, DONE, 0)


def test_the_searchs_value_foresees_the_next_players_blow_at_its_homeworld(engine, monkeypatch):
    """The search plans its own turn (`search_plan`) and never sees the next player's commands, so its value adds
    half of what the next player's strongest blow at a Homeworld would change (`view._blow`): two enemy Cruisers one
    jump from a one-development Homeworld with nothing at home take it, and the position is worth less for it; with a
    Dreadnought and three Fighters at home the blow would cost the attacker its fleet, so none is forecast."""
    s = second_round(engine)
    home = s.home[0]
    s.devs[home] = 1
    s.pieces = [x for x in s.pieces if x.owner != 0]
    s._changed()
    s._legal, s._carry = None, None
    for _ in range(2):
        put(s, "core-cruiser", 1, B2)
    trial = s.clone()
    view._hold_ready(trial, 0)
    trial.do(DONE, chance=False)
    view._end_turn(trial, 0)
    blow = view._blow(trial)
    assert blow is not None and blow.out[0] and blow.owner[home] == 1
    seen = view.turn_values(s)[0]
    monkeypatch.setattr(view, "BLOW_WEIGHT", 0.0)
    assert seen < view.turn_values(s)[0]
    monkeypatch.undo()
    for item in ("core-dreadnought", "core-fighter", "core-fighter", "core-fighter"):
        put(s, item, 0, home)
    trial = s.clone()
    view._hold_ready(trial, 0)
    trial.do(DONE, chance=False)
    view._end_turn(trial, 0)
    assert view._blow(trial) is None
