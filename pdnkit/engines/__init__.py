"""Engines that evaluate positions: any Hub engine as a child process
(:class:`~pdnkit.engines.hub.HubEngine`: Scan, dame's ``dame hub`` ...) and the built-in
tactical check (:class:`~pdnkit.engines.builtin.BuiltinEngine`); :func:`open_engine` makes
either from what a user writes after ``--engine``.

The rooms: :mod:`~pdnkit.engines.base` (the records, the protocol, the errors),
:mod:`~pdnkit.engines.hubtext` (the Hub protocol's lines, positions and moves, turned into the
rules engine's), :mod:`~pdnkit.engines.hub` (the process), :mod:`~pdnkit.engines.builtin`.
Names are imported lazily.

Example:
    >>> from pdnkit.engines import open_engine
    >>> open_engine("builtin", depth=3).info.settings
    {'depth': 3}
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "SCALES": "pdnkit.engines.base",
    "Engine": "pdnkit.engines.base",
    "EngineError": "pdnkit.engines.base",
    "EngineFault": "pdnkit.engines.base",
    "EngineInfo": "pdnkit.engines.base",
    "Evaluation": "pdnkit.engines.base",
    "HUB_VARIANTS": "pdnkit.engines.hub",
    "HubEngine": "pdnkit.engines.hub",
    "BuiltinEngine": "pdnkit.engines.builtin",
    "open_engine": "pdnkit.engines.opening",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
