"""Issue 23 point 3: every table command writes every format (text, CSV, JSON, JSONL,
Parquet), taken from --format or from --out's extension, with the same NULL, date and list
conventions; each output is read back with the real reader (csv, json, pyarrow.parquet)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.cli.helpers import build, cli

#: every command that returns a table (with the arguments it needs)
TABLE_COMMANDS: dict[str, list[str]] = {
    "query": ["query", "SELECT game_id, white, date, year, result FROM games ORDER BY game_id"],
    "duplicates": ["duplicates"],
    "duplicates-files": ["duplicates", "--files"],
    "search": ["search", "--pattern", "W28:B19"],
    "games": ["games", "--moves", "32-28"],
    "players-aliases": ["players", "aliases"],
    "players-suggest": ["players", "suggest"],
    "stats-openings": ["stats", "openings", "--plies", "2"],
    "stats-openings-position": ["stats", "openings", "--plies", "2", "--by", "position"],
    "stats-players": ["stats", "players"],
    "stats-results": ["stats", "results"],
    "stats-lengths": ["stats", "lengths"],
    "stats-findings": ["stats", "findings"],
    "stats-crosstable": ["stats", "crosstable", "--event", "Cup"],
    "ratings": ["ratings"],
    "ratings-history": ["ratings", "--system", "glicko2", "--history"],
    "stats-accuracy": ["stats", "accuracy"],
    "tree": ["tree", "--variant", "international"],
    "variants": ["variants"],
    "moves": ["moves", "international"],
    "egdb-probe": ["egdb", "probe", "russian", "W:WK1:BK32", "B:WK1:B", "W:W22:B",
                   "--dir", "{EGDB}"],
    "egdb-info": ["egdb", "info", "--dir", "{EGDB}"],
}
SUFFIX = {"text": ".txt", "csv": ".csv", "json": ".json", "jsonl": ".jsonl",
          "parquet": ".parquet"}
NO_DB = {"variants", "moves", "egdb-probe", "egdb-info"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pdnkit.egdb import build as build_egdb

    path = build(tmp_path_factory.mktemp("cup"))
    build_egdb("russian", 2, directory=path.parent / "egdb")  # for the egdb commands
    return path


def _args(name: str, db: Path) -> list[str | Path]:
    args = [str(db.parent / "egdb") if a == "{EGDB}" else a for a in TABLE_COMMANDS[name]]
    return [*args, *([] if name in NO_DB else ["--db", db])]


def _read(path: Path, fmt: str) -> tuple[list[str], list[dict[str, Any]]]:
    """Columns and rows of an output file, read by the format's own reader."""
    if fmt == "csv":
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            return list(reader.fieldnames or []), list(reader)
    if fmt == "json":
        rows = json.loads(path.read_text(encoding="utf-8"))
        return (list(rows[0]) if rows else []), rows
    if fmt == "jsonl":
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        return (list(rows[0]) if rows else []), rows
    table = pq.read_table(path)
    return table.column_names, table.to_pylist()


def _as_csv(v: Any) -> str:
    """How the CSV writes a JSON value (NULL empty, lists and maps as JSON, text that a
    spreadsheet would run after a ``'``; a lone ``-``, Thai's capture separator, runs
    nothing)."""
    if v is None:
        return ""
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, str) and len(v) > 1 and v.startswith(("=", "+", "-", "@", "\t", "\r")):
        try:
            float(v)
        except ValueError:
            return "'" + v
    return str(v)


def _as_json(v: Any) -> Any:
    """A value read from Parquet as the JSON output writes it (dates ISO)."""
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    if isinstance(v, list):
        return [_as_json(x) for x in v]
    return v


@pytest.mark.parametrize("name", list(TABLE_COMMANDS))
def test_every_table_command_writes_every_format_alike(db: Path, tmp_path: Path,
                                                        name: str) -> None:
    read: dict[str, tuple[list[str], list[dict[str, Any]]]] = {}
    for fmt in ("csv", "json", "jsonl", "parquet"):
        out = tmp_path / f"{name}{SUFFIX[fmt]}"
        code, _, err = cli(*_args(name, db), "--out", out)  # the format from the extension
        assert code == 0, (name, fmt, err)
        assert f"rows -> {out}" in err
        read[fmt] = _read(out, fmt)
    columns, rows = read["json"]
    assert rows, name  # every command has rows on this database
    for fmt in ("csv", "jsonl", "parquet"):
        assert read[fmt][0] == columns, (name, fmt)
        assert len(read[fmt][1]) == len(rows), (name, fmt)
    assert read["jsonl"][1] == rows
    assert [{k: _as_csv(v) for k, v in r.items()} for r in rows] == read["csv"][1]
    parquet = [{k: _as_json(v) for k, v in r.items()} for r in read["parquet"][1]]
    for got, want in zip(parquet, rows, strict=True):
        for key in columns:  # numbers may widen (2 -> 2.0) where a column holds NULLs
            assert got[key] == want[key] or (got[key] is None) == (want[key] is None) \
                and float(got[key]) == float(want[key]), (name, key, got[key], want[key])
    out = tmp_path / f"{name}.txt"
    code, _, err = cli(*_args(name, db), "--out", out)
    assert code == 0, err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split()[0] == columns[0] and set(lines[1]) <= {"-", " "}
    assert len(lines) == 2 + len(rows)


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
@pytest.mark.parametrize("name", ["query", "stats-players", "search", "tree", "variants"])
def test_format_to_standard_output(db: Path, name: str, fmt: str, tmp_path: Path) -> None:
    code, out, err = cli(*_args(name, db), "--format", fmt)
    assert code == 0, err
    path = tmp_path / f"o{SUFFIX[fmt]}"
    path.write_text(out, encoding="utf-8")
    columns, rows = _read(path, fmt)
    code, _, err = cli(*_args(name, db), "--out", tmp_path / "same.json")
    assert code == 0, err
    want_columns, want_rows = _read(tmp_path / "same.json", "json")
    assert columns == want_columns and len(rows) == len(want_rows) > 0


