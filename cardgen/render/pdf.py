"""PDF documents: placing prepared faces into imposition slots, marks, labels and page boxes; atomic writing.

Faces drawn more than once in a document (copies, shared backs, frames of a board tiled over pages) become PDF form
XObjects, drawn once and placed many times. Output is reproducible (reportlab's invariant mode, fixed metadata) and
written atomically: to a temporary file beside the target, then renamed, so an error never leaves half a file.
"""

from __future__ import annotations

import hashlib
import io
import math
import zlib
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import Color, white
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, PATH_OPS

from cardgen import __version__, limits
from cardgen.errors import DataError
from cardgen.output import write_atomic  # the writers import it from here
from cardgen.render import drawnink
from cardgen.render.draw import FaceDrawer, PreparedFace
from cardgen.render.icons import IconCanvas, regular_polygon
from cardgen.render.imposition import Line, Rect, Slot
from cardgen.units import MM, Size

if TYPE_CHECKING:
    from cardgen.render.separation import Separation

__all__ = ["Document", "write_atomic"]

MARK_COLOUR = Color(0, 0, 0)
LABEL_COLOUR = Color(0.35, 0.35, 0.35)
LABEL_SMALLEST = 4.5  # points: a sheet label smaller than this loses the names of what the sheet holds first
GUIDE_COLOUR = Color(0.3, 0.3, 0.3)  # die-lines: dark grey over a white stroke, seen on white paper and coloured art


