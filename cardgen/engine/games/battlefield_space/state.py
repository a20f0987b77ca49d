"""What changes in a game of Battlefield: Space: piles, columns, modifiers and the task stack of the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.core import compiled, frozen
from cardgen.engine.flow import Flow
from cardgen.engine.games.battlefield_space.force import column_total
from cardgen.engine.games.battlefield_space.model import COLUMNS, NO_CARD, NOBODY, TARGETED, Mod, Status
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.battlefield_space.rules import BattlefieldEngine


class BattlefieldState(Flow):
    """Piles, columns and the task queue of one game of Battlefield: Space. Cards are numbers (`engine.cards`)."""

    engine: BattlefieldEngine
    deck: list[list[int]]
    survivors: list[list[int]]
    graveyard: list[list[int]]
    hand: list[list[int]]
    columns: list[list[list[int]]]  # columns[player][column]: the cards face up there
    facedown: list[list[int]]  # facedown[player][column]: a reinforcement placed face down, or NO_CARD
    mods: list[list[Mod]]
    bonus: list[list[int]]
    tie_wins: list[list[int]]
    immediate: list[int]  # immediate modifiers drawn in the current step
    revealed: list[int]  # when each card last turned face up in a column (a clock tick)
    clock: int
    step: int  # the battle sequence's step (rules.yaml `battle_sequence`)
    winner: int | None
    verdict: list[int | None]

    @classmethod
    def deal(cls, engine: BattlefieldEngine, seed: int) -> BattlefieldState:
        s = cls(seed)  # (no __init__ of its own: a compiled class's `__new__` would ask for its arguments, `clone`)
        s.engine = engine
        s.deck = [list(engine.owned[0]), list(engine.owned[1])]
        for p in (0, 1):
            s.shuffle(s.deck[p], engine.decks[p])
        s.survivors, s.graveyard, s.hand = [[], []], [[], []], [[], []]
        s.columns = [[[] for _ in range(COLUMNS)] for _ in (0, 1)]
        s.facedown = [[NO_CARD] * COLUMNS for _ in (0, 1)]
        s.mods = [[], []]
        s.bonus = [[0] * COLUMNS for _ in (0, 1)]
        s.tie_wins = [[0] * COLUMNS for _ in (0, 1)]
        s.immediate = []
        s.revealed = [-1] * len(engine.cards.item)
        s.clock = 0
        s.decision = None
        s.step = 2
        s.winner = None
        s.verdict = [None] * COLUMNS
        s.tasks = [("battle",)]
        s.run()
        return s

    # -- the engine surface -----------------------------------------------------------------------------------------

    def _legal_actions(self) -> list[int]:
        if self.decision is None:
            return []
        kind, player = self.decision[0], self.decision[1]
        if kind == "place":
            return [c for c in range(COLUMNS) if self.facedown[player][c] == NO_CARD]
        return list(range(COLUMNS))

    def action_label(self, action: Any) -> str:
        kind = self.decision[0] if self.decision else "none"
        return f"{kind} column {action + 1}"

    def _apply(self, action: Any) -> None:
        assert self.decision is not None
        kind, player, *rest = self.decision
        self.decision = None
        if kind == "place":
            card = self.hand[player].pop()
            self.facedown[player][action] = card
        elif kind == "target":
            self.mods[player][rest[0]].target = action
        else:  # "extra": the card drawn for an extra_card effect lands in the chosen column
            self.tasks.append(("reveal", player, action, rest[0]))
        self.run()

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.5, 0.5] if self.ending else [0.0, 0.0]
        return [1.0, 0.0] if self.winner == 0 else [0.0, 1.0]

    def clone(self) -> BattlefieldState:
        o = BattlefieldState.__new__(BattlefieldState)
        self._copy_base(o)  # every field, then those changed in place copied
        if compiled(BattlefieldState):
            # and those only ever replaced, which a compiled state keeps outside its dictionary (`cardgen.native`)
            o.engine, o.clock, o.step, o.winner = self.engine, self.clock, self.step, self.winner
        o.deck = [list(x) for x in self.deck]
        o.survivors = [list(x) for x in self.survivors]
        o.graveyard = [list(x) for x in self.graveyard]
        o.hand = [list(x) for x in self.hand]
        o.columns = [[list(c) for c in cols] for cols in self.columns]
        o.facedown = [list(x) for x in self.facedown]
        o.mods = [[m.copy() for m in ms] for ms in self.mods]
        o.bonus = [list(x) for x in self.bonus]
        o.tie_wins = [list(x) for x in self.tie_wins]
        o.immediate = list(self.immediate)
        o.revealed = list(self.revealed)
        o.verdict = list(self.verdict)
        return o

    # -- hidden information -----------------------------------------------------------------------------------------

    def observation(self, player: int) -> tuple[object, ...]:
        """What a player sees: everything face up (columns, modifiers, piles but the decks' order), their own hand
        and face-down reinforcements, and of the opponent's only how many cards lie in hand, deck and face down."""
        opp = 1 - player
        hidden = self._hidden_slots(opp)
        tasks = tuple(t[:3] if t[0] == "reveal" and t[1] == opp else t for t in self.tasks)
        decision = self.decision
        if decision is not None and decision[0] == "extra" and decision[1] == opp:
            decision = decision[:2]
        return (
            player, self.step, decision, tasks, self.winner, self.ending, self.turns,
            frozen(self.columns), tuple(tuple(m.key() for m in ms) for ms in self.mods), frozen(self.bonus),
            frozen(self.tie_wins),
            tuple(sorted(self.survivors[0])), tuple(sorted(self.survivors[1])),
            tuple(sorted(self.graveyard[0])), tuple(sorted(self.graveyard[1])), tuple(self.immediate),
            tuple(self.hand[player]), tuple(self.facedown[player]), tuple(sorted(self.deck[player])),
            len(self.deck[opp]), len(hidden), tuple(c != NO_CARD for c in self.facedown[opp]),
        )  # fmt: skip

    def determinize(self, player: int, rng: CounterRng) -> BattlefieldState:
        """The opponent's unseen ships (hand, face down, on their way to a column) dealt at random from their unseen
        cards, the rest of those cards shuffled into their deck, and the player's own deck shuffled: a state the
        player cannot tell from the real one."""
        s = self.reseeded(rng)
        assert isinstance(s, BattlefieldState)
        opp = 1 - player
        rng.shuffle(s.deck[player])
        slots = s._hidden_slots(opp)
        pool = s.deck[opp] + [card for _, card in slots]
        modifier = self.engine.cards.modifier
        ships = [c for c in pool if not modifier[c]]
        rng.shuffle(ships)
        dealt, rest = ships[: len(slots)], ships[len(slots) :] + [c for c in pool if modifier[c]]
        rng.shuffle(rest)
        s.deck[opp] = rest
        for (where, _), card in zip(slots, dealt, strict=True):
            s._put(where, card)
        return s

    def _hidden_slots(self, player: int) -> list[tuple[tuple[Any, ...], int]]:
        """Where player p's cards lie face down to the other player: (place, card) for each."""
        slots: list[tuple[tuple[Any, ...], int]] = [(("hand", i), card) for i, card in enumerate(self.hand[player])]
        slots += [(("facedown", c), card) for c, card in enumerate(self.facedown[player]) if card != NO_CARD]
        slots += [(("task", i), t[3]) for i, t in enumerate(self.tasks) if t[0] == "reveal" and t[1] == player]
        if self.decision is not None and self.decision[0] == "extra" and self.decision[1] == player:
            slots.append((("decision",), self.decision[2]))
        return slots

    def _put(self, where: tuple[Any, ...], card: int) -> None:
        p = self.engine.cards.owner[card]
        if where[0] == "hand":
            self.hand[p][where[1]] = card
        elif where[0] == "facedown":
            self.facedown[p][where[1]] = card
        elif where[0] == "task":
            task = self.tasks[where[1]]
            self.tasks[where[1]] = (*task[:3], card)
        else:
            assert self.decision is not None
            self.decision = (*self.decision[:2], card)

    def invariant_violations(self) -> list[str]:
        """Every card in exactly one place (a card being revealed counts where it is going); at most 3 in hand."""
        out = []
        k = self.engine.cards
        moving = [t[3] for t in self.tasks if t[0] == "reveal"]
        if self.decision and self.decision[0] == "extra":
            moving.append(self.decision[2])
        for p in (0, 1):
            zones = self.deck[p] + self.survivors[p] + self.graveyard[p] + self.hand[p]
            zones += [c for col in self.columns[p] for c in col] + [m.card for m in self.mods[p]]
            zones += [c for c in self.facedown[p] if c != NO_CARD] + [c for c in moving if k.owner[c] == p]
            if sorted(zones) != list(self.engine.owned[p]):
                name, have, want = self.engine.decks[p], len(zones), len(self.engine.owned[p])
                out.append(f"{name}: {have} cards accounted for, {want} in the deck")
            if len(self.hand[p]) > COLUMNS:
                out.append(f"{self.engine.decks[p]}: {len(self.hand[p])} reinforcements in hand, at most {COLUMNS}")
        return out

    # -- the task queue ---------------------------------------------------------------------------------------------

    def run(self) -> None:
        """Carry out tasks until one needs a player's decision or the game ends (`Flow`)."""
        super().run()
        if self.decision is None and not self.tasks and self.ending is None:
            self.ending = "no more battles"

    def _t_battle(self) -> None:
        self.turns = self.turns + 1  # not +=: mypyc (hatch_build.py)
        self.step = 2
        self.push(*[("form", p, c) for p in (0, 1) for c in range(COLUMNS)], ("end_step",), ("reinforce",))

    def _t_form(self, player: int, c: int) -> None:
        card = self._draw(player)
        if card != NO_CARD:
            self._t_reveal(player, c, card)  # the same as queueing it on top and running it at once

    def _t_reveal(self, player: int, c: int, card: int) -> None:
        """A card turns face up in column c (or, if it is a Battle Modifier, goes beside and is replaced)."""
        k = self.engine.cards
        if k.modifier[card] and self.step != 6:
            self._place_modifier(player, card, replace=("form", player, c))
            return
        self.columns[player][c].append(card)
        self.revealed[card] = self.clock
        self.clock += 1
        if not k.modifier[card] and k.ability[card] == "play_another":
            self.applied.add(k.item[card])
            self.push(*[("form", player, c)] * k.value[card])

    def _place_modifier(self, player: int, card: int, replace: tuple[Any, ...]) -> None:
        k = self.engine.cards
        self.mods[player].append(Mod(card))
        if k.timing[card] == "immediate":
            self.immediate.append(card)
        tasks = [replace]
        if k.effect[card] in TARGETED:
            tasks.insert(0, ("ask", "target", player, len(self.mods[player]) - 1))
        self.push(*tasks)

    def _t_ask(self, kind: str, player: int, *rest: Any) -> None:
        self.decision = (kind, player, *rest)

    def _t_end_step(self) -> None:
        """Immediate modifiers drawn in the step resolve now, highest resolution number first."""
        if not self.immediate:
            return
        k = self.engine.cards
        card = max(self.immediate, key=lambda x: k.resolution[x])
        self.immediate.remove(card)
        self.push(("immediate", card), ("end_step",))

    def _t_immediate(self, card: int) -> None:
        k = self.engine.cards
        p = k.owner[card]
        entry = next(m for m in self.mods[p] if m.card == card)
        if entry.status is not Status.WAITING:
            return
        entry.status = Status.DONE
        if k.effect[card] == "destroy_weakest_enemy":
            for _ in range(k.value[card]):
                if self._destroy_weakest(1 - p):
                    self.applied.add(k.item[card])
        elif k.effect[card] == "extra_card":
            self.push(*[("extra_draw", p, card)] * k.value[card])

    def _t_extra_draw(self, player: int, source: int) -> None:
        """One card of an extra_card effect: drawn now, placed where its owner chooses."""
        k = self.engine.cards
        drawn = self._draw(player)
        if drawn == NO_CARD:
            return
        self.applied.add(k.item[source])
        if k.modifier[drawn]:  # placed like any drawn modifier, and replaced by another card for the effect
            self._place_modifier(player, drawn, replace=("extra_draw", player, source))
        else:
            self.decision = ("extra", player, drawn)

    def _destroy_weakest(self, victim: int) -> bool:
        """The enemy ship of lowest Force goes to the Graveyard; among equals, the one revealed last (rules.yaml
        `modifier_effects.destroy_weakest_enemy`)."""
        k = self.engine.cards
        ships = [(c, card) for c in range(COLUMNS) for card in self.columns[victim][c] if not k.modifier[card]]
        if not ships:
            return False
        c, card = min(ships, key=lambda placed: (k.force[placed[1]], -self.revealed[placed[1]]))
        self.columns[victim][c].remove(card)
        self.graveyard[victim].append(card)
        return True

    def _t_reinforce(self) -> None:
        self.step = 3
        draws = []
        for p in (0, 1):
            draws += [("hand", p)] * COLUMNS
        self.push(*draws, ("place", 0), ("place", 1), ("flip",), ("end_step",), ("modifiers",))

    def _t_hand(self, player: int) -> None:
        card = self._draw(player)
        if card == NO_CARD:
            return
        if self.engine.cards.modifier[card]:
            self._place_modifier(player, card, replace=("hand", player))
        else:
            self.hand[player].append(card)

    def _t_place(self, player: int) -> None:
        """Ask the player to place their next reinforcement, as long as they hold one (fewer than 3 near the end)."""
        if self.hand[player]:
            self.tasks.append(("place", player))
            self.decision = ("place", player)

    def _t_flip(self) -> None:
        reveals = []
        for p in (0, 1):
            for c in range(COLUMNS):
                if self.facedown[p][c] != NO_CARD:
                    reveals.append(("reveal", p, c, self.facedown[p][c]))
                    self.facedown[p][c] = NO_CARD
        self.push(*reveals)

    def _t_modifiers(self) -> None:
        """Step 4: beside modifiers of both players resolve, highest resolution number first."""
        self.step = 4
        k = self.engine.cards
        waiting = sorted(
            (m for p in (0, 1) for m in self.mods[p] if m.status is Status.WAITING and k.timing[m.card] == "beside"),
            key=lambda m: -k.resolution[m.card],
        )
        for entry in waiting:
            if entry.status is not Status.WAITING:
                continue
            entry.status = Status.DONE
            card = entry.card
            p, effect, value, target = k.owner[card], k.effect[card], k.value[card], entry.target
            if effect == "column_force_plus":
                self.bonus[p][target] += value
            elif effect == "opponent_column_force_minus":
                self.bonus[1 - p][target] -= value
            elif effect == "all_columns_plus":
                for c in range(COLUMNS):
                    self.bonus[p][c] += value
            elif effect == "win_ties":
                self.tie_wins[p][target] += 1
            elif effect == "cancel_modifier":
                others = [m for m in self.mods[1 - p] if m.status is Status.WAITING and k.timing[m.card] == "beside"]
                for victim in sorted(others, key=lambda m: -k.resolution[m.card])[:value]:
                    victim.status = Status.CANCELLED
                    self.applied.add(k.item[card])
            if effect != "cancel_modifier":
                self.applied.add(k.item[card])
        self.push(("decide",))

    def _t_decide(self) -> None:
        """Step 5: every column's totals are compared at once; tied columns go to step 6. Cards stay on the
        battlefield until step 7, so a battle-wide race bonus still counts ships in columns already decided."""
        self.step = 5
        self._mark_abilities()
        self.verdict = [self._verdict(c) for c in range(COLUMNS)]
        self.push(*[("tie", c) for c in range(COLUMNS) if self.verdict[c] is None], ("clear",))

    def _verdict(self, card: int) -> int | None:
        """0 or 1 for the column's winner, NOBODY when both sides go to the Graveyard, None while tied."""
        k = self.engine.cards
        present = [any(not k.modifier[x] for x in self.columns[p][card]) for p in (0, 1)]
        if present[0] != present[1]:
            return 0 if present[0] else 1
        if not present[0]:
            return NOBODY
        first, second = self.total(0, card), self.total(1, card)
        if first != second:
            return 0 if first > second else 1
        claim = self.tie_wins[0][card] - self.tie_wins[1][card]
        if claim:
            return 0 if claim > 0 else 1
        return None

    def _t_tie(self, card: int) -> None:
        """Step 6: each player adds the top card of their deck to the tied column, until the totals differ."""
        self.step = 6
        if not any(self.deck[p] or self.survivors[p] for p in (0, 1)):
            self.verdict[card] = NOBODY  # unbreakable_tie: neither player can add a card
            return
        self.push(("form", 0, card), ("form", 1, card), ("recheck", card))

    def _t_recheck(self, card: int) -> None:
        self.verdict[card] = self._verdict(card)
        if self.verdict[card] is None:
            self.push(("tie", card))

    def total(self, player: int, card: int) -> int:
        """A player's total in a column: ships' printed Force, their bonuses, and modifier effects on the column."""
        return column_total(self.engine.cards, self.columns[player], card) + self.bonus[player][card]

    def _mark_abilities(self) -> None:
        """Note the ships whose Force bonus counts in this battle (for 'ability never applied' reports)."""
        k = self.engine.cards
        for p in (0, 1):
            battle = [y for col in self.columns[p] for y in col if not k.modifier[y]]
            for ships in self.columns[p]:
                for x in ships:
                    ability = k.ability[x]
                    if ability == "none" or k.modifier[x] or k.item[x] in self.applied:
                        continue
                    mates = battle if ability == "race_synergy_battle" else ships
                    same = ability == "column_bonus"
                    if any(y != x and not k.modifier[y] and (same or k.race[y] == k.race[x]) for y in mates):
                        self.applied.add(k.item[x])

    def _send_column(self, card: int, winner: int | None) -> None:
        for p in (0, 1):
            pile = self.survivors[p] if winner == p else self.graveyard[p]
            pile.extend(self.columns[p][card])
            self.columns[p][card] = []

    def _t_clear(self) -> None:
        """Step 7: winners to the Survivors piles, losers and spent modifiers to the Graveyards; a player with no
        card left has lost."""
        self.step = 7
        for c in range(COLUMNS):
            self._send_column(c, None if self.verdict[c] == NOBODY else self.verdict[c])
        for p in (0, 1):
            self.graveyard[p].extend(m.card for m in self.mods[p])
            self.mods[p] = []
            self.bonus[p] = [0] * COLUMNS
            self.tie_wins[p] = [0] * COLUMNS
        alive = [bool(self.deck[p] or self.survivors[p]) for p in (0, 1)]
        if alive[0] and alive[1]:
            self.push(("battle",))
            return
        if alive[0] or alive[1]:
            self.winner = 0 if alive[0] else 1
            self.ending = f"{self.engine.decks[1 - self.winner]} destroyed"
        else:
            self.ending = "both fleets destroyed"

    def _draw(self, player: int) -> int:
        """The top card of a player's draw deck, rebuilding the deck from the Survivors pile when it is empty."""
        if not self.deck[player]:
            if not self.survivors[player]:
                return NO_CARD
            self.deck[player], self.survivors[player] = self.survivors[player], []
            self.shuffle(self.deck[player], f"{self.engine.decks[player]} survivors")
        card = self.deck[player].pop()
        self.chance.record("draw", (player, card))
        return card
