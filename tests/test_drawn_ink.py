"""Ink worked out from what a page draws (`render/drawnink.py`): pages of flat opaque rectangles, plain text, crop
marks and sheet labels take their coverage unrendered, within 0.4 points of pdfium's render of the same page;
anything else on a page leaves it to be rendered."""

from __future__ import annotations

import io
import itertools
import random
from pathlib import Path

import pytest
from reportlab.lib.colors import Color

from cardgen.render import drawnink, ink

from conftest import run_cli, write_game

GAME = """id: plain
title: Plain Deck
players: [2, 4]
rulebook: {title: Plain rules}
settings:
  card_size: poker
  bleed: 3
  colours: {band: "#2f6db5", ink: "#1f1a14", paper: "#f4f1e8"}
card_types:
  unit:
    fields:
      name: {type: str}
      attack: {type: int}
      ability: {type: text}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
"""
FRONT = """<face bg="paper">
  <rect x="0" y="0" w="63.5" h="11" fill="band" bleed="true"/>
  <rect x="4" y="13" w="20" h="8" fill="#e0d8c0"/>
  <text x="4" y="2" w="55.5" h="7" size="11" font="heading" colour="white" valign="middle">{{ card.name }}</text>
  <text x="5" y="14" w="18" h="6" size="9" colour="ink">ATK {{ card.attack }}</text>
  <text x="4" y="24" w="55.5" h="60" size="8" min-size="6" colour="ink">{{ card.ability }}</text>
</face>
"""
DARK = """<face bg="#101010">
  <rect x="0" y="50" w="63.5" h="38.9" fill="paper" bleed="true"/>
  <text x="4" y="4" w="55.5" h="40" size="30" min-size="20" font="heading" colour="white">{{ card.name }}</text>
  <text x="4" y="54" w="55.5" h="30" size="8" min-size="6" colour="ink">{{ card.ability }}</text>
</face>
"""  # light text on a dark face: what lies under text counts
BACK = """<face bg="band">
  <rect x="8" y="12" w="47.5" h="28" fill="paper"/>
  <text x="10" y="20" w="43.5" h="12" size="16" font="heading" colour="band" align="center">PLAIN</text>
</face>
"""
WORDS = "fleet shield jump reactor station credit colony strike hull scout sector nebula salvage cruiser".split()  # noqa: SIM905
# what a page may also draw that is not measured: each makes its faces' pages rendered
UNMEASURED = {
    "rounded corners": '<rect x="30" y="13" w="20" h="8" radius="2" fill="band"/>',
    "an outline": '<rect x="30" y="13" w="20" h="8" fill="paper" stroke="ink"/>',
    "a circle": '<circle cx="40" cy="17" r="3" fill="band"/>',
    "an icon": '<icon name="spaceship" x="30" y="13" size="8"/>',
    "a gradient": '<rect x="30" y="13" w="20" h="8" fill="linear(90, band, white)"/>',
    "a translucent fill": '<rect x="30" y="13" w="20" h="8" fill="#2f6db580"/>',
    "turned text": '<text x="30" y="13" w="20" h="8" rotate="180" colour="ink">turned</text>',
    "text on two colours": '<text x="4" y="8" w="55" h="8" colour="ink">across the band</text>',
    "a rectangle over text": '<rect x="4" y="26" w="10" h="4" fill="band"/>',
    "a glow": '<text x="30" y="13" w="20" h="8" glow="band" colour="ink">glow</text>',
}


