"""Scifi Domains by its rules: one test per rule on hand-built states, then seeded playouts and a golden log.

Figures come from card_data/scifi-domains (rules.yaml facts and the cards): start with 6 Metal, 3 Metal Production,
4 Research, 3 Research Production and a Command Ship; three rounds; line-ups of 10/12/14 Units, 6/7/8 Techs and 4/5/6
Rewards for 2/3/4 players; at most 8 Reward/Gain cards.
"""

from __future__ import annotations

import json
import math

import pytest

from cardgen.data import load_games
from cardgen.engine.games.scifi_domains.actions import (
    DONE,
    PASS,
    Absorb,
    Agro,
    Build,
    Deploy,
    Research,
    Reward,
    Sacrifice,
)
from cardgen.engine.games.scifi_domains.model import Phase, Source, Unit
from cardgen.engine.games.scifi_domains.rules import ScifiEngine
from cardgen.engine.games.scifi_domains.state import ScifiState
from cardgen.engine.runner import PlaySpec, play_many, summarise

from conftest import FIXTURES, REPO, check_clone_playouts, check_golden_log

DATA = REPO / "card_data"


@pytest.fixture(scope="module")
def engine() -> ScifiEngine:
    (game,) = load_games(DATA, ["scifi-domains"])
    return ScifiEngine.from_game(game)


def fresh(engine: ScifiEngine, players: int = 2, seed: int = 3) -> ScifiState:
    return engine.new_state(players, seed)


def enemy(engine: ScifiEngine, item: str, taken: set[int]) -> int:
    index = next(i for i, e in enumerate(engine.enemies) if e.item == item and i not in taken)
    taken.add(index)
    return index


def unit_card(engine: ScifiEngine, state: ScifiState, unit_type: str) -> int:
    """A unit card of the type taken out of the Units deck (so every card stays accounted for)."""
    card = next(c for c in state.decks["units"] if engine.unit_cards[c] == unit_type)
    state.decks["units"].remove(card)
    return card


def give(engine, state, p: int, unit_type: str, bought: int = 0) -> Unit:
    unit = Unit(unit_type, Source.CARD, unit_card(engine, state, unit_type), bought)
    state.units[p].append(unit)
    return unit


def now(state, p: int, unit: Unit) -> Unit | None:
    """The unit of the same card in seat p's units now (None: gone): a unit is copied into its place before it is
    damaged, so the one `give` made is the state's only until then."""
    return next((u for u in state.units[p] if (u.source, u.card) == (unit.source, unit.card)), None)


def test_setup_follows_the_facts(engine):
    for players, units, techs, rewards in ((2, 10, 6, 4), (3, 12, 7, 5), (4, 14, 8, 6)):
        s = fresh(engine, players)
        assert [len(s.lines[k]) for k in ("units", "techs", "rewards")] == [units, techs, rewards]
        assert s.metal == [6 + 3] * players and s.research == [4 + 3] * players  # production paid in round 1
        assert all(u.kind == "command_ship" for us in s.units for u in us)
        assert s.phase == 3 and s.turn == s.starter and s.invariant_violations() == []


def test_several_units_of_one_type_cost_half_after_the_first_rounded_up(engine):
    s = fresh(engine)
    assert s.build_cost(0, "frigate", 1) == 4
    assert s.build_cost(0, "frigate", 3) == 8  # 4 + 2 + 2
    assert s.build_cost(0, "bomber", 2) == math.ceil(5 + 2.5) == 8


def test_building_pays_metal_takes_from_the_line_up_and_refills_it(engine):
    s = fresh(engine)
    p = s.turn
    kind = engine.unit_cards[s.lines["units"][0]]
    action = Build(kind, 1)
    metal = s.metal[p]
    s.apply(action)
    assert s.metal[p] == metal - s.build_cost(p, kind, 1)
    assert s.units[p][-1].kind == kind and s.units[p][-1].bought == 1  # bought this round
    assert len(s.lines["units"]) == 10


