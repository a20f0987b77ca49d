"""Games described by a rules file (engine.yaml): each construct on a small game built for it, the mistakes named
where they are, the bounds, the hidden information, and Star Merchants — the deck-builder written only from the guide
(docs/guide/rules-as-data.md) — played with every invariant checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from described import DESCRIBED, fixture_data

from cardgen.data import load_games
from cardgen.engine.core import derive_seed
from cardgen.engine.described.engine import DescribedEngine
from cardgen.engine.described.state import DescribedState, RulesFailure
from cardgen.engine.rng import CounterRng
from cardgen.engine.runner import PlaySpec, play_many, replay, write_log
from cardgen.errors import DataError

GAME = """id: tiny
title: Tiny
players: [2, 4]
rulebook: {title: Tiny rules}
settings: {card_size: poker}
card_types:
  card:
    fields:
      name: {type: str}
      cost: {type: int, required: false, default: 0}
      power: {type: int, required: false, default: 1}
      effect: {type: str, required: false, default: ""}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
"""
CARDS = """type: card
front: card
cards:
  - {id: coin, count: 6, name: Coin, cost: 1, power: 1, effect: "gain 1"}
  - {id: gem, count: 3, name: Gem, cost: 3, power: 3, effect: "gain 2; draw: gain 1"}
  - {id: crown, count: 1, name: Crown, cost: 5, power: 5}
"""
RULES = """facts:
  hand_size: {value: 2, cite: "Tiny rules — 'draw {2} cards'"}
  target: {value: 8, cite: "Tiny rules — 'the first to {8} wins'"}
"""
HEAD = """cards: [{component: cards}]
zones:
  deck: {visible: nobody, refill: {from: discard, shuffle: true}}
  hand: {each: player, visible: owner}
  discard: {}
values:
  gold: {each: player, min: 0}
effects:
  fields: [effect]
  triggers: [draw]
  verbs:
    gain: {meaning: gain N gold, do: [{add: {gold: amount}}]}
"""
BASE = (
    HEAD
    + """setup:
  - move: cards('cards')
    to: deck
  - shuffle: deck
"""
)


def make(tmp: Path, engine: str, cards: str = CARDS) -> DescribedEngine:
    """A tiny game folder with this rules file, and its engine."""
    folder = tmp / "card_data" / "tiny"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", cards), ("rules.yaml", RULES), ("engine.yaml", engine)):
        (folder / name).write_text(text)
    (game,) = load_games(tmp / "card_data", ["tiny"])
    return DescribedEngine.from_game(game)


def problems(tmp: Path, engine: str) -> list[str]:
    with pytest.raises(DataError) as caught:
        make(tmp, engine)
    return [str(problem) for problem in caught.value.problems]


def walk(state: Any, choose: Any = None, limit: int = 500) -> Any:
    """Play a state to its end (the first legal action, or `choose(state, legal)`)."""
    for _ in range(limit):
        if state.is_terminal():
            return state
        legal = state.legal_actions()
        state.do(choose(state, legal) if choose else legal[0])
    raise AssertionError("the game did not end")


# -- playing ----------------------------------------------------------------------------------------------------------


def test_draws_refill_from_the_discard_shuffled_and_every_draw_is_logged(tmp_path: Path) -> None:
    engine = make(
        tmp_path,
        BASE
        + """turn:
  - draw: deck
    count: 3
    as: got
  - move: got
    to: discard
  - if: turns >= 5
    then: [{end: five turns}]
""",
    )
    state = walk(engine.new_state(2, 7))
    draws = [e for e in state.chance.events if e[0] == "draw"]
    shuffles = [e for e in state.chance.events if e[0] == "shuffle"]
    assert len(draws) == 15 and len(shuffles) == 2  # the set-up's shuffle, then the discard's when the deck ran out
    assert sorted(shuffles[1][1][1]) == sorted(c for _, (_, c) in draws[:9])  # the 9 discarded cards came back
    assert state.ending == "five turns" and state.invariant_violations() == []


def test_a_line_up_is_dealt_full_and_a_source_run_dry_is_a_data_problem(tmp_path: Path) -> None:
    zones = BASE.replace("  discard: {}", "  discard: {}\n  gone: {}\n  market: {size: 4, fill_from: deck}")
    engine = make(tmp_path, zones + "round:\n  - fill: market\n  - move: top(market)\n    to: gone\n"
                  "  - if: not market\n    then: [{end: dry}]\n")  # fmt: skip
    state = walk(engine.new_state(2, 1))
    assert state.ending == "dry"
    assert state.problems == ["market could not be filled to 4 at 2 players: deck ran out"]
    short = zones.replace("fill_from: deck}", "fill_from: deck, short: allowed}")  # the line-up may stay short
    engine = make(tmp_path, short + "round:\n  - fill: market\n  - move: top(market)\n    to: gone\n"
                  "  - if: not market\n    then: [{end: dry}]\n")  # fmt: skip
    state = walk(engine.new_state(2, 1))
    assert state.ending == "dry" and state.problems == []


def test_the_legal_actions_are_every_binding_of_every_option_in_order_with_their_labels(tmp_path: Path) -> None:
    engine = make(
        tmp_path,
        BASE
        + """turn:
  - draw: deck
    count: 3
  - choose:
      options:
        - pass: pass
        - label: "spend {card.name} and {n}"
          for: card in hand for n in range(2)
          if: card.cost + n <= 3
          do: [{move: card, to: discard}]
  - end: done
