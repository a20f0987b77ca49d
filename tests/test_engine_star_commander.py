"""Star Commander by its rules: one test per rule on hand-built states, the effect vocabulary, then seeded playouts
with every invariant checked, a golden log, pickling and determinizations."""

from __future__ import annotations

import copy
import json

import pytest

from cardgen.data import load_games
from cardgen.engine.core import IllegalAction, fields
from cardgen.engine.flow import PASS
from cardgen.engine.games.star_commander import turn
from cardgen.engine.games.star_commander.model import (
    DONE,
    VOCABULARY,
    Assign,
    Build,
    Choose,
    Develop,
    Discard,
    Explore,
    Move,
    Phase,
    Piece,
    Play,
    Retreat,
    Scrap,
    TradeDraw,
    TradeSell,
)
from cardgen.engine.games.star_commander.rules import StarEngine
from cardgen.engine.games.star_commander.state import StarState
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
A1, B2, C3, A3, C1 = 0, 4, 8, 6, 2  # cells of the 3×3 grid of a two-player game


@pytest.fixture(scope="module")
def engine() -> StarEngine:
    (game,) = load_games(DATA, ["star-commander"])
    return StarEngine.from_game(game)


def fresh(engine: StarEngine, players: int = 2, seed: int = 3, first: int = 0) -> StarState:
    """A new game whose first turn is `first`'s (the seat chosen at random is swapped by reseeding)."""
    for s in (seed + k for k in range(200)):
        state = engine.new_state(players, s)
        if state.active == first:
            return state
    raise AssertionError("no seed gives that first player")


def take(state: StarState, item: str) -> int:
    """A card of the item taken from where it waits (a deck, a discard pile, the supply): every card stays counted."""
    for pile in [*state.decks, *state.discards, state.supply]:
        for card in pile:
            if state.spec(card).item == item:
                pile.remove(card)
                return card
    raise AssertionError(f"no {item} left")


def put(state: StarState, item: str, owner: int, cell: int, fresh_: bool = False) -> Piece:
    piece = Piece(take(state, item), owner, cell, 0, 0, fresh_, False, False, False, 0)
    state.pieces.append(piece)
    state._changed()
    state._legal, state._carry = None, None  # changed by hand: nothing listed is kept
    return piece


def hand(state: StarState, p: int, item: str) -> int:
    card = take(state, item)
    state.hands[p].append(card)
    state._legal, state._carry = None, None
    return card


def own(state: StarState, p: int, cell: int, devs: int = 1) -> None:
    state.revealed[cell] = True
    state.owner[cell], state.devs[cell] = p, devs
    state._legal, state._carry = None, None


def end_turn(state: StarState) -> None:
    """Finish the current player's turn: done, holding fire and passing wherever asked."""
    p = state.active
    while state.active == p and not state.is_terminal():
        legal = state.legal_actions()
        if DONE in legal:
            state.apply(DONE)
        elif PASS in legal:
            state.apply(PASS)
        else:
            state.apply(legal[0])


# -- set-up and the Ready phase ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 3), (3, 5), (4, 5)])
def test_setup_follows_the_facts(engine, players, size):
    s = engine.new_state(players, 1)
    assert s.size == size == engine.grid[players]
    corners = [0, size - 1, size * size - 1, size * (size - 1)]
    assert s.home == ([corners[0], corners[2]] if players == 2 else corners[:players])
    for p, cell in enumerate(s.home):
        assert engine.systems[s.grid[cell]].homeworld and s.revealed[cell]
        assert (s.owner[cell], s.devs[cell]) == (p, engine.start_developments)
        assert [s.spec(x.card).name for x in s.pieces if x.owner == p] == ["Scout"]
    assert s.credits == [engine.start_credits] * players == [3] * players
    assert sum(s.revealed) == players and s.invariant_violations() == []
    assert s.decision == ("command", s.active)  # the Ready phase is skipped on a player's first turn


def test_ready_phase_gains_system_credits_and_one_per_development_then_draws(engine):
    s = fresh(engine)
    end_turn(s)  # seat 0's first turn
    end_turn(s)  # seat 1's first turn
    home = engine.systems[s.grid[A1]]
    assert s.credits[0] == 3 + home.credits + engine.income * 1
    assert s.decision == ("domain", 0)  # a Homeworld counts as every domain: the player picks the deck
    s.apply(Choose(2))
    assert len(s.hands[0]) == 1 and s.spec(s.hands[0][0]).domain == 2


def test_a_system_under_siege_produces_nothing(engine):
    s = fresh(engine)
    put(s, "core-cruiser", 1, A1)
    [scout] = [x for x in s.pieces if x.owner == 0]
    s.pieces.remove(scout)
    s.supply.append(scout.card)
    s._changed()
    assert s.under_siege(A1)
    end_turn(s)
    s.devs[A1] = 3  # the siege did not take them all (seat 1's End phase), income would be 2 + 3
    s.owner[A1] = 0
    end_turn(s)
    if s.is_terminal():
        pytest.skip("the Homeworld fell")
    assert s.credits[0] == 3  # nothing from a besieged system


def test_the_hand_limit_asks_for_a_discard_before_a_draw(engine):
    s = fresh(engine)
    for item in ["ind-requisition", "ind-strip-mining", "ind-overcharge", "ind-salvage", "sta-veto", "sta-census",
                 "sci-survey", "sci-breakthrough"]:  # fmt: skip
        hand(s, 0, item)
    s.credits[0] = 10
    s.apply(TradeDraw(0))
    assert s.decision == ("discard", 0) and len(s.hands[0]) == engine.hand_limit == 8
    s.apply(Discard(s.hands[0][0]))
    assert len(s.hands[0]) == 8 and s.credits[0] == 10 - engine.draw_cost
    assert s.invariant_violations() == []


