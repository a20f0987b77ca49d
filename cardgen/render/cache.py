"""Incremental builds: what an earlier build wrote and from what, so that a rebuild writes only what changed.

Three content hashes, from the coarsest:

- **A game's inputs** (`game_inputs`): every file of its data folder, the layouts, the fonts, cardgen's own code and
  the versions of the libraries that draw, and the options of the build. When they are what they were for the last
  build of the game and every file that build wrote still has the bytes it wrote, the game is not even loaded
  (`unchanged`): a no-op rebuild of the five bundled games hashes about 5 MB and writes nothing.
- **An output file** (`FileCache.output`): the markup of every face it prints (so the item data and the layouts as
  they apply to it), in print order with its copies, the settings of its components, the game's look (colours, fonts,
  icons, the images and fonts in its folder) and the options. A file whose key and bytes are the recorded ones is
  kept; any other is written again. Changing one card redraws the file(s) that card is printed in.
- **A face** (`GameCache.face`): a prepared face (text fitted, glyphs and images checked) by its markup and the
  game's look, kept in memory for the rest of the build and, in a `warm` process (`cardgen watch`), for the next
  build, so that a rebuild prepares only the faces that changed.

The records live in `<out>/.cardgen-cache/<game-id>.json`. They are written after the build's own files have been
committed (`remember`), and every reuse checks the file's bytes against its record, so a record can never vouch for a
file that was not written or that was changed by hand since. The cache holds JSON only: nothing in it is executed or
unpickled. Deleting the folder, or `cardgen build --no-cache`, rebuilds everything. Formats that write folders of
files (`png`, `tts`) are always written in full.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from cardgen.files import refusal
from cardgen.paths import user_cache

if TYPE_CHECKING:
    from cardgen.data.games import Component, Game
    from cardgen.render.draw import PreparedFace
    from cardgen.render.jobs import ComponentJob, OutputFile, PrintOptions

CACHE_DIR = ".cardgen-cache"
CACHED_FORMATS = ("pdf", "shop-pdf")  # one file per component; png and tts write folders of files
FORMAT = 2  # of the records; a change makes every earlier record unknown
LISTINGS_KEPT = 64  # `cardgen list` outputs kept in the user's cache (one per data folder state)
# files in a game folder that are data (their content reaches a face through its markup), not its look
DATA_SUFFIXES = {".yaml", ".yml", ".csv", ".tsv", ".xlsx", ".py", ".md", ".txt"}
# libraries whose version can change the bytes of a file
DRAWING_LIBRARIES = ("reportlab", "rl_accel", "pillow", "numpy", "pypdfium2", "svglib", "jinja2", "pyyaml", "pydantic")

_out_dir: Path | None = None  # set while a build may use the cache (`enabled`)
_trees: dict[Path, str] | None = None  # while enabled: the digests of the folders every game reads, made once


@contextlib.contextmanager
def enabled(out_dir: Path, use: bool = True) -> Iterator[None]:
    """Builds inside the block keep files whose inputs did not change (forked build workers inherit this); with
    `use` False they write everything."""
    global _out_dir, _trees
    if not use:
        yield
        return
    outer, _out_dir, _trees = _out_dir, out_dir, {}
    _faces.new_build(keep=_warm)
    try:
        yield
    finally:
        _out_dir, _trees = outer, None


_T = TypeVar("_T")
_warm = False  # inside `warm`: a process that builds the same game again and again
_layouts: dict[Hashable, Any] = {}


@contextlib.contextmanager
def warm() -> Iterator[None]:
    """For `cardgen watch`: prepared faces and compiled layouts are kept from one build to the next."""
    global _warm
    _warm = True
    try:
        yield
    finally:
        _warm = False
        _layouts.clear()
        _faces.new_build(keep=False)


def layouts(key: Hashable, make: Callable[[], _T]) -> _T:
    """The layouts of a folder (`key` names the folder and what else the layouts are made with): made anew for each
    build, except in a `warm` process, which keeps them compiled until `forget_layouts` (a layout changed)."""
    if not _warm:
        return make()
    if key not in _layouts:
        _layouts[key] = make()
    return cast(_T, _layouts[key])


def forget_layouts() -> None:
    _layouts.clear()


def folder_of(out_dir: Path) -> Path:
    return out_dir / CACHE_DIR


# --- fingerprints ------------------------------------------------------------------------------------------------


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def tree_digest(
    root: Path, keep: Callable[[Path], bool] = lambda _: True, each: Callable[[Path, bytes], None] | None = None
) -> str:
    """Every file below `root` (its path relative to `root` and its bytes), in a fixed order; '' if there is none.
    `each` sees every file's bytes as they are read (so a caller need not read them again)."""
    if not root.is_dir():
        return ""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", CACHE_DIR))
        for name in sorted(files):
            path = Path(folder, name)
            if not keep(path):
                continue
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            if refusal(path) is not None:  # a FIFO would block, a device never end: the build names it if it is used
                digest.update(b"!")
                continue
            try:
                data = path.read_bytes()
            except OSError:  # unreadable: the build itself reports it
                digest.update(b"?")
                continue
            digest.update(hashlib.sha256(data).digest())
            if each is not None:
                each(path, data)
    return digest.hexdigest()


