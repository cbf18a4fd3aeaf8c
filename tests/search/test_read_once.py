"""A process that searches once and ends (the command line's ``search``) reads the database
with a small buffer pool (:func:`pdnkit.store.session.read_once`), and reads it again, whole,
with DuckDB's default pool when a result needs more memory than that: the answer is the
same either way."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pdnkit.store import session
from pdnkit.store.session import READ_ONCE_MEMORY, read_once, reading

GAME = '[GameType "20"]\n[Result "*"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n'


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pdnkit.store import import_files

    d = tmp_path_factory.mktemp("once")
    f = d / "games.pdn"
    f.write_text("\n".join(GAME for _ in range(5)), encoding="utf-8")
    path = d / "g.duckdb"
    assert import_files([f], db=path).games == 5
    return path


def _limit(con: duckdb.DuckDBPyConnection) -> str:
    return str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])


def test_a_file_is_read_with_the_small_pool(db: Path) -> None:
    want = _limit(duckdb.connect(config={"memory_limit": READ_ONCE_MEMORY}))
    assert read_once(db, _limit) == want
    with reading(db) as con:
        assert _limit(con) != want  # (the default pool: most of the machine's memory)


BIG = "SELECT i, repeat('x', 200) AS t FROM range(400000) r(i)"  # (a list of 80 MB)


def test_a_result_too_big_for_the_pool_is_read_again(db: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session, "READ_ONCE_MEMORY", "16MB")
    limits: list[str] = []

    def read(con: duckdb.DuckDBPyConnection) -> list[tuple[int, str]]:
        limits.append(_limit(con))
        return con.execute(f"SELECT list(t ORDER BY i) FROM ({BIG})").fetchall()

    got = read_once(db, read)
    assert len(limits) == 2 and limits[0] != limits[1]  # the small pool, then the default
    with reading(db) as con:
        assert got == con.execute(f"SELECT list(t ORDER BY i) FROM ({BIG})").fetchall()


def test_a_connection_or_memory_is_read_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    mine = duckdb.connect()
    assert read_once(mine, _limit) == _limit(mine)
    assert read_once(":memory:", lambda con: con.execute("SELECT 1").fetchall()) == [(1,)]


def test_the_command_line_search_reads_once(db: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from pdnkit.lean.forms import search_form
    from pdnkit.stats.search import search_table

    used: list[str] = []
    real = session.read_once

    def spy(where, read):  # type: ignore[no-untyped-def]
        used.append(str(where))
        return real(where, read)

    monkeypatch.setattr(session, "read_once", spy)
    runner = search_form(["--pattern", "W28:B19:E23", "--db", str(db), "-f", "csv"])
    assert runner is not None and runner() == 0
    assert used == [str(db)]
    lines = capsys.readouterr().out.splitlines()
    want = search_table(str(db), pattern="W28:B19:E23")
    assert len(lines) == 1 + len(want) == 6  # a header, ply 1 of each of the five games


def test_widen_gives_the_default_pool_and_locks(db: Path) -> None:
    from pdnkit.store.session import widen

    default = read_once(":memory:", _limit)  # (a new database's pool: DuckDB's default)

    def read(con: duckdb.DuckDBPyConnection) -> tuple[str, str]:
        small = _limit(con)
        con.execute("SET threads = 1").fetchall()  # (ours to set until widened)
        widen(con)
        with pytest.raises(duckdb.Error):
            con.execute("SET memory_limit = '1GB'").fetchall()
        return small, _limit(con)

    small, wide = read_once(db, read)
    assert small != default and wide == default
    mine = duckdb.connect(config={"memory_limit": "64MB"})
    widen(mine)  # not read_once's: left as it is
    assert _limit(mine) == _limit(duckdb.connect(config={"memory_limit": "64MB"}))


def test_a_file_this_process_has_open_is_read_as_reading_reads_it(db: Path) -> None:
    """DuckDB opens a file once a process, with one configuration: a server's connection
    holds it, and a search run in the same process reads through the same settings."""
    with reading(db) as held:
        assert read_once(db, _limit) == _limit(held)
        rows = read_once(db, lambda con: con.execute("SELECT count(*) FROM games").fetchall())
        assert rows == [(5,)]
