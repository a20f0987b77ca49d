"""Finding and loading games: a data folder holds one folder per game; a game folder holds game.yaml and its components.

`load_game` reads every file of a game, collects every problem it meets (all files, all items) and raises them together
as one `DataError`, or returns a `Game` whose items are fully validated against their card types. Loaded objects are
frozen: later stages (the print pipeline, the validator, the engines) only read them.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from pydantic import ValidationError

from cardgen import limits
from cardgen.data.languages import split as split_languages
from cardgen.data.model import (
    ITEM_KEY,
    PAGE_SIZES,
    RESERVED_ITEM_KEYS,
    ComponentRef,
    ComponentSpec,
    ItemModel,
    ItemTable,
    Manifest,
    item_model,
    spec_model,
)
from cardgen.data.rules import Fact, Rules
from cardgen.data.tables import TABLE_SUFFIXES, read_table
from cardgen.data.validation_errors import validate, validate_item
from cardgen.data.yaml_source import PathKey, YamlDocument, dotted, read_yaml
from cardgen.errors import DataError, Location, Problem, did_you_mean, display_path
from cardgen.files import display_link, inside, real, refusal
from cardgen.units import HEX_RATIO, Size, parse_size

MANIFEST = "game.yaml"
RULES = "rules.yaml"
CHECKS_FILE = "checks.py"  # custom checks: Python, run only when trusted (cardgen/validate/checks.py)
NAME_FIELDS = ("name", "title", "label")  # the fields that name an item for a person (`Item.name`)


@dataclass(frozen=True)
class Item:
    """One card, counter, tile or sheet as written in the data, with `count` copies."""

    id: str
    count: int
    type: str | None
    front: str | None
    back: str | None
    source: str | Mapping[str, str] | None
    fields: Mapping[str, Any]
    where: Location
    field_lines: Mapping[str, int] = field(default_factory=dict)
    # text fields in the game's other languages: field → language → text (data/languages.py)
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """What a person calls the item: its `name`, `title` or `label` field (the first that is text), else its id
        (player-facing pages name items so, never by id)."""
        for key in NAME_FIELDS:
            value = self.fields.get(key)
            if isinstance(value, str) and value.strip():
                return value
        return self.id

    def field_where(self, name: str) -> Location:
        """The location of one of this item's fields (its own line when it was written, else the item's)."""
        return Location(self.where.file, self.field_lines.get(name, self.where.line), f"{self.id}.{name}")


class Described(Protocol):
    id: str
    title: str


class Named(ABC):
    """`id` and `title`, taken from the part of the data that describes the object (its manifest entry)."""

    @property
    @abstractmethod
    def described(self) -> Described:
        """The manifest entry (or manifest) that names the object."""

    @property
    def id(self) -> str:
        return self.described.id

    @property
    def title(self) -> str:
        return self.described.title


@dataclass(frozen=True)
class Component(Named):
    """A deck, counter set, tile set or set of sheets: its reference in the manifest, its file and its items."""

    ref: ComponentRef
    spec: ComponentSpec | None
    items: tuple[Item, ...]
    file: Path | None
    size: Size | None  # None for pieces and for sheets as large as the paper (size: page)
    items_at: Location | None = None  # the line listing the items (`cards:`, or `cards: {file: ships.csv}`)

    @property
    def described(self) -> Described:
        return self.ref

    @property
    def kind(self) -> str:
        return self.ref.kind

    @property
    def count(self) -> int:
        """Items including copies."""
        return sum(item.count for item in self.items)

    @property
    def shape(self) -> str:
        """`rect`, `round` or `hex`: how the face is cut."""
        return self.spec.shape if self.spec else "rect"

    @property
    def printed(self) -> bool:
        """Whether a build prints anything for it: pieces are bought, not printed; an empty component has nothing."""
        return self.kind != "pieces" and bool(self.items)

    @property
    def has_backs(self) -> bool:
        return any(item.back for item in self.items)

    @property
    def landscape(self) -> bool:
        """A sheet as large as the paper, turned (`size: page-landscape`)."""
        return self.spec is not None and self.spec.size == "page-landscape"

    @property
    def box(self) -> Size | None:
        """The face's bounding box in mm (None for pieces and page-sized sheets). A hex tile's `size` is the distance
        across the flats (one length), turned by `orient`; a hex size written as W×H is taken as the box itself."""
        size = self.size
        if size is None or self.shape != "hex" or abs(size.width - size.height) > 1e-9:
            return size
        across_corners = size.width * HEX_RATIO
        flat = self.spec is None or self.spec.orient == "flat"
        return Size(across_corners, size.width) if flat else Size(size.width, across_corners)


@dataclass(frozen=True)
class Game(Named):
    """A loaded game: its manifest, its folder, its components and its rules facts (rules.yaml)."""

    manifest: Manifest
    folder: Path
    components: tuple[Component, ...]
    rules: Rules = field(default_factory=Rules)
    rules_doc: YamlDocument | None = None
    manifest_doc: YamlDocument | None = None
    # every component a layout may read (`components[...]`) when `components` holds only those a build prints
    # (`cardgen build --only`); empty: the same as `components`
    readable: tuple[Component, ...] = ()
    language: str = ""  # the edition's language (`data.languages.edition`); "" as loaded

    def where(self, path: tuple[str | int, ...]) -> Location:
        """The location of a part of game.yaml: `("settings", "fonts", "body")` → `game.yaml:9: settings.fonts.body`."""
        if self.manifest_doc is None:
            return Location(display_path(self.folder / MANIFEST), None, ".".join(map(str, path)))
        return self.manifest_doc.where(path)

    def fact(self, name: str) -> Any:
        """The value of a rules fact, or of a part of it (`line_up.units`); a `DataError` if there is none."""
        head, *rest = name.split(".")
        value = self._fact_entry(head).value
        for part in rest:
            key = _key(value, part)
            if key is None:
                raise DataError(f"game '{self.id}': rules fact '{name}' has no part '{part}'")
            value = value[key]
        return value

    def cite(self, name: str) -> str:
        """The citation of a rules fact."""
        return self._fact_entry(name.split(".")[0]).cite

    def _fact_entry(self, head: str) -> Fact:
        if head not in self.rules.facts:
            known = list(self.rules.facts)
            raise DataError(f"game '{self.id}' has no rules fact '{head}'{did_you_mean(head, known)}")
        return self.rules.facts[head]

    @property
    def described(self) -> Described:
        return self.manifest

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages of its card text, the default first (none: one language, unnamed)."""
        return tuple(self.manifest.languages)

    @property
    def players(self) -> tuple[int, int]:
        low, high = self.manifest.players
        return low, high

    def component(self, component_id: str) -> Component:
        for component in self.components:
            if component.id == component_id:
                return component
        known = [c.id for c in self.components]
        raise DataError(f"game '{self.id}' has no component '{component_id}'{did_you_mean(component_id, known)}")

    def items(self) -> Iterator[tuple[Component, Item]]:
        for component in self.components:
            for item in component.items:
                yield component, item


