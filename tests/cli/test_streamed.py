"""Issue 35: ``pdnkit query`` writes its result as it reads it (Arrow record batches,
:mod:`pdnkit.lean.streamed`). The bytes are those the whole-table writer
(:func:`pdnkit.lean.tables.emit`) writes for the same result, in every format and whatever the
batch size; the first rows come out while the statement still runs; a reader that goes away
stops the statement quietly; a file is written whole or not at all.

The two places where a batch cannot follow pandas' whole-result reading are asserted as the
streamed output gives them: a ``HUGEINT`` is the exact integer (pandas made it a float and lost
bits), and a ``TIMESTAMP`` whose values all fall at midnight stays a timestamp (pandas' rule
needs the whole column)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from pdnkit.lean.streamed import emit_stream
from pdnkit.lean.tables import emit, output
from pdnkit.store import query, query_stream
from tests.cli.helpers import build

FORMATS = ("csv", "csv-raw", "json", "jsonl", "text")

#: every kind of cell the writers treat apart: numbers, NaN, NULL, text needing CSV quotes,
#: formula starts, control characters and newlines, dates, times, lists, maps, structs,
#: decimals, blobs, booleans, intervals
MIXED = r"""SELECT * FROM (VALUES
 (1, 1.5::DOUBLE, 'plain', DATE '2020-05-01', TIMESTAMP '2020-05-01 10:30:00', [1, 2],
  MAP {1: 'a'}, {'x': 1, 'y': 'b'}, 1.25::DECIMAL(5, 2), '\x00\x01'::BLOB, '=1+2',
  'a' || chr(27) || '[2J' || chr(10) || 'b', TIME '10:30:00', INTERVAL 3 DAY, true,
  'nan'::DOUBLE, [[1.5, 'nan'::DOUBLE]]),
 (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '-5', '', NULL, NULL, NULL,
  NULL, NULL),
 (3, -0.0, 'x,y"z', DATE '1999-01-01', TIMESTAMP '1999-01-01 00:00:01', [], MAP {}, NULL,
  -3.5, ''::BLOB, '@SUM', 'tab' || chr(9) || 'x', TIME '00:00:00', INTERVAL 2 MONTH, false,
  2.0, []),
 (4, 1e300, 'Ünïcödé ☺', DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:59.5', [NULL],
  MAP {2: NULL}, {'x': NULL, 'y': NULL}, 0.00::DECIMAL(5, 2), 'ab'::BLOB, '+', '-',
  TIME '23:59:59', INTERVAL 90 MINUTE, NULL, -1.0, NULL)
) t(i, f, s, d, ts, l, m, st, "dec", b, formula, ctrl, tm, iv, bo, nanv, nested)"""


def _captured(fn: Callable[[], object]) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    return buf.getvalue()


def _streamed(sql: str, con: duckdb.DuckDBPyConnection, fmt: str, rows: int | None,
              limit: int | None = None) -> str:
    def run() -> None:
        with query_stream(sql, db=con, rows=rows) as stream:
            emit_stream(stream, output(fmt, None), limit=limit)
    return _captured(run)


def _whole(sql: str, con: duckdb.DuckDBPyConnection, fmt: str, limit: int | None = None) -> str:
    return _captured(lambda: emit(query(sql, db=con), output(fmt, None), limit=limit))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("rows", [1, 3, None])
def test_streamed_output_is_the_whole_tables_bytes(fmt: str, rows: int | None) -> None:
    con = duckdb.connect()
    assert _streamed(MIXED, con, fmt, rows) == _whole(MIXED, con, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_empty_result_writes_the_columns_alone(fmt: str) -> None:
    con = duckdb.connect()
    sql = "SELECT 1 AS a, 'x' AS b WHERE false"
    assert _streamed(sql, con, fmt, 2) == _whole(sql, con, fmt)


def test_generated_text_cells_are_written_as_the_whole_table_writes_them() -> None:
    """Seeded random text of formula starts, quotes, separators, controls and bidi marks."""
    alphabet = "=+-@\t\r\n,\"' ab1.e\x1b\x07\u202e\u00e9\u2603"
    rng = random.Random(35)
    con = duckdb.connect()
    con.execute("CREATE TEMP TABLE t (n INTEGER, s VARCHAR, l VARCHAR[])")
    values = []
    for n in range(300):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        values.append((n, s if rng.random() > 0.1 else None, [s[:2], s[2:]]))
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", values)
    sql = "SELECT * FROM t ORDER BY n"
    for fmt in FORMATS:
        assert _streamed(sql, con, fmt, 7) == _whole(sql, con, fmt), fmt


@pytest.mark.parametrize("limit", [None, 0, 1, 2, 5])
def test_screen_table_shows_the_first_rows_and_counts_the_rest(limit: int | None) -> None:
    con = duckdb.connect()
    assert _streamed(MIXED, con, "text", 1, limit) == _whole(MIXED, con, "text", limit)
    sql = "SELECT range AS n FROM range(20000)"
    text = _streamed(sql, con, "text", None, 3)
    assert text == _whole(sql, con, "text", 3)
    assert "... 19997 more rows" in text or limit is not None


def test_text_table_to_a_file_is_aligned_over_every_batch(tmp_path: Path) -> None:
    con = duckdb.connect()
    for fmt, suffix in (("text", ".txt"), ("csv", ".csv"), ("json", ".json")):
        streamed, whole = tmp_path / f"s{suffix}", tmp_path / f"w{suffix}"
        with query_stream(MIXED, db=con, rows=1) as stream:
            emit_stream(stream, output(None, streamed))
        emit(query(MIXED, db=con), output(None, whole))
        assert streamed.read_bytes() == whole.read_bytes(), fmt


def test_huge_integers_are_exact_and_timestamps_stay_timestamps() -> None:
    con = duckdb.connect()
    sql = ("SELECT (1::HUGEINT << 100) + 1 AS bits, -1::HUGEINT AS minus, "
           "TIMESTAMP '2020-05-01 00:00:00' AS midnight")
    rows = json.loads(_streamed(sql, con, "jsonl", None))
    assert rows == {"bits": 2 ** 100 + 1, "minus": -1, "midnight": "2020-05-01T00:00:00"}


def test_parquet_is_written_batch_by_batch(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    con = duckdb.connect()
    out = tmp_path / "n.parquet"
    with query_stream("SELECT range AS n, range::VARCHAR AS s FROM range(10)", db=con,
                      rows=3) as stream:
        assert emit_stream(stream, output(None, out)) == 10
    table = pq.read_table(out)
    assert table.column("n").to_pylist() == list(range(10))
    assert pq.ParquetFile(out).num_row_groups == 4  # one a batch
    empty = tmp_path / "e.parquet"
    with query_stream("SELECT 1 AS a WHERE false", db=con) as stream:
        emit_stream(stream, output(None, empty))
    assert pq.read_table(empty).column_names == ["a"]


# ------------------------------------------------------------------------------------------
# the real program: first rows at once, a closed pipe, a file whole or absent

#: more rows than any test could wait for or hold: only a streamed result ends in time
ENDLESS = "SELECT range AS n, 'row ' || range AS t, [range, range] AS l FROM range(10000000000)"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("stream"))


def _pdnkit(*args: str | Path, **kw: object) -> subprocess.Popen[bytes]:
    env = dict(os.environ, COLUMNS="120")
    return subprocess.Popen([sys.executable, "-m", "pdnkit", *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)  # type: ignore[call-overload]


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "text"])
def test_first_rows_come_at_once_and_a_closed_pipe_ends_the_query(db: Path, fmt: str) -> None:
    proc = _pdnkit("query", ENDLESS, "--db", db, "--format", fmt, "--limit", "3")
    assert proc.stdout is not None and proc.stderr is not None
    first = [proc.stdout.readline() for _ in range(3)]
    assert proc.poll() is None or fmt == "text"  # still reading ten billion rows
    assert all(first), first
    if fmt == "csv":
        assert first == [b"n,t,l\n", b'0,row 0,"[0, 0]"\n', b'1,row 1,"[1, 1]"\n']
    proc.stdout.close()  # the reader goes away, as `| head -3` does
    start = time.monotonic()
    status = proc.wait(timeout=120)
    err = proc.stderr.read().decode()
    assert time.monotonic() - start < 60
    assert status == 1 and err == "", (status, err)  # quietly, as click ends on a closed pipe


def test_a_file_is_whole_or_absent_when_the_query_fails_midway(db: Path, tmp_path: Path
                                                               ) -> None:
    failing = ("SELECT range AS n, CASE WHEN range < 50000 THEN 'ok' "
               "ELSE error('boom at ' || range) END AS t FROM range(100000)")
    for name in ("new.csv", "new.txt", "new.parquet"):
        out = tmp_path / name
        proc = _pdnkit("query", failing, "--db", db, "--out", out)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 2, err
        assert err.decode().startswith("pdnkit: error:") and "boom at" in err.decode()
        assert "Traceback" not in err.decode()
        assert not out.exists() and list(tmp_path.iterdir()) == [], name
    kept = tmp_path / "kept.csv"
    kept.write_text("earlier\n", encoding="utf-8")
    proc = _pdnkit("query", failing, "--db", db, "--out", kept)
    proc.communicate(timeout=120)
    assert proc.returncode == 2 and kept.read_text(encoding="utf-8") == "earlier\n"


def test_a_streamed_query_still_cannot_reach_files(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "leak.csv"
    for sql in (f"COPY (SELECT 1) TO '{target}'",
                f"SELECT * FROM read_csv('{db.parent / 'src' / 'cup.pdn'}')"):
        proc = _pdnkit("query", sql, "--db", db)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 2 and err.decode().startswith("pdnkit: error:"), err
        assert not target.exists()


def test_a_streamed_query_needs_neither_pandas_nor_rich_for_csv(db: Path) -> None:
    from tests.imported import modules_after

    assert modules_after(["query", "SELECT * FROM moves", "--db", str(db), "--format", "csv"],
                         ("pandas", "rich")) == []
    assert modules_after(["query", "SELECT * FROM moves", "--db", str(db)], ("pandas",)) == []
