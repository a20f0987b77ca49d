"""`text-contrast`: text must stand out from what the printed face draws under it (WCAG 2 ratio, 4.5:1 unless the
check's `min` says otherwise), in the full and the light ink. Hand-built faces: black on white, gold on grey, text
over half of a dark gradient, text on generated art, and a colour that passes on a dark band in full ink but not
once `--ink light` turns the band pale.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from cardgen.data import load_games
from cardgen.paths import default_fonts_dir
from cardgen.render.contrast import ratio, relative_luminance
from cardgen.validate import validate_game

from conftest import write_game

GAME = """id: faces
title: Faces
players: [2, 2]
rulebook: {title: none}
settings: {card_size: poker, bleed: 3}
card_types:
  card: {fields: {look: {type: str}}}
components:
  - {id: cards, kind: deck, title: Cards, file: cards.yaml}
"""
LOOKS = ("black-on-white", "gold-on-grey", "over-gradient", "white-on-stars", "black-on-stars", "black-on-navy")
CARDS = "type: card\nfront: front\ncards:\n" + "".join(f"  - {{id: {look}, look: {look}}}\n" for look in LOOKS)
TEXT = '<text x="6" y="40" w="51" h="8" size="12" field="{{{{ card.look }}}}" colour="{colour}">{words}</text>'
WORDS = "Readable words here"
FRONT = (
    """<face bg="{{ 'grey' if card.look == 'gold-on-grey' else 'white' }}">
{%- if card.look == 'black-on-white' %}"""
    + TEXT.format(colour="black", words=WORDS)
    + """{% elif card.look == 'gold-on-grey' %}"""
    + TEXT.format(colour="#d4af37", words=WORDS)
    + """{% elif card.look == 'over-gradient' %}
  <rect x="0" y="0" w="63.5" h="88.9" fill="linear(0, white, white 50%, #101010 50%, #101010)"/>"""
    + TEXT.format(colour="black", words=WORDS)
    + """{% elif card.look in ('white-on-stars', 'black-on-stars') %}
  <art kind="starfield" x="0" y="0" w="63.5" h="88.9" nebula="0"/>"""
    + TEXT.format(colour="{{ card.look.split('-')[0] }}", words=WORDS)
    + """{% else %}
  <rect x="0" y="0" w="63.5" h="88.9" fill="navy"/>"""
    + TEXT.format(colour="black", words=WORDS)
    + """{% endif %}
</face>
"""
)
RULES = "checks:\n  - {rule: Text stands out, check: text-contrast, component: cards%s}\n"


def validated(root: Path, extra: str = "") -> list[str]:
    """The violations of the faces game (its rules: one text-contrast check, `extra` keys added), as text."""
    (root / "card_data" / "faces" / "rules.yaml").write_text(RULES % extra)
    (game,) = load_games(root / "card_data", ["faces"])
    report = validate_game(game, root / "templates", default_fonts_dir())
    return [f"{v.where}: {v.expected}: {v.actual}" for v in report.violations]


@pytest.fixture(scope="module")
def faces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("contrast")
    return write_game(root, "faces", {"game.yaml": GAME, "cards.yaml": CARDS, "rules.yaml": RULES % ""},
                      {"front.xml.j2": FRONT})  # fmt: skip


@pytest.fixture(scope="module")
def found(faces: Path) -> list[str]:
    return validated(faces)


def _about(found: list[str], item: str) -> list[str]:
    return [line for line in found if f"({item}." in line]


def test_the_wcag_ratio():
    white, black = relative_luminance(np.array([255, 255, 255])), relative_luminance(np.array([0, 0, 0]))
    assert ratio(float(white), float(black)) == pytest.approx(21)
    gold, grey = (float(relative_luminance(np.array(rgb))) for rgb in ([0xD4, 0xAF, 0x37], [0x80, 0x80, 0x80]))
    assert ratio(gold, grey) == pytest.approx(1.88, abs=0.01)


def test_black_on_white_passes(found: list[str]):
    assert _about(found, "black-on-white") == []


def test_gold_on_grey_fails_in_both_inks_naming_the_colours_and_the_ratio(found: list[str]):
    lines = _about(found, "gold-on-grey")
    assert len(lines) == 2, found
    assert any("(full ink)" in line for line in lines) and any("(light ink)" in line for line in lines)
    assert "gold-on-grey #d4af37 on #808080 is 1.9:1 on the front (layout 'front')" in lines[0]
    assert "cards.yaml" in lines[0] and "text contrast at least 4.5:1" in lines[0]


def test_text_over_a_half_dark_gradient_fails(found: list[str]):
    """Half the words lie on near-black: the worst tenth of the ground under them decides, not the average."""
    lines = _about(found, "over-gradient")
    assert lines and all("over-gradient #000000 on #101010" in line for line in lines), found


def test_text_on_generated_art_is_judged_by_the_art(found: list[str]):
    """A few stars under white words do not fail them; black words on the night sky fail."""
    assert _about(found, "white-on-stars") == []
    assert any("black-on-stars #000000 on" in line for line in _about(found, "black-on-stars")), found


def test_light_ink_is_judged_on_its_own(found: list[str]):
    """Black on a navy band does not read in full ink; `--ink light` prints the navy as a pale tint under the same
    black, which reads: each ink is judged on the face it prints."""
    lines = _about(found, "black-on-navy")
    assert len(lines) == 1 and "(full ink)" in lines[0] and "#000000 on #000080" in lines[0], found


def test_min_and_decorative_fields(faces: Path):
    relaxed = validated(faces, ", min: 1.5")
    assert _about(relaxed, "gold-on-grey") == [] and _about(relaxed, "over-gradient")
    assert "text contrast at least 1.5:1" in _about(relaxed, "black-on-stars")[0]
    assert not any("(black-on-stars." in line for line in validated(faces, ", args: {decorative: [black-on-stars]}"))
    (broken,) = validated(faces, ", min: 30")
    assert "min must be a contrast ratio from 1 to 21, got 30" in broken


def test_faces_measured_once_are_remembered_between_runs_and_a_changed_face_is_measured_again(
    faces: Path, found: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The measures are kept in the user's cache by everything that decides a face's pixels: a second validation
    measures nothing and reports the very same lines; a card whose look changed is measured again, alone; a cache
    that is not a database is passed over and started again."""
    from cardgen.render import contrast

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    counted: list[int] = []
    measure = contrast.face_contrasts

    def counting(job, faces_):  # type: ignore[no-untyped-def]
        counted.append(len(faces_))
        return measure(job, faces_)

    monkeypatch.setattr(contrast, "face_contrasts", counting)
    assert validated(faces) == found and sum(counted) > 0  # measured, and the same as the module's run
    counted.clear()
    assert validated(faces) == found and sum(counted) == 0  # all remembered
    cards = faces / "card_data" / "faces" / "cards.yaml"
    before = cards.read_text()
    cards.write_text(
        before.replace("{id: black-on-white, look: black-on-white}", "{id: black-on-white, look: navy-too}")
    )
    try:
        changed = validated(faces)
        assert sum(counted) == 2  # the changed card's face alone, in each ink (light ink pales its navy)
        assert [line for line in changed if "navy-too #000000 on #000080" in line], changed
    finally:
        cards.write_text(before)
    counted.clear()
    (tmp_path / "cache" / "cardgen" / "contrast.sqlite").write_bytes(b"not a database")
    assert validated(faces) == found and sum(counted) > 0  # measured again, nothing raised
    counted.clear()
    assert validated(faces) == found and sum(counted) == 0  # and the cache started again