def test_trading_two_cards_for_three_credits_and_the_commodity_exchange(engine):
    s = fresh(engine)
    hand(s, 0, "sta-census")
    hand(s, 0, "sci-survey")
    s.apply(TradeSell())
    s.apply(Discard(s.hands[0][0]))
    s.apply(Discard(s.hands[0][0]))
    assert s.credits[0] == 3 + engine.sell["gain"] == 6 and s.hands[0] == []
    s.techs[0].append(take(s, "ind-commodity-exchange"))
    s._changed()
    hand(s, 0, "sta-census")
    hand(s, 0, "sci-survey")
    s.apply(TradeSell())
    s.apply(Discard(s.hands[0][0]))
    s.apply(Discard(s.hands[0][0]))
    assert s.credits[0] == 6 + 3 + 1


def test_developing_costs_one_then_the_developments_plus_one_up_to_the_printed_maximum(engine):
    s = fresh(engine)
    s.credits[0] = 50
    assert engine.development_cost(0) == 1 and engine.development_cost(1) == 2 and engine.development_cost(3) == 4
    s.apply(Develop(A1))
    assert (s.devs[A1], s.credits[0]) == (2, 48)
    s.revealed[B2] = True
    assert Develop(B2) not in s.legal_actions()  # no ship there
    put(s, "core-corvette", 0, B2)
    s._legal, s._carry = None, None
    s.apply(Develop(B2))
    assert (s.owner[B2], s.devs[B2], s.credits[0]) == (0, 1, 47)
    s.devs[A1] = engine.systems[s.grid[A1]].max_development
    s._legal, s._carry = None, None
    assert Develop(A1) not in s.legal_actions()


def test_scrap_pays_half_the_cost_rounded_down_at_least_one_not_the_turn_it_was_built(engine):
    assert [engine.scrap_value(c) for c in (1, 2, 3, 5, 8)] == [1, 1, 1, 2, 4]
    s = fresh(engine)
    cruiser = put(s, "core-cruiser", 0, A1)
    s.apply(Scrap(cruiser.card))
    assert s.credits[0] == 3 + 2 and s.piece(cruiser.card) is None
    s.credits[0] = 10
    s.apply(Build(s._supply_card("Corvette"), A1))
    built = s.pieces[-1]
    assert built.fresh and Scrap(built.card) not in s.legal_actions()


def test_no_scrapping_in_a_contested_system(engine):
    s = fresh(engine)
    cruiser = put(s, "core-cruiser", 0, A1)
    s.combat_at[A1] = s.clock + 1
    s._legal, s._carry = None, None
    assert s.contested(A1) and Scrap(cruiser.card) not in s.legal_actions()


def to_command(s: StarState, p: int) -> None:
    """Play through the Ready phase (the first choice of each domain or window) to p's Command phase."""
    while s.decision != ("command", p):
        s.apply(s.legal_actions()[0])


def test_a_system_attacked_since_its_owners_last_turn_is_contested_through_their_turn(engine):
    """Contested System — 'combat has occurred since their last turn': no building there; Scrap — 'only ... in
    uncontested systems'; Build Ships/Stations — the starting system still builds ships. Read as: since the end of
    the controller's previous turn (rules.yaml `contested`), so it lasts until the end of their next turn."""
    s = fresh(engine)
    own(s, 0, B2)
    s.credits = [30, 30]
    cruiser = put(s, "core-cruiser", 0, B2)  # attack 3: B2 is not under siege
    corvette = put(s, "core-corvette", 1, C3)
    end_turn(s)
    s.apply(Move(corvette.card, B2))  # seat 1 attacks B2 on its turn
    s.apply(DONE)
    s.apply(Assign(corvette.card, cruiser.card))
    s.apply(Assign(cruiser.card, -1))
    end_turn(s)
    to_command(s, 0)
    assert s.contested(B2) and not s.contested(A1)
    legal = s.legal_actions()
    assert Scrap(cruiser.card) not in legal
    assert Build(s._supply_card("Orbital Station"), B2) not in legal
    assert Build(s._supply_card("Orbital Station"), A1) in legal
    end_turn(s)  # seat 0's turn ends: the combat was before it
    assert not s.contested(B2)
    end_turn(s)  # seat 1 holds fire: no combat
    to_command(s, 0)
    assert not s.contested(B2) and Scrap(cruiser.card) in s.legal_actions()
    assert Build(s._supply_card("Orbital Station"), B2) in s.legal_actions()


# -- movement and exploring ---------------------------------------------------------------------------------------


def test_ships_jump_once_along_diagonals_only_and_fighters_not_at_all(engine):
    s = fresh(engine)
    scout = next(x for x in s.pieces if x.owner == 0)
    assert [m.cell for m in s.legal_actions() if isinstance(m, Move)] == [B2]
    s.apply(Move(scout.card, B2))
    assert not [m for m in s.legal_actions() if isinstance(m, Move) and m.card == scout.card]
    fighter = put(s, "core-fighter", 0, A1)
    assert not [m for m in s.legal_actions() if isinstance(m, Move) and m.card == fighter.card]
    runner = put(s, "sci-phase-runner", 0, A1)
    s.apply(Move(runner.card, B2))
    assert Move(runner.card, C3) in s.legal_actions()  # printed jump 2


def test_hyperlane_charts_add_the_side_neighbours(engine):
    s = fresh(engine)
    s.techs[0].append(take(s, "sci-hyperlane-charts"))
    s._changed()
    scout = next(x for x in s.pieces if x.owner == 0)
    assert sorted(m.cell for m in s.legal_actions() if isinstance(m, Move) and m.card == scout.card) == [1, 3, 4]


def test_a_ship_built_this_turn_does_not_move(engine):
    s = fresh(engine)
    s.apply(Build(s._supply_card("Corvette"), A1))
    corvette = s.pieces[-1]
    assert not [m for m in s.legal_actions() if isinstance(m, Move) and m.card == corvette.card]