_code: str | None = None


def code_version() -> str:
    """cardgen's own code (every file of the package, so a source checkout counts its edits) and the versions of the
    libraries that draw: a different cardgen or reportlab makes every record unknown."""
    global _code
    if _code is None:
        package = Path(__file__).resolve().parent.parent
        versions = []
        for name in DRAWING_LIBRARIES:
            try:
                versions.append(f"{name} {metadata.version(name)}")
            except metadata.PackageNotFoundError:
                versions.append(f"{name} -")
        _code = _digest(FORMAT, tree_digest(package, lambda p: "_bundled" not in p.parts), versions)
    return _code


def game_inputs(
    game_id: str, data_dir: Path, layout_dirs: list[Path], fonts_dir: Path, settings: Mapping[str, Any]
) -> str:
    """Everything a build of one game reads, before loading it: its folder, what the addresses it takes items from
    give now (cardgen/remote.py), the layouts, the fonts, cardgen, and the build's `settings` (options, validation,
    trust)."""
    from cardgen.remote import fingerprint, names_address

    shared = [_tree(folder) for folder in layout_dirs] + [_tree(fonts_dir)]
    folder = data_dir / game_id
    addresses: list[Path] = []
    files = tree_digest(folder, each=lambda path, data: addresses.append(path) if names_address(path, data) else None)
    fetched = fingerprint(folder, scanned=True) if addresses else ""  # most games name none: nothing parsed
    return _digest(code_version(), files, fetched, shared, dict(settings))


def listing(data_dir: Path, parts: Sequence[object], make: Callable[[], str]) -> str:
    """What `cardgen list` prints for a data folder: kept in the user's cache, keyed by every byte of the folder,
    cardgen's code and `parts` (the games asked for, the format, the limits), so a second listing of unchanged data
    skips loading and validating it (the same bytes give the same listing). Errors are never kept; a cache that
    cannot be read or written is passed over."""
    path = _listing_path(data_dir, parts)
    if path is None:  # no home folder to be found: nothing is kept
        return make()
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        pass
    text = make()
    _write_listing(path, text)
    return text


def keep_listing(data_dir: Path, parts: Sequence[object], text: str) -> None:
    """Keep a listing another command made from the games it loaded (`listing` reads it back)."""
    path = _listing_path(data_dir, parts)
    if path is not None and not path.is_file():
        _write_listing(path, text)


def _listing_path(data_dir: Path, parts: Sequence[object]) -> Path | None:
    from cardgen.remote import fingerprint, names_address

    games: set[str] = set()  # those with a file that may name an address: what it gives now is part of the key
    tree = tree_digest(data_dir, each=lambda path, data: games.add(path.relative_to(data_dir).parts[0])
                       if names_address(path, data) else None)  # fmt: skip
    fetched = [fingerprint(data_dir / game, scanned=True) for game in sorted(games)]
    key = _digest(code_version(), tree, str(data_dir.resolve()), list(parts), fetched)
    try:
        return user_cache() / f"list-{key[:40]}.txt"
    except (RuntimeError, KeyError):
        return None


def _write_listing(path: Path, text: str) -> None:
    try:
        from cardgen.output import write_atomic

        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text.encode("utf-8"))
        kept = sorted(path.parent.glob("list-*.txt"), key=lambda p: (p.stat().st_mtime, p.name))
        for old in kept[:-LISTINGS_KEPT]:  # the oldest go
            old.unlink(missing_ok=True)
    except OSError:
        pass


def _tree(folder: Path) -> str:
    if _trees is None:
        return tree_digest(folder)
    if folder not in _trees:
        _trees[folder] = tree_digest(folder)
    return _trees[folder]


def file_sha(path: Path) -> str | None:
    """The hash of a file the output folder holds, or None when it is missing or not a regular file (so not ours)."""
    if refusal(path) is not None:
        return None
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