def test_any_number_of_one_type_can_be_built_at_once(engine):
    """The rulebook sets no cap on how many units of a type one build takes: a line-up holding ten Frigates (two
    players keep ten cards) offers building all ten, and it costs what the multi-build price says."""
    s = fresh(engine)
    p = s.turn
    frigates = [c for c in s.decks["units"] + s.lines["units"] if engine.unit_cards[c] == "frigate"][:10]
    assert len(frigates) == 10, "the data holds fewer than ten Frigate cards"
    others = [c for c in s.lines["units"] if c not in frigates]
    s.decks["units"] = [c for c in s.decks["units"] if c not in frigates] + others
    s.lines["units"] = frigates
    s.metal[p] = 10_000
    ten = Build("frigate", 10)
    assert ten in s.legal_actions() and s.action_label(ten) == "build 10 frigate"
    s.apply(ten)
    assert sum(u.kind == "frigate" for u in s.units[p]) >= 10
    assert s.metal[p] == 10_000 - s.build_cost(p, "frigate", 10)


def test_the_build_and_research_listing_offers_exactly_what_the_budget_pays_for(engine):
    """Phase 3: a player builds units of one type (the first at full price, the others at half, rounded up) or
    researches a Tech; the listing reads prices from tables the engine keeps (`ScifiEngine.prices_of`), so it is
    checked here against `build_cost` and `tech_cost` asked one by one, at every budget up to the dearest choice."""
    s = fresh(engine)
    p = s.turn
    frigates = [c for c in s.decks["units"] + s.lines["units"] if engine.unit_cards[c] == "frigate"][:4]
    others = [c for c in s.lines["units"] if c not in frigates]
    s.decks["units"] = [c for c in s.decks["units"] if c not in frigates] + others[4:]
    s.lines["units"] = frigates + others[:4]
    techs = engine.techs
    held, other = [i for i, t in enumerate(techs) if t.unit_type == "frigate" and i not in s.lines["techs"]][:2]
    s.decks["techs"].remove(held)
    s.techs[p].append(held)  # a Frigate tech in the line-up costs the difference plus one
    s.decks["techs"].remove(other)
    s.decks["techs"].append(s.lines["techs"][0])
    s.lines["techs"][0] = other
    assert s.tech_cost(p, other) == abs(techs[other].cost - techs[held].cost) + 1
    s.tables[p] = None
    in_line = {engine.unit_cards[c] for c in s.lines["units"]}
    dearest = max(s.build_cost(p, kind, 8) for kind in in_line)
    for budget in range(dearest + 1):
        s.metal[p] = s.research[p] = budget
        s._legal = None
        legal = s.legal_actions()
        expected = [Build(kind, n) for kind in engine.type_names for n in range(1, 9)
                    if sum(engine.unit_cards[c] == kind for c in s.lines["units"]) >= n
                    and all(s.build_cost(p, kind, m) <= budget for m in range(1, n + 1))]  # fmt: skip
        assert [a for a in legal if isinstance(a, Build)] == expected, budget
        assert [a for a in legal if isinstance(a, Research)] == [
            Research(slot) for slot, card in enumerate(s.lines["techs"]) if s.tech_cost(p, card) <= budget
        ], budget
    assert Build("frigate", 4) in legal and s.build_cost(p, "frigate", 4) == 4 + 2 + 2 + 2


def test_a_replaced_tech_costs_the_difference_plus_one(engine):
    s = fresh(engine)
    techs = engine.techs
    frigate = [i for i, t in enumerate(techs) if t.unit_type == "frigate"]
    cheap, dear = sorted(frigate[:2], key=lambda i: techs[i].cost)[0], max(frigate, key=lambda i: techs[i].cost)
    s.decks["techs"].remove(cheap)
    s.techs[0].append(cheap)
    assert s.tech_cost(0, dear) == abs(techs[dear].cost - techs[cheap].cost) + 1
    battlecruiser = next(i for i, t in enumerate(techs) if t.unit_type == "battlecruiser")
    assert s.tech_cost(0, battlecruiser) == techs[battlecruiser].cost  # Battlecruiser techs stack at full price
    cruisers = [t.cost for t in techs if t.unit_type == "battlecruiser"]
    assert max(cruisers) < min(t.cost for t in techs if t.unit_type != "battlecruiser")


def test_passing_ends_building_for_the_round(engine):
    s = fresh(engine)
    first = s.turn
    s.apply(PASS)
    assert s.turn != first and s.phase == 3
    s.apply(PASS)
    assert s.phase == 4  # everyone passed: agro enemies


