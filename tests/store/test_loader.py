"""The loader: it computes the ``positions`` rows of boards of at most 64 engine bits in SQL
(``position_bits_query``), whose FEN, key, side and piece counts must be exactly the engine's
(``write_fen``, ``Position.key``, ``Position.counts``) on random placements of every variant,
kings and empty sides included; the key itself must tell positions apart; the writer thread
hands its errors to the caller and rolls the file back; the interpreter settings changed while
importing are restored."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from pdnkit.rules import Position, get_rules, list_variants, write_fen
from pdnkit.rules.fen import fen_layout
from pdnkit.rules.position import position_key
from pdnkit.store import import_files, ingest, sample_dir
from pdnkit.store.rows import ReportBatch, _schemas, position_bits_query
from tests.placements import random_positions

VARIANTS = [r for r in list_variants() if fen_layout(r) is not None]


def test_every_board_but_12x12_goes_through_sql() -> None:
    assert {r.geometry.width for r in VARIANTS} == {8, 10}
    assert fen_layout(get_rules("canadian")) is None  # 12x12: written in Python


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.edition}")
def test_sql_rows_equal_the_engine(rules: object) -> None:
    positions = random_positions(rules, 300, seed=11)
    positions.append(Position.initial(rules))  # type: ignore[arg-type]
    layout = fen_layout(rules)  # type: ignore[arg-type]
    other = fen_layout(get_rules("russian" if rules.geometry.width == 10 else "international"))  # type: ignore[attr-defined]
    # two layouts in one batch: rows pick theirs by number
    cols = {"game_id": [], "ply": [], "layout": [], "black": [], "w": [], "b": [], "k": []}
    for i, p in enumerate(positions):
        for col, v in zip(cols, (7, i, 1, int(p.side), p._w, p._b, p._k), strict=True):
            cols[col].append(v)
    batch = pa.table(cols, schema=_schemas()["position_bits"])
    con = duckdb.connect()
    rel = con.from_arrow(batch)
    rows = rel.query("_pdnkit_load", position_bits_query([other, layout], game_offset=100)
                     + " ORDER BY ply").fetchall()
    assert len(rows) == len(positions)
    for (gid, ply, side, fen, wm, wk, bm, bk, key), p in zip(rows, positions, strict=True):
        c = p.counts()
        assert gid == 107
        assert fen == write_fen(p), ply
        assert key == p.key(), fen
        assert side == str(p.side)
        assert (wm, wk, bm, bk) == (c["white_men"], c["white_kings"], c["black_men"],
                                    c["black_kings"])


def test_keys_tell_positions_apart() -> None:
    """Distinct positions, distinct keys (random placements of two boards, both sides to
    move, plus every one-man move of the initial positions); equal positions, equal keys."""
    seen: dict[int, tuple[int, int, int, int]] = {}
    for name in ("international", "russian", "canadian"):
        rules = get_rules(name)
        for p in random_positions(rules, 20_000, seed=3):
            for q in (p, p.with_side("B" if str(p.side) == "W" else "W")):
                state = (q._w, q._b, q._k, int(q.side))
                assert seen.setdefault(q.key(), state) == state
        start = Position.initial(rules)
        for m in start.legal_moves():
            q = start.play(m)
            state = (q._w, q._b, q._k, int(q.side))
            assert seen.setdefault(q.key(), state) == state
    assert len(seen) > 100_000


@pytest.mark.parametrize("name", ["international", "russian", "canadian"])
def test_keys_tell_apart_placements_on_the_last_squares(name: str) -> None:
    """Every placement of men and kings of both colours on the seven highest-numbered and
    the seven lowest-numbered engine bits (5**7 contents each, both sides to move): a key
    whose high input bits reached only its high output bits would collide here."""
    from itertools import product

    rules = get_rules(name)
    bits = sorted(int(rules.geometry.bit_of[n]) for n in range(1, rules.geometry.num_squares + 1))
    for chosen in (bits[-7:], bits[:7]):
        keys = set()
        count = 0
        for content in product(range(5), repeat=7):
            w = b = k = 0
            for bit, c in zip(chosen, content, strict=True):
                if c in (1, 2):
                    w |= 1 << bit
                elif c in (3, 4):
                    b |= 1 << bit
                if c in (2, 4):
                    k |= 1 << bit
            for side in (False, True):
                keys.add(position_key(w, b, k, side))
                count += 1
        assert len(keys) == count


def test_wide_boards_keep_their_high_squares_in_the_key() -> None:
    # a 12x12 bitboard runs past 64 bits: a man on a high square must change the key
    assert position_key(1 << 70, 1, 0, False) != position_key(0, 1, 0, False)
    assert position_key(1 << 70, 1, 0, False) != position_key(1 << 71, 1, 0, False)
    assert position_key(1, 1 << 70, 1 << 70, True) != position_key(1, 1 << 70, 0, True)
    rules = get_rules("canadian")
    a, b = random_positions(rules, 2, seed=5)
    assert (a.key() == b.key()) == (a == b)


def test_a_failed_load_rolls_the_file_back(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A load error in the writer thread reaches the caller, and nothing of the file stays;
    the next import works on the same database."""
    monkeypatch.setattr(ingest, "BATCH_GAMES", 1)
    games = (sample_dir() / "russian.pdn").read_text(encoding="utf-8").split("\n\n[")
    good, bad = tmp_path / "a.pdn", tmp_path / "b.pdn"
    good.write_text(games[0] + "\n", encoding="utf-8")
    bad.write_text(games[0] + "\n\n[" + "\n\n[".join(games[1:4]) + "\n", encoding="utf-8")
    load = ingest._load
    calls: list[int] = []

    def failing(con, tables, file_id, offset, layouts=None):  # type: ignore[no-untyped-def]
        calls.append(offset)
        if file_id == 2 and len(calls) == 3:
            raise RuntimeError("disk full")
        load(con, tables, file_id, offset, layouts)

    monkeypatch.setattr(ingest, "_load", failing)
    db = tmp_path / "t.duckdb"
    with pytest.raises(RuntimeError, match="disk full"):
        import_files([good, bad], db=db)
    con = duckdb.connect(str(db))
    assert con.execute("SELECT count(*) FROM files").fetchall() == [(1,)]
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(1,)]
    con.close()
    monkeypatch.setattr(ingest, "_load", load)
    assert import_files([good, bad], db=db).games == 4


def test_batches_merge_their_layouts() -> None:
    """Batches built apart (worker processes) number their layouts independently; merging
    renumbers the rows to the merged list."""
    intl, russian = fen_layout(get_rules("international")), fen_layout(get_rules("russian"))
    a, b = ReportBatch(), ReportBatch()
    assert a._layout_code(intl) == 0
    assert b._layout_code(russian) == 0 and b._layout_code(intl) == 1
    b.position_bits["layout"] += [0, 1, 0]
    b.position_bits["game_id"] += [0, 0, 0]
    a.extend(b)
    assert a.layouts == [intl, russian]
    assert a.position_bits["layout"] == [1, 0, 1]


def test_interpreter_settings_are_restored(tmp_path: Path) -> None:
    import gc
    import sys

    before = (sys.getswitchinterval(), gc.get_threshold(), gc.get_freeze_count(), gc.isenabled())
    f = tmp_path / "a.pdn"
    f.write_text((sample_dir() / "english.pdn").read_text(encoding="utf-8"), encoding="utf-8")
    assert import_files([f], db=tmp_path / "t.duckdb").games > 0
    assert (sys.getswitchinterval(), gc.get_threshold(), gc.get_freeze_count(),
            gc.isenabled()) == before
