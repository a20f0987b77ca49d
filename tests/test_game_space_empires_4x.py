"""Space Empires 4X: the counter sets, map, charts and forms, checked against the rules summary.

The data must hold every rule of its rules.yaml, fail when a rulebook figure is broken, and print as fold-and-glue
counter sheets (each back behind its front), a tiled map and page-sized charts and forms.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pdfcheck
import pytest

from conftest import REPO, GameCopy, copy_game, run_cli

GAME = "space-empires-4x"
DATA = REPO / "card_data"
COUNTER_PDFS = ("ship-counters", "group-size-markers", "colony-counters", "home-system-markers", "deep-space-markers")
PLAYERS = ("red", "blue", "green", "yellow")
TAG_SIZE = 6.75  # the set tag printed at the same spot on both sides of every counter
STEP_SIZE = 13  # the CP figure of colony and Homeworld counters


@pytest.fixture
def copy(tmp_path) -> GameCopy:
    """A writable copy of this game's data alone."""
    return copy_game(GAME, tmp_path)


# --- counts ------------------------------------------------------------------------------------------------------


def test_component_counts_include_copies():
    run = run_cli("list", GAME, "--json")
    assert run.code == 0, run.err
    counts = {c["id"]: c["count"] for c in json.loads(run.out)[0]["components"]}
    assert counts == {
        "ship-counters": 4 * 92,
        "group-size-markers": 4 * 6 * 4,
        "colony-counters": 4 * 32,
        "home-system-markers": 4 * 25,
        "deep-space-markers": 102,
        "hit-markers": 12,
        "map": 1,
        "charts": 4,
        "production-sheet": 2,
        "reference": 3,
        "dice": 2,
    }


def test_each_player_has_exactly_the_counter_limits(game):
    limits = {"SC": 5, "DD": 4, "CA": 4, "BC": 4, "BB": 4, "DN": 2, "CO": 15, "SY": 4, "Base": 2, "Decoy": 2,
              "Miner": 2, "F": 8, "R": 4, "CV": 4, "Mine": 5, "SW": 3, "MS": 20}  # fmt: skip
    assert game.fact("counter_limits") == limits
    for player in PLAYERS:
        found = Counter()
        for item in game.component("ship-counters").items:
            if item.fields["player"] == player:
                found[item.fields["unit"]] += item.count
        assert found == limits, player
    scouts = sorted(i.fields["group"] for i in game.component("ship-counters").items if i.id.startswith("sc")
                    and i.fields["player"] == "red")  # fmt: skip
    assert scouts == [1, 2, 3, 4, 5]


def test_marker_sets_match_the_rules_summary(game):
    for player in PLAYERS:
        home = Counter()
        for item in game.component("home-system-markers").items:
            if item.fields["player"] == player:
                home[item.fields["kind"]] += item.count
        assert home == {"minerals": 11, "planet": 8, "nebula": 2, "asteroids": 2, "barren": 1, "black-hole": 1}
    deep = Counter()
    for item in game.component("deep-space-markers").items:
        deep[item.fields["kind"]] += item.count
    assert deep == {
        "danger": 26,
        "minerals": 14,
        "barren": 12,
        "nebula": 10,
        "asteroids": 10,
        "black-hole": 10,
        "lost-in-space": 5,
        "supernova": 3,
        "space-wreck": 3,
        "warp-point": 6,
        "doomsday-machine": 3,
    }
    assert sum(deep.values()) == 102


def test_rule_tables_read_from_the_summary(game):
    assert game.fact("starting_forces") == {"SY": 4, "SC": 3, "CO": 3, "Miner": 1}
    assert game.fact("colony_growth") == [1, 3, 5] and game.fact("homeworld_steps") == [20, 15, 10, 5]
    assert game.fact("cp_carry_over_max") == 30
    assert game.fact("movement_table")[1] == [1, 1, 1] and game.fact("movement_table")[7] == [3, 3, 3]
    assert game.fact("black_hole_roll") == {"survives": [1, 6], "destroyed": [7, 10]}
    assert game.fact("space_wreck_table")["ship-yard"] == [10, 10]
    # the Ship Yard contradiction: we follow levels 2 and 3, and say so
    assert list(game.fact("research.ship-yard.costs")) == [2, 3]
    topics = [c.topic for c in game.rules.contradictions]
    assert any("Ship Yard technology" in t for t in topics)


# --- validation --------------------------------------------------------------------------------------------------


