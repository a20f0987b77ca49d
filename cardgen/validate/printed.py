"""Checks on the faces as the print pipeline sets them: text that fits its box (`text-fits`) and text large enough
to read at arm's length (`min-text-size`). Both render each component once through `build.text_fit()` (the
context's `fitted` hook), so they see the sizes the text fitter reached, not the sizes the layouts asked for.
"""

from __future__ import annotations

from collections.abc import Iterator

from cardgen.data.games import Component
from cardgen.data.rules import Check
from cardgen.errors import DataError
from cardgen.validate.base import Context, Violation, citation, located, resolve

# The smallest text (points) a face may set, by component kind, unless a check says otherwise with `min`: cards,
# counters and tiles are read in the hand or on the table; player aids, reference sheets and boards from further.
MIN_TEXT_PT = {"deck": 6.5, "counters": 6.5, "tiles": 6.5, "sheets": 7.0}


def _printed(ctx: Context, check: Check) -> Iterator[Component]:
    names = [check.component] if check.component else (check.components or [c.id for c in ctx.game.components])
    for name in names:
        component = ctx.game.component(name)
        if component.printed:
            yield component


def check_text_fits(ctx: Context, check: Check) -> list[Violation]:
    """Every text box fits its layout at or above its minimum size."""
    if ctx.fitted is None:
        return []
    cite = citation(ctx.game, check)
    out = []
    for component in _printed(ctx, check):
        items = {item.id: item for item in component.items}
        for overflow in ctx.fitted(component).overflows:
            item = items[overflow.item]
            out.append(Violation(check.rule, cite, f"{overflow.field} fits its box ({overflow.side})",
                                 f"overflows by {overflow.overflow_mm:.1f} mm at {overflow.size:g} pt",
                                 located(item, overflow.field)))  # fmt: skip
    return out


def smallest_allowed(ctx: Context, check: Check, component: Component) -> float:
    """The check's `min` (points), else the default for the component's kind."""
    if check.min is None:
        return MIN_TEXT_PT[component.kind]
    limit = resolve(ctx.game, check.min)
    if isinstance(limit, bool) or not isinstance(limit, int | float) or limit <= 0:
        raise DataError(f"check '{check.rule}': min must be a text size in points, got {limit!r}")
    return float(limit)


def check_min_text_size(ctx: Context, check: Check) -> list[Violation]:
    """No face sets text (text boxes after shrinking, inline markup, icon labels) below the smallest size allowed.
    Each field that is too small is reported once per component and side, at the item where it is smallest."""
    if ctx.fitted is None:
        return []
    cite = citation(ctx.game, check, check.min)
    out = []
    for component in _printed(ctx, check):
        limit = smallest_allowed(ctx, check, component)
        items = {item.id: item for item in component.items}
        worst: dict[tuple[str, str], list[tuple[float, str]]] = {}
        for text in ctx.fitted(component).sizes:
            if text.size < limit - 1e-6:
                worst.setdefault((text.what, text.side), []).append((text.size, text.item))
        for (what, side), found in worst.items():
            size, item_id = min(found)
            item = items[item_id]
            more = f" (and on {len(found) - 1} more item{'s' * (len(found) > 2)})" if len(found) > 1 else ""
            layout = item.front if side == "front" else item.back
            out.append(Violation(check.rule, cite, f"text at least {limit:g} pt",
                                 f"{what} set at {size:.1f} pt on the {side} (layout '{layout}'){more}",
                                 located(item, what)))  # fmt: skip
    return out
