"""The print pipeline, measured on the PDFs it writes (demo game under tests/fixtures)."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pdfcheck
import pdfplumber
import pytest
from PIL import Image

from conftest import FIXTURES, run_cli

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
POKER = (63.5, 88.9)
BLEED = 3.0


def build(data: Path, out: Path, *options: str, templates: Path = FIXTURES / "templates"):
    return run_cli("--data-dir", data, "--templates-dir", templates, "build", "--out", out, "-q", *options)


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    """A writable copy of the demo game's layouts (tests/fixtures/templates)."""
    target = tmp_path / "templates"
    shutil.copytree(FIXTURES / "templates", target)
    return target


@pytest.fixture(scope="module")
def default_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build")
    run = build(FIXTURES / "card_data", out)
    assert run.code == 0, run.err
    return out / "demo"


def test_build_reports_each_file_with_page_count(tmp_path):
    data, templates = FIXTURES / "card_data", FIXTURES / "templates"
    run = run_cli("--data-dir", data, "--templates-dir", templates, "build", "--out", tmp_path, "--trust-code")
    assert run.code == 0, run.err
    lines = run.out.strip().splitlines()
    assert any(line.endswith("ships.pdf  2 pages") for line in lines), lines
    assert any(line.endswith("tokens.pdf  1 page") for line in lines), lines
    assert "demo: not printed (bought or borrowed, not cut): cubes" in run.err


def test_page_sizes_follow_the_paper(default_build, tmp_path):
    assert set(pdfcheck.page_sizes(default_build / "ships.pdf")) == {A4}
    run = build(FIXTURES / "card_data", tmp_path, "--paper", "letter")
    assert run.code == 0, run.err
    assert set(pdfcheck.page_sizes(tmp_path / "demo" / "ships.pdf")) == {LETTER}


def expected_cuts(paper: tuple[float, float], cols: int = 3, rows: int = 3) -> tuple[list[float], list[float]]:
    left = (paper[0] - cols * POKER[0]) / 2
    top = (paper[1] - rows * POKER[1]) / 2
    return [left + i * POKER[0] for i in range(cols + 1)], [top + i * POKER[1] for i in range(rows + 1)]


def test_crop_marks_sit_on_every_cut_line_outside_the_bleed(default_build):
    xs, ys = expected_cuts(A4)
    ys = ys[:3]  # six ships fill two of the three rows: no marks for the empty third row
    marks = pdfcheck.mark_lines(default_build / "ships.pdf")
    vertical = [m for m in marks if abs(m[0] - m[2]) < 0.01]
    horizontal = [m for m in marks if abs(m[1] - m[3]) < 0.01]
    top_marks = sorted(m[0] for m in vertical if m[3] < ys[0])
    bottom_marks = sorted(m[0] for m in vertical if m[1] > ys[-1])
    assert top_marks == pytest.approx(xs, abs=0.02) and bottom_marks == pytest.approx(xs, abs=0.02)
    assert sorted(m[1] for m in horizontal if m[2] < xs[0]) == pytest.approx(ys, abs=0.02)
    assert sorted(m[1] for m in horizontal if m[0] > xs[-1]) == pytest.approx(ys, abs=0.02)
    for _, top, _, bottom in vertical:  # starts 3 mm out from the trim, 5 mm long, never at the paper's edge
        if bottom < ys[0]:
            assert bottom == pytest.approx(ys[0] - BLEED, abs=0.02) and bottom - top == pytest.approx(5.0, abs=0.02)
            assert top >= 1.5
    for x0, _, x1, _ in horizontal:  # A4 side margins are 9.75 mm: the marks shrink to keep 1.5 mm clear
        if x1 < xs[0]:
            assert x1 == pytest.approx(xs[0] - BLEED, abs=0.02) and x0 >= 1.5 - 0.01


def test_letter_marks_are_tight_but_inside_the_paper(tmp_path):
    build(FIXTURES / "card_data", tmp_path, "--paper", "letter")
    xs, ys = expected_cuts(LETTER)
    marks = pdfcheck.mark_lines(tmp_path / "demo" / "ships.pdf")
    top_marks = [m for m in marks if abs(m[0] - m[2]) < 0.01 and m[3] < ys[0]]
    assert sorted(m[0] for m in top_marks) == pytest.approx(xs, abs=0.02)
    assert all(m[1] >= 1.5 - 0.01 and m[3] == pytest.approx(ys[0] - BLEED, abs=0.02) for m in top_marks)


def test_mark_options_change_length_offset_and_weight(tmp_path):
    run = build(FIXTURES / "card_data", tmp_path, "--mark-length", "4", "--mark-offset", "4", "--mark-weight", "0.5")
    assert run.code == 0, run.err
    _xs, ys = expected_cuts(A4)
    marks = pdfcheck.mark_lines(tmp_path / "demo" / "ships.pdf", weight=0.5)
    top_marks = [m for m in marks if abs(m[0] - m[2]) < 0.01 and m[3] < ys[0]]
    assert len(top_marks) == 4
    assert all(
        m[3] == pytest.approx(ys[0] - 4, abs=0.02) and m[3] - m[1] == pytest.approx(4, abs=0.02) for m in top_marks
    )