def test_exploring_reveals_the_system_and_carries_out_its_effect(engine):
    s = fresh(engine)
    target = next(c for c, spec in enumerate(engine.systems) if spec.explore == "gain-credits")
    where = s.grid.index(target) if target in s.grid else None
    if where is None:
        s.grid[B2], s.aside[s.aside.index(target)] = target, s.grid[B2]
    else:
        s.grid[B2], s.grid[where] = s.grid[where], s.grid[B2]
    scout = next(x for x in s.pieces if x.owner == 0)
    s.apply(Move(scout.card, B2))
    assert Explore(B2) in s.legal_actions()
    s.apply(Explore(B2))
    assert s.revealed[B2] and s.credits[0] == 3 + engine.systems[target].amount
    assert s.invariant_violations() == []


# -- building -----------------------------------------------------------------------------------------------------


def test_ships_are_built_at_the_homeworld_or_capitals_stations_up_to_the_development_level(engine):
    s = fresh(engine)
    s.credits[0] = 30
    plain = next(c for c in range(9) if c not in (A1, C3) and not engine.systems[s.grid[c]].capital)
    own(s, 0, plain)
    corvette, station = s._supply_card("Corvette"), s._supply_card("Orbital Station")
    builds = s.legal_actions()
    assert Build(corvette, A1) in builds and Build(corvette, plain) not in builds
    assert Build(station, plain) in builds
    s.apply(Build(station, plain))
    assert Build(s._supply_card("Orbital Station"), plain) not in s.legal_actions()  # 1 development: 1 station


def test_fighters_are_limited_by_total_and_per_system_development(engine):
    s = fresh(engine)
    s.credits[0] = 30
    s.apply(Build(s._supply_card("Fighter"), A1))
    assert not [b for b in s.legal_actions() if isinstance(b, Build) and s.spec(b.card).fighter]
    s.devs[A1] = 2
    s._legal, s._carry = None, None
    assert [b for b in s.legal_actions() if isinstance(b, Build) and s.spec(b.card).fighter]


def test_a_homeworld_builds_ships_even_when_contested_but_not_stations(engine):
    s = fresh(engine)
    s.credits[0] = 30
    s.combat_at[A1] = s.clock + 1
    s._legal, s._carry = None, None
    builds = s.legal_actions()
    assert Build(s._supply_card("Corvette"), A1) in builds
    assert Build(s._supply_card("Orbital Station"), A1) not in builds


# -- combat, siege and conquest -----------------------------------------------------------------------------------


def to_combat(s: StarState) -> None:
    s.apply(DONE)
    while s.decision and s.decision[0] not in ("assign", "respond"):
        s.apply(DONE if DONE in s.legal_actions() else s.legal_actions()[0])


def test_a_piece_is_destroyed_only_when_damage_exceeds_its_hit_points_and_damage_clears(engine):
    s = fresh(engine)
    cruiser = put(s, "core-cruiser", 0, B2)  # attack 3
    corvette = put(s, "core-corvette", 1, B2)  # 2 hp: 3 damage destroys it
    station = put(s, "core-station", 1, B2)  # 5 hp
    to_combat(s)
    assert s.decision == ("assign", 0, cruiser.card)
    s.apply(Assign(cruiser.card, station.card))
    s.apply(Assign(corvette.card, cruiser.card))
    s.apply(Assign(station.card, cruiser.card))
    assert s.piece(station.card) is not None and s.piece(cruiser.card) is not None  # 3 ≤ 5 and 4 ≤ 4: both stand
    while s.active == 0:
        s.apply(s.legal_actions()[0])
    assert s.piece(cruiser.card).damage == 0 and s.piece(station.card).damage == 0  # cleared in Cleanup
    s2 = fresh(engine)
    cruiser = put(s2, "core-cruiser", 0, B2)
    corvette = put(s2, "core-corvette", 1, B2)
    to_combat(s2)
    s2.apply(Assign(cruiser.card, corvette.card))
    s2.apply(Assign(corvette.card, -1))
    assert s2.piece(corvette.card) is None and corvette.card in s2.supply  # 3 > 2
    assert s2.contested(B2) is False  # uncontrolled systems are never contested


def test_siege_takes_a_development_per_non_fighter_ship_and_conquers_then_the_last_homeworld_wins(engine):
    s = fresh(engine)
    scout = next(x for x in s.pieces if x.owner == 1)
    s.pieces.remove(scout)
    s.supply.append(scout.card)
    put(s, "core-corvette", 0, C3)
    put(s, "core-corvette", 0, C3)
    put(s, "core-fighter", 0, C3)
    s.devs[C3] = 3
    s._changed()
    assert s.under_siege(C3)
    end_turn(s)
    assert (s.owner[C3], s.devs[C3]) == (1, 1)  # two Corvettes took two developments; the Fighter none
    end_turn(s)
    end_turn(s)
    assert (s.owner[C3], s.devs[C3]) == (0, engine.conquest_developments)
    assert s.is_terminal() and s.returns() == [1.0, 0.0] and "Homeworld" in s.out[1]
    assert s.invariant_violations() == []


def test_an_armed_defender_or_a_scout_decides_the_siege(engine):
    s = fresh(engine)
    put(s, "core-corvette", 0, C3)
    assert s.under_siege(C3)  # seat 1's Scout has attack 0 (rules.yaml: 0 attack does not stop a siege)
    put(s, "core-fighter", 1, C3)
    assert not s.under_siege(C3)
    s2 = fresh(engine)
    put(s2, "core-fighter", 0, C3)
    assert not s2.under_siege(C3)  # Fighters never besiege


# -- cards and responses ------------------------------------------------------------------------------------------


def test_a_command_is_paid_resolved_and_discarded(engine):
    s = fresh(engine)
    s.devs[A1] = 2
    card = hand(s, 0, "ind-requisition")
    s.apply(Play(card))
    assert s.credits[0] == 3 + 1 and card in s.discards[0] and "ind-requisition" in s.applied


