"""The size of a database: pdnkit makes its files with 64 KB storage blocks (DuckDB gives every
table and index at least one block, so at the default 256 KB a small collection's file was
mostly empty blocks) and stores the bitboards as ``UBIGINT`` (``HUGEINT`` columns compress
badly in small blocks). A database made with other blocks keeps them and works the same."""

from __future__ import annotations

from pathlib import Path

import duckdb

import pdnkit.store.posindex as posindex
from pdnkit.samples import sample_dir
from pdnkit.store import connect, import_files
from pdnkit.store.db import BLOCK_SIZE


def _block_size(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute("SELECT block_size FROM pragma_database_size()").fetchall()[0][0])
    finally:
        con.close()


def _rows(db: Path) -> list[tuple[object, ...]]:
    con = connect(db, read_only=True)
    try:
        return con.execute("SELECT game_id, ply, fen, wm, bm FROM positions "
                           "ORDER BY game_id, ply").fetchall()
    finally:
        con.close()


def test_a_new_database_has_64_kb_blocks_and_an_old_one_keeps_its_own(tmp_path: Path) -> None:
    new = tmp_path / "new.duckdb"
    import_files([sample_dir() / "russian.pdn"], db=new)
    assert BLOCK_SIZE == 65536 and _block_size(new) == BLOCK_SIZE
    old = tmp_path / "old.duckdb"
    duckdb.connect(str(old)).close()  # a file made with DuckDB's default blocks
    assert _block_size(old) == 262144
    import_files([sample_dir() / "russian.pdn"], db=old)
    assert _block_size(old) == 262144
    assert _rows(old) == _rows(new)
    types = connect(new, read_only=True).execute(
        "SELECT DISTINCT data_type FROM information_schema.columns "
        "WHERE table_name = 'position_bits' AND column_name IN ('wm', 'wk', 'bm', 'bk')"
    ).fetchall()
    assert types == [("UBIGINT",)]


def test_intl_2000_takes_at_most_3_kb_a_game(shared_data: Path, tmp_path: Path) -> None:
    """The size target of the 2,000-game benchmark file (raw text, moves, positions and all);
    it was 4.07 KB a game with 256 KB blocks and ``HUGEINT`` bitboards."""
    db = tmp_path / "intl.duckdb"
    assert import_files([shared_data / "bench" / "intl_2000.pdn"], db=db).games == 2000
    per_game = db.stat().st_size / 2000
    assert per_game <= 3000, f"{per_game:.0f} bytes a game"


def _blocks(db: Path, table: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute(f"SELECT count(DISTINCT block_id) FROM pragma_storage_info('{table}') "
                               "WHERE block_id >= 0").fetchall()[0][0])
    finally:
        con.close()


def test_first_positions_are_stored_by_position_within_a_chunk_of_games(
        shared_data: Path, tmp_path: Path) -> None:
    """``early_positions`` (plies 0 to 4 of every game) is sorted by ply and position within
    each chunk of game numbers, so its bitboards are a few long runs: the 10,000 rows of
    intl_2000 fit one 64 KB block (two in game order)."""
    db = tmp_path / "intl.duckdb"
    import_files([shared_data / "bench" / "intl_2000.pdn"], db=db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.execute("SELECT game_id, ply FROM early_positions").fetchall()
        wanted = con.execute(f"SELECT game_id, ply FROM early_positions "
                             f"ORDER BY {posindex.EARLY_ORDER}").fetchall()
        games = con.execute("SELECT count(DISTINCT game_id) FROM early_positions").fetchall()
    finally:
        con.close()
    assert stored == wanted and len(stored) == 5 * games[0][0] == 10_000
    assert _blocks(db, "early_positions") == 1