def test_the_remembered_measures_keep_the_newest_within_their_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from reportlab.lib.colors import HexColor

    from cardgen.render.contrast import Remembered
    from cardgen.render.kit import TextRun

    monkeypatch.setattr(Remembered, "STORED", 3)
    store = Remembered("look", tmp_path / "contrast.sqlite")
    for number in range(5):
        store.keep({f"face {number}": [(TextRun("name", HexColor("#d4af37"), (1, 2, 3, 4)), "#808080", 1.875)]})
    kept = store.recall([f"face {number}" for number in range(5)])
    assert sorted(kept) == ["face 2", "face 3", "face 4"]
    ((run, ground, figure),) = kept["face 4"]
    assert (run.what, run.colour.hexval(), ground, figure) == ("name", "0xd4af37", "#808080", 1.875)


def test_art_drawn_once_as_a_form_measures_as_art_drawn_in_place(faces: Path, monkeypatch: pytest.MonkeyPatch):
    """The contrast PDF draws each face twice (with and without its glyphs): each piece of art is drawn once, as a
    form both pages place, and the figures are those of the art drawn on each page in place."""
    from cardgen.render import contrast
    from cardgen.render.build import printed_jobs
    from cardgen.render.layouts import Layouts

    (game,) = load_games(faces / "card_data", ["faces"])
    job = printed_jobs(game, Layouts(faces / "templates"), default_fonts_dir())(game.components[0], "full")[0]
    starry = [face for face in job.faces.faces.values() if "stars" in str(face.face)]
    assert len(starry) == 2
    pdf, _ = contrast._draw(job, starry)
    assert pdf.count(b"/Subtype /Form") == 2 and pdf.count(b"/FormXob.Art") >= 4  # two forms, each placed twice
    with_forms = contrast.face_contrasts(job, starry)
    assert b"/FormXob.Art" not in contrast._draw(job, starry, art_once=False)[0]
    monkeypatch.setattr(contrast, "_draw", functools.partial(contrast._draw, art_once=False))
    assert contrast.face_contrasts(job, starry) == with_forms


def test_only_the_window_of_the_text_is_rendered_with_the_pixels_of_the_whole_render(
    faces: Path, monkeypatch: pytest.MonkeyPatch
):
    """Each face is rendered only inside the window its text boxes cover (pdfium's crop, in whole pixels), and those
    pixels are the whole face's render there: the figures are those of the whole render."""
    from cardgen.render import contrast
    from cardgen.render.build import printed_jobs
    from cardgen.render.layouts import Layouts

    (game,) = load_games(faces / "card_data", ["faces"])
    job = printed_jobs(game, Layouts(faces / "templates"), default_fonts_dir())(game.components[0], "full")[0]
    drawn = list(job.faces.faces.values())
    render = contrast._pixels
    compared = []

    def beside_the_whole(document: object, index: int, crop: tuple[int, int, int, int] = (0, 0, 0, 0)) -> np.ndarray:
        window, whole = render(document, index, crop), render(document, index)
        left, bottom, right, top = crop
        assert 0 < window.size < whole.size / 4  # a line of text on a card: a small part of it
        assert np.array_equal(window, whole[top : whole.shape[0] - bottom, left : whole.shape[1] - right])
        compared.append(index)
        return window

    monkeypatch.setattr(contrast, "_pixels", beside_the_whole)
    contrast.face_contrasts(job, drawn)
    assert sorted(compared) == list(range(2 * len(drawn)))
