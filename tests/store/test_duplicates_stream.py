"""The copies listing as a stream (:func:`pdnkit.store.duplicates_stream`, what ``pdnkit
duplicates`` writes): on seeded generated databases with many groups of every kind
(identical, tags, annotated and prefix copies, other games with the same moves, probable
copies), the stream's rows are those of :func:`pdnkit.store.duplicates` (the whole table,
built in Python: the reference) in the same order, with chunks and batches small enough
to end inside and between groups; the command's output in every format is byte for byte
what the whole table's writer (:func:`pdnkit.lean.tables.emit`) writes of it, the screen's
text table included."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.lean.tables import emit, output
from pdnkit.store import connect, duplicates, duplicates_stream, import_files
from pdnkit.store.copylist import duplicate_stream
from tests.copies_kit import movetext, random_line, record
from tests.store.test_settle_generated import _games as english_games

runner = CliRunner()

_PLAYERS = ["Sijbrands, Ton", "Clerc, Rob", "Wiersma, Harm", "Baliakin, Alexander"]
_SPELLED = {"Sijbrands, Ton": "T. Sijbrands", "Clerc, Rob": "R. CLERC",
            "Wiersma, Harm": "Harm Wiersma", "Baliakin, Alexander": "Baljakin A."}


def _international(rng: random.Random, n: int) -> list[str]:
    """``n`` games of international draughts, each recorded again in a few ways: the same
    text, other tags, annotated, its first plies only (a prefix), by other players (the
    same moves, another game), or the same players' other game of the day."""
    out: list[str] = []
    for i in range(n):
        line = random_line(rng.randrange(10**6), rng.randint(30, 60))
        white, black = rng.sample(_PLAYERS, 2)
        tags = {"event": f"Open {i % 3}", "site": "Amsterdam",
                "date": f"2003.03.{1 + i % 28:02d}", "round": str(1 + i % 9),
                "white": white, "black": black}
        copies = [record(line, **tags)]
        for _ in range(rng.randint(0, 4)):
            kind = rng.choice(["identical", "tags", "annotated", "prefix", "other", "probable"])
            if kind == "identical":
                copies.append(copies[0])
            elif kind == "tags":
                copies.append(record(line, **{**tags, "white": _SPELLED[white]}))
            elif kind == "annotated":
                copies.append(record(line, body=movetext(line, comments={3: "book"},
                                                         nags={9: "!"}), **tags))
            elif kind == "prefix":
                copies.append(record(line[:rng.randint(20, len(line) - 1)], "*", **tags))
            elif kind == "other":
                copies.append(record(line, **{**tags, "white": black, "black": white,
                                              "date": "1987.05.02", "event": "NK 1987"}))
            else:  # a decoy of the day and a truncated record that could be either
                decoy = random_line(rng.randrange(10**6), len(line), prefix=line[:24])
                copies.append(record(decoy, **{**tags, "round": str(20 + i)}))
                copies.append(record(line[:22], "*", **{**tags, "round": "?",
                                                         "date": "2003.03.??"}))
        out += copies
    rng.shuffle(out)
    return out


@pytest.fixture(scope="module", params=[1, 2])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = random.Random(request.param)
    folder = tmp_path_factory.mktemp(f"dups{request.param}")
    games = _international(rng, 40)
    files = []
    for k in range(3):
        f = folder / f"i{k}.pdn"
        f.write_text("".join(games[k::3]), encoding="utf-8")
        files.append(f)
    pool: list[tuple[list[str], str]] = []
    for k in range(2):
        f = folder / f"e{k}.pdn"
        f.write_text(english_games(rng, 40, pool), encoding="utf-8")
        files.append(f)
    path = folder / "g.duckdb"
    import_files(files, db=path)
    return path


def _plain(v: object) -> object:
    """A DataFrame's cell as Arrow gives it: NULL for pandas' missing values, numpy's
    numbers and arrays as Python's."""
    import pandas as pd

    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return None
    if hasattr(v, "tolist"):
        return v.tolist()
    return v.item() if hasattr(v, "item") else v


