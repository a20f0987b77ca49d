"""Space Empires 4X battle resolution: who fires when, at what, with which chance — and the exact odds of a battle.

The rules (rules.yaml facts, rulebook "Combat"): each round every ship fires once, in class order A to E (all ships
are class E in asteroids or a nebula, `terrain_class`); at equal class the higher Tactics level fires first, then the
defender. A shot hits on a d10 at or under attack + attack technology (+1 with the fleet-size bonus: at least twice
as many combat ships, `fleet_size_bonus`) − defence − defence technology; a 1 always hits (`automatic_hit`).
Technology levels count only up to the hull size (`hull_limits_technology`); asteroids zero attack technology, a
nebula defence technology. Hits accumulate on one ship of a group at a time; a ship whose hits reach its hull size
is destroyed. Fire is never simultaneous, so both sides can never be destroyed together.

The choices the rules leave to players are made by fixed policies (`cardgen odds` prints them; in the engine they are
players' choices, `battle.py`, and these policies are the defaults greedy plays):
- targets: every shot goes to the enemy ship closest to destruction (fewest hits left), ties to the group that fires
  earliest, then the dearer, then the first listed;
- screening: none;
- retreat (from the second round, `--no-retreat` turns it off): a side whose every combat ship can retreat leaves
  when its expected hits per round are less than half the other side's.

Because targets depend only on the target side's own state, a side's state is fixed by the number of hits it has
taken: the battle is a Markov chain over (hits on the attacker, hits on the defender, the shot due in the round) —
about 100,000 states for two full fleets of seven groups (0.4 s) — and `exact_odds` solves it exactly, pushing
probability forward in order of hits taken; a round in which nothing is hit returns to its own start, whose mass is
divided by the chance of leaving it. No fleet the counter mix allows is too big for it, so it never samples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardgen.engine.battle import BattleReport

ATTACKER, DEFENDER = 0, 1
TERRAINS = ("open", "asteroids", "nebula")
RETREAT_SHARE = Fraction(1, 2)  # the policy: a side leaves when it expects under this share of the enemy's hits


def retreats(mine: int, theirs: int) -> bool:
    """The retreat policy's test, exact: `mine` and `theirs` are expected hits per round in die faces (the sum of each
    ship's to-hit number; the common division by the die's faces cancels), so "under half" is compared in whole
    numbers — floating-point sums once made 0.4 + 0.2 exceed 0.6 and took a side out that should have stayed."""
    return mine * RETREAT_SHARE.denominator < theirs * RETREAT_SHARE.numerator


@dataclass(frozen=True)
class Group:
    """A group of identical ships on one side, with its owner's technology."""

    code: str
    count: int
    cls: str
    attack: int
    defense: int
    hull: int
    cost: int
    retreats: bool
    attack_tech: int = 0
    defense_tech: int = 0
    tactics: int = 0


@dataclass(frozen=True)
class Rules:
    """The combat facts of rules.yaml, read once."""

    classes: tuple[str, ...]
    terrain_class: str
    automatic_hit: int
    die_faces: int
    bonus_ratio: int
    bonus_attack: int
    hull_limits_technology: bool

    @classmethod
    def from_facts(cls, fact: Any) -> Rules:
        bonus = fact("fleet_size_bonus")
        return cls(tuple(fact("classes")), fact("terrain_class"), fact("automatic_hit"), fact("die_faces"),
                   bonus["ratio"], bonus["attack"], bool(fact("hull_limits_technology")))  # fmt: skip


class Side:
    """One side's groups in firing order, and its state as a function of the hits it has taken."""

    def __init__(self, groups: Sequence[Group], fires_at: Mapping[int, int]):
        self.groups = list(groups)
        self.fires_at = dict(fires_at)  # each group's place in the firing order
        self.total_hits = sum(g.count * g.hull for g in groups)
        self.states = [self._after(h) for h in range(self.total_hits + 1)]

    def _after(self, hits: int) -> tuple[tuple[int, int], ...]:
        """(ships left, hits on the current ship) per group after `hits` hits under the targeting policy."""
        state = [(g.count, 0) for g in self.groups]
        for _ in range(hits):
            i = self.target(state)
            count, damage = state[i]
            damage += 1
            state[i] = (count - 1, 0) if damage == self.groups[i].hull else (count, damage)
        return tuple(state)

    def target(self, state: Sequence[tuple[int, int]]) -> int:
        """The policy: the ship closest to destruction, then the group that fires earliest, the dearer, the first."""
        alive = [i for i, (count, _) in enumerate(state) if count]
        return min(alive, key=lambda i: (self.groups[i].hull - state[i][1], self.fires_at[i], -self.groups[i].cost, i))

    def target_at(self, hits: int) -> Group:
        return self.groups[self.target(self.states[hits])]

    def ships(self, hits: int) -> int:
        return sum(count for count, _ in self.states[hits])


