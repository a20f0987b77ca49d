"""Battlefield: Space by its rules: one test per rule on hand-built battles, then seeded playouts and a golden log.

Seat 0 plays the red deck (the Crimson Pact), seat 1 the blue deck (the Azure Concord). A hand-built battle stacks
each draw deck so the cards come off in a known order: `arrange(red=[...], blue=[...])` puts the named cards on top,
first named first drawn; every other card waits in the Graveyard so it cannot interfere.
"""

from __future__ import annotations

import json

import pytest

from cardgen.data import load_games
from cardgen.engine.core import derive_seed
from cardgen.engine.games.battlefield_space.rules import BattlefieldEngine
from cardgen.engine.games.battlefield_space.state import BattlefieldState
from cardgen.engine.runner import PlaySpec, play_many, summarise

from conftest import FIXTURES, REPO, check_golden_log

RED, BLUE = 0, 1
DATA = REPO / "card_data"


@pytest.fixture(scope="module")
def engine() -> BattlefieldEngine:
    (game,) = load_games(DATA, ["battlefield-space"])
    return BattlefieldEngine.from_game(game)


def card(engine: BattlefieldEngine, item: str, taken: set[int]) -> int:
    index = next(i for i, name in enumerate(engine.cards.item) if name == item and i not in taken)
    taken.add(index)
    return index


def arrange(engine: BattlefieldEngine, red: list[str], blue: list[str], survivors=((), ())) -> BattlefieldState:
    """A fresh battle with the named cards on top of each deck (and, optionally, in each Survivors pile)."""
    state = BattlefieldState.deal(engine, seed=1)
    for p, top in ((RED, red), (BLUE, blue)):
        taken: set[int] = set()
        ordered = [card(engine, name, taken) for name in top]
        kept = [card(engine, name, taken) for name in survivors[p]]
        state.deck[p] = list(reversed(ordered))
        state.survivors[p] = kept
        state.graveyard[p] = [i for i in engine.owned[p] if i not in taken]
        state.hand[p], state.mods[p] = [], []
        state.columns[p] = [[], [], []]
        state.facedown[p] = [-1, -1, -1]
    state.bonus, state.tie_wins, state.immediate = [[0] * 3, [0] * 3], [[0] * 3, [0] * 3], []
    state.tasks, state.decision, state.ending, state.winner = [("battle",)], None, None, None
    state.run()
    return state


def add_to_column(engine: BattlefieldEngine, state: BattlefieldState, column: int, item: str) -> None:
    """Lay one more red card face up in a column (a copy not already in red's columns or hand)."""
    taken = {c for col in state.columns[RED] for c in col} | set(state.hand[RED])
    index = card(engine, item, taken)
    state.graveyard[RED].remove(index)  # it waited in the Graveyard, so every card stays accounted for
    state.columns[RED][column].append(index)


def names(engine, cards) -> list[str]:
    return [engine.cards.item[c] for c in cards]


def place_in_order(state: BattlefieldState, red_columns=(0, 1, 2), blue_columns=(0, 1, 2)) -> None:
    """Answer the placement decisions: each reinforcement (last drawn first) to the given columns."""
    for columns in (red_columns, blue_columns):
        for column in columns:
            assert state.decision[0] == "place"
            state.apply(column)


def test_columns_form_from_the_top_of_each_deck(engine):
    s = arrange(
        engine,
        ["ktotekk-drone", "ktotekk-lancer", "ktotekk-barque"] + ["skarrow-skiff"] * 3,
        ["quillan-current-skiff", "quillan-tide-lancer", "cc-heavy-cruiser"] + ["feyla-elai-starglider"] * 3,
    )
    assert [names(engine, col) for col in s.columns[RED]] == [["ktotekk-drone"], ["ktotekk-lancer"], ["ktotekk-barque"]]
    assert s.decision == ("place", RED)
    assert names(engine, s.hand[RED]) == ["skarrow-skiff"] * 3  # three reinforcements drawn into the hand


def test_play_another_plays_the_next_card_onto_the_same_column(engine):
    s = arrange(
        engine,
        ["skarrow-raider", "ktotekk-drone", "ktotekk-drone", "ktotekk-drone"] + ["skarrow-skiff"] * 3,
        ["quillan-current-skiff"] * 3 + ["feyla-elai-starglider"] * 3,
    )
    assert [names(engine, col) for col in s.columns[RED]] == [
        ["skarrow-raider", "ktotekk-drone"], ["ktotekk-drone"], ["ktotekk-drone"]]  # fmt: skip