def cards(count: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    lines = ["type: unit", "front: front", "back: back", "cards:"]
    for i in range(count):
        ability = " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 40))).capitalize() + "."
        lines.append(f'  - {{id: c{i}, name: "Card {i}", attack: {rng.randint(0, 9)}, ability: "{ability}"}}')
    return "\n".join(lines) + "\n"


def measure(root: Path, *options: str | Path) -> list[tuple[bytes, list[bytes], list[float | None]]]:
    """Build the game; every file's (PDF, page keys, the pages' drawn ink) as the print writer measured it."""
    calls: list[tuple[bytes, list[bytes], list[float | None]]] = []
    original = ink.coverage

    def watching(pdf: bytes, keys=(), known=()):
        calls.append((pdf, list(keys), list(known)))
        return original(pdf, keys, known)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("cardgen.render.imposed.coverage", watching)
        data, templates = root / "card_data", root / "templates"
        out = root / f"out-{len(list(root.glob('out-*')))}"
        run = run_cli("--data-dir", data, "--templates-dir", templates, "build", "--out", out, "--no-cache", *options)
    assert run.code == 0, run.out + run.err
    return calls


def deck(root: Path, count: int = 30, front: str = FRONT) -> Path:
    return write_game(root, "plain", {"game.yaml": GAME, "cards.yaml": cards(count)},
                      {"front.xml.j2": front, "back.xml.j2": BACK})  # fmt: skip


@pytest.mark.parametrize(
    ("front", "options"),
    [
        (FRONT, ("--paper", "letter")),
        (FRONT, ("--paper", "a4", "--duplex", "off")),
        (FRONT, ("--gutter", "0", "--mark-weight", "1.5")),
        (FRONT, ("--paper", "a3", "--ink", "light", "--gutter", "0")),  # backs turned, their clips lopsided
        (DARK, ("--paper", "letter")),
    ],
    ids=["letter", "a4-backs-after", "no-gutter", "a3-light", "dark"],
)
def test_plain_pages_are_worked_out_within_a_few_tenths_of_a_point_of_their_render(
    tmp_path: Path, front, options
) -> None:
    ((pdf, keys, known),) = measure(deck(tmp_path, 30, front), *options)
    assert known and all(figure is not None for figure in known), "every page of a plain deck is worked out"
    rendered = ink.coverage(pdf)
    assert len(rendered) == len(known)
    assert known == pytest.approx(rendered, abs=0.004)
    assert len(set(keys)) > 2 and max(rendered) - min(rendered) > 0.05  # fronts and backs: pages that differ


@pytest.mark.parametrize("what", list(UNMEASURED))
def test_a_face_drawing_anything_else_leaves_its_pages_to_be_rendered(tmp_path: Path, what: str) -> None:
    front = FRONT.replace("</face>", UNMEASURED[what] + "\n</face>")
    ((pdf, _, known),) = measure(deck(tmp_path, 12, front), "--paper", "a4", "--allow-overflow")
    fronts, backs = known[0::2], known[1::2]  # duplex: each sheet's back page follows it
    assert all(figure is None for figure in fronts), f"{what}: the front pages are rendered"
    assert all(figure is not None for figure in backs), "the back pages are still worked out"
    assert ink.coverage(pdf, (), known) == pytest.approx(ink.coverage(pdf), abs=0.005)


def test_a_darkness_is_the_grey_pdfium_renders_a_colour_in(tmp_path: Path) -> None:
    """pdfium's grey is (30 R + 59 G + 11 B) / 100 of the 8-bit channels, rounded down: a page of colour squares
    rendered, each square's darkness read off the render."""
    import pypdfium2 as pdfium
    from reportlab.pdfgen import canvas

    rng = random.Random(3)
    colours = [Color(1, 0, 0), Color(0, 0, 1), Color(0.5, 0.5, 0.5)]
    colours += [Color(rng.random(), rng.random(), rng.random()) for _ in range(30)]
    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, pagesize=(72 * len(colours), 72))
    for number, colour in enumerate(colours):
        page.setFillColor(colour)
        page.rect(72 * number, 0, 72, 72, stroke=0, fill=1)
    page.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    image = document[0].render(scale=0.5, grayscale=True).to_pil()
    for number, colour in enumerate(colours):
        assert drawnink.darkness(colour) == 1 - image.getpixel((36 * number + 18, 18)) / 255, colour


