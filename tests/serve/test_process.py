"""``pdnkit serve`` as a user runs it: a real process on a free port of 127.0.0.1, asked over
HTTP, stopped with Ctrl-C (SIGINT) or SIGTERM; it exits 0 and leaves nothing (no process, the
port closed, the database free for a writer). Its errors are one ``pdnkit: error:`` line.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from tests.serve.conftest import games_once, refuses

PDNKIT = [sys.executable, "-m", "pdnkit"]


@pytest.fixture
def db(demo_db: Path, tmp_path: Path) -> Path:
    """A copy of the demo database (these tests write to it after the server stops)."""
    copy = tmp_path / "club.duckdb"
    shutil.copy(demo_db, copy)
    return copy


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


class _Drain:
    """What a process writes to one of its pipes, read as it comes (a pipe nobody reads
    fills at 64 KB and blocks the writer: the server could not end)."""

    def __init__(self, stream: IO[str]) -> None:
        self.parts: list[str] = []
        self._thread = threading.Thread(target=lambda: self.parts.extend(
            iter(stream.readline, "")), daemon=True)
        self._thread.start()

    def text(self) -> str:
        """Everything written, once the pipe is closed (the process ended)."""
        self._thread.join(timeout=30)
        return "".join(self.parts)


def _ctrl_c_as_at_a_terminal() -> None:
    """SIGINT at its default in the server, as a shell at a terminal starts a command: a
    process started with SIGINT ignored keeps ignoring it (Python then installs no Ctrl-C
    handler), and in full runs of the suite the worker that starts the server had come to
    ignore it (``SigIgn`` of the server's ``/proc`` status: SIGINT), from a library another
    test used; every Ctrl-C test then waited for a server that could not hear it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def running(*args: str | Path) -> Iterator[tuple[subprocess.Popen[str], str, str, _Drain]]:
    """``pdnkit serve ARGS --port 0`` started for real; yields the process, the page's
    address, the line it printed and its standard error as it comes; killed at the end if
    still running."""
    proc = subprocess.Popen([*PDNKIT, "serve", *map(str, args), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ctrl_c_as_at_a_terminal)
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline()))  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout=120)
    try:
        assert line and line[0].startswith("pdnkit explorer on http://127.0.0.1:"), (
            line, proc.poll(), proc.stderr.read() if proc.poll() is not None else "")  # type: ignore[union-attr]
        _Drain(proc.stdout)  # type: ignore[arg-type]
        yield proc, line[0].split()[3], line[0], _Drain(proc.stderr)  # type: ignore[arg-type]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def _stop(proc: subprocess.Popen[str], how: int, err: _Drain) -> None:
    """Send ``how``; the server must end with 0 within 30 s (else what it was doing)."""
    proc.send_signal(how)
    try:
        code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        status = Path(f"/proc/{proc.pid}/status").read_text().splitlines()
        tasks = [(t / "wchan").read_text() for t in Path(f"/proc/{proc.pid}/task").iterdir()]
        raise AssertionError(("still running", [s for s in status if s.startswith("Sig")],
                              tasks, "".join(err.parts)[-2000:])) from None
    assert code == 0, err.text()


def _get(url: str) -> object:
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_command_serves_until_stopped_and_leaves_nothing(db: Path, stop: int) -> None:
    with running("--db", db) as (proc, url, _, stderr):
        port = int(url.rsplit(":", 1)[1].strip("/"))
        api = _get(url + "api/tree?variant=international&moves=32-28+19-23")
        cli = subprocess.run([*PDNKIT, "tree", "--db", str(db), "--variant", "international",
                              "--moves", "32-28 19-23", "--format", "json"],
                             capture_output=True, text=True, timeout=120)
        # a reader beside the server: both read-only
        assert cli.returncode == 0, cli.stderr
        assert api == json.loads(cli.stdout) and api
        # while it serves, no writer gets the database: one clear line, nothing changed
        blocked = subprocess.run([*PDNKIT, "players", "alias", "Lenz", "--as", "A. Lenz",
                                  "--db", str(db)], capture_output=True, text=True, timeout=120)
        assert blocked.returncode == 2
        assert blocked.stderr.startswith("pdnkit: error:") and blocked.stderr.count("\n") == 1
        assert _children(proc.pid) == []  # the server starts no process
        _stop(proc, stop, stderr)
        err = stderr.text()
        assert "Traceback" not in err and "GET /api/tree?variant=international" in err
    assert refuses(port)
    with pytest.raises(ProcessLookupError):
        os.kill(proc.pid, 0)
    # the database is free again, and whole: a writer opens it
    done = subprocess.run([*PDNKIT, "players", "alias", "Lenz", "--as", "A. Lenz", "--db",
                           str(db)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_line_says_where_and_how_many_games(db: Path) -> None:
    with running("--db", db, "--quiet") as (proc, url, line, stderr):
        n = games_once(db)
        assert line == f"pdnkit explorer on {url} ({n} games in club.duckdb); Ctrl-C stops it\n"
        assert _get(url + "api/info")["games"] == n  # type: ignore[index]
        _stop(proc, signal.SIGINT, stderr)
        assert stderr.text() == ""  # (--quiet: no request log)


def _serve(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PDNKIT, "serve", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def test_no_database_is_one_error_line(tmp_path: Path) -> None:
    r = _serve("--db", tmp_path / "missing.duckdb", "--port", "0")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("pdnkit: error: no pdnkit database at") and \
        r.stderr.count("\n") == 1


def test_a_port_in_use_is_one_error_line(db: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        r = _serve("--db", db, "--port", str(port))
    finally:
        taken.close()
    assert r.returncode == 2
    assert r.stderr == (f"pdnkit: error: port {port} on 127.0.0.1 is in use: give another "
                        "with --port (0 takes any free port)\n")


def test_an_address_other_than_loopback_is_warned_about(db: Path) -> None:
    # 192.0.2.1 (TEST-NET-1, RFC 5737) is no address of this machine: nothing listens
    r = _serve("--db", db, "--port", "0", "--host", "192.0.2.1")
    lines = r.stderr.splitlines()
    assert lines[0].startswith("pdnkit: warning: listening on 192.0.2.1, not only on this "
                               "machine: anyone who can reach it")
    assert lines[1].startswith("pdnkit: error: cannot listen on 192.0.2.1 port 0")
    assert r.returncode == 2 and len(lines) == 2


def test_help_explains_with_examples() -> None:
    r = subprocess.run([*PDNKIT, "serve", "--help"], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "COLUMNS": "120"})
    assert r.returncode == 0
    for text in ("--host", "--port", "--open", "read-only", "127.0.0.1", "/api/tree"):
        assert text in r.stdout, text


def test_the_request_log_never_drives_the_terminal(db: Path) -> None:
    """A request line with terminal escapes (ESC, BEL, a bidi override) is logged escaped."""
    with running("--db", db) as (proc, url, _, stderr):
        port = int(url.rsplit(":", 1)[1].strip("/"))
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /\x1b]0;owned\x07\x1b[2J\xe2\x80\xae HTTP/1.1\r\nHost: 127.0.0.1:"
                  + str(port).encode() + b"\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 404")
        s.close()
        _stop(proc, signal.SIGINT, stderr)
        err = stderr.text()
    assert "\\x1b]0;owned\\x07\\x1b[2J" in err
    assert "\x1b" not in err and "\x07" not in err