def to_hit(rules: Rules, shooter: Group, target: Group, bonus: bool, terrain: str) -> int:
    """The number a shot must roll at or under (never below the automatic hit)."""
    attack_tech = 0 if terrain == "asteroids" else shooter.attack_tech
    defense_tech = 0 if terrain == "nebula" else target.defense_tech
    if rules.hull_limits_technology:
        attack_tech, defense_tech = min(attack_tech, shooter.hull), min(defense_tech, target.hull)
    number = shooter.attack + attack_tech + (rules.bonus_attack if bonus else 0) - target.defense - defense_tech
    return max(rules.automatic_hit, min(rules.die_faces, number))


def firing_order(rules: Rules, sides: Sequence[Sequence[Group]], terrain: str) -> list[tuple[int, int]]:
    """(side, group) in the order they fire: class, then higher Tactics, then the defender, then as listed."""

    def cls(g: Group) -> int:
        return rules.classes.index(rules.terrain_class if terrain != "open" else g.cls)

    slots = [(s, i) for s, groups in enumerate(sides) for i, g in enumerate(groups)]
    return sorted(slots, key=lambda si: (cls(sides[si[0]][si[1]]), -sides[si[0]][si[1]].tactics, -si[0], si[1]))


def exact_odds(rules: Rules, attacker: Sequence[Group], defender: Sequence[Group], terrain: str = "open",
               retreat: bool = True) -> BattleReport:  # fmt: skip
    """The battle as a Markov chain over (hits on the attacker, hits on the defender, the shot due this round, the
    round's fleet-size bonuses), solved exactly by pushing probability mass forward in order of hits taken. A round in
    which nothing is hit returns to its own start: that mass is divided by the chance of leaving, once per state."""
    if terrain not in TERRAINS:
        raise ValueError(f"unknown terrain '{terrain}' (terrains: {', '.join(TERRAINS)})")
    groups = [list(attacker), list(defender)]
    order = firing_order(rules, groups, terrain)
    rank = {slot: n for n, slot in enumerate(order)}
    sides = [Side(groups[s], {i: rank[(s, i)] for i in range(len(groups[s]))}) for s in (0, 1)]
    full = (sides[0].total_hits, sides[1].total_hits)
    ships = [[sides[s].ships(h) for h in range(full[s] + 1)] for s in (0, 1)]
    # the chance of each slot's shot hitting, by the round's bonus and the enemy's hits (its target follows from them)
    chance: list[dict[bool, list[float]]] = []
    for side, index in order:
        enemy = 1 - side
        shooter = groups[side][index]
        chance.append({
            bonus: [to_hit(rules, shooter, sides[enemy].target_at(h), bonus, terrain) / rules.die_faces
                    if h < full[enemy] else 0.0 for h in range(full[enemy] + 1)]
            for bonus in (False, True)
        })  # fmt: skip
    alive = [[sides[side].states[h][index][0] for h in range(full[side] + 1)] for side, index in order]
    slots = len(order)

    def bonuses(ha: int, hd: int) -> tuple[bool, bool]:
        a, d = ships[0][ha], ships[1][hd]
        return a >= rules.bonus_ratio * d, d >= rules.bonus_ratio * a

    expected_at: dict[tuple[int, int], tuple[int, int]] = {}

    def leaver(ha: int, hd: int) -> int | None:
        """The side the retreat policy takes out of the battle at this round's start (rounds after the first)."""
        if not retreat:
            return None
        if (ha, hd) not in expected_at:
            b = bonuses(ha, hd)
            expected_at[ha, hd] = (_expected_hits(rules, groups, sides, (ha, hd), 0, b, terrain),
                                   _expected_hits(rules, groups, sides, (ha, hd), 1, b, terrain))  # fmt: skip
        hits = expected_at[ha, hd]
        for s, h in ((ATTACKER, ha), (DEFENDER, hd)):
            left = [g for g, (count, _) in zip(groups[s], sides[s].states[h], strict=True) if count]
            if left and all(g.retreats for g in left) and retreats(hits[s], hits[1 - s]):
                return s
        return None

    # mid[(ha, hd)] = {(slot, fired, bonus): mass} still to carry through the rest of its round
    mid: dict[tuple[int, int], dict[tuple[int, int, tuple[bool, bool]], float]] = {}
    starts: dict[tuple[int, int], float] = {}  # mass at the start of a round (after the first) at these hits
    terminal: dict[tuple[tuple[int, int], str], float] = {}
    rounds = 1.0
    visited = 0

    def carry(ha: int, hd: int, items: dict[tuple[int, int, tuple[bool, bool]], float], own_round: bool) -> None:
        """Push masses through the rest of their rounds at hits (ha, hd): a hit moves the mass on to the next hits'
        `mid`; a round that ends here adds to `starts` (or, for the state's own round, was already divided out)."""
        nonlocal visited
        h = (ha, hd)
        queue = sorted(items.items(), key=lambda kv: (kv[0][0], kv[0][1]))
        pending: dict[tuple[int, int, tuple[bool, bool]], float] = {}
        for key, mass in queue:
            pending[key] = pending.get(key, 0.0) + mass
        while pending:
            key = min(pending, key=lambda k: (k[0], k[1]))
            mass = pending.pop(key)
            slot, fired, bonus = key
            visited += 1
            if ships[0][ha] == 0 or ships[1][hd] == 0 or slot == slots:
                if ships[0][ha] == 0 or ships[1][hd] == 0:
                    winner = "defender wins" if ships[0][ha] == 0 else "attacker wins"
                    terminal[(h, winner)] = terminal.get((h, winner), 0.0) + mass
                elif not own_round:
                    starts[h] = starts.get(h, 0.0) + mass
                continue
            side, _ = order[slot]
            if fired >= alive[slot][h[side]]:
                nxt = (slot + 1, 0, bonus)
                pending[nxt] = pending.get(nxt, 0.0) + mass
                continue
            p = chance[slot][bonus[side]][h[1 - side]]
            after = (slot, fired + 1, bonus)
            hit = (ha + 1, hd) if side == DEFENDER else (ha, hd + 1)
            if p:
                target = mid.setdefault(hit, {})
                target[after] = target.get(after, 0.0) + mass * p
            if p < 1:
                pending[after] = pending.get(after, 0.0) + mass * (1 - p)

    def no_hit_round(ha: int, hd: int, bonus: tuple[bool, bool]) -> float:
        q = 1.0
        for slot, (side, _) in enumerate(order):
            q *= (1 - chance[slot][bonus[side]][(ha, hd)[1 - side]]) ** alive[slot][(ha, hd)[side]]
        return q

    carry(0, 0, {(0, 0, bonuses(0, 0)): 1.0}, own_round=False)  # the first round: no retreat yet
    while mid or starts:
        ha, hd = min({*mid, *starts}, key=lambda k: (k[0] + k[1], k))
        carry(ha, hd, mid.pop((ha, hd), {}), own_round=False)
        mass = starts.pop((ha, hd), 0.0)
        if not mass:
            continue
        going = leaver(ha, hd)
        if going is not None:
            key = ((ha, hd), "attacker retreats" if going == ATTACKER else "defender retreats")
            terminal[key] = terminal.get(key, 0.0) + mass
            continue
        bonus = bonuses(ha, hd)
        stay = no_hit_round(ha, hd, bonus)
        if stay >= 1.0:
            raise ValueError("a battle in which no shot can ever hit")  # cannot happen: a 1 always hits
        mass /= 1.0 - stay  # every return of the mass to this start, summed
        rounds += mass
        carry(ha, hd, {(0, 0, bonus): mass}, own_round=True)
    return _summarise(groups, sides, terminal, rounds, visited, retreat)


