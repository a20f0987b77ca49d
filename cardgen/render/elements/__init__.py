"""The face markup's elements, one module each, found when this package is imported.

`ELEMENTS` maps each tag to its `ElementKind`; `SCHEMAS` maps each tag to its attributes (what `markup.parse_face`
checks against); `reference_table()` is the guide's table of elements, generated from the same classes.
"""

from __future__ import annotations

import importlib
import pkgutil

from cardgen.render.elements.base import ElementKind
from cardgen.render.markup import REQUIRED, Schema


def _discover() -> dict[str, ElementKind]:
    found: dict[str, ElementKind] = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name != "base"):
        importlib.import_module(f"{__name__}.{module}")
    for kind in ElementKind.__subclasses__():
        if kind.tag in found:
            raise RuntimeError(f"two elements claim <{kind.tag}>")
        found[kind.tag] = kind()
    return dict(sorted(found.items()))


ELEMENTS: dict[str, ElementKind] = _discover()
SCHEMAS: dict[str, Schema] = {tag: kind.attributes for tag, kind in ELEMENTS.items()}


def reference_table() -> list[str]:
    """The guide's table of elements (docs/guide/layouts.md): each element with its attributes (required ones first)
    and summary."""
    rows = ["| element | attributes (required first) | what it draws |", "|---|---|---|"]
    for tag, kind in ELEMENTS.items():
        required = [name for name, attr in kind.attributes.items() if attr.default is REQUIRED]
        optional = [attr.shown(name) for name, attr in kind.attributes.items() if attr.default is not REQUIRED]
        shown = " ".join([*required, *optional]).replace("|", "\\|")
        rows.append(f"| `<{tag}>` | `{shown}` | {kind.summary} |")
    return rows


__all__ = ["ELEMENTS", "SCHEMAS", "ElementKind", "reference_table"]
