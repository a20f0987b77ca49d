"""The README's generated tables — the limits and the face markup's elements —, docs/layout-reference.md,
docs/effects.md and docs/rules-reference.md, from the code that defines them.

`python -m cardgen.reference` rewrites each table between its `<!-- NAME:begin … -->` and `<!-- NAME:end -->`
markers in README.md, the layout reference (`cardgen.render.reference`) and the card-effects page (the games'
effect vocabularies, `cardgen.engine.effects`); `tests/test_reference.py` and `tests/test_effects.py` fail when they
and the code disagree.
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
    """Rewrite the README's tables, docs/layout-reference.md, docs/effects.md and docs/rules-reference.md (beside
    the README) where the code changed them."""
    from cardgen.engine import effects
    from cardgen.engine.described import reference as rules_reference
    from cardgen.render.reference import layout_reference

    text = readme.read_text(encoding="utf-8")
    updated = regenerate(text)
    if updated != text:
        readme.write_text(updated, encoding="utf-8")
        print(f"{readme}: generated tables updated")
    pages = ((LAYOUT_REFERENCE, layout_reference()), (Path(effects.PAGE), effects.page()),
             (Path(rules_reference.PAGE), rules_reference.page()))  # fmt: skip
    for page, written in pages:
        path = readme.parent / page
        if not path.is_file() or path.read_text(encoding="utf-8") != written:
            path.write_text(written, encoding="utf-8")
            print(f"{path}: regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("README.md")))
