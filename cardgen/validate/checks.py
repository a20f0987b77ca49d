"""The check vocabulary: each kind of check a game writes in rules.yaml, implemented once for every game.

A check selects records (items of one or more components, optionally filtered with `where`), compares them with
expected values (literal or `{fact: name}`), and returns violations naming the rule, its citation, what was expected,
what was found, and where in the data.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from cardgen.data.games import CHECKS_FILE, Component, Game, Item
from cardgen.data.rules import Check
from cardgen.errors import DataError, did_you_mean, display_path
from cardgen.files import require_regular
from cardgen.validate.base import Context, Violation, citation, located, resolve
from cardgen.validate.facts import check_table
from cardgen.validate.printed import check_min_text_size, check_text_contrast, check_text_fits

Record = tuple[Component, Item]


def field_value(item: Item, name: str) -> Any:
    if name in ("id", "type", "count", "front", "back", "source"):
        return getattr(item, name)
    return item.fields.get(name)


def _matches(item: Item, where: dict[str, Any] | None, game: Game) -> bool:
    for name, wanted in (where or {}).items():
        wanted = resolve(game, wanted)
        value = field_value(item, name)
        if isinstance(wanted, list):
            if value not in wanted:
                return False
        elif value != wanted:
            return False
    return True


def records(game: Game, check: Check) -> Iterator[Record]:
    """The items a check looks at: its component(s), or every component, filtered by `where`."""
    names = [check.component] if check.component else (check.components or [c.id for c in game.components])
    for name in names:
        component = game.component(name)
        for item in component.items:
            if _matches(item, check.where, game):
                yield component, item


def _where_of(component: Component) -> str:
    """Where a rule about a whole component points: the line listing its items (in a table's case the line naming
    the table, not its first row, which a reader would take for the culprit)."""
    if component.items_at is not None and component.items_at.line is not None:
        return f"{component.items_at.file}:{component.items_at.line}"
    if component.items:
        return f"{component.items[0].where.file}:{component.items[0].where.line}"
    return display_path(component.file) if component.file else f"component '{component.id}' (no file)"


def check_count(ctx: Context, check: Check) -> list[Violation]:
    game = ctx.game
    found = sum(item.count for _, item in records(game, check))
    component = game.component(check.component) if check.component else None
    where = _where_of(component) if component else "all components"
    cite = citation(game, check, check.expect, check.min, check.max)
    out = []
    if check.expect is not None and found != (expected := resolve(game, check.expect)):
        out.append(Violation(check.rule, cite, expected, found, where))
    if check.min is not None and found < (low := resolve(game, check.min)):
        out.append(Violation(check.rule, cite, f"at least {low}", found, where))
    if check.max is not None and found > (high := resolve(game, check.max)):
        out.append(Violation(check.rule, cite, f"at most {high}", found, where))
    return out


def check_composition(ctx: Context, check: Check) -> list[Violation]:
    game = ctx.game
    expected = resolve(game, check.expect)
    if not isinstance(expected, dict) or not check.field:
        raise DataError(f"{game.id}: check '{check.rule}': composition needs 'field' and 'expect' as a mapping")
    chosen = list(records(game, check))
    found: Counter[Any] = Counter()
    first_at: dict[Any, str] = {}
    for _, item in chosen:
        value = field_value(item, check.field)
        found[value] += item.count
        first_at.setdefault(value, str(item.field_where(check.field)).rsplit(": ", 1)[0])
    cite = citation(game, check, check.expect)
    fallback = _where_of(game.component(check.component)) if check.component else "all components"
    out = []
    for value in sorted({*expected, *found}, key=str):
        want, have = expected.get(value, 0), found.get(value, 0)
        if want != have:
            label = f"{check.field} = {value}"
            out.append(Violation(check.rule, cite, {label: want}, {label: have}, first_at.get(value, fallback)))
    return out


def _fields(check: Check) -> list[str]:
    """The field names a check reads (`fields`, or its one `field`); the rules model requires one of them."""
    names = check.fields or ([check.field] if check.field else [])
    if not names:
        raise DataError(f"check '{check.rule}': a {check.check} check needs 'field' or 'fields'")
    return names


def check_range(ctx: Context, check: Check) -> list[Violation]:
    game = ctx.game
    low, high = resolve(game, check.min), resolve(game, check.max)
    cite = citation(game, check, check.min, check.max)
    names = _fields(check)
    out = []
    for _, item in records(game, check):
        for name in names:
            value = field_value(item, name)
            if value is None:
                continue
            if (
                not isinstance(value, int | float)
                or (low is not None and value < low)
                or (high is not None and value > high)
            ):
                bounds = f"{name} within [{'' if low is None else low}, {'' if high is None else high}]"
                out.append(Violation(check.rule, cite, bounds, value, located(item, name)))
    return out


def check_required(ctx: Context, check: Check) -> list[Violation]:
    game = ctx.game
    cite = citation(game, check)
    out = []
    for _, item in records(game, check):
        for name in _fields(check):
            if field_value(item, name) in (None, "", []):
                out.append(Violation(check.rule, cite, f"{name} set", "missing or empty", located(item, name)))
    return out


def check_unique(ctx: Context, check: Check) -> list[Violation]:
    game = ctx.game
    cite = citation(game, check)
    (name,) = _fields(check)
    seen: dict[Any, Item] = {}
    out = []
    for _, item in records(game, check):
        value = field_value(item, name)
        if value is None:
            continue
        if value in seen:
            out.append(Violation(check.rule, cite, f"{name} unique", f"'{value}' also on '{seen[value].id}'",
                                 located(item, name)))  # fmt: skip
        elif item.count > 1 and check.args.get("copies_count", True):
            out.append(Violation(check.rule, cite, f"{name} unique", f"'{value}' on {item.count} copies",
                                 located(item, name)))  # fmt: skip
        seen.setdefault(value, item)
    return out


def _targets(game: Game, check: Check) -> set[Any]:
    target = check.target
    if target is None:
        raise DataError(f"{game.id}: check '{check.rule}': a reference check needs a 'target'")
    if target.fact:
        value = game.fact(target.fact)
        return set(value) if isinstance(value, list | dict) else {value}
    components = [game.component(target.component)] if target.component else list(game.components)
    values: set[Any] = set()
    for component in components:
        for item in component.items:
            value = field_value(item, target.field or "")
            values.update(value if isinstance(value, list) else [value])
    return values - {None}


def check_reference(ctx: Context, check: Check) -> list[Violation]:
    game = ctx.game
    known = _targets(game, check)
    cite = citation(game, check)
    target = check.target
    assert target is not None  # _targets refused a check without one
    describe = f"fact {target.fact}" if target.fact else f"a {target.field} of {target.component or 'any component'}"
    (name,) = _fields(check)
    out = []
    for _, item in records(game, check):
        value = field_value(item, name)
        for single in value if isinstance(value, list) else [value]:
            if single is not None and single not in known:
                out.append(Violation(check.rule, cite, f"{name} names {describe}", single, located(item, name)))
    return out


def check_line_up(ctx: Context, check: Check) -> list[Violation]:
    """A deck must refill its line-up at every player count while every player holds the most cards they may."""
    game = ctx.game
    sizes = resolve(game, check.line_up)
    held = resolve(game, check.held) if check.held is not None else 0
    if not isinstance(sizes, dict):
        raise DataError(f"{game.id}: check '{check.rule}': 'line_up' must map player counts to line-up sizes")
    deck = sum(item.count for _, item in records(game, check))
    low, high = game.players
    cite = citation(game, check, check.line_up, check.held)
    where = _where_of(game.component(check.component)) if check.component else "all components"
    out = []
    for players in range(low, high + 1):
        if players not in sizes:
            out.append(Violation(check.rule, cite, f"a line-up size for {players} players", "none", where))
            continue
        keep = held.get(players, 0) if isinstance(held, dict) else held
        needed = sizes[players] + players * keep
        if deck < needed:
            expected = (
                f"at least {needed} cards at {players} players (line-up {sizes[players]} + {players} × {keep} held)"
            )
            out.append(Violation(check.rule, cite, expected, deck, where))
    return out


def check_custom(ctx: Context, check: Check) -> list[Violation]:
    """Run a function of the game's `checks.py`; whatever it does wrong is reported against checks.py, never as a
    crash of cardgen, and it cannot end the process (`sys.exit` in a check is caught and reported)."""
    game = ctx.game
    name = check.function or ""
    function = custom_function(game, name, ctx.checks_sha256)
    cite = citation(game, check)
    out = []
    with _guest_code(game, f"custom check '{name}' failed"):
        for found in function(game, check) or ():
            if isinstance(found, Violation):
                out.append(found)
            elif isinstance(found, dict):
                where = str(found.get("where", ""))
                out.append(Violation(check.rule, cite, found.get("expected"), found.get("actual"), where))
            else:
                raise DataError(
                    f"{display_path(game.folder / 'checks.py')}: custom check '{name}' yielded {found!r:.60}; a check "
                    "yields mappings with 'expected', 'actual' and 'where'"
                )
    return out


@contextlib.contextmanager
def _guest_code(game: Game, failure: str) -> Iterator[None]:
    """Run code from a game folder: its exceptions and exits become a `DataError` at the line of checks.py at fault."""
    path = game.folder / "checks.py"
    try:
        yield
    except DataError:
        raise
    except SyntaxError as exc:
        raise DataError(f"{display_path(path)}:{exc.lineno}: cannot load custom checks: {exc.msg}") from None
    except SystemExit:
        raise DataError(
            f"{_guest_line(path, sys.exc_info()[2])}: the game's checks.py tried to end cardgen (sys.exit); "
            "a check reports problems by yielding them"
        ) from None
    except Exception as exc:
        where = _guest_line(path, exc.__traceback__)
        raise DataError(f"{where}: {failure}: {type(exc).__name__}: {exc}") from None


def _guest_line(path: Path, tb: Any) -> str:
    """`checks.py:LINE` of the innermost frame of the game's checks.py in a traceback."""
    import traceback

    resolved = str(path.resolve())
    line = None
    for frame in traceback.extract_tb(tb):
        if frame.filename == resolved or frame.filename == str(path):
            line = frame.lineno
    return f"{display_path(path)}:{line}" if line else display_path(path)


