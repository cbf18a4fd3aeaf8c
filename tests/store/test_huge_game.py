"""Issue 26 point 9 (first half): one huge game never fails its file. A game whose comment is
80 MB (the reader keeps it whole, with ``too-large``) and its neighbours all land; its text is
stored in pieces (``raw_pieces``), and ``export`` writes it whole again."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pdnkit.rows.pieces import PIECE_CHARS, RAW_ROW_CHARS
from pdnkit.store import export, import_files

SMALL = '[Event "small {n}"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'


def _huge_file(path: Path, mb: int = 80) -> str:
    words = "комментарий and words " * (mb * (1 << 20) // 29)  # some two-byte characters
    big = '[Event "huge"]\n[GameType "20"]\n\n1. 32-28 {' + words + '} 19-23 *\n\n'
    text = SMALL.format(n=1) + big + SMALL.format(n=2)
    path.write_text(text, encoding="utf-8")
    return text


@pytest.mark.slow
def test_a_game_of_80_mb_lands_with_its_neighbours(tmp_path: Path) -> None:
    src = tmp_path / "huge.pdn"
    text = _huge_file(src)
    assert src.stat().st_size > 80_000_000
    db = tmp_path / "g.duckdb"
    summary = import_files([src], db=db)
    assert summary.failed == 0, str(summary)
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT event, status, raw_pieces, length(raw_pdn) FROM games "
                       "ORDER BY game_index").fetchall()
    events = [r[0] for r in rows if r[0]]
    assert events[0] == "small 1" and events[-1] == "small 2" and "huge" in events
    assert all(r[1] == "ok" for r in rows if r[0] and r[0].startswith("small"))
    pieced = [r for r in rows if r[2] is not None]  # the game holding the 80 MB comment
    assert len(pieced) == 1 and pieced[0][1] == "unparsed" and pieced[0][3] is None
    huge = pieced[0]
    assert con.execute("SELECT count(*) FROM findings WHERE code = 'too-large'"
                       ).fetchall()[0][0] == 1
    longest = con.execute("SELECT max(length(text)), count(*) FROM raw_pieces").fetchall()[0]
    assert longest[0] <= PIECE_CHARS and longest[1] == huge[2]
    con.close()
    out = tmp_path / "out.pdn"
    export(out, db=db)
    start = text.index("1. 32-28 {комментарий")
    game = text[start:text.index("} 19-23 *", start) + len("} 19-23 *")]
    written = out.read_text(encoding="utf-8")
    assert game in written and 'Event "small 2"' in written  # whole, and its neighbour


def test_a_long_text_is_cut_into_pieces_and_joined_again(tmp_path: Path) -> None:
    """Just over the row limit: the pieces join into the text exactly (a fast stand-in for
    the 80 MB game)."""
    src = tmp_path / "long.pdn"
    body = "ж" * (RAW_ROW_CHARS + 5)
    text = SMALL.format(n=1) + '[Event "long"]\n[GameType "20"]\n\n1. 32-28 {' + body + \
        '} 19-23 *\n\n'
    src.write_text(text, encoding="utf-8")
    db = tmp_path / "g.duckdb"
    import_files([src], db=db)
    con = duckdb.connect(str(db), read_only=True)
    gid, pieces, raw = con.execute("SELECT game_id, raw_pieces, raw_pdn FROM games "
                                   "WHERE event = 'long'").fetchall()[0]
    joined = con.execute("SELECT string_agg(text, '' ORDER BY piece) FROM raw_pieces "
                         "WHERE game_id = ?", [gid]).fetchall()[0][0]
    con.close()
    assert raw is None and pieces == -(-len(joined) // PIECE_CHARS)
    assert body in joined and joined.startswith('[Event "long"]')
    out = tmp_path / "out.pdn"
    export(out, db=db)
    assert body in out.read_text(encoding="utf-8")
