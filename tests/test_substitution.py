"""Layouts that only print card fields into fixed markup are rendered without Jinja (`Layouts._substituted`) and
their faces made from a skeleton parsed once (`markup.skeleton`): the same markup and faces as Jinja's and the
parser's, value for value, and every other layout, field or failure left to them as before."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from markupsafe import Markup

from cardgen import limits
from cardgen.errors import DataError
from cardgen.paths import default_fonts_dir
from cardgen.render import layouts
from cardgen.render.draw import FaceDrawer
from cardgen.render.elements import SCHEMAS
from cardgen.render.fonts import load_roles
from cardgen.render.kit import Palette
from cardgen.render.layouts import Layouts
from cardgen.render.markup import parse_face

BOX = '<text x="1" y="2" w="30" h="9">'
SUBSTITUTED = {
    "plain": f'<face bg="white">{BOX}{{{{ card.name }}}}</text>'
    f'{BOX}{{{{ card["cost"] }}}} · {{{{card.text}}}}</text></face>\n',
    "controlled": f"<face>\n  {BOX}\n    {{{{- card.name -}}}}\n  </text>{{# a note #}}\n</face>\n\n",
}
JINJA = {  # anything else: filters, tags, arithmetic, other names, a dictionary's attributes, names the sandbox refuses
    "filter": f"<face>{BOX}{{{{ card.name|upper }}}}</text></face>",
    "tag": f"<face>{BOX}{{% if card.cost %}}{{{{ card.name }}}}{{% endif %}}</text></face>",
    "raw": f"<face>{BOX}{{% raw %}}{{{{ not a field }}}}{{% endraw %}} {{{{ card.name }}}}</text></face>",
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


SKELETAL = {  # substitution layouts whose faces are made from a skeleton: fields in text boxes' text only
    "boxes": f'<face bg="white">{BOX}  {{{{ card.name }}}}  </text>'
    f"{BOX}<b>{{{{ card.cost }}}}</b> and {{{{ card.text }}}}<br/>{{{{ card.name }}}}</text></face>",
    "styled": f'<face><style name="s" size="7"/>{BOX}x{{{{ card.text }}}}y</text><g transform="rotate(5)">'
    f'<text x="1" y="1" w="9" h="9" style="s">{{{{ card.cost }}}}</text></g></face>',
}
BONELESS = {  # substitution layouts parsed whole: a field in an attribute, an inline tag's, other content
    "attribute": f'<face>{BOX}{{{{ card.name }}}}</text><text x="1" y="1" w="9" h="9" field="{{{{ card.text }}}}">'
    "a</text></face>",
    "inline": f'<face>{BOX}<font color="{{{{ card.text }}}}">{{{{ card.name }}}}</font></text></face>',
    "shape": f'<face>{BOX}{{{{ card.name }}}}</text><rect x="1" y="1" w="2" h="2">{{{{ card.text }}}}</rect></face>',
    "outside": f"<face>{{{{ card.text }}}}{BOX}{{{{ card.name }}}}</text></face>",
}
TEXTS = ["Scout", "", "   ", " padded\n", "<b>not markup</b> & 'q' \"d\"", "a\tb\nc", "é — ×", "red", 7, 1 / 3]


def _drawer(tmp_path: Path) -> FaceDrawer:
    return FaceDrawer(Palette({}), load_roles({}, default_fonts_dir(), default_fonts_dir(), str), {}, tmp_path)


@pytest.mark.parametrize("layout", sorted({**SKELETAL, **BONELESS}))
def test_a_face_from_its_skeleton_is_the_face_its_markup_parses_to(layout: str, tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "face.xml.j2").write_text({**SKELETAL, **BONELESS}[layout])
    ours, drawer = Layouts(tmp_path), _drawer(tmp_path)
    for name in TEXTS:
        for text in TEXTS:
            card = {"id": "x", "name": name, "cost": text, "text": text}
            markup, bones = ours.rendered("game", "face", {"card": card}, "game: card 'x' front")
            assert bones is not None  # a substitution layout: its skeleton's key, whether or not a skeleton is made
            try:
                whole = parse_face(markup, drawer.kit.palette.is_colour, SCHEMAS, {})
            except Exception as exc:  # what the whole parse refuses, the skeleton must not make
                with pytest.raises(type(exc)):
                    drawer.parse(markup, bones)
                continue
            assert drawer.parse(markup, bones) == whole, (name, text)
    made = drawer.skeletons[bones[0]]
    assert (made is not None) == (layout in SKELETAL)


@pytest.mark.parametrize("text", ["carriage\rreturn", "control\x01", "\ue000marker", Markup("<i>safe</i>")])
def test_texts_a_parse_would_treat_otherwise_are_parsed_whole(text: str, tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "face.xml.j2").write_text(SKELETAL["boxes"])
    card = {"id": "x", "name": text, "cost": 1, "text": "t"}
    assert Layouts(tmp_path).rendered("game", "face", {"card": card}, "game")[1] is None


FACE = {"side": "front", "width": 63.5, "height": 88.9, "shape": "rectangle"}


def test_art_and_stamps_take_the_skeleton_away(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "face.xml.j2").write_text(f'<face><art kind="nebula"/>{BOX}{{{{ card.name }}}}</text></face>')
    (tmp_path / "game" / "plain.xml.j2").write_text(SKELETAL["boxes"])
    card = {"id": "x", "name": "Scout", "cost": 1, "text": "t"}
    assert Layouts(tmp_path).rendered("game", "face", {"card": card}, "game")[1] is None  # <art card="x">
    stamped = Layouts(tmp_path, stamp="v1")
    assert stamped.rendered("game", "plain", {"card": card, "face": FACE}, "game")[1] is None


def test_a_field_in_an_inline_tags_attribute_is_parsed_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inline tags' attributes are checked values (colours, sizes), which a marker never passes; were one to take
    any text, the marker inside the tag must still keep the face from a skeleton."""
    from cardgen.render import markup

    monkeypatch.setattr(markup, "_paragraph_colour", lambda colour: True)
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "face.xml.j2").write_text(BONELESS["inline"])
    drawer, card = _drawer(tmp_path), {"id": "x", "name": "Scout", "text": "red"}
    markup_text, bones = Layouts(tmp_path).rendered("game", "face", {"card": card}, "game")
    assert drawer.parse(markup_text, bones) == parse_face(markup_text, drawer.kit.palette.is_colour, SCHEMAS, {})
    assert bones is not None and drawer.skeletons[bones[0]] is None


def test_markups_escaping_is_the_standard_librarys() -> None:
    """`markup.escape` and `quoteattr` write what `xml.sax.saxutils` writes (whose module a build no longer imports,
    with the `urllib.request`, `http.client` and `ssl` it brings), text after random text."""
    import random
    import subprocess
    import sys
    from xml.sax import saxutils

    from cardgen.render.markup import escape, quoteattr

    rng = random.Random(1)
    alphabet = "ab<>&\"'\n\r\t é;#"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert escape(text) == saxutils.escape(text) and quoteattr(text) == saxutils.quoteattr(text), repr(text)
    imported = "import sys, cardgen.render.build, cardgen.render.guide; print('urllib.request' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", imported], capture_output=True, text=True).stdout.strip() == "False"
