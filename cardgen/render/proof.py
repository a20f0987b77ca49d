"""The proof sheet (`cardgen build GAME --proof`): every distinct face once, small, with its id, copies and status.

What a designer reviews before printing: one PDF per game, `output/<game>/proof.pdf`, a page per component (more when
it has many faces), each face rasterised at 100 dpi with its item id, how many copies print, and what validation and
text fitting say about it ("ok", "text overflows: ability", "breaks: Costs in range").
"""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path

from cardgen.data.games import Game, Item
from cardgen.output import write_atomic
from cardgen.render.build import GameRenderer
from cardgen.render.jobs import BuildReport, PrintOptions
from cardgen.render.shop import face_images
from cardgen.units import MM
from cardgen.validate.base import Violation

DPI = 100
MARGIN = 12.0  # mm
CELL_TEXT = 9.0  # mm under each face for its labels
PER_ROW = 4


def item_status(game: Game, violations: list[Violation], report: BuildReport) -> dict[str, list[str]]:
    """What is wrong with each item, by id: overflowing text and the rules whose violations name it."""
    found: dict[str, list[str]] = defaultdict(list)
    for overflow in report.overflows:
        found[overflow.item].append(f"text overflows: {overflow.field}")
    ids = {item.id for _, item in game.items()}
    for violation in violations:
        for item_id in ids:
            if f"({item_id}." in violation.where or violation.where.endswith(f": {item_id}"):
                found[item_id].append(f"breaks: {violation.rule}")
    return found


def write_proof(renderer: GameRenderer, violations: list[Violation], target: Path) -> int:
    """Write the proof sheet; return its page count."""
    from reportlab.lib.colors import Color
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    game = renderer.game
    options = PrintOptions()
    paper = options.paper_size
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=paper.points, invariant=1, initialFontName=renderer.body_font)
    canvas.setTitle(f"{game.title} — proof")
    canvas.setAuthor(game.manifest.designer or game.title)
    canvas.setSubject(f"{game.title} {game.manifest.version or ''}".strip() + " — every face once, for checking")
    pages = 0
    for component in filter(lambda c: c.printed, game.components):
        report = BuildReport()
        job = renderer.job(component, options, report)
        faces = job.faces
        status = item_status(game, violations, report)
        firsts: dict[str, Item] = {}
        for item in component.items:
            firsts.setdefault(faces.item_faces[item.id][0], item)
        images = face_images(job, list(firsts), DPI)
        width = max(i.width for i in images) / DPI * 25.4
        height = max(i.height for i in images) / DPI * 25.4
        # small: at least four faces across (a face larger than a quarter of the page is shrunk to fit)
        across = (paper.width - 2 * MARGIN) / PER_ROW - 4
        scale = min(1.0, across / width, (paper.height - 2 * MARGIN - 10 - CELL_TEXT) / height)
        cell_w, cell_h = width * scale + 4, height * scale + CELL_TEXT
        cols = max(1, int((paper.width - 2 * MARGIN) // cell_w))
        rows = max(1, int((paper.height - 2 * MARGIN - 10) // cell_h))
        for start in range(0, len(images), cols * rows):
            canvas.setFont(renderer.body_font, 11)
            canvas.drawString(MARGIN * MM, (paper.height - MARGIN) * MM, f"{game.title} — {component.title} (proof)")
            chunk = list(zip(images, firsts.values(), strict=True))[start : start + cols * rows]
            for index, (image, item) in enumerate(chunk):
                x = MARGIN + (index % cols) * cell_w
                top = paper.height - MARGIN - 8 - (index // cols) * cell_h
                w, h = image.width / DPI * 25.4 * scale, image.height / DPI * 25.4 * scale
                canvas.drawImage(ImageReader(image), x * MM, (top - h) * MM, w * MM, h * MM)
                problems = status.get(item.id, [])
                canvas.setFillColor(Color(0.75, 0.1, 0.1) if problems else Color(0, 0, 0))
                canvas.setFont(renderer.body_font, 6.5)
                canvas.drawString(x * MM, (top - h - 3.2) * MM, f"{item.id} ×{item.count}")
                canvas.drawString(x * MM, (top - h - 6.2) * MM, (problems[0] if problems else "ok")[:48])
                canvas.setFillColor(Color(0, 0, 0))
            canvas.showPage()
            pages += 1
    canvas.save()
    write_atomic(target, buffer.getvalue())
    return pages
