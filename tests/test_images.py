"""Rendered pages look like their committed reference images: one page of the demo game's each kind of component and
one page of every bundled game, rendered at 72 dpi.

Two pages "match" when at most MAX_CHANGED pixels differ by more than THRESHOLD in any channel — a count, not a mean,
so that a missing badge or line of text cannot hide in the average of a whole page. Each comparison is proved able to
fail: the same page drawn with one element left out of every face (the last element of each layout) must differ.

Regenerate after an intended change with CARDGEN_UPDATE_REFERENCE=1, then look at the new images before committing.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pdfcheck
import pytest
from PIL import Image, ImageChops

from cardgen.data import load_games
from cardgen.paths import default_data_dir, default_fonts_dir, default_templates_dir
from cardgen.render.build import build_game
from cardgen.render.draw import FaceDrawer, PreparedFace
from cardgen.render.jobs import PrintOptions
from cardgen.render.layouts import Layouts
from cardgen.render.markup import Face

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCE = FIXTURES / "reference"
DPI = 72
THRESHOLD = 48  # of 255 in one channel: anti-aliasing noise stays below, a missing mark does not
MAX_CHANGED = 40  # pixels of a page (an A4 page at 72 dpi has about 500,000)

DEMO = (FIXTURES / "card_data", FIXTURES / "templates", "demo")
BUNDLED = (default_data_dir(), default_templates_dir())

# (data, templates, game, component, page index)
PAGES = [
    (*DEMO, "ships", 0),
    (*DEMO, "ships", 1),
    (*DEMO, "tokens", 0),
    (*DEMO, "board", 3),
    (*BUNDLED, "battlefield-space", "red-deck", 0),
    (*BUNDLED, "scifi-domains", "units", 0),
    (*BUNDLED, "star-commander", "industry-deck", 0),
    (*BUNDLED, "space-empires-4x", "ship-counters", 0),
    (*BUNDLED, "rift-domination", "unit-cards", 4),
]
IDS = [f"{game}-{component}-{page + 1}" for _, _, game, component, page in PAGES]


def render_page(data: Path, templates: Path, game_id: str, component: str, page: int, out: Path) -> Image.Image:
    """Build one component in-process and render one page of its PDF."""
    (game,) = load_games(data, [game_id])
    game = dataclasses.replace(game, components=tuple(c for c in game.components if c.id == component))
    report = build_game(game, Layouts(templates), default_fonts_dir(), out, PrintOptions())
    (file,) = report.files
    return pdfcheck.render(file.path, page, dpi=DPI)


def changed_pixels(expected: Image.Image, actual: Image.Image) -> int:
    """Pixels that differ by more than THRESHOLD in some channel."""
    assert expected.size == actual.size, f"size {actual.size}, expected {expected.size}"
    diff = ImageChops.difference(expected.convert("RGB"), actual.convert("RGB"))
    strongest = _max_channel(diff)
    return sum(strongest.point(lambda v: 255 if v > THRESHOLD else 0).histogram()[255:])


def _max_channel(image: Image.Image) -> Image.Image:
    red, green, blue = image.split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


def reference_for(name: str, image: Image.Image) -> Image.Image:
    path = REFERENCE / f"{name}.png"
    if os.environ.get("CARDGEN_UPDATE_REFERENCE") or not path.exists():
        REFERENCE.mkdir(exist_ok=True)
        image.save(path, optimize=True)
        if not os.environ.get("CARDGEN_UPDATE_REFERENCE"):
            pytest.fail(f"no reference image yet: wrote {path}; look at it, then commit it")
    with Image.open(path) as expected:
        return expected.copy()


@pytest.mark.parametrize(("data", "templates", "game", "component", "page"), PAGES, ids=IDS)
def test_page_matches_its_reference(data, templates, game, component, page, tmp_path):
    image = render_page(data, templates, game, component, page, tmp_path)
    expected = reference_for(f"{game}-{component}-{page + 1}", image)
    changed = changed_pixels(expected, image)
    assert changed <= MAX_CHANGED, f"{changed} pixels differ (limit {MAX_CHANGED}); look at the page, regenerate"


@pytest.mark.parametrize(("data", "templates", "game", "component", "page"), PAGES, ids=IDS)
def test_leaving_out_one_element_fails_the_comparison(data, templates, game, component, page, tmp_path, monkeypatch):
    """The test of the test: every face drawn without its layout's last element no longer matches."""
    if os.environ.get("CARDGEN_UPDATE_REFERENCE"):
        pytest.skip("references are being regenerated")
    draw = FaceDrawer.draw

    def without_last(self: FaceDrawer, canvas, prepared: PreparedFace, bleed: float) -> None:
        face = prepared.face
        shorter = dataclasses.replace(prepared, face=Face(face.bg, face.elements[:-1]))
        draw(self, canvas, shorter, bleed)

    monkeypatch.setattr(FaceDrawer, "draw", without_last)
    image = render_page(data, templates, game, component, page, tmp_path)
    with Image.open(REFERENCE / f"{game}-{component}-{page + 1}.png") as expected:
        assert changed_pixels(expected, image) > MAX_CHANGED
