"""The loader on its own: bulk load, one transaction per file, re-import, replace, typed tags.

The validator's serial stream is replaced by ``fakes.fake_file_reports`` (reports shaped as
the contract says), so these tests check only what the store does with them."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import duckdb
import pytest

from pdnkit.rows import batch as rows
from pdnkit.rows.bitboards import bits_key
from pdnkit.store import connect, duplicates, import_files, ingest, query
from pdnkit.validation import flow
from tests.store.fakes import fake_file_reports, write_fake

G1 = "Sijbrands|Baba Sy|Worlds|1964.05.03|32-28 19-23 28x19 14x23|ok"
G2 = "Wiersma|Clerc|Dutch ch|1976.??.??|33-28 18-23|error"
G3 = "Sijbrands|Baba Sy|Other event|1964.05.03|32-28 19-23 28x19 14x23|ok"


@pytest.fixture(autouse=True)
def _fake_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flow, "serial_reports", fake_file_reports)


def _count(db: Path, table: str) -> int:
    con = duckdb.connect(str(db))
    try:
        return con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
    finally:
        con.close()


def test_import_loads_every_table(tmp_path: Path) -> None:
    f = write_fake(tmp_path / "a.pdn", [G1, G2])
    db = tmp_path / "t.duckdb"
    s = import_files([f], db=db)
    assert (s.imported, s.games, s.plies, s.findings) == (1, 2, 6, 1)
    assert s.status_counts == {"ok": 1, "error": 1}
    con = duckdb.connect(str(db))
    path, sha, size, enc, games = con.execute(
        "SELECT path, sha256, size, encoding, games FROM files").fetchall()[0]
    assert path == str(f.resolve())
    assert sha == hashlib.sha256(f.read_bytes()).hexdigest()
    assert size == f.stat().st_size and enc == "utf-8" and games == 2
    g = con.execute("SELECT game_index, white, black, event, date, date_raw, year, "
                    "white_rating, black_rating, tags['Event'], plies, status, outcome "
                    "FROM games ORDER BY game_index").fetchall()
    assert g[0] == (0, "Sijbrands", "Baba Sy", "Worlds", dt.date(1964, 5, 3), "1964.05.03",
                    1964, 2301, None, "Worlds", 4, "ok", "white")
    # a partial date keeps its year but is not a DATE
    assert g[1][4:7] == (None, "1976.??.??", 1976)
    m = con.execute("SELECT ply, move_number, side, notation, path, captured, captured_count,"
                    " is_capture, nags, comment FROM moves JOIN games USING (game_id) "
                    "WHERE game_index = 0 ORDER BY ply").fetchall()
    assert m[2] == (3, 2, "W", "28x19", [28, 19], [23], 1, True, None, None)
    assert m[0][8] == [1] and m[1][9] == "c"
    # one position row per replayed ply; the key is derived from the stored bitboards
    keys = con.execute("SELECT position_key, wm, wk, bm, bk, black FROM positions "
                       "ORDER BY game_id, ply").fetchall()
    assert len(keys) == 6
    assert all(k == bits_key((wm, wk, bm, bk), black) for k, wm, wk, bm, bk, black in keys)
    fnd = con.execute("SELECT code, severity, ply, move, details, file_id IS NOT NULL "
                      "FROM findings").fetchall()
    assert fnd == [("illegal-move", "error", 1, "33-28", '{"candidates": ["a", "b"]}', True)]
    assert con.execute("SELECT count(*), min(limit_plies) FROM rule_events").fetchall()[0] == (2, 50)


def test_reimport_is_a_noop_and_replace_reloads(tmp_path: Path) -> None:
    f = write_fake(tmp_path / "a.pdn", [G1, G2])
    db = tmp_path / "t.duckdb"
    import_files([f], db=db)
    again = import_files([tmp_path], db=db)
    assert (again.imported, again.skipped, again.games) == (0, 1, 0)
    assert _count(db, "games") == 2 and _count(db, "moves") == 6
    r = import_files([f], db=db, replace=True)
    assert r.files[0].status == "replaced" and r.games == 2
    assert _count(db, "files") == 1 and _count(db, "games") == 2
    assert _count(db, "moves") == 6 and _count(db, "findings") == 1
    assert _count(db, "positions") == 6 and _count(db, "rule_events") == 2


def test_edited_file_replaces_its_old_version(tmp_path: Path) -> None:
    f = write_fake(tmp_path / "a.pdn", [G1, G2])
    db = tmp_path / "t.duckdb"
    import_files([f], db=db)
    write_fake(f, [G1])
    s = import_files([f], db=db)
    assert s.files[0].status == "updated"
    assert _count(db, "files") == 1 and _count(db, "games") == 1 and _count(db, "moves") == 4


def test_interrupted_file_leaves_no_trace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = write_fake(tmp_path / "a.pdn", [G1])
    bad = write_fake(tmp_path / "b.pdn", [G1, G2, G3, G1, G2])
    monkeypatch.setattr(rows, "BATCH_GAMES", 2)  # several slices inside the transaction

    def interrupted(path: Path, options: object = None, guess: object = None):  # type: ignore[no-untyped-def]
        for i, rep in enumerate(fake_file_reports(path, options)):
            if path.name == "b.pdn" and i == 4:
                raise KeyboardInterrupt
            yield rep

    monkeypatch.setattr(flow, "serial_reports", interrupted)
    db = tmp_path / "t.duckdb"
    with pytest.raises(KeyboardInterrupt):
        import_files([good, bad], db=db)
    # a.pdn is complete, b.pdn (two slices already written) is absent
    assert _count(db, "files") == 1 and _count(db, "games") == 1
    assert _count(db, "moves") == 4 and _count(db, "findings") == 0
    monkeypatch.setattr(flow, "serial_reports", fake_file_reports)
    s = import_files([good, bad], db=db)
    assert (s.skipped, s.imported, s.games) == (1, 1, 5)
    assert _count(db, "games") == 6


def test_slices_give_unique_contiguous_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows, "BATCH_GAMES", 3)
    f1 = write_fake(tmp_path / "a.pdn", [G1, G2, G3, G1, G2, G3, G1])
    f2 = write_fake(tmp_path / "b.pdn", [G2, G3])
    db = tmp_path / "t.duckdb"
    import_files([f1, f2], db=db)
    df = query("SELECT file_id, game_index, game_id FROM games ORDER BY game_id", db=db)
    assert df["game_id"].tolist() == list(range(1, 10))
    assert df["game_index"].tolist() == [0, 1, 2, 3, 4, 5, 6, 0, 1]
    # every move belongs to the game with the same moves
    bad = query("SELECT count(*) AS n FROM moves m JOIN games g USING (game_id) "
                "WHERE m.ply > g.plies", db=db)["n"][0]
    assert bad == 0


def test_duplicates_groups_identical_moves(tmp_path: Path) -> None:
    """The same record twice is one game; the same four plies by the same players at
    another event are listed apart as another game (a short line groups only where the
    tags agree on the event or the round too: docs/duplicates.md)."""
    f = write_fake(tmp_path / "a.pdn", [G1, G2, G3, G1])
    db = tmp_path / "t.duckdb"
    import_files([f], db=db)
    d = duplicates(db=db)
    assert d["relation"].tolist() == ["copies", "same-moves"]
    copies, other = d.iloc[0], d.iloc[1]
    assert copies["games"] == 2 and not bool(copies["tags_differ"])
    assert [loc.rsplit("#", 1)[1] for loc in copies["locations"]] == ["1", "4"]
    assert list(copies["kinds"]) == ["canonical", "identical"]
    assert other["games"] == 2 and list(other["differing_tags"]) == ["Event"]
    assert [loc.rsplit("#", 1)[1] for loc in other["locations"]] == ["1", "3"]


def test_identical_tags_are_reported_as_not_differing(tmp_path: Path) -> None:
    f = write_fake(tmp_path / "a.pdn", [G1, G1])
    db = tmp_path / "t.duckdb"
    import_files([f], db=db)
    d = duplicates(db=db)
    assert len(d) == 1 and not bool(d.iloc[0]["tags_differ"])


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        import_files([tmp_path / "nope.pdn"], db=tmp_path / "t.duckdb")


def test_query_needs_an_existing_database(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        query("SELECT 1", db=tmp_path / "absent.duckdb")
    assert not (tmp_path / "absent.duckdb").exists()


def test_old_database_gets_new_columns(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE games (game_id BIGINT PRIMARY KEY, file_id BIGINT NOT NULL, "
                "game_index INTEGER NOT NULL)")
    con.execute("INSERT INTO games VALUES (1, 1, 0)")
    con.execute("CREATE TABLE files (file_id BIGINT PRIMARY KEY, path VARCHAR NOT NULL, "
                "sha256 VARCHAR NOT NULL, size BIGINT NOT NULL, games INTEGER NOT NULL, "
                "imported_at TIMESTAMP NOT NULL)")
    con.execute("INSERT INTO files VALUES (1, 'a.pdn', 'x', 1, 1, now())")
    con.close()
    con = connect(db)
    cols = [r[0] for r in con.execute("DESCRIBE games").fetchall()]
    assert "raw_pdn" in cols and "moves_hash" in cols
    assert con.execute("SELECT game_id, white FROM games").fetchall() == [(1, None)]
    assert con.execute("SELECT path, encoding FROM files").fetchall() == [("a.pdn", None)]
    con.close()


def test_large_file_is_one_transaction(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the middle of a file of many batches: nothing of it was ever committed, so
    the database holds no trace of it even before any cleanup runs."""
    monkeypatch.setattr(rows, "BATCH_GAMES", 2)
    good = write_fake(tmp_path / "a.pdn", [G1])
    big = write_fake(tmp_path / "b.pdn", [G1, G2, G3, G1, G2, G3, G1])

    def interrupted(path: Path, options: object = None, guess: object = None):  # type: ignore[no-untyped-def]
        for i, rep in enumerate(fake_file_reports(path, options)):
            if path.name == "b.pdn" and i == 5:
                raise KeyboardInterrupt
            yield rep

    monkeypatch.setattr(flow, "serial_reports", interrupted)
    db = tmp_path / "t.duckdb"
    with pytest.raises(KeyboardInterrupt):
        import_files([good, big], db=db)
    raw = duckdb.connect(str(db))  # no connect(): no cleanup of any kind
    counts = [raw.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
              for t in ("files", "games", "moves", "positions", "findings")]
    raw.close()
    assert counts == [1, 1, 4, 4, 0]
    monkeypatch.setattr(flow, "serial_reports", fake_file_reports)
    s = import_files([good, big], db=db)
    assert (s.skipped, s.imported, s.games) == (1, 1, 7)
    assert _count(db, "games") == 8 and _count(db, "files") == 2


