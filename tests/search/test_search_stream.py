"""A search's rows as a stream (:func:`pdnkit.stats.searchstream.search_stream`, what
``pdnkit search`` writes): the rows :func:`pdnkit.search` returns, in the same order, on
seeded searches of every kind over the samples; the command's output in every format byte
for byte what the whole table's writer (:func:`pdnkit.lean.tables.emit`) writes of
:func:`pdnkit.search`'s table; batches of the size asked, the hits' tables dropped and the
database closed when the stream ends."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pdnkit.lean.forms import run_search
from pdnkit.lean.tables import emit, output
from pdnkit.samples import sample_dir
from pdnkit.stats.search import search, search_table
from pdnkit.stats.searchstream import search_stream
from pdnkit.store import connect, import_files


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stream") / "s.duckdb"
    import_files([sample_dir()], db=path)
    return path


def _criteria(rng: random.Random) -> dict[str, object]:
    """A seeded search of one kind on the international or English board."""
    n = rng.choice((50, 32))
    sq = rng.sample(range(1, n + 1), 4)
    kind = rng.choice(("pattern", "mirror", "limit", "first", "material", "manoeuvre", "any"))
    if kind == "material":
        return {"material": f"{rng.randint(1, 12)} v {rng.randint(1, 12)}"}
    if kind == "manoeuvre":
        return {"manoeuvre": f"w?{sq[0]}??", "captures": rng.choice((None, 1))}
    if kind == "any":
        return {"any_of": f"W{sq[0]},{sq[1]}", "exclude": f"B{sq[2]}"}
    crit: dict[str, object] = {"pattern": f"W{sq[0]}:B{sq[1]}"}
    if kind == "mirror":
        crit["mirror"] = True
    elif kind == "limit":
        crit["limit"] = rng.randint(1, 40)
    elif kind == "first":
        crit.update(first=True, side=rng.choice(("white", "black", "any")))
    return crit


def _stream_rows(db: Path, crit: dict[str, object], rows: int) -> tuple[list[str], list[tuple]]:
    with search_stream(str(db), rows=rows, **crit) as s:  # type: ignore[arg-type]
        batches = [b.to_pylist() for b in s]
        assert all(len(b) <= rows for b in batches)
        return s.columns, [tuple(r.values()) for b in batches for r in b]


@pytest.fixture(params=[10**9, 3])
def ranges(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The hits whose rows the stream makes at once (a range of games): all, or a few."""
    from pdnkit.stats import searchrun

    monkeypatch.setattr(searchrun, "RANGE_HITS", request.param)
    return int(request.param)


@pytest.mark.parametrize("seed", range(6))
def test_the_stream_gives_the_searchs_rows(db: Path, seed: int, ranges: int) -> None:
    rng = random.Random(seed)
    found = 0
    for _ in range(8):
        crit = _criteria(rng)
        want = search(str(db), **crit)  # type: ignore[arg-type]
        columns, got = _stream_rows(db, crit, rows=rng.choice((1, 7, 8192)))
        assert columns == list(want.columns)
        ref = [tuple(None if v != v else v for v in row)  # (pandas' NaN for NULL)
               for row in want.astype(object).itertuples(index=False)]
        assert got == ref, crit
        found += len(got)
    assert found > 0


def test_without_the_fen_and_the_hits_tables_dropped(db: Path, ranges: int) -> None:
    con = connect(str(db), read_only=True)
    with search_stream(con, pattern="W28:B19", with_fen=False, rows=3) as s:
        assert "fen" not in s.columns
        first = next(iter(s))
        assert 1 <= first.num_rows <= 3  # (a batch may end with its range of games)
    left = con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary "
                       "AND table_name LIKE '_pdnkit_%'").fetchall()[0][0]
    assert left == 0
    con.execute("SELECT 1").fetchall()  # (the caller's connection: left open)
    con.close()


def test_a_path_is_closed_when_the_stream_ends(db: Path) -> None:
    with search_stream(str(db), pattern="W28:B19") as s:
        next(iter(s))
    writer = connect(str(db))  # (a read-only connection still open would refuse a writer)
    writer.close()


@pytest.fixture(params=["streamed", "whole"])
def streamed(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Both ways the command writes: streamed (every search, here) or a small result whole."""
    import pdnkit.lean.forms as forms

    if request.param == "streamed":
        monkeypatch.setattr(forms, "WHOLE_ROWS", -1)
    else:
        monkeypatch.setattr(forms, "WHOLE_ROWS", 10**9)
    return request.param == "streamed"


@pytest.mark.parametrize("fmt", ["csv", "csv-raw", "json", "jsonl", "text", "parquet"])
def test_the_command_writes_what_the_whole_table_writes(db: Path, tmp_path: Path,
                                                        fmt: str, streamed: bool) -> None:
    ext = {"csv-raw": "csv", "text": "txt"}.get(fmt, fmt)
    crit = {"pattern": "W28:B19", "mirror": True, "side": "any"}
    got, want = tmp_path / f"got.{ext}", tmp_path / f"want.{ext}"
    run_search(db, fmt, got, False, fen=None, exclude=None, any_of=None, material=None,
               manoeuvre=None, captures=None, promotes=None, before=None, after=None,
               first=False, limit=None, **crit)
    table = search_table(str(db), **crit)  # type: ignore[arg-type]
    assert len(table) > 10
    emit(table, output(fmt, want, [db]))
    if fmt == "parquet":  # (the same values; the types DuckDB's own, as `pdnkit games`)
        import pyarrow.parquet as pq

        a, b = pq.read_table(got), pq.read_table(want)
        assert a.column_names == b.column_names and a.to_pylist() == b.to_pylist()
    else:
        assert got.read_bytes() == want.read_bytes()
        if fmt == "json":
            assert len(json.loads(got.read_text())) == len(table)


@pytest.mark.parametrize("limit", [None, 3])
def test_the_screens_table_is_the_whole_tables(db: Path, limit: int | None, streamed: bool,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    crit = {"pattern": "W28:B19", "limit": limit}
    run_search(db, None, None, False, fen=None, exclude=None, any_of=None, side=None,
               mirror=False, material=None, manoeuvre=None, captures=None, promotes=None,
               before=None, after=None, first=False, **crit)
    got = capsys.readouterr().out
    table = search_table(str(db), **crit)  # type: ignore[arg-type]
    emit(table.drop(columns=["fen"]), output(None, None, [db]), limit=50)
    want = capsys.readouterr().out
    assert got == want and "fen" not in got.splitlines()[0]
    assert ("more rows" in got) == (limit is None)  # (over 50 rows: the rest counted)
