"""The README's generated tables — the limits and the face markup's elements — and docs/layout-reference.md, from
the code that defines them.

`python -m cardgen.reference` rewrites each table between its `<!-- NAME:begin … -->` and `<!-- NAME:end -->`
markers in README.md and the layout reference (`cardgen.render.reference`); `tests/test_reference.py` fails when
either and the code disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path


def tables() -> dict[str, list[str]]:
    """Each generated table's Markdown lines, by marker name."""
    from cardgen.limits import Limits
    from cardgen.render.elements import reference_table

    limit_rows = ["| limit | default | what it bounds |", "|---|---|---|"]
    limit_rows += [f"| `{name}` | {value} | {doc} |" for name, value, doc in Limits().describe()]
    return {"limits": limit_rows, "elements": reference_table()}


def regenerate(text: str) -> str:
    """`text` with every generated table replaced by what the code says now."""
    for name, rows in tables().items():
        begin, end = f"<!-- {name}:begin", f"<!-- {name}:end -->"
        head, found, rest = text.partition(begin)
        if not found:
            raise ValueError(f"README has no '{begin}' marker")
        marker_line, _, rest = rest.partition("\n")
        _old, found, tail = rest.partition(end)
        if not found:
            raise ValueError(f"README has no '{end}' marker")
        text = head + begin + marker_line + "\n" + "\n".join(rows) + "\n" + end + tail
    return text


LAYOUT_REFERENCE = Path("docs") / "layout-reference.md"


def main(readme: Path) -> int:
    """Rewrite the README's tables and docs/layout-reference.md (beside the README) where the code changed them."""
    from cardgen.render.reference import layout_reference

    text = readme.read_text(encoding="utf-8")
    updated = regenerate(text)
    if updated != text:
        readme.write_text(updated, encoding="utf-8")
        print(f"{readme}: generated tables updated")
    reference = readme.parent / LAYOUT_REFERENCE
    written = layout_reference()
    if not reference.is_file() or reference.read_text(encoding="utf-8") != written:
        reference.write_text(written, encoding="utf-8")
        print(f"{reference}: regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("README.md")))
