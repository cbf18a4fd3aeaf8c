"""Issue 16 points 8, 10 and 11: read commands cannot change the database nor reach files,
a database whose tables were dropped is refused, database errors are one line, and every
path of a file is recorded."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pdnkit.store import connect, import_files
from pdnkit.store.db import SCHEMA_VERSION, DatabaseError, SchemaError, schema_sql
from tests.store.safety_helpers import (
    GAME_A,
    GAME_B,
    cli,
    cli_process,
    collection,
    imported,
    one_error_line,
    read_only_copy,
    tmpfs,
)


def _count(db: Path, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute(sql).fetchall()[0][0])
    finally:
        con.close()


# ------------------------------------------------------------------------------------------
# point 8: read-only reads, no file access, the schema is checked, never repaired


@pytest.mark.parametrize("sql", [
    "DELETE FROM games",
    "DROP TABLE games",
    "UPDATE games SET white = 'x'",
    "CREATE TABLE t AS SELECT 1",
])
def test_query_is_read_only_by_default(tmp_path: Path, sql: str) -> None:
    db = imported(tmp_path)
    code, _, err = cli("query", sql, "--db", db)
    assert code == 2 and "--write" in one_error_line(err)
    assert _count(db, "SELECT count(*) FROM games") == 3


def test_query_runs_one_statement(tmp_path: Path) -> None:
    db = imported(tmp_path)
    code, _, err = cli("query", "SELECT 1; DROP TABLE games", "--db", db, "--write")
    assert code == 2 and "one at a time" in one_error_line(err)
    assert _count(db, "SELECT count(*) FROM games") == 3


@pytest.mark.parametrize("sql", [
    "COPY games TO '{out}'",
    "SELECT * FROM read_csv('{src}')",
    "ATTACH '{out}' AS other",
    "SELECT * FROM read_text('{src}')",
])
def test_query_cannot_reach_files(tmp_path: Path, sql: str) -> None:
    db = imported(tmp_path)
    out = tmp_path / "leak.csv"
    code, _, err = cli("query", sql.format(out=out, src=tmp_path / "src" / "a.pdn"),
                       "--db", db)
    assert code == 2 and "cannot read or write files" in one_error_line(err)
    assert not out.exists()


def test_export_where_cannot_reach_files(tmp_path: Path) -> None:
    db = imported(tmp_path)
    src = tmp_path / "src" / "a.pdn"
    code, _, err = cli("export", "--db", db, "--out", tmp_path / "e.pdn", "--where",
                       f"(SELECT count(*) FROM read_text('{src}')) > 0")
    assert code == 2 and "file" in one_error_line(err)
    assert not (tmp_path / "e.pdn").exists()


def test_query_write_allows_changes(tmp_path: Path) -> None:
    db = imported(tmp_path)
    code, _, err = cli("query", "DELETE FROM findings", "--db", db, "--write")
    assert code == 0, err
    code, _, err = cli("query", "CREATE TABLE mine AS SELECT 1 AS x", "--db", db, "--write")
    assert code == 0, err
    assert cli("stats", "results", "--db", db)[0] == 0  # a table of one's own is fine


def test_query_parquet_and_csv_outputs_still_work(tmp_path: Path) -> None:
    db = imported(tmp_path)
    out = tmp_path / "m.parquet"
    code, _, err = cli("query", "SELECT game_id, ply, path FROM moves", "--db", db,
                       "--format", "parquet", "--out", out)
    assert code == 0, err
    df = pd.read_parquet(out)
    assert len(df) == _count(db, "SELECT count(*) FROM moves") and list(df["path"][0]) == [32, 28]
    code, _, err = cli("query", "SELECT ply, path FROM moves ORDER BY game_id, ply LIMIT 1",
                       "--db", db, "--format", "csv", "--out", tmp_path / "m.csv")
    assert code == 0, err
    assert (tmp_path / "m.csv").read_text().splitlines() == ["ply,path", '1,"[32, 28]"']


def test_a_version_is_stored(tmp_path: Path) -> None:
    db = imported(tmp_path)
    con = duckdb.connect(str(db), read_only=True)
    meta = dict(con.execute("SELECT key, value FROM pdnkit_meta").fetchall())
    con.close()
    assert meta["schema_version"] == str(SCHEMA_VERSION)
    recorded = json.loads(meta["columns"])
    assert "raw_pdn" in recorded["games"] and "path" in recorded["file_paths"]


_RAW = ("ALTER TABLE games DROP COLUMN raw_pdn", "column games.raw_pdn")
_GAMES = ("DROP TABLE games", "table games")


@pytest.mark.parametrize("damage, what, command", [
    (*_GAMES, ["import", "{src}"]),
    ("DROP TABLE files", "table files", ["import", "{src}"]),
    ("DROP TABLE move_rows", "table move_rows", ["import", "{src}"]),
    (*_RAW, ["import", "{src}"]),
    ("ALTER TABLE files DROP COLUMN sha256", "column files.sha256", ["import", "{src}"]),
    (*_RAW, ["export", "--out", "{out}"]),
    (*_RAW, ["query", "SELECT 1"]),
    (*_GAMES, ["stats", "results"]),
    (*_GAMES, ["duplicates"]),
    (*_GAMES, ["query", "SELECT 1", "--write"]),
])
def test_a_damaged_database_is_refused_never_repaired(tmp_path: Path, damage: str, what: str,
                                                       command: list[str]) -> None:
    db = imported(tmp_path)
    con = duckdb.connect(str(db))
    con.execute(damage)
    con.close()
    tables = _tables(db)
    out = tmp_path / "e.pdn"
    args = [a.format(src=tmp_path / "src", out=out) for a in command]
    code, _, err = cli(*args, "--db", db)
    line = one_error_line(err)
    assert code == 2 and what in line and "does not match" in line
    assert _tables(db) == tables  # nothing recreated, nothing deleted
    assert not out.exists()


def _tables(db: Path) -> dict[str, list[str]]:
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT table_name, column_name FROM information_schema.columns "
                       "WHERE table_name IN (SELECT table_name FROM information_schema.tables "
                       "WHERE table_type = 'BASE TABLE') ORDER BY ALL").fetchall()
    counts = {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchall()[0][0]
              for t in {r[0] for r in rows}}
    con.close()
    out: dict[str, list[str]] = {}
    for t, c in rows:
        out.setdefault(f"{t} ({counts[t]} rows)", []).append(c)
    return out


def _legacy_database(db: Path, tmp_path: Path, drop: str | None = None) -> None:
    """A database as pdnkit wrote it before the schema version: no pdnkit_meta, no
    file_paths, a column missing that a later schema added."""
    import_files(collection(tmp_path / "src"), db=db)
    con = duckdb.connect(str(db))
    con.execute("DROP TABLE pdnkit_meta")
    con.execute("DROP TABLE file_paths")
    con.execute("ALTER TABLE games DROP COLUMN draw_basis")
    if drop:
        con.execute(drop)
    con.close()


def test_an_older_database_is_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    _legacy_database(db, tmp_path)
    con = connect(db)
    cols = [r[0] for r in con.execute("DESCRIBE games").fetchall()]
    assert "draw_basis" in cols
    assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 3
    paths = sorted(Path(r[0]).name for r in con.execute("SELECT path FROM file_paths").fetchall())
    assert paths == ["a.pdn", "b.pdn"]
    assert con.execute("SELECT value FROM pdnkit_meta WHERE key = 'schema_version'"
                       ).fetchall() == [(str(SCHEMA_VERSION),)]
    con.close()


def test_an_older_database_without_its_games_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    _legacy_database(db, tmp_path, "DROP TABLE games")
    with pytest.raises(SchemaError, match="games"):
        connect(db)
    assert "games" not in {t.split(" ")[0] for t in _tables(db)}


def test_an_older_read_only_database_is_refused_with_a_hint(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    _legacy_database(db, tmp_path)
    with read_only_copy(db, tmp_path / "ro") as ro:
        code, _, err = cli("stats", "results", "--db", ro)
        line = one_error_line(err)
        assert code == 2 and "older pdnkit" in line and f"pdnkit upgrade --db {ro}" in line


def test_a_duckdb_file_of_something_else_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE mine (x INTEGER)")
    con.close()
    code, _, err = cli("import", collection(tmp_path / "src"), "--db", db, "--quiet")
    assert code == 2 and "not a pdnkit one" in one_error_line(err)
    assert list(_tables(db)) == ["mine (0 rows)"]


def test_new_schema_columns_merge_without_a_new_version(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A column or table added to schema.sql later is added to a database recorded with
    the older schema (the expected tables come from schema.sql itself): not by a read, which
    names `pdnkit upgrade`, but by the upgrade (on a copy) that a write command makes."""
    from pdnkit.store import db as dbmod
    from pdnkit.store import schema as schemamod
    from pdnkit.store import upgrades as upmod
    from pdnkit.store.db import UpgradeNeededError

    db = imported(tmp_path)
    line = "    opening         VARCHAR,            -- Opening tag"
    assert line in schema_sql()
    text = schema_sql().replace(line, "    later_column    BOOLEAN,\n" + line) + \
        "\nCREATE TABLE IF NOT EXISTS later_table (a VARCHAR);\n" \
        "CREATE MACRO IF NOT EXISTS later_macro(x) AS x + 1;\n"
    for mod in (dbmod, schemamod, upmod):
        monkeypatch.setattr(mod, "schema_sql", lambda: text)
    monkeypatch.setattr(schemamod, "_REFERENCE", None)
    before = db.read_bytes()
    with pytest.raises(UpgradeNeededError, match="pdnkit upgrade --db"):
        connect(db, read_only=True)  # a read command never rewrites
    assert db.read_bytes() == before
    connect(db).close()  # a write command: upgraded on a copy, then opened
    assert db.with_name(db.name + f".schema{SCHEMA_VERSION}.bak").read_bytes() == before
    con = connect(db, read_only=True)
    cols = [r[0] for r in con.execute("DESCRIBE games").fetchall()]
    assert "later_column" in cols
    assert con.execute("SELECT count(*) FROM later_table").fetchall()[0][0] == 0
    assert con.execute("SELECT later_macro(1)").fetchall()[0][0] == 2
    con.close()
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE games DROP COLUMN later_column")
    con.close()
    with pytest.raises(SchemaError, match="later_column"):
        connect(db, read_only=True)


