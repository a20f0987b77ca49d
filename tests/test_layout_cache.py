"""Compiled layouts kept between runs: a layout is compiled once, and an edited layout, or another folder's layout of
the same name, is never drawn from code compiled for a different source."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from cardgen.render import layouts
from cardgen.render.layouts import Layouts

# a filter: Jinja compiles it (a layout that only prints fields is substituted without Jinja: test_substitution.py)
FACE = '<face bg="white"><text x="0" y="0" w="10" h="5">{{ card.name|trim }} WORDS</text></face>\n'


def write(folder: Path, words: str) -> Path:
    (folder / "game").mkdir(parents=True, exist_ok=True)
    (folder / "game" / "card.xml.j2").write_text(FACE.replace("WORDS", words))
    return folder


def render(folder: Path) -> str:
    return Layouts(folder).render("game", "card", {"card": {"name": "Scout"}}, "game: card 'scout' front")


@pytest.fixture
def compiled(monkeypatch) -> list[str]:
    """The names of the layouts Jinja compiles from source (not loaded from the kept code)."""
    if layouts._compiled_layouts() is None:
        pytest.skip("no private temporary folder for compiled layouts here")
    names: list[str] = []
    compile_source = layouts.BoundedEnvironment.compile

    def counting(self, source, name=None, filename=None, *args, **kwargs):
        names.append(name)
        return compile_source(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(layouts.BoundedEnvironment, "compile", counting)
    return names


def test_a_layout_is_compiled_once_and_an_edited_one_again(tmp_path, compiled):
    words = f"drawn by run {uuid.uuid4().hex}"  # a source no earlier run compiled
    folder = write(tmp_path / "a", words)
    assert (
        render(folder)
        == render(folder)
        == f'<face bg="white"><text x="0" y="0" w="10" h="5">Scout {words}</text></face>'
    )
    assert compiled == ["game/card.xml.j2"]  # the second Layouts loaded the kept code
    write(folder, f"{words}, edited")
    assert f"Scout {words}, edited<" in render(folder)
    assert compiled == ["game/card.xml.j2"] * 2


def test_same_name_other_folder_draws_its_own_source(tmp_path, compiled):
    run = uuid.uuid4().hex
    one, two = write(tmp_path / "one", f"one {run}"), write(tmp_path / "two", f"two {run}")
    assert "Scout one" in render(one) and "Scout two" in render(two) and "Scout one" in render(one)


def test_kept_code_from_another_folder_names_this_folders_file(tmp_path, compiled):
    """The same layout in two folders shares its compiled code, but an error names the file that was rendered (the
    code kept from the first folder carried that folder's path into the second's errors)."""
    from cardgen.errors import DataError

    broken = f"{{{{ card.nope }}}} {uuid.uuid4().hex}"
    for folder in (write(tmp_path / "one", broken), write(tmp_path / "two", broken)):
        with pytest.raises(DataError) as error:
            render(folder)
        assert str(error.value).startswith(f"{folder / 'game' / 'card.xml.j2'}:1: "), str(error.value)
    assert compiled == ["game/card.xml.j2"]