def custom_function(
    game: Game, name: str, pinned: str | None = None
) -> Callable[[Game, Check], Iterable[Violation | dict[str, Any]]]:
    """A check function from the game's own `checks.py` (the escape hatch for checks YAML cannot express). With
    `pinned` (the SHA-256 the user trusted) only those bytes run: the file is read once, checked and run as read."""
    path = game.folder / CHECKS_FILE
    require_regular(path)
    if not path.is_file():
        raise DataError(f"{game.id}: custom check '{name}' needs {display_path(path)}, which does not exist")
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{display_path(path)}: cannot read ({exc.strerror})") from None
    sha = hashlib.sha256(source).hexdigest()
    if pinned is not None and sha != pinned:
        raise DataError(f"{display_path(path)}: changed since you trusted it: run 'cardgen trust {game.id}' again")
    # one module per checks.py file and content, so a copy of a game (or an edited file) never runs stale code
    stamp = f"{path.resolve()}:{sha}"
    module_name = f"cardgen_checks_{hashlib.sha1(stamp.encode()).hexdigest()[:16]}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, path.resolve())
        assert spec and spec.origin
        module = importlib.util.module_from_spec(spec)
        with _guest_code(game, "cannot load custom checks"):
            exec(compile(source, spec.origin, "exec"), module.__dict__)  # the bytes hashed above, not a re-read
        sys.modules[module_name] = module
    function = getattr(module, name, None)
    if not callable(function):
        known = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")]
        raise DataError(f"{display_path(path)}: no check function '{name}'{did_you_mean(name, known)}")
    return function  # type: ignore[no-any-return]  # a guest's function: its results are checked on use


