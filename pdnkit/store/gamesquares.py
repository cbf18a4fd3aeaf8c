"""The squares of each game (``game_squares``) and of each stretch of its plies
(``game_stretches``): a pattern search reads these rows first.

For every game one row: the squares where a white man, a white king, a black man, a black
king stood in at least one of its positions (each bitboard of ``position_bits`` OR-ed over
the game) and the squares occupied in every one of its positions (the occupancy AND-ed). A
position that has a white man on 28 belongs to a game whose ``wm`` has square 28; a
position with square 23 empty, to a game whose ``occ`` lacks 23. So a pattern (pieces that
must stand on squares, squares that must be empty) is tested on a million rows first, and
only the positions of the games that pass are read (:mod:`pdnkit.stats.search`). The rows
only narrow a search: the bitboards of ``position_bits`` decide.

``game_stretches`` keeps the pieces' squares (not the occupancy) for each stretch of
:data:`STRETCH_PLIES` plies of a game (plies 0-15, 16-31, ...) where a king stood: a pattern
with a king is met only in such a stretch, and its pieces must have stood on their squares
in one position, so within one stretch. A common pattern with a king, met somewhere in 2% of
the games taken whole, is met in a tenth as many games' stretches, and only those games'
positions are read. (Every stretch of every game, with its occupancy, named fewer games for
a pattern of men too, but cost 0.16 KB a game; the stretches with a king cost 0.04.)

The import adds the rows of each file's games in the file's own transaction
(:func:`add_games`); a file removed or replaced takes its games' rows with it, and rows
already held for the numbers of new games are replaced (a number freed by a removal may
be given again). ``pdnkit upgrade`` makes the tables from the stored positions
(:func:`fill_squares`, :func:`fill_stretches`).

Example:
    >>> from pdnkit.store.db import connect
    >>> con = connect(":memory:")
    >>> squares_ready(con), squares_source(con), summary_source(con, kings=False)
    (True, 'game_squares', ('game_squares', True))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.rows.bitboards import stores_wide_boards
from pdnkit.store.schema import SQUARES_META, STRETCHES_META
from pdnkit.store.transaction import transaction

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["SQUARES_META", "STRETCHES_META", "STRETCH_PLIES", "add_games", "fill_squares",
           "fill_stretches", "squares_ready", "squares_source", "stretches_ready",
           "summary_source"]

#: the plies of one stretch (``game_stretches``: plies 0 to 15 are stretch 0)
STRETCH_PLIES = 16

_HIGH = ("wm_high", "wk_high", "bm_high", "bk_high")


def _rows_sql(table: str, keys: str, occ: bool = True, having: str = "") -> str:
    """Rows of ``table`` for each group ``keys`` of ``position_bits`` (``{where}``: which
    games): each bitboard OR-ed, the occupancy AND-ed (``occ``), the groups ``having``."""
    high = ", ".join(f"bit_or({h}) AS {h}" for h in _HIGH)
    occupancy = (
        "bit_and(wm | wk | bm | bk) AS occ, " + high + ", "
        "CASE WHEN count(" + ") + count(".join(_HIGH) + ") = 0 THEN NULL ELSE bit_and("
        + " | ".join(f"coalesce({h}, 0::UBIGINT)" for h in _HIGH) + ") END AS occ_high "
    ) if occ else high + " "
    return (
        f"INSERT INTO {table} SELECT {keys}, any_value(layout) AS layout, "
        "bit_or(wm) AS wm, bit_or(wk) AS wk, bit_or(bm) AS bm, bit_or(bk) AS bk, "
        + occupancy + "FROM position_bits WHERE {where} GROUP BY ALL " + having
        + "ORDER BY ALL")


#: one row a game from ``position_bits`` (``{where}``: which games)
_ROWS_SQL = _rows_sql("game_squares", "game_id")
#: one row a stretch of a game's plies where a king stood
_STRETCH_SQL = _rows_sql(
    "game_stretches", f"game_id, (ply // {STRETCH_PLIES})::USMALLINT AS stretch", occ=False,
    having="HAVING bit_or(wk | bk) <> 0 OR coalesce(bit_or(coalesce(wk_high, 0::UBIGINT) "
           "| coalesce(bk_high, 0::UBIGINT)), 0::UBIGINT) <> 0 ")


def _is_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main' "
        "AND database_name = current_database()", [name]).fetchall()[0][0])


def _ready(con: duckdb.DuckDBPyConnection, table: str, key: str) -> bool:
    if not all(_is_table(con, t) for t in (table, "position_bits", "pdnkit_meta")):
        return False
    return bool(con.execute("SELECT count(*) FROM pdnkit_meta WHERE key = ?",
                            [key]).fetchall()[0][0])


def squares_ready(con: duckdb.DuckDBPyConnection) -> bool:
    """True when ``game_squares`` holds a row for every stored game (a database file of
    this schema; not a lake, whose ``position_bits`` is a view of its parts).

    Example:
        >>> import duckdb
        >>> squares_ready(duckdb.connect())
        False
    """
    return _ready(con, "game_squares", SQUARES_META)


def stretches_ready(con: duckdb.DuckDBPyConnection) -> bool:
    """True when ``game_stretches`` holds the rows of every stored game (as
    :func:`squares_ready` for ``game_squares``).

    Example:
        >>> from pdnkit.store.db import connect
        >>> stretches_ready(connect(":memory:"))
        True
    """
    return _ready(con, "game_stretches", STRETCHES_META)


def _fill(con: duckdb.DuckDBPyConnection, table: str, key: str, sql: str) -> None:
    """The statements of :func:`fill_squares` (or :func:`fill_stretches`), inside the
    caller's transaction."""
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [key])  # not ready yet
    con.execute(f"DELETE FROM {table}")
    con.execute(sql.format(where="TRUE"))
    con.execute("INSERT INTO pdnkit_meta VALUES (?, '1')", [key])


