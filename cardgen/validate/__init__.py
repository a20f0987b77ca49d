"""`cardgen validate`: checks a game's card data against its rules facts (rules.yaml).

`validate_game` runs every check a game declares and returns a `GameReport`; it never prints. Each check runs isolated:
one that cannot run (a missing component or fact, a value of the wrong type, a crash in a custom check) becomes a
violation naming its cause, and the others still run. Facts are checked against their quotes (`facts`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen import trust
from cardgen.data.games import Component, Game
from cardgen.data.rules import Check
from cardgen.errors import DataError, Location, did_you_mean, display_path
from cardgen.trust import TRUSTED, Decision
from cardgen.validate.base import Context, Violation
from cardgen.validate.checks import CHECKS, records
from cardgen.validate.facts import check_facts
from cardgen.validate.sources import SourceReport, check_sources

if TYPE_CHECKING:
    from cardgen.render.contrast import TextContrast
    from cardgen.render.jobs import FittedText


@dataclass(frozen=True)
class CheckResult:
    """How one check went: `holds`, `violated`, `failed` (it could not run: its cause is a violation too) or
    `skipped` (custom code from a folder not trusted), with how long it took."""

    rule: str
    kind: str
    citation: str
    status: str
    seconds: float
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        found = {"rule": self.rule, "kind": self.kind, "citation": self.citation, "status": self.status}
        return {**found, "seconds": round(self.seconds, 4), **({"reason": self.reason} if self.reason else {})}


@dataclass
class GameReport:
    """The outcome of validating one game: every check's result, the violations, and the facts checked."""

    game: str
    results: list[CheckResult] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    facts_checked: int = 0
    facts_unchecked: list[str] = field(default_factory=list)
    has_rules: bool = True
    sources: SourceReport | None = None  # quotes compared with their documents (`validate --sources DIR`)
    sources_unnamed: bool = False  # --sources was given but rules.yaml names no sources: its quotes went unread

    @property
    def checks(self) -> int:
        return len(self.results)

    @property
    def unchecked(self) -> bool:
        """True when nothing was checked at all: no rules.yaml, or no check in it. Not the same as "all hold"."""
        return not self.has_rules or not self.results

    @property
    def skipped(self) -> list[CheckResult]:
        return [r for r in self.results if r.status == "skipped"]

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def complete(self) -> bool:
        """Every check ran: there are checks and none was skipped (a game's own checks.py not trusted). A partial
        validation is not a pass."""
        return not self.unchecked and not self.skipped and not self.sources_unnamed

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok and self.complete,
            "complete": self.complete,
            "checks": self.checks,
            "skipped": len(self.skipped),
            "unchecked": self.unchecked,
            "violations": [v.as_json() for v in self.violations],
            "results": [r.as_json() for r in self.results],
            "facts": {"checked": self.facts_checked, "unchecked": self.facts_unchecked},
            **({"sources": self._sources_json()} if self.sources or self.sources_unnamed else {}),
        }

    def _sources_json(self) -> dict[str, Any]:
        if self.sources is None:
            return {"documents": [], "found": 0, "not_found": 0}
        found = self.sources
        return {"documents": found.documents, "found": found.found, "not_found": len(found.violations)}


def validate_game(
    game: Game,
    templates_dir: Path | None = None,
    fonts_dir: Path | None = None,
    trust_code: bool | Decision = False,
    sources_dir: Path | None = None,
) -> GameReport:
    """Run every check of a game, each isolated: one that fails to run is reported as a violation naming its cause,
    and every other check still runs. Text-fit checks need the layouts (`templates_dir`); without them they are
    skipped. Custom checks (Python in the game's checks.py) run only for bundled games or when `trust_code` says
    so (True, or the user's trust store's `Decision`: then only the checks.py it trusted runs). With `sources_dir`
    every quote is also looked for in the documents rules.yaml names (`cardgen.validate.sources`)."""
    fitted, contrast = _printed(game, templates_dir, fonts_dir) if templates_dir and fonts_dir else (None, None)
    trusted = trust_code
    if isinstance(trusted, bool):
        trusted = TRUSTED if trusted or is_bundled(game) else Decision(False, SKIPPED_CODE)
    ctx = Context(game, fitted, trusted.sha256, contrast)
    report = GameReport(game.id, has_rules=game.rules_doc is not None)
    for index, check in enumerate(game.rules.checks):
        report.results.append(_run(ctx, check, index, trusted, report.violations))
    try:
        violations, unchecked = check_facts(game)
    except DataError as exc:
        violations, unchecked = [_failure(game, "facts", "facts", exc.problems[0].message, None)], []
    report.violations.extend(violations)
    report.facts_unchecked = unchecked
    report.facts_checked = len(game.rules.facts) - len(unchecked)
    if sources_dir is not None:
        if game.rules.sources:
            report.sources = check_sources(game, sources_dir)
            report.violations.extend(report.sources.violations)
        else:
            report.sources_unnamed = True
    return report


