"""Reading PDFs back the way a print shop would: page boxes, embedded fonts, mark lines, text positions, pixels."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
from pypdf import PdfReader
from pypdf.generic import IndirectObject

MM = 72 / 25.4


def boxes(path: Path) -> list[dict[str, tuple[float, ...]]]:
    """Each page's MediaBox, TrimBox and BleedBox in millimetres (None when a box is not set)."""
    out = []
    for page in PdfReader(path).pages:
        entry = {}
        for name in ("/MediaBox", "/TrimBox", "/BleedBox"):
            box = page.get(name)
            entry[name[1:]] = tuple(round(float(v) / MM, 2) for v in box) if box is not None else None
        out.append(entry)
    return out


def fonts(path: Path) -> list[tuple[str, bool]]:
    """Every font used by any page or form XObject, and whether its program is embedded."""
    reader = PdfReader(path)
    found: dict[str, bool] = {}
    seen: set[int] = set()

    def resolve(obj):
        return obj.get_object() if isinstance(obj, IndirectObject) else obj

    def walk(resources) -> None:
        resources = resolve(resources)
        if not resources or id(resources) in seen:
            return
        seen.add(id(resources))
        for font in resolve(resources.get("/Font", {})).values():
            font = resolve(font)
            found[str(font.get("/BaseFont"))] = _embedded(font, resolve)
        for xobject in resolve(resources.get("/XObject", {})).values():
            xobject = resolve(xobject)
            if xobject.get("/Subtype") == "/Form" and "/Resources" in xobject:
                walk(xobject["/Resources"])

    for page in reader.pages:
        walk(page.get("/Resources"))
    return sorted(found.items())


def _embedded(font, resolve) -> bool:
    descriptor = resolve(font.get("/FontDescriptor"))
    if descriptor is None and "/DescendantFonts" in font:
        descendant = resolve(resolve(font["/DescendantFonts"])[0])
        descriptor = resolve(descendant.get("/FontDescriptor"))
    if descriptor is None:
        return False
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def mark_lines(path: Path, page: int = 0, weight: float = 0.3) -> list[tuple[float, float, float, float]]:
    """Straight lines drawn at crop-mark weight, as (x0, top, x1, bottom) in mm from the top-left corner."""
    with pdfplumber.open(path) as pdf:
        lines = pdf.pages[page].lines
        return [
            tuple(round(v / MM, 2) for v in (ln["x0"], ln["top"], ln["x1"], ln["bottom"]))
            for ln in lines
            if abs(ln.get("linewidth", 0) - weight) < 0.01
        ]


def words(path: Path, page: int = 0, size: float | None = None) -> list[dict]:
    """Words on a page with their centres in mm (top-left origin); optionally only text of one size."""
    with pdfplumber.open(path) as pdf:
        result = []
        for w in pdf.pages[page].extract_words(extra_attrs=["size"]):
            if size is not None and abs(w["size"] - size) > 0.2:
                continue
            result.append(
                {"text": w["text"], "x": (w["x0"] + w["x1"]) / 2 / MM, "y": (w["top"] + w["bottom"]) / 2 / MM}
            )
        return result


