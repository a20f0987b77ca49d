"""Layouts: Jinja templates that turn one item's data into face markup.

The environment is sandboxed (a layout cannot reach Python internals), undefined names are errors (a misspelt field
names its template and line instead of printing a blank), and data is escaped (a card named `<Ships & Stations>`
prints as written). Templates live in `templates/<game-id>/<layout>.xml.j2`; shared macros in `templates/_common/`,
which falls back to the bundled one when a user's own templates folder has none. Jinja caches each compiled
template, so a template is compiled once per build however many cards use it, and keeps the compiled code between
runs (`_CompiledLayouts`).

Numbers print as millimetres without a filter (a float is written rounded to a millionth, so `{{ face.width / 3 }}`
is `21.166667`, not `21.166666666666668`). `vars` holds the `--set KEY=VALUE` values; `--stamp TEXT` adds a small
label to the bottom of every face (`stamp_element`). When the markup a layout produced is wrong, `locate` renders the
face again with every element marked with its template's file and line, so the error names the `.j2` line.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import os
import re
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
    UndefinedError,
    nodes,
)
from jinja2.bccache import Bucket
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from cardgen import limits
from cardgen.data.games import Game
from cardgen.errors import DataError, Problem, did_you_mean, display_path
from cardgen.files import inside, refusal
from cardgen.paths import default_templates_dir
from cardgen.render.icons import regular_polygon
from cardgen.render.markup import MARK, SKELETON_REFUSED, MarkupError, marker, with_card

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
    """A number rounded to hundredths, trailing zeros dropped (`12.50` → `12.5`); numbers print without it too."""
    return f"{value:.{places}f}".rstrip("0").rstrip(".")


def _printed(value: Any) -> Any:
    """How a value prints in markup: floats rounded to a millionth (so arithmetic prints as clean millimetres),
    everything else as Jinja prints it."""
    if isinstance(value, float) and math.isfinite(value):
        return repr(round(value, 6))
    return value


VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_variables: dict[str, str] = {}


def set_variables(pairs: Iterable[str]) -> dict[str, str]:
    """Read `KEY=VALUE` pairs (`--set`) into the `vars` every layout sees from now on; raise `ValueError` for a
    malformed pair."""
    found: dict[str, str] = {}
    for pair in pairs:
        key, sign, value = pair.partition("=")
        if not sign or not VARIABLE_NAME.match(key.strip()):
            raise ValueError(f"'{pair}' is not KEY=VALUE with KEY a name (letters, digits, _)")
        found[key.strip()] = value
    _variables.clear()
    _variables.update(found)
    return dict(found)


def variables() -> dict[str, str]:
    """The `--set` values layouts see (`vars`)."""
    return dict(_variables)


STAMP_PT = 5.0  # the stamp's size; it shrinks to STAMP_MIN_PT to fit the face's width
STAMP_MIN_PT = 3.0
STAMP_COLOUR = "#808080"  # mid grey: readable on light and dark faces


def stamp_element(text: str, face: Mapping[str, Any]) -> str:
    """The `--stamp` label as markup: centred at the bottom of the face, inside the trim (1 mm above its bottom edge
    on rectangles; higher up and narrower on round and hex pieces, so it stays inside the shape)."""
    width, height = face["width"], face["height"]
    if face.get("shape", "rect") == "rect":
        left, w, bottom = 1.0, width - 2, height - 1
    else:
        left, w, bottom = width * 0.2, width * 0.6, height * 0.9
    box = 2.4
    return (
        f'<text x="{left:.3f}" y="{bottom - box:.3f}" w="{w:.3f}" h="{box}" size="{STAMP_PT}" '
        f'min-size="{STAMP_MIN_PT}" colour="{STAMP_COLOUR}" align="center" valign="bottom" field="stamp">'
        f"{escape(text)}</text>"
    )


GLOBALS: dict[str, tuple[Any, str]] = {  # what every layout can call, besides the face's own values: value, doc
    "hex_points": (hex_points, "`hex_points(cx, cy, r, orient='flat')`: a hexagon's `points` (r centre to corner)"),
    "sqrt": (math.sqrt, "square root"),
    "pi": (math.pi, "π"),
    "min": (min, "the smallest of its arguments"),
    "max": (max, "the largest of its arguments"),
    "round": (round, "`round(x, places)`"),
}
FILTERS: dict[str, Callable[..., Any]] = {"rich": rich, "mm": number}  # cardgen's own, besides Jinja's
CONTEXT = {  # the values a build gives each face's layout (`GameRenderer.job`), as the layout reference lists them
    "card": "the item's fields, with `id`, `count` and `type`",
    "face": "`width`, `height` (mm, the trim), `bleed` (mm), `side` (`front`/`back`), `shape` (`rect`/`round`/`hex`)",
    "component": "`id`, `title`, `kind`, `count`",
    "game": "`id`, `title`, `players` (`[min, max]`), `language` (the edition's, such as `de`, for words a layout "
    "writes itself; empty for a game in one language)",
    "facts": "the values of rules.yaml's facts, by name",
    "cite": "the facts' citations, by name",
    "components": "every component's items (their fields, `id`, `count`, `type`) by component id, for tables",
    "formula": "a bundled game's rule arithmetic (`formula.build_cost(5, 2, 0.5)`; cardgen/formulas.py)",
    "ink": "`full` or `light` (the build's `--ink`): a face whose markup depends on it is its own light design, "
    "printed as written",
}
GLOBAL_VALUES = {"vars": "the `--set KEY=VALUE` values, as text"}


def describe(function: Callable[..., Any]) -> str:
    """The first line of a function's docstring (the layout reference's description of a filter)."""
    return (function.__doc__ or "").strip().splitlines()[0]


class LayoutLimitError(Exception):
    """A layout asked for more work or memory than the limits allow (see `cardgen.limits`)."""


def _check_size(value: Any) -> Any:
    bound = limits.current().template_value_length
    if isinstance(value, str | list | tuple) and len(value) > bound:
        raise LayoutLimitError(
            f"builds a value of {len(value):,} items, more than the limit of {bound:,} "
            "(--limit template_value_length=N)"
        )
    return value


# A run of 7 or more digits in a format string: a width or precision of a million or more.
_HUGE_FORMAT = re.compile(r"[0-9]{7,}")


def _check_argument(value: Any) -> None:
    bound = limits.current().template_value_length
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > bound:
        raise LayoutLimitError(f"passes the number {value:,}, larger than the limit of {bound:,}")
    if isinstance(value, str) and len(value) > bound:
        raise LayoutLimitError(f"passes a text of {len(value):,} characters, more than the limit of {bound:,}")


def _guarded(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter or global that refuses huge arguments and huge results (`center(10**9)`, `"%9999999s"|format`)."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        for value in (*args, *kwargs.values()):
            _check_argument(value)
            if isinstance(value, str) and _HUGE_FORMAT.search(value) and function.__name__ == "do_format":
                raise LayoutLimitError("formats with a width of a million characters or more")
        return _check_size(function(*args, **kwargs))

    return call


class BoundedEnvironment(SandboxedEnvironment):
    """Jinja's sandbox, plus bounds on the size of what a layout builds.

    The sandbox stops a layout from reaching Python's internals but not from asking for unbounded memory:
    `"a" * 10**10` or `10**10**10` is a single operation that no time limit can interrupt. Multiplication, addition
    and powers are checked before they run; calls refuse huge numbers and format widths. Time is bounded separately
    (`time_limit`), memory for the whole face by the markup size (`Layouts.render`).
    """

    intercepted_binops = frozenset({"*", "**", "+"})
    marking = False  # `Layouts.locate`'s overlay: every element the templates write carries its file and line

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        if self.marking:
            shown = display_path(filename or name or "layout")
            for output in tree.find_all(nodes.Output):
                output.nodes = [
                    piece
                    for node in output.nodes
                    for piece in (_marked(node, shown) if isinstance(node, nodes.TemplateData) else [node])
                ]  # each element's mark, then the lines that called it (a macro's caller is known only as it runs)
        return tree

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        bound = limits.current().template_value_length
        if operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, str | list | tuple) and isinstance(times, int) and len(seq) * times > bound:
                    raise LayoutLimitError(
                        f"repeats a value to {len(seq) * times:,} items, more than the limit of {bound:,}"
                    )
        numbers = isinstance(left, int | float) and isinstance(right, int | float)
        if operator_name == "**" and numbers and abs(left) > 1 and right > 0 and right * math.log10(abs(left)) > 300:
            raise LayoutLimitError(f"computes {left}**{right}, a number of more than 300 digits")
        result = self.binop_table[operator_name](left, right)
        return _check_size(result) if operator_name != "**" else result

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        for value in (*args, *kwargs.values()):
            _check_argument(value)
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """`"{:>999999999}".format(1)` allocates before any result can be checked: refuse such widths up front."""
        owner = getattr(value, "__self__", None)
        formatting = isinstance(owner, str) and getattr(value, "__name__", "") in {"format", "format_map"}
        if formatting and _HUGE_FORMAT.search(str(owner)):
            raise LayoutLimitError("formats with a width of a million characters or more")
        return super().wrap_str_format(value)


_TAG_START = re.compile(r"<([A-Za-z][A-Za-z0-9_.-]*)")


def _marked(node: nodes.TemplateData, shown: str) -> list[nodes.Expr]:
    """Template text with each element it opens marked with the template's file and the line it opens on, and the
    template lines that called it when it is written inside a macro (`_callers`, run as the face is rendered)."""
    data, pieces, start, closing = node.data, list[nodes.Expr](), 0, ""
    for match in _TAG_START.finditer(data):
        at = node.lineno + data.count("\n", 0, match.start())
        text = f'{closing}{data[start : match.start()]}<{match.group(1)} {MARK}="{shown}:{at}'
        pieces.append(nodes.TemplateData(text, lineno=node.lineno))
        pieces.append(nodes.Call(nodes.Name(CALLERS, "load"), [], [], None, None, lineno=node.lineno))
        start, closing = match.end(), '"'
    pieces.append(nodes.TemplateData(closing + data[start:], lineno=node.lineno))
    return pieces


CALLERS = "cardgen_callers"  # the marking environment's global: where the element being written was called from


def _callers() -> str:
    """` (called from ship.xml.j2:7)`: the template lines up the stack from the one writing an element (Jinja
    keeps each compiled template in its frames' globals, with its line table); empty outside a macro."""
    frame: FrameType | None = sys._getframe(1)
    places: list[str] = []
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            line = template.get_corresponding_lineno(frame.f_lineno)
            place = f"{display_path(template.filename or template.name)}:{line}"
            if not places or places[-1] != place:
                places.append(place)
        frame = frame.f_back
    callers = places[1:]  # the first is the template writing the element, named by its mark already
    return f" (called from {', '.join(callers)})" if callers else ""


class _Timeout(Exception):
    """Raised by the alarm signal inside a layout that runs too long."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise `_Timeout` in the block after `seconds` (a no-op outside the main thread, where signals cannot go).

    Rendered layouts are Python code, so an alarm interrupts even `{% for i in range(100000) %}` nested twice.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class LayoutFileRefused(TemplateError):
    """A layout, include or import that is a symbolic link leading out of its templates folder, or not a regular
    file (a FIFO would block the build); the message names the file."""


class _FolderLoader(FileSystemLoader):
    """One templates folder, read like the game folders are: a file is opened only when it lies inside the folder
    with every symbolic link followed (a link within the folder is fine) and is a regular file."""

    def __init__(self, folder: Path):
        super().__init__(str(folder))
        self.folder = folder

    def get_source(self, environment: Any, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        path = self.folder.joinpath(*pieces)
        if os.path.lexists(path):
            folder = display_path(self.folder)
            shown = "/".join([folder, *pieces])  # as the layouts name it, through any link (not where a link leads)
            if not inside(path, self.folder):
                raise LayoutFileRefused(f"{shown}: leads outside the templates folder {folder} (a symbolic link)")
            reason = refusal(path)
            if reason is not None:
                raise LayoutFileRefused(f"{shown}: {reason}")
        return super().get_source(environment, template)


class _SharedOnly(BaseLoader):
    """The bundled templates folder as a fallback for shared pieces only (`_common/`): a game's own layout missing
    from a user's templates folder is an error, never silently the bundled game's layout."""

    def __init__(self, loader: _FolderLoader):
        self.loader = loader

    def get_source(self, environment: Any, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        if not template.startswith("_common/"):
            raise TemplateNotFound(template)
        return self.loader.get_source(environment, template)


class _CompiledLayouts(FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, kept between runs, keyed by a template's name and source (not its
    path: the same layout copied to another folder is the same code) and by this module's own source, so that code
    compiled before a change to the sandbox's checks (`BoundedEnvironment`) never runs after it. Code kept from
    another folder is given this file's name, which a template and every error located in it take from its code."""

    def get_bucket(self, environment: Any, name: str, filename: str | None, source: str) -> Bucket:
        checksum = self.get_source_checksum(source)
        bucket = Bucket(environment, self.get_cache_key(f"{name}\0{checksum}"), checksum)
        self.load_bytecode(bucket)
        if bucket.code is not None and filename is not None and bucket.code.co_filename != filename:
            bucket.code = _renamed(bucket.code, filename)
        return bucket


def _renamed(code: CodeType, filename: str) -> CodeType:
    """`code`, and the code of every function (macro, block) inside it, as if compiled from `filename`."""
    constants = tuple(_renamed(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=constants)


@functools.cache
def _compiled_layouts() -> _CompiledLayouts | None:
    """The compiled layouts in Jinja's private per-user temporary folder, or None where it cannot be had (compiling
    the bundled games' 71 layouts is about a fifth of building them, and every worker of a parallel build did it
    again)."""
    try:
        module = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
        return _CompiledLayouts(pattern=f"__cardgen_layouts_{module}_%s.cache")
    except (OSError, RuntimeError):  # no usable temporary folder: compile every run
        return None


class Layouts:
    """The layouts of one templates folder; renders faces and turns Jinja's errors into located `DataError`s."""

    def __init__(self, templates_dir: Path, stamp: str | None = None):
        self.templates_dir = templates_dir
        self.stamp = stamp
        self._marking: BoundedEnvironment | None = None
        loaders: list[BaseLoader] = [_FolderLoader(templates_dir)]
        bundled = default_templates_dir()
        if bundled.resolve() != templates_dir.resolve():
            loaders.append(_SharedOnly(_FolderLoader(bundled)))
        self.env = BoundedEnvironment(
            loader=ChoiceLoader(loaders),
            undefined=StrictUndefined,
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
            finalize=_printed,
            bytecode_cache=_compiled_layouts(),
        )
        self.env.filters.update(FILTERS)
        self.env.filters = {name: _guarded(f) for name, f in self.env.filters.items()}
        self.env.globals.update({name: value for name, (value, _doc) in GLOBALS.items()})
        self.env.globals["vars"] = variables()
        self._programs: dict[str, Program | None] = {}  # layout → its substitution program (`_substituted`), or None

    def missing(self, game: Game) -> list[Problem]:
        """Every layout the game's items name that its templates folder lacks, each located at the item."""
        problems, seen = [], set()
        for _, item in game.items():
            for side, layout in (("front", item.front), ("back", item.back)):
                name = f"{game.id}/{layout}{SUFFIX}"
                if layout is None or name in seen:
                    continue
                seen.add(name)
                try:
                    self.env.loader.get_source(self.env, name)  # type: ignore[union-attr]
                except TemplateNotFound:
                    missing = display_path(self.templates_dir / name)
                    hint = did_you_mean(layout, self._known(game.id)) or self._where_hint(game)
                    problems.append(Problem(item.field_where(side), f"layout '{layout}' not found: {missing}{hint}"))
                except LayoutFileRefused as exc:
                    problems.append(Problem(item.field_where(side), f"layout '{layout}': {exc}"))
        return problems

    def _where_hint(self, game: Game) -> str:
        """A game of your own looked up among the bundled layouts: say which option points at yours."""
        bundled = default_templates_dir().resolve()
        if self.templates_dir.resolve() == bundled and not (bundled / game.id).is_dir():
            return " (the bundled layouts were searched: pass --templates-dir, or name it in cardgen.toml)"
        return ""

    def _known(self, game_id: str) -> list[str]:
        folder = self.templates_dir / game_id
        return sorted(p.name.removesuffix(SUFFIX) for p in folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []

    def render(self, game_id: str, layout: str, context: Mapping[str, Any], who: str) -> str:
        """Render one face; `who` (e.g. "demo: card 'scout' front") prefixes every error message."""
        return self.rendered(game_id, layout, context, who)[0]

    def rendered(
        self, game_id: str, layout: str, context: Mapping[str, Any], who: str
    ) -> tuple[str, tuple[str, tuple[str, ...]] | None]:
        """The face's markup (`render`), and for a face of a substitution layout its skeleton's key: the layout's
        probe (its markup with a `markup.marker` for each field) and the card's texts for them, from which
        `FaceDrawer.parse` makes the face without parsing it. None where the markup is not just that."""
        substituted = self._substituted(f"{game_id}/{layout}{SUFFIX}", context)
        markup, bones = (
            substituted if substituted is not None else (self._render(self.env, game_id, layout, context, who), None)
        )
        card = context.get("card")
        if isinstance(card, Mapping) and "id" in card:
            marked = with_card(markup, str(card["id"]))
            bones = bones if marked is markup else None
            markup = marked
        if self.stamp:
            head, found, tail = markup.rpartition("</face>")
            markup = head + stamp_element(self.stamp, context["face"]) + found + tail if found else markup
            bones = None
        return markup, bones

    def _substituted(
        self, name: str, context: Mapping[str, Any]
    ) -> tuple[str, tuple[str, tuple[str, ...]] | None] | None:
        """The face a substitution layout (`_substitution`) renders, its card's values put in without Jinja, with its
        skeleton's key (`rendered`); None for any other layout, or where the card lacks a value it prints (Jinja
        renders it, and says what is wrong)."""
        if name not in self._programs:
            self._programs[name] = _substitution(self.env, name)
        program, card = self._programs[name], context.get("card")
        if program is None or type(card) is not dict:  # a dictionary's item: what Jinja's sandbox reads for card.x
            return None
        pieces, values, plain = [program.texts[0]], [], True
        for field, text in zip(program.fields, program.texts[1:], strict=True):
            if field not in card:
                return None
            value = _printed(card[field])
            shown = str(value)
            plain = plain and not hasattr(value, "__html__") and not SKELETON_REFUSED.search(shown)
            values.append(shown)
            pieces += (str(escape(value)), text)
        markup = "".join(pieces)
        if len(markup) > limits.current().face_markup_bytes:
            return None  # Jinja's rendering says so
        return markup, ((program.probe, tuple(values)) if plain else None)

    def locate(
        self, game_id: str, layout: str, context: Mapping[str, Any], parse: Callable[[str], Any]
    ) -> MarkupError | None:
        """The markup error `parse` raises for this face, rendered again with every element marked with the template
        line that wrote it, so the error's `at` names the layout's own line (None if the marked face parses)."""
        try:
            parse(self._marked(game_id, layout, context))
        except MarkupError as exc:
            return exc
        except DataError:
            return None
        return None

    def element_at(
        self, game_id: str, layout: str, context: Mapping[str, Any], parse: Callable[[str], Any], index: int
    ) -> str | None:
        """The layout's `file:line` that wrote the face's element number `index` (counted as `parse` lists them),
        found by rendering the face again with every element marked; None when it cannot be told."""
        try:
            elements = parse(self._marked(game_id, layout, context)).elements
        except (MarkupError, DataError):
            return None
        at: str | None = elements[index].at if 0 <= index < len(elements) else None
        return at

    def _marked(self, game_id: str, layout: str, context: Mapping[str, Any]) -> str:
        if self._marking is None:
            # compiled afresh, never from the kept compiled layouts: marking changes the code a template compiles to
            self._marking = self.env.overlay(bytecode_cache=None)
            self._marking.marking = True
            self._marking.globals[CALLERS] = _callers
        return self._render(self._marking, game_id, layout, context, "")

    def markup_problem(
        self, exc: MarkupError, game_id: str, layout: str, context: Mapping[str, Any], parse: Callable[[str], Any],
        who: str,
    ) -> str:  # fmt: skip
        """A markup error's message, at the layout's own line when `locate` finds it."""
        located = self.locate(game_id, layout, context, parse)
        if located is not None and located.at is not None:
            return f"{located.at}: {who}: {located}"
        line = f" (line {exc.line} of the rendered markup)" if exc.line else ""
        return f"{who}: layout '{layout}'{line}: {exc}"

    def _render(self, env: Any, game_id: str, layout: str, context: Mapping[str, Any], who: str) -> str:
        name = f"{game_id}/{layout}{SUFFIX}"
        try:
            template = env.get_template(name)
        except TemplateNotFound:
            missing = display_path(self.templates_dir / name)
            hint = did_you_mean(layout, self._known(game_id))
            raise DataError(f"{who}: layout '{layout}' not found: {missing}{hint}") from None
        except LayoutFileRefused as exc:
            raise DataError(f"{who}: layout '{layout}': {exc}") from None
        except TemplateSyntaxError as exc:
            raise DataError(
                f"{display_path(exc.filename or name)}:{exc.lineno}: template syntax error: {exc.message}"
            ) from None
        bounds = limits.current()
        try:
            with time_limit(bounds.face_seconds):
                return _collect(template.generate(context), bounds.face_markup_bytes)
        except _Timeout:
            raise DataError(
                f"{display_path(self.templates_dir / name)}: {who}: the layout took more than "
                f"{bounds.face_seconds:g} s to render (a runaway loop? --limit face_seconds=N)"
            ) from None
        except LayoutLimitError as exc:
            where = _template_frame(exc) or display_path(self.templates_dir / name)
            raise DataError(f"{where}: {who}: the layout {exc}") from None
        except RecursionError as exc:  # a macro that calls itself, directly or through others, without end
            where = _template_frame(exc) or display_path(self.templates_dir / name)
            message = "the layout calls itself without end (a macro that calls itself?)"
            raise DataError(f"{where}: {who}: {message}") from None
        except TemplateSyntaxError as exc:  # an included or imported template
            raise DataError(
                f"{display_path(exc.filename or name)}:{exc.lineno}: template syntax error: {exc.message}"
            ) from None
        except (UndefinedError, TemplateError, TypeError, ValueError, ArithmeticError, AttributeError) as exc:
            where = _template_frame(exc) or display_path(self.templates_dir / name)
            raise DataError(f"{where}: {who}: {_describe(exc)}") from None


@dataclass(frozen=True)
class Program:
    """A substitution layout as the pieces it joins: `texts[0]`, the value of `fields[0]`, `texts[1]`, … and
    `texts[-1]` (one more text than fields); `probe` is the markup with `markup.marker(n)` for the n-th field."""

    texts: tuple[str, ...]
    fields: tuple[str, ...]

    @functools.cached_property
    def probe(self) -> str:
        return "".join(text + marker(n) for n, text in enumerate(self.texts[:-1])) + self.texts[-1]


def _substitution(env: Any, name: str) -> Program | None:
    """A layout that only prints card fields into fixed markup (`{{ card.name }}`, `{{ card["cost"] }}`: no tags,
    filters, arithmetic or other names) as the pieces it joins (`Layouts._substituted`). Jinja's work for such a
    face is a tenth of a large deck's build and its output is known without it. None for any other layout, and for
    fields Jinja would read otherwise: a dictionary's own attributes (`card.items`) and names the sandbox refuses
    (`card._x`). Errors are left to Jinja's own rendering."""
    try:
        source, _, _ = env.loader.get_source(env, name)
        if "{%" in source:  # a tag: not a substitution (and not worth lexing to find out)
            return None
        tree = env.parse(source, name)
    except Exception:  # whatever it is, rendering the layout says it as it always has
        return None
    texts, fields, text = [], [], ""
    for output in tree.body:
        if not isinstance(output, nodes.Output):
            return None
        for node in output.nodes:
            if isinstance(node, nodes.TemplateData):
                text += node.data
                continue
            field = _card_field(node)
            if field is None or field.startswith("_") or hasattr(dict, field):
                return None
            texts.append(text)
            fields.append(field)
            text = ""
    return Program((*texts, text), tuple(fields))


def _card_field(node: nodes.Node) -> str | None:
    """The field of `card.FIELD` or `card["FIELD"]`, or None for any other expression."""
    if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name) and node.node.name == "card":
        return node.attr
    if (
        isinstance(node, nodes.Getitem)
        and isinstance(node.node, nodes.Name)
        and node.node.name == "card"
        and isinstance(node.arg, nodes.Const)
        and isinstance(node.arg.value, str)
    ):
        return node.arg.value
    return None


def _collect(chunks: Iterator[str], bound: int) -> str:
    """Join a template's output, refusing more than `bound` characters as soon as it passes them."""
    parts, size = [], 0
    for chunk in chunks:
        size += len(chunk)
        if size > bound:
            raise LayoutLimitError(
                f"renders more than {bound:,} characters of markup for one face (--limit face_markup_bytes=N)"
            )
        parts.append(chunk)
    return "".join(parts)


def _template_frame(exc: BaseException) -> str | None:
    """`file:line` of the innermost template frame in an exception's traceback (Jinja maps frames to templates),
    followed by the template lines that called it: `ui.xml.j2:13 (called from card.xml.j2:4)`."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(SUFFIX)]
    shown = [f"{display_path(f.filename)}:{f.lineno}" for f in reversed(frames)]
    shown = [place for n, place in enumerate(shown) if place not in shown[:n]]
    if not shown:
        return None
    return shown[0] + (f" (called from {', '.join(shown[1:])})" if len(shown) > 1 else "")


def _describe(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, UndefinedError):
        match = re.search(r"has no attribute '([^']+)'", text)
        if match:
            return f"'{match.group(1)}' is undefined (no such field)"
    return text
