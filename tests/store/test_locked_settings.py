"""A read-only ``query`` cannot change DuckDB's settings: ``SET threads=1000000`` started
threads until the process died (a segmentation fault, exit 139), ``SET memory_limit='1TB'``
and ``SET lock_configuration=false`` were accepted. The read-only connection now has its
settings locked (DuckDB's ``lock_configuration``), and ``query`` refuses a statement that
configures with one line naming it. Real processes for the statement that killed one."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pytest

from pdnkit.store import connect, query
from pdnkit.store.db import READ_ONLY_CONFIG
from pdnkit.store.ops import configuring
from tests.store.safety_helpers import cli, cli_process, imported, one_error_line


@pytest.mark.parametrize(("sql", "named"), [
    ("SET threads=1000000", "SET threads"),
    ("SET memory_limit='1TB'", "SET memory_limit"),
    ("SET lock_configuration=false", "SET lock_configuration"),
    ("SET enable_external_access = true", "SET enable_external_access"),
    ("set global threads to 64", "SET threads"),
    ("RESET threads", "RESET threads"),
    ("PRAGMA memory_limit='1TB'", "PRAGMA memory_limit"),
    ("  SET SESSION temp_directory = '/tmp/x'", "SET temp_directory"),
])
def test_a_read_only_query_refuses_a_setting_and_names_it(tmp_path: Path, sql: str,
                                                           named: str) -> None:
    db = imported(tmp_path)
    code, out, err = cli("query", sql, "--db", db)
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert f"({named})" in line and "read-only query cannot change DuckDB's settings" in line


def test_the_statement_that_killed_the_process_is_one_line(tmp_path: Path) -> None:
    """``SET threads=1000000`` in a real process: status 2 and one line, no crash; the
    database is still readable afterwards."""
    db = imported(tmp_path)
    r = cli_process("query", "SET threads=1000000", "--db", db, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "(SET threads)" in one_error_line(r.stderr)
    r = cli_process("query", "SELECT count(*) AS n FROM games", "--db", db, "--format", "csv")
    assert (r.returncode, r.stdout) == (0, "n\n3\n")


def test_the_read_only_connection_is_locked(tmp_path: Path) -> None:
    """The lock itself, under the refusal: a PRAGMA that sets an option fails on DuckDB's
    lock (the error says why), and the settings are the safe ones."""
    db = imported(tmp_path)
    con = connect(db, read_only=True)
    try:
        for sql in ("SET threads = 1000000", "SET memory_limit = '1TB'",
                    "SET lock_configuration = false", "PRAGMA enable_profiling",
                    "SET enable_external_access = true"):
            with pytest.raises(duckdb.Error, match="configuration has been locked"):
                con.execute(sql)
        threads, locked, external = con.execute(
            "SELECT current_setting('threads'), current_setting('lock_configuration'), "
            "current_setting('enable_external_access')").fetchall()[0]
    finally:
        con.close()
    assert int(threads) == len(os.sched_getaffinity(0)) == int(READ_ONLY_CONFIG["threads"])
    assert (locked, external) == (True, False)
    code, _, err = cli("query", "PRAGMA enable_profiling", "--db", db)
    line = one_error_line(err)
    assert code == 2 and "locked" in line and "cannot change DuckDB's settings" in line


def test_reads_still_work_on_the_locked_connection(tmp_path: Path) -> None:
    """What the read commands do on it (temporary tables, macros, PRAGMA reads) is not a
    setting: search, stats, tree and PRAGMA table_info run as before."""
    db = imported(tmp_path)
    for command in (["stats", "players"], ["tree"], ["search", "--pattern", "W28"],
                    ["query", "PRAGMA table_info('games')"],
                    ["query", "SELECT current_setting('threads') AS t"]):
        code, _, err = cli(*command, "--db", db, "--format", "csv")
        assert code == 0, (command, err)


def test_query_with_write_and_own_connections_keep_their_settings(tmp_path: Path) -> None:
    """``--write`` is for SQL the user trusts, and a connection the caller opened is the
    caller's: neither is locked or refused."""
    db = imported(tmp_path)
    code, _, err = cli("query", "SET threads = 2", "--db", db, "--write")
    assert code == 0, err
    con = duckdb.connect()
    assert query("SET threads = 3", db=con).empty
    assert con.execute("SELECT current_setting('threads')").fetchall()[0][0] == 3


def test_configuring_names_the_setting() -> None:
    assert configuring("SET threads=4") == "SET threads"
    assert configuring("pragma Memory_Limit = '2GB'") == "PRAGMA Memory_Limit"
    assert configuring("SET LOCAL search_path = 'x'") == "SET search_path"
    assert configuring("USE main") == "USE main"
    assert configuring("") == "SET"
