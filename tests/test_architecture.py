"""The package's layering holds: no import cycle among cardgen's modules (type-only imports included), the
renderer's writers never import the orchestrator, and the data layer never imports the renderer or the engine."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "cardgen"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Each cardgen module → the cardgen modules it imports anywhere (top level, functions, TYPE_CHECKING)."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            found |= {t for t in targets if t in modules and t != name}
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]], only: str) -> list[list[str]]:
    """Import cycles among the modules whose names start with `only` (depth-first search)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if not target.startswith(only):
                continue
            if state.get(target) == 1:
                found.append([*trail[trail.index(target) :], target])
            elif target not in state:
                visit(target, [*trail, target])
        state[node] = 2

    for node in sorted(graph):
        if node.startswith(only) and node not in state:
            visit(node, [node])
    return found


def test_the_renderer_has_no_import_cycle() -> None:
    assert cycles(imports(), "cardgen.render") == []


def test_the_data_and_validate_layers_have_no_import_cycle() -> None:
    graph = imports()
    assert cycles(graph, "cardgen.data") == []
    assert cycles(graph, "cardgen.validate") == []


def test_writers_depend_on_jobs_not_on_the_orchestrator() -> None:
    graph = imports()
    for writer in ("cardgen.render.imposed", "cardgen.render.shop", "cardgen.render.sheets", "cardgen.render.pdf"):
        assert "cardgen.render.build" not in graph[writer], writer


def test_the_data_layer_knows_nothing_of_printing_or_playing() -> None:
    graph = imports()
    for name, targets in graph.items():
        if name.startswith("cardgen.data"):
            assert not {t for t in targets if t.startswith(("cardgen.render", "cardgen.engine", "cardgen.validate"))}


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The test of the tests above: a made-up graph with a cycle is caught."""
    graph = {"cardgen.render.a": {"cardgen.render.b"}, "cardgen.render.b": {"cardgen.render.a"}}
    assert cycles(graph, "cardgen.render") == [["cardgen.render.a", "cardgen.render.b", "cardgen.render.a"]]