""",
    )
    state = engine.new_state(2, 3)
    hand = state.zones[engine.families["hand"].base]
    legal = state.legal_actions()
    expected = [(0,)] + [(1, c, n) for c in hand for n in range(2) if engine.cards.fields["cost"][c] + n <= 3]
    assert legal == expected and len(legal) > 2
    assert state.action_label(legal[0]) == "pass"
    card, n = legal[1][1], legal[1][2]
    assert state.action_label(legal[1]) == f"spend {engine.cards.fields['name'][card]} and {n}"


def test_a_choice_with_one_action_is_taken_unless_asked_and_a_skipped_choice_names_none(tmp_path: Path) -> None:
    turn = """turn:
  - choose: {from: "[c for c in hand if c.cost > 100]", as: pick, label: "pick {pick}"}
  - if: pick == none
    then: [{add: {gold: 1}}]
  - choose: {from: "[1]", as: one, label: "one", single: SINGLE}
  - add: {gold: one}
  - end: done
"""
    taken = make(tmp_path / "a", BASE + turn.replace("SINGLE", "take")).new_state(2, 1)
    assert taken.is_terminal() and taken.values[taken.engine.families["gold"].base] == 2
    asked = make(tmp_path / "b", BASE + turn.replace("SINGLE", "ask")).new_state(2, 1)
    assert not asked.is_terminal() and [asked.action_label(a) for a in asked.legal_actions()] == ["one"]


def test_turns_go_round_until_every_player_has_passed(tmp_path: Path) -> None:
    engine = make(
        tmp_path,
        BASE
        + """round:
  - turns:
      from: 1
      until: pass
      do:
        - choose:
            single: ask
            options:
              - pass: pass
              - label: take
                if: gold < player + 1
                do: [{add: {gold: 1}}]
  - end: done
""",
    )
    state = engine.new_state(3, 1)
    order = []
    while not state.is_terminal():
        order.append((state.current_player(), state.action_label(state.legal_actions()[-1])))
        state.do(state.legal_actions()[-1])
    # seat 1 first; each takes while it may, then passes and is skipped from then on
    assert order == [(1, "take"), (2, "take"), (0, "take"), (1, "take"), (2, "take"), (0, "pass"), (1, "pass"),
                     (2, "take"), (2, "pass")]  # fmt: skip


def test_simultaneous_choices_stay_hidden_until_all_are_in(tmp_path: Path) -> None:
    rules = BASE.replace("  gold: {each: player, min: 0}", "  gold: {each: player, min: 0}\n  bid: {each: player}")
    engine = make(
        tmp_path,
        rules
        + """round:
  - simultaneous:
      options:
        - label: bid {n}
          for: n in range(3)
          do: [{set: {bid: n}}]
  - end: "{bid[0]} {bid[1]}"
""",
    )
    state = engine.new_state(2, 1)
    assert state.current_player() == 0 and [state.action_label(a) for a in state.legal_actions()][-1] == "bid 2"
    state.do((0, 2))
    assert state.current_player() == 1
    assert state.observation(1)[-1][-2] == ("committed", None)  # seat 1 knows seat 0 has bid, not what
    assert state.observation(0)[-1][-2] == ((0, 2), None)
    dealt = {state.determinize(1, CounterRng(seed)).decision[7].choices[0] for seed in range(12)}
    assert len(dealt) > 1  # for a search, seat 0's sealed bid is dealt again at random
    state.do((0, 1))
    assert state.ending == "2 1"


def test_a_window_asks_each_player_with_an_answer_and_answers_resolve_first(tmp_path: Path) -> None:
    rules = HEAD.replace("  gold: {each: player, min: 0}", "  gold: {each: player, min: 0}\n  log: {start: \"''\"}")
    engine = make(
        tmp_path,
        rules
        + """setup:
  - move: cards('cards')
    to: deck
  - draw: deck
    to: hand[1]