def test_validate_passes():
    run = run_cli("validate", GAME)
    assert run.code == 0, run.out + run.err
    assert "all hold" in run.out


def test_one_danger_marker_fewer_fails(copy):
    copy.edit(
        "deep-space-markers.yaml",
        "count: 26, set: deep, kind: danger",
        "count: 25, set: deep, kind: danger",
    )
    assert {"Deep Space set has 102 markers", "Deep Space contents"} <= copy.broken_rules()


def test_a_fifth_dreadnought_fails(copy):
    lines = (copy.folder / "ship-counters.yaml").read_text().splitlines()
    line = next(ln for ln in lines if "id: dn2," in ln)
    extra = "".join("\n" + line.replace("dn2", f"dn{n}").replace("group: 2", f"group: {n}") for n in (3, 4, 5))
    copy.edit("ship-counters.yaml", line, line + extra)
    broken = copy.broken_rules()
    assert {f"{p.title()} has exactly the counter limits" for p in PLAYERS} <= broken
    assert "Group numbers run from 1 to the counter limit" in broken


def test_a_misprinted_statistic_and_a_short_home_system_fail(copy):
    copy.edit(
        "ship-counters.yaml",
        "unit: DD, group: 1, class: D, attack: 4",
        "unit: DD, group: 1, class: D, attack: 5",
    )
    copy.edit("home-system-markers.yaml", "count: 11, set: home", "count: 10, set: home")
    broken = copy.broken_rules()
    assert "Counters carry the Ship Technology chart's statistics" in broken
    assert {"Red Home System has 25 markers", "Red Home System contents"} <= broken


def test_broken_tables_and_map_fail(copy):
    copy.edit(
        "rules.yaml", "value: {survives: [1, 6], destroyed: [7, 10]}", "value: {survives: [1, 5], destroyed: [7, 10]}"
    )
    copy.edit("rules.yaml", '        - "rrrrr.....bbbbb"', '        - "rrrrr....-bbbbb"')
    copy.edit(
        "rules.yaml", "ship-yard: 2, terraforming: 1", "ship-yard: 1, terraforming: 1"
    )  # the summary's "1 upgrade"
    broken = copy.broken_rules()
    assert "Black-hole roll covers every die face once" in broken
    assert "The map holds every marker" in broken
    assert "Research levels match the technology maximums" in broken


def test_text_that_no_longer_fits_fails(copy):
    copy.edit("rules.yaml", "{minerals: Minerals,", "{minerals: Minerals of the Ancient Precursors,")
    copy.edit("rules.yaml", "check: min-text-size,", "check: min-text-size, min: 8,")  # the counters' 6.5 pt
    broken = copy.broken_rules(text_fit=True)
    assert "All text fits at 6 pt or more" in broken
    assert "Text reads at arm's length (6.5 pt on counters, 7 pt on the map, charts and sheets)" in broken


# --- printing ----------------------------------------------------------------------------------------------------


def test_build_writes_every_pdf_with_its_pages(built):
    pages = {pdf.stem: len(pdfcheck.page_sizes(pdf)) for pdf in built.glob("*.pdf") if pdf.name != "print-guide.pdf"}
    assert pages == {
        "ship-counters": 4,
        "group-size-markers": 1,
        "colony-counters": 2,
        "home-system-markers": 1,
        "deep-space-markers": 1,
        "map": 4,
        "charts": 4,
        "production-sheet": 2,
        "reference": 3,
    }
    for pdf in built.glob("*.pdf"):
        assert all(embedded for _, embedded in pdfcheck.fonts(pdf)), pdf.name
        assert set(pdfcheck.page_sizes(pdf)) <= {(210.0, 297.0), (297.0, 210.0)}, pdf.name


def _halves(pdf: Path, page: int, size: float):
    """Characters of one size on the upper half (fronts) and on the lower half, folded over the middle (backs)."""
    fold = pdfcheck.page_sizes(pdf)[page][1] / 2
    chars = pdfcheck.char_centres(pdf, page, size)
    fronts = [(t, x, y) for t, x, y in chars if y < fold]
    backs = [(t, x, 2 * fold - y) for t, x, y in chars if y > fold]  # where each back lands once folded
    return fronts, backs


