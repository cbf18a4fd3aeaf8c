"""The position index (``position_index``): where a position was reached, without a scan.

For every stored position the index keeps the low 24 bits of its position key (the
``position_key`` of the ``positions`` view, :func:`pdnkit.rows.bitboards.bits_key`) and the
block of 1,024 game numbers its game belongs to (``game_id >> 10``), each pair once, sorted by
key. A lookup of a position reads the one row group of the index whose key range holds it
(DuckDB's zone maps skip the others), and the exact test on the bitboards then reads only the
row groups of ``position_bits`` that hold the games of those blocks: an exact position among
a million games is a few thousand rows read instead of a hundred million. The index only
narrows where to look; the bitboards decide, so a shared key or a stale block never changes
a result.

The import adds the pairs of each file's games in the file's own transaction
(:func:`index_games`), sorted by key: taken from each batch's tables as the writer loads it
(:class:`IndexPairs`, :mod:`pdnkit.rows.indexpairs`), not read back from ``position_bits``; at the end of an import (:func:`settle_index`) the
index is sorted again whole once the rows appended since the last sort pass a quarter of it,
so the appended tails (whose zone maps are wide) stay small. Games removed leave their pairs
behind until then: a block they name is read and the bitboards find nothing there.

Example:
    >>> from pdnkit.store.db import connect
    >>> con = connect(":memory:")
    >>> index_ready(con), index_blocks(con, [(False, 1, 0, 2, 0)])
    (True, [])
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit.rows.bitboards import WHOLE_BITS, bits_key, stores_wide_boards
from pdnkit.rows.indexpairs import PairRule
from pdnkit.store import steps
from pdnkit.store.schema import INDEX_META
from pdnkit.store.transaction import transaction

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import numpy as np

__all__ = ["BLOCK_SHIFT", "EARLY_PLIES", "MAX_BLOCKS", "IndexPairs", "block_condition",
           "index_blocks", "index_games", "index_key", "index_ready", "position_source",
           "rebuild_index", "settle_index"]

#: games per block: ``game_id >> BLOCK_SHIFT`` (1,024 games, about one row group of
#: ``position_bits``)
BLOCK_SHIFT = 10
#: the positions of plies 0 to ``EARLY_PLIES`` are kept whole in ``early_positions`` (read
#: there, the ones most games share); the index names the blocks of the later ones
EARLY_PLIES = 4
#: ``early_positions`` is stored in chunks of ``2 ** EARLY_CHUNK_SHIFT`` game numbers (a
#: chunk's rows stay together, so a range of games reads a few chunks), each sorted by ply
#: and position, not by game: most games share their first positions, so each bitboard
#: column is a few long runs (run-length encoded). In game order, the table cost 52 bytes a
#: game at 100,000 games (82 of 64 KB blocks); sorted so, 10 (15 blocks)
EARLY_CHUNK_SHIFT = 14
#: the order of the rows of ``early_positions`` within one statement that appends them
EARLY_ORDER = (f"game_id >> {EARLY_CHUNK_SHIFT}, ply, black, layout, wm, wk, bm, bk, "
               "wm_high, wk_high, bm_high, bk_high, game_id")
#: a lookup naming more blocks than this reads the whole table instead (the ranges would cost
#: more than the scan they save)
MAX_BLOCKS = 256

#: rows an import may append to the index, past a quarter of it, before it is sorted again
#: whole (one row group: an appended tail of that size costs a lookup one more row group)
SORT_SLACK_ROWS = 122_880

#: the bits of the position key the index keeps: 24 cost about 2 bytes a position where 32
#: cost 3 (the sorted keys are bit-packed in runs of 2,048); among a million games about six
#: positions share a key, so a lookup reads a few more blocks
KEY_MASK = (1 << 24) - 1

#: index pairs of a file kept in memory while it is loaded (8 bytes each: 48 MB; about 70,000
#: games of 92 plies); past it they wait in a temporary table (:class:`IndexPairs`)
PAIRS_IN_MEMORY = 6_000_000

#: the index key of a ``position_bits`` row (its bitboards whole, squares 65 and up included)
KEY_SQL = ("(position_key_of(full_bits(wm, wm_high), full_bits(wk, wk_high), "
           "full_bits(bm, bm_high), full_bits(bk, bk_high), black) & 16777215)::UINTEGER")


class IndexPairs:
    """The index pairs of one file's games, handed over a batch at a time by the writer
    (:func:`pdnkit.rows.load.load_batch`) and appended to the index, sorted, by
    :func:`index_games`: so the end of a file's import no longer reads its positions back,
    computes their keys in SQL and makes them distinct. Games come in file order, so a
    batch's pairs are made distinct with numpy and kept, but those of its last block of
    games, which the next batch may continue, wait for it: the pairs kept are distinct
    already, each block's once. Up to :data:`PAIRS_IN_MEMORY` of them are kept in numpy and
    sorted there at the end (0.05 s for 1.7 M pairs, where DuckDB's ``ORDER BY`` took 0.37);
    past it they go to a temporary table of the connection (DuckDB's memory limit holds
    it) and DuckDB sorts them.

    Example:
        >>> import numpy as np
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:")
        >>> p = IndexPairs(con)
        >>> p.add(np.array([5 << 32 | 0, 5 << 32 | 0, 2 << 32 | 1], np.uint64))
        >>> p.add(np.array([7 << 32 | 1, 2 << 32 | 1], np.uint64))
        >>> index_games(con, 0, 2048, p)
        >>> con.execute("SELECT key, game_block FROM position_index").fetchall()
        [(2, 1), (5, 0), (7, 1)]
    """

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        #: which positions the index names, and how (the module's constants as they are now)
        self.rule = PairRule(EARLY_PLIES, KEY_MASK, BLOCK_SHIFT)
        self.con = con
        self.held: np.ndarray | None = None  # the pairs of the last block seen
        self.kept: list[np.ndarray] = []  # the others, while they fit in memory
        self.count = 0
        self.table: str | None = None  # the temporary table past PAIRS_IN_MEMORY

    def add(self, pairs: np.ndarray) -> None:
        """Take a batch's pairs (``key << 32 | block`` ``uint64``s, blocks not below those
        of the batches before)."""
        import numpy as np

        if self.held is not None and len(self.held):
            pairs = np.concatenate([self.held, pairs])
        if not len(pairs):
            return
        pairs = np.sort(pairs)  # (np.unique: 13-40 ms a batch against 1-2 for this)
        if len(pairs) > 1:
            pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
        blocks = pairs & np.uint64(0xFFFFFFFF)
        last = blocks == blocks.max()
        self.held = pairs[last]
        self._keep(pairs[~last])

    def _keep(self, pairs: np.ndarray) -> None:
        if not len(pairs):
            return
        self.count += len(pairs)
        self.kept.append(pairs)
        if self.table is None and self.count <= PAIRS_IN_MEMORY:
            return
        if self.table is None:
            import secrets

            self.table = f"_pdnkit_index_pairs_{secrets.token_hex(5)}"
            self.con.execute(f"CREATE TEMP TABLE {self.table} (pair UBIGINT)")
        for part in self.kept:
            self._insert(f"INSERT INTO {self.table} SELECT pair FROM _pdnkit_load", part)
        self.kept = []

    def _insert(self, statement: str, pairs: np.ndarray) -> None:
        from pdnkit._arrow import pyarrow_module

        pa = pyarrow_module()
        _pdnkit_load = pa.table({"pair": pa.array(pairs, pa.uint64())})  # noqa: F841
        self.con.execute(statement)

    def append_to_index(self) -> None:
        """Append every pair to ``position_index`` sorted by key, then block."""
        import numpy as np

        if self.held is not None:
            self._keep(self.held)
            self.held = None
        pick = ("INSERT INTO position_index SELECT (pair >> 32)::UINTEGER AS key, "
                "(pair & 4294967295)::UINTEGER AS game_block FROM ")
        if self.table is not None:
            self.con.execute(f"{pick}{self.table} ORDER BY pair")
        elif self.kept:  # sorted here: the insert keeps their order
            ordered = np.sort(np.concatenate(self.kept))
            self.kept = []
            was = self.con.execute(
                "SELECT current_setting('preserve_insertion_order')").fetchall()[0][0]
            self.con.execute("SET preserve_insertion_order = true")
            try:
                self._insert(f"{pick}_pdnkit_load", ordered)
            except BaseException:
                with contextlib.suppress(Exception):  # (the step's error is the one raised)
                    self.con.execute(f"SET preserve_insertion_order = {bool(was)}")
                raise
            self.con.execute(f"SET preserve_insertion_order = {bool(was)}")
        self.drop()

    def drop(self) -> None:
        """Forget the pairs (appended, or the index made whole from the stored positions)."""
        self.held = None
        self.kept = []
        if self.table is not None:
            self.con.execute(f"DROP TABLE IF EXISTS {self.table}")
            self.table = None


def index_key(black: bool, wm: int, wk: int, bm: int, bk: int) -> int:
    """The index key of a position: the low 24 bits of its position key.

    Example:
        >>> import duckdb
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:")
        >>> sql = con.execute("SELECT " + KEY_SQL + " FROM (SELECT 3::UBIGINT AS wm, "
        ...     "0::UBIGINT AS wk, 12::UBIGINT AS bm, 0::UBIGINT AS bk, NULL::UBIGINT AS "
        ...     "wm_high, NULL::UBIGINT AS wk_high, NULL::UBIGINT AS bm_high, "
        ...     "NULL::UBIGINT AS bk_high, true AS black)").fetchall()[0][0]
        >>> sql == index_key(True, 3, 0, 12, 0)
        True
    """
    return bits_key((wm, wk, bm, bk), black) & KEY_MASK


def _is_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main' "
        "AND database_name = current_database()", [name]).fetchall()[0][0])


def index_ready(con: duckdb.DuckDBPyConnection) -> bool:
    """True when the database's index holds every stored position (a database file of this
    schema; not a lake, whose ``position_bits`` is a view of its parts)."""
    if not all(_is_table(con, t) for t in ("position_index", "early_positions",
                                           "position_bits")):
        return False
    return bool(con.execute("SELECT count(*) FROM pdnkit_meta WHERE key = ?",
                            [INDEX_META]).fetchall()[0][0])


def _record(con: duckdb.DuckDBPyConnection, rows: int) -> None:
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [INDEX_META])
    con.execute("INSERT INTO pdnkit_meta VALUES (?, ?)", [INDEX_META, str(int(rows))])


def rebuild_index(con: duckdb.DuckDBPyConnection) -> None:
    """Make the index again from every stored position, sorted by key (``pdnkit upgrade``'s
    fill step, and the import's when the appended rows grow large), in one transaction: a
    failure or a kill midway leaves the index as it was (whole, or not ready and read by
    scan), never a partial one the meta calls ready.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); rebuild_index(con); index_ready(con)
        True
    """
    with transaction(con):
        _fill_index(con)


def _fill_index(con: duckdb.DuckDBPyConnection) -> None:
    """The statements of :func:`rebuild_index`, inside the caller's transaction."""
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [INDEX_META])  # not ready until done
    con.execute("DELETE FROM position_index")
    con.execute("DELETE FROM early_positions")
    con.execute("INSERT INTO early_positions BY NAME SELECT * FROM position_bits "
                f"WHERE ply <= {EARLY_PLIES} ORDER BY {EARLY_ORDER}")
    steps.reached("index.rebuild")
    con.execute(f"INSERT INTO position_index SELECT DISTINCT {KEY_SQL} AS key, "
                f"(game_id >> {BLOCK_SHIFT})::UINTEGER AS game_block FROM position_bits "
                f"WHERE ply > {EARLY_PLIES} ORDER BY key, game_block")
    _record(con, con.execute("SELECT count(*) FROM position_index").fetchall()[0][0])


