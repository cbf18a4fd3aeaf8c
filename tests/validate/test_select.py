"""--select and --ignore on validate, lint and import (issue 10, "Select and ignore codes")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.validation import validate

# every quiet move written with 'x' (notation-mismatch), and one real illegal move
NOISY = ('[GameType "20"]\n1. 32x28 19x23 2. 28x19 14x23 *\n\n'
         '[GameType "20"]\n1. 32x28 19x23 2. 28-23 *\n')


@pytest.fixture()
def noisy(tmp_path: Path) -> Path:
    p = tmp_path / "noisy.pdn"
    p.write_text(NOISY, encoding="utf-8")
    return p


def test_library_ignore_recomputes_the_status(noisy: Path) -> None:
    full = list(validate(noisy))
    assert "notation-mismatch" in full[0].finding_codes() and full[0].status == "warning"
    quiet = list(validate(noisy, ignore=["notation-mismatch"]))
    assert quiet[0].status == "ok" and "notation-mismatch" not in quiet[0].finding_codes()
    assert quiet[1].status == "error" and "illegal-move" in quiet[1].finding_codes()
    only = list(validate(noisy, select=["notation-mismatch"]))
    assert only[1].status == "warning"
    assert {c for r in only for c in r.finding_codes()} == {"notation-mismatch"}


def test_library_unknown_code_raises(noisy: Path) -> None:
    with pytest.raises(ValueError, match="known codes"):
        list(validate(noisy, ignore=["no-such-code"]))


def test_validate_cli_ignore_and_fail_on(noisy: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["validate", str(noisy), "--fail-on", "warning",
                              "--ignore", "notation-mismatch,variant-guessed",
                              "--select", "notation-mismatch,illegal-move"])
    assert res.exit_code == 1  # the illegal move still counts
    assert "notation-mismatch" not in res.stdout
    res = runner.invoke(app, ["validate", str(noisy), "--fail-on", "warning",
                              "--ignore", "notation-mismatch", "--ignore", "illegal-move"])
    assert res.exit_code == 0, res.stdout
    res = runner.invoke(app, ["validate", str(noisy), "--format", "jsonl",
                              "--select", "illegal-move"])
    rows = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    assert [[f["code"] for f in r["findings"]] for r in rows] == [[], ["illegal-move"]]


@pytest.mark.parametrize("command", ["validate", "lint", "import"])
def test_unknown_code_exits_2_with_the_known_codes(noisy: Path, tmp_path: Path,
                                                   command: str) -> None:
    args = [command, str(noisy), "--ignore", "illegal-mvoe"]
    if command == "import":
        args += ["--db", str(tmp_path / "x.duckdb"), "-q"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2
    assert "illegal-mvoe" in res.stderr and "missed-capture" in res.stderr


def test_lint_select_and_ignore(tmp_path: Path) -> None:
    p = tmp_path / "l.pdn"
    p.write_text("1. 32-28 19-23Whiteoverstepped. 2. 28x19 *\n\n1. 32-28 {open *\n",
                 encoding="utf-8")
    runner = CliRunner()
    full = runner.invoke(app, ["lint", str(p), "--format", "jsonl"])
    all_codes = {json.loads(x)["code"] for x in full.stdout.splitlines()}
    assert "unreadable-text" in all_codes and len(all_codes) >= 2
    res = runner.invoke(app, ["lint", str(p), "--format", "jsonl", "--ignore",
                              "unreadable-text"])
    got = {json.loads(x)["code"] for x in res.stdout.splitlines()}
    assert got == all_codes - {"unreadable-text"}
    res = runner.invoke(app, ["lint", str(p), "--format", "jsonl", "--select",
                              "unreadable-text"])
    assert {json.loads(x)["code"] for x in res.stdout.splitlines()} == {"unreadable-text"}


def test_import_ignore_keeps_stored_findings(noisy: Path, tmp_path: Path) -> None:
    from pdnkit.store import connect

    db = tmp_path / "s.duckdb"
    res = CliRunner().invoke(app, ["import", str(noisy), "--db", str(db), "-q",
                                   "--format", "json", "--ignore", "notation-mismatch"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert "notation-mismatch" not in summary["codes"] and "illegal-move" in summary["codes"]
    with connect(db) as con:
        n = con.execute("SELECT count(*) FROM findings WHERE code = 'notation-mismatch'"
                        ).fetchone()[0]
    assert n > 0
