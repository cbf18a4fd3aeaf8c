"""Mistakes as findings: every move judged by the scores before and after it.

For the move of ply ``k`` the analysis holds the score of the position before it (ply
``k - 1``: the engine's best play) and after it. From the mover's point of view, with both
scores held within +-:attr:`Thresholds.clamp` men (a position more than five men up is won;
a move that keeps it won loses nothing), the move's *loss* is before minus after, and the
*gain* the engine's line offered is the material at its end less the material on the board.
Then, unless the move played is the engine's own move:

* ``missed-shot``: the gain was at least :attr:`Thresholds.shot` and the loss too;
* else ``blunder``: a loss of at least :attr:`Thresholds.blunder`;
* else ``mistake``: a loss of at least :attr:`Thresholds.mistake`.

The thresholds are per scale (:data:`THRESHOLDS`): on the ``material`` scale of the built-in
search a loss is material the move drops (a man is 1.00, a king 3.00 where kings fly, 1.50
where they do not); on the ``positional`` scale of a Hub engine it is the engine's judgement in
men, with a little noise between two searches (a tenth or two). Both default to a mistake
from half a man, a blunder and a shot from a whole man.

:func:`judged_sql` is the one query of judged moves (the findings, the statistics by player
and the report read it); :func:`mistakes` gives the findings as rows and
:func:`write_mistakes` keeps them in the ``findings`` table.

Example:
    >>> Thresholds().code(loss=1.3, gain=0.0), Thresholds().code(loss=1.3, gain=2.0)
    ('blunder', 'missed-shot')
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError
from pdnkit.store.transaction import rollback

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

    from pdnkit.stats.filters import SqlParam
    from pdnkit.store.evals import AnalysisKey

__all__ = ["ANALYSIS_CODES", "FINDING_COLUMNS", "MISTAKE_CODES", "THRESHOLDS", "Thresholds",
           "judged_sql", "mistakes", "stored_findings", "write_mistakes"]

#: the finding codes of a judged move, worst first
MISTAKE_CODES = ("missed-shot", "blunder", "mistake")
#: every finding code the analysis writes
ANALYSIS_CODES = (*MISTAKE_CODES, "engine-failed")


@dataclass(frozen=True)
class Thresholds:
    """Losses (men) from which a move is a mistake or a blunder, the gain from which a
    missed win of material is a missed shot, and the score beyond which a position counts as
    decided (``clamp``)."""

    mistake: float = 0.5
    blunder: float = 1.0
    shot: float = 1.0
    clamp: float = 5.0

    def __post_init__(self) -> None:
        if not 0 < self.mistake <= self.blunder:
            raise ArgumentError(f"the mistake threshold ({self.mistake}) must be above 0 and "
                                f"at most the blunder threshold ({self.blunder})")
        if not self.shot > 0:
            raise ArgumentError(f"the shot threshold must be above 0, not {self.shot}")
        if self.blunder > self.clamp or self.shot > self.clamp:
            raise ArgumentError(
                f"the blunder and shot thresholds ({self.blunder}, {self.shot}) must be at most "
                f"{self.clamp:g} men: a side more than {self.clamp:g} men up counts as winning, "
                "so no move loses more")

    def code(self, loss: float, gain: float) -> str | None:
        """The finding code of a move that lost ``loss`` where ``gain`` was there (None:
        none)."""
        if gain >= self.shot and loss >= self.shot:
            return "missed-shot"
        if loss >= self.blunder:
            return "blunder"
        return "mistake" if loss >= self.mistake else None

    def with_values(self, mistake: float | None = None, blunder: float | None = None,
                    shot: float | None = None) -> Thresholds:
        """These thresholds with the ones given (not None) in place.

        Example:
            >>> Thresholds().with_values(blunder=2.0).blunder
            2.0
        """
        return Thresholds(self.mistake if mistake is None else mistake,
                          self.blunder if blunder is None else blunder,
                          self.shot if shot is None else shot, self.clamp)


#: the default thresholds of each scale (pdnkit.engines.base.SCALES)
THRESHOLDS = {"positional": Thresholds(), "material": Thresholds()}


def judged_sql(key: AnalysisKey, where: str = "TRUE", params: list[SqlParam] | None = None,
               thresholds: Thresholds | None = None) -> tuple[str, list[SqlParam]]:
    """The query of every judged move of the analysis ``key`` in the games ``where`` (a
    condition on ``games g``): ``game_id``, ``ply``, ``side`` (who moved: W or B),
    ``before``, ``after`` (White's view), ``loss``, ``gain`` (the mover's view, clamped),
    ``best``, ``pv``, ``depth`` (of the search before the move), ``sacrifice`` (the engine's
    line gives material first), ``played`` (canonical), ``written``, ``line``, ``code``
    (:data:`MISTAKE_CODES` or NULL), and its parameters.

    Example:
        >>> from pdnkit.store.evals import AnalysisKey
        >>> sql, params = judged_sql(AnalysisKey("builtin", "1", "{}", "material"))
        >>> params[:3]
        ['builtin', '1', '{}']
    """
    t = thresholds or THRESHOLDS.get(key.scale, Thresholds())
    cond, kparams = key.sql("e")
    sql = f"""
        WITH e AS (
            SELECT e.game_id, e.ply, e.score, e.best, e.pv, e.depth, e.material, e.pv_material
            FROM evals e
            WHERE {cond} AND e.game_id IN (SELECT g.game_id FROM games g WHERE {where})
        ),
        j AS (
            SELECT b.game_id, b.ply, CASE WHEN pb.black THEN 'B' ELSE 'W' END AS side,
                   CASE WHEN pb.black THEN -1.0 ELSE 1.0 END AS s,
                   a.score AS before, b.score AS after, a.best, a.pv, a.depth,
                   a.pv_material - a.material AS gained
            FROM e a JOIN e b ON b.game_id = a.game_id AND b.ply = a.ply + 1
            JOIN position_bits pb ON pb.game_id = a.game_id AND pb.ply = a.ply
        ),
        k AS (
            SELECT j.*,
                   round(greatest(-?, least(?, s * before))
                         - greatest(-?, least(?, s * after)), 2) AS loss,
                   round(greatest(-?, least(?, s * gained)), 2) AS gain,
                   move_canonical(r.canonical, r.notation, r.origin, r.destination, r.captured)
                       AS played,
                   move_notation(r.notation, r.origin, r.destination, r.captured) AS written,
                   r.line,
                   regexp_matches(coalesce(split_part(j.pv, ' ', 2), ''), '[x:]')
                       AND NOT regexp_matches(coalesce(split_part(j.pv, ' ', 1), ''), '[x:]')
                       AS sacrifice
            FROM j JOIN move_rows r ON r.game_id = j.game_id AND r.ply = j.ply
        )
        SELECT game_id, ply, side, before, after, loss, gain, best, pv, depth, sacrifice,
               played, written, line,
               CASE WHEN played IS NOT DISTINCT FROM best THEN NULL
                    WHEN gain >= ? AND loss >= ? THEN 'missed-shot'
                    WHEN loss >= ? THEN 'blunder'
                    WHEN loss >= ? THEN 'mistake' END AS code
        FROM k
    """
    c = t.clamp
    return sql, [*kparams, *(params or []), c, c, c, c, c, c, t.shot, t.shot, t.blunder,
                 t.mistake]


_SEVERITY = {"missed-shot": "warning", "blunder": "warning", "mistake": "info"}
_SIDE = {"W": "White", "B": "Black"}


def _message(r: Any, key: AnalysisKey) -> str:
    side = _SIDE.get(r.side, r.side)
    line = r.pv or r.best
    what = ("material, not positional judgement: " if key.scale == "material" else "")
    scores = f"{what}{r.before + 0.0:+.2f} -> {r.after + 0.0:+.2f} for White, {key.label}"
    if r.code == "missed-shot":
        kind = "a shot" if r.sacrifice else "a win of material"
        return (f"{side}'s {r.written} misses {kind} worth {r.gain:.2f} men ({scores}); the "
                f"engine's line: {line}")
    verb = "drops" if key.scale == "material" else "loses"
    unit = "men of material" if key.scale == "material" else "men"
    return (f"{side}'s {r.written} {verb} {r.loss:.2f} {unit} ({scores}); the engine's line: "
            f"{line}")


def mistakes(con: duckdb.DuckDBPyConnection, key: AnalysisKey, where: str = "TRUE",
             params: list[SqlParam] | None = None,
             thresholds: Thresholds | None = None) -> pd.DataFrame:
    """The mistake findings of the analysis ``key`` in the games ``where`` as rows of the
    ``findings`` table (``game_id``, ``file_id``, ``game_index``, ``code``, ``severity``,
    ``message``, ``line``, ``col``, ``ply``, ``move``, ``fen``, ``in_variation``,
    ``details``), in game and ply order.

    Example:
        >>> from pdnkit.store import connect
        >>> from pdnkit.store.evals import AnalysisKey
        >>> mistakes(connect(":memory:"), AnalysisKey("builtin", "1", "{}", "material")).empty
        True
    """
    t = thresholds or THRESHOLDS.get(key.scale, Thresholds())
    sql, ps = judged_sql(key, where, params, t)
    df = con.execute(f"""
        WITH m AS ({sql})
        SELECT m.*, g.file_id, g.game_index, p.fen
        FROM m JOIN games g ON g.game_id = m.game_id
        JOIN positions p ON p.game_id = m.game_id AND p.ply = m.ply - 1
        WHERE m.code IS NOT NULL ORDER BY m.game_id, m.ply
    """, ps).df()
    import pandas as pd

    rows = []
    for r in df.itertuples(index=False):
        details = {"engine": key.engine, "engine_version": key.version,
                   "settings": key.settings, "scale": key.scale, "before": r.before,
                   "after": r.after, "loss": r.loss, "gain": r.gain, "best": r.best,
                   "pv": r.pv, "depth": None if pd.isna(r.depth) else int(r.depth),
                   "thresholds": asdict(t)}
        rows.append({"game_id": int(r.game_id), "file_id": int(r.file_id),
                     "game_index": int(r.game_index), "code": r.code,
                     "severity": _SEVERITY[r.code], "message": _message(r, key),
                     "line": None if pd.isna(r.line) else int(r.line), "col": None,
                     "ply": int(r.ply), "move": r.written, "fen": r.fen,
                     "in_variation": False,
                     "details": json.dumps(details, sort_keys=True, ensure_ascii=False)})
    return pd.DataFrame(rows, columns=FINDING_COLUMNS)


#: the columns of the ``findings`` table, in order
FINDING_COLUMNS = ["game_id", "file_id", "game_index", "code", "severity", "message", "line",
                   "col", "ply", "move", "fen", "in_variation", "details"]


def _key_condition(key: AnalysisKey, codes: tuple[str, ...]) -> tuple[str, list[Any]]:
    marks = ", ".join("?" for _ in codes)
    return (f"f.code IN ({marks}) AND json_extract_string(f.details, '$.engine') = ? AND "
            "json_extract_string(f.details, '$.engine_version') = ? AND "
            "json_extract_string(f.details, '$.settings') = ?",
            [*codes, key.engine, key.version, key.settings])


def write_mistakes(con: duckdb.DuckDBPyConnection, key: AnalysisKey, where: str = "TRUE",
                   params: list[SqlParam] | None = None,
                   thresholds: Thresholds | None = None) -> dict[str, int]:
    """Bring the mistake findings of ``key`` in the games ``where`` up to date in the
    ``findings`` table: nothing is written when they are as :func:`mistakes` computes them
    (a second run leaves the table as it was), else they are replaced, in one transaction.
    Returns the count of each code in those games.

    Example:
        >>> from pdnkit.store import connect
        >>> from pdnkit.store.evals import AnalysisKey
        >>> write_mistakes(connect(":memory:"), AnalysisKey("builtin", "1", "{}", "material"))
        {}
    """
    want = mistakes(con, key, where, params, thresholds)
    cond, kparams = _key_condition(key, MISTAKE_CODES)
    scope = f"f.game_id IN (SELECT g.game_id FROM games g WHERE {where})"
    have = con.execute(f"SELECT {', '.join('f.' + c for c in FINDING_COLUMNS)} FROM findings f "
                       f"WHERE {cond} AND {scope} ORDER BY f.game_id, f.ply, f.code",
                       [*kparams, *(params or [])]).df()
    ordered = want.sort_values(["game_id", "ply", "code"], kind="stable").reset_index(drop=True)
    if not _same(have, ordered):
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(f"DELETE FROM findings f WHERE {cond} AND {scope}",
                        [*kparams, *(params or [])])
            if len(want):
                con.register("_pdnkit_mistakes", want)
                try:
                    con.execute("INSERT INTO findings BY NAME SELECT * FROM _pdnkit_mistakes")
                finally:
                    con.unregister("_pdnkit_mistakes")
            con.execute("COMMIT")
        except BaseException:
            rollback(con)
            raise
    return {str(k): int(v) for k, v in want["code"].value_counts().items()}


def _same(have: pd.DataFrame, want: pd.DataFrame) -> bool:
    if len(have) != len(want):
        return False
    for col in FINDING_COLUMNS:
        a = [None if _missing(v) else v for v in have[col].tolist()]
        b = [None if _missing(v) else v for v in want[col].tolist()]
        if a != b:
            return False
    return True


def _missing(v: Any) -> bool:
    """None, NaN and pandas' NA (a NULL, however the DataFrame holds it)."""
    import pandas as pd

    return v is None or bool(pd.isna(v))


def stored_findings(con: duckdb.DuckDBPyConnection, key: AnalysisKey, where: str = "TRUE",
                    params: list[SqlParam] | None = None) -> pd.DataFrame:
    """The analysis findings of ``key`` (:data:`ANALYSIS_CODES`) stored for the games
    ``where`` selects, with each game's file ``path``, in file, game and ply order.

    Example:
        >>> from pdnkit.store import connect
        >>> from pdnkit.store.evals import AnalysisKey
        >>> stored_findings(connect(":memory:"), AnalysisKey("b", "1", "{}", "material")).empty
        True
    """
    cond, kparams = _key_condition(key, ANALYSIS_CODES)
    return con.execute(f"""
        SELECT fl.path, f.* FROM findings f JOIN files fl ON fl.file_id = f.file_id
        WHERE {cond} AND f.game_id IN (SELECT g.game_id FROM games g WHERE {where})
        ORDER BY fl.path, f.game_index, f.ply NULLS FIRST, f.code
    """, [*kparams, *(params or [])]).df()
