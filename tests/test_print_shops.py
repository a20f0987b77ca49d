"""Print-shop PDFs as the shops check them (issue 44): DriveThruCards' CMYK PDF/X-1a opened and read back — the
PDF/X keys and OutputIntent, no RGB operator, colour space or image anywhere (content streams of pages, forms and
patterns parsed here, independently of `cardgen preflight`), images at 300 dpi, total ink measured on Ghostscript's
rendered separations (tiffsep), pages back 1, front 1, back 2 …, the colours close to the RGB file's (ΔE on pages
rendered to pixels) — and `cardgen preflight` finding each kind of problem it names, with its page and place."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import FIXTURES, run_cli, write_game

GS = shutil.which("gs")
NO_GS = "Ghostscript is not installed (apt-get install ghostscript): its tiffsep device measures the inks"
INCH = 72.0
RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/Lab"}


def build(data: Path, templates: Path, out: Path, game: str, *more: str) -> None:
    run = run_cli("--data-dir", data, "--templates-dir", templates, "build", game, "--out", out, "-q", "--no-validate",
                  *more)  # fmt: skip
    assert run.code == 0, run.err


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo deck and the art fixture's starfields (nebulae, glows: transparency everywhere) for DriveThruCards,
    and the demo deck's plain RGB shop PDF to compare with."""
    out = tmp_path_factory.mktemp("shops")
    demo = (FIXTURES / "card_data", FIXTURES / "templates")
    art = (FIXTURES / "art" / "card_data", FIXTURES / "art" / "templates")
    build(*demo, out / "dtc", "demo", "--format", "shop-pdf", "--shop", "drivethrucards", "--only", "ships")
    build(*art, out / "dtc", "artlab", "--format", "shop-pdf", "--shop", "drivethrucards", "--only", "starfields")
    build(*demo, out / "rgb", "demo", "--format", "shop-pdf", "--only", "ships")
    return {
        "ships": out / "dtc" / "demo" / "shop" / "ships.pdf",
        "starfields": out / "dtc" / "artlab" / "shop" / "starfields.pdf",
        "rgb": out / "rgb" / "demo" / "shop" / "ships.pdf",
    }


def rgb_uses(path: Path) -> list[str]:
    """Every use of RGB or transparency in a PDF: colour operators, colour spaces, images, shadings, graphics
    states, in the content streams of its pages and of every form and pattern they place."""
    reader = PdfReader(path)
    found: list[str] = []
    seen: set[int] = set()

    def space_is_rgb(space) -> bool:
        space = space.get_object() if space is not None else None
        if space is None:
            return False
        if isinstance(space, list):
            family = str(space[0])
            if family == "/ICCBased":
                return int(space[1].get_object().get("/N", 0)) == 3
            if family == "/Indexed":
                return space_is_rgb(space[1])
            return family in RGB_SPACES
        return str(space) in RGB_SPACES

    def walk(stream, resources, where: str) -> None:
        resources = resources.get_object() if resources is not None else {}
        for operands, operator in ContentStream(stream, reader).operations:
            name = operator.decode("latin-1")
            if name in ("rg", "RG"):
                found.append(f"{where}: {name}")
            elif name in ("cs", "CS") and str(operands[0]) not in ("/DeviceGray", "/DeviceCMYK", "/Pattern"):
                space = resources.get("/ColorSpace", {}).get(str(operands[0]), operands[0])
                if space_is_rgb(space):
                    found.append(f"{where}: colour space {operands[0]}")
            elif name == "sh":
                shading = resources["/Shading"][str(operands[0])].get_object()
                if space_is_rgb(shading.get("/ColorSpace")):
                    found.append(f"{where}: RGB shading")
            elif name == "gs":
                state = resources["/ExtGState"][str(operands[0])].get_object()
                if float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1 or "/SMask" in state:
                    found.append(f"{where}: transparency")
            elif name == "Do":
                xobject = resources["/XObject"][str(operands[0])]
                key = xobject.idnum if hasattr(xobject, "idnum") else id(xobject)
                xobject = xobject.get_object()
                if xobject["/Subtype"] == "/Image":
                    if space_is_rgb(xobject.get("/ColorSpace")) or "/SMask" in xobject:
                        found.append(f"{where}: RGB or masked image")
                elif key not in seen:
                    seen.add(key)
                    if "/Group" in xobject:
                        found.append(f"{where}: transparency group")
                    walk(xobject, xobject.get("/Resources"), f"{where} form {operands[0]}")
            elif name == "scn" and operands and str(operands[-1]).startswith("/"):
                pattern = resources["/Pattern"][str(operands[-1])].get_object()
                if "/Shading" in pattern and space_is_rgb(pattern["/Shading"].get_object().get("/ColorSpace")):
                    found.append(f"{where}: RGB shading pattern")
                elif pattern.get("/PatternType") == 1:
                    walk(pattern, pattern.get("/Resources"), f"{where} pattern")

    for number, page in enumerate(reader.pages, start=1):
        walk(page.get_contents(), page.get("/Resources"), f"page {number}")
    return found


