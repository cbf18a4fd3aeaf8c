"""``pdnkit egdb build|probe|info`` as a user runs them: real processes, real files."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pdnkit.egdb import build


def run(*args: str | Path, env: dict[str, str] | None = None,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pdnkit", *map(str, args)],
                          capture_output=True, text=True, input=stdin,
                          env={**os.environ, **(env or {})}, timeout=300)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("egdb-cli")
    build("english", 3, directory=d)
    return d


def test_build_says_what_it_built_and_kept(tmp_path) -> None:
    r = run("egdb", "build", "english", "--pieces", "2", "--dir", tmp_path, "-q")
    assert r.returncode == 0, r.stderr
    assert "1 piece(s): 120 positions" in r.stdout and "2 piece(s): 6,972 positions" in r.stdout
    assert "english: 14 database(s) built, 0 kept" in r.stdout
    r = run("egdb", "build", "english", "--pieces", "2", "--dir", tmp_path, "-q")
    assert "0 database(s) built, 14 kept" in r.stdout


def test_build_goes_to_pdnkit_egdb_without_dir(tmp_path) -> None:
    r = run("egdb", "build", "russian", "--pieces", "1", "-q", env={"PDNKIT_EGDB": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert [p.name.split("-")[0] for p in tmp_path.iterdir()] == ["russian"]


def test_probe_json_in_input_order(folder) -> None:
    r = run("egdb", "probe", "english", "W:WK19,K23:BK32", "B:WK10:B", "W:WK10:B",
            "W:WK1:BK2", "--dir", folder, "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [(x["fen"], x["value"], x["plies"]) for x in rows] == [
        ("W:WK19,K23:BK32", "win", 15), ("B:WK10:B", "loss", 0), ("W:WK10:B", "win", 1),
        ("W:WK1:BK2", "draw", None)]
    assert rows[0]["moves"] == ["19-24"] and rows[1]["moves"] == []
    assert rows[3]["moves"] == ["1-5"]  # 1-6 lets 2x9 take it
    assert all(x["note"] is None for x in rows)


def test_probe_reads_fens_from_a_file_and_standard_input(folder, tmp_path) -> None:
    fens = tmp_path / "fens.txt"
    fens.write_text("# two kings against one\nW:WK19,K23:BK32\n\nB:WK19,K23:BK32\n",
                    encoding="utf-8")
    r = run("egdb", "probe", "english", "--fens", fens, "--dir", folder, "-f", "jsonl")
    assert [json.loads(x)["value"] for x in r.stdout.splitlines()] == ["win", "loss"]
    r = run("egdb", "probe", "english", "--fens", "-", "--dir", folder, "-f", "csv",
            stdin="B:WK19,K23:BK32\n")
    (row,) = csv.DictReader(io.StringIO(r.stdout))
    assert (row["fen"], row["value"], row["plies"], json.loads(row["moves"])) == (
        "B:WK19,K23:BK32", "loss", "16", ["32-28"])


def test_probe_of_a_position_not_built_says_which_command_builds_it(folder) -> None:
    r = run("egdb", "probe", "english", "W:WK1,K2:BK3,K4", "--dir", folder, "-f", "json")
    assert r.returncode == 0
    (row,) = json.loads(r.stdout)
    assert row["value"] is None and row["plies"] is None
    assert row["note"] == f"not built: pdnkit egdb build english --pieces 4 --dir {folder}"


@pytest.mark.parametrize("args, message", [
    (["probe", "english", "W:WK1:BX3"], "FEN 1"),
    (["probe", "english"], "give one or more FENs"),
    (["build", "frisian", "--pieces", "2"], "king-move counters"),
    (["build", "nosuchgame", "--pieces", "2"], "unknown variant"),
    (["probe", "english", "--fens", "/no/such/file"], "cannot read"),
])
def test_bad_input_is_one_error_line_and_status_2(folder, args, message) -> None:
    r = run("egdb", *args, "--dir", folder)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert lines[-1].startswith("pdnkit: error:") and message in lines[-1], r.stderr
    assert "Traceback" not in r.stderr


def test_info_counts_per_piece_count(folder) -> None:
    r = run("egdb", "info", "--dir", folder, "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [(x["variant"], x["pieces"], x["positions"], x["signatures"], x["of"])
            for x in rows] == [("english", 1, 120, 4, 4), ("english", 2, 6972, 10, 10),
                               ("english", 3, 261224, 20, 20)]
    r = run("egdb", "info", "russian", "--dir", folder, "--format", "json")
    assert json.loads(r.stdout) == []


def test_info_by_signature_counts_kings_only(folder) -> None:
    """Schaeffer et al. 2007 (and OEIS A055213's split): one king against one, 32 x 31 = 992;
    two against one, C(32, 2) x 30 = 14,880; the rows add up to the piece counts."""
    r = run("egdb", "info", "english", "--dir", folder, "--signatures", "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    by_label = {x["label"]: x["positions"] for x in rows}
    assert (by_label["K v K"], by_label["2K v K"], by_label["K v 2K"]) == (992, 14_880, 14_880)
    totals = {n: sum(x["positions"] for x in rows if x["pieces"] == n) for n in (1, 2, 3)}
    assert totals == {1: 120, 2: 6_972, 3: 261_224} and len(rows) == 4 + 10 + 20
