"""`cardgen gallery`: the static card site, read as files and driven in a real browser (Debian's chromium)."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from cardgen.data import load_games

from conftest import FIXTURES, REPO, run_cli

REFERENCE = FIXTURES / "reference" / "gallery-battlefield-space.png"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gallery")
    run = run_cli("gallery", "battlefield-space", "--out", out)
    assert run.code == 0, run.err
    return out


class Page(HTMLParser):
    """The tags and attributes of a page, to check links, images and labels."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def test_every_distinct_face_is_an_image_with_alt_text_and_nothing_loads_from_elsewhere(site):
    (game,) = load_games(REPO / "card_data", ["battlefield-space"])
    text = (site / "battlefield-space" / "index.html").read_text()
    page = Page(text)
    figures = [a for tag, a in page.tags if tag == "figure"]
    assert [f["data-id"] for f in figures] == [i.id for c in game.components if c.printed for i in c.items]
    images = [a for tag, a in page.tags if tag == "img"]
    assert images and all(a["alt"] and a["loading"] == "lazy" and a["width"] and a["height"] for a in images)
    for a in images:
        assert (site / "battlefield-space" / a["src"]).exists()
    assert not re.search(r"(src|href)=\"(https?:)?//", text) and "@import" not in text
    data = json.loads(re.search(r'<script type="application/json" id="items">(.*?)</script>', text, re.S).group(1))
    assert len(data) == len(figures) and all(f["tabindex"] == "0" for f in figures)


def test_the_about_page_lists_components_print_files_and_facts_with_citations(site):
    (game,) = load_games(REPO / "card_data", ["battlefield-space"])
    text = (site / "battlefield-space" / "about.html").read_text()
    rows = re.findall(r"<tr><td><a [^>]*>(.*?)</a></td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>", text)
    shown = {html.unescape(title): (count, file) for title, _, count, _, file in rows}
    for component in game.components:
        if component.printed:  # each row's item count is the number (a Jinja lookup once printed a dict method)
            assert shown[component.title] == (str(len(component.items)), f"{component.id}.pdf")
    assert "built-in method" not in text and " at 0x" not in text
    for name, fact in game.rules.facts.items():
        assert f"<td>{name}</td>" in text and fact.cite in html.unescape(text)
    links = [a["href"] for tag, a in Page(text).tags if tag == "a" and a["href"].startswith("index.html#card-")]
    ids = {i.id for _, i in game.items()}
    assert links and all(link.removeprefix("index.html#card-") in ids for link in links)


def shown(browser) -> list[str]:
    return browser.execute_script(
        "return [...document.querySelectorAll('figure[data-id]')].filter(f => !f.hidden).map(f => f.dataset.id)"
    )


def test_in_a_browser_search_filter_and_follow_a_link(site, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    (game,) = load_games(REPO / "card_data", ["battlefield-space"])
    browser.get((site / "battlefield-space" / "index.html").as_uri())
    everything = shown(browser)
    assert len(everything) == sum(len(c.items) for c in game.components if c.printed)
    browser.find_element(By.ID, "search").send_keys("dreadnought")
    found = shown(browser)
    assert found and len(found) < len(everything) and all("dreadnought" in f for f in found)
    assert browser.find_element(By.ID, "shown").text == f"{len(found)} of {len(everything)} shown"
    browser.find_element(By.ID, "search").clear()
    browser.execute_script("document.getElementById('search').dispatchEvent(new Event('input'))")
    Select(browser.find_element(By.ID, "component")).select_by_value("blue-deck")
    blue = {i.id for i in game.component("blue-deck").items}
    assert set(shown(browser)) == blue
    Select(browser.find_element(By.ID, "component")).select_by_value("")
    Select(browser.find_element(By.ID, "field")).select_by_value("force")
    browser.find_element(By.ID, "value").send_keys("6")
    sixes = {i.id for _, i in game.items() if str(i.fields.get("force")) == "6"}
    assert set(shown(browser)) == sixes and sixes
    # every image loads once scrolled into view
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    browser.get((site / "battlefield-space" / "about.html").as_uri())
    link = browser.find_element(By.CSS_SELECTOR, "a[href^='index.html#card-']")
    target = link.get_attribute("href").split("#")[1]
    link.click()
    assert browser.execute_script("return document.activeElement.id") == target
    loaded = browser.execute_script(
        "const imgs=[...document.images]; imgs.forEach(i => i.loading = 'eager');"
        "return Promise.all(imgs.map(i => i.decode().then(() => i.naturalWidth > 0, () => false)))"
    )
    assert loaded and all(loaded)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_a_screenshot_of_the_page_matches_the_reference(site, browser, tmp_path):
    browser.get((site / "battlefield-space" / "index.html").as_uri())
    browser.execute_script("return Promise.all([...document.images].slice(0, 20).map(i => i.decode()))")
    shot = tmp_path / "page.png"
    browser.save_screenshot(str(shot))
    if os.environ.get("CARDGEN_UPDATE_REFERENCE"):
        shutil.copy(shot, REFERENCE)
    image = Image.open(shot).convert("RGB")
    reference = Image.open(REFERENCE).convert("RGB")
    assert image.size == reference.size
    difference = max(ImageStat.Stat(ImageChops.difference(image, reference)).mean)
    assert difference < 3, f"the page looks different ({difference:.1f}); look at {shot}"


def test_the_demo_game_has_a_gallery(tmp_path):
    run = run_cli("--data-dir", FIXTURES / "card_data", "--templates-dir", FIXTURES / "templates", "gallery",
                  "demo", "--out", tmp_path)  # fmt: skip
    assert run.code == 0, run.err
    text = (tmp_path / "demo" / "index.html").read_text()
    assert text.count("<figure") == 6 and (tmp_path / "index.html").exists()
