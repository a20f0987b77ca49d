"""Battles of a described game: rolled through the framework's dice solver, or decided by comparing numbers.

A rules file names its kinds of battle under `battles:` — `{dice: 6, hits: x.attack, health: x.health}` (each unit
alive rolls one die a round and hits on a roll of `hits` or less; a unit takes `health` hits; both sides fire at once;
each side's hits go to the enemy unit with the least health left, the first listed among equals; rounds go on until
a side has no unit left) or `{compare: x.strength}` (the sides' totals compared once: the higher wins and the
loser's units are destroyed; a tie leaves both standing and the defender holds). A `battle:` step fights one,
sending destroyed units to their `losses:` zone and naming the outcome (`attacker`, `defender`, or `both` when no
unit is left on either side); `odds('kind', attackers, defenders)` is the attacker's exact chance to win, for the
greedy agent's evaluation.

A dice battle is one chain of the core's solver (`engine/dice/chain.py`): a position is each unit's health left,
side by side; the round is one step giving the distribution of the positions it leads to. The played battle draws
each round from that same distribution (`dice.draw`, with the game's own generator, logged), and `odds` solves the
chain exactly — the same rules, two uses, as the bundled games' calculators do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cardgen.engine.described.compiler import Scope
from cardgen.engine.described.functions import FUNCTIONS, Builtin
from cardgen.engine.described.steps import COMPILERS, Lines, Path, StepCompiler, StepProblem, kind
from cardgen.engine.dice import Chain, TooManyStates, draw, solve

if TYPE_CHECKING:
    from cardgen.engine.described.state import DescribedState

MOST_UNITS = 40  # units a side in one battle (the chain of a battle grows with every unit)
MOST_POSITIONS = 50_000  # positions `odds` solves before it estimates instead
Position = tuple[tuple[int, ...], tuple[int, ...]]

kind("battle", "fight a battle of a kind named under battles: (dice or compare); destroyed units go to their "
     "losses zone", "- battle: skirmish\n  attackers: mine\n  defenders: theirs\n  losses: discard[x.owner]\n"
     "  as: outcome", attackers="the attacking cards (a list)", defenders="the defending cards (a list)",
     losses="where a destroyed card goes: a zone of x (the card)",
     as_="a name for the outcome: attacker, defender or both")  # fmt: skip


@dataclass(frozen=True)
class Kind:
    """A kind of battle: dice (sides, the hits and health of a unit) or compare (the strength of a unit)."""

    name: str
    sides: int
    hits: Callable[[Any, Any], Any] | None  # f(state, card)
    health: Callable[[Any, Any], Any] | None
    strength: Callable[[Any, Any], Any] | None

    def sides_of(self, s: Any, cards: list[Any]) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """Each unit's chance to hit with its die and its health, in the order given."""
        chances = tuple(min(max(float(self.hits(s, c)), 0.0), self.sides) / self.sides for c in cards)  # type: ignore[misc]
        health = tuple(max(int(self.health(s, c)), 1) for c in cards)  # type: ignore[misc]
        return chances, health


@lru_cache(maxsize=4096)
def _hits(chances: tuple[float, ...]) -> tuple[float, ...]:
    """The distribution of the number of hits some dice score, each with its chance (a convolution)."""
    spread = [1.0]
    for chance in chances:
        nxt = [0.0] * (len(spread) + 1)
        for hits, p in enumerate(spread):
            nxt[hits] += p * (1 - chance)
            nxt[hits + 1] += p * chance
        spread = nxt
    return tuple(spread)


def _allocate(health: tuple[int, ...], hits: int) -> tuple[int, ...]:
    """Hits taken one at a time by the unit alive with the least health left (the first listed among equals)."""
    left = list(health)
    for _ in range(hits):
        alive = [i for i, h in enumerate(left) if h > 0]
        if not alive:
            break
        weakest = min(alive, key=lambda i: (left[i], i))
        left[weakest] -= 1
    return tuple(left)


def chain(attack: tuple[float, ...], defence: tuple[float, ...]) -> Chain[Position]:
    """The battle's chain for the core's solver: both sides fire at once, a round at a time."""

    def round_(position: Position) -> dict[Position, float]:
        mine, theirs = position
        ours = _hits(tuple(c for c, h in zip(attack, mine, strict=True) if h > 0))
        foes = _hits(tuple(c for c, h in zip(defence, theirs, strict=True) if h > 0))
        out: dict[Position, float] = {}
        for given, p in enumerate(ours):
            if p == 0.0:
                continue
            for taken, q in enumerate(foes):
                if q == 0.0:
                    continue
                after = (_allocate(mine, taken), _allocate(theirs, given))
                out[after] = out.get(after, 0.0) + p * q
        return out

    return Chain(round=(round_,), over=_over, outcome=_outcome, order=lambda pos: -sum(pos[0]) - sum(pos[1]),
                 limit=MOST_POSITIONS)  # fmt: skip


def _over(position: Position) -> bool:
    return not any(h > 0 for h in position[0]) or not any(h > 0 for h in position[1])


def _outcome(position: Position) -> str:
    mine, theirs = any(h > 0 for h in position[0]), any(h > 0 for h in position[1])
    return "attacker" if mine and not theirs else "defender" if theirs and not mine else "both"