def _key(value: Any, part: str) -> Any:
    """The key of `value` named by a dotted-path part (mapping keys may be ints, e.g. player counts)."""
    if isinstance(value, dict):
        for key in (part, int(part) if part.lstrip("-").isdigit() else None):
            if key is not None and key in value:
                return key
    if isinstance(value, list) and part.isdigit() and int(part) < len(value):
        return int(part)
    return None


def game_folders(data_dir: Path) -> dict[str, Path]:
    """The games under a data folder, by folder name (every subfolder holding a game.yaml)."""
    if not data_dir.is_dir():
        raise DataError(f"{display_path(data_dir)}: data folder not found")
    return {p.name: p for p in sorted(data_dir.iterdir()) if _present(p / MANIFEST)}


def _present(path: Path) -> bool:
    """Whether a file is there to be read: a FIFO or a device is, and reading it is then refused with its name."""
    return path.exists() and not path.is_dir()


def _own(folder: Path, name: str) -> Path:
    """The game's own `game.yaml` or `rules.yaml`, refused when a symbolic link leads it out of the game folder."""
    path = folder / name
    if path.is_symlink() and not inside(path, folder):
        raise DataError(f"{display_link(path)}: lies outside the game folder (a symbolic link)")
    return path


def find_game(data_dir: Path, game_id: str) -> Path:
    """The folder of one game, or a `DataError` naming the known games."""
    folders = game_folders(data_dir)
    if game_id in folders:
        return folders[game_id]
    known = ", ".join(folders) or "none"
    raise DataError(
        f"unknown game '{game_id}'{did_you_mean(game_id, list(folders))}; games in {display_path(data_dir)}: {known}"
    )


