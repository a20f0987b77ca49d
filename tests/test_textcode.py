"""Text drawn without reportlab's calls (`plaintext.text_code`, `PlainParagraph.code`, `kit._translate`, the plain
path of `Text.draw`) writes the bytes the calls write, for any text, box, size, alignment and position."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from cardgen.paths import default_fonts_dir
from cardgen.render.draw import FaceDrawer
from cardgen.render.elements import text as text_element
from cardgen.render.fonts import load_roles
from cardgen.render.kit import Palette, _translate
from cardgen.render.plaintext import PlainParagraph, plain_words, text_code
from tests.test_plaintext import texts

ROLES = load_roles({}, default_fonts_dir(), default_fonts_dir(), lambda role: role)
FONT = ROLES["body"].regular


@pytest.fixture(autouse=True, scope="module")
def _fonts_registered() -> None:
    """The bundled fonts registered again for this module's tests: a test run earlier in the same process may have
    made reportlab forget every font (`fonts.forget`, as `cardgen watch` does), and these tests measure text with
    them (an unregistered name sent reportlab searching the disk for font metrics, one example at a time)."""
    load_roles({}, default_fonts_dir(), default_fonts_dir(), lambda role: role)


COORDINATE = st.floats(-2000, 2000, allow_nan=False) | st.sampled_from([0.0, -0.0, 1e-7, 0.5, 123.4567849999, -3e-6])


def _canvas() -> Canvas:
    return Canvas(io.BytesIO(), invariant=1, pageCompression=0)


@settings(max_examples=300, deadline=None)
@given(COORDINATE, COORDINATE, st.sampled_from([None, (0.5, 12.25), (1.3, -7.0)]))
def test_translation_writes_what_translate_and_rotate_write(dx: float, dy: float, before: tuple | None) -> None:
    theirs, ours = _canvas(), _canvas()
    for canvas in (theirs, ours):
        canvas.saveState()
        if before is not None:  # a transformed canvas, the code then ending in something other than a cm
            canvas.scale(*before)
            canvas.setFillColor(Color(0.1, 0.2, 0.3))
    theirs.translate(dx, dy)
    theirs.rotate(0)
    _translate(ours, dx, dy)
    assert ours._code == theirs._code
    assert ours._currentMatrix == theirs._currentMatrix


LINE = st.text(alphabet="abc XYZ 019 ()\\é—·★" + "".join(map(chr, range(0x100, 0x180))), max_size=25)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.none() | st.floats(-2, 2, allow_nan=False), LINE), min_size=1, max_size=8),
    st.sampled_from([6.0, 8.0, 9.35]),
    COORDINATE,
    COORDINATE,
)
def test_text_code_is_the_text_object_reportlab_writes(lines: list, size: float, x: float, y: float) -> None:
    """Lines in more than one subset of the font (characters past the first 256 of a document), spaced or not."""
    theirs, ours = _canvas(), _canvas()
    for _ in range(2):  # the second time every character is known to the document already
        text = theirs.beginText(x, y)
        text.setFont(FONT, size, size * 1.2)
        for spacing, line in lines:
            if spacing is not None:
                text.setWordSpace(spacing)
            text._textOut(line, 1)
            if spacing is not None:
                text.setWordSpace(0)
        assert text_code(ours, FONT, size, size * 1.2, x, y, lines) == text.getCode()


@settings(max_examples=150, deadline=None)
@given(texts(), st.floats(20, 200), st.sampled_from([6.0, 7.3, 9.5]), COORDINATE, COORDINATE)
def test_a_plain_paragraphs_code_is_what_draw_on_writes(
    text: str, width: float, size: float, x: float, y: float
) -> None:
    words = plain_words(text)
    assert words is not None
    paragraph = PlainParagraph(words, FONT, size, size * 1.2, Color(0.2, 0.3, 0.45), "left", width)
    theirs, ours = _canvas(), _canvas()
    paragraph.drawOn(theirs, x, y)
    code = paragraph.code(ours, x, y)
    assert code is not None
    assert code == theirs._code
    for unsaid in ("center", "right"):  # these move the text cursor: left to the calls
        paragraph.align = unsaid
        assert paragraph.code(ours, x, y) is None


FACE = """<face bg="{bg}">
  <g transform="translate(1,2)"><text x="3" y="4" w="50" h="9" size="10">{short}</text></g>
  {boxes}