def is_bundled(game: Game) -> bool:
    """Whether a game ships with cardgen (its code is cardgen's own, so trusted)."""
    return trust.is_bundled(game.folder)


SKIPPED_CODE = "checks.py is code from the game folder: pass --trust-code to run it"


def _run(ctx: Context, check: Check, index: int, trusted: Decision, violations: list[Violation]) -> CheckResult:
    game = ctx.game
    where = _check_location(game, index)
    cite = check.cite or "designed (no rulebook citation)"
    if check.check == "custom" and not trusted.runs:
        return CheckResult(check.rule, check.check, cite, "skipped", 0.0, trusted.reason)
    start = time.perf_counter()
    status = "holds"
    try:
        found = _named_fields(game, check, str(where or game.id)) or CHECKS[check.check](ctx, check)
        if found:
            status = "violated"
        violations.extend(found)
    except DataError as exc:
        status = "failed"
        said = {v.actual for v in violations if isinstance(v.actual, str)}  # a layout that cannot draw stops
        # every check that draws: said once
        for problem in exc.problems:
            failure = _failure(game, check.rule, cite, problem.message, problem.where or where)
            if failure.actual not in said:
                violations.append(failure)
    except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError, LookupError) as exc:
        # a value of the wrong type in the check itself (`min: "abc"`), met while comparing
        status = "failed"
        violations.append(_failure(game, check.rule, cite, f"{type(exc).__name__}: {exc}", where))
    return CheckResult(check.rule, check.check, cite, status, time.perf_counter() - start)


def _failure(game: Game, rule: str, cite: str, cause: str, where: Location | None) -> Violation:
    return Violation(rule, cite, "the check runs", f"it cannot: {cause}", str(where or game.id))


# Kinds whose check means nothing when it selects no item: "every cost lies in 1..12" over no card holds vacuously,
# which is how a misspelt `where:` value used to pass unnoticed. (`count` may rightly expect zero.)
_NEED_ITEMS = {"composition", "range", "required", "unique", "reference"}


def _named_fields(game: Game, check: Check, where: str) -> list[Violation]:
    """Violations for a check that names a field its items do not have, or that selects nothing to check."""
    names = [check.component] if check.component else (check.components or [c.id for c in game.components])
    components = [game.component(name) for name in names]
    known = {"id", "type", "count", "front", "back", "source"}
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


def _printed(
    game: Game, templates_dir: Path, fonts_dir: Path
) -> tuple[Callable[[Component], FittedText], Callable[[Component, str], list[TextContrast]]]:
    """Text fitting and text contrast through the print pipeline, sharing each component's prepared faces (imported
    on use: a validation without checks on printed faces never loads the renderer)."""
    from cardgen.render.build import printed_jobs, text_contrast, text_fit
    from cardgen.render.layouts import Layouts

    layouts = Layouts(templates_dir)
    jobs = printed_jobs(game, layouts, fonts_dir)
    return _every_language(game, text_fit(game, layouts, fonts_dir, jobs), layouts, fonts_dir), text_contrast(
        game, layouts, fonts_dir, jobs
    )


def _every_language(
    game: Game, fitted: Callable[[Component], FittedText], layouts: Any, fonts_dir: Path
) -> Callable[[Component], FittedText]:
    """Text fitting in each of a game's languages (German runs longer than English): each overflow says its
    language, and the smallest text is the smallest in any of them. A game in one language is fitted once."""
    if len(game.languages) < 2:
        return fitted
    from cardgen.data.editions import edition
    from cardgen.render.build import text_fit
    from cardgen.render.jobs import FittedText

    editions = [edition(game, language).game for language in game.languages]
    each = [text_fit(e, layouts, fonts_dir) for e in editions]

    def merged(component: Component) -> FittedText:
        found = [fit(e.component(component.id)) for fit, e in zip(each, editions, strict=True)]
        return FittedText([o for f in found for o in f.overflows], [s for f in found for s in f.sizes])

    return merged


__all__ = ["CheckResult", "GameReport", "Violation", "is_bundled", "validate_game"]
