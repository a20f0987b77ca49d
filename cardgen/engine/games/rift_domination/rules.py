"""Rift Domination's fixed rules, read once from `card_data/rift-domination`: every number from rules.yaml, the
units from the unit cards, the factions from the faction sheets, the OCC deck, the planets and the condition tiles
from the cards and tiles that get printed, the board from the `board` fact. The game is in `state.py`; battles are
`battle.fight`, the rules of `cardgen odds rift-domination`.

The board is a graph of points (rulebook "Movement"): each system's point, its planets, and the systems beside it
(not diagonally). One movement point takes a unit from a planet to another planet of its system, between a system's
point and its planets, from a system's point to the next system's, and from a planet to the next system's point —
so a planet in the next system is two points away, as the rulebook counts. Border points are passed through, not
stopped at (a reading in rules.yaml).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from cardgen.data.games import Game
from cardgen.engine.boards import Distances
from cardgen.engine.core import GameEngine, State, shared_action
from cardgen.engine.games.rift_domination import view
from cardgen.engine.games.rift_domination.battle import Rules
from cardgen.engine.games.rift_domination.model import VOCABULARY, Effect, Faction, Move, Occ, Play
from cardgen.engine.games.rift_domination.odds import kinds_of
from cardgen.engine.games.rift_domination.state import RiftState


def plain(value: Any) -> Any:
    """Loaded data as plain dicts and lists (the loader's read-only mappings do not pickle; states carry the engine)."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


WEAPON_RANGES = ("close", "mid", "long")  # a unit card's weapons, in the order of `Kind.weapons`


class RiftEngine(GameEngine):
    """The rules facts, units, factions, OCC deck, planets, condition tiles and the board."""

    id = "rift-domination"
    max_actions = 60_000
    # The search scores the position it reaches (a battle under way fought through, `view.settled_values`) rather
    # than play on at random (a playout to the end took 4.8 s a decision at 50 iterations), and considers greedy's
    # best few moves first. 200 iterations won 22 of 32 games against greedy (51–82 %), 0.17 s a decision; 100 won
    # 21 of 32 (48–80 %) (benchmarks/agent_strength.py, 2026-11-29).
    playout_horizon = 0
    search_width = 1.0
    search_iterations = 200
    # processor seconds a 2-player game, every seat one agent: the `game_seconds` of benchmarks/agent_strength.py's
    # one run over the five games (2026-11-29 night, seed 1; mcts worked out as a greedy game plus each seat's
    # thinking beyond greedy's in its games against greedy)
    game_seconds: ClassVar[Mapping[str, float]] = {"random": 0.04, "greedy": 1.24, "mcts": 77.7}

    def __init__(self, game: Game):
        def f(name: str) -> Any:
            return plain(game.fact(name))

        self.min_players, self.max_players = game.players
        self.problems: list[str] = []
        self.distances = Distances()  # greedy's distance maps (`view.position`)
        self.battle_rules = Rules.from_facts(f)
        self.kinds = kinds_of(game)
        self.units: dict[str, Mapping[str, Any]] = {
            i.fields["unit_type"]: plain(i.fields) for i in game.component("unit-cards").items
        }
        # the kinds that cross into another system only aboard a carrier (`movement.carried`), read per move listed
        self.carried = frozenset(k for k, card in self.units.items() if int(card["used_capacity"]) > 0)
        # by unit type, as numbers (`movement.capacity`, `cargo`): what it carries, what it takes of a carrier, its
        # cost; and the types that take planets (ground units, negotiators), loaded first
        self.rooms = {k: int(card["capacity"]) for k, card in self.units.items()}
        self.needs = {k: int(card["used_capacity"]) for k, card in self.units.items()}
        self.costs = {k: int(card["cost"]) for k, card in self.units.items()}
        self.ground_kinds = frozenset(k for k, card in self.units.items() if card["role"] == "ground")
        self.takes_planets = self.ground_kinds | {k for k, card in self.units.items() if "negotiate" in card["skills"]}
        # each unit's Move actions without cargo by point, made when first listed (an action is a value: states
        # share them, and making them anew was much of a listing); forgotten past a bound on a sweep's memory
        self.move_actions: dict[int, dict[int, Move]] = {}
        self.tiles_per_colour: dict[str, int] = dict(f("unit_tiles_per_colour"))
        self.win_vp: dict[int, int] = {int(k): v for k, v in f("win_vp_by_players").items()}
        self.system_vp: int = f("system_control_vp")
        self.battle_vp: int = f("battle_win_vp")
        self.centre_vp: int = f("centre_planet_vp")
        self.occ_per_turn: int = f("occ_per_turn")
        self.setup_occ: int = f("setup_occ")
        self.fighters_per_turn: int = f("fighters_per_turn")
        self.track_step: int = f("resource_track_step")
        self.upgrades: dict[str, Mapping[str, Any]] = dict(f("upgrades"))
        self.warp: Mapping[str, int] = f("warp_effect")
        self.harvester_bonus: Mapping[str, int] = f("harvester_mines_bonus")
        self.civilized: Mapping[str, int] = f("civilized")
        self.dangerous_roll: int = f("dangerous_threshold")
        self.anomaly_infantry: int = f("anomaly_infantry")
        self.die: int = f("die_faces")
        self.repicks: int = f("faction_repicks")
        self.turn_cap = f("turn_cap")
        self.wormhole_tiles: int = f("tile_mix")["wormhole"]
        moves = f("movement_costs")
        self.wormhole_cost: int = moves["wormhole_reach"] + moves["wormhole_travel"]
        track = next(t for t in game.component("counter-tiles").items if t.fields["track"] == "resources")
        self.track_first, self.track_last = track.fields["first"], track.fields["last"]
        self.factions = [self._faction(i.id, i.fields) for i in game.component("faction-sheets").items]
        self.occ: list[Occ] = []
        for item in game.component("occ-cards").items:
            card = Occ(item.id, item.fields["name"], item.fields["when"], self._effects(item.id, item.fields, "occ"))
            self.occ += [card] * item.count
        # the OCC-cards that cancel another (`effects.cancels`), and those a player may play on their own turn (a
        # card that cancels is an answer, never played so)
        self.cancelling = frozenset(c for c, o in enumerate(self.occ) if any(e.verb == "cancel" for e in o.effects))
        self.own_turn = frozenset(c for c, o in enumerate(self.occ) if o.when in ("own-turn", "any-time")
                                  and o.effects and c not in self.cancelling)  # fmt: skip
        self.plays = [Play(c) for c in range(len(self.occ))]  # each card's Play, made once (a value: states share it)
        self.tiles: list[Mapping[str, Any]] = [
            plain(t.fields) for t in game.component("condition-tiles").items for _ in range(t.count)
        ]
        self._read_board(f("board"), [plain(i.fields) for i in game.component("planet-cards").items])
        self.extra_slots = max((f.modifier("upgrade-slots") or 0) for f in self.factions)
        self._battle_variants()

    def _effects(self, item: str, fields: Mapping[str, Any], where: str) -> tuple[Effect, ...]:
        statements = fields.get("effects") or []
        if not statements:
            what = "OCC-card" if where == "occ" else "faction"
            self.problems.append(f"{what} '{item}': no effects the engine can execute; it plays without its text")
        parsed, problem = VOCABULARY.read(item, statements, where, "OCC-card" if where == "occ" else "faction")
        if problem:
            self.problems.append(problem)
        return parsed

    def _faction(self, item: str, f: Mapping[str, Any]) -> Faction:
        return Faction(item, f["name"], tuple(f["starting_units"].items()), f["starting_resources"],
                       tuple((f.get("starting_upgrades") or {}).items()), tuple(f["buildable"]),
                       f["roster_expansions"], f.get("income") or 0, self._effects(item, f, "faction"))  # fmt: skip

    def _read_board(self, board: Mapping[str, Any], planets: list[Mapping[str, Any]]) -> None:
        columns, rows = list(board["columns"]), int(board["rows"])
        self.systems = [f"{c}{r}" for r in range(1, rows + 1) for c in columns]
        self.reduced = set(board["reduced_columns"])
        self.start_systems = {"white": list(board["white"]), "yellow": list(board["yellow"])}
        self.centre = set(board["centre"])
        self.planets = sorted(planets, key=lambda p: (self.systems.index(p["system"]), p["slot"]))
        n_sys = len(self.systems)
        self.node_label = self.systems + [p["name"] for p in self.planets]
        self.node_system = list(range(n_sys)) + [self.systems.index(p["system"]) for p in self.planets]
        self.is_planet = [False] * n_sys + [True] * len(self.planets)
        where = {s: (columns.index(s[0]), int(s[1:])) for s in self.systems}

        def apart(a: str, b: str) -> int:
            return abs(where[a][0] - where[b][0]) + abs(where[a][1] - where[b][1])

        self.system_next = [[t for t, other in enumerate(self.systems) if apart(s, other) == 1] for s in self.systems]
        self.system_planets = [
            [n_sys + i for i, p in enumerate(self.planets) if p["system"] == s] for s in self.systems
        ]
        self.edges: list[list[int]] = [[] for _ in self.node_label]
        for s in range(n_sys):
            for nxt in self.system_next[s]:
                self.edges[s].append(nxt)
            for p in self.system_planets[s]:
                self.edges[s].append(p)
                self.edges[p].append(s)
                self.edges[p] += [q for q in self.system_planets[s] if q != p]
                self.edges[p] += list(self.system_next[s])

    def _battle_variants(self) -> None:
        """A faction's `unit-stat` effects as kinds of their own (appended to `kinds`), so one battle can hold both
        sides' versions of a unit: `variant[(faction, kind name, ground)]` is the kind's index for that faction."""
        self.variant: dict[tuple[int, str, bool], int] = {}
        for f, faction in enumerate(self.factions):
            for ground in (False, True):
                changes: dict[str, dict[str, int]] = {}
                for e in faction.effects:
                    if e.verb == "unit-stat" and (e.opt("where") != "ground" or ground):
                        changes.setdefault(e.opt("unit"), {})[e.opt("stat")] = e.amount
                for name, stats in changes.items():
                    base = next((k for k in self.kinds if k.name == name), None)
                    if base is None:
                        self.problems.append(f"faction '{faction.item}': unit-stat names no unit or upgrade '{name}'")
                        continue
                    close, mid, long = (w + stats.get(r, 0) for w, r in zip(base.weapons, WEAPON_RANGES, strict=True))
                    weapons = (close, mid, long)
                    self.variant[(f, name, ground)] = len(self.kinds)
                    self.kinds.append(dataclasses.replace(base, lp=base.lp + stats.get("lp", 0),
                                                          shields=base.shields + stats.get("shields", 0),
                                                          weapons=weapons))  # fmt: skip

    def in_play(self, players: int) -> list[bool]:
        """Nodes on the board at a player count: the whole board at 5–6 players, the marked area below."""
        full = players > max(len(self.start_systems["yellow"]), 4)
        return [full or self.systems[self.node_system[n]][0] in self.reduced for n in range(len(self.node_label))]

    def start_colour(self, players: int) -> str:
        return "white" if players > len(self.start_systems["yellow"]) else "yellow"

    def home_planet(self, system: int, colour: str) -> int:
        """The starting planet of a starting system (its planet card's `start` names the colour)."""
        first = len(self.systems)
        return next(h for h in self.system_planets[system] if self.planets[h - first]["start"] == colour)

    def move_action(self, uid: int, to: int) -> Move:
        """The Move of unit `uid` to point `to`, carrying nothing (`move_actions`)."""
        return shared_action(self.move_actions, uid, to, Move)

    @classmethod
    def from_game(cls, game: Game) -> RiftEngine:
        return cls(game)

    def _new_state(self, players: int, seed: int) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Rift Domination plays {self.min_players}–{self.max_players} players, not {players}")
        return RiftState.setup(self, players, seed)

    def data_problems(self) -> list[str]:
        return list(self.problems)

    def adjudicate(self, state: State) -> list[float]:
        assert isinstance(state, RiftState)
        return state.standings()

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, RiftState)
        return view.outlook(state, player)

    def action_value(self, state: State, action: Any, player: int) -> float:
        assert isinstance(state, RiftState)
        return view.action_value(self, state, action, player)

    def playout_value(self, state: State) -> list[float]:
        assert isinstance(state, RiftState)
        return view.settled_values(state)

    def _faction_balance(self, seen: Counter[str]) -> list[str]:
        """Factions whose share of wins lies outside the 95 % Wilson interval around an even game's 1/players (a
        faction needs 30 games to be judged; a shared win counts as a win)."""
        from cardgen.engine.runner import wilson

        counts = [int(k.split(":")[1]) for k in seen if k.startswith("players:")]
        if len(counts) != 1:
            return []
        fair = 1 / counts[0]
        out = []
        for faction in self.factions:
            played, won = seen[f"faction:{faction.item}"], seen[f"won:{faction.item}"]
            if played < 30:
                continue
            low, high = wilson(won / played, played)
            if not low <= fair <= high:
                out.append(f"faction '{faction.item}' wins {won / played:.0%} of {played} games (95 % interval "
                           f"{low:.0%}–{high:.0%}), not the {fair:.0%} of an even game")  # fmt: skip
        return out

    def event_problems(self, seen: Counter[str], games: int) -> list[str]:
        """OCC-cards never played, unit types never recruited, factions never chosen, condition tiles that ran out."""
        playable = sorted({o.item for o in self.occ if o.when != "instant" and o.effects})  # the rest are reported
        out = [f"OCC-card '{c}': never played in {games} games" for c in playable if not seen[f"play:{c}"]]
        out += [f"unit '{k}': never recruited in {games} games" for k in self.units if not seen[f"recruit:{k}"]]
        out += self._faction_balance(seen)
        if seen["tiles-ran-out"]:
            out.append(
                f"condition tiles ran out before every planet had one in {seen['tiles-ran-out']} of {games} games"
            )
        return out