</face>"""


def _boxes(rng: random.Random) -> str:
    words = "fleet shield jump reactor station credit colony strike hull scout sector nebula — é ×".split()  # noqa: SIM905
    boxes = []
    for _ in range(12):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 30)))
        attributes = {
            "x": rng.uniform(0, 20), "y": rng.uniform(0, 60), "w": rng.uniform(10, 55), "h": rng.uniform(5, 40),
            "size": rng.choice([6, 8, 9.5, 12]), "align": rng.choice(["left", "left", "center", "right", "justify"]),
            "valign": rng.choice(["top", "middle", "bottom"]), "rotate": rng.choice([0, 0, 0, 90, 33]),
            "colour": rng.choice(["black", "#2f6db5", "black", "#2f6db580", "none"]),
            "outline": rng.choice(["none", "none", "none", "white"]), "glow": rng.choice(["none"] * 5 + ["gold"]),
        }  # fmt: skip
        if rng.random() < 0.5:  # half of them plain, as most card text is: the path under test
            attributes.update(colour=rng.choice(["black", "#2f6db5"]), outline="none", glow="none", rotate=0)
            attributes["align"] = rng.choice(["left", "left", "center", "right"])
        elif rng.random() < 0.4:
            text = f"<b>{text}</b> and more"  # markup: a reportlab Paragraph
        written = " ".join(f'{k}="{v:.3f}"' if isinstance(v, float) else f'{k}="{v}"' for k, v in attributes.items())
        boxes.append(f"<text {written}>{text}</text>")
    return "\n  ".join(boxes)


@pytest.mark.parametrize("seed", range(6))
def test_text_boxes_draw_the_same_bytes_either_way(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole faces of text boxes, each of them drawn once through the plain path (where it applies) and once through
    reportlab's calls only: the same PDF, byte for byte, and most boxes took the plain path."""
    rng = random.Random(seed)
    drawer = FaceDrawer(Palette({}), ROLES, {}, tmp_path)
    bg = "none" if seed % 2 else "#f4f1e8"  # without a background, the fill's alpha reaches the text
    markup = FACE.format(bg=bg, short="Card name", boxes=_boxes(rng))
    face = drawer.parse(markup)
    prepared = drawer.prepare(face, 63.5, 88.9, "test")
    other = drawer.prepare(drawer.parse(markup.replace("fleet", "hull")), 63.5, 88.9, "test")  # the same boxes

    def pdf() -> bytes:
        canvas = _canvas()
        # then the font's subsets made and a translucent fill; then the same boxes with other text, and again
        for alpha, drawn in ((1, prepared), (0.5, prepared), (1, other), (1, prepared)):
            canvas.saveState()
            canvas.setFillAlpha(alpha)
            canvas.translate(40, 300)
            drawer.draw(canvas, drawn, 3.0)
            canvas.restoreState()
        canvas.showPage()
        return canvas.getpdfdata()

    taken = []
    plain = text_element._plain_code
    monkeypatch.setattr(text_element, "_plain_code", lambda *a: taken.append(plain(*a)) or taken[-1])
    fast = pdf()
    monkeypatch.setattr(text_element, "_plain_code", lambda *a: None)
    assert fast == pdf()
    first = taken[: sum(element.tag == "text" for element in face.elements)]  # the first face: each box once
    assert sum(code is not None for code in first) >= len(first) // 4, first


WRAPPING = "A longer text that wraps over several lines of the box"


@pytest.mark.parametrize("content", ["Hello", WRAPPING, "<b>Bold</b> text"])
def test_text_without_a_colour_paints_no_fill(content: str, tmp_path: Path) -> None:
    """`colour="none"`: no glyphs at all, or with an outline the outline alone (text render mode 1); it used to fail
    on a paragraph and to print a single line in whatever fill came before."""
    drawer = FaceDrawer(Palette({}), ROLES, {}, tmp_path)
    for outline, operators in (("none", set()), ("red", {"1 Tr"})):
        box = f'<text x="1" y="1" w="30" h="20" colour="none" outline="{outline}">{content}</text>'
        prepared = drawer.prepare(drawer.parse(f'<face bg="white">{box}</face>'), 63.5, 88.9, "test")
        canvas = _canvas()
        drawer.draw(canvas, prepared, 3.0)
        code = " ".join(canvas._code)
        assert ("Tj" in code) == bool(operators), code
        assert all(operator in code for operator in operators) and "2 Tr" not in code


@pytest.mark.parametrize("a85", [True, False])
def test_pages_encoded_as_they_end_are_the_bytes_reportlab_writes_at_the_save(monkeypatch, a85: bool) -> None:
    """`pdf._packed` compresses each finished page at once (its drawing waits for the save a third of its size):
    the file is the one reportlab writes when it compresses every page at the save, with ASCII85 on or off."""
    from reportlab import rl_config

    from cardgen.render import pdf
    from cardgen.units import Size

    class Drawer:
        painters: dict = {}  # noqa: RUF012

    def document() -> bytes:
        doc = pdf.Document(Drawer(), "t", "Helvetica")  # type: ignore[arg-type]
        rng = random.Random(5)
        for number in range(6):
            doc.start_page(Size(100, 120))
            for _ in range(40):
                doc.canvas.setFillColorRGB(rng.random(), rng.random(), rng.random())
                doc.canvas.rect(rng.uniform(0, 200), rng.uniform(0, 300), 20, 10, fill=1)
            doc.canvas.drawString(10, 10, f"page {number} {'x' * rng.randint(0, 90)}")
            doc.label(f"sheet {number}/6", (50, 5, 80))
            doc.end_page()
        return doc.finish()

    monkeypatch.setattr(rl_config, "useA85", int(a85))
    packed = document()
    monkeypatch.setattr(pdf, "_packed", lambda page: None)
    assert packed == document()
    assert (b"ASCII85Decode" in packed) == a85


