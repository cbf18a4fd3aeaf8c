"""The quick forms of the table commands (:mod:`pdnkit.lean.forms`): ``pdnkit query`` in its
common shapes prints exactly what the Typer command prints (standard output, standard error,
exit status, the file written), in every format and for every kind of cell, without importing
the argument parser; every other line reaches Typer."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pdnkit.launch import quick_form
from tests.cli.helpers import build
from tests.cli.runs import ended, quick_run, typer_run
from tests.cli.test_streamed import MIXED
from tests.imported import modules_after

#: results of every shape: every kind of cell, the tables of a real database, no row
QUERIES = [MIXED, "SELECT * FROM games ORDER BY game_id",
           "SELECT * FROM moves ORDER BY game_id, ply", "SELECT * FROM findings ORDER BY ALL",
           "SELECT * FROM player_aliases ORDER BY ALL", "SELECT 1 AS a WHERE false"]
FORMATS = [[], ["-f", "csv"], ["--format", "csv-raw"], ["--format=json"], ["-f", "jsonl"],
           ["-f", "text"], ["--format", "TABLE"]]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("quick"))


@pytest.mark.parametrize("sql", QUERIES, ids=["mixed", "games", "moves", "findings", "players",
                                              "empty"])
def test_quick_query_prints_what_the_command_prints(db: Path, sql: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in FORMATS:
        for extra in ([], ["--limit", "3"], ["--wide"], ["--limit=0"]):
            args = ["query", sql, "--db", str(db), *fmt, *extra]
            quick = quick_run(args, capsys)
            assert quick == typer_run(args), args
            assert quick[0] == 0


@pytest.mark.parametrize("suffix", [".csv", ".json", ".jsonl", ".txt", ".parquet"])
def test_quick_query_writes_the_file_the_command_writes(db: Path, tmp_path: Path, suffix: str,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    sql = "SELECT * FROM moves ORDER BY game_id, ply"
    quick_out, typer_out = tmp_path / f"q{suffix}", tmp_path / f"t{suffix}"
    quick = quick_run(["query", sql, "--db", str(db), "-o", str(quick_out)], capsys)
    typed = typer_run(["query", sql, "--db", str(db), "--out", str(typer_out)])
    assert quick[:2] == typed[:2] == (0, "")
    assert quick[2].replace(str(quick_out), "F") == typed[2].replace(str(typer_out), "F")
    assert quick_out.read_bytes() == typer_out.read_bytes()


@pytest.mark.parametrize("args", [
    ["SELECT nonsense"], ["DELETE FROM games"], ["SELECT * FROM read_csv('/etc/passwd')"],
    ["SELECT 1; SELECT 2"], ["SELECT 1", "-f", "parquet"], ["SELECT 1", "-o", "x.xlsx"],
    ["SELECT 1", "--db", "no-such.duckdb"], ["SELECT 1", "-o", "{db}"],
])
def test_quick_query_refuses_what_the_command_refuses(db: Path, args: list[str],
                                                      capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["query", *[a.replace("{db}", str(db)) for a in args]]
    if "--db" not in args:
        args += ["--db", str(db)]
    quick = quick_run(args, capsys)
    assert quick == typer_run(args)
    assert quick[0] == 2 and quick[2].startswith("pdnkit: error: ") and "Traceback" not in quick[2]


@pytest.mark.parametrize("args", [
    ["query"], ["query", "--help"], ["query", "SELECT 1", "--help"], ["query", "SELECT 1", "--write"],
    ["query", "SELECT 1", "SELECT 2"], ["query", "SELECT 1", "-f", "xlsx"],
    ["query", "SELECT 1", "--limit", "-1"], ["query", "SELECT 1", "--limit", "x"],
    ["query", "SELECT 1", "--db"], ["query", "SELECT 1", "-fcsv"], ["query", "--", "SELECT 1"],
    ["query", "SELECT 1", "--db", ""], ["query", "-"], ["query", "SELECT 1", "--out", "-"],
])
def test_other_query_lines_go_to_typer(args: list[str]) -> None:
    assert quick_form(args) is None


def test_quick_query_imports_no_argument_parser(db: Path) -> None:
    """No Typer, click or command module at all; rich only for the text table."""
    sql = "SELECT * FROM games"
    parser = ("typer", "click", "rich", "pdnkit.cli")
    assert modules_after(["query", sql, "--db", str(db), "-f", "csv"], parser) == []
    assert modules_after(["query", sql, "--db", str(db)], parser) == ["rich"]
    assert modules_after(["query", sql, "--db", str(db), "--write"], parser) != ["rich"]


def _ended(entry: str, args: list[str], sink: str) -> tuple[int, str]:
    """Exit status and standard error of ``pdnkit ARGS`` through ``entry`` with standard
    output a full disk or a pipe whose reader is gone."""
    res = ended(args, sink, entry)
    return res.returncode, res.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/full is Linux's")
@pytest.mark.parametrize("sink", ["full", "closed pipe"])
@pytest.mark.parametrize("fmt", ["csv", "text"])
def test_an_output_that_cannot_be_written_ends_as_typer_ends(db: Path, sink: str,
                                                             fmt: str) -> None:
    args = ["query", "SELECT * FROM moves", "--db", str(db), "-f", fmt]
    quick = _ended("pdnkit.launch", args, sink)
    assert quick == _ended("pdnkit.cli", args, sink)
    assert "Traceback" not in quick[1]
    assert quick[0] == (2 if sink == "full" else 1)


def _fens(db: Path, n: int) -> list[str]:
    """Positions the games reached (each a hit), read from the database."""
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.sql(f"SELECT DISTINCT fen FROM positions ORDER BY fen LIMIT {n}").fetchall()
    return [r[0] for r in rows]


TABLE_LINES = [
    ["stats", "openings"], ["stats", "results"], ["stats", "openings", "-f", "csv"],
    ["stats", "results", "--format=jsonl", "--wide"], ["tree"], ["tree", "-f", "json"],
    ["tree", "--book"], ["tree", "--moves", "11-15"], ["tree", "--moves", "11-15 23-19", "--book"],
    ["tree", "--moves", "99-98"], ["tree", "--fen", "nonsense"], ["tree", "--fen", "W:W1:B2",
                                                                  "--moves", "11-15"],
    ["search", "--pattern", "W21"], ["search", "--pattern", "W21", "--first", "-f", "csv"],
    ["search", "--pattern", "W21:B9", "--mirror", "--limit", "2"],
    ["search", "--pattern", "W21", "--side", "black", "-f", "jsonl"],
    ["search", "--pattern", "W99"], ["search", "--fen", "W:W1:B2", "--side", "up"],
    ["stats", "openings", "-o", "x.xlsx"], ["tree", "-f", "parquet"],
]


@pytest.mark.parametrize("args", TABLE_LINES, ids=" ".join)
def test_quick_table_commands_print_what_the_commands_print(
        db: Path, args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = [*args, "--db", str(db)]
    quick = quick_run(args, capsys)
    assert quick == typer_run(args), args
    assert "Traceback" not in quick[2]


def test_quick_search_by_position_prints_what_the_command_prints(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for fen in _fens(db, 6):
        for extra in ([], ["-f", "csv"], ["--side", "any", "--first"], ["-f", "json"]):
            args = ["search", "--fen", fen, "--db", str(db), *extra]
            quick = quick_run(args, capsys)
            assert quick == typer_run(args), args
            assert quick[0] == 0 and quick[1]


@pytest.mark.parametrize("args", [
    ["stats"], ["stats", "lengths"], ["stats", "openings", "--by", "name"],
    ["stats", "openings", "--variant", "english"], ["stats", "results", "--help"],
    ["tree", "--variant", "russian"], ["tree", "--min-games", "2"], ["tree", "x"],
    ["search"], ["search", "--db", "x"], ["search", "--material", "1 v 1"],
    ["search", "--fen", "W:W1:B2", "--limit", "-1"], ["search", "--pattern", "W1", "--player", "A"],
])
def test_other_table_lines_go_to_typer(args: list[str]) -> None:
    assert quick_form(args) is None


def test_quick_table_commands_import_no_argument_parser(db: Path) -> None:
    parser = ("typer", "click", "rich", "pdnkit.cli")
    assert modules_after(["stats", "openings", "--db", str(db), "-f", "csv"], parser) == []
    assert modules_after(["tree", "--db", str(db), "-f", "json"], parser) == []
    assert modules_after(["search", "--pattern", "W21", "--db", str(db), "-f", "csv"],
                         parser) == []
    assert modules_after(["tree", "--db", str(db)], parser) == ["rich"]
