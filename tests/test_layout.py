"""The package's import graph has no cycle: every module-level or lazy import inside
``roshambo`` (``from .x import``, ``import roshambo.x``, ``importlib.import_module``) is an
arrow, and following arrows never leads back (issue 65's layout: every arrow points down)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "roshambo"


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports, anywhere in its code."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:  # "from . import x" names a module, not a symbol
                targets.add(
                    f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                )
        elif isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            targets.add(str(node.args[0].value))
    return {t for t in targets if t in known and t != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    found: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                found.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target, path)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    return found


def test_the_package_import_graph_has_no_cycle() -> None:
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert graph["roshambo.arena.tournaments"] >= {
        "roshambo.arena.runlog",
        "roshambo.arena.matches",
    }  # it reads them
    assert [" -> ".join(cycle) for cycle in cycles(graph)] == []


def test_the_cycle_check_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]


# the layers, from the top: a module may import its own layer's modules and those below
LAYERS = ("roshambo.apps", "roshambo.arena", "roshambo.opponents", "roshambo.engine")


def layer(name: str) -> int | None:
    return next(
        (i for i, top in enumerate(LAYERS) if name == top or name.startswith(top + ".")), None
    )


def test_every_arrow_points_down_the_layers() -> None:
    """apps -> arena -> opponents -> engine: the engine imports none of the others (it is
    what RPS.py needs, standard library only), the opponents neither the arena nor the apps,
    the arena not the apps."""
    known = modules()
    assert {layer(name) for name in known} == {None, 0, 1, 2, 3}  # roshambo itself, __main__
    upward = [
        f"{name} -> {target}"
        for name, path in known.items()
        if layer(name) is not None
        for target in imports(name, path, known)
        if layer(target) is not None and layer(target) < layer(name)  # type: ignore[operator]
    ]
    assert upward == []


def test_the_engine_needs_the_standard_library_only() -> None:
    known = modules()
    stdlib = set(sys.stdlib_module_names)
    outside = sorted(
        f"{name}: {node_module}"
        for name, path in known.items()
        if layer(name) == 3
        for node_module in top_level_imports(path)
        if node_module.split(".")[0] not in stdlib | {"roshambo"}
    )
    assert outside == []


def top_level_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found
