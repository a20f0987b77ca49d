"""Plain card text set exactly as reportlab's `Paragraph` sets it, at a fraction of the cost.

Most card text is plain words in one font: no inline markup, no icons, no entities. For it, a `Paragraph` parses the
text with an HTML parser, measures every word twice (to break lines and for its minimum width) and draws through the
platypus machinery; together that was about a third of a large build. `PlainParagraph` breaks the words with the same
rule (`Paragraph.breakLines` for one fragment: greedy, each line allowed to shrink its spaces by reportlab's
`spaceShrinkage`, a word wider than the box alone on its line) from widths measured once per word, font and size,
and draws the lines with the same text-object calls as `Paragraph.drawPara` — the PDF bytes are the same
(`tests/test_plaintext.py` compares them on random text). Anything else (markup, icons, justified text, other
white space, soft hyphens) goes through `Paragraph`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from sys import intern
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.rl_config import spaceShrinkage

# what the paragraph parser would read as markup or entities, icons, and white space it treats otherwise than
# collapsing runs of spaces, tabs and line ends (no-break and other Unicode spaces, soft hyphens, control characters)
NOT_PLAIN = re.compile(
    r"[<>&{}\xad\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]"
)
MEASURED_LIMIT = 64  # fonts × sizes whose word widths are kept (a shrinking search tries about ten sizes a box)

_widths: dict[tuple[str, float], dict[str, float]] = {}


def plain_words(content: str) -> list[str] | None:
    """The words of text a `PlainParagraph` can set (as the paragraph parser would read them: runs of white space
    collapsed, ends trimmed), or None when it needs a `Paragraph`."""
    if NOT_PLAIN.search(content):
        return None
    # one string per distinct word (`sys.intern`): a deck's laid-out lines keep its words, and card text repeats
    # them (2,700 poker cards: 81,500 words, 4.4 MB, of 28 distinct ones)
    return list(map(intern, content.split())) or None


def widths(font: str, size: float) -> dict[str, float]:
    """The widths measured so far of words in `font` at `size` (points)."""
    known = _widths.get((font, size))
    if known is None:
        if len(_widths) >= MEASURED_LIMIT:
            _widths.clear()
        known = _widths[font, size] = {" ": stringWidth(" ", font, size)}
    return known


class PlainParagraph:
    """Words broken into lines for a box `width` points wide, ready to draw as a `Paragraph` draws them: `lines` are
    (unused width, words) as in reportlab's `blPara.lines`, `height` the lines' height, `widest` the widest word."""

    __slots__ = ("align", "colour", "font", "height", "leading", "lines", "size", "widest")

    def __init__(self, words: list[str], font: str, size: float, leading: float, colour: Any, align: str, width: float):
        self.font, self.size, self.leading, self.colour, self.align = font, size, leading, colour, align
        known = widths(font, size)
        space = known[" "]
        shrink = spaceShrinkage * space
        lines: list[tuple[float, tuple[str, ...]]] = []
        line: list[str] = []
        current = -space  # as breakLines: the first word of a line brings no space
        widest = 0.0
        for word in words:
            measured = known.get(word)
            if measured is None:
                measured = known[word] = stringWidth(word, font, size)
            if measured > widest:
                widest = measured
            wider = current + space + measured
            if wider <= width + shrink * len(line) or not line:
                line.append(word)
                current = wider
            else:
                lines.append((width - current, tuple(line)))  # kept with the face: a tuple holds no spare room
                line = [word]
                current = measured
        lines.append((width - current, tuple(line)))
        self.lines = lines
        self.widest = widest
        self.height = len(lines) * leading

    def drawOn(self, canvas: Any, x: float, y: float) -> None:
        """Draw with the top of the first line `height` above (x, y): `Flowable.drawOn` and `Paragraph.drawPara`'s
        calls for one fragment, in their order."""
        canvas.saveState()
        canvas.translate(x, y)
        canvas.saveState()
        canvas.setFillColor(self.colour)
        text = canvas.beginText(0, self.height - self.size)
        text.setFont(self.font, self.size, self.leading)
        place = _PLACE[self.align]
        for extra, words in self.lines:
            place(text, extra, words)
        canvas.drawText(text)
        canvas.restoreState()
        canvas.restoreState()

    def code(self, canvas: Any, x: float, y: float) -> list[str] | None:
        """What `drawOn(canvas, x, y)` writes, made without reportlab's calls (about a tenth of their cost: a large
        build's every ability text), or None where it cannot be told so simply: only left-aligned lines (the
        others move the text cursor, which reportlab's calls merge) in an opaque RGB colour (`fill_code`)."""
        colour = fill_code(canvas, self.colour)
        if colour is None or self.align != "left" or not truetype(self.font):
            return None
        lines = [(_word_space(extra, words), " ".join(words)) for extra, words in self.lines]
        text = text_code(canvas, self.font, self.size, self.leading, 0, self.height - self.size, lines)
        return ["q", f"{fp_str(1, 0, 0, 1, x, y)} cm", "q", colour, text, "Q", "Q"]


