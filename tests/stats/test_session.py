"""The read side's one connection context (``pdnkit.store.session.reading``): every reader
given a path closes what it opened (a writer can open the file afterwards, in this very
process), and leaves a connection it was given open."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from pdnkit import plots, reports, stats
from pdnkit.stats import search as search_room
from pdnkit.store.session import LakeIsReadOnlyError, reading, writing
from pdnkit.viewer.fetch import db_games

PDN = """[Event "Cup"]
[White "Ann Long"]
[Black "Bo Berg"]
[Date "2020.05.01"]
[Result "1-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 1-0

[Event "Cup"]
[White "Bo Berg"]
[Black "A Long"]
[Date "2020.05.02"]
[Result "0-1"]
[GameType "20"]

1. 32-28 19-23 2. 37-32 99-98 0-1
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pdnkit.store import import_files

    folder = tmp_path_factory.mktemp("session")
    (folder / "g.pdn").write_text(PDN, encoding="utf-8")
    path = folder / "g.duckdb"
    assert import_files([folder / "g.pdn"], db=path).games == 2
    return path


#: every reader of the read side, called with the database it is given
READERS: dict[str, Callable[[str | Path | duckdb.DuckDBPyConnection], object]] = {
    "openings": lambda d: stats.openings(d, plies=2),
    "openings by position": lambda d: stats.openings(d, plies=2, by="position"),
    "tree": lambda d: stats.tree(d, moves="32-28"),
    "positions_at": lambda d: stats.positions_at(d, moves="32-28"),
    "players": lambda d: stats.players(d),
    "results": lambda d: stats.results(d, by="variant,year"),
    "lengths": lambda d: stats.lengths(d),
    "findings": lambda d: [stats.findings(d, by=b) for b in ("code", "file", "event", "game")],
    "square_counts": lambda d: stats.square_counts(d, what="captured"),
    "stats": lambda d: stats.stats("results", d),
    "endgame_rules": lambda d: stats.endgame_rules(d),
    "crosstable": lambda d: stats.crosstable(d, event="Cup"),
    "aliases": lambda d: stats.aliases(d),
    "suggest": lambda d: stats.suggest(d),
    "search": lambda d: search_room.search(d, pattern="W28"),
    "games_to_check": lambda d: reports.games_to_check(d),
    "endgame report": lambda d: reports.report("endgame", d),
    "collection report": lambda d: reports.report("collection", d, fmt="html"),
    "plot": lambda d: plots.plot("findings", d),
    "db_games": lambda d: list(db_games(d)),
    "alias": lambda d: stats.alias(d, ["A Long"], "Ann Long"),
    "unalias": lambda d: stats.unalias(d, ["A Long"]),
}


def _writable(path: Path) -> None:
    """A read-write connection to ``path`` opens: no other connection of this process
    holds the file with another configuration (a read-only one left open would)."""
    con = duckdb.connect(str(path))
    con.close()


def test_a_reader_left_open_is_seen(db: Path) -> None:
    """The check below can fail: a read-only connection left open blocks a writer."""
    held = duckdb.connect(str(db), read_only=True)
    with pytest.raises(duckdb.Error, match="different configuration"):
        _writable(db)
    held.close()
    _writable(db)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[duckdb.DuckDBPyConnection]:
    """Every DuckDB connection opened while the test runs (kept alive by this list, so
    only an explicit close closes them)."""
    out: list[duckdb.DuckDBPyConnection] = []
    real = duckdb.connect

    def spy(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        con = real(*args, **kwargs)  # type: ignore[arg-type]
        out.append(con)
        return con

    monkeypatch.setattr(duckdb, "connect", spy)
    return out


def _closed(con: duckdb.DuckDBPyConnection) -> bool:
    try:
        con.execute("SELECT 1")
    except duckdb.ConnectionException:
        return True
    return False


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_path_is_opened_and_closed(db: Path, name: str,
                                     opened: list[duckdb.DuckDBPyConnection]) -> None:
    READERS[name](str(db))
    assert opened and all(_closed(c) for c in opened)
    _writable(db)
    opened.clear()
    READERS[name](db)  # a Path too
    assert opened and all(_closed(c) for c in opened)
    _writable(db)


def test_a_reader_that_fails_closes_too(db: Path,
                                        opened: list[duckdb.DuckDBPyConnection]) -> None:
    with pytest.raises(ValueError, match="not legal") as failure:
        stats.tree(db, moves="32-28 99-98")
    assert failure.value is not None and all(_closed(c) for c in opened)
    _writable(db)  # while the exception (and its frames) are still alive


def test_a_partly_read_iterator_closes_when_closed(
        db: Path, opened: list[duckdb.DuckDBPyConnection]) -> None:
    games = db_games(db)
    next(games)
    assert not _closed(opened[-1])
    games.close()
    assert all(_closed(c) for c in opened)


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_given_connection_stays_open(db: Path, name: str) -> None:
    from pdnkit.store import connect

    con = connect(db)
    try:
        READERS[name](con)
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(2,)]
    finally:
        con.close()


def test_reading_a_missing_file_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError), reading(tmp_path / "none.duckdb"):
        pass
    assert not (tmp_path / "none.duckdb").exists()


def test_an_alias_on_a_mistyped_path_makes_no_database(tmp_path: Path, db: Path) -> None:
    """A write (an alias) needs a database: a path that holds none raises and stays absent,
    one that holds one is written."""
    with pytest.raises(FileNotFoundError, match="no pdnkit database"):
        stats.alias(tmp_path / "typo.duckdb", ["M Tinsley"], "Marion Tinsley")
    assert not (tmp_path / "typo.duckdb").exists()
    assert stats.alias(db, ["M Tinsley"], "Marion Tinsley") == 1
    with writing(":memory:") as con:  # an in-memory database is always new
        assert con.execute("SELECT count(*) FROM player_aliases").fetchall() == [(0,)]


def test_reading_is_read_only(db: Path) -> None:
    with reading(db) as con, pytest.raises(duckdb.Error):
        con.execute("DELETE FROM games")
    with reading(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(2,)]


def test_a_lake_opens_as_the_store_opens_it_and_refuses_aliases(tmp_path: Path) -> None:
    from pdnkit.lake import import_lake

    (tmp_path / "g.pdn").write_text(PDN, encoding="utf-8")
    lake = tmp_path / "g.lake"
    import_lake([tmp_path / "g.pdn"], lake, engine="local")
    with reading(lake) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(2,)]
    assert len(stats.players(lake)) == 3
    with pytest.raises(LakeIsReadOnlyError, match="read-only for aliases"):
        stats.alias(lake, ["A Long"], "Ann Long")
    with pytest.raises(LakeIsReadOnlyError), writing(lake):
        pass
