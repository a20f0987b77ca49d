"""`cardgen validate`: checks a game's card data against its rules facts (rules.yaml).

`validate_game` runs every check a game declares and returns a `GameReport`; it never prints. A check that refers
to a missing component or fact is a data error (exit 2), not a violation: the rules file itself is broken.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardgen.data.games import Component, Game
from cardgen.data.rules import Check
from cardgen.errors import DataError, Location, Problem, did_you_mean, display_path
from cardgen.validate.checks import CHECKS, Context, Violation, records


@dataclass
class GameReport:
    """The outcome of validating one game."""

    game: str
    checks: int = 0
    violations: list[Violation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations

    def as_json(self) -> dict:
        return {"ok": self.ok, "checks": self.checks, "violations": [v.as_json() for v in self.violations]}


def validate_game(game: Game, templates_dir: Path | None = None, fonts_dir: Path | None = None) -> GameReport:
    """Run every check of a game. Text-fit checks need the layouts (`templates_dir`); without them they are skipped."""
    overflows = _overflow_finder(game, templates_dir, fonts_dir) if templates_dir and fonts_dir else None
    ctx = Context(game, overflows)
    report = GameReport(game.id)
    problems = []
    for index, check in enumerate(game.rules.checks):
        where = _check_location(game, index)
        try:
            named = _named_fields(game, check, str(where or game.id))
            report.violations.extend(named or CHECKS[check.check](ctx, check))
        except DataError as exc:
            problems.extend(Problem(p.where or where, f"check '{check.rule}': {p.message}") for p in exc.problems)
        except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as exc:
            # a value of the wrong type in the check itself (`min: "abc"`), met while comparing
            problems.append(Problem(where, f"check '{check.rule}' cannot be evaluated: {type(exc).__name__}: {exc}"))
        report.checks += 1
    if problems:
        raise DataError(problems)
    return report


# Kinds whose check means nothing when it selects no item: "every cost lies in 1..12" over no card holds vacuously,
# which is how a misspelt `where:` value used to pass unnoticed. (`count` may rightly expect zero.)
_NEED_ITEMS = {"composition", "range", "required", "unique", "reference"}


def _named_fields(game: Game, check: Check, where: str) -> list[Violation]:
    """Violations for a check that names a field its items do not have, or that selects nothing to check."""
    names = [check.component] if check.component else (check.components or [c.id for c in game.components])
    components = [game.component(name) for name in names]
    known = {"id", "type", "count", "front", "back"}
    for component in components:
        known |= _fields_of(game, component)
    cite = check.cite or "cardgen: a check names fields its items have"
    out = []
    asked = [(name, "field") for name in [check.field, *(check.fields or [])] if name]
    asked += [(name, "'where' names") for name in (check.where or {})]
    for name, role in asked:
        if name not in known:
            hint = did_you_mean(name, sorted(known))
            label = f"{role} unknown field" if role != "field" else "unknown field"
            out.append(Violation(check.rule, cite, "a field of the checked items", f"{label} '{name}'{hint}", where))
    if check.target and check.target.component and not check.target.fact:
        target_fields = {"id", "type", "count"} | _fields_of(game, game.component(check.target.component))
        if check.target.field not in target_fields:
            hint = did_you_mean(check.target.field, sorted(target_fields))
            actual = f"target names unknown field '{check.target.field}'{hint}"
            out.append(Violation(check.rule, cite, "a field of the target's items", actual, where))
    if not out and check.check in _NEED_ITEMS and next(records(game, check), None) is None:
        out.append(Violation(check.rule, cite, "at least one item to check", "selects no items", where))
    return out


def _fields_of(game: Game, component: Component) -> set[str]:
    fields: set[str] = set()
    for item in component.items:
        card_type = game.manifest.card_types.get(item.type) if item.type else None
        fields |= set(card_type.fields) if card_type else set(item.fields)
    return fields


def _check_location(game: Game, index: int) -> Location | None:
    doc = game.rules_doc
    if doc is None:
        return None
    return Location(display_path(doc.path), doc.line_of(("checks", index)), f"checks[{index}]")


def _overflow_finder(game: Game, templates_dir: Path, fonts_dir: Path):
    """Text fitting through the print pipeline: the overflows of a component's faces, computed once per component."""
    from cardgen.render.build import BuildReport, GameRenderer, PrintOptions
    from cardgen.render.layouts import Layouts

    renderer: GameRenderer | None = None
    cache: dict[str, list] = {}

    def overflows(component: Component) -> list:
        nonlocal renderer
        if component.id not in cache:
            if renderer is None:
                renderer = GameRenderer(game, Layouts(templates_dir), fonts_dir)
            report = BuildReport()
            renderer.collect(component, PrintOptions(), report)
            cache[component.id] = report.overflows
        return cache[component.id]

    return overflows


__all__ = ["GameReport", "Violation", "validate_game"]