def test_reinforcements_are_hidden_until_both_have_placed(engine):
    s = arrange(
        engine,
        ["ktotekk-drone"] * 3 + ["deterian-dreadnought", "skarrow-skiff", "skarrow-skiff"],
        ["quillan-current-skiff"] * 3 + ["feyla-elai-starglider"] * 3,
    )
    s.apply(2)  # the last drawn reinforcement (a skiff) to column 3
    assert s.facedown[RED][2] != -1 and all(len(col) == 1 for col in s.columns[RED])
    assert s.current_player() == RED
    s.apply(1)
    s.apply(0)
    assert s.current_player() == BLUE  # blue decides without seeing red's face-down cards
    assert [engine.cards.item[c] for c in s.facedown[RED]] == ["deterian-dreadnought", "skarrow-skiff", "skarrow-skiff"]


def test_column_bonus_adds_to_every_other_own_ship_not_itself(engine):
    s = arrange(
        engine,
        ["deterian-warbanner", "ktotekk-drone", "ktotekk-drone"] + ["ktotekk-drone"] * 3,
        ["quillan-current-skiff"] * 6,
    )
    add_to_column(engine, s, 0, "ktotekk-lancer")
    assert s.total(RED, 0) == 2 + (3 + 1)  # the Warbanner 2, the Lancer 3 + 1


def test_race_synergy_in_the_column_and_across_the_battle(engine):
    s = arrange(
        engine,
        ["deterian-phalanx", "ktotekk-striker", "ktotekk-striker"] + ["ktotekk-drone"] * 3,
        ["quillan-current-skiff"] * 6,
    )
    add_to_column(engine, s, 0, "deterian-phalanx")
    assert s.total(RED, 0) == (2 + 1) * 2  # each Phalanx +1 for the other Deterian in its column
    assert s.total(RED, 1) == 2 + 1  # a Striker +1 for the other K'Totekk anywhere in the battle


def lost(engine, state: BattlefieldState, p: int, before: list[int]) -> list[str]:
    """The cards a player sent to the Graveyard since `before` (a copy of the Graveyard taken earlier)."""
    return sorted(names(engine, [c for c in state.graveyard[p] if c not in before]))


def test_beside_modifier_is_replaced_and_resolves_before_the_columns(engine):
    s = arrange(
        engine,
        ["red-hive-frenzy", "ktotekk-drone", "ktotekk-drone", "ktotekk-drone"] + ["ktotekk-drone"] * 3,
        ["quillan-tide-lancer"] * 3 + ["quillan-current-skiff"] * 3,
    )
    assert s.decision == ("target", RED, 0)  # Hive Frenzy (+4) asks for one of red's columns
    s.apply(0)
    assert [names(engine, col) for col in s.columns[RED]] == [["ktotekk-drone"]] * 3  # replaced by the next card
    before = [list(s.graveyard[RED]), list(s.graveyard[BLUE])]
    place_in_order(s)
    # column 1: 1 + 1 + 4 (Frenzy) beats 3 + 1; columns 2 and 3: 1 + 1 lose to 3 + 1
    assert lost(engine, s, RED, before[RED]) == ["ktotekk-drone"] * 4 + ["red-hive-frenzy"]  # spent modifier too
    assert lost(engine, s, BLUE, before[BLUE]) == ["quillan-current-skiff", "quillan-tide-lancer"]


def test_higher_resolution_number_resolves_first_and_can_cancel(engine):
    s = arrange(engine, ["red-counter-intelligence"] + ["ktotekk-drone"] * 6,
                ["blue-flanking-run", "quillan-current-skiff", "quillan-current-skiff", "quillan-current-skiff"]
                + ["quillan-current-skiff"] * 3)  # fmt: skip
    s.apply(0)  # blue aims Flanking Run (+3) at its column 1
    place_in_order(s)
    # red's Counter-Intelligence (24) resolves before blue's Flanking Run (3) and cancels it: every column ties 2-2
    # until the decks run dry, so nothing was added to blue's column 1
    assert "red-counter-intelligence" in s.applied