def id_positions(path: Path, page: int) -> list[tuple[str, float, float]]:
    """The card-id footer (7.5 pt, centred on each card) of every card on a page."""
    return sorted((w["text"], round(w["x"], 1), round(w["y"], 1)) for w in pdfcheck.words(path, page, size=7.5))


def test_long_edge_backs_sit_behind_their_fronts(default_build):
    pdf = default_build / "ships.pdf"
    fronts, backs = id_positions(pdf, 0), id_positions(pdf, 1)
    assert len(fronts) == len(backs) == 6
    mirrored = sorted((t, round(A4[0] - x, 1), y) for t, x, y in fronts)
    for (t, x, y), (mt, mx, my) in zip(backs, mirrored, strict=True):
        assert t == mt and x == pytest.approx(mx, abs=0.15) and y == pytest.approx(my, abs=0.15)


def centroid(chars: list[tuple[str, float, float]]) -> tuple[float, float]:
    return sum(c[1] for c in chars) / len(chars), sum(c[2] for c in chars) / len(chars)


def test_short_edge_backs_are_mirrored_top_to_bottom_and_turned(tmp_path):
    run = build(FIXTURES / "card_data", tmp_path, "--duplex", "short-edge")
    assert run.code == 0, run.err
    pdf = tmp_path / "demo" / "ships.pdf"
    front_x, front_y = centroid(pdfcheck.char_centres(pdf, 0, 7.5))
    back_x, back_y = centroid(pdfcheck.char_centres(pdf, 1, 7.5))
    assert back_x == pytest.approx(front_x, abs=0.2)
    assert back_y == pytest.approx(A4[1] - front_y, abs=0.2)
    with pdfcheck.pdfplumber.open(pdf) as doc:  # turned 180°: the text matrix runs right to left
        assert all(c["matrix"][0] < 0 for c in doc.pages[1].chars if abs(c["size"] - 7.5) < 0.2)


def test_back_offset_shifts_only_the_backs(default_build, tmp_path):
    run = build(FIXTURES / "card_data", tmp_path, "--back-offset", "1.5,-2")
    assert run.code == 0, run.err
    pdf = tmp_path / "demo" / "ships.pdf"
    assert id_positions(pdf, 0) == id_positions(default_build / "ships.pdf", 0)
    for (t, x, y), (t0, x0, y0) in zip(id_positions(pdf, 1), id_positions(default_build / "ships.pdf", 1), strict=True):
        assert t == t0
        assert x - x0 == pytest.approx(1.5, abs=0.15)
        assert y - y0 == pytest.approx(2.0, abs=0.15)  # +Y is up on paper: 2 mm further down from the top


def test_duplex_off_puts_backs_on_their_own_pages_unmirrored(tmp_path):
    run = build(FIXTURES / "card_data", tmp_path, "--duplex", "off")
    assert run.code == 0, run.err
    pdf = tmp_path / "demo" / "ships.pdf"
    assert id_positions(pdf, 1) == id_positions(pdf, 0)


def test_counters_fold_so_each_back_lands_behind_its_front(default_build):
    pdf = default_build / "tokens.pdf"
    assert len(pdfcheck.page_sizes(pdf)) == 1
    fold = A4[1] / 2
    fronts = sorted((t, round(x, 1)) for t, x, y in pdfcheck.char_centres(pdf, 0, 14) if y < fold)
    backs = pdfcheck.char_centres(pdf, 0, 6.5)
    assert all(y > fold for _, _, y in backs), "backs belong on the lower half"
    folded = sorted((t, round(x, 1)) for t, x, y in backs)
    assert folded == [(t, pytest.approx(x, abs=0.3)) for t, x in fronts]
    front_rows = sorted({round(y, 1) for _, _, y in pdfcheck.char_centres(pdf, 0, 14)})
    for _, _, y in backs:  # folded over the line, each back label falls inside its counter's row
        folded_y = 2 * fold - y
        assert any(abs(folded_y - row) < 15.875 / 2 for row in front_rows)


def test_every_font_is_embedded_pages_and_forms(default_build):
    for pdf in default_build.glob("*.pdf"):
        used = pdfcheck.fonts(pdf)
        assert used, pdf
        assert all(embedded for _, embedded in used), (pdf.name, used)
        assert not any("Helvetica" in name for name, _ in used)