def load_games(
    data_dir: Path, game_ids: list[str] | tuple[str, ...] = (), each: Callable[[Game], None] | None = None
) -> list[Game]:
    """Load the named games (all of them when none is named); every problem of every game is raised together.
    `each` is given every game as soon as it is loaded, while no game before it has failed (a parallel build starts
    drawing it: render/parallel.py)."""
    folders = [find_game(data_dir, gid) for gid in game_ids] if game_ids else list(game_folders(data_dir).values())
    games, problems = [], []
    for folder in folders:
        try:
            games.append(load_game(folder))
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if each is not None and not problems:
            each(games[-1])
    if problems:
        raise DataError(problems)
    return games


def load_game(folder: Path) -> Game:
    """Read and validate one game folder."""
    doc = read_yaml(_own(folder, MANIFEST))
    if not isinstance(doc.value, dict):
        raise DataError(
            [*doc.problems, Problem(doc.where(), "game.yaml must be a mapping (id: …, title: …, components: …)")]
        )
    manifest, problems = validate(Manifest, doc.value, doc)
    problems = [*doc.problems, *problems]
    if manifest is None:
        # Read the components anyway when only other parts of game.yaml are wrong, so that one run reports the
        # mistakes of every file (the run still fails on the manifest's own problems).
        manifest = _salvaged(doc.value, folder)
        if manifest is None:
            raise DataError(problems)
    assert isinstance(manifest, Manifest)
    if manifest.id != folder.name:
        problems.append(Problem(doc.where(("id",)), f"id '{manifest.id}' must match its folder name '{folder.name}'"))
    problems.extend(
        _duplicates(
            [(c.id, doc.where(("components", i, "id"))) for i, c in enumerate(manifest.components)], "component id"
        )
    )
    components = []
    for ref in manifest.components:
        component, found = _load_component(folder, manifest, ref, doc)
        problems.extend(found)
        if component is not None:
            components.append(component)
    item_ids = [(item.id, item.where) for component in components for item in component.items]
    problems.extend(_duplicates(item_ids, "id"))
    problems.extend(_over_limits(components, doc))
    rules, rules_doc, found = _load_rules(folder)
    problems.extend(found)
    if reason := refusal(folder / CHECKS_FILE):  # refused whether trusted or not: a FIFO would block the import
        problems.append(Problem(Location(display_path(folder / CHECKS_FILE)), reason))
    if problems:
        raise DataError(problems)
    return Game(manifest, folder, tuple(components), rules, rules_doc, doc)