@pytest.mark.parametrize("action", [Agro(99), Reward(50), Build("warp-gate", 999), Research(-5), 10**9, "pass"])
def test_an_action_that_names_nothing_is_rejected_with_the_reason(engine, action):
    """An action that names nothing in this game is an illegal action with a reason, never an IndexError."""
    from cardgen.engine.core import IllegalAction

    s = fresh(engine)
    with pytest.raises(IllegalAction, match=r"is not legal now \(legal: pass, build 1 "):
        s.apply(action)


def test_agro_order_strikers_then_space_then_ground(engine):
    s = fresh(engine)
    s.apply(PASS), s.apply(PASS)
    p = s.turn
    assert s.legal_actions() == [PASS, Agro(0), Agro(1), Agro(2)]
    s.apply(Agro(1))  # a Space enemy: no more Strikers for this player
    s.apply(PASS)  # the other player stops
    assert s.turn == p and Agro(0) not in s.legal_actions()


def test_a_group_with_no_enemy_left_to_draw_cannot_be_agroed(engine):
    """With every printed enemy of a group in front of a player, agroing it again would draw nothing: it is not
    offered (it was, as an action that did nothing, and a search agent took it until the game's action bound)."""
    s = fresh(engine)
    s.apply(PASS), s.apply(PASS)
    p = s.turn
    space = len(engine.group_cards[1])
    for _ in range(space - 1):
        s._agro(p, 1)
    assert Agro(1) in s._legal_actions()  # one Space enemy is left in the pile
    s.apply(Agro(1))
    s.apply(PASS)  # the other player stops
    assert s.turn == p and sorted(s.agroed[p]) == sorted(engine.group_cards[1])
    assert s.legal_actions() == [PASS, Agro(2)]
    s.apply(Agro(2))
    assert s.legal_actions() == [PASS, Agro(2)] and not s.problems


