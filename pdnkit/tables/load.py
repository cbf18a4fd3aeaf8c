"""The SQL that puts a row batch into the tables: the same for a database file and for a lake's
parts (which load into an in-memory DuckDB with the schema and read the tables back).

A batch (:meth:`pdnkit.tables.rows.ReportBatch.to_arrow`) numbers its games from 0;
:func:`load_batch` shifts them by ``game_offset``, adds ``file_id`` and computes the derived
columns in the ``INSERT`` itself: moves stored compactly (:mod:`pdnkit.tables.compact`),
positions given as engine bitboards turned into square bitboards in SQL.

Example:
    >>> import duckdb
    >>> from pdnkit.store.db import ensure_schema
    >>> from pdnkit.validation import validate
    >>> from pdnkit.tables.rows import ReportBatch
    >>> con = duckdb.connect()
    >>> ensure_schema(con)
    >>> batch = ReportBatch()
    >>> _ = batch.add(next(validate('[GameType "20"] 1. 32-28 19-23 *')))
    >>> load_batch(con, batch.to_arrow(), 1, 10, batch.layouts)
    >>> con.execute("SELECT game_id, plies FROM games").fetchall()
    [(10, 2)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.tables.bitboards import BoardLayout, layout_ids
from pdnkit.tables.compact import MOVE_ROWS_SELECT
from pdnkit.tables.rows import RUN_MOVES_AS_MOVES, position_bits_query, positions_select

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

_LOAD_ORDER = ("games", "moves", "run_moves", "findings", "rule_events")
#: the table each batch table goes to, when it is not its own name
_TARGETS = {"moves": "move_rows", "run_moves": "move_rows"}


def _select(name: str, game_offset: int, file_id: int) -> str:
    """The query over the batch table ``name`` (named ``_pdnkit_load``) that loads it: local
    game numbers shifted by ``game_offset``, ``file_id`` added, moves stored compactly
    (:data:`pdnkit.tables.compact.MOVE_ROWS_SELECT`; a plain run's moves first get the
    ``moves`` columns, :data:`pdnkit.tables.rows.RUN_MOVES_AS_MOVES`)."""
    shift = f"* REPLACE (game_id + {int(game_offset)} AS game_id)"
    if name in ("moves", "run_moves"):
        rows = ("_pdnkit_load" if name == "moves"
                else f"(SELECT {RUN_MOVES_AS_MOVES} FROM _pdnkit_load)")
        return f"SELECT {shift} FROM (SELECT {MOVE_ROWS_SELECT} FROM {rows})"
    if name in ("games", "findings"):
        shift += f", {int(file_id)}::BIGINT AS file_id"
    return f"SELECT {shift} FROM _pdnkit_load"


def append_rows(con: duckdb.DuckDBPyConnection, table: str, data: pa.Table,
                query: str = "SELECT * FROM _pdnkit_load") -> None:
    """Insert an Arrow table into ``table`` by column name (``query`` reads the table as
    ``_pdnkit_load``).

    The table is scanned through a relation rather than registered by name: DuckDB keeps
    every object registered during a transaction alive until the transaction ends, which
    would hold every batch of a large file in memory until its commit."""
    con.from_arrow(data).query("_pdnkit_load", f"INSERT INTO {table} BY NAME {query}")


def load_batch(con: duckdb.DuckDBPyConnection, tables: dict[str, pa.Table], file_id: int,
               game_offset: int, layouts: list[BoardLayout] | None = None) -> None:
    """Insert one batch: local game numbers shifted by ``game_offset``, ``file_id`` added
    and the derived columns computed, all in the ``INSERT`` itself; positions given as
    engine bitboards (``position_bits``) become square bitboards in SQL
    (:func:`pdnkit.tables.rows.position_bits_query`), those written in Python
    (``positions``) are inserted as they are; both number ``layouts``, which get their
    database numbers here (:func:`pdnkit.tables.bitboards.layout_ids`)."""
    bits = tables.get("position_bits")
    py_pos = tables.get("positions")
    if (bits is not None and bits.num_rows) or (py_pos is not None and py_pos.num_rows):
        lays = list(layouts or ())
        ids = layout_ids(con, lays)
        if bits is not None and bits.num_rows:
            con.from_arrow(bits).query(
                "_pdnkit_load", "INSERT INTO position_bits BY NAME "
                + position_bits_query(lays, game_offset, ids))
        if py_pos is not None and py_pos.num_rows:
            con.from_arrow(py_pos).query(
                "_pdnkit_load", "INSERT INTO position_bits BY NAME "
                + positions_select(ids, game_offset,
                                   [i for i, lay in enumerate(lays) if lay.squares > 64]))
    for name in _LOAD_ORDER:
        t = tables[name]
        if t.num_rows == 0:
            continue
        append_rows(con, _TARGETS.get(name, name), t, _select(name, game_offset, file_id))
