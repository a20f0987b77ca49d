"""Generated art (`<art>`, cardgen/render/art/): the same bytes from every build, other art from another seed (the
card's id by default), vector where promised, a nebula embedded once however many faces share it, and misuse named
at the layout's line. tests/fixtures/art is a game showing every generator on several seeds (its pages were
rendered and looked at); a smaller game made here isolates the seeds."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.render.art import Box, starfield
from cardgen.render.markup import with_card

from conftest import FIXTURES, REPO, run_cli, write_game

ART = FIXTURES / "art"
KINDS = ("planet", "ship", "sigil", "starfield")
GAME = """id: seeds
title: Seeds
players: [2, 2]
rulebook: {title: none}
settings: {card_size: poker, bleed: 3, back: back}
card_types:
  art: {fields: {kind: {type: str}, seed: {type: str, required: false, default: ""}}}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
"""
# per kind: two cards drawn from their own ids, and a third given the first one's id as its seed
CARDS = "type: art\nfront: front\ncards:\n" + "".join(
    f"  - {{id: {kind}-a, kind: {kind}}}\n  - {{id: {kind}-b, kind: {kind}}}\n"
    f"  - {{id: {kind}-c, kind: {kind}, seed: {kind}-a}}\n"
    for kind in KINDS
)
FRONT = """<face bg="white">
  <art kind="{{ card.kind }}" x="2" y="2" w="59.5" h="84"{% if card.seed %} seed="{{ card.seed }}"{% endif %}
       {%- if card.kind == "starfield" %} nebula="0"{% endif %}/>
</face>
"""
BACK = """<face bg="black">
  <art kind="starfield" seed="back" x="0" y="0" w="{{ face.width }}" h="{{ face.height }}" bleed="true"/>
