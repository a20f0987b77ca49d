"""Bounds on the work a game folder can ask for, so that a stranger's download cannot hang or exhaust the machine.

A game folder is data, but data can ask for unbounded work: a kilobyte of nested YAML aliases that expands to a
billion values, `count: 300000000`, a layout with two nested loops of 100,000, a 20,000 × 20,000 pixel PNG. Each
limit below is far above what a real game needs (the largest bundled game uses a few percent of each) and turns such
input into a located error (exit 2) instead of a hang or a crash.

Raise a limit for one run with `cardgen --limit NAME=VALUE` (repeatable) or for a shell with the environment variable
`CARDGEN_LIMITS="NAME=VALUE,NAME=VALUE"`; the option wins over the variable. `cardgen limits` lists them.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, fields, replace
from typing import Any

from cardgen.errors import DataError, clipped, did_you_mean

ENVIRONMENT = "CARDGEN_LIMITS"


def _limit(default: float, doc: str) -> Any:
    return field(default=default, metadata={"doc": doc})


@dataclass(frozen=True)
class Limits:
    """The active bounds; every field is a documented default that can be raised."""

    # reading YAML: a small file can expand without bound through nesting or aliases
    yaml_bytes: int = _limit(20_000_000, "Bytes in one YAML file (game.yaml, rules.yaml or a component file).")
    yaml_depth: int = _limit(100, "Levels YAML lists and mappings may nest (libyaml crashes on thousands).")
    yaml_alias_values: int = _limit(100_000, "Values one YAML file may produce through aliases (`*name`).")

    source_bytes: int = _limit(20_000_000, "Bytes in one document `validate --sources` reads (a rulebook's text).")

    # reading spreadsheets of items: a few MB of zipped XML can unpack to gigabytes, one cell can hold a whole file
    table_bytes: int = _limit(20_000_000, "Bytes in one CSV or XLSX file of items (an XLSX as stored, compressed).")
    table_unpacked_bytes: int = _limit(
        20_000_000,
        "Bytes the parts of an XLSX file that are read (workbook, sheet, shared strings) unpack to, as declared "
        "and as counted while inflating.",
    )
    table_cell_length: int = _limit(10_000, "Characters in one cell of a CSV or XLSX file of items.")
    table_columns: int = _limit(1_000, "Cells in one row of a CSV or XLSX file of items.")
    table_cells: int = _limit(1_000_000, "Cells in one CSV or XLSX file of items, empty ones included.")

    # what a game asks to print: a `count` of a billion is one line of YAML
    items_per_component: int = _limit(
        20_000, "Items listed in one component, after `for_each` (a CSV or XLSX file is read no further)."
    )
    copies_per_item: int = _limit(10_000, "The `count` of one item.")
    copies_per_component: int = _limit(50_000, "Copies of all the items of one component.")
    copies_per_game: int = _limit(200_000, "Copies of all the items of one game.")
    pages_per_file: int = _limit(5_000, "Pages of one PDF.")

    # running layouts: a template is a program, and so is an image file's header
    face_seconds: float = _limit(3.0, "Time one layout may take to render one face.")
    face_markup_bytes: int = _limit(2_000_000, "Size of the markup one layout renders for one face.")
    template_value_length: int = _limit(1_000_000, "Length of a string or list a layout builds with `*` or `+`.")
    image_pixels: int = _limit(100_000_000, "Pixels of one raster image, checked before it is decoded.")

    # what cardgen draws on its own: an image of a few pixels per face still grows with the faces and the dpi
    preview_pixels: int = _limit(100_000_000, "Pixels of one `cardgen preview` image (a face, or a `--grid` sheet).")

    # playing a game described by its rules file (engine.yaml): a rules file is a program too
    rules_steps: int = _limit(200_000, "Steps a rules file (engine.yaml) may run between two questions to a player.")
    rules_items: int = _limit(
        50_000_000, "Items the expressions of a rules file may go through between two questions to a player."
    )
    rules_list: int = _limit(
        1_000_000, "Items in one list, or characters in one text, an expression of a rules file may build."
    )

    # what the command line reads besides a game folder
    project_bytes: int = _limit(1_000_000, "Bytes in a project file (`cardgen.toml`).")

    # items fetched from an address (`cards: {url: …}`): the body is bounded by table_bytes, as a file is
    fetch_seconds: float = _limit(30.0, "Time one fetch of items from an address may take, redirects included.")
    fetch_redirects: int = _limit(5, "Redirects one fetch of items from an address may follow.")

    # an earlier version of a game read from git (`cardgen diff`, `build --changed-since`): its files, not a checkout
    revision_files: int = _limit(10_000, "Files of a game folder read from a git revision.")
    revision_bytes: int = _limit(200_000_000, "Bytes of all the files of a game folder read from a git revision.")

    def describe(self) -> list[tuple[str, str, str]]:
        """(name, value, what it bounds) for every limit, for `cardgen limits` and the guide's security page."""
        return [(f.name, _format(getattr(self, f.name)), f.metadata["doc"]) for f in fields(self)]


def _format(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def parse_overrides(texts: list[str] | tuple[str, ...], origin: str) -> dict[str, int | float]:
    """`["copies_per_game=500000", ...]` → `{"copies_per_game": 500000}`; a `DataError` naming `origin` if wrong."""
    kinds = {f.name: f.type for f in fields(Limits)}
    result: dict[str, int | float] = {}
    for text in texts:
        name, sep, raw = (part.strip() for part in text.partition("="))
        if not sep:
            raise DataError(f"{origin}: '{text}' is not NAME=VALUE (e.g. copies_per_game=500000)")
        if name not in kinds:
            raise DataError(f"{origin}: unknown limit '{name}'{did_you_mean(name, list(kinds))}")
        try:
            value = float(raw.replace("_", "").replace(",", ""))
        except ValueError:
            raise DataError(f"{origin}: limit {name}: '{clipped(raw)}' is not a number") from None
        if not math.isfinite(value) or value <= 0:
            raise DataError(f"{origin}: limit {name}: must be a positive number, got '{clipped(raw)}'")
        result[name] = float(value) if kinds[name] == "float" else int(value)
    return result


_active = Limits()


def current() -> Limits:
    """The limits in force."""
    return _active


def configure(options: list[str] | tuple[str, ...] = ()) -> Limits:
    """Set the limits from `CARDGEN_LIMITS` and then the `--limit` options; returns them."""
    global _active
    env = [p for p in os.environ.get(ENVIRONMENT, "").split(",") if p.strip()]
    overrides = parse_overrides(env, ENVIRONMENT)
    overrides.update(parse_overrides(options, "--limit"))
    _active = replace(Limits(), **overrides)  # type: ignore[arg-type]  # each value has its field's kind
    return _active


def use(limits: Limits) -> None:
    """Put `limits` in force (worker processes receive the parent's limits this way)."""
    global _active
    _active = limits
