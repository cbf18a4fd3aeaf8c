"""``analyse`` with a scripted Hub engine (a real process whose answers are known in advance):
every position stored once, its score turned to White's point of view, the engine's moves
written as the right PDN move (captures that share origin and destination included), a
second run that evaluates nothing and leaves every row as it was, the same rows from two
engines at once, and each way an engine fails."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import duckdb
import pytest

from pdnkit.analysis import analyse, engine_keys
from pdnkit.engines import EngineError
from pdnkit.engines.hubtext import hub_position
from tests.analyse.conftest import GAMES
from tests.engines.helpers import alive, fake_engine, pids, positions_of, scripted

ALL_POSITIONS = [p for moves, fen in GAMES for p in positions_of(moves, fen)]


def script(tmp: Path, **extra: Any) -> tuple[str, dict[str, dict[str, Any]]]:
    answers, rows = scripted(ALL_POSITIONS)
    command = fake_engine(tmp, {"name": "Fake", "version": "3", "positions": answers,
                                "log": str(tmp / "log.txt"), "pidfile": str(tmp / "pids"),
                                **extra})
    return shlex.join(command), rows


def table(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


EVALS = ("SELECT g.game_index, e.ply, e.engine, e.engine_version, e.settings, e.scale, e.score, "
         "e.depth, e.best, e.pv, e.nodes, e.material, e.pv_material FROM evals e "
         "JOIN games g USING (game_id) ORDER BY g.game_index, e.ply")


def expected_rows() -> list[tuple[Any, ...]]:
    _, rows = scripted(ALL_POSITIONS)
    out = []
    for index, (moves, fen) in enumerate(GAMES):
        for ply, pos in enumerate(positions_of(moves, fen)):
            if pos.is_terminal():
                winner = pos.winner()
                out.append((index, ply, 100.0 if int(winner) == 0 else -100.0, 0, None, None))
                continue
            r = rows[hub_position(pos)]
            out.append((index, ply, r["score"], r["depth"], r["best"], r["pv"]))
    return out


def test_every_position_once_scores_for_white_moves_as_pdn_and_a_second_run_is_a_no_op(
        collection: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    engine, _ = script(tmp_path)
    first = analyse([collection], db, engine=engine, depth=7)
    assert first.key is not None and first.key.label == "Fake 3 depth 7"
    positions = table(db, "SELECT count(*) FROM position_bits")[0][0]
    assert positions == len(ALL_POSITIONS) == first.positions
    got = table(db, EVALS)
    assert len({(r[0], r[1]) for r in got}) == len(got) == positions  # each position once
    assert {r[2:6] for r in got} == {("Fake", "3", '{"depth":7}', "positional")}
    assert [(r[0], r[1], r[6], r[7], r[8], r[9]) for r in got] == expected_rows()
    # the captures that share origin and destination came back as their full paths
    assert "16x43x25x9x22x6" in {r[8] for r in got}
    searches = (tmp_path / "log.txt").read_text().count("go analyze")
    findings = table(db, "SELECT * FROM findings ORDER BY ALL")
    again = analyse([collection], db, engine=engine, depth=7)
    assert (again.positions, again.already) == (0, positions)
    assert table(db, EVALS) == got and table(db, "SELECT * FROM findings ORDER BY ALL") == \
        findings
    assert (tmp_path / "log.txt").read_text().count("go analyze") == searches
    assert not any(alive(p) for p in pids(tmp_path / "pids"))
    keys = engine_keys(db)
    assert keys[["engine", "games", "positions"]].values.tolist() == [["Fake", 3, positions]]


def test_two_engines_at_once_store_the_same_rows(collection: Path, tmp_path: Path) -> None:
    engine, _ = script(tmp_path)
    one, two = tmp_path / "one.duckdb", tmp_path / "two.duckdb"
    analyse([collection], one, engine=engine, depth=7)
    s = analyse([collection], two, engine=engine, depth=7, jobs=2)
    assert s.positions == len(ALL_POSITIONS)
    assert table(two, EVALS) == table(one, EVALS)
    assert len(set(pids(tmp_path / "pids"))) >= 3  # one, then two at once
    assert not any(alive(p) for p in pids(tmp_path / "pids"))


def test_a_position_the_engine_crashes_on_is_a_finding_and_the_rest_is_analysed(
        collection: Path, tmp_path: Path) -> None:
    moves, fen = GAMES[0]
    broken = positions_of(moves, fen)[5]
    db = tmp_path / "a.duckdb"
    engine, _ = script(tmp_path, crash_on=[hub_position(broken)])
    s = analyse([collection], db, engine=engine, depth=7)
    assert s.faults == 1 and s.positions == len(ALL_POSITIONS) - 1
    rows = table(db, "SELECT game_index, ply, message, details FROM findings "
                     "WHERE code = 'engine-failed'")
    assert len(rows) == 1 and rows[0][:2] == (0, 5)
    assert "crashed" in rows[0][2] and "segmentation fault" in rows[0][2]
    assert '"position_ply": 5' in rows[0][3]
    assert not any(alive(p) for p in pids(tmp_path / "pids"))
    # a working engine fills the hole and the finding goes
    engine, _ = script(tmp_path)
    again = analyse(db=db, engine=engine, depth=7)
    assert again.positions == 1
    assert table(db, "SELECT count(*) FROM findings WHERE code = 'engine-failed'") == [(0,)]
    assert [r[:2] for r in table(db, EVALS)] == [r[:2] for r in expected_rows()]


def test_a_hang_is_killed_after_the_timeout(collection: Path, tmp_path: Path) -> None:
    moves, fen = GAMES[1]
    stuck = positions_of(moves, fen)[3]
    db = tmp_path / "a.duckdb"
    engine, _ = script(tmp_path, hang_on=[hub_position(stuck)])
    s = analyse([collection], db, engine=engine, depth=7, timeout=1.0)
    assert s.faults == 1
    (message,) = table(db, "SELECT message FROM findings WHERE code = 'engine-failed'")[0]
    assert "hung: no answer to go analyze within 1 s" in message
    assert not any(alive(p) for p in pids(tmp_path / "pids"))


def test_an_engine_that_fails_every_time_stops_the_run_with_one_error(
        collection: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    engine, _ = script(tmp_path, crash_always=True)
    with pytest.raises(EngineError, match="failed on 3 positions in a row"):
        analyse([collection], db, engine=engine, depth=7)
    assert not any(alive(p) for p in pids(tmp_path / "pids"))


def test_games_of_a_variant_the_engine_does_not_play_are_left_out_with_a_note(
        tmp_path: Path) -> None:
    pdn = tmp_path / "mixed.pdn"
    pdn.write_text('[GameType "25"]\n1. c3-d4 f6-g5 *\n\n[GameType "20"]\n1. 32-28 19-23 *\n',
                   encoding="utf-8")
    start = positions_of([], None)[0]
    notes: list[str] = []
    engine = shlex.join(fake_engine(tmp_path, {"default": {"score": 0.0, "move": "32-28"},
                                               "positions": {hub_position(start): {
                                                   "score": 0.0, "move": "32-28"}}}))
    s = analyse([pdn], tmp_path / "a.duckdb", engine=engine, note=notes.append)
    assert s.skipped == {"russian": 1} and s.games == 1
    assert notes == ["1 game of russian left out: fake 1.0 plays international"]
    assert table(tmp_path / "a.duckdb", "SELECT DISTINCT g.variant FROM evals "
                                        "JOIN games g USING (game_id)") == [("international",)]


def test_jobs_start_no_more_engines_than_the_work_pays_for(collection: Path,
                                                            tmp_path: Path) -> None:
    from pdnkit.analysis.run import MIN_POSITIONS_PER_ENGINE, engines_for

    assert engines_for(2, [MIN_POSITIONS_PER_ENGINE] * 2) == 2
    assert engines_for(2, [MIN_POSITIONS_PER_ENGINE, MIN_POSITIONS_PER_ENGINE - 1]) == 1
    assert engines_for(8, [500, 500, 500]) == 3 and engines_for(1, [500, 500]) == 1
    assert engines_for(3, []) == 1
    # the first game's positions alone: one engine though two were asked for
    moves, fen = GAMES[0]
    few = positions_of(moves, fen)
    assert len(few) < 2 * MIN_POSITIONS_PER_ENGINE
    engine, _ = script(tmp_path)
    db = tmp_path / "a.duckdb"
    analyse([collection], db, engine=engine, depth=7, where="g.game_index = 0", jobs=2)
    assert len(set(pids(tmp_path / "pids"))) == 1
    rows = table(db, EVALS)
    assert [(r[0], r[1], r[6], r[7], r[8], r[9]) for r in rows] == \
        [r for r in expected_rows() if r[0] == 0]
    assert not any(alive(p) for p in pids(tmp_path / "pids"))


def test_two_engines_cut_a_game_into_pieces_and_keep_a_fault_of_any_piece(
        collection: Path, tmp_path: Path) -> None:
    from pdnkit.analysis.run import PIECE

    moves, fen = GAMES[0]
    positions = positions_of(moves, fen)
    assert len(positions) > PIECE + 6  # two pieces: the fault in the second one
    broken = positions[PIECE + 5]
    db = tmp_path / "a.duckdb"
    engine, _ = script(tmp_path, crash_on=[hub_position(broken)])
    s = analyse([collection], db, engine=engine, depth=7, jobs=2)
    assert s.faults == 1 and s.positions == len(ALL_POSITIONS) - 1
    rows = table(db, "SELECT game_index, ply FROM findings WHERE code = 'engine-failed'")
    assert rows == [(0, PIECE + 5)]
    got = table(db, EVALS)
    assert [(r[0], r[1], r[6], r[7], r[8], r[9]) for r in got] == \
        [r for r in expected_rows() if (r[0], r[1]) != (0, PIECE + 5)]
    assert not any(alive(p) for p in pids(tmp_path / "pids"))
