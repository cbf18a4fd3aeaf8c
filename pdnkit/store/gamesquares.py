"""The squares of each game (``game_squares``): a pattern search reads one row a game first.

For every game one row: the squares where a white man, a white king, a black man, a black
king stood in at least one of its positions (each bitboard of ``position_bits`` OR-ed over
the game) and the squares occupied in every one of its positions (the occupancy AND-ed). A
position that has a white man on 28 belongs to a game whose ``wm`` has square 28; a
position with square 23 empty, to a game whose ``occ`` lacks 23. So a pattern (pieces that
must stand on squares, squares that must be empty) is tested on a million rows first, and
only the positions of the games that pass are read (:mod:`pdnkit.stats.search`). The rows
only narrow a search: the bitboards of ``position_bits`` decide.

The import adds the rows of each file's games in the file's own transaction
(:func:`add_games`); a file removed or replaced takes its games' rows with it, and rows
already held for the numbers of new games are replaced (a number freed by a removal may
be given again). ``pdnkit upgrade`` makes the table from the stored positions
(:func:`fill_squares`).

Example:
    >>> from pdnkit.store.db import connect
    >>> con = connect(":memory:")
    >>> squares_ready(con), squares_source(con)
    (True, 'game_squares')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.rows.bitboards import stores_wide_boards
from pdnkit.store.schema import SQUARES_META
from pdnkit.store.transaction import transaction

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["SQUARES_META", "add_games", "fill_squares", "squares_ready", "squares_source"]

_HIGH = ("wm_high", "wk_high", "bm_high", "bk_high")

#: one row a game from ``position_bits`` (``{where}``: which games)
_ROWS_SQL = (
    "INSERT INTO game_squares SELECT game_id, any_value(layout) AS layout, "
    "bit_or(wm) AS wm, bit_or(wk) AS wk, bit_or(bm) AS bm, bit_or(bk) AS bk, "
    "bit_and(wm | wk | bm | bk) AS occ, "
    + ", ".join(f"bit_or({h}) AS {h}" for h in _HIGH) + ", "
    "CASE WHEN count(" + ") + count(".join(_HIGH) + ") = 0 THEN NULL ELSE bit_and("
    + " | ".join(f"coalesce({h}, 0::UBIGINT)" for h in _HIGH) + ") END AS occ_high "
    "FROM position_bits WHERE {where} GROUP BY game_id ORDER BY game_id")


def _is_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main' "
        "AND database_name = current_database()", [name]).fetchall()[0][0])


def squares_ready(con: duckdb.DuckDBPyConnection) -> bool:
    """True when ``game_squares`` holds a row for every stored game (a database file of
    this schema; not a lake, whose ``position_bits`` is a view of its parts).

    Example:
        >>> import duckdb
        >>> squares_ready(duckdb.connect())
        False
    """
    if not all(_is_table(con, t) for t in ("game_squares", "position_bits", "pdnkit_meta")):
        return False
    return bool(con.execute("SELECT count(*) FROM pdnkit_meta WHERE key = ?",
                            [SQUARES_META]).fetchall()[0][0])


def _fill(con: duckdb.DuckDBPyConnection) -> None:
    """The statements of :func:`fill_squares`, inside the caller's transaction."""
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [SQUARES_META])  # not ready yet
    con.execute("DELETE FROM game_squares")
    con.execute(_ROWS_SQL.format(where="TRUE"))
    con.execute("INSERT INTO pdnkit_meta VALUES (?, '1')", [SQUARES_META])


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
        _fill(con)


def add_games(con: duckdb.DuckDBPyConnection, first: int, stop: int) -> None:
    """Add the rows of games ``first`` to ``stop - 1`` (just loaded), replacing any held
    for those numbers; a table that was never complete is made whole instead. Runs in the
    caller's transaction.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); add_games(con, 1, 1); squares_ready(con)
        True
    """
    if not squares_ready(con):
        _fill(con)
        return
    con.execute("DELETE FROM game_squares WHERE game_id >= ?", [int(first)])
    con.execute(_ROWS_SQL.format(where=f"game_id >= {int(first)} AND game_id < {int(stop)}"))


def squares_source(con: duckdb.DuckDBPyConnection) -> str:
    """``game_squares`` as a pattern reads it, each bitboard whole (``wm``, ``wk``, ``bm``,
    ``bk``, ``occ``): the table itself when no stored board has more than 64 squares, else
    a subquery joining each bitboard's two columns (``HUGEINT``). Give it an alias.

    Example:
        >>> from pdnkit.store.db import connect
        >>> squares_source(connect(":memory:"))
        'game_squares'
    """
    if not stores_wide_boards(con):
        return "game_squares"
    cols = ", ".join(f"full_bits({c}, {c}_high) AS {c}" for c in ("wm", "wk", "bm", "bk", "occ"))
    return f"(SELECT game_id, layout, {cols} FROM game_squares)"
