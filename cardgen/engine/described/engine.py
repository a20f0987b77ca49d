"""The engine of a game described by its rules file: the same `GameEngine` surface as the bundled games' Python.

`cardgen play`, `replay`, `balance`, `--check`, the greedy agent (on the rules file's `evaluate:` weights) and the
search agent (on `hidden.determinize`) work on it unchanged. It is built once per process from the game's data and
its engine.yaml (`build.Builder`), and holds what the states read: the cards, where each zone and value lives, the
compiled steps, the verbs of the cards' effects, the end conditions, the score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardgen import limits
from cardgen.data.games import Game
from cardgen.engine.core import GameEngine, State
from cardgen.engine.described import (  # noqa: F401  (each declares its step kinds)
    battles,
    choices,
    control,
    plain,
    windows,
)
from cardgen.engine.described.build import Builder, Fixed, Standalone
from cardgen.engine.described.codegen import Unit
from cardgen.engine.described.compiler import Compiler, Frame, Names, Scope
from cardgen.engine.described.layout import Cards, Family, Zone
from cardgen.engine.described.source import ZoneSpec, read_spec, rules_file
from cardgen.engine.described.state import DescribedState
from cardgen.engine.described.steps import Block, Procedure, StepCompiler
from cardgen.engine.described.verbs import Verb, read_effects, verbs
from cardgen.engine.rng import CounterRng
from cardgen.errors import DataError, Location, display_path


class DescribedEngine(GameEngine):
    """A game played from its rules file (see the module's docstring)."""

    def __init__(self, game: Game):
        path = rules_file(game.folder)
        if path is None:
            raise DataError(f"{display_path(game.folder)}: no engine.yaml")
        spec, doc = read_spec(path)
        self.id = game.id
        self.where = Location(display_path(path))
        counts = list(spec.players) if spec.players else list(game.players)
        if len(counts) != 2 or not 1 <= counts[0] <= counts[1] <= 99:
            raise DataError(f"{doc.where(('players',))}: players: is [fewest, most], from 1 to 99")
        low, high = counts
        self.min_players, self.max_players = low, high
        self.max_actions, self.turn_cap, self.playout_horizon = spec.max_actions, spec.turn_cap, spec.playout_horizon
        self.perfect_information = False
        self.most_steps, self.most_items = limits.current().rules_steps, limits.current().rules_items
        self.procedures: dict[str, Procedure] = {}
        self.verbs: dict[str, Verb] = {}
        self.triggers: list[str] = list(spec.effects.triggers)
        self.turn: Procedure | None = None
        self.problems_found: list[str] = []
        self.unit = Unit()
        self.unit.namespace["_most_steps"] = self.most_steps  # the loops' step budget, read by generated code
        builder = Builder(self, game, spec, doc)
        self.cards: Cards = builder.cards()
        self._layout(builder)
        names = Names(self.families, self.mark_index, self.cards, {}, facts=builder.facts())
        builder.check_names(names)
        names.constants.update(builder.tables(names))
        names.constants.update(builder.boards(names))
        for name, raw in spec.constants.items():
            names.constants[name] = builder.constant(raw, ("constants", name), names, "the constant")
        compiler = Compiler(names, self.unit, Fixed(self))
        self._zones(builder, compiler, names)
        self._values(builder, compiler, names)
        builder.functions(names, compiler)
        self.battles = battles.compile_kinds(
            spec.battles, lambda raw, path: builder.standalone(raw, path, compiler, name="x")
        )
        self.sealed = False  # a `simultaneous` step hides commitments: then no game is of perfect information
        steps = StepCompiler(compiler, builder.where, self)
        if spec.turn:  # named before the procedures and the round, which may take turns; compiled after them
            self.turn = Procedure(["player"], Frame(), {"player": 0})
        builder.procedures(steps)
        self.verbs = verbs(builder, steps)
        if self.turn is not None:
            scope = Scope(self.turn.frame)
            scope.bind("player")
            self.turn.block = steps.block(spec.turn, scope, ("turn",))
        self.setup, setup_frame, _ = builder.block(steps, spec.setup, ("setup",))
        self.setup_size = setup_frame.size
        raw_round = spec.round or ([{"turns": None}] if spec.turn else [])
        if not raw_round:
            builder.problem("the rules need a round: or a turn: (what happens, over and over, until the game ends)",
                            ())  # fmt: skip
        self.round, round_frame, _ = builder.block(steps, raw_round, ("round",))
        self.round_size = round_frame.size
        for message, where in steps.problems:
            builder.problem(message, where)
        if not steps.problems:
            steps.finish()
        self._ending(builder, compiler)
        self.perfect_information = self.perfect_information and not self.sealed
        statements, problems = read_effects(self, game, spec)
        self.cards.statements = statements
        self.problems_found += problems
        builder.finish()

    @classmethod
    def from_game(cls, game: Game) -> DescribedEngine:
        return cls(game)

    # -- layout -------------------------------------------------------------------------------------------------------

    def _layout(self, builder: Builder) -> None:
        spec, seats = builder.spec, self.max_players
        names = Names({}, {}, self.cards, {}, facts=builder.facts())
        self.families: dict[str, Family] = {}
        zone_specs = dict(spec.zones)
        if "box" not in zone_specs:
            zone_specs = {"box": ZoneSpec(about="where every card starts"), **zone_specs}
        self.zone_count = self._families(builder, names, "zone", zone_specs)
        self.box = self.families["box"].base
        self.zone_specs = zone_specs
        self.value_count = self._families(builder, names, "value", dict(spec.values))
        self.mark_index = {name: index for index, name in enumerate(spec.marks)}
        self.marks_start = tuple(
            builder.constant(raw, ("marks", name), names, "the mark's start") for name, raw in spec.marks.items()
        )
        self.zone_family: list[tuple[Family, int]] = []
        for family in self.families.values():
            if family.kind == "zone":
                self.zone_family += [(family, offset) for offset in range(family.size(seats))]
        self.zone_labels = [family.label(offset) for family, offset in self.zone_family]
        pools = [(c, o) for c, o in zip(self.cards.component, self.cards.owner, strict=True)]
        self.pool: tuple[Any, ...] = tuple(pools)

    def zone_seat(self, zone: int) -> int | None:
        family, offset = self.zone_family[zone]
        return family.seat(offset)

    def _zones(self, builder: Builder, compiler: Compiler, names: Names) -> None:
        self.zone_visible = [""] * self.zone_count
        self.random_draw = [False] * self.zone_count
        self.refill: dict[int, tuple[int, bool]] = {}
        self.fill: dict[int, tuple[Standalone, int, bool]] = {}
        self.accepts: dict[int, Any] = {}
        self.limits: list[tuple[int, Standalone]] = []
        self.zone_rules: dict[str, Zone] = {}
        for name, spec in self.zone_specs.items():
            family = self.families[name]
            path = ("zones", name)
            zone = Zone(family, spec.visible, spec.draw, where=builder.where(path))
            if spec.refill is not None:
                source = self._same_shape(builder, family, spec.refill.from_, (*path, "refill", "from"))
                zone.refill_from, zone.refill_shuffle = source, spec.refill.shuffle
            size = builder.standalone(spec.size, (*path, "size"), compiler)
            limit = builder.standalone(spec.limit, (*path, "limit"), compiler)
            for offset in range(family.size(self.max_players)):
                instance = family.base + offset
                self.zone_visible[instance] = spec.visible
                self.random_draw[instance] = spec.draw == "random"
                if zone.refill_from is not None:
                    self.refill[instance] = (zone.refill_from.base + offset, zone.refill_shuffle)
                for bound in (size, limit):
                    if bound is not None:
                        self.limits.append((instance, bound))
            if spec.accepts is not None:
                self._accepts(builder, compiler, family, spec.accepts, (*path, "accepts"))
            self.zone_rules[name] = zone
            if spec.fill_from is not None:
                self._fill(builder, family, spec.fill_from, size, (*path, "fill_from"), spec.short == "allowed")
        self.perfect_information = all(spec.visible == "everyone" for spec in self.zone_specs.values())

    def _fill(
        self, builder: Builder, family: Family, name: str, size: Standalone | None, path: tuple[str, ...], short: bool
    ) -> None:
        """A line-up dealt from another zone: the same instance of a zone shaped alike, or its only instance."""
        source = self.families.get(name)
        if source is None or source.kind != "zone":
            builder.unknown(name, [n for n, f in self.families.items() if f.kind == "zone"], "zone", path)
            return
        if size is None:
            builder.problem("a zone dealt with fill_from: needs its size:", path)
            return
        alike = (source.per_player, source.count) == (family.per_player, family.count)
        if not alike and source.size(self.max_players) != 1:
            builder.problem(f"'{name}' is neither shaped like '{family.name}' nor a single zone", path)
            return
        for offset in range(family.size(self.max_players)):
            self.fill[family.base + offset] = (size, source.base + (offset if alike else 0), short)

    def _families(self, builder: Builder, names: Names, kind: str, specs: dict[str, Any]) -> int:
        """Zones or values laid out one family after another (`each: player`, `count:`); how many instances."""
        base, section = 0, f"{kind}s"
        for name, spec in specs.items():
            count = builder.constant(spec.count, (section, name, "count"), names, "how many") if spec.count else None
            if count is not None and not (isinstance(count, int) and 1 <= count <= 10_000):
                builder.problem(f"count: must be a whole number from 1 to 10,000, not {count!r}", (section, name))
                count = 1
            family = Family(name, kind, base, spec.each == "player", count)
            self.families[name] = family
            base += family.size(self.max_players)
        return base

    def _same_shape(self, builder: Builder, family: Family, name: str, path: tuple[str, ...]) -> Family | None:
        source = self.families.get(name)
        if source is None or source.kind != "zone":
            builder.unknown(name, [n for n, f in self.families.items() if f.kind == "zone"], "zone", path)
            return None
        if (source.per_player, source.count) != (family.per_player, family.count):
            builder.problem(f"'{name}' is not shaped like '{family.name}' (each player, count)", path)
            return None
        return source

    def _accepts(self, builder: Builder, compiler: Compiler, family: Family, raw: str, path: tuple[str, ...]) -> None:
        accepts = builder.standalone(raw, path, compiler, name="card")
        if accepts is not None:
            for offset in range(family.size(self.max_players)):
                self.accepts[family.base + offset] = accepts

    def _values(self, builder: Builder, compiler: Compiler, names: Names) -> None:
        self.value_starts: list[tuple[Family, Standalone]] = []
        self.bounds: list[tuple[Family, Standalone | None, Standalone | None]] = []
        for name, spec in builder.spec.values.items():
            family, path = self.families[name], ("values", name)
            start = builder.standalone(spec.start, (*path, "start"), compiler)
            if start is not None:
                self.value_starts.append((family, start))
            elif spec.start is None:
                self.value_starts.append((family, lambda s, player: None))
            low = builder.standalone(spec.min, (*path, "min"), compiler)
            high = builder.standalone(spec.max, (*path, "max"), compiler)
            if low is not None or high is not None:
                self.bounds.append((family, low, high))

    # -- ending and scoring -------------------------------------------------------------------------------------------

    def _ending(self, builder: Builder, compiler: Compiler) -> None:
        spec = builder.spec
        self.endings: list[tuple[Standalone, Standalone, str]] = []
        for number, end in enumerate(spec.end):
            when = builder.standalone(end.when, ("end", number, "when"), compiler)
            text = builder.template(end.ending, ("end", number, "ending"), compiler)
            if when is not None and text is not None:
                self.endings.append((when, text, end.after))
        self.checks_actions = any(after == "action" for _, _, after in self.endings)
        self.score = builder.standalone(spec.score, ("score",), compiler) or (lambda s, player: 0)
        self.tiebreak = [builder.standalone(raw, ("tiebreak", n), compiler) for n, raw in enumerate(spec.tiebreak)]
        self.draws = spec.draws
        self.evaluation = [
            (fn, weight)
            for raw, weight in spec.evaluate.items()
            if (fn := builder.standalone(raw, ("evaluate", raw), compiler)) is not None
        ]
        self.checks: list[tuple[Standalone, Standalone, bool]] = []
        for number, invariant in enumerate(spec.invariants):
            check = builder.standalone(invariant.check, ("invariants", number, "check"), compiler)
            message = builder.template(invariant.message, ("invariants", number, "message"), compiler)
            if check is not None and message is not None:
                self.checks.append((check, message, invariant.each == "player"))

    def results(self, state: DescribedState) -> list[float]:
        """Each seat's result once the game is over: 1 to the best score (tie-breaks in order), split or shared
        among tied winners (`draws:`); 0 to the others and to eliminated seats."""
        alive = [seat for seat in range(state.n) if seat not in state.out]
        if not alive:
            return [0.0] * state.n
        keys = {seat: (self.score(state, seat), *(t(state, seat) for t in self.tiebreak if t)) for seat in alive}
        best = max(keys.values())
        winners = [seat for seat in alive if keys[seat] == best]
        share = 1.0 if self.draws == "shared" else 1.0 / len(winners)
        return [share if seat in winners else 0.0 for seat in range(state.n)]

    def adjudicate(self, state: State) -> list[float]:
        """A game stopped at its turn cap is judged by the score as it stands (tie-breaks, draws as written)."""
        assert isinstance(state, DescribedState)
        return self.results(state)

    # -- the engine surface -------------------------------------------------------------------------------------------

    def _new_state(self, players: int, seed: int) -> DescribedState:
        return DescribedState.setup(self, players, seed)

    def heuristic(self, state: State, player: int) -> float:
        """The rules file's `evaluate:` weights over the player's position (a finished game: its result)."""
        assert isinstance(state, DescribedState)
        if state.is_terminal():
            return 1000.0 * state.returns()[player]
        return float(sum(weight * fn(state, player) for fn, weight in self.evaluation))

    def action_value(self, state: State, action: Any, player: int) -> float:
        """Judged only by what the player sees: the action applied to a determinization of their view."""
        assert isinstance(state, DescribedState)
        seed = hash((state.rng.key, state.rng.counter, len(state.chance.events))) & ((1 << 63) - 1)
        trial = state.determinize(player, CounterRng(seed)) if not state.perfect_information else state.clone()
        trial.do(action, chance=False)
        return self.heuristic(trial, player)

    def abilities(self) -> Sequence[str]:
        return sorted({self.cards.item[c] for c in self.cards.cards if self.cards.statements[c]})

    def item_seat(self, item: str) -> int | None:
        owners = {self.cards.owner[c] for c in self.cards.cards if self.cards.item[c] == item}
        return next(iter(owners)) if len(owners) == 1 and None not in owners else None

    def data_problems(self) -> Sequence[str]:
        return self.problems_found


__all__ = ["Block", "DescribedEngine"]
