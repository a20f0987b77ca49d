"""Text that fits or is reported: wrap a paragraph in its box, shrink it down to a minimum size, measure what is left.

`fit_text` is the one implementation of text fitting; the print pipeline draws with its result and the validator
uses it to check card text against layout boxes without drawing anything.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.render.fonts import families
from cardgen.render.icons import placeholder
from cardgen.render.markup import ICON_PATTERN
from cardgen.render.plaintext import PlainParagraph, plain_words, set_plain
from cardgen.units import to_mm

if TYPE_CHECKING:  # reportlab's paragraph module compiles large regular expressions: imported for markup only
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

ALIGN = {"left": 0, "center": 1, "right": 2, "justify": 4}  # reportlab's TA_LEFT, TA_CENTER, TA_RIGHT, TA_JUSTIFY
ICON_SCALE = 1.05  # an inline icon's side, in multiples of the text size
PRECISION = 0.1  # points: how finely the shrinking searches
SMALL_CAPS = 0.78  # a small capital's size, in multiples of the text size (lower case drawn as capitals this size)


@dataclass(frozen=True)
class TextBox:
    """What fitting needs to know about a text box (points for sizes, boxes in points too)."""

    content: str
    font: str
    colour: object
    width: float
    height: float
    size: float
    min_size: float
    leading: float = 1.2
    align: str = "left"
    spacing: float = 0.0  # points added after every character but the last (letter spacing)
    small_caps: bool = False
    one_line: bool = False  # a title line: never wrapped, no markup (letter spacing, small caps and shadows need it)


@dataclass(slots=True)
class Fit:
    """The result of fitting: the size used, the laid-out paragraph and its height, and any overflow in mm.

    Plain one-line text (no markup, no icons) that fits at its size skips the paragraph machinery: `line` holds
    it and `paragraph` is None, which makes short labels and stats several times cheaper to set. A title line
    (`TextBox.one_line`) is always one such line, `runs` holding its pieces with their sizes (small capitals
    smaller).
    """

    size: float
    paragraph: Paragraph | PlainParagraph | None
    height: float
    overflow_mm: float
    line: str | None = None
    line_width: float = 0.0
    runs: tuple[tuple[str, float], ...] = ()

    @property
    def fits(self) -> bool:
        return self.overflow_mm <= 0


def with_icons(content: str, size: float) -> str:
    """Paragraph markup with every `{icon}` replaced by an icon placeholder of the text's size."""
    side = size * ICON_SCALE

    def image(match: re.Match[str]) -> str:
        source = placeholder(match.group(0)[1:-1])  # the icon's name, and its colour if one is set
        return f'<img src="{source}" width="{side:.2f}" height="{side:.2f}" valign="{-side * 0.2:.2f}"/>'

    return ICON_PATTERN.sub(image, content)


@lru_cache(maxsize=512)
def _style(font: str, size: float, leading: float, align: str, colour: object) -> ParagraphStyle:
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle(
        name=f"{font}-{size}",
        fontName=font,
        fontSize=size,
        leading=size * leading,
        alignment=ALIGN[align],
        textColor=colour,
        splitLongWords=0,
    )


def _layout(box: TextBox, size: float) -> tuple[Paragraph | PlainParagraph, float, float]:
    words = plain_words(box.content) if box.align != "justify" else None
    if words:  # plain text: set as a Paragraph sets it, without its parser, each word measured once
        plain = PlainParagraph(words, box.font, size, size * box.leading, box.colour, box.align, box.width)
        return plain, plain.height, max(plain.height - box.height, plain.widest - box.width)
    from reportlab.platypus import Paragraph

    families()  # inline markup may set the role's bold and italic faces

    para = Paragraph(with_icons(box.content, size), _style(box.font, size, box.leading, box.align, box.colour))
    _, height = para.wrap(box.width, box.height)
    over_h = height - box.height
    over_w = para.minWidth() - box.width
    return para, height, max(over_h, over_w)


def _single_line(box: TextBox) -> Fit | None:
    content = box.content
    if "<" in content or "&" in content or "{" in content or box.size * box.leading > box.height + 0.01:
        return None
    width = stringWidth(content, box.font, box.size)
    if width > box.width:
        return None
    return Fit(box.size, None, box.size * box.leading, 0.0, content, width)


