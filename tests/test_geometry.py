"""Print geometry measured on the page: partial sheets keep their bleed, gutters split the bleed between
neighbours, landscape sheets turn their backs about the long edge, hex tiles fill their true box.

Each test renders a page to pixels (8 px/mm) and measures colours where a cutter would cut; none reads cardgen's
own plan back.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest

from conftest import FIXTURES, run_cli

PX = 8  # pixels per millimetre
TEMPLATES = FIXTURES / "templates"


def render(pdf: Path, page: int):
    document = pypdfium2.PdfDocument(str(pdf))
    image = document[page].render(scale=PX * 25.4 / 72).to_pil().convert("RGB")
    document.close()
    return image


def colour_at(image, x_mm: float, y_mm_from_top: float) -> tuple[int, int, int]:
    return image.getpixel((round(x_mm * PX), round(y_mm_from_top * PX)))


def region(image, rgb: tuple[int, int, int], tolerance: int = 12) -> tuple[float, float, float, float]:
    """The bounding box (left, top, right, bottom, in mm from the top-left) of the pixels of one colour."""
    xs, ys = [], []
    pixels = image.load()
    for y in range(0, image.height, 2):
        for x in range(0, image.width, 2):
            p = pixels[x, y]
            if all(abs(p[i] - rgb[i]) <= tolerance for i in range(3)):
                xs.append(x)
                ys.append(y)
    assert xs, f"no pixel of {rgb}"
    return min(xs) / PX, min(ys) / PX, max(xs) / PX, max(ys) / PX


def near(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


PAPER = (0xF4, 0xF1, 0xE8)  # the demo's card background
RED_BAR = (0x8E, 0x2C, 0x2C)  # a Syndicate ship's title bar
BLUE_BAR = (0x2F, 0x6D, 0xB5)  # a Union ship's title bar
WHITE = (255, 255, 255)
POKER_W, POKER_H = 63.5, 88.9


def test_a_partial_last_sheet_keeps_bleed_towards_its_empty_slots(tmp_path):
    """Six ships on a sheet of nine: the second row's bottom edge faces empty slots and must carry bleed."""
    run = run_cli("--data-dir", FIXTURES / "card_data", "--templates-dir", TEMPLATES, "build", "--out", tmp_path, "-q",
                  "--trust-code")  # fmt: skip
    assert run.code == 0, run.err
    page = render(tmp_path / "demo" / "ships.pdf", 0)
    left = (210 - 3 * POKER_W) / 2
    top = (297 - 3 * POKER_H) / 2
    below_second_row = top + 2 * POKER_H + 1.5
    assert near(colour_at(page, left + POKER_W / 2, below_second_row), PAPER)  # bleed, not bare paper
    assert near(colour_at(page, left + POKER_W / 2, below_second_row + 3.0), WHITE)  # and no more than the bleed


def test_a_narrow_gutter_splits_the_bleed_between_neighbours(tmp_path):
    """With a 2 mm gutter and 3 mm bleed, each card paints 1 mm into the gutter, never into its neighbour's half."""
    run = run_cli("--data-dir", FIXTURES / "card_data", "--templates-dir", TEMPLATES, "build", "--out", tmp_path, "-q",
                  "--gutter", "2", "--trust-code")  # fmt: skip
    assert run.code == 0, run.err
    page = render(tmp_path / "demo" / "ships.pdf", 0)
    gutter = 2.0
    left = (210 - 3 * POKER_W - 2 * gutter) / 2
    top = (297 - 3 * POKER_H - 2 * gutter) / 2
    bar_y = top + POKER_H + gutter + 5  # the title bars of the second row: frigate (red) beside dreadnought (blue)
    frigate_right = left + 2 * POKER_W + gutter
    assert near(colour_at(page, frigate_right + 0.5, bar_y), RED_BAR)  # the frigate's half of the gutter
    assert near(colour_at(page, frigate_right + gutter - 0.5, bar_y), BLUE_BAR)  # the dreadnought's half