def _satisfies(item: Item, wanted: dict[str, Any], game: Game) -> list[str]:
    """The `field = value` conditions of `wanted` the item fails (a list value means any of them)."""
    failed = []
    for name, value in wanted.items():
        value = resolve(game, value)
        have = field_value(item, name)
        ok = have in value if isinstance(value, list) else have == value
        if not ok:
            failed.append(f"{name} = {have!r}")
    return failed


def check_implies(ctx: Context, check: Check) -> list[Violation]:
    """Every item that matches `where` must also match `then` (`where: {type: bay}, then: {capacity: [1, 2]}`)."""
    game = ctx.game
    if not check.then:
        raise DataError("an implies check needs 'then: {field: value}'")
    cite = citation(game, check)
    out = []
    for _, item in records(game, check):
        for failed in _satisfies(item, check.then, game):
            name = failed.split(" = ")[0]
            expected = {k: resolve(game, v) for k, v in check.then.items()}
            out.append(Violation(check.rule, cite, expected, failed, located(item, name)))
    return out


def check_any_of(ctx: Context, check: Check) -> list[Violation]:
    """Every item sets at least one of `fields` (non-empty)."""
    game = ctx.game
    names = check.fields or []
    cite = citation(game, check)
    out = []
    for _, item in records(game, check):
        if all(field_value(item, name) in (None, "", [], 0) for name in names):
            out.append(Violation(check.rule, cite, f"one of {', '.join(names)} set", "none", located(item, names[0])))
    return out