def _expected_hits(rules: Rules, groups: list[list[Group]], sides: list[Side], h: tuple[int, int], s: int,
                   bonus: tuple[bool, bool], terrain: str) -> int:  # fmt: skip
    """Hits side s expects to score in a round against the enemy's current target, in die faces (the retreat
    policy's measure: see `retreats`)."""
    enemy = 1 - s
    state = sides[enemy].states[h[enemy]]
    if not any(count for count, _ in state):
        return 0
    target = sides[enemy].target_at(h[enemy])
    return sum(count * to_hit(rules, g, target, bonus[s], terrain)
               for g, (count, _) in zip(groups[s], sides[s].states[h[s]], strict=True))  # fmt: skip


def _summarise(groups: list[list[Group]], sides: list[Side], terminal: dict[tuple[tuple[int, int], str], float],
               rounds: float, states: int, retreat: bool) -> BattleReport:  # fmt: skip
    outcomes = {"attacker wins": 0.0, "defender wins": 0.0, "attacker retreats": 0.0, "defender retreats": 0.0,
                "mutual destruction": 0.0}  # fmt: skip
    survivors: list[dict[str, float]] = [{}, {}]
    lost = [0.0, 0.0]
    for (h, how), p in terminal.items():
        outcomes[how] += p
        for s in (0, 1):
            state = sides[s].states[h[s]]
            left = ", ".join(f"{count} {g.code}" for g, (count, _) in zip(groups[s], state, strict=True) if count)
            survivors[s][left or "none"] = survivors[s].get(left or "none", 0.0) + p
            lost[s] += p * sum((g.count - count) * g.cost for g, (count, _) in zip(groups[s], state, strict=True))
    policies = [
        "targets: the enemy ship closest to destruction, then the group firing earliest, the dearer, the first listed",
        "screening: none",
        "retreat: from round 2 a side whose ships can all retreat leaves when it expects under half the enemy's hits, "
        "whole and at the round's start, before any shot (not each ship in its turn to fire)"
        if retreat else "retreat: none (--no-retreat)",
        "mutual destruction: impossible (fire is never simultaneous)",
    ]  # fmt: skip
    ordered = [dict(sorted(d.items(), key=lambda kv: -kv[1])) for d in survivors]
    return BattleReport(outcomes, ordered, lost, rounds, states, policies, "CP", "rounds")