def test_the_expected_views_and_macros_are_the_schemas_own() -> None:
    """The views and macros read off schema.sql's text are exactly those DuckDB makes of it."""
    from pdnkit.store import schema as dbmod

    con = duckdb.connect()
    con.execute(schema_sql())
    assert dbmod._objects(con) == dbmod.reference_objects()
    assert ("macro", "move_text") in dbmod.reference_objects()


def test_a_missing_view_or_macro_is_made_again(tmp_path: Path) -> None:
    """Views and macros hold no data: one a later schema.sql added (or one dropped) is made
    again by `pdnkit upgrade` (a read command names it), and the tables stay as they were."""
    db = imported(tmp_path)
    con = duckdb.connect(str(db))
    con.execute("DROP MACRO move_text")
    con.execute("DROP VIEW positions")
    con.close()
    tables = _tables(db)
    code, out, err = cli("search", "--db", db, "--pattern", "W28:B19", "--format", "csv")
    assert code == 2 and "pdnkit upgrade --db" in one_error_line(err)
    code, out, err = cli("upgrade", "--db", db)
    assert code == 0, err
    code, out, err = cli("search", "--db", db, "--pattern", "W28:B19", "--format", "csv")
    assert code == 0, err
    con = connect(db, read_only=True)
    assert con.execute("SELECT move_text(NULL, NULL, 32, 28, []::INTEGER[])").fetchall() == [
        ("32-28",)]
    assert con.execute("SELECT count(*) FROM positions").fetchall()[0][0] > 0
    con.close()
    assert _tables(db) == tables