def test_responses_resolve_last_in_first_out_a_veto_cancels_and_a_veto_on_it_restores(engine):
    s = fresh(engine)
    strip = hand(s, 0, "ind-strip-mining")
    s.devs[A1] = 2
    veto1 = hand(s, 1, "sta-veto")
    veto0 = hand(s, 0, "sta-veto")
    s.credits = [10, 10]
    s.apply(Play(strip, A1))
    assert s.decision[:2] == ("respond", 1)
    s.apply(Play(veto1, strip))
    assert s.decision[:2] == ("respond", 0)
    s.apply(Play(veto0, veto1))
    s.apply(PASS) if s.decision and s.decision[0] == "respond" else None
    assert s.devs[A1] == 1 and s.credits[0] == 10 - 0 - 2 + 4  # strip mining took effect
    assert {strip, veto1, veto0} <= set(s.discards[0] + s.discards[1])
    s2 = fresh(engine)
    strip = hand(s2, 0, "ind-strip-mining")
    s2.devs[A1] = 2
    veto = hand(s2, 1, "sta-veto")
    s2.credits = [10, 10]
    s2.apply(Play(strip, A1))
    s2.apply(Play(veto, strip))
    assert s2.devs[A1] == 2 and s2.credits[0] == 10 and strip in s2.discards[0]  # cancelled, discarded
    assert s2.invariant_violations() == []


def test_damage_control_prevents_assigned_damage(engine):
    s = fresh(engine)
    cruiser = put(s, "core-cruiser", 0, B2)
    corvette = put(s, "core-corvette", 1, B2)
    dc = hand(s, 1, "ind-damage-control")
    s.credits[1] = 5
    to_combat(s)
    s.apply(Assign(cruiser.card, corvette.card))
    s.apply(Assign(corvette.card, -1))
    assert s.decision[:2] == ("respond", 1) and Play(dc, corvette.card) in s.legal_actions()
    s.apply(Play(dc, corvette.card))
    while s.decision and s.decision[0] == "respond":
        s.apply(PASS)
    assert s.piece(corvette.card) is not None  # 3 − 2 = 1 damage ≤ 2 hit points


def test_technologies_change_stats_costs_and_limits(engine):
    s = fresh(engine)
    corvette = put(s, "core-corvette", 0, A1)
    station = put(s, "core-station", 0, A1)
    base = (s.attack(corvette), s.hp(corvette), s.hp(station), s.build_cost(0, s._supply_card("Scout")))
    for item in ("sci-reinforced-hulls", "ind-armoured-docks", "ind-modular-hulls", "sta-civil-service"):
        s.techs[0].append(take(s, item))
    s._changed()
    assert (s.hp(corvette), s.hp(station)) == (base[1] + 1, base[2] + 2)
    assert s.build_cost(0, s._supply_card("Scout")) == base[3] - 1 and s.hand_limit(0) == engine.hand_limit + 1


def test_playing_a_technology_puts_it_in_the_row(engine):
    s = fresh(engine)
    s.credits[0] = 10
    card = hand(s, 0, "sci-theory-lab")
    s.apply(Play(card))
    if s.decision and s.decision[0] == "respond":
        s.apply(PASS)
    assert s.techs[0] == [card] and s.draw_cost(0) == engine.draw_cost - 1


def test_an_illegal_action_is_rejected_with_the_reason(engine):
    s = fresh(engine)
    with pytest.raises(IllegalAction, match="not legal"):
        s.apply(Move(999, 3))


# -- the effect vocabulary ----------------------------------------------------------------------------------------


def test_every_card_with_text_has_effects_the_engine_executes(engine):
    assert engine.data_problems() == []
    with_text = {c.item for c in engine.cards if c.text}
    assert with_text == {c.item for c in engine.cards if c.effects}


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("summon 2", "unknown verb 'summon'"),
        ("gain-credits two", "whole number"),
        ("draw 1 colour=red", "takes no 'colour'"),
        ("pin", "needs a target"),
        ("later: draw 1", "unknown trigger"),
        ("pin target=moon", "unknown target"),
        ("gain-credits 1 per=developed-system at-least=2 max=lots", "'max' takes a whole number from 0 to 999"),
        ("cost -1 class=Small min=" + "9" * 5000, "'min' takes a whole number from 0 to 999, not '99999"),
        ("draw " + "9" * 5000, "'draw' takes a whole number up to 999, not '9999.*5,000 characters"),
        ("draw ²", "'draw' takes a whole number up to 999"),
        ("draw 1 if-techs=1 if-techs=2", "'draw' gives 'if-techs' twice"),
        ("hp 1 class=Small,Huge", "'class' takes ship classes of Fighter, Small, Medium, Large"),
        ("draw 1 2", "'draw' takes no '2'"),
    ],
)
def test_statements_outside_the_vocabulary_are_refused(statement, message):
    with pytest.raises(ValueError, match=message):
        VOCABULARY.parse(statement)
    assert VOCABULARY.parse("ready: gain-credits 1 if-systems=3").trigger == "ready"
    assert VOCABULARY.parse("cost -1 class=Small min=1").amount == -1


def test_play_reports_a_card_whose_ability_it_cannot_execute(tmp_path):
    copy = copy_game("star-commander", tmp_path)
    copy.edit("science.yaml", 'effects: ["shield 1"]', 'effects: ["shield-wall 1"]')
    run = run_cli("--data-dir", copy.data, "play", "star-commander", "--games", "2", "--json")
    assert run.code == 0, run.err
    problems = json.loads(run.out)["data_problems"]
    assert any("sci-adaptive-shielding" in p and "shield-wall" in p and "unknown verb" in p for p in problems)


