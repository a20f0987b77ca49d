"""Space Empires 4X's fixed rules, read once from `card_data/space-empires-4x`: every number from rules.yaml
(`game.fact`), the system markers from the marker files that get printed, the map from the `map` fact. The game
itself is in `state.py`; battles are resolved by `combat.fight`, the same rules as the `cardgen odds` calculator.

Played: the Basic Rules for 1–4 players (the Advanced units and technologies are printed but not played; Warp Points
and Doomsday Machines are empty space, as the summary says of the Basic Rules). Every reading the engine adds where
the summary is silent is a fact or a contradiction entry in rules.yaml: the turn cap, upgrades at Ship Yards, bids,
a damaged Homeworld's regrowth, Black Holes at every entry, Minerals paying once, units moving one at a time, the
solitaire run and the first round's order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from cardgen.data.games import Game
from cardgen.engine.boards import Distances, hex_distance, hex_neighbours, offset_to_axial
from cardgen.engine.core import GameEngine, State, shared_action
from cardgen.engine.games.space_empires_4x import view
from cardgen.engine.games.space_empires_4x.combat import Rules
from cardgen.engine.games.space_empires_4x.model import MarkerSpec, Move, UnitSpec
from cardgen.engine.games.space_empires_4x.state import SE4XState

EFFECT_MARKERS = ("minerals", "planet", "barren", "nebula", "asteroids", "black-hole", "danger", "lost-in-space",
                  "supernova", "space-wreck")  # fmt: skip  # the kinds whose effect the Basic Rules give


class SE4XEngine(GameEngine):
    """The rules facts, the units, the system markers and the map."""

    id = "space-empires-4x"
    max_actions = 120_000
    playout_horizon = 60  # a search's playout stops after 60 actions (a turn or two) and is scored by `outlook`
    # The search decides only the moves that may start a battle (`SE4XState.searched`), greedy playing the rest and
    # the playouts; 32 iterations a decision, greedy's best few moves first.
    playout_policy = "greedy"
    search_width = 1.0
    search_iterations = 32
    # processor seconds a 2-player game, every seat one agent: the `game_seconds` of benchmarks/agent_strength.py's
    # one run over the five games (2026-11-29 night, seed 1; mcts worked out as a greedy game plus each seat's
    # thinking beyond greedy's in its games against greedy)
    game_seconds: ClassVar[Mapping[str, float]] = {"random": 0.13, "greedy": 0.39, "mcts": 335.9}

    def __init__(self, game: Game):
        f = game.fact
        self.min_players, self.max_players = game.players
        self.combat = Rules.from_facts(f)
        self.colours: list[str] = list(f("player_colours"))
        self.map_players: dict[int, list[str]] = {int(k): list(v) for k, v in f("map_players").items()}
        self.units: dict[str, UnitSpec] = {}
        exempt = set(f("maintenance_exempt"))
        for code, u in f("units").items():
            self.units[code] = UnitSpec(code, u["name"], u["cost"], u.get("class"), u.get("attack") or 0,
                                        u.get("defense") or 0, u["hull"], u.get("size_tech") or 1,
                                        bool(u.get("maintenance")) and code not in exempt,
                                        u.get("rules") == "basic")  # fmt: skip
        self.limits: dict[str, int] = dict(f("counter_limits"))
        self.numbered = set(f("numbered_units"))
        self.distances = Distances()  # greedy's distance maps (`view.distances`)
        self.singles = set(f("single_ship_units"))
        self.group_max: int = f("group_size")["max"]
        self.size_markers: int = f("group_size_markers_per_value")
        self.start_forces: dict[str, int] = dict(f("starting_forces"))
        self.start_groups: dict[str, int] = dict(f("starting_groups"))
        self.initial = list(f("initial_buildable"))
        self.turns_per_round: int = f("turns_per_round")
        self.movement: dict[int, list[int]] = {int(k): list(v) for k, v in f("movement_table").items()}
        slow = f("slow_units")
        self.slow, self.slow_max = set(slow["units"]), int(slow["max"])
        self.immobile = set(f("immobile_units"))
        self.die: int = f("die_faces")
        self.black_hole_kills: int = f("black_hole_roll")["destroyed"][0]
        self.wreck_table: list[tuple[str, int, int]] = [(t, lo, hi) for t, (lo, hi) in f("space_wreck_table").items()]
        self.growth: list[int] = list(f("colony_growth"))
        self.home_steps: list[int] = list(f("homeworld_steps"))
        self.colony_hit: int = f("colony_hit_step")
        self.home_hit: int = f("homeworld_hit_step")
        self.carry_max: int = f("cp_carry_over_max")
        self.home_income: int = f("homeworld_income")
        self.colonies_max: int = f("colony_counters_per_player")["colony"] // 2  # a 1|3 and a 5|3 counter each
        research = f("research")
        upgrades = f("technology_upgrades")
        self.techs = [t for t in f("research_order") if t in upgrades]  # the Basic Rules' technologies
        self.tech_start = {t: int(research[t]["start"]) for t in self.techs}
        self.tech_max = {t: self.tech_start[t] + int(upgrades[t]) for t in self.techs}
        self.tech_cost = {t: {int(k): int(v) for k, v in research[t]["costs"].items()} for t in self.techs}
        self.yard_capacity: dict[int, float] = {int(k): float(v) for k, v in f("ship_yard_capacity").items()}
        self.upgrade_cost: int = f("upgrade_cost_per_hull")
        bids = f("bids")
        self.bid_amounts: list[int] = list(bids["amounts"])
        self.regrowth: int = f("homeworld_regrowth")
        self.turn_cap = f("turn_cap")  # Economic Phases (state.turns counts them)
        self.buildable = [c for c in f("unit_order") if self.units[c].basic]
        # each unit's Move action by hex, made when first listed (an action is a value: states share them, and a
        # listing that made them anew spent much of its time there); forgotten past a bound on a sweep's memory
        self.move_actions: dict[int, dict[int, Move]] = {}
        self.markers: list[MarkerSpec] = []
        for component in ("deep-space-markers", "home-system-markers"):
            for item in game.component(component).items:
                fields = item.fields
                spec = MarkerSpec(item.id, fields["set"], fields.get("player"), fields["kind"], fields.get("cp") or 0,
                                  fields.get("number") or 0)  # fmt: skip
                self.markers += [spec] * item.count
        self._read_map(f("map")["rows"])

    def _read_map(self, rows: list[str]) -> None:
        """Hexes from the map's rows ('.' Deep Space, a colour's letter its Home System, upper case its Homeworld)."""
        letters = {c[0]: c for c in self.colours}
        self.hex_region: list[str] = []  # 'deep' or a colour
        self.hex_axial: list[tuple[int, int]] = []
        self.hex_label: list[str] = []
        self.homeworld: dict[str, int] = {}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "-":
                    continue
                if ch == ".":
                    region = "deep"
                elif ch.lower() in letters:
                    region = letters[ch.lower()]
                    if ch.isupper():
                        self.homeworld[region] = len(self.hex_region)
                else:
                    raise ValueError(f"map: row {r + 1} has '{ch}', which is no region")
                self.hex_region.append(region)
                self.hex_axial.append(offset_to_axial(c, r, "odd-r"))
                self.hex_label.append(f"{r + 1}.{c + 1}")
        where = {a: h for h, a in enumerate(self.hex_axial)}
        self.neighbours_all = [[where[n] for n in hex_neighbours(cell) if n in where] for cell in self.hex_axial]
        self._in_play: dict[int, list[bool]] = {}
        self._adjacent: dict[int, list[list[int]]] = {}

    def in_play(self, players: int) -> list[bool]:
        """Which hexes are on the map at a player count (absent colours' Home Systems are out of play)."""
        if players not in self._in_play:
            colours = set(self.map_players[players])
            self._in_play[players] = [r == "deep" or r in colours for r in self.hex_region]
            on = self._in_play[players]
            self._adjacent[players] = [[n for n in near if on[n]] for near in self.neighbours_all]
        return self._in_play[players]

    def adjacent(self, players: int) -> list[list[int]]:
        self.in_play(players)
        return self._adjacent[players]

    def distance(self, a: int, b: int) -> int:
        return hex_distance(self.hex_axial[a], self.hex_axial[b])

    def move_action(self, uid: int, to: int) -> Move:
        """The Move of unit `uid` to hex `to` (`move_actions`)."""
        return shared_action(self.move_actions, uid, to, Move)

    @classmethod
    def from_game(cls, game: Game) -> SE4XEngine:
        return cls(game)

    def _new_state(self, players: int, seed: int) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Space Empires 4X plays {self.min_players}–{self.max_players} players, not {players}")
        return SE4XState.setup(self, players, seed)

    # -- results and reports ---------------------------------------------------------------------------------------

    def adjudicate(self, state: State) -> list[float]:
        """A game stopped at the turn cap: the best empire (Homeworld, colonies, fleet, technology) wins."""
        assert isinstance(state, SE4XState)
        worth = [view.empire(state, p) if p not in state.out else float("-inf") for p in range(state.n)]
        best = max(worth)
        winners = [p for p, w in enumerate(worth) if w == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(state.n)]

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, SE4XState)
        return view.outlook(state, player)

    def action_value(self, state: State, action: Any, player: int) -> float:
        assert isinstance(state, SE4XState)
        return view.action_value(state, action, player)

    def event_problems(self, seen: Counter[str], games: int) -> list[str]:
        """Data problems from what happened across games: a technology never bought, a unit never built, a marker
        whose effect never triggered, a purchase limit never reached or reached in every game."""
        out = [f"technology '{t}': never bought in {games} games" for t in self.techs if not seen[f"research:{t}"]]
        out += [f"unit '{c}': never built in {games} games" for c in self.buildable if not seen[f"build:{c}"]]
        kinds = sorted({m.kind for m in self.markers if m.kind in EFFECT_MARKERS})
        out += [f"marker '{k}': its effect never triggered in {games} games" for k in kinds if not seen[f"marker:{k}"]]
        never = [c for c in self.buildable if seen[f"build:{c}"] and not seen[f"limit:{c}"]]
        if never:
            out.append(f"purchase limits never reached in {games} games: {', '.join(never)}")
        always = [c for c in self.buildable if games >= 20 and seen[f"limit:{c}"] == games]
        if always:
            out.append(f"purchase limits reached in every one of {games} games: {', '.join(always)}")
        return out
