"""Space Empires 4X's battles around the fight: after a player's move (`act`), the hexes where it meets an enemy
(`battle_hexes`), fought in the order it chooses (`run`: 'the attacker decides the order in which battles occur'),
one enemy at a time in seat order (`engage`, the fight itself in `battle`), then the bombardment of the colony there
(`bombard`, `hit_colony`), and a player whose Homeworld falls out of the game (`lose`). Functions of the state,
called by `state.SE4XState` (the rules are described in its module docstring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.core import Action
from cardgen.engine.games.space_empires_4x import battle
from cardgen.engine.games.space_empires_4x.combat import Group, to_hit
from cardgen.engine.games.space_empires_4x.model import DEPOSITED, GONE, OVER

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.state import SE4XState

TAGS = frozenset({"end-move", "battle", "screen", "open-fire", "fire", "retreat"})  # the actions `act` applies


def act(state: SE4XState, player: int, action: Action) -> None:
    """Apply one of the player's battle actions (`TAGS`): the end of its move, the next battle, a battle's choice;
    then fight on (`run`)."""
    tag = action.tag
    if tag == "end-move":
        state.battles = tuple(battle_hexes(state, player))
    elif tag == "battle":
        state.battles = tuple(h for h in state.battles if h != action.at)
        begin_at(state, action.at)
    else:
        battle.act(state, action)
    run(state)


def battle_hexes(state: SE4XState, player: int) -> list[int]:
    """The hexes where the player's units share a hex with an enemy's units or colony after its move, in map
    order."""
    mine = {u.hex for u in state.units if u.owner == player}
    theirs = {u.hex for u in state.units if u.owner != player}  # found once: asked of every hex of the player's
    return [h for h in sorted(mine) if h in theirs or state.col_owner[h] not in (-1, player)]


def begin_at(state: SE4XState, at: int) -> None:
    """The battles at hex `at` come next: one enemy at a time, in seat order, then bombardment of the colony
    there."""
    state.at = at
    state.pending = tuple(sorted({u.owner for u in state.enemies_at(at, state.player)}))


def run(state: SE4XState) -> None:
    """Fight on after the mover's move until a choice is due — a battle's (`battle`), or which hex is next while
    two or more remain ('the attacker decides the order in which battles occur', `Battle`) — or until every
    battle is fought; then the next player's turn."""
    p = state.player
    while state.fight is None and state.phase != OVER:
        if state.pending:
            q, state.pending = state.pending[0], state.pending[1:]
            engage(state, p, q, state.at)
        elif state.at >= 0:
            h, state.at = state.at, -1
            q = state.col_owner[h]
            if q not in (-1, p):
                bombard(state, p, q, h)
        elif len(state.battles) == 1:
            h, state.battles = state.battles[0], ()
            begin_at(state, h)
        else:
            break
    if state.fight is not None:  # a battle's choice is asked
        return
    if state.phase == OVER:
        state.battles, state.at, state.pending = (), -1, ()
    elif state.battles:  # two or more left: 'the attacker decides the order in which battles occur'
        state.ask("order", p)
    else:
        state._next_player()


def engage(state: SE4XState, player: int, enemy: int, at: int) -> None:
    """The player's units attack the enemy's at hex `at`: Decoys go, a side without combat units loses its others at
    once, and otherwise the battle begins (`battle.begin`), asking its players whatever the rules let them choose."""
    mine = [u for u in state.units_at(at) if u.owner == player]
    theirs = [u for u in state.units_at(at) if u.owner == enemy]
    if not mine or not theirs:
        return
    for u in [*mine, *theirs]:
        if u.code == "Decoy":  # 'Any Decoy units are automatically destroyed at start of Combat'
            state._remove(u)
    a = [u for u in mine if state.armed(u)]
    d = [u for u in theirs if state.armed(u)]
    if not a or not d:
        loser = enemy if a else player
        for u in [x for x in state.units_at(at) if x.owner == loser and not state.armed(x)]:
            state._remove(u)
        return
    terrain = state.terrain(at)
    if terrain != "open":
        state.events.add(f"marker:{terrain}")
    state.events.add("battle")
    battle.begin(state, player, enemy, at, a, d)


def bombard(state: SE4XState, player: int, enemy: int, at: int) -> None:
    """With the enemy's ships gone, each of the player's ships fires once at the colony (attack + attack
    technology)."""
    shooters = [u for u in state.units_at(at) if u.owner == player and state.armed(u)]
    if not shooters or any(u.owner == enemy and state.armed(u) for u in state.units_at(at)):
        return
    terrain = state.terrain(at)
    target = Group("colony", 1, "E", 0, 0, 1, 0, False)  # no Defense Strength, no Defense Technology
    for u in shooters:
        need = to_hit(state.engine.combat, battle.group(state, u, False), target, False, terrain)
        for _ in range(u.count):
            roll = state.rng.randbelow(state.engine.die) + 1
            state.chance.record("bombard", [state.engine.hex_label[at], roll])
            if roll <= need:
                hit_colony(state, at)
                if state.col_owner[at] != enemy:
                    return


def hit_colony(state: SE4XState, at: int) -> None:
    """A hit on the colony at hex `at`: a Homeworld steps down (and falls at 0), another colony loses a step or,
    at its last, is destroyed with the Minerals deposited there."""
    q = state.col_owner[at]
    state.events.add("bombard")
    if at == state.home[q]:
        state.col_cp[at] -= state.engine.home_hit
        if state.col_cp[at] <= 0:
            lose(state, q, "its Homeworld was destroyed")
        return
    state.col_cp[at] -= state.engine.colony_hit
    if state.col_cp[at] <= 0:  # a Colony Ship just landed or a 1 CP colony is destroyed
        state.col_owner[at], state.col_cp[at] = -1, 0
        for m, (where, place) in enumerate(state.mloc):
            if where == DEPOSITED and place == at:  # 'If a Colony with Minerals is destroyed … also destroyed'
                state.mloc[m] = (GONE, 0)


def lose(state: SE4XState, player: int, why: str) -> None:
    """The player is out: its units and colonies leave the map, with the Minerals deposited at them; the last one
    standing wins."""
    state.eliminate(player, why)
    for u in [u for u in state.units if u.owner == player]:
        state._remove(u)
    for h in state.colonies(player):
        state.col_owner[h], state.col_cp[h] = -1, 0
    for m, (where, at) in enumerate(state.mloc):
        if where == DEPOSITED and state.col_owner[at] == -1:
            state.mloc[m] = (GONE, 0)
    alive = state.alive(state.n)
    if len(alive) <= 1:
        state.phase, state.ending = OVER, "last Homeworld standing"
