"""The runner's loop over one game (`runner.play_game`): ask the seat to act, apply its choice, note what happened,
log it. A module of its own so the install compiles it with the engines (`hatch_build.py`): for a quick game it was
half of a player action (Battlefield: Space)."""

from __future__ import annotations

import time
from typing import Any

from cardgen.engine.agents import Agent
from cardgen.engine.core import GameEngine, State


class Attribution:
    """Which seat each card played, ability applied and event belongs to. The engines record them per game; a card
    of a game that deals each seat its own cards belongs to its owner (`GameEngine.item_seat`), anything else to the
    seat whose action it first happened in — a reaction played in its window is its player's action, but an ability
    that takes effect by itself on another seat's turn counts for that seat. What the set-up did before the first
    action belongs to nobody."""

    KINDS = (("played", "cards_played"), ("applied", "applied"), ("events", "events"))

    def __init__(self, state: State, engine: GameEngine):
        self.engine = engine
        self.seen: dict[str, set[str]] = {kind: set() for kind, _ in self.KINDS}
        self.seats: dict[str, dict[int, set[str]]] = {kind: {} for kind, _ in self.KINDS}
        self.count = -1  # the items seen, all kinds together
        self.note(state, None)  # the set-up's: only cards that belong to a seat

    def note(self, state: State, player: int | None) -> None:
        """What the last action (None: no action, the set-up or the end) made happen for the first time."""
        count = len(state.cards_played) + len(state.applied) + len(state.events)
        if count == self.count:  # nothing new (the sets only grow): most actions, checked at the cost of one sum
            return
        self.count = count
        for kind, name in self.KINDS:
            now: set[str] = getattr(state, name)
            seen = self.seen[kind]
            if len(now) != len(seen):  # a new item this action (the sets only grow)
                for item in now - seen:
                    seat = self.engine.item_seat(item) if kind != "events" else None
                    seat = player if seat is None else seat
                    if seat is not None:
                        self.seats[kind].setdefault(seat, set()).add(item)
                    seen.add(item)

    def by_seat(self, players: int) -> dict[str, list[list[str]]]:
        return {kind: [sorted(seats.get(p, ())) for p in range(players)] for kind, seats in self.seats.items()}


class Loop:
    """One game's bookkeeping while it is played: the agents by seat, whose thinking is clocked (a random pick is
    not worth a processor clock: a system call, about 8 % of a Battlefield game, read twice a choice), the choices
    each seat made and its thinking time, the problems met, the log (None: not logged)."""

    def __init__(self, seats: list[Agent], clocked: list[bool], mine: Attribution, index: int, limit: int,
                 log: list[dict[str, Any]] | None, check: bool):  # fmt: skip
        self.seats, self.clocked, self.mine = seats, clocked, mine
        self.index, self.limit, self.log, self.check = index, limit, log, check
        self.choices = [0] * len(seats)
        self.thinking = [0.0] * len(seats)
        self.violations: list[str] = []

    def play(self, state: State, seen_chance: int) -> tuple[int, int]:
        """Play `state` to its end (or to the action bound): the actions played, and the chance events logged."""
        seats, clocked, log, index = self.seats, self.clocked, self.log, self.index
        actions = 0
        while not state.is_terminal():  # a state stopped at its turn cap is terminal, its ending adjudicated
            if actions >= self.limit:
                state.ending = "too long"
                self.violations.append(f"game {index}: no end after {self.limit} actions")
                break
            player = state.current_player()
            legal = state.legal_actions()
            if not legal:
                self.violations.append(f"game {index}: seat {player} has no legal action in a live state")
                state.ending = "stuck"
                break
            if len(legal) > 1:
                self.choices[player] += 1
                if clocked[player]:
                    started = time.process_time()
                    action = seats[player].choose(state, legal)
                    self.thinking[player] += time.process_time() - started
                else:
                    action = seats[player].choose(state, legal)
            else:
                action = seats[player].choose(state, legal)
            label = state.action_label(action) if log is not None else ""
            state.do(action)  # legal by construction: skip `apply`'s check
            self.mine.note(state, player)
            actions += 1
            if log is not None:  # an action is logged by its place in the legal list, with its label to check it by
                log.append({"n": actions, "player": player, "action": legal.index(action), "label": label,
                            "chance": state.chance.events[seen_chance:]})  # fmt: skip
                seen_chance = len(state.chance.events)
            if self.check:
                self.violations.extend(f"game {index} action {actions}: {v}" for v in state.invariant_violations())
        return actions, seen_chance
