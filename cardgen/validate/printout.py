"""What `cardgen validate` prints of a game's report: a verdict line, the violations, and with `--notes` the
rulebook's contradictions and gaps with the reading followed, and the facts not checked against a source."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.data import Game
    from cardgen.validate import GameReport

ACCEPTS = "(--allow-unchecked accepts that)"


def report_lines(report: GameReport) -> list[str]:
    """The verdict on one game (whether every check ran and holds) and each violation with its citation."""
    lines = []
    if report.unchecked:
        why = "it has no rules.yaml" if not report.has_rules else "its rules.yaml has no checks"
        lines.append(f"{report.game}: NOT CHECKED — {why} {ACCEPTS}")
    facts = f"{report.facts_checked} facts agree with their sources"
    if report.facts_unchecked:
        facts += f" ({len(report.facts_unchecked)} designed or unchecked: --notes)"
    skipped = f"; {len(report.skipped)} skipped ({report.skipped[0].reason})" if report.skipped else ""
    if report.sources is not None:
        facts += f"; {report.sources.found} quoted passages found verbatim in {', '.join(report.sources.documents)}"
    if report.sources_unnamed:
        skipped += "; its rules.yaml names no sources, so no quote was compared"
    if report.ok:
        if report.sources_unnamed and not report.skipped:
            lines.append(f"{report.game}: NOT COMPLETE — {report.checks} checks hold{skipped}; {facts} {ACCEPTS}")
        elif report.skipped:
            ran = f"{report.checks - len(report.skipped)} of {report.checks} checks ran and hold"
            lines.append(f"{report.game}: NOT COMPLETE — {ran}{skipped}; {facts} {ACCEPTS}")
        elif not report.unchecked:
            lines.append(f"{report.game}: {report.checks} checks, all hold; {facts}")
        return lines
    lines.append(f"{report.game}: {report.checks} checks, {len(report.violations)} violation(s){skipped}")
    for v in report.violations:
        lines.append(f"  {v.where}: {v.rule}")
        lines.append(f"      expected {v.expected}; found {v.actual}  [{v.citation}]")
    return lines


def notes_lines(game: Game, report: GameReport) -> list[str]:
    """`--notes`: each contradiction or gap of the rulebook with its readings and the one followed, and why each
    unchecked fact is so."""
    lines = []
    if not game.rules.contradictions:
        lines.append(f"  (no contradictions or gaps recorded for {game.id})")
    for note in game.rules.contradictions:
        lines.append(f"  {note.kind}: {note.topic}")
        lines.extend(f"    - {reading.text}  [{reading.cite}]" for reading in note.readings)
        lines.append(f"    followed: {note.followed}")
        lines.append(f"    why: {note.why}")
    for name in report.facts_unchecked:
        fact = game.rules.facts[name]
        why = "designed" if fact.origin == "designed" else f"unchecked: {fact.reason}"
        lines.append(f"  fact {name}: {why}")
    return lines
