"""Mistakes as findings, from hand-written scores: which move is a mistake, a blunder or a
missed shot, from whose point of view, held within the clamp, never the engine's own move;
thresholds that move change the findings and nothing else; a second judgement writes
nothing."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pdnkit.analysis import Thresholds, accuracy, mistakes
from pdnkit.analysis.thresholds import write_mistakes
from pdnkit.store import import_files
from pdnkit.store.evals import AnalysisKey
from tests.engines.helpers import game_text, random_game

KEY = AnalysisKey("hand", "1", '{"depth":1}', "positional")
MOVES = random_game(5, plies=8)

#: ply -> (score White's view, best, pv, material, pv_material) of the position at that ply
SCORES = {
    # the move of ply k is judged by the rows k - 1 (before) and k (after); White moves at
    # the odd plies
    0: (0.2, "x", "x", 0.0, 0.0),
    1: (-0.4, "x", "x", 0.0, 0.0),   # White's move 1 lost 0.6: a mistake
    2: (0.8, "x", "x", 0.0, 0.0),    # Black's move 2 lost 1.2 (-0.4 -> -0.8 its way): blunder
    3: (0.7, "x", "x", 0.0, 0.0),    # White's move 3 lost 0.1: nothing
    4: (2.0, None, "31-27 22x31 36x27", 0.0, 2.0),  # Black's 4 lost 1.3 but was the best
    5: (0.0, "x", "x", 0.0, 0.0),    # White's 5 lost 2.0 where the line won 2.0: missed shot
    6: (20.0, "x", "x", 0.0, 0.0),   # Black's 6: 0 -> -20 (clamped -5): a blunder of 5
    7: (3.0, "x", "x", 0.0, 0.0),    # White's 7: +20 (clamped 5) -> 3: a blunder of 2
    8: (3.0, "x", "x", 0.0, 0.0),    # Black's 8: -3 -> -3: nothing
}


@pytest.fixture
def db(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    pdn = tmp_path / "g.pdn"
    pdn.write_text(game_text(MOVES), encoding="utf-8")
    import_files(pdn, db=tmp_path / "g.duckdb")
    con = duckdb.connect(str(tmp_path / "g.duckdb"))
    played = dict(con.execute("SELECT ply, canonical FROM moves").fetchall())
    rows = []
    for ply, (score, best, pv, mat, pvm) in SCORES.items():
        if ply == 3:  # the move played next (ply 4) is the engine's
            best = played[4]
        rows.append((1, ply, *KEY.sql()[1], KEY.scale, score, 1, best, pv, 10, mat, pvm))
    con.executemany("INSERT INTO evals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return con


def codes(df: object) -> list[tuple[int, str]]:
    return [(int(p), c) for p, c in zip(df["ply"], df["code"], strict=True)]  # type: ignore


def test_each_move_is_judged_from_its_mover_s_point_of_view(db: duckdb.DuckDBPyConnection
                                                            ) -> None:
    found = mistakes(db, KEY)
    assert codes(found) == [(1, "mistake"), (2, "blunder"), (5, "missed-shot"),
                            (6, "blunder"), (7, "blunder")]
    by_ply = {int(r.ply): r for r in found.itertuples()}
    loss = {p: json.loads(r.details)["loss"] for p, r in by_ply.items()}
    assert loss == {1: 0.6, 2: 1.2, 5: 2.0, 6: 5.0, 7: 2.0}
    assert by_ply[5].message.startswith("White's ") and "misses a shot worth 2.00 men" in \
        by_ply[5].message
    assert by_ply[2].message.startswith("Black's ") and "loses 1.20 men" in by_ply[2].message
    assert by_ply[1].severity == "info" and by_ply[2].severity == "warning"
    assert by_ply[2].move == db.execute("SELECT notation FROM moves WHERE ply = 2").fetchone()[0]
    fen = db.execute("SELECT fen FROM positions WHERE ply = 1").fetchone()[0]
    assert by_ply[2].fen == fen  # the position before the move


def test_thresholds_move_the_findings(db: duckdb.DuckDBPyConnection) -> None:
    strict = Thresholds(mistake=0.1, blunder=3.0, shot=5.0)
    assert codes(mistakes(db, KEY, thresholds=strict)) == [
        (1, "mistake"), (2, "mistake"), (3, "mistake"), (5, "mistake"), (6, "blunder"),
        (7, "mistake")]
    with pytest.raises(ValueError, match="at most the blunder"):
        Thresholds(mistake=2.0, blunder=1.0)


def test_the_findings_are_written_once_and_rewritten_only_when_they_change(
        db: duckdb.DuckDBPyConnection) -> None:
    assert write_mistakes(db, KEY) == {"blunder": 3, "mistake": 1, "missed-shot": 1}
    stored = db.execute("SELECT * FROM findings WHERE code IN ('blunder', 'mistake', "
                        "'missed-shot') ORDER BY ply").fetchall()
    assert [r[8] for r in stored] == [1, 2, 5, 6, 7]
    db.execute("CREATE TEMP TABLE marker AS SELECT rowid AS r FROM findings")
    write_mistakes(db, KEY)  # the same: nothing deleted, nothing inserted
    assert db.execute("SELECT count(*) FROM findings WHERE rowid NOT IN "
                      "(SELECT r FROM marker)").fetchone() == (0,)
    write_mistakes(db, KEY, thresholds=Thresholds(blunder=5.0, shot=5.0))
    assert [r[0] for r in db.execute("SELECT code FROM findings WHERE code IN ('blunder', "
                                     "'mistake', 'missed-shot') ORDER BY ply").fetchall()] == \
        ["mistake", "mistake", "mistake", "blunder", "mistake"]
    with pytest.raises(ValueError, match="at most 5 men"):
        Thresholds(blunder=6.0)
    other = AnalysisKey("hand", "1", '{"depth":2}', "positional")
    assert write_mistakes(db, other) == {}  # another analysis's findings are its own
    assert db.execute("SELECT count(*) FROM findings").fetchone() == (5,)


def test_players_by_the_engine_s_judgement(db: duckdb.DuckDBPyConnection) -> None:
    """White's moves lost 0.6, 0.1, 2.0 (a missed shot) and 2.0; Black's 1.2, 1.3 with the
    engine's own move (nothing), 5.0 and 0: averages 1.175 and 1.55."""
    df = accuracy(db, engine="hand")
    rows = {r["player"]: r for r in df.to_dict("records")}
    assert rows["WTest"]["moves"] == rows["BTest"]["moves"] == 4
    assert rows["WTest"]["avg_loss"] == 1.175 and rows["BTest"]["avg_loss"] == 1.55
    assert (rows["WTest"]["missed_shots"], rows["WTest"]["blunders"], rows["WTest"]["mistakes"],
            rows["WTest"]["per_game"]) == (1, 1, 1, 3.0)
    assert (rows["BTest"]["blunders"], rows["BTest"]["per_game"]) == (2, 2.0)
    assert list(df["player"]) == ["WTest", "BTest"]  # the smaller loss first
    assert set(df["engine"]) == {"hand 1 depth 1"}
    assert accuracy(db, player="btest")["player"].tolist() == ["BTest"]
    assert accuracy(db, event="no such event").empty
    with pytest.raises(ValueError, match="names no analysis"):
        accuracy(db, engine="dame")
