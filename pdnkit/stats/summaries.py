"""Tables over the games: players, results, game lengths, findings and square counts, and
:func:`stats` (the one call behind ``pdnkit stats KIND``).

Every function takes a database (:data:`~pdnkit.store.session.DbLike`) and the common game
filters (:mod:`pdnkit.stats.filters`), and returns a :class:`pandas.DataFrame`; ``min_games``
drops rows with fewer games (where a row aggregates games).

Example:
    >>> from pdnkit.store import connect
    >>> results(connect(":memory:"), by="year").empty
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from pdnkit._cells import PlainTable
from pdnkit.errors import ArgumentError
from pdnkit.stats.common import (
    OUTCOME_SQL,
    first_mover_first,
    frame,
    plain_form,
    result_columns,
    variants_of,
)
from pdnkit.stats.filters import DateBound, GameFilter, SqlParam
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["STAT_KINDS", "findings", "lengths", "players", "results", "square_counts", "stats",
           "stats_table"]

#: the kinds ``pdnkit stats KIND`` accepts
STAT_KINDS = ("openings", "players", "results", "lengths", "findings")


def players(
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Per-player record: games, wins/draws/losses as White and as Black, score, dates
    (Black's columns first where every game read is of a variant Black begins).

    ``player`` here selects players (substring of the name), not games. Players are
    identities: aliases (``pdnkit players alias``) are merged under the player's name, and
    placeholder names (``White``, ``Black``, ``Red``, ``?``, empty ...) are left out. Columns: ``player``, ``games``, ``wins``, ``draws``,
    ``losses``, ``unknown``, ``score`` (%), ``white_games``, ``white_wins``,
    ``white_draws``, ``white_losses``, ``black_games``, ``black_wins``, ``black_draws``,
    ``black_losses``, ``first_date``, ``last_date`` (the dates of the first and the last
    game, as every table writes a date: ``2003-03-15``, ``2003-03``, ``1841``), ``first_year``,
    ``last_year``, ``opp_rating`` and ``performance``: the average rating tag of the
    opponents (``WhiteElo``, ``BlackRating`` ...) and the performance rating against them by
    the FIDE Rating Regulations' table method (:func:`pdnkit.stats.rating_systems.performance_of`; games
    against an opponent without a rating tag, or without a known result, do not count; with
    ``event`` it is the performance in that event).

    >>> from pdnkit.store import connect
    >>> players(connect(":memory:")).empty
    True
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    where, gparams = gf.without_player().sql()
    player = gf.player
    pwhere, params = "TRUE", list(gparams)
    if player and gf.match:  # the players every spelling of the name stands for
        pwhere = "s.player IN (SELECT unnest(?::VARCHAR[]))"
    elif player:
        pwhere = "s.player ILIKE ?"
        params.append(f"%{player}%")
    sql = f"""
        WITH g AS (
            SELECT g.*, {OUTCOME_SQL} AS oc FROM games g WHERE {where}
        ),
        s AS (
            SELECT player_name(white) AS player, 'W' AS colour,
                   CASE oc WHEN 'white' THEN 'win' WHEN 'black' THEN 'loss'
                           WHEN 'draw' THEN 'draw' ELSE 'unknown' END AS r,
                   date_first, date_text, year, black_rating AS opp FROM g
            UNION ALL
            SELECT player_name(black), 'B',
                   CASE oc WHEN 'black' THEN 'win' WHEN 'white' THEN 'loss'
                           WHEN 'draw' THEN 'draw' ELSE 'unknown' END,
                   date_first, date_text, year, white_rating FROM g
        )
        SELECT player, count(*)::BIGINT AS games,
               count(*) FILTER (WHERE r = 'win')::BIGINT AS wins,
               count(*) FILTER (WHERE r = 'draw')::BIGINT AS draws,
               count(*) FILTER (WHERE r = 'loss')::BIGINT AS losses,
               count(*) FILTER (WHERE r = 'unknown')::BIGINT AS unknown,
               round(100.0 * (count(*) FILTER (WHERE r = 'win')
                     + 0.5 * count(*) FILTER (WHERE r = 'draw'))
                     / nullif(count(*) FILTER (WHERE r <> 'unknown'), 0), 1) AS score,
               count(*) FILTER (WHERE colour = 'W')::BIGINT AS white_games,
               count(*) FILTER (WHERE colour = 'W' AND r = 'win')::BIGINT AS white_wins,
               count(*) FILTER (WHERE colour = 'W' AND r = 'draw')::BIGINT AS white_draws,
               count(*) FILTER (WHERE colour = 'W' AND r = 'loss')::BIGINT AS white_losses,
               count(*) FILTER (WHERE colour = 'B')::BIGINT AS black_games,
               count(*) FILTER (WHERE colour = 'B' AND r = 'win')::BIGINT AS black_wins,
               count(*) FILTER (WHERE colour = 'B' AND r = 'draw')::BIGINT AS black_draws,
               count(*) FILTER (WHERE colour = 'B' AND r = 'loss')::BIGINT AS black_losses,
               -- the dates of the first and the last game (ordered by date_first, as
               -- novelties are) as every table shows them; ties broken by the text
               arg_min(date_text, strftime(date_first, '%Y-%m-%d') || date_text)
                   AS first_date,
               arg_max(date_text, strftime(date_first, '%Y-%m-%d') || date_text)
                   AS last_date,
               min(year) AS first_year, max(year) AS last_year,
               count(*) FILTER (WHERE opp > 0 AND r <> 'unknown')::BIGINT AS rated_games,
               avg(opp) FILTER (WHERE opp > 0 AND r <> 'unknown') AS opp_rating,
               sum(CASE r WHEN 'win' THEN 1.0 WHEN 'draw' THEN 0.5 ELSE 0.0 END)
                   FILTER (WHERE opp > 0 AND r <> 'unknown') AS rated_points
        FROM s
        WHERE player IS NOT NULL AND {pwhere}
        GROUP BY player
        HAVING count(*) >= ?
        ORDER BY games DESC, score DESC NULLS LAST, player
    """
    with reading(con) as c:
        if player and gf.match:
            params.append(gf.names(c))
        df = _performances(frame(c, sql, params + [min_games]))
        return first_mover_first(df, [gf.variant] if gf.variant else
                                 variants_of(c, where, gparams))


def _performances(df: pd.DataFrame) -> pd.DataFrame:
    """:func:`players`' ``opp_rating`` rounded and its ``performance``, from the rated
    games' count and points (which are dropped)."""
    from pdnkit.stats.rating_systems import performance_of

    perf = [None if n == 0 else performance_of(float(a), int(n), float(p))
            for n, a, p in zip(df["rated_games"], df["opp_rating"], df["rated_points"],
                               strict=True)]
    if isinstance(df, PlainTable):  # the same cells without pandas (round half to even)
        df["opp_rating"] = [None if a is None else int(round(float(a)))
                            for a in df["opp_rating"]]
        df["performance"] = perf
        return cast("pd.DataFrame", df.drop(columns=["rated_games", "rated_points"]))
    df["opp_rating"] = df["opp_rating"].round().astype("Int64")
    df["performance"] = perf
    df["performance"] = df["performance"].astype("Int64")
    return df.drop(columns=["rated_games", "rated_points"])


