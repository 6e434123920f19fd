"""The package's imports make no circle (issue 23): every import, at the top of a module, inside a
function or under TYPE_CHECKING, is an edge of one graph, and the graph has no cycle. And Qt
rendering without widgets (``rigbuilder.render``) imports none of Qt's widgets."""
from __future__ import annotations

import ast
from pathlib import Path

import rigbuilder

PKG = Path(rigbuilder.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    out = {}
    for p in PKG.rglob("*.py"):
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _imported(module: str, path: Path) -> set[str]:
    """Every name ``module`` imports (absolute, relative resolved), with what it imports from."""
    pkg = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


def import_graph() -> dict[str, set[str]]:
    """module -> the package's modules it imports (the package itself, rigbuilder/__init__, left out)."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for m, p in mods.items():
        deps = set()
        for name in _imported(m, p):
            while name and name not in mods:
                name = name.rpartition(".")[0]
            if name and name not in (m, "rigbuilder"):
                deps.add(name)
        graph[m] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_and_type_checking_imports():
    g = import_graph()
    assert "rigbuilder.catalog.userprices" in g["rigbuilder.catalog.store"]  # imported inside a method
    assert "rigbuilder.ui.document" in g["rigbuilder.ui.money_actions"]  # under TYPE_CHECKING


def test_no_import_circle_in_the_package():
    assert cycles(import_graph()) == []


def test_rendering_imports_no_widgets():
    for m, p in _modules().items():
        if m.startswith("rigbuilder.render"):
            assert not {n for n in _imported(m, p) if n.startswith("PySide6.QtWidgets")}, m