def test_destroy_weakest_takes_the_ship_revealed_last_among_equals(engine):
    """rules.yaml `modifier_effects.destroy_weakest_enemy`: among equal ships, the one revealed last goes — not the
    one in the rightmost column. Red's three Drones (Force 1) form columns 1–3; the Drone of column 1 is then revealed
    again later (as a card landing from an extra draw would be), so it is the one destroyed."""
    s = arrange(engine, ["ktotekk-drone"] * 6, ["quillan-current-skiff"] * 6)
    first, _, last = (col[0] for col in s.columns[RED])
    assert s.revealed[last] > s.revealed[first]  # formed left to right
    assert s._destroy_weakest(RED) and last not in s.columns[RED][2]  # the last revealed goes
    s.columns[RED][2].append(last)
    s.graveyard[RED].remove(last)
    s.revealed[first] = s.clock  # column 1's Drone turns face up again, after the others
    s.clock += 1
    assert s._destroy_weakest(RED)
    assert s.columns[RED][0] == [] and s.graveyard[RED][-1] == first
    clone = s.clone()
    assert clone.revealed == s.revealed and clone.revealed is not s.revealed and clone.clock == s.clock


def test_losers_go_to_the_graveyard_and_winners_to_the_survivors(engine):
    # more cards behind, so the next battle stops at its first placement and this battle's results stay visible
    s = arrange(
        engine,
        ["deterian-dreadnought", "ktotekk-drone", "ktotekk-drone"]
        + ["ktotekk-drone"] * 3
        + ["skarrow-hulk"]
        + ["skarrow-skiff"] * 6,
        ["quillan-current-skiff", "cc-battlecarrier"]
        + ["quillan-current-skiff"] * 4
        + ["feyla-elai-starglider"] * 6
        + ["feyla-elai-lightblade"] * 4,
    )
    before = [list(s.graveyard[RED]), list(s.graveyard[BLUE])]
    place_in_order(s)
    # column 1: 6 + 1 against 1 + 1 (red wins); column 2: 1 + 1 against 6 + 1 (blue wins); column 3 ties 2-2 and is
    # broken with the next card of each deck (the Hulk 5 against a Starglider 2: red wins it too)
    assert sorted(names(engine, s.survivors[RED])) == sorted(
        ["deterian-dreadnought", "ktotekk-drone", "ktotekk-drone", "ktotekk-drone", "skarrow-hulk"]
    )
    assert sorted(names(engine, s.survivors[BLUE])) == ["cc-battlecarrier", "quillan-current-skiff"]
    assert lost(engine, s, RED, before[RED]) == ["ktotekk-drone", "ktotekk-drone"]  # red's column 2 is lost
    assert s.decision == ("place", RED)  # the next battle has begun


def test_a_tie_takes_one_more_card_from_each_player(engine):
    s = arrange(
        engine,
        ["ktotekk-drone"] * 3 + ["skarrow-skiff"] * 3 + ["ktotekk-barque"],
        ["quillan-current-skiff"] * 3 + ["feyla-elai-starglider"] * 3 + ["quillan-current-skiff"],
    )
    before = [list(s.graveyard[RED]), list(s.graveyard[BLUE])]
    place_in_order(s)
    # every column is 1 + 2 against 1 + 2; column 1's tie-break card (Barque 5 against Skiff 1) wins it for red
    assert "ktotekk-barque" not in lost(engine, s, RED, before[RED])
    assert "quillan-current-skiff" in lost(engine, s, BLUE, before[BLUE])


def test_an_unbreakable_tie_sends_both_columns_to_the_graveyard(engine):
    s = arrange(engine, ["ktotekk-drone"] * 6, ["quillan-current-skiff"] * 6)
    place_in_order(s)
    assert s.survivors == [[], []] and s.ending == "both fleets destroyed"


def test_empty_deck_is_rebuilt_from_the_survivors(engine):
    s = arrange(engine, ["ktotekk-drone"] * 3, ["quillan-current-skiff"] * 6, survivors=(["skarrow-skiff"] * 3, ()))
    shuffles = [e for e in s.chance.events if e[0] == "shuffle"]
    assert shuffles and "survivors" in shuffles[-1][1][0]
    assert names(engine, s.hand[RED]) == ["skarrow-skiff"] * 3


def test_the_last_fleet_with_cards_wins(engine):
    s = arrange(engine, ["deterian-dreadnought"] * 2 + ["deterian-siege-frigate"] * 4, ["quillan-current-skiff"] * 6)
    place_in_order(s)
    assert s.is_terminal() and s.winner == RED and s.returns() == [1.0, 0.0]
    assert s.ending == "blue-deck destroyed"


