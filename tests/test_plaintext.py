"""Plain card text (`render/plaintext.py`) is set exactly as reportlab's Paragraph sets it: the same lines, height and
widest word, and the same PDF operators, byte for byte, for any words, box, size and alignment it takes on."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.paths import default_fonts_dir
from cardgen.render.fonts import load_roles
from cardgen.render.plaintext import PlainParagraph, plain_words
from cardgen.render.textfit import TextBox, _style, fit_text

ROLES = load_roles({}, default_fonts_dir(), default_fonts_dir(), lambda role: role)
FONT = ROLES["body"].regular


@pytest.fixture(autouse=True, scope="module")
def _fonts_registered() -> None:
    """The bundled fonts registered again for this module's tests: a test run earlier in the same process may have
    made reportlab forget every font (`fonts.forget`, as `cardgen watch` does), and these tests measure text with
    them (an unregistered name sent reportlab searching the disk for font metrics, one example at a time)."""
    load_roles({}, default_fonts_dir(), default_fonts_dir(), lambda role: role)


WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ0123456789.,;:!?'()-éüßÆ—…", min_size=1, max_size=14)
GAP = st.sampled_from([" ", " ", " ", "  ", "\n", "\t", " \n  ", "\r\n"])


@st.composite
def texts(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORD, min_size=1, max_size=60))
    gaps = draw(st.lists(GAP, min_size=len(words), max_size=len(words)))
    lead, trail = draw(st.sampled_from(["", " ", "\n "])), draw(st.sampled_from(["", " ", "\n"]))
    return lead + "".join(word + gap for word, gap in zip(words, gaps, strict=True)).rstrip() + trail


def _content(draw_on: object) -> bytes:
    canvas = Canvas(io.BytesIO(), invariant=1, pageCompression=0)
    draw_on.drawOn(canvas, 11.5, 200.25)  # type: ignore[attr-defined]
    canvas.showPage()
    return canvas.getpdfdata()


def laid_out(paragraph: Paragraph) -> list[tuple[float, tuple[str, ...]]]:
    """A paragraph's lines as `PlainParagraph` keeps them: (unused width, its words as a tuple)."""
    return [(extra, tuple(words)) for extra, words in paragraph.blPara.lines]


@settings(max_examples=150, deadline=None)
@given(
    texts(),
    st.floats(20, 200),
    st.sampled_from([6.0, 7.3, 8.0, 9.5, 11.0]),
    st.sampled_from(["left", "center", "right"]),
    st.sampled_from([1.0, 1.2, 1.35]),
)
def test_plain_text_is_set_as_a_paragraph_sets_it(
    text: str, width: float, size: float, align: str, lead: float
) -> None:
    words = plain_words(text)
    assert words is not None
    colour = Color(0.2, 0.3, 0.45)
    style = _style(FONT, size, lead, align, colour)
    paragraph = Paragraph(text, style)
    _, height = paragraph.wrap(width, 1000)
    plain = PlainParagraph(words, FONT, size, size * lead, colour, align, width)
    assert plain.lines == laid_out(paragraph)
    assert (plain.height, plain.widest) == (height, paragraph.minWidth())
    assert _content(plain) == _content(paragraph)


def test_markup_icons_and_other_spaces_go_through_a_paragraph() -> None:
    others = ("<b>Strike</b> 2", "Gain {credit}", "A &amp; B", "no\xa0break", "soft\xadhyphen", "thin\u2009space")
    for text in (*others, ""):
        assert plain_words(text) is None, text
    assert plain_words(" Jump  2\n sectors ") == ["Jump", "2", "sectors"]


def test_each_distinct_box_is_fitted_once() -> None:
    box = TextBox("Draw two cards, then discard one of them at random.", FONT, None, 90.0, 30.0, 9.0, 6.0)
    assert fit_text(box) is fit_text(TextBox(*box.__dict__.values()))
    assert fit_text(box).size < 9.0 and fit_text(box).fits  # shrunk to fit its three lines


def test_a_line_a_little_over_its_width_tightens_its_spaces() -> None:
    """reportlab lets a line shrink its spaces by `spaceShrinkage` (5 %) rather than break it: a box a little
    narrower than four words keeps them on one line, drawn with negative word spacing (`Tw`)."""
    words = ["Move", "up", "to", "three", "sectors"]
    for align in ("left", "center", "right"):
        size, colour = 8.0, Color(0, 0, 0)
        natural = sum(stringWidth(word, FONT, size) for word in words[:4]) + 3 * stringWidth(" ", FONT, size)
        width = natural - 0.02 * stringWidth(" ", FONT, size) * 3
        paragraph = Paragraph(" ".join(words), _style(FONT, size, 1.2, align, colour))
        paragraph.wrap(width, 1000)
        plain = PlainParagraph(words, FONT, size, size * 1.2, colour, align, width)
        assert plain.lines[0][1] == tuple(words[:4]) and plain.lines[0][0] < 0
        assert plain.lines == laid_out(paragraph)
        assert b" Tw" in _content(plain) and _content(plain) == _content(paragraph)


def test_a_games_repeated_text_boxes_are_checked_and_fitted_once(tmp_path, monkeypatch) -> None:
    """Faces that write the same box with the same text share its fit; another text, or other attributes, are
    fitted afresh; an entry whose attributes are not the very ones asked about (a reused id) is never taken."""
    from cardgen.render.draw import FaceDrawer
    from cardgen.render.elements import text as text_element
    from cardgen.render.kit import Palette

    drawer = FaceDrawer(Palette({}), ROLES, {}, tmp_path)
    fitted: list[str] = []
    fit = text_element.Text._fit
    monkeypatch.setattr(
        text_element.Text, "_fit", lambda self, e, kit, who: fitted.append(e.content) or fit(self, e, kit, who)
    )

    def face(stat: str, name: str, size: str = "9") -> None:
        boxes = (
            f'<text x="1" y="1" w="20" h="6" size="{size}">{stat}</text><text x="1" y="9" w="50" h="9">{name}</text>'
        )
        drawer.prepare(drawer.parse(f'<face bg="white">{boxes}</face>'), 63.5, 88.9, "test")

    for name in ("Scout", "Cruiser", "Scout"):
        face("ATK 3", name)
    assert fitted == ["ATK 3", "Scout", "Cruiser"]
    face("ATK 3", "Scout", size="8")  # other attributes: fitted afresh
    assert fitted[3:] == ["ATK 3"]
    (key, (attrs, fit_of)), *_ = drawer.kit.fitted.items()
    drawer.kit.fitted[key] = (dict(attrs), fit_of)  # the same id, other attributes: not taken
    face("ATK 3", "Scout")
    assert fitted[4:] == ["ATK 3"]