def test_the_drivethrucards_file_is_pdf_x1a_with_its_output_intent(shop):
    for path in (shop["ships"], shop["starfields"]):
        assert path.read_bytes()[:8] == b"%PDF-1.4"
        reader = PdfReader(path)
        assert not reader.is_encrypted
        info = reader.trailer["/Info"].get_object()
        assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
        assert info["/Trapped"] == "/False"
        intents = reader.trailer["/Root"]["/OutputIntents"]
        assert len(intents) == 1
        intent = intents[0].get_object()
        assert intent["/S"] == "/GTS_PDFX"
        assert intent["/OutputConditionIdentifier"] == "FOGRA39"
        assert intent["/RegistryName"] == "http://www.color.org"
        for page in reader.pages:
            media, bleed, trim = (tuple(float(v) for v in page[box]) for box in ("/MediaBox", "/BleedBox", "/TrimBox"))
            assert "/ArtBox" not in page  # PDF/X: TrimBox or ArtBox, not both
            assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2]
            assert trim[0] - bleed[0] == pytest.approx(INCH / 8, abs=0.01)  # 1/8 in of bleed
            assert (media[2] - media[0], media[3] - media[1]) == pytest.approx((2.75 * INCH, 3.75 * INCH), abs=0.05)


def test_no_rgb_or_transparency_anywhere_in_the_cmyk_files(shop):
    """The RGB shop PDF is full of it (so the scan finds what it looks for); the CMYK files have none, and all their
    fonts are embedded."""
    from pdfcheck import fonts

    assert {use.split(": ")[1] for use in rgb_uses(shop["rgb"])} >= {"rg", "RG"}
    for path in (shop["ships"], shop["starfields"]):
        assert rgb_uses(path) == []
        assert fonts(path) and all(embedded for _, embedded in fonts(path))


def test_images_are_cmyk_jpeg_or_flate_at_300_dpi(shop):
    reader = PdfReader(shop["starfields"])
    for page in reader.pages:
        width_in = float(page.mediabox.width) / INCH
        for image in page["/Resources"]["/XObject"].values():
            image = image.get_object()
            if image["/Subtype"] != "/Image":
                continue
            assert image["/ColorSpace"] == "/DeviceCMYK"
            assert image["/Filter"] in ("/DCTDecode", "/FlateDecode")  # no PNG (predictor) inside
            assert image["/Width"] / width_in >= 300


def separations(path: Path, tmp_path: Path, dpi: int, pages: int) -> list[np.ndarray]:
    """Each page's total ink in %, per pixel, from Ghostscript's tiffsep (one greyscale file per ink, 255 = none)."""
    subprocess.run([GS, "-q", "-sDEVICE=tiffsep", f"-r{dpi}", "-dFirstPage=1", f"-dLastPage={pages}",
                    "-o", str(tmp_path / "p%03d.tif"), str(path)], check=True)  # fmt: skip
    from PIL import Image

    totals = []
    for page in range(1, pages + 1):
        inks = [np.asarray(Image.open(tmp_path / f"p{page:03d}({ink}).tif"), dtype=np.float64)
                for ink in ("Cyan", "Magenta", "Yellow", "Black")]  # fmt: skip
        totals.append(sum(255 - ink for ink in inks) * 100 / 255)
    return totals


@pytest.mark.skipif(GS is None, reason=NO_GS)
def test_total_ink_on_the_rendered_separations_is_within_240_percent(shop, tmp_path):
    """Ghostscript renders each ink as the press would get it; no pixel carries more than DriveThruCards' 240 %,
    the darkest art (a starfield's black sky) comes close (rich black, not washed out)."""
    worst = 0.0
    for name in ("ships", "starfields"):
        folder = tmp_path / name
        folder.mkdir()
        for total in separations(shop[name], folder, 300, 4):
            worst = max(worst, float(total.max()))
            assert total.max() <= 240.0 + 0.5, name
    assert worst > 200


def lab(image) -> np.ndarray:
    from PIL import ImageCms

    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")
    pixels = np.asarray(ImageCms.applyTransform(image.convert("RGB"), transform))
    return np.stack([pixels[..., 0] * 100 / 255, pixels[..., 1].view(np.int8), pixels[..., 2].view(np.int8)], -1)


