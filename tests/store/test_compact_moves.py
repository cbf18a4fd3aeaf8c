"""The compact ``move_rows`` give back, through the ``moves`` view, exactly the rows the loader
was given: every column of every ply of the bundled samples and of the shared real files
(notations as written, unreplayed and split captures, set-ups, Black-first games and move
numbers as files write them), while what the view derives is not stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdnkit.rows.batch import ReportBatch
from pdnkit.rows.load import load_batch
from pdnkit.samples import sample_dir
from pdnkit.store.db import connect
from pdnkit.validation import validate
from tests.shared import shared_path

COLUMNS = ("game_id", "ply", "move_number", "side", "notation", "canonical", "origin",
           "destination", "path", "captured", "captured_count", "is_capture", "promotes",
           "piece", "nags", "comment", "replayed", "line")


def _expected(batch: ReportBatch) -> list[tuple[object, ...]]:
    """The rows as given to the loader, with the capture counts it always derived."""
    m = batch.moves
    out = []
    for i in range(len(m["game_id"])):
        cap = m["captured"][i]
        row = {c: m[c][i] for c in m}
        row["path"] = list(row["path"]) if row["path"] is not None else None
        row["captured"] = list(cap) if cap is not None else None
        row["nags"] = list(row["nags"]) if row["nags"] else None
        row["captured_count"] = len(cap or ())
        row["is_capture"] = bool(cap) if row["replayed"] else None
        out.append(tuple(row[c] for c in COLUMNS))
    return sorted(out, key=lambda r: (r[0], r[1]))


def _round_trip(files: list[Path]) -> tuple[int, dict[str, float]]:
    """Load each file's batch and compare the view with it; returns the rows checked and the
    share of rows whose notation, canonical form and path were not stored."""
    rows = 0
    stored = {"notation": 0, "canonical": 0, "path": 0}
    for f in files:
        batch = ReportBatch()
        for rep in validate(f):
            batch.add(rep)
        con = connect(":memory:")
        load_batch(con, batch.to_arrow(), 1, 0, batch.layouts)
        got = con.execute(f"SELECT {', '.join(COLUMNS)} FROM moves ORDER BY game_id, ply"
                          ).fetchall()
        assert got == _expected(batch), f
        rows += len(got)
        for col in stored:
            stored[col] += con.execute(
                f"SELECT count({col}) FROM move_rows").fetchall()[0][0]
    return rows, {c: 1 - n / rows for c, n in stored.items()}


def test_samples_round_trip() -> None:
    rows, saved = _round_trip(sorted(sample_dir().glob("*.pdn")))
    assert rows > 5_000
    assert saved["canonical"] > 0.9 and saved["path"] > 0.6


@pytest.mark.slow
def test_real_files_round_trip() -> None:
    files = sorted(shared_path("real").rglob("*.pdn"))
    rows, saved = _round_trip(files)
    assert rows > 30_000
    assert saved["canonical"] > 0.8 and saved["path"] > 0.8 and saved["notation"] > 0.3


def test_every_encoding_is_exact() -> None:
    """Hand-made rows at the edges: a notation that only looks numeric, a missing or empty
    canonical form, a path that is not [origin, destination], move numbers off the ply."""
    con = connect(":memory:")
    con.execute("""INSERT INTO move_rows BY NAME SELECT * FROM (
        SELECT 1::BIGINT AS game_id, 1 AS ply, 0 AS number_offset, 'W' AS side,
               NULL AS notation, NULL AS canonical, 32 AS origin, 28 AS destination,
               NULL::INTEGER[] AS path, []::INTEGER[] AS captured, true AS replayed)""")
    assert con.execute("SELECT notation, canonical, path, move_number FROM moves"
                       ).fetchall() == [("32-28", "32-28", [32, 28], 1)]
    from pdnkit.rows.compact import MOVE_ROWS_SELECT

    cases = [  # ply, move_number, side, notation, canonical, origin, destination, path, captured
        (1, 1, "W", "32-28", "32-28", 32, 28, [32, 28], []),
        (2, 1, "B", "19x28", "19x28", 19, 28, [19, 28], [23]),
        (3, 7, "W", "05-10", "5-10", 5, 10, [5, 10], []),
        (4, 2, "W", "28x19", None, None, None, [], []),
        (5, 3, "B", "c3-d4", "", 9, 13, [9, 13], []),
        (6, None, None, "x", "y", None, None, [1, 2, 3], [2]),
        (1, 1, "B", "28x10", "28x19x10", 28, 10, [28, 19, 10], [23, 14]),
    ]
    con.execute("DELETE FROM move_rows")
    for i, (ply, num, side, nota, can, o, d, path, cap) in enumerate(cases):
        con.execute(
            f"INSERT INTO move_rows BY NAME SELECT {MOVE_ROWS_SELECT} FROM (SELECT "
            "?::BIGINT AS game_id, ?::INTEGER AS ply, ?::INTEGER AS move_number, ? AS side, "
            "? AS notation, ? AS canonical, ?::INTEGER AS origin, ?::INTEGER AS destination, "
            "?::INTEGER[] AS path, ?::INTEGER[] AS captured, false AS promotes, NULL AS piece,"
            " NULL::INTEGER[] AS nags, NULL AS comment, true AS replayed, 1 AS line)",
            [i, ply, num, side, nota, can, o, d, path, cap])
    got = con.execute("SELECT ply, move_number, side, notation, canonical, origin, "
                      "destination, path, captured FROM moves ORDER BY game_id").fetchall()
    want = [(p, n, s, nota, None if can in ("", None) else can, o, d, path, cap)
            for p, n, s, nota, can, o, d, path, cap in cases]
    assert got == want