def _salvaged(value: dict[str, Any], folder: Path) -> Manifest | None:
    """The manifest without its broken top-level parts (placeholders for required ones), or None if the broken parts
    are the card types or the component list, without which the component files cannot be read."""
    try:
        Manifest.model_validate(value)
    except ValidationError as exc:
        broken = {err["loc"][0] for err in exc.errors() if err["loc"]}
    else:
        return None
    if broken & {"card_types", "components"}:
        return None
    placeholders = {"id": folder.name, "title": folder.name, "players": [1, 99], "rulebook": {"title": folder.name}}
    kept = {k: v for k, v in value.items() if k in Manifest.model_fields and k not in broken}
    try:
        return Manifest.model_validate({**placeholders, **kept})
    except ValidationError:
        return None


def _load_rules(folder: Path) -> tuple[Rules, YamlDocument | None, list[Problem]]:
    path = folder / RULES
    if not _present(path):
        return Rules(), None, []
    try:
        doc = read_yaml(_own(folder, RULES))
    except DataError as exc:
        return Rules(), None, exc.problems
    if doc.value is None:
        return Rules(), doc, doc.problems
    rules, problems = validate(Rules, doc.value, doc)
    return (rules if isinstance(rules, Rules) else Rules()), doc, [*doc.problems, *problems]


def _load_component(
    folder: Path, manifest: Manifest, ref: ComponentRef, manifest_doc: YamlDocument
) -> tuple[Component | None, list[Problem]]:
    if ref.file is None:
        return Component(ref, None, (), None, None), []
    path = real(folder / ref.file)
    if not inside(path, folder):
        index = manifest.components.index(ref)
        where = manifest_doc.where(("components", index, "file"))
        return None, [Problem(where, f"'{ref.file}' lies outside the game folder")]
    try:
        doc = read_yaml(path)
    except DataError as exc:
        return None, exc.problems
    if not isinstance(doc.value, dict):
        message = f"a {ref.kind} file must be a mapping with '{ITEM_KEY[ref.kind]}:' and its layouts"
        return None, [*doc.problems, Problem(doc.where(), message)]
    spec, problems = validate(spec_model(ref.kind), doc.value, doc)
    problems = [*doc.problems, *problems]
    if spec is None:
        return None, problems
    assert isinstance(spec, ComponentSpec)
    size_text = spec.size if spec.size is not None else (manifest.settings.card_size if ref.kind == "deck" else None)
    size = parse_size(size_text) if size_text is not None and size_text not in PAGE_SIZES else None
    items, item_problems = _load_items(folder, manifest, ref, spec, doc)
    items_at = doc.where((ITEM_KEY[ref.kind],))
    return Component(ref, spec, tuple(items), path, size, items_at), [*problems, *item_problems]