@pytest.mark.parametrize("name", COUNTER_PDFS)
def test_counters_fold_so_each_back_lands_behind_its_front(built, name):
    pdf = built / f"{name}.pdf"
    for page in range(len(pdfcheck.page_sizes(pdf))):
        fronts, backs = _halves(pdf, page, TAG_SIZE)
        assert fronts and len(fronts) == len(backs), (name, page)
        key = lambda c: (c[0], round(c[1], 1), round(c[2], 1))  # noqa: E731
        for (t, x, y), (bt, bx, by) in zip(sorted(fronts, key=key), sorted(backs, key=key), strict=True):
            # the same set tag (player letter or D) at the same spot: the back is its own front's back
            assert t == bt and x == pytest.approx(bx, abs=0.3) and y == pytest.approx(by, abs=0.3), (name, page, t)


def test_colony_steps_sit_back_to_back(built):
    pdf = built / "colony-counters.pdf"
    pairs = Counter()
    for page in range(len(pdfcheck.page_sizes(pdf))):
        fold = pdfcheck.page_sizes(pdf)[page][1] / 2
        words = pdfcheck.words(pdf, page, STEP_SIZE)
        fronts = [w for w in words if w["y"] < fold]
        backs = [w for w in words if w["y"] > fold]
        for front in fronts:
            behind = [b for b in backs if abs(b["x"] - front["x"]) < 0.5 and abs(2 * fold - b["y"] - front["y"]) < 0.5]
            assert len(behind) == 1, front
            pairs[(front["text"], behind[0]["text"][::-1])] += 1  # a back is upside down: its digits read backwards
    assert pairs == {("1", "3"): 60, ("5", "3"): 60, ("20", "15"): 4, ("10", "5"): 4}


def test_charts_print_the_facts(built, game):
    chart = " ".join(w["text"] for w in pdfcheck.words(built / "charts.pdf", 0))
    assert "Dreadnought 24 A 6 3 x3 Size 6 3 2" in chart
    production = " ".join(w["text"] for w in pdfcheck.words(built / "production-sheet.pdf", 0))
    assert f"(max {game.fact('cp_carry_over_max')})" in production
    reference = " ".join(w["text"] for w in pdfcheck.words(built / "reference.pdf", 1))
    assert "(d10) 1–2 Ship Size 3–4 Attack 5–6 Defense 7 Tactics 8–9 Movement 10 Ship Yard" in reference


def test_the_odds_table_prints_the_calculators_numbers(built, game):
    from cardgen.engine.games.space_empires_4x.odds import odds

    text = " ".join(w["text"] for w in pdfcheck.words(built / "reference.pdf", 2))
    [sheet] = [i for i in game.component("reference").items if i.id == "reference-odds"]
    for matchup in sheet.fields["matchups"]:
        attacker, defender = matchup.split(" / ")
        result = odds(game, attacker, defender)
        o = result.outcomes
        shares = " ".join(f"{100 * o[k]:.0f} %" for k in ("attacker wins", "defender wins", "attacker retreats",
                                                         "defender retreats"))  # fmt: skip
        row = f"{attacker} {defender} {shares} {result.length:.1f}"
        assert row in text, row
    assert "1 SC 1 SC 41 % 59 % 0 % 0 % 2.0" in text  # 10/17 to the defender, who fires first


def test_map_is_tiled_over_pages_with_alignment_guides(built):
    pdf = built / "map.pdf"
    assert len(pdfcheck.page_sizes(pdf)) == 4
    label = " ".join(w["text"] for w in pdfcheck.words(pdf, 0))
    assert "part 1,1 of 2×2" in label and "line up the crosshairs" in label


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]], inset: float = 0.0) -> bool:
    """Whether a point lies inside a convex polygon, at least `inset` (points) from each of its edges."""
    edges = list(itertools.pairwise([*polygon, polygon[0]]))
    turn = 1.0 if sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in edges) > 0 else -1.0
    return all(
        turn * ((x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)) / math.dist((x1, y1), (x2, y2)) >= inset
        for (x1, y1), (x2, y2) in edges
    )


