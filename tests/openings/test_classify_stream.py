"""Openings of a database classified a part at a time (:func:`pdnkit.store.openinglist.
classify_stream`, what ``pdnkit openings classify`` writes to a file or a pipe): the rows do
not depend on where the parts are cut, nor on which games' tags the SQL hands to Python (only
those that may hold an opening tag), and the command's output in every format is what the
whole table's writer (:func:`pdnkit.lean.tables.emit`) writes of :func:`classify`; and a
database filled again (:func:`pdnkit.store.openingdb.fill_database`) a range of games at a time
holds what one pass over every game writes."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.lean.tables import emit, output
from pdnkit.samples import sample_dir
from pdnkit.store import import_files, openingdb, openinglist
from pdnkit.store.openinglist import classify, classify_stream
from pdnkit.store.session import READ_ONCE_MEMORY, scanning

runner = CliRunner()

#: opening tags as files spell them: other cases, spaces, the Russian name, and names that
#: only look like one
_NAMES = ["Opening", "OPENING", "opening", "Ballot", "ECO", "Debut", "Apertura", "Дебют",
          "ДЕБЮТ", "Openings", "MyOpening", "Round"]
#: what they say: entries of the shipped tables, codes, placeholders and nonsense
_VALUES = ["Old Fourteenth", "Inferno", "ACF 126", "Edinburgh", "Kozlov Gambit", "?", "-",
           "Chefneux opening", "Городская партия", "Отказанный обратный кол", "I-1", "zzz"]


def _tagged(src: Path, out: Path, rng: random.Random) -> None:
    """``src`` with seeded opening tags (0 to 2 a game) after each game's Event tag."""
    def add(m: re.Match[str]) -> str:
        extra = "".join(f'\n[{rng.choice(_NAMES)} "{rng.choice(_VALUES)}"]'
                        for _ in range(rng.choice([0, 0, 1, 1, 2])))
        return m.group(0) + extra

    text = src.read_text(encoding="utf-8", errors="replace")
    out.write_text(re.sub(r"\[Event [^\n]*\]", add, text), encoding="utf-8")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cls")
    rng = random.Random(20261205)
    files = []
    for src in sorted(sample_dir().glob("*.pdn")):
        if src.name.startswith("flawed-cp"):
            continue
        _tagged(src, d / src.name, rng)
        files.append(d / src.name)
    files.append(d / "again.pdn")  # copies of some games, so that copies are left out
    files[-1].write_text((d / "russian.pdn").read_text(encoding="utf-8"), encoding="utf-8")
    path = d / "c.duckdb"
    import_files(files, db=path)
    return path


def _plain(v: object) -> object:
    """A DataFrame's cell as Arrow gives it: NULL for pandas' missing values, numpy's
    numbers as Python's."""
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return None
    return v.item() if hasattr(v, "item") else v


def _rows(**kw: object) -> list[tuple[object, ...]]:
    df = classify(**kw)  # type: ignore[arg-type]
    return [tuple(_plain(v) for v in r) for r in df.itertuples(index=False)]


def test_the_data_checks_every_verdict(db: Path) -> None:
    df = classify(db=db, all_copies=True)
    assert len(df) > 150
    assert {"agrees", "disagrees", "unknown"} <= set(df["tag_verdict"].dropna())
    assert df["tag"].notna().sum() > 20
    assert len(classify(db=db)) < len(df)  # the copies left out


