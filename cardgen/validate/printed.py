"""Checks on the faces as the print pipeline sets them: text that fits its box (`text-fits`), text large enough
to read at arm's length (`min-text-size`), and text that stands out from what lies under it (`text-contrast`). The
first two render each component once through `build.text_fit()` (the context's `fitted` hook), so they see the sizes
the text fitter reached, not the sizes the layouts asked for; the third draws each face in both inks and renders it
with and without its text (`build.text_contrast()`, `render/contrast.py`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from cardgen.data.games import Component
from cardgen.data.rules import Check
from cardgen.errors import DataError
from cardgen.validate.base import Context, Violation, citation, located, resolve

if TYPE_CHECKING:
    from cardgen.render.contrast import TextContrast

# The smallest text (points) a face may set, by component kind, unless a check says otherwise with `min`: cards,
# counters and tiles are read in the hand or on the table; player aids, reference sheets and boards from further.
MIN_TEXT_PT = {"deck": 6.5, "counters": 6.5, "tiles": 6.5, "sheets": 7.0}

# The least contrast (WCAG 2 ratio) between text and what lies under it, unless a check says otherwise with `min`:
# WCAG's AA level for body text. Both inks are judged: `--ink light` turns dark grounds pale.
MIN_CONTRAST = 4.5
INKS = ("full", "light")


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
                                 f"overflows by {overflow.overflow_mm:.1f} mm at {overflow.size:g} pt"
                                 + overflow.in_language, located(item, overflow.field)))  # fmt: skip
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


def check_text_contrast(ctx: Context, check: Check) -> list[Violation]:
    """Every text stands out from what lies under it on the printed face, in the full and the light ink: its WCAG
    contrast ratio at least `min` (default 4.5). Each field too faint is reported once per component, side and ink,
    at the item where it is faintest. Fields listed in `args.decorative` (a watermark numeral meant to sit faint
    under the play area) are not judged."""
    if ctx.contrast is None:
        return []
    limit = MIN_CONTRAST if check.min is None else resolve(ctx.game, check.min)
    if isinstance(limit, bool) or not isinstance(limit, int | float) or not 1 <= limit <= 21:
        raise DataError(f"check '{check.rule}': min must be a contrast ratio from 1 to 21, got {limit!r}")
    decorative = check.args.get("decorative", [])
    if not isinstance(decorative, list) or not all(isinstance(name, str) for name in decorative):
        raise DataError(f"check '{check.rule}': args.decorative must list the fields that are decoration")
    cite = citation(ctx.game, check, check.min)
    out = []
    for component in _printed(ctx, check):
        items = {item.id: item for item in component.items}
        for ink in INKS:
            worst: dict[tuple[str, str], list[TextContrast]] = {}
            for text in ctx.contrast(component, ink):
                if text.ratio < limit - 1e-9 and text.what not in decorative:
                    worst.setdefault((text.what, text.side), []).append(text)
            for (what, side), found in worst.items():
                text = min(found, key=lambda t: (t.ratio, t.item))
                item = items[text.item]
                others = len({t.item for t in found} - {text.item})
                more = f" (and on {others} more item{'s' * (others > 1)})" if others else ""
                layout = item.front if side == "front" else item.back
                out.append(Violation(check.rule, cite, f"text contrast at least {limit:g}:1 ({ink} ink)",
                                     f"{what} {text.colour} on {text.ground} is {text.ratio:.1f}:1 on the {side} "
                                     f"(layout '{layout}'){more}", located(item, what)))  # fmt: skip
    return out