def test_each_player_draws_enemies_from_an_unlimited_pile_of_their_own(engine):
    """rules.yaml agro_enemies: 'each player draws as if from their own pile' (the rulebook: 'effectively unlimited
    ... each player accesses it independently'). One player's draws leave the other's pile as it was; a player can
    agro more of a group than the set prints (their pile is reshuffled whole), and only enemies out at once beyond
    the printed set are reported, as a shortage of printed cards at that player count."""
    s = fresh(engine, players=2, seed=4)
    other = [list(pile) for pile in s.piles[1]]
    printed = len(engine.group_cards[0])
    for _ in range(printed + 3):  # more Strikers than the set holds, for one player
        s._agro(0, 0)
        assert s.piles[1] == other  # the other player's pile is untouched
        if len(s.agroed[0]) >= printed:
            s.agroed[0] = []  # fought and gone: the pile refills with the whole group
    assert not any("printed" in p for p in s.problems)
    assert s.invariant_violations() == []
    s.agroed = [[], []]
    for _ in range(printed // 2 + 1):
        s._agro(0, 0)
        s._agro(1, 0)
    assert f"at 2 players more striker enemies were out at once than the {printed} printed" in s.problems


def fight(engine, units: list[str], enemies: list[str], bought: int = 0) -> tuple[ScifiState, list[Unit]]:
    """A 2-player state at seat 0's battle, stopped at its first decision: the Command Ship (6 hp; 2 Space, 1 Space
    Striker damage) and `units`, against `enemies`."""
    s = fresh(engine)
    s.units[0] = [s.units[0][0]]
    mine = [give(engine, s, 0, kind, bought) for kind in units]
    taken: set[int] = set()
    s.agroed[0] = [enemy(engine, name, taken) for name in enemies]
    for card in s.agroed[0]:
        s.piles[0][engine.enemies[card].group].remove(card)
    s.phase = Phase.BATTLE
    s.start_tasks(("battle", 0))
    s.run()
    return s, mine


def finish(s: ScifiState) -> ScifiState:
    """Play the battle's remaining choices the default way."""
    while s.decision is not None:
        s.apply(s.default_choice())
    return s


def battle(engine, units: list[str], enemies: list[str], bought: int = 0) -> tuple[ScifiState, list[Unit]]:
    s, mine = fight(engine, units, enemies, bought)
    return finish(s), mine


def test_space_damage_is_soaked_by_a_unit_that_survives_it(engine):
    s, mine = battle(engine, ["frigate"], ["enemy-corvette"])  # the Corvette deals 2 Space damage, has 3 hp
    assert s.units[0][0].damage == 2 or now(s, 0, mine[0]).damage == 2  # one unit took all of it
    assert s.points[0] == 1  # Command Ship 2 + Frigate 1 Space damage kill it: 1 point per enemy destroyed


def test_striker_damage_falls_on_space_units_when_no_striker_is_left(engine):
    s, _ = battle(engine, [], ["enemy-raiders"])  # 2 Space Striker damage, no Striker to take it
    assert s.units[0][0].damage == 2  # the Command Ship took it


def test_older_strikers_need_a_bay_and_ground_units_need_a_space_unit(engine):
    s, mine = fight(engine, ["interceptor", "interceptor"], [], bought=0)
    # bought before this round: without a Striker Bay neither Interceptor may deploy
    assert s.legal_actions() == [Deploy(0), DONE]  # only the Command Ship
    finish(s)
    assert all(u in s.units[0] for u in mine)  # both stayed home unharmed
    s2 = fresh(engine)
    s2.units[0] = []  # no Space unit at all (the Command Ship is gone)
    s2.lost_ships.append(0)
    trooper = give(engine, s2, 0, "trooper", bought=s2.round)
    s2.phase = Phase.BATTLE
    s2.start_tasks(("battle", 0))
    s2.run()
    finish(s2)
    assert now(s2, 0, trooper) is None  # stranded: every non-Striker Ground unit is lost


def test_ground_units_alive_earn_extra_reward_points(engine):
    s, _ = battle(engine, ["drop_bay", "walker"], ["enemy-militia"], bought=1)
    # Walker 2 Ground damage kills the Militia (2 hp): 1 point, +1 a Ground unit lives, +1 no Ground enemy left
    assert s.points[0] == 3


def test_deploying_is_the_players_choice_one_unit_at_a_time_ending_in_done(engine):
    """Combat phase 1: 'the player chooses which Units to deploy'. Units are offered in one order (Space units
    first, strongest first), each set reached by one sequence of choices; a unit kept home neither fights nor
    takes damage."""
    s, (frigate,) = fight(engine, ["frigate"], ["enemy-corvette"])
    assert s.current_player() == 0 and s.legal_actions() == [Deploy(0), Deploy(1), DONE]
    assert [s.action_label(a) for a in s.legal_actions()] == ["deploy command_ship #1", "deploy frigate #2", "done"]
    s.apply(Deploy(1))  # the Frigate alone: the Command Ship, earlier in the order, is no longer offered
    assert s.decision is None  # nothing left to offer: deployment ends, and the one target absorbs without asking
    assert now(s, 0, frigate).damage == 2 and s.units[0][0].damage == 0 and s.points[0] == 0  # 1 does not kill
    s, _ = fight(engine, ["frigate"], ["enemy-corvette"])
    s.apply(DONE)  # nobody fights: nothing is damaged, nothing destroyed
    assert s.decision is None and all(u.damage == 0 for u in s.units[0]) and s.points[0] == 0


def test_the_player_picks_which_unit_absorbs_and_may_sacrifice_a_carried_unit(engine):
    """Phases 2 and 3: two Striker Bays carry two older Interceptors; the player lets a bay absorb the Dreadmaw's
    4 Space damage (it absorbs its 3 hp, the Command Ship the last 1), and with one bay left must sacrifice one
    Interceptor, choosing which."""
    s, (bay1, bay2, int1, int2) = fight(engine, ["striker_bay", "striker_bay", "interceptor", "interceptor"],
                                         ["enemy-dreadmaw"])  # fmt: skip
    while isinstance(s.legal_actions()[0], Deploy):
        s.apply(s.legal_actions()[0])  # deploy everything: once all are in, deployment ends by itself
    assert s.decision[0] == "absorb" and s.legal_actions() == [Absorb(0), Absorb(1), Absorb(2)]
    assert s.default_choice() == Absorb(0)  # the Command Ship survives the 4 damage: the careful default
    s.apply(Absorb(1))
    assert now(s, 0, bay1).damage == 3 and s.decision[0] == "absorb" and s.decision[3] == 1
    s.apply(Absorb(0))
    assert s.units[0][0].damage == 1
    assert s.decision[0] == "sacrifice" and s.legal_actions() == [Sacrifice(3), Sacrifice(4)]
    s.apply(Sacrifice(3))
    finish(s)
    assert now(s, 0, int1) is None and now(s, 0, int2) and now(s, 0, bay1) is None and now(s, 0, bay2)


def test_rewards_are_taken_up_to_the_cap_then_points_become_vp(engine):
    s = fresh(engine)
    s.phase, s.points = Phase.REWARDS, [3, 0]
    s.rewards[0] = [s.decks["rewards"].pop() for _ in range(7)]
    s._next_reward_turn(start=True)
    assert s.turn == 0 and s.legal_actions() == [Reward(i) for i in range(len(s.lines["rewards"]))]
    s.apply(Reward(0))
    assert len(s.rewards[0]) == 8 and s.overflow[0] == 2  # at the cap the last 2 points are 2 VP
    assert s.phase == 3 and s.round == 2  # the round is over: round 2 begins


def test_end_of_game_vp_and_tiebreak(engine):
    s = fresh(engine)
    s.metal, s.research, s.units[1] = [10, 10], [5, 0], [s.units[1][0]]
    give(engine, s, 0, "destroyer")  # printed cost 7
    assert s.victory_points(0) == pytest.approx((7 + 10 + 5) / 5)
    assert s.tiebreak(0) == 10 + 7


def test_game_ends_after_three_rounds_with_a_winner(engine):
    s = fresh(engine, 3, seed=9)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.round == 3 and s.ending == "3 rounds played" and sum(s.returns()) >= 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hundreds_of_seeded_games_keep_every_invariant(players):
    spec = PlaySpec("scifi-domains", str(DATA), players, 17, ("random", "greedy"), check=True)
    summary = summarise(spec, play_many(spec, 100), 1.0)
    assert summary["invariant_violations"] == 0, summary["violation_examples"]
    assert summary["endings"] == {"3 rounds played": 100}


def test_greedy_beats_random():
    spec = PlaySpec("scifi-domains", str(DATA), 2, 4, ("greedy", "random"))
    wins = summarise(spec, play_many(spec, 200), 1.0)["wins"]
    assert wins["agent greedy"] > wins["agent random"], wins


GOLDEN = FIXTURES / "golden" / "scifi-domains.jsonl"


def test_golden_log_replays_exactly(tmp_path):
    """Seed 2024's first 3-player game; regenerate with CARDGEN_UPDATE_GOLDEN=1 after a deliberate change."""
    spec = PlaySpec("scifi-domains", str(DATA), 3, 2024, ("greedy", "random", "greedy"), log=True)
    check_golden_log(spec, GOLDEN, tmp_path)
    assert json.loads(GOLDEN.read_text().splitlines()[0])["players"] == 3


def test_determinizations_keep_what_a_player_sees_and_redraw_the_rest(engine):
    from cardgen.engine.rng import CounterRng

    rng = CounterRng(5)
    for seed in range(3):
        state = fresh(engine, 2, seed)
        while not state.is_terminal():
            for player in range(2):
                seen = state.observation(player)
                deal = state.determinize(player, rng)
                assert deal.observation(player) == seen and deal.invariant_violations() == []
                assert state.observation(player) == seen
                assert deal.rng.state() != state.rng.state()  # a search never draws the real game's future
            legal = state.legal_actions()
            state.apply(legal[rng.randbelow(len(legal))])
    state = fresh(engine, 2, 1)
    # decks are unordered and every draw is chance: determinizations draw different cards from the same deck
    drawn = {state.determinize(0, rng)._draw(list(state.decks["units"]), "units") for _ in range(20)}
    assert len(drawn) > 1 and drawn <= set(state.decks["units"])


def test_the_multi_build_price_is_one_formula_for_engine_checks_and_reference(engine, tmp_path):
    """The engine, the game's checks.py and the reference layout all read `model.build_cost` (cardgen/formulas.py)."""
    import importlib.util

    from cardgen.engine.games.scifi_domains import model, state
    from cardgen.formulas import formulas

    assert formulas("scifi-domains")["build_cost"] is model.build_cost is state.build_cost
    assert formulas("my-own-game") == {}
    spec = importlib.util.spec_from_file_location("scifi_checks", DATA / "scifi-domains" / "checks.py")
    checks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checks)
    assert checks.build_cost is model.build_cost
    assert model.build_cost(4, 3, 0.5) == 8 and model.build_cost(5, 2, 0.5) == 8 and model.build_cost(0, 1, 0.5) == 1
    from conftest import run_cli

    out = tmp_path / "out"
    assert run_cli("build", "scifi-domains", "--only", "reference", "--out", out, "-q").code == 0
    import pypdf

    text = " ".join(
        " ".join(p.extract_text().split()) for p in pypdf.PdfReader(out / "scifi-domains" / "reference.pdf").pages
    )
    price = 5  # the reference sheet's example
    two, three = (model.build_cost(price, n, engine.extra_price) for n in (2, 3))
    assert f"Two {price}-Metal Units cost {two}; three cost {three}" in text