round:
  - window:
      players: "[1, 2]"
      options:
        - label: answer with {card.name}
          for: card in hand[responder]
          do: [{set: {log: "log + 'answer '"}}]
      then: [{set: {log: "log + 'item'"}}]
  - end: "{log}"
""",
    )
    state = engine.new_state(3, 1)
    assert state.current_player() == 1  # seat 2 has no card to answer with: never asked
    assert [state.action_label(a) for a in state.legal_actions()] == ["answer with Crown", "pass"]
    state.do(state.legal_actions()[0])
    assert state.ending == "answer item"
    passed = engine.new_state(3, 1)
    passed.do(passed.legal_actions()[-1])
    assert passed.ending == "item"


def test_a_dice_battle_is_played_through_the_solvers_chain_and_odds_are_exact(tmp_path: Path) -> None:
    engine = make(
        tmp_path,
        HEAD.replace("  discard: {}", "  discard: {}\n  a: {}\n  b: {}\n  lost: {}").replace(
            "  gold: {each: player, min: 0}", "  gold: {each: player, min: 0}\n  chance: {}\n  duel: {start: none}"
        )
        + """battles:
  clash: {dice: 2, hits: 1}
  duel: {compare: x.power}
setup:
  - move: "cards('cards')[0]"
    to: a
  - move: "cards('cards')[9]"
    to: b
  - set: {chance: "odds('clash', a, b)"}
round:
  - battle: clash
    attackers: a
    defenders: b
    losses: lost
    as: outcome
  - end: "{outcome}"
""",
    )
    # one die each, hitting on 1 of 2, both firing at once: attacker 1/3, defender 1/3, both 1/3
    state = engine.new_state(2, 1)
    assert abs(state.values[engine.families["chance"].base] - 1 / 3) < 1e-12
    outcomes = [engine.new_state(2, seed).ending for seed in range(300)]
    for outcome in ("attacker", "defender", "both"):
        assert 70 < outcomes.count(outcome) < 130, outcomes.count(outcome)
    rounds = [e for e in engine.new_state(2, 5).chance.events if e[0] == "battle"]
    assert rounds and rounds[-1][1] in ([[1], [0]], [[0], [1]], [[0], [0]])
    lost = engine.families["lost"].base
    assert all(len(s.zones[lost]) == {"attacker": 1, "defender": 1, "both": 2}[s.ending]
               for s in (engine.new_state(2, seed) for seed in range(20)))  # fmt: skip
    compared = make(
        tmp_path / "compare",
        (HEAD + "setup: []\nround: []\n")
        .replace(
            "round: []",
            """round:
  - move: "cards('cards')[0]"
    to: a
  - move: "cards('cards')[9]"
    to: b
  - battle: duel
    attackers: a
    defenders: b
    losses: lost
    as: outcome
  - end: "{outcome} {count(lost)}"
""",
        )
        .replace("  discard: {}", "  discard: {}\n  a: {}\n  b: {}\n  lost: {}")
        + "battles:\n  duel: {compare: x.power}\n",
    )
    assert compared.new_state(2, 1).ending == "defender 1"  # a Coin (1) attacks the Crown (5): the Coin is lost


def test_the_game_ends_by_its_conditions_and_scores_by_score_and_tie_breaks(tmp_path: Path) -> None:
    engine = make(
        tmp_path,
        BASE
        + """turn:
  - add: {gold: "player + 1"}
end:
  - {when: "gold >= target", ending: "seat {player} reached {target}"}
score: gold
tiebreak: ["-player"]
""",
    )
    state = walk(engine.new_state(3, 1))
    assert state.ending == "seat 2 reached 8" and state.returns() == [0.0, 0.0, 1.0]
    tied = make(tmp_path / "tie", BASE + "turn:\n  - end: over\nscore: 1\ndraws: DRAWS\n".replace("DRAWS", "split"))
    assert tied.final_scores(walk(tied.new_state(2, 1))) == [0.5, 0.5]
    shared = make(tmp_path / "shared", BASE + "turn:\n  - end: over\nscore: 1\ndraws: shared\n")
    assert shared.final_scores(walk(shared.new_state(2, 1))) == [1.0, 1.0]
    capped = make(tmp_path / "cap", BASE + "turn_cap: 6\nturn:\n  - add: {gold: player}\nscore: gold\n")
    state = walk(capped.new_state(2, 1))
    assert state.ending == capped.ADJUDICATED and capped.final_scores(state) == [0.0, 1.0]  # judged by the score


def test_effects_run_their_verbs_with_triggers_and_amounts(tmp_path: Path) -> None:
    engine = make(
        tmp_path,
        BASE
        + """turn:
  - draw: deck
    trigger: draw
  - effects: hand
  - end: done