# --- the records -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kept:
    """A file of an earlier build that is still current, as the build's report lists it (the fields of
    `OutputFile` that the file list and the print guide read)."""

    path: Path
    pages: int
    component: str = ""
    sides: str = "single"
    ink: tuple[float, ...] = ()
    holds: tuple[str, ...] = ()
    key: str = ""
    reused: bool = True
    sheets: int = 0  # of paper, as the print guide counts them (`OutputFile.sheets_of_paper`)


@dataclass(frozen=True)
class GameRecord:
    """The last build of a game as `unchanged` finds it: its files, its guides and what it printed on the way."""

    files: list[Kept]
    guides: list[Path]
    notes: list[str]  # the report's notes (`note: …`)
    warnings: list[str]  # what validation said (`cardgen: note: … check(s) skipped`)


def _records_path(out_dir: Path, game_id: str) -> Path:
    return folder_of(out_dir) / f"{game_id}.json"


def _read(out_dir: Path, game_id: str) -> dict[str, Any]:
    """The records of a game, or empty ones when there are none or they cannot be read (then everything is built)."""
    path = _records_path(out_dir, game_id)
    if refusal(path) is not None:  # a FIFO there would block the build: as good as no records
        return {}
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(records, dict) or records.get("format") != FORMAT:
        return {}
    return records


def _files(records: dict[str, Any]) -> dict[str, Any]:
    """The records of single files, by path relative to the output folder."""
    files = records.get("files")
    return files if isinstance(files, dict) else {}


def recorded_files(out_dir: Path, game_id: str) -> dict[str, tuple[str, str]]:
    """The files the records say a build of the game wrote: by path relative to `out_dir`, their component and
    SHA-256 (render/stale.py reads them when it has no record of its own)."""
    found = {}
    for rel, entry in _files(_read(out_dir, game_id)).items():
        if isinstance(entry, dict) and isinstance(entry.get("component"), str) and isinstance(entry.get("sha256"), str):
            found[rel] = (entry["component"], entry["sha256"])
    return found


def _relative(out_dir: Path, path: Path) -> str:
    return path.resolve().relative_to(out_dir.resolve()).as_posix()


def _kept(out_dir: Path, rel: str, entry: Mapping[str, Any]) -> Kept:
    return Kept(
        out_dir / rel,
        int(entry["pages"]),
        str(entry["component"]),
        str(entry["sides"]),
        tuple(float(v) for v in entry["ink"]),
        tuple(str(v) for v in entry["holds"]),
        str(entry["key"]),
        sheets=int(entry["sheets"]),
    )


def unchanged(out_dir: Path, game_id: str, inputs: str) -> GameRecord | None:
    """The last build of the game, if it was built from exactly `inputs` and every file it wrote is intact."""
    records = _read(out_dir, game_id)
    game = records.get("game")
    if not isinstance(game, dict) or game.get("inputs") != inputs:
        return None
    try:
        shas: dict[str, str] = game["shas"]
        if any(file_sha(out_dir / rel) != sha for rel, sha in shas.items()):
            return None
        files = [_kept(out_dir, rel, records["files"][rel]) for rel in game["files"]]
        return GameRecord(files, [out_dir / rel for rel in game["guides"]], list(game["notes"]), list(game["warnings"]))
    except (KeyError, TypeError, ValueError, AttributeError):  # records of another shape: build
        return None


def remember(
    out_dir: Path,
    game_id: str,
    files: Sequence[OutputFile],
    guides: list[Path],
    inputs: str | None,
    notes: Sequence[str] = (),
    warnings: Sequence[str] | None = None,
) -> None:
    """Record what a build of one game wrote, after its files were committed. `inputs` None: the build is not one
    to repeat as it was (text overflowed, only some components were built): its files are recorded, not the game."""
    from cardgen.output import write_atomic

    records = _read(out_dir, game_id)
    known = _files(records)
    for file in files:
        if file.key:
            known[_relative(out_dir, file.path)] = {
                "key": file.key,
                "sha256": file_sha(file.path),
                "pages": file.pages,
                "component": file.component,
                "sides": file.sides,
                "ink": list(file.ink),
                "holds": list(file.holds),
                "sheets": file.sheets_of_paper,
            }
    written: dict[str, Any] = {"format": FORMAT, "files": known}
    if "game" in records:  # still checked against its inputs and the files' bytes whenever it is used
        written["game"] = records["game"]
    if inputs is not None and all(f.key for f in files):
        paths = [_relative(out_dir, f.path) for f in files] + [_relative(out_dir, g) for g in guides]
        written["game"] = {
            "inputs": inputs,
            "files": paths[: len(files)],
            "guides": paths[len(files) :],
            "shas": {rel: file_sha(out_dir / rel) for rel in paths},
            "notes": list(notes),
            "warnings": list(warnings or ()),
        }
    write_atomic(_records_path(out_dir, game_id), json.dumps(written, indent=1, sort_keys=True).encode())


