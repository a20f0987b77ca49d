"""The package's layering holds: no import cycle among cardgen's modules (type-only imports included; in the engine,
imports under TYPE_CHECKING excepted), the renderer's writers never import the orchestrator, the data layer never
imports the renderer or the engine, and the generic layer names no game: it reads the games from their plugins."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from cardgen.engine.plugin import plugins

PACKAGE = Path(__file__).parent.parent / "cardgen"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def type_checking(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`)."""
    test = node.test if isinstance(node, ast.If) else None
    return (
        isinstance(test, ast.Name | ast.Attribute) and getattr(test, "id", getattr(test, "attr", "")) == "TYPE_CHECKING"
    )


def run_time(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node but those only a type checker reads (the body of `if TYPE_CHECKING:`)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.orelse if type_checking(node) else ast.iter_child_nodes(node))  # type: ignore[attr-defined]


@functools.cache
def parsed() -> dict[str, ast.Module]:
    """Every cardgen module's syntax tree, parsed once for all the tests here (none changes a tree)."""
    return {module_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in PACKAGE.rglob("*.py")}


@functools.cache
def imports(type_only: bool = True) -> dict[str, set[str]]:
    """Each cardgen module → the cardgen modules it imports anywhere (top level, functions, and TYPE_CHECKING unless
    `type_only` is off); worked out once for all the tests here (none changes it)."""
    modules = parsed()
    graph: dict[str, set[str]] = {}
    for name, tree in modules.items():
        found = set()
        for node in ast.walk(tree) if type_only else run_time(tree):
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


def test_the_engine_has_no_import_cycle_but_for_type_checking() -> None:
    """A game's state may name its engine's class in a type hint (and the engine its state's), never import it."""
    assert cycles(imports(type_only=False), "cardgen.engine") == []


# the generic layer: what every game goes through, reading the games from their plugins (cardgen/engine/plugin.py)
GENERIC = ("cli.py", "formulas.py", "engine/registry.py", "engine/core.py", "engine/runner.py", "engine/agents.py",
           "engine/plugin.py", "engine/effects.py")  # fmt: skip
NICKNAMES = ("se4x", "rift", "scifi", "starcom")  # what the code has called the bundled games for short


def game_names() -> set[str]:
    """Every way a bundled game is named: its id, its package, its title, its nicknames."""
    names = set(NICKNAMES)
    for package in (PACKAGE / "engine" / "games").iterdir():
        if (package / "__init__.py").exists():
            names.add(package.name)
    for plugin in plugins().values():
        names |= {plugin.id, plugin.title}
    return names


def named_games(text: str) -> list[str]:
    return sorted({name for name in game_names() if re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE)})


def test_the_generic_layer_names_no_game() -> None:
    graph = imports()
    for path in GENERIC:
        assert named_games((PACKAGE / path).read_text(encoding="utf-8")) == [], path
        module = module_name(PACKAGE / path)
        assert not {t for t in graph[module] if t.startswith("cardgen.engine.games.")}, module


def test_a_game_named_or_a_cycle_is_caught() -> None:
    """The test of the two tests above: a game's id, package or title in a text, and a run-time cycle."""
    assert named_games('if game == "space-empires-4x":') == ["space-empires-4x"]
    assert named_games("from cardgen.engine.games.rift_domination import odds") == ["rift_domination"]
    assert named_games("(Star Commander) and 'se4x'") == ["Star Commander", "se4x"]
    assert named_games("a drift, a commander, a domain") == []
    tree = ast.parse("if TYPE_CHECKING:\n    import a\nelse:\n    import b\nimport c\ndef f():\n    import d\n")
    assert sorted(n.names[0].name for n in run_time(tree) if isinstance(n, ast.Import)) == ["b", "c", "d"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The test of the tests above: a made-up graph with a cycle is caught."""
    graph = {"cardgen.render.a": {"cardgen.render.b"}, "cardgen.render.b": {"cardgen.render.a"}}
    assert cycles(graph, "cardgen.render") == [["cardgen.render.a", "cardgen.render.b", "cardgen.render.a"]]
