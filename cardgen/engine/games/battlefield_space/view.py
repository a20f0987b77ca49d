"""What the greedy agent weighs in Battlefield: Space: the visible column margins after a choice, never hidden cards
or the deck's order."""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from cardgen.engine.games.battlefield_space.force import column_total
from cardgen.engine.games.battlefield_space.model import COLUMNS, NO_CARD

if TYPE_CHECKING:
    from cardgen.engine.games.battlefield_space.state import BattlefieldState


def visible_margin(state: BattlefieldState, seat: int, action: int) -> float:
    """What `seat` expects from choosing `action`, judged only by what that player can see.

    Its own columns include its face-down reinforcements and the card being placed; the opponent's include only
    face-up cards plus, before the reveal, the average Force of a ship. A column won sends the enemy's Force to
    the Graveyard, a column lost sends one's own: the score is the expected Force destroyed minus Force lost,
    with a smooth chance of winning each column.
    """
    k = state.engine.cards
    decision = state.decision
    kind = decision[0] if decision else None
    mine = [list(col) for col in state.columns[seat]]
    for c in range(COLUMNS):
        if state.facedown[seat][c] != NO_CARD:
            mine[c].append(state.facedown[seat][c])
    if kind == "place":
        mine[action].append(state.hand[seat][-1])
    elif kind == "extra" and decision:
        mine[action].append(decision[2])
    bonus_mine: list[float] = list(state.bonus[seat])
    bonus_theirs: list[float] = list(state.bonus[1 - seat])
    if kind == "target" and decision:
        card = state.mods[seat][decision[2]].card
        if k.effect[card] == "column_force_plus":
            bonus_mine[action] += k.value[card]
        elif k.effect[card] == "opponent_column_force_minus":
            bonus_theirs[action] -= k.value[card]
        elif k.effect[card] == "win_ties":
            bonus_mine[action] += 0.5
    pending = state.step <= 3  # before the flip, every column still gets an unseen enemy reinforcement
    expected = state.engine.mean_force if pending else 0.0
    theirs = [state.total(1 - seat, c) - state.bonus[1 - seat][c] + bonus_theirs[c] + expected for c in range(COLUMNS)]
    at_stake = [sum(k.force[x] for x in state.columns[1 - seat][c]) + expected for c in range(COLUMNS)]

    def score(columns: list[list[int]]) -> float:
        total = 0.0
        for c in range(COLUMNS):
            margin = column_total(k, columns, c) + bonus_mine[c] - theirs[c]
            chance = 1.0 / (1.0 + math.exp(-margin / 1.5))
            total += chance * at_stake[c] - (1.0 - chance) * sum(k.force[x] for x in columns[c])
        return total

    if kind != "place" or len(state.hand[seat]) < 2:
        return score(mine)
    # the cards still to place after this one go where they do best: judge the whole placement, not one card
    rest = state.hand[seat][:-1]
    free = [c for c in range(COLUMNS) if state.facedown[seat][c] == NO_CARD and c != action]
    best = float("-inf")
    for spots in itertools.permutations(free, len(rest)):
        trial = [list(col) for col in mine]
        for card, c in zip(rest, spots, strict=True):
            trial[c].append(card)
        best = max(best, score(trial))
    return best