# -- playouts, logs and copies ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def short_game(tmp_path_factory) -> str:
    """The bundled game with a 4-round cap, so hundreds of random games with every check fit in a test (the full game
    is checked thousands of times by benchmarks/engine_invariants.py)."""
    copy = copy_game("star-commander", tmp_path_factory.mktemp("short"))
    copy.edit("rules.yaml", "  turn_cap:\n    value: 40", "  turn_cap:\n    value: 4")
    return str(copy.data)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_hundred_seeded_games_keep_every_invariant(short_game, players):
    spec = PlaySpec("star-commander", short_game, players, 23, ("random",), check=True)
    summary = summarise(spec, play_many(spec, 200), 1.0)
    assert summary["games"] == 200 and summary["invariant_violations"] == 0, summary["violation_examples"]


def test_greedy_beats_random_and_games_end_by_the_rules():
    spec = PlaySpec("star-commander", str(DATA), 2, 4, ("greedy", "random"), check=True)
    summary = summarise(spec, play_many(spec, 6), 1.0)
    assert summary["invariant_violations"] == 0
    assert summary["wins"].get("agent greedy", 0) >= 5, summary["wins"]
    assert summary["endings"].get("last Homeworld standing", 0) >= 5, summary["endings"]


GOLDEN = FIXTURES / "golden" / "star-commander.jsonl"


def test_golden_log_replays_exactly(tmp_path):
    """Seed 2026's first 3-player game; regenerate with CARDGEN_UPDATE_GOLDEN=1 after a deliberate change."""
    spec = PlaySpec("star-commander", str(DATA), 3, 2026, ("greedy", "random", "random"), log=True)
    check_golden_log(spec, GOLDEN, tmp_path)


def snapshot(s: StarState) -> dict[str, object]:
    """Everything a state holds (the abilities applied, the tasks, the generator…) but the engine, its caches and the
    token of the pieces it may change in place (a clone gives the original a new one: `StarState.clone`)."""
    skipped = ("engine", "rng", "_legal", "_lasting", "_carry", "token")
    kept = {k: copy.deepcopy(v) for k, v in fields(s).items() if k not in skipped}  # compiled or not
    return {**kept, "rng": (s.rng.key, s.rng.counter)}


def kept(s: StarState) -> bool:
    """Whether the next command listing starts from the parts the last one kept (`listing.Carry`)."""
    carry = s._carry
    return carry is not None and s.decision is not None and carry.player == s.decision[1] and carry.valid(s)


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 6), (4, 7)])
def test_a_command_listing_kept_past_an_action_is_the_listing_made_afresh(engine, players, seed):
    """Engine contract (cardgen/engine/core.py) — the legal actions are a function of the state. A command listing
    keeps, for the same player's next one, what the action between left alone (`listing.Carry`: each piece's jumps,
    each system's build counts, the supply's cheapest pieces, costs, developments, trades). At every command decision
    of seeded random games where it does, the list must be, action for action and in order, that of a copy listed
    from nothing; and it must have been kept past each kind of action it is kept past."""
    s, rng = engine.new_state(players, seed), CounterRng(4000 + seed)
    checked, past, last = 0, set(), None
    for _ in range(6000):
        if s.is_terminal():
            break
        carried = s.decision is not None and s.decision[0] == "command" and kept(s)
        legal = s.legal_actions()
        if carried:
            assert legal == listed_afresh(s), (s.turns, last)
            checked += 1
            past.add(type(last).__name__)
        last = legal[rng.randbelow(len(legal))]
        s.do(last)
    assert checked > 300 and {"Build", "Scrap", "Move", "Develop", "Play"} <= past, (checked, past)
    assert past & {"TradeDraw", "Choose", "Discard"}, past


def test_a_kept_listing_counts_the_fighters_and_stations_built_and_forgets_a_ship_a_picket_destroyed(engine):
    """Build Ships/Stations — a system holds at most as many stations as its developments, and a Fighter needs a free
    Fighter slot there (its developments); a ship that jumps into a system takes a Picket Platform's damage. The
    listing kept past each build counts the piece just built (`listing.after`): no third Fighter nor third station
    in a Homeworld with two developments, while the player's Fighter limit (four developments) has room. A Scout a
    picket destroys as it jumps is a piece gone that the listing did not expect: nothing is kept."""
    s = fresh(engine)
    s.credits[0] = 40
    own(s, 0, A1, devs=2)
    own(s, 0, C1, devs=2)  # no shipyard: room under the Fighter limit, none to build one
    for item in ("Fighter", "Fighter", "Orbital Station", "Orbital Station"):
        build = next(a for a in s.legal_actions() if isinstance(a, Build) and s.spec(a.card).name == item)
        assert build.cell == A1
        s.apply(build)
        assert kept(s), item
    legal = s.legal_actions()
    home = {s.spec(a.card).name for a in legal if isinstance(a, Build) and a.cell == A1}
    assert "Fighter" not in home and "Orbital Station" not in home and "Corvette" in home, home
    assert {(s.spec(a.card).name, a.cell) for a in legal if isinstance(a, Build) and a.cell != A1} == {
        ("Orbital Station", C1)
    }
    assert legal == listed_afresh(s)
    scout = next(x for x in s.pieces if x.owner == 0 and s.spec(x.card).name == "Scout")
    put(s, "sta-picket", 1, B2)
    put(s, "sta-picket", 1, B2)  # two damage on a Scout with one hit point
    s.legal_actions()
    assert kept(s)
    s.apply(Move(scout.card, B2))
    assert s.piece(scout.card) is None and s._carry is None
    assert s.legal_actions() == listed_afresh(s)


