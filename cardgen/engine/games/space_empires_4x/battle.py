"""A Space Empires 4X battle in the engine, shot by shot, with every choice the rules give the players.

Rulebook, Combat: at the start of each round the side with more combat ships may screen ships up to the difference
(`Screen`, then `OpenFire`; a screened ship neither fires nor is fired upon this round); the fleet-size bonus is
counted at the round's start, screened ships included (the reading in rules.yaml). Then groups fire in class order
(`combat.firing_order`), each ship at the enemy group its owner chooses (`Fire`; a shot at a group hits the ship of
it that is already damaged: 'Ships in a group may only be targeted one at a time'). From the second round a group may
retreat instead of firing, at its own turn to fire (`Retreat` to any legal hex; the group leaves whole, screened
ships too — the reading in rules.yaml). A choice with one option is taken at once, so a battle between two single
groups with nowhere to go asks nothing. Non-combat units of a side left without combat ships are destroyed.

The calculator's policies (`combat.py`, `cardgen odds`) are the default choices (`default`), which the greedy agent
plays: no screening, targets by `Side.target`'s order, and a group retreats at its turn when its whole side could
and expects under half the enemy's hits. Each shot draws one `randbelow` from the game's stream in the order
`combat.fight` does, so a battle played by the defaults without retreat is `combat.fight`'s battle, roll for roll.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardgen.engine.core import Action
from cardgen.engine.games.space_empires_4x import movement
from cardgen.engine.games.space_empires_4x.combat import ATTACKER, Group, firing_order, retreats, to_hit
from cardgen.engine.games.space_empires_4x.model import Fire, OpenFire, Retreat, Screen

if TYPE_CHECKING:
    from cardgen.engine.games.space_empires_4x.model import Unit
    from cardgen.engine.games.space_empires_4x.state import SE4XState


@dataclass
class Fighter:
    """One group in the battle: its combat figures and the damage on each of its ships, in the line or screened."""

    uid: int
    side: int
    group: Group
    active: list[int]  # damage on each ship in the line this round
    screened: list[int] = field(default_factory=list)
    gone: bool = False  # retreated

    def ships(self) -> int:
        return 0 if self.gone else len(self.active) + len(self.screened)

    def copy(self) -> Fighter:
        return Fighter(self.uid, self.side, self.group, list(self.active), list(self.screened), self.gone)

    def key(self) -> tuple[object, ...]:
        return self.uid, self.side, tuple(self.active), tuple(self.screened), self.gone


@dataclass
class Fight:
    """The battle under way at hex `at` between `players` (attacker, defender)."""

    at: int
    players: tuple[int, int]
    terrain: str
    fighters: list[Fighter]  # the attacker's groups, then the defender's, as listed
    round: int = 0
    screener: int = -1  # the side choosing screens now (-1: the round's fire is under way)
    screen_left: int = 0
    order: list[int] = field(default_factory=list)  # fighter indices in this round's firing order
    slot: int = 0  # the place in `order` whose turn it is
    shots: int = 0  # shots the group at `slot` still has (0: its turn has not begun)
    fired: int = 0  # shots it has fired this turn (it may retreat only before the first)
    bonus: tuple[bool, bool] = (False, False)

    def copy(self) -> Fight:
        return Fight(self.at, self.players, self.terrain, [f.copy() for f in self.fighters], self.round, self.screener,
                     self.screen_left, list(self.order), self.slot, self.shots, self.fired, self.bonus)  # fmt: skip

    def key(self) -> tuple[object, ...]:
        return (self.at, self.players, self.round, self.screener, self.screen_left, tuple(self.order), self.slot,
                self.shots, self.fired, self.bonus, tuple(f.key() for f in self.fighters))  # fmt: skip

    def side_ships(self, side: int) -> int:
        return sum(f.ships() for f in self.fighters if f.side == side)

    def targets(self, side: int) -> list[Fighter]:
        """The enemy groups `side` can fire at: those with a ship in the line."""
        return [f for f in self.fighters if f.side != side and f.active and not f.gone]

    def deciding(self) -> int:
        """The side whose choice is due."""
        return self.screener if self.screener >= 0 else self.fighters[self.order[self.slot]].side


def begin(state: SE4XState, player: int, other: int, h: int, attackers: list[Unit], defenders: list[Unit]) -> None:
    """Start the battle at h between p's and q's combat units, and play it until a choice is due or it ends."""
    attackers, defenders = [state.own(u) for u in attackers], [state.own(u) for u in defenders]
    for u in [*attackers, *defenders]:
        u.seen = True  # revealed in combat
    fighters = [Fighter(u.uid, side, group(state, u, True), [0] * u.count)
                for side, units in enumerate((attackers, defenders)) for u in units]  # fmt: skip
    state.fight = Fight(h, (player, other), state.terrain(h), fighters)
    _new_round(state)
    _ask(state)


def _ask(state: SE4XState) -> None:
    """Put the choice due to the side that makes it (none once the battle is over)."""
    fight = state.fight
    if fight is not None:
        state.ask("fight", fight.players[fight.deciding()])


def legal(state: SE4XState) -> list[Action]:
    """The choices open now: screens (one ship at a time) or opening fire; or the group's targets and retreats."""
    fight = state.fight
    assert fight is not None
    if fight.screener >= 0:
        screens: list[Action] = [Screen(f.uid, hits) for f in fight.fighters if f.side == fight.screener
                                 for hits in sorted(set(f.active))]  # fmt: skip
        return [*screens, OpenFire()]
    shooter = fight.fighters[fight.order[fight.slot]]
    out: list[Action] = [Fire(f.uid) for f in fight.targets(shooter.side)]
    if fight.fired == 0 and fight.round > 1 and shooter.group.retreats:
        out += [Retreat(t) for t in retreat_hexes(state, fight.players[shooter.side], fight.at)]
    return out


