"""`cardgen preflight FILE.pdf --shop NAME`: what a print shop's own check would reject in a PDF, page by page.

It reads the file as the shop's software does — the objects and content streams (pikepdf), forms and patterns
included, with the transformation matrix followed so that every finding says where on the page it is — and the
text's glyph boxes (pdfium). Rejected (errors): RGB anywhere (colour operators, colour spaces, images, shadings),
transparency (fill or stroke alpha, soft masks, transparency groups), total ink over the shop's limit (vector
colours, and every CMYK image's pixels decoded), fonts not embedded, page boxes missing or inconsistent, a bleed
narrower than the shop's, images under its resolution, text within the cut tolerance of the trim or outside it, and
for PDF/X-1a the document keys (version, `GTS_PDFXVersion`, OutputIntent, `Trapped`, no encryption). Text inside
the safe zone but clear of the cut tolerance is a warning. Every shop build runs it on each file it writes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardgen.errors import DataError, display_path
from cardgen.files import require_regular
from cardgen.render import raster
from cardgen.render.shops import Shop
from cardgen.units import MM

REGISTERED = {"FOGRA39", "FOGRA51", "FOGRA52", "FOGRA27", "FOGRA28", "FOGRA29", "CGATS TR 001", "CGATS TR 006",
              "CGATS 21-2-CRPC6", "GRACOL2006_COATED1", "SWOP2006_COATED3", "JC200103", "JCW2003"}  # fmt: skip
RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/Lab"}
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Finding:
    """One thing a shop would reject (or, not `error`, warn about): on which page (1-based; None for the whole
    document), what, where on the page, and how often it occurred there. Grouped (`grouped`), one finding stands
    for the same thing on several pages: `more_pages`, with `where` on the first."""

    page: int | None
    what: str
    where: str = ""
    error: bool = True
    count: int = 1
    more_pages: tuple[int, ...] = ()

    def __str__(self) -> str:
        pages = (self.page, *self.more_pages) if self.page else ()
        at = f"{page_list(pages)}: " if pages else ""
        once_a_page = self.count <= max(len(pages), 1)
        times = "" if once_a_page else f" — {self.count} times, first"
        place = f"page {self.page}: {self.where}" if self.more_pages and self.where and not once_a_page else self.where
        return f"{at}{self.what}{times}" + (f" ({place})" if place else "")


def page_list(pages: tuple[int, ...]) -> str:
    """`page 3`, or `pages 1–4, 7`: the pages in order, runs as ranges."""
    runs: list[list[int]] = []
    for page in sorted(pages):
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    text = ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)
    return f"page {text}" if len(pages) == 1 else f"pages {text}"


def grouped(findings: list[Finding]) -> list[Finding]:
    """The same finding on several pages as one (its pages listed, its counts added, where it stands on the first),
    in the order first seen: a deck whose every page has RGB is one line, not one per page."""
    merged: dict[tuple[Any, ...], Finding] = {}
    for finding in findings:
        key = (finding.what, finding.error) if finding.page else (finding.what, finding.error, id(finding))
        first = merged.get(key)
        if first is None:
            merged[key] = finding
        else:
            pages = (*first.more_pages, finding.page) if finding.page else first.more_pages
            merged[key] = replace(first, count=first.count + finding.count, more_pages=pages)
    return list(merged.values())


@dataclass
class _Page:
    """Findings of one page, each kind once (with how often it occurred)."""

    number: int
    height: float  # points, to say where from the top
    seen: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, what: str, where: str) -> None:
        entry = self.seen.setdefault(what, [where, 0])
        entry[1] += 1

    def findings(self) -> list[Finding]:
        return [Finding(self.number, what, where, count=count) for what, (where, count) in self.seen.items()]

    def at(self, matrix: Matrix, x: float = 0.0, y: float = 0.0) -> str:
        px, py = _apply(matrix, x, y)
        return f"{px / MM:.1f} mm from the left, {(self.height - py) / MM:.1f} mm from the top"


def check_file(path: Path, shop_name: str) -> list[Finding]:
    """`cardgen preflight`: the findings for a file on disk (a `DataError` when it is no PDF one can read)."""
    import pikepdf

    from cardgen.render.shops import shop

    require_regular(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{display_path(path)}: cannot read ({exc.strerror})") from None
    try:
        return preflight(data, shop(shop_name))
    except pikepdf.PdfError as exc:
        reason = str(exc).split(": ", 1)[-1]  # qpdf names the stream it read: the path says which file it was
        raise DataError(f"{display_path(path)}: not a PDF cardgen can read ({reason})") from None


def preflight(data: bytes, shop: Shop) -> list[Finding]:
    """What `shop` would reject in the PDF `data` (and warnings), in page order."""
    import pikepdf

    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        return [Finding(None, "the file is encrypted")]
    findings = _document(pdf, data, shop)
    checked: dict[tuple[int, int], tuple[float, tuple[float, float]]] = {}
    for number, page in enumerate(pdf.pages, start=1):
        box = _box(page.MediaBox)
        report = _Page(number, box[3])
        _boxes(page, shop, report)
        walker = _Walker(shop, report, checked)
        walker.stream(pikepdf.parse_content_stream(page), page.obj.get("/Resources", pikepdf.Dictionary()), IDENTITY)
        if "/Group" in page.obj and shop.pdfx:
            report.add("a transparency group", "the page")
        findings += report.findings()
    findings += _text(data, pdf, shop)
    return sorted(findings, key=lambda finding: (finding.page or 0, not finding.error))


def _document(pdf: Any, data: bytes, shop: Shop) -> list[Finding]:
    found = []
    if pdf.is_encrypted:
        found.append(Finding(None, "the file is encrypted"))
    if not shop.pdfx:
        return found
    version = data[5:8].decode("latin-1", "replace")
    if version not in ("1.3", "1.4"):
        found.append(Finding(None, f"PDF {version}: PDF/X-1a is PDF 1.3 or 1.4"))
    info = pdf.trailer.get("/Info", {})
    if not str(info.get("/GTS_PDFXVersion", "")).startswith("PDF/X-1"):
        found.append(Finding(None, "no GTS_PDFXVersion naming PDF/X-1a in the document information"))
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        found.append(Finding(None, "Trapped is not set (True or False)"))
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if str(i.get("/S", "")) == "/GTS_PDFX"]
    if len(intents) != 1:
        found.append(Finding(None, f"{len(intents)} PDF/X OutputIntents (one names the print condition)"))
    for intent in intents:
        named = str(intent.get("/OutputConditionIdentifier", ""))
        if named not in REGISTERED and "/DestOutputProfile" not in intent:
            found.append(
                Finding(None, f"OutputIntent '{named}' is no registered print condition and embeds no profile")
            )
    if "/AcroForm" in pdf.Root or "/JavaScript" in pdf.Root.get("/Names", {}):
        found.append(Finding(None, "forms or JavaScript"))
    return found


def _boxes(page: Any, shop: Shop, report: _Page) -> None:
    media = _box(page.MediaBox)
    trim = _box(page.obj["/TrimBox"]) if "/TrimBox" in page.obj else None
    if trim is None:
        if "/ArtBox" not in page.obj:
            report.add("no TrimBox", "the page")
        return
    if shop.pdfx and "/ArtBox" in page.obj:
        report.add("both TrimBox and ArtBox (PDF/X wants one)", "the page")
    bleed = _box(page.obj["/BleedBox"]) if "/BleedBox" in page.obj else media
    if not _inside(bleed, media):
        report.add("BleedBox reaches outside the MediaBox", "the page")
    if not _inside(trim, bleed):
        report.add("TrimBox reaches outside the BleedBox", "the page")
    if trim == media:
        return  # a sheet of paper, not a card: nothing is cut at its edge
    margin = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]) / MM
    if margin < shop.bleed - 0.05:
        report.add(f"bleed {margin:.2f} mm, {shop.name} asks for {shop.bleed:.2f} mm", "the page's edges")


class _Walker:
    """Walks a content stream (and the forms and patterns it uses) for colours, transparency, images and fonts."""

    def __init__(self, shop: Shop, report: _Page, checked: dict[tuple[int, int], tuple[float, tuple[float, float]]]):
        self.shop = shop
        self.report = report
        self.checked = checked  # each image's worst total ink, decoded once per file
        self.fonts_seen: set[tuple[int, int]] = set()

    def stream(self, operations: list[Any], resources: Any, matrix: Matrix, depth: int = 0) -> None:
        import pikepdf

        self._fonts(resources)
        stack: list[Matrix] = []
        for instruction in operations:
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                self.report.add("an inline image", self.report.at(matrix))
                continue
            operands, operator = list(instruction.operands), str(instruction.operator)
            if operator == "q":
                stack.append(matrix)
            elif operator == "Q":
                matrix = stack.pop() if stack else matrix
            elif operator == "cm":
                matrix = _multiply(tuple(float(v) for v in operands), matrix)  # type: ignore[arg-type]
            elif operator in ("rg", "RG"):
                self.report.add(f"RGB {'fill' if operator == 'rg' else 'stroke'} colour", self.report.at(matrix))
            elif operator in ("k", "K"):
                self._ink([float(v) for v in operands], matrix)
            elif operator in ("cs", "CS"):
                self._space(resources, operands[0], matrix)
            elif operator in ("scn", "SCN") and operands and isinstance(operands[-1], pikepdf.Name):
                pattern = resources.get("/Pattern", {}).get(str(operands[-1]))
                if pattern is not None and depth < 8:
                    self._pattern(pattern, matrix, depth)
            elif operator == "gs":
                self._state(resources, operands[0], matrix)
            elif operator == "sh":
                shading = resources.get("/Shading", {}).get(str(operands[0]))
                if shading is not None:
                    self._space_object(shading.get("/ColorSpace"), "a shading", matrix)
            elif operator == "Do" and depth < 8:
                self._xobject(resources, operands[0], matrix, depth)

    def _ink(self, inks: list[float], matrix: Matrix) -> None:
        total = sum(inks) * 100
        if self.shop.ink_limit is not None and total > self.shop.ink_limit + 0.5:
            values = " ".join(f"{name}{round(v * 100)}" for name, v in zip("CMYK", inks, strict=False))
            self.report.add(f"colour {values} = {total:.0f} % ink, over {self.shop.ink_limit:.0f} %",
                            self.report.at(matrix))  # fmt: skip

    def _space(self, resources: Any, name: Any, matrix: Matrix) -> None:
        named = str(name)
        if named in ("/DeviceRGB", "/DeviceGray", "/DeviceCMYK", "/Pattern"):
            if named == "/DeviceRGB":
                self.report.add("RGB colour space", self.report.at(matrix))
            return
        self._space_object(resources.get("/ColorSpace", {}).get(named), "a colour", matrix)

    def _space_object(self, space: Any, what: str, matrix: Matrix) -> None:
        if _is_rgb(space):
            self.report.add(f"{what} in RGB", self.report.at(matrix))

    def _state(self, resources: Any, name: Any, matrix: Matrix) -> None:
        import pikepdf

        state = resources.get("/ExtGState", {}).get(str(name))
        if state is None:
            return
        translucent = float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1
        masked = state.get("/SMask", pikepdf.Name.None_) != pikepdf.Name.None_
        if translucent or masked:
            self.report.add("transparency (alpha or a soft mask)", self.report.at(matrix))

    def _pattern(self, pattern: Any, matrix: Matrix, depth: int) -> None:
        import pikepdf

        if int(pattern.get("/PatternType", 0)) == 2:
            self._space_object(pattern.get("/Shading", {}).get("/ColorSpace"), "a shading pattern", matrix)
        elif isinstance(pattern, pikepdf.Stream):
            inner = _multiply(_matrix(pattern.get("/Matrix")), matrix)
            self.stream(pikepdf.parse_content_stream(pattern), pattern.get("/Resources", {}), inner, depth + 1)

    def _xobject(self, resources: Any, name: Any, matrix: Matrix, depth: int) -> None:
        import pikepdf

        xobject = resources.get("/XObject", {}).get(str(name))
        if xobject is None:
            return
        if xobject.get("/Subtype") == pikepdf.Name.Form:
            if "/Group" in xobject and self.shop.pdfx:
                self.report.add("a transparency group", self.report.at(matrix))
            inner = _multiply(_matrix(xobject.get("/Matrix")), matrix)
            self.stream(pikepdf.parse_content_stream(xobject), xobject.get("/Resources", resources), inner, depth + 1)
        elif xobject.get("/Subtype") == pikepdf.Name.Image:
            self._image(xobject, matrix)

    def _image(self, image: Any, matrix: Matrix) -> None:
        where = self.report.at(matrix)
        width, height = int(image.Width), int(image.Height)
        placed_w, placed_h = (abs(complex(matrix[0], matrix[1])) / 72, abs(complex(matrix[2], matrix[3])) / 72)
        dpi = min(width / max(placed_w, 1e-9), height / max(placed_h, 1e-9))
        if dpi < self.shop.dpi - 1:
            self.report.add(f"an image at {dpi:.0f} dpi ({width} × {height} px), under {self.shop.dpi}", where)
        if "/SMask" in image or "/Mask" in image:
            self.report.add("an image with a transparency mask", where)
        space = image.get("/ColorSpace")
        if _is_rgb(space):
            self.report.add("an RGB image", where)
        elif str(space) == "/DeviceCMYK" and self.shop.ink_limit is not None:
            if image.objgen not in self.checked:
                self.checked[image.objgen] = self._image_ink(image)
            worst, spot = self.checked[image.objgen]
            if worst > self.shop.ink_limit + 0.5:
                x, y = spot
                self.report.add(f"image pixels at {worst:.0f} % ink, over {self.shop.ink_limit:.0f} %",
                                self.report.at(matrix, x, y))  # fmt: skip

    def _image_ink(self, image: Any) -> tuple[float, tuple[float, float]]:
        """The image's worst total ink and where (as a fraction of its width from the left and height from the
        bottom, the image's own space)."""
        import numpy as np

        from cardgen.render.separation import total_ink

        pixels = _decoded_cmyk(image)
        totals = total_ink(pixels)
        row, column = np.unravel_index(int(np.argmax(totals)), totals.shape)
        worst = float(totals[row, column])
        return worst, ((column + 0.5) / totals.shape[1], 1 - (row + 0.5) / totals.shape[0])

    def _fonts(self, resources: Any) -> None:
        for name, font in resources.get("/Font", {}).items():
            if font.objgen in self.fonts_seen:
                continue
            self.fonts_seen.add(font.objgen)
            if not _embedded(font):
                self.report.add(f"font {font.get('/BaseFont', name)} is not embedded", "its text")


