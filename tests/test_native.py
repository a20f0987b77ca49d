"""The engines' compiled modules (`hatch_build.py`, `cardgen/native.py`): the same games as their sources, and never
used once a source changed since it was compiled."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen import native

REPO = Path(__file__).resolve().parent.parent
GAME = ["-m", "cardgen", "play", "star-commander", "--players", "2..4", "--games", "3", "--seed", "7", "--json"]


def played(pure: bool) -> object:
    env = {k: v for k, v in os.environ.items() if k != "CARDGEN_PURE_PYTHON"} | (
        {"CARDGEN_PURE_PYTHON": "1"} if pure else {}
    )
    run = subprocess.run([sys.executable, *GAME], capture_output=True, text=True, env=env, check=False)
    assert run.returncode == 0, run.stderr
    return untimed(json.loads(run.stdout))


def untimed(report: object) -> object:
    """The report without its timings (`actions_per_second`)."""
    if isinstance(report, dict):
        return {k: untimed(v) for k, v in report.items() if "second" not in k}
    if isinstance(report, list):
        return [untimed(v) for v in report]
    return report


@pytest.mark.skipif(not native.STATE["compiled"], reason=f"the engines run as pure Python here: {native.STATE['why']}")
def test_the_compiled_engines_play_the_games_their_sources_play():
    """Star Commander compiled and as pure Python: the same seeded games, reported the same (timings aside)."""
    assert played(pure=False) == played(pure=True)


def test_a_module_edited_since_it_was_compiled_sends_every_compiled_module_to_its_source(tmp_path):
    """A compiled module calls the others of its group directly: one whose source changed (its digest no longer the
    one noted at install) makes all of them read from their sources, as does CARDGEN_PURE_PYTHON."""
    name = "cardgen.engine.games.star_commander.listing"
    right = native.digest(native.source_of(name))
    assert native.decide({name: right}, pure=False)[0]
    assert native.decide({name: right}, pure=True) == (False, "CARDGEN_PURE_PYTHON is set")
    compiled, why = native.decide({name: right, "cardgen.engine.games.star_commander.turn": "0" * 64}, pure=False)
    assert not compiled and why.startswith("cardgen.engine.games.star_commander.turn changed")
    assert native.decide({}, pure=False) == (False, "no compiled module (a pure-Python install)")
    spec = native._FromSource({name}).find_spec(name, None)
    assert spec is not None and spec.origin == str(native.source_of(name))
    assert native._FromSource({name}).find_spec("cardgen.engine.games.star_commander.state", None) is None


def test_cardgen_pure_python_reads_the_sources():
    code = "import cardgen.engine.games.star_commander.listing as m, cardgen.native as n; print(m.__file__, n.STATE)"
    env = os.environ | {"CARDGEN_PURE_PYTHON": "1"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert run.stdout.split()[0].endswith("listing.py"), run.stdout


def compiled_sources() -> list[Path]:
    """The sources `hatch_build.COMPILED` lists (read from the file: the module needs hatchling to import)."""
    tree = ast.parse((REPO / "hatch_build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "COMPILED" for t in node.targets):
            return [REPO / path for path in ast.literal_eval(node.value)]
    raise AssertionError("hatch_build.py has no COMPILED list")


def test_no_compiled_module_works_with_integers_past_a_machine_word():
    """CPython checks for signals inside its multi-digit integer multiply and divide, and a compiled module takes a
    failure there for a lack of memory: a SIGTERM or Ctrl-C landing in one aborted the process ('fatal: out of
    memory', no clean stop), as `engine/rng.py` compiled did in about one `play --log` of three stopped. So the
    compiled modules hold no integer constant or shift past 62 bits; the generator stays Python."""
    sources = compiled_sources()
    assert sources and all(path.is_file() for path in sources)
    wide = [f"{path.name}:{node.lineno}" for path in sources
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if _past_a_word(node)]  # fmt: skip
    assert wide == [], f"integer arithmetic past a machine word in compiled modules: {wide}"


def _past_a_word(node: ast.AST) -> bool:
    """An integer constant of 62 bits or more, or a shift by 62 or more."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.LShift):
        node = node.right
        return isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 62
    return isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) >= 1 << 62