@pytest.mark.parametrize("chunk", [1, 2, 7, 40])
@pytest.mark.parametrize("kw", [{}, {"all_copies": True}, {"variant": "english"}])
def test_the_rows_do_not_depend_on_where_the_parts_are_cut(
        db: Path, chunk: int, kw: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _rows(db=db, **kw)  # the database in one part, as one statement read it
    monkeypatch.setattr(openingdb, "CHUNK_GAMES", chunk)
    assert _rows(db=db, **kw) == whole
    with classify_stream(db=db, **kw) as s:  # type: ignore[arg-type]
        sizes = [b.num_rows for b in s]
    assert sum(sizes) == len(whole) and max(sizes) <= chunk


def test_only_tags_that_cannot_matter_stay_in_sql(db: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _rows(db=db, all_copies=True)
    monkeypatch.setattr(openinglist, "_MAY_NAME_OPENING", "TRUE")  # every game's tags
    assert _rows(db=db, all_copies=True) == kept


def test_a_database_is_read_with_a_small_pool_and_closed(db: Path) -> None:
    import duckdb

    def limit(con: duckdb.DuckDBPyConnection) -> str:
        return str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])

    with scanning(db) as con:
        assert limit(con) == limit(duckdb.connect(config={"memory_limit": READ_ONCE_MEMORY}))
    with scanning(":memory:") as con:  # not a file: DuckDB's default pool
        assert limit(con) == limit(duckdb.connect())
    s = classify_stream(db=db)
    next(iter(s))
    s.close()

    duckdb.connect(str(db)).close()  # writable again: the stream's connection is gone


def test_files_stream_in_parts(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(sample_dir().glob("*.pdn"))
    monkeypatch.setattr(openinglist, "_FILE_ROWS", 9)
    with classify_stream(files) as s:
        batches = [b.to_pylist() for b in s]
    assert max(len(b) for b in batches) <= 9
    got = [tuple(r.values()) for b in batches for r in b]
    assert got == _rows(paths=files)


@pytest.mark.parametrize("fmt", ["csv", "csv-raw", "json", "jsonl", "text"])
def test_the_command_writes_what_the_whole_table_writes(db: Path, tmp_path: Path,
                                                        fmt: str) -> None:
    ext = {"text": "txt", "csv-raw": "csv"}.get(fmt, fmt)
    got, want = tmp_path / f"got.{ext}", tmp_path / f"want.{ext}"
    res = runner.invoke(app, ["openings", "classify", "--db", str(db), "-f", fmt,
                              "-o", str(got)])
    assert res.exit_code == 0, res.output
    emit(classify(db=db), output(fmt, want, [db]))
    assert got.read_bytes() == want.read_bytes()
    assert ".0," not in got.read_text(encoding="utf-8")  # a ply is an integer


def test_parquet_holds_the_same_values(db: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    got = tmp_path / "got.parquet"
    res = runner.invoke(app, ["openings", "classify", "--db", str(db), "-o", str(got)])
    assert res.exit_code == 0, res.output
    assert [tuple(r.values()) for r in pq.read_table(got).to_pylist()] == _rows(db=db)


def test_the_screen_counts_the_games(db: Path) -> None:
    res = runner.invoke(app, ["openings", "classify", "--db", str(db), "--variant", "russian"])
    assert res.exit_code == 0, res.output
    assert f"openings ({len(classify(db=db, variant='russian'))} games)" in res.output


@pytest.mark.parametrize("chunk", [1, 3, 50])
def test_the_database_is_filled_the_same_a_range_at_a_time(
        db: Path, tmp_path: Path, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from pdnkit.store import connect

    def filled(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        shutil.copy(db, path)
        con = connect(path)
        try:
            con.execute("UPDATE games SET opening_code = NULL, opening_name = NULL, "
                        "opening_ply = NULL, opening_family = NULL, opening_mirrored = NULL")
            con.execute("DELETE FROM findings WHERE code = 'opening-tag-mismatch'")
            openingdb.fill_database(con)
            games = con.execute("SELECT game_id, opening_code, opening_name, opening_ply, "
                                "opening_family, opening_mirrored, novelty_ply FROM games "
                                "ORDER BY game_id").fetchall()
            found = con.execute("SELECT game_id, message, line FROM findings WHERE code = "
                                "'opening-tag-mismatch' ORDER BY ALL").fetchall()
            return games, found
        finally:
            con.close()

    whole = filled(tmp_path / "whole.duckdb")
    assert whole[1] and any(r[1] for r in whole[0])  # findings and openings to compare
    monkeypatch.setattr(openingdb, "CHUNK_GAMES", chunk)
    assert filled(tmp_path / "parts.duckdb") == whole
