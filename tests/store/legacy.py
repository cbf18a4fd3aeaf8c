"""Databases as an older pdnkit wrote them, for the upgrade tests.

:func:`version_4_database` runs the code of commit 93d8a07 (schema version 4, the last before
``result_source``) in a subprocess, from ``git archive`` of that commit, to import the bundled
samples; where git or the commit is not there it builds the same layout from today's schema
(the columns and table version 5 added dropped, the version-4 ``player_name`` macro, the
version-4 record). Either way the database also holds what a user may have added: an alias,
an alias of a player to itself (version 5 drops those), a table, a column and a view of their
own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import duckdb

from pdnkit.samples import sample_dir

ROOT = Path(__file__).resolve().parents[2]
#: the last commit of schema version 4
V4_COMMIT = "93d8a0726eceb1e90762f784fcf69279d4a24ee8"

V4_PLAYER_NAME = """CREATE OR REPLACE MACRO player_name(n) AS coalesce(
    (SELECT any_value(a.name) FROM player_aliases a WHERE a.alias = trim(n)),
    CASE WHEN n IS NULL OR lower(trim(n)) IN ('', '?', '??', '-', 'white', 'black', 'red',
        'n.n.', 'n.n', 'nn', 'unknown', 'anonymous') THEN NULL ELSE trim(n) END)"""


def _old_code(folder: Path) -> Path | None:
    """The pdnkit of :data:`V4_COMMIT` unpacked in ``folder`` (``None`` without git)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    archive = folder / "v4.tar"
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), V4_COMMIT,
                           "pdnkit", "grammars"], capture_output=True)
    if done.returncode != 0:
        return None
    code = folder / "v4-code"
    with tarfile.open(archive) as tar:
        tar.extractall(code, filter="data")
    return code


def _from_old_code(code: Path, db: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(code))
    script = ("import sys; from pdnkit.store import import_files; "
              "import_files([sys.argv[1]], db=sys.argv[2])")
    subprocess.run([sys.executable, "-c", script, str(sample_dir()), str(db)], env=env, cwd=code,
                   check=True, capture_output=True, timeout=300)


def _from_schema_history(db: Path) -> None:
    """Today's import, then the layout of version 4: no ``result_source`` and ``raw_pieces``
    columns, no ``raw_pieces`` table, the old macro and record."""
    from pdnkit.store import import_files

    import_files([sample_dir()], db=db)
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE games DROP COLUMN result_source")
    con.execute("ALTER TABLE games DROP COLUMN raw_pieces")
    con.execute("DROP TABLE raw_pieces")
    con.execute(V4_PLAYER_NAME)
    record_as(con, "4")
    con.close()


def record_as(con: duckdb.DuckDBPyConnection, version: str) -> None:
    """The ``pdnkit_meta`` record of schema ``version`` with the tables as they are."""
    cols: dict[str, list[str]] = {}
    for t, c in con.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_name IN "
            "(SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE')"
            " ORDER BY table_name, ordinal_position").fetchall():
        cols.setdefault(t, []).append(c)
    con.execute("UPDATE pdnkit_meta SET value = ? WHERE key = 'schema_version'", [version])
    con.execute("UPDATE pdnkit_meta SET value = ? WHERE key = 'columns'",
                [json.dumps(cols, sort_keys=True)])


def version_4_database(folder: Path) -> tuple[Path, str]:
    """A version-4 database in ``folder`` and how it was made (``"93d8a07"`` or
    ``"schema history"``), with the user's own additions."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "v4.duckdb"
    code = _old_code(folder)
    if code is not None:
        _from_old_code(code, db)
        how = "93d8a07"
    else:
        _from_schema_history(db)
        how = "schema history"
    con = duckdb.connect(str(db))
    assert con.execute("SELECT value FROM pdnkit_meta WHERE key = 'schema_version'"
                       ).fetchall() == [("4",)]
    con.execute("INSERT INTO player_aliases VALUES ('A. Player', 'Ann Player'), "
                "('Ann Player', 'Ann Player')")
    con.execute("CREATE TABLE my_notes AS SELECT game_id, 'seen' AS note FROM games LIMIT 5")
    con.execute("ALTER TABLE games ADD COLUMN my_flag BOOLEAN")
    con.execute("UPDATE games SET my_flag = game_id % 2 = 0")
    con.execute("CREATE VIEW my_long_games AS SELECT game_id FROM games WHERE plies > 60")
    con.close()
    return db, how


#: the tables whose rows an upgrade to version 5 keeps as they are (player_aliases loses its
#: self-aliases, variants is made anew, pdnkit_meta gets the new record)
KEPT_TABLES = ("files", "file_paths", "games", "move_rows", "position_bits", "findings",
               "rule_events", "layouts", "my_notes")


def table_columns(db: Path) -> dict[str, list[str]]:
    """The columns of each kept table of ``db`` (what :func:`table_rows` compares)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: [r[0] for r in con.execute(f"DESCRIBE {t}").fetchall()]
                for t in KEPT_TABLES}
    finally:
        con.close()


def table_rows(db: Path, columns: dict[str, list[str]]) -> dict[str, list[tuple[object, ...]]]:
    """The rows of every kept table (``columns`` of each, in a stable order), the aliases
    without self-aliases, and the user's view; read with DuckDB alone."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out: dict[str, list[tuple[object, ...]]] = {}
        for table in KEPT_TABLES:
            out[table] = con.execute(f"SELECT {', '.join(columns[table])} FROM {table} "
                                     "ORDER BY ALL").fetchall()
        out["player_aliases"] = con.execute(
            "SELECT alias, name FROM player_aliases WHERE alias <> name ORDER BY ALL").fetchall()
        out["my_long_games"] = con.execute("SELECT * FROM my_long_games ORDER BY ALL").fetchall()
        return out
    finally:
        con.close()


def schema_version_of(db: Path) -> int:
    """The version a database records, read with DuckDB alone (it must open)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute("SELECT value FROM pdnkit_meta WHERE key = 'schema_version'"
                               ).fetchall()[0][0])
    finally:
        con.close()
