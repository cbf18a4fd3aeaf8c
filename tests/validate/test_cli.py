"""``pdnkit validate`` and ``pdnkit explain`` on the command line, and worker processes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.validation import validate
from tests.validate.helpers import game

runner = CliRunner()

CLEAN = game(None, "1. 32-28 19-23 2. 28x19 14x23", gametype="20", result="*")
WARN = game(None, "1. 32x28 19-23", gametype="20", result="*")
ERROR = game(None, "1. 32-28 19-23 2. 33-29", gametype="20", result="*")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    games = tmp_path / "games"  # outputs go beside it: inside an input folder is refused
    games.mkdir()
    (games / "a.pdn").write_text(CLEAN + "\n" + WARN, encoding="utf-8")
    sub = games / "sub"
    sub.mkdir()
    (sub / "b.PDN").write_text(ERROR, encoding="utf-8")
    (sub / "notes.txt").write_text("not a game", encoding="utf-8")
    return games


def test_jsonl_objects_and_exit_status(folder: Path) -> None:
    res = runner.invoke(app, ["validate", str(folder), "--format", "jsonl"])
    assert res.exit_code == 1  # an error finding exists, --fail-on error by default
    rows = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    assert [(Path(r["file"]).name, r["index"], r["status"]) for r in rows] == [
        ("a.pdn", 0, "ok"), ("a.pdn", 1, "warning"), ("b.PDN", 0, "error")]
    err = rows[2]
    assert {"file", "index", "line", "variant", "white", "black", "result", "plies",
            "replayed_plies", "status", "findings"} <= set(err)
    # the missed capture stands in international (FMJD 5.7): replay goes on past it
    assert (err["plies"], err["replayed_plies"]) == (3, 3)
    f = err["findings"][0]
    assert (f["code"], f["severity"], f["ply"], f["move"]) == ("missed-capture", "error", 3,
                                                               "33-29")
    assert {"line", "message", "details"} <= set(f)


@pytest.mark.parametrize(("fail_on", "code"), [("error", 1), ("warning", 1), ("never", 0)])
def test_fail_on(folder: Path, fail_on: str, code: int) -> None:
    res = runner.invoke(app, ["validate", str(folder), "--fail-on", fail_on, "-q"])
    assert res.exit_code == code


def test_warning_only_file_passes_fail_on_error(tmp_path: Path) -> None:
    p = tmp_path / "w.pdn"
    p.write_text(WARN, encoding="utf-8")
    assert runner.invoke(app, ["validate", str(p)]).exit_code == 0
    assert runner.invoke(app, ["validate", str(p), "--fail-on", "warning"]).exit_code == 1


def test_text_output_has_findings_and_summary(folder: Path) -> None:
    res = runner.invoke(app, ["validate", str(folder)])
    out = res.stdout
    assert "missed-capture" in out and "notation-mismatch" in out
    for word in ("games", "clean", "with warnings", "with errors", "findings by code"):
        assert word in out


def test_csv_one_row_per_finding(folder: Path) -> None:
    res = runner.invoke(app, ["validate", str(folder), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(res.stdout.split("\n\n")[0])))
    assert [r["code"] for r in rows if r.get("code")][:2] == ["notation-mismatch",
                                                               "missed-capture"]


def test_output_file(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    res = runner.invoke(app, ["validate", str(folder), "-f", "jsonl", "-o", str(out)])
    assert res.exit_code == 1
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3


def test_unknown_variant_is_a_usage_error(folder: Path) -> None:
    res = runner.invoke(app, ["validate", str(folder), "--variant", "chess"])
    assert res.exit_code == 2


def test_variant_option(tmp_path: Path) -> None:
    p = tmp_path / "r.pdn"
    p.write_text("1. c3-d4 f6-g5 2. d4-c5 b6xd4 *\n", encoding="utf-8")
    res = runner.invoke(app, ["validate", str(p), "--variant", "russian", "-f", "jsonl"])
    row = json.loads(res.stdout.splitlines()[0])
    assert row["variant"] == "russian" and row["status"] == "ok" and res.exit_code == 0


def test_explain() -> None:
    res = runner.invoke(app, ["explain", "not-max-capture"])
    assert res.exit_code == 0
    assert res.stdout.startswith("not-max-capture (error)") and "largest" in res.stdout
    res = runner.invoke(app, ["explain", "missed-captur"])
    assert res.exit_code == 2 and "missed-capture" in res.output
    res = runner.invoke(app, ["explain"])
    assert res.exit_code == 0 and "draw-rule-ignored" in res.stdout


def test_help_mentions_the_options() -> None:
    res = runner.invoke(app, ["validate", "--help"])
    for opt in ("--variant", "--edition", "--format", "--fail-on", "--jobs",
                "--result-convention"):
        assert opt in res.stdout


def test_jobs_same_reports_in_file_order(tmp_path: Path) -> None:
    text = "\n".join([CLEAN, "{a note between games}\n", WARN, ERROR] * 5)
    p = tmp_path / "many.pdn"
    p.write_text(text, encoding="utf-8")
    serial = [r.to_dict() for r in validate(p)]
    parallel = [r.to_dict() for r in validate(p, jobs=2, chunk_size=3)]
    assert len(serial) == 15
    assert parallel == serial


def test_jobs_full_reports_keep_plies(tmp_path: Path) -> None:
    p = tmp_path / "one.pdn"
    p.write_text(CLEAN, encoding="utf-8")
    rep = next(validate(p, jobs=2))
    assert [q.notation for q in rep.plies] == ["32-28", "19-23", "28x19", "14x23"]
    assert rep.plies[-1].fen_after.startswith("W:") and rep.record.raw.startswith("[GameType")
    assert rep.plies[0].counts_after == {"white_men": 20, "white_kings": 0, "black_men": 20,
                                         "black_kings": 0}


def test_edition_option(tmp_path: Path) -> None:
    p = tmp_path / "e.pdn"
    p.write_text(game("B:WK1:BK2", "1. 2-7 1-6 2. 7-2 6-1 3. 2-7 1-6 4. 7-2 6-1 5. 2-7",
                      gametype="21", result="1/2-1/2"), encoding="utf-8")
    # WCDF 1.32.1: a 3rd occurrence (first at ply 8, again at ply 9) can be claimed; EDA 1991
    # needs a 4th (ply 12), so under EDA rules the draw has no basis in the record
    rows = json.loads(runner.invoke(app, ["validate", str(p), "-e", "wcdf", "-f", "jsonl"])
                      .stdout.splitlines()[0])
    assert rows["draw_basis"] == "wcdf-1.32.1" and rows["edition"] == "wcdf"
    assert [(f["code"], f["severity"], f["ply"]) for f in rows["findings"]] == [
        ("draw-rule-ignored", "warning", 8), ("draw-by-rule", "info", 8)]
    rows = json.loads(runner.invoke(app, ["validate", str(p), "-f", "jsonl"])
                      .stdout.splitlines()[0])
    assert [f["code"] for f in rows["findings"]] == ["draw-unsupported"]
    assert runner.invoke(app, ["validate", str(p), "-e", "nonsense"]).exit_code == 2