def test_a_listing_kept_past_a_development_reads_who_controls_the_system_now(engine):
    """Develop — a first development on an explored system with one of the player's ships takes control of it;
    Carrier Doctrine — a Fighter may jump into a system its player controls; a system attacked since its controller's
    last turn ended is contested, and nothing there is scrapped. Kept past a development, the listing offers the
    Fighter's jump into the system just taken, and no scrap of the ship in it if a battle was fought there."""
    s = fresh(engine)
    s.credits[0] = 20
    s.techs[0].append(take(s, "sta-carrier-doctrine"))
    fighter = put(s, "core-fighter", 0, A1)
    cruiser = put(s, "core-cruiser", 0, B2)
    s.revealed[B2], s.combat_at[B2] = True, s.clock  # a battle there on another player's turn
    legal = s.legal_actions()
    assert Move(fighter.card, B2) not in legal and Scrap(cruiser.card) in legal
    s.apply(Develop(B2))
    assert kept(s) and s.owner[B2] == 0 and s.contested(B2)
    legal = s.legal_actions()
    assert Move(fighter.card, B2) in legal and Scrap(cruiser.card) not in legal
    assert legal == listed_afresh(s)


def test_a_listing_kept_past_a_spare_jump_takes_the_spare_jump_from_every_other_ship(engine):
    """Jump Capacitors — 'Once per turn, one ship you control (not a Fighter) may jump one extra time.' Two Corvettes
    that have jumped once may each jump again; once one has taken the spare jump the other may not. The listing is
    kept past that jump (`listing.Carry.valid`: the ships' jumps are listed again, the rest is kept)."""
    s = fresh(engine)
    s.techs[0].append(take(s, "sci-jump-capacitors"))
    first, second = put(s, "core-corvette", 0, A1), put(s, "core-corvette", 0, A1)
    s.apply(Move(first.card, B2))
    s.apply(Move(second.card, B2))
    legal = s.legal_actions()
    assert Move(first.card, C1) in legal and Move(second.card, C1) in legal
    s.apply(Move(first.card, C1))  # the spare jump
    assert kept(s)
    legal = s.legal_actions()
    assert not any(isinstance(a, Move) and a.card in (first.card, second.card) for a in legal)
    assert legal == listed_afresh(s)


def test_a_listing_kept_past_a_command_offers_what_the_credits_it_gave_now_buy(engine):
    """Emergency Requisition — 'Gain 1 credit for each system you control that has 2 or more developments'. Played
    with 2 credits and one such system, it buys the Corvette (3) the listing before could not; the listing is kept
    past the play (a command that changes only credits, hands, decks or peeks: `StarEngine.plain_plays`)."""
    s = fresh(engine)
    for card in s.hands[1]:  # no response in the other player's hand: the play resolves at once
        s.return_card(card)
    s.hands[1] = []
    own(s, 0, C1, devs=2)
    s.credits[0] = 2
    requisition = hand(s, 0, "ind-requisition")
    corvettes = {a for a in s.legal_actions() if isinstance(a, Build) and s.spec(a.card).name == "Corvette"}
    assert not corvettes
    s.apply(Play(requisition, -1))
    assert kept(s) and s.credits[0] == 3
    legal = s.legal_actions()
    assert any(isinstance(a, Build) and s.spec(a.card).name == "Corvette" for a in legal)
    assert legal == listed_afresh(s)


def test_listing_the_legal_actions_marks_no_ability_as_applied(engine):
    """Engine contract (cardgen/engine/core.py) — the legal actions are a query. Siege — a system is under siege only
    when its controller has nothing 'with attack values': asking whether B2 is besieged reads the station's attack,
    raised by Fortified Orbits, which is applied when a siege is decided in play (income), never by the listing."""
    s = fresh(engine)
    s.credits = [30, 30]
    own(s, 0, B2)
    s.techs[0].append(take(s, "sta-fortified-orbits"))
    put(s, "core-station", 0, B2)
    put(s, "core-corvette", 1, B2)
    before = snapshot(s)
    assert s.legal_actions() and snapshot(s) == before
    assert "sta-fortified-orbits" not in s.applied
    turn.income(s, 0)  # played: B2 pays because its armed station keeps the siege off
    assert "sta-fortified-orbits" in s.applied


@pytest.mark.parametrize(("players", "seed"), [(2, 78), (3, 7), (4, 11)])
def test_listing_the_legal_actions_changes_nothing_in_seeded_random_play(engine, players, seed):
    """Engine contract — listing the legal actions of any state leaves it as it was. Seed 78 with 2 players reaches
    one of the rare states (3 in 44,413 random ones) where the list marked an ability as applied: at its 318th
    decision a combat window's list read Fortified Orbits' +1 attack while asking what a command could target."""
    s, rng = engine.new_state(players, seed), CounterRng(1000 + seed)
    for _ in range(400):
        if s.is_terminal():
            break
        before = snapshot(s)
        legal = s.legal_actions()
        assert snapshot(s) == before, (s.turns, s.decision)
        s.do(legal[rng.randbelow(len(legal))])


@pytest.mark.parametrize(("players", "seed"), [(2, 78), (4, 11)])
def test_the_lasting_effects_remembered_are_those_gathered_afresh(engine, players, seed):
    """Technologies and stations (rulebook: Technology cards stay in play; a station's ability lasts while it
    stands) are gathered per player and remembered until one of that player's technologies or pieces with a lasting
    effect comes or goes (`StarState._changed`). At every decision of seeded random games, each player's remembered
    effects must be what gathering them afresh gives, and come from the pieces the state holds now (a piece copied
    into its place before it changes, `StarState.own`, is gathered again)."""
    s, rng = engine.new_state(players, seed), CounterRng(2000 + seed)
    verbs = sorted({verb for table in engine.lasting_verbs for verb, _ in table})
    compared = 0
    for _ in range(600):
        if s.is_terminal():
            break
        remembered = {(p, v): list(s.lasting(p, v)) for p in range(players) for v in verbs}
        fresh = s.clone()  # a clone gathers them again
        afresh = {(p, v): [(id(e), None if src is None else src.card) for e, src in fresh.lasting(p, v)]
                  for p in range(players) for v in verbs}  # fmt: skip
        assert afresh == {key: [(id(e), None if src is None else src.card) for e, src in found]
                          for key, found in remembered.items()}, (s.turns, s.decision)  # fmt: skip
        assert all(src is None or src is s.piece(src.card) for found in remembered.values() for _, src in found)
        compared += sum(1 for found in remembered.values() if found)
        legal = s.legal_actions()
        s.do(legal[rng.randbelow(len(legal))])
    assert compared > 100  # the games did bring lasting effects into play


