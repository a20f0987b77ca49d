"""The print PDF (`--format pdf`, the default): faces imposed on sheets of paper with crop marks, backs behind their
fronts (duplex), beside them (fold) or on pages of their own; boards and page-sized sheets go to `sheets`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cardgen.output import write_atomic
from cardgen.render.imposition import (
    LayoutError,
    Line,
    SheetPlan,
    Slot,
    choose_orientation,
)
from cardgen.render.ink import coverage
from cardgen.render.jobs import SIDES_NOTE, Block, ComponentJob, OutputFile, PrintOptions
from cardgen.render.packing import job_plan, plan_for
from cardgen.render.pdf import Document
from cardgen.render.sheets import write_boards
from cardgen.units import Size


def write_print_pdf(job: ComponentJob, path: Path) -> OutputFile:
    """Write one component's sheets to `path`."""
    component, options = job.component, job.options
    doc = job.document()
    if component.kind == "sheets" and (component.size is None or not _fits_paper(job.face, job.bleed, options)):
        write_boards(doc, job)
        backs = any(e.back for e in job.entries) and component.size is None
        sides = ("backs-after" if options.duplex == "off" else options.duplex) if backs else "single"
        sides = "tiled" if doc.pages > len(job.entries) and not backs else sides
    else:
        plan = _impose(doc, job)
        if not _has_backs(job):
            sides = "single"
        elif plan.backs_on_front_page:
            sides = "fold"
        else:
            sides = "backs-after" if options.duplex == "off" else options.duplex
    titles = ", ".join(c.title for c in (component, *job.guests))
    doc.print_hints(sides, f"{titles}: {SIDES_NOTE[sides]}")
    pdf, pages, keys, known = doc.finish(), doc.pages, doc.page_keys, doc.page_ink
    del doc  # the canvas's pages and fonts go before pdfium reads the file back for its ink
    write_atomic(path, pdf)
    holds = tuple(c.id for c in job.guests)
    stacked = bool(job.shared)
    ink = tuple(coverage(pdf, keys, known))
    return OutputFile(path, pages, component.id, sides, ink=ink, holds=holds, stacked=stacked)


def _fits_paper(face: Size, bleed: float, options: PrintOptions) -> bool:
    try:
        choose_orientation(options.paper_size, face, bleed, options.gutter, options.marks)
    except LayoutError:
        return False
    return True


def _impose(doc: Document, job: ComponentJob) -> SheetPlan:
    """Every sheet of the job, each a list of blocks: the job's own full sheets, then its last sheet (partial, or
    shared with other components block by block); back pages behind them (duplex) or after them all (`off`)."""
    component, options, entries = job.component, job.options, job.entries
    doc.measures_ink = True  # its pages' ink worked out from what they draw where it can be (`render/drawnink.py`)
    full = job_plan(job)
    chunks = [entries[i : i + full.capacity] for i in range(0, len(entries), full.capacity)]
    sheets = []
    for chunk in chunks[:-1] if job.shared else chunks:
        # a partial last sheet: bleed towards the empty slots, marks only at the filled ones
        plan = full if len(chunk) == full.capacity else plan_for(component, job.face, job.bleed, options, len(chunk))
        sheets.append([Block(job, tuple(chunk), plan)])
    for guest in (block for block in job.shared[1:] if len(block.entries) < len(block.job.entries)):
        # a larger component sharing the last sheet: its full sheets print in this file, before the shared one
        plan = job_plan(guest.job)
        placed = guest.job.entries[: len(guest.job.entries) - len(guest.entries)]
        sheets += [
            [Block(guest.job, tuple(placed[i : i + plan.capacity]), plan)] for i in range(0, len(placed), plan.capacity)
        ]
    if job.shared:
        sheets.append(list(job.shared))
    title = f"{job.game_title} · {job.names}"
    has_back = _has_backs(job)  # every sheet of a two-sided file gets its back page, so pages pair up in a duplexer
    backs_later: list[tuple[int, list[Block]]] = []
    for number, blocks in enumerate(sheets, 1):
        sheet = f"{title} · sheet {number}/{len(sheets)}"
        fold = blocks[0].plan.backs_on_front_page
        doc.start_page(blocks[0].plan.paper)
        for block in blocks:
            _place_all(doc, block.job, [(e.front, s) for e, s in zip(block.entries, block.plan.fronts, strict=False)])
        if fold:
            for block in blocks:
                _place_all(doc, block.job, _backs(block))
            doc.lines(blocks[0].plan.fold_marks, options.marks.weight, dash=(2, 2))
        for block in blocks:
            _guides(doc, block, block.plan.marks)
        doc.label(f"{sheet} · {'fronts and backs (fold)' if fold else 'front'}", blocks[-1].plan.label_at)
        doc.end_page()
        if has_back and not fold:
            if options.duplex == "off":
                if any(_backs(block) for block in blocks):  # on pages of their own: none for one-sided sheets
                    backs_later.append((number, blocks))
            else:
                _back_page(doc, blocks, f"{sheet} · back")
    for number, blocks in backs_later:
        _back_page(doc, blocks, f"{title} · sheet {number}/{len(sheets)} · backs")
    return full


def _has_backs(job: ComponentJob) -> bool:
    return any(e.back for e in job.entries) or any(e.back for block in job.shared for e in block.job.entries)


def _backs(block: Block) -> list[tuple[str, Slot]]:
    return [(e.back, s) for e, s in zip(block.entries, block.plan.backs, strict=False) if e.back]


def _back_page(doc: Document, blocks: list[Block], label: str) -> None:
    options = blocks[0].job.options
    plan = blocks[-1].plan
    doc.start_page(plan.paper)
    shift = options.back_offset if options.duplex != "off" else (0.0, 0.0)
    for block in blocks:
        _place_all(doc, block.job, _backs(block), shift)
    if options.duplex == "off":  # cut on this page: marks and outlines only for the pieces it holds
        for block in filter(_backs, blocks):
            _guides(doc, block, block.plan.back_marks)
    x, y, room = plan.label_at
    doc.label(label, (plan.paper.width - x, y, room))
    doc.end_page()


def _place_all(
    doc: Document, job: ComponentJob, placements: Sequence[tuple[str, Slot]], shift: tuple[float, float] = (0.0, 0.0)
) -> None:
    for key, slot in placements:
        doc.place(key, job.faces.faces[key], slot, job.bleed, job.shape, shift)


def _guides(doc: Document, block: Block, marks: Sequence[Line]) -> None:
    doc.lines(marks, block.job.options.marks.weight)
    if block.job.shape in ("hex", "round"):  # pieces that are not cut with straight lines get their cut outline
        for slot in block.plan.fronts[: len(block.entries)]:
            doc.outline(slot, block.job.shape)


__all__ = ["job_plan", "plan_for", "write_print_pdf"]
