"""The loader: it computes the ``position_bits`` rows of boards of at most 64 engine bits in
SQL (``position_bits_query``), whose square bitboards and key must be exactly the engine's
(``square_bits``, ``Position.key``), and the ``positions`` view's FEN, side and piece counts
(``write_fen``, ``Position.counts``) on random placements of every variant, kings and empty
sides included; the key itself must tell positions apart; the writer thread
hands its errors to the caller and rolls the file back; the interpreter settings changed while
importing are restored."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from pdnkit.rows.batch import ReportBatch, _schemas
from pdnkit.rows.bitboards import board_layout, layout_ids, square_bits
from pdnkit.rows.load import position_bits_query
from pdnkit.rules import Position, get_rules, list_variants, write_fen
from pdnkit.rules.fen import fen_layout
from pdnkit.rules.position import position_key
from pdnkit.samples import sample_dir
from pdnkit.store import import_files, ingest
from pdnkit.store.db import connect
from tests.placements import random_positions, stored_key

VARIANTS = [r for r in list_variants() if fen_layout(r) is not None]


def test_every_board_but_12x12_goes_through_sql() -> None:
    assert {r.geometry.width for r in VARIANTS} == {8, 10}
    assert fen_layout(get_rules("canadian")) is None  # 12x12: written in Python


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.edition}")
def test_sql_rows_equal_the_engine(rules: object) -> None:
    positions = random_positions(rules, 300, seed=11)
    positions.append(Position.initial(rules))  # type: ignore[arg-type]
    layout = board_layout(rules)  # type: ignore[arg-type]
    other = board_layout(get_rules("russian" if rules.geometry.width == 10 else "international"))  # type: ignore[attr-defined]
    # two layouts in one batch: rows pick theirs by number
    cols = {"game_id": [], "ply": [], "layout": [], "black": [], "w": [], "b": [], "k": []}
    for i, p in enumerate(positions):
        for col, v in zip(cols, (7, i, 1, int(p.side), *p.engine_bits), strict=True):
            cols[col].append(v)
    batch = pa.table(cols, schema=_schemas()["position_bits"])
    con = connect(":memory:")
    ids = layout_ids(con, [other, layout])
    con.from_arrow(batch).query("_pdnkit_load", "INSERT INTO position_bits BY NAME "
                                + position_bits_query([other, layout], 100, ids))
    rows = con.execute("SELECT game_id, ply, side, fen, white_men, white_kings, black_men, "
                       "black_kings, position_key, wm, wk, bm, bk FROM positions "
                       "ORDER BY ply").fetchall()
    assert len(rows) == len(positions)
    for (gid, ply, side, fen, wm, wk, bm, bk, key, *bits), p in zip(rows, positions,
                                                                    strict=True):
        c = p.counts()
        assert gid == 107
        assert fen == write_fen(p), ply
        assert key == stored_key(p), fen
        assert side == str(p.side)
        assert (wm, wk, bm, bk) == (c["white_men"], c["white_kings"], c["black_men"],
                                    c["black_kings"])
        assert tuple(bits) == square_bits(p)
        assert tuple(bits) == _bits_from_sets(p)


def _bits_from_sets(p: Position) -> tuple[int, int, int, int]:
    """Square bitboards straight from the position's square sets (bit n - 1: square n)."""
    return tuple(sum(1 << (n - 1) for n in s)  # type: ignore[return-value]
                 for s in (p.white_men, p.white_kings, p.black_men, p.black_kings))


def test_keys_tell_positions_apart() -> None:
    """Distinct positions, distinct keys (random placements of two boards, both sides to
    move, plus every one-man move of the initial positions); equal positions, equal keys."""
    seen: dict[int, tuple[int, int, int, int]] = {}
    for name in ("international", "russian", "canadian"):
        rules = get_rules(name)
        for p in random_positions(rules, 20_000, seed=3):
            for q in (p, p.with_side("B" if str(p.side) == "W" else "W")):
                state = (*q.engine_bits, int(q.side))
                assert seen.setdefault(q.key(), state) == state
        start = Position.initial(rules)
        for m in start.legal_moves():
            q = start.play(m)
            state = (*q.engine_bits, int(q.side))
            assert seen.setdefault(q.key(), state) == state
    assert len(seen) > 100_000
    # the database's key: the same mix over square bitboards tells them apart as well
    stored: dict[int, tuple[int, ...]] = {}
    for name in ("international", "russian", "canadian"):
        for p in random_positions(get_rules(name), 20_000, seed=4):
            state = (*square_bits(p), int(p.side))
            assert stored.setdefault(stored_key(p), state) == state
    assert len(stored) > 50_000


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
    monkeypatch.setattr("pdnkit.rows.batch.BATCH_GAMES", 1)
    games = (sample_dir() / "russian.pdn").read_text(encoding="utf-8").split("\n\n[")
    good, bad = tmp_path / "a.pdn", tmp_path / "b.pdn"
    good.write_text(games[0] + "\n", encoding="utf-8")
    bad.write_text(games[0] + "\n\n[" + "\n\n[".join(games[1:4]) + "\n", encoding="utf-8")
    load = ingest.load_batch
    calls: list[int] = []

    def failing(con, tables, file_id, offset, layouts=None, pairs=None):  # type: ignore[no-untyped-def]
        calls.append(offset)
        if file_id == 2 and len(calls) == 3:
            raise RuntimeError("disk full")
        load(con, tables, file_id, offset, layouts, pairs)

    monkeypatch.setattr(ingest, "load_batch", failing)
    db = tmp_path / "t.duckdb"
    with pytest.raises(RuntimeError, match="disk full"):
        import_files([good, bad], db=db)
    con = duckdb.connect(str(db))
    assert con.execute("SELECT count(*) FROM files").fetchall() == [(1,)]
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(1,)]
    con.close()
    monkeypatch.setattr(ingest, "load_batch", load)
    assert import_files([good, bad], db=db).games == 4