def _decoded_cmyk(image: Any) -> Any:
    """A CMYK image's inks as a uint8 array (rows × columns × 4), its Decode array applied."""
    import numpy as np
    from PIL import Image

    raw = image.read_raw_bytes()
    if str(image.get("/Filter")) == "/DCTDecode":
        with Image.open(io.BytesIO(raw)) as jpeg:  # Pillow undoes Adobe's inverted CMYK, as /Decode [1 0 …] does
            return np.asarray(jpeg.convert("CMYK"))
    data = np.frombuffer(image.read_bytes(), dtype=np.uint8)
    pixels = data[: int(image.Height) * int(image.Width) * 4].reshape(int(image.Height), int(image.Width), 4)
    decode = [float(v) for v in image.get("/Decode", [])]
    return 255 - pixels if decode[:2] == [1.0, 0.0] else pixels


def _embedded(font: Any) -> bool:
    subtype = str(font.get("/Subtype", ""))
    if subtype == "/Type3":
        return True
    if subtype == "/Type0":
        font = font.DescendantFonts[0]
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def _is_rgb(space: Any) -> bool:
    """Whether a colour space (a name or an array) is RGB, or Lab, or an ICC space of three components."""
    import pikepdf

    if space is None:
        return False
    if isinstance(space, pikepdf.Name):
        return str(space) in RGB_SPACES
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        family = str(space[0])
        if family in RGB_SPACES:
            return True
        if family == "/ICCBased":
            return int(space[1].get("/N", 0)) == 3
        if family == "/Indexed":
            return _is_rgb(space[1])
        if family in ("/Separation", "/DeviceN"):
            return _is_rgb(space[2])
    return False