def test_format_wins_over_the_extension(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "really-csv.json"
    code, _, err = cli(*_args("query", db), "--format", "csv", "--out", out)
    assert code == 0, err
    assert out.read_text(encoding="utf-8").startswith("game_id,white,date,year,result\n")


def test_query_out_csv_is_csv_not_a_text_table(db: Path, tmp_path: Path) -> None:
    """``query --out all.csv`` wrote an aligned text table with NaN; ``--out q.parquet``
    wrote text (issue 23 point 3)."""
    out = tmp_path / "all.csv"
    sql = "SELECT game_id, NULL::DOUBLE AS nothing, 'nan'::DOUBLE AS nan FROM games"
    code, _, err = cli("query", sql, "--db", db, "--out", out)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 5 and rows[0] == {"game_id": "1", "nothing": "", "nan": ""}
    code, _, err = cli("query", "SELECT game_id FROM games", "--db", db, "--out",
                       tmp_path / "q.parquet")
    assert code == 0, err
    assert pq.read_table(tmp_path / "q.parquet").column("game_id").to_pylist() == [1, 2, 3, 4, 5]


def test_the_same_null_date_and_list_conventions_everywhere(db: Path, tmp_path: Path) -> None:
    sql = ("SELECT NULL::INTEGER AS n, 'nan'::DOUBLE AS f, [1, 2] AS l, {'a': 1} AS m, "
           "DATE '2020-05-01' AS d, TIMESTAMP '2020-05-01 10:30:00' AS t, 'x' AS s")
    code, out, _ = cli("query", sql, "--db", db, "-f", "csv")
    assert code == 0
    assert list(csv.reader(io.StringIO(out)))[1] == [
        "", "", "[1, 2]", '{"a": 1}', "2020-05-01", "2020-05-01T10:30:00", "x"]
    for fmt in ("json", "jsonl"):
        code, out, _ = cli("query", sql, "--db", db, "-f", fmt)
        assert code == 0
        row = json.loads(out)[0] if fmt == "json" else json.loads(out.splitlines()[0])
        assert row == {"n": None, "f": None, "l": [1, 2], "m": {"a": 1}, "d": "2020-05-01",
                       "t": "2020-05-01T10:30:00", "s": "x"}
    # a statistic: its dates are ISO, its empty values empty, as query's
    players = json.loads(cli("stats", "players", "--db", db, "-f", "json")[1])
    lee = next(p for p in players if p["player"] == "Ann Lee")
    assert lee["first_date"] == "2020-05-01"
    rows = list(csv.DictReader(io.StringIO(cli("stats", "players", "--db", db, "-f", "csv")[1])))
    assert next(r for r in rows if r["player"] == "Ann Lee")["first_date"] == "2020-05-01"


def test_stats_csv_writes_lists_as_json_like_query(db: Path) -> None:
    """``query`` CSV JSON-encoded lists, ``stats`` CSV did not: now one writer does both."""
    sql = "SELECT [white, black] AS players FROM games ORDER BY game_id LIMIT 1"
    code, out, _ = cli("query", sql, "--db", db, "-f", "csv")
    assert code == 0 and json.loads(list(csv.DictReader(io.StringIO(out)))[0]["players"]) == [
        "Marion Tinsley", "Ann Lee"]
    code, out, _ = cli("duplicates", "--db", db, "-f", "csv")
    assert code == 0
    row = list(csv.DictReader(io.StringIO(out)))[0]
    assert json.loads(row["game_ids"]) == [1, 2]


@pytest.mark.parametrize("name", ["query", "search", "stats-results", "tree", "players-suggest"])
def test_an_extension_no_format_has_is_refused_with_the_list(db: Path, tmp_path: Path,
                                                             name: str) -> None:
    out = tmp_path / "table.xlsx"
    code, _, err = cli(*_args(name, db), "--out", out)
    assert code == 2
    line = [x for x in err.splitlines() if x.startswith("pdnkit: error:")]
    assert len(line) == 1 and "Traceback" not in err
    assert ".xlsx" in line[0] and ".csv" in line[0] and ".parquet" in line[0]
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_an_unknown_format_is_refused_with_the_list(db: Path) -> None:
    code, _, err = cli("stats", "players", "--db", db, "--format", "xml")
    assert code == 2 and "pdnkit: error: unknown format 'xml': choose text, csv, csv-raw, " \
        "json, jsonl or parquet" in err
    code, _, err = cli("validate", "x.pdn", "--format", "parquet")
    assert code == 2 and "choose text, jsonl, csv or csv-raw" in err


def test_parquet_needs_a_file(db: Path) -> None:
    code, _, err = cli("stats", "results", "--db", db, "--format", "parquet")
    assert code == 2 and "--format parquet needs --out FILE" in err


def test_the_old_table_format_name_still_works(db: Path) -> None:
    code, out, err = cli("query", "SELECT 1 AS x", "--db", db, "--format", "table")
    assert code == 0, err
    assert out.split() == ["x", "─", "1"]
