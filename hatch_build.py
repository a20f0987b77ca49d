"""Build hook (hatchling): compile the engines' busiest modules with mypyc into C extensions beside their sources,
when this machine has a C compiler and Python's headers. Without them, or with `CARDGEN_PURE_PYTHON=1`, cardgen
stays pure Python and plays the same games, slower (issue 42: 1.3–1.9× fewer instructions a player action
compiled, Battlefield: Space the most).
The build's own requirements (mypy, which holds mypyc, and setuptools, which drives the compiler) are all it needs.
`engine/native.json` notes each compiled module's source digest: an edited source is read instead of its old
extension (`cardgen/native.py`)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# the modules compiled: the engines' hot paths (docs/DEVELOPING.md, "Compiled engines")
COMPILED = [
    "cardgen/engine/core.py",
    "cardgen/engine/dice/lattice.py",
    "cardgen/engine/flow.py",
    "cardgen/engine/loop.py",
    "cardgen/engine/games/battlefield_space/force.py",
    "cardgen/engine/games/battlefield_space/state.py",
    "cardgen/engine/games/scifi_domains/battle.py",
    "cardgen/engine/games/scifi_domains/state.py",
    "cardgen/engine/games/star_commander/cards.py",
    "cardgen/engine/games/star_commander/combat.py",
    "cardgen/engine/games/star_commander/effects.py",
    "cardgen/engine/games/star_commander/listing.py",
    "cardgen/engine/games/star_commander/state.py",
    "cardgen/engine/games/star_commander/turn.py",
    "cardgen/engine/games/rift_domination/battle.py",
    "cardgen/engine/games/rift_domination/effects.py",
    "cardgen/engine/games/rift_domination/movement.py",
    "cardgen/engine/games/rift_domination/planets.py",
    "cardgen/engine/games/rift_domination/state.py",
    "cardgen/engine/games/rift_domination/turn.py",
    "cardgen/engine/games/space_empires_4x/economy.py",
    "cardgen/engine/games/space_empires_4x/movement.py",
    "cardgen/engine/games/space_empires_4x/state.py",
]
GROUP = "cardgen.engine.native"  # their shared library: cardgen/engine/native__mypyc.*.so
MANIFEST = "cardgen/engine/native.json"

_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
group, temp, place, *paths = sys.argv[1:]
where = ["--build-lib", temp + "/lib", "--inplace"] if place == "inplace" else ["--build-lib", place]
sys.argv[1:] = ["build_ext", "--build-temp", temp + "/temp", *where]
# the type check the compiling rests on reports only the modules compiled (the build has none of cardgen's
# dependencies, so the modules they import read as untyped), from a cache of its own
options = ["--ignore-missing-imports", "--follow-imports=silent", "--cache-dir", temp + "/mypy", *paths]
setup(name="cardgen-native", packages=[], py_modules=[],
      ext_modules=mypycify(options, opt_level="3", group_name=group, target_dir=temp + "/c"))
"""


def extensions(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in (".so", ".pyd"))


def forget(root: Path) -> None:
    """Remove what an earlier editable build compiled in place (an extension is imported before its source)."""
    for path in [*extensions(root / "cardgen"), root / MANIFEST]:
        path.unlink(missing_ok=True)


def compile_engines(root: Path, temp: Path, place: Path | None) -> list[Path]:
    """Compile `COMPILED` into `place` (None: beside the sources) with the digests noted; the files made, none when
    compiling failed."""
    where = "inplace" if place is None else str(place)
    done = subprocess.run([sys.executable, "-c", _SETUP, GROUP, str(temp), where, *COMPILED], cwd=root,
                          capture_output=True, text=True, check=False)  # fmt: skip
    out = root if place is None else place
    if done.returncode != 0:
        if place is None:
            forget(root)
        last = " / ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        print(f"cardgen: the engines stay pure Python (compiling them failed: {last})", file=sys.stderr)
        return []
    modules = {path[:-3].replace("/", "."): hashlib.sha256((root / path).read_bytes()).hexdigest() for path in COMPILED}
    manifest = out / MANIFEST
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps({"modules": modules}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return [*extensions(out / "cardgen"), manifest]


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    """An editable install compiles in place (the source tree is what it imports); a wheel compiles into a folder of
    its own, the source tree untouched (a wheel may be built while another process imports from it)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if version == "editable":
            forget(root)
        if os.environ.get("CARDGEN_PURE_PYTHON"):
            return
        self._temp = tempfile.TemporaryDirectory(prefix="cardgen-mypyc-")
        temp = Path(self._temp.name)
        if version == "editable":
            compile_engines(root, temp, None)
            return
        made = compile_engines(root, temp, temp / "wheel")
        if made:
            build_data["pure_python"], build_data["infer_tag"] = False, True
            for path in made:
                build_data["force_include"][str(path)] = str(path.relative_to(temp / "wheel"))

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        temp = getattr(self, "_temp", None)
        if temp is not None:
            temp.cleanup()
