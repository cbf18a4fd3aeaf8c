"""Lazy public names for packages: import a submodule only when one of its names is used;
and lazy regular expressions: a module's patterns compiled on first use, not at its import
(a short command, ``pdnkit validate`` of a few clean games, meets few of them)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any, AnyStr, cast


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


class _LazyPattern:
    """A compiled regular expression made on the first use of one of its attributes; its
    methods then live on the object itself (as fast as the compiled pattern's)."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self.flags_given = flags

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(self.pattern, self.flags_given)
        for attr in ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn",
                     "split", "groupindex", "groups", "flags", "scanner"):
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self.pattern!r})"


def lazy_pattern(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, compiled when first used (its ``pattern`` is there
    at once, to build other patterns from). Use it as the compiled pattern's methods:
    ``re.sub(lazy, ...)`` or ``isinstance(lazy, re.Pattern)`` do not know it.

    Example:
        >>> WORD = lazy_pattern(r"[a-z]+")
        >>> WORD.pattern, WORD.findall("pdn kit 3")
        ('[a-z]+', ['pdn', 'kit'])
    """
    return cast("re.Pattern[AnyStr]", _LazyPattern(pattern, flags))