def test_rectangles_laid_over_each_other_cover_what_a_grid_of_points_finds() -> None:
    """`painted`: the last rectangle over a piece decides its darkness; checked against the pieces of a fine grid."""
    rng = random.Random(11)
    for _ in range(20):
        layers = tuple(
            ((x, y, x + rng.randint(1, 10), y + rng.randint(1, 10)), rng.choice((0.2, 0.5, 1.0)))
            for x, y in ((rng.randint(0, 10), rng.randint(0, 10)) for _ in range(rng.randint(1, 5)))
        )
        clip = (rng.randint(0, 4), rng.randint(0, 4), rng.randint(8, 20), rng.randint(8, 20))
        expected = 0.0
        for i, j in itertools.product(range(40), repeat=2):  # cells of 0.5: every edge above lies on one
            x, y = i / 2 + 0.25, j / 2 + 0.25
            if clip[0] <= x <= clip[2] and clip[1] <= y <= clip[3]:
                over = [
                    dark for (left, top, right, bottom), dark in layers if left <= x <= right and top <= y <= bottom
                ]
                expected += 0.25 * over[-1] if over else 0.0
        assert drawnink.painted(layers, clip) == pytest.approx(expected)


def test_faces_whose_clips_overlap_and_labels_on_a_face_leave_the_page_to_be_rendered(tmp_path: Path) -> None:
    """A page's drawn ink adds its faces up: two faces painting the same paper, or a label over a face, would count
    twice, so such a page is rendered; faces side by side and a label on the paper are worked out."""
    from cardgen.data import load_games
    from cardgen.paths import default_fonts_dir
    from cardgen.render.build import GameRenderer
    from cardgen.render.imposition import Rect, Slot
    from cardgen.render.jobs import BuildReport, PrintOptions
    from cardgen.render.layouts import Layouts
    from cardgen.units import Size

    root = deck(tmp_path, 2)
    (game,) = load_games(root / "card_data")
    renderer = GameRenderer(game, Layouts(root / "templates"), default_fonts_dir())
    job = renderer.job(game.components[0], PrintOptions(paper="a4"), BuildReport())
    key = next(iter(job.faces.faces))
    face = job.faces.faces[key]
    doc = job.document()
    doc.measures_ink = True
    at = [(10.0, 10.0), (80.0, 10.0), (10.0, 110.0), (50.0, 10.0)]  # the last overlaps the first two

    def slot(x: float, y: float) -> Slot:
        return Slot(Rect(x, y, face.width, face.height), Rect(x - 3, y - 3, face.width + 6, face.height + 6))

    for places, label in (([0, 1, 2], (150, 5, 80)), ([0, 3], (150, 5, 80)), ([0], (40, 50, 80)), ([], (150, 5, 80))):
        doc.start_page(Size(210, 297))
        for index in places:
            doc.place(key, face, slot(*at[index]), 3.0)
        doc.label("Plain Deck · sheet 1/1 · front", label)
        doc.end_page()
    # a face turned on a small page, bleeding at the page's foot only: its top band's bleed lies there
    doc.start_page(Size(80, 100))
    trim = Rect(8, 6, face.width, face.height)
    doc.place(key, face, Slot(trim, Rect(8, 3, face.width, face.height + 3), rotate=180), 3.0)
    doc.end_page()
    apart, overlapping, labelled, label_alone, turned = doc.page_ink
    assert apart is not None and overlapping is None and labelled is None and label_alone is not None
    rendered = ink.coverage(doc.finish())
    assert apart == pytest.approx(rendered[0], abs=0.003)
    assert 0 < label_alone == pytest.approx(rendered[3], rel=0.3)
    assert turned == pytest.approx(rendered[4], abs=0.003)


