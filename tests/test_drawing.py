"""Drawing like a designer: `<path>` with SVG path data, gradient fills, `<g clip>` — measured on the PDF a build
writes from the demonstration face in tests/fixtures/drawing (its content stream: curves, shadings, clips, no
images; its pixels rendered), and every misuse reported at its `.j2` line."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pdfcheck
import pytest
from pypdf import PdfReader

from cardgen.render import svgpath

from conftest import FIXTURES, run_cli

DRAWING = FIXTURES / "drawing"
BLEED = 3.0


def cli(root: Path, *args: str | Path):
    return run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", *args)


def build(root: Path, out: Path) -> Path:
    run = cli(root, "build", "drawing", "--format", "shop-pdf", "--out", out, "-q", "--no-validate")
    assert run.code == 0, run.err
    return out / "drawing" / "shop" / "cards.pdf"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(DRAWING, tmp_path_factory.mktemp("drawing"))


def content(path: Path, page: int = 0) -> tuple[str, list[str]]:
    """A page's drawing operators (its own and its forms') and the subtypes of every XObject it uses."""
    reader = PdfReader(path)
    streams, subtypes = [], []

    def walk(resources) -> None:
        for obj in (resources or {}).get("/XObject", {}).values():
            obj = obj.get_object()
            subtypes.append(obj["/Subtype"])
            if obj["/Subtype"] == "/Form":
                streams.append(obj.get_data().decode("latin-1"))
                walk(obj.get("/Resources"))

    pdf_page = reader.pages[page]
    streams.append(pdf_page.get_contents().get_data().decode("latin-1"))
    walk(pdf_page["/Resources"])
    return "\n".join(streams), subtypes


def face_pixel(image, x_mm: float, y_mm: float, dpi: int) -> tuple[int, int, int]:
    return image.getpixel((round((x_mm + BLEED) / 25.4 * dpi), round((y_mm + BLEED) / 25.4 * dpi)))


def test_paths_gradients_and_clips_stay_vector(shop: Path):
    stream, subtypes = content(shop)
    assert "/Image" not in subtypes  # nothing rasterised
    assert len(re.findall(r"\bsh\b", stream)) == 6  # the six gradients are shadings
    assert len(re.findall(r"\bW\*? n\b", stream)) >= 9  # the trim, the four <g> clips (twice), the gradients' clips
    assert len(re.findall(r" c\b", stream)) >= 20  # quadratic, cubic and arc segments as cubic curves
    shadings = [s.get_object() for s in PdfReader(shop).pages[0]["/Resources"]["/Shading"].values()]
    assert sorted(int(s["/ShadingType"]) for s in shadings) == [2, 2, 2, 2, 2, 3]  # axial, and one radial


def test_two_builds_are_byte_identical(shop: Path, tmp_path: Path):
    assert build(DRAWING, tmp_path).read_bytes() == shop.read_bytes()


def test_the_face_is_drawn_where_the_layout_says(shop: Path):
    dpi = 100
    image = pdfcheck.render(shop, 0, dpi)
    gold = face_pixel(image, 31.75, 30, dpi)  # the radial gradient's centre, inside the round clip
    assert gold[0] > 200 and 150 < gold[1] < 200 and gold[2] < 80, gold
    outside = face_pixel(image, 20, 48, dpi)  # the clipped rectangle runs on to y 60; the circle ends at 46
    assert outside[2] > outside[0], outside  # the background's blue, not the clipped red-orange
    hexagon, corner = face_pixel(image, 13, 60, dpi), face_pixel(image, 6, 53, dpi)  # centre; outside a flat corner
    assert hexagon[0] > 200 and hexagon[2] < 80, hexagon
    assert corner[2] > corner[0], corner
    top, bottom = face_pixel(image, 2, 2, dpi), face_pixel(image, 2, 86, dpi)  # linear(90): dark bottom to light top
    assert sum(top) > sum(bottom) + 200, (top, bottom)
    triangle, beside = face_pixel(image, 32, 63.5, dpi), face_pixel(image, 25, 66, dpi)  # path(…) clip: a triangle
    assert triangle[0] > 200 and triangle[2] < 80, triangle
    assert beside[2] > beside[0], beside
    drop = face_pixel(image, 30, 18, dpi)  # the arc's round end of the white drop
    assert min(drop) > 230, drop
    frame, hole = face_pixel(image, 8, 75, dpi), face_pixel(image, 20, 79, dpi)  # evenodd: a frame with a hole
    assert sum(frame) > sum(hole) + 60, (frame, hole)


# The path reader on its own.


def test_every_command_absolute_and_relative_with_implicit_repeats():
    ops = svgpath.parse("M1 2L3 4 5 6h1v-1zm1,1 2,2H0V0")
    assert ops == (
        ("move", (1, 2)), ("line", (3, 4)), ("line", (5, 6)), ("line", (6, 6)), ("line", (6, 5)), ("close", ()),
        ("move", (2, 3)), ("line", (4, 5)), ("line", (0, 5)), ("line", (0, 0)),
    )  # fmt: skip
    assert svgpath.parse("M1.5e-2-.5.5,1") == (("move", (0.015, -0.5)), ("line", (0.5, 1.0)))
    cubic = svgpath.parse("M0 0 C1 1 2 2 3 3 S5 5 6 6 s1 1 2 2 c0 0 1 1 1 0")
    assert cubic[2] == ("curve", (4, 4, 5, 5, 6, 6))  # S mirrors the last control point
    assert cubic[3] == ("curve", (7, 7, 7, 7, 8, 8)) and cubic[4] == ("curve", (8, 8, 9, 9, 9, 8))
    quadratic = svgpath.parse("M0 0 Q3 3 6 0 T12 0 q3 3 6 0")
    assert quadratic[1] == ("curve", (2, 2, 4, 2, 6, 0))  # raised to a cubic: controls 2/3 of the way
    assert quadratic[2][1][-2:] == (12, 0) and quadratic[2][1][1] == pytest.approx(-2)  # T mirrors Q
    assert quadratic[3][1] == pytest.approx((14, 2, 16, 2, 18, 0))


@pytest.mark.parametrize(
    ("d", "end", "through"),
    [
        ("M0 0 A5 5 0 0 1 10 0", (10, 0), (5, -5)),  # sweep 1: clockwise on the page (y down), over the top
        ("M0 0 A5 5 0 0 0 10 0", (10, 0), (5, 5)),
        ("M2 0 a5 5 0 1010 0", (12, 0), (7, 5)),  # flags written together with the next number; relative
        ("M0 0 A1 1 0 0 1 10 0", (10, 0), (5, -5)),  # radii too small: scaled up to reach
        ("M0 0 A10 10 0 1 1 0 10", (0, 10), (10 + 75**0.5, 5)),  # the large arc: 300° round the right-hand centre
        ("M0 0 A10 5 90 0 1 0 20", (0, 20), (5, 10)),  # an ellipse turned 90°: tall, 5 wide
    ],
)
def test_arcs_become_cubics_through_the_right_points(d: str, end: tuple[float, float], through: tuple[float, float]):
    ops = svgpath.parse(d)
    assert all(name == "curve" for name, _ in ops[1:])
    assert ops[-1][1][-2:] == end
    points = [values[-2:] for _, values in ops]
    assert any(math.dist(p, through) < 1e-9 for p in points), points


def test_arc_segments_stay_on_the_ellipse():
    ops = svgpath.parse("M10 0 A10 10 0 1 1 -10 0 A10 10 0 1 1 10 0")
    start = (10.0, 0.0)
    for _, (x1, y1, x2, y2, x, y) in ops[1:]:
        for t in (0.25, 0.5, 0.75):  # points along each cubic lie on the circle within 0.03 %
            bx = (1 - t) ** 3 * start[0] + 3 * (1 - t) ** 2 * t * x1 + 3 * (1 - t) * t**2 * x2 + t**3 * x
            by = (1 - t) ** 3 * start[1] + 3 * (1 - t) ** 2 * t * y1 + 3 * (1 - t) * t**2 * y2 + t**3 * y
            assert abs(math.hypot(bx, by) - 10) < 0.003
        start = (x, y)


@pytest.mark.parametrize(
    ("d", "message"),
    [
        ("", "empty path data"),
        ("L1 2", "path data must start with M or m at character 1 ('L1 2')"),
        ("M1", "expected a number at its end"),
        ("M1 2 X3", "expected a path command (M L H V C S Q T A Z) or a number at character 6 ('X3')"),
        ("M1 2 Z 3", "at character 8 ('3')"),
        ("M0 0 A5 5 0 2 1 3 3", "expected an arc flag (0 or 1) at character 13 ('2 1 3 3')"),
        ("M 1e999 0", "expected a finite number at character 3"),
        ("M0 0 L1 2 3", "expected a number at its end"),
    ],
)
def test_malformed_path_data_names_the_character(d: str, message: str):
    with pytest.raises(svgpath.PathDataError) as caught:
        svgpath.parse(d)
    assert message in str(caught.value)


# Misuse, located at the layout's line.


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    shutil.copytree(DRAWING, tmp_path / "drawing")
    return tmp_path / "drawing"


FRONT = "templates/drawing/front.xml.j2"


def preview_error(root: Path) -> str:
    run = cli(root, "preview", "drawing", "frigate", "--out", root / "face.png")
    assert run.code == 2 and run.exception is None, (run.code, run.err, run.exception)
    assert len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err, run.err
    return run.err


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('d="M20 18 l6 -3', 'd="M20 18 l6 -3 k', ":14: drawing: cards: card 'frigate' front: <path d='M20 18 l6 -3 k "
         "a4 4 0 1 1 0 6 Z'>: expected a path command (M L H V C S Q T A Z) or a number at character 14 ('k a4 4 0 "),
        ('Q16 30 32 40', 'Q16 30 32', ":5: drawing: cards: card 'frigate' front: <path d='M0 42 Q16 30 32 T63.5 36 V60 "
         "H0 Z'>: expected a number at character 17 ('T63.5 36 V60 H0 ')"),
        ('fill-rule="evenodd"', 'fill-rule="odd"', ":15: drawing: cards: card 'frigate' front: <path "
         "fill-rule='odd'>: expected one of nonzero, evenodd, got 'odd'"),
        ("linear(0, gold, #c04020)", "linear(0, gold)", ":9: drawing: cards: card 'frigate' front: <rect "
         "fill='linear(0, gold)'>: linear() needs at least two colours"),
        ("linear(45, sky, white)", "linear(45, sky, whit)", ":11: drawing: cards: card 'frigate' front: <rect "
         "fill='linear(45, sky, whit)'>: 'whit' is not a colour with an optional position"),
        ("sky 70%", "sky 170%", ":2: drawing: cards: card 'frigate' front: <rect fill='linear(90, night, sky 170%, "
         "#9fc3e8)'>: a colour's position lies between 0 and 1 (0% and 100%), got '170%'"),
        ("#c04020 40%, night", "#c04020 40%, night 0.2", ":4: drawing: cards: card 'frigate' front: <rect "
         "fill='radial(gold, #c04020 40%, night 0.2)'>: the colours' positions must not go down"),
        ("linear(90, night,", "conic(90, night,", ":2: drawing: cards: card 'frigate' front: <rect fill='conic(90, "
         "night, sky 70%, #9fc3e8)'>: expected a colour, linear(ANGLE, COLOUR, COLOUR, …) or radial(COLOUR, "
         "COLOUR, …)"),
        ('clip="circle(31.75,30,20)"', 'clip="circle(31.75,30)"', ":3: drawing: cards: card 'frigate' front: <g "
         "clip='circle(31.75,30)'>: circle() takes cx,cy,r, got '31.75,30'"),
        ('clip="hexagon(13,60,8)"', 'clip="hexagon(13,60,8,sideways)"', ":9: drawing: cards: card 'frigate' front: <g "
         "clip='hexagon(13,60,8,sideways)'>: expected one of flat, pointy, got 'sideways'"),
        ('clip="rect(-8,-8,16,16,3)"', 'clip="rect(-8,-8,16,-16)"', ":10: drawing: cards: card 'frigate' front: <g "
         "clip='rect(-8,-8,16,-16)'>: rect(): sizes cannot be negative, got '-8,-8,16,-16'"),
        ('clip="path(M24 52 L40 52 L32 68 Z)"', 'clip="path(M24 52 L40)"', ":13: drawing: cards: card 'frigate' "
         "front: <g clip='path(M24 52 L40)'>: expected a number at its end"),
        ('clip="circle(31.75,30,20)"', 'clip="star(31.75,30,20)"', ":3: drawing: cards: card 'frigate' front: <g "
         "clip='star(31.75,30,20)'>: expected circle(cx,cy,r), hexagon(cx,cy,r[,orient]), rect(x,y,w,h[,radius]) "
         "or path(d)"),
    ],
)  # fmt: skip
def test_misuse_is_named_at_the_layout_line(broken: Path, old: str, new: str, expected: str):
    text = (broken / FRONT).read_text()
    assert old in text
    (broken / FRONT).write_text(text.replace(old, new, 1))
    err = preview_error(broken)
    assert f"front.xml.j2{expected}" in err, err


def test_colours_with_alpha_fade_a_gradient_through_a_soft_mask(shop: Path):
    """Opacity per colour: a luminosity soft mask whose grey shading runs through the alphas (PDF shadings have no
    alpha of their own) — the sunset fades into the night at the circle's foot, vector all the way."""
    reader = PdfReader(shop)
    states = reader.pages[0]["/Resources"]["/ExtGState"]
    masks = [state["/SMask"] for state in states.values() if "/SMask" in state]
    assert len(masks) == 2  # the sunset's fade and the frame's
    for mask in masks:
        assert mask["/S"] == "/Luminosity"
        group = mask["/G"].get_object()
        assert group["/Group"]["/S"] == "/Transparency" and group.get_data().strip() == b"/Mask sh"
        assert int(group["/Resources"]["/Shading"]["/Mask"]["/ShadingType"]) == 2
        assert group["/Resources"]["/Shading"]["/Mask"]["/ColorSpace"] == "/DeviceGray"
    image = pdfcheck.render(shop, 0, 100)
    night = (16, 22, 43)
    foot, middle = face_pixel(image, 31.75, 49, 100), face_pixel(image, 40, 40, 100)  # alpha 1 at 50, 0 at 36
    assert all(abs(a - b) < 12 for a, b in zip(foot, night, strict=True)), foot
    assert sum(middle) > sum(night) + 60, middle  # part way: the sunset shows through