def test_batches_merge_their_layouts() -> None:
    """Batches built apart (worker processes) number their layouts independently; merging
    renumbers the rows to the merged list."""
    intl, russian = board_layout(get_rules("international")), board_layout(get_rules("russian"))
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


def test_wide_boards_are_written_in_python(tmp_path: Path) -> None:
    """Canadian draughts (12x12: bitboards past 64 bits) takes the Python path; its rows
    equal the engine's too, set-up games included."""
    from pdnkit.pdn import write_games
    from pdnkit.samples.samples import variant_collection
    from pdnkit.validation import validate

    f = tmp_path / "canadian.pdn"
    write_games(variant_collection("canadian", 10), f)
    db = tmp_path / "c.duckdb"
    import_files([f], db=db)
    con = duckdb.connect(str(db), read_only=True)
    stored = con.execute(
        "SELECT g.game_index, p.ply, p.fen, p.position_key, p.side, p.white_men, "
        "p.white_kings, p.black_men, p.black_kings, p.wm, p.wk, p.bm, p.bk FROM positions p "
        "JOIN games g USING (game_id) WHERE p.ply > 0 ORDER BY 1, 2").fetchall()
    con.close()
    expected = []
    for rep in validate(f):
        assert rep.variant == "canadian"
        for p in rep.plies:
            a = p.position_after
            c = a.counts()
            expected.append((rep.index, p.ply, write_fen(a), stored_key(a), str(a.side),
                             c["white_men"], c["white_kings"], c["black_men"],
                             c["black_kings"], *_bits_from_sets(a)))
    assert len(expected) > 500
    assert stored == expected


def test_capture_written_as_several_plies_is_loaded(tmp_path: Path) -> None:
    """A capture written as one ply a jump (as some servers export it) is read as one move;
    its later plies have no move of their own, and the import keeps them without a
    canonical form instead of failing."""
    f = tmp_path / "split.pdn"
    f.write_text('[GameType "20"]\n[FEN "W:W32,28,K39:B23,14,13"]\n'
                 "1. 28x19 19x10 13x24 2. 39x21 *\n", encoding="utf-8")
    s = import_files([f], db=tmp_path / "s.duckdb")
    assert s.games == 1
    con = duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True)
    moves = con.execute("SELECT ply, notation, canonical, replayed FROM moves ORDER BY ply"
                        ).fetchall()
    codes = [c for (c,) in con.execute("SELECT code FROM findings").fetchall()]
    con.close()
    assert moves[0][:3] == (1, "28x19", "28x10")
    assert moves[1] == (2, "19x10", None, True)
    assert "notation-mismatch" in codes