</face>
"""


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_game(tmp_path_factory.mktemp("seeds"), "seeds", {"game.yaml": GAME, "cards.yaml": CARDS},
                      {"front.xml.j2": FRONT, "back.xml.j2": BACK})  # fmt: skip


def build(root: Path, out: Path, *more: str) -> None:
    run = run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", "build", *more,
                  "--out", out, "-q", "--no-validate")  # fmt: skip
    assert run.code == 0, run.err


@pytest.fixture(scope="module")
def seeds_shop(seeds: Path) -> Path:
    """The seeds deck as a shop PDF: one face a page, each front then its back."""
    build(seeds, seeds / "out", "seeds", "--format", "shop-pdf")
    return seeds / "out" / "seeds" / "shop" / "cards.pdf"


def fronts(path: Path) -> dict[str, tuple[bytes, dict]]:
    """Each front page's content stream and resources, by card id (the shop PDF's order: the cards file's). The
    names of shadings are numbered through the document, so they are written as `/Sh` alone."""
    ids = [f"{kind}-{n}" for kind in KINDS for n in "abc"]
    pages = PdfReader(path).pages
    streams = [re.sub(rb"/Sh\d+ sh", b"/Sh sh", pages[2 * i].get_contents().get_data()) for i in range(len(ids))]
    return {card: (streams[i], pages[2 * i]["/Resources"]) for i, card in enumerate(ids)}


def image_xobjects(path: Path) -> int:
    """How many images the PDF embeds (each is one object, however many pages or forms draw it)."""
    return len(re.findall(rb"/Subtype\s*/Image", path.read_bytes()))


def test_each_seed_draws_its_own_art_and_a_seed_given_again_the_same(seeds_shop: Path):
    """The card's id is the seed unless the layout gives one: cards a and b differ in every kind, and card c, given
    card a's id as its seed, draws exactly card a's art."""
    streams = fronts(seeds_shop)
    for kind in KINDS:
        a, b, c = (streams[f"{kind}-{n}"][0] for n in "abc")
        assert a != b, kind
        assert a == c, kind
        assert len(a) > 2000, kind  # art, not an empty face


def test_planets_ships_sigils_and_a_starfield_without_nebula_are_vector(seeds_shop: Path):
    """No image on any of these faces: paths (and the planet's shading) only."""
    for card, (stream, resources) in fronts(seeds_shop).items():
        xobjects = resources.get("/XObject", {})
        assert not any(xobjects[name].get_object().get("/Subtype") == "/Image" for name in xobjects), card
        assert re.search(rb"\b(f|f\*|B)\n", stream), card  # filled paths
        if card.startswith("planet"):
            assert b" sh\n" in stream and "/Shading" in resources, card  # the sphere's radial gradient
        if card.startswith(("planet", "ship", "sigil")):
            assert re.search(rb" c\n", stream) or card.startswith("sigil"), card  # Bézier curves


def test_a_nebula_shared_by_every_back_is_embedded_once(seeds_shop: Path, seeds: Path):
    """Twelve backs draw one nebula: one image in the shop PDF (each back its own page) and in the print PDF. (Equal
    faces are drawn once, as a form; faces that differ but share a nebula are the artlab fixture's test below.)"""
    assert image_xobjects(seeds_shop) == 1
    build(seeds, seeds / "print", "seeds")
    assert image_xobjects(seeds / "print" / "seeds" / "cards.pdf") == 1


def test_a_nebula_is_made_once_per_distinct_art_and_size():
    palette = ((0.0, 0.0, 0.1), (0.5, 0.2, 0.6), (1.0, 0.9, 0.9))
    before = starfield.made
    first = starfield.nebula_image("made-once", palette, 0.5, 40, 60)
    assert starfield.nebula_image("made-once", palette, 0.5, 40, 60) is first
    assert starfield.made == before + 1
    other = starfield.nebula_image("made-once", palette, 0.5, 41, 60)  # another size is another raster
    assert other is not first and starfield.made == before + 2


def test_a_nebula_is_embedded_as_its_jpeg_without_being_decoded():
    """A nebula (a JPEG) is named in the PDF by its compressed bytes and embedded as they are: never decoded, so a
    board's nebula costs its JPEG, not the 100 MB of its pixels, while a build keeps it. Drawn twice it is one image;
    another nebula is another."""
    import io

    from pypdf import PdfReader

    from cardgen.render.icons import IconCanvas

    palette = ((0.0, 0.0, 0.1), (0.5, 0.2, 0.6), (1.0, 0.9, 0.9))
    first = starfield.nebula_image("embedded-as-is", palette, 0.5, 120, 80)
    second = starfield.nebula_image("embedded-as-is", palette, 0.5, 121, 80)
    buffer = io.BytesIO()
    canvas = IconCanvas(buffer, invariant=1)
    assert canvas.drawImage(first, 10, 10, 120, 80) == (120, 80)
    canvas.drawImage(first, 200, 10, 60, 40)
    canvas.drawImage(second, 10, 200, 121, 80)
    canvas.save()
    assert first._data is None and second._data is None  # reportlab's reader decodes into _data
    images = [
        xobject.get_object()
        for xobject in PdfReader(buffer).pages[0]["/Resources"]["/XObject"].values()
        if xobject.get_object()["/Subtype"] == "/Image"
    ]
    assert len(images) == 2 and all("/DCTDecode" in image["/Filter"] for image in images)
    jpeg = first.jpeg_fh().read()
    assert any(image.get_data() == jpeg for image in images)  # the JPEG's own bytes


def test_a_nebula_is_placed_where_reportlab_places_an_image():
    """Sizes left out or negative place the JPEG as reportlab's own `drawImage` does (a negative size shifts the
    image, it does not mirror it): the same pixels."""
    import io

    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.icons import IconCanvas

    palette = ((0.0, 0.0, 0.1), (0.5, 0.2, 0.6), (1.0, 0.9, 0.9))
    pages = []
    for kind in (IconCanvas, Canvas):
        image = starfield.nebula_image("placed-as-reportlab-does", palette, 0.8, 60, 40)
        buffer = io.BytesIO()
        canvas = kind(buffer, invariant=1)
        canvas.drawImage(image, 100, 100, -60, 40)
        canvas.drawImage(image, 300, 300, None, -40)
        canvas.drawImage(image, 200, 500)
        canvas.save()
        pages.append(pdfium.PdfDocument(buffer.getvalue())[0].render(scale=1).to_numpy())
    assert pages[0].min() < 128  # the nebulae are on the page
    assert (pages[0] == pages[1]).all()


def test_builds_in_other_processes_are_byte_identical(seeds: Path, tmp_path: Path):
    """Two builds, each in its own process with its own string-hash salt, write the same bytes: the generators never
    use Python's salted hash() or anything else that changes between runs."""
    outputs = []
    for salt in ("1", "2"):
        out = tmp_path / salt
        env = {**os.environ, "PYTHONHASHSEED": salt}
        subprocess.run(
            [sys.executable, "-m", "cardgen", "--data-dir", str(seeds / "card_data"), "--templates-dir",
             str(seeds / "templates"), "build", "seeds", "--out", str(out), "-q", "--no-validate"],
            check=True, env=env, cwd=REPO, capture_output=True,
        )  # fmt: skip
        outputs.append((out / "seeds" / "cards.pdf").read_bytes())
    assert outputs[0] == outputs[1]
    assert b"/Subtype /Image" in outputs[0]  # the raster went through it too


def test_art_without_a_seed_is_told_the_card(seeds: Path):
    """`with_card` gives `<art>` the card's id only where the layout wrote no seed (so faces that share a seeded
    background stay one face); a `seed=` inside another attribute's value does not count."""
    assert with_card('<face><art kind="planet" x="0"/></face>', "a&b") == (
        '<face><art card="a&amp;b" kind="planet" x="0"/></face>'
    )
    seeded = '<face><art kind="planet" seed="x"/><art  seed = "y" kind="ship"/></face>'
    assert with_card(seeded, "c") == seeded
    quoted = "<face><art palette=\"a seed=b\" kind='sigil'></art></face>"
    assert with_card(quoted, "c").startswith('<face><art card="c"')
    assert with_card('<face><artist x="1"/></face>', "c") == '<face><artist x="1"/></face>'
    own = '<face><art card="own" kind="sigil"/></face>'
    assert with_card(own, "c") == own


def test_a_board_sized_nebula_is_made_at_a_bounded_size():
    """A poker card with its bleed is drawn at 300 dpi; a box of a square metre at whatever fits the bound (its
    noise at full size would take gigabytes)."""
    card = starfield.raster_size(Box(0, 0, 69.5 * 72 / 25.4, 94.9 * 72 / 25.4), 300)
    assert card == (821, 1121)
    width, height = starfield.raster_size(Box(0, 0, 1000 * 72 / 25.4, 1000 * 72 / 25.4), 300)
    assert width * height <= starfield.MAX_PIXELS and width == height > 4000


@pytest.fixture
def artlab(tmp_path: Path) -> Path:
    shutil.copytree(ART, tmp_path / "art")
    return tmp_path / "art"


def preview_error(root: Path, item: str) -> str:
    run = run_cli("--data-dir", root / "card_data", "--templates-dir", root / "templates", "preview", "artlab", item,
                  "--out", root / "face.png")  # fmt: skip
    assert run.code == 2 and run.exception is None, (run.code, run.err, run.exception)
    assert len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err, run.err
    return run.err


@pytest.mark.parametrize(
    ("layout", "old", "new", "expected"),
    [
        ("sigil", 'kind="sigil"', 'kind="moon"',
         "sigil.xml.j2:11: artlab: sigils: card 'union' front: <art kind='moon'>: expected one of starfield, planet, "
         "ship, sigil, got 'moon'"),
        ("sigil", 'kind="sigil"', 'kind="sigil" fold="13"',
         "sigil.xml.j2:11: artlab: sigils: card 'union' front: <art fold='13'>: must lie between 2 and 12, got '13'"),
        ("sigil", 'kind="sigil"', 'kind="sigil" fold="three"',
         "sigil.xml.j2:11: artlab: sigils: card 'union' front: <art fold='three'>: expected a whole number, got "
         "'three'"),
        ("sigil", 'kind="sigil"', 'kind="sigil" wings="0.5"',
         "sigil.xml.j2:11: artlab: sigils: card 'union' front: <art kind='sigil'> does not take 'wings' (a ship's "
         "attribute)"),
        ("sigil", 'palette="ink union #cfe3ff"', 'palette="ink onion #cfe3ff"',
         "sigil.xml.j2:11: artlab: sigils: card 'union' front: <art palette='ink onion #cfe3ff'>: 'onion' is neither "
         "a named palette (nebula, ember, ice, verdant, gold, steel, crimson) nor a colour"),
        ("starfield", 'bleed="true"', 'bleed="true" density="80"',
         "starfield.xml.j2:3: artlab: starfields: card 'union' front: <art density='80'>: at most 50 stars per cm², "
         "got '80'"),
    ],
)  # fmt: skip
def test_misuse_is_named_at_the_layout_line(artlab: Path, layout: str, old: str, new: str, expected: str):
    path = artlab / "templates" / "artlab" / f"{layout}.xml.j2"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    item = "union" if layout == "sigil" else "orion"
    err = preview_error(artlab, item)
    assert expected.replace("card 'union'", f"card '{item}'") in err, err


def test_the_artlab_fixture_builds_every_generator(artlab: Path):
    """The fixture game whose pages were looked at builds, each deck with its art (starfields: one nebula per
    front and one for every back). Eight planet faces, all different, share one starry sky: reportlab names an
    image by a digest of its pixels, so the sky is embedded once (a raster that varied between draws made 9)."""
    build(artlab, artlab / "out", "artlab", "--format", "shop-pdf")
    shop = artlab / "out" / "artlab" / "shop"
    assert sorted(p.name for p in shop.glob("*.pdf")) == ["planets.pdf", "ships.pdf", "sigils.pdf", "starfields.pdf"]
    assert image_xobjects(shop / "starfields.pdf") == 7
    assert image_xobjects(shop / "sigils.pdf") == 1  # the backs' nebula only
    assert image_xobjects(shop / "planets.pdf") == 2  # the sky every front shares, and the backs'


def test_ship_traits_name_the_family_traits_they_give_and_keep_the_others():
    """`traits` puts the traits it names in place of the family's (its nose, wing, engine, trim) and leaves the rest;
    naming the family's own traits draws the very same ship, and words of no trait are refused."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.art import ship
    from cardgen.render.elements.art import ship_traits

    family = ship.Family.of("hive")
    other_nose = next(word for word in ("needle", "hammer") if word != family.nose)
    named = ship.with_traits(family, f"{other_nose} block")
    assert (named.nose, named.engine) == (other_nose, "block")
    assert (named.wing, named.trim, named.tone) == (family.wing, family.trim, family.tone)
    assert ship.with_traits(family, None) == family == ship.with_traits(family, "")

    def drawn(traits: str | None) -> bytes:
        canvas = Canvas("unused.pdf", pageCompression=0, invariant=True)
        ship.draw(canvas, Box(0, 0, 100, 140), "x", [(0, 0, 0), (1, 1, 1)], "hive", "cruiser",
                  None, None, None, None, None, traits)  # fmt: skip
        return canvas.getpdfdata()

    own = f"{family.nose} {family.wing} {family.engine} {family.trim}"
    assert drawn(own) == drawn(None) != drawn(other_nose)
    assert ship_traits(" hammer   delta ") == "hammer delta"
    for bad in ("hammer needle", "zigzag"):
        with pytest.raises(ValueError):
            ship_traits(bad)


def test_a_nebula_is_kept_in_the_user_cache_between_processes(tmp_path, monkeypatch):
    """A nebula made once is read back by a later process (here: after `forget`) from the user's cache, byte for
    byte; a damaged cache file is passed over and made again."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    palette = ((0.0, 0.0, 0.1), (0.5, 0.2, 0.6), (1.0, 0.9, 0.9))
    starfield.forget()
    first = starfield.nebula_image("kept-between", palette, 0.5, 30, 20)
    [stored] = (tmp_path / "cardgen" / "nebulae").glob("*.jpg")
    made = stored.read_bytes()
    first_data = first.getRGBData()
    starfield.forget()
    making = starfield._nebula

    def refuse(*args):
        raise AssertionError("made again, not read back")

    monkeypatch.setattr(starfield, "_nebula", refuse)
    again = starfield.nebula_image("kept-between", palette, 0.5, 30, 20)
    assert again is not first and again.getRGBData() == first_data and stored.read_bytes() == made
    monkeypatch.setattr(starfield, "_nebula", making)
    stored.write_bytes(made[:100])  # cut short: not a whole JPEG
    starfield.forget()
    remade = starfield.nebula_image("kept-between", palette, 0.5, 30, 20)
    assert remade.getRGBData() == first_data and stored.read_bytes() == made
