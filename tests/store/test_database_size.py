"""The size of a database: pdnkit makes its files with 64 KB storage blocks (DuckDB gives every
table and index at least one block, so at the default 256 KB a small collection's file was
mostly empty blocks) and stores the bitboards as ``UBIGINT`` (``HUGEINT`` columns compress
badly in small blocks). A database made with other blocks keeps them and works the same."""

from __future__ import annotations

from pathlib import Path

import duckdb

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
