"""`cardgen gallery`: a static web page per game showing every distinct face, searchable and filterable, offline.

For each game, `<out>/<game>/index.html` shows every item's front and back as images (rendered from the same layouts
as the print files, at screen resolution, cut at the trim) with its fields, copies and what validation and text
fitting say about it; a search box matches any text, and selects filter by component and by any field's value.
`<out>/<game>/about.html` lists the components, the files `cardgen build` prints for them, and the rules facts with
their citations (a fact naming a card links to it). `<out>/index.html` lists the games. Everything is in the folder:
no server, no external fonts, scripts or style sheets; images load lazily and carry alt text; every card is a
focusable element reachable with the keyboard.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from cardgen.output import write_atomic
from cardgen.paths import default_fonts_dir
from cardgen.render.build import GameRenderer
from cardgen.render.jobs import BuildReport, PrintOptions
from cardgen.render.library import credit
from cardgen.render.proof import item_status
from cardgen.render.shop import face_images
from cardgen.validate.base import Violation

CARD_DPI = 110  # a poker card 275 px wide: sharp on a laptop screen, small to load
MAX_PX = 1400  # sheets and boards are shrunk to this many pixels a side at most

ASSETS = Path(__file__).parent / "gallery_assets"  # the page templates, style sheet and script
ENV = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)

STYLE = Markup((ASSETS / "gallery.css").read_text(encoding="utf-8"))  # ours, inserted as it is

SCRIPT = Markup((ASSETS / "gallery.js").read_text(encoding="utf-8"))

INDEX = ENV.from_string((ASSETS / "index.html.j2").read_text(encoding="utf-8"))

ABOUT = ENV.from_string((ASSETS / "about.html.j2").read_text(encoding="utf-8"))

HOME = ENV.from_string((ASSETS / "home.html.j2").read_text(encoding="utf-8"))


@dataclass
class GalleryGame:
    id: str
    title: str
    items: int


def page_name(language: str, default: str) -> str:
    """The page of one language's edition: `index.html` for the default language, `index.de.html` for German."""
    return "index.html" if language == default else f"index.{language}.html"


def write_game(renderer: GameRenderer, violations: list[Violation], folder: Path) -> GalleryGame:
    """One game's pages and face images; a game in several languages gets a page per language (its faces drawn
    in that language, what overflowed in it said), each with a switch to the others."""
    from cardgen.data.editions import edition

    game = renderer.game
    languages = game.languages
    if not languages:
        return _write_edition(renderer, violations, folder)
    for language in languages:
        localized = edition(game, language).game
        edition_renderer = GameRenderer(localized, renderer.layouts, default_fonts_dir())
        written = _write_edition(edition_renderer, violations, folder, language, languages)
    return GalleryGame(game.id, game.title, written.items)