def _load_items(
    folder: Path, manifest: Manifest, ref: ComponentRef, spec: ComponentSpec, doc: YamlDocument
) -> tuple[list[Item], list[Problem]]:
    key = ITEM_KEY[ref.kind]
    problems: list[Problem] = []
    if spec.type is not None and spec.type not in manifest.card_types:
        hint = did_you_mean(spec.type, list(manifest.card_types))
        problems.append(Problem(doc.where(("type",)), f"unknown card type '{spec.type}'{hint}"))
    source = getattr(spec, key)
    if isinstance(source, ItemTable):
        entries, doc, found = _table_entries(folder, source, key, spec, manifest, doc)
        problems.extend(found)
    else:
        entries = [(raw, (key, index)) for index, raw in enumerate(source)]
    models: dict[str | None, ItemModel] = {}
    items = []
    shown = doc.display  # once a file: resolving a path per item was a third of loading 2,700 items
    for raw, where_path in _expanded(entries, key, spec, doc, problems):
        type_name = raw.get("type", spec.type) if isinstance(raw.get("type", spec.type), str | None) else spec.type
        if type_name is not None and type_name not in manifest.card_types:
            if type_name != spec.type:
                hint = did_you_mean(str(type_name), list(manifest.card_types))
                problems.append(Problem(doc.where((*where_path, "type")), f"unknown card type '{type_name}'{hint}"))
            continue
        if type_name not in models:
            models[type_name] = item_model(type_name, manifest.card_types.get(type_name) if type_name else None)
        label = raw.get("id") if isinstance(raw.get("id"), str) else ""
        languages = tuple(manifest.languages)
        texts = split_languages(raw, manifest.card_types.get(type_name) if type_name else None, languages)
        problems += [_in_item(doc, where_path, label, at, message) for at, message in texts.problems]
        raw = texts.raw
        values, found = validate_item(models[type_name], raw, doc, where_path, label)
        if isinstance(source, ItemTable):  # "cards[14] (scout).cost" → "column 'cost' (scout)": rows, not indices
            found = [_in_column(p, label) for p in found]
        problems.extend(found)
        if values is None:
            continue
        line = doc.line_of(where_path)
        if ref.kind != "pieces" and not (values["front"] or spec.front):
            problems.append(
                Problem(
                    doc.where(where_path), f"'{values['id']}' has no front layout: set 'front:' on it or on the file"
                )
            )
        item_fields = {k: v for k, v in values.items() if k not in RESERVED_ITEM_KEYS}
        field_lines = {k: doc.lines[(*where_path, k)] for k in raw if (*where_path, k) in doc.lines}
        items.append(
            Item(
                id=values["id"],
                count=values["count"],
                type=type_name,
                front=values["front"] or spec.front,
                back=values["back"] or spec.back or (manifest.settings.back if ref.kind == "deck" else None),
                source=values["source"],
                fields=MappingProxyType(item_fields),
                where=Location(shown, line, values["id"]),
                field_lines=MappingProxyType(field_lines),
                translations=MappingProxyType(texts.translations),
            )
        )
    return items, problems


def _in_item(doc: YamlDocument, where_path: PathKey, label: str, at: tuple[str, ...], message: str) -> Problem:
    """A problem with one of an item's texts, at its line: `ships.yaml:4: cards[0] (scout).name.de`, or in a
    spreadsheet `column 'name@fr' (scout)`."""
    line = doc.line_of((*where_path, *at))
    if doc.value is None:  # a table's document: rows, not indices
        return Problem(Location(doc.display, line, f"column '{at[0]}' ({label})"), message)
    field = dotted(where_path) + (f" ({label})" if label else "") + "." + ".".join(at)
    return Problem(Location(doc.display, line, field), message)


def _in_column(problem: Problem, label: str) -> Problem:
    where = problem.where
    if where is None or not where.field or ")." not in where.field:
        return problem
    column = where.field.split(").", 1)[1]
    return Problem(Location(where.file, where.line, f"column '{column}' ({label})"), problem.message)


def _table_entries(
    folder: Path, table: ItemTable, key: str, spec: ComponentSpec, manifest: Manifest, doc: YamlDocument
) -> tuple[list[tuple[Any, PathKey]], YamlDocument, list[Problem]]:
    """The raw items of a CSV or XLSX table (inside the game folder, or fetched from an address: cardgen/remote.py),
    with a document locating them by row."""
    if table.url is not None:
        return _fetched_entries(folder, table, key, spec, manifest, doc)
    assert table.file is not None
    path = real(folder / table.file)
    where = doc.where((key, "file"))
    if not inside(path, folder):
        return [], doc, [Problem(where, f"'{table.file}' lies outside the game folder")]
    if reason := refusal(path):  # before the suffix and is_file(), which pass a FIFO named ships.csv by
        return [], doc, [Problem(where, f"'{table.file}': {reason}")]
    if path.suffix.lower() not in TABLE_SUFFIXES:
        return [], doc, [Problem(where, f"'{table.file}': items can come from .csv or .xlsx files")]
    if not path.is_file():
        return [], doc, [Problem(where, f"'{table.file}': file not found")]
    try:
        entries, table_doc, problems = read_table(
            path, table.sheet, key, spec.type, manifest.card_types, tuple(manifest.languages)
        )
    except DataError as exc:
        return [], doc, exc.problems
    return entries, table_doc, problems


