"""The whole package type-checks under ``mypy --strict`` (configuration in pyproject.toml),
the validator keeps ``Any`` rare, and the read side names real types at its seams."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_strict_is_clean_on_the_whole_package(tmp_path: Path) -> None:
    """Every module of ``pdnkit`` (one run, in a subprocess: mypy raises the interpreter's
    recursion limit for good, which would change what later tests see), from a fresh cache:
    a cache kept between runs once hid an error a clean clone's run found."""
    pytest.importorskip("mypy.api", reason="mypy is not installed (pip install -e .[test])")
    cache = tmp_path / "mypy-cache"
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file",
                          str(ROOT / "pyproject.toml"), "--cache-dir", str(cache),
                          str(ROOT / "pdnkit")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_validator_names_real_types() -> None:
    """``Any`` at most 15 times across the validator package."""
    files = sorted((ROOT / "pdnkit" / "validation").glob("*.py"))
    uses = sum(len(re.findall(r"\bAny\b", f.read_text(encoding="utf-8"))) for f in files)
    assert files and uses <= 15, uses


#: the read side: its rooms, the reports and plots over it, and its connection context
READ_SIDE = ["pdnkit.stats", "pdnkit.reports", "pdnkit.plots", "pdnkit.store.session",
             "pdnkit.viewer.fetch"]


def _read_side_functions() -> list[tuple[str, object]]:
    """``(qualified name, function)`` for every public function and public method of a
    public class defined in a module of the read side."""
    import importlib
    import inspect
    import pkgutil

    names = []
    for name in READ_SIDE:
        module = importlib.import_module(name)
        names.append(name)
        if hasattr(module, "__path__"):
            names += [f"{name}.{m.name}" for m in pkgutil.iter_modules(module.__path__)]
    out: list[tuple[str, object]] = []
    for name in names:
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != name:
                continue
            if inspect.isfunction(obj):
                out.append((f"{name}.{attr}", obj))
            elif inspect.isclass(obj):
                out += [(f"{name}.{attr}.{m}", f) for m, f in vars(obj).items()
                        if inspect.isfunction(f) and not m.startswith("_")]
    return out


def test_the_read_side_names_real_types_at_its_seams() -> None:
    """No ``Any`` in a public signature of the read side, and the database parameter is the
    one alias ``DbLike`` everywhere."""
    import inspect

    funcs = _read_side_functions()
    assert len(funcs) > 40, len(funcs)
    loose, db_types = [], {}
    for qual, fn in funcs:
        sig = inspect.signature(fn)  # type: ignore[arg-type]
        texts = [str(p.annotation) for p in sig.parameters.values()] + [str(sig.return_annotation)]
        if any(re.search(r"\bAny\b", t) for t in texts):
            loose.append(qual)
        for p in sig.parameters.values():
            if p.name in ("db", "con"):
                db_types[qual] = str(p.annotation)
    assert not loose, loose
    # helpers on a connection already open take it as it is (a filter's SQL reads the names
    # of the database it runs on); every reader takes a DbLike
    on_open = {q.rsplit(".", 1)[1] for q, t in db_types.items() if t != "DbLike"}
    # (a search's plan and its stream are made, a pool widened, and the seeds of a rating
    # run matched to the players, on a connection the caller keeps open)
    assert on_open == {"frame", "variants_of", "ensure_names", "is_lake", "sql", "names",
                       "search_plan", "stream_search", "widen", "seeds_by_identity"}, \
        db_types
    assert {db_types[q] for q in db_types if q.rsplit(".", 1)[1] not in on_open} == {"DbLike"}
    assert len([t for t in db_types.values() if t == "DbLike"]) > 20, db_types
