"""Endgame databases: every position of few pieces solved, from pdnkit's own move generator.

:func:`build` solves every position of a variant up to a number of pieces (retrograde, in the
compiled core; the pure-Python reference for small sizes without it) into files that are
written whole and checked when loaded; :class:`Egdb` probes them (:func:`probe` for FEN
strings); :func:`info` says what is built. A value is for the side to move, ``win``, ``draw``
or ``loss`` with no move-count draw rule, with the plies to the end of the game under best
play. See ``docs/endgame-databases.md``.

Example:
    >>> import tempfile
    >>> from pdnkit.egdb import build, probe
    >>> d = tempfile.mkdtemp()
    >>> build("english", 3, directory=d).positions
    {1: 120, 2: 6972, 3: 261224}
    >>> probe("english", ["W:WK1,K2:BK32"], directory=d)[0]["value"]
    'win'
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "build": "pdnkit.egdb.builder",
    "BuildReport": "pdnkit.egdb.builder",
    "Step": "pdnkit.egdb.builder",
    "Egdb": "pdnkit.egdb.prober",
    "Verdict": "pdnkit.egdb.prober",
    "probe": "pdnkit.egdb.prober",
    "info": "pdnkit.egdb.catalog",
    "EgdbError": "pdnkit.egdb.files",
    "DamagedFileError": "pdnkit.egdb.files",
    "default_dir": "pdnkit.egdb.folder",
    "Signature": "pdnkit.egdb.index",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