# Text effects: outline, glow, shadow, letter spacing, small caps.


def test_text_effects_are_drawn_as_text(shop: Path):
    import pdfplumber

    stream, _ = content(shop)
    assert "2 Tr" in stream and "1 Tr" in stream  # the outline (fill, then stroke) and the glow's strokes
    assert "1.2 Tc" in stream  # letter spacing, in points
    with pdfplumber.open(shop) as pdf:
        chars = pdf.pages[0].chars
        title = [c for c in chars if c["text"] in "FRIGATECLS" and round(c["size"], 1) in (15, 11.7)]
        capital = [c for c in title if c["text"] == "F" and round(c["size"], 1) == 15]
        small = [c for c in title if round(c["size"], 1) == 11.7]
        assert capital and "".join(c["text"] for c in small[:6]) == "RIGATE"  # small capitals, 0.78 × the size
        glyphs = [c for c in chars if c["text"] == "S" and round(c["size"], 1) == 11]
        shadow, text = glyphs[0], glyphs[-1]  # the shadow first, then the text over it
        assert abs(shadow["x0"] - text["x0"] - 0.5 * 72 / 25.4) < 0.01
        assert abs(shadow["top"] - text["top"] - 0.5 * 72 / 25.4) < 0.01


def test_letter_spacing_and_small_caps_are_measured_when_fitting():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from cardgen.render.textfit import TextBox, fit_text

    def fit(spacing: float, width: float, small_caps: bool = False):
        box = TextBox("Frigate", "Helvetica", None, width, 20, 12, 6, 1.2, "left", spacing, small_caps, True)
        return fit_text(box)

    plain = stringWidth("Frigate", "Helvetica", 12)
    spaced = fit(2, 200)
    assert spaced.size == 12 and spaced.line_width == pytest.approx(plain + 2 * 6)  # six gaps for seven letters
    tight = fit(2, plain + 6)  # room for the letters and half the spacing: shrinks until the spacing fits too
    assert tight.fits and tight.size < 12 and tight.line_width <= plain + 6
    assert fit(20, plain).overflow_mm > 0  # the spacing alone is wider than the box: reported, not drawn over
    caps = fit(0, 200, small_caps=True)
    assert [size for _, size in caps.runs] == [12, pytest.approx(12 * 0.78)]
    assert caps.runs[1][0] == "RIGATE"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("{{ card.name }} class", "<b>{{ card.name }}</b> class", ":18: drawing: cards: card 'frigate' front: "
         "title: `spacing`, `small-caps` and `shadow` set one plain line, without inline markup"),
        ('shadow-offset="0.5,0.5"', 'shadow-offset="0.5"', ":19: drawing: cards: card 'frigate' front: <text "
         "shadow-offset='0.5'>: expected 'dx,dy', got '0.5'"),
        ('small-caps="true"', 'small-caps="maybe"', ":18: drawing: cards: card 'frigate' front: <text "
         "small-caps='maybe'>: expected true or false, got 'maybe'"),
        ('glow="#ffffff90"', 'glow="shine"', ":18: drawing: cards: card 'frigate' front: <text glow='shine'>: not a "
         "colour"),
    ],
)  # fmt: skip
def test_text_effect_misuse_is_named_at_the_layout_line(broken: Path, old: str, new: str, expected: str):
    text = (broken / FRONT).read_text()
    assert old in text
    (broken / FRONT).write_text(text.replace(old, new, 1))
    err = preview_error(broken)
    assert f"front.xml.j2{expected}" in err, err