MINI_GAME = """id: probe
title: Probe
players: [2, 2]
rulebook: {title: Probe rules}
settings:
  card_size: mini
  back: back
  colours: {ink: "#101010"}
card_types:
  card: {fields: {n: {type: int}}}
  tile: {fields: {n: {type: int}}}
components:
  - {id: minis, kind: deck, title: Mini deck, file: minis.yaml}
  - {id: hexes, kind: tiles, title: Hex tiles, file: hexes.yaml}
"""
MINIS = "type: card\nfront: front\ncards:\n" + "".join(f"  - {{id: c{n:02}, n: {n}}}\n" for n in range(1, 19))
HEXES = "type: tile\nsize: 50\nshape: hex\nfront: hex\nback: hex-back\ntiles:\n  - {id: h1, n: 1}\n"
FRONT = '<face bg="white"><text x="2" y="2" w="30" h="8" size="14" field="n">F{{ card.n }}</text></face>'
BACK = '<face bg="white"><text x="2" y="2" w="30" h="8" size="14" field="id">B{{ card.n }}</text></face>'
HEX = '<face bg="#20a040"></face>'
HEX_BACK = '<face bg="#a02040"></face>'


@pytest.fixture
def probe(tmp_path: Path) -> tuple[Path, Path]:
    data, layouts = tmp_path / "data" / "probe", tmp_path / "layouts" / "probe"
    data.mkdir(parents=True)
    layouts.mkdir(parents=True)
    for name, text in {"game.yaml": MINI_GAME, "minis.yaml": MINIS, "hexes.yaml": HEXES}.items():
        (data / name).write_text(text)
    for name, text in {"front": FRONT, "back": BACK, "hex": HEX, "hex-back": HEX_BACK}.items():
        (layouts / f"{name}.xml.j2").write_text(text.replace("B{{ card.n }}", "B{{ card.n }}"))
    (layouts / "back.xml.j2").write_text(BACK)
    return tmp_path / "data", tmp_path / "layouts"


def _words(pdf: Path, page: int) -> tuple[dict[str, dict], tuple[float, float]]:
    """Each word's box in mm from the page's top-left (a word turned 180° is read back to front: both keys kept)."""
    import pdfplumber

    with pdfplumber.open(pdf) as document:
        p = document.pages[page]
        found = {}
        for w in p.extract_words():
            box = {k: float(w[k]) * 25.4 / 72 for k in ("x0", "x1", "top", "bottom")}
            found[w["text"]] = found[w["text"][::-1]] = box
        return found, (float(p.width) * 25.4 / 72, float(p.height) * 25.4 / 72)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_landscape_backs_land_behind_their_fronts(probe, tmp_path, duplex, paper):
    """Eighteen mini cards print on a landscape A4 sheet. Turned about the long edge (top–bottom on a landscape
    page: backs mirrored top to bottom and turned 180°) or the short edge (left–right), each back lands behind its
    own front. Each face writes its number 2 mm in from its top-left corner."""
    data, layouts = probe
    run = run_cli("--data-dir", data, "--templates-dir", layouts, "build", "probe", "--out", tmp_path / "out", "-q",
                  "--duplex", duplex, "--paper", paper)  # fmt: skip
    assert run.code == 0, run.err
    pdf = tmp_path / "out" / "probe" / "minis.pdf"
    (fronts, (width, height)), (backs, _) = _words(pdf, 0), _words(pdf, 1)
    assert width > height  # landscape
    card_w = 44.45
    for n in range(1, 19):
        front, back = fronts[f"F{n}"], backs[f"B{n}"]
        if duplex == "long-edge":  # same column, mirrored row, upside down on the page
            assert back["x1"] == pytest.approx(front["x0"] - 2 + card_w - 2, abs=1.0), n
            assert back["bottom"] == pytest.approx(height - front["top"], abs=1.0), n
        else:  # mirrored column, same row, upright
            assert back["x0"] == pytest.approx(width - (front["x0"] - 2 + card_w) + 2, abs=1.0), n
            assert back["top"] == pytest.approx(front["top"], abs=1.0), n


