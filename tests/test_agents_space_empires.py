"""Space Empires 4X's greedy agent plays to end games by the rules: its warships go round what may destroy them where
a way exists, move as a fleet (a ship well ahead of the rest waits for them), and take an enemy Homeworld the fleet on
the spot can take rather than raid a colony beside it. Hand-built positions on the helpers of the engine's tests."""

from __future__ import annotations

import pytest
from test_engine_space_empires import RED, YELLOW, clear, fresh, place, show

from cardgen.engine.agents import GreedyAgent
from cardgen.engine.boards import costed_distances, distances_from
from cardgen.engine.games.space_empires_4x import view
from cardgen.engine.games.space_empires_4x.model import Move


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    from test_engine_space_empires import DATA, SE4XEngine, load_games

    (game,) = load_games(DATA, ["space-empires-4x"])
    return SE4XEngine.from_game(game)


def test_the_cheapest_way_goes_round_a_costly_node():
    """0–1–2–3 straight, or 0–4–5–3 round; entering 1 costs 10: from 0 the way round (3) is cheaper."""
    neighbours = [[1, 4], [0, 2], [1, 3], [2, 5], [0, 5], [4, 3]]
    cost = [1.0, 10.0, 1.0, 1.0, 1.0, 1.0]
    assert costed_distances(neighbours, [3], cost) == [3.0, 2.0, 1.0, 0.0, 2.0, 1.0]
    assert distances_from(neighbours, [3]) == [3, 2, 1, 0, 2, 1]  # steps alone: both ways alike
    assert costed_distances(neighbours, [], cost) == [10_000.0] * 6