_KILLER = """
import os, signal, sys
from pathlib import Path
from pdnkit.store import import_files
from pdnkit.rows import batch as rows
from pdnkit.validation import flow
from tests.store.fakes import fake_file_reports

def killed(path, options=None, guess=None):
    for i, rep in enumerate(fake_file_reports(path, options)):
        if path.name == "b.pdn" and i == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        yield rep

rows.BATCH_GAMES = 2
flow.serial_reports = killed
import_files([Path(sys.argv[1]), Path(sys.argv[2])], db=sys.argv[3])
"""


def test_killed_import_leaves_each_file_whole_or_absent(tmp_path: Path) -> None:
    """A kill (SIGKILL: nothing runs after it) in the middle of a file of several batches."""
    import signal
    import subprocess
    import sys

    good = write_fake(tmp_path / "a.pdn", [G1])
    big = write_fake(tmp_path / "b.pdn", [G1, G2, G3, G1, G2, G3, G1])
    db = tmp_path / "t.duckdb"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", _KILLER, str(good), str(big), str(db)],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    raw = duckdb.connect(str(db))  # the WAL is replayed; no pdnkit cleanup runs
    counts = [raw.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
              for t in ("files", "games", "moves", "positions", "findings")]
    raw.close()
    assert counts == [1, 1, 4, 4, 0]
    s = import_files([good, big], db=db)
    assert (s.skipped, s.imported, s.games) == (1, 1, 7)
    assert _count(db, "games") == 8


