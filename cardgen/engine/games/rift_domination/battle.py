"""Rift Domination's battle, exactly: the probability of every way a battle can end, and the same battle rolled.

The rules (rules.yaml facts, rulebook "Battle" and "Unit-skills"): a space battle is fought in phases at far, mid
and close range (`battle_phases`; a ground battle starts at mid); in each phase the attacker rolls first, one die per
weapon of every unit it has left (`hit_table`: what a weapon needs against a target at that range, a 1 always
misses), then the defender with what survived; each hit takes one shield, then one LP, off the unit the firing side
picks ("you decide which enemy ship gets one damage"). After the close phase the units stay in close combat: the
close phase repeats, with a chance to retreat before each repeat, until a side has nothing left. A ground battle's
defender fights with the planet outpost (`outpost`) and its battle buildings (`upgrades`: military base, artillery,
shield generator); the attacker's units in orbit bombard the buildings first.

Skills, as the recorded readings define them (`skills`): TAUNT (enemies must destroy it first), OVERLOAD (each unit
with it adds 4 shields once a battle), REPAIR RUSH (each unit with it negates up to 4 damage to its side's units in
one phase), REPAIR BLDG (each negates 1 damage to a building), KAMIKAZE (a unit destroyed rolls: on 3+ it deals 3
damage to one enemy ship), ROCKET BARRAGE (each unit with it rolls against up to 3 enemy fighters: 4+ destroys one),
DEFENSIVE RING (+2 LP and +2 shields in the home system), BOMBARDMENT I/II (1 or 2 damage to the LP of every
enemy building, none where a shield generator stands).

The choices the rules leave to players are made by stated policies (`POLICIES`, printed by `cardgen odds`): hits go
to a taunting unit, else to the enemy unit closest to destruction (fewest shields + LP left), the dearer on a tie;
overload's shields go to the side's dearest unit at the start; repairs are used the first time they can negate
something; barrages and bombardments fire at the start of the battle (attacker first); from the first repeat of the
close phase a side without buildings retreats when it expects under half the other side's hits.

A side's state is its units' (kind, shields, LP) and the repairs it has used; the battle is a Markov chain over the
pair of states, which the core's solver solves exactly as this module configures it: the opening and the fixed
phases carried forward, then the repeated close phase (the attacker's volley, then the defender's) as an absorbing
chain whose states are taken in order of damage left. `exact_odds` gives it to `dice.pairs` (a table of the two
sides' states, with arrays: `sides_of`); `chain_of` is the same chain for `dice.chain`, a position at a time (the
tests hold the two together). `fight` rolls one battle through the same phase functions, for the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

from cardgen.engine.dice import BattleReport, Chain, draw, solve, spread

ATTACKER, DEFENDER = 0, 1
RANGES = ("close", "mid", "far")
WEAPONS = ("close", "mid", "long")
BUILDINGS = ("outpost", "military_base", "artillery", "shield_generator")

POLICIES = (
    "targets: a taunting unit first, else the enemy unit with the fewest shields + LP left, the dearer on a tie",
    "overload: each unit with it gives its 4 shields to its side's dearest unit when the battle starts",
    "repairs: used the first time they negate damage (Repair Rush up to 4 in that phase, Repair Bldg 1 hit)",
    "barrage and bombardment: fired when the battle starts, the attacker's first",
    "kamikaze: the 3 damage go to the enemy unit the targeting policy picks",
)


@dataclass(frozen=True)
class Kind:
    """What a unit or building is in battle."""

    name: str
    cost: int
    lp: int
    shields: int
    weapons: tuple[int, int, int]  # dice at close, mid and long range
    skills: frozenset[str]
    building: bool = False
    ground: bool = False  # fights on planets (infantry, walkers); the rest fight in space

    def __reduce__(self) -> tuple[Any, ...]:
        """Unpickled by its constructor (compiled, `__new__` alone would ask for the fields: `hatch_build.py`)."""
        return Kind, (self.name, self.cost, self.lp, self.shields, self.weapons, self.skills, self.building,
                      self.ground)  # fmt: skip


Unit = tuple[int, int, int]  # (kind index, shields left, LP left)
Side = tuple[tuple[Unit, ...], int, int]  # (sorted units, Repair Rush uses, Repair Bldg uses)
Position = tuple[int, int]  # the two sides' numbers in `Battle.sides` (small integers hash fast)
MAX_LOST = 255  # more units than a volley can destroy at once (a strike code holds the kamikaze and the units lost)


@dataclass(frozen=True)
class Rules:
    """The battle facts of rules.yaml, read once."""

    hit: Mapping[str, Mapping[str, float]]  # weapon -> target range -> chance a die hits
    space_phases: tuple[str, ...]
    ground_phases: tuple[str, ...]
    skills: Mapping[str, Mapping[str, int]]
    die_faces: int

    @classmethod
    def from_facts(cls, fact: Callable[[str], Any]) -> Rules:
        faces, miss = int(fact("die_faces")), int(fact("always_miss"))
        table = fact("hit_table")
        hit = {w: {r: sum(1 for face in range(lo, hi + 1) if face != miss) / faces
                   for r, (lo, hi) in row.items()} for w, row in table.items()}  # fmt: skip
        phases = fact("battle_phases")
        ranges = set(RANGES)
        return cls(hit, tuple(p for p in phases["space"] if p in ranges),
                   tuple(p for p in phases["ground"] if p in ranges), fact("skills"), faces)  # fmt: skip

    def chance(self, roll_at_least: int) -> float:
        return (self.die_faces - roll_at_least + 1) / self.die_faces

    def __reduce__(self) -> tuple[Any, ...]:
        """Unpickled by its constructor, as `Kind` is."""
        return Rules, (self.hit, self.space_phases, self.ground_phases, self.skills, self.die_faces)


@dataclass
class Battle:
    """The kinds in a battle and the functions that move it on; positions index into `kinds`."""

    rules: Rules
    kinds: list[Kind]
    ground: bool = False
    retreat: bool = True
    can_retreat: tuple[bool, bool] = (True, True)
    # battle OCC-cards each side played (the engine's; the calculator plays none): 'first-strike' (the defender
    # fires first in the first phase), 'reroll-misses' and 'double-hit' (in the first phase), 'retreat-any-phase'
    cards: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    # faction effects (the engine's): `revenge` per side is (roll, damage) — each unit of the side destroyed rolls,
    # and on roll or higher deals the damage to the enemy unit the targeting policy picks; `buildings_first` per
    # side: in a ground battle that side's buildings fire before the attacker in every phase
    revenge: tuple[tuple[int, int] | None, tuple[int, int] | None] = (None, None)
    buildings_first: tuple[bool, bool] = (False, False)
    _memo: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False)  # results of the pure steps below
    _taken: dict[tuple[int, int, bool], tuple[int, int, int]] = field(default_factory=dict, repr=False)  # `take`'s
    _takes: dict[tuple[int, int, int], tuple[list[int], list[int]]] = field(default_factory=dict, repr=False)
    sides: list[Side] = field(default_factory=list, repr=False)  # every side state met, by number
    _numbers: dict[Side, int] = field(default_factory=dict, repr=False)
    empty: list[bool] = field(default_factory=list, repr=False)  # a side state with no unit left
    left: list[int] = field(default_factory=list, repr=False)  # shields + LP left in a side state
    used: list[int] = field(default_factory=list, repr=False)  # repairs used in a side state

    def number(self, side: Side) -> int:
        """A side state's number (each distinct state numbered once)."""
        found = self._numbers.get(side)
        if found is None:
            found = self._numbers[side] = len(self.sides)
            self.sides.append(side)
            self.empty.append(not side[0])
            self.left.append(sum(u[1] + u[2] for u in side[0]))
            self.used.append(side[1] + side[2])
        return found

    def over(self, position: Position) -> bool:
        return self.empty[position[0]] or self.empty[position[1]]

    def units(self, position: Position, side: int) -> tuple[Unit, ...]:
        return self.sides[position[side]][0]

    def _cached(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = compute()
        return found

    # -- picking and damaging -----------------------------------------------------------------------------------------

    def pick(self, units: Sequence[Unit]) -> int:
        """The unit the enemy hits next (the targeting policy)."""
        kinds = self.kinds
        taunting = [i for i, u in enumerate(units) if "taunt" in kinds[u[0]].skills]
        pool = taunting or range(len(units))
        return min(pool, key=lambda i: (units[i][1] + units[i][2], -kinds[units[i][0]].cost, units[i][0], i))

    def take(self, number: int, hits: int, single: bool = False) -> tuple[int, int, int]:
        """Side (by number) after `hits` damage assigned by the policy (all to one unit when `single`: a kamikaze's
        3), with the repairs it uses, how many of its kamikaze units and of all its units were destroyed."""
        key = (number, hits, single)
        found = self._taken.get(key)  # asked for every outcome of every volley: a memo of its own, no closure
        if found is None:
            found = self._taken[key] = self._take(number, hits, single)
        return found

    def _take(self, number: int, hits: int, single: bool) -> tuple[int, int, int]:
        *_, last = self._hits(number, hits, single, every=False)
        return last

    def takes(self, target: int, number: int, most: int) -> tuple[list[int], list[int]]:
        """`take` for 0 … `most` hits at once on side `target`'s state `number` (each number of hits is the one before
        and one more): the side states they leave and how they strike back, `strike_code`'s code (0: they do not)."""
        found = self._takes.get((target, number, most))
        if found is not None:
            return found
        side = self.sides[number]
        units, rush_used, bldg_used = side
        repairs = self._count(units, "repair_rush") > rush_used or self._count(units, "repair_bldg") > bldg_used
        if units and most and not repairs:  # no repair to carry between hits: the first hit, then the next state's
            first, kamikaze, lost = self.take(number, 1)
            code = self.strike_code(target, kamikaze, lost)
            rest, codes = self.takes(target, first, most)
            found = [number, *rest[:most]], [0, *(code + c for c in codes[:most])]
        else:
            found = [], []
            for after, kamikaze, lost in self._hits(number, most, False, every=True):
                found[0].append(after)
                found[1].append(self.strike_code(target, kamikaze, lost))
        self._takes[(target, number, most)] = found
        return found

    def strike_code(self, target: int, kamikaze: int, lost: int) -> int:
        """The units of side `target` that strike back as one number (0: none), `struck`'s from `decoded`."""
        lost = lost if self.revenge[target] is not None else 0
        return kamikaze * (MAX_LOST + 1) + lost if kamikaze or lost else 0

    def _hits(self, number: int, hits: int, single: bool, every: bool) -> Iterator[tuple[int, int, int]]:
        """`take`'s result after all the hits, or (`every`) after 0, 1, … of them."""
        side = self.sides[number]
        units, rush_used, bldg_used = list(side[0]), side[1], side[2]
        rush = max(0, self._count(units, "repair_rush") - rush_used)
        bldg = max(0, self._count(units, "repair_bldg") - bldg_used)
        negate_units = self.rules.skills["repair_rush"]["negate"] if rush > 0 else 0
        rushed = False  # a Repair Rush is used by the first damage it negates (not by a volley that hits nothing)
        negate_bldg = self.rules.skills["repair_bldg"]["negate"] * bldg
        kamikaze = lost = 0
        target = -1
        done = False  # no unit left, or a single strike's unit destroyed (the rest of its damage is lost)
        if every:
            yield self.number((tuple(sorted(units)), rush_used, bldg_used)), kamikaze, lost
        for _ in range(hits):
            done = done or not units
            if done and not every:
                break
            if not done:
                if target < 0 or not single:
                    target = self.pick(units)
                kind, shields, lp = units[target]
                if self.kinds[kind].building and negate_bldg:
                    negate_bldg -= 1
                    bldg_used += 1
                elif not self.kinds[kind].building and negate_units:
                    negate_units -= 1
                    rush_used += not rushed
                    rushed = True
                elif shields:
                    units[target] = (kind, shields - 1, lp)
                elif lp > 1:
                    units[target] = (kind, shields, lp - 1)
                else:
                    kamikaze += "kamikaze" in self.kinds[kind].skills
                    lost += not self.kinds[kind].building
                    del units[target]
                    done = single
            if every:
                yield self.number((tuple(sorted(units)), rush_used, bldg_used)), kamikaze, lost
        if not every:
            yield self.number((tuple(sorted(units)), rush_used, bldg_used)), kamikaze, lost

    def _count(self, units: Sequence[Unit], skill: str) -> int:
        return sum(1 for u in units if skill in self.kinds[u[0]].skills)

    def damage(self, position: Position, target: int, hits: int, single: bool = False) -> dict[Position, float]:
        """The positions after `hits` damage to side `target`, each kamikaze it loses (and, with `revenge`, each unit
        it loses) striking back on a roll."""
        side, kamikaze, lost = self.take(position[target], hits, single)
        return self.struck(_set(position, target, side), target, kamikaze, lost)

    def struck(self, after: Position, target: int, kamikaze: int, lost: int) -> dict[Position, float]:
        """The positions that side `target`'s units lost in `after` lead to, striking back: `kamikaze` of its
        kamikaze units and, with its `revenge`, all `lost` of its units, each on a roll."""
        strikes = []  # (units that strike back, chance each does, its damage)
        if kamikaze:
            spec = self.rules.skills["kamikaze"]
            strikes.append((kamikaze, self.rules.chance(spec["roll"]), spec["damage"]))
        revenge = self.revenge[target]
        if lost and revenge is not None:
            strikes.append((lost, self.rules.chance(revenge[0]), revenge[1]))
        dist = {after: 1.0}
        for count, p, harm in strikes:
            out: dict[Position, float] = {}
            for hit in range(count + 1):
                weight = comb(count, hit) * p**hit * (1 - p) ** (count - hit)
                step = dist
                strike = functools.partial(self.damage, target=1 - target, hits=harm, single=True)
                for _ in range(hit):  # each strike: its damage to one enemy unit, which may strike back in turn
                    step = spread(step, strike)
                for pos, q in step.items():
                    out[pos] = out.get(pos, 0.0) + weight * q
            dist = out
        return dist

    # -- volleys and phases -------------------------------------------------------------------------------------------

    def volley(self, units: tuple[Unit, ...], at: str, reroll: bool = False) -> list[float]:
        """The distribution of hits a side's units score at a range: dice per weapon, one chance per weapon type
        (`reroll`: every miss rolled once more)."""
        found: list[float] = self._cached(("volley", units, at, reroll), lambda: self._volley(units, at, reroll))
        return found

    def _volley(self, units: tuple[Unit, ...], at: str, reroll: bool) -> list[float]:
        dice = tuple(sum(self.kinds[u[0]].weapons[w] for u in units) for w in range(len(WEAPONS)))
        found: list[float] = self._cached(("dice", dice, at, reroll), lambda: self._rolled(dice, at, reroll))
        return found

    def _rolled(self, dice: tuple[int, ...], at: str, reroll: bool) -> list[float]:
        """The distribution of hits of so many dice per weapon type at a range."""
        dist = [1.0]
        for w, weapon in enumerate(WEAPONS):
            p = self.rules.hit[weapon][at]
            p = 1 - (1 - p) ** 2 if reroll else p
            for _ in range(dice[w]):
                nxt = [0.0] * (len(dist) + 1)
                for k, q in enumerate(dist):
                    nxt[k] += q * (1 - p)
                    nxt[k + 1] += q * p
                dist = nxt
        return dist

    def fire(
        self, position: Position, shooter: int, at: str, first: bool = False, part: str = "all"
    ) -> dict[Position, float]:
        """The positions after one side's volley at a range (`first`: the battle's first phase, where its cards
        act; `part`: "buildings" or "units" fire alone)."""
        cards = self.cards[shooter] if first else frozenset()
        found: dict[Position, float] = self._cached(("fire", position, shooter, at, cards, part),
                                                    lambda: self._fire(position, shooter, at, cards, part))  # fmt: skip
        return found

    def _fire(
        self, position: Position, shooter: int, at: str, cards: frozenset[str], part: str
    ) -> dict[Position, float]:
        units = self.units(position, shooter)
        if part != "all":
            units = tuple(u for u in units if self.kinds[u[0]].building == (part == "buildings"))
        if self.over(position):
            return {position: 1.0}
        out: dict[Position, float] = {}
        target = 1 - shooter
        plain = self.revenge[target] is None  # no strike back but a kamikaze's: `damage` is one position then
        double = "double-hit" in cards
        for hits, p in enumerate(self.volley(units, at, "reroll-misses" in cards)):
            if p == 0.0:
                continue
            hits += 1 if hits and double else 0  # one hit deals 2 damage
            if plain:
                side, kamikaze, _ = self.take(position[target], hits)
                if not kamikaze:  # `damage`'s {after: 1.0}: p * 1.0 is p, so the sums are the same
                    pos = _set(position, target, side)
                    out[pos] = out.get(pos, 0.0) + p
                    continue
            for pos, q in self.damage(position, target, hits).items():
                out[pos] = out.get(pos, 0.0) + p * q
        return out

    def phase(self, position: Position, at: str, first: bool = False) -> dict[Position, float]:
        """One phase at a range: the attacker's volley, then the defender's with what it has left (the defender first
        in the battle's first phase when it played 'first-strike'; a defender's buildings first on the ground with
        `buildings_first`)."""
        if self.ground and self.buildings_first[DEFENDER]:
            dist = self.fire(position, DEFENDER, at, first, part="buildings")
            dist = spread(dist, lambda pos: self.fire(pos, ATTACKER, at, first))
            return spread(dist, lambda pos: self.fire(pos, DEFENDER, at, first, part="units"))
        order = (DEFENDER, ATTACKER) if first and "first-strike" in self.cards[DEFENDER] else (ATTACKER, DEFENDER)
        return spread(self.fire(position, order[0], at, first), lambda pos: self.fire(pos, order[1], at, first))

    def opening(self, position: Position) -> dict[Position, float]:
        """What happens as the battle starts: bombardment (ground), rocket barrages (space), attacker first."""
        dist = {position: 1.0}
        if self.ground:
            return dist
        for shooter in (ATTACKER, DEFENDER):
            dist = spread(dist, functools.partial(self._barrage, shooter=shooter))
        return dist

    def _barrage(self, position: Position, shooter: int) -> dict[Position, float]:
        spec = self.rules.skills["rocket_barrage"]
        launchers = self._count(self.units(position, shooter), "rocket_barrage")
        enemy = self.units(position, 1 - shooter)
        spent = self.sides[position[1 - shooter]]
        fighters = [i for i, u in enumerate(enemy) if self.kinds[u[0]].name == "fighter"]
        shots = min(len(fighters), launchers * spec["targets"])
        if not shots:
            return {position: 1.0}
        p = self.rules.chance(spec["roll"])
        out: dict[Position, float] = {}
        for killed in range(shots + 1):
            left = list(enemy)
            for i in sorted(fighters[:killed], reverse=True):
                del left[i]
            side = self.number((tuple(left), spent[1], spent[2]))
            pos = _set(position, 1 - shooter, side)
            out[pos] = out.get(pos, 0.0) + comb(shots, killed) * p**killed * (1 - p) ** (shots - killed)
        return out

    def expected_hits(self, position: Position, shooter: int, at: str = "close") -> float:
        return sum(k * p for k, p in enumerate(self.volley(self.units(position, shooter), at)))

    def leaver(self, position: Position, early: bool = False) -> int | None:
        """The side the retreat policy takes out before a repeat of the close phase (attacker considered first);
        `early`: after an earlier phase, where only a side that played 'retreat-any-phase' may go."""
        if not self.retreat:
            return None
        hits = (self.expected_hits(position, ATTACKER), self.expected_hits(position, DEFENDER))
        for s in (ATTACKER, DEFENDER):
            if early and "retreat-any-phase" not in self.cards[s]:
                continue
            walls = any(self.kinds[u[0]].building for u in self.units(position, s))  # buildings never retreat
            if self.can_retreat[s] and not walls and hits[s] < 0.5 * hits[1 - s]:
                return s
        return None

    @property
    def phases(self) -> tuple[str, ...]:
        return self.rules.ground_phases if self.ground else self.rules.space_phases


def _set(position: Position, side: int, value: int) -> Position:
    return (value, position[1]) if side == ATTACKER else (position[0], value)


def muster(battle: Battle, fleets: Sequence[Sequence[int]], orbit: Sequence[Sequence[int]] = ((), ()),
           home: bool = False) -> Position:  # fmt: skip
    """The starting position: each side's fighting units (kind indices) at full strength, Defensive Ring in the
    defender's home system, each Overload's shields on its side's dearest unit, then (on the ground) the attacker's
    orbiting bombers' damage to the LP of every defending building unless a shield generator stands, less the
    defender's Repair Bldg."""
    kinds, skills = battle.kinds, battle.rules.skills
    sides: list[Side] = []
    for s, fleet in enumerate(fleets):
        units = []
        for k in fleet:
            kind = kinds[k]
            ring = home and s == DEFENDER and "defensive_ring" in kind.skills
            units.append((k, kind.shields + (skills["defensive_ring"]["shields"] if ring else 0),
                          kind.lp + (skills["defensive_ring"]["lp"] if ring else 0)))  # fmt: skip
        overloads = sum(1 for k in fleet if "overload" in kinds[k].skills)
        if overloads and units:
            dearest = max(range(len(units)), key=lambda i: (kinds[units[i][0]].cost, -i))
            k, sh, lp = units[dearest]
            units[dearest] = (k, sh + overloads * skills["overload"]["shields"], lp)
        sides.append((tuple(sorted(units)), 0, 0))
    if battle.ground:
        sides[DEFENDER] = _bombard(battle, sides[DEFENDER], orbit)
    return battle.number(sides[0]), battle.number(sides[1])


def shield_up(battle: Battle, position: Position, side: int, amount: int) -> Position:
    """The position with `amount` more shields on a side's dearest unit (Emergency Shields)."""
    units, rush, bldg = battle.sides[position[side]]
    if not units:
        return position
    dearest = max(range(len(units)), key=lambda i: (battle.kinds[units[i][0]].cost, -i))
    k, sh, lp = units[dearest]
    changed = tuple(sorted((*units[:dearest], (k, sh + amount, lp), *units[dearest + 1 :])))
    return _set(position, side, battle.number((changed, rush, bldg)))


def shields_each(battle: Battle, position: Position, side: int, amount: int) -> Position:
    """The position with `amount` more shields on each unit (not building) of a side that prints a shield."""
    units, rush, bldg = battle.sides[position[side]]
    kinds = battle.kinds
    changed = tuple(sorted((k, sh + amount if kinds[k].shields and not kinds[k].building else sh, lp)
                           for k, sh, lp in units))  # fmt: skip
    return _set(position, side, battle.number((changed, rush, bldg)))


def _bombard(battle: Battle, side: Side, orbit: Sequence[Sequence[int]]) -> Side:
    kinds, skills = battle.kinds, battle.rules.skills
    units = list(side[0])
    if any(kinds[u[0]].name == "shield_generator" for u in units):
        return side  # 'Bombardment is useless against shielded Planets'
    damage = sum(skills[name]["damage"] for k in orbit[ATTACKER] for name in ("bombardment", "bombardment_ii")
                 if name in kinds[k].skills)  # fmt: skip
    repairs = sum(skills["repair_bldg"]["negate"] for k in orbit[DEFENDER] if "repair_bldg" in kinds[k].skills)
    used = 0
    if not damage:
        return side
    for i in sorted((i for i, u in enumerate(units) if kinds[u[0]].building),
                    key=lambda i: -kinds[units[i][0]].cost):  # fmt: skip
        k, sh, lp = units[i]
        saved = min(repairs - used, damage)
        used += saved
        units[i] = (k, sh, lp - (damage - saved))
    left = tuple(sorted(u for u in units if u[2] > 0))
    return left, side[1], side[2]  # orbiting repairers act on the bombardment only


# -- the exact odds ---------------------------------------------------------------------------------------------------


def exact_odds(battle: Battle, start: Position) -> BattleReport:
    """Every outcome's probability, from the core's chain (`cardgen.engine.dice`): the opening, then the fixed phases
    carried forward, then the repeated close phase (the attacker's volley, the defender's) solved as an absorbing
    chain in order of damage left, a retreat decided at each repeat's start."""
    from cardgen.engine.dice import pairs  # numpy: the calculator's alone

    if any(battle.buildings_first) or any(battle.cards):
        ending = solve(chain_of(battle), battle.opening(start))
    else:
        ending = pairs.solve(sides_of(battle), battle.opening(start))
    return _summarise(battle, start, ending.ends, ending.length, ending.states)


def sides_of(battle: Battle) -> Any:
    """The battle as the core's table of side states sees it (`exact_odds`; `chain_of` is the same chain a position
    at a time): each side's volleys and the states hits leave it in, its retreats from the same policy."""
    import numpy as np

    from cardgen.engine.dice.pairs import Sides

    spec = battle.rules.skills["kamikaze"]
    found: dict[int, tuple[float, bool]] = {}

    def landing(code: int) -> list[tuple[int, float]] | None:
        kamikaze, lost = divmod(code, MAX_LOST + 1)
        if lost:  # revenge's strikes: `struck` asked
            return None
        p = battle.rules.chance(spec["roll"])
        return [(hit, comb(kamikaze, hit) * p**hit * (1 - p) ** (kamikaze - hit)) for hit in range(kamikaze + 1)]

    def facts(number: int) -> tuple[float, bool]:  # expected hits at close range, and whether buildings stand
        if number not in found:
            units = battle.sides[number][0]
            hits = sum(k * p for k, p in enumerate(battle.volley(units, "close")))
            found[number] = (hits, any(battle.kinds[u[0]].building for u in units))
        return found[number]

    def leaving(attackers: np.ndarray, defenders: np.ndarray) -> np.ndarray:
        going = np.full(len(attackers), -1)
        if not battle.retreat:
            return going
        a, d = (
            np.array([facts(n) for n in numbers.tolist()]).reshape(-1, 2)[which]
            for numbers, which in (np.unique(side, return_inverse=True) for side in (attackers, defenders))
        )
        for side, own, other in ((ATTACKER, a, d), (DEFENDER, d, a)):  # the attacker considered first
            if battle.can_retreat[side]:
                leaves = (going < 0) & (own[:, 1] == 0) & (own[:, 0] < 0.5 * other[:, 0])
                going[leaves] = side
        return going

    return Sides(
        shots=lambda number, at: battle.volley(battle.sides[number][0], at),
        takes=battle.takes,
        strike=lambda after, target, code: battle.struck(after, target, *divmod(code, MAX_LOST + 1)),
        struck=lambda number: battle.take(number, spec["damage"], True)[0],
        landing=landing,
        left=lambda number: battle.left[number],
        used=lambda number: battle.used[number],
        empty=lambda number: battle.empty[number],
        leaving=leaving,
        phases=battle.phases,
        round_at="close",
        strikes_back=lambda side, number: (
            battle.revenge[side] is not None
            or any("kamikaze" in battle.kinds[u[0]].skills for u in battle.sides[number][0])
        ),
    )


def chain_of(battle: Battle) -> Chain[Position]:
    """The battle as the core's chain sees it (`exact_odds`)."""
    if any(battle.buildings_first):
        raise ValueError("the exact odds take the attacker and the defender in turn; buildings firing first is rolled")
    return Chain(
        round=(functools.partial(battle.fire, shooter=ATTACKER, at="close"),
               functools.partial(battle.fire, shooter=DEFENDER, at="close")),
        over=battle.over,
        outcome=functools.partial(_ending, battle),
        order=lambda pos: (-battle.left[pos[0]] - battle.left[pos[1]], battle.used[pos[0]] + battle.used[pos[1]]),
        # each phase as its two volleys (`Battle.phase` without cards: the attacker's, then the defender's)
        phases=tuple((functools.partial(battle.fire, shooter=ATTACKER, at=at),
                      functools.partial(battle.fire, shooter=DEFENDER, at=at)) for at in battle.phases),
        leaves=functools.partial(_retreat, battle),
    )  # fmt: skip


def _ending(battle: Battle, pos: Position) -> str:
    a, d = not battle.empty[pos[0]], not battle.empty[pos[1]]
    return "attacker wins" if a else "defender wins" if d else "mutual destruction"


def _retreat(battle: Battle, pos: Position) -> str | None:
    going = battle.leaver(pos)
    return None if going is None else "attacker retreats" if going == ATTACKER else "defender retreats"


def _summarise(battle: Battle, start: Position, terminal: Mapping[tuple[Position, str], float], phases: float,
               states: int) -> BattleReport:  # fmt: skip
    outcomes = dict.fromkeys(("attacker wins", "defender wins", "attacker retreats", "defender retreats",
                              "mutual destruction"), 0.0)  # fmt: skip
    survivors: list[dict[str, float]] = [{}, {}]
    lost = [0.0, 0.0]
    worth = [sum(battle.kinds[u[0]].cost for u in battle.units(start, s)) for s in (0, 1)]
    seen: dict[int, tuple[str, int]] = {}  # a side state's units left, as said, and their cost (many ends share one)
    for (pos, how), p in terminal.items():
        outcomes[how] += p
        for s in (0, 1):
            if (found := seen.get(pos[s])) is None:
                units = battle.sides[pos[s]][0]
                found = seen[pos[s]] = describe(battle.kinds, units), sum(battle.kinds[u[0]].cost for u in units)
            left, cost = found
            survivors[s][left] = survivors[s].get(left, 0.0) + p
            lost[s] += p * (worth[s] - cost)
    retreat = ("retreat: from the first repeat of the close phase a side without buildings leaves when it expects "
               "under half the other side's hits")  # fmt: skip
    policies = [*POLICIES, retreat if battle.retreat else "retreat: none"]
    ordered = [dict(sorted(d.items(), key=lambda kv: -kv[1])) for d in survivors]
    return BattleReport(outcomes, ordered, lost, phases, states, policies, "resources", "phases")


def describe(kinds: Sequence[Kind], units: Sequence[Unit]) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[kinds[u[0]].name] = counts.get(kinds[u[0]].name, 0) + 1
    return ", ".join(f"{n} {name}" for name, n in counts.items()) or "none"


# -- one battle rolled (the engine's) ---------------------------------------------------------------------------------


def fight(battle: Battle, start: Position, rng: Any, max_phases: int = 10_000) -> tuple[str, Position]:
    """One battle through the same phase functions, each step's outcome drawn with `rng.random()`."""
    if not any(sum(battle.kinds[u[0]].weapons) for s in (0, 1) for u in battle.units(start, s)):
        raise ValueError("a battle in which no unit has a weapon")
    pos = draw(battle.opening(start), rng)
    for index, at in enumerate(battle.phases):
        if battle.over(pos):
            break
        if index and (going := battle.leaver(pos, early=True)) is not None:
            return ("attacker retreats" if going == ATTACKER else "defender retreats"), pos
        pos = draw(battle.phase(pos, at, first=index == 0), rng)
    for _ in range(max_phases):
        if battle.over(pos):
            return _ending(battle, pos), pos
        if (retreat := _retreat(battle, pos)) is not None:
            return retreat, pos
        pos = draw(battle.phase(pos, "close"), rng)
    raise RuntimeError(f"a battle that did not end in {max_phases} phases")