def test_every_read_command_works_on_a_read_only_database(tmp_path: Path) -> None:
    db = imported(tmp_path)
    out = tmp_path / "out"
    with read_only_copy(db, tmp_path / "ro") as ro:
        before = ro.read_bytes()
        commands = [
            ["query", "SELECT count(*) AS n FROM games", "--format", "csv"],
            ["export", "--out", out / "e.pdn"],
            ["duplicates"], ["duplicates", "--files"],
            ["stats", "results"], ["stats", "openings"], ["stats", "players"],
            ["stats", "findings"], ["stats", "lengths"], ["tree"],
            ["report", "collection"], ["report", "endgame", "--out", out / "e.html"],
            ["plot", "lengths", "--out", out / "l.png"],
        ]
        for command in commands:
            code, stdout, err = cli(*command, "--db", ro)
            assert code == 0, (command, err)
        assert cli("query", "SELECT count(*) AS n FROM games", "--db", ro, "-f", "csv")[1] \
            == "n\n3\n"
        code, _, err = cli("import", tmp_path / "src", "--db", ro, "--quiet")
        assert code == 2 and "no write access" in one_error_line(err)
        assert ro.read_bytes() == before
        assert sorted(p.name for p in ro.parent.iterdir()) == ["g.duckdb"]


# ------------------------------------------------------------------------------------------
# point 10: database errors are one line, exit 2, nothing half-written


