"""Contrast: how well each text a face sets stands out from what lies under it (the validator's `text-contrast`).

Each distinct face of a component is drawn twice into one small PDF — as printed, and with its text's glyphs left
out (their glow, shadow and outline kept: they are what the glyphs sit on) — and both pages are rendered with pdfium
at `DPI`. The drawing records each text box's fill colours and the box its lines take (`kit.TextRun`). The pixels
under the glyphs are those the two renders differ at inside that box; where they differ nowhere (text in the very
colour of its ground) the whole box is taken. Each such pixel of the text-less render is a background the glyphs
meet; its contrast with the text colour is the WCAG 2 ratio (L1 + 0.05) / (L2 + 0.05) of relative luminances. A
text's figure is the 10th percentile of those ratios: the contrast that 90 % of the ground under it reaches or
exceeds. A few stars or a hairline under a word do not decide it; art covering a tenth of it does.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from reportlab.lib.colors import Color, HexColor

from cardgen.render import raster
from cardgen.render.kit import TextRun
from cardgen.render.raster import rendered
from cardgen.units import MM

if TYPE_CHECKING:
    from cardgen.render.draw import PreparedFace
    from cardgen.render.jobs import ComponentJob

DPI = 100  # enough to tell the ground under 6.5 pt text; a card renders in a few milliseconds
WORST_SHARE = 0.10  # the share of the ground under a text allowed to contrast less than the figure reported
DIFFERS = 8  # a channel difference (0–255) from which a pixel counts as drawn by the glyphs


@dataclass(frozen=True)
class TextContrast:
    """One text of one item's face: its contrast with what lies under it, and the colours that give that figure."""

    item: str
    side: str
    what: str
    colour: str  # #rrggbb
    ground: str  # #rrggbb: the background colour at the reported figure
    ratio: float


_LINEAR = np.array([c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in np.arange(256) / 255])
_WEIGHTS = np.array([0.2126, 0.7152, 0.0722])