def act(state: SE4XState, action: Action) -> None:
    """Apply a legal battle choice, then play on until the next choice or the battle's end (`state.fight` is None
    then, and the state goes on to its next battle)."""
    fight = state.fight
    assert fight is not None
    if action.tag == "screen":
        fighter = _fighter(fight, action.uid)
        fighter.active.remove(action.hits)
        fighter.screened.append(action.hits)
        fight.screen_left -= 1
        if fight.screen_left == 0:
            _open_fire(state)
    elif action.tag == "open-fire":
        _open_fire(state)
    else:
        shooter = fight.fighters[fight.order[fight.slot]]
        if action.tag == "retreat":
            _retreat(state, shooter, action.to)
        else:
            _fire(state, shooter, _fighter(fight, action.target))
        _play_on(state)
    _ask(state)


def default(state: SE4XState) -> Action:
    """The calculator's policy as a choice (the greedy agent's): never screen; retreat at the group's turn when its
    whole side could and expects under half the enemy's hits (to the hex `retreat_hex` names); otherwise fire at the
    enemy ship closest to destruction, then the group firing earliest, the dearer, the first listed."""
    fight = state.fight
    assert fight is not None
    options = state.legal_actions()  # listed once per decision, as greedy asks for each action
    if fight.screener >= 0:
        return OpenFire()
    shooter = fight.fighters[fight.order[fight.slot]]
    side = shooter.side
    if any(o.tag == "retreat" for o in options) and _policy_retreats(state, side):
        to = retreat_hex(state, fight.players[side], fight.at)
        if to is not None:
            return Retreat(to)
    return Fire(_policy_target(fight, side).uid)


def _policy_target(fight: Fight, side: int) -> Fighter:
    """The enemy group the policy aims at: the ship closest to destruction, then the group that fires earliest this
    round, the dearer, the first listed (`Side.target`)."""
    rank = {index: place for place, index in enumerate(fight.order)}
    index = {id(f): i for i, f in enumerate(fight.fighters)}

    def closeness(f: Fighter) -> tuple[int, int, int, int]:
        i = index[id(f)]
        return f.group.hull - max(f.active), rank.get(i, len(fight.order)), -f.group.cost, i

    return min(fight.targets(side), key=closeness)


