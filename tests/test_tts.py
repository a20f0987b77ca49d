"""`cardgen build --format tts`: Tabletop Simulator sheets, tiles, boards and the saved object, read back."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from cardgen.data import load_games
from cardgen.render.tts import GRID, SHEET_PX, SavedObject, schema

from conftest import REPO, run_cli


@pytest.fixture(scope="module")
def tts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    decks = "red-deck,reference-cards,battlefield-mat"  # the blue deck and the rules sheet would add nothing here
    for args in (["battlefield-space", "--only", decks], ["star-commander", "--only", "credit-tokens,player-aids"]):
        run = run_cli("build", *args, "--format", "tts", "--out", out, "--jobs", "1", "-q")
        assert run.code == 0, run.err
    return out


def saved(tts: Path, game: str) -> dict:
    data = json.loads((tts / game / "tts" / f"{game}.json").read_text())
    SavedObject.model_validate(data)  # the shape cardgen promises (docs/tts-schema.json)
    return data


def test_every_card_is_in_its_deck_count_times_with_ids_in_sheet_order(tts):
    data = saved(tts, "battlefield-space")
    (game,) = load_games(REPO / "card_data", ["battlefield-space"])
    decks = {o["Nickname"]: o for o in data["ObjectStates"] if o["Name"] == "DeckCustom"}
    for component in game.components:
        if component.title not in decks:  # the decks this fixture built
            continue
        deck = decks[component.title]
        key = next(iter(deck["CustomDeck"]))
        expected = [int(key) * 100 + slot for slot, item in enumerate(component.items) for _ in range(item.count)]
        assert deck["DeckIDs"] == expected  # sheet order, copies repeated
        assert Counter(c["CardID"] for c in deck["ContainedObjects"]) == Counter(expected)
        names = [c["Nickname"] for c in deck["ContainedObjects"]]
        assert names[0] == component.items[0].fields.get("name", component.items[0].id)
    assert len(decks) == 2
    keys = [k for o in decks.values() for k in o["CustomDeck"]]
    assert len(keys) == len(set(keys))  # sheet keys are unique in the save


def test_sheets_fit_the_grid_and_keep_the_last_slot_for_the_hidden_card(tts):
    data = saved(tts, "battlefield-space")
    red = next(o for o in data["ObjectStates"] if o["Nickname"].startswith("Red alliance"))
    sheet = next(iter(red["CustomDeck"].values()))
    assert sheet["FaceURL"].startswith("file:///") and not sheet["UniqueBack"]
    folder = tts / "battlefield-space" / "tts" / "red-deck"
    faces = Image.open(folder / "faces-1.png")
    back = Image.open(folder / "back.png").convert("RGB")
    w, h = faces.width // sheet["NumWidth"], faces.height // sheet["NumHeight"]
    assert sheet["NumWidth"] <= GRID[0] and sheet["NumHeight"] <= GRID[1]
    assert max(faces.size) <= SHEET_PX and (w, h) == back.size
    assert abs(w / h - 63.5 / 88.9) < 0.01  # poker cards at the trim, no bleed
    last = faces.crop((faces.width - w, faces.height - h, faces.width, faces.height)).convert("RGB")
    assert ImageStat.Stat(ImageChops.difference(last, back)).mean == [0.0, 0.0, 0.0]
    first = faces.crop((0, 0, w, h)).convert("RGB")
    assert max(ImageStat.Stat(ImageChops.difference(first, back)).mean) > 20  # a front, not the back


def test_different_backs_get_a_back_sheet(tts):
    data = saved(tts, "battlefield-space")
    cards = next(o for o in data["ObjectStates"] if o["Nickname"].startswith("Reference cards"))
    sheet = next(iter(cards["CustomDeck"].values()))
    assert sheet["UniqueBack"] and sheet["BackURL"].endswith("reference-cards/backs-1.png")
    assert (tts / "battlefield-space" / "tts" / "reference-cards" / "backs-1.png").exists()


def test_boards_and_round_tokens(tts):
    bf = saved(tts, "battlefield-space")
    assert [o["Name"] for o in bf["ObjectStates"]].count("Custom_Board") == 1
    sc = saved(tts, "star-commander")
    (game,) = load_games(REPO / "card_data", ["star-commander"])
    bag = next(o for o in sc["ObjectStates"] if o["Name"] == "Bag" and "Credit" in o["Nickname"])
    assert len(bag["ContainedObjects"]) == game.component("credit-tokens").count
    assert {t["CustomImage"]["CustomTile"]["Type"] for t in bag["ContainedObjects"]} == {2}  # circles
    for tile in bag["ContainedObjects"]:
        for url in (tile["CustomImage"]["ImageURL"], tile["CustomImage"]["ImageSecondaryURL"]):
            assert Path(url.removeprefix("file://")).exists()


def test_a_base_url_replaces_the_local_folder(tmp_path):
    run = run_cli("build", "battlefield-space", "--only", "reference-cards", "--format", "tts", "--out", tmp_path,
                  "--tts-base-url", "https://example.org/bf/", "-q")  # fmt: skip
    assert run.code == 0, run.err
    text = (tmp_path / "battlefield-space" / "tts" / "battlefield-space.json").read_text()
    assert "file://" not in text and "https://example.org/bf/reference-cards/faces-1.png" in text


def test_a_base_url_is_http_with_a_host_or_a_file_address_inside_the_output_folder(tmp_path):
    from cardgen.errors import DataError
    from cardgen.render.tts import check_base_url

    out = tmp_path / "out"
    for good in ("https://example.org/bf/", "HTTP://localhost:8000/x", f"{out.as_uri()}/", f"{out.as_uri()}/bf/tts"):
        assert check_base_url(good, out) == good
    outside = (f"{tmp_path.as_uri()}/", f"file://host{out}/", f"{out.as_uri()}/../../", "file:///etc/", "file:out")
    for bad in ("javascript:alert(1)", "data:text/html,x", "https://", "example.org/x", "https://a b/", "http://[::1"):
        with pytest.raises(DataError, match=r"^--tts-base-url: "):
            check_base_url(bad, out)
    for bad in outside:
        with pytest.raises(DataError, match=r"^--tts-base-url: .*(outside the output folder|not an absolute)"):
            check_base_url(bad, out)


def test_the_published_schema_is_the_models(tmp_path):
    assert json.loads((REPO / "docs" / "tts-schema.json").read_text()) == schema()


def test_tts_output_is_byte_identical_build_to_build(tmp_path):
    builds = []
    for name in ("one", "two"):
        run = run_cli("build", "battlefield-space", "--only", "reference-cards", "--format", "tts",
                      "--out", tmp_path / name, "-q")  # fmt: skip
        assert run.code == 0, run.err
        builds.append(tmp_path / name / "battlefield-space" / "tts")
    files = sorted(p.relative_to(builds[0]) for p in builds[0].rglob("*") if p.is_file())
    assert len(files) == 3  # the face sheet, the back sheet, the saved object
    for name in files:
        one, two = (builds[0] / name).read_bytes(), (builds[1] / name).read_bytes()
        if name.suffix == ".json":  # the addresses name each build's own folder
            one = one.replace(builds[0].resolve().as_uri().encode(), b"")
            two = two.replace(builds[1].resolve().as_uri().encode(), b"")
        assert one == two, name


def test_a_slot_shows_the_face_cut_at_the_trim(tts, tmp_path):
    (game,) = load_games(REPO / "card_data", ["battlefield-space"])
    item = game.component("red-deck").items[0]
    preview = tmp_path / "face.png"
    assert run_cli("preview", "battlefield-space", item.id, "--dpi", "300", "--out", preview).code == 0
    face = Image.open(preview).convert("RGB")
    bleed = round(game.manifest.settings.bleed / 25.4 * 300)
    faces = Image.open(tts / "battlefield-space" / "tts" / "red-deck" / "faces-1.png").convert("RGB")
    sheet = next(iter(saved(tts, "battlefield-space")["ObjectStates"][0]["CustomDeck"].values()))
    w, h = faces.width // sheet["NumWidth"], faces.height // sheet["NumHeight"]
    slot = faces.crop((0, 0, w, h))
    trimmed = face.crop((bleed, bleed, face.width - bleed, face.height - bleed)).resize((w, h))
    uncut = face.resize((w, h))
    near = max(ImageStat.Stat(ImageChops.difference(slot, trimmed)).mean)
    far = max(ImageStat.Stat(ImageChops.difference(slot, uncut)).mean)
    # slots are at least 2 × 2 a sheet now (TTS refuses one-row sheets): larger slots keep finer stars, which
    # resampling renders a little differently (measured 4.8 against 40 for the uncut face)
    assert near < 6 < far, (near, far)


def test_the_probe_games_hexes_round_and_square_counters_landscape_cards_and_board(tmp_path):
    probe = REPO / "tests" / "fixtures" / "probe"
    run = run_cli("--data-dir", probe / "card_data", "--templates-dir", probe / "templates", "build", "probe",
                  "--format", "tts", "--out", tmp_path, "-q")  # fmt: skip
    assert run.code == 0, run.err
    (game,) = load_games(probe / "card_data", ["probe"])
    data = saved(tmp_path, "probe")
    objects = {o["Nickname"]: o for o in data["ObjectStates"]}
    shapes = {"hex": 1, "round": 2, "rect": 0}
    for component in game.components:
        if not component.printed:
            continue
        if component.kind == "sheets":
            continue
        lone = component.count == 1 and component.kind == "deck"  # one card is a Card, named after it
        obj = objects[component.items[0].fields.get("name", component.items[0].id) if lone else component.title]
        if component.kind in ("counters", "tiles"):
            assert obj["Name"] == "Bag" and len(obj["ContainedObjects"]) == component.count
            assert {t["CustomImage"]["CustomTile"]["Type"] for t in obj["ContainedObjects"]} == {
                shapes[component.shape]
            }
        elif component.kind == "deck":
            assert obj["Name"] in ("DeckCustom", "Card")
    assert any(o["Name"] == "Custom_Board" for o in data["ObjectStates"])


def test_the_demo_game_exports(tmp_path):
    demo = REPO / "tests" / "fixtures"
    run = run_cli("--data-dir", demo / "card_data", "--templates-dir", demo / "templates", "build", "demo",
                  "--format", "tts", "--out", tmp_path, "-q")  # fmt: skip
    assert run.code == 0, run.err
    assert [o["Name"] for o in saved(tmp_path, "demo")["ObjectStates"]] == ["DeckCustom", "Bag", "Custom_Board"]


def test_small_decks_get_sheets_of_two_rows_and_objects_lie_on_the_table():
    """TTS refuses a custom deck sheet one card high or wide: six faces and the hidden card take 4 × 2; objects lie
    in rows within 12 units of the table's centre, however many components a game has."""
    from cardgen.render.tts import TABLE_HALF, sheet_grid, table_spot

    assert [sheet_grid(faces) for faces in (1, 6, 9, 69, 200)] == [(2, 2), (4, 2), (5, 2), (10, 7), (10, 7)]
    spots = [table_spot(index) for index in range(40)]
    assert all(abs(x) <= TABLE_HALF and abs(z) <= TABLE_HALF for x, z in spots)
    assert len(set(spots[:25])) == 25


def test_the_tooltip_carries_every_text_field_with_icons_as_words():
    """The README's own `ability` field reaches the tooltip (only `text` did), `{credits}` read as a word."""
    from cardgen.render.tts import _description

    fields = {"name": "Scout", "cost": 2, "ability": "Draw a card when revealed. Costs {credits} less near a station."}
    assert _description(fields) == "ability: Draw a card when revealed. Costs credits less near a station.\ncost: 2"
