"""`cardgen diff OLD NEW`: two versions of a game compared (`diff.compare_games`), with the checks whose outcome
changed and the balance figures that moved, printed as text, Markdown or JSON; and the changelog testers read.

The text and Markdown are for the designer (they name items by name and id); the changelog (`changelog`) is for
players and testers and names items only by what a person calls them ("Scout: cost 3 (was 2)", "Dreadnought:
removed").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardgen.versions.diff import Change, ComponentChanges, GameChanges, ItemRef, compare_games, compare_outcomes

FORMAT = "cardgen-diff/1"
ARROW = "→"
SHOWN_CHARACTERS = 160  # a long text is clipped in the text and Markdown lists (the JSON holds it whole)
CARDS_SHOWN = 5  # the cards whose balance moved most, in the text and Markdown (the JSON holds them all)


def diff(old: str, new: str, data_dir: Path, balance_search: Path | None, trust_code: bool = False) -> GameChanges:
    """Compare the versions named `old` and `new` (`versions.source`): items, facts, checks, the checks' outcomes,
    and the balance figures when both versions have a kept run below `balance_search`."""
    from cardgen.versions.balance import moved
    from cardgen.versions.source import opened

    with opened(old, data_dir) as before, opened(new, data_dir) as after:
        assert after.game is not None  # only a revision can be absent, and the new version is read as it is
        changes = compare_games(before.game, after.game, old, new)
        changes.outcomes = compare_outcomes(_outcomes(before.game, trust_code, before.commit is not None),
                                            _outcomes(after.game, trust_code, after.commit is not None))  # fmt: skip
        if balance_search is not None:
            changes.balance = moved(balance_search, after.game.id, before.folder, after.folder or Path())
    return changes


def _outcomes(game: Any, trust_code: bool, revision: bool) -> dict[str, str]:
    """Each check's outcome by rule (rules written twice told apart as `rule (2)`); a revision's checks.py never
    runs (its copy is a folder nobody trusted)."""
    if game is None:
        return {}
    from cardgen.building import trusted_to_run
    from cardgen.trust import Decision
    from cardgen.validate import validate_game

    decision = Decision(False, "a revision's checks.py does not run") if revision else trusted_to_run(game, trust_code)
    out: dict[str, str] = {}
    for result in validate_game(game, trust_code=decision).results:
        name, n = result.rule, 1
        while name in out:
            n += 1
            name = f"{result.rule} ({n})"
        out[name] = result.status
    return out


# --- JSON ------------------------------------------------------------------------------------------------------------


def as_json(changes: GameChanges) -> dict[str, Any]:
    """The changes as one JSON object (`format`: cardgen-diff/1)."""

    def ref(item: ItemRef) -> dict[str, Any]:
        return {"id": item.id, "name": item.name, "count": item.count}

    def changed(found: Iterable[Change]) -> list[dict[str, Any]]:
        return [{"field": c.field, "old": c.old, "new": c.new} for c in found]

    def component(c: ComponentChanges) -> dict[str, Any]:
        items = [{"id": i.id, "name": i.name, "fields": changed(i.changes)} for i in c.changed]
        added, removed = [ref(i) for i in c.added], [ref(i) for i in c.removed]
        return {"id": c.id, "title": c.title, "status": c.status, "added": added, "removed": removed, "changed": items}

    return {
        "format": FORMAT,
        "game": changes.game,
        "title": changes.title,
        "old": changes.old,
        "new": changes.new,
        "changed": changes.any,
        "components": [component(c) for c in changes.components],
        "facts": [{"name": f.name, "status": f.status, "fields": changed(f.changes)} for f in changes.facts],
        "checks": [{"rule": c.name, "status": c.status, "fields": changed(c.changes)} for c in changes.checks],
        "outcomes": [{"rule": o.rule, "old": o.old, "new": o.new} for o in changes.outcomes],
        "balance": changes.balance,
    }


# --- text and Markdown -----------------------------------------------------------------------------------------------


def shown(value: Any, clip: bool = True) -> str:
    """A value as the lists print it: absent as –, text in quotes, lists joined, numbers as written."""
    if value is None:
        return "–"
    if isinstance(value, str):
        text = value if not clip or len(value) <= SHOWN_CHARACTERS else value[: SHOWN_CHARACTERS - 1] + "…"
        return f"“{text}”"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _fields(found: Iterable[Change]) -> str:
    return "; ".join(f"{c.field} {shown(c.old)} {ARROW} {shown(c.new)}" for c in found)


def _tally(component: ComponentChanges) -> str:
    parts = [f"{len(getattr(component, k))} {k}" for k in ("added", "removed", "changed") if getattr(component, k)]
    return ", ".join(parts)


def text_lines(changes: GameChanges) -> list[str]:
    """The changes as plain text, one line per item, fact, check and figure."""
    lines = [f"{changes.title} ({changes.game}): {changes.old} {ARROW} {changes.new}"]
    if not changes.any:
        lines.append("no changes")
    for component in (c for c in changes.components if c.status != "same"):
        heading = f"{component.id} ({component.title})"
        if component.status in ("added", "removed"):
            count = len(component.added or component.removed)
            lines.append(f"{heading}: {component.status}, {count} item{'' if count == 1 else 's'}")
            continue
        lines.append(f"{heading}: {_tally(component)}")
        lines += [f"  + {i.name} ({i.id}) ×{i.count}" for i in component.added]
        lines += [f"  - {i.name} ({i.id}) ×{i.count}" for i in component.removed]
        lines += [f"  ~ {i.name} ({i.id}): {_fields(i.changes)}" for i in component.changed]
    for title, rules in (("facts", changes.facts), ("checks", changes.checks)):
        if rules:
            lines.append(f"{title}:")
            marks = {"added": "+", "removed": "-", "changed": "~"}
            lines += [f"  {marks[r.status]} {r.name}: {_fields(r.changes)}" for r in rules]
    if changes.outcomes:
        lines.append("check outcomes:")
        lines += [f"  ! {o.rule}: {o.old} {ARROW} {o.new}" for o in changes.outcomes]
    lines += _balance_lines(changes.balance, "")
    return lines


def markdown_lines(changes: GameChanges) -> list[str]:
    """The changes as Markdown: a section per component, lists of items, facts, checks and figures."""
    lines = [f"# {changes.title}: `{changes.old}` {ARROW} `{changes.new}`", ""]
    if not changes.any:
        lines += ["No changes.", ""]
    for component in (c for c in changes.components if c.status != "same"):
        lines += [f"## {component.title} (`{component.id}`)", ""]
        if component.status in ("added", "removed"):
            lines += [f"The whole component was {component.status}.", ""]
        lines += [f"- **Added:** {i.name} (`{i.id}`) ×{i.count}" for i in component.added]
        lines += [f"- **Removed:** {i.name} (`{i.id}`) ×{i.count}" for i in component.removed]
        for item in component.changed:
            lines.append(f"- **Changed:** {item.name} (`{item.id}`)")
            lines += [f"  - {c.field}: {shown(c.old)} {ARROW} {shown(c.new)}" for c in item.changes]
        lines.append("")
    for title, rules in (("Facts", changes.facts), ("Checks", changes.checks)):
        if rules:
            lines += [f"## {title}", ""]
            for rule in rules:
                lines.append(f"- **{rule.status.title()}:** {rule.name}")
                lines += [f"  - {c.field}: {shown(c.old)} {ARROW} {shown(c.new)}" for c in rule.changes]
            lines.append("")
    if changes.outcomes:
        lines += ["## Check outcomes", ""]
        lines += [f"- {o.rule}: {o.old} {ARROW} **{o.new}**" for o in changes.outcomes]
        lines.append("")
    balance = _balance_lines(changes.balance, "- ")
    if balance:
        lines += ["## Balance", "", *balance[1:], ""]
    return lines


def _balance_lines(balance: dict[str, Any] | None, bullet: str) -> list[str]:
    """The balance figures that moved: every seat, and the cards whose change is significant or |z| ≥ 2."""
    if balance is None:
        return []
    if "missing" in balance:
        which = " and ".join(balance["missing"])
        return ["balance:", f"  {bullet}no kept balance run of the {which} version (run cardgen balance on it)"]
    lines = ["balance:", f"  {bullet}{balance['old']} {ARROW} {balance['new']}"]
    for run in balance["runs"]:
        seats = ", ".join(_rate(s) for s in run["seats"])
        lines.append(f"  {bullet}{run['players']} players: {seats}")
        moved = [card for card in run["items"] if _moved(card.get("seat"))]  # largest |z| first
        for card in moved[:CARDS_SHOWN]:
            lines.append(f"  {bullet}  {card['item']} ({card['seat']['name']}): {_rate(card['seat'], named=False)}")
        if len(moved) > CARDS_SHOWN:
            lines.append(f"  {bullet}  and {len(moved) - CARDS_SHOWN} more cards that moved (--format json lists them)")
    return lines


def _moved(seat: dict[str, Any] | None) -> bool:
    """A card's win rate moved: significantly after the correction, or by two standard errors at least."""
    return seat is not None and (bool(seat.get("significant")) or abs(seat["z"]) >= 2)