""",
    )
    state = engine.new_state(2, 11)
    drawn = state.zones[engine.families["hand"].base][0]
    name = engine.cards.item[drawn]
    expected = {"coin": 1, "gem": 2 + 1, "crown": 0}[name]  # a gem gains 1 when drawn, then 2
    assert state.values[engine.families["gold"].base] == expected
    assert engine.abilities() == ["coin", "gem"] and (name == "crown" or name in state.applied)


def test_a_statement_no_verb_reads_is_a_located_data_problem_and_the_card_plays_without_it(tmp_path: Path) -> None:
    engine = make(tmp_path, BASE + "turn:\n  - end: done\n", cards=CARDS.replace('"gain 1"', '"gian 1"'))
    (problem,) = engine.data_problems()
    assert problem.startswith("card_data/tiny/cards.yaml:4: coin.effect: effect 'gian 1' cannot be executed") or (
        "cards.yaml:4: coin.effect: effect 'gian 1' cannot be executed (unknown verb 'gian')" in problem
    )


def test_the_invariants_catch_a_card_in_two_zones_a_value_below_its_minimum_and_a_full_zone(tmp_path: Path) -> None:
    engine = make(tmp_path, BASE.replace("  hand: {each: player, visible: owner}",
                                         "  hand: {each: player, visible: owner, limit: 1}")
                  + "invariants:\n  - {check: \"gold < 5\", message: \"seat {player} is rich\", each: player}\n"
                  "turn:\n  - draw: deck\n    count: 2\n  - end: done\n")  # fmt: skip
    state = engine.new_state(2, 1)
    assert state.invariant_violations() == ["hand[0] holds 2 cards, more than 1"]
    card = state.zones[engine.families["hand"].base][0]
    state.zones[engine.families["discard"].base].append(card)
    state.values[engine.families["gold"].base + 1] = -1
    state.values[engine.families["gold"].base] = 7
    found = state.invariant_violations()
    assert f"card {engine.cards.item[card]} #{card} lies in discard but is recorded elsewhere" in found
    assert f"card {engine.cards.item[card]} #{card} is in 2 zones, not exactly one" in found
    assert "gold[1] is -1, below its minimum 0" in found and "seat 0 is rich" in found


def test_a_determinization_keeps_what_the_player_sees_and_deals_the_rest(tmp_path: Path) -> None:
    engine = make(tmp_path, BASE.replace("  hand: {each: player, visible: owner}",
                                         "  hand: {each: player, visible: owner, accepts: \"card.cost < 5\"}")
                  + "turn:\n  - draw: deck\n    count: 3\n  - choose: {from: hand, as: c, single: ask}\n"
                  "  - move: c\n    to: discard\n")  # fmt: skip
    state = engine.new_state(2, 4)
    state.do(state.legal_actions()[0])
    hands = engine.families["hand"].base
    others = set()
    for seed in range(20):
        copy = state.determinize(1, CounterRng(seed))
        assert copy.observation(1) == state.observation(1) and copy.invariant_violations() == []
        assert copy.zones[hands + 1] == state.zones[hands + 1]  # the player's own hand stays
        assert all(engine.cards.fields["cost"][c] < 5 for c in copy.zones[hands])  # what a hand may hold
        others.add(tuple(copy.zones[hands]))
    assert len(others) > 1  # the other hand is dealt again


def test_a_described_game_logs_replays_and_a_tampered_log_is_caught(tmp_path: Path) -> None:
    data = fixture_data("star-merchants", tmp_path)
    spec = PlaySpec("star-merchants", str(data), 3, 5, ("random", "greedy"), log=True)
    results = play_many(spec, 3)
    log = tmp_path / "games.jsonl"
    write_log(log, results)
    assert [ok for _, ok, _ in replay(log, data)] == [True, True, True]
    lines = log.read_text().splitlines()
    lines[3] = (
        lines[3].replace('"action":0', '"action":1', 1)
        if '"action":0' in lines[3]
        else lines[3].replace('"action":', '"action":0,"x":', 1)
    )
    log.write_text("\n".join(lines) + "\n")
    assert next(ok for _, ok, _ in replay(log, data)) is False


# -- Star Merchants: written only from the guide -----------------------------------------------------------------------


def test_star_merchants_plays_with_every_invariant_checked_at_every_player_count() -> None:
    for players in (2, 3, 4):
        spec = PlaySpec("star-merchants", str(DESCRIBED), players, 1, ("random",), check=True)
        results = play_many(spec, 15)
        assert [v for r in results for v in r.violations] == []
        assert all(r.ending in ("a player reached 20 VP", "the trade deck ran out", "turn cap (adjudicated)")
                   for r in results)  # fmt: skip
        assert not any(r.problems for r in results)


def test_star_merchants_greedy_weighs_the_evaluation_and_beats_random() -> None:
    spec = PlaySpec("star-merchants", str(DESCRIBED), 2, 3, ("greedy", "random"), rotate=True)
    wins = sum(r.scores[r.agents.index("greedy")] for r in play_many(spec, 12))
    assert wins >= 10


def test_the_search_agent_plays_a_described_game(tmp_path: Path) -> None:
    engine = make(
        tmp_path,
        BASE
        + """turn:
  - draw: deck
  - choose:
      options:
        - label: keep {card.name}
          for: card in hand
          if: card.power > 1
          do: [{add: {gold: card.power}}, {move: card, to: discard}]
        - pass: pass
