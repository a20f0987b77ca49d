"""Battlefield: Space, played from the two alliance decks and the rules facts of `card_data/battlefield-space`.

The battle sequence (rules.yaml `battle_sequence`): 2 form three columns from the top of each deck; 3 each player
draws three reinforcements and places them face down, one per column, then both are revealed; 4 Battle Modifiers
beside the battlefield resolve, highest resolution number first; 5 each column's totals are compared; 6 tied columns
take one more card from each player until they differ; 7 losers go to the Graveyard, winners to the Survivors pile.
An empty draw deck is rebuilt by shuffling the Survivors pile; the last fleet with cards left wins. Ship abilities
and modifier effects follow the facts `abilities`, `modifier_timings` and `modifier_effects` word for word.

Decisions are the player's: which column each reinforcement goes to, which column a targeted Battle Modifier aims
at, and where an extra card lands — every action is a column number (0–2). Play runs as a queue of small tasks kept
in the state (plain tuples), so a state clones cheaply even in the middle of a chain of play-another cards.

Readings the engine adds where the facts leave a choice to a player it does not model (recorded for the reference
sheet and the closing notes): among enemy ships of equal lowest Force, `destroy_weakest_enemy` takes the one revealed
last (each card's reveal is stamped by a clock; cards flipped together are stamped in seat order, red's columns
1–3 then blue's); cards drawn while breaking a tie stay in the tied column (a Battle Modifier there counts 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from cardgen.data.games import Game
from cardgen.engine.core import GameEngine, State
from cardgen.engine.games.battlefield_space.model import COLUMNS, Cards
from cardgen.engine.games.battlefield_space.state import BattlefieldState
from cardgen.engine.games.battlefield_space.view import visible_margin


class BattlefieldEngine(GameEngine):
    """The rules and both decks; `new_state` deals a game."""

    id = "battlefield-space"
    min_players = max_players = 2
    max_actions = 5_000
    # processor seconds a 2-player game, every seat one agent: the `game_seconds` of benchmarks/agent_strength.py's
    # one run over the five games (2026-11-29 night, seed 1; mcts worked out as a greedy game plus each seat's
    # thinking beyond greedy's in its games against greedy; a random game is under the 0.005 s it rounds to 0)
    game_seconds: ClassVar[Mapping[str, float]] = {"random": 0.005, "greedy": 0.01, "mcts": 21.6}

    def __init__(self, cards: Cards, decks: tuple[str, str], columns: int):
        self.cards = cards
        self.decks = decks
        self.columns = columns
        self.owned = tuple(tuple(i for i, o in enumerate(cards.owner) if o == p) for p in (0, 1))
        self.seat_of_item = dict(zip(cards.item, cards.owner, strict=True))
        ships = [f for f, m in zip(cards.force, cards.modifier, strict=True) if not m]
        self.mean_force = sum(ships) / len(ships) if ships else 0.0  # what an unseen reinforcement is worth on average

    @classmethod
    def from_game(cls, game: Game) -> BattlefieldEngine:
        columns = game.fact("columns")
        if columns != COLUMNS:
            raise ValueError(f"the engine plays {COLUMNS} columns; rules.yaml says {columns}")
        decks = tuple(game.fact("deck_alliance"))  # red-deck, blue-deck: seat 0 plays red
        rows: list[tuple[Any, ...]] = []
        for seat, deck in enumerate(decks):
            for item in game.component(deck).items:
                f = item.fields
                modifier = item.type == "modifier"
                row = (item.id, seat, modifier, 0 if modifier else f["force"], f.get("race") or "",
                       f.get("ability") or "none", f.get("ability_value") or f.get("effect_value") or 0,
                       f.get("resolution") or 0, f.get("timing") or "", f.get("effect") or "")  # fmt: skip
                rows.extend([row] * item.count)
        return cls(Cards(*map(tuple, zip(*rows, strict=True))), (decks[0], decks[1]), columns)

    def _new_state(self, players: int, seed: int) -> BattlefieldState:
        return BattlefieldState.deal(self, seed)

    def item_seat(self, item: str) -> int | None:
        """Each seat plays its own deck (`deck_alliance`): a card's effect is its owner's, whoever's move set it off."""
        return self.seat_of_item.get(item)

    def abilities(self) -> list[str]:
        c = self.cards
        return sorted({c.item[i] for i in range(len(c.item)) if c.modifier[i] or c.ability[i] != "none"})

    def action_value(self, state: State, action: Any, seat: int) -> float:
        """What the greedy agent sees: the visible column margins after the choice, never hidden cards or the deck."""
        assert isinstance(state, BattlefieldState)
        return visible_margin(state, seat, action)