def test_a_database_in_use_is_one_line(tmp_path: Path) -> None:
    db = imported(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", f"import duckdb, sys, time; c = duckdb.connect({str(db)!r}); "
         "print('ready', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        for command in (["import", tmp_path / "src", "--quiet"], ["stats", "results"],
                        ["query", "SELECT 1"]):
            code, _, err = cli(*command, "--db", db)
            line = one_error_line(err)
            assert code == 2 and "in use by another process" in line and "wait" in line
    finally:
        holder.communicate("", timeout=30)


def test_a_corrupt_database_is_one_line_and_untouched(tmp_path: Path) -> None:
    db = tmp_path / "bad.duckdb"
    junk = os.urandom(50_000)
    db.write_bytes(junk)
    for command in (["import", collection(tmp_path / "src"), "--quiet"], ["query", "SELECT 1"],
                    ["stats", "results"], ["export", "--out", tmp_path / "e.pdn"]):
        code, _, err = cli(*command, "--db", db)
        line = one_error_line(err)
        assert code == 2 and "not a readable" in line and "untouched" in line
    assert db.read_bytes() == junk
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.duckdb", "src"]


def test_a_read_only_folder_is_one_line(tmp_path: Path) -> None:
    with read_only_copy(imported(tmp_path), tmp_path / "ro") as ro:
        code, _, err = cli("import", tmp_path / "src", "--db", ro.parent / "new.duckdb",
                           "--quiet")
        assert code == 2 and "no write access" in one_error_line(err)


