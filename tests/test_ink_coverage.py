"""The print guide's ink coverage renders each distinct page once: a deck's back pages, which differ only in their
sheet labels, take the first one's figure (`Document.page_keys`, `ink.coverage`)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from cardgen.render import ink

from conftest import run_cli


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[bytes, list[bytes]]]:
    """Every (PDF, page keys) a build of Battlefield: Space's blue deck measured (16 pages: 8 of fronts, 8 of
    backs)."""
    calls: list[tuple[bytes, list[bytes]]] = []
    original = ink.coverage

    def watching(pdf: bytes, keys=(), known=()):
        calls.append((pdf, list(keys)))
        return original(pdf, keys, known)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("cardgen.render.imposed.coverage", watching)
        out = tmp_path_factory.mktemp("ink")
        run = run_cli("build", "battlefield-space", "--only", "blue-deck", "--out", out, "--jobs", "1", "--no-cache")
    assert run.code == 0, run.out + run.err
    return calls


def test_a_decks_back_pages_share_one_key_and_its_fronts_each_have_their_own(measured) -> None:
    ((_, keys),) = measured
    assert len(keys) == 16
    fronts, backs = keys[0::2], keys[1::2]  # duplex: each sheet's back page follows it
    assert len(set(backs)) == 1
    assert len(set(fronts)) == 8 and not set(fronts) & set(backs)


def test_pages_measured_once_give_what_rendering_each_gives(measured, monkeypatch: pytest.MonkeyPatch) -> None:
    ((pdf, keys),) = measured
    renders = []
    original = ink.rendered

    def counting(document, index, **options):
        renders.append(index)
        return original(document, index, **options)

    monkeypatch.setattr(ink, "rendered", counting)
    shared = ink.coverage(pdf, keys)
    assert renders == [0, 1, *range(2, 16, 2)]  # the fronts and the first back page, in page order
    each = ink.coverage(pdf)
    assert len(renders) == 9 + 16
    # the labels' sheet numbers are a few grey glyph pixels of a page
    assert shared == pytest.approx(each, abs=2e-4)
    assert max(each[1::2]) - min(each[1::2]) > 0  # the back pages do differ, by their labels


def test_a_page_key_changes_with_what_the_page_draws(tmp_path: Path) -> None:
    """Two back pages' keys part when one of them is drawn differently (not only its label)."""
    from cardgen.render.pdf import Document
    from cardgen.units import Size

    class Drawer:
        painters: ClassVar[dict] = {}

    doc = Document(Drawer(), "t", "Helvetica")  # type: ignore[arg-type]

    for number, shade in ((1, 0.2), (2, 0.2), (3, 0.3)):
        doc.start_page(Size(100, 100))
        doc.canvas.setFillGray(shade)
        doc.canvas.rect(0, 0, 50, 50, fill=1)
        doc.label(f"sheet {number}/3 · back", (50, 5, 80))
        doc.end_page()
    assert doc.page_keys[0] == doc.page_keys[1] != doc.page_keys[2]
    shares = ink.coverage(doc.finish(), doc.page_keys)
    assert shares[0] == shares[1] and shares[2] < shares[0]


def _grey_pages(count: int) -> bytes:
    """A PDF of `count` pages, each a different share of it painted grey."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=1)
    for page in range(count):
        canvas.setFillGray(0.3)
        canvas.rect(0, 0, 200, 5 + 6 * page, stroke=0, fill=1)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_spare_core_measures_every_other_page_with_the_same_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a spare core (a parallel build with fewer files than processes) a forked helper measures every other
    distinct page: the figures are the ones this process alone gives, and this process measures only half."""
    pdf = _grey_pages(30)
    alone = ink.coverage(pdf)
    here: list[int] = []
    measure = ink._measure
    monkeypatch.setattr(ink, "_measure", lambda document, index: here.append(index) or measure(document, index))
    monkeypatch.setattr(ink, "spare_cores", 1)
    assert ink.coverage(pdf) == alone
    assert here == list(range(0, 30, 2))  # the helper's calls are in its own process
    assert alone == sorted(alone) and alone[0] < alone[-1]  # each page its own figure


def test_what_the_helper_does_not_send_is_measured_here(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    pdf = _grey_pages(30)
    alone = ink.coverage(pdf)
    parent, measure = os.getpid(), ink._measure

    def failing_in_the_helper(document, index):
        if os.getpid() != parent and index > 10:
            raise RuntimeError("the helper stops")
        return measure(document, index)

    monkeypatch.setattr(ink, "_measure", failing_in_the_helper)
    monkeypatch.setattr(ink, "spare_cores", 1)
    assert ink.coverage(pdf) == alone
    monkeypatch.setattr(os, "fork", lambda: (_ for _ in ()).throw(OSError("no more processes")))
    assert ink.coverage(pdf) == alone


def test_the_spare_core_is_lent_for_one_file_only(tmp_path: Path) -> None:
    """`ink.sharing` sets the spare cores for the file drawn inside it and takes them back, even when drawing
    fails; after a parallel build in this process, the next build measures its ink alone."""
    with pytest.raises(RuntimeError), ink.sharing(1):
        assert ink.spare_cores == 1
        raise RuntimeError("the file failed")
    assert ink.spare_cores == 0
    run = run_cli("build", "battlefield-space", "--out", tmp_path, "--jobs", "2", "--no-cache")
    assert run.code == 0, run.out + run.err
    assert ink.spare_cores == 0
