"""`<icon>`: one of the game's icons (`settings.icons`: a vector shape or its own file), its top-left corner at x, y,
in its own colours or in the one `colour` it is given."""

from __future__ import annotations

from typing import Any, ClassVar

from cardgen.errors import DataError, did_you_mean
from cardgen.render.elements.base import ElementKind
from cardgen.render.icons import label_size
from cardgen.render.kit import Kit, SetText, Surface
from cardgen.render.library import LICENCE, SOURCE, library
from cardgen.render.markup import AT, COLOUR, TEXT, Attr, Element, positive
from cardgen.units import MM


def check_icon(name: str, kit: Kit, who: str) -> None:
    """An icon the game defines or the icon library holds, or an error naming the card, the game's icons and the
    closest name of either."""
    if name not in kit.painters:
        hint = did_you_mean(name, [*kit.painters, *library()])
        raise DataError(
            f"{who}: unknown icon '{{{name}}}'{hint}; the game's icons: {', '.join(kit.painters) or 'none'}, "
            f"and the {len(library())} of the icon library (`cardgen icons WORD` finds them)"
        )


class Icon(ElementKind):
    tag = "icon"
    summary = (
        "an icon from the game's `settings.icons` (a vector shape or its own SVG/PNG file) or the icon library "
        f"({SOURCE}, {LICENCE}: `cardgen icons`), `size` mm square"
    )
    attributes: ClassVar[dict[str, Attr]] = {
        "name": Attr(TEXT, doc="the icon's name in `settings.icons`, else in the icon library (`spaceship`)"),
        **AT,
        "size": Attr(positive, unit="mm", doc="the side of the square it is drawn in"),
        "colour": Attr(
            COLOUR,
            None,
            doc="draws it in this one colour (a shape's fill; every part of a file icon; "
            "a library icon, black without it)",
        ),
    }

    def prepare(self, element: Element, kit: Kit, who: str) -> Any:
        check_icon(element["name"], kit, who)

    def text_sizes(self, element: Element, prepared: Any, kit: Kit, index: int) -> list[SetText]:
        icon = kit.icons.get(element["name"])  # None: a library icon
        if icon is None or not icon.label:
            return []
        return [SetText(f"icon '{element['name']}' label", label_size(icon, element["size"] * MM, kit.label_font))]

    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        size = element["size"] * MM
        paint = surface.kit.painters[element["name"]]
        paint(surface.canvas, element["x"] * MM, surface.y(element["y"]) - size, size, element["colour"])