def test_a_font_changed_in_place_is_measured_again_once_the_fonts_are_forgotten(tmp_path: Path) -> None:
    """`cardgen watch` forgets the fonts when a font file changes; its glyphs' areas are measured again."""
    import shutil

    from cardgen.paths import default_fonts_dir
    from cardgen.render import fonts

    path = tmp_path / "Mine-Regular.ttf"
    shutil.copy(default_fonts_dir() / "Exo2-Regular.ttf", path)
    name, _ = fonts.register_file(path)
    before = drawnink.text_area(name, 10, ("Heavy words",))
    shutil.copy(default_fonts_dir() / "NotoSansDisplay-Bold.ttf", path)
    assert drawnink.text_area(name, 10, ("Heavy words",)) == before  # kept until the fonts are forgotten
    fonts.forget()
    assert fonts.register_file(path)[0] == name
    after = drawnink.text_area(name, 10, ("Heavy words",))
    assert after is not None and before is not None and after > 1.2 * before


def test_marks_laid_over_each_other_cover_what_a_grid_of_points_finds() -> None:
    """`union`: the area strokes cover together, a stroke drawn twice counted once."""
    rng = random.Random(2)
    for _ in range(100):
        corners = [(rng.randint(0, 10), rng.randint(0, 10)) for _ in range(rng.randint(1, 8))]
        boxes = tuple((x, y, x + rng.randint(1, 6), y + rng.randint(1, 6)) for x, y in corners)
        boxes += boxes[: rng.randint(0, 2)]
        points = itertools.product((i / 2 + 0.25 for i in range(40)), repeat=2)
        expected = sum(0.25 for x, y in points if any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes))
        assert drawnink.union(boxes) == pytest.approx(expected)


def test_pages_of_many_small_cards_are_worked_out_as_a_fine_render_measures_them(tmp_path: Path) -> None:
    """Thin marks and small text: pdfium's 36 dpi render draws a 0.3 pt mark a whole pixel wide and reads 6 pt text
    darker than it prints, so a sheet of 2 cm cards reads darker than it prints (by 1.4 points on a full A3 sheet);
    rendered at 300 dpi, the page is what its drawing works out to."""
    import pypdfium2 as pdfium

    small = GAME.replace("  card_size: poker\n", "  card_size: 20x20\n")
    front = """<face bg="paper">
  <rect x="0" y="0" w="20" h="5" fill="band" bleed="true"/>
  <text x="1" y="6" w="18" h="12" size="6" min-size="3" colour="ink">{{ card.name }}</text>
</face>
"""
    root = write_game(tmp_path, "plain", {"game.yaml": small, "cards.yaml": cards(60).replace("back: back\n", "")},
                      {"front.xml.j2": front})  # fmt: skip
    ((pdf, _, known),) = measure(root, "--paper", "a3", "--gutter", "3")
    assert known[0] is not None
    page = pdfium.PdfDocument(pdf)[0]
    histogram = page.render(scale=300 / 72, grayscale=True).to_pil().histogram()
    fine = 1 - sum(level * n for level, n in enumerate(histogram)) / (255 * sum(histogram))
    assert known[0] == pytest.approx(fine, abs=0.0015)
    assert ink.coverage(pdf)[0] - fine > 0.003  # the 36 dpi render: darker by more than its error here


def test_a_font_freetype_cannot_read_leaves_its_pages_to_be_rendered(tmp_path: Path, monkeypatch) -> None:
    """Glyph areas come from FreeType (Pillow): a font it refuses makes its text unmeasured, not the build fail."""
    from PIL import ImageFont

    def refusing(*args, **kwargs):
        raise OSError("unknown file format")

    monkeypatch.setattr(ImageFont, "truetype", refusing)
    drawnink._areas.cache_clear()
    ((pdf, _, known),) = measure(deck(tmp_path, 12), "--paper", "a4", "--jobs", "1")
    drawnink._areas.cache_clear()
    assert known and all(figure is None for figure in known)  # every page sets text, fronts and backs
    assert ink.coverage(pdf, (), known) == pytest.approx(ink.coverage(pdf))
