"""The layout kit on one card (issue 36): `tests/fixtures/showcase` lays out Star Commander's Gunboat (and two more
ships) with every new drawing tool — `<path>`, linear and radial gradients, `<g clip>` (rounded rectangle and
hexagon), a soft fade, text outline, glow, letter spacing and small caps, library icons in colour, the three display
typefaces, and each generator of `<art>`. Its pages were rendered and looked at; the README's before-and-after
picture is its Gunboat beside the bundled one. These tests read what the build wrote."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import FIXTURES, run_cli

SHOWCASE = FIXTURES / "showcase"


def build(out: Path) -> Path:
    run = run_cli("--data-dir", SHOWCASE / "card_data", "--templates-dir", SHOWCASE / "templates", "build",
                  "showcase", "--out", out, "-q", "--no-validate")  # fmt: skip
    assert run.code == 0, run.err
    return out / "showcase"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("showcase"))


def _content(reader: PdfReader) -> tuple[bytes, set[int], set[str]]:
    """Every content stream of the file (pages and the forms they draw), its image XObjects and font names."""
    streams, images, fonts, seen = [], set(), set(), set()

    def walk(resources) -> None:
        if not resources:
            return
        for ref in (resources.get("/XObject") or {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                images.add(ref.idnum)
            elif obj.get("/Subtype") == "/Form" and ref.idnum not in seen:
                seen.add(ref.idnum)
                streams.append(obj.get_data())
                walk(obj.get("/Resources"))
        fonts.update(
            str(ref.get_object()["/BaseFont"]).split("+")[-1] for ref in (resources.get("/Font") or {}).values()
        )

    for page in reader.pages:
        contents = page.get_contents()
        streams.append(contents.get_data() if contents is not None else b"")
        walk(page.get("/Resources"))
    return b"\n".join(streams), images, fonts


def test_the_card_draws_every_tool_as_vector(built: Path):
    stream, images, fonts = _content(PdfReader(built / "ships.pdf"))
    operators = {
        "shading (gradients, the planet's sphere)": rb"/Sh\w* sh",
        "clip (the window, the hexagonal badge)": rb"W\s+n",
        "curves (paths, icons, art)": rb" c\n",
        "text outline (render mode 2)": rb"\b2 Tr\b",
        "letter spacing": rb"[\d.]+ Tc\b",
    }
    missing = [what for what, pattern in operators.items() if not re.search(pattern, stream)]
    assert not missing, missing
    # the only rasters are the nebulae: one per card front (seeded by its id) and one for the shared back
    assert len(images) == 4
    assert {"Orbitron-Bold", "Audiowide-Regular", "Exo2-Regular"} <= fonts


def test_the_showcase_is_byte_identical_between_builds(built: Path, tmp_path: Path):
    again = build(tmp_path)
    assert (again / "ships.pdf").read_bytes() == (built / "ships.pdf").read_bytes()


def test_the_print_guide_credits_the_icons_it_printed(built: Path):
    guide = (built / "PRINT.md").read_text()
    assert "Icons by Lorc from game-icons.net, CC BY 3.0." in guide


def test_the_layout_uses_every_new_tool():
    """The fixture is the issue's demonstration: a tool dropped from it would leave the tests above unaware."""
    layouts = "".join(p.read_text() for p in (SHOWCASE / "templates" / "showcase").glob("*.j2"))
    for needle in ("<path ", "linear(", "radial(", 'clip="rect(', 'clip="hexagon(', "#0b102400", 'outline="',
                   'glow="', 'spacing="', 'small-caps="true"', "<icon name=", 'kind="starfield"', 'kind="planet"',
                   'kind="ship"', 'kind="sigil"', 'font="title"', 'font="heading"'):  # fmt: skip
        assert needle in layouts, needle
