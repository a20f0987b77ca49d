"""Card text in several languages, measured on what is written: the German edition's PDF (its words, its
fallbacks), a German text that overflows where the English one fits (the overflow report says which language), the
checks reading the same data in every language, the spreadsheet's `name@de` columns both ways, the gallery's pages
per language, and the mistakes a designer can make, each named where it was made.

The fixture game `outposts` (tests/fixtures/languages) is written in English and German; its German is cardgen's own.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from pdfcheck import words

from conftest import FIXTURES, GameCopy, copy_game, run_cli

HERE = FIXTURES / "languages"
TEMPLATES = HERE / "templates"


@pytest.fixture
def outposts(tmp_path: Path) -> GameCopy:
    return copy_game("outposts", tmp_path, HERE / "card_data")


def cardgen(copy: GameCopy | Path, *args: str | Path):
    data = copy.data if isinstance(copy, GameCopy) else copy
    return run_cli("--data-dir", data, "--templates-dir", TEMPLATES, *args)


def texts(pdf: Path, page: int) -> list[str]:
    return [w["text"] for w in words(pdf, page)]


def test_texts_load_in_their_languages_and_the_rules_read_the_default():
    from cardgen.data import load_games

    (game,) = load_games(HERE / "card_data", ["outposts"])
    assert game.languages == ("en", "de")
    scout = game.component("outposts").items[0]
    assert scout.fields["name"] == "Scout Post"  # what the rules facts and checks read
    assert scout.translations == {"name": {"de": "Spähposten"},
                                  "text": {"de": "Sieh dir die obersten zwei Karten des Stapels an. Lege eine davon "
                                                 "zurück."}}  # fmt: skip
    colony = game.component("outposts").items[1]
    assert colony.translations["text"] == {"de": "Erhalte zu Beginn deines Zuges 2 {ore}."}  # written as text@de
    storm, _, quiet = game.component("events").items  # from events.csv, its name@de and text@de columns
    assert storm.translations == {"name": {"de": "Sonnensturm"}, "text": {"de": "Jede Station verliert 1 {ore}."}}
    assert quiet.translations == {"text": {"de": "In dieser Runde geschieht nichts."}}  # an empty cell: none


def test_the_german_edition_prints_german_falls_back_field_by_field_and_says_what_fell_back(outposts, tmp_path,
                                                                                           monkeypatch):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    run = cardgen(outposts, "build", "outposts", "--lang", "de")
    assert run.code == 0, run.err
    deck = tmp_path / "output" / "de" / "outposts" / "outposts.pdf"  # beside the default edition, never over it
    first, second = texts(deck, 0), texts(deck, 2)
    assert first.count("Spähposten") == 3 and first.count("Bergbaukolonie") == 3 and "Werft" in first
    assert "Scout" not in first and "Kolonie" in first and "colony" not in first  # the layout's words, in German
    assert "Hauptstadt" in second and "Counts" in second  # its text has no German yet: English, as written
    assert "Quiet" in second and "Sonnensturm" in second  # an event sharing the deck's last sheet
    assert run.err.splitlines()[:3] == [
        "note: outposts: 2 text(s) of the German (de) edition fell back to English (en):",
        "note:   card_data/outposts/outposts.yaml:33: capital.text",
        "note:   card_data/outposts/events.csv:4: quiet-year.name",
    ]
    english = cardgen(outposts, "build", "outposts", "-q")
    assert english.code == 0, english.err
    assert texts(tmp_path / "output" / "outposts" / "outposts.pdf", 0).count("Scout") == 3


def test_german_that_overflows_where_english_fits_is_reported_in_german(outposts, tmp_path):
    long = (
        "**Bauen:** Ziehe für jede deiner Kolonien eine Karte. Danach darfst du eine Karte aus deiner Hand "
        "unter den Stapel legen und dafür eine neue ziehen. Hast du drei oder mehr Kolonien, ziehe noch eine "
        "weitere Karte, zeige sie allen Mitspielenden und lege sie anschließend offen neben deine Werft. Diese "
        "Fähigkeit darfst du in jedem deiner Züge nur einmal nutzen, auch wenn du mehrere Werften besitzt."
    )
    outposts.edit("outposts.yaml", '"**Bauen:** Ziehe für jede deiner Kolonien eine Karte."', json.dumps(long))
    english = cardgen(outposts, "build", "outposts", "--out", tmp_path / "en", "-q")
    assert english.code == 0, english.err  # the English text fits
    german = cardgen(outposts, "build", "outposts", "--lang", "de", "--out", tmp_path / "de", "-q")
    assert german.code == 1
    (line,) = [line for line in german.err.splitlines() if "overflows" in line]
    assert re.fullmatch(r"cardgen: error: outposts: outposts: card 'shipyard' front: field 'text' overflows its box "
                        r"by \d+\.\d mm even at 6\.5 pt in German \(de\)", line), line  # fmt: skip
    assert not (tmp_path / "de" / "outposts" / "outposts.pdf").exists()  # not written: the German text overflows
    validated = cardgen(outposts, "validate", "outposts", "--json")
    violations = json.loads(validated.out)["games"]["outposts"]["violations"]
    (overflow,) = [v for v in violations if v["rule"] == "Outpost text fits"]
    assert overflow["actual"].endswith("at 6.5 pt in German (de)") and "shipyard" in overflow["where"]


def test_the_checks_read_the_default_language_whatever_the_edition(outposts):
    """A check that English names are plain ASCII holds though the German names are not: the rules read the data
    as written in the default language, and no edition changes them."""
    rules = outposts.folder / "rules.yaml"
    rules.write_text(rules.read_text() + "  - {rule: Plain names, check: matches, component: outposts, field: name, "
                     'pattern: "[A-Za-z ]+"}\n')  # fmt: skip
    run = cardgen(outposts, "validate", "outposts")
    assert run.code == 0, run.out + run.err
    assert "6 checks, all hold" in run.out


def test_a_spreadsheet_keeps_each_language_in_its_own_column_both_ways(outposts, tmp_path):
    out = tmp_path / "outposts.csv"
    run = cardgen(outposts, "export-items", "outposts", "outposts", "--out", out)
    assert run.code == 0, run.err
    header, scout, *_ = out.read_text().splitlines()
    assert header == "id,count,name,cost,kind,text,name@de,text@de"
    assert scout.startswith("scout-post,3,Scout Post,1,station,") and ",Spähposten," in scout
    shutil.copy(out, outposts.folder / "outposts.csv")
    (outposts.folder / "outposts.yaml").write_text("type: outpost\nfront: outpost\ncards: {file: outposts.csv}\n")
    from cardgen.data import load_games

    (again,) = load_games(outposts.data, ["outposts"])
    (before,) = load_games(HERE / "card_data", ["outposts"])
    assert [(i.id, dict(i.fields), i.translations) for i in again.component("outposts").items] == [
        (i.id, dict(i.fields), i.translations) for i in before.component("outposts").items
    ]


def test_the_gallery_has_a_page_per_language_with_a_switch(outposts, tmp_path):
    run = cardgen(outposts, "gallery", "outposts", "--out", tmp_path)
    assert run.code == 0, run.err
    english = (tmp_path / "outposts" / "index.html").read_text()
    german = (tmp_path / "outposts" / "index.de.html").read_text()
    assert '<html lang="en">' in english and '<html lang="de">' in german
    assert '<a href="index.de.html" hreflang="de" lang="de">Deutsch</a>' in english
    assert '<a href="index.html" hreflang="en" lang="en">English</a>' in german
    assert "Spähposten" in german and "Spähposten" not in english
    english_faces = sorted(set(re.findall(r'src="(faces/outposts/\d+\.png)"', english)))
    german_faces = sorted(set(re.findall(r'src="(faces-de/outposts/\d+\.png)"', german)))
    assert len(english_faces) == len(german_faces) == 6  # five fronts and their back
    same = [(tmp_path / "outposts" / a).read_bytes() == (tmp_path / "outposts" / b).read_bytes()
            for a, b in zip(english_faces, german_faces, strict=True)]  # fmt: skip
    assert same.count(True) == 1  # each front drawn in its language; the back (the game's title) is the same


def test_a_preview_in_german(outposts, tmp_path):
    out = tmp_path / "scout.png"
    run = cardgen(outposts, "preview", "outposts", "scout-post", "--lang", "de", "--out", out)
    english = cardgen(outposts, "preview", "outposts", "scout-post", "--out", tmp_path / "en.png")
    assert run.code == english.code == 0, run.err + english.err
    assert out.read_bytes() != (tmp_path / "en.png").read_bytes()


MISTAKES = [
    (
        "name: {en: Shipyard, de: Werft}",
        "name: {en: Shipyard, fr: Chantier}",
        "outposts.yaml:25: cards[3] (shipyard).name.fr: 'fr' is not one of the game's languages (en, de)",
    ),
    (
        "name: {en: Shipyard, de: Werft}",
        "name: {de: Werft}",
        "outposts.yaml:25: cards[3] (shipyard).name: no English (en) text: the first language of game.yaml's "
        "languages is the one every text is written in",
    ),
    (
        '    kind: colony\n    text: "Counts',
        '    kind: colony\n    kind@de: Kolonie\n    text: "Counts',
        "outposts.yaml:33: cards[4] (capital).kind@de: 'kind' is a choice, not text to translate",
    ),
    (
        "    cost: 6\n",
        "    cost: 6\n    cost@de: 7\n",
        "outposts.yaml:32: cards[4] (capital).cost@de: 'cost' is a field of type int, not text to translate",
    ),
    (
        'text@de: "Erhalte',
        'text@dee: "Erhalte',
        "outposts.yaml:17: cards[1] (mining-colony).text@dee: 'dee' is not one of the game's languages (en, de) "
        "(did you mean 'de'?)",
    ),
    (
        "name: {en: Relay Station, de: Relaisstation}",
        "name: {en: Relay Station, de: 7}",
        "outposts.yaml:20: cards[2] (relay).name.de: expected text",
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), MISTAKES)
def test_a_text_in_a_language_that_cannot_be_is_named_where_it_is_written(outposts, old, new, expected):
    outposts.edit("outposts.yaml", old, new)
    run = cardgen(outposts, "validate", "outposts")
    assert run.code == 2
    assert any(line.endswith(expected) or expected in line for line in run.err.splitlines()), run.err


def test_languages_in_a_spreadsheet_header_and_an_unknown_edition(outposts):
    outposts.edit("events.csv", "name@de", "name@fr")
    bad = cardgen(outposts, "validate", "outposts")
    assert bad.code == 2
    assert "events.csv:1: column 'name@fr': 'fr' is not one of the game's languages (en, de)" in bad.err
    outposts.edit("events.csv", "name@fr", "name@de")
    outposts.edit("game.yaml", "languages: [en, de]", "languages: [en]")
    unknown = cardgen(outposts, "validate", "outposts")
    assert unknown.code == 2 and "'de' is not one of the game's languages (en)" in unknown.err
    none = run_cli("--data-dir", FIXTURES / "card_data", "build", "demo", "--lang", "de", "--trust-code")
    assert none.code == 2
    assert "demo: no language 'de' (it lists none in game.yaml (languages:))" in none.err
    assert cardgen(outposts, "build", "outposts", "--lang", "../x").code == 2  # a code names a folder: checked


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed (apt-get install git)")
def test_a_changed_translation_is_news_for_its_edition_only(outposts, tmp_path, monkeypatch):
    """A German name changed since a revision: the diff lists `name@de`, the German reprint prints that card with a
    German changelog line, and the English edition has nothing to reprint."""
    from test_versions import git

    git(outposts.data, "init", "-q")
    git(outposts.data, "add", "-A")
    git(outposts.data, "commit", "-qm", "first")
    git(outposts.data, "tag", "v1")
    outposts.edit("outposts.yaml", "de: Werft}", "de: Raumwerft}")
    monkeypatch.chdir(tmp_path)
    found = json.loads(cardgen(outposts, "diff", "outposts@v1", "--format", "json").out)
    (deck,) = [c for c in found["components"] if c["id"] == "outposts"]
    assert deck["changed"] == [{"id": "shipyard", "name": "Shipyard",
                                "fields": [{"field": "name@de", "old": "Werft", "new": "Raumwerft"}]}]  # fmt: skip
    german = cardgen(outposts, "build", "outposts", "--changed-since", "v1", "--lang", "de", "-q")
    assert german.code == 0, german.err
    built = tmp_path / "output" / "changes" / "de" / "outposts"
    assert texts(built / "outposts.pdf", 0).count("Raumwerft") == 1
    assert "- Raumwerft: name “Raumwerft” (was “Werft”)." in (built / "PRINT.md").read_text()
    english = cardgen(outposts, "build", "outposts", "--changed-since", "v1")
    assert english.code == 0 and "note: outposts: nothing to print since v1: no item changed" in english.err


def test_an_edition_built_with_workers_is_the_one_built_alone(outposts, tmp_path):
    """The workers that draw games while they load draw the edition asked for, byte for byte what one process
    writes."""
    for jobs in ("1", "2"):
        run = cardgen(outposts, "build", "outposts", "--lang", "de", "--jobs", jobs, "--out", tmp_path / jobs, "-q")
        assert run.code == 0, run.err
    one, two = tmp_path / "1" / "outposts", tmp_path / "2" / "outposts"
    assert (one / "outposts.pdf").read_bytes() == (two / "outposts.pdf").read_bytes()
    assert "Spähposten" in texts(two / "outposts.pdf", 0)


def test_the_gallery_switches_language_in_a_browser(outposts, tmp_path, browser):
    """In headless Chromium: the English page's switch opens the German page, whose cards carry their German names
    and German faces, every image loading, and back."""
    from selenium.webdriver.common.by import By

    assert cardgen(outposts, "gallery", "outposts", "--out", tmp_path).code == 0
    browser.get((tmp_path / "outposts" / "index.html").as_uri())
    browser.find_element(By.LINK_TEXT, "Deutsch").click()
    assert browser.execute_script("return document.documentElement.lang") == "de"
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "figcaption .name")]
    assert names[:2] == ["Spähposten", "Bergbaukolonie"] and "Hauptstadt" in names
    loaded = browser.execute_script(
        "const imgs=[...document.images]; imgs.forEach(i => i.loading = 'eager');"
        "return Promise.all(imgs.map(i => i.decode().then(() => i.currentSrc, () => '')))"
    )
    assert loaded and all("/faces-de/" in src for src in loaded)
    browser.find_element(By.LINK_TEXT, "English").click()
    assert browser.execute_script("return document.documentElement.lang") == "en"
    assert browser.find_element(By.CSS_SELECTOR, "figcaption .name").text == "Scout Post"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
