"""Every position row the loader writes for the real collections (``../shared/data/real``:
all variants the engine knows, 8x8 and 10x10 in SQL, 12x12 in Python) equals what the rules
engine says of the replayed position: the square bitboards (bit n - 1 of ``wm``/``wk``/``bm``/
``bk`` for a white man/white king/black man/black king on square n), and FEN, key, side to move
and piece counts derived from them."""

from __future__ import annotations

import contextlib
from pathlib import Path

import duckdb
import pytest

from pdnkit.rules import get_rules, parse_fen, write_fen
from pdnkit.store import import_files
from pdnkit.validation import validate
from tests.placements import stored_key
from tests.shared import shared_path

pytestmark = pytest.mark.slow


def test_loaded_positions_equal_the_engine(tmp_path: Path) -> None:
    real = shared_path("real")
    files = sorted(real.rglob("*.pdn"))
    db = tmp_path / "real.duckdb"
    import_files(files, db=db)
    con = duckdb.connect(str(db), read_only=True)
    stored = {
        (path, idx, ply): rest
        for path, idx, ply, *rest in con.execute(
            "SELECT f.path, g.game_index, p.ply, p.fen, p.position_key, p.side, p.white_men, "
            "p.white_kings, p.black_men, p.black_kings, p.wm, p.wk, p.bm, p.bk "
            "FROM positions p "
            "JOIN games g USING (game_id) JOIN files f USING (file_id)"
        ).fetchall()}
    variants = {v for (v,) in con.execute("SELECT DISTINCT variant FROM games").fetchall()}
    con.close()
    expected = {}
    for f in files:
        for rep in validate(f):
            seen = [(p.ply, p.position_after) for p in rep.plies]
            if rep.start_fen is not None and rep.variant is not None:
                # the start (ply 0): written in Python from the report's start FEN
                with contextlib.suppress(ValueError):
                    seen.append((0, parse_fen(rep.start_fen, get_rules(rep.variant))))
            for ply, a in seen:
                if a is None:
                    continue
                c = a.counts()
                expected[(str(f.resolve()), rep.index, ply)] = [
                    write_fen(a), stored_key(a), str(a.side), c["white_men"], c["white_kings"],
                    c["black_men"], c["black_kings"],
                    *(sum(1 << (n - 1) for n in s) for s in (
                        a.white_men, a.white_kings, a.black_men, a.black_kings))]
    assert len(expected) > 30_000
    assert {"international", "russian", "english", "frisian", "brazilian"} <= variants
    assert stored == expected