# --- a game's faces and files --------------------------------------------------------------------------------------


class GameCache:
    """One game in one build: its look, its prepared faces and its output files."""

    def __init__(self, game: Game, fonts_dir: Path):
        self.look = look(game, fonts_dir)

    def face(
        self, markup: str, ink: str, width: float, height: float, make: Callable[[], PreparedFace]
    ) -> PreparedFace:
        """The prepared face of this markup: kept from an earlier build of this process, or made now."""
        key = _digest(self.look, markup, ink, width, height)
        face = _faces.get(key)
        if face is None:
            face = _faces.current[key] = make()
        return face

    def files(self, out_dir: Path, options: PrintOptions) -> FileCache | None:
        """The output files of a build into `out_dir`, when its format writes one file per component."""
        return FileCache(self.look, out_dir, options) if options.format in CACHED_FORMATS else None


class FileCache:
    """A game's output files in one build: each file's key, and the recorded file kept when the key is unchanged."""

    def __init__(self, look_key: str, out_dir: Path, options: PrintOptions):
        self.look = look_key
        self.out_dir = out_dir
        self.options = asdict(options)
        self.records: dict[str, Any] | None = None  # read on first use (in the process that writes the files)

    def key(self, job: ComponentJob) -> str:
        """Everything that decides the bytes of the job's file: its own pieces and those of the components whose
        blocks share its last sheet (`job.shared`: their items print in this file too)."""
        components = [_component(component) for component in (job.component, *job.guests)]
        entries = [(e.item.id, e.item.count, e.front, e.back) for e in job.entries]
        blocks = [(_component(b.job.component), [(e.item.id, e.item.count, e.front, e.back) for e in b.entries],
                   b.job.face, b.job.bleed) for b in job.shared]  # fmt: skip
        return _digest(self.look, self.options, job.game_title, job.designer, job.version, components, entries,
                       job.face, job.bleed, blocks)  # fmt: skip

    def output(self, job: ComponentJob, target: Path, write: Callable[[ComponentJob, Path], OutputFile]) -> OutputFile:
        """The recorded file when it is current, else the file written now (with its key)."""
        from cardgen.render.jobs import OutputFile as type_of_output

        if self.records is None:
            self.records = _files(_read(self.out_dir, job.game_id))
        key = self.key(job)
        rel = _relative(self.out_dir, target)
        record = self.records.get(rel)
        if isinstance(record, dict) and record.get("key") == key and file_sha(target) == record.get("sha256"):
            with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError):
                kept = dataclasses.asdict(_kept(self.out_dir, rel, record))
                return type_of_output(**{k: v for k, v in kept.items() if k != "sheets"})
        return dataclasses.replace(write(job, target), key=key)


def for_game(game: Game, fonts_dir: Path) -> GameCache | None:
    """The cache of `game` in this build, when the build uses one (`enabled`)."""
    return GameCache(game, fonts_dir) if _out_dir is not None else None


def look(game: Game, fonts_dir: Path) -> str:
    """What decides how a game's markup is drawn: its settings (colours, fonts, icons), the files in its folder other
    than data (images, fonts), the bundled fonts, and cardgen's code."""
    settings = game.manifest.settings.model_dump(mode="json")
    assets = tree_digest(game.folder, lambda p: p.suffix.lower() not in DATA_SUFFIXES)
    return _digest(code_version(), settings, game.title, assets, _tree(fonts_dir))


def _component(component: Component) -> dict[str, Any]:
    from cardgen.data.model import ComponentSpec

    spec = component.spec
    settings = spec.model_dump(mode="json", include=set(ComponentSpec.model_fields)) if spec else None
    return {"ref": component.ref.model_dump(mode="json"), "spec": settings, "size": component.size}


# --- faces ----------------------------------------------------------------------------------------------------------


class _Faces:
    """Prepared faces of this build and the one before, while `cardgen watch` keeps one process between builds."""

    def __init__(self) -> None:
        self.current: dict[str, PreparedFace] = {}
        self.previous: dict[str, PreparedFace] = {}

    def new_build(self, keep: bool) -> None:
        self.previous = (self.current or self.previous) if keep else {}
        self.current = {}

    def get(self, key: str) -> PreparedFace | None:
        face = self.current.get(key) or self.previous.get(key)
        if face is not None:
            self.current[key] = face
        return face


_faces = _Faces()
