"""What ``--engine`` names, made into an engine: ``builtin`` is the built-in tactical check,
anything else the command line of a Hub engine.

Example:
    >>> open_engine("builtin").info.label
    'builtin 1'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:
    from pdnkit.engines.base import Engine

__all__ = ["BUILTIN", "open_engine"]

#: the ``--engine`` value of the built-in tactical check
BUILTIN = "builtin"


def open_engine(spec: str, *, depth: int | None = None, movetime: float | None = None,
                params: Mapping[str, str] | None = None, timeout: float | None = None,
                variant: str = "international") -> Engine:
    """The engine ``spec`` names, started: :data:`BUILTIN`, or a Hub engine's command line
    (run with ``depth`` or ``movetime``, ``params`` set, ``timeout`` seconds a position,
    started for ``variant`` where it plays several). Raises
    :class:`~pdnkit.engines.base.EngineError` when a Hub engine cannot be started.

    Example:
        >>> try:
        ...     open_engine("builtin", movetime=1.0)
        ... except ValueError as exc:
        ...     print(exc)
        the built-in search takes a depth (--depth), not a move time
    """
    text = spec.strip()
    if not text:
        raise ArgumentError("give an engine: builtin, or the command line of a Hub engine")
    if text.lower() == BUILTIN:
        if movetime is not None:
            raise ArgumentError("the built-in search takes a depth (--depth), not a move time")
        if params:
            raise ArgumentError("the built-in search has no parameters to set")
        from pdnkit.engines.builtin import BuiltinEngine

        return BuiltinEngine(depth)
    from pdnkit.engines.hub import HubEngine

    return HubEngine(text, depth=depth, movetime=movetime, params=params, timeout=timeout,
                     variant=variant)