def test_rebuild_is_byte_identical(default_build, tmp_path):
    build(FIXTURES / "card_data", tmp_path)
    for pdf in default_build.glob("*.pdf"):
        assert (tmp_path / "demo" / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name


def test_repeated_faces_are_drawn_once_as_forms(default_build):
    from pypdf import PdfReader

    reader = PdfReader(default_build / "ships.pdf")
    back_page = reader.pages[1]
    xobjects = back_page["/Resources"]["/XObject"]
    faces = [name for name in xobjects if name.startswith("/FormXob")]
    # each card's id is printed on its back: scout (3 copies) and frigate (2) become forms; the single dreadnought
    # is drawn in place
    assert len(faces) == 2
    content = back_page.get_contents().get_data().decode("latin-1")
    assert content.count(" Do") == 5


def test_data_is_escaped_and_printed_as_written(default_build):
    text = " ".join(w["text"] for w in pdfcheck.words(default_build / "ships.pdf", 0))
    assert "<Ships" in text and "Stations>" in text and "&amp;" not in text


def test_inline_icons_are_vectors_not_images(default_build):
    from pypdf import PdfReader

    for page in PdfReader(default_build / "ships.pdf").pages:
        resources = page["/Resources"]
        for xobject in resources.get("/XObject", {}).values():
            assert xobject.get_object().get("/Subtype") != "/Image"


@pytest.mark.parametrize(("shape", "label", "room"), [("triangle", "SS", 0.42), ("circle", "S", 0.8)])
def test_icon_labels_stay_inside_their_shape(shape: str, label: str, room: float):
    """A label is 0.62 of the icon's side for one letter and 0.45 for more, but never wider than the room at the
    shape's centre: two letters on a triangle are set smaller than on a circle of the same size."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from cardgen.data.model import Icon
    from cardgen.render.icons import label_size

    side, font = 20.0, "Helvetica-Bold"
    size = label_size(Icon(shape=shape, label=label), side, font)
    assert stringWidth(label, font, size) <= room * side + 1e-6
    assert size == pytest.approx(side * (0.62 if len(label) == 1 else 0.45)) or shape == "triangle"
    assert shape != "triangle" or size < side * 0.45


def test_overflowing_text_is_reported_and_nothing_written(demo_data, tmp_path):
    ships = demo_data / "demo" / "ships.yaml"
    long_text = " ".join(["Reroute every shield to the forward batteries."] * 40)
    ships.write_text(ships.read_text().replace("Draw a card when revealed.", long_text))
    run = build(demo_data, tmp_path)
    assert run.code == 1
    assert "card 'scout' front" in run.err and "field 'ability'" in run.err and "overflows its box by" in run.err
    assert not (tmp_path / "demo" / "ships.pdf").exists()
    assert (tmp_path / "demo" / "tokens.pdf").exists()  # other components still build
    allowed = build(demo_data, tmp_path, "--allow-overflow")
    assert allowed.code == 0 and "warning" in allowed.err and (tmp_path / "demo" / "ships.pdf").exists()


def test_text_shrinks_before_it_overflows(demo_data, tmp_path):
    ships = demo_data / "demo" / "ships.yaml"
    ships.write_text(ships.read_text().replace("Draw a card when revealed.", "Draw a card when revealed. " * 9))
    run = build(demo_data, tmp_path)
    assert run.code == 0, run.err
    sizes = {round(c[0], 1) for c in _ability_sizes(tmp_path / "demo" / "ships.pdf")}
    assert any(6 <= s < 8 for s in sizes), sizes


def _ability_sizes(pdf: Path) -> list[tuple[float]]:
    with pdfcheck.pdfplumber.open(pdf) as doc:
        return [(c["size"],) for c in doc.pages[0].chars if c["text"] == "D" and c["size"] < 8.5]


def test_undefined_field_names_template_and_line(demo_data, tmp_path, templates):
    layout = templates / "demo" / "ship.xml.j2"
    layout.write_text(layout.read_text().replace("card.faction }}</i>", "card.fraction }}</i>"))
    run = build(demo_data, tmp_path / "out", templates=templates)
    assert run.code == 2
    assert "ship.xml.j2:8:" in run.err and "'fraction' is undefined" in run.err and "card 'scout'" in run.err
    assert not (tmp_path / "out" / "demo" / "ships.pdf").exists()


def test_template_syntax_error(demo_data, tmp_path, templates):
    (templates / "demo" / "token.xml.j2").write_text("<face>\n{% if card.label %}\n</face>\n")
    run = build(demo_data, tmp_path / "out", templates=templates)
    assert run.code == 2 and "token.xml.j2:" in run.err and "syntax error" in run.err
    assert not (tmp_path / "out" / "demo" / "tokens.pdf").exists()


def test_unknown_markup_element_and_attribute(demo_data, tmp_path, templates):
    (templates / "demo" / "token.xml.j2").write_text('<face><circel cx="1" cy="1" r="1"/></face>')
    run = build(demo_data, tmp_path / "out", templates=templates)
    assert run.code == 2 and "unknown element <circel>" in run.err and "credit-1" in run.err
    (templates / "demo" / "token.xml.j2").write_text('<face><circle cx="1" cy="1" radius="1"/></face>')
    run = build(demo_data, tmp_path / "out", templates=templates)
    assert run.code == 2 and "unknown attribute 'radius'" in run.err


def test_missing_layout(demo_data, tmp_path):
    edit = demo_data / "demo" / "tokens.yaml"
    edit.write_text(edit.read_text().replace("front: token\n", "front: tokn\n"))
    run = build(demo_data, tmp_path)
    assert run.code == 2 and "layout 'tokn' not found" in run.err and "did you mean 'token'" in run.err


def _with_image(demo_data: Path, tmp_path: Path, src: str) -> Path:
    templates = tmp_path / "templates"
    if not templates.exists():
        shutil.copytree(FIXTURES / "templates", templates)
    layout = templates / "demo" / "token-back.xml.j2"
    layout.write_text(f'<face><image src="{src}" x="1" y="1" w="10" h="10"/></face>')
    return templates


def test_image_errors_are_clear_and_write_nothing(demo_data, tmp_path):
    cases = {
        "art/missing.png": "image not found",
        "../../secret.png": "outside the game folder",
        "art/broken.png": "cannot decode image",
        "art/notes.txt": "PNG, JPEG or SVG",
    }
    (demo_data / "demo" / "art").mkdir()
    (demo_data / "demo" / "art" / "broken.png").write_bytes(b"not a png at all")
    (demo_data / "demo" / "art" / "notes.txt").write_text("hi")
    for src, message in cases.items():
        templates = _with_image(demo_data, tmp_path, src)
        run = build(demo_data, tmp_path / "out", templates=templates)
        assert run.code == 2, (src, run.err)
        assert message in run.err and "credit-1" in run.err, (src, run.err)
        assert not (tmp_path / "out" / "demo" / "tokens.pdf").exists()


def test_images_are_embedded_once(demo_data, tmp_path):
    art = demo_data / "demo" / "art"
    art.mkdir()
    Image.new("RGB", (40, 40), (200, 30, 30)).save(art / "coin.png")
    (art / "mark.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<circle cx="5" cy="5" r="4" fill="#123456"/></svg>'
    )
    templates = _with_image(demo_data, tmp_path, "art/coin.png")
    layout = templates / "demo" / "token-back.xml.j2"
    layout.write_text(
        '<face><image src="art/coin.png" x="1" y="1" w="6" h="6"/><image src="art/mark.svg" x="8" y="1" w="6" h="6"/>'
        '<text x="1" y="10" w="12" h="4" size="5" field="label">{{ card.label }}</text></face>'
    )
    run = build(demo_data, tmp_path / "out", templates=templates)
    assert run.code == 0, run.err
    from pypdf import PdfReader

    reader = PdfReader(tmp_path / "out" / "demo" / "tokens.pdf")
    images = [o for o in reader.resolved_objects.values() if hasattr(o, "get") and o.get("/Subtype") == "/Image"]
    raw = (tmp_path / "out" / "demo" / "tokens.pdf").read_bytes()
    assert raw.count(b"/Subtype /Image") == 1, len(images)


def test_missing_glyph_is_an_error_naming_the_card(demo_data, tmp_path):
    ships = demo_data / "demo" / "ships.yaml"
    ships.write_text(ships.read_text().replace("name: Dreadnought", "name: Dreadnought \u2603\u0f00"))
    run = build(demo_data, tmp_path)
    assert run.code == 2 and "card 'dreadnought'" in run.err and "U+2603" in run.err
    assert not (tmp_path / "demo" / "ships.pdf").exists()


def test_bad_fonts(demo_data, tmp_path):
    manifest = demo_data / "demo" / "game.yaml"
    original = manifest.read_text()
    manifest.write_text(original.replace("settings:\n", "settings:\n  fonts: {body: NotoSans-Reguler.ttf}\n"))
    run = build(demo_data, tmp_path)
    assert run.code == 2 and "font 'NotoSans-Reguler.ttf' not found" in run.err and "NotoSans-Regular.ttf" in run.err
    (demo_data / "demo" / "fake.ttf").write_bytes(b"\x00\x01\x00\x00 not really a font")
    manifest.write_text(original.replace("settings:\n", "settings:\n  fonts: {body: fake.ttf}\n"))
    run = build(demo_data, tmp_path)
    assert run.code == 2 and "fake.ttf" in run.err and "Traceback" not in run.err
    assert not (tmp_path / "demo").exists()


def test_shop_pdf_has_one_face_per_page_with_boxes(tmp_path):
    run = build(FIXTURES / "card_data", tmp_path, "--format", "shop-pdf")
    assert run.code == 0, run.err
    pdf = tmp_path / "demo" / "shop" / "ships.pdf"
    pages = pdfcheck.boxes(pdf)
    assert len(pages) == 12  # 6 cards, front and back alternating
    for page in pages:
        assert page["MediaBox"] == pytest.approx((0, 0, 69.5, 94.9), abs=0.02)
        assert page["BleedBox"] == pytest.approx((0, 0, 69.5, 94.9), abs=0.02)
        assert page["TrimBox"] == pytest.approx((3, 3, 66.5, 91.9), abs=0.02)
    ids = [w["text"] for p in range(12) for w in pdfcheck.words(pdf, p, size=7.5)]
    assert ids[:4] == ["scout", "scout", "scout", "scout"]


def test_png_faces_at_300_dpi(tmp_path):
    run = build(FIXTURES / "card_data", tmp_path, "--format", "png")
    assert run.code == 0, run.err
    folder = tmp_path / "demo" / "ships"
    names = sorted(p.name for p in folder.glob("*.png"))
    assert names == sorted(f"{c}-{s}.png" for c in ("scout", "frigate", "dreadnought") for s in ("front", "back"))
    with Image.open(folder / "scout-front.png") as image:
        assert image.size == (821, 1121)  # (63.5 + 6) × (88.9 + 6) mm at 300 dpi
    assert "frigate,2,frigate-front.png,frigate-back.png" in (folder / "counts.csv").read_text()


def test_png_export_writes_a_back_shared_by_many_cards_once(tmp_path):
    """The demo's back prints each card's id (every back differs, as above); without it the six ships share one
    back, written once, and counts.csv points every card at it."""
    templates = tmp_path / "templates"
    shutil.copytree(FIXTURES / "templates", templates)
    back = templates / "demo" / "card-back.xml.j2"
    back.write_text("".join(line for line in back.read_text().splitlines(True) if 'field="id"' not in line))
    run = run_cli("--data-dir", FIXTURES / "card_data", "--templates-dir", templates, "build", "--out",
                  tmp_path / "out", "--format", "png", "-q", "--trust-code")  # fmt: skip
    assert run.code == 0, run.err
    folder = tmp_path / "out" / "demo" / "ships"
    names = sorted(p.name for p in folder.glob("*.png"))
    assert names == sorted([*(f"{c}-front.png" for c in ("scout", "frigate", "dreadnought")), "back-card-back.png"])
    counts = (folder / "counts.csv").read_text().splitlines()
    assert counts[0] == "card,count,front,back" and "frigate,2,frigate-front.png,back-card-back.png" in counts
    assert all(line.endswith(",back-card-back.png") for line in counts[1:]), counts


def test_round_png_faces_are_transparent_outside_their_shape_and_cards_are_not(tmp_path):
    """A round counter's image is its circle grown by the bleed on a see-through square (digital tables cut pieces
    by their alpha); a rectangular card stays opaque RGB."""
    run = build(FIXTURES / "card_data", tmp_path, "--format", "png")
    assert run.code == 0, run.err
    px = 300 / 25.4  # pixels per mm
    with Image.open(tmp_path / "demo" / "tokens" / "credit-1-front.png") as image:
        assert image.mode == "RGBA" and image.size == (259, 259)  # (15.875 + 6) mm at 300 dpi
        alpha = image.getchannel("A")
        centre = (image.width - 1) / 2

        def at(mm: float) -> int:  # alpha along the diagonal, `mm` from the centre
            step = mm * px / 2**0.5
            return alpha.getpixel((round(centre + step), round(centre + step)))

        assert at(0) == 255 and at(7.9) == 255 and at(10.4) == 255  # the face and its bleed ring
        assert at(11.5) == 0 and at(15.0) == 0  # beyond the bleed circle: the square's corners
        assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((129, 0)) > 0  # a corner; the circle touches the edge
    with Image.open(tmp_path / "demo" / "ships" / "scout-front.png") as card:
        assert card.mode == "RGB"


def test_poker_png_with_eighth_inch_bleed_is_825_by_1125(demo_data, tmp_path):
    manifest = demo_data / "demo" / "game.yaml"
    manifest.write_text(manifest.read_text().replace("  back: card-back\n", "  back: card-back\n  bleed: 3.175\n"))
    run = build(demo_data, tmp_path, "--format", "png")
    assert run.code == 0, run.err
    with Image.open(tmp_path / "demo" / "ships" / "scout-front.png") as image:
        assert image.size == (825, 1125)


def test_calibration_sheet(tmp_path):
    out = tmp_path / "calibration.pdf"
    run = run_cli("calibrate", "--out", out)
    assert run.code == 0, run.err
    assert pdfcheck.page_sizes(out) == [A4, A4]
    words = [w["text"] for w in pdfcheck.words(out, 1)]
    assert "--back-offset" in " ".join(words)


def test_calibration_scales_sit_where_the_front_crosses_land(tmp_path):
    from cardgen.render.calibrate import calibration_points
    from cardgen.units import Size

    out = tmp_path / "calibration.pdf"
    run_cli("calibrate", "--out", out)
    with pdfcheck.pdfplumber.open(out) as doc:
        zeros = [
            (c["x0"] + c["x1"]) / 2 / pdfcheck.MM for c in doc.pages[1].chars if c["text"] == "0" and c["size"] < 5
        ]
    for x, _ in calibration_points(Size(*A4)):
        assert any(abs(z - (A4[0] - x)) < 0.3 for z in zeros)


def test_counts_of_faces_on_sheets(default_build):
    ids = Counter(w["text"] for w in pdfcheck.words(default_build / "ships.pdf", 0, size=7.5))
    assert ids == {"scout": 3, "frigate": 2, "dreadnought": 1}


def test_transparency_survives_inside_forms(demo_data, tmp_path, templates):
    """A face drawn as a form (used twice) keeps its opacity: the form carries its own graphics states."""
    (templates / "demo" / "token-back.xml.j2").write_text(
        '<face bg="ink"><rect x="1" y="1" w="10" h="10" fill="#ff000080"/>'
        '<circle cx="8" cy="8" r="3" fill="white" opacity="0.5"/></face>'
    )
    run = build(demo_data, tmp_path / "out", templates=templates)
    assert run.code == 0, run.err
    from pypdf import PdfReader

    page = PdfReader(tmp_path / "out" / "demo" / "tokens.pdf").pages[0]
    forms = [x.get_object() for x in page["/Resources"]["/XObject"].values()]
    back = [f for f in forms if b"gs" in f.get_data()]
    assert back, "the back face should be a form that sets a graphics state"
    assert all("/ExtGState" in f["/Resources"] for f in back)


def test_with_a_gutter_every_card_keeps_its_own_bleed_and_both_cut_lines_get_marks(tmp_path):
    run = build(FIXTURES / "card_data", tmp_path, "--gutter", "6")
    assert run.code == 0, run.err
    from cardgen.render.imposition import MarkStyle, grid_sheet
    from cardgen.units import Size

    plan = grid_sheet(Size(*A4), Size(*POKER), BLEED, 6.0, MarkStyle())
    for a in plan.fronts:  # bleed areas of neighbours never overlap, and each card has bleed on all four sides
        assert a.clip.w == pytest.approx(POKER[0] + 2 * BLEED) and a.clip.h == pytest.approx(POKER[1] + 2 * BLEED)
        for b in plan.fronts:
            if a is not b:
                assert a.clip.right <= b.clip.x + 1e-9 or b.clip.right <= a.clip.x + 1e-9 or \
                    a.clip.top <= b.clip.y + 1e-9 or b.clip.top <= a.clip.y + 1e-9  # fmt: skip
    marks = pdfcheck.mark_lines(tmp_path / "demo" / "ships.pdf")
    columns = {round(m[0], 2) for m in marks if abs(m[0] - m[2]) < 0.01}
    assert len(columns) == 2 * plan_columns(plan)  # two cut lines per column of cards


def plan_columns(plan) -> int:
    return len({round(s.trim.x, 3) for s in plan.fronts})


def test_separate_processes_write_identical_files(tmp_path):
    """Nothing process-specific (hash seeds, temporary paths) reaches the PDF."""
    import os
    import subprocess
    import sys

    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        args = ["--data-dir", str(FIXTURES / "card_data"), "--templates-dir", str(FIXTURES / "templates")]
        subprocess.run([sys.executable, "-m", "cardgen", *args, "build", "--out", str(out), "-q"], check=True,
                       capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed})  # fmt: skip
        outputs.append({p.name: p.read_bytes() for p in (out / "demo").glob("*.pdf")})
    assert outputs[0] == outputs[1] and len(outputs[0]) == 5  # three components, the print guide, the calibration page


def test_quiet_prints_nothing_but_problems(tmp_path):
    run = build(FIXTURES / "card_data", tmp_path)
    assert run.code == 0 and run.out == "" and run.err == ""


def test_light_ink_prints_dark_backs_as_tints_with_dark_text(default_build, tmp_path):
    """--ink light: the deck's back page (a dark face with white text) covers a third of the ink; its title is
    printed in the dark colour on the tint, so it stays readable; the guide says how the file was built."""
    assert build(FIXTURES / "card_data", tmp_path, "--only", "ships", "--ink", "light").code == 0
    full, light = pdfcheck.ink(default_build / "ships.pdf"), pdfcheck.ink(tmp_path / "demo" / "ships.pdf")
    assert light[0] == pytest.approx(full[0], abs=0.01)  # the fronts have no large dark area
    assert full[1] > 0.4 and light[1] < full[1] / 2.5
    with pdfplumber.open(tmp_path / "demo" / "ships.pdf") as pdf:
        title = {c["non_stroking_color"] for c in pdf.pages[1].chars if c["text"] in "Demo" and c["size"] > 10}
    assert title and all(c == pytest.approx((0.106, 0.122, 0.165), abs=0.01) for c in title)  # ink, not white
    assert (
        "These files print backs and other large dark areas as pale tints"
        in (tmp_path / "demo" / "PRINT.md").read_text()
    )


def test_light_ink_keeps_small_dark_shapes_and_the_text_on_them():
    """Only large dark areas lighten; a small dark badge on one stays dark, and white text on the badge stays white."""
    from cardgen.render.ink import light_face
    from cardgen.render.kit import Palette
    from cardgen.render.markup import Element, Face

    shape = {"stroke": "none", "stroke-width": 0.3, "dash": (), "opacity": 1.0}
    band = Element("rect", {"x": 0, "y": 0, "w": 60, "h": 30, "fill": "#102040", **shape})
    badge = Element("circle", {"cx": 10, "cy": 10, "r": 4, "fill": "#400000", **shape})
    on_badge = Element("text", {"x": 8, "y": 8, "w": 4, "h": 4, "colour": "white"})
    on_band = Element("text", {"x": 30, "y": 20, "w": 20, "h": 4, "colour": "white"})
    face = light_face(Face("white", (band, badge, on_badge, on_band)), Palette({}).get, 60, 90)
    band, badge, on_badge, on_band = face.elements
    assert band["fill"] == "#dbdee2" and band["stroke"] == "#102040"  # 15 % of the colour, outlined in it
    assert badge["fill"] == "#400000" and on_badge["colour"] == "white"
    assert on_band["colour"] == "#102040"


def test_light_ink_prints_a_gradient_fill_as_it_is():
    """A large shape filled with a gradient is not one colour to tint: light ink leaves it (it once crashed)."""
    from cardgen.render.ink import light_face
    from cardgen.render.kit import Palette
    from cardgen.render.markup import Element, Face, gradient

    fill = gradient("linear(0, #102040, #405080)", lambda name: name.startswith("#"))
    shape = {"stroke": "none", "stroke-width": 0.3, "dash": (), "opacity": 1.0}
    band = Element("rect", {"x": 0, "y": 0, "w": 60, "h": 60, "fill": fill, **shape})
    (band,) = light_face(Face("white", (band,)), Palette({}).get, 60, 90).elements
    assert band["fill"] == fill


def test_a_back_layout_reads_the_ink_and_its_own_light_design_is_drawn_as_written(templates, tmp_path):
    """A layout that reads `ink` gets "light" under --ink light and "full" otherwise; its light variant is printed as
    designed — a dark bar covering a third of the face stays dark (the generic rewrite would have tinted it)."""
    back = templates / "demo" / "card-back.xml.j2"
    back.write_text(
        '{% if ink == "light" %}<face bg="white"><rect x="0" y="0" w="20" h="{{ face.height|mm }}" fill="ink"/>'
        '<text x="25" y="40" w="30" h="8" size="9" colour="ink" field="t">{{ ink }} back</text></face>'
        "{% else %}" + back.read_text() + "{% endif %}"
    )
    for ink in ("light", "full"):
        run = build(FIXTURES / "card_data", tmp_path / ink, "--only", "ships", "--ink", ink, templates=templates)
        assert run.code == 0, run.err
    light, full = tmp_path / "light" / "demo" / "ships.pdf", tmp_path / "full" / "demo" / "ships.pdf"
    assert "light back" in pdfcheck.text(light, 1) and "light back" not in pdfcheck.text(full, 1)
    page = pdfcheck.render(light, 1, dpi=25)
    trim = page.width / 210 * (210 - 3 * POKER[0]) / 2  # the left edge of the first card, in pixels
    bar = page.getpixel((round(trim + page.width / 210 * 10), page.height // 2))
    assert max(bar) < 60, bar  # the designed dark bar, not a 15 % tint


# One component of each bundled game whose backs have a designed light variant, and the most ink any of its back
# pages may take in light ink (18 dpi, as the guide measures; each under what the generic rewrite left: 29 %, 21 %,
# 21 %, 23 % and 29 %, and full ink's 57–74 %). Space Empires 4X's counters fold: their backs are the lower half.
LIGHT_BACKS = {
    "battlefield-space": ("blue-deck", 0.16),
    "rift-domination": ("planet-cards", 0.12),
    "scifi-domains": ("command-ships", 0.13),
    "star-commander": ("system-deck", 0.15),
    "space-empires-4x": ("home-system-markers", 0.20),
}


def test_every_bundled_game_prints_its_own_light_backs(tmp_path):
    only = ",".join(component for component, _ in LIGHT_BACKS.values())
    run = run_cli("build", *LIGHT_BACKS, "--only", only, "--ink", "light", "--out", tmp_path, "-q", "--no-validate")
    assert run.code == 0, run.err
    for game, (component, most) in LIGHT_BACKS.items():
        pdf = tmp_path / game / f"{component}.pdf"
        if game == "space-empires-4x":
            grey = pdfcheck.render(pdf, 0, dpi=18).convert("L")
            lower = grey.crop((0, grey.height // 2, grey.width, grey.height)).histogram()
            backs = [1 - sum(i * n for i, n in enumerate(lower)) / (255 * sum(lower))]
        else:
            backs = pdfcheck.ink(pdf)[1::2]
        assert backs and max(backs) < most, (game, backs)


def test_the_pieces_that_outgrew_letter_paper_now_fit_it(tmp_path):
    """Rift Domination's counter tracks (once 280 mm, wider than Letter) and Space Empires 4X's production sheet
    (its technology labels overflowed Letter's narrower landscape page) build on Letter."""
    only = "counter-tiles,production-sheet"
    run = run_cli("build", "rift-domination", "space-empires-4x", "--only", only, "--paper", "letter", "--out",
                  tmp_path, "-q", "--no-validate")  # fmt: skip
    assert run.code == 0, run.err
    assert pdfcheck.page_sizes(tmp_path / "rift-domination" / "counter-tiles.pdf") == [(279.4, 215.9)]
    assert len(pdfcheck.page_sizes(tmp_path / "space-empires-4x" / "production-sheet.pdf")) == 2


def _about(points: float, mm: float) -> bool:
    return abs(points / pdfcheck.MM - mm) < 1


def test_with_duplex_off_one_sided_pieces_get_no_backs_page(tmp_path):
    """Rift Domination's faction markers (60 round, one-sided) share the OCC cards' last sheet: its backs page holds
    the one OCC back and no cut circles for markers that have no back (31 empty circles wasted ink before)."""
    run = run_cli("build", "rift-domination", "--only", "occ-cards,faction-tiles", "--duplex", "off", "--out",
                  tmp_path, "-q")  # fmt: skip
    assert run.code == 0, run.err
    pdf = tmp_path / "rift-domination" / "occ-cards.pdf"
    labels = [pdfcheck.text(pdf, number) for number in range(len(pdfcheck.page_sizes(pdf)))]  # pdfium: the text alone
    fronts = [number for number, text in enumerate(labels) if "backs" not in text]
    backs = list(range(len(fronts), len(labels)))
    assert len(fronts) == len(backs)  # every sheet holds OCC cards, each with its back
    with pdfcheck.pdfplumber.open(pdf, pages=[fronts[-1] + 1, backs[-1] + 1]) as document:  # parsing art is slow
        circles = [[c for c in p.curves if _about(c["width"], 16) and _about(c["height"], 16)] for p in document.pages]
    assert len(circles[0]) >= 60 and not circles[1]  # the markers' 16 mm cut circles on the front, none behind


def test_light_ink_darkens_text_that_a_tint_would_hide():
    """Mid-tone text on a large dark area (gold on grey: 1.7:1 once the grey is a tint) takes the area's colour in
    light ink, darkened until it reads at 4.5:1; text already readable on the tint keeps its colour."""
    from cardgen.render.ink import contrast, light_face, rgb, tint
    from cardgen.render.kit import Palette
    from cardgen.render.markup import Element, Face

    shape = {"stroke": "none", "stroke-width": 0.3, "dash": (), "opacity": 1.0}
    panel = Element("rect", {"x": 0, "y": 0, "w": 60, "h": 30, "fill": "#2b2f3a", **shape})
    gold = Element("text", {"x": 5, "y": 5, "w": 50, "h": 10, "colour": "#d8a31a"})
    black = Element("text", {"x": 5, "y": 15, "w": 50, "h": 10, "colour": "#000000"})
    face = light_face(Face("white", (panel, gold, black)), Palette({}).get, 60, 90)
    panel, gold, black = face.elements
    assert gold["colour"] == "#2b2f3a" and black["colour"] == "#000000"
    assert contrast(rgb(gold["colour"]), rgb(panel["fill"])) >= 4.5
    # a pale area colour is darkened until its text reads
    band = Element("rect", {"x": 0, "y": 0, "w": 60, "h": 30, "fill": "#6a6a6a", **shape})
    label = Element("text", {"x": 5, "y": 5, "w": 50, "h": 10, "colour": "white"})
    band, label = light_face(Face("white", (band, label)), Palette({}).get, 60, 90).elements
    assert band["fill"] == tint(rgb("#6a6a6a")) and label["colour"] != "#6a6a6a"
    assert contrast(rgb(label["colour"]), rgb(band["fill"])) >= 4.5


def test_a_gradient_drawn_in_a_form_keeps_its_shading():
    """A face used more than once is drawn through a form; reportlab names a form's shadings only in pages, so a
    gradient in it painted nothing. The form's resources now name each shading it uses."""
    import io

    from pypdf import PdfReader
    from reportlab.lib.colors import Color

    from cardgen.render.icons import IconCanvas

    out = io.BytesIO()
    canvas = IconCanvas(out, invariant=True)
    canvas.beginForm("face", 0, 0, 100, 100)
    canvas.linearGradient(0, 0, 100, 0, [Color(1, 0, 0), Color(0, 0, 1)], extend=True)
    canvas.endForm()
    canvas.doForm("face")
    canvas.showPage()
    canvas.save()
    page = PdfReader(io.BytesIO(out.getvalue())).pages[0]
    form = page["/Resources"]["/XObject"]["/FormXob.face"].get_object()
    used = re.findall(rb"/(Sh\d+) sh", form.get_data())
    assert used and {f"/{name.decode()}" for name in used} <= set(form["/Resources"]["/Shading"])


def test_light_ink_prints_a_gradient_as_drawn():
    """A gradient fill (its designer chose its light and dark) is neither tinted nor a crash: the face is printed as
    written, and white text on it stays white."""
    from cardgen.render.ink import light_face
    from cardgen.render.kit import Palette
    from cardgen.render.markup import Element, Face, gradient

    fill = gradient("linear(0, #102040, #000000)", lambda name: True)
    shape = {"stroke": "none", "stroke-width": 0.3, "dash": (), "opacity": 1.0}
    band = Element("rect", {"x": 0, "y": 0, "w": 60, "h": 40, "fill": fill, **shape})
    label = Element("text", {"x": 5, "y": 5, "w": 50, "h": 10, "colour": "white"})
    band, label = light_face(Face("white", (band, label)), Palette({}).get, 60, 90).elements
    assert band["fill"] == fill and label["colour"] == "white"
