"""Small components share sheets, in two ways.

Alike: a component that fills at most half a sheet (four Command Ships, one Start Player Marker) is printed on the
last sheet of another component of the same game whose pieces are cut the same way (same shape, size, bleed and
imposition, backs or none), where that sheet has room. Each copy is one `Entry` of the host's job like the host's
own, so on a duplex sheet its back lands behind its front exactly as the host's do.

Mixed sizes: what is left over after that — every component's partial last sheet, and components smaller than a
sheet — is stacked in shelves (`stack`): each component's pieces a block (a grid of its own faces, with its own
bleed, gutter and crop marks), blocks one under another, each with the margin its marks need above and below, so a
guillotine cut between two blocks comes first and each block is then cut as a sheet of its own. Fold-and-glue
components stack on the upper half of a fold sheet (backs mirrored below the fold), others on grid sheets (backs
mirrored on the back page for the duplexer). The last sheets of components that fill more than a sheet come first,
in the game's order, each onto the first sheet with room (its full sheets then print in that sheet's file: tokens
and tiles only, never a deck) or a sheet of its own; then the smaller components, largest first, whole onto the
first sheet with room, or a sheet of their own. A sheet nobody joined prints as before.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Hashable, Sequence

from cardgen.data.games import Component
from cardgen.errors import DataError
from cardgen.render.imposition import (
    LayoutError,
    Line,
    MarkStyle,
    SheetPlan,
    Slot,
    backs_for,
    block_slots,
    crop_marks,
    fold_sheet,
    grid_count,
    grid_sheet,
    gutter_for_fold,
    hex_sheet,
    label_spot,
    mark_reserve,
    piece_gutter,
)
from cardgen.render.jobs import Block, ComponentJob, Entry, FaceSet, PrintOptions
from cardgen.units import Size

PlanOf = Callable[[ComponentJob], SheetPlan]


def _cut_alike(job: ComponentJob, plan: SheetPlan) -> Hashable:
    """What must match for two components to share a sheet: how their pieces are cut and printed."""
    face = (round(job.face.width, 3), round(job.face.height, 3))
    has_backs = any(entry.back for entry in job.entries)
    return job.shape, face, job.bleed, plan.backs_on_front_page, plan.paper, plan.capacity, has_backs


def _room(job: ComponentJob, capacity: int) -> int:
    """Empty slots on the job's last sheet."""
    filled = len(job.entries) % capacity
    return capacity - filled if filled else 0


def _faces(a: FaceSet, b: FaceSet) -> FaceSet:
    return FaceSet({**a.faces, **b.faces}, a.uses + b.uses, {**a.item_faces, **b.item_faces})


def merged(host: ComponentJob, guest: ComponentJob) -> ComponentJob:
    """The host's job with the guest's copies after its own (and the guest's faces)."""
    faces = _faces(host.faces, guest.faces)
    return dataclasses.replace(
        host, entries=[*host.entries, *guest.entries], faces=faces, guests=(*host.guests, guest.component)
    )


def pack(jobs: list[ComponentJob], plan_of: PlanOf) -> list[ComponentJob]:
    """The jobs with small components printed on others' last sheets, alike first, then of mixed sizes."""
    return pack_mixed(pack_alike(jobs, plan_of), plan_of)


