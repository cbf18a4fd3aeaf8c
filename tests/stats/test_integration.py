"""Statistics on games imported by the real importer (engine position keys, real replay)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.stats import openings, tree

# Three international games (legal, checked by the engine): the first two transpose after
# three plies (34-29 16-21 35-30 and 35-30 16-21 34-29); the third does not, and its move
# order 31-26 19-23 32-27 has a transposition (32-27 19-23 31-26) that nobody played.
PDN = """[Event "T"]
[White "A"]
[Black "B"]
[Result "2-0"]
[GameType "20"]

1. 34-29 16-21 2. 35-30 21-26 2-0

[Event "T"]
[White "B"]
[Black "A"]
[Result "0-2"]
[GameType "20"]

1. 35-30 16-21 2. 34-29 11-16 0-2

[Event "T"]
[White "C"]
[Black "A"]
[Result "1-1"]
[GameType "20"]

1. 31-26 19-23 2. 32-27 14-19 1-1
"""


@pytest.fixture
def imported(tmp_path: Path):
    from pdnkit.store import connect, import_files

    src = tmp_path / "t.pdn"
    src.write_text(PDN, encoding="utf-8")
    db = tmp_path / "t.duckdb"
    import_files([src], db=db)
    return connect(db)


def test_real_keys_merge_transpositions(imported):
    status = imported.execute("SELECT list(status ORDER BY game_id) FROM games").fetchone()[0]
    assert status == ["ok", "ok", "ok"]
    by_pos = openings(imported, plies=3, by="position")
    assert sorted(by_pos["games"]) == [1, 2]
    row = by_pos[by_pos["games"] == 2].iloc[0]
    assert (row.sequences, row.white_wins, row.black_wins) == (2, 1, 1)
    assert len(openings(imported, plies=3)) == 3  # by move order they stay apart
    one = tree(imported, moves="34-29 16-21 35-30")
    other = tree(imported, moves="35-30 16-21 34-29")
    assert sorted(one["move"]) == sorted(other["move"]) == ["11-16", "21-26"]


def test_engine_finds_positions_no_game_reached_in_that_order(imported):
    df = tree(imported, moves="32-27 19-23 31-26")
    assert df["move"].tolist() == ["14-19"]
    assert df["draws"].tolist() == [1]
    # a FEN written another way (ranges, Black first) is normalised by the engine
    fen = "B:B1-18,20,23:W26,27,33-50"
    assert tree(imported, fen=fen, variant="international")["move"].tolist() == ["14-19"]
    start = tree(imported, fen="W:W31-50:B1-20", variant="international")
    assert dict(zip(start["move"], start["games"], strict=True)) == {
        "31-26": 1, "34-29": 1, "35-30": 1}
