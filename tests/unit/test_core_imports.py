"""core's imports (DESIGN §1), module by module (the import-linter contracts of test_layout.py
check packages): only downward, to the store's interfaces and not its SQLite side, and no
circle between any two modules of core. Every import counts, including those under
``if TYPE_CHECKING:`` and those inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import mqlite.core

CORE = Path(mqlite.core.__file__).parent
# What core may import from mqlite: itself, the layers below it, and the wire contract.
ALLOWED = ("mqlite.core", "mqlite.cmqc", "mqlite.message", "mqlite.protocol", "mqlite.store.tx", "mqlite.reasons")


def module_name(path: Path) -> str:
    parts = ["mqlite", *path.relative_to(CORE.parent).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The mqlite modules a file imports (``from a import b`` counts as ``a.b`` when ``a.b`` is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("mqlite"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mqlite"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def core_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in CORE.rglob("*.py")}
    return {name: {m for m in imports(path) if m in modules and m != name} for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_in_core() -> None:
    assert cycles(core_graph()) == []


def test_the_cycle_finder_finds_one() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_core_imports_only_downward() -> None:
    wrong = {
        (module_name(path), imported)
        for path in CORE.rglob("*.py")
        for imported in imports(path)
        if not imported.startswith(ALLOWED) and imported != "mqlite"
    }
    assert wrong == set()


