"""Engine analysis of stored games: every position of every main line evaluated once per
engine and settings (the ``evals`` table), the moves judged into ``blunder``, ``mistake`` and
``missed-shot`` findings, and per-player figures from them.

The rooms (names are imported lazily from them):

* :mod:`~pdnkit.analysis.run` -- :func:`analyse` (``pdnkit analyse``);
* :mod:`~pdnkit.analysis.thresholds` -- :class:`Thresholds`, :data:`THRESHOLDS`, :func:`mistakes`;
* :mod:`~pdnkit.analysis.figures` -- :func:`accuracy` (``pdnkit stats accuracy``),
  :func:`game_evals` (one game's scores, for the viewer);
* :mod:`~pdnkit.store.evals` -- :class:`AnalysisKey`, :func:`engine_keys`;
* :mod:`~pdnkit.analysis.plan`, :mod:`~pdnkit.analysis.pool`, :mod:`~pdnkit.analysis.rows`
  -- the pending positions and the rows written, the engine threads, one row.

Example:
    >>> from pdnkit.analysis import engine_keys
    >>> from pdnkit.store import connect
    >>> len(engine_keys(connect(":memory:")))
    0
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "analyse": "pdnkit.analysis.run",
    "AnalysisSummary": "pdnkit.analysis.run",
    "Thresholds": "pdnkit.analysis.thresholds",
    "THRESHOLDS": "pdnkit.analysis.thresholds",
    "MISTAKE_CODES": "pdnkit.analysis.thresholds",
    "mistakes": "pdnkit.analysis.thresholds",
    "accuracy": "pdnkit.analysis.figures",
    "game_evals": "pdnkit.analysis.figures",
    "AnalysisKey": "pdnkit.store.evals",
    "engine_keys": "pdnkit.store.evals",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