def char_centres(path: Path, page: int, size: float) -> list[tuple[str, float, float]]:
    """Characters of one size with the centres of their boxes (pdfium's loose boxes: the font's ascent to descent)
    in mm, top-left origin; works for rotated text too. pdfium reads the text alone where pdfplumber parses every
    drawn object of a page first (50 times slower on a page of generated art)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(path)
    try:
        sheet = document[page]
        height, textpage, box = sheet.get_height(), sheet.get_textpage(), raw.FS_RECTF()
        found = []
        for index in range(textpage.count_chars()):
            code = raw.FPDFText_GetUnicode(textpage, index)
            if abs(raw.FPDFText_GetFontSize(textpage, index) - size) >= 0.2 or not chr(code).strip():
                continue
            raw.FPDFText_GetLooseCharBox(textpage, index, box)
            found.append((chr(code), (box.left + box.right) / 2 / MM, (height - (box.top + box.bottom) / 2) / MM))
        textpage.close()
        sheet.close()
        return found
    finally:
        document.close()


def page_sizes(path: Path) -> list[tuple[float, float]]:
    return [
        (round(float(p.mediabox.width) / MM, 1), round(float(p.mediabox.height) / MM, 1)) for p in PdfReader(path).pages
    ]


def render(path: Path, page: int = 0, dpi: int = 40):
    """A page as a PIL image."""
    import pypdfium2 as pdfium

    return pdfium.PdfDocument(str(path))[page].render(scale=dpi / 72).to_pil().convert("RGB")


SNAKE_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")  # a data key such as next_over_current


def designer_text(folder: Path, game) -> dict[str, set[str]]:
    """What a built game's player-facing files say that belongs to its designers, not its players, per file: item ids
    (those with a '-', '_' or digit, which no rule text uses; pieces are bought, their ids are not printed), data keys
    (snake_case), and cardgen's own name and files. The proof sheet (ids are wanted there) and the print guide (it
    tells whoever prints how, with cardgen's commands) are left out; the sheet labels in the margins name only the game
    and the component."""
    import pypdfium2 as pdfium

    printed = [c for c in game.components if c.kind != "pieces"]
    ids = {i.id for c in printed for i in c.items if re.search(r"[-_0-9]", i.id)} - {c.id for c in printed}
    found: dict[str, set[str]] = {}
    for pdf in sorted(folder.glob("*.pdf")):
        if pdf.name in ("proof.pdf", "print-guide.pdf"):
            continue
        document = pdfium.PdfDocument(str(pdf))
        text = " ".join(page.get_textpage().get_text_range() for page in document)
        words = {w.strip(".,;:()[]·'\"") for w in text.split()}
        hits = (words & ids) | set(SNAKE_KEY.findall(text)) | set(re.findall(r"cardgen|rules\.yaml", text, re.I))
        if hits:
            found[pdf.name] = hits
    return found


def ink(path: Path, dpi: int | None = None) -> list[float]:
    """Each page's ink coverage, measured here on its own at the build's resolution (`ink.COVERAGE_DPI` unless
    given): the page rendered in grey, 1 − mean lightness."""
    import pypdfium2 as pdfium

    from cardgen.render.ink import COVERAGE_DPI

    dpi = dpi or COVERAGE_DPI

    shares = []
    for page in pdfium.PdfDocument(str(path)):
        grey = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        histogram = grey.histogram()
        shares.append(1 - sum(i * n for i, n in enumerate(histogram)) / (255 * sum(histogram)))
    return shares


def cut_circles(path: Path, page: int) -> int:
    """The die-lines on a page: curves stroked in the guide grey (0.3, over white) that round and hex pieces are cut
    along."""
    with pdfplumber.open(path) as pdf:
        colours = [curve.get("stroking_color") for curve in pdf.pages[page].curves]
    return sum(1 for colour in colours if colour and all(abs(v - 0.3) < 0.02 for v in colour))


def text(path: Path, page: int) -> str:
    """A page's text as pdfium reads it, lines joined by newlines (pdfplumber parses every drawn object first, and
    a page of generated art holds thousands: pdfium reads the text alone, some 15 times faster)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        return str(document[page].get_textpage().get_text_range()).replace("\r\n", "\n").replace("\r", "\n")
    finally:
        document.close()


def pages_text(path: Path) -> list[str]:
    """Every page's text as `text` reads it (pdfium)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        pages = []
        for page in document:
            textpage = page.get_textpage()
            pages.append(str(textpage.get_text_range()).replace("\r\n", "\n").replace("\r", "\n"))
            textpage.close()
            page.close()
        return pages
    finally:
        document.close()
