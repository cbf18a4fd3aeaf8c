"""A stream read in parts (:class:`pdnkit.store.stream.Stream` with ``then``): the rows of
every part in order, batch by batch or at once (``plain``), each part's statements run only
when the part before is read to its end, and a stream closed early ends the parts' generator
(its clean-up runs) without making the parts not read."""

from __future__ import annotations

import random
from collections.abc import Iterator

import duckdb
import pytest

from pdnkit.store.stream import Stream


def _parts(con: duckdb.DuckDBPyConnection, sizes: list[int], made: list[int],
           cleaned: list[bool]) -> Iterator[duckdb.DuckDBPyRelation]:
    """Each part as a temporary table made when asked (as a search's ranges are)."""
    start = 0
    try:
        for i, size in enumerate(sizes):
            con.execute(f"CREATE OR REPLACE TEMP TABLE part AS SELECT range + {start} AS n, "
                        f"'p{i}' AS tag FROM range({size})")
            made.append(i)
            start += size
            yield con.sql("SELECT n, tag FROM part ORDER BY n")
    finally:
        cleaned.append(True)


@pytest.mark.parametrize("seed", range(5))
def test_every_parts_rows_in_order(seed: int) -> None:
    rng = random.Random(seed)
    sizes = [rng.randint(0, 40) for _ in range(rng.randint(1, 6))]
    con = duckdb.connect()
    made: list[int] = []
    cleaned: list[bool] = []
    parts = _parts(con, sizes, made, cleaned)
    with Stream(next(parts), rows=rng.choice((1, 3, 1000)), then=parts) as s:
        got = [r["n"] for b in s for r in b.to_pylist()]
    assert got == list(range(sum(sizes)))
    assert made == list(range(len(sizes))) and cleaned == [True]


def test_plain_reads_every_part() -> None:
    con = duckdb.connect()
    parts = _parts(con, [3, 0, 4], [], [])
    with Stream(next(parts), then=parts) as s:
        table = s.plain()
    assert table["n"] == list(range(7)) and table["tag"] == ["p0"] * 3 + ["p2"] * 4


def test_a_part_is_made_only_when_the_one_before_is_read() -> None:
    con = duckdb.connect()
    made: list[int] = []
    cleaned: list[bool] = []
    parts = _parts(con, [5, 5, 5], made, cleaned)
    s = Stream(next(parts), rows=2, then=parts)
    batches = iter(s)
    next(batches)
    assert made == [0]
    s.close()  # early: the rest is never made, the generator's clean-up runs
    assert made == [0] and cleaned == [True]
    con.execute("SELECT 1").fetchall()  # the connection is free
