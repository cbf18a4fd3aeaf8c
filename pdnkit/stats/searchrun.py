"""Running a search (:func:`pdnkit.search`) in steps, each kept in a temporary table.

The conditions come ready from :mod:`pdnkit.stats.search` as a :class:`SearchPlan`; this
module chooses which positions to read and in what order:

* an exact position: the rows the position index names (``source``);
* a pattern: first the games whose squares can hold it (a pattern with a king:
  ``game_stretches``, the squares of each stretch of 16 plies where a king stood; else
  ``game_squares``, of each game); where few do, only their positions, a pattern with kings testing the kings' column in the same scan
  (DuckDB applies a one-column test as it reads, and reads the other columns only for the
  rows that pass);
* with a ``limit`` (and no manoeuvre): the positions of a first span of game numbers, then
  of spans each :data:`SPAN_GROWTH` times longer, until ``limit`` rows are found. Positions
  are stored in game order, so a span of numbers is a few stretches of the table; the rows
  of a span are every hit of its games, so the first ``limit`` rows by game and ply are
  exactly those of one whole read.

Each step's rows go to a temporary table (a read-only connection may make them): with real
tables and real row counts DuckDB joins the few hits to the big tables (in one query it
joined the big tables first).

Example:
    >>> from pdnkit.store import connect
    >>> plan = SearchPlan(cond="bit_count(p.wm) = 1", move_branches=[], after=False,
    ...                   where="TRUE", params=[], first=False, limit=5)
    >>> run_search(connect(":memory:"), plan, SearchTuning()).empty
    True
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdnkit.rows.bitboards import bits_source
from pdnkit.stats.filters import SqlParam
from pdnkit.store.gamesquares import summary_source
from pdnkit.store.session import DbLike, reading
from pdnkit.store.stream import Stream

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["COLUMNS", "RANGE_GROWTH", "RANGE_HITS", "SPAN", "SPAN_GROWTH", "SearchPlan", "SearchStream", "SearchTuning",
           "run_search", "stream_search"]

#: result columns of :func:`pdnkit.search`
COLUMNS = ["game_id", "ply", "side", "variant", "white", "black", "event", "date", "result",
           "move", "fen"]

#: how much longer each span of game numbers is than the one before (``limit``)
SPAN_GROWTH = 8
#: where a selection takes its span of game numbers
SPAN = "/*span*/"
#: the hits whose rows :func:`stream_search` makes first (a range of games): more are
#: read a range at a time (each :data:`RANGE_GROWTH` times larger), so the first rows do not
#: wait for every hit's move, game and sort (1.84 M hits at 1 M games: 13-23 s before
#: the first row)
RANGE_HITS = 50_000
#: how much larger each range of hits is than the one before
RANGE_GROWTH = 2


@dataclass(frozen=True)
class SearchPlan:
    """One search as SQL: ``cond`` on the positions (alias ``p``; with a manoeuvre also
    ``m`` and ``pa``), ``move_branches`` (conditions on the moves alone), ``after`` (the
    position after the move is joined as ``pa``), ``where``/``params`` (the games, alias
    ``g``), ``first``, ``limit``; ``source`` (the rows that may match, from the position
    index), ``games`` (a condition on the squares of a game or of a stretch of its plies,
    ``game_squares`` or ``game_stretches``, alias ``s``, that every position hit meets),
    ``kings`` (a one-column test on the kings, alias ``p``, that every hit
    meets), ``stretches`` (every hit has a king the pattern lists: ``games`` may be tested
    on the stretches with a king)."""

    cond: str
    move_branches: list[str]
    after: bool
    where: str
    params: list[SqlParam]
    first: bool
    limit: int | None
    source: str | None = None
    games: str | None = None
    kings: str | None = None
    stretches: bool = False


@dataclass(frozen=True)
class SearchTuning:
    """How a search reads: ``narrow_share`` (the share of the games past which a pattern
    reads every position rather than those of its candidate games; below 0: never),
    ``kings_first`` (a pattern with kings tests the kings' column alone first where it
    reads every position), ``span`` (the first span of game numbers read for a ``limit``;
    0: everything at once)."""

    narrow_share: float = 0.05
    kings_first: bool = True
    span: int = 4096


def run_search(db: DbLike, plan: SearchPlan, tuning: SearchTuning) -> pd.DataFrame:
    """Run ``plan`` on the database ``db`` (a connection may be read-only: temporary tables
    only) and return one row per hit (:data:`COLUMNS`), ordered by game and ply."""
    from pdnkit.stats.common import frame

    with reading(db) as con, _hits_kept(con, plan, tuning) as tables:
        return frame(con, _rows(con, *tables))[COLUMNS]


class SearchStream(Stream):
    """The rows of :func:`stream_search`: a :class:`pdnkit.store.stream.Stream` with
    :attr:`total`, the number of rows it gives (the hits)."""

    total: int = 0


def stream_search(con: duckdb.DuckDBPyConnection, plan: SearchPlan, tuning: SearchTuning, *,
                  fen: bool = True, rows: int | None = None,
                  on_close: Callable[[], object] | None = None) -> SearchStream:
    """:func:`run_search` as a :class:`pdnkit.store.stream.Stream` on the open connection
    ``con`` (left open): the hits found now, their rows (:data:`COLUMNS`, without ``fen``
    where ``fen`` is false) made as they are read, :data:`RANGE_HITS` hits' games at a
    time, ``rows`` a batch; the hits' tables are
    dropped when the stream closes, then ``on_close`` is called (also when this raises);
    its :attr:`~SearchStream.total` is the number of hits.

    Example:
        >>> from pdnkit.store import connect
        >>> plan = SearchPlan(cond="bit_count(p.wm) = 1", move_branches=[], after=False,
        ...                   where="TRUE", params=[], first=False, limit=None)
        >>> with stream_search(connect(":memory:"), plan, SearchTuning()) as s:
        ...     s.columns[:3], s.total, sum(b.num_rows for b in s)
        (['game_id', 'ply', 'side'], 0, 0)
    """
    from contextlib import ExitStack

    from pdnkit.store.stream import BATCH_ROWS

    stack = ExitStack()
    if on_close is not None:
        stack.callback(on_close)  # (last: after the tables are dropped)
    try:
        tables = stack.enter_context(_hits_kept(con, plan, tuning))
        total = int(con.execute(f"SELECT count(*) FROM {tables[0]}").fetchall()[0][0])
        if total <= RANGE_HITS:
            stream = SearchStream(con.sql(_rows(con, *tables, fen=fen)),
                                  rows=rows or BATCH_ROWS, on_close=stack.close)
        else:  # the rows of a part of the games at a time: the first come at once
            parts = _ranged(con, tables, fen, _hit_ranges(con, tables[0], RANGE_HITS, total))
            stream = SearchStream(next(parts), rows=rows or BATCH_ROWS, on_close=stack.close,
                                  then=parts)
    except BaseException:
        stack.close()
        raise
    stream.total = total
    return stream


#: the FEN column of a hit (alias ``h``, its layout ``l``)
_FEN = """, CASE WHEN h.black THEN 'B' ELSE 'W' END || ':W'
               || fen_field(l.fen_order, l.names, h.wm, h.wk) || ':B'
               || fen_field(l.fen_order, l.names, h.bm, h.bk) AS fen"""


@contextmanager
def _hits_kept(con: duckdb.DuckDBPyConnection, plan: SearchPlan, tuning: SearchTuning
               ) -> Iterator[tuple[str, str, str]]:
    """The hits of ``plan`` kept in a temporary table for the ``with`` block, and the names
    of the tables :func:`_rows` keeps the hits' moves and games in; every table the search
    made is dropped at the end."""
    tag = uuid.uuid4().hex[:12]
    names = [f"_pdnkit_{k}_{tag}" for k in ("mv", "hits", "games", "acc", "next", "of")]
    try:
        sel = _selection(con, plan, tuning, names[0], names[2])
        if plan.limit is not None and not plan.move_branches and tuning.span > 0:
            _spans(con, plan, sel, names[3], tuning.span)
            con.execute(f"CREATE TEMP TABLE {names[1]} AS SELECT * FROM temp.{names[3]} "
                        f"ORDER BY game_id, ply LIMIT {int(plan.limit)}")
        else:
            lim = f" LIMIT {int(plan.limit)}" if plan.limit is not None else ""
            con.execute(f"CREATE TEMP TABLE {names[1]} AS {sel.replace(SPAN, '')} "
                        f"ORDER BY game_id, ply{lim}", plan.params)
        yield (f"temp.{names[1]}", f"temp.{names[4]}", f"temp.{names[5]}")
    finally:
        for table in names:
            con.execute(f"DROP TABLE IF EXISTS temp.{table}")


def _selection(con: duckdb.DuckDBPyConnection, plan: SearchPlan, tuning: SearchTuning,
               mv: str, cand: str) -> str:
    """The SELECT of the hits (with :data:`SPAN` where a condition on ``p.game_id`` goes),
    after the steps it needs: the matching moves kept in ``mv``, the candidate games in
    ``cand``."""
    bits = bits_source(con)
    source = plan.source
    if plan.games is not None and source is None and _candidates(
            con, plan.games, cand, tuning.narrow_share, plan.stretches):
        kings = f"({plan.kings}) AND " if plan.kings else ""
        source = (f"(SELECT p.* FROM {bits} p WHERE {kings}"
                  f"p.game_id IN (SELECT game_id FROM temp.{cand}))")
    elif source is None and plan.kings and tuning.kings_first and plan.games is not None:
        # the kings' column tested first, alone (a test DuckDB applies as it scans)
        source = (f"(WITH k AS MATERIALIZED (SELECT p.game_id, p.ply, p.layout, p.black, "
                  f"p.wm, p.wk, p.bm, p.bk FROM {bits} p WHERE {plan.kings}) SELECT * FROM k)")
    src = f"{source or bits} p"
    if plan.move_branches:
        con.execute(f"CREATE TEMP TABLE {mv} AS SELECT * FROM moves m WHERE "
                    + " OR ".join("(" + b + ")" for b in plan.move_branches))
        src = f"temp.{mv} m JOIN {bits} p ON p.game_id = m.game_id AND p.ply = m.ply - 1"
        if plan.after:
            src += f" JOIN {bits} pa ON pa.game_id = m.game_id AND pa.ply = m.ply"
    filt = ""
    if plan.where != "TRUE":
        filt = f" AND p.game_id IN (SELECT g.game_id FROM games g WHERE {plan.where})"
    sel = (f"SELECT DISTINCT p.game_id, p.ply, p.black, p.wm, p.wk, p.bm, p.bk, p.layout "
           f"FROM {src} WHERE ({plan.cond}){filt}{SPAN}")
    if plan.first:
        sel = (f"SELECT * FROM ({sel}) "
               "QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY ply) = 1")
    return sel


def _spans(con: duckdb.DuckDBPyConnection, plan: SearchPlan, sel: str, acc: str,
           span: int) -> None:
    """Keep in ``acc`` the hits of spans of game numbers, each :data:`SPAN_GROWTH` times
    longer than the one before, until ``plan.limit`` are found or every game is read."""
    lo, hi = con.execute("SELECT min(game_id), max(game_id) FROM games").fetchall()[0]
    con.execute(f"CREATE TEMP TABLE {acc} AS {sel.replace(SPAN, ' AND FALSE')}", plan.params)
    if lo is None:
        return
    start, limit = int(lo), int(plan.limit or 0)
    while start <= int(hi):
        stop = start + span
        cut = f" AND p.game_id >= {start} AND p.game_id < {stop}"
        if stop > int(hi):
            cut = f" AND p.game_id >= {start}"
        con.execute(f"INSERT INTO temp.{acc} {sel.replace(SPAN, cut)}", plan.params)
        if con.execute(f"SELECT count(*) FROM temp.{acc}").fetchall()[0][0] >= limit:
            return
        start, span = stop, span * SPAN_GROWTH


def _candidates(con: duckdb.DuckDBPyConnection, games: str, table: str, share: float,
                kings: bool) -> bool:
    """Keep in ``table`` the games with squares (``kings``: of a stretch of plies with a
    king, ``game_stretches``; else of the whole game, ``game_squares``; alias ``s``) that
    meet ``games``; True when a summary is ready and they are few enough (at most ``share``
    of the games) to read their positions alone."""
    summary = summary_source(con, kings)
    if summary is None:
        return False
    source, per_game = summary
    # (the squares of each game are one row a game: a DISTINCT there cost 70-100 ms of CPU
    # at 1 M games for nothing)
    distinct = "" if per_game else "DISTINCT "
    con.execute(f"CREATE TEMP TABLE {table} AS SELECT {distinct}s.game_id "
                f"FROM {source} s WHERE {games}")
    got, total = con.execute(f"SELECT (SELECT count(*) FROM temp.{table}), "
                             "(SELECT count(*) FROM games)").fetchall()[0]
    return bool(got <= share * total)


def _rows(con: duckdb.DuckDBPyConnection, hits: str, moves: str, games: str,
          fen: bool = True, between: tuple[int, int] | None = None) -> str:
    """The hits in ``hits`` with their games, the move played next and the FEN; the moves
    and the games of the hits are kept first in the temporary tables ``moves`` and
    ``games`` (made again if there), each read by the hits' game numbers alone (in one
    query DuckDB read every column of the moves of the hits' games before the join, and the
    games' text of every candidate: 1.0 s of CPU for 6,070 hits at 1 M games, against 0.3
    in steps); returns the SELECT of the rows (:data:`COLUMNS`, without the FEN unless
    ``fen``): of every hit, or of the hits of the games from ``between[0]`` to
    ``between[1]``."""
    span = "" if between is None else f"BETWEEN {int(between[0])} AND {int(between[1])}"
    of_hits = f"(SELECT game_id FROM {hits}" + (f" WHERE game_id {span})" if span else ")")
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE {moves.removeprefix("temp.")} AS
        SELECT m.game_id, m.ply,
               move_text(m.canonical, m.notation, m.origin, m.destination, m.captured) AS move
        FROM (SELECT game_id, ply, canonical, notation, origin, destination, captured
              FROM move_rows WHERE game_id IN {of_hits} {f"AND game_id {span}" if span else ""}
              ) m
        SEMI JOIN {hits} h ON m.game_id = h.game_id AND m.ply = h.ply + 1""")
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE {games.removeprefix("temp.")} AS
        SELECT game_id, variant, white, black, event, date_text, result
        FROM games WHERE game_id IN {of_hits} {f"AND game_id {span}" if span else ""}""")
    return f"""
        SELECT h.game_id, h.ply, CASE WHEN h.black THEN 'B' ELSE 'W' END AS side,
               g.variant, g.white, g.black, g.event, g.date_text AS date, g.result, m.move
               {_FEN if fen else ""}
        FROM {hits} h JOIN {games} g ON g.game_id = h.game_id
        {"LEFT JOIN layouts l ON l.layout = h.layout" if fen else ""}
        LEFT JOIN {moves} m ON m.game_id = h.game_id AND m.ply = h.ply + 1
        {f"WHERE h.game_id {span}" if span else ""}
        ORDER BY h.game_id, h.ply"""


def _hit_ranges(con: duckdb.DuckDBPyConnection, hits: str, size: int, total: int
                ) -> list[tuple[int, int]]:
    """Ranges of game numbers (first, last) that cut the ``total`` hits in ``hits`` into
    parts, in game order, a game's hits all in one part: the first of about ``size`` hits,
    each next :data:`RANGE_GROWTH` times larger (the first rows come at once, and the
    parts' own cost stays small)."""
    ends, n = [], size
    while n < total:
        ends.append(n)
        n = n * RANGE_GROWTH + size
    rows = con.execute(f"""
        SELECT min(game_id), max(game_id) FROM (
            SELECT game_id, min(part) AS part FROM (
                SELECT game_id, len(list_filter(?::BIGINT[], lambda e: e < rn)) AS part
                FROM (SELECT game_id, row_number() OVER (ORDER BY game_id, ply) AS rn
                      FROM {hits}))
            GROUP BY game_id)
        GROUP BY part ORDER BY part""", [ends]).fetchall()
    return [(int(a), int(b)) for a, b in rows]


def _ranged(con: duckdb.DuckDBPyConnection, tables: tuple[str, str, str], fen: bool,
            ranges: list[tuple[int, int]]) -> Iterator[duckdb.DuckDBPyRelation]:
    """The relation of each range's rows (:func:`_rows`), the range's moves and games kept
    when it is asked for."""
    for between in ranges:
        yield con.sql(_rows(con, *tables, fen=fen, between=between))
