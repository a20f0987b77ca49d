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
taken: the battle is a Markov chain over (hits on the attacker, hits on the defender, the shot due in the round) and
`exact.exact_odds` solves it exactly (in order of hits taken, a round in which nothing is hit returning to its
own start). No fleet the counter limits allow is too big for it, so it never samples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

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
        # (ships left, hits on the current ship) per group after h hits under the targeting policy, one hit at a time
        self.states = [tuple((g.count, 0) for g in self.groups)]
        for _ in range(self.total_hits):
            self.states.append(self._hit(self.states[-1]))

    def _hit(self, before: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        """The state one hit later: the targeted ship takes it and is destroyed when its hits reach its hull."""
        state = list(before)
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
