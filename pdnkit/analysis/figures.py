"""What an analysis says of players and games: the average loss per move and the mistakes
per game of each player (:func:`accuracy`, ``pdnkit stats accuracy``), a game's scores
(:func:`game_evals`, the viewer's graph) and the games with the most mistakes
(:func:`worst_games`, the collection report).

A move's loss is :mod:`pdnkit.analysis.thresholds`'s (the mover's score before the move less after
it, held within +-5 men, never below 0 here); the engine's own move loses nothing. Games are
read through :class:`~pdnkit.stats.filters.GameFilter`, as every statistic reads them.

Example:
    >>> from pdnkit.store import connect
    >>> accuracy(connect(":memory:")).empty
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.analysis.thresholds import THRESHOLDS, Thresholds, judged_sql
from pdnkit.stats.common import frame
from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.store.evals import AnalysisKey, choose_key
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["ACCURACY_COLUMNS", "accuracy", "game_evals", "worst_games"]

#: the columns of :func:`accuracy`
ACCURACY_COLUMNS = ["player", "games", "moves", "avg_loss", "missed_shots", "blunders",
                    "mistakes", "per_game", "engine"]


def accuracy(
    con: DbLike = None,
    *,
    engine: str | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    filter: GameFilter | None = None,
    thresholds: Thresholds | None = None,
) -> pd.DataFrame:
    """Per player, over the analysed games of the analysis ``engine`` names
    (:func:`~pdnkit.store.evals.choose_key`; default: the largest): ``games``, ``moves``
    judged, ``avg_loss`` (men per move), ``missed_shots``, ``blunders``, ``mistakes``,
    ``per_game`` (the three together, per game) and the ``engine`` label; the most accurate
    first. ``player`` selects players (a substring of the name); names are identities (aliases
    merged, placeholders left out), as in :func:`pdnkit.stats.players`.

    >>> from pdnkit.store import connect
    >>> list(accuracy(connect(":memory:")).columns) == ACCURACY_COLUMNS
    True
    """
    import pandas as pd

    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    where, params = gf.without_player().sql()
    with reading(con) as c:
        key = choose_key(c, engine)
        if key is None:
            return pd.DataFrame(columns=ACCURACY_COLUMNS)
        t = thresholds or THRESHOLDS.get(key.scale, Thresholds())
        sql, ps = judged_sql(key, where, params, t)
        pwhere, pp = ("player ILIKE ?", [f"%{gf.player}%"]) if gf.player else ("TRUE", [])
        df = frame(c, f"""
            WITH j AS ({sql}),
            m AS (
                SELECT player_name(CASE WHEN j.side = 'W' THEN g.white ELSE g.black END)
                           AS player, j.game_id, j.code,
                       CASE WHEN j.played IS NOT DISTINCT FROM j.best THEN 0
                            ELSE greatest(j.loss, 0) END AS loss
                FROM j JOIN games g ON g.game_id = j.game_id
            )
            SELECT player, count(DISTINCT game_id)::BIGINT AS games, count(*)::BIGINT AS moves,
                   round(avg(loss), 3) AS avg_loss,
                   count(*) FILTER (WHERE code = 'missed-shot')::BIGINT AS missed_shots,
                   count(*) FILTER (WHERE code = 'blunder')::BIGINT AS blunders,
                   count(*) FILTER (WHERE code = 'mistake')::BIGINT AS mistakes,
                   round(count(code) / count(DISTINCT game_id), 2) AS per_game
            FROM m WHERE player IS NOT NULL AND {pwhere}
            GROUP BY player HAVING count(DISTINCT game_id) >= ?
            ORDER BY avg_loss, per_game, games DESC, player
        """, [*ps, *pp, min_games])
    df["engine"] = key.label
    return df[ACCURACY_COLUMNS]


def game_evals(con: duckdb.DuckDBPyConnection, game_id: int,
               key: AnalysisKey) -> list[tuple[int, float | None, int | None, str | None]]:
    """``(ply, score, depth, best)`` of every position of one game the analysis ``key``
    evaluated (White's point of view), in ply order.

    Example:
        >>> from pdnkit.store import connect
        >>> game_evals(connect(":memory:"), 1, AnalysisKey("builtin", "1", "{}", "material"))
        []
    """
    cond, params = key.sql("e")
    rows = con.execute(f"SELECT e.ply, e.score, e.depth, e.best FROM evals e "
                       f"WHERE e.game_id = ? AND {cond} ORDER BY e.ply",
                       [int(game_id), *params]).fetchall()
    return [(int(p), None if s is None else float(s), None if d is None else int(d), b)
            for p, s, d, b in rows]


def worst_games(con: duckdb.DuckDBPyConnection, key: AnalysisKey, gf: GameFilter,
                thresholds: Thresholds | None = None) -> pd.DataFrame:
    """The analysed games with the most missed shots, blunders and mistakes: ``game_id``,
    ``white``, ``black``, ``event``, ``moves``, ``missed_shots``, ``blunders``, ``mistakes``,
    ``avg_loss``, ``first_ply`` (of the worst finding); worst first.

    Example:
        >>> from pdnkit.store import connect
        >>> worst_games(connect(":memory:"), AnalysisKey("b", "1", "{}", "material"),
        ...             GameFilter()).empty
        True
    """
    where, params = gf.sql()
    t = thresholds or THRESHOLDS.get(key.scale, Thresholds())
    sql, ps = judged_sql(key, where, params, t)
    return frame(con, f"""
        WITH j AS ({sql})
        SELECT j.game_id, g.white, g.black, g.event, count(*)::BIGINT AS moves,
               count(*) FILTER (WHERE code = 'missed-shot')::BIGINT AS missed_shots,
               count(*) FILTER (WHERE code = 'blunder')::BIGINT AS blunders,
               count(*) FILTER (WHERE code = 'mistake')::BIGINT AS mistakes,
               round(avg(CASE WHEN j.played IS NOT DISTINCT FROM j.best THEN 0
                              ELSE greatest(j.loss, 0) END), 3) AS avg_loss,
               min(j.ply) FILTER (WHERE code IS NOT NULL) AS first_ply
        FROM j JOIN games g ON g.game_id = j.game_id
        GROUP BY ALL
        ORDER BY missed_shots + blunders DESC, mistakes DESC, avg_loss DESC, j.game_id
    """, ps)