def _rate(change: dict[str, Any], named: bool = True) -> str:
    before, after = change["before"]["rate"], change["after"]["rate"]
    name = f"{change['name']} " if named else "win rate "
    return f"{name}{before:.1%} {ARROW} {after:.1%} (z = {change['z']:+.1f})"


# --- for testers -----------------------------------------------------------------------------------------------------

KEY_WORDS = {"count": "copies", "front": "new front", "back": "new back"}


def changelog(changes: GameChanges) -> list[str]:
    """What changed, as testers read it: a line for each item by its name ("Scout: cost 3 (was 2)", "Scout Mk II:
    new, 4 copies", "Dreadnought: removed"), its component named when several changed. No ids, no commands, no
    layout names, and no arrow (the bundled fonts have none: a guide must print every character it holds)."""
    changed = [c for c in changes.components if c.status != "same"]
    lines = []
    for component in changed:
        where = f" ({component.title})" if len(changed) > 1 else ""
        lines += [f"{i.name}{where}: new, {_copies(i.count)}." for i in component.added]
        lines += [f"{i.name}{where}: {_player_fields(i.changes)}." for i in component.changed]
        lines += [f"{i.name}{where}: removed." for i in component.removed]
    return lines


def _copies(count: int) -> str:
    return f"{count} {'copy' if count == 1 else 'copies'}"


def _player_fields(found: Iterable[Change]) -> str:
    parts = []
    for change in found:
        if change.field in ("front", "back"):
            parts.append(KEY_WORDS[change.field] + " design")
        elif change.field == "type" or "@" in change.field:
            continue  # the kind of card is in its design; other languages' texts are their editions' news
        else:
            name = KEY_WORDS.get(change.field, change.field.replace("_", " "))
            old, new = shown(_plain(change.old)), shown(_plain(change.new))
            if change.new is None:
                parts.append(f"{name} gone (was {old})")
            else:
                parts.append(f"{name} {new} ({'new' if change.old is None else f'was {old}'})")
    return "; ".join(parts) or "new printing"


def _plain(value: Any) -> Any:
    """Card text as a reader sees it: `{coin}` as the word coin, without the marks of **bold** and *italics*."""
    if not isinstance(value, str):
        return value
    text = re.sub(r"\{([A-Za-z0-9_.-]+)(?::[^}]*)?\}", lambda m: m.group(1).replace("_", " "), value)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    return re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"\1", text)