def test_states_pickle_and_clones_are_independent(engine):
    check_pickle_and_clone(engine, 3, 5, 200, 100)


def test_clones_share_pieces_until_one_changes_them(engine):
    """Clones share pieces (`StarState.clone`): a piece is copied into its place before it jumps, retreats, is
    damaged, boosted, pinned or cloaked, or its turn's marks are cleared (`StarState.own`). From every 200th
    decision of seeded games at two and four players, a clone played to the end leaves the original's pieces and
    observation as they were; the clones did change pieces."""

    def pieces(state) -> list[tuple[object, ...]]:
        return [(x.card, x.owner, x.cell, x.damage, x.jumps, x.fresh, x.moved, x.pinned, x.cloaked, x.boost)
                for x in state.pieces]  # fmt: skip

    check_clone_playouts(engine, ((2, 3), (4, 5)), 200, lambda state: (pieces(state), state.observation(0)),
                         lambda clone, state: pieces(clone) != pieces(state))  # fmt: skip


def test_determinizations_keep_what_a_player_sees_and_redeal_the_rest(engine):
    rng = CounterRng(9)
    s = engine.new_state(2, 2)
    changed = 0
    for _ in range(300):
        if s.is_terminal():
            break
        for player in range(2):
            seen = s.observation(player)
            deal = s.determinize(player, rng)
            assert deal.observation(player) == seen and deal.invariant_violations() == []
            changed += deal.hands != s.hands or deal.grid != s.grid
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    assert changed > 0  # hidden cards and systems are redealt


def test_the_engine_reads_its_numbers_from_rules_yaml(tmp_path):
    copy = copy_game("star-commander", tmp_path)
    copy.edit("rules.yaml", "  hand_limit:\n    value: 8", "  hand_limit:\n    value: 5")
    copy.edit("rules.yaml", "  starting_credits:\n    value: 3", "  starting_credits:\n    value: 7")
    (game,) = load_games(copy.data, ["star-commander"])
    e = StarEngine.from_game(game)
    s = e.new_state(2, 1)
    assert e.hand_limit == 5 and s.credits == [7, 7] and s.phase == Phase.COMMAND


def test_a_siege_hammer_takes_two_developments(engine):
    s = fresh(engine)
    put(s, "ind-siege-hammer", 0, C3)
    s.devs[C3] = 3
    scout = next(x for x in s.pieces if x.owner == 1)
    s.pieces.remove(scout)
    s.supply.append(scout.card)
    s._changed()
    assert s.invariant_violations() == [] and s.under_siege(C3)
    end_turn(s)
    assert s.devs[C3] == 1 and "ind-siege-hammer" in s.applied


def test_the_total_fighter_limit_holds_even_where_a_fighter_bay_adds_room(engine):
    s = fresh(engine)
    s.credits[0] = 30
    put(s, "sta-fighter-bay", 0, A1)
    assert s.fighter_slots(0, A1) == 2 and s.developments(0) == 1
    s.apply(Build(s._supply_card("Fighter"), A1))
    assert not [b for b in s.legal_actions() if isinstance(b, Build) and s.spec(b.card).fighter]


def test_cleanup_discards_down_to_the_hand_limit(engine):
    s = fresh(engine)
    for item in ["ind-requisition", "ind-strip-mining", "ind-overcharge", "ind-salvage", "sta-veto", "sta-census",
                 "sci-survey", "sci-breakthrough", "sci-slipstream"]:  # fmt: skip
        hand(s, 0, item)  # nine: more than any draw allows (as if a Civil Service had been lost)
    s.apply(DONE)
    while s.decision and s.decision[1] == 0 and s.decision[0] != "discard":
        s.apply(s.legal_actions()[0])
    assert s.decision == ("discard", 0)
    s.apply(s.legal_actions()[0])
    assert len(s.hands[0]) == engine.hand_limit and s.active == 1


def test_an_abandoned_fighter_is_destroyed_at_the_end_of_its_owners_turn(engine):
    s = fresh(engine)
    fighter = put(s, "core-fighter", 1, B2)  # seat 1's Fighter alone in a system seat 1 does not control
    kept = put(s, "core-fighter", 1, C3)  # one at home is not abandoned
    own(s, 0, B2)
    end_turn(s)
    assert s.active == 1 and fighter.card in s.abandoned
    end_turn(s)  # seat 1's turn: abandoned at its start and still at its end
    assert s.piece(fighter.card) is None and fighter.card in s.supply and s.piece(kept.card) is not None


def test_ships_that_have_not_moved_retreat_to_an_adjacent_system_their_player_controls(engine):
    s = fresh(engine)
    cruiser = put(s, "core-cruiser", 0, B2)
    moved = put(s, "core-cruiser", 0, B2)
    moved.moved = True
    corvette = put(s, "core-corvette", 1, B2)
    to_combat(s)
    for attacker in (cruiser, moved, corvette):
        s.apply(Assign(attacker.card, -1))
    while s.decision and s.decision[0] == "respond":
        s.apply(PASS)
    assert s.decision == ("retreat", 0, B2)
    assert s.legal_actions() == [DONE, Retreat(cruiser.card, A1)]  # A1 is seat 0's; the moved Cruiser stays
    s.apply(Retreat(cruiser.card, A1))
    assert s.piece(cruiser.card).cell == A1 and s.decision == ("retreat", 1, B2)
    assert s.legal_actions() == [DONE, Retreat(corvette.card, C3)]


