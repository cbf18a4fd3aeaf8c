"""``pdnkit analyse`` on the command line: the findings printed as ``validate`` prints its
own, as JSONL and CSV; other thresholds without a second search; and every engine that
cannot be used ends in one ``pdnkit: error:`` line with status 2, never a traceback, with no
engine process left (the command run as a real process)."""

from __future__ import annotations

import csv
import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from pdnkit.samples import sample_dir
from tests.cli.helpers import cli
from tests.engines.helpers import alive, fake_engine, pids

SAMPLE = sample_dir() / "international.pdn"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A database of the international sample analysed by the built-in check at depth 3,
    and what the command wrote (stdout, stderr)."""
    db = tmp_path_factory.mktemp("cli") / "a.duckdb"
    code, out, err = cli("analyse", SAMPLE, "--db", db, "--depth", "3", "-q")
    assert code == 0, err
    code, out, err = cli("analyse", SAMPLE, "--db", db, "--depth", "3")
    assert code == 0, err
    return db, out, err


def test_the_findings_print_as_validate_prints_them(analysed: tuple[Path, str, str]) -> None:
    db, out, _ = analysed
    con = duckdb.connect(str(db), read_only=True)
    n = con.execute("SELECT count(*) FROM findings WHERE code IN "
                    "('blunder', 'mistake', 'missed-shot')").fetchone()[0]
    game, ply, move, message = con.execute(
        "SELECT game_index, ply, move, message FROM findings WHERE code = 'blunder' "
        "ORDER BY game_index, ply LIMIT 1").fetchone()
    con.close()
    lines = out.splitlines()
    assert n > 0 and len([x for x in lines if " blunder [" in x or " mistake [" in x
                          or " missed-shot [" in x]) == n
    assert any(x.startswith(f"{SAMPLE}, game {game + 1}, line ") and f", ply {ply}: warning "
               f"blunder [{move}]: {message}" in x for x in lines)
    summary = lines[-1]
    # each game once: the sample's 31 records hold 30 games (one copy, analysed as its
    # original), 2670 positions, 41 of them the copy's
    assert "builtin 1 depth 3: 30 games, 0 positions evaluated now" in summary
    assert "2629 already done" in summary


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_findings_as_rows(analysed: tuple[Path, str, str], tmp_path: Path,
                              fmt: str) -> None:
    db, _, _ = analysed
    out = tmp_path / f"f.{fmt}"
    code, _, err = cli("analyse", "--db", db, "--depth", "3", "--out", out)
    assert code == 0, err
    assert "0 positions evaluated now" in err
    text = out.read_text(encoding="utf-8")
    rows = ([json.loads(x) for x in text.splitlines()] if fmt == "jsonl"
            else list(csv.DictReader(io.StringIO(text))))
    assert rows and {r["code"] for r in rows} <= {"blunder", "mistake", "missed-shot"}
    assert all(Path(r["path"]).name == "international.pdn" for r in rows)


def test_other_thresholds_rewrite_the_findings_without_searching_again(
        analysed: tuple[Path, str, str], tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    db.write_bytes(analysed[0].read_bytes())
    con = duckdb.connect(str(db), read_only=True)
    evals = con.execute("SELECT * FROM evals ORDER BY ALL").fetchall()
    before = con.execute("SELECT count(*) FILTER (WHERE code = 'blunder'), count(*) FILTER "
                         "(WHERE code = 'mistake') FROM findings").fetchone()
    con.close()
    code, _, err = cli("analyse", "--db", db, "--depth", "3", "--blunder", "3", "-q")
    assert code == 0, err
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT * FROM evals ORDER BY ALL").fetchall() == evals
    after = con.execute("SELECT count(*) FILTER (WHERE code = 'blunder'), count(*) FILTER "
                        "(WHERE code = 'mistake') FROM findings").fetchone()
    con.close()
    assert after[0] < before[0] and after[1] > before[1]


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pdnkit", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def one_error(res: subprocess.CompletedProcess[str], *said: str) -> None:
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    errors = [x for x in res.stderr.splitlines() if x.startswith("pdnkit: error:")]
    assert len(errors) == 1, res.stderr
    for text in said:
        assert text in errors[0], errors[0]


def test_an_engine_that_cannot_be_used_is_one_error_line(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    one_error(run("analyse", SAMPLE, "--db", db, "--engine", "no-such-engine-x hub"),
              "cannot start the engine", "there is no program 'no-such-engine-x'")
    pidfile = tmp_path / "pids"
    broken = shlex.join(fake_engine(tmp_path, {"handshake": "crash",
                                               "pidfile": str(pidfile)}, "b.json"))
    one_error(run("analyse", "--db", db, "--engine", broken),
              "is not a Hub engine that pdnkit can use", "fake: cannot load my tables")
    crashing = shlex.join(fake_engine(tmp_path, {"crash_always": True,
                                                 "pidfile": str(pidfile)}, "c.json"))
    one_error(run("analyse", "--db", db, "--engine", crashing),
              "failed on 3 positions in a row", "crashed")
    assert pids(pidfile) and not any(alive(p) for p in pids(pidfile))
    hanging = shlex.join(fake_engine(tmp_path, {"handshake": "hang",
                                                "pidfile": str(pidfile)}, "h.json"))
    res = subprocess.run([sys.executable, "-c", "from pdnkit.engines import hub; "
                          "hub.START_TIMEOUT = 1.0; import sys; from pdnkit.cli import main; "
                          f"sys.argv = ['pdnkit', 'analyse', '--db', {str(db)!r}, '--engine', "
                          f"{hanging!r}]; main()"], capture_output=True, text=True, timeout=120)
    one_error(res, "no answer to hub (the handshake) within 1 s")
    assert not any(alive(p) for p in pids(pidfile))


@pytest.mark.parametrize("args, said", [
    (["--depth", "3", "--movetime", "1"], "give --depth or --movetime, not both"),
    (["--blunder", "7"], "must be at most 5 men"),
    (["--mistake", "2", "--blunder", "1"], "at most the blunder threshold"),
    (["--movetime", "1"], "takes a depth (--depth), not a move time"),
    (["--param", "hash=1"], "has no parameters to set"),
    (["--param", "hash"], "--param takes NAME=VALUE"),
    (["--depth", "41"], "depth must be from 1 to 40"),
    (["--where", "no_such_column = 1"], "--where: Binder Error"),
])
def test_bad_options_are_one_error_line(analysed: tuple[Path, str, str], args: list[str],
                                        said: str) -> None:
    code, _, err = cli("analyse", "--db", analysed[0], *args)
    assert code == 2 and "pdnkit: error: " in err and said in err, err


def test_a_lake_is_refused(tmp_path: Path) -> None:
    lake = tmp_path / "games.lake"
    code, _, err = cli("import", SAMPLE, "--lake", lake, "--engine", "local", "-q")
    assert code in (0, 1), err
    code, _, err = cli("analyse", "--db", lake, "--depth", "2")
    assert code == 2 and "a lake is read-only for an analysis" in err


def test_where_reads_the_games_columns_as_they_are_named(analysed: tuple[Path, str, str],
                                                         tmp_path: Path) -> None:
    """``--where`` names the games table's columns bare (game_id and line are also columns
    of the evaluations and findings it is read beside)."""
    db = tmp_path / "copy.duckdb"
    db.write_bytes(analysed[0].read_bytes())
    out = tmp_path / "f.jsonl"
    code, _, err = cli("analyse", "--db", db, "--depth", "3", "--where",
                       "game_id <= 3 AND line > 0", "--out", out)
    assert code == 0, err
    assert "3 games, 0 positions evaluated now" in err
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert rows and {r["game_id"] for r in rows} <= {1, 2, 3}