def _text(data: bytes, pdf: Any, shop: Shop) -> list[Finding]:
    """Text within the cut tolerance of the trim (errors), or within the safe zone (warnings), page by page."""
    import pypdfium2 as pdfium

    found: list[Finding] = []
    document = pdfium.PdfDocument(data)
    try:
        for index, page in enumerate(pdf.pages):
            if "/TrimBox" not in page.obj or _box(page.obj["/TrimBox"]) == _box(page.MediaBox):
                continue
            trim = _box(page.obj["/TrimBox"])
            found += _page_text(document, index, trim, _box(page.MediaBox)[3], shop)
    finally:
        raster.close(document)
    return found


def _page_text(document: Any, index: int, trim: tuple[float, ...], height: float, shop: Shop) -> list[Finding]:
    page = document[index]
    text = page.get_textpage()
    try:
        closest: tuple[float, str, float, float] | None = None
        for char in range(text.count_chars()):
            glyph = text.get_text_range(char, 1)
            if not glyph.strip():
                continue
            left, bottom, right, top = text.get_charbox(char)
            if right - left <= 0 or top - bottom <= 0:
                continue
            gap = min(left - trim[0], bottom - trim[1], trim[2] - right, trim[3] - top) / MM
            if closest is None or gap < closest[0]:
                closest = (gap, _word(text, char), left, top)
    finally:
        raster.close(text, page)
    if closest is None or closest[0] >= shop.safe - 0.05:
        return []
    gap, word, left, top = closest
    where = f"{left / MM:.1f} mm from the left, {(height - top) / MM:.1f} mm from the top"
    if gap < 0:
        return [Finding(index + 1, f"text '{word}' runs {-gap:.1f} mm past the trim", where)]
    if gap < shop.cut_tolerance:
        return [Finding(index + 1, f"text '{word}' {gap:.1f} mm inside the trim (the cut drifts "
                                   f"{shop.cut_tolerance:.1f} mm)", where)]  # fmt: skip
    return [Finding(index + 1, f"text '{word}' {gap:.1f} mm inside the trim, in the {shop.safe:.1f} mm safe zone",
                    where, error=False)]  # fmt: skip


def _word(text: Any, char: int) -> str:
    """The word around character `char` of a text page."""
    start, end, count = char, char, text.count_chars()
    while start > 0 and text.get_text_range(start - 1, 1).strip():
        start -= 1
    while end + 1 < count and text.get_text_range(end + 1, 1).strip() and end - start < 30:
        end += 1
    return str(text.get_text_range(start, end - start + 1))


def _box(value: Any) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in value)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    tolerance = 0.01
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)  # fmt: skip


def _matrix(value: Any) -> Matrix:
    if value is None:
        return IDENTITY
    a, b, c, d, e, f = (float(v) for v in value)
    return (a, b, c, d, e, f)


def _multiply(first: Matrix, second: Matrix) -> Matrix:
    """`first` then `second` (PDF's row-vector convention: cm's matrix applies before the current one)."""
    a, b, c, d, e, f = first
    p, q, r, s, t, u = second
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return (a * x + c * y + e, b * x + d * y + f)
