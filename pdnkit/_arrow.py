"""pyarrow without its pandas import: :func:`pyarrow_module`.

pyarrow imports pandas the first time it builds any array (its ``_PandasAPIShim`` asks
whether pandas is installed by importing it), only to learn whether an argument could be a
pandas object. That import takes about 0.3 s, a fifth of importing 2,000 games, in a
process that never uses pandas. While pandas is not imported no object can be a pandas
object, so :func:`pyarrow_module` lets that first probe find no pandas. It also watches for
pandas being imported later, by anyone: right after, pyarrow is asked for pandas again, which
makes its probe find it, so every conversion from pandas behaves as in a process where the
probe was never skipped (``tests/test_arrow_probe.py`` runs the same conversions in both).

Example:
    >>> pa = pyarrow_module()
    >>> pa.array([1, None]).null_count
    1
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import sys
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

_LOCK = threading.Lock()
_PRIMED = False


class _NotYet(importlib.abc.MetaPathFinder):
    """Refuses ``import pandas`` while pyarrow's first probe runs."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name == "pandas":
            raise ImportError("pandas is not imported yet (pdnkit._arrow)")
        return None


class _Repair(importlib.abc.Loader):
    """pandas' own loader, and then pyarrow told that pandas is there."""

    def __init__(self, real: importlib.abc.Loader) -> None:
        self.real = real

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self.real  # pandas sees its own loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.real
        self.real.exec_module(module)
        _tell_pyarrow()


class _Watch(importlib.abc.MetaPathFinder):
    """Finds pandas as the other finders do, with :class:`_Repair` around its loader."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "pandas":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)  # once
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _Repair(spec.loader)
        return spec


def _tell_pyarrow() -> None:
    """Ask pyarrow for pandas: its probe imports it (done already) and finds it."""
    lib = sys.modules.get("pyarrow.lib")
    if lib is None:
        return
    # an unusable pandas (too old): pyarrow says so where it is used
    with contextlib.suppress(Exception):
        lib._pandas_api.pd  # noqa: B018  (the property runs the probe)


def pyarrow_module() -> ModuleType:
    """The ``pyarrow`` module, its pandas probe answered without importing pandas when pandas
    is not imported yet (see the module's text); pandas imported afterwards is seen by
    pyarrow as usual.

    Example:
        >>> pyarrow_module().table({"a": [1, 2]}).num_rows
        2
    """
    global _PRIMED
    import pyarrow  # noqa: F401  (then read from sys.modules: pyarrow has no type hints)

    module = sys.modules["pyarrow"]
    if _PRIMED:
        return module
    with _LOCK:
        if not _PRIMED and "pandas" not in sys.modules:
            watch, refuse = _Watch(), _NotYet()
            sys.meta_path[:0] = [refuse, watch]  # the watch first stands behind the refusal
            try:
                module.array([])  # the first probe: finds no pandas
            finally:
                sys.meta_path.remove(refuse)
            if "pandas" in sys.modules:  # imported meanwhile (another thread's, refused)
                _tell_pyarrow()
        _PRIMED = True
    return module


__all__ = ["pyarrow_module"]
