"""The per-game guard covers reading, the fast lane and variant guessing (issue 16, point 1):
a fault for one game becomes an ``internal-error`` finding on it and the rest goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pdnkit.pdn import fast, reader
from pdnkit.validation import Reports, RunOptions, pipeline, resolve, validate
from pdnkit.validation import jobs as jobs_mod

GAMES = ('[GameType "20"]\n1. 32-28 19-23 *\n\n[Event "BOOM"]\n1. 32-28 19-23 *\n\n'
         '[GameType "20"]\n1. 33-29 *\n')
BIG = "1" * 5000


def _boom_if_marked(real: Any) -> Any:
    def fake(record: Any, *args: Any, **kwargs: Any) -> Any:
        tags = dict(getattr(record, "tags", ()) or ())
        if tags.get("Event") == "BOOM":
            raise RuntimeError("injected fault")
        return real(record, *args, **kwargs)
    return fake


def _statuses(reps: list[Any]) -> list[tuple[int, str, bool]]:
    return [(r.index, r.status, "internal-error" in r.finding_codes()) for r in reps]


def test_fault_in_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "resolve_rules", _boom_if_marked(pipeline.resolve_rules))
    reps = list(validate(GAMES))
    assert _statuses(reps) == [(0, "ok", False), (1, "error", True), (2, "ok", False)]


def test_fault_in_guessing(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(ev: Any) -> Any:
        raise RuntimeError("guess failed")
    monkeypatch.setattr(pipeline, "scan_file", boom)  # the file's scan: each game guesses
    reps = list(validate("1. 32-28 *\n\n1. 33-29 *\n"))
    assert _statuses(reps) == [(0, "ok", False), (1, "ok", False)]
    monkeypatch.setattr(resolve, "guess_from", boom)  # and each game's guess fails too
    reps = list(validate('1. 32-28 *\n\n[GameType "20"]\n1. 33-29 *\n\n1. 34-30 *\n'))
    assert _statuses(reps) == [(0, "error", True), (1, "ok", False), (2, "error", True)]


def test_fault_in_the_reader_loses_only_that_file(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    real = reader.parse_game

    def fake(text: str, *args: Any, **kwargs: Any) -> Any:
        if "BOOM" in text:
            raise RuntimeError("reader fault")
        return real(text, *args, **kwargs)
    monkeypatch.setattr(reader, "parse_game", fake)
    lane = fast.lane_record  # the compiled lane's records of clean games fail alike

    def fake_lane(chunk: Any, *args: Any) -> Any:
        if "BOOM" in chunk.text:
            raise RuntimeError("reader fault")
        return lane(chunk, *args)
    monkeypatch.setattr(fast, "lane_record", fake_lane)
    a, b = tmp_path / "a.pdn", tmp_path / "b.pdn"
    a.write_text(GAMES, encoding="utf-8")
    b.write_text('[GameType "20"]\n1. 32-28 *\n', encoding="utf-8")
    reps = list(validate([a, b]))
    assert reps[0].status == "ok"
    assert "internal-error" in reps[1].finding_codes()
    assert reps[-1].file and reps[-1].file.endswith("b.pdn") and reps[-1].status == "ok"
    # a worker guards each game on its own
    batch = [(1, t, True, [], None) for t in GAMES.split("\n\n")]
    ctx = jobs_mod.WorkContext("a.pdn", None, RunOptions(light=True), None, Reports)
    part = jobs_mod._work(batch, ctx)
    out = [*part.lead, *(part.rows or [])]
    assert [getattr(r, "status", None) for r in out] == ["ok", "unparsed", "ok"]
    assert "internal-error" in out[1].finding_codes()


def test_fault_in_the_fast_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fast.fast_record

    def fake(text: str, *args: Any) -> Any:
        if "19-23" in text:
            raise RuntimeError("fast lane fault")
        return real(text, *args)
    monkeypatch.setattr(fast, "fast_record", fake)
    lane = fast.lane_record  # the compiled lane (clean games) fails alike

    def fake_lane(chunk: Any, *args: Any) -> Any:
        if "19-23" in chunk.text:
            raise RuntimeError("fast lane fault")
        return lane(chunk, *args)
    monkeypatch.setattr(fast, "lane_record", fake_lane)
    reps = list(validate(GAMES))
    assert [("internal-error" in r.finding_codes()) for r in reps] == [True, True, False]
    assert reps[2].status == "ok"


@pytest.mark.parametrize("where", ["movetext", "fen"])
def test_five_thousand_digits(tmp_path: Path, where: str,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    bad = (f"{BIG}. 32-28 *" if where == "movetext"
           else f'[FEN "W:W{BIG}:B1"]\n1. 32-28 *')
    p = tmp_path / "big.pdn"
    p.write_text(f"1. 32-28 19-23 *\n\n{bad}\n\n1. 33-29 *\n", encoding="utf-8")
    q = tmp_path / "next.pdn"
    q.write_text("1. 34-30 *\n", encoding="utf-8")
    serial = [(r.file, r.index, r.status) for r in validate([p, q])]
    assert len(serial) == 4 and serial[-1][0].endswith("next.pdn")
    assert serial[0][2] == "ok" and serial[2][2] == "ok"
    monkeypatch.setattr(jobs_mod, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(jobs_mod, "workers_can_pay", lambda: True)
    monkeypatch.setattr(jobs_mod, "workers_pay", lambda *a, **k: True)
    assert [(r.file, r.index, r.status) for r in validate([p, q], jobs=2)] == serial

    from pdnkit.store import connect, import_files

    for jobs in (1, 2):
        db = tmp_path / f"big{jobs}.duckdb"
        summary = import_files([p, q], db=db, jobs=jobs, progress=False)
        assert summary.failed == 0 and summary.games == 4
        with connect(db) as con:
            assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 4


def test_import_goes_on_after_a_failing_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from pdnkit.store import ingest

    a, b = tmp_path / "a.pdn", tmp_path / "b.pdn"
    a.write_text("1. 32-28 *\n", encoding="utf-8")
    b.write_text("1. 33-29 *\n", encoding="utf-8")
    real = ingest._batches

    def fake(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name == "a.pdn":
            raise RuntimeError("file fault")
        yield from real(path, *args, **kwargs)
    monkeypatch.setattr(ingest, "_batches", fake)
    summary = ingest.import_files([a, b], db=tmp_path / "f.duckdb", progress=False)
    assert [f.status for f in summary.files] == ["failed", "imported"]
    assert "file fault" in (summary.files[0].message or "")
