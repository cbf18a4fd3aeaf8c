"""The import's fast paths load exactly what the validator says: the rows built straight from
the replayed positions (canonical notation of quiet moves from the square names, FEN, key and
piece counts from the bitboards, ``captured_count``/``is_capture`` derived in SQL) agree with
the validator's own ``PlyRecord`` fields, and the worker-process import loads the same tables
as the single-process one, with stray text between games and many small batches."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pdnkit.rules import canonical_notation, get_rules, parse_fen
from pdnkit.rules.notation import square_names
from pdnkit.samples import sample_dir
from pdnkit.store import import_files, ingest
from pdnkit.validation import validate
from tests.placements import stored_key

SAMPLES = sample_dir()
VARIANT_FILES = sorted(p for p in SAMPLES.glob("*.pdn") if not p.name.startswith("flawed"))


def _mixed_file(tmp_path: Path) -> Path:
    """Every bundled sample and the flawed collection in one file, with notes between
    games (text that is not a game: its finding goes to the next game)."""
    parts = []
    for i, p in enumerate([*VARIANT_FILES, SAMPLES / "flawed.pdn"]):
        text = p.read_text(encoding="utf-8").strip()
        if i % 2:
            text = "a note between two files\n\n" + text
        parts.append(text)
    out = tmp_path / "mixed.pdn"
    out.write_text("\n\n".join(parts) + "\n\nsome trailing words\n", encoding="utf-8")
    return out


def test_rows_agree_with_the_validator(tmp_path: Path) -> None:
    db = tmp_path / "v.duckdb"
    f = _mixed_file(tmp_path)
    import_files([f], db=db)
    con = duckdb.connect(str(db), read_only=True)
    moves = con.execute(
        "SELECT g.game_index, m.ply, m.canonical, m.captured_count, m.is_capture, m.replayed "
        "FROM moves m JOIN games g USING (game_id) ORDER BY 1, 2").fetchall()
    pos = con.execute(
        "SELECT g.game_index, p.ply, p.fen, p.position_key, p.side, p.white_men, "
        "p.white_kings, p.black_men, p.black_kings "
        "FROM positions p JOIN games g USING (game_id) WHERE p.ply > 0 ORDER BY 1, 2"
    ).fetchall()
    con.close()
    want_moves, want_pos = [], []
    quiet = captures = 0
    for r in validate(f):
        for p in r.plies:
            want_moves.append((r.index, p.ply, p.notation, len(p.captured),
                               bool(p.captured) if p.replayed else None, p.replayed))
            if p.replayed:
                quiet += not p.captured
                captures += bool(p.captured)
                c = p.counts_after
                want_pos.append((r.index, p.ply, p.fen_after, stored_key(p.position_after),
                                 p.fen_after[0],
                                 c["white_men"], c["white_kings"], c["black_men"],
                                 c["black_kings"]))
    assert quiet > 500 and captures > 100  # both paths of the canonical form are exercised
    assert moves == want_moves
    assert pos == want_pos


def _table(con: duckdb.DuckDBPyConnection, name: str) -> list[tuple[object, ...]]:
    drop = {"files": "file_id, path, imported_at", "games": "file_id",
            "findings": "file_id"}.get(name)
    cols = f"* EXCLUDE ({drop})" if drop else "*"
    return con.execute(f"SELECT {cols} FROM {name} ORDER BY ALL").fetchall()


@pytest.mark.parametrize("pay", [True, False], ids=["workers", "measured-not-to-pay"])
def test_worker_processes_load_the_same_tables(tmp_path: Path, pay: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    f = _mixed_file(tmp_path)
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    import_files([f], db=one)
    # small worker batches and loads: stray text and special games fall everywhere
    monkeypatch.setattr(ingest, "WORKER_GAMES", 3)
    monkeypatch.setattr("pdnkit.validation.costs.PARALLEL_MIN_BYTES", 0)  # workers, however
    monkeypatch.setattr("pdnkit.validation.costs.workers_can_pay", lambda: True)
    monkeypatch.setattr("pdnkit.validation.costs.workers_pay", lambda *a, **k: pay)  # small
    monkeypatch.setattr("pdnkit.rows.batch.BATCH_GAMES", 4)
    s = import_files([f], db=two, jobs=2)
    assert s.games > 50 and s.findings > 10
    a, b = duckdb.connect(str(one), read_only=True), duckdb.connect(str(two), read_only=True)
    for name in ("games", "moves", "positions", "findings", "rule_events"):
        ra, rb = _table(a, name), _table(b, name)
        assert len(ra) > 0, name
        assert ra == rb, name
    assert a.execute("SELECT count(*) FROM findings WHERE code = 'ignored-text'").fetchone() \
        == ((len(VARIANT_FILES) + 1) // 2 + 1,)  # the notes and the trailing words
    a.close()
    b.close()


def test_square_names_and_canonical_short_forms() -> None:
    # Russian notation names squares by coordinates: 29 is a1 (RULES.md 4.5)
    rules = get_rules("russian")
    assert square_names(rules)[29] == "a1" and square_names(rules)[1] == "b8"
    pos = parse_fen("W:Wc3,e3:Bd4", rules)
    # two captures of the same man, different origins: both short
    texts = sorted(canonical_notation(m, pos) for m in pos.legal_moves())
    assert texts == ["c3:e5", "e3:c5"]
    # passing the move alone as the legal list gives the same text
    assert sorted(canonical_notation(m, pos, (m,)) for m in pos.legal_moves()) == texts
