"""A worker stopped with SIGSTOP never holds ``import --jobs`` (or ``validate --jobs``) for
ever: ``import`` waited for ever for a stopped worker (at the pool's shutdown, or for a batch
it never took), where ``validate`` gave up after the stall limit. Real processes: the CLI
in a subprocess, its worker stopped by a real signal; the stall limit is shortened through
``PDNKIT_STALL_SECONDS`` so that the test does not wait a minute."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pytest

from pdnkit._children import close_pool, process_pool
from pdnkit.validation import parts
from tests.store.safety_helpers import GAME_A, GAME_B, ROOT

linux = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc (Linux)")

#: the CLI with the workers' probe always saying yes (a real process: only the decision is
#: forced, so that the stopped worker is one the import hands work to)
FORCED = ("import sys; import pdnkit.validation.jobs as j; import pdnkit.validation.costs as c; "
          "c.workers_pay = lambda *a, **k: True; c.PROBE_WARMUP = 0; c.PROBE_GAMES = 1; "
          "c.PROBE_SECONDS = 0.0; j.PROBE_SPANS = (16384,); j.SPAN_BYTES = 16384; "
          "from pdnkit.launch import main; sys.argv[0] = 'pdnkit'; sys.exit(main())")


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out += [int(x) for x in (task / "children").read_text().split()]
    return out


def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def _collection(tmp_path: Path) -> Path:
    src = tmp_path / "big.pdn"  # above PARALLEL_MIN_BYTES: the import starts workers
    src.write_text("".join(GAME_A.replace('"A"', f'"A{i}"') + GAME_B for i in range(3000)),
                   encoding="utf-8")
    return src


def _run(args: list[str], env: dict[str, str], forced: bool,
         stop_worker: bool) -> tuple[subprocess.CompletedProcess[str], list[int]]:
    """Run ``pdnkit ARGS``; with ``stop_worker``, SIGSTOP its first worker as soon as the
    pool is there. Returns the finished process (its output read from files: a pipe
    nobody reads while the workers are awaited would hold the process) and the workers
    stopped."""
    cmd = [sys.executable, "-c", FORCED, *args] if forced else \
        [sys.executable, "-m", "pdnkit", *args]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        code, stopped = _wait(subprocess.Popen(cmd, env=env, stdout=out, stderr=err),
                              stop_worker)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(cmd, code, out.read(), err.read()), stopped


def _wait(proc: subprocess.Popen[bytes], stop_worker: bool) -> tuple[int, list[int]]:
    stopped: list[int] = []
    try:
        if stop_worker:
            end = time.monotonic() + 60
            while time.monotonic() < end and proc.poll() is None:
                kids = _children(proc.pid)
                if len(kids) >= 2:
                    os.kill(kids[0], signal.SIGSTOP)
                    stopped.append(kids[0])
                    break
                time.sleep(0.005)
            assert stopped, "no worker was started"
        return proc.wait(timeout=180), stopped
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _rows(db: Path) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT game_index, event, status, plies, moves_hash FROM games "
                           "ORDER BY game_index").fetchall()
    finally:
        con.close()


def _summary(stdout: str) -> str:
    return re.sub(r" in [0-9.]+ s \([0-9.]+ games/s\)", "", stdout)


@linux
@pytest.mark.parametrize("forced", [False, True], ids=["probe-decides", "workers-used"])
def test_import_jobs_with_a_stopped_worker_ends_as_jobs_1(tmp_path: Path, forced: bool) -> None:
    """The pure core's workers (the compiled core starts none for an import): one stopped
    with SIGSTOP as the pool starts. The import ends, with the rows and the summary of
    ``--jobs 1``, and the stopped worker is gone."""
    src = _collection(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PDNKIT_PURE="1", PDNKIT_STALL_SECONDS="2")
    one, _ = _run(["import", str(src), "--db", str(tmp_path / "one.duckdb"), "--quiet"],
                  env, forced=False, stop_worker=False)
    assert one.returncode == 0, one.stderr
    started = time.monotonic()
    two, stopped = _run(["import", str(src), "--db", str(tmp_path / "two.duckdb"), "--jobs",
                         "2", "--quiet"], env, forced=forced, stop_worker=True)
    assert two.returncode == 0, two.stderr
    assert time.monotonic() - started < 150
    assert _summary(two.stdout).replace("two.duckdb", "one.duckdb") == _summary(one.stdout)
    assert _rows(tmp_path / "two.duckdb") == _rows(tmp_path / "one.duckdb")
    assert len(_rows(tmp_path / "one.duckdb")) == 6000
    assert all(_state(pid) in (None, "Z") for pid in stopped), "the stopped worker was left behind"


@linux
def test_validate_jobs_with_a_stopped_worker_ends_as_jobs_1(tmp_path: Path) -> None:
    """``validate --jobs 2`` on the compiled core's parts (or the pure core's batches): a
    worker stopped as the pool starts, and the reports are those of ``--jobs 1``."""
    src = _collection(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PDNKIT_STALL_SECONDS="2")
    args = ["validate", str(src), "--format", "jsonl"]
    one, _ = _run(args, env, forced=False, stop_worker=False)
    two, stopped = _run([*args, "--jobs", "2"], env, forced=True, stop_worker=True)
    assert (two.returncode, two.stdout) == (one.returncode, one.stdout), two.stderr
    assert one.stdout.count("\n") == 6000
    assert all(_state(pid) in (None, "Z") for pid in stopped), "the stopped worker was left behind"


def test_an_import_starts_its_pool_only_where_workers_could_pay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``import --jobs 2`` starts no pool for a few games (below ``PARALLEL_MIN_BYTES``), nor
    where workers could not pay with every other core idle (``costs.could_pay``: one core,
    or a cost model that says so), and one
    for a large input where they could, on either core (on the compiled core they read
    parts of the file and send their rows back as Arrow)."""
    from pdnkit.store import import_files
    from pdnkit.validation import costs
    from tests.pools import started_pools

    src = _collection(tmp_path)
    small = tmp_path / "small.pdn"
    small.write_text(GAME_A + GAME_B, encoding="utf-8")
    started = started_pools(monkeypatch)
    monkeypatch.setattr(costs, "workers_pay", lambda *a, **k: False)
    assert import_files([small], db=tmp_path / "s.duckdb", jobs=2).games == 2
    assert started == []
    monkeypatch.setattr(costs, "workers_can_pay", lambda: False)  # the compiled core
    assert import_files([src], db=tmp_path / "a.duckdb", jobs=2).games == 6000
    assert started == []  # (they could not pay)
    monkeypatch.setattr(costs, "could_pay", lambda *a, **k: True)
    assert import_files([src], db=tmp_path / "b.duckdb", jobs=2).games == 6000
    assert started == [2]
    monkeypatch.setattr(costs, "workers_can_pay", lambda: True)  # the pure core
    assert import_files([src], db=tmp_path / "c.duckdb", jobs=2).games == 6000
    assert started == [2, 2]


