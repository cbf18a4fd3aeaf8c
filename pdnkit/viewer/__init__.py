"""Seeing the games: a game at a ply in the terminal (:func:`show`) and a self-contained HTML
game viewer (:func:`view`). Both draw what :mod:`pdnkit.viewer.model` computes with the rules
engine.

Example:
    >>> from pdnkit.viewer import show
    >>> show('[GameType "21"] 1. 11-15 23-19 *', ply="end").ply
    2
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "GameModel": "pdnkit.viewer.model",
    "game_model": "pdnkit.viewer.model",
    "GameShow": "pdnkit.viewer.terminal",
    "show": "pdnkit.viewer.terminal",
    "view": "pdnkit.viewer.page",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