def _limit_file_size(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


#: the games of the collection that fills the small disk
BIG_GAMES = 40_000


def _big_collection(folder: Path, games: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join(GAME_A.replace('"A"', f'"A{i}"') + GAME_B for i in range(games // 2))
    (folder / "big.pdn").write_text(text, encoding="utf-8")
    return folder / "big.pdn"


@pytest.mark.slow
@pytest.mark.parametrize("how", ["tmpfs", "rlimit"])
def test_a_full_disk_is_one_line_and_keeps_what_was_loaded(tmp_path: Path, how: str) -> None:
    src = collection(tmp_path / "src")
    # a 3 MB disk: the big file's database must not fit (12,000 of these short games took
    # 2.0 MB once the first positions were stored in runs and the games lost their key's index)
    big = _big_collection(tmp_path / "bigsrc", BIG_GAMES)
    with tmpfs(tmp_path / "disk", "3m" if how == "tmpfs" else "1g") as mounted:
        if how == "tmpfs" and mounted is None:
            pytest.skip("cannot mount a tmpfs here")
        db = tmp_path / "disk" / "g.duckdb"
        r = cli_process("import", src, "--db", db, "--quiet")
        assert r.returncode == 0, r.stderr
        size = sum(p.stat().st_size for p in db.parent.iterdir())
        preexec = _limit_file_size(size + 200_000) if how == "rlimit" else None
        r = cli_process("import", big, "--db", db, "--quiet", preexec=preexec)
        line = one_error_line(r.stderr)
        assert r.returncode == 2 and "disk is full" in line, r.stderr
        assert "rolled back" in line
        # the earlier file intact
        assert _count(db, "SELECT count(*) FROM games WHERE game_id <= 3") == 3
        assert _count(db, "SELECT count(DISTINCT game_id) FROM moves WHERE game_id <= 3") == 3
        if _count(db, "SELECT count(*) FROM files") == 2:  # the big file's transaction failed
            assert _count(db, "SELECT count(*) FROM games") == 3
            assert _count(db, "SELECT count(*) FROM moves WHERE game_id > 3") == 0
            return
        if "opening counts" in line:  # all but the opening counts fitted: they wait
            assert _count(db, "SELECT count(*) FROM games") == BIG_GAMES + 3
            assert _count(db, "SELECT count(*) FROM (SELECT game_id FROM copy_pending UNION "
                              "SELECT game_id FROM opening_pending)") == 0
            return
        # the big file fitted (with its positions in the index) and the import's end did not:
        # the file is whole and its games keep their marks for the next import to settle
        assert "still wait" in line, r.stderr
        assert _count(db, "SELECT count(*) FROM games") == BIG_GAMES + 3
        assert _count(db, "SELECT count(DISTINCT game_id) FROM moves WHERE game_id > 3") == BIG_GAMES
        assert _count(db, "SELECT count(*) FROM (SELECT game_id FROM copy_pending UNION "
                          "SELECT game_id FROM opening_pending)") == BIG_GAMES


def test_missing_database_for_a_read_command_is_not_created(tmp_path: Path) -> None:
    for command in (["query", "SELECT 1"], ["duplicates"], ["stats", "results"]):
        code, _, err = cli(*command, "--db", tmp_path / "none.duckdb")
        assert code == 2 and "none.duckdb" in one_error_line(err)
    assert list(tmp_path.iterdir()) == []


def test_connect_errors_are_database_errors(tmp_path: Path) -> None:
    (tmp_path / "folder.duckdb").mkdir()
    with pytest.raises(DatabaseError, match="not a file"):
        connect(tmp_path / "folder.duckdb")


# ------------------------------------------------------------------------------------------
# point 11: every path of a file is recorded; duplicates --files


def test_the_same_bytes_under_another_name_are_recorded(tmp_path: Path) -> None:
    db = imported(tmp_path)
    copy = tmp_path / "elsewhere" / "copy.pdn"
    copy.parent.mkdir()
    copy.write_bytes((tmp_path / "src" / "a.pdn").read_bytes())
    code, out, err = cli("import", copy, "--db", db, "--quiet")
    assert code == 0, err
    assert "1 already present" in out and "same bytes as" in out and "a.pdn" in out
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT f.file_id, p.path FROM file_paths p JOIN files f "
                       "USING (file_id) ORDER BY p.first_seen").fetchall()
    games = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    con.close()
    assert games == 3  # loaded once
    names = {Path(p).name: fid for fid, p in rows}
    assert names["copy.pdn"] == names["a.pdn"] and len(rows) == 3
    # importing it again records nothing new
    cli("import", copy, "--db", db, "--quiet")
    assert _count(db, "SELECT count(*) FROM file_paths") == 3

    code, out, err = cli("duplicates", "--files", "--db", db, "--format", "json")
    assert code == 0, err
    groups = json.loads(out)
    assert len(groups) == 1 and groups[0]["names"] == 2
    assert [Path(p).name for p in groups[0]["paths"]] == ["a.pdn", "copy.pdn"]
    code, out, _ = cli("duplicates", "--files", "--db", db, "--wide")  # paths whole however
    assert "copy.pdn" in out and "a.pdn" in out                       # deep the folder is


def test_editing_one_name_of_a_shared_file_keeps_the_other(tmp_path: Path) -> None:
    db = imported(tmp_path)
    a = tmp_path / "src" / "a.pdn"
    copy = tmp_path / "copy.pdn"
    copy.write_bytes(a.read_bytes())
    cli("import", copy, "--db", db, "--quiet")
    a.write_text(GAME_B, encoding="utf-8")  # a.pdn edited; copy.pdn keeps the old bytes
    code, _, err = cli("import", a, "--db", db, "--quiet")
    assert code == 0, err
    con = duckdb.connect(str(db), read_only=True)
    by_file = dict(con.execute(
        "SELECT p.path, f.games FROM file_paths p JOIN files f USING (file_id)").fetchall())
    paths = dict(con.execute("SELECT path, file_id FROM files").fetchall())
    con.close()
    assert by_file[str(copy)] == 2 and by_file[str(a.resolve())] == 1
    assert str(copy) in paths  # the old file is now known by its remaining name


def test_replace_keeps_every_name(tmp_path: Path) -> None:
    db = imported(tmp_path)
    copy = tmp_path / "copy.pdn"
    copy.write_bytes((tmp_path / "src" / "a.pdn").read_bytes())
    cli("import", copy, "--db", db, "--quiet")
    code, _, err = cli("import", copy, "--db", db, "--quiet", "--replace")
    assert code == 0, err
    assert _count(db, "SELECT count(*) FROM file_paths") == 3
    assert _count(db, "SELECT count(*) FROM games") == 3

