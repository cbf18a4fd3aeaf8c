"""Issue 16 point 9: the worker processes of an import die with it, even after ``kill -9``."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pdnkit._children import process_pool
from tests.store.safety_helpers import GAME_A, GAME_B, ROOT

linux = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc (Linux)")


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out += [int(x) for x in (task / "children").read_text().split()]
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(predicate: object, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@linux
def test_kill_9_of_an_import_takes_its_workers_with_it(tmp_path: Path) -> None:
    src = tmp_path / "big.pdn"
    # above PARALLEL_MIN_BYTES (2 MB), so that the import starts workers
    src.write_text((GAME_A + GAME_B) * 20000, encoding="utf-8")
    # workers are used with the pure core only (on the compiled one, one process is faster)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PDNKIT_PURE="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pdnkit", "import", str(src), "--db", str(tmp_path / "g.duckdb"),
         "--jobs", "2", "--quiet"], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        assert _wait(lambda: len(_children(proc.pid)) >= 2, 120), "no workers started"
        workers = _children(proc.pid)
        time.sleep(0.5)  # inside the import, workers busy
        assert proc.poll() is None, "the import ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert _wait(lambda: not any(_alive(w) for w in workers), 10), \
            f"workers still alive after the import was killed: {workers}"
    finally:
        if proc.poll() is None:
            proc.kill()
        for w in _children(proc.pid) if proc.poll() is None else []:
            os.kill(w, signal.SIGKILL)


def _orphan_pool_worker(conn_fd: int) -> None:  # pragma: no cover - runs in a child
    """In a child process: start a pool (whose workers die with this process), report the
    worker pids on ``conn_fd`` and wait to be killed."""
    pool = process_pool(2)
    pids = sorted({pool.submit(os.getpid).result() for _ in range(8)})
    os.write(conn_fd, (" ".join(map(str, pids)) + "\n").encode())
    time.sleep(600)


@linux
def test_process_pool_workers_die_with_their_parent() -> None:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            _orphan_pool_worker(write)
        finally:
            os._exit(0)
    os.close(write)
    try:
        with os.fdopen(read) as fh:
            workers = [int(x) for x in fh.readline().split()]
        assert workers and all(_alive(w) for w in workers)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert _wait(lambda: not any(_alive(w) for w in workers), 10)
