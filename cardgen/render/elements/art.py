"""`<art>`: generated art in a box — a starfield with a nebula, a planet, a ship silhouette or a faction sigil —
drawn from a seed (the card's id unless the layout gives one), so every card differs and every build is the same.

The attributes of all four kinds are one schema; an attribute of another kind is refused when the face is prepared,
named at the layout's line. The generators live in `cardgen.render.art` and are imported when first drawn.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from cardgen.errors import DataError
from cardgen.render.art import PALETTES, RGB, SHIP_TRAITS, Box, hex_rgb
from cardgen.render.elements.base import ElementKind
from cardgen.render.kit import Kit, Surface
from cardgen.render.markup import BOX, TEXT, Attr, Element, angle, boolean, choice, fraction, length
from cardgen.units import MM

DPI = 300  # a nebula's pixels per inch on the printed face
ON_TRIM = 0.01  # mm: a box edge this close to the trim counts as on it (as `<rect bleed>`)
MOST_COLOURS = 8
FORM_REACH = 1e5  # points: a form of art is bounded far beyond any face, so the page's clip alone cuts it
DEFAULT_PALETTE = {"starfield": "nebula", "planet": "ice", "ship": "steel", "sigil": "gold"}


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high`."""

    def parse(value: str) -> int:
        if not value.strip().lstrip("-").isdigit() or len(value.strip()) > 6:
            raise ValueError(f"expected a whole number, got '{value}'")
        found = int(value)
        if not low <= found <= high:
            raise ValueError(f"must lie between {low} and {high}, got '{value}'")
        return found

    parse.kind = "whole number"  # type: ignore[attr-defined]  # read by Attr.kind
    return parse


def ship_traits(value: str) -> str:
    """Up to four words, at most one per trait of a ship's look (`SHIP_TRAITS`)."""
    seen: set[str] = set()
    for word in value.split():
        trait = next((trait for trait, words in SHIP_TRAITS.items() if word in words), None)
        if trait is None:
            known = "; ".join(f"{trait}: {', '.join(words)}" for trait, words in SHIP_TRAITS.items())
            raise ValueError(f"'{word}' is no ship trait ({known})")
        if trait in seen:
            raise ValueError(f"names two of one trait ({trait}) in '{value}'")
        seen.add(trait)
    return " ".join(value.split())


ship_traits.kind = "ship traits"  # type: ignore[attr-defined]  # read by Attr.kind


def density(value: str) -> float:
    found = length(value)
    if found > 50:
        raise ValueError(f"at most 50 stars per cm², got '{value}'")
    return found


density.kind = "number ≥ 0"  # type: ignore[attr-defined]

# Each kind's own attributes; the others are refused for it.
OWN: dict[str, tuple[str, ...]] = {
    "starfield": ("density", "nebula", "bleed"),
    "planet": ("surface", "rings", "atmosphere", "light"),
    "ship": ("family", "traits", "class", "length", "beam", "wings", "engines", "weapons"),
    "sigil": ("fold", "plate"),
}


@dataclass(frozen=True)
class Plan:
    """What `prepare` found: the seed the art is drawn from and its palette's colours."""

    seed: str
    palette: tuple[RGB, ...]


