"""Small components share sheets: a component that fills at most half a sheet (four Command Ships, one Start Player
Marker) is printed on the last sheet of another component of the same game whose pieces are cut the same way (same
shape, size, bleed and imposition, backs or none), where that sheet has room, instead of on a sheet of its own.

Each packed component keeps its faces and backs: a copy is one `Entry` of the host's job like the host's own, so on a
duplex sheet its back lands behind its front exactly as the host's do. A component that fills more than half a sheet,
or finds no host with room, keeps its own file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable

from cardgen.render.imposition import SheetPlan
from cardgen.render.jobs import ComponentJob, FaceSet

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


def merged(host: ComponentJob, guest: ComponentJob) -> ComponentJob:
    """The host's job with the guest's copies after its own (and the guest's faces)."""
    a, b = host.faces, guest.faces
    faces = FaceSet({**a.faces, **b.faces}, a.uses + b.uses, {**a.item_faces, **b.item_faces})
    return dataclasses.replace(
        host, entries=[*host.entries, *guest.entries], faces=faces, guests=(*host.guests, guest.component)
    )


def pack(jobs: list[ComponentJob], plan_of: PlanOf) -> list[ComponentJob]:
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
