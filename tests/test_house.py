"""The house rules of ``pdnkit/``: every room on its floor, imports only down or along a floor
(never up, lazy imports inside functions included), no module over 800 lines, no function over
120 (nested functions count in the function that holds them).

The floors are the layout of ``docs/architecture.md`` section 0, from the ground up. A new
module of an existing package takes its package's floor; a new top-level room must be given
one here (the test says so).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pdnkit"

#: room (module or package) -> floor; a module takes the floor of its longest listed prefix
FLOORS: dict[str, int] = {
    "pdnkit.errors": 0, "pdnkit._version": 0, "pdnkit.findings": 0, "pdnkit._lazy": 0, "pdnkit._atomic": 0,
    "pdnkit._children": 0, "pdnkit._arrow": 0, "pdnkit._cells": 0,
    "pdnkit.rules": 1,
    "pdnkit.core": 2, "pdnkit.board": 2, "pdnkit.engines": 2,
    "pdnkit.pdn": 3, "pdnkit.egdb": 3, "pdnkit.verdict": 3,
    "pdnkit.validation": 4,
    "pdnkit.rows": 5, "pdnkit.samples": 5, "pdnkit.openings": 5,
    "pdnkit.store": 6,
    "pdnkit.lake": 7, "pdnkit.stats": 7, "pdnkit.analysis": 7,
    "pdnkit.viewer": 8, "pdnkit.plots": 8,
    "pdnkit.reports": 9, "pdnkit.report_files": 9, "pdnkit.demo": 9, "pdnkit.serve": 9,
    "pdnkit.cli": 10, "pdnkit.lean": 10,
    "pdnkit": 11, "pdnkit.__main__": 11, "pdnkit.launch": 11,
}

MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 120


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def floor(module: str) -> int | None:
    """The floor of ``module``: that of its longest prefix in :data:`FLOORS`."""
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        if name in FLOORS:
            return FLOORS[name]
    return None


def _imports(module: str, path: Path) -> list[tuple[str, int]]:
    """Every pdnkit module ``module`` imports (anywhere in it), with the line."""
    out = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.startswith("pdnkit")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            if not base.startswith("pdnkit"):
                continue
            for a in node.names:  # ``from pdnkit.x import y``: y may be a module of x
                sub = f"{base}.{a.name}"
                out.append((sub if sub in MODULES else base, node.lineno))
    return out


def test_every_room_has_a_floor() -> None:
    assert [m for m in MODULES if floor(m) is None] == []


def test_one_floor_per_package() -> None:
    """A package lives on one floor: the table names top-level rooms only, so no module of a
    package is given a floor of its own (``pdnkit.openings.database`` once stood on the
    store's floor while the rest of ``pdnkit.openings`` stood below it)."""
    assert [room for room in FLOORS if room.count(".") > 1] == []


def test_imports_never_run_up_a_floor() -> None:
    upward = []
    for module, path in MODULES.items():
        mine = floor(module)
        for target, line in _imports(module, path):
            theirs = floor(target)
            if mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{module}:{line} imports {target} (floor {mine} -> {theirs})")
    assert upward == []


def room(module: str) -> str | None:
    """The room of ``module``: its longest prefix in :data:`FLOORS`."""
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in FLOORS:
            return ".".join(parts[:i])
    return None


def same_floor_imports() -> dict[tuple[str, str], list[str]]:
    """(room, other room of its floor) -> where the first imports the second."""
    out: dict[tuple[str, str], list[str]] = {}
    for module, path in MODULES.items():
        for target, line in _imports(module, path):
            a, b = room(module), room(target)
            if a and b and a != b and FLOORS[a] == FLOORS[b]:
                out.setdefault((a, b), []).append(f"{module}:{line} imports {target}")
    return out


def test_rooms_of_one_floor_never_import_each_other() -> None:
    """Two rooms of one floor may lean one way (the rows label openings), never both ways: a
    room that needs what the other needs from it shares something that belongs a floor
    below (the board's square bitboards, now :mod:`pdnkit.rules.squarebits`, once made the
    rows and the opening tables import each other)."""
    edges = same_floor_imports()
    assert ("pdnkit.rows", "pdnkit.openings") in edges  # the walk sees a same-floor import
    mutual = [f"{a} <-> {b}: {edges[(a, b)][0]}; {edges[(b, a)][0]}"
              for a, b in sorted(edges) if a < b and (b, a) in edges]
    assert mutual == []


def test_no_module_over_800_lines() -> None:
    big = {m: n for m, p in MODULES.items()
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert big == {}


def test_no_function_over_120_lines() -> None:
    long = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long.append(f"{module}.{node.name}: {n} lines")
    assert long == []


def test_the_checks_see_an_offence() -> None:
    """The import walk resolves relative imports and ``from package import module``, and the
    floors order what the layout says (a test that could not fail is no test)."""
    assert floor("pdnkit.rules.position") < floor("pdnkit.validation.game")
    assert floor("pdnkit.stats.explorer") > floor("pdnkit.store.db")
    tree = _imports("pdnkit.store.db", MODULES["pdnkit.store.db"])
    assert any(t.startswith("pdnkit.") for t, _ in tree)


def _lazy_api(path: Path) -> dict[str, str]:
    """A package's ``_API`` dict: each public name it hands out lazily -> the module it is
    imported from."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and target.id == "_API" and isinstance(value, ast.Dict):
            return {k.value: v.value for k, v in zip(value.keys, value.values, strict=True)
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)}
    return {}


def _lazy_names(path: Path) -> set[str]:
    """The public names a package's ``_API`` dict hands out lazily (its keys)."""
    return set(_lazy_api(path))


def test_a_face_hands_out_nothing_from_a_higher_floor() -> None:
    """A lazy name is an import too: a package's face names nothing from a floor above it
    (``pdnkit.store``, floor 6, handed out ``demo`` from floor 9)."""
    up = []
    for module, path in MODULES.items():
        if path.name != "__init__.py" or floor(module) is None:
            continue
        up += [f"{module}.{name} -> {target} (floor {floor(module)} -> {floor(target)})"
               for name, target in _lazy_api(path).items()
               if (floor(target) or 0) > (floor(module) or 0)]
    assert up == []


def shadowed_names(package: Path) -> set[str]:
    """Names of a package's face that are also the names of its submodules: once the
    submodule is imported, Python binds the package attribute to the module, and
    ``from package import name`` hands out a module instead of the function (unless the
    module is made callable, as :mod:`pdnkit.demo` is)."""
    subs = {p.stem for p in package.glob("*.py")} | {
        p.parent.name for p in package.glob("*/__init__.py")}
    callable_modules = {s for s in subs if (package / f"{s}.py").exists()
                        and "_CallableModule" in (package / f"{s}.py").read_text(encoding="utf-8")}
    return (_lazy_names(package / "__init__.py") & subs) - callable_modules


def test_no_public_name_is_shadowed_by_a_submodule(tmp_path: Path) -> None:
    """Every package's lazy face names no submodule of its own (``viewer.show`` was one)."""
    clash = {f"{p.parent.relative_to(ROOT)}: {sorted(shadowed_names(p.parent))}"
             for p in PACKAGE.rglob("__init__.py") if shadowed_names(p.parent)}
    assert clash == set()
    (tmp_path / "__init__.py").write_text('_API: dict[str, str] = {"show": "x.show"}\n')
    (tmp_path / "show.py").write_text("")
    assert shadowed_names(tmp_path) == {"show"}  # the check sees an offence


BARE_ERRORS = {"ValueError", "FileNotFoundError"}


def bare_raises(tree: ast.AST) -> list[int]:
    """Lines that raise a built-in ``ValueError`` or ``FileNotFoundError`` itself (a caller
    could not catch pdnkit's errors with :class:`pdnkit.errors.PdnkitError` alone)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id in BARE_ERRORS:
                lines.append(node.lineno)
    return lines


def test_the_library_raises_its_own_errors() -> None:
    """Every bad argument or missing file is an ``ArgumentError`` or ``MissingFileError``
    (each still the built-in class it was), never the bare built-in."""
    found = [f"{module}:{line}" for module, path in MODULES.items()
             for line in bare_raises(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []
    assert bare_raises(ast.parse("def f():\n    raise ValueError('x')\n")) == [2]
