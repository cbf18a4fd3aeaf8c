"""No import cycles in pdnkit: every ``import pdnkit...`` / ``from pdnkit... import`` (at module
level and inside functions, read with ``ast``) is an edge from the importing module to the
imported one, and the graph must have no cycle. Imports under ``if TYPE_CHECKING:`` never run
and are left out of the run-time graph; a second graph with them must have no cycle either
(a type-only circle is still two rooms that need each other to be read)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "pdnkit"


def _module_names() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for p in PKG.rglob("*.py"):
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, typing: bool = False) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (not under ``if TYPE_CHECKING:``); ``typing``:
    those under it too."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if not typing and isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def import_graph(typing: bool = False) -> dict[str, set[str]]:
    """module -> the pdnkit modules it imports (``typing``: type-only imports too)."""
    modules = _module_names()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), typing):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = name.split(".") if is_pkg else name.split(".")[:-1]
                    anchor = anchor[:len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    targets.append(sub if sub in modules else base)
            for t in targets:
                # "import pdnkit.a.b" names pdnkit.a.b; keep the longest known module prefix
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def strong(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(out)


def test_the_graph_sees_module_and_function_level_imports() -> None:
    graph = import_graph()
    # module level: the game stage imports the match stage
    assert "pdnkit.validation.match" in graph["pdnkit.validation.game"]
    # function level: a run hands over to the worker processes only when asked
    assert "pdnkit.validation.jobs" in graph["pdnkit.validation.flow"]
    # TYPE_CHECKING imports are no edges: the report never imports the rules at run time
    assert "pdnkit.rules.position" not in graph["pdnkit.validation.report"]


def test_cycles_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_in_pdnkit() -> None:
    found = cycles(import_graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_import_cycles_even_type_only() -> None:
    typed = import_graph(typing=True)
    assert "pdnkit.rules.position" in typed["pdnkit.validation.report"]  # the typing edges
    found = cycles(typed)
    assert found == [], "type-only cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_validator_core_does_not_import_its_worker_processes() -> None:
    graph = import_graph()
    above = ("pdnkit.validation.jobs", "pdnkit.validation.flow")  # flow: serial or workers
    core = [m for m in graph if m.startswith("pdnkit.validation.") and m not in above]
    assert all("pdnkit.validation.jobs" not in graph[m] for m in core)
    assert "pdnkit.validation.pipeline" in graph["pdnkit.validation.jobs"]