def pack_alike(jobs: list[ComponentJob], plan_of: PlanOf) -> list[ComponentJob]:
    """The jobs with every small component moved onto a host's last sheet where one has room; order is kept."""
    plans = {job.component.id: plan_of(job) for job in jobs}
    kinds = {job.component.id: _cut_alike(job, plans[job.component.id]) for job in jobs}
    result = {job.component.id: job for job in jobs}
    hosts: set[str] = set()
    small = [job for job in jobs if len(job.entries) <= plans[job.component.id].capacity // 2]
    for guest in sorted(small, key=lambda job: -len(job.entries)):  # the largest first; ties keep the game's order
        gid = guest.component.id
        capacity = plans[gid].capacity
        if gid in hosts:
            continue
        candidates = [
            job
            for cid, job in result.items()
            if cid != gid and kinds[cid] == kinds[gid] and _room(job, capacity) >= len(guest.entries)
        ]
        if candidates:
            host = min(candidates, key=lambda job: _room(job, capacity))  # the fullest last sheet that takes it
            result[host.component.id] = merged(host, guest)
            hosts.add(host.component.id)
            del result[gid]
    return [result[job.component.id] for job in jobs if job.component.id in result]


@dataclasses.dataclass(frozen=True)
class Pieces:
    """What a block needs to know of its pieces: their trim size, bleed, the space between them, how many."""

    face: Size
    bleed: float
    gutter: float
    count: int


@dataclasses.dataclass(frozen=True)
class Request:
    """Pieces that want a place on a shared sheet: a component's partial last sheet, or a whole small component."""

    job: ComponentJob
    entries: tuple[Entry, ...]
    fold: bool  # imposed fold-and-glue (fronts above the fold, backs below)

    @property
    def whole(self) -> bool:
        """Whether these are all the component's pieces (it fills less than a sheet)."""
        return len(self.entries) == len(self.job.entries)

    @property
    def pieces(self) -> Pieces:
        """The block these pieces make, as `stack` plans it."""
        job = self.job
        return Pieces(job.face, job.bleed, piece_gutter(job.shape, job.bleed, job.options.gutter), len(self.entries))

    @property
    def area(self) -> float:
        """The paper the pieces take with their gutters (mm²): the larger go first."""
        p = self.pieces
        return p.count * (p.face.width + p.gutter) * (p.face.height + p.gutter)

    @property
    def backs(self) -> bool:
        """Whether the component is two-sided."""
        return any(e.back for e in self.job.entries)


@dataclasses.dataclass(frozen=True)
class _Shelf:
    """One block's grid and the height it takes."""

    cols: int
    rows: int
    height: float
    reserve: float  # the margin its crop marks need on each side


def stack(
    paper: Size, blocks: Sequence[Pieces], marks: MarkStyle, duplex: str, fold: bool = False
) -> list[SheetPlan] | None:
    """Blocks of pieces stacked top to bottom on one sheet (portrait if they fit, else landscape), the spare height
    shared out between the gaps, each block's plan (slots, backs, marks) on that sheet; None when they do not fit
    either way. `fold`: on the upper half of a fold sheet, the backs mirrored below the fold."""
    for oriented in (paper, paper.rotated()):
        plans = _stack(oriented, blocks, marks, duplex, fold)
        if plans is not None:
            return plans
    return None


def _shelf(paper: Size, pieces: Pieces, marks: MarkStyle) -> _Shelf | None:
    face = pieces.face
    reserve = mark_reserve(pieces.bleed, marks)
    cols = min(grid_count(paper.width - 2 * reserve, face.height, face, pieces.gutter)[0], pieces.count)
    if cols == 0:
        return None
    rows = math.ceil(pieces.count / cols)
    return _Shelf(cols, rows, rows * face.height + (rows - 1) * pieces.gutter, reserve)


def _stack(paper: Size, blocks: Sequence[Pieces], marks: MarkStyle, duplex: str, fold: bool) -> list[SheetPlan] | None:
    floor = paper.height / 2 + max(gutter_for_fold(b.bleed) for b in blocks) / 2 if fold else 0.0
    shelves = [_shelf(paper, b, marks) for b in blocks]
    fits = [s for s in shelves if s is not None]
    if len(fits) < len(shelves):
        return None
    # above each block its marks' margin, below it too except on a fold sheet's last block (the fold gap is there)
    need = sum(s.height + 2 * s.reserve for s in fits) - (fits[-1].reserve if fold else 0.0)
    spare = paper.height - floor - need
    if spare < -1e-9:
        return None
    gap = spare / (len(fits) if fold else len(fits) + 1)  # fold: the blocks sit on the fold, the spare above them
    tops, y = [], paper.height
    for shelf in fits:
        y -= gap + shelf.reserve
        tops.append(y)
        y -= shelf.height + shelf.reserve
    plans = []
    for n, (pieces, shelf, top) in enumerate(zip(blocks, fits, tops, strict=True)):
        face, bleed, gutter = pieces.face, pieces.bleed, pieces.gutter
        left = (paper.width - shelf.cols * face.width - (shelf.cols - 1) * gutter) / 2
        fronts = block_slots(left, top, face, shelf.cols, shelf.rows, bleed, gutter, pieces.count)[: pieces.count]
        last = n == len(fits) - 1
        # the marks of two neighbouring blocks meet halfway between them
        ceiling = paper.height if n == 0 else (top + tops[n - 1] - fits[n - 1].height) / 2
        below = floor if last else (top - shelf.height + tops[n + 1]) / 2
        plan = SheetPlan(paper, fronts, _backs(fronts, paper, duplex, fold), backs_on_front_page=fold)
        plan.marks = crop_marks(fronts, paper, bleed, marks, "tlr" if fold and last else "tblr", (below, ceiling))
        plan.back_marks = plan.marks if duplex == "off" and not fold else []
        plans.append(plan)
    _finish(plans, paper, marks, fold, max(b.bleed for b in blocks))
    return plans


def _backs(fronts: list[Slot], paper: Size, duplex: str, fold: bool) -> list[Slot]:
    if not fold:
        return backs_for(fronts, paper, duplex)
    axis = paper.height / 2
    return [Slot(s.trim.mirrored_y(axis), s.clip.mirrored_y(axis), 180) for s in fronts]


def _finish(plans: list[SheetPlan], paper: Size, marks: MarkStyle, fold: bool, bleed: float) -> None:
    """The fold line on the first block's plan and the sheet label's place on the last's (where the writer looks)."""
    if fold:
        fold_y = paper.height / 2
        plans[0].fold_marks = [Line(marks.keepout, fold_y, paper.width - marks.keepout, fold_y)]
        backs = [slot for plan in plans for slot in plan.backs]
        plans[-1].label_at = label_spot(backs, paper, bleed, marks, marks_below=False)
    else:
        plans[-1].label_at = label_spot(plans[-1].fronts, paper, bleed, marks)


def _joins(sheet: list[Request], request: Request) -> bool:
    """Whether a request may go on a sheet: imposed alike (fold or not); a two-sided piece only where every sheet of
    the owner's file has a back page (the owner is two-sided, or this is its only sheet); a larger component (its
    full sheets then print in the owner's file) only if it is not a deck and is printed just as the owner is."""
    owner = sheet[0]
    if owner.fold != request.fold:
        return False
    if not request.whole:
        return request.job.component.kind != "deck" and owner.backs == request.backs
    return not request.backs or owner.backs or owner.whole


def _fit(sheet: list[Request]) -> list[Block] | None:
    options = sheet[0].job.options
    plans = stack(options.paper_size, [r.pieces for r in sheet], options.marks, options.duplex, sheet[0].fold)
    return None if plans is None else [Block(r.job, r.entries, plan) for r, plan in zip(sheet, plans, strict=True)]


def pack_mixed(jobs: list[ComponentJob], plan_of: PlanOf) -> list[ComponentJob]:
    """The jobs with small components stacked onto shared sheets (see the module's docstring); order is kept."""
    requests = []
    for job in jobs:
        plan = plan_of(job)
        rest = len(job.entries) % plan.capacity
        if job.shape != "hex" and rest:
            requests.append(Request(job, tuple(job.entries[len(job.entries) - rest :]), plan.backs_on_front_page))
    sheets: list[list[Request]] = []
    larger = [r for r in requests if not r.whole]  # in the game's order, then the smaller ones largest first
    for request in larger + sorted((r for r in requests if r.whole), key=lambda r: -r.area):
        for sheet in sheets:
            if _joins(sheet, request) and _fit([*sheet, request]) is not None:
                sheet.append(request)
                break
        else:
            sheets.append([request])
    result = {job.component.id: job for job in jobs}
    for sheet in (s for s in sheets if len(s) > 1):
        owner = sheet[0].job
        blocks = _fit(sheet)
        assert blocks is not None
        faces = owner.faces
        for guest in sheet[1:]:
            faces = _faces(faces, guest.job.faces)
            del result[guest.job.component.id]
        guests = (*owner.guests, *(c for r in sheet[1:] for c in (r.job.component, *r.job.guests)))
        result[owner.component.id] = dataclasses.replace(owner, faces=faces, guests=guests, shared=tuple(blocks))
    return [result[job.component.id] for job in jobs if job.component.id in result]


def job_plan(job: ComponentJob) -> SheetPlan:
    """The full-sheet plan of a job (what `_impose` fills and `packing` compares), or an error naming it."""
    try:
        return plan_for(job.component, job.face, job.bleed, job.options)
    except LayoutError as exc:
        raise DataError(f"{job.game_id}: {job.component.id}: {exc}") from None


def plan_for(
    component: Component, face: Size, bleed: float, options: PrintOptions, filled: int | None = None
) -> SheetPlan:
    """The sheet plan of a component under the options (fold for double-sided counters unless told otherwise);
    `filled` plans a partial last sheet."""
    if component.shape == "hex":
        flat, pointy = min(face.width, face.height), face.height > face.width
        return hex_sheet(options.paper_size, flat, bleed, options.marks, pointy, options.duplex)
    layout = options.layout or (component.spec.layout if component.spec else None)
    if layout is None:
        layout = "fold" if component.kind == "counters" and component.has_backs else "grid"
    gutter = piece_gutter(component.shape, bleed, options.gutter)
    if layout == "fold" and component.has_backs:
        return fold_sheet(options.paper_size, face, bleed, gutter, options.marks, filled)
    return grid_sheet(options.paper_size, face, bleed, gutter, options.marks, options.duplex, filled)


def shared_sheets(jobs: list[ComponentJob]) -> list[ComponentJob]:
    """The jobs with small components packed onto the last sheets of others (sheets and boards print as they are)."""
    order = {job.component.id: n for n, job in enumerate(jobs)}
    cut = pack([job for job in jobs if job.component.kind != "sheets"], job_plan)
    return sorted(cut + [job for job in jobs if job.component.kind == "sheets"], key=lambda j: order[j.component.id])