def trim_pixels(image, page, dpi: int):
    media, trim = [float(v) for v in page["/MediaBox"]], [float(v) for v in page["/TrimBox"]]
    scale = dpi / INCH
    left, top = round((trim[0] - media[0]) * scale), round((media[3] - trim[3]) * scale)
    return image.crop((left, top, left + int((trim[2] - trim[0]) * scale), top + int((trim[3] - trim[1]) * scale)))


@pytest.mark.skipif(GS is None, reason=NO_GS)
def test_cmyk_pages_look_like_the_rgb_ones(shop, tmp_path):
    """The CMYK pages rendered by Ghostscript (tiff32nc) and soft-proofed back to sRGB through the profile, against
    the RGB file's pages rendered by pdfium, inside the trim: mean ΔE76 under 3, 95th percentile under 6
    (measured 1.6 and 3.2: docs/MEASUREMENTS.md)."""
    import pypdfium2 as pdfium
    from PIL import Image

    from cardgen.render.separation import to_rgb

    dpi = 100
    subprocess.run([GS, "-q", "-sDEVICE=tiff32nc", f"-r{dpi}", "-dFirstPage=1", "-dLastPage=2",
                    "-o", str(tmp_path / "p%03d.tif"), str(shop["ships"])], check=True)  # fmt: skip
    rgb, cmyk = PdfReader(shop["rgb"]), PdfReader(shop["ships"])
    document = pdfium.PdfDocument(shop["rgb"])
    for rgb_page, cmyk_page in ((0, 1), (1, 0)):  # the RGB file's front then back; the shop's back then front
        original = trim_pixels(document[rgb_page].render(scale=dpi / INCH).to_pil(), rgb.pages[rgb_page], dpi)
        proof = to_rgb(Image.open(tmp_path / f"p{cmyk_page + 1:03d}.tif"))
        printed = trim_pixels(proof, cmyk.pages[cmyk_page], dpi)
        size = (min(original.width, printed.width), min(original.height, printed.height))
        difference = np.sqrt(((lab(original.crop((0, 0, *size))) - lab(printed.crop((0, 0, *size)))) ** 2).sum(-1))
        assert difference.mean() < 3.0 and np.percentile(difference, 95) < 6.0
    document.close()


def test_pages_go_back_1_front_1_back_2_front_2(shop):
    """DriveThruCards' order: each card's back before its front (the RGB shop file: front then back)."""
    from pdfcheck import text

    pages = len(PdfReader(shop["ships"]).pages)
    backs = [index for index in range(pages) if "Demo Skirmish" in text(shop["ships"], index)]
    assert backs == list(range(0, pages, 2))
    assert "Scout" in text(shop["ships"], 1) and "Scout" in text(shop["rgb"], 0)


def test_preflight_passes_the_shop_file_and_names_what_the_rgb_one_breaks(shop):
    run = run_cli("preflight", shop["ships"], "--shop", "drivethrucards")
    assert run.code == 0 and "nothing drivethrucards would reject" in run.out, run.out + run.err
    run = run_cli("preflight", shop["rgb"], "--shop", "drivethrucards")
    assert run.code == 1
    for expected in ("error: PDF 1.6: PDF/X-1a is PDF 1.3 or 1.4", "no GTS_PDFXVersion", "0 PDF/X OutputIntents",
                     "pages 1–12: RGB fill colour", "pages 1–12: bleed 3.00 mm, DriveThruCards asks for 3.17 mm",
                     "pages 1–12: both TrimBox and ArtBox"):  # fmt: skip
        assert expected in run.out, run.out


