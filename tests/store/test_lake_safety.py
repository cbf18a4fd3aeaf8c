"""Issue 26 points 2, 3, 6 and 6a for lakes and databases: two imports at once (real
processes), a lake copied or moved reads its own parts and never deletes the original's, a
read-only query on a lake reads and writes no file, a damaged lake says so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from pdnkit.lake import import_lake, lake_summary, read_manifest
from pdnkit.store import connect
from tests.store.safety_helpers import GAME_A, GAME_B, GAME_C, ROOT, cli, one_error_line

GAMES = [GAME_A, GAME_B, GAME_C]


def _sources(folder: Path, n: int = 3, games: int = 30) -> list[Path]:
    """``n`` PDN files of ``games`` games each (distinct bytes)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        p = folder / f"s{i}.pdn"
        p.write_text("".join(GAMES[(i + g) % 3].replace('"A"', f'"A{i}-{g}"')
                             for g in range(games)), encoding="utf-8")
        out.append(p)
    return out


def _start(*args: str | Path, **env: str) -> subprocess.Popen[str]:
    full = dict(os.environ, PYTHONPATH=str(ROOT), **env)
    return subprocess.Popen([sys.executable, "-m", "pdnkit", *map(str, args)], env=full,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(marker: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert marker.exists(), proc.communicate()


def _ids(con: duckdb.DuckDBPyConnection) -> tuple[int, int, int, int]:
    return con.execute("SELECT count(*), count(DISTINCT game_id), "
                       "(SELECT count(*) FROM files), (SELECT count(DISTINCT file_id) FROM files) "
                       "FROM games").fetchall()[0]


# ------------------------------------------------------------------------------------------
# point 2: two imports at once


def test_a_second_import_into_a_lake_waits_for_the_first(tmp_path: Path) -> None:
    """While one import holds the lake, a second one is refused naming it; nothing of the
    second is written, and afterwards the lake reads with unique ids."""
    a, b, c = _sources(tmp_path / "src")
    lake = tmp_path / "lake"
    marker = tmp_path / "paused"
    first = _start("import", a, b, "--lake", lake, "--engine", "local", "--quiet",
                   PDNKIT_PAUSE_AT=f"lake.parts-written={marker}")
    _wait_for(marker, first)
    second = _start("import", c, "--lake", lake, "--engine", "local", "--quiet")
    _, err = second.communicate(timeout=300)
    line = one_error_line(err)
    assert second.returncode == 2 and "in use by another process" in line
    assert f"pid {first.pid}" in line and "import" in line
    marker.unlink()
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert [Path(e.path).name for e in read_manifest(lake)] == ["s0.pdn", "s1.pdn"]
    code, _, err = cli("import", c, "--lake", lake, "--engine", "local", "--quiet")
    assert code == 0, err
    con = connect(lake)
    games, distinct, files, distinct_files = _ids(con)
    assert games == distinct == 90 and files == distinct_files == 3
    con.close()
    assert not (lake / ".pdnkit-lock").exists()


def test_two_imports_racing_into_a_lake_never_collide(tmp_path: Path) -> None:
    """Started together: each either imports or is refused as in use; the lake then reads
    (before the lock, both exited 0 with the same ids and every read failed)."""
    srcs = _sources(tmp_path / "src", n=4)
    lake = tmp_path / "lake"
    procs = [_start("import", *srcs[i::2], "--lake", lake, "--engine", "local", "--quiet")
             for i in range(2)]
    results = [(p.wait(timeout=300), p.communicate()[1]) for p in procs]
    for code, err in results:
        assert code == 0 or (code == 2 and "in use" in one_error_line(err)), err
    con = connect(lake)
    games, distinct, files, distinct_files = _ids(con)
    assert games == distinct and files == distinct_files
    assert games == 30 * sum(2 for code, _ in results if code == 0)
    con.close()


def test_a_second_import_into_a_database_is_refused_whole(tmp_path: Path) -> None:
    """Two imports into one DuckDB file: the second says the database is in use by the
    first's pid, and nothing of it is written."""
    a, b, c = _sources(tmp_path / "src")
    db = tmp_path / "g.duckdb"
    marker = tmp_path / "paused"
    first = _start("import", a, b, "--db", db, "--quiet",
                   PDNKIT_PAUSE_AT=f"import.file-loaded={marker}")
    _wait_for(marker, first)
    second = _start("import", c, "--db", db, "--quiet")
    _, err = second.communicate(timeout=300)
    line = one_error_line(err)
    assert second.returncode == 2, err
    assert "is in use by another process" in line and f"pid {first.pid}" in line
    marker.unlink()
    _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    con = duckdb.connect(str(db), read_only=True)
    names = sorted(Path(r[0]).name for r in con.execute("SELECT path FROM files").fetchall())
    assert names == ["s0.pdn", "s1.pdn"]
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchall() == [
        (60, 60)]
    con.close()


# ------------------------------------------------------------------------------------------
# point 3: paths relative to the lake


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _absolute_manifest(lake: Path) -> None:
    """The manifest as lakes wrote it before: every part by its absolute path."""
    for name in (lake / "_manifest").glob("*.json"):
        entry = json.loads(name.read_text(encoding="utf-8"))
        for chunk in entry["chunks"]:
            chunk["parts"] = {t: str(lake / p) for t, p in chunk["parts"].items()}
        name.write_text(json.dumps(entry), encoding="utf-8")


@pytest.fixture(params=["relative", "absolute (an older lake)"])
def lake(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, list[Path]]:
    srcs = _sources(tmp_path / "src")
    lake = tmp_path / "orig.lake"
    import_lake(srcs, lake, engine="local", chunk_bytes=2_000)
    parts = [p for e in read_manifest(lake) for c in e.chunks for p in c["parts"].values()]
    assert parts and not any(p.startswith("/") for p in parts)  # written relative
    if request.param != "relative":
        _absolute_manifest(lake)
    return lake, srcs


def _games(db: Path) -> int:
    con = connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM games").fetchall()[0][0])
    finally:
        con.close()


def test_replace_on_a_copied_lake_leaves_the_original_intact(lake, tmp_path: Path) -> None:
    orig, srcs = lake
    copy = tmp_path / "copy.lake"
    shutil.copytree(orig, copy)
    before = _tree(orig)
    code, _, err = cli("import", *srcs, "--lake", copy, "--engine", "local", "--replace",
                       "--quiet")
    assert code == 0, err
    assert _tree(orig) == before  # not one file of the original deleted or changed
    assert _games(copy) == _games(orig) == 90
    shutil.rmtree(orig)  # the copy reads its own parts
    assert _games(copy) == 90


def test_a_moved_lake_reads(lake, tmp_path: Path) -> None:
    orig, _ = lake
    moved = tmp_path / "elsewhere" / "moved.lake"
    moved.parent.mkdir()
    orig.rename(moved)
    assert _games(moved) == 90
    code, out, err = cli("lake", "info", moved)
    assert code == 0 and "DAMAGED" not in out, out + err
    code, out, err = cli("upgrade", "--db", moved)  # the manifest: paths relative to the lake
    assert code == 0, err
    parts = [p for e in read_manifest(moved) for c in e.chunks for p in c["parts"].values()]
    assert not any(p.startswith("/") for p in parts)
    assert _games(moved) == 90


def test_a_part_outside_the_lake_is_never_read_nor_deleted(tmp_path: Path) -> None:
    """An entry naming a part outside the lake (a copy whose part is missing) is damage
    to report, not a file to read from elsewhere; a replace deletes nothing outside."""
    srcs = _sources(tmp_path / "src", n=1)
    orig = tmp_path / "orig.lake"
    import_lake(srcs, orig, engine="local")
    _absolute_manifest(orig)
    copy = tmp_path / "copy.lake"
    shutil.copytree(orig, copy)
    for p in (copy / "games").glob("*.parquet"):
        p.unlink()
    code, _, err = cli("query", "SELECT count(*) FROM games", "--db", copy)
    line = one_error_line(err)
    assert code == 2 and "damaged part" in line and str(copy / "games") in line
    before = _tree(orig)
    code, out, err = cli("import", *srcs, "--lake", copy, "--engine", "local", "--quiet")
    assert code == 0, err  # its parts were damaged: reloaded
    assert _tree(orig) == before
    assert _games(copy) == 30


# ------------------------------------------------------------------------------------------
# point 6: a read-only query on a lake reaches no file


@pytest.fixture()
def plain_lake(tmp_path: Path) -> Path:
    lake = tmp_path / "l.lake"
    import_lake(_sources(tmp_path / "src", n=1), lake, engine="local")
    return lake


@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/hostname')",
    "COPY (SELECT 1 AS a) TO '{out}'",
    "COPY (SELECT * FROM games) TO '{part}' (FORMAT parquet, USE_TMP_FILE false)",
    "ATTACH '{out}.duckdb' AS x",
    "SET enable_external_access = true",
    "INSTALL httpfs",
])
def test_a_query_on_a_lake_reads_and_writes_no_file(plain_lake: Path, tmp_path: Path,
                                                    sql: str) -> None:
    part = next((plain_lake / "games").glob("*.parquet"))
    before = _tree(plain_lake)
    out = tmp_path / "leak.csv"
    code, stdout, err = cli("query", sql.format(out=out, part=part), "--db", plain_lake)
    assert code == 2, stdout
    one_error_line(err)
    assert "root:" not in stdout + err
    assert not out.exists() and not Path(f"{out}.duckdb").exists()
    assert _tree(plain_lake) == before