def test_a_fault_in_one_game_does_not_stop_the_import(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault of pdnkit's own code while replaying one game, or while building its rows,
    costs that game its moves (kept as raw text, with an ``internal-error`` finding) and
    nothing else."""
    from pdnkit.validation.coreline import CoreLine
    from pdnkit.validation.plainline import PlainLine

    games = (sample_dir() / "russian.pdn").read_text(encoding="utf-8").split("\n\n[")
    f = tmp_path / "r.pdn"
    f.write_text("\n\n[".join(games[:5]) + "\n", encoding="utf-8")
    calls = {"replay": 0, "rows": 0}

    def replay_fault(take):  # type: ignore[no-untyped-def]
        def faulty(self, k, *args):  # type: ignore[no-untyped-def]
            calls["replay"] += 1
            if self.report.index == 1:  # game 1: its main line's replay faults
                raise KeyError("ghost square")
            return take(self, k, *args)
        return faulty

    rows_run = ReportBatch._add_run

    def rows_fault(self, gid, run, canonical):  # type: ignore[no-untyped-def]
        calls["rows"] += 1
        if calls["rows"] == 2:  # game 2 (game 1, replay faulty, has no plain run)
            self.moves["ply"].append(999)  # half a row written before the fault
            raise ZeroDivisionError("division by zero")
        return rows_run(self, gid, run, canonical)

    # whatever replays the main line (a clean game's one core call, the compiled core's
    # strategy or Python's) faults
    import pdnkit.validation.game as game_mod

    clean = game_mod.clean_line

    def clean_fault(report, *args):  # type: ignore[no-untyped-def]
        if report.index == 1:
            raise KeyError("ghost square")
        return clean(report, *args)

    monkeypatch.setattr(game_mod, "clean_line", clean_fault)
    monkeypatch.setattr(PlainLine, "take", replay_fault(PlainLine.take))
    monkeypatch.setattr(CoreLine, "take", replay_fault(CoreLine.take))
    monkeypatch.setattr(ReportBatch, "_add_run", rows_fault)
    db = tmp_path / "f.duckdb"
    s = import_files([f], db=db)
    assert s.games == 5
    con = duckdb.connect(str(db), read_only=True)
    games_rows = con.execute("SELECT game_index, status, plies, raw_pdn IS NOT NULL "
                             "FROM games ORDER BY 1").fetchall()
    faults = con.execute("SELECT game_index, message FROM findings "
                         "WHERE code = 'internal-error' ORDER BY 1").fetchall()
    moves = dict(con.execute("SELECT g.game_index, count(*) FROM moves m JOIN games g "
                             "USING (game_id) GROUP BY 1").fetchall())
    bad_plies = con.execute("SELECT count(*) FROM moves WHERE ply = 999").fetchall()[0][0]
    con.close()
    assert [g[0] for g in games_rows] == [0, 1, 2, 3, 4] and all(g[3] for g in games_rows)
    assert [i for i, _ in faults] == [1, 2]
    assert "KeyError" in faults[0][1] and "replaying" in faults[0][1]
    assert "ZeroDivisionError" in faults[1][1] and "loading" in faults[1][1]
    assert games_rows[1][1] == games_rows[2][1] == "error"
    assert games_rows[2][2] == 0 and 2 not in moves and bad_plies == 0
    # the faulty replay keeps the moves as written, unreplayed
    assert games_rows[1][2] > 0 and moves[1] == games_rows[1][2]
    assert all(moves[i] == games_rows[i][2] > 0 for i in (0, 3, 4))


def test_one_worker_pool_serves_every_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``jobs=2`` starts two worker processes for the whole import, not two per file."""
    import os

    from pdnkit.validation import jobs

    work = jobs._work
    seen = tmp_path / "pids"
    seen.mkdir()

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        (seen / str(os.getpid())).touch()
        return work(*args, **kwargs)

    # sent to the workers by reference, as the function it stands in for
    recording.__qualname__ = recording.__name__ = "_work"
    recording.__module__ = jobs.__name__
    monkeypatch.setattr(jobs, "_work", recording)
    monkeypatch.setattr("pdnkit.validation.costs.PARALLEL_MIN_BYTES", 0)  # small files too
    monkeypatch.setattr("pdnkit.validation.costs.workers_can_pay", lambda: True)
    monkeypatch.setattr("pdnkit.validation.costs.workers_pay", lambda *a, **k: True)
    names = ["russian", "english", "italian", "frisian"]
    files = []
    for name in names:
        f = tmp_path / f"{name}.pdn"
        f.write_text((sample_dir() / f"{name}.pdn").read_text(encoding="utf-8"),
                     encoding="utf-8")
        files.append(f)
    s = import_files(files, db=tmp_path / "p.duckdb", jobs=2)
    assert s.imported == 4
    pids = {p.name for p in seen.iterdir()}
    workers = pids - {str(os.getpid())}  # this process replays the timed first games
    assert 1 <= len(workers) <= 2


def test_the_import_pool_sets_its_workers_up_as_validate_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import's workers get validate's garbage-collector set-up (the pool's initializer
    :func:`pdnkit.validation.parts.worker_start`): a worker then collects its youngest
    generation at :data:`~pdnkit.validation.parts.WORKER_GC_THRESHOLD`."""
    import pdnkit._children as children
    from pdnkit.validation.parts import WORKER_GC_THRESHOLD, gc_threshold, worker_start

    real = children.process_pool
    thresholds: list[int] = []

    def started(jobs: int, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        pool = real(jobs, *args, **kwargs)  # type: ignore[arg-type]
        thresholds.append(pool.submit(gc_threshold).result())
        assert args[:1] == (worker_start,)
        return pool

    monkeypatch.setattr(children, "process_pool", started)
    monkeypatch.setattr("pdnkit.validation.costs.PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr("pdnkit.validation.costs.workers_can_pay", lambda: True)
    f = tmp_path / "russian.pdn"
    f.write_text((sample_dir() / "russian.pdn").read_text(encoding="utf-8"), encoding="utf-8")
    assert import_files([f], db=tmp_path / "g.duckdb", jobs=2).imported == 1
    assert thresholds == [WORKER_GC_THRESHOLD]