def closed_form_scout_duel() -> Fraction:
    """One Scout against one Scout (to-hit 3 on a d10), the defender first: p / (1 − (1 − p)²) = 10/17."""
    p = Fraction(3, 10)
    return p / (1 - (1 - p) ** 2)


def fight(rules: Rules, attacker: Sequence[Group], defender: Sequence[Group], terrain: str, retreat: bool,
          rng: Any) -> tuple[str, list[list[int]]]:  # fmt: skip
    """One battle rolled shot by shot on explicit ships (`rng.randbelow(n)` gives 0…n−1), under the same policies as
    `exact_odds`: its outcome and each group's ships left. Written apart from the calculator's hits-taken chain, so
    each checks the other; and the engine's battle (`battle.py`) played by its default choices with retreat
    impossible is this one, roll for roll (a test holds the three together)."""
    groups = [list(attacker), list(defender)]
    order = firing_order(rules, groups, terrain)
    rank = {slot: n for n, slot in enumerate(order)}
    sides = [Side(groups[s], {i: rank[(s, i)] for i in range(len(groups[s]))}) for s in (0, 1)]
    state = [[[g.count, 0] for g in groups[s]] for s in (0, 1)]

    def ships(s: int) -> int:
        return sum(count for count, _ in state[s])

    def expected(s: int, bonus: bool) -> int:
        target = groups[1 - s][sides[1 - s].target([(c, d) for c, d in state[1 - s]])]
        return sum(c * to_hit(rules, g, target, bonus, terrain) for g, (c, _) in zip(groups[s], state[s], strict=True))

    for round_number in range(1, 100_000):
        a, d = ships(0), ships(1)
        bonus = (a >= rules.bonus_ratio * d, d >= rules.bonus_ratio * a)
        if retreat and round_number > 1:
            hits = (expected(0, bonus[0]), expected(1, bonus[1]))
            for s in (ATTACKER, DEFENDER):
                alive = [g for g, (c, _) in zip(groups[s], state[s], strict=True) if c]
                if alive and all(g.retreats for g in alive) and retreats(hits[s], hits[1 - s]):
                    return ("attacker retreats" if s == ATTACKER else "defender retreats"), _left(state)
        for side, index in order:
            for _ in range(state[side][index][0]):
                enemy = 1 - side
                if ships(enemy) == 0:
                    break
                i = sides[enemy].target([(c, dmg) for c, dmg in state[enemy]])
                if rng.randbelow(rules.die_faces) < to_hit(rules, groups[side][index], groups[enemy][i], bonus[side],
                                                           terrain):  # fmt: skip
                    state[enemy][i][1] += 1
                    if state[enemy][i][1] == groups[enemy][i].hull:
                        state[enemy][i] = [state[enemy][i][0] - 1, 0]
        if ships(0) == 0:
            return "defender wins", _left(state)
        if ships(1) == 0:
            return "attacker wins", _left(state)
    raise RuntimeError("a battle that did not end in 100,000 rounds")


def _left(state: list[list[list[int]]]) -> list[list[int]]:
    return [[count for count, _ in side] for side in state]