def _policy_retreats(state: SE4XState, side: int) -> bool:
    fight = state.fight
    assert fight is not None
    mine = [f for f in fight.fighters if f.side == side and f.ships()]
    if not all(f.group.retreats for f in mine):
        return False
    return retreats(_expected(state, side), _expected(state, 1 - side))


def _expected(state: SE4XState, side: int) -> int:
    """Hits `side` expects in a round against the enemy ship the policy would aim at, in die faces."""
    fight = state.fight
    assert fight is not None
    enemies = fight.targets(side)
    if not enemies:
        return 0
    target = _policy_target(fight, side).group
    return sum(len(f.active) * to_hit(state.engine.combat, f.group, target, fight.bonus[side], fight.terrain)
               for f in fight.fighters if f.side == side and not f.gone)  # fmt: skip


def _fighter(fight: Fight, uid: int) -> Fighter:
    return next(f for f in fight.fighters if f.uid == uid)


def _new_round(state: SE4XState) -> None:
    """Screened ships return to the line; the battle ends or a round starts: its bonuses, then screening or fire."""
    fight = state.fight
    assert fight is not None
    for f in fight.fighters:
        f.active += f.screened
        f.screened = []
    if _over(state):
        return
    fight.round += 1
    ships = (fight.side_ships(0), fight.side_ships(1))
    ratio = state.engine.combat.bonus_ratio
    fight.bonus = (ships[0] >= ratio * ships[1], ships[1] >= ratio * ships[0])
    if ships[0] != ships[1]:
        fight.screener = 0 if ships[0] > ships[1] else 1
        fight.screen_left = abs(ships[0] - ships[1])
        return
    _open_fire(state)


def _open_fire(state: SE4XState) -> None:
    fight = state.fight
    assert fight is not None
    fight.screener, fight.screen_left = -1, 0
    live = [i for i, f in enumerate(fight.fighters) if f.ships()]
    sides = [[fight.fighters[i].group for i in live if fight.fighters[i].side == s] for s in (0, 1)]
    by_side = [[i for i in live if fight.fighters[i].side == s] for s in (0, 1)]
    fight.order = [by_side[s][g] for s, g in firing_order(state.engine.combat, sides, fight.terrain)]
    fight.slot, fight.shots, fight.fired = 0, 0, 0
    _play_on(state)


def _play_on(state: SE4XState) -> None:
    """Fire every shot that has one choice; stop at the next real choice; end the round or the battle."""
    while (fight := state.fight) is not None and fight.screener < 0:
        if fight.slot == len(fight.order):
            _new_round(state)
            continue
        shooter = fight.fighters[fight.order[fight.slot]]
        if fight.shots == 0:  # the group's turn begins, with the ships it has in the line now
            if not shooter.active or shooter.gone or not fight.targets(shooter.side):
                fight.slot += 1
                continue
            fight.shots, fight.fired = len(shooter.active), 0
        options = legal(state)
        if not any(o.tag == "fire" for o in options):  # every target destroyed mid-turn (screened ships remain)
            fight.slot, fight.shots = fight.slot + 1, 0
            continue
        if len(options) > 1:
            return
        _fire(state, shooter, _fighter(fight, options[0].target))


def _fire(state: SE4XState, shooter: Fighter, target: Fighter) -> None:
    """One shot: a d10 at or under the to-hit number hits the target group's most damaged ship in the line."""
    fight = state.fight
    assert fight is not None
    rules = state.engine.combat
    need = to_hit(rules, shooter.group, target.group, fight.bonus[shooter.side], fight.terrain)
    roll = state.rng.randbelow(rules.die_faces)
    state.chance.record("shot", roll + 1)
    if roll < need:
        ship = max(range(len(target.active)), key=lambda i: (target.active[i], -i))
        target.active[ship] += 1
        if target.active[ship] == target.group.hull:
            target.active.pop(ship)
            unit = state.own(state.unit(target.uid))
            unit.count -= 1
            if unit.count == 0:
                state._remove(unit)
    fight.shots -= 1
    fight.fired += 1
    if fight.shots == 0:
        fight.slot += 1
    _over(state)


