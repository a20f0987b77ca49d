"""The guide's generated tables agree with the code, and the markup's elements are what the renderer draws."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.reference import PAGES, regenerate
from cardgen.render.elements import ELEMENTS, SCHEMAS

from conftest import REPO, run_cli


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_guides_tables_are_generated_from_the_code(name: str) -> None:
    """Limits and elements in the guide are what `python -m cardgen.reference` writes (run it after a change)."""
    text = (REPO / PAGES[name]).read_text(encoding="utf-8")
    assert regenerate(text, name) == text, f"{PAGES[name]} is stale: run python -m cardgen.reference"


def test_a_changed_limit_or_element_makes_the_guide_stale(monkeypatch) -> None:
    """The comparison above can fail: change one element's summary and the layouts page no longer matches."""
    text = (REPO / PAGES["elements"]).read_text(encoding="utf-8")
    monkeypatch.setattr(type(ELEMENTS["circle"]), "summary", "a different summary")
    assert regenerate(text, "elements") != text


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