def test_a_search_scores_a_finished_playout_by_the_win_and_the_vp_lead(engine):
    """mcts:600 scoring its playouts by the win alone won 9 of 16 games against greedy (seed 2), with the VP lead
    blended in 13 of 16 (rules.py): a playout won by more scores more, one lost by more less, each within [0, 1]."""
    assert (engine.search_iterations, engine.search_margin) == (600, 2.0)
    s = fresh(engine)
    s.phase, s.tasks, s.decision = Phase.OVER, [], None
    assert s.is_terminal()
    s.overflow = [0, 0]
    base = [s.victory_points(p) for p in range(2)]
    s.overflow = [3 + math.ceil(base[1] - base[0]), 0]  # seat 0 leads by 3 VP or a little more
    lead = s.victory_points(0) - s.victory_points(1)
    assert 3 <= lead < 4 and s.returns() == [1.0, 0.0]
    won, lost = engine.search_scores(s)
    assert won == pytest.approx(0.5 + 0.5 / (1 + math.exp(-lead / 2))) and lost == pytest.approx(1 - won)
    assert 0.5 < won < 1 and 0 < lost < 0.5
    s.overflow[0] += 4
    assert engine.search_scores(s)[0] > won and engine.search_scores(s)[1] < lost
    engine.search_margin = None  # the win alone
    try:
        assert engine.search_scores(s) == [1.0, 0.0]
    finally:
        engine.search_margin = 2.0