def test_map_labels_stay_inside_their_hex_and_off_its_corners(built):
    """The word Homeworld lies wholly inside its heavy-bordered hex; each Home System letter inside its hex, at least
    5 mm from every corner (the board is drawn whole on each tile page, clipped, so page 1 holds every label)."""
    import pdfplumber

    with pdfplumber.open(built / "map.pdf") as pdf:
        page = pdf.pages[0]
        hexes = [c for c in page.curves if len(c["pts"]) == 7]
        heavy = [c["pts"][:6] for c in hexes if c["linewidth"] > 4]  # the Homeworld's 1.8 mm border
        words = page.extract_words(extra_attrs=["size"])
    mm = 72 / 25.4
    homeworlds = [w for w in words if w["text"] == "Homeworld"]
    assert len(homeworlds) == len(heavy) == 4
    for word in homeworlds:
        corners = [(x, y) for x in (word["x0"], word["x1"]) for y in (word["top"], word["bottom"])]
        assert any(all(_inside(c, h, inset=0.9 * mm) for c in corners) for h in heavy), word
    board_bottom = max(y for c in hexes for _, y in c["pts"])  # the legend below the board names the letters too
    letters = [w for w in words if w["text"] in "RBGY" and abs(w["size"] - 7) < 0.1 and w["bottom"] < board_bottom]
    assert len(letters) > 40
    for letter in letters:
        centre = ((letter["x0"] + letter["x1"]) / 2, (letter["top"] + letter["bottom"]) / 2)
        [home] = [c["pts"][:6] for c in hexes if _inside(centre, c["pts"][:6])]
        assert min(math.dist(centre, corner) for corner in home) > 5 * mm, letter


def test_each_warship_type_has_its_own_silhouette(game):
    """Scouts to Dreadnoughts: six outlines, not one outline drawn at six sizes (compared at the same size)."""
    from cardgen.paths import default_fonts_dir, default_templates_dir
    from cardgen.render.build import BuildReport, GameRenderer, PrintOptions
    from cardgen.render.layouts import Layouts

    renderer = GameRenderer(game, Layouts(default_templates_dir()), default_fonts_dir())
    job = renderer.job(game.component("ship-counters"), PrintOptions(), BuildReport())
    outlines = {}
    for unit in ("SC", "DD", "CA", "BC", "BB", "DN"):
        front, _ = job.faces.item_faces[f"{unit.lower()}1-red"]
        [hull, *_] = [e["points"] for e in job.faces.faces[front].face.elements if e.tag == "polygon"]
        left, right = min(x for x, _ in hull), max(x for x, _ in hull)
        middle = sum(y for _, y in hull) / len(hull)
        outlines[unit] = tuple((round((x - left) / (right - left), 2), round((y - middle) / (right - left), 2))
                               for x, y in hull)  # fmt: skip
    assert len(set(outlines.values())) == 6


def test_player_facing_pages_carry_no_designer_text(built, game):
    assert pdfcheck.designer_text(built, game) == {}


def test_hit_markers_print_on_the_ship_counters_last_sheet(built):
    """Twelve hit markers (one hit on the front, two behind it) fill the last ship-counter sheet; the guide says so."""
    fronts, backs = _halves(built / "ship-counters.pdf", 3, 12)  # the hits, 12 pt
    assert sorted(t for t, _, _ in fronts) == ["1"] * 12 and sorted(t for t, _, _ in backs) == ["2"] * 12
    for (_, x, y), (_, bx, by) in zip(sorted(fronts), sorted(backs), strict=True):
        assert x == pytest.approx(bx, abs=0.3) and y == pytest.approx(by, abs=0.3)
    assert "ship-counters.pdf also holds hit-markers" in (built / "PRINT.md").read_text()


# --- the look (issue 37): a night map, terrain art, a reference that teaches the game ---------------------------

PROVENANCE = ("rules summary", "our own words", "wording ours", "reading", "rulebook", "calculator", "published",
              "cited", "cardgen")  # fmt: skip


def test_no_page_says_where_its_figures_come_from(built):
    for pdf in built.glob("*.pdf"):
        if pdf.name == "print-guide.pdf":
            continue
        for page in range(len(pdfcheck.page_sizes(pdf))):
            words = pdfcheck.text(pdf, page).lower()
            assert not [p for p in PROVENANCE if p in words], (pdf.name, page)