def test_the_database_has_groups_of_every_kind(db: Path) -> None:
    df = duplicates(db)
    kinds = {k for ks in df["kinds"] for k in ks}
    assert {"canonical", "identical", "tags", "annotated", "prefix", "other-game",
            "probable-copy"} <= kinds, kinds
    assert set(df["relation"]) == {"copies", "same-moves", "probable"}
    assert df["games"].max() > 2


@pytest.mark.parametrize(("chunk", "rows"), [(1, 1), (2, 3), (5, 2), (7, 1000), (10**6, 4)])
def test_the_stream_gives_the_rows_of_the_whole_table(db: Path, chunk: int, rows: int) -> None:
    want = duplicates(db)
    con = connect(db, read_only=True)
    with duplicate_stream(con, rows=rows, chunk=chunk) as s:
        counts = dict(s.counts)
        assert s.columns == list(want.columns)
        batches = [b.to_pylist() for b in s]
    assert all(0 < len(b) <= rows for b in batches)
    got = [tuple(r.values()) for b in batches for r in b]
    ref = [tuple(_plain(v) for v in row) for row in want.itertuples(index=False)]
    assert got == ref
    assert counts == want["relation"].value_counts().reindex(
        ["copies", "same-moves", "probable"], fill_value=0).to_dict()
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall() \
        == [(0,)]  # the stream's table is gone
    con.close()


def test_the_files_stream_gives_the_identical_files(db: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.pdn"
    again.write_bytes((db.parent / "i0.pdn").read_bytes())
    copy = tmp_path / "g.duckdb"
    copy.write_bytes(db.read_bytes())
    import_files([again], db=copy)
    want = duplicates(copy, files=True)
    with duplicates_stream(copy, files=True, rows=1) as s:
        got = [tuple(r.values()) for b in s for r in b.to_pylist()]
        assert s.total == len(want) == 1
    assert got == [tuple(_plain(v) for v in row) for row in want.itertuples(index=False)]
    for fmt in ("csv", "json", "text"):
        out, ref = tmp_path / f"got.{fmt}", tmp_path / f"want.{fmt}"
        res = runner.invoke(app, ["duplicates", "--db", str(copy), "--files", "-f", fmt,
                                  "-o", str(out)])
        assert res.exit_code == 0, res.output
        emit(want, output(fmt, ref, [copy]))
        assert out.read_bytes() == ref.read_bytes(), fmt


@pytest.mark.parametrize("fmt", ["csv", "csv-raw", "json", "jsonl", "text"])
def test_the_command_writes_what_the_whole_table_writes(db: Path, tmp_path: Path,
                                                        fmt: str) -> None:
    ext = {"text": "txt", "csv-raw": "csv"}.get(fmt, fmt)
    got, want = tmp_path / f"got.{ext}", tmp_path / f"want.{ext}"
    res = runner.invoke(app, ["duplicates", "--db", str(db), "-f", fmt, "-o", str(got)])
    assert res.exit_code == 0, res.output
    emit(duplicates(db), output(fmt, want, [db]))
    assert got.read_bytes() == want.read_bytes()


def test_the_command_writes_the_same_parquet_rows(db: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    got = tmp_path / "got.parquet"
    res = runner.invoke(app, ["duplicates", "--db", str(db), "-f", "parquet", "-o", str(got)])
    assert res.exit_code == 0, res.output
    want = duplicates(db)
    rows = [tuple(r.values()) for r in pq.read_table(got).to_pylist()]
    assert rows == [tuple(_plain(v) for v in row) for row in want.itertuples(index=False)]


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "json"])
def test_standard_output_gets_the_same_bytes(db: Path, fmt: str) -> None:
    import contextlib
    import io

    res = runner.invoke(app, ["duplicates", "--db", str(db), "-f", fmt, "-o", "-"])
    assert res.exit_code == 0, res.output
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        emit(duplicates(db), output(fmt, "-", [db]))
    assert res.output == text.getvalue()
    lines = res.output.splitlines()
    assert len(lines) >= len(duplicates(db)) > 10