def test_illegal_placement_is_rejected(engine):
    s = arrange(engine, ["ktotekk-drone"] * 6, ["quillan-current-skiff"] * 6)
    s.apply(0)
    with pytest.raises(ValueError, match="not legal"):
        s.apply(0)  # column 1 already has a reinforcement


@pytest.mark.parametrize("agents", [("random",), ("greedy", "random")])
def test_hundreds_of_seeded_games_keep_every_invariant(agents):
    spec = PlaySpec("battlefield-space", str(DATA), 2, 11, agents, check=True)
    results = play_many(spec, 150)
    summary = summarise(spec, results, 1.0)
    assert summary["invariant_violations"] == 0, summary["violation_examples"]
    assert set(summary["endings"]) <= {"red-deck destroyed", "blue-deck destroyed", "both fleets destroyed"}
    assert all(r.actions < 400 for r in results)


def test_the_alliances_are_balanced_under_random_play():
    spec = PlaySpec("battlefield-space", str(DATA), 2, 5, ("random",))
    wins = summarise(spec, play_many(spec, 400), 1.0)["wins"]
    assert 0.43 <= wins["seat 0"] / 400 <= 0.57, wins


GOLDEN = FIXTURES / "golden" / "battlefield-space.jsonl"


def test_golden_log_replays_exactly(tmp_path):
    """A committed log of seed 2024's first game must replay; regenerate with CARDGEN_UPDATE_GOLDEN=1 after a
    deliberate change of rules or data."""
    spec = PlaySpec("battlefield-space", str(DATA), 2, 2024, ("greedy", "random"), log=True)
    check_golden_log(spec, GOLDEN, tmp_path)
    header = json.loads(GOLDEN.read_text().splitlines()[0])
    assert header["seed"] == derive_seed(2024, 0)


def test_engine_and_state_pickle_and_play_on_identically(engine):
    """Workers receive engines and states by pickling: a copy must continue exactly like the original."""
    import pickle

    state = engine.new_state(2, 5)
    copy = pickle.loads(pickle.dumps(state))
    for _ in range(12):
        action = state.legal_actions()[0]
        state.apply(action)
        copy.apply(action)
    assert copy.chance.events == state.chance.events and copy.columns == state.columns
    assert pickle.loads(pickle.dumps(engine)).cards == engine.cards


def test_results_are_the_same_whatever_the_number_of_processes():
    spec = PlaySpec("battlefield-space", str(DATA), 2, 23, ("greedy", "random"))
    one, two = summarise(spec, play_many(spec, 40), 1.0), summarise(spec, play_many(spec, 40, jobs=2, batch=7), 1.0)
    one.pop("actions_per_second"), two.pop("actions_per_second")
    assert one == two


def test_determinizations_agree_with_what_the_player_sees_and_vary_what_it_does_not(engine):
    """At every decision of seeded games: a determinization for either player keeps that player's observation,
    accounts for every card, leaves the real game untouched, and deals the opponent's unseen ships differently."""
    from cardgen.engine.rng import CounterRng

    rng = CounterRng(11)
    varied = 0
    for seed in range(4):
        state = BattlefieldState.deal(engine, seed)
        while not state.is_terminal():
            for player in (RED, BLUE):
                seen = state.observation(player)
                deals = [state.determinize(player, rng) for _ in range(3)]
                assert all(d.observation(player) == seen for d in deals)
                assert all(d.invariant_violations() == [] for d in deals)
                assert state.observation(player) == seen and state.invariant_violations() == []
                hidden = {tuple(d.hand[1 - player]) + tuple(d.facedown[1 - player]) for d in deals}
                varied += len(hidden) > 1
            legal = state.legal_actions()
            state.apply(legal[rng.randbelow(len(legal))])
    assert varied > 20
    # the opponent's hand is part of what a player cannot see; their own is not
    state = BattlefieldState.deal(engine, 1)
    while not (state.hand[BLUE] and state.decision and state.decision[0] == "place"):
        state.apply(state.legal_actions()[0])
    other = state.clone()
    other.hand[BLUE] = list(reversed(other.hand[BLUE])) if len(set(other.hand[BLUE])) > 1 else other.hand[BLUE]
    assert other.observation(RED) == state.observation(RED)