_RESULT_GROUPS = {"variant": "g.variant", "event": "g.event", "year": "g.year"}


def results(
    con: DbLike = None,
    *,
    by: str | Sequence[str] = "variant",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Results grouped by ``variant``, ``event`` and/or ``year`` (``by="variant,year"``).

    Columns: the grouping columns, ``games``, ``white_wins``, ``draws``, ``black_wins``,
    ``unknown``, ``white_score`` (%), ``draw_rate`` (% of games with a known result),
    ``avg_plies``; ``black_wins`` first where every game read is of a variant Black begins
    (English, pool, Thai).

    >>> from pdnkit.store import connect
    >>> results(connect(":memory:"), by="year").empty
    True
    """
    keys = [k.strip() for k in (by.split(",") if isinstance(by, str) else by) if k.strip()]
    bad = [k for k in keys if k not in _RESULT_GROUPS]
    if not keys or bad:
        raise ArgumentError(f"by must name some of {sorted(_RESULT_GROUPS)}, got {by!r}")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    cols = ", ".join(f"{_RESULT_GROUPS[k]} AS {k}" for k in keys)
    grp = ", ".join(_RESULT_GROUPS[k] for k in keys)
    sql = f"""
        WITH g AS (SELECT g.*, {OUTCOME_SQL} AS oc FROM games g WHERE {{where}})
        SELECT {cols}, {result_columns()},
               round(100.0 * count(*) FILTER (WHERE oc = 'draw')
                     / nullif(count(*) FILTER (WHERE oc IN ('white', 'draw', 'black')), 0), 1)
                     AS draw_rate,
               round(avg(g.plies), 1) AS avg_plies
        FROM g
        GROUP BY {grp}
        HAVING count(*) >= ?
        ORDER BY {", ".join(f"{k} NULLS LAST" for k in keys)}
    """
    with reading(con) as c:
        where, params = gf.sql(con=c)
        df = frame(c, sql.replace("{where}", where), params + [min_games])
        return first_mover_first(df, [gf.variant] if gf.variant else
                                 df["variant"] if "variant" in keys else
                                 variants_of(c, where, params))


def lengths(
    con: DbLike = None,
    *,
    bin_width: int = 10,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Distribution of game lengths (plies in the main line) per variant.

    Rows are bins ``[plies_from, plies_to)`` of width ``bin_width``; ``games`` counts the
    games in the bin and ``share`` is their percentage within the variant. Empty bins
    between the shortest and the longest game are listed with 0 games.

    >>> from pdnkit.store import connect
    >>> lengths(connect(":memory:")).empty
    True
    """
    if bin_width < 1:
        raise ArgumentError("bin_width must be at least 1")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    sql = """
        WITH g AS (
            SELECT g.variant, (g.plies // ?) * ? AS lo
            FROM games g WHERE g.plies IS NOT NULL AND {where}
        ),
        span AS (SELECT variant, min(lo) AS a, max(lo) AS b, count(*) AS total
                 FROM g GROUP BY variant),
        bins AS (SELECT span.variant, unnest(range(span.a, span.b + 1, ?)) AS lo, total
                 FROM span)
        SELECT bins.variant, bins.lo::INTEGER AS plies_from, (bins.lo + ?)::INTEGER AS plies_to,
               count(g.lo)::BIGINT AS games,
               round(100.0 * count(g.lo) / any_value(bins.total), 1) AS share
        FROM bins LEFT JOIN g ON g.variant IS NOT DISTINCT FROM bins.variant AND g.lo = bins.lo
        GROUP BY bins.variant, bins.lo
        ORDER BY bins.variant NULLS LAST, bins.lo
    """
    with reading(con) as c:
        where, params = gf.sql(con=c)
        return frame(c, sql.replace("{where}", where),
                     [bin_width, bin_width] + params + [bin_width, bin_width])


# --------------------------------------------------------------------------------------
# findings
# --------------------------------------------------------------------------------------

_STATUS_COLUMNS = (
    "count(*)::BIGINT AS games, "
    "count(*) FILTER (WHERE g.status = 'ok')::BIGINT AS ok, "
    "count(*) FILTER (WHERE g.status = 'warning')::BIGINT AS warning, "
    "count(*) FILTER (WHERE g.status = 'error')::BIGINT AS error, "
    "count(*) FILTER (WHERE g.status = 'unparsed')::BIGINT AS unparsed, "
    "round(100.0 * count(*) FILTER (WHERE g.status = 'ok') / nullif(count(*), 0), 1) "
    "AS clean_share"
)


def findings(
    con: DbLike = None,
    *,
    by: str = "code",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Findings by ``code``, ``file``, ``event`` or ``game``: which sources are dirty.

    * ``by="code"``: one row per code and severity (a code whose findings were stored with
      different severities, e.g. an ``ambiguous-move`` error and warnings, has a row for
      each): ``code``, ``severity``, ``findings``, ``games`` (games with the code at that
      severity), ``files``, ``summary`` (from the code registry);
    * ``by="file"`` / ``by="event"``: ``path`` or ``event``, ``games``, game counts per
      status (``ok``, ``warning``, ``error``, ``unparsed``), ``clean_share`` (% ok),
      ``findings``, ``errors``, ``warnings``, ``infos``; dirtiest first;
    * ``by="game"``: one row per game with findings (``game_id``, ``path``,
      ``game_index``, ``white``, ``black``, ``status``, counts, ``codes``); worst first.

    File-level findings (no game) count for ``code`` and ``file`` unless a game filter is
    given. ``min_games`` applies to the ``file`` and ``event`` rows.

    >>> from pdnkit.store import connect
    >>> findings(connect(":memory:"), by="file").empty
    True
    """
    if by not in ("code", "file", "event", "game"):
        raise ArgumentError("by must be 'code', 'file', 'event' or 'game'")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    with reading(con) as c:
        sql, params = _findings_sql(by, gf, min_games, c)
        df = frame(c, sql, params)
    if by == "code":
        from pdnkit.findings import CODES

        df["summary"] = [CODES[c].summary if c in CODES else "" for c in df["code"]]
    return df


_FINDING_COUNTS = (
    "count(f.code)::BIGINT AS findings, "
    "count(f.code) FILTER (WHERE f.severity = 'error')::BIGINT AS errors, "
    "count(f.code) FILTER (WHERE f.severity = 'warning')::BIGINT AS warnings, "
    "count(f.code) FILTER (WHERE f.severity = 'info')::BIGINT AS infos"
)


def _findings_sql(by: str, gf: GameFilter, min_games: int,
                  con: duckdb.DuckDBPyConnection) -> tuple[str, list[SqlParam]]:
    """The query of :func:`findings` ``by`` one of its groupings, and its parameters."""
    where, params = gf.sql(con=con)
    filtered = not gf.is_empty()  # (a file's own findings count unless games are chosen)
    fcount = _FINDING_COUNTS
    if by == "code":  # (without a game, g's columns are NULL: duplicate_of IS NULL holds)
        gcond = f"(f.game_id IS NOT NULL AND {where})" if filtered else where
        sql = f"""
            SELECT f.code, f.severity,
                   count(*)::BIGINT AS findings,
                   count(DISTINCT f.game_id)::BIGINT AS games,
                   count(DISTINCT f.file_id)::BIGINT AS files
            FROM findings f LEFT JOIN games g ON g.game_id = f.game_id
            WHERE {gcond}
            GROUP BY f.code, f.severity
            ORDER BY findings DESC, f.code,
                     CASE f.severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END
        """
        return sql, params if filtered else []
    if by in ("file", "event"):
        key = "fl.path" if by == "file" else "g.event"
        name = "path" if by == "file" else "event"
        joinfile = "JOIN files fl ON fl.file_id = g.file_id" if by == "file" else ""
        sql = f"""
            WITH g AS (SELECT g.* FROM games g WHERE {where}),
            st AS (
                SELECT {key} AS {name}, {_STATUS_COLUMNS}
                FROM g {joinfile} GROUP BY {key}
            ),
            fc AS (
                SELECT {key} AS {name}, {fcount}
                FROM findings f
                {"JOIN files fl ON fl.file_id = f.file_id LEFT JOIN g ON g.game_id = f.game_id"
                 if by == "file" else "JOIN g ON g.game_id = f.game_id"}
                WHERE {"f.game_id IS NULL OR g.game_id IS NOT NULL" if by == "file"
                       and not filtered else "g.game_id IS NOT NULL"}
                GROUP BY {key}
            )
            SELECT st.*, coalesce(fc.findings, 0)::BIGINT AS findings,
                   coalesce(fc.errors, 0)::BIGINT AS errors,
                   coalesce(fc.warnings, 0)::BIGINT AS warnings,
                   coalesce(fc.infos, 0)::BIGINT AS infos
            FROM st LEFT JOIN fc ON st.{name} IS NOT DISTINCT FROM fc.{name}
            WHERE st.games >= ?
            ORDER BY st.clean_share ASC NULLS LAST, errors DESC, st.{name}
        """
        return sql, params + [min_games]
    if by == "game":
        sql = f"""
            SELECT g.game_id, fl.path, g.game_index, g.line, g.event, g.white, g.black,
                   g.status, {fcount},
                   string_agg(DISTINCT f.code, ', ' ORDER BY f.code) AS codes
            FROM games g JOIN findings f ON f.game_id = g.game_id
            JOIN files fl ON fl.file_id = g.file_id
            WHERE {where}
            GROUP BY ALL
            ORDER BY errors DESC, warnings DESC, findings DESC, g.game_id
        """
        return sql, params
    raise ArgumentError("by must be 'code', 'file', 'event' or 'game'")



def square_counts(
    con: DbLike = None,
    *,
    what: str = "capture-landing",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """How often each square plays a part, for board heatmaps.

    ``what``: ``capture-landing`` (destination of capturing moves), ``captured`` (squares
    where pieces were taken), ``destination``, ``origin``, ``promotion`` (where men were
    crowned). Only replayed moves count. Columns: ``variant``, ``square``, ``count``.

    >>> from pdnkit.store import connect
    >>> square_counts(connect(":memory:"), what="captured").empty
    True
    """
    exprs = {
        "capture-landing": ("m.destination", "m.is_capture"),
        "destination": ("m.destination", "TRUE"),
        "origin": ("m.origin", "TRUE"),
        "promotion": ("m.destination", "m.promotes"),
        "captured": ("unnest(m.captured)", "m.is_capture"),
    }
    if what not in exprs:
        raise ArgumentError(f"what must be one of {sorted(exprs)}")
    expr, cond = exprs[what]
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    sql = f"""
        WITH s AS (
            SELECT g.variant, {expr} AS square
            FROM moves m JOIN games g USING (game_id)
            WHERE m.replayed AND {cond} AND {{where}}
        )
        SELECT variant, square::INTEGER AS square, count(*)::BIGINT AS count
        FROM s WHERE square IS NOT NULL
        GROUP BY variant, square ORDER BY variant, square
    """
    with reading(con) as c:
        where, params = gf.sql(con=c)
        return frame(c, sql.replace("{where}", where), params)


# --------------------------------------------------------------------------------------
# dispatcher for the CLI
# --------------------------------------------------------------------------------------


def stats(
    kind: str,
    con: DbLike = None,
    *,
    plies: int | None = None,
    by: str | Sequence[str] | None = None,
    bin_width: int | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int | None = None,
    filter: GameFilter | None = None,
    **ignored: object,
) -> pd.DataFrame:
    """Run the statistic ``kind`` (one of :data:`STAT_KINDS`) with its options.

    Options that a statistic does not take (``ignored``: any other keyword too), and
    ``None`` values, are ignored (the statistic's own default applies), so the CLI can pass
    its full set of filters.

    >>> from pdnkit.store import connect
    >>> stats("results", connect(":memory:"), by="variant", plies=4).empty
    True
    """
    from pdnkit.stats.explorer import openings

    if kind not in STAT_KINDS:
        raise ArgumentError(f"unknown statistic {kind!r}; choose from {', '.join(STAT_KINDS)}")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    rows = 1 if min_games is None else min_games
    if kind == "openings":
        return openings(con, plies=4 if plies is None else plies,
                        by="moves" if by is None else str(by), min_games=rows, filter=gf)
    if kind == "players":
        return players(con, min_games=rows, filter=gf)
    if kind == "results":
        return results(con, by="variant" if by is None else by, min_games=rows, filter=gf)
    if kind == "lengths":
        return lengths(con, bin_width=10 if bin_width is None else bin_width, filter=gf)
    return findings(con, by="code" if by is None else str(by), min_games=rows, filter=gf)


#: :func:`stats` as a :class:`pdnkit._cells.PlainTable`, without pandas (the quick forms'):
#: ``stats_table("results", connect(":memory:")).columns[:2] == ["variant", "games"]``
stats_table = plain_form(stats, "stats_table")
