"""``pdnkit upgrade`` settles what an interrupted import left: an import killed after its files
were loaded and before its end leaves its games marked (``copy_pending``, ``opening_pending``:
copies not grouped, openings and novelties not brought up to date); the upgrade brings them up
to date as the import's end would, so the database answers as one whose import ran to the end.
The kill is real (``PDNKIT_KILL_AT``, the import in a child process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pdnkit.store import import_files, upgrade
from tests.cli.helpers import cli
from tests.copies_kit import (
    by_location,
    random_line,
    record,
    statistics,
    tournament,
    tournament_copies,
    write,
)
from tests.store.legacy import record_as

ROOT = Path(__file__).resolve().parents[2]


def marks(db: Path) -> tuple[int, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT (SELECT count(*) FROM copy_pending), "
                           "(SELECT count(*) FROM opening_pending)").fetchall()[0]
    finally:
        con.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The tournament, its copies as another archive holds them, and a third file (the one
    the killed import does not get to keep)."""
    tmp = tmp_path_factory.mktemp("settle")
    third = write(tmp / "c" / "other.pdn", record(random_line(7, 30), "1-1", event="Open",
                                                  white="Ann", black="Bob"))
    return [tournament(tmp / "a"), tournament_copies(tmp / "b"), third]


def interrupted(files: list[Path], db: Path) -> None:
    """An import of ``files`` killed as the third file is loaded: the first two are kept with
    their marks, nothing of the import's end is done."""
    env = {**os.environ, "PDNKIT_KILL_AT": "import.file-loaded#3"}
    r = subprocess.run([sys.executable, "-m", "pdnkit", "import", *map(str, files), "--db",
                        str(db)], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == -9, r.stderr
    assert marks(db)[0] > 0 and marks(db)[1] > 0


@pytest.fixture(scope="module")
def whole(files: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first two files imported to the end."""
    db = tmp_path_factory.mktemp("whole") / "g.duckdb"
    import_files(files[:2], db=db)
    assert marks(db) == (0, 0)
    return db


def test_upgrade_settles_what_an_interrupted_import_left(files: list[Path], whole: Path,
                                                         tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    interrupted(files, db)
    # not settled: the copies are not grouped yet, every record counts
    assert by_location(db) != by_location(whole)
    result = upgrade(db, notice=None)
    assert not result.upgraded and result.settled > 0
    assert f"settled {result.settled} games an interrupted import left marked" in str(result)
    assert marks(db) == (0, 0)
    assert by_location(db) == by_location(whole)
    assert statistics(db, "Club Championship 2003") == statistics(
        whole, "Club Championship 2003")
    # nothing left: a second upgrade has nothing to do
    again = upgrade(db, notice=None)
    assert (again.upgraded, again.settled) == (False, 0)
    assert str(again).endswith("is up to date (schema version "
                               f"{again.to_version})")


def test_an_older_database_is_upgraded_and_settled(files: list[Path], whole: Path,
                                                   tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    interrupted(files, db)
    con = duckdb.connect(str(db))
    record_as(con, "5")  # (version 6 only added columns and tables: the rows stay as they are)
    con.close()
    result = upgrade(db, notice=None)
    assert (result.upgraded, result.from_version) == (True, 5) and result.settled > 0
    assert str(result).endswith(f"settled {result.settled} games an interrupted import left "
                                "marked (copies, openings, novelties)")
    assert marks(db) == (0, 0) and by_location(db) == by_location(whole)


def test_the_command_says_what_it_settled(files: list[Path], whole: Path,
                                          tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    interrupted(files, db)
    code, out, err = cli("upgrade", "--db", db)
    assert code == 0, err
    assert "is up to date" in out and "an interrupted import left marked" in out
    assert marks(db) == (0, 0) and by_location(db) == by_location(whole)