def fight(s: DescribedState, battle: Kind, attackers: list[Any], defenders: list[Any], losses: Any) -> str:
    """Fight a battle on the table: rounds drawn from the chain (logged), the destroyed cards moved to `losses`."""
    attackers, defenders = list(attackers), list(defenders)
    if len(attackers) > MOST_UNITS or len(defenders) > MOST_UNITS:
        raise ValueError(f"a battle of {len(attackers)} against {len(defenders)} (at most {MOST_UNITS} a side)")
    if not attackers or not defenders:
        return "attacker" if attackers else "defender"
    if battle.strength is not None:
        mine = sum(battle.strength(s, c) for c in attackers)
        theirs = sum(battle.strength(s, c) for c in defenders)
        if mine == theirs:
            return "defender"
        lost = defenders if mine > theirs else attackers
        for card in lost:
            s.move(card, losses(s, card))
        return "attacker" if mine > theirs else "defender"
    attack, mine_health = battle.sides_of(s, attackers)
    defence, their_health = battle.sides_of(s, defenders)
    if not any(attack) and not any(defence):
        return "defender"  # no die can hit: nothing happens and the defender holds
    step = chain(attack, defence).round[0]
    position: Position = (mine_health, their_health)
    while not _over(position):
        s.tick()
        position = draw(step(position), s.rng)
        s.chance.record("battle", [list(position[0]), list(position[1])])
    for cards, health in ((attackers, position[0]), (defenders, position[1])):
        for card, left in zip(cards, health, strict=True):
            if left <= 0:
                s.move(card, losses(s, card))
    return _outcome(position)


def odds(s: Any, name: str, attackers: Any, defenders: Any) -> float:
    """The attacker's chance to win a battle of the named kind (exact; estimated past `MOST_POSITIONS`)."""
    battle = s.engine.battles.get(name)
    if battle is None:
        raise KeyError(f"no battle kind '{name}' (battles: {', '.join(s.engine.battles) or 'none'})")
    attackers, defenders = list(attackers), list(defenders)
    if not attackers or not defenders:
        return 1.0 if attackers else 0.0
    if battle.strength is not None:
        mine = sum(battle.strength(s, c) for c in attackers)
        return 1.0 if mine > sum(battle.strength(s, c) for c in defenders) else 0.0
    attack, mine_health = battle.sides_of(s, attackers)
    defence, their_health = battle.sides_of(s, defenders)
    if not any(attack) and not any(defence):
        return 0.0
    try:
        ending = solve(chain(attack, defence), {(mine_health, their_health): 1.0})
    except TooManyStates:  # too big to solve: the share of the sides' expected hits
        mine_power = sum(a * 1.0 for a in attack) * sum(mine_health)
        theirs = sum(d * 1.0 for d in defence) * sum(their_health)
        return mine_power / (mine_power + theirs) if mine_power + theirs else 0.0
    return sum(p for (_, outcome), p in ending.ends.items() if outcome == "attacker")


def compile_kinds(spec: dict[str, Any], compile_card: Callable[[Any, Path], Any]) -> dict[str, Kind]:
    """The `battles:` section: each kind's expressions of `x` (the card) compiled."""
    found = {}
    for name, entry in spec.items():
        path: Path = ("battles", name)
        if entry.compare is not None:
            found[name] = Kind(name, 0, None, None, compile_card(entry.compare, (*path, "compare")))
        else:
            hits = compile_card(entry.hits, (*path, "hits"))
            health = compile_card(entry.health, (*path, "health"))
            found[name] = Kind(name, entry.dice, hits, health, None)
    return found


def _battle(steps: StepCompiler, item: dict[str, Any], scope: Scope, path: Path) -> Lines:
    name = item["battle"]
    if name not in steps.engine.battles:
        known = ", ".join(steps.engine.battles) or "none: declare one under battles:"
        raise StepProblem(f"no battle kind '{name}' (battles: {known})", path)
    for key in ("attackers", "defenders", "losses"):
        if key not in item:
            raise StepProblem(f"battle: needs {key}:", path)
    base = path[:-1]
    attackers = steps.code(item["attackers"], scope, (*base, "attackers")).text
    defenders = steps.code(item["defenders"], scope, (*base, "defenders")).text
    inner = scope.child()
    local = steps.unit.fresh("x")
    inner.bind_python("x", local, shadow=True)
    losses = steps.unit.expression(steps.zone_code(item["losses"], inner, (*base, "losses")), steps.where(path),
                                   params=f"s, {local}")  # fmt: skip
    call = (f"{steps.unit.ref(fight)}(s, {steps.unit.ref(steps.engine.battles[name])}, {attackers}, {defenders}, "
            f"{steps.unit.ref(losses)})")  # fmt: skip
    if "as" in item:
        return [(f"e[{steps.name(item['as'], scope, (*base, 'as'))}] = {call}", steps.where(path))]
    return [(call, steps.where(path))]


COMPILERS["battle"] = _battle

FUNCTIONS["odds"] = Builtin("odds", "odds('kind', attackers, defenders)", "the attackers' exact chance to win a "
                            "battle of a kind (`battles:`)", odds, 3, 3, stateful=True)  # fmt: skip
