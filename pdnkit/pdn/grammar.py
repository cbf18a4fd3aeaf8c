"""Find and load ``pdn.lark`` and build the LALR parser (optionally with lark-cython).

The grammar ships inside the wheel as ``pdnkit/grammars/pdn.lark``; in an editable install it
is the repository's top-level ``grammars/pdn.lark``. :func:`grammar_path` looks in the package
first, then at the repository.

Example:
    >>> grammar_path().name
    'pdn.lark'
    >>> "NUMMOVE" in grammar_text()
    True
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from pdnkit.errors import MissingFileError

_PKG_DIR = Path(__file__).resolve().parent.parent  # pdnkit/


def grammar_path() -> Path:
    """Where ``pdn.lark`` is: inside the installed package, else in the repository.

    Example:
        >>> grammar_path().exists()
        True
    """
    for candidate in (_PKG_DIR / "grammars" / "pdn.lark", _PKG_DIR.parent / "grammars" / "pdn.lark"):
        if candidate.is_file():
            return candidate
    raise MissingFileError("pdn.lark not found in the package nor in the repository's grammars/")


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The text of the PDN grammar."""
    return grammar_path().read_text(encoding="utf-8")


def accelerator() -> str:
    """Which LALR implementation :func:`build_parser` uses: ``"lark-cython"`` when that
    package is installed (and ``PDNKIT_NO_CYTHON`` is not set), else ``"lark"``.

    Example:
        >>> accelerator() in ("lark", "lark-cython")
        True
    """
    if os.environ.get("PDNKIT_NO_CYTHON"):
        return "lark"
    try:
        import lark_cython  # noqa: F401
    except ImportError:
        return "lark"
    return "lark-cython"


def build_parser(transformer: Any, lexer_callbacks: dict[str, Any] | None = None,
                 use_cython: bool | None = None) -> Any:
    """A Lark LALR parser for the PDN grammar, applying ``transformer`` during parsing.

    ``use_cython`` None means "when available" (see :func:`accelerator`).

    Example:
        >>> from lark import Transformer
        >>> p = build_parser(Transformer())
        >>> p.parse("1. 32-28 *").children[1].type
        'RESULT'
    """
    from lark import Lark

    kwargs: dict[str, Any] = {
        "parser": "lalr",
        "lexer": "contextual",
        "transformer": transformer,
        "propagate_positions": False,
        "maybe_placeholders": False,
        "lexer_callbacks": lexer_callbacks or {},
    }
    if use_cython is None:
        use_cython = accelerator() == "lark-cython"
    if use_cython:
        try:
            import lark_cython

            kwargs["_plugins"] = lark_cython.plugins
        except ImportError:
            pass
    return Lark(grammar_text(), **kwargs)
