"""The game list (:func:`games`): the games of a database, or the games that reached a
position, with their players, event, date, result, status and findings, a page at a time.

A position is given as :func:`~pdnkit.stats.explorer.tree` takes it (a FEN, or a move sequence
from the initial position) and matched the same way (the stored bitboards and side to move,
so transpositions merge): the list of a node of the explorer holds every game that reached
the node, and ``ply`` says when each first did.

Example:
    >>> from pdnkit.store import connect
    >>> games(connect(":memory:"), moves="32-28").empty
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.rows.bitboards import bits_source
from pdnkit.stats.common import OUTCOME_SQL
from pdnkit.stats.filters import DateBound, GameFilter, SqlParam
from pdnkit.stats.positions import Bits5, bits_match, positions_at
from pdnkit.store.session import DbLike, reading
from pdnkit.store.stream import Stream

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["GAME_COLUMNS", "STATUSES", "GameStream", "games", "games_stream"]

#: the columns of :func:`games`
GAME_COLUMNS = ["game_id", "ply", "variant", "white", "black", "event", "date", "result",
                "outcome", "status", "findings", "plies", "opening_code", "opening_name",
                "file", "game"]
#: the statuses a game can have (``games.status``), from clean to unreadable
STATUSES = ("ok", "warning", "error", "unparsed")


def _statuses(status: str | Sequence[str] | None) -> list[str]:
    """The statuses asked for (comma-separated text or a list), checked.

    >>> _statuses("error, warning"), _statuses(None)
    (['error', 'warning'], [])
    """
    if status is None:
        return []
    items = status.split(",") if isinstance(status, str) else list(status)
    out = [s.strip().lower() for s in items if s.strip()]
    bad = [s for s in out if s not in STATUSES]
    if bad:
        raise ArgumentError(f"unknown status {bad[0]!r}; choose from {', '.join(STATUSES)}")
    return out


def games(
    con: DbLike = None,
    *,
    fen: str | None = None,
    moves: str | Sequence[str] | None = None,
    status: str | Sequence[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    limit: int | None = None,
    offset: int = 0,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """The games (of the filters), or those that reached a position, in game_id order
    (import order, then file order), one row a game.

    With ``fen`` or ``moves`` (as :func:`~pdnkit.stats.explorer.tree` reads them) only the games
    that reached that position, by any move order, and ``ply`` is the first ply at which
    each did (0: the start); without, every game and ``ply`` NULL. ``status`` keeps the
    games of these statuses (``ok``, ``warning``, ``error``, ``unparsed``; a list or
    comma-separated text); ``limit`` and ``offset`` give a page of the list.
    ``df.attrs["total"]`` is the number of games before the page was cut.

    Columns: ``game_id``, ``ply``, ``variant``, ``white``, ``black``, ``event``, ``date``
    (``games.date_text``, as every table writes it), ``result`` (normalised, White first), ``outcome`` (who won: ``white``,
    ``black``, ``draw``, ``unknown``), ``status``, ``findings`` (how many), ``plies``,
    ``opening_code``, ``opening_name``, ``file`` and ``game`` (the game's number in its file,
    from 1, as ``pdnkit validate`` and ``show --game`` count).

    >>> from pdnkit.store import connect
    >>> list(games(connect(":memory:")).columns)[:4]
    ['game_id', 'ply', 'variant', 'white']
    """
    if limit is not None and limit < 0 or offset < 0:
        raise ArgumentError("limit and offset must not be negative")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    chosen = _statuses(status)
    hits = _hits_name()
    with reading(con) as c:
        try:
            _hits(c, hits, gf, chosen, fen, moves)
            total = int(c.execute(f"SELECT count(*) FROM temp.{hits}").fetchall()[0][0])
            df = c.execute(_page_sql(hits, limit, offset)).df()[GAME_COLUMNS]
        finally:
            c.execute(f"DROP TABLE IF EXISTS temp.{hits}")
    df.attrs["total"] = total
    return df


def _hits_name() -> str:
    import uuid

    return f"_pdnkit_games_{uuid.uuid4().hex[:12]}"


class GameStream(Stream):
    """The rows of :func:`games_stream`: a :class:`pdnkit.store.stream.Stream` (Arrow record
    batches as they are read) with :attr:`total`, the number of games before the page was
    cut, and :attr:`rows_out`, the number of rows it holds."""

    total: int = 0
    rows_out: int = 0


def games_stream(
    con: DbLike = None,
    *,
    fen: str | None = None,
    moves: str | Sequence[str] | None = None,
    status: str | Sequence[str] | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    limit: int | None = None,
    offset: int = 0,
    filter: GameFilter | None = None,
    rows: int | None = None,
) -> GameStream:
    """:func:`games` as a stream: the same rows in Arrow record batches of ``rows`` rows
    (:data:`pdnkit.store.stream.BATCH_ROWS` by default) made as they are read, so memory stays
    flat whatever the list's size and a reader that stops ends the statement. Use it in a
    ``with`` block: its end closes the stream, drops the games found and closes the
    database when ``con`` was a path. What ``pdnkit games`` writes.

    >>> from pdnkit.store import connect
    >>> with games_stream(connect(":memory:")) as s:
    ...     s.columns[:3], s.total, sum(b.num_rows for b in s)
    (['game_id', 'ply', 'variant'], 0, 0)
    """
    from contextlib import ExitStack

    from pdnkit.store.stream import BATCH_ROWS

    if limit is not None and limit < 0 or offset < 0:
        raise ArgumentError("limit and offset must not be negative")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    chosen = _statuses(status)
    hits = _hits_name()
    stack = ExitStack()
    try:
        c = stack.enter_context(reading(con))
        stack.callback(c.execute, f"DROP TABLE IF EXISTS temp.{hits}")
        _hits(c, hits, gf, chosen, fen, moves)
        total = int(c.execute(f"SELECT count(*) FROM temp.{hits}").fetchall()[0][0])
        stream = GameStream(c.sql(_page_sql(hits, limit, offset)), rows=rows or BATCH_ROWS,
                            on_close=stack.close)
    except BaseException:
        stack.close()
        raise
    stream.total = total
    stream.rows_out = max(0, min(total - offset, total if limit is None else limit))
    return stream


def _hits(con: duckdb.DuckDBPyConnection, hits: str, gf: GameFilter, chosen: list[str],
          fen: str | None, moves: str | Sequence[str] | None) -> None:
    """The temporary table ``hits``: the games of ``gf`` and the statuses ``chosen`` (each
    with the first ply it reached the position of ``fen`` or ``moves``, if given)."""
    where, params = gf.sql(con=con)
    if chosen:
        where += f" AND g.status IN ({', '.join('?' for _ in chosen)})"
        params = params + list(chosen)
    if fen or moves:
        start = positions_at(con, fen=fen, moves=moves, variant=gf.variant)
        targets: dict[str, list[Bits5]] = {}
        for v, black, wm, wk, bm, bk in start[["variant", "black", "wm", "wk", "bm",
                                                "bk"]].itertuples(index=False):
            targets.setdefault(str(v), []).append(
                (bool(black), int(wm), int(wk), int(bm), int(bk)))
        _reached(con, hits, targets, where, params)
    else:
        con.execute(f"CREATE TEMP TABLE {hits} AS SELECT g.game_id, NULL::INTEGER AS ply "
                    f"FROM games g WHERE {where}", params)


def _reached(con: duckdb.DuckDBPyConnection, hits: str, targets: dict[str, list[Bits5]],
             where: str, params: list[SqlParam]) -> None:
    """The temporary table ``hits``: each game (of ``where``) that reached one of the
    positions of its variant in ``targets``, with the first ply it did: one scan of the
    positions (the bitboard tests alone), then the few rows meet their games."""
    every = [b for bits in targets.values() for b in bits]
    if not every:
        con.execute(f"CREATE TEMP TABLE {hits} (game_id BIGINT, ply INTEGER)")
        return
    exact = " OR ".join(f"(g.variant = ? AND {bits_match(bits, 'p')})"
                        for _, bits in sorted(targets.items()))
    con.execute(f"""
        CREATE TEMP TABLE {hits} AS
        WITH p AS MATERIALIZED (SELECT game_id, ply, black, wm, wk, bm, bk
                                FROM {bits_source(con)} p
                                WHERE {bits_match(every, 'p', exact=False)})
        SELECT p.game_id, min(p.ply)::INTEGER AS ply
        FROM p JOIN games g USING (game_id)
        WHERE ({exact}) AND {where}
        GROUP BY p.game_id""", [*sorted(targets), *params])


def _page_sql(hits: str, limit: int | None, offset: int) -> str:
    """The query of the rows of the games in ``hits``, in game_id order, ``limit`` of them
    from ``offset``."""
    cut = (f" LIMIT {int(limit)}" if limit is not None else "") + \
        (f" OFFSET {int(offset)}" if offset else "")
    return f"""
        WITH page AS (SELECT * FROM temp.{hits} ORDER BY game_id{cut}),
        fc AS (SELECT f.game_id, count(*)::BIGINT AS n FROM findings f
               WHERE f.game_id IN (SELECT game_id FROM page) GROUP BY f.game_id)
        SELECT h.game_id, h.ply, g.variant, g.white, g.black, g.event, g.date_text AS date,
               g.result, {OUTCOME_SQL} AS outcome, g.status,
               coalesce(fc.n, 0)::BIGINT AS findings, g.plies, g.opening_code,
               g.opening_name, fl.path AS file, (g.game_index + 1)::INTEGER AS game
        FROM page h JOIN games g ON g.game_id = h.game_id
        LEFT JOIN fc ON fc.game_id = h.game_id
        LEFT JOIN files fl ON fl.file_id = g.file_id
        ORDER BY h.game_id"""