@linux
def test_close_pool_kills_a_stopped_worker_and_returns() -> None:
    pool = process_pool(2)
    pids = sorted({pool.submit(os.getpid).result() for _ in range(8)})
    os.kill(pids[0], signal.SIGSTOP)
    started = time.monotonic()
    close_pool(pool, grace=0.5)
    assert time.monotonic() - started < 30
    assert all(_state(pid) in (None, "Z") for pid in pids)


def test_the_stall_limit_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(parts.STALL_ENV, raising=False)
    assert parts.stall_seconds() == parts.STALL_SECONDS == 60.0
    for text, expected in [("2.5", 2.5), (" 7 ", 7.0), ("0", 60.0), ("-3", 60.0),
                           ("soon", 60.0), ("inf", 60.0), ("nan", 60.0), ("", 60.0)]:
        monkeypatch.setenv(parts.STALL_ENV, text)
        assert parts.stall_seconds() == expected, text


def _never_ready(seconds: float) -> None:  # pragma: no cover - runs in a worker
    time.sleep(seconds)


def test_workers_that_never_start_leave_the_import_to_this_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers that do not answer within the stall limit as the pool starts (stopped or
    hung at once): the import drops them and loads every game itself."""
    import pdnkit._children as children
    from pdnkit.store import import_files
    from pdnkit.validation import costs

    real = children.process_pool
    monkeypatch.setattr(children, "process_pool",
                        lambda n, *a, **k: real(n, initializer=_never_ready, initargs=(600,)))
    monkeypatch.setattr(parts, "STALL_SECONDS", 1.0)
    monkeypatch.delenv(parts.STALL_ENV, raising=False)
    monkeypatch.setattr(costs, "workers_can_pay", lambda: True)
    src = _collection(tmp_path)
    started = time.monotonic()
    summary = import_files([src], db=tmp_path / "a.duckdb", jobs=2)
    assert summary.games == 6000 and summary.failed == 0
    assert time.monotonic() - started < 120
    assert _rows(tmp_path / "a.duckdb") == _rows_of_one(tmp_path, src)


def _rows_of_one(tmp_path: Path, src: Path) -> list[tuple[object, ...]]:
    from pdnkit.store import import_files

    import_files([src], db=tmp_path / "one.duckdb")
    return _rows(tmp_path / "one.duckdb")


def test_close_pool_shuts_a_thread_pool_down_as_usual() -> None:
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(2)
    fut = pool.submit(sum, [1, 2])
    close_pool(pool, grace=0.0)
    assert fut.result() == 3
    with pytest.raises(RuntimeError):
        pool.submit(sum, [1])
