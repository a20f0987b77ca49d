"""What the greedy agent weighs in Star Commander, judged only from what the player can see.

Greedy looks one action ahead on a determinization of the state (face-down systems, the decks and the other hands
dealt again from what the player cannot tell apart), so an exploration or a draw is judged by what it could turn up,
never by the card the real game holds. The outlook values developments (income and what conquest takes), credits,
the fighting strength of ships and stations, cards in hand and technologies, pressure on the nearest enemy Homeworld
and what the opponents hold, with winning and losing above everything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.games.star_commander.model import Assign, Done, Phase
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def strength(state: StarState, player: int) -> float:
    return sum(state.attack(x) + 0.5 * state.hp(x) for x in state.pieces if x.owner == player)


def position(state: StarState, player: int) -> float:
    if player in state.out:
        return -100.0
    devs = state.developments(player)
    income = sum(state.system(c).credits + state.devs[c] for c, o in enumerate(state.owner) if o == player)
    homes = [state.home[q] for q in state.alive(state.n) if q != player]
    pressure = 0.0
    for x in state.pieces:
        spec = state.spec(x.card)
        if x.owner == player and spec.kind == "ship" and not spec.fighter and homes and spec.attack > 0:
            pressure -= 0.4 * min(state.distance(x.cell, h) for h in homes)
    home_devs = state.devs[state.home[player]]
    cards = 0.5 * len(state.hands[player]) + 1.2 * len(state.techs[player])
    return float(
        2.0 * devs
        + income
        + 0.4 * state.credits[player]
        + 0.6 * strength(state, player)
        + cards
        + pressure
        + 1.5 * home_devs
    )


def outlook(state: StarState, player: int) -> float:
    if state.phase == Phase.OVER:
        return 1000.0 * state.returns()[player]
    others = [q for q in state.alive(state.n) if q != player]
    mine = position(state, player)
    if not others:
        return mine
    return mine - sum(position(state, q) for q in others) / len(others)


def action_value(state: StarState, action: Any, player: int) -> float:
    if isinstance(action, Assign):  # fire at the piece it can destroy, else the strongest; holding fire is worst
        if action.target < 0:
            return -1.0
        target = state.piece(action.target)
        attacker = state.piece(action.attacker)
        assert target is not None and attacker is not None
        kills = target.damage + state.attack(attacker) > state.hp(target)
        return (10.0 if kills else 0.0) + state.attack(target) + state.spec(target.card).cost * 0.1
    trial = _determinized(state, player).clone()
    trial.do(action, chance=False)
    value = outlook(trial, player)
    if isinstance(action, Done) and state.decision and state.decision[0] == "command":
        value -= 0.01  # among equal outlooks, act before ending the phase
    return value


_last: list[Any] = [None, None]  # (legal list, determinization): greedy values every action of one state in a row


def _determinized(state: StarState, player: int) -> StarState:
    """One determinization per decision, seeded from the state (so games replay), shared by all its actions."""
    legal = state.legal_actions()  # a new list whenever the state changes: the key of this state's version
    if _last[0] is not legal:
        seed = (state.turns * 1_000_003 + len(state.chance.events) * 7919 + player) & ((1 << 63) - 1)
        _last[0], _last[1] = legal, state.determinize(player, CounterRng(seed))
    trial: StarState = _last[1]
    return trial
