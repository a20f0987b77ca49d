"""Layouts: Jinja templates that turn one item's data into face markup.

The environment is sandboxed (a layout cannot reach Python internals), undefined names are errors (a misspelt field
names its template and line instead of printing a blank), and data is escaped (a card named `<Ships & Stations>`
prints as written). Templates live in `templates/<game-id>/<layout>.xml.j2`; shared macros in `templates/_common/`,
which falls back to the bundled one when a user's own templates folder has none. Jinja caches each compiled
template, so a template is compiled once per build however many cards use it.
"""

from __future__ import annotations

import math
import re
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import (
    ChoiceLoader,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
    UndefinedError,
)
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from cardgen.errors import DataError, did_you_mean, display_path
from cardgen.paths import default_templates_dir
from cardgen.render.icons import regular_polygon

SUFFIX = ".xml.j2"


def rich(value: Any) -> Markup:
    """Card text with light emphasis: `**bold**`, `*italic*`, and line breaks; everything else is escaped."""
    text = str(escape(str(value)))
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<i>\1</i>", text)
    return Markup(text.replace("\n", "<br/>"))


def hex_points(cx: float, cy: float, r: float, orient: str = "flat") -> str:
    """The `points` attribute of a hexagon polygon (r is the circumradius, in mm)."""
    corners = regular_polygon(cx, cy, r, 6, 0.0 if orient == "flat" else math.pi / 6)
    return " ".join(f"{x:.3f},{y:.3f}" for x, y in corners)


def number(value: float, places: int = 2) -> str:
    """A millimetre value formatted for markup attributes."""
    return f"{value:.{places}f}".rstrip("0").rstrip(".")


class Layouts:
    """The layouts of one templates folder; renders faces and turns Jinja's errors into located `DataError`s."""

    def __init__(self, templates_dir: Path):
        self.templates_dir = templates_dir
        folders = [templates_dir]
        bundled = default_templates_dir()
        if bundled.resolve() != templates_dir.resolve():
            folders.append(bundled)
        self.env = SandboxedEnvironment(
            loader=ChoiceLoader([FileSystemLoader(str(f)) for f in folders]),
            undefined=StrictUndefined,
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
        )
        self.env.filters.update(rich=rich, mm=number)
        self.env.globals.update(hex_points=hex_points, sqrt=math.sqrt, pi=math.pi, min=min, max=max, round=round)

    def render(self, game_id: str, layout: str, context: Mapping[str, Any], who: str) -> str:
        """Render one face; `who` (e.g. "demo: card 'scout' front") prefixes every error message."""
        name = f"{game_id}/{layout}{SUFFIX}"
        try:
            template = self.env.get_template(name)
        except TemplateNotFound:
            folder = self.templates_dir / game_id
            known = sorted(p.name.removesuffix(SUFFIX) for p in folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []
            missing = display_path(folder / (layout + SUFFIX))
            raise DataError(f"{who}: layout '{layout}' not found: {missing}{did_you_mean(layout, known)}") from None
        except TemplateSyntaxError as exc:
            raise DataError(
                f"{display_path(exc.filename or name)}:{exc.lineno}: template syntax error: {exc.message}"
            ) from None
        try:
            return template.render(context)
        except TemplateSyntaxError as exc:  # an included or imported template
            raise DataError(
                f"{display_path(exc.filename or name)}:{exc.lineno}: template syntax error: {exc.message}"
            ) from None
        except (UndefinedError, TemplateError, TypeError, ValueError, ArithmeticError, AttributeError) as exc:
            where = _template_frame(exc) or display_path(self.templates_dir / name)
            raise DataError(f"{where}: {who}: {_describe(exc)}") from None


def _template_frame(exc: BaseException) -> str | None:
    """`file:line` of the innermost template frame in an exception's traceback (Jinja maps frames to templates)."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith(SUFFIX):
            return f"{display_path(frame.filename)}:{frame.lineno}"
    return None


def _describe(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, UndefinedError):
        match = re.search(r"has no attribute '([^']+)'", text)
        if match:
            return f"'{match.group(1)}' is undefined (no such field)"
    return text
