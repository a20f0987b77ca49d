"""`for_each` expands items per value (player colours); `size: page` sheets print facts from rules.yaml."""

from __future__ import annotations

import json
from pathlib import Path

import pdfcheck

from conftest import run_cli

GAME = """id: mini
title: Mini
players: [2, 4]
rulebook: {title: Mini rules}
settings: {colours: {red: "#c0392b", blue: "#2f6db5"}}
card_types:
  marker:
    fields:
      player: {type: str, choices: [red, blue]}
      value: {type: int}
  reference:
    fields:
      heading: {type: str}
components:
  - {id: markers, kind: counters, title: Markers, file: markers.yaml}
  - {id: reference, kind: sheets, title: Reference, file: reference.yaml}
"""
MARKERS = """type: marker
size: 15.875
front: marker
for_each: {player: [red, blue]}
counters:
  - {id: m1, count: 2, value: 1}
  - {id: m5, value: 5}
"""
REFERENCE = """type: reference
size: page-landscape
front: reference
sheets:
  - {id: rules, heading: Quick reference}
"""
RULES = """facts:
  hand_limit: {value: 8, cite: "Rules p. 3", quote: "a hand limit of 8 cards"}
"""
MARKER_LAYOUT = """<face bg="{{ card.player }}">
  <text x="1" y="4" w="13.875" h="8" size="12" align="center" field="value">{{ card.value }}</text>
</face>"""
REFERENCE_LAYOUT = """<face bg="white">
  <text x="20" y="20" w="200" h="12" size="20" font="heading" field="heading">{{ card.heading }}</text>
  <text x="20" y="40" w="200" h="10" size="12"
        field="hand">Hand limit: {{ facts.hand_limit }} cards ({{ cite.hand_limit }})</text>
</face>"""


def make(tmp_path: Path) -> tuple[Path, Path]:
    data, templates = tmp_path / "data" / "mini", tmp_path / "templates" / "mini"
    data.mkdir(parents=True)
    templates.mkdir(parents=True)
    for name, text in {
        "game.yaml": GAME,
        "markers.yaml": MARKERS,
        "reference.yaml": REFERENCE,
        "rules.yaml": RULES,
    }.items():
        (data / name).write_text(text)
    (templates / "marker.xml.j2").write_text(MARKER_LAYOUT)
    (templates / "reference.xml.j2").write_text(REFERENCE_LAYOUT)
    return data.parent, templates.parent


def test_for_each_repeats_items_per_value(tmp_path):
    data, _ = make(tmp_path)
    run = run_cli("--data-dir", data, "list", "--json")
    assert run.code == 0, run.err
    (game,) = json.loads(run.out)
    assert game["components"][0] == {"id": "markers", "kind": "counters", "count": 6}
    from cardgen.data import load_games

    (loaded,) = load_games(data)
    ids = [(i.id, i.fields["player"]) for i in loaded.component("markers").items]
    assert ids == [("m1-red", "red"), ("m1-blue", "blue"), ("m5-red", "red"), ("m5-blue", "blue")]


def test_for_each_field_cannot_also_be_written(tmp_path):
    data, _ = make(tmp_path)
    markers = data / "mini" / "markers.yaml"
    markers.write_text(markers.read_text().replace("{id: m5, value: 5}", "{id: m5, value: 5, player: red}"))
    run = run_cli("--data-dir", data, "list")
    assert run.code == 2 and "markers.yaml:7" in run.err and "set by for_each" in run.err


def test_page_sheet_fills_the_paper_and_prints_facts(tmp_path):
    data, templates = make(tmp_path)
    run = run_cli("--data-dir", data, "--templates-dir", templates, "build", "--out", tmp_path / "out", "-q")
    assert run.code == 0, run.err
    pdf = tmp_path / "out" / "mini" / "reference.pdf"
    assert pdfcheck.page_sizes(pdf) == [(297.0, 210.0)]
    text = " ".join(w["text"] for w in pdfcheck.words(pdf, 0))
    assert "Hand limit: 8 cards (Rules p. 3)" in text


def test_hex_tiles_are_spaced_so_bleeds_never_meet():
    """Separating-axis check on every pair of hexes: along some edge normal the centres are at least the
    flat-to-flat width plus twice the bleed apart, so even the bleed areas do not touch."""
    import itertools
    import math

    from cardgen.render.imposition import MarkStyle, hex_sheet
    from cardgen.units import Size

    flat, bleed = 30.0, 3.0
    plan = hex_sheet(Size(210, 297), flat, bleed, MarkStyle())
    assert plan.capacity >= 20
    normals = [(math.cos(a), math.sin(a)) for a in (math.pi / 6, math.pi / 2, 5 * math.pi / 6)]
    centres = [(s.trim.x + s.trim.w / 2, s.trim.y + s.trim.h / 2) for s in plan.fronts]
    for (ax, ay), (bx, by) in itertools.combinations(centres, 2):
        apart = max(abs((bx - ax) * nx + (by - ay) * ny) for nx, ny in normals)
        assert apart >= flat + 2 * bleed - 1e-6
    for slot in plan.fronts:  # every hex lies inside the paper with its bleed
        assert slot.clip.x >= 0 and slot.clip.right <= 210 and slot.clip.y >= 0 and slot.clip.top <= 297
