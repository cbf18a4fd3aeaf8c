"""The position index's pairs of a row batch, taken as the batch is loaded.

The position index (:mod:`pdnkit.store.posindex`) keeps, for every position past the first
plies, the low bits of its position key and the block of game numbers its game lies in. The
import used to compute them a file at a time by reading back every position it had just
stored (``position_bits``: its four bitboards decoded, the key computed in SQL a row at a
time, the pairs made distinct and sorted). Here they come from the batch's own Arrow tables
while the writer thread loads it: the square bitboards the compiled core replayed go through
one C loop (``index_pairs`` of ``core/src/rows.c``, the GIL released), the few positions
written otherwise (engine bitboards, boards of more than 64 squares, the pure core) through
the same SQL the index used, over the batch alone. Each pair is one ``uint64``,
``key << 32 | block``, so sorting the numbers sorts by key, then block.

Example:
    >>> import duckdb, numpy as np, pyarrow as pa
    >>> from pdnkit.rows.bitboards import bits_key
    >>> rule = PairRule(min_ply=0, key_mask=(1 << 24) - 1, block_shift=10)
    >>> t = pa.table({"game_id": pa.array([0], pa.int64()), "ply": pa.array([1], pa.int32()),
    ...               "black": [True], "wm": pa.array([3], pa.uint64()),
    ...               "wk": pa.array([0], pa.uint64()), "bm": pa.array([12], pa.uint64()),
    ...               "bk": pa.array([0], pa.uint64())})
    >>> got = square_pairs(t, 2048, rule)  # (None on the pure core: query_pairs then)
    >>> got is None or int(got[0]) == (bits_key((3, 0, 12, 0), True) & rule.key_mask) << 32 | 2
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pdnkit.core.rowkernels import index_pairs

if TYPE_CHECKING:
    import duckdb
    import numpy as np
    import pyarrow as pa

__all__ = ["PairRule", "PairSink", "pair_sql", "query_pairs", "square_pairs"]


@dataclass(frozen=True)
class PairRule:
    """Which positions the index names and how: those past ``min_ply``, by their position
    key's bits in ``key_mask`` (at most 32) and their game number shifted right by
    ``block_shift``."""

    min_ply: int
    key_mask: int
    block_shift: int


class PairSink(Protocol):
    """Where :func:`pdnkit.rows.load.load_batch` hands a batch's pairs (the import's
    :class:`pdnkit.store.posindex.IndexPairs`)."""

    rule: PairRule

    def add(self, pairs: np.ndarray) -> None:
        """Take the ``uint64`` pairs of one batch (any order, repeats allowed)."""


def square_pairs(table: pa.Table, game_offset: int, rule: PairRule) -> np.ndarray | None:
    """The pairs of a table of square bitboards of squares 1-64 (columns ``game_id`` (local),
    ``ply``, ``black``, ``wm``, ``wk``, ``bm``, ``bk``; ``game_offset`` added to the game
    numbers), by the compiled kernel; ``None`` where it is not in use (:func:`query_pairs`
    then) or a column has NULLs.

    Example:
        >>> import pyarrow as pa
        >>> t = pa.table({"game_id": pa.array([0, 0], pa.int64()),
        ...               "ply": pa.array([4, 5], pa.int32()), "black": [False, True],
        ...               **{c: pa.array([1, 2], pa.uint64()) for c in ("wm", "wk", "bm", "bk")}})
        >>> got = square_pairs(t, 1024, PairRule(4, 255, 10))
        >>> got is None or (len(got), int(got[0]) & 0xFFFFFFFF) == (1, 1)
        True
    """
    from pdnkit.core.rowkernels import COMPILED

    if not COMPILED:
        return None
    import numpy as np

    cols = [table.column(c) for c in ("wm", "wk", "bm", "bk", "black", "game_id", "ply")]
    if any(c.null_count for c in cols):
        return None
    wm, wk, bm, bk = (np.ascontiguousarray(c.to_numpy(), np.uint64) for c in cols[:4])
    black = np.ascontiguousarray(cols[4].to_numpy(zero_copy_only=False), np.uint8)
    game = np.ascontiguousarray(cols[5].to_numpy(), np.int64)
    ply = np.ascontiguousarray(cols[6].to_numpy(), np.int32)
    got = index_pairs(wm, wk, bm, bk, black, game, ply, int(game_offset), rule.min_ply,
                      rule.key_mask, rule.block_shift)
    return None if got is None else np.frombuffer(got, np.uint64)


def pair_sql(select: str, rule: PairRule, wide: bool = False) -> str:
    """SQL of the pairs of the positions ``select`` gives (columns ``game_id`` (numbered as
    stored), ``ply``, ``black`` (boolean), ``wm``, ``wk``, ``bm``, ``bk`` and, where ``wide``,
    their ``_high`` columns): the ``position_key_of`` macro of the schema, as the index's own
    statements compute it.

    Example:
        >>> "position_key_of" in pair_sql("SELECT 1", PairRule(4, 255, 10))
        True
    """
    def whole(c: str) -> str:
        return f"full_bits({c}, {c}_high)" if wide else f"full_bits({c}, NULL::UBIGINT)"

    key = (f"(position_key_of({whole('wm')}, {whole('wk')}, {whole('bm')}, {whole('bk')}, "
           f"black) & {int(rule.key_mask)})::UBIGINT")
    return (f"SELECT ({key} << 32) | ((game_id >> {int(rule.block_shift)})::UBIGINT "
            f"& 4294967295::UBIGINT) AS pair FROM ({select}) WHERE ply > {int(rule.min_ply)}")


def query_pairs(con: duckdb.DuckDBPyConnection, data: pa.Table, query: str) -> np.ndarray:
    """The ``pair`` column of ``query`` (:func:`pair_sql`) over the Arrow table ``data``,
    read as ``_pdnkit_load`` (a replacement scan, as :func:`pdnkit.rows.load.append_rows`
    reads a batch), as a ``uint64`` array.

    Example:
        >>> import pyarrow as pa
        >>> from pdnkit.store.db import connect
        >>> t = pa.table({"game_id": pa.array([3], pa.int64()), "ply": pa.array([9], pa.int32()),
        ...               "black": [True], **{c: pa.array([1], pa.uint64())
        ...                                   for c in ("wm", "wk", "bm", "bk")}})
        >>> rule = PairRule(4, 255, 1)
        >>> got = query_pairs(connect(":memory:"), t, pair_sql("SELECT * FROM _pdnkit_load", rule))
        >>> int(got[0]) & 0xFFFFFFFF, len(got)
        (1, 1)
    """
    import numpy as np

    _pdnkit_load = data  # noqa: F841 - read by DuckDB (a replacement scan), not by Python
    got = con.execute(query).fetchnumpy()["pair"]
    return np.asarray(got, np.uint64)