def test_a_stream_closed_early_leaves_the_database_as_it_was(db: Path) -> None:
    """Closed after its first batch (a reader gone): the rest is never listed, the
    temporary tables are dropped, and the database opened from its path is closed (a
    writer can open it)."""
    with duplicates_stream(db, rows=2) as s:
        first = next(iter(s))
        assert first.num_rows == 2 and s.total > 10
    with pytest.raises(Exception, match="closed"):
        next(iter(s))
    con = connect(db)  # read-write: nothing holds the file
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall() \
        == [(0,)]
    con.close()


def _whole_screen(db: Path, limit: int, wide: bool = False) -> str:
    """What ``pdnkit duplicates`` printed on the screen before it streamed: the whole table
    reshaped, then :func:`pdnkit.lean.tables.emit` (the reference)."""
    import contextlib
    import io

    df = duplicates(db)
    shown = df.drop(columns=["moves_hash", "game_ids", "canonical", "tags_differ"]).copy()
    shown["locations"] = ["\n".join(f"{Path(loc).name} ({kind})" for loc, kind in
                                    zip(locs, kinds, strict=True))
                          for locs, kinds in zip(shown["locations"], shown["kinds"], strict=True)]
    shown = shown.drop(columns=["kinds"])
    shown["differing_tags"] = [", ".join(t) for t in shown["differing_tags"]]
    shown["players"] = ["; ".join(p) for p in shown["players"]]
    counts = df["relation"].value_counts().to_dict() if len(df) else {}
    title = (f"{counts.get('copies', 0)} group(s) of copies, "
             f"{counts.get('same-moves', 0)} line(s) of other games with the same moves, "
             f"{counts.get('probable', 0)} pair(s) of probable copies to rule on"
             ) if len(df) else None
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        emit(shown, output(None, None, [db], wide=wide), limit=limit, empty="no copies",
             title=title)
    return text.getvalue()


@pytest.mark.parametrize(("limit", "wide"), [(50, False), (3, True), (0, False),
                                             (10**6, False), (-2, False)])
def test_the_screen_shows_what_the_whole_table_showed(db: Path, limit: int,
                                                      wide: bool) -> None:
    args = ["duplicates", "--db", str(db), "--limit", str(limit)] + ["--wide"] * wide
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert res.output == _whole_screen(db, limit, wide)
    assert "group(s) of copies" in res.output


def test_an_empty_database_says_no_copies(tmp_path: Path) -> None:
    db = tmp_path / "empty.duckdb"
    import_files([], db=db)
    res = runner.invoke(app, ["duplicates", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert res.output == _whole_screen(db, 50)
    assert "no copies" in res.output
    for fmt in ("csv", "json", "jsonl", "text"):
        got, want = tmp_path / f"got.{fmt}", tmp_path / f"want.{fmt}"
        res = runner.invoke(app, ["duplicates", "--db", str(db), "-f", fmt, "-o", str(got)])
        assert res.exit_code == 0, res.output
        emit(duplicates(db), output(fmt, want, [db]))
        assert got.read_bytes() == want.read_bytes(), fmt


@pytest.mark.slow
def test_real_files_list_the_same_rows_and_bytes(tmp_path: Path) -> None:
    """The shared real files of every variant (real copies, real names and texts): the
    stream's rows, a few records a chunk, and the command's bytes in every text format."""
    from tests.shared import shared_path

    db = tmp_path / "real.duckdb"
    import_files([shared_path("real")], db=db)
    want = duplicates(db)
    assert (want["relation"] == "copies").sum() > 10
    con = connect(db, read_only=True)
    with duplicate_stream(con, rows=7, chunk=3) as s:
        got = [tuple(r.values()) for b in s for r in b.to_pylist()]
    con.close()
    assert got == [tuple(_plain(v) for v in row) for row in want.itertuples(index=False)]
    for fmt in ("csv", "csv-raw", "json", "jsonl", "text"):
        out, ref = tmp_path / f"got.{fmt}", tmp_path / f"want.{fmt}"
        res = runner.invoke(app, ["duplicates", "--db", str(db), "-f", fmt, "-o", str(out)])
        assert res.exit_code == 0, res.output
        emit(want, output(fmt, ref, [db]))
        assert out.read_bytes() == ref.read_bytes(), fmt
    res = runner.invoke(app, ["duplicates", "--db", str(db), "--limit", "20"])
    assert res.exit_code == 0 and res.output == _whole_screen(db, 20)