def _write_edition(
    renderer: GameRenderer, violations: list[Violation], folder: Path, language: str = "",
    languages: tuple[str, ...] = (),
) -> GalleryGame:  # fmt: skip
    """One edition's page (and, for the default language, the about page)."""
    from cardgen.data.languages import OWN_NAMES

    game = renderer.game
    default = languages[0] if languages else ""
    faces_folder = "faces" if language == default else f"faces-{language}"
    switch = [{"href": page_name(other, default), "name": OWN_NAMES.get(other.split("-")[0], other), "lang": other,
               "current": other == language} for other in languages]  # fmt: skip
    options = PrintOptions()
    items: list[dict[str, Any]] = []
    components = []
    names: dict[str, str] = {}
    icons: set[str] = set()  # the icon library's icons the faces draw, whose authors are credited
    for component in filter(lambda c: c.printed, game.components):
        report = BuildReport()
        job = renderer.job(component, options, report)
        icons.update(job.library_icons())
        status = item_status(game, violations, report)
        keys = list(dict.fromkeys(k for i in component.items for k in job.faces.item_faces[i.id] if k))
        big = max(job.face.width, job.face.height) / 25.4 * CARD_DPI
        dpi = CARD_DPI * min(1.0, MAX_PX / big)
        images = face_images(job, keys, dpi)  # type: ignore[arg-type]
        cut = job.bleed / 25.4 * dpi
        files: dict[str, tuple[str, int, int]] = {}
        for n, (key, image) in enumerate(zip(keys, images, strict=True)):
            face = image.crop((round(cut), round(cut), round(image.width - cut), round(image.height - cut)))
            buffer = io.BytesIO()
            face.convert("RGB").save(buffer, "PNG")
            name = f"{faces_folder}/{component.id}/{n + 1}.png"
            write_atomic(folder / name, buffer.getvalue())
            files[key] = (name, face.width, face.height)
        for item in component.items:
            fields = {k: _text(v) for k, v in item.fields.items() if v not in (None, "", [])}
            name = _name(fields, item.id)
            names.setdefault(name.lower(), item.id)
            sides = zip(("front", "back"), job.faces.item_faces[item.id], strict=True)
            faces = [{"src": files[k][0], "w": files[k][1], "h": files[k][2], "side": side} for side, k in sides if k]
            text = " ".join([item.id, name, component.title, *fields.values()]).lower()
            items.append({"id": item.id, "name": name, "component": component.id, "component_title": component.title,
                          "count": item.count, "fields": fields, "faces": faces, "status": status.get(item.id, []),
                          "search": text})  # fmt: skip
        first = component.items[0].id
        components.append({"id": component.id, "title": component.title, "kind": component.kind,
                           "item_count": len(component.items), "copies": component.count, "first": first,
                           "file": f"{component.id}.pdf"})  # fmt: skip
    field_names = sorted({k for i in items for k in i["fields"]})
    data = json.dumps([{k: i[k] for k in ("id", "component", "fields", "search")} for i in items], ensure_ascii=False)
    copies = sum(i["count"] for i in items)
    thanks = credit(icons)
    page = INDEX.render(game=game, items=items, components=components, fields=field_names, copies=copies,
                        data=_json_in_html(data), style=STYLE, script=SCRIPT, credit=thanks, switch=switch,
                        lang=language or "en")  # fmt: skip
    write_atomic(folder / page_name(language, default), page.encode("utf-8"))
    if language != default:
        return GalleryGame(game.id, game.title, len(items))
    facts = [{"name": n, "parts": _linked(_text(f.value), names), "cite": f.cite} for n, f in game.rules.facts.items()]
    about = ABOUT.render(game=game, components=components, facts=facts, style=STYLE, credit=thanks)
    write_atomic(folder / "about.html", about.encode("utf-8"))
    return GalleryGame(game.id, game.title, len(items))


def write_home(games: list[GalleryGame], out_dir: Path) -> Path:
    """The list of games. Pages use the reader's own sans-serif fonts: browsers refuse web fonts from file:// pages
    in other folders, and embedding them would add half a megabyte to every page."""
    path = out_dir / "index.html"
    write_atomic(path, HOME.render(games=games, style=STYLE).encode("utf-8"))
    return path


def _json_in_html(data: str) -> Markup:
    """JSON inside a <script> element is raw text (entities are not decoded): escape every '<' the JSON way, so the
    data can never close the element, and insert it unescaped."""
    return Markup(data.replace("<", "\\u003c"))


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value)
    return str(value).replace("**", "")


def _name(fields: dict[str, str], item_id: str) -> str:
    for key in ("name", "title", "label"):
        if fields.get(key):
            return fields[key]
    return item_id


def _linked(text: str, names: dict[str, str]) -> list[dict[str, str]]:
    """A fact's text in parts, a card's name (two or more words, or one capitalised word of 4+ letters) as a link."""
    parts: list[dict[str, str]] = []
    candidates = sorted((n for n in names if len(n) >= 4), key=len, reverse=True)
    lower = text.lower()
    at = 0
    while at < len(text):
        best = min(((lower.find(n, at), -len(n), n) for n in candidates if lower.find(n, at) >= 0), default=None)
        if best is None:
            parts.append({"text": text[at:], "card": ""})
            break
        start, _, name = best
        end = start + len(name)
        before_ok = start == 0 or not text[start - 1].isalnum()
        after_ok = end == len(text) or not text[end].isalnum()
        if not (before_ok and after_ok):
            parts.append({"text": text[at : start + 1], "card": ""})
            at = start + 1
            continue
        if start > at:
            parts.append({"text": text[at:start], "card": ""})
        parts.append({"text": text[start:end], "card": names[name]})
        at = end
    merged: list[dict[str, str]] = []
    for part in parts:  # join neighbouring plain parts
        if merged and not part["card"] and not merged[-1]["card"]:
            merged[-1] = {"text": merged[-1]["text"] + part["text"], "card": ""}
        else:
            merged.append(part)
    return merged