def index_games(con: duckdb.DuckDBPyConnection, first: int, stop: int,
                pairs: IndexPairs | None = None) -> None:
    """Add the positions of games ``first`` to ``stop - 1`` (just loaded) to the index, sorted
    by key: their pairs gathered as they were loaded (``pairs``), or, without them, read
    back from ``position_bits``. An index that was never complete (a database whose
    positions predate it) is made whole instead.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); index_games(con, 1, 1); index_ready(con)
        True
    """
    if not index_ready(con):  # (within the file's transaction: no transaction of its own)
        if pairs is not None:
            pairs.drop()
        _fill_index(con)
        return
    empty = not con.execute("SELECT count(*) FROM position_index").fetchall()[0][0]
    con.execute("INSERT INTO early_positions BY NAME SELECT * FROM position_bits "
                f"WHERE game_id >= ? AND game_id < ? AND ply <= {EARLY_PLIES} "
                f"ORDER BY {EARLY_ORDER}", [int(first), int(stop)])
    if pairs is not None:
        pairs.append_to_index()
    else:
        con.execute(f"INSERT INTO position_index SELECT DISTINCT {KEY_SQL} AS key, "
                    f"(game_id >> {BLOCK_SHIFT})::UINTEGER AS game_block FROM position_bits "
                    f"WHERE game_id >= ? AND game_id < ? AND ply > {EARLY_PLIES} "
                    "ORDER BY key, game_block", [int(first), int(stop)])
    if empty:  # the first file's pairs: sorted whole already
        _record(con, con.execute("SELECT count(*) FROM position_index").fetchall()[0][0])