def _retreat(state: SE4XState, fighter: Fighter, to: int) -> None:
    """The group leaves the battle for hex `to`, screened ships too; a Black Hole there rolls as on any entry."""
    fight = state.fight
    assert fight is not None
    fighter.gone = True
    unit = state.own(state.unit(fighter.uid))
    unit.hex, unit.stopped = to, True
    state.events.add("retreat")
    if state.kind(to) == "black-hole":
        movement.survives_black_hole(state, unit)
    fight.slot, fight.shots = fight.slot + 1, 0
    _over(state)


def _over(state: SE4XState) -> bool:
    """End the battle when a side has no combat ship left in it: the outcome, and that side's non-combat units at
    the hex destroyed ('destroyed if caught alone or if all other Combat capable units are destroyed or retreat')."""
    fight = state.fight
    assert fight is not None
    out = [s for s in (0, 1) if not fight.side_ships(s)]
    if not out:
        return False
    side = out[0]
    fled = any(f.gone for f in fight.fighters if f.side == side)
    names = ("attacker", "defender")
    outcome = f"{names[side]} retreats" if fled else f"{names[1 - side]} wins"
    count = {u.uid: u.count for u in state.units}
    left = [[count.get(f.uid, 0) for f in fight.fighters if f.side == s] for s in (ATTACKER, 1 - ATTACKER)]
    state.chance.record("battle", [state.engine.hex_label[fight.at], outcome, left])
    state.fight = None
    for player in fight.players:
        here = [u for u in state.units_at(fight.at) if u.owner == player]
        if not any(state.armed(u) for u in here):
            for u in here:
                state._remove(u)
    return True


def group(state: SE4XState, unit: Unit, can_retreat: bool) -> Group:
    """A unit's combat figures for the calculator (`combat.Group`), at its technology levels (`SE4XState.level`)."""
    spec = state.spec(unit)
    return Group(unit.code, unit.count, spec.cls or "E", spec.attack, spec.defense, spec.hull, spec.cost,
                 can_retreat and unit.code not in state.engine.immobile, state.level(unit, "attack"),
                 state.level(unit, "defense"), state.level(unit, "tactics"))  # fmt: skip


def retreat_hexes(state: SE4XState, player: int, at: int) -> list[int]:
    """The hexes the player's ships may retreat to from hex `at`: adjacent, explored, no enemy units, no Supernova,
    and 'the same distance, or less, from one of its colonies' — any one colony, not only the nearest (Retreat; the
    rulebook's own warning that this allows 'seemingly counter-intuitive retreats'), in map order."""
    homes = state.colonies(player)
    dist = state.engine.distance
    out = []
    for t in state.adj[at]:
        if (state.marker_at[t] >= 0 and not state.revealed[t]) or state.kind(t) == "supernova":
            continue
        if any(u.owner != player for u in state.units_at(t)):
            continue
        if any(dist(t, c) <= dist(at, c) for c in homes):
            out.append(t)
    return sorted(out)


def retreat_hex(state: SE4XState, player: int, at: int) -> int | None:
    """The retreat the default policy takes: the legal hex nearest to one of the player's colonies, then the first
    on the map (None: retreat is not possible)."""
    homes = state.colonies(player)
    dist = state.engine.distance
    return min(retreat_hexes(state, player, at), key=lambda t: (min(dist(t, c) for c in homes), t), default=None)


def label(state: SE4XState, action: Action) -> str:
    """A battle's choice (`Screen`, `OpenFire`, `Fire`, `Retreat`) as `SE4XState.action_label` names it."""
    fight = state.fight
    assert fight is not None

    def name(uid: int) -> str:
        u = state.unit(uid)
        return f"{u.code}{u.group or ''} (#{uid})"

    if action.tag == "open-fire":
        return f"open fire (round {fight.round})"
    if action.tag == "screen":
        damage = {0: "", 1: " with 1 hit"}.get(action.hits, f" with {action.hits} hits")
        return f"screen a ship of {name(action.uid)}{damage}"
    shooter = name(fight.fighters[fight.order[fight.slot]].uid)
    if action.tag == "fire":
        return f"{shooter} fires at {name(action.target)}"
    return f"{shooter} retreats to {state.engine.hex_label[action.to]}"
