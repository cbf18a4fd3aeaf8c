"""``pdnkit analyse`` as a real process, stopped from outside: ``kill -9`` leaves no engine
behind and a second run goes on where the first stopped; Ctrl-C (SIGINT) ends it with status
130 and a line that says what was kept; either way the finished analysis holds exactly the
rows of one that was never stopped."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pdnkit.store.steps import STEP_LOG
from tests.analyse.test_run import ALL_POSITIONS, EVALS, expected_rows, table
from tests.engines.helpers import alive, fake_engine, pids, scripted


def start(collection: Path, db: Path, engine: str, steps: Path) -> subprocess.Popen[str]:
    """pdnkit in a process group of its own, as a shell runs a command at a terminal, that
    lists the named steps it reaches in ``steps``."""
    return subprocess.Popen([sys.executable, "-m", "pdnkit", "analyse", str(collection),
                             "--db", str(db), "--engine", engine, "--depth", "7", "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, STEP_LOG: str(steps)})


def wait_for_commit(steps: Path, proc: subprocess.Popen[str]) -> None:
    """Until the run has committed its first evaluations (the named step)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if steps.exists() and "analyse.committed" in steps.read_text().split():
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("nothing was committed")


def engine(tmp: Path, name: str, delay: float = 0.0) -> str:
    answers, _ = scripted(ALL_POSITIONS)
    return shlex.join(fake_engine(tmp, {"name": "Fake", "version": "3", "positions": answers,
                                        "log": str(tmp / f"{name}.log"),
                                        "pidfile": str(tmp / "pids"), "delay": delay},
                                  f"{name}.json"))


def finished_rows(db: Path) -> list[tuple[object, ...]]:
    return [(r[0], r[1], r[6], r[7], r[8], r[9]) for r in table(db, EVALS)]


def test_kill_9_leaves_no_engine_and_the_next_run_goes_on(collection: Path,
                                                          tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    proc = start(collection, db, engine(tmp_path, "slow", delay=0.03), tmp_path / "steps")
    wait_for_commit(tmp_path / "steps", proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids(tmp_path / "pids")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pids(tmp_path / "pids") and not any(alive(p) for p in pids(tmp_path / "pids"))
    kept = table(db, "SELECT count(*) FROM evals")[0][0]
    assert 0 < kept < len(ALL_POSITIONS)
    done = subprocess.run([sys.executable, "-m", "pdnkit", "analyse", "--db", str(db),
                           "--engine", engine(tmp_path, "fast"), "--depth", "7", "-q"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    asked = (tmp_path / "fast.log").read_text().count("go analyze")
    assert asked <= len(ALL_POSITIONS) - kept  # nothing evaluated twice
    assert finished_rows(db) == expected_rows()


@pytest.mark.slow  # about 12 s: two runs of pdnkit, one stopped after its first commit
def test_ctrl_c_keeps_what_was_evaluated_and_says_so(collection: Path,
                                                     tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    proc = start(collection, db, engine(tmp_path, "slow", delay=0.03), tmp_path / "steps")
    wait_for_commit(tmp_path / "steps", proc)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C at a terminal: the whole foreground group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted: the positions evaluated so far are kept" in err
    assert "Traceback" not in err
    assert not any(alive(p) for p in pids(tmp_path / "pids"))
    kept = table(db, "SELECT count(*) FROM evals")[0][0]
    assert kept >= 71  # the first game whole
    # the engine was not hit by the Ctrl-C in the middle of a search: pdnkit ended it
    assert table(db, "SELECT count(*) FROM findings WHERE code = 'engine-failed'") == [(0,)]
    subprocess.run([sys.executable, "-m", "pdnkit", "analyse", "--db", str(db), "--engine",
                    engine(tmp_path, "fast"), "--depth", "7", "-q"], check=True,
                   capture_output=True, timeout=300)
    assert finished_rows(db) == expected_rows()
