"""The user guide's generated tables — the limits and the face markup's elements —, docs/layout-reference.md,
docs/effects.md and docs/rules-reference.md, from the code that defines them.

`python -m cardgen.reference` rewrites each table between its `<!-- NAME:begin … -->` and `<!-- NAME:end -->`
markers in the guide page that holds it (`PAGES`), the layout reference (`cardgen.render.reference`), the
card-effects page (the games' effect vocabularies, `cardgen.engine.effects`) and the rules-file reference
(`cardgen.engine.described.reference`); `tests/test_reference.py`, `tests/test_effects.py` and
`tests/test_described.py` fail when they and the code disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The guide page holding each generated table, relative to the repository's root.
PAGES = {
    "limits": Path("docs") / "guide" / "security.md",
    "elements": Path("docs") / "guide" / "layouts.md",
}
LAYOUT_REFERENCE = Path("docs") / "layout-reference.md"


def tables() -> dict[str, list[str]]:
    """Each generated table's Markdown lines, by marker name."""
    from cardgen.limits import Limits
    from cardgen.render.elements import reference_table

    limit_rows = ["| limit | default | what it bounds |", "|---|---|---|"]
    limit_rows += [f"| `{name}` | {value} | {doc} |" for name, value, doc in Limits().describe()]
    return {"limits": limit_rows, "elements": reference_table()}


def regenerate(text: str, name: str) -> str:
    """`text` with the generated table `name` replaced by what the code says now."""
    rows = tables()[name]
    begin, end = f"<!-- {name}:begin", f"<!-- {name}:end -->"
    head, found, rest = text.partition(begin)
    if not found:
        raise ValueError(f"{PAGES[name]} has no '{begin}' marker")
    marker_line, _, rest = rest.partition("\n")
    _old, found, tail = rest.partition(end)
    if not found:
        raise ValueError(f"{PAGES[name]} has no '{end}' marker")
    return head + begin + marker_line + "\n" + "\n".join(rows) + "\n" + end + tail


def main(root: Path) -> int:
    """Rewrite the guide's generated tables, docs/layout-reference.md, docs/effects.md and docs/rules-reference.md
    under `root` (the repository) where the code changed them."""
    from cardgen.engine import effects
    from cardgen.engine.described import reference as rules_reference
    from cardgen.render.reference import layout_reference

    for name, page in PAGES.items():
        path = root / page
        text = path.read_text(encoding="utf-8")
        updated = regenerate(text, name)
        if updated != text:
            path.write_text(updated, encoding="utf-8")
            print(f"{path}: generated table '{name}' updated")
    pages = (
        (LAYOUT_REFERENCE, layout_reference()),
        (Path(effects.PAGE), effects.page()),
        (Path(rules_reference.PAGE), rules_reference.page()),
    )
    for page, written in pages:
        path = root / page
        if not path.is_file() or path.read_text(encoding="utf-8") != written:
            path.write_text(written, encoding="utf-8")
            print(f"{path}: regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")))