def test_the_reference_teaches_a_whole_game_from_the_facts(built, game):
    """Page 1 covers set-up, the round, movement, exploring, the Economic Phase, colonies, combat and winning, with
    the numbers of rules.yaml; every character on the reference is at least 7 pt."""
    import pdfplumber

    with pdfplumber.open(built / "reference.pdf") as pdf:
        first = pdf.pages[0]
        half = first.width / 2
        columns = [first.crop((0, 0, half, first.height)), first.crop((half, 0, first.width, first.height))]
        page = " ".join(" ".join((column.extract_text() or "").split()) for column in columns)
    for heading in ("Setting up", "The round", "Exploring", "Economic Phase", "Combat", "Screening:", "Fleet size:",
                    "Fire order:", "To hit:", "Retreat:", "Colonies grow:", "Winning:"):  # fmt: skip
        assert heading in page, heading
    bonus = game.fact("fleet_size_bonus")
    for figure in (f"{game.fact('turns_per_round')} turns and then an Economic Phase",
                   f"at most {game.fact('cp_carry_over_max')} CP",
                   f"from round {game.fact('retreat_from_round')} on",
                   f"at least {bonus['ratio']} times as many armed ships",
                   f"{', '.join(map(str, game.fact('colony_growth')))} CP",
                   f"A {game.fact('automatic_hit')} always hits",
                   f"a Homeworld {game.fact('homeworld_hit_step')} CP"):  # fmt: skip
        assert figure in page, figure
    with pdfplumber.open(built / "reference.pdf") as pdf:
        assert min(c["size"] for p in pdf.pages for c in p.chars) >= 7 - 0.01


def test_the_map_lies_on_a_starfield_and_light_ink_keeps_it_on_paper(built, tmp_path):
    from pypdf import PdfReader

    def images(path: Path) -> int:
        found = 0
        for page in PdfReader(path).pages:
            for xobject in (page["/Resources"].get("/XObject") or {}).values():
                xobject = xobject.get_object()
                found += xobject["/Subtype"] == "/Image"
                inner = xobject.get("/Resources", {}).get("/XObject") or {}
                found += sum(i.get_object()["/Subtype"] == "/Image" for i in inner.values())
        return found

    full = built / "map.pdf"
    run = run_cli("build", GAME, "--only", "map", "--ink", "light", "--out", tmp_path, "-q", "--no-validate")
    assert run.code == 0, run.err
    light = tmp_path / GAME / "map.pdf"
    assert images(full) >= 1 and images(light) == 0  # the nebula is the only raster
    assert min(pdfcheck.ink(full)) > 0.6 and max(pdfcheck.ink(light)) < 0.3


def test_every_kind_of_system_marker_has_its_own_terrain_art(game):
    """Twelve kinds, twelve different pictures — an icon, a generated planet or drawn shapes — on the same sky."""
    from cardgen.paths import default_fonts_dir, default_templates_dir
    from cardgen.render.build import BuildReport, GameRenderer, PrintOptions
    from cardgen.render.layouts import Layouts

    renderer = GameRenderer(game, Layouts(default_templates_dir()), default_fonts_dir())
    art = {}
    for component in ("home-system-markers", "deep-space-markers"):
        job = renderer.job(game.component(component), PrintOptions(), BuildReport())
        for item in game.component(component).items:
            front, _ = job.faces.item_faces[item.id]
            elements = job.faces.faces[front].face.elements
            picture = tuple(
                (e.tag, e.attrs.get("name") or e.attrs.get("palette") or e.attrs.get("fill"))
                for e in elements
                if e.tag in ("icon", "art", "circle", "polygon")
                and e.attrs.get("seed") != "se4x-sky"
                and not (e.tag == "circle" and e.attrs.get("r", 9) < 1.8)  # the set tag's disc
            )
            assert picture, item.id
            art.setdefault(item.fields["kind"], set()).add(picture)
    assert len(art) == 12
    pictures = [p for kinds in art.values() for p in kinds]
    assert len(set(pictures)) == len(pictures) >= 12  # one picture per kind, none shared


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _over(top: str, bottom: str) -> str:
    """An #rrggbbaa colour laid over an opaque one."""
    alpha = int(top[7:9], 16) / 255 if len(top) == 9 else 1.0
    mixed = [round(alpha * int(top[i : i + 2], 16) + (1 - alpha) * int(bottom[i : i + 2], 16)) for i in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_text_on_the_night_map_and_markers_keeps_a_contrast_of_4_5(game):
    """WCAG contrast of every text colour against what lies under it on the night map and the system markers."""
    c = game.manifest.settings.colours
    void = c["void"]
    glass = _over(c["glass"], void)
    pairs = [("star", glass), ("star", void), ("white", void)]
    for player in PLAYERS:
        wash = _over(c[f"w-{player}"], void)
        glow = wash
        for _ in range(3):  # the Homeworld's three rings of glow
            glow = _over(c[f"h-{player}"] + "59", glow)
        pairs += [(f"n-{player}", wash), ("star", wash), ("star", glow)]
    for text, ground in pairs:
        colour = "#ffffff" if text == "white" else c[text]
        assert _contrast(colour, ground) >= 4.5, (text, ground, round(_contrast(colour, ground), 2))
