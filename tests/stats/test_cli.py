"""``pdnkit stats|tree|plot|report`` on a small database file (counts from conftest)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.store.db import schema_sql
from tests.stats.conftest import Builder, build_small

runner = CliRunner()


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    path = tmp_path / "small.duckdb"
    con = duckdb.connect(str(path))
    con.execute(schema_sql())
    build_small(Builder(con))
    con.close()
    return path


def _json(args: list[str]) -> list[dict]:
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_stats_openings_json(db_file):
    rows = _json(["stats", "openings", "--db", str(db_file), "--plies", "2", "--variant",
                  "international", "-f", "json"])
    assert rows[0] == {"variant": "international", "opening": "32-28 19-23", "games": 3,
                       "white_wins": 2, "draws": 1, "black_wins": 0, "unknown": 0,
                       "white_score": 83.3, "avg_plies": 4.3}
    assert all("games" in r for r in rows)


def test_stats_players_results_json_carry_games(db_file):
    players = _json(["stats", "players", "--db", str(db_file), "-f", "json"])
    alice = next(r for r in players if r["player"] == "Alice")
    assert (alice["games"], alice["score"], alice["first_date"]) == (4, 87.5, "2020-05-01")
    results = _json(["stats", "results", "--db", str(db_file), "--by", "year", "-f", "json"])
    assert [(r["year"], r["games"]) for r in results] == [(2019, 1), (2020, 2), (2021, 3)]
    russian = _json(["stats", "results", "--db", str(db_file), "-f", "json"])[1]
    assert russian["white_score"] is None  # NaN becomes null


def test_stats_csv_and_table(db_file):
    res = runner.invoke(app, ["stats", "findings", "--db", str(db_file), "--by", "file",
                              "-f", "csv"])
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert lines[0].startswith("path,games,ok,warning,error,unparsed,clean_share")
    assert lines[1].startswith("a.pdn,2,1,1,0,0,50.0")
    res = runner.invoke(app, ["stats", "lengths", "--db", str(db_file), "--bin", "2"])
    assert res.exit_code == 0 and "international" in res.output


def test_stats_filters_and_errors(db_file, tmp_path):
    rows = _json(["stats", "openings", "--db", str(db_file), "--plies", "2", "--from", "2021",
                  "--to", "2021-12", "-f", "json"])
    assert sum(r["games"] for r in rows) == 2
    res = runner.invoke(app, ["stats", "openings", "--db", str(tmp_path / "none.duckdb")])
    assert res.exit_code == 2 and "no pdnkit database at" in res.output  # the store says it
    res = runner.invoke(app, ["stats", "openings", "--db", str(db_file), "--from", "soon"])
    assert res.exit_code == 2


def test_tree_command(db_file):
    rows = _json(["tree", "--db", str(db_file), "--moves", "37-32 19-23 32-28", "-f", "json"])
    assert sorted((r["move"], r["games"]) for r in rows) == [
        ("16-21", 1), ("17-21", 1), ("18-22", 1)]
    res = runner.invoke(app, ["tree", "--db", str(db_file), "--fen", "x", "--moves", "1"])
    assert res.exit_code == 2


@pytest.mark.parametrize("kind", ["openings", "lengths", "results", "findings", "heatmap",
                                  "endgame"])
def test_plot_command_writes_files(db_file, tmp_path, kind):
    out = tmp_path / f"{kind}.png"
    res = runner.invoke(app, ["plot", kind, "--db", str(db_file), "--variant", "international",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_board_svg_and_bad_suffix(tmp_path):
    out = tmp_path / "board.svg"
    res = runner.invoke(app, ["plot", "board", "--variant", "russian", "--fen", "W:Wc3:Bf6",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "<svg" in out.read_text()
    res = runner.invoke(app, ["plot", "board", "--out", str(tmp_path / "b.gif")])
    assert res.exit_code == 2


def test_report_commands(db_file, tmp_path):
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", "collection", "--db", str(db_file), "--out", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "data:image/png;base64," in text
    res = runner.invoke(app, ["report", "endgame", "--db", str(db_file)])
    assert res.exit_code == 0 and res.output.startswith("# Endgame-rule report")
    md = tmp_path / "e.md"
    res = runner.invoke(app, ["report", "endgame", "--db", str(db_file), "--out", str(md)])
    assert res.exit_code == 0 and "0 rule activations" in md.read_text()


@pytest.mark.parametrize("args", [["tree"], ["stats", "openings"], ["stats", "results"],
                                  ["search", "--pattern", "W28"],
                                  ["report", "endgame"]])
def test_a_misspelled_variant_is_an_error_naming_the_variants(db_file, args):
    res = runner.invoke(app, [*args, "--db", str(db_file), "--variant", "internationl"])
    assert res.exit_code == 2, res.output
    assert "unknown variant 'internationl'" in res.output
    assert "international" in res.output.split("known:", 1)[1]
    assert "(no rows)" not in res.output