def test_a_hex_tile_fills_its_true_box_and_its_bleed(probe, tmp_path):
    """`size: 50` is across the flats: the art fills a 57.7 × 50 mm hexagon plus 3 mm bleed on every side."""
    data, layouts = probe
    run = run_cli("--data-dir", data, "--templates-dir", layouts, "build", "probe", "--out", tmp_path / "out", "-q")
    assert run.code == 0, run.err
    page = render(tmp_path / "out" / "probe" / "hexes.pdf", 0)
    left, top, right, bottom = region(page, (0x20, 0xA0, 0x40))
    across_corners = 50 * 2 / 3**0.5 + 2 * 3 * 2 / 3**0.5  # the hex grown by the bleed, perpendicular to its sides
    assert right - left == pytest.approx(across_corners, abs=0.6)
    assert bottom - top == pytest.approx(50 + 2 * 3, abs=0.6)


def test_hex_backs_follow_short_edge_duplex(probe, tmp_path):
    data, layouts = probe
    run = run_cli("--data-dir", data, "--templates-dir", layouts, "build", "probe", "--out", tmp_path / "out", "-q",
                  "--duplex", "short-edge")  # fmt: skip
    assert run.code == 0, run.err
    pdf = tmp_path / "out" / "probe" / "hexes.pdf"
    front = region(render(pdf, 0), (0x20, 0xA0, 0x40))
    back = region(render(pdf, 1), (0xA0, 0x20, 0x40))
    page = render(pdf, 0)
    width_mm, height_mm = page.width / PX, page.height / PX
    front_centre = ((front[0] + front[2]) / 2, (front[1] + front[3]) / 2)
    back_centre = ((back[0] + back[2]) / 2, (back[1] + back[3]) / 2)
    expected = (front_centre[0], height_mm - front_centre[1]) if width_mm < height_mm else (
        width_mm - front_centre[0], front_centre[1])  # fmt: skip
    assert back_centre == pytest.approx(expected, abs=0.6)