class Art(ElementKind):
    tag = "art"
    summary = (
        "generated art from a seed (the card's id by default): `starfield` (with a nebula), `planet`, `ship`, "
        "`sigil`; vector except the nebula, which is embedded once however many faces share it"
    )
    example = '<art kind="planet" x="6" y="8" w="51.5" h="40" palette="ice" surface="bands" rings="true"/>'
    attributes: ClassVar[dict[str, Attr]] = {
        "kind": Attr(choice(*OWN), doc="which generator draws"),
        **BOX,
        "seed": Attr(TEXT, None, doc="the text the art is drawn from: the same seed draws the same art"),
        "card": Attr(TEXT, None, doc="the card's id, written by cardgen itself: the seed when `seed` is not given"),
        "palette": Attr(
            TEXT, None,
            doc=f"a named palette ({', '.join(PALETTES)}) or up to {MOST_COLOURS} colours (game colour names, "
            f"`#rrggbb`), darkest first; by default {', '.join(f'{k} {v}' for k, v in DEFAULT_PALETTE.items())}",
        ),
        "density": Attr(density, None, "stars per cm²", "starfield: how many stars, at most 50 (default 6)"),
        "nebula": Attr(fraction, None, doc="starfield: the nebula's strength (default 0.7; 0: none, all vector)"),
        "bleed": Attr(boolean, None, doc="starfield: box edges lying on the trim run on to the bleed's edge"),
        "surface": Attr(
            choice("bands", "continents", "craters"), None, doc="planet: its surface (default: from the seed)"
        ),
        "rings": Attr(boolean, None, doc="planet: rings around it (default: from the seed)"),
        "atmosphere": Attr(fraction, None, doc="planet: the atmosphere's glow (default 0.5; 0: none)"),
        "light": Attr(angle, None, "degrees", "planet: where the light comes from (default 135, the top left)"),
        "family": Attr(TEXT, None, doc="ship: the faction's look — ships of one family share it (default: the seed)"),
        "traits": Attr(
            ship_traits, None,
            doc="ship: traits of the family's look named outright, any of a nose ("
            + ", ".join(f"`{w}`" for w in SHIP_TRAITS["nose"]) + "), a wing ("
            + ", ".join(f"`{w}`" for w in SHIP_TRAITS["wing"]) + "), an engine ("
            + ", ".join(f"`{w}`" for w in SHIP_TRAITS["engine"]) + ") and a trim ("
            + ", ".join(f"`{w}`" for w in SHIP_TRAITS["trim"]) + "); the others come from the family",
        ),
        "class": Attr(
            TEXT, None,
            doc="ship: its class (`fighter`, `scout`, `bomber`, `corvette`, `frigate`, `destroyer`, `cruiser`, "
            "`battleship`, `carrier`, `transport`, or any word) — its proportions (default: the seed)",
        ),
        "length": Attr(fraction, None, doc="ship: the hull's length, a share of the box's height"),
        "beam": Attr(fraction, None, doc="ship: the hull's width, a share of its length"),
        "wings": Attr(fraction, None, doc="ship: the wingspan, a share of the box's width (0: no wings)"),
        "engines": Attr(whole(0, 6), None, doc="ship: how many engines, 0–6"),
        "weapons": Attr(whole(0, 8), None, doc="ship: how many guns, 0–8 (pairs on the wings, an odd one on the nose)"),
        "fold": Attr(whole(2, 12), None, doc="sigil: its rotational symmetry, 2–12 (default: from the seed, 3–8)"),
        "plate": Attr(boolean, None, doc="sigil: a disc of the palette's darkest colour behind it (default true)"),
    }  # fmt: skip

    def prepare(self, element: Element, kit: Kit, who: str) -> Any:
        kind = element["kind"]
        for kind_of, names in OWN.items():
            for name in names:
                if kind_of != kind and name not in OWN[kind] and element[name] is not None:
                    raise DataError(f"{who}: <art kind='{kind}'> does not take '{name}' (a {kind_of}'s attribute)")
        seed = element["seed"] if element["seed"] is not None else element["card"] or ""
        return Plan(seed, palette(element["palette"] or DEFAULT_PALETTE[kind], kit, who))

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        x, y, w, h = element["x"], element["y"], element["w"], element["h"]
        if element["bleed"]:
            x, y, w, h = _into_bleed(surface, x, y, w, h)
        box = Box(x * MM, surface.y(y + h), w * MM, h * MM)
        if box.w <= 0 or box.h <= 0:
            return
        kind, plan = element["kind"], prepared
        generator = importlib.import_module(f"cardgen.render.art.{kind}")
        options = {name.replace("class", "ship_class"): element[name] for name in OWN[kind] if name != "bleed"}
        if kind == "starfield":
            options["dpi"] = DPI
        canvas, forms = surface.canvas, getattr(surface.canvas, "art_forms", None)
        if forms is None:
            generator.draw(canvas, box, plan.seed, plan.palette, **options)
            return
        # a document that draws the same art again (`IconCanvas.art_forms`) draws it once, as a form placed each time
        key = (kind, plan.seed, plan.palette, box, *sorted(options.items()))
        name = forms.get(key)
        if name is None:
            name = forms[key] = f"Art{len(forms)}"
            canvas.beginForm(name, -FORM_REACH, -FORM_REACH, FORM_REACH, FORM_REACH)  # clipped only where it is placed
            generator.draw(canvas, box, plan.seed, plan.palette, **options)
            canvas.endForm()
        canvas.doForm(name)


def palette(value: str, kit: Kit, who: str) -> tuple[RGB, ...]:
    """A named palette, or colours written out (the game's names, `#rrggbb`, standard names)."""
    if value in PALETTES:
        return tuple(hex_rgb(colour) for colour in PALETTES[value])
    names = value.split()
    if not names or len(names) > MOST_COLOURS:
        raise DataError(f"{who}: <art palette='{value}'>: give a named palette or 1 to {MOST_COLOURS} colours")
    colours = []
    for name in names:
        colour = kit.palette.get(name) if kit.palette.is_colour(name) else None
        if colour is None:
            raise DataError(
                f"{who}: <art palette='{value}'>: '{name}' is neither a named palette ({', '.join(PALETTES)}) "
                "nor a colour"
            )
        colours.append((float(colour.red), float(colour.green), float(colour.blue)))
    return tuple(colours)


def _into_bleed(surface: Surface, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    bleed = surface.bleed
    left = bleed if x <= ON_TRIM else 0
    top = bleed if y <= ON_TRIM else 0
    right = bleed if x + w >= surface.width - ON_TRIM else 0
    bottom = bleed if y + h >= surface.height - ON_TRIM else 0
    return x - left, y - top, w + left + right, h + top + bottom