def problem_pdf(draw, trim: bool = True) -> bytes:
    """A one-page PDF of a poker card with 1/8 in bleed, boxes set, what `draw(canvas)` draws in it."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(2.75 * INCH, 3.75 * INCH), invariant=1)
    if trim:
        canvas.setTrimBox((9, 9, 2.625 * INCH, 3.625 * INCH))
        canvas.setBleedBox((0, 0, 2.75 * INCH, 3.75 * INCH))
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def findings(data: bytes) -> list[str]:
    from cardgen.render.preflight import preflight
    from cardgen.render.shops import SHOPS

    return [f"{'error' if f.error else 'warning'}: {f}" for f in preflight(data, SHOPS["drivethrucards"])]


def test_preflight_names_ink_over_the_limit_and_where():
    def draw(canvas):
        canvas.setFillColorCMYK(0.9, 0.8, 0.8, 1.0)
        canvas.rect(36, 72, 50, 50, stroke=0, fill=1)

    found = findings(problem_pdf(draw))
    assert any(f.startswith("error: page 1: colour C90 M80 Y80 K100 = 350 % ink, over 240 %") for f in found), found


def test_preflight_names_a_low_resolution_image_fonts_not_embedded_and_text_near_the_cut():
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    def draw(canvas):
        canvas.drawImage(ImageReader(Image.new("CMYK", (100, 100), (0, 0, 0, 60))), 36, 36, INCH, INCH)
        canvas.setFont("Helvetica", 8)  # a standard font: never embedded
        canvas.drawString(10, 100, "Edge")  # 1 pt (0.35 mm) inside the trim's left edge

    found = findings(problem_pdf(draw))
    assert any("an image at 100 dpi (100 × 100 px), under 300" in f for f in found), found
    assert any("font /Helvetica is not embedded" in f for f in found), found
    assert any(f.startswith("error: page 1: text 'Edge' 0.") and "(the cut drifts 1.6 mm)" in f for f in found), found


def test_text_in_the_safe_zone_is_a_warning_and_a_page_without_trim_box_an_error():
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from conftest import REPO

    pdfmetrics.registerFont(TTFont("NotoSans-Preflight", REPO / "fonts" / "NotoSans-Regular.ttf"))

    def draw(canvas):
        canvas.setFont("NotoSans-Preflight", 8)
        canvas.drawString(9 + 2.5 * 72 / 25.4, 100, "Safe")  # 2.5 mm inside the trim: past the cut's drift

    on_page = [finding for finding in findings(problem_pdf(draw)) if "text " in finding]
    assert len(on_page) == 1, on_page
    assert on_page[0].startswith("warning: page 1: text 'Safe' 2.") and "in the 3.2 mm safe zone" in on_page[0]
    assert "error: page 1: no TrimBox (the page)" in findings(problem_pdf(draw, trim=False))


def test_a_shop_build_that_the_shop_would_reject_fails_and_writes_nothing(tmp_path):
    """Text at the card's very edge: the DriveThruCards build stops with the page and the text, exit 1."""
    game = ("id: edge\ntitle: Edge\nplayers: [2, 2]\nrulebook: {title: none}\nsettings: {card_size: poker, bleed: 3}\n"
            "card_types:\n  c: {fields: {name: {type: str}}}\n"
            "components:\n  - {id: cards, kind: deck, title: Cards, file: cards.yaml}\n")  # fmt: skip
    cards = "type: c\nfront: front\ncards:\n  - {id: one, name: One}\n"
    front = '<face bg="white"><text x="0.2" y="40" w="30" h="8" size="9">{{ card.name }}</text></face>\n'
    write_game(tmp_path, "edge", {"game.yaml": game, "cards.yaml": cards}, {"front.xml.j2": front})
    run = run_cli(
        "--data-dir",
        tmp_path / "card_data",
        "--templates-dir",
        tmp_path / "templates",
        "build",
        "edge",
        "--out",
        tmp_path / "out",
        "-q",
        "--no-validate",
        "--format",
        "shop-pdf",
        "--shop",
        "drivethrucards",
    )
    assert run.code == 1, run.err
    assert "DriveThruCards would reject it: page 1: text 'One'" in run.err, run.err
    assert not (tmp_path / "out" / "edge" / "shop" / "cards.pdf").exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--format", "shop-pdf", "--shop", "tgc"], "--shop tgc (The Game Crafter) takes --format shop-images"),
        (["--format", "png", "--cmyk"], "--cmyk is for --format pdf or shop-pdf"),
        (["--format", "shop-images"], "--format shop-images needs --shop (tgc, mpc)"),
    ],
)
def test_shop_options_that_do_not_go_together_are_refused(tmp_path, options, message):
    run = run_cli("--data-dir", FIXTURES / "card_data", "--templates-dir", FIXTURES / "templates", "build", "demo",
                  "--out", tmp_path, *options)  # fmt: skip
    assert run.code == 2 and message in run.err, run.err


