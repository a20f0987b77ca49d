"""The README's generated tables agree with the code, and the markup's elements are what the renderer draws."""

from __future__ import annotations

from pathlib import Path

from cardgen.reference import regenerate
from cardgen.render.elements import ELEMENTS, SCHEMAS

from conftest import REPO, run_cli

README = Path(__file__).parent.parent / "README.md"


def test_readme_tables_are_generated_from_the_code() -> None:
    """Limits and elements in the README are what `python -m cardgen.reference` writes (run it after a change)."""
    text = README.read_text(encoding="utf-8")
    assert regenerate(text) == text, "README's generated tables are stale: run python -m cardgen.reference"


def test_a_changed_limit_or_element_makes_the_readme_stale(monkeypatch) -> None:
    """The comparison above can fail: change one element's summary and the README no longer matches."""
    text = README.read_text(encoding="utf-8")
    monkeypatch.setattr(type(ELEMENTS["circle"]), "summary", "a different summary")
    assert regenerate(text) != text


def test_every_element_is_one_module_with_its_schema() -> None:
    """Each module of cardgen/render/elements/ (but base) defines one element, registered under its tag."""
    folder = Path(__file__).parent.parent / "cardgen" / "render" / "elements"
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__", "base"}
    assert modules == set(ELEMENTS)
    assert all(SCHEMAS[tag] is kind.attributes for tag, kind in ELEMENTS.items())


def test_the_layout_reference_lists_every_shared_macro_with_its_parameters():
    """`cardgen layout-reference` documents `_common/ui.xml.j2` as it documents the elements: every macro in the
    file, each parameter with its default, and what it draws (the comment above it)."""
    import re

    from cardgen.render.reference import shared_macros

    source = (REPO / "templates" / "_common" / "ui.xml.j2").read_text()
    written = re.findall(r"\{%-? macro (\w+)\(", source)
    macros = shared_macros()
    assert [name for name, _, _ in macros] == written and len(written) >= 8
    assert all(said for _, _, said in macros), "a macro without a comment saying what it draws"
    run = run_cli("layout-reference")
    assert run.code == 0
    row = next(line for line in run.out.splitlines() if line.startswith("| `ui.text_box`"))
    assert "`min_size=6.5`" in row and "`field`" in row and "shrinks down to min_size" in row, row
