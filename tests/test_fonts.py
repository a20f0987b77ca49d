"""`fonts.TrueTypeFont.splitString` answers as reportlab's own `TTFont.splitString`, text after text."""

from __future__ import annotations

import random

from reportlab.pdfbase.ttfonts import TTFont

from cardgen.paths import default_fonts_dir
from cardgen.render.fonts import TrueTypeFont

# ASCII, Latin-1, the symbols card text uses, a no-break space, control characters, and characters no font here has
ALPHABET = "abcdefghij KLMNOP 0123456789 .,;:!?'\"()[]<>&\\%" + "éüßÆ·—–×÷→★♦\xa0\t\n\x01\x7f" + "\U0001f600中"


class Doc:
    """What reportlab keys a font's subsets by (a document; weakly referenced)."""


def test_split_string_matches_reportlab() -> None:
    path = str(default_fonts_dir() / "NotoSans-Regular.ttf")
    theirs, ours = TTFont("ReportlabSplit", path), TrueTypeFont("CardgenSplit", path)
    rng = random.Random(42)
    for documents in range(3):  # a fresh document starts its subsets afresh
        doc_a, doc_b = Doc(), Doc()
        for _ in range(400):
            text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30)))
            assert ours.splitString(text, doc_b) == theirs.splitString(text, doc_a), (documents, text)
        assert ours.state[doc_b].assignments == theirs.state[doc_a].assignments
        assert ours.state[doc_b].subsets == theirs.state[doc_a].subsets
    # past the first subset: a font whose characters need more than 256 codes
    doc_a, doc_b = Doc(), Doc()
    wide = "".join(chr(c) for c in range(0x100, 0x24F))
    for _ in range(2):  # characters new to the document, then the same texts with every character known
        for start in range(0, len(wide), 7):
            text = wide[start : start + 9] + " plain"
            assert ours.splitString(text, doc_b) == theirs.splitString(text, doc_a)
    assert ours.splitString(b"bytes too", doc_b) == theirs.splitString(b"bytes too", doc_a)
