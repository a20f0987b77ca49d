"""Building a described game's engine from its data and its rules file: cards, zones, values, names, compiled steps.

`Builder` reads the sections of engine.yaml (`source.Spec`) in the order names depend on each other — cards, zones,
values and marks, tables and facts, constants, functions and procedures (named first, compiled after, so each may
use the others), verbs, then the game's blocks and its ending — and collects every problem with its location, raising
them together. The engine it fills (`engine.DescribedEngine`) holds only the results.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardgen.data.games import Game
from cardgen.data.yaml_source import YamlDocument
from cardgen.engine.described.compiler import BUILT_IN_NAMES, Compiler, Fn, Frame, Names, Scope
from cardgen.engine.described.functions import FUNCTIONS
from cardgen.engine.described.layout import BUILT_IN_ATTRIBUTES, Card, Cards, Family, Zone
from cardgen.engine.described.source import Spec
from cardgen.engine.described.steps import Block, Procedure, StepCompiler, StepProblem
from cardgen.engine.described.syntax import SyntaxProblem, parse
from cardgen.engine.described.userfunctions import UserFunction
from cardgen.errors import DataError, Location, Problem, clipped, did_you_mean

if TYPE_CHECKING:
    from cardgen.engine.described.engine import DescribedEngine

Path = tuple[str | int, ...]
Standalone = Callable[[Any, Any], Any]  # an expression of the state and a seat (or None)


class Builder:
    """Fills a `DescribedEngine` from a game and its rules file; `problems` are raised together by `finish`."""

    def __init__(self, engine: DescribedEngine, game: Game, spec: Spec, doc: YamlDocument):
        self.engine, self.game, self.spec, self.doc = engine, game, spec, doc
        self.problems: list[Problem] = []

    def where(self, path: Path) -> Location:
        return self.doc.where(path)

    def problem(self, message: str, path: Path) -> None:
        self.problems.append(Problem(self.where(path), message))

    def finish(self) -> None:
        if self.problems:
            raise DataError(self.problems)

    # -- cards --------------------------------------------------------------------------------------------------------

    def cards(self) -> Cards:
        rows: list[tuple[str, str, int | None, str | None, Any]] = []
        seats = self.engine.max_players
        each: dict[str, int] = {}
        for number, entry in enumerate(self.spec.cards):
            try:
                component = self.game.component(entry.component)
            except DataError as exc:
                self.problem(exc.problems[0].message, ("cards", number, "component"))
                continue
            owners: list[int | None] = list(range(seats)) if entry.each else [entry.owner]
            if entry.each:
                each[component.id] = seats
            for owner in owners:
                for item in component.items:
                    for key in item.fields:
                        if key in BUILT_IN_ATTRIBUTES:
                            self.problem(f"{item.where}: the field '{key}' has the name of a card's built-in "
                                         "attribute; rename the field", ("cards", number))  # fmt: skip
                    rows.extend([(component.id, item.id, owner, item.type, item.fields)] * item.count)
        names = sorted({key for row in rows for key in row[4]})
        fields = {name: tuple(row[4].get(name) for row in rows) for name in names}
        cards = tuple(Card(i) for i in range(len(rows)))
        by_component: dict[str, list[Card]] = {}
        for card, row in zip(cards, rows, strict=True):
            by_component.setdefault(row[0], []).append(card)
        return Cards(tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows),
                     tuple(r[3] for r in rows), fields, (), cards,
                     {k: tuple(v) for k, v in by_component.items()}, each)  # fmt: skip

    # -- constants ----------------------------------------------------------------------------------------------------

    def constant(self, raw: Any, path: Path, names: Names, what: str = "a number") -> Any:
        """A value fixed before play (a count, a mark's start): a YAML value, or an expression of facts."""
        if not isinstance(raw, str):
            return raw
        try:
            code = Compiler(names, self.engine.unit, Fixed(self.engine)).code(parse(raw), Scope(Frame()))
            if code.constant:
                return code.value
            return self.engine.unit.expression(code.text, self.where(path))(Fixed(self.engine), [None] * 64)
        except SyntaxProblem as exc:
            self.problem(f"{exc} (in '{clipped(raw, 60)}', column {exc.column})", path)
        except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as exc:
            self.problem(f"cannot work out {what}: {exc}", path)
        return None

    def standalone(self, raw: Any, path: Path, compiler: Compiler, name: str = "player") -> Standalone | None:
        """An expression of the state and one name (`player`: a seat or None; `card` for `accepts:`) run outside
        any block: a start, a bound, a size, an end condition, a score."""
        if raw is None:
            return None
        if not isinstance(raw, str):
            value = raw
            return lambda s, player: value
        scope = Scope(Frame())
        local = compiler.unit.fresh("p")
        scope.bind_python(name, local)
        try:
            code = compiler.code(parse(raw), scope)
        except SyntaxProblem as exc:
            self.problem(f"{exc} (in '{clipped(raw, 60)}', column {exc.column})", path)
            return None
        fn: Standalone = compiler.unit.expression(code.text, self.where(path), params=f"s, {local}")
        return fn

    def template(self, raw: str, path: Path, compiler: Compiler) -> Standalone | None:
        steps = StepCompiler(compiler, self.where, self.engine)
        scope = Scope(Frame())
        local = compiler.unit.fresh("p")
        scope.bind_python("player", local)
        try:
            text = steps.text_code(raw, scope, path)
        except StepProblem as exc:
            self.problem(str(exc), exc.path)
            return None
        fn: Standalone = compiler.unit.expression(text, self.where(path), params=f"s, {local}")
        return fn

    def facts(self) -> dict[str, Any]:
        return {name: copy.deepcopy(fact.value) for name, fact in self.game.rules.facts.items()}

    def tables(self, names: Names) -> dict[str, Any]:
        tables: dict[str, Any] = {}
        for name, spec in self.spec.tables.items():
            rows: dict[Any, dict[str, Any]] = {}
            for number, component_id in enumerate(spec.components):
                try:
                    component = self.game.component(component_id)
                except DataError as exc:
                    self.problem(exc.problems[0].message, ("tables", name, "components", number))
                    continue
                for item in component.items:
                    key = item.fields.get(spec.key)
                    if key is None:
                        self.problem(f"item '{item.id}' has no field '{spec.key}'", ("tables", name, "key"))
                        break
                    rows.setdefault(key, {"id": item.id, **item.fields})
            tables[name] = rows
        return tables

    def boards(self, names: Names) -> dict[str, Any]:
        """Each board of `boards:` as its spaces' neighbour lists, by space number (`map[3]`: the spaces next to 3)."""
        from cardgen.engine.boards import diagonal_neighbours, orthogonal_neighbours, square_grid

        found: dict[str, Any] = {}
        for name, spec in self.spec.boards.items():
            if spec.grid is not None:
                grid = spec.grid
                moves = {"orthogonal": (orthogonal_neighbours,), "diagonal": (diagonal_neighbours,),
                         "both": (orthogonal_neighbours, diagonal_neighbours)}[grid.moves]  # fmt: skip
                if grid.columns * grid.rows > 10_000:
                    self.problem("a grid of more than 10,000 spaces", ("boards", name, "grid"))
                    continue
                found[name] = tuple(square_grid(grid.columns, grid.rows, *moves))
                continue
            links = names.facts.get(spec.links) if isinstance(spec.links, str) else spec.links
            path = ("boards", name, "links")
            if not isinstance(links, list) or not all(isinstance(row, list) for row in links):
                self.problem("links: is a list of lists of space numbers (or a fact holding one)", path)
                continue
            spaces = len(links)
            if any(not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < spaces for row in links for n in row):
                self.problem(f"links: space numbers run from 0 to {spaces - 1}", path)
                continue
            found[name] = tuple(tuple(row) for row in links)
        return found

    def check_names(self, names: Names) -> None:
        """A zone, value or constant may not take a name that already means something else."""
        taken: dict[str, str] = {name: "a built-in name" for name in BUILT_IN_NAMES}
        taken |= {name: "a function" for name in FUNCTIONS}
        for section, keys in (("zones", self.spec.zones), ("values", self.spec.values),
                              ("tables", self.spec.tables), ("boards", self.spec.boards),
                              ("constants", self.spec.constants),
                              ("functions", self.spec.functions), ("procedures", self.spec.procedures)):  # fmt: skip
            for name in keys:
                if name in taken and not (section == "procedures" and taken[name] != "a built-in name"):
                    self.problem(f"'{name}' is already {taken[name]}: choose another name", (section, name))
                taken.setdefault(name, f"a name in {section}")
        for name in self.spec.marks:
            if name in self.engine.cards.fields or name in BUILT_IN_ATTRIBUTES:
                self.problem(f"the mark '{name}' has the name of a card field: choose another", ("marks", name))

    # -- procedures, functions, verbs ---------------------------------------------------------------------------------

    def functions(self, names: Names, compiler: Compiler) -> None:
        """Every function of `functions:`, named first so each may call any other, then defined."""
        unit = compiler.unit
        for name, spec in self.spec.functions.items():
            function = names.functions[name] = UserFunction(name, list(spec.params), unit.fresh("u"))
            function.raw, function.where = spec.value, self.where(("functions", name, "value"))
        for name, spec in self.spec.functions.items():
            function, path = names.functions[name], ("functions", name, "value")
            try:
                function.define(compiler)
            except SyntaxProblem as exc:
                self.problem(f"{exc} (in '{clipped(str(spec.value), 60)}', column {exc.column})", path)
                function.raw = None  # calls go to a generic version that gives none
                unit.define(function.local, [(f"def {function.local}(s, *a):", None), ("    return None", None)])

    def standalone_in(self, raw: Any, path: Path, compiler: Compiler, scope: Scope, params: str = "s, e") -> Fn | None:
        if not isinstance(raw, str):
            value = raw
            return lambda *arguments: value
        try:
            code = compiler.code(parse(raw), scope)
        except SyntaxProblem as exc:
            self.problem(f"{exc} (in '{clipped(raw, 60)}', column {exc.column})", path)
            return None
        fn: Fn = compiler.unit.expression(code.text, self.where(path), params=params)
        return fn

    def procedures(self, steps: StepCompiler) -> None:
        procedures = self.engine.procedures
        for name, spec in self.spec.procedures.items():
            frame = Frame()
            scope = Scope(frame)
            slots = {param: scope.bind(param) for param in spec.params}
            procedures[name] = Procedure(list(spec.params), frame, slots)
        for name, spec in self.spec.procedures.items():
            procedure = procedures[name]
            scope = Scope(procedure.frame)
            for param in spec.params:
                scope.bind(param)
            procedure.block = steps.block(spec.do, scope, ("procedures", name, "do"))

    def block(self, steps: StepCompiler, raw: list[Any], path: Path, player: bool = False) -> tuple[Block, Frame, int]:
        frame = Frame()
        scope = Scope(frame)
        slot = scope.bind("player") if player else -1
        return steps.block(raw, scope, path), frame, slot

    def unknown(self, name: str, known: list[str], what: str, path: Path) -> None:
        self.problem(f"unknown {what} '{name}'{did_you_mean(name, known)}", path)


class Fixed:
    """What a constant is worked out against: the engine (for `cards(…)`), no state, the most players."""

    def __init__(self, engine: DescribedEngine):
        self.engine, self.n, self.turns, self.ending, self.room = engine, engine.max_players, 0, None, engine.most_items
        self.out: dict[int, str] = {}


__all__ = ["Builder", "Family", "Standalone", "UserFunction", "Zone"]