def fill_squares(con: duckdb.DuckDBPyConnection) -> None:
    """Make ``game_squares`` again from every stored position (``pdnkit upgrade``'s fill
    step), in one transaction: a failure midway leaves it as it was, never a partial
    table called ready.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); fill_squares(con); squares_ready(con)
        True
    """
    with transaction(con):
        _fill(con, "game_squares", SQUARES_META, _ROWS_SQL)


def fill_stretches(con: duckdb.DuckDBPyConnection) -> None:
    """Make ``game_stretches`` again from every stored position (``pdnkit upgrade``'s fill
    step for schema 10), in one transaction, as :func:`fill_squares`.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); fill_stretches(con); stretches_ready(con)
        True
    """
    with transaction(con):
        _fill(con, "game_stretches", STRETCHES_META, _STRETCH_SQL)


def add_games(con: duckdb.DuckDBPyConnection, first: int, stop: int) -> None:
    """Add the rows of games ``first`` to ``stop - 1`` (just loaded) to ``game_squares``
    and ``game_stretches``, replacing any held for those numbers; a table that was never
    complete is made whole instead. Runs in the caller's transaction.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); add_games(con, 1, 1); squares_ready(con)
        True
    """
    where = f"game_id >= {int(first)} AND game_id < {int(stop)}"
    for table, key, sql in (("game_squares", SQUARES_META, _ROWS_SQL),
                            ("game_stretches", STRETCHES_META, _STRETCH_SQL)):
        if not _ready(con, table, key):
            if _is_table(con, table):
                _fill(con, table, key, sql)
            continue
        con.execute(f"DELETE FROM {table} WHERE game_id >= ?", [int(first)])
        con.execute(sql.format(where=where))


def _source(con: duckdb.DuckDBPyConnection, table: str, occ: str = "occ") -> str:
    cols = ["wm", "wk", "bm", "bk"]
    if not stores_wide_boards(con):
        if occ == "occ":
            return table
        return f"(SELECT game_id, layout, {', '.join(cols)}, {occ} AS occ FROM {table})"
    whole = [f"full_bits({c}, {c}_high) AS {c}" for c in cols]
    whole.append("full_bits(occ, occ_high) AS occ" if occ == "occ" else "0::HUGEINT AS occ")
    return f"(SELECT game_id, layout, {', '.join(whole)} FROM {table})"


def squares_source(con: duckdb.DuckDBPyConnection) -> str:
    """``game_squares`` as a pattern reads it, each bitboard whole (``wm``, ``wk``, ``bm``,
    ``bk``, ``occ``): the table itself when no stored board has more than 64 squares, else
    a subquery joining each bitboard's two columns (``HUGEINT``). Give it an alias.

    Example:
        >>> from pdnkit.store.db import connect
        >>> squares_source(connect(":memory:"))
        'game_squares'
    """
    return _source(con, "game_squares")


def summary_source(con: duckdb.DuckDBPyConnection, kings: bool) -> tuple[str, bool] | None:
    """The finest summary of the games that is ready for a pattern (``kings``: every
    position it can match has a king it lists), as the pattern reads it (rows with
    ``game_id``, ``layout`` and the bitboards whole, as :func:`squares_source`): for a
    pattern with a king the stretches of each game where a king stood (``occ`` 0: no
    square is known to be occupied), else the squares of each game; ``None`` when neither
    is ready (a lake, a database whose tables were never made whole); with it, whether it
    holds one row a game (the squares of each game do; a game has several stretches, so
    its numbers are then made distinct by the reader). Give it an alias.

    Example:
        >>> import duckdb
        >>> summary_source(duckdb.connect(), kings=True) is None
        True
    """
    if kings and stretches_ready(con):
        return _source(con, "game_stretches", "0::UBIGINT"), False
    if squares_ready(con):
        return squares_source(con), True
    return None
