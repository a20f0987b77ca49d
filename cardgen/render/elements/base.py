"""What every markup element is: its attributes (parsed and checked by `markup`), what it checks before drawing
(`prepare`), and how it draws. One element is one class in one module of this package; `cardgen.render.elements`
finds them all, so adding an element is adding a file."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from cardgen.render.kit import Kit, Overflow, SetText, Surface
from cardgen.render.markup import Attr, Element


class ElementKind(ABC):
    """One element of the face markup. Subclasses set `tag`, `summary` (the guide's description) and `attributes`,
    and implement `draw`; `prepare` checks what can be checked before drawing and returns what `draw` needs."""

    tag: ClassVar[str]
    summary: ClassVar[str] = ""
    example: ClassVar[str] = ""  # one line of markup the layout reference shows
    attributes: ClassVar[dict[str, Attr]]
    has_content: ClassVar[bool] = False  # paragraph markup between the tags (only <text>)

    def prepare(self, element: Element, kit: Kit, who: str) -> Any:
        """Check the element against the game (fonts, icons, images); `who` names the card in error messages."""
        return None

    def overflow(self, element: Element, prepared: Any, index: int) -> Overflow | None:
        """What did not fit, if anything (text boxes)."""
        return None

    def text_sizes(self, element: Element, prepared: Any, kit: Kit, index: int) -> list[SetText]:
        """The text the element sets, at the sizes it is drawn (text boxes after fitting, icon labels)."""
        return []

    def plain(self, element: Element, surface: Surface, prepared: Any) -> list[str] | None:
        """What `draw` writes for this element between a `saveState` and its `restoreState`, when it can be told
        without drawing (elements/text.py: plain text, a large deck's most common element), or None."""
        return None

    @abstractmethod
    def draw(self, element: Element, surface: Surface, prepared: Any) -> None:
        """Draw the element on the surface (its canvas state is saved and restored around the call)."""