@pytest.mark.parametrize("seed", range(4))
def test_rectangles_draw_the_same_bytes_either_way(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Faces of random rectangles (rounded, outlined, translucent, gradients, bleeding, unfilled),
    drawn through `Rect.plain` where it applies and through reportlab's calls only: the same PDF, byte for byte."""
    from cardgen.render.elements import rect as rect_element

    rng = random.Random(seed)
    shapes = []
    for _ in range(16):
        attributes = {
            "x": rng.choice([0, rng.uniform(0, 30)]), "y": rng.choice([0, rng.uniform(0, 60)]),
            "w": rng.choice([63.5, rng.uniform(5, 40)]), "h": rng.choice([88.9, rng.uniform(5, 40)]),
            "fill": rng.choice(["#2f6db5", "black", "none", "#2f6db580", "linear(90, navy, white)", "#f4f1e8"]),
            "stroke": rng.choice(["none", "none", "none", "black"]), "radius": rng.choice([0, 0, 0, 2]),
            "opacity": rng.choice([1, 1, 1, 0.5]), "bleed": rng.choice(["true", "false"]),
        }  # fmt: skip
        written = " ".join(f'{k}="{v:.3f}"' if isinstance(v, float) else f'{k}="{v}"' for k, v in attributes.items())
        shapes.append(f"<rect {written}/>")
    drawer = FaceDrawer(Palette({}), ROLES, {}, tmp_path)
    face = drawer.parse(f'<face bg="#ffffff">{"".join(shapes)}</face>')
    prepared = drawer.prepare(face, 63.5, 88.9, "test")

    taken = []
    plain = rect_element.Rect.plain
    monkeypatch.setattr(rect_element.Rect, "plain", lambda *a: taken.append(plain(*a)) or taken[-1])
    fast = _drawn_in_alphas(drawer, prepared)
    monkeypatch.setattr(rect_element.Rect, "plain", lambda *a: None)
    assert fast == _drawn_in_alphas(drawer, prepared)
    assert any(code is not None for code in taken) and any(code is None for code in taken)


@pytest.mark.parametrize("seed", range(3))
def test_whole_faces_draw_the_same_bytes_as_reportlabs_calls_alone(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A face's background, flat rectangles and plain text written at once (`FaceDrawer.draw`, `Rect.plain`,
    `Text.plain`) against every one of them drawn through reportlab's calls (no opaque fill code to write them
    with): the same PDF, byte for byte, translucent fills around them included."""
    from cardgen.render import draw as draw_module
    from cardgen.render.elements import rect as rect_element

    rng = random.Random(seed)
    bands = "".join(
        f'<rect x="{rng.uniform(0, 30):.2f}" y="{rng.uniform(0, 60):.2f}" w="{rng.uniform(5, 40):.2f}" '
        f'h="{rng.uniform(5, 30):.2f}" fill="{rng.choice(["#2f6db5", "black", "#f4f1e8"])}" '
        f'bleed="{rng.choice(["true", "false"])}"/>'
        for _ in range(4)
    )
    drawer = FaceDrawer(Palette({}), ROLES, {}, tmp_path)
    markup = FACE.format(bg=rng.choice(["#f4f1e8", "#101820"]), short="Card name", boxes=bands + _boxes(rng))
    prepared = drawer.prepare(drawer.parse(markup), 63.5, 88.9, "test")

    fast = _drawn_in_alphas(drawer, prepared)
    for module in (draw_module, rect_element, text_element):
        monkeypatch.setattr(module, "fill_code", lambda *a: None)
    assert fast == _drawn_in_alphas(drawer, prepared)


def _drawn_in_alphas(drawer: FaceDrawer, prepared) -> bytes:
    """A page with the face drawn three times, the second inside a translucent fill (reportlab's calls there)."""
    canvas = _canvas()
    for alpha in (1, 0.5, 1):
        canvas.saveState()
        canvas.setFillAlpha(alpha)
        drawer.draw(canvas, prepared, 3.0)
        canvas.restoreState()
    canvas.showPage()
    return canvas.getpdfdata()


def test_a_rectangular_clip_is_what_reportlabs_path_and_clip_calls_write() -> None:
    from cardgen.render import pdf
    from cardgen.render.imposition import Rect, Slot

    rng = random.Random(4)
    for _ in range(200):
        clip = Rect(rng.uniform(-5, 300), rng.uniform(-5, 400), rng.uniform(1, 100), rng.uniform(1, 100))
        ours, theirs = _canvas(), _canvas()
        for canvas in (ours, theirs):
            canvas._fillMode = rng.choice([0, 1]) if canvas is ours else ours._fillMode
        pdf._clip(ours, Slot(clip, clip), "rect", 3.0)
        path = theirs.beginPath()
        path.rect(clip.x * pdf.MM, clip.y * pdf.MM, clip.w * pdf.MM, clip.h * pdf.MM)
        theirs.clipPath(path, stroke=0, fill=0)
        assert ours._code == theirs._code
