"""The SQL that puts a row batch into the tables: the same for a database file and for a lake's
parts (which load into an in-memory DuckDB with the schema and read the tables back).

A batch (:meth:`pdnkit.rows.batch.ReportBatch.to_arrow`) numbers its games from 0;
:func:`load_batch` shifts them by ``game_offset``, adds ``file_id`` and computes the derived
columns in the ``INSERT`` itself: moves stored compactly (:mod:`pdnkit.rows.compact`),
positions given as engine bitboards turned into square bitboards in SQL.

Example:
    >>> import duckdb
    >>> from pdnkit.store.db import ensure_schema
    >>> from pdnkit.validation import validate
    >>> from pdnkit.rows.batch import ReportBatch
    >>> con = duckdb.connect()
    >>> ensure_schema(con)
    >>> batch = ReportBatch()
    >>> _ = batch.add(next(validate('[GameType "20"] 1. 32-28 19-23 *')))
    >>> load_batch(con, batch.to_arrow(), 1, 10, batch.layouts)
    >>> con.execute("SELECT game_id, plies FROM games").fetchall()
    [(10, 2)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdnkit.rows.bitboards import BoardLayout, compact_sql, layout_ids, split_columns
from pdnkit.rows.compact import MOVE_ROWS_SELECT
from pdnkit.rows.indexpairs import PairSink, pair_sql, query_pairs, square_pairs
from pdnkit.rows.pieces import split_long_texts

if TYPE_CHECKING:
    from collections.abc import Sequence

    import duckdb
    import pyarrow as pa

#: the ``move_rows`` columns of a ``run_moves`` batch table (``ReportBatch.to_arrow``, whose
#: columns :func:`pdnkit.rows.runs.run_tables` gives as ``move_rows`` stores them): what a
#: plain run's ply always is (replayed) or what its flags say (side, piece)
RUN_MOVE_ROWS = (
    "game_id, ply, number_offset, CASE WHEN black THEN 'B' ELSE 'W' END AS side, notation, "
    "canonical, origin, destination, path, captured, promotes, "
    "CASE WHEN king THEN 'king' ELSE 'man' END AS piece, nags, comment, true AS replayed, "
    "line")


def layout_sql(ids: list[int]) -> str:
    """SQL mapping a batch's ``layout`` code to the database's layout number (``ids[code]``).

    Example:
        >>> layout_sql([3]), layout_sql([0, 1])
        ('3::UTINYINT', 'layout::UTINYINT')
    """
    if len(ids) == 1:
        return f"{int(ids[0])}::UTINYINT"
    if ids == list(range(len(ids))):
        return "layout::UTINYINT"
    return ("(CASE layout " + " ".join(f"WHEN {i} THEN {int(d)}" for i, d in enumerate(ids))
            + " END)::UTINYINT")


def positions_select(ids: list[int], game_offset: int = 0, wide: Sequence[int] = ()) -> str:
    """The SQL query that turns a batch of positions written in Python (named
    ``_pdnkit_load``; columns :attr:`ReportBatch.POS_COLS`, each bitboard whole, ``layout``
    numbering the batch's layouts whose database numbers are ``ids``) into ``position_bits``
    rows: squares 1-64 in ``wm``, ``wk``, ``bm``, ``bk``, squares 65 and up in their
    ``_high`` columns for the layouts ``wide`` numbers (boards of more than 64 squares).

    Example:
        >>> "3::UTINYINT AS layout" in positions_select([3], game_offset=10)
        True
    """
    cond = (f"layout IN ({', '.join(str(int(i)) for i in wide)})" if wide else "FALSE")
    cols = ", ".join(f"{sql} AS {c}" for c, sql in split_columns("{col}", cond).items())
    return (f"SELECT game_id + {int(game_offset)} AS game_id, ply, {layout_sql(ids)} AS layout, "
            f"black, {cols} FROM _pdnkit_load")


def position_bits_query(layouts: list[BoardLayout], game_offset: int = 0,
                        ids: list[int] | None = None) -> str:
    """The SQL query that turns a ``position_bits`` batch of engine bitboards (named
    ``_pdnkit_load``; columns ``game_id``, ``ply``, ``layout``, ``black`` (1 when Black is to
    move), the engine's bitboards ``w``, ``b``, ``k``) into ``position_bits`` rows: the square
    bitboards ``wm``, ``wk``, ``bm``, ``bk`` (:func:`pdnkit.rows.bitboards.compact_sql`) and
    ``black``, with ``game_offset`` added to the game numbers. ``layout`` numbers ``layouts``
    (each a :class:`pdnkit.rows.bitboards.BoardLayout`), whose database numbers are ``ids``
    (default: their positions in ``layouts``). DuckDB computes them in bulk, off the Python
    thread, while the next batch is replayed.

    Example:
        >>> import duckdb
        >>> from pdnkit.rules import Position, get_rules
        >>> from pdnkit.rows.bitboards import board_layout, square_bits
        >>> p = Position.initial(get_rules("russian"))
        >>> con = duckdb.connect()
        >>> _ = con.execute("CREATE TABLE _pdnkit_load AS SELECT 0 AS game_id, 0 AS ply, "
        ...     "0 AS layout, 0 AS black, ?::UBIGINT AS w, ?::UBIGINT AS b, "
        ...     "?::UBIGINT AS k", list(p.engine_bits))
        >>> row = con.execute("SELECT wm, wk, bm, bk FROM ("
        ...     + position_bits_query([board_layout(p.rules)]) + ")").fetchone()
        >>> row == square_bits(p)
        True
    """
    ids = list(range(len(layouts))) if ids is None else ids

    def sq(bits: str) -> str:
        return compact_sql(bits, layouts)

    return (
        f"SELECT game_id + {int(game_offset)} AS game_id, ply, "
        f"{layout_sql(ids)} AS layout, black = 1 AS black, "
        f"{sq('w & ~k')} AS wm, {sq('w & k')} AS wk, {sq('b & ~k')} AS bm, "
        f"{sq('b & k')} AS bk FROM _pdnkit_load"
    )


_LOAD_ORDER = ("games", "moves", "run_moves", "findings", "rule_events")
#: the table each batch table goes to, when it is not its own name
_TARGETS = {"moves": "move_rows", "run_moves": "move_rows"}


def _select(name: str, game_offset: int, file_id: int) -> str:
    """The query over the batch table ``name`` (named ``_pdnkit_load``) that loads it: local
    game numbers shifted by ``game_offset``, ``file_id`` added, moves stored compactly
    (:data:`pdnkit.rows.compact.MOVE_ROWS_SELECT`; a plain run's moves first get the
    ``move_rows`` columns, :data:`RUN_MOVE_ROWS`)."""
    shift = f"* REPLACE (game_id + {int(game_offset)} AS game_id)"
    if name == "moves":
        return f"SELECT {shift} FROM (SELECT {MOVE_ROWS_SELECT} FROM _pdnkit_load)"
    if name == "run_moves":
        return f"SELECT {shift} FROM (SELECT {RUN_MOVE_ROWS} FROM _pdnkit_load)"
    if name in ("games", "findings"):
        shift += f", {int(file_id)}::BIGINT AS file_id"
    return f"SELECT {shift} FROM _pdnkit_load"


def append_rows(con: duckdb.DuckDBPyConnection, table: str, data: pa.Table,
                query: str = "SELECT * FROM _pdnkit_load") -> None:
    """Insert an Arrow table into ``table`` by column name (``query`` reads the table as
    ``_pdnkit_load``).

    DuckDB finds the table by its name among this function's locals (a replacement scan)
    for the length of the statement alone: an object *registered* by name during a
    transaction is kept alive until the transaction ends, which would hold every batch of a
    large file in memory until its commit. A relation (``con.from_arrow(data).query``)
    holds nothing either, but costs about twice as much a statement (6.7 against 3.3 ms of
    CPU, whatever the rows: five statements a batch of about a thousand games)."""
    _pdnkit_load = data  # noqa: F841 - read by DuckDB (a replacement scan), not by Python
    con.execute(f"INSERT INTO {table} BY NAME {query}")


def load_batch(con: duckdb.DuckDBPyConnection, tables: dict[str, pa.Table], file_id: int,
               game_offset: int, layouts: list[BoardLayout] | None = None,
               pairs: PairSink | None = None) -> None:
    """Insert one batch: local game numbers shifted by ``game_offset``, ``file_id`` added
    and the derived columns computed, all in the ``INSERT`` itself; positions given as
    engine bitboards (``position_bits``) become square bitboards in SQL
    (:func:`position_bits_query`), those written in Python
    (``positions``) are inserted as they are; both number ``layouts``, which get their
    database numbers here (:func:`pdnkit.rows.bitboards.layout_ids`). ``pairs``, where
    given, is handed the position index's pairs of the batch's positions
    (:mod:`pdnkit.rows.indexpairs`: from the batch's tables, not read back)."""
    bits = tables.get("position_bits")
    py_pos = tables.get("positions")
    if any(t is not None and t.num_rows for t in (bits, py_pos, tables.get("run_squares"))):
        lays = list(layouts or ())
        ids = layout_ids(con, lays)
        found: list[Any] = []
        if bits is not None and bits.num_rows:
            query = position_bits_query(lays, game_offset, ids)
            append_rows(con, "position_bits", bits, query)
            if pairs is not None:
                found.append(query_pairs(con, bits, pair_sql(query, pairs.rule)))
        squares = tables.get("run_squares")
        if squares is not None and squares.num_rows:  # square bitboards as they are
            query = ("SELECT game_id + "
                     f"{int(game_offset)} AS game_id, ply, {layout_sql(ids)} AS layout, "
                     "black, wm, wk, bm, bk FROM _pdnkit_load")
            append_rows(con, "position_bits", squares, query)
            if pairs is not None:
                got = square_pairs(squares, game_offset, pairs.rule)
                found.append(got if got is not None else
                             query_pairs(con, squares, pair_sql(query, pairs.rule)))
        if py_pos is not None and py_pos.num_rows:
            query = positions_select(
                ids, game_offset, [i for i, lay in enumerate(lays) if lay.squares > 64])
            append_rows(con, "position_bits", py_pos, query)
            if pairs is not None:
                found.append(query_pairs(con, py_pos, pair_sql(query, pairs.rule, wide=True)))
        if found:
            import numpy as np

            pairs.add(np.concatenate(found) if len(found) > 1 else found[0])  # type: ignore[union-attr]
    tables = dict(tables)
    tables["games"], pieces = split_long_texts(tables["games"])
    if pieces is not None:  # texts too long for one row (pdnkit.rows.pieces)
        append_rows(con, "raw_pieces", pieces, _select("raw_pieces", game_offset, file_id))
    for name in _LOAD_ORDER:
        t = tables[name]
        if t.num_rows == 0:
            continue
        append_rows(con, _TARGETS.get(name, name), t, _select(name, game_offset, file_id))