def test_cmyk_print_sheets_are_pdf_x_too(tmp_path):
    """`--cmyk` on the cut-ready sheets: the same conversion; a sheet's TrimBox is its paper."""
    build(FIXTURES / "card_data", FIXTURES / "templates", tmp_path, "demo", "--only", "ships", "--cmyk")
    path = tmp_path / "demo" / "ships.pdf"
    reader = PdfReader(path)
    assert reader.trailer["/Info"]["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert rgb_uses(path) == []
    assert all(tuple(page["/TrimBox"]) == tuple(page["/MediaBox"]) for page in reader.pages)
    run = run_cli("preflight", path)
    assert run.code == 0, run.out


@pytest.mark.parametrize(("shop_id", "pixels", "first"), [("tgc", (825, 1125), "scout-front.png"),
                                                         ("mpc", (822, 1122), "001-scout-front.png")])  # fmt: skip
def test_shop_image_packages_have_the_shops_names_and_sizes(tmp_path, shop_id, pixels, first):
    """The Game Crafter: 825 × 1125 px for a poker card (300 dpi with 1/8 in bleed); MakePlayingCards 822 × 1122;
    each face once, named as the shop's uploader takes them, with counts.csv giving each card's copies."""
    from PIL import Image

    build(FIXTURES / "card_data", FIXTURES / "templates", tmp_path, "demo", "--format", "shop-images", "--shop",
          shop_id, "--only", "ships")  # fmt: skip
    folder = tmp_path / "demo" / "shop-images" / "ships"
    images = sorted(folder.glob("*.png"))
    assert first in [image.name for image in images] and len(images) == 6
    assert {Image.open(image).size for image in images} == {pixels}
    counts = (folder / "counts.csv").read_text().splitlines()
    assert counts[0] == "card,count,front,back" and counts[1].startswith(f"scout,3,{first}")


def test_tabletop_playground_package_has_card_templates_and_their_textures(tmp_path):
    import json

    from PIL import Image

    build(FIXTURES / "card_data", FIXTURES / "templates", tmp_path, "demo", "--format", "ttp")
    package = tmp_path / "demo" / "ttp"
    templates = sorted((package / "Templates").glob("*.json"))
    assert [t.name for t in templates] == ["board-1.json", "ships-1.json", "tokens-1.json"]
    for path in templates:
        template = json.loads(path.read_text())
        assert template["Type"] == "Card" and len(template["GUID"]) == 32
        int(template["GUID"], 16)
        front = Image.open(package / "Textures" / template["FrontTexture"])
        assert front.width <= 4096 and front.height <= 4096
        assert template["NumHorizontal"] * template["NumVertical"] >= len(template["CardNames"])
        assert template["BackIndex"] in (-2, -3)
        if template["BackTexture"]:
            assert (package / "Textures" / template["BackTexture"]).is_file()
    ships = json.loads((package / "Templates" / "ships-1.json").read_text())
    assert (ships["Width"], ships["Height"]) == (6.35, 8.89)  # centimetres
    assert ships["Indices"] == [0, 0, 0, 1, 1, 2]  # three Scouts, two Frigates, one Dreadnought
    assert ships["CardNames"] == {"0": "Scout", "1": "<Ships & Stations>", "2": "Dreadnought"}


def test_the_print_guides_name_which_file_goes_to_which_shop(shop):
    """Beside the DriveThruCards files, a guide naming each file and what it orders; the table of shops lists
    every deck's file for each shop."""
    guide = (shop["ships"].parent / "PRINT.md").read_text()
    assert "# Demo Skirmish for DriveThruCards" in guide
    assert "| ships.pdf | Ship deck: 6 cards | 12 |" in guide
    assert "| DriveThruCards | shop/ships.pdf | one PDF per deck, CMYK PDF/X-1a" in guide
    assert "| The Game Crafter | shop-images/ships/ |" in guide and "| MakePlayingCards | shop-images/ships/ |" in guide
    assert (shop["ships"].parent / "print-guide.pdf").is_file()


def test_preflight_says_a_problem_of_every_page_once_with_its_pages():
    """A deck whose every page has RGB is one line naming the pages, not one line per page; a finding on one page
    stays as it was, and the whole document's findings are never merged."""
    from cardgen.render.preflight import Finding, grouped

    found = [Finding(None, "no GTS_PDFXVersion"), Finding(None, "Trapped is not set")]
    found += [Finding(page, "RGB fill colour", f"{page}.0 mm from the left", count=3) for page in (1, 2, 3, 5)]
    found += [Finding(page, "bleed 3.00 mm", "the page's edges") for page in (1, 2, 3, 5)]
    found += [Finding(4, "text 'One' 0.2 mm inside the trim", "left")]
    lines = [str(finding) for finding in grouped(found)]
    assert lines == [
        "no GTS_PDFXVersion",
        "Trapped is not set",
        "pages 1–3, 5: RGB fill colour — 12 times, first (page 1: 1.0 mm from the left)",
        "pages 1–3, 5: bleed 3.00 mm (the page's edges)",
        "page 4: text 'One' 0.2 mm inside the trim (left)",
    ]