def relative_luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB values 0–255 (any shape ending in 3 channels): each channel made linear
    (a table of the 256 values, not a power per pixel), then weighted."""
    weighted: np.ndarray = _LINEAR[np.clip(np.rint(rgb), 0, 255).astype(np.intp)] @ _WEIGHTS
    return weighted


def ratio(first: float, second: float) -> float:
    """The WCAG 2 contrast ratio of two relative luminances (1 to 21)."""
    light, dark = max(first, second), min(first, second)
    return (light + 0.05) / (dark + 0.05)


def _rgb(colour: Color) -> np.ndarray:
    return np.array([round(255 * c) for c in (colour.red, colour.green, colour.blue)], dtype=np.float64)


def _hex(rgb: np.ndarray) -> str:
    return "#" + "".join(f"{round(float(c)):02x}" for c in rgb)


def _draw(job: ComponentJob, faces: list[PreparedFace], art_once: bool = True) -> tuple[bytes, list[list[TextRun]]]:
    """One PDF of the faces, each on two pages (as printed, then without its glyphs), and each face's text runs. One
    document for the component: its fonts are embedded once, not once a face; and each piece of art drawn once, as
    a form both pages of its face place (`art_once`; drawing generated art was about an eighth of a `validate`)."""
    from cardgen.render.icons import IconCanvas

    bleed = job.bleed
    buffer = io.BytesIO()
    # never compressed: pdfium reads it at once (compressing the streams was a twentieth of a `validate`)
    canvas = IconCanvas(buffer, invariant=1, pageCompression=0, initialFontName=job.body_font)
    canvas.use_icons(job.drawer.painters)
    canvas.art_forms = {} if art_once else None
    runs: list[list[TextRun]] = []
    for face in faces:
        runs.append([])
        for text in (True, False):
            canvas.setPageSize(((face.width + 2 * bleed) * MM, (face.height + 2 * bleed) * MM))
            canvas.translate(bleed * MM, bleed * MM)
            job.drawer.draw(canvas, face, bleed, text=text, runs=runs[-1] if text else None)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue(), runs


def _window(boxes: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    """The pixels (top, left, bottom, right) that the text boxes (`_boxes`) lying on the face cover, empty when none
    does: only they are rendered and compared."""
    on = [(top, left, bottom, right) for top, left, bottom, right in boxes if top < bottom and left < right]
    if not on:
        return 0, 0, 0, 0
    return min(b[0] for b in on), min(b[1] for b in on), max(b[2] for b in on), max(b[3] for b in on)


def _boxes(runs: list[TextRun], rows: int, cols: int) -> list[tuple[int, int, int, int]]:
    """Each run's box as pixels (top, left, bottom, right) of a face `rows` × `cols` pixels at `DPI`, clipped to the
    face (empty for a box outside it)."""
    scale = DPI / 72
    out = []
    for run in runs:
        x0, y0, x1, y1 = run.box
        left, right = max(int(x0 * scale), 0), min(int(np.ceil(x1 * scale)), cols)
        top, bottom = max(int(rows - y1 * scale), 0), min(int(np.ceil(rows - y0 * scale)), rows)
        out.append((top, left, bottom, right))
    return out


def _measure(printed: np.ndarray, ground: np.ndarray, runs: list[TextRun], boxes: list[tuple[int, int, int, int]],
             origin: tuple[int, int] = (0, 0)) -> list[tuple[TextRun, str, float]]:  # fmt: skip
    """Each run with the background colour giving its figure and the figure (see the module), from the renders of
    its face with and without glyphs, both of the window whose top left pixel is `origin`; `boxes` are the runs'
    pixels in the whole face (`_boxes`)."""
    out = []
    for run, (top, left, bottom, right) in zip(runs, boxes, strict=True):
        if right <= left or bottom <= top:
            continue  # a box outside the face prints nothing
        top, bottom, left, right = top - origin[0], bottom - origin[0], left - origin[1], right - origin[1]
        box = ground[top:bottom, left:right]
        under: np.ndarray = np.abs(printed[top:bottom, left:right] - box).max(axis=2) >= DIFFERS
        grounds = box[under] if under.any() else box.reshape(-1, 3)
        shade = relative_luminance(_rgb(run.colour))
        lights = relative_luminance(grounds)
        ratios = (np.maximum(lights, shade) + 0.05) / (np.minimum(lights, shade) + 0.05)
        index = int(np.argsort(ratios, kind="stable")[int(WORST_SHARE * (len(ratios) - 1))])
        out.append((run, _hex(grounds[index]), float(ratios[index])))
    return out


def face_contrasts(job: ComponentJob, faces: list[PreparedFace]) -> list[list[tuple[TextRun, str, float]]]:
    """Each face's text runs, each with the background colour giving its figure and the figure (see the module)."""
    import pypdfium2 as pdfium

    if not faces:  # every face measured before: a PDF of no page is no document to pdfium
        return []
    data, runs = _draw(job, faces)
    document = pdfium.PdfDocument(data)
    out: list[list[tuple[TextRun, str, float]]] = []
    try:
        for index, face_runs in enumerate(runs):
            face = faces[index]
            # pdfium's own sizing of a page rendered whole (pypdfium2's `render`)
            rows = math.ceil((face.height + 2 * job.bleed) * MM * DPI / 72)
            cols = math.ceil((face.width + 2 * job.bleed) * MM * DPI / 72)
            boxes = _boxes(face_runs, rows, cols)
            top, left, bottom, right = _window(boxes)
            if bottom <= top:  # no text, or none on the face
                out.append([])
                continue
            # only the window the text boxes cover is rendered: a board or a sheet is mostly not text
            crop = (left, rows - bottom, cols - right, top)
            printed, ground = (_pixels(document, 2 * index + page, crop) for page in (0, 1))
            out.append(_measure(printed, ground, face_runs, boxes, (top, left)))
    finally:
        raster.close(document)
    return out


def _pixels(document: Any, index: int, crop: tuple[int, int, int, int] = (0, 0, 0, 0)) -> np.ndarray[Any, Any]:
    """A page's RGB pixels at `DPI`, as signed integers for the differences `_measure` takes, `crop` pixels left out
    at the left, bottom, right and top: the same pixels as in the whole page's render (pdfium shifts the page by
    whole pixels)."""
    scale = DPI / 72
    # pypdfium2 rounds each side's crop up to whole pixels: half a pixel less rounds to exactly the pixels asked
    at = tuple((side - 0.5) / scale if side else 0.0 for side in crop)
    with rendered(document, index, scale=scale, crop=at) as image:
        return np.asarray(image.convert("RGB"), dtype=np.int16)


Measured = dict[str, list[tuple[TextRun, str, float]]]  # each distinct face's runs, by the face's key