def test_search_agents_fight_battles_by_the_default_choices(engine):
    """Searching battle bookkeeping made mcts lose to greedy (0 of 8 games at 100 iterations): search agents play
    battle choices by the default choices, in their playouts and at the table; everything else is searched."""
    from cardgen.engine.agents import MctsAgent
    from cardgen.engine.rng import CounterRng

    s, _ = fight(engine, ["striker_bay", "striker_bay", "interceptor", "interceptor"], ["enemy-dreadmaw"])
    while isinstance(s.legal_actions()[0], Deploy):
        s.apply(s.legal_actions()[0])
    s.apply(Absorb(1))  # a bay takes 3, the Command Ship the last 1
    s.apply(Absorb(0))
    assert s.decision[0] == "sacrifice" and not s.searched()
    assert s.default_choice() == Sacrifice(4) != s.legal_actions()[0]  # the weaker of equals: the later one
    assert MctsAgent(engine, 0, 1, 5).choose(s, s.legal_actions()) == Sacrifice(4)
    assert s.rollout_action(s.legal_actions(), CounterRng(1)) == Sacrifice(4)
    assert fresh(engine).searched()  # building and research are searched


def test_clones_share_units_and_piles_until_one_changes_them(engine):
    """Clones share units and enemy piles (`ScifiState.clone`): a unit is copied into its place before it is damaged
    or repaired (`_own_unit`), a pile before a card is drawn from it (`_agro`). From every fifth decision of seeded
    games at two and four players, a clone played to the end leaves the original's units, piles and observation as
    they were; the clones did damage units and draw from piles."""

    def held(state: ScifiState) -> tuple[object, ...]:
        units = [[u.key() for u in us] for us in state.units]
        return units, [[list(pile) for pile in piles] for piles in state.piles], state.observation(0)

    def changed(clone: ScifiState, state: ScifiState) -> bool:
        return any(u.damage for us in clone.units for u in us) or clone.piles != state.piles

    check_clone_playouts(engine, ((2, 3), (4, 5)), 5, held, changed)


def test_a_units_copy_has_every_slot_and_is_its_own():
    """Clones copy units slot by slot (`Unit.copy`, without `__init__`): a slot left out would leave a clone's unit
    half made; a shared unit would let a search's playout damage the real game's."""
    unit = Unit("frigate", Source.REWARD, 17, 2, damage=3)
    twin = unit.copy()
    assert twin is not unit and all(getattr(twin, name) == getattr(unit, name) for name in Unit.__slots__)
    twin.damage = 0
    assert unit.damage == 3
