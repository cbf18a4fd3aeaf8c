"""Lazy public names for packages: import a submodule only when one of its names is used."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, api: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Module-level ``__getattr__`` and ``__dir__`` for ``package`` that import ``api[name]``
    on first use and keep the value in ``namespace`` (the package's ``globals()``).

    Example:
        >>> ns: dict = {}
        >>> getattr_, dir_ = lazy_exports("demo", {"sqrt": "math"}, ns)
        >>> getattr_("sqrt")(9.0), "sqrt" in ns, dir_()
        (3.0, True, ['sqrt'])
    """

    def __getattr__(name: str) -> Any:
        if name in api:
            value = getattr(importlib.import_module(api[name]), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace.get("__all__", ())) | set(api))

    return __getattr__, __dir__