def test_a_ship_that_jumped_on_its_owners_previous_turn_may_retreat_on_the_attackers_turn(engine):
    """Retreat — 'any ships that have not moved this turn may now move into another system that player controls':
    this turn is the active player's; a defender's jump on its own turn before does not count."""
    s = fresh(engine)
    cruiser = put(s, "core-cruiser", 0, A1)
    corvette = put(s, "core-corvette", 1, C3)
    end_turn(s)
    s.apply(Move(corvette.card, B2))  # seat 1 jumps on its own turn
    end_turn(s)
    to_command(s, 0)
    s.apply(Move(cruiser.card, B2))  # seat 0 attacks on the next turn
    s.apply(DONE)
    s.apply(Assign(cruiser.card, -1))
    s.apply(Assign(corvette.card, -1))
    while s.decision and s.decision[0] == "respond":
        s.apply(PASS)
    assert s.decision == ("retreat", 1, B2)  # the attacker's Cruiser jumped this turn: only the defender is asked
    assert s.legal_actions() == [DONE, Retreat(corvette.card, C3)]
    s.apply(Retreat(corvette.card, C3))
    assert s.piece(corvette.card).cell == C3


def play_through(s: StarState, card: int, target: int = -1) -> None:
    """Play a card and let every other player pass."""
    s.apply(Play(card, target))
    while s.decision and s.decision[0] == "respond":
        s.apply(PASS)


def test_command_cards_do_what_their_effects_say(engine):
    s = fresh(engine)
    s.credits = [30, 30]
    cruiser = put(s, "core-cruiser", 0, A1)
    delay = hand(s, 1, "sta-delay")
    s.apply(Play(hand(s, 0, "sta-embargo"), 1))
    assert s.decision[:2] == ("respond", 1) and Play(delay, cruiser.card) in s.legal_actions()
    s.apply(Play(delay, cruiser.card))  # a response: seat 1 pins seat 0's Cruiser
    while s.decision and s.decision[0] == "respond":
        s.apply(PASS)
    assert (
        s.piece(cruiser.card).pinned  # the state's piece now (a piece is copied into its place before it changes)
        and s.embargo[1]
        and not [m for m in s.legal_actions() if getattr(m, "card", -1) == cruiser.card and isinstance(m, Move)]
    )
    play_through(s, hand(s, 0, "sci-slipstream"))
    assert s.temp.extra_jumps == 1
    scout = next(x for x in s.pieces if x.owner == 0 and s.spec(x.card).name == "Scout")
    s.apply(Move(scout.card, B2))
    assert Move(scout.card, C3) in s.legal_actions()  # a second jump this turn
    play_through(s, hand(s, 0, "ind-bulk-contract"))
    before = s.credits[0]
    s.apply(Build(s._supply_card("Cruiser"), A1))
    assert s.credits[0] == before - (5 - 2)
    hand(s, 0, "sci-survey")
    play_through(s, s.hands[0][-1])
    assert len(s.peeked[0]) == 2 and all(not s.revealed[c] for c in s.peeked[0])
    cards = len(s.hands[0])
    play_through(s, hand(s, 0, "sci-research-grant"))
    while s.decision and s.decision[0] in ("domain", "discard"):
        s.apply(s.legal_actions()[0])
    assert len(s.hands[0]) == cards + 2 - 1
    assert s.invariant_violations() == []


def test_census_orders_the_top_of_a_deck_and_the_player_remembers_it(engine):
    s = fresh(engine)
    census = hand(s, 0, "sta-census")
    s.started[0] = True
    end_turn(s)
    end_turn(s)  # seat 0's second turn: the Ready phase and its start-of-turn window
    while s.decision and s.decision[0] == "domain":
        s.apply(Choose(0))
    assert s.decision == ("start", 0) and Play(census, 1) in s.legal_actions()
    play_through(s, census, 1)
    top = s.known[0][1]
    assert len(top) == 3 and top == tuple(reversed(s.decks[1][-3:]))
    assert s.determinize(0, CounterRng(3)).decks[1][-3:] == s.decks[1][-3:]  # known cards stay where they are


def test_combat_commands_and_ceasefire(engine):
    s = fresh(engine)
    s.credits = [30, 30]
    cruiser = put(s, "core-cruiser", 0, B2)
    corvette = put(s, "core-corvette", 1, B2)
    ceasefire = hand(s, 1, "sta-ceasefire")
    overcharge = hand(s, 0, "ind-overcharge")
    s.apply(DONE)
    assert s.decision == ("combat", 0, B2) and Play(overcharge, cruiser.card) in s.legal_actions()
    play_through(s, overcharge, cruiser.card)
    assert s.attack(s.piece(cruiser.card)) == 3 + 2  # the state's piece now, not the one `put` made
    assert s.decision == ("combat", 1, B2)
    play_through(s, ceasefire, B2)
    while s.decision and s.decision[0] == "combat":
        s.apply(DONE)
    assert s.decision is None or s.decision[0] != "assign"  # no damage is dealt where a ceasefire holds
    assert s.piece(corvette.card) is not None


def test_an_emergency_jump_never_crowds_a_fighter_into_a_full_system(engine):
    """Found by 1,000 checked games: a Fighter jumped by Emergency Jump into its own system already holding as many
    Fighters as developments."""
    s = fresh(engine)
    s.credits = [20, 20]
    own(s, 0, B2)
    put(s, "core-fighter", 0, B2)
    jumper = put(s, "core-fighter", 0, A1)
    jump = hand(s, 0, "sci-emergency-jump")
    requisition = hand(s, 1, "ind-requisition")
    s.apply(DONE)  # no battle, End phase: seat 1's turn
    while s.active == 0:
        s.apply(s.legal_actions()[0])
    s.apply(Play(requisition))
    assert s.decision[:2] == ("respond", 0)
    s.apply(Play(jump, jumper.card))  # B2, the only system next to A1, already holds its one Fighter
    while s.decision and s.decision[0] == "respond":
        s.apply(PASS)
    assert s.fighters(0, B2) <= s.fighter_slots(0, B2) and s.invariant_violations() == []
