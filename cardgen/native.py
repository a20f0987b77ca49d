"""The engines' compiled modules (C extensions mypyc made at install from their sources, `hatch_build.py`) and when
they are used. Python imports a module's extension before its source, so a compiled module edited since would run
its old code: the install notes each compiled module's source digest (`engine/native.json`), and when any source
differs from its digest — or `CARDGEN_PURE_PYTHON` is set — every compiled module is read from its source instead
(they call each other directly once compiled, so all or none). Never compiled itself."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:  # a build requirement (mypy's), not cardgen's: the options do nothing at run time
        from mypy_extensions import mypyc_attr as mypyc_attr
    except ImportError:

        def mypyc_attr(*flags: str, **options: object) -> Any:
            """mypyc's options for a compiled class (`mypy_extensions.mypyc_attr`), read only by the compiler."""
            return lambda cls: cls


PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "engine" / "native.json"  # {"modules": {module name: sha256 of its source}}


def source_of(name: str) -> Path:
    """A module's source file (`cardgen.engine.core` → cardgen/engine/core.py)."""
    return PACKAGE.parent.joinpath(*name.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_modules() -> dict[str, str]:
    """The modules the install compiled, with their sources' digests then (none: a pure-Python install)."""
    try:
        found = json.loads(MANIFEST.read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return found if isinstance(found, dict) else {}


def stale(modules: dict[str, str]) -> list[str]:
    """The compiled modules whose source changed since (or is gone)."""
    out = []
    for name, noted in modules.items():
        try:
            if digest(source_of(name)) != noted:
                out.append(name)
        except OSError:
            out.append(name)
    return out


class _FromSource:
    """Finds the compiled modules' sources ahead of their extensions (a meta path finder: not one of
    `importlib.abc`'s, whose import brings `importlib.resources` into every command's start-up, 20 ms)."""

    def __init__(self, names: set[str]):
        self.names = names

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:  # fmt: skip
        if name not in self.names:
            return None
        return importlib.util.spec_from_file_location(name, source_of(name))


STATE: dict[str, Any] = {"compiled": False, "why": "not looked at yet"}  # `install` sets it


def decide(modules: dict[str, str], pure: bool) -> tuple[bool, str]:
    """Whether the compiled modules may be used, and why (or why not)."""
    if not modules:
        return False, "no compiled module (a pure-Python install)"
    if pure:
        return False, "CARDGEN_PURE_PYTHON is set"
    changed = stale(modules)
    if changed:
        return False, f"{changed[0]} changed since it was compiled (pip install -e . compiles it again)"
    return True, f"{len(modules)} modules compiled with mypyc"


def install() -> None:
    """Read the compiled modules from their sources where they may not be used (`STATE` says which way, and why)."""
    modules = compiled_modules()
    compiled, why = decide(modules, bool(os.environ.get("CARDGEN_PURE_PYTHON")))
    STATE.update(compiled=compiled, why=why)
    if modules and not compiled and not any(isinstance(f, _FromSource) for f in sys.meta_path):
        sys.meta_path.insert(0, _FromSource(set(modules)))
