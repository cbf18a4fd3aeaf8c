"""DuckDB draws a progress bar on standard output for a long statement, even into a file or a
pipe (among the rows a command writes there): the connections :func:`pdnkit.store.connect`
opens draw none, and a read-only one's settings are still locked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pdnkit.samples import sample_dir
from pdnkit.store import connect, import_files
from pdnkit.store.session import read_once, scanning

#: a statement of several seconds, past the two after which DuckDB draws its bar (asking
#: for the bar sooner, ``SET progress_bar_time``, turns it on again)
_LONG = ["SELECT count(*) FROM range(1500000000) t(i) WHERE i % 7 = 3"]


def _out(setup: str) -> bytes:
    """Standard output (a pipe) of a process that opens ``con`` as ``setup`` says and runs
    :data:`_LONG` on it."""
    code = f"{setup}\nfor s in {_LONG!r}:\n    con.execute(s).fetchall()\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                          timeout=120).stdout


@pytest.mark.slow
def test_duckdb_alone_draws_one() -> None:
    assert "%" in _out("import duckdb\ncon = duckdb.connect()").decode(errors="replace")


@pytest.mark.slow
def test_a_pdnkit_connection_draws_none() -> None:
    assert _out("from pdnkit.store import connect\ncon = connect(':memory:')") == b""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bar") / "b.duckdb"
    import_files([sample_dir() / "english.pdn"], db=path)
    return path


def _bar(con: duckdb.DuckDBPyConnection) -> object:
    return con.execute("SELECT current_setting('enable_progress_bar')").fetchall()[0][0]


def test_every_way_of_opening_a_file_has_none(db: Path) -> None:
    con = connect(db)
    assert _bar(con) is False
    con.close()
    ro = connect(db, read_only=True)
    assert _bar(ro) is False
    with pytest.raises(duckdb.Error, match="locked"):  # (still locked)
        ro.execute("SET enable_progress_bar = true")
    ro.close()
    assert read_once(db, _bar) is False
    with scanning(db) as con:
        assert _bar(con) is False


def test_a_lake_has_none(tmp_path: Path) -> None:
    from pdnkit.lake.importer import import_lake

    lake = tmp_path / "lake"
    import_lake([sample_dir() / "english.pdn"], lake, engine="local", progress=False)
    con = connect(lake)
    assert _bar(con) is False
    con.close()