def test_loaded_batches_are_not_kept_until_commit(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays flat inside a file's transaction: the Arrow data of a loaded batch is
    freed at once (DuckDB keeps objects registered in a transaction alive until it ends)."""
    import pyarrow as pa

    monkeypatch.setattr(rows, "BATCH_GAMES", 5)
    f = write_fake(tmp_path / "a.pdn", [G1, G2, G3] * 70)
    held: list[int] = []
    loaded: list[int] = []
    load = ingest.load_batch

    def watched(con, tables, file_id, offset, layouts=None, pairs=None):  # type: ignore[no-untyped-def]
        loaded.append(sum(t.nbytes for t in tables.values()))
        load(con, tables, file_id, offset, layouts, pairs)
        del tables
        held.append(pa.total_allocated_bytes())

    monkeypatch.setattr(ingest, "load_batch", watched)
    import_files([f], db=tmp_path / "t.duckdb")
    assert len(loaded) == 42
    # retained batches would add up to sum(loaded) (41 batches of growth); a flat loader
    # holds about one batch, plus what the reader's thread builds ahead meanwhile (Arrow's
    # count is the whole process's: on a busy machine that was 3.5 batches, so the bound is
    # on the growth against the retained sum, not against one batch)
    assert 10 * max(loaded) < sum(loaded)
    assert max(held) - held[0] < sum(loaded) / 5
