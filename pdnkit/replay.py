"""The validator's former home, kept so that ``from pdnkit.replay import ...`` still works:
everything lives in :mod:`pdnkit.validation` (no logic here).

Example:
    >>> from pdnkit.replay import validate
    >>> next(validate('[GameType "20"] 1. 32-28 *')).status
    'ok'
"""

from __future__ import annotations

from pdnkit.validation import GameReport, PlyRecord, internal_error, iter_sources, replay, validate

__all__ = ["GameReport", "PlyRecord", "internal_error", "iter_sources", "replay", "validate"]