def _fetched_entries(
    folder: Path, table: ItemTable, key: str, spec: ComponentSpec, manifest: Manifest, doc: YamlDocument
) -> tuple[list[tuple[Any, PathKey]], YamlDocument, list[Problem]]:
    """The raw items of a table fetched from an address (or its kept copy), named by the address in messages."""
    from cardgen import remote

    assert table.url is not None
    try:
        kept = remote.obtain(table.url, folder, table.format, doc.where((key, "url")))
        languages = tuple(manifest.languages)
        return read_table(kept.path, table.sheet, key, spec.type, manifest.card_types, languages, table.url)
    except DataError as exc:
        return [], doc, exc.problems


def _expanded(
    entries: list[tuple[Any, PathKey]], key: str, spec: ComponentSpec, doc: YamlDocument, problems: list[Problem]
) -> Iterator[tuple[Any, PathKey]]:
    """The items of a file, each repeated once per combination of the `for_each` values (the first key varying
    slowest; the id suffixed with the values in the keys' order, `scout-red-en`, and the fields set)."""
    keys = list(spec.for_each or {})
    combinations = list(itertools.product(*(spec.for_each or {}).values()))
    bound = limits.current().items_per_component
    if keys and len(entries) * len(combinations) > bound:
        where = doc.where(("for_each",))
        made = f"{len(entries):,} items × {len(combinations):,} combinations"
        problems.append(Problem(where, _too_many(made, bound, "items_per_component")))
        return
    for raw, where_path in entries:
        if not isinstance(raw, dict):
            problems.append(
                Problem(doc.where(where_path), f"each entry of '{key}' must be a mapping with at least an id")
            )
            continue
        if not keys:
            yield raw, where_path
            continue
        if set_here := [name for name in keys if name in raw]:
            problems.extend(Problem(doc.where((*where_path, n)), f"'{n}' is set by for_each") for n in set_here)
            continue
        for values in combinations:
            suffix = "-".join(str(v) for v in values)
            yield {**raw, "id": f"{raw.get('id')}-{suffix}", **dict(zip(keys, values, strict=True))}, where_path


def _over_limits(components: list[Component], manifest_doc: YamlDocument) -> list[Problem]:
    """Items and copies beyond the limits (`cardgen.limits`): a typo like `count: 300000000` must not hang a build."""
    bounds = limits.current()
    problems = []
    for component in components:
        where = Location(display_path(component.file or manifest_doc.path), None, component.id)
        if len(component.items) > bounds.items_per_component:
            problems.append(
                Problem(
                    where,
                    _too_many(f"{len(component.items):,} items", bounds.items_per_component, "items_per_component"),
                )
            )
        for item in component.items:
            if item.count > bounds.copies_per_item:
                problems.append(
                    Problem(
                        item.field_where("count"),
                        _too_many(f"count {item.count:,}", bounds.copies_per_item, "copies_per_item"),
                    )
                )
        if component.count > bounds.copies_per_component:
            problems.append(
                Problem(
                    where, _too_many(f"{component.count:,} copies", bounds.copies_per_component, "copies_per_component")
                )
            )
    total = sum(c.count for c in components)
    if total > bounds.copies_per_game:
        problems.append(
            Problem(
                manifest_doc.where(("components",)),
                _too_many(f"{total:,} copies in all", bounds.copies_per_game, "copies_per_game"),
            )
        )
    return problems


def _too_many(what: str, bound: int, name: str) -> str:
    return f"{what} is more than the limit of {bound:,} (raise it with --limit {name}=N if you mean it)"


def _duplicates(entries: list[tuple[str, Location]], what: str) -> list[Problem]:
    first: dict[str, Location] = {}
    problems = []
    for value, where in entries:
        if value in first:
            problems.append(Problem(where, f"duplicate {what} '{value}' (first used at {first[value]})"))
        else:
            first[value] = where
    return problems