class Remembered:
    """Contrast measures kept in the user's cache between processes ($XDG_CACHE_HOME/cardgen/contrast.sqlite), by a
    digest of everything that decides a face's pixels: the game's look (its settings, images and fonts, the bundled
    fonts, cardgen's code and the drawing libraries' versions: `cache.look`), the face's whole markup, ink treatment
    and size (`FaceSet.drawn`), the bleed and the body font. Drawing and rendering every face twice is nearly all of
    a `validate` (about 23 s of processor time for Rift Domination); a designer validating again after changing a
    card measures that card's faces only. Each run is kept as its text, colour, ground and figure (JSON, never
    code), and the same key gives the same figures, so a report is the same whether measured or remembered. A cache
    that cannot be read or written is passed over (a file that is not a database is started again); the oldest
    entries go beyond `STORED`."""

    STORED = 100_000  # faces (a bundled game has 300–1,300 in each ink)

    def __init__(self, look: str, path: Path | None = None):
        self.look = look
        self.path = path  # None: the user's cache, found on first use (a home that cannot be found: no cache)

    def key(self, job: ComponentJob, face: str) -> str:
        parts = json.dumps([self.look, job.faces.drawn[face], job.bleed, job.body_font, DPI, WORST_SHARE, DIFFERS])
        return hashlib.sha256(parts.encode()).hexdigest()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            from cardgen.paths import user_cache

            self.path = user_cache() / "contrast.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for attempt in (1, 2):
            connection = sqlite3.connect(self.path, timeout=30)  # a busy cache (another process writing) waits
            try:
                connection.execute(
                    "CREATE TABLE IF NOT EXISTS measured (key TEXT PRIMARY KEY, runs TEXT, used INTEGER)"
                )
                return connection
            except sqlite3.DatabaseError as exc:
                connection.close()
                if type(exc) is not sqlite3.DatabaseError or attempt == 2:  # a lock or the like: not ours to mend
                    raise
                self.path.unlink()  # not a database (a damaged or foreign file): the cache starts again
        raise AssertionError("unreachable")

    def recall(self, keys: list[str]) -> dict[str, list[tuple[TextRun, str, float]]]:
        """The remembered measures of these keys (those there are)."""
        found: dict[str, list[tuple[TextRun, str, float]]] = {}
        try:
            connection = self._open()
            try:
                for start in range(0, len(keys), 500):  # within SQLite's limit on a statement's parameters
                    chunk = keys[start : start + 500]
                    rows = connection.execute(
                        f"SELECT key, runs FROM measured WHERE key IN ({','.join('?' * len(chunk))})", chunk
                    ).fetchall()
                    for key, runs in rows:
                        found[key] = [(TextRun(what, HexColor(colour), (0.0, 0.0, 0.0, 0.0)), ground, float(figure))
                                      for what, colour, ground, figure in json.loads(runs)]  # fmt: skip
            finally:
                connection.close()
        except (sqlite3.Error, OSError, RuntimeError, ValueError, TypeError):  # unreadable: measured again
            return {}
        return found

    def keep(self, measured: dict[str, list[tuple[TextRun, str, float]]]) -> None:
        """Remember these measures (the box a run took is not kept: only `_measure` reads it)."""
        if not measured:
            return
        rows = [(key, json.dumps([[run.what, _hex(_rgb(run.colour)), ground, figure] for run, ground, figure in runs]),
                 time.time_ns()) for key, runs in measured.items()]  # fmt: skip
        try:
            connection = self._open()
            try:
                with connection:
                    connection.executemany("INSERT OR REPLACE INTO measured VALUES (?, ?, ?)", rows)
                    (count,) = connection.execute("SELECT COUNT(*) FROM measured").fetchone()
                    if count > self.STORED:  # the oldest go
                        connection.execute(
                            "DELETE FROM measured WHERE key IN (SELECT key FROM measured ORDER BY used LIMIT ?)",
                            (count - self.STORED,),
                        )
            finally:
                connection.close()
        except (sqlite3.Error, OSError, RuntimeError):
            pass


def contrasts(
    job: ComponentJob, earlier: tuple[ComponentJob, Measured] | None = None, remembered: Remembered | None = None
) -> tuple[list[TextContrast], Measured]:
    """Every item's texts, front and back, with their contrast, and each distinct face's measures. A face drawn
    exactly as in the `earlier` job (the same component in the full ink: a light face with no dark area to lighten)
    keeps its earlier measure; a face measured by an earlier process is `remembered`; every other face is measured
    once."""
    reused: Measured = {}
    if earlier is not None:
        before, figures = earlier
        for key, face in job.faces.faces.items():
            if key in figures and before.faces.faces[key].face == face.face:
                reused[key] = figures[key]
    keys = [key for key in job.faces.faces if key not in reused]
    digests = {key: remembered.key(job, key) for key in keys} if remembered is not None else {}
    if remembered is not None and keys:
        found = remembered.recall(list(digests.values()))
        reused |= {key: found[digest] for key, digest in digests.items() if digest in found}
        keys = [key for key in keys if key not in reused]
    fresh = dict(zip(keys, face_contrasts(job, [job.faces.faces[key] for key in keys]), strict=True))
    if remembered is not None:
        remembered.keep({digests[key]: runs for key, runs in fresh.items()})
    measured = reused | fresh
    out = []
    for item, sides in job.faces.item_faces.items():
        for side, face_key in zip(("front", "back"), sides, strict=True):
            for run, ground, figure in measured[face_key] if face_key else ():
                out.append(TextContrast(item, side, run.what, _hex(_rgb(run.colour)), ground, figure))
    return out, measured


__all__ = [
    "DPI",
    "WORST_SHARE",
    "Measured",
    "Remembered",
    "TextContrast",
    "contrasts",
    "face_contrasts",
    "ratio",
    "relative_luminance",
]