def settle_index(con: duckdb.DuckDBPyConnection) -> bool:
    """At the end of an import: sort the index again whole when the rows appended since its
    last sort exceed a quarter of it (and a row group). True when it did.

    Example:
        >>> from pdnkit.store.db import connect
        >>> settle_index(connect(":memory:"))
        False
    """
    got = con.execute("SELECT (SELECT count(*) FROM position_index), (SELECT max(value) "
                      "FROM pdnkit_meta WHERE key = ?)", [INDEX_META]).fetchall()[0]
    total, sorted_rows = int(got[0]), got[1]
    if sorted_rows is None:
        rebuild_index(con)
        return True
    grown = total - int(sorted_rows)
    if grown <= max(SORT_SLACK_ROWS, total // 4):
        return False
    rebuild_index(con)
    return True


def index_blocks(con: duckdb.DuckDBPyConnection,
                 positions: Sequence[tuple[bool, int, int, int, int]]) -> list[int] | None:
    """The blocks of games (``game_id >> BLOCK_SHIFT``) that may hold one of ``positions``
    (``(black, wm, wk, bm, bk)``), sorted; ``None`` when the index cannot say (not ready) or
    names more than :data:`MAX_BLOCKS` of them (a scan is then cheaper).

    Example:
        >>> from pdnkit.store.db import connect
        >>> index_blocks(connect(":memory:"), [(False, 1, 0, 2, 0)])
        []
    """
    if not index_ready(con):
        return None
    keys = sorted({index_key(*p) for p in positions})
    if not keys:
        return []
    where = " OR ".join(f"key = {k}" for k in keys)
    rows = con.execute(f"SELECT DISTINCT game_block FROM position_index WHERE {where} "
                       f"ORDER BY 1 LIMIT {MAX_BLOCKS + 1}").fetchall()
    if len(rows) > MAX_BLOCKS:
        return None
    return [int(b) for (b,) in rows]


def block_condition(blocks: Sequence[int], a: str = "p") -> str:
    """SQL: the ``game_id`` of alias ``a`` lies in one of ``blocks`` (runs of blocks merged
    into one range; ``FALSE`` for none).

    Example:
        >>> block_condition([0, 1, 5])
        '(p.game_id BETWEEN 0 AND 2047 OR p.game_id BETWEEN 5120 AND 6143)'
    """
    runs: list[list[int]] = []
    for b in sorted(set(blocks)):
        if runs and runs[-1][1] == b - 1:
            runs[-1][1] = b
        else:
            runs.append([b, b])
    if not runs:
        return "FALSE"
    return "(" + " OR ".join(f"{a}.game_id BETWEEN {lo << BLOCK_SHIFT} AND "
                             f"{((hi + 1) << BLOCK_SHIFT) - 1}" for lo, hi in runs) + ")"


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> str:
    """The columns of ``table`` as :func:`pdnkit.rows.bitboards.bits_source` gives them."""
    if not stores_wide_boards(con):
        return f"SELECT game_id, ply, layout, black, wm, wk, bm, bk FROM {table}"
    return f"SELECT game_id, ply, layout, black, {WHOLE_BITS} FROM {table}"


def position_source(con: duckdb.DuckDBPyConnection,
                    positions: Sequence[tuple[bool, int, int, int, int]]) -> str | None:
    """SQL (a subquery to give an alias) of the stored positions that may be one of
    ``positions`` (``(black, wm, wk, bm, bk)``), with the columns of
    :func:`pdnkit.rows.bitboards.bits_source`: the first plies of every game
    (``early_positions``) and the later positions of the blocks the index names. ``None``
    where the index cannot say (read every position instead).

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:")
        >>> position_source(con, [(False, 1, 0, 2, 0)]).startswith("(SELECT game_id")
        True
    """
    blocks = index_blocks(con, positions)
    if blocks is None:
        return None
    early = _columns(con, "early_positions")
    if not blocks:
        return f"({early})"
    later = _columns(con, "position_bits p")
    return (f"({early} UNION ALL {later} WHERE p.ply > {EARLY_PLIES} AND "
            f"{block_condition(blocks, 'p')})")
