"""Output that is never lost and never stale: an earlier build's file that no longer matches the game is moved
aside into the game's `stale/` folder, never deleted and never left looking current.

A component whose layout fails (a typo) or whose text overflows keeps its last good file, moved to
`OUT/<game>/stale/<file>` with why ("failed: …"); a component renamed or removed from the game has its file moved
there too ("no longer in the game"). Each move is said in the build's output and in PRINT.md's "Stale files"
section. The next successful build of that component removes its stale copy.

cardgen touches only files it wrote: each game's record, `OUT/.cardgen-cache/<game>.files.json`, lists the files
the last builds wrote in the game's folder (with their component and SHA-256) and the stale copies it made. A file
not in it, or changed since (by hand), is left alone. The record is written in the build's transaction, with the
files and the moves (`output.all_or_nothing`): a failed or interrupted build leaves record, files and `stale/` as
they were — except the move of a failed component's file, which is done at once, with its note in PRINT.md and the
record, as one small transaction of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen import output
from cardgen.errors import DataError, Problem, display_path
from cardgen.render.cache import file_sha, folder_of, recorded_files

if TYPE_CHECKING:
    from cardgen.data.games import Game
    from cardgen.render.jobs import OutputFile

STALE = "stale"  # the folder, in the game's output folder, that stale files are moved to
FORMAT = 1
GUIDE = "PRINT.md"
SECTION = "## Stale files"
NO_LONGER = "no longer in the game"


@dataclass(frozen=True)
class Aside:
    """A file moved aside: its name in `stale/` (the one it had in the game's folder), its component and why."""

    name: str
    component: str
    why: str

    def line(self) -> str:
        return f"- `{STALE}/{self.name}` ({self.component}): {self.why}"


@dataclass
class Record:
    """What cardgen wrote in one game's output folder: its files by name (component, SHA-256; guides have no
    component) and the stale copies it moved aside (with their SHA-256)."""

    files: dict[str, tuple[str, str]] = field(default_factory=dict)
    stale: dict[str, tuple[Aside, str]] = field(default_factory=dict)

    def owns(self, folder: Path, name: str) -> bool:
        """Whether `name` in the game's folder is a file cardgen wrote there, as it wrote it."""
        return name in self.files and file_sha(folder / name) == self.files[name][1]

    def asides(self) -> list[Aside]:
        return [aside for aside, _ in self.stale.values()]


def _path(out_dir: Path, game_id: str) -> Path:
    return folder_of(out_dir) / f"{game_id}.files.json"


def read(out_dir: Path, game_id: str) -> Record:
    """The game's record; without one, the files the cache's records vouch for (render/cache.py: a build from
    before this record); else an empty one (nothing is known to be cardgen's: nothing is moved)."""
    try:
        data: Any = json.loads(_path(out_dir, game_id).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return _from_cache(out_dir, game_id)
    except (OSError, ValueError):
        return Record()
    try:
        if data.get("format") != FORMAT:
            return Record()
        files = {str(k): (str(v["component"]), str(v["sha256"])) for k, v in data["files"].items() if _plain(k)}
        stale = {
            str(k): (Aside(str(k), str(v["component"]), str(v["why"])), str(v["sha256"]))
            for k, v in data["stale"].items()
            if _plain(k)
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return Record()
    return Record(files, stale)


def _plain(name: object) -> bool:
    """A file's own name, nothing more: a record (it sits in an output folder that may have come with a download)
    never names a file outside the game's folder."""
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\\" not in name


def _from_cache(out_dir: Path, game_id: str) -> Record:
    kept = recorded_files(out_dir, game_id)
    prefix = f"{game_id}/"
    return Record(
        {
            rel.removeprefix(prefix): (component, sha)
            for rel, (component, sha) in kept.items()
            if rel.startswith(prefix) and _plain(rel.removeprefix(prefix))
        }
    )


def write(out_dir: Path, game_id: str, record: Record) -> None:
    data = {
        "format": FORMAT,
        "files": {name: {"component": c, "sha256": sha} for name, (c, sha) in sorted(record.files.items())},
        "stale": {
            name: {"component": aside.component, "why": aside.why, "sha256": sha}
            for name, (aside, sha) in sorted(record.stale.items())
        },
    }
    output.write_atomic(_path(out_dir, game_id), json.dumps(data, indent=1).encode())


@dataclass
class Settled:
    """What a successful build of a game did to its earlier files: moved aside (now), removed (stale copies of
    components built again, files superseded) and every stale copy left, for PRINT.md."""

    record: Record
    moved: list[Aside] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)

    @property
    def stale(self) -> list[Aside]:
        return self.record.asides()

    def lines(self, folder: Path) -> list[str]:
        """What the build says of them."""
        return [_moved_line(folder, aside) for aside in self.moved] + [
            f"cardgen: note: removed {display_path(folder / STALE / name)}: built again" for name in self.cleared
        ]


def _moved_line(folder: Path, aside: Aside) -> str:
    was, now = display_path(folder / aside.name), display_path(folder / STALE / aside.name)
    return f"cardgen: warning: moved {was} aside to {now} ({aside.component}: {aside.why})"


def settle(game: Game, out_dir: Path, files: list[OutputFile], blocked: set[str]) -> Settled:
    """After a game's files are written (staged in the build's transaction): move aside the earlier files of
    components no longer in the game or blocked by overflowing text (`blocked`), remove the earlier own files of
    components now printed in another's file and the stale copies of components printed now. `keep` records it."""
    folder = out_dir / game.id
    record = read(out_dir, game.id)
    printed = {c.id for c in game.readable or game.components if c.printed}  # all of them, with --only too
    written = {f.path.name for f in files if f.path.parent == folder and f.path.suffix}  # print PDFs
    built = {name for f in files if f.path.name in written for name in (f.component, *f.holds)}
    settled = Settled(record=record)
    for name, (component, _) in list(record.files.items()):
        if name in written or not component:
            continue
        if not record.owns(folder, name):  # gone, or changed by hand since: not ours to touch
            del record.files[name]
            continue
        if component not in printed:
            why = NO_LONGER
        elif component in blocked:
            why = "failed: its text overflows (see the errors above)"
        elif component in built:  # printed now in another component's file: superseded, not stale
            output.remove(folder / name)
            del record.files[name]
            continue
        else:  # still in the game, not printed by this build (--only, another format): left as it is
            continue
        settled.moved.append(_set_aside(record, folder, name, component, why))
    for name, (aside, sha) in list(record.stale.items()):
        if aside.component in built or aside.name in written:
            if file_sha(folder / STALE / name) == sha:
                output.remove(folder / STALE / name)
                settled.cleared.append(name)
            del record.stale[name]
    if settled.cleared:
        output.prune(folder / STALE)  # the last copy gone: no empty folder left
    for file in files:
        if file.path.name in written:
            record.files[file.path.name] = (file.component, _sha(file.path))
    return settled


def keep(out_dir: Path, game_id: str, settled: Settled, guides: list[Path]) -> list[str]:
    """Record what the build wrote (its files, as `settle` found them, and its guides) in the transaction; when it
    wrote no PRINT.md (another format) but moved or removed stale copies, the earlier PRINT.md's section says so.
    A record that cannot be written is a warning (returned): the build's files are good, but the next build will
    not know them for cardgen's and leaves them alone."""
    folder, record = out_dir / game_id, settled.record
    if (settled.moved or settled.cleared) and folder / GUIDE not in guides and record.owns(folder, GUIDE):
        text = with_section((folder / GUIDE).read_text(encoding="utf-8"), record.asides())
        output.write_atomic(folder / GUIDE, text.encode("utf-8"))
        guides = [*guides, folder / GUIDE]
    for guide in guides:
        if guide.parent == folder:
            record.files[guide.name] = ("", _sha(guide))
    try:
        write(out_dir, game_id, record)
    except DataError as exc:
        return [f"cardgen: warning: {exc.lines()[0]}; the next build will not move this build's files aside"]
    return []


def _set_aside(record: Record, folder: Path, name: str, component: str, why: str) -> Aside:
    aside = Aside(name, component, why)
    output.move(folder / name, folder / STALE / name)
    record.stale[name] = (aside, record.files.pop(name)[1])
    return aside


def _sha(path: Path) -> str:
    return file_sha(output.pending(path)) or ""


def failed(exc: DataError, folder: Path, component: str) -> DataError:
    """A component that failed to build: the files an earlier build wrote for it (where cardgen wrote them and they
    are unchanged) are moved aside at once, with a line in PRINT.md, though the build's own files are thrown away —
    they no longer match the data and layouts. The error says so."""
    out_dir, game_id = folder.parent, folder.name
    record = read(out_dir, game_id)
    names = [name for name, (owner, _) in record.files.items() if owner == component and record.owns(folder, name)]
    if not names:
        return exc
    why = f"failed: {exc.problems[0].message}" if exc.problems else "failed"
    with output.all_or_nothing(alone=True):
        asides = [_set_aside(record, folder, name, component, why) for name in names]
        if keep(out_dir, game_id, Settled(record, moved=asides), []):
            raise exc  # not recorded, so not moved: the next build could not clear the copy (an error already)
    said = [_moved_line(folder, aside).removeprefix("cardgen: warning: ") for aside in asides]
    return DataError([*exc.problems, *(Problem(None, line) for line in said)])


def section(asides: list[Aside]) -> list[str]:
    """PRINT.md's last section: the stale copies, what they were and why (none: no section)."""
    if not asides:
        return []
    lines = [SECTION, "", f"Moved aside into `{STALE}/`: not current, do not print them. The next"]
    lines += ["successful build of each component removes its copy.", ""]
    return lines + [aside.line() for aside in sorted(asides, key=lambda a: a.name)]


def with_section(text: str, asides: list[Aside]) -> str:
    """PRINT.md's text with its stale section replaced by one for `asides`."""
    body = text.split(f"\n{SECTION}\n", 1)[0].rstrip("\n")
    added = section(asides)
    return body + "\n" + ("\n" + "\n".join(added) + "\n" if added else "")
