"""`cardgen validate`: checks a game's card data against its rules facts (rules.yaml).

`validate_game` runs every check a game declares and returns a `GameReport`; it never prints. A check that refers
to a missing component or fact is a data error (exit 2), not a violation: the rules file itself is broken.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardgen.data.games import Component, Game
from cardgen.errors import DataError, Location, Problem, display_path
from cardgen.validate.checks import CHECKS, Context, Violation


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
        try:
            report.violations.extend(CHECKS[check.check](ctx, check))
        except DataError as exc:
            where = _check_location(game, index)
            problems.extend(Problem(where, f"check '{check.rule}': {p.message}") for p in exc.problems)
        report.checks += 1
    if problems:
        raise DataError(problems)
    return report


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