def test_export_where_and_write_on_a_lake_are_refused(plain_lake: Path, tmp_path: Path
                                                     ) -> None:
    out = tmp_path / "e.pdn"
    code, _, err = cli("export", "--db", plain_lake, "--out", out, "--where",
                       "EXISTS (SELECT * FROM read_csv('/etc/passwd'))")
    assert code == 2 and not out.exists(), err
    one_error_line(err)
    code, _, err = cli("query", "--write", "DELETE FROM games", "--db", plain_lake)
    assert code == 2 and "read-only" in one_error_line(err)
    code, stdout, err = cli("query", "SELECT count(*) AS n FROM games", "--db", plain_lake,
                            "--format", "csv")
    assert code == 0 and stdout == "n\n30\n", err  # reading the lake itself still works
    code, _, err = cli("stats", "results", "--db", plain_lake)
    assert code == 0, err


# ------------------------------------------------------------------------------------------
# point 6a: a damaged lake says so


def test_a_truncated_part_is_reported_and_reloaded(tmp_path: Path) -> None:
    srcs = _sources(tmp_path / "src", n=2)
    lake = tmp_path / "l.lake"
    import_lake(srcs, lake, engine="local")
    part = sorted((lake / "move_rows").glob("*.parquet"))[0]
    data = part.read_bytes()
    part.write_bytes(data[: len(data) // 2])
    code, out, err = cli("lake", "info", lake)
    assert code == 1 and "DAMAGED" in out and str(part) in out, out
    assert "pdnkit import" in out and "s0.pdn" in out
    assert lake_summary(lake)["damaged_sources"] == [str(srcs[0])]
    code, _, err = cli("query", "SELECT count(*) FROM moves", "--db", lake)
    line = one_error_line(err)
    assert code == 2 and str(part) in line and "lake info" in line
    code, out, err = cli("import", *srcs, "--lake", lake, "--engine", "local", "--quiet")
    assert code == 0 and "1 file(s) imported, 1 already present" in out, out + err
    code, out, err = cli("lake", "info", lake)
    assert code == 0 and "DAMAGED" not in out
    assert _games(lake) == 60


def test_a_part_with_other_rows_than_the_manifest_says_is_damaged(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    lake = tmp_path / "l.lake"
    import_lake(_sources(tmp_path / "src", n=1), lake, engine="local")
    part = next((lake / "games").glob("*.parquet"))
    table = pq.read_table(part)
    pq.write_table(table.slice(0, max(table.num_rows - 1, 0)), part)
    info = lake_summary(lake)
    assert len(info["damaged"]) == 1 and "the manifest says" in info["damaged"][0]