def truetype(font_name: str) -> bool:
    """Whether a registered font is a TrueType font, subset as it is used (what `text_code` writes for)."""
    return bool(getattr(getFont(font_name), "_dynamicFont", False))


def fill_code(canvas: Any, colour: Any) -> str | None:
    """The one operator `canvas.setFillColor(colour)` writes for an opaque RGB colour when the fill is opaque
    already (it writes no alpha then), or None for anything else (CMYK, spot or translucent colours, a canvas
    that converts colours). Like the call, it marks the document as one that may use transparency."""
    if type(colour) is not Color or colour.alpha != 1 or getattr(canvas, "_enforceColorSpace", None):
        return None
    if canvas._extgstate.getValue("ca") != 1:
        return None
    canvas._doc.ensureMinPdfVersion("transparency")
    return _rg(colour.red, colour.green, colour.blue)


# The operators' numbers as reportlab writes them (`fp_str`), remembered: a deck's boxes repeat their colours,
# sizes and origins card after card
@lru_cache(maxsize=1024)
def _rg(red: float, green: float, blue: float) -> str:
    return f"{fp_str((red, green, blue))} rg"


@lru_cache(maxsize=1024)
def _font_size(size: float, leading: float) -> str:
    return f"{fp_str(size)} Tf {fp_str(leading)} TL"


@lru_cache(maxsize=4096)
def _origin(x: float, y: float) -> str:
    return f"1 0 0 1 {fp_str(x, y)} Tm"


def text_code(
    canvas: Any,
    font_name: str,
    size: float,
    leading: float,
    x: float,
    y: float,
    lines: Sequence[tuple[float | None, str]],
) -> str:
    """The text object reportlab's `PDFTextObject` writes for lines of one TrueType font set from (x, y): each line
    (its word spacing or None, its text) as `_textOut(text, 1)` writes it, with `setWordSpace` around it when
    spaced. `tests/test_textcode.py` compares the bytes with reportlab's calls'."""
    font, doc, escape = getFont(font_name), canvas._doc, canvas._escape
    code = ["BT", _origin(x, y)]
    current, chosen = -1, None
    for spacing, text in lines:
        if spacing is not None:
            code.append(f"{fp_str(spacing)} Tw")
        parts = []
        for subset, chunk in font.splitString(text, doc):
            if subset != current:
                chosen = chosen or _font_size(size, leading)
                parts.append(f"{font.getSubsetInternalName(subset, doc)} {chosen}")
                current = subset
            parts.append(f"({escape(chunk)}) Tj")
        code.append(" ".join(parts) + " T*")
        if spacing is not None:
            code.append("0 Tw")
    code.append("ET")
    return " ".join(code)


def _line(text: Any, extra: float, words: Sequence[str], offset: float) -> None:
    """One line: spaces tightened when the line is over its width (reportlab's word spacing), moved by `offset`."""
    joined = " ".join(words)
    if offset > 1e-6 or offset < -1e-6:
        text.setXPos(offset)
    spacing = _word_space(extra, words)
    if spacing is None:
        text._textOut(joined, 1)
    else:
        text.setWordSpace(spacing)
        text._textOut(joined, 1)
        text.setWordSpace(0)
    if offset > 1e-6 or offset < -1e-6:
        text.setXPos(-offset)


def _word_space(extra: float, words: Sequence[str]) -> float | None:
    """The word spacing of a line over its width by `-extra` (reportlab tightens its spaces), or None."""
    return None if extra > -1e-8 or len(words) <= 1 else extra / float(len(words) - 1)


def _left(text: Any, extra: float, words: Sequence[str]) -> None:
    _line(text, extra, words, 0.0)


def _center(text: Any, extra: float, words: Sequence[str]) -> None:
    _line(text, extra, words, 0.5 * extra if extra > -1e-8 or len(words) <= 1 else 0.0)


def _right(text: Any, extra: float, words: Sequence[str]) -> None:
    _line(text, extra, words, extra if extra > -1e-8 or len(words) <= 1 else 0.0)


_PLACE = {"left": _left, "center": _center, "right": _right}


def set_plain(paragraph: PlainParagraph) -> Iterator[float]:
    """The size of the glyphs it sets (one size: plain text)."""
    if any(words for _, words in paragraph.lines):
        yield paragraph.size
