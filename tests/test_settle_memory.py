"""The end of an import (the settle of the copies and of the openings: classification and
novelties of the games loaded) keeps to the import's bounded memory whatever the size of the
database: a second file imported into a database that holds as many games, under a memory
limit far below the positions' size, settles every mark and gives the novelties a full
recomputation gives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pdnkit.store import connect, import_files, ingest
from pdnkit.store.novelties import compute_novelties

ROOT = Path(__file__).resolve().parent.parent
GAMES = 4000  # per file: ~330,000 positions each, about 24 MB of position rows in all


def _generated(out: Path, seed: int, games: int = GAMES) -> Path:
    """A seeded file of distinct random international games (benchmarks/randomgames.py)."""
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "randomgames.py"), str(games),
                    str(out), "--seed", str(seed)], check=True, capture_output=True)
    return out


@pytest.mark.slow
def test_second_import_settles_under_a_small_memory_limit(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    pytest.importorskip("pdnkit.core.compiled")
    a, b = _generated(tmp_path / "a.pdn", 1), _generated(tmp_path / "b.pdn", 2)
    db = tmp_path / "g.duckdb"
    first = import_files([a], db=db, variant="international")
    assert first.games == GAMES
    # 24 MB for 8,000 games is tighter than 96 MB for 200,000: before the settle worked in
    # batches, the openings' step stopped with DuckDB's "Out of Memory Error"
    monkeypatch.setitem(ingest.IMPORT_SETTINGS, "memory_limit", "24MB")
    second = import_files([b], db=db, variant="international")
    assert second.games == GAMES
    con = connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(2 * GAMES,)]
    assert con.execute("SELECT count(*) FROM opening_pending").fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM copy_pending").fetchall() == [(0,)]
    # the incremental settle equals a recomputation of every game from scratch
    compute_novelties(con, "everything")
    differ = con.execute("""
        SELECT count(*) FROM games g JOIN temp.everything e USING (game_id)
        WHERE g.novelty_ply IS DISTINCT FROM e.novelty_ply
           OR g.novelty_from IS DISTINCT FROM e.novelty_from""").fetchall()[0][0]
    assert differ == 0
    assert con.execute("SELECT count(novelty_ply) FROM games").fetchall()[0][0] > GAMES


def test_a_settle_stopped_by_duckdb_is_said_and_settled_by_the_next_import(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB stopping the settle midway (out of memory) keeps the games and the marks of
    the batches not yet done, says so in one line, and the next import settles them."""
    pytest.importorskip("pdnkit.core.compiled")
    import duckdb

    import pdnkit.store.openingdb as odb
    from pdnkit.store.db import DatabaseError

    a = _generated(tmp_path / "a.pdn", 3, 300)
    b = _generated(tmp_path / "b.pdn", 4, 300)
    db = tmp_path / "g.duckdb"
    import_files([a], db=db, variant="international")
    monkeypatch.setattr(odb, "SETTLE_MIN_BATCH", 100)  # batches of 100 games
    monkeypatch.setattr(odb, "SETTLE_BYTES_PER_GAME", 1 << 40)
    real, calls = odb.refresh_novelties, []

    def second_fails(con: duckdb.DuckDBPyConnection, games: str | None = None) -> int:
        calls.append(games)
        if len(calls) == 2:
            raise duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block")
        return real(con, games)

    monkeypatch.setattr(odb, "refresh_novelties", second_fails)
    with pytest.raises(DatabaseError) as info:
        import_files([b], db=db, variant="international")
    message = str(info.value)
    assert "\n" not in message and "Out of Memory" in message
    assert "next import" in message
    con = connect(db)
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(600,)]
    waiting = con.execute("SELECT count(DISTINCT game_id) FROM opening_pending").fetchall()
    assert 0 < waiting[0][0] <= 600 - 100  # the first batch was settled and cleared
    assert f"{waiting[0][0]} game(s)" in message
    con.close()
    monkeypatch.setattr(odb, "refresh_novelties", real)
    again = import_files([b], db=db, variant="international")  # a file already loaded
    assert again.skipped == 1
    con = connect(db)
    assert con.execute("SELECT count(*) FROM opening_pending").fetchall() == [(0,)]
    compute_novelties(con, "everything")
    assert con.execute("""
        SELECT count(*) FROM games g JOIN temp.everything e USING (game_id)
        WHERE g.novelty_ply IS DISTINCT FROM e.novelty_ply
           OR g.novelty_from IS DISTINCT FROM e.novelty_from""").fetchall() == [(0,)]


def test_a_batch_out_of_memory_is_done_again_in_halves(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch DuckDB cannot hold is rolled back and the rest settled in smaller batches:
    the import succeeds and its novelties equal a recomputation from scratch."""
    pytest.importorskip("pdnkit.core.compiled")
    import duckdb

    import pdnkit.store.openingdb as odb

    a = _generated(tmp_path / "a.pdn", 5, 300)
    b = _generated(tmp_path / "b.pdn", 6, 300)
    db = tmp_path / "g.duckdb"
    import_files([a], db=db, variant="international")
    monkeypatch.setattr(odb, "SETTLE_MIN_BATCH", 100)
    monkeypatch.setattr(odb, "SETTLE_BYTES_PER_GAME", 1 << 40)
    monkeypatch.setattr(odb, "settle_batch", lambda con: 400)
    real, sizes = odb.refresh_novelties, []

    def big_fails(con: duckdb.DuckDBPyConnection, games: str | None = None) -> int:
        assert games is not None
        n = con.execute(f"SELECT count(*) FROM ({games})").fetchall()[0][0]
        sizes.append(n)
        if n > 200:
            raise duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block")
        return real(con, games)

    monkeypatch.setattr(odb, "refresh_novelties", big_fails)
    assert import_files([b], db=db, variant="international").games == 300
    assert sizes[0] == 400 and max(sizes[1:]) <= 200
    con = connect(db)
    assert con.execute("SELECT count(*) FROM opening_pending").fetchall() == [(0,)]
    compute_novelties(con, "everything")
    assert con.execute("""
        SELECT count(*) FROM games g JOIN temp.everything e USING (game_id)
        WHERE g.novelty_ply IS DISTINCT FROM e.novelty_ply
           OR g.novelty_from IS DISTINCT FROM e.novelty_from""").fetchall() == [(0,)]