def runs(text: str, size: float, small_caps: bool) -> tuple[tuple[str, float], ...]:
    """The pieces a title line is set in: lower-case letters as capitals at the small-caps size when asked."""
    if not small_caps:
        return ((text, size),)
    pieces: list[tuple[str, float]] = []
    for char in text:
        small = char.islower()
        glyph, at = (char.upper(), size * SMALL_CAPS) if small else (char, size)
        if pieces and pieces[-1][1] == at:
            pieces[-1] = (pieces[-1][0] + glyph, at)
        else:
            pieces.append((glyph, at))
    return tuple(pieces)


def line_width(pieces: tuple[tuple[str, float], ...], font: str, spacing: float) -> float:
    """A title line's width: its glyphs, and the letter spacing between them (not after the last)."""
    count = sum(len(text) for text, _ in pieces)
    glyphs = sum(float(stringWidth(text, font, size)) for text, size in pieces)
    return glyphs + spacing * max(count - 1, 0)


def _title_line(box: TextBox) -> Fit:
    """A title line (letter-spaced, small-caps or shadowed text): never wrapped, shrunk until it fits the box's
    width and height (widths grow in proportion to the size; the spacing stays), at least to `min_size`."""
    text = box.content
    glyphs = line_width(runs(text, 1.0, box.small_caps), box.font, 0.0)  # the glyphs' width at 1 pt
    gaps = box.spacing * max(len(text) - 1, 0)
    widest = (box.width - gaps) / glyphs if glyphs > 0 else box.size
    size = min(box.size, widest, box.height / box.leading)
    size = max(math.floor(size / PRECISION + 1e-9) * PRECISION, box.min_size) if size < box.size else box.size
    pieces = runs(text, size, box.small_caps)
    width = line_width(pieces, box.font, box.spacing)
    over = max(width - box.width, size * box.leading - box.height, 0.0)
    return Fit(size, None, size * box.leading, to_mm(over) if over > 0.01 else 0.0, text, width, pieces)


@lru_cache(maxsize=4096)
def fit_text(box: TextBox) -> Fit:
    """Lay the text out at its size; if it overflows, find the largest size ≥ min_size that fits. Each distinct box
    (text, font, size, frame) is fitted once: a stat or keyword set on many faces is measured the first time."""
    if box.one_line:
        return _title_line(box)
    quick = _single_line(box)
    if quick is not None:
        return quick
    para, height, over = _layout(box, box.size)
    if over <= 0.01:
        return Fit(box.size, para, height, 0.0)
    low_para, low_height, low_over = _layout(box, box.min_size)
    if low_over > 0.01:
        return Fit(box.min_size, low_para, low_height, to_mm(low_over))
    low, high = box.min_size, box.size
    best = (box.min_size, low_para, low_height)
    while high - low > PRECISION:
        mid = round((low + high) / 2, 2)
        para, height, over = _layout(box, mid)
        if over <= 0.01:
            low, best = mid, (mid, para, height)
        else:
            high = mid
    return Fit(best[0], best[1], best[2], 0.0)


def set_sizes(fit: Fit) -> Iterator[float]:
    """The font size of every run of glyphs the fitted text sets, as drawn: after shrinking, with inline
    `<font size>`, `<sup>` and `<sub>` as laid out. Inline icons are symbols as tall as their line, not text."""
    if fit.paragraph is None:
        if fit.runs:
            yield from (size for text, size in fit.runs if text.strip())
        elif fit.line and fit.line.strip():
            yield fit.size
        return
    if isinstance(fit.paragraph, PlainParagraph):
        yield from set_plain(fit.paragraph)
        return
    laid_out: Any = getattr(fit.paragraph, "blPara", None)
    if laid_out is None:
        return
    if laid_out.kind == 0:  # plain words, all at the paragraph's size
        if any(words for _, words in laid_out.lines):
            yield fit.size
        return
    for line in laid_out.lines:
        for frag in line.words:
            if getattr(frag, "cbDefn", None) is None and frag.text.strip():
                yield frag.fontSize
