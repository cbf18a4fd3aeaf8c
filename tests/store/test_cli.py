"""The `pdnkit import/query/export/duplicates/demo` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app

runner = CliRunner()

GAMES = """[Event "A"]
[White "Sijbrands"]
[Black "Baba Sy"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 2-0

[Event "B"]
[White "Sijbrands"]
[Black "Baba Sy"]
[Result "1-1"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 1-1
"""


def _db(tmp_path: Path) -> Path:
    src = tmp_path / "g.pdn"
    src.write_text(GAMES, encoding="utf-8")
    db = tmp_path / "g.duckdb"
    r = runner.invoke(app, ["import", str(src), "--db", str(db), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "1 file(s) imported" in r.output and "2 games, 8 plies" in r.output
    return db


def test_import_twice_is_a_noop(tmp_path: Path) -> None:
    db = _db(tmp_path)
    r = runner.invoke(app, ["import", str(tmp_path), "--db", str(db), "--format", "json"])
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert (data["imported"], data["skipped"], data["games"]) == (0, 1, 0)


def test_query_formats(tmp_path: Path) -> None:
    db = _db(tmp_path)
    sql = "SELECT event, result, plies FROM games ORDER BY event"
    r = runner.invoke(app, ["query", sql, "--db", str(db), "--format", "csv"])
    assert r.exit_code == 0
    assert r.output.splitlines() == ["event,result,plies", "A,1-0,4", "B,1/2-1/2,4"]
    r = runner.invoke(app, ["query", sql, "--db", str(db), "--format", "json"])
    assert json.loads(r.output)[1] == {"event": "B", "result": "1/2-1/2", "plies": 4}
    out = tmp_path / "g.parquet"
    r = runner.invoke(app, ["query", "SELECT * FROM moves", "--db", str(db), "--format",
                            "parquet", "--out", str(out)])
    assert r.exit_code == 0
    import pandas as pd

    moves = pd.read_parquet(out)
    assert len(moves) == 8 and list(moves["captured"][2]) == [23]


def test_query_errors_exit_2(tmp_path: Path) -> None:
    db = _db(tmp_path)
    r = runner.invoke(app, ["query", "SELECT * FROM nowhere", "--db", str(db)])
    assert r.exit_code == 2 and "nowhere" in r.output
    r = runner.invoke(app, ["query", "SELECT 1", "--db", str(tmp_path / "absent.duckdb")])
    assert r.exit_code == 2
    r = runner.invoke(app, ["import", str(tmp_path / "absent.pdn"), "--db", str(db)])
    assert r.exit_code == 2
    r = runner.invoke(app, ["import", str(tmp_path), "--db", str(db), "--variant", "chess"])
    assert r.exit_code == 2


def test_duplicates_and_export(tmp_path: Path) -> None:
    db = _db(tmp_path)
    r = runner.invoke(app, ["duplicates", "--db", str(db), "--format", "json"])
    assert r.exit_code == 0
    groups = json.loads(r.output)
    assert len(groups) == 1 and groups[0]["games"] == 2
    assert groups[0]["differing_tags"] == ["Event", "Result"]
    out = tmp_path / "e.pdn"
    r = runner.invoke(app, ["export", "--db", str(db), "--where", "event = 'B'", "--out",
                            str(out)])
    assert r.exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("[Event ") == 1 and '[Event "B"]' in text and "1-1" in text


def test_demo_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the "Try next" lines start with the program as it was started: here, pdnkit on the PATH
    monkeypatch.setattr("sys.argv", ["pdnkit", "demo"])
    monkeypatch.setattr("shutil.which", lambda name: "pdnkit" if name == "pdnkit" else None)
    r = runner.invoke(app, ["demo", "--out", str(tmp_path / "d")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "d" / "pdnkit-demo.duckdb").exists()
    assert "Try next" in r.output and "pdnkit query" in r.output