def check_per_player(ctx: Context, check: Check) -> list[Violation]:
    """The items, copies included, number `per_player` × players (the most players the game seats, or `args.players`);
    `args.at_least: true` accepts more."""
    game = ctx.game
    each = _number(resolve(game, check.per_player), "per_player")
    players = int(check.args.get("players", game.players[1]))
    found = sum(item.count for _, item in records(game, check))
    wanted = each * players
    cite = citation(game, check, check.per_player)
    where = _where_of(game.component(check.component)) if check.component else "all components"
    short = found < wanted if check.args.get("at_least") else found != wanted
    if not short:
        return []
    expected = f"{'at least ' if check.args.get('at_least') else ''}{wanted:g} ({each:g} × {players} players)"
    return [Violation(check.rule, cite, expected, found, where)]


def check_sum(ctx: Context, check: Check) -> list[Violation]:
    """The total of a numeric field over the items (each copy counted unless `args.copies_count: false`)."""
    game = ctx.game
    name = check.field or ""
    copies = check.args.get("copies_count", True)
    total = 0.0
    for _, item in records(game, check):
        value = field_value(item, name)
        if value is not None:
            total += _number(value, f"{item.id}.{name}") * (item.count if copies else 1)
    cite = citation(game, check, check.expect, check.min, check.max)
    where = _where_of(game.component(check.component)) if check.component else "all components"
    out = []
    if check.expect is not None and total != (expected := _number(resolve(game, check.expect), "expect")):
        out.append(Violation(check.rule, cite, f"{name} totals {expected:g}", f"{total:g}", where))
    if check.min is not None and total < (low := _number(resolve(game, check.min), "min")):
        out.append(Violation(check.rule, cite, f"{name} totals at least {low:g}", f"{total:g}", where))
    if check.max is not None and total > (high := _number(resolve(game, check.max), "max")):
        out.append(Violation(check.rule, cite, f"{name} totals at most {high:g}", f"{total:g}", where))
    return out


def check_matches(ctx: Context, check: Check) -> list[Violation]:
    """Every value of a field (each element of a list field) matches a regular expression `pattern` in full."""
    import re

    game = ctx.game
    try:
        pattern = re.compile(str(resolve(game, check.pattern)))
    except re.error as exc:
        raise DataError(f"pattern '{check.pattern}' is not a regular expression ({exc})") from None
    cite = citation(game, check, check.pattern)
    name = check.field or ""
    out = []
    for _, item in records(game, check):
        value = field_value(item, name)
        for single in value if isinstance(value, list) else [value]:
            if single is not None and not pattern.fullmatch(str(single)):
                out.append(
                    Violation(check.rule, cite, f"{name} matches {pattern.pattern}", single, located(item, name))
                )
    return out


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"{what} must be a number, got {value!r}")
    return float(value)


CHECKS: dict[str, Callable[[Context, Check], list[Violation]]] = {
    "count": check_count,
    "composition": check_composition,
    "range": check_range,
    "required": check_required,
    "unique": check_unique,
    "reference": check_reference,
    "line-up": check_line_up,
    "text-fits": check_text_fits,
    "min-text-size": check_min_text_size,
    "text-contrast": check_text_contrast,
    "custom": check_custom,
    "implies": check_implies,
    "any-of": check_any_of,
    "per-player": check_per_player,
    "sum": check_sum,
    "matches": check_matches,
    "table": check_table,
}
