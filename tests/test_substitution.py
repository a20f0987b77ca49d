"""Layouts that only print card fields into fixed markup are rendered without Jinja (`Layouts._substituted`): the
same markup as Jinja's, value for value, and every other layout, field or failure left to Jinja as before."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from markupsafe import Markup

from cardgen import limits
from cardgen.errors import DataError
from cardgen.render import layouts
from cardgen.render.layouts import Layouts

BOX = '<text x="1" y="2" w="30" h="9">'
SUBSTITUTED = {
    "plain": f'<face bg="white">{BOX}{{{{ card.name }}}}</text>'
    f'{BOX}{{{{ card["cost"] }}}} · {{{{card.text}}}}</text></face>\n',
    "controlled": f"<face>\n  {BOX}\n    {{{{- card.name -}}}}\n  </text>{{# a note #}}\n</face>\n\n",
    "raw": f"<face>{BOX}{{% raw %}}{{{{ not a field }}}}{{% endraw %}} {{{{ card.name }}}}</text></face>",
}
JINJA = {  # anything else: filters, tags, arithmetic, other names, a dictionary's attributes, names the sandbox refuses
    "filter": f"<face>{BOX}{{{{ card.name|upper }}}}</text></face>",
    "tag": f"<face>{BOX}{{% if card.cost %}}{{{{ card.name }}}}{{% endif %}}</text></face>",
    "sum": f"<face>{BOX}{{{{ card.cost + 1 }}}}</text></face>",
    "other": f"<face>{BOX}{{{{ face.side }}}} {{{{ card.name }}}}</text></face>",
    "method": f"<face>{BOX}{{{{ card.items }}}}</text></face>",
    "private": f"<face>{BOX}{{{{ card._hidden }}}}</text></face>",
    "computed": f'<face>{BOX}{{{{ card["na" ~ "me"] }}}}</text></face>',
}
VALUES = [
    "Scout", "<b>bold</b> & 'quoted' \"text\"", "", "é — ×", 3, -0, 2.0, 1 / 3, 1e20, float("inf"), True, None,
    [1, "a<b"], {"k": "<v>"}, Markup("<b>safe</b>"),
]  # fmt: skip


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "game").mkdir()
    for name, source in {**SUBSTITUTED, **JINJA}.items():
        (tmp_path / "game" / f"{name}.xml.j2").write_text(source)
    return tmp_path


def _both(folder: Path, layout: str, card: dict) -> tuple[str, str]:
    """The face as rendered, and as Jinja renders it."""
    context = {"card": card, "face": {"side": "front"}}
    ours = Layouts(folder)
    rendered = ours.render("game", layout, context, "game: card 'x' front")
    return rendered, Layouts(folder)._render(ours.env, "game", layout, context, "game: card 'x' front")


@pytest.mark.parametrize("layout", sorted(SUBSTITUTED))
def test_a_substitution_layout_renders_as_jinja_does(folder: Path, layout: str) -> None:
    for value in VALUES:
        card = {"id": "x", "name": value, "cost": value, "text": value, "_hidden": 1}
        rendered, by_jinja = _both(folder, layout, card)
        assert rendered == by_jinja, value
    assert layouts._substitution(Layouts(folder).env, f"game/{layout}.xml.j2") is not None


@pytest.mark.parametrize("layout", sorted(JINJA))
def test_other_layouts_go_through_jinja(folder: Path, layout: str) -> None:
    assert layouts._substitution(Layouts(folder).env, f"game/{layout}.xml.j2") is None
    rendered, by_jinja = _both(folder, layout, {"id": "x", "name": "Scout", "cost": 2, "_hidden": 1})
    assert rendered == by_jinja


def test_what_jinja_refuses_is_refused_as_before(folder: Path) -> None:
    with pytest.raises(DataError, match="'cost' is undefined"):  # a card without a field the layout prints
        Layouts(folder).render("game", "plain", {"card": {"id": "x", "name": "Scout"}}, "game: card 'x' front")
    before = limits.current()
    limits.use(replace(before, face_markup_bytes=60))
    try:
        with pytest.raises(DataError, match="face_markup_bytes"):  # a face over the markup limit
            Layouts(folder).render("game", "plain", {"card": {"name": "S" * 80, "cost": 1, "text": ""}}, "game")
    finally:
        limits.use(before)


def test_the_substitution_is_used_without_jinja(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_jinja(*args: object) -> str:
        raise AssertionError("rendered by Jinja")

    ours = Layouts(folder)
    monkeypatch.setattr(ours, "_render", no_jinja)
    card = {"id": "c7", "name": "Scout", "cost": 3, "text": "Jump & strike"}
    markup = ours.render("game", "plain", {"card": card}, "game: card 'c7' front")
    assert "Scout" in markup and "3 · Jump &amp; strike" in markup
