"""Scifi Domains' battles (rules.yaml `combat_phases`), fought one player at a time as tasks with the player's choices.

1 Deploy: the player chooses the units that fight, one at a time, ending with "done": non-Striker Space units
freely; a Striker bought before this round needs a Striker Bay, a Ground unit bought before this round a Drop Bay
(bays come from the Space units deployed, which are offered first). 2 Space and Space Striker damage: for each type
the player picks one unit at a time to absorb as much as it can, until the damage is absorbed or no unit may take it
(Striker damage falls on Space units when no Striker is left); then every unit deployed and alive at the phase's
start deals its damage. 3 Bays: Strikers and Ground units from earlier rounds beyond the bays left are sacrificed
one by one, the player choosing which; with no non-Striker Space unit left every non-Striker Ground unit is lost.
4 and 5 repeat 2 and 3 for Ground damage. 6 Reward points: one per enemy destroyed, one more if a non-Striker Ground
unit lives, another if no Ground enemy is left. A choice with one option is made at once (no decision is asked).

The player's damage against enemies is dealt by a fixed policy (kill as many as possible, weakest first: the most
Reward points a volley can earn), recorded as a reading in rules.yaml. The choices an agent is not asked to think
about have a default (`default_choice`): deploy everything that fits, strongest first; absorb with the weakest unit
that survives the hit, else the cheapest; sacrifice the weakest.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from cardgen.engine.flow import Flow
from cardgen.engine.games.scifi_domains.actions import DONE, Absorb, Action, Deploy, Done, Sacrifice
from cardgen.engine.games.scifi_domains.model import CARRIED, DAMAGE, HITS, STEPS, Fight, Foe, Unit

if TYPE_CHECKING:
    from cardgen.engine.games.scifi_domains.rules import ScifiEngine

T = TypeVar("T")
RANK = {"space": 0, "space_striker": 1, "ground_striker": 1, "ground": 2}  # the order units are offered to deploy


def hit_by(candidates: Sequence[T], category: Callable[[T], str], kind: str) -> list[T]:
    """What damage of a kind may hit among candidates: its own category, else its fallback category (HITS)."""
    own, fallback = HITS[kind]
    targets = [x for x in candidates if category(x) == own]
    if not targets and fallback:
        targets = [x for x in candidates if category(x) == fallback]
    return targets


class Battle(Flow):
    """The battle phase of `ScifiState` (a mixin: the state supplies units, stats and scoring)."""

    fight: Fight | None
    engine: ScifiEngine  # the state's (a compiled class declares what its methods read)
    units: list[list[Unit]]
    agroed: list[list[int]]
    points: list[int]
    round: int

    @abstractmethod
    def stat(self, player: int, unit_type: str, name: str) -> int:
        """A unit type's stat for a player, with their technologies (the state's)."""

    @abstractmethod
    def destroy(self, player: int, unit: Unit) -> None:
        """Take a destroyed unit off the board (the state's)."""

    @abstractmethod
    def _own_unit(self, player: int, index: int) -> Unit:
        """A player's unit, the state's own to change (the state's: `core.owned`)."""

    # -- helpers ----------------------------------------------------------------------------------------------------

    @property
    def fight_player(self) -> int:
        assert self.fight is not None, "no battle is being fought"
        return self.fight.player

    def category(self, player: int, unit: int) -> str:
        return self.engine.types[self.units[player][unit].kind].category

    def power(self, player: int, unit: int) -> int:
        return sum(self.stat(player, self.units[player][unit].kind, d) for d in DAMAGE)

    def hp_left(self, player: int, unit: int) -> int:
        u = self.units[player][unit]
        return self.stat(player, u.kind, "hp") - u.damage

    def _alive_deployed(self, fight: Fight) -> list[int]:
        return [i for i in fight.deployed if self.hp_left(fight.player, i) > 0]

    def _carried(self, player: int, unit: int) -> bool:
        """A Striker or Ground unit bought before this round: it rides in a bay."""
        return self.category(player, unit) != "space" and self.units[player][unit].bought != self.round

    def _kill(self, player: int, unit: int) -> None:
        own = self._own_unit(player, unit)
        own.damage = self.stat(player, own.kind, "hp")

    # -- phase 1: deploy --------------------------------------------------------------------------------------------

    def _t_battle(self, player: int) -> None:
        foes = [Foe(card, self.engine.enemies[card].hp) for card in self.agroed[player]]
        self.fight = Fight(player, foes, [], tuple(self.deploy_order(player)))
        self.push(("deploy",), ("step", 0), ("bays",), ("step", 1), ("bays",), ("score",))

    def deploy_order(self, player: int) -> list[int]:
        """Non-Striker Space units first (they bring the bays), then Strikers, then Ground units; within each, units
        bought this round first, then the strongest."""
        units = self.units[player]
        return sorted(
            range(len(units)),
            key=lambda i: (RANK[self.category(player, i)], units[i].bought != self.round, -self.power(player, i), i),
        )

    def deployable(self) -> list[int]:
        """Units that may still be deployed: later in the deployment order than the last one chosen, and with a
        bay free if they need one."""
        assert self.fight is not None
        p, fight = self.fight.player, self.fight
        room = {stat: 0 for _, stat in CARRIED}
        for i in fight.deployed:
            if self.category(p, i) == "space":
                for _, stat in CARRIED:
                    room[stat] += self.stat(p, self.units[p][i].kind, stat)
            elif self._carried(p, i):
                room[self._bay(p, i)] -= 1
        order = fight.order[fight.cursor :]
        return [i for i in order if not self._carried(p, i) or room[self._bay(p, i)] > 0]

    def _bay(self, player: int, unit: int) -> str:
        category = self.category(player, unit)
        return next(stat for needs, stat in CARRIED if category in needs)

    def _t_deploy(self) -> None:
        if self.deployable():
            self.ask("deploy", self.fight_player)

    def _deploy(self, unit: int) -> None:
        assert self.fight is not None
        self.fight.deployed.append(unit)
        self.fight.cursor = self.fight.order.index(unit) + 1
        self.push(("deploy",))

    # -- phases 2 and 4: damage ---------------------------------------------------------------------------------------

    def _t_step(self, step: int) -> None:
        assert self.fight is not None
        fight = self.fight
        attackers = tuple(self._alive_deployed(fight))
        foes = [f for f in fight.foes if f.hp > 0]
        incoming = [sum(self.engine.enemies[f.card].damage[DAMAGE.index(kind)] for f in foes) for kind in STEPS[step]]
        absorbs = [("absorb", kind, amount) for kind, amount in zip(STEPS[step], incoming, strict=True)]
        self.push(*absorbs, ("strike", step, attackers))

    def absorbers(self, kind: str) -> list[int]:
        """The deployed units alive that damage of a kind may hit."""
        assert self.fight is not None
        p = self.fight.player
        return hit_by(self._alive_deployed(self.fight), lambda i: self.category(p, i), kind)

    def _t_absorb(self, kind: str, amount: int) -> None:
        if amount <= 0:
            return
        targets = self.absorbers(kind)
        if len(targets) == 1:
            self._soak(targets[0], kind, amount)
        elif targets:
            self.ask("absorb", self.fight_player, kind, amount)

    def _soak(self, unit: int, kind: str, amount: int) -> None:
        p = self.fight_player
        hit = min(self.hp_left(p, unit), amount)
        self._own_unit(p, unit).damage += hit
        if amount > hit:
            self.push(("absorb", kind, amount - hit))

    def _t_strike(self, step: int, attackers: tuple[int, ...]) -> None:
        """Units alive at the phase's start deal their damage, even those destroyed while absorbing."""
        assert self.fight is not None
        p = self.fight.player
        for kind in STEPS[step]:
            dealt = sum(self.stat(p, self.units[p][i].kind, kind) for i in attackers)
            self._strike(kind, dealt)

    def _strike(self, kind: str, amount: int) -> None:
        """Deal damage to kill as many enemies as possible, the weakest first."""
        assert self.fight is not None
        cards = self.engine.enemies
        while amount > 0:
            targets = hit_by([f for f in self.fight.foes if f.hp > 0], lambda f: cards[f.card].category, kind)
            if not targets:
                return
            target = min(targets, key=lambda f: (f.hp, f.card))
            hit = min(amount, target.hp)
            target.hp -= hit
            amount -= hit

    # -- phases 3 and 5: bays -----------------------------------------------------------------------------------------

    def overloaded(self) -> tuple[list[int], int]:
        """The carried units of the first bay type with too few bays, and how many must go (none: ([], 0))."""
        assert self.fight is not None
        p = self.fight.player
        alive = self._alive_deployed(self.fight)
        space = [i for i in alive if self.category(p, i) == "space"]
        for needs, stat in CARRIED:
            room = sum(self.stat(p, self.units[p][i].kind, stat) for i in space)
            carried = [i for i in alive if self.category(p, i) in needs and self._carried(p, i)]
            if len(carried) > room:
                return carried, len(carried) - room
        return [], 0

    def _t_bays(self) -> None:
        assert self.fight is not None
        p = self.fight.player
        carried, excess = self.overloaded()
        if excess and excess < len(carried):
            self.push(("bays",))
            self.ask("sacrifice", p)
            return
        for unit in carried:  # no bay left at all: every one of them goes, nothing to choose
            self._kill(p, unit)
        alive = self._alive_deployed(self.fight)
        if not any(self.category(p, i) == "space" for i in alive):
            for unit in alive:
                if self.category(p, unit) == "ground":
                    self._kill(p, unit)

    # -- phase 6: reward points -------------------------------------------------------------------------------------

    def _t_score(self) -> None:
        assert self.fight is not None
        e, p, fight = self.engine, self.fight.player, self.fight
        killed = sum(1 for f in fight.foes if f.hp <= 0)
        points = killed * e.kill_points
        if any(self.category(p, i) == "ground" for i in self._alive_deployed(fight)):
            points += e.hold_bonus
            if not any(e.enemies[f.card].category == "ground" and f.hp > 0 for f in fight.foes):
                points += e.clear_bonus
        self.points[p] += points
        self.agroed[p] = []  # back to the player's own effectively unlimited piles
        for unit in [u for i, u in enumerate(self.units[p]) if self.hp_left(p, i) <= 0]:
            self.destroy(p, unit)
        self.fight = None

    # -- the player's choices ---------------------------------------------------------------------------------------

    def battle_choices(self) -> list[Action]:
        if self.decision is None:
            return []
        kind = self.decision[0]
        units = len(self.units[self.fight_player])
        if kind == "deploy":
            deploy = self.engine.numbered(Deploy, units)
            return [*(deploy[i] for i in self.deployable()), DONE]
        if kind == "absorb":
            absorb = self.engine.numbered(Absorb, units)
            return [absorb[i] for i in self.absorbers(self.decision[2])]
        sacrifice = self.engine.numbered(Sacrifice, units)
        return [sacrifice[i] for i in self.overloaded()[0]]

    def battle_choice(self, action: Action) -> None:
        assert self.decision is not None and self.fight is not None
        decision = self.answered()
        match action:
            case Deploy(unit):
                self._deploy(unit)
            case Done():
                self.fight.cursor = len(self.units[self.fight.player])
            case Absorb(unit):
                self._soak(unit, decision[2], decision[3])
            case Sacrifice(unit):
                self._kill(self.fight.player, unit)
        self.run()

    def default_choice(self) -> Action:
        """The choice the engine made for every player before battles had decisions, and the one the greedy agent
        prefers: deploy in order, absorb with the weakest unit that survives the hit (else the cheapest, the Command
        Ship last), sacrifice the weakest."""
        assert self.decision is not None
        choices = self.battle_choices()
        if self.decision[0] != "absorb":
            return choices[0] if self.decision[0] == "deploy" else min(choices, key=self._sacrifice_order)
        p, amount = self.fight_player, self.decision[3]
        left = {a: self.hp_left(p, a.unit) for a in choices if isinstance(a, Absorb)}
        survivors = [a for a in left if left[a] > amount]
        if survivors:
            return min(survivors, key=lambda a: (left[a], a.unit))
        ships = self.engine.types

        def cheap(a: Absorb) -> tuple[int, int, int]:
            unit = self.units[p][a.unit]
            return (ships[unit.kind].cost if unit.kind != "command_ship" else 99, left[a], a.unit)

        return min(left, key=cheap)

    def _sacrifice_order(self, action: Any) -> tuple[int, int]:
        return (self.power(self.fight_player, action.unit), -action.unit)

    def battle_violations(self) -> list[str]:
        if self.fight is None:
            return []
        p, deployed = self.fight.player, self.fight.deployed
        if len(deployed) != len(set(deployed)) or not all(0 <= i < len(self.units[p]) for i in deployed):
            return [f"seat {p}: a unit deployed twice or one that does not exist"]
        return []
