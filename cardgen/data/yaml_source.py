"""Reading YAML without lying: safe loading, duplicate keys as errors, and a line number for every value.

PyYAML's loaders silently keep the last of two equal keys; here the node tree is composed with the safe loader and
turned into plain Python values by hand, so a duplicate key is reported (with both lines) and every mapping key and
sequence item keeps the line it was written on. Later stages look lines up by the value's path, e.g.
``("cards", 3, "force")``, so that a pydantic error's location becomes ``file:line``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardgen import limits
from cardgen.errors import DataError, Location, Problem, display_path
from cardgen.files import require_regular

PathKey = tuple[str | int, ...]
# libyaml's parser when PyYAML was built with it (it is in the usual wheels): the same safe loading, ~5× faster
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as a line break
LIBYAML_DEPTH = 1000  # the nesting newer libyaml (as in recent PyYAML wheels) refuses to read past


def _libyaml_refuses_deep_nesting() -> bool:
    """Whether the libyaml PyYAML was built with stops at `LIBYAML_DEPTH` levels itself (0.2.6, as in PyYAML
    6.0.3's wheels): composing then cannot crash, and the depth limit is checked while building (`_Builder`)."""
    try:
        from yaml import _yaml

        version: tuple[int, int, int] = _yaml.get_version()
    except (ImportError, AttributeError):
        return False
    return _LOADER is not yaml.SafeLoader and version >= (0, 2, 6)


SAFE_COMPOSER = _libyaml_refuses_deep_nesting()
# most values and nearly all keys: built without the constructor's dispatch
STR, INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"


@dataclass
class YamlDocument:
    """A parsed YAML file: its value, the line of every path inside it, and the problems met while reading.

    `problems` holds what did not stop the reading (duplicate keys, bad aliases) so that callers can report them
    together with what they find themselves; a syntax error stops the reading and is raised instead.
    """

    path: Path
    value: Any
    lines: dict[PathKey, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    shown: str | None = None  # how messages name it when not by its path (a table fetched from an address)

    @property
    def display(self) -> str:
        """The file as messages name it."""
        return self.shown or display_path(self.path)

    def line_of(self, path: PathKey) -> int | None:
        """The line of the value at `path`, or of its nearest parent that has one."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(tuple(path[:end]))
            if line is not None:
                return line
        return None

    def where(self, path: PathKey = ()) -> Location:
        return Location(self.display, self.line_of(path), dotted(path) or None)


def dotted(path: PathKey) -> str:
    """`("cards", 3, "force")` → `cards[3].force`."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def read_yaml(path: Path) -> YamlDocument:
    """Parse one YAML file; raise `DataError` if it cannot be read or parsed (other problems stay on the document)."""
    shown = display_path(path)
    require_regular(path)
    try:
        size = path.stat().st_size
        if size > limits.current().yaml_bytes:
            raise DataError(
                f"{shown}: file of {size:,} bytes is larger than the limit of {limits.current().yaml_bytes:,} "
                "(raise it with --limit yaml_bytes=N)"
            )
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{shown}: file not found") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{shown}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except IsADirectoryError:
        raise DataError(f"{shown}: is a folder, not a YAML file") from None
    except OSError as exc:
        raise DataError(f"{shown}: cannot read ({exc.strerror})") from None
    return parse_yaml(text, path)


def parse_yaml(text: str, path: Path) -> YamlDocument:
    """Parse YAML text that came from `path` (used for messages): built straight from the parser's events where
    that gives the same document (`_streamed`), else from the composed node tree (`_composed`)."""
    shown = display_path(path)
    if not SAFE_COMPOSER:  # older libyaml recurses in C for every level: tens of thousands would crash the process
        _check_depth(text, shown)
    streamed = _streamed(text, path)
    return streamed if streamed is not None else _composed(text, path)


def _streamed(text: str, path: Path) -> YamlDocument | None:
    """The document built from libyaml's events as they come, without composing a node tree: reading 2,700 cards
    takes about a third less time (0.16 against 0.24 s) and 9 MB of memory instead of 16. None for anything only the
    tree handles as `_composed` does — anchors and aliases, merge keys, keys that are not plain values, several
    documents, nesting past the limit, any error of the YAML itself: `_composed` reads those (and says what is
    wrong) as it always has. `tests/test_yaml_streamed.py` compares the two."""
    try:
        loader = _LOADER(text)
    except yaml.reader.ReaderError:
        return None
    doc = YamlDocument(path, None)
    try:
        _Streamer(loader, doc).document()
    except (_Composed, yaml.YAMLError, RecursionError):
        return None
    finally:
        loader.dispose()
    return doc


def _composed(text: str, path: Path) -> YamlDocument:
    """Parse YAML text by composing its node tree (`_Builder`)."""
    shown = display_path(path)
    try:
        loader = _LOADER(text)
    except yaml.reader.ReaderError as exc:  # PyYAML's own reader checks every character first
        raise _unacceptable(exc, text, shown) from None
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        if "maximum nesting depth" in str(exc.problem):  # libyaml's own limit
            raise _too_deep(shown, line, min(limits.current().yaml_depth, LIBYAML_DEPTH)) from None
        reason = " ".join(filter(None, [exc.context, exc.problem])) or "invalid YAML"
        if exc.context_mark and mark and exc.context_mark.line != mark.line:
            reason += f" (the construct began on line {exc.context_mark.line + 1})"
        raise DataError([Problem(Location(shown, line), f"invalid YAML: {reason}")]) from None
    except yaml.reader.ReaderError as exc:
        raise _unacceptable(exc, text, shown) from None
    except yaml.YAMLError as exc:
        raise DataError(f"{shown}: invalid YAML: {' '.join(str(exc).split())}") from None
    finally:
        loader.dispose()
    doc = YamlDocument(path, None)
    problems = doc.problems
    if node is not None:
        builder = _Builder(loader, doc, problems)
        try:
            doc.value = builder.build(node, ())
        except RecursionError:
            problems.append(Problem(Location(shown, 1), "YAML nests too deeply or refers to itself"))
        except _TooDeep as exc:
            raise _too_deep(shown, exc.line, limits.current().yaml_depth) from None
        except _TooManyValues as exc:
            bound = limits.current().yaml_alias_values
            raise DataError(
                [
                    Problem(
                        Location(shown, exc.line),
                        f"YAML aliases expand to more than {bound:,} values (an alias bomb?); "
                        "raise the limit with --limit yaml_alias_values=N if the file is meant to",
                    )
                ]
            ) from None
    return doc


def _unacceptable(exc: yaml.reader.ReaderError, text: str, shown: str) -> DataError:
    """A character YAML does not accept (a control character), located by line and column: the reader gives only a
    position, counted in UTF-8 bytes by libyaml and in characters by PyYAML's own reader."""
    if _LOADER is yaml.SafeLoader:
        before = text[: exc.position]
    else:
        before = text.encode("utf-8")[: exc.position].decode("utf-8", errors="ignore")
    line, column = len(_BREAK.findall(before)) + 1, len(_BREAK.split(before)[-1]) + 1
    code = exc.character if isinstance(exc.character, int) else ord(exc.character)
    reason = f"invalid YAML: unacceptable character #x{code:04x} at column {column} ({exc.reason})"
    return DataError([Problem(Location(shown, line), reason)])


def _check_depth(text: str, shown: str) -> None:
    """Refuse YAML nested deeper than the limit before it is composed (with a libyaml that does not stop by itself).

    libyaml's composer recurses in C for every level, so tens of thousands of levels (`[[[[…`) crash the process
    with a segmentation fault that Python cannot catch. Its event parser does not recurse: walk the events first
    and count the depth (about as fast as composing, a few ms for a whole bundled game).
    """
    bound = limits.current().yaml_depth
    loader = _LOADER(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > bound:
                    raise _too_deep(shown, event.start_mark.line + 1 if event.start_mark else None, bound)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        # newer libyaml stops at its own nesting limit while reading ahead of the events
        if "maximum nesting depth" in str(exc.problem) and exc.problem_mark is not None:
            raise _too_deep(shown, exc.problem_mark.line + 1, min(bound, LIBYAML_DEPTH)) from None
        return  # a syntax error: composing reports it with its line
    except yaml.YAMLError:
        return
    finally:
        loader.dispose()


def _too_deep(shown: str, line: int | None, bound: int) -> DataError:
    message = f"YAML nests deeper than {bound} levels (raise with --limit yaml_depth=N)"
    return DataError([Problem(Location(shown, line), message)])


class _TooDeep(Exception):
    """Raised inside the builder at the first collection nested deeper than the limit."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


class _TooManyValues(Exception):
    """Raised inside the builder when aliases expand past the limit."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


class _Composed(Exception):
    """Raised by `_Streamer` at what only the composed tree reads as `_Builder` does."""


MERGE, VALUE = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"


class _Streamer:
    """`_Builder`'s values, lines and problems made from the parser's events: scalars resolved and constructed as
    the composer and `_Builder` do, each mapping's key problems (duplicates, keys that cannot be built) placed
    before its values' as `_Builder`'s first pass over the keys places them."""

    def __init__(self, loader: Any, doc: YamlDocument):
        self.loader = loader  # PyYAML's loaders are not typed: their events are read by their attributes
        self.doc = doc
        self.get: Callable[[], Any] = loader.get_event
        self.shown = display_path(doc.path)
        self.depth = limits.current().yaml_depth

    def document(self) -> None:
        get = self.get
        if not isinstance(get(), yaml.StreamStartEvent):
            raise _Composed
        event = get()
        if isinstance(event, yaml.StreamEndEvent):
            return  # an empty file: no value, as the composer gives none
        if not isinstance(event, yaml.DocumentStartEvent):
            raise _Composed
        self.doc.value = self.value(get(), ())
        if not isinstance(get(), yaml.DocumentEndEvent) or not isinstance(get(), yaml.StreamEndEvent):
            raise _Composed  # another document: the composer refuses it

    def value(self, event: Any, path: PathKey) -> Any:
        kind = type(event)
        if kind is yaml.AliasEvent or event.anchor is not None:  # the composer checks anchors (one name twice)
            raise _Composed
        self.doc.lines.setdefault(path, event.start_mark.line + 1)
        if kind is yaml.ScalarEvent:
            return self.scalar(event, self._tag(event), path)
        if len(path) >= self.depth:
            raise _Composed  # `_Builder` says how deep
        if kind is yaml.SequenceStartEvent:
            items: list[Any] = []
            get = self.get
            while type(event := get()) is not yaml.SequenceEndEvent:
                items.append(self.value(event, (*path, len(items))))
            return items
        if kind is yaml.MappingStartEvent:
            return self.mapping(path)
        raise _Composed

    def _tag(self, event: Any) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        return str(tag)

    def scalar(self, event: Any, tag: str, path: PathKey) -> Any:
        value, problem = _scalar(self.loader, tag, event.value, lambda: _node(event, tag))
        if problem:
            self._problem(event, path, problem)
        return value

    def mapping(self, path: PathKey) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        seen: dict[Any, int] = {}
        problems, lines, get = self.doc.problems, self.doc.lines, self.get
        start, keyed = len(problems), []
        while type(event := get()) is not yaml.MappingEndEvent:
            if type(event) is not yaml.ScalarEvent or event.anchor is not None:  # a list, a mapping, an alias
                raise _Composed
            tag, line = self._tag(event), _line(event)
            if tag in (MERGE, VALUE):
                raise _Composed
            key, problem = (event.value, None) if tag == STR else _key(self.loader, _node(event, tag))
            if problem:
                keyed.append(Problem(Location(self.shown, line, dotted(path) or None), problem))
            if not _hashable(key):
                raise _Composed
            if key in seen:
                message = f"duplicate key '{key}' (first written on line {seen[key]})"
                keyed.append(Problem(Location(self.shown, line, dotted((*path, str(key)))), message))
            else:
                seen[key] = line
            key_path = (*path, key if isinstance(key, str | int) else str(key))
            lines[key_path] = line
            result[key] = self.value(get(), key_path)
        problems[start:start] = keyed
        return result

    def _problem(self, event: Any, path: PathKey, message: str) -> None:
        where = Location(self.shown, event.start_mark.line + 1, dotted(path) or None)
        self.doc.problems.append(Problem(where, message))


def _scalar(loader: Any, tag: str, text: str, node: Callable[[], yaml.ScalarNode]) -> tuple[Any, str | None]:
    """A scalar's value, or None and the problem's message: strings and plain decimals without the constructor's
    dispatch, anything else constructed from its node (`node()`, made only then) as PyYAML does."""
    if tag == STR:
        return text, None  # what the constructor returns for a string, without its dispatch
    if tag == INT and len(text) > sys.get_int_max_str_digits():  # int() would refuse it
        return None, f"invalid value: a whole number of {len(text):,} digits"
    if tag == INT and text.isascii() and text.isdigit() and text[0] != "0":
        return int(text), None  # plain decimals (YAML 1.1 reads a leading 0 as octal: left to PyYAML)
    try:
        return loader.construct_object(node(), deep=True), None
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: a tag the text is not (`!!int x`)
        return None, f"invalid value: {_reason(exc)}"


def _key(loader: Any, node: yaml.Node) -> tuple[Any, str | None]:
    """A mapping key built from its node, or its text and the problem's message when YAML cannot build it
    (`!tag key:`)."""
    try:
        return loader.construct_object(node), None
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: a key of thousands of digits
        return getattr(node, "value", None), f"invalid key: {_reason(exc)}"


def _reason(exc: BaseException) -> str:
    """A YAML error's own words on one line (its problem, without the marks PyYAML adds)."""
    return " ".join(str(getattr(exc, "problem", exc)).split())


def _line(event: Any) -> int:
    return int(event.start_mark.line) + 1


def _node(event: Any, tag: str) -> yaml.ScalarNode:
    """The node the composer makes of a scalar event (what the constructor builds values from)."""
    return yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, style=event.style)


class _Builder:
    """Turns composed YAML nodes into plain dicts, lists and scalars while recording lines and duplicate keys."""

    def __init__(self, loader: yaml.SafeLoader | yaml.CSafeLoader, doc: YamlDocument, problems: list[Problem]):
        self.loader = loader
        self.doc = doc
        self.problems = problems
        self.shown = display_path(doc.path)
        self.active: set[int] = set()
        self.bad_keys: set[int] = set()
        # Aliases reuse a node: a node met a second time is being expanded through an alias. Count the values built
        # inside such expansions, so that a small file of nested aliases cannot expand to billions of values.
        self.built: set[int] = set()
        self.expanding = 0
        self.expanded = 0
        self.bound = limits.current().yaml_alias_values
        self.depth = limits.current().yaml_depth

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        again = id(node) in self.built
        self.built.add(id(node))
        self.expanding += again
        try:
            if self.expanding:
                self.expanded += 1
                if self.expanded > self.bound:
                    raise _TooManyValues(node.start_mark.line + 1)
            return self._build(node, path)
        finally:
            self.expanding -= again

    def _build(self, node: yaml.Node, path: PathKey) -> Any:
        self.doc.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.ScalarNode):
            value, problem = _scalar(self.loader, node.tag, node.value, lambda: node)
            if problem:
                self._problem(node, path, problem)
            return value
        if id(node) in self.active:
            self._problem(node, path, "a YAML alias refers to a value that contains it")
            return None
        if len(path) >= self.depth:  # the collection at `path` is the (len(path) + 1)th level
            raise _TooDeep(node.start_mark.line + 1)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
            assert isinstance(node, yaml.MappingNode)  # scalars returned above
            return self._mapping(node, path)
        finally:
            self.active.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                key = self._key(key_node, path)
                if not _hashable(key):
                    continue
                if key in seen:
                    self._problem(
                        key_node, (*path, str(key)), f"duplicate key '{key}' (first written on line {seen[key]})"
                    )
                else:
                    seen[key] = key_node.start_mark.line + 1
        try:
            self.loader.flatten_mapping(node)
        except yaml.YAMLError as exc:
            self._problem(node, path, f"invalid merge: {_reason(exc)}")
        result: dict[Any, Any] = {}
        lines, built = self.doc.lines, self.built
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self._problem(key_node, path, "a mapping key must be a plain value, not a list or a mapping")
                continue
            key = self._key(key_node, path)
            if not _hashable(key):
                self._problem(key_node, path, f"unusable mapping key {key!r}")
                continue
            key_path = (*path, key if isinstance(key, str | int) else str(key))
            lines[key_path] = key_node.start_mark.line + 1
            if type(value_node) is yaml.ScalarNode and value_node.tag == STR and id(value_node) not in built:
                # most values: text met for the first time (not through an alias): what `build` does, inline
                built.add(id(value_node))
                result[key] = value_node.value
            else:
                result[key] = self.build(value_node, key_path)
        return result

    def _key(self, node: yaml.Node, path: PathKey) -> Any:
        """A mapping key's value; a key of a type YAML cannot build (`!tag key:`) is a problem, kept as its text."""
        if node.tag == STR:
            return node.value
        if id(node) in self.bad_keys:
            return getattr(node, "value", None)
        key, problem = _key(self.loader, node)
        if problem:
            self.bad_keys.add(id(node))
            self._problem(node, path, problem)
        return key

    def _problem(self, node: yaml.Node, path: PathKey, message: str) -> None:
        self.problems.append(Problem(Location(self.shown, node.start_mark.line + 1, dotted(path) or None), message))


def _hashable(value: Any) -> bool:
    if type(value) is str:
        return True
    try:
        hash(value)
    except TypeError:
        return False
    return True