@pytest.mark.parametrize("landscape", [False, True])
def test_calibration_scales_never_print_over_each_other(tmp_path, landscape):
    """The back page's numbers stand apart (the X and Y scales of one target used to overprint: "-4" over "+4")."""
    import itertools

    import pdfplumber

    args = ["calibrate", "--out", tmp_path / "c.pdf", *(["--landscape"] if landscape else [])]
    assert run_cli(*args).code == 0
    with pdfplumber.open(tmp_path / "c.pdf") as document:
        page = document.pages[1]
        assert (page.width > page.height) == landscape
        labels = [w for w in page.extract_words(x_tolerance=1) if w["text"].lstrip("+-−").isdigit()]
    assert len(labels) == 5 * 2 * 5  # five targets, two scales, −4 … +4 every 2 mm
    for a, b in itertools.combinations(labels, 2):
        apart = a["x1"] <= b["x0"] or b["x1"] <= a["x0"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
        assert apart, (a["text"], b["text"])


def test_a_mark_offset_inside_the_bleed_is_raised_and_said(tmp_path):
    run = run_cli("--data-dir", FIXTURES / "card_data", "--templates-dir", TEMPLATES, "build", "--out", tmp_path, "-q",
                  "--mark-offset", "1", "--trust-code")  # fmt: skip
    assert run.code == 0 and "--mark-offset 1 mm is less than the bleed (3 mm)" in run.err
    import pdfcheck

    left = (210 - 3 * POKER_W) / 2
    marks = pdfcheck.mark_lines(tmp_path / "demo" / "ships.pdf")
    left_marks = [m for m in marks if abs(m[1] - m[3]) < 0.01 and m[2] < left]
    assert left_marks and all(m[2] == pytest.approx(left - 3.0, abs=0.02) for m in left_marks)  # at the bleed


def test_hex_tiles_have_the_same_size_in_shop_pdf_and_png(probe, tmp_path):
    """The print shop's TrimBox and the 300 dpi image are the tile's true box, 57.7 × 50 mm, plus the bleed."""
    import pdfcheck
    from PIL import Image

    data, layouts = probe
    base = ["--data-dir", data, "--templates-dir", layouts, "build", "probe", "--out", tmp_path / "out", "-q"]
    assert run_cli(*base, "--format", "shop-pdf").code == 0
    box = pdfcheck.boxes(tmp_path / "out" / "probe" / "shop" / "hexes.pdf")[0]["TrimBox"]
    assert (box[2] - box[0], box[3] - box[1]) == pytest.approx((50 * 2 / 3**0.5, 50.0), abs=0.02)
    assert run_cli(*base, "--format", "png").code == 0
    (image,) = sorted((tmp_path / "out" / "probe" / "hexes").glob("h1-front*.png"))
    width, height = Image.open(image).size
    assert (width, height) == pytest.approx(((57.735 + 6) * 300 / 25.4, 56 * 300 / 25.4), abs=2)


PROBE = FIXTURES / "probe"


def _labels(pdf: Path) -> dict[str, tuple[int, float, float, float, float]]:
    """Every face label (F-id, B-id) → (page, centre x, centre y, page width, page height), in mm from the top-left;
    a label turned 180° reads back to front and is turned round again."""
    import pdfplumber

    found = {}
    with pdfplumber.open(pdf) as document:
        for number, page in enumerate(document.pages):
            width, height = float(page.width) * 25.4 / 72, float(page.height) * 25.4 / 72
            for w in page.extract_words(x_tolerance=1):
                text = w["text"] if w["text"][:2] in ("F-", "B-") else w["text"][::-1]
                if text[:2] in ("F-", "B-"):
                    x = (float(w["x0"]) + float(w["x1"])) / 2 * 25.4 / 72
                    y = (float(w["top"]) + float(w["bottom"])) / 2 * 25.4 / 72
                    found[text] = (number, x, y, width, height)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge", "off"])
def test_every_back_lands_behind_its_front(tmp_path, duplex, paper):
    """The probe game (landscape minis, flat and pointy hexes, round grid counters, fold counters, a tiled board),
    in every duplex mode on both papers: each piece's back is found where turning the sheet puts it — also on the
    sheets components of different sizes share (round counters and single-sided markers on the minis' last sheet,
    round fold tokens on the fold counters' sheet)."""
    run = run_cli("--data-dir", PROBE / "card_data", "--templates-dir", PROBE / "templates", "build", "probe",
                  "--out", tmp_path, "-q", "--duplex", duplex, "--paper", paper)  # fmt: skip
    assert run.code == 0, run.err
    checked = single = 0
    for component in ("minis", "flat-hexes", "pointy-hexes", "fold-counters"):
        labels = _labels(tmp_path / "probe" / f"{component}.pdf")
        fronts = {k[2:]: v for k, v in labels.items() if k.startswith("F-")}
        assert fronts, component
        for piece, (page, x, y, width, height) in fronts.items():
            if piece.startswith("s"):  # a single-sided marker: nothing behind it
                assert f"B-{piece}" not in labels
                single += 1
                continue
            back_page, bx, by, _, _ = labels[f"B-{piece}"]
            if component == "fold-counters":  # backs below the fold on the same page, mirrored across it
                expected = (page, x, height - y)
            elif duplex == "off":  # backs on pages of their own, where their fronts are
                assert back_page > page
                expected = (back_page, x, y)
            elif (duplex == "long-edge") != (width > height):  # turned about a vertical edge
                expected = (page + 1, width - x, y)
            else:  # turned about a horizontal edge
                expected = (page + 1, x, height - y)
            assert back_page == expected[0], (component, piece)
            assert (bx, by) == pytest.approx(expected[1:], abs=1.0), (component, piece)
            checked += 1
    assert (checked, single) == (20 + 7 + 7 + 10 + 30 + 6, 4)
    assert not (tmp_path / "probe" / "round-counters.pdf").exists()
    assert len(_labels(tmp_path / "probe" / "board.pdf")) >= 1  # the board tiles, its label on a page


def test_round_counters_get_their_cut_circle_and_fold_sheets_a_full_fold_line(tmp_path):
    import pdfcheck
    import pdfplumber

    run = run_cli("--data-dir", FIXTURES / "card_data", "--templates-dir", TEMPLATES, "build", "--out", tmp_path, "-q",
                  "--paper", "A4", "--trust-code")  # fmt: skip
    assert run.code == 0, run.err
    pdf = tmp_path / "demo" / "tokens.pdf"
    with pdfplumber.open(pdf) as document:
        page = document.pages[0]
        width, height = float(page.width), float(page.height)
        folds = [ln for ln in page.lines if abs(ln["top"] - height / 2) < 0.5 and ln["x1"] - ln["x0"] > width * 0.9]
    assert folds, "no fold line across the sheet"
    assert pdfcheck.cut_circles(pdf, 0) == 14  # one per credit token (fronts; the backs are cut with them after gluing)
    with pdfplumber.open(pdf) as document:  # each over a wider white stroke, so it shows on the token's colour too
        curves = document.pages[0].curves
    white = {(round(c["x0"], 1), round(c["top"], 1), round(c["linewidth"], 2))
             for c in curves if c.get("stroking_color") in ((1, 1, 1), (1,))}  # fmt: skip
    grey = [c for c in curves if c.get("stroking_color") == (0.3, 0.3, 0.3)]
    assert all((round(c["x0"], 1), round(c["top"], 1), round(2.5 * c["linewidth"], 2)) in white for c in grey)


def test_bare_cardgen_shows_help():
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "cardgen"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("Usage: cardgen") and run.stderr == ""


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("landscape", [False, True])
def test_calibration_x_and_y_scales_never_cross(tmp_path, paper, duplex, landscape):
    """On all eight sheets, each target's X scale (its line, ticks and numbers) and Y scale keep clear of each other:
    they used to cross at their −5 corner, the −5 tick of one through the −5 tick of the other."""
    import pdfplumber

    from cardgen.render.calibrate import SCALE_MM

    out = tmp_path / "c.pdf"
    assert run_cli("calibrate", "--paper", paper, "--duplex", duplex, "--out", out,
                   *(["--landscape"] if landscape else [])).code == 0  # fmt: skip
    with pdfplumber.open(out) as document:
        page = document.pages[1]
        targets = [((c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2) for c in page.curves]
        lines, words = page.lines, page.extract_words(x_tolerance=1)
    assert len(targets) == 5
    span = 2 * SCALE_MM * PX_PT
    for tx, ty in targets:
        near = [ln for ln in lines if abs((ln["x0"] + ln["x1"]) / 2 - tx) < 20 * PX_PT
                and abs((ln["top"] + ln["bottom"]) / 2 - ty) < 20 * PX_PT]  # fmt: skip
        upright = [ln for ln in near if ln["x0"] == pytest.approx(ln["x1"])]
        across = [ln for ln in near if ln["top"] == pytest.approx(ln["bottom"])]
        x_scale = [ln for ln in upright if ln["height"] < span / 2] + [ln for ln in across if ln["width"] > span / 2]
        y_scale = [ln for ln in across if ln["width"] < span / 2] + [ln for ln in upright if ln["height"] > span / 2]
        assert len(x_scale) == len(y_scale) == 4 * SCALE_MM + 2  # a tick every 0.5 mm and the scale's line
        numbers = [w for w in words if w["text"].lstrip("-").isdigit() and abs(w["x0"] - tx) < 20 * PX_PT
                   and abs(w["top"] - ty) < 20 * PX_PT]  # fmt: skip
        x_line, y_line = x_scale[-1]["top"], y_scale[-1]["x0"]
        x_box = _union(x_scale + [w for w in numbers if w["top"] > x_line])  # X numbers under its line
        y_box = _union(y_scale + [w for w in numbers if w["x1"] < y_line])  # Y numbers left of its line
        assert len(numbers) == 10
        apart = x_box[2] < y_box[0] or y_box[2] < x_box[0] or x_box[3] < y_box[1] or y_box[3] < x_box[1]
        assert apart, (paper, duplex, landscape, x_box, y_box)


PX_PT = 72 / 25.4  # points per mm


def _union(objects: list[dict]) -> tuple[float, float, float, float]:
    return (min(o["x0"] for o in objects), min(o["top"] for o in objects), max(o["x1"] for o in objects),
            max(o["bottom"] for o in objects))  # fmt: skip