end:
  - {when: "gold >= target", ending: "a player reached {target}"}
  - {when: not deck, ending: the deck ran out}
score: gold
evaluate: {gold: 1}
""",
    )
    from cardgen.engine.agents import make_agent

    state = engine.new_state(2, 1)
    agents = [make_agent("mcts:30", engine, 0, 1), make_agent("greedy", engine, 1, 1)]
    while not state.is_terminal():
        state.do(agents[state.current_player()].choose(state, state.legal_actions()))
    assert state.ending in ("a player reached 8", "the deck ran out") and state.invariant_violations() == []


def test_the_rules_reference_page_is_what_the_code_says() -> None:
    from cardgen.engine.described.reference import PAGE, page

    from conftest import run_cli

    written = (Path(__file__).parent.parent / PAGE).read_text(encoding="utf-8")
    assert written == page(), "docs/rules-reference.md is stale: run python -m cardgen.reference"
    run = run_cli("rules-reference")
    assert run.code == 0 and run.out == written
    for kind in ("`choose:`", "`battle:`", "`window:`", "`fill:`", "`odds('kind', attackers, defenders)`"):
        assert kind in written


# -- boards ---------------------------------------------------------------------------------------------------------


def test_a_grid_board_knows_its_neighbours_and_distances(tmp_path: Path) -> None:
    rules = BASE.replace("  gold: {each: player, min: 0}", "  gold: {each: player, min: 0}\n  seen: {start: none}")
    engine = make(
        tmp_path,
        rules
        + """boards:
  map: {grid: {columns: 3, rows: 2}}
  ring: {links: [[1, 2], [0, 2], [0, 1]]}
round:
  - set: {seen: "[map[4], distance(map, 0, 5), ring[2]]"}
  - end: done
""",
    )
    state = engine.new_state(2, 1)
    assert state.values[engine.families["seen"].base] == [(1, 3, 5), 3, (0, 1)]


def test_a_rules_file_with_a_python_engine_beside_it_is_played_from_the_file(tmp_path: Path) -> None:
    from described import twin_data

    from cardgen.engine.runner import engine_for

    assert type(engine_for("battlefield-space", str(twin_data("battlefield-space", tmp_path)))) is DescribedEngine
    assert type(engine_for("battlefield-space", str(DESCRIBED.parent.parent.parent / "card_data"))).__name__ != (
        "DescribedEngine"
    )


def test_seeds_give_the_same_games(tmp_path: Path) -> None:
    engine = make(tmp_path, BASE + "turn:\n  - draw: deck\n  - if: not deck\n    then: [{end: out}]\n")
    seed = derive_seed(1, 3)
    first, second = walk(engine.new_state(2, seed)), walk(engine.new_state(2, seed))
    assert first.chance.events == second.chance.events
    assert isinstance(first, DescribedState)


def test_a_failure_while_playing_is_located_at_its_line(tmp_path: Path) -> None:
    engine = make(tmp_path, BASE + 'turn:\n  - let: {third: "hand[5]"}\n')
    with pytest.raises(RulesFailure, match=r"engine.yaml:18: turn\[0\].let: while playing: hand\[5\]: out of range"):
        engine.new_state(2, 1)