class Document:
    """One PDF being written: a canvas, the faces it draws, and which of them are reused as forms."""

    def __init__(
        self,
        drawer: FaceDrawer,
        title: str,
        body_font: str,
        uses: Counter[str] | None = None,
        author: str = "",
        subject: str = "",
        separation: Separation | None = None,
    ):
        self.drawer = drawer
        self.buffer = io.BytesIO()
        self.canvas = IconCanvas(
            self.buffer,
            invariant=1,
            pageCompression=1,
            initialFontName=body_font,
            initialFontSize=8,
            pdfVersion=(1, 6),
        )
        self.canvas.use_icons(drawer.painters)
        self.title = title
        self.canvas.setTitle(title)
        self.canvas.setAuthor(author)  # never reportlab's "anonymous"
        self.canvas.setSubject(subject or title)
        self.edition = subject or title
        self.canvas.setCreator(f"cardgen {__version__}")
        self.canvas.setProducer(f"cardgen {__version__} (reportlab)")
        self.body_font = body_font
        self.uses = Counter(uses or ())  # a copy: a writer may raise counts (boards drawn on several pages)
        self.forms: set[str] = set()
        self.pages = 0
        # each page's drawing, its sheet label aside: pages with equal keys look the same (`ink.coverage`)
        self.page_keys: list[bytes] = []
        self._page_head = ""
        self._labels: list[tuple[int, int]] = []  # where in the page's code each label's operators lie
        self.separation = separation  # CMYK: the written file is flattened and separated (render/pdfx.py)
        # each page's ink coverage worked out from what it drew (`render/drawnink.py`), None where it must be
        # rendered: only pages an imposing writer draws (`measures_ink`) through `place`, `lines` and `label`
        self.measures_ink = False
        self.page_ink: list[float | None] = []
        self._ink: float | None = None  # the page's ink so far (mm² × darkness)
        self._paper_area = 0.0
        self._clips: list[drawnink.Box] = []  # where the page's faces paint (page mm), apart from each other and from:
        self._marks: list[drawnink.Box] = []  # its marks' strokes
        self._labelled: list[drawnink.Box] = []  # and the boxes of its labels
        self._mark_darkness: set[float] = set()
        self._faces_ink: dict[tuple[str, drawnink.Box, float], float | None] = {}

    def print_hints(self, sides: str, subject: str) -> None:
        """Tell the print dialog what this file needs: actual size (never "fit to page", which would shrink every
        card), and one- or two-sided printing turned on the right edge."""
        duplex = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge"}.get(sides, "Simplex")
        self.canvas.setViewerPreference("PrintScaling", "None")
        self.canvas.setViewerPreference("Duplex", duplex)
        self.canvas.setSubject(f"{self.edition} — {subject}")

    def start_page(self, paper: Size, trim: Rect | None = None, bleed: Rect | None = None) -> None:
        """Begin a page of the given size; TrimBox and BleedBox are set only when given (single-face pages)."""
        bound = limits.current().pages_per_file
        if self.pages >= bound:
            raise DataError(f"{self.title}: more than {bound:,} pages in one file (--limit pages_per_file=N)")
        self.canvas.setPageSize(paper.points)
        self.canvas.setTrimBox(_box(trim))
        self.canvas.setBleedBox(_box(bleed))
        self.canvas.setArtBox(_box(trim))
        self._page_head = repr((paper.points, trim, bleed))
        self._ink = 0.0 if self.measures_ink and self.separation is None else None
        self._paper_area = paper.width * paper.height
        self._clips, self._marks, self._labelled, self._mark_darkness = [], [], [], set()

    def end_page(self) -> None:
        self.page_keys.append(self._page_key())
        self.page_ink.append(self._drawn_ink())
        self.canvas.showPage()
        self.pages += 1
        _packed(self.canvas._doc.Pages.pages[-1])

    def _page_key(self) -> bytes:
        """A digest of the page's size, boxes and drawing operators (reportlab's `_code`; a face used more than once
        is a form named by its key, so its operators are the same `Do` on every page), the operators of its sheet
        labels left out: the pages of a deck's backs differ only in their labels' sheet numbers."""
        code: list[str] = self.canvas._code
        digest = hashlib.blake2b(self._page_head.encode(), digest_size=16)
        start = 0
        for first, last in (*self._labels, (len(code), len(code))):
            digest.update("\n".join(code[start:first]).encode())
            digest.update(b"\0label\0")
            start = last
        self._labels = []
        return digest.digest()

    def _drawn_ink(self) -> float | None:
        """The page's coverage from what it drew, when it drew only what `drawnink` measures, its faces' clips
        apart from each other and from its marks and labels."""
        if self._ink is None or len(self._mark_darkness) > 1:
            return None
        clips, marks = tuple(self._clips), tuple(self._marks)
        if not drawnink.apart(clips, marks) or not drawnink.clear(self._labelled, clips):  # full sheets share the first
            return None
        ink = self._ink + drawnink.union(marks) * next(iter(self._mark_darkness), 0.0)
        return ink / self._paper_area

    def _face_ink(self, key: str, face: PreparedFace, slot: Slot, bleed: float, shape: str,
                  shift: tuple[float, float]) -> None:  # fmt: skip
        """Add a placed face's ink to the page's (`_ink` None when it cannot be worked out)."""
        if self._ink is None:
            return
        if shape != "rect" or slot.rotate not in (0, 180):
            self._ink = None
            return
        trim, clip = slot.trim, slot.clip
        if slot.rotate:  # the clip in the face's own mm (y down from its top), the face turned about its centre
            own = (trim.right - clip.right, clip.y - trim.y, trim.right - clip.x, clip.top - trim.y)
        else:
            own = (clip.x - trim.x, trim.top - clip.top, clip.right - trim.x, trim.top - clip.y)
        if self.uses[key] > 1:  # a face placed again (a deck's back) is worked out once
            memo = (key, own, bleed)
            if memo not in self._faces_ink:
                self._faces_ink[memo] = drawnink.face_ink(face, self.drawer.kit, bleed, own)
            known = self._faces_ink[memo]
        else:
            known = drawnink.face_ink(face, self.drawer.kit, bleed, own)
        if known is None:
            self._ink = None
            return
        self._ink += known
        dx, dy = shift
        self._clips.append((clip.x + dx, clip.y + dy, clip.right + dx, clip.top + dy))

    def place(
        self,
        key: str,
        face: PreparedFace,
        slot: Slot,
        bleed: float,
        shape: str = "rect",
        shift: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """Draw a face into a slot: clipped to the slot's bleed area (shaped), turned if the slot says so."""
        c = self.canvas
        dx, dy = shift
        c.saveState()
        c.translate(dx * MM, dy * MM)
        _clip(c, slot, shape, bleed)
        trim = slot.trim
        c.translate(trim.x * MM, trim.y * MM)
        if slot.rotate == 180:
            c.translate(trim.w * MM, trim.h * MM)
            c.rotate(180)
        # a hexagon grown by the bleed reaches bleed / sin 60° beyond its corners: paint that far, the clip trims
        self.draw(key, face, bleed * 2 / math.sqrt(3) if shape == "hex" else bleed)
        c.restoreState()
        self._face_ink(key, face, slot, bleed, shape, shift)

    def draw(self, key: str, face: PreparedFace, bleed: float) -> None:
        """Draw a face at the origin, through a form when the document uses it more than once."""
        if self.uses[key] <= 1:
            self.drawer.draw(self.canvas, face, bleed)
            return
        name = f"face-{key}"
        if name not in self.forms:
            c = self.canvas
            c.beginForm(name, -bleed * MM, -bleed * MM, (face.width + bleed) * MM, (face.height + bleed) * MM)
            self.drawer.draw(c, face, bleed)
            c.endForm()
            self.forms.add(name)
        self.canvas.doForm(name)

    def lines(
        self, lines: Iterable[Line], weight: float, colour: Color = MARK_COLOUR, dash: tuple[float, ...] = ()
    ) -> None:
        c = self.canvas
        c.saveState()
        c.setStrokeColor(colour)
        c.setLineWidth(weight)
        if dash:
            c.setDash(list(dash))
        for line in lines:
            c.line(line.x1 * MM, line.y1 * MM, line.x2 * MM, line.y2 * MM)
        c.restoreState()
        if self._ink is not None:
            boxes = None if dash else drawnink.line_boxes(lines, weight)
            if boxes is None:
                self._ink = None
            else:
                self._marks.extend(boxes)
                self._mark_darkness.add(drawnink.darkness(colour))

    def outline(self, slot: Slot, shape: str, weight: float = 0.35) -> None:
        """A thin die-line along a face's trim (used where faces cannot be cut with straight lines): dark grey over a
        wider white stroke, so it shows on a piece's coloured bleed as well as on white paper."""
        self._ink = None  # die-lines are rendered for their ink
        c = self.canvas
        c.saveState()
        for colour, width in ((white, 2.5 * weight), (GUIDE_COLOUR, weight)):
            c.setStrokeColor(colour)
            c.setLineWidth(width)
            c.drawPath(_shape_path(c, slot.trim, shape, 0.0), stroke=1, fill=0)
        c.restoreState()

    def label(self, text: str, at: tuple[float, float, float], size: float = 5.0) -> None:
        """A small grey line of text centred at (x, y) mm, fitted to the available width: shrunk to no less than
        `LABEL_SMALLEST`, then without the names of what the sheet holds (`Game · names · sheet 2/3 · front` →
        `Game · sheet 2/3 · front`), and only then shrunk further."""
        x, y, room = at
        c = self.canvas
        width = c.stringWidth(text, self.body_font, size)
        parts = text.split(" · ")
        if room > 0 and width * LABEL_SMALLEST / size > room * MM and len(parts) > 3:
            text = " · ".join([parts[0], *parts[2:]])
            width = c.stringWidth(text, self.body_font, size)
        if room > 0 and width > room * MM:
            size = max(size * room * MM / width, 3.0)
        first = len(c._code)
        c.saveState()
        c.setFillColor(LABEL_COLOUR)
        c.setFont(self.body_font, size)
        c.drawCentredString(x * MM, y * MM - size * 0.35, text)
        c.restoreState()
        self._labels.append((first, len(c._code)))
        if self._ink is not None:
            area = drawnink.text_area(self.body_font, size, (text,))
            if area is None:
                self._ink = None
                return
            self._ink += area * drawnink.darkness(LABEL_COLOUR)
            half, baseline, em = width / MM / 2, y - size * 0.35 / MM, size / MM
            self._labelled.append((x - half, baseline - em / 3, x + half, baseline + em))  # kept off the faces

    def finish(self) -> bytes:
        """The file's bytes: as drawn, or in CMYK PDF/X-1a when the document has a separation."""
        self.canvas.save()
        if self.separation is None:
            return self.buffer.getvalue()
        from cardgen.render.pdfx import to_pdfx

        return to_pdfx(self.buffer.getvalue(), self.separation)


def _packed(page: Any) -> None:
    """Encode a finished page's drawing now, as reportlab encodes it when the file is saved (the same bytes: its
    UTF-8 compressed with `zlib.compress`, then in ASCII85 when `rl_config.useA85`, reportlab's default): a file's
    pages wait for the save a third of their size (300 pages of poker cards: 2.8 MB kept as 0.9)."""
    from reportlab import rl_config
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFName, PDFStream
    from reportlab.pdfbase.pdfutils import _wrap, asciiBase85Encode

    if not page.compression or not page.stream or page.Contents:
        return  # reportlab writes it as ever
    content, filters = zlib.compress(page.stream.encode("utf8")), ["FlateDecode"]
    if rl_config.useA85:
        content = asciiBase85Encode(content)
        content = _wrap(content) if rl_config.wrapA85 else content
        filters.insert(0, "ASCII85Decode")
    packed = PDFStream(content=content)
    packed.dictionary["Filter"] = PDFArray([PDFName(name) for name in filters])
    packed.__Comment__ = "page stream"
    page.Contents, page.stream = packed, None


def _box(rect: Rect | None) -> tuple[float, float, float, float] | None:
    if rect is None:
        return None
    return (rect.x * MM, rect.y * MM, rect.right * MM, rect.top * MM)


def _clip(canvas: IconCanvas, slot: Slot, shape: str, bleed: float) -> None:
    if shape == "rect":  # what a path of the rectangle and `clipPath(path, stroke=0, fill=0)` write, at once
        clip, mode = slot.clip, canvas._fillMode
        area = fp_str((clip.x * MM, clip.y * MM, clip.w * MM, clip.h * MM))
        canvas._code.append(f"n {area} re{' W* ' if mode == FILL_EVEN_ODD else ' W '}{PATH_OPS[0, 0, mode]}")
        return
    canvas.clipPath(_shape_path(canvas, slot.trim, shape, bleed), stroke=0, fill=0)


def _shape_path(canvas: IconCanvas, trim: Rect, shape: str, grow: float) -> Any:
    """The outline of a round or hex face, grown outward by `grow` mm."""
    path = canvas.beginPath()
    cx, cy = (trim.x + trim.w / 2) * MM, (trim.y + trim.h / 2) * MM
    if shape == "round":
        path.circle(cx, cy, (min(trim.w, trim.h) / 2 + grow) * MM)
        return path
    if shape == "rect":
        path.rect((trim.x - grow) * MM, (trim.y - grow) * MM, (trim.w + 2 * grow) * MM, (trim.h + 2 * grow) * MM)
        return path
    flat_top = trim.w >= trim.h
    radius = (max(trim.w, trim.h) / 2 + 2 * grow / math.sqrt(3)) * MM
    corners = regular_polygon(cx, cy, radius, 6, 0.0 if flat_top else math.pi / 6)
    path.moveTo(*corners[0])
    for corner in corners[1:]:
        path.lineTo(*corner)
    path.close()
    return path