def open_way(s, start: int, target: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Clear the markers off the hexes round `start`, so that only the test's hazards count."""
    for h in [start, *s.adj[start]]:
        if h != target and s.marker_at[h] >= 0:
            show(s, h, None)
    return s.adj[start]


def test_a_fleet_goes_round_known_black_holes(engine):
    """Every hex one step closer to the enemy Homeworld is a Black Hole: counting steps alone, every move looked worse
    than staying, and the fleet stayed for good; it now takes the way round."""
    s = clear(fresh(engine))
    steps = distances_from(s.adj, [s.home[YELLOW]])
    start = next(h for h in range(len(s.on)) if s.on[h] and steps[h] == 6 and any(s.on[n] and steps[n] == 6 for n in
                 s.adj[h]))  # fmt: skip
    for h in open_way(s, start, s.home[YELLOW]):
        if steps[h] == 5:
            show(s, h, "black-hole")
    fleet = [place(s, RED, "DD", start, 3) for _ in range(3)]  # 36 attack: enough to head for the enemy
    choice = GreedyAgent(engine, RED, 1).choose(s, s.legal_actions())
    assert isinstance(choice, Move) and choice.uid in {u.uid for u in fleet}
    assert s.kind_for(RED, choice.to) != "black-hole"


def test_a_warship_well_ahead_of_its_fleet_waits_for_it(engine):
    """A warship well ahead of its fleet is worth less there than the ships behind, and less than ending its move:
    once it was worth a little more, and crept on a hex a turn until it met the enemy alone."""
    s = clear(fresh(engine))
    steps = distances_from(s.adj, [s.home[YELLOW]])
    rear = next(h for h in range(len(s.on)) if s.on[h] and steps[h] == 9)
    lead = next(h for h in range(len(s.on)) if s.on[h] and steps[h] == 4)
    open_way(s, rear, s.home[YELLOW])
    open_way(s, lead, s.home[YELLOW])
    ahead = place(s, RED, "DD", lead, 3)
    behind = [place(s, RED, "DD", rear, 3) for _ in range(3)]

    def best(unit) -> float:  # type: ignore[no-untyped-def]
        return max(view.action_value(s, a, RED) for a in s.legal_actions() if isinstance(a, Move) and a.uid == unit.uid)

    assert best(ahead) < best(behind[0])
    stay = next(a for a in s.legal_actions() if a.tag == "end-move")
    assert best(ahead) < view.action_value(s, stay, RED)  # it waits: a hex on crept ahead of the rest, turn by turn


def test_a_fleet_that_can_take_the_enemy_homeworld_goes_there_before_a_colony(engine):
    s = clear(fresh(engine))
    home = s.home[YELLOW]
    beside = [h for h in s.adj[home] if s.on[h]]
    start, colony = beside[0], next(h for h in s.adj[beside[0]] if s.on[h] and h != home and h in beside)
    show(s, start, None)
    show(s, colony, "planet")
    s.col_owner[colony], s.col_cp[colony] = YELLOW, 3  # undefended
    place(s, YELLOW, "DD", home)
    fleet = [place(s, RED, "CA", start, 3) for _ in range(3)]
    greedy = GreedyAgent(engine, RED, 1)
    choice = greedy.choose(s, s.legal_actions())
    assert choice == Move(fleet[0].uid, home) or (isinstance(choice, Move) and choice.to == home)
    assert view.ASSAULT > 0


def test_a_warship_under_way_finishes_its_move_before_another_starts(engine):
    """Movement: 'You must complete one unit's movement before moving another unit' — moving a second group ends the
    first one's move. Two equal groups were worth the same, greedy picked between them at random, and a group allowed
    two hexes often went one; the group already moving now carries on first."""
    s = clear(fresh(engine))
    steps = distances_from(s.adj, [s.home[YELLOW]])
    start = next(h for h in range(len(s.on)) if s.on[h] and steps[h] == 8)
    open_way(s, start, s.home[YELLOW])
    fleet = [place(s, RED, "DD", start, 3) for _ in range(3)]  # 36 attack: enough to head for the enemy
    for u in fleet:
        u.move = 4  # Movement Technology Level 4: two hexes every turn
    first = next(h for h in s.adj[start] if steps[h] == 7)
    for h in s.adj[first]:  # the second hex on from the first clear too
        if h != s.home[YELLOW] and s.marker_at[h] >= 0:
            show(s, h, None)
    s.apply(Move(fleet[0].uid, first))
    moves = [a for a in s.legal_actions() if isinstance(a, Move)]
    assert any(a.uid == fleet[0].uid for a in moves), "the moving group has a hex of its allowance left"

    def best(unit) -> float:  # type: ignore[no-untyped-def]
        return max(view.action_value(s, a, RED) for a in moves if a.uid == unit.uid)

    assert best(fleet[0]) > best(fleet[1]) + 0.5  # not a tie settled by a rounding error
    choice = GreedyAgent(engine, RED, 1).choose(s, s.legal_actions())
    assert isinstance(choice, Move) and choice.uid == fleet[0].uid


def test_a_warship_bombarding_a_colony_stays_rather_than_hop_to_the_next(engine):
    """Colonies and Combat: each of a player's ships fires once at an enemy colony it shares a hex with, every turn it
    stays (and the colony is in Blockade meanwhile). A raid was worth its whole value on entering, so ships hopped
    from one colony to the next and back, each arrival scoring anew; staying on is now worth as much as moving to
    the next colony, and a move no closer to the enemy Homeworld is worth less than ending the move."""
    s = clear(fresh(engine))
    steps = distances_from(s.adj, [s.home[YELLOW]])
    start = next(h for h in range(len(s.on)) if s.on[h] and steps[h] == 5)
    open_way(s, start, s.home[YELLOW])
    beside = next(h for h in s.adj[start] if s.on[h] and steps[h] == 6)
    for h in (start, beside):
        s.col_owner[h], s.col_cp[h] = YELLOW, 3  # undefended colonies
    fleet = [place(s, RED, "CA", start, 3) for _ in range(3)]  # 36 attack: enough to head for the enemy
    hop = Move(fleet[0].uid, beside)
    assert hop in s.legal_actions()
    stay = next(a for a in s.legal_actions() if a.tag == "end-move")
    assert view.action_value(s, hop, RED) < view.action_value(s, stay, RED)


def test_the_search_searches_the_moves_that_bring_a_unit_beside_an_enemy(engine):
    """The search decides the moves that may start a battle or lead to one: onto an enemy or beside it (a Destroyer
    two hexes from an enemy Scout can end beside it); a unit far from every enemy moves as greedy moves it."""
    s = clear(fresh(engine))
    start = s.home[RED]
    ring = set(s.adj[start])
    beyond = next(h for n in ring for h in s.adj[n] if h != start and h not in ring and s.on[h])
    place(s, RED, "DD", start)
    place(s, YELLOW, "SC", beyond)
    assert not s.enemies_at(start, RED) and beyond not in ring  # no move of the Destroyer reaches the Scout itself
    assert s.searched()
    far = clear(fresh(engine))
    place(far, RED, "DD", far.home[RED])
    place(far, YELLOW, "SC", far.home[YELLOW])
    assert not far.searched()
