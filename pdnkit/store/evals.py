"""The ``evals`` table's side of the store: which analysis a row belongs to (the engine's
name and version and the settings it ran with: :class:`AnalysisKey`), the analyses a database
holds (:func:`engine_keys`), the one a reader means (:func:`choose_key`), and what
``export --annotate`` writes into a game (:func:`eval_marks`). The analysis itself
(:mod:`pdnkit.analysis`) sits a floor up and fills the table.

Example:
    >>> from pdnkit.store import connect
    >>> engine_keys(connect(":memory:")).empty
    True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

    from pdnkit.engines.base import EngineInfo

__all__ = ["NAGS", "AnalysisKey", "choose_key", "engine_keys", "eval_marks"]


@dataclass(frozen=True)
class AnalysisKey:
    """``engine``, ``version`` and ``settings`` (compact JSON) as the ``evals`` table keeps
    them, and the ``scale`` of the scores.

    Example:
        >>> k = AnalysisKey("builtin", "1", '{"depth":6}', "material")
        >>> k.label, k.sql()
        ('builtin 1 depth 6', ('e.engine = ? AND e.engine_version = ? AND e.settings = ?', ['builtin', '1', '{"depth":6}']))
    """

    engine: str
    version: str
    settings: str
    scale: str

    @classmethod
    def of(cls, info: EngineInfo, scale: str) -> AnalysisKey:
        """The key of an engine's analysis."""
        return cls(info.name, info.version, info.settings_key, scale)

    @property
    def label(self) -> str:
        """``name version`` and the settings in words: ``dame 0.2.0 depth 6``."""
        try:
            settings: dict[str, Any] = json.loads(self.settings)
        except ValueError:
            settings = {}
        words = [f"{k} {v}" for k, v in settings.items() if k != "params"]
        words += [f"{k}={v}" for k, v in (settings.get("params") or {}).items()]
        return " ".join([self.engine, self.version, *words]).replace("  ", " ").strip()

    def sql(self, alias: str = "e") -> tuple[str, list[str]]:
        """The condition on ``evals`` (alias ``alias``) that selects this analysis's rows."""
        a = alias
        return (f"{a}.engine = ? AND {a}.engine_version = ? AND {a}.settings = ?",
                [self.engine, self.version, self.settings])


#: the analyses a database holds, the largest first
_KEYS = """
    SELECT engine, engine_version, settings, any_value(scale) AS scale,
           count(DISTINCT game_id)::BIGINT AS games, count(*)::BIGINT AS positions
    FROM evals GROUP BY ALL ORDER BY positions DESC, engine, engine_version, settings
"""


def engine_keys(db: DbLike = None) -> pd.DataFrame:
    """The analyses a database holds, the largest first: ``engine``, ``engine_version``,
    ``settings``, ``scale``, ``games``, ``positions``, ``label``.

    Example:
        >>> from pdnkit.store import connect
        >>> list(engine_keys(connect(":memory:")).columns)[:3]
        ['engine', 'engine_version', 'settings']
    """
    with reading(db) as con:
        df = con.execute(_KEYS).df()
    df["label"] = [AnalysisKey(e, v, s, c).label for e, v, s, c in
                   zip(df["engine"], df["engine_version"], df["settings"], df["scale"],
                       strict=True)]
    return df


def choose_key(con: duckdb.DuckDBPyConnection, engine: str | None = None
               ) -> AnalysisKey | None:
    """The analysis ``engine`` names among those the database holds (its name, ``name
    version``, or the start of a :attr:`AnalysisKey.label`, case-insensitive), or without
    ``engine`` the one with the most positions; None when the database holds none. An
    ``engine`` that names none, or several, raises ``ArgumentError`` listing them.

    Example:
        >>> from pdnkit.store import connect
        >>> choose_key(connect(":memory:")) is None
        True
    """
    # (read as rows, not as engine_keys' DataFrame: `pdnkit show --db` starts without pandas)
    found = [AnalysisKey(e, v, s, c) for e, v, s, c, *_ in con.execute(_KEYS).fetchall()]
    if not found:
        if engine:
            raise ArgumentError("the database holds no analysis (no evals rows); run "
                                "pdnkit analyse first")
        return None
    if not engine:
        return found[0]
    want = " ".join(engine.lower().split())
    hits = [k for k in found if k.label.lower() == want]
    for test in (lambda k: want in (k.engine.lower(), f"{k.engine} {k.version}".lower()),
                 lambda k: k.label.lower().startswith(want)):
        hits = hits or [k for k in found if test(k)]
    if len(hits) == 1:
        return hits[0]
    labels = ", ".join(repr(k.label) for k in (hits or found))
    what = "several analyses" if hits else "no analysis"
    raise ArgumentError(f"--engine {engine!r} names {what} of the database; it holds: {labels}")


#: the NAG ``export --annotate`` gives each finding code of a move (``$4`` is ``??``, ``$2``
#: ``?``), worst first
NAGS = {"blunder": 4, "missed-shot": 2, "mistake": 2}


def eval_marks(con: duckdb.DuckDBPyConnection, key: AnalysisKey, game_ids: list[int]
                ) -> dict[int, dict[int, tuple[float | None, int | None, int | None]]]:
    """``game_id -> {ply: (score, depth, nag)}`` for the games ``game_ids``: the score and
    depth of the position after each ply that ``key`` evaluated, and the NAG of the worst
    mistake finding of that ply's move (:data:`NAGS`), stored by the analysis.

    Example:
        >>> from pdnkit.store import connect
        >>> eval_marks(connect(":memory:"), AnalysisKey("b", "1", "{}", "material"), [1])
        {}
    """
    if not game_ids:
        return {}
    ids = ", ".join(str(int(g)) for g in game_ids)
    cond, params = key.sql("e")
    out: dict[int, dict[int, tuple[float | None, int | None, int | None]]] = {}
    for gid, ply, score, depth in con.execute(
            f"SELECT e.game_id, e.ply, e.score, e.depth FROM evals e "
            f"WHERE e.game_id IN ({ids}) AND {cond}", params).fetchall():
        out.setdefault(int(gid), {})[int(ply)] = (score, depth, None)
    marks = ", ".join("?" for _ in NAGS)
    for gid, ply, code in con.execute(
            f"SELECT f.game_id, f.ply, f.code FROM findings f WHERE f.game_id IN ({ids}) "
            f"AND f.code IN ({marks}) AND json_extract_string(f.details, '$.engine') = ? "
            "AND json_extract_string(f.details, '$.engine_version') = ? "
            "AND json_extract_string(f.details, '$.settings') = ? AND f.ply IS NOT NULL",
            [*NAGS, *params]).fetchall():
        plies = out.setdefault(int(gid), {})
        score, depth, nag = plies.get(int(ply), (None, None, None))
        plies[int(ply)] = (score, depth, max(nag or 0, NAGS[code]))
    return out
