"""Raw ESC, OSC, BEL, C1 controls and bidi overrides from a file's tags and comments reached
a terminal through ``query --format csv``, ``export --out -`` and other machine formats
written to standard output. Now every output that carries file text goes through the one
mechanism (:func:`pdnkit.lean.tables.terminal_safe`, by :func:`pdnkit.lean.tables.screen`)
when standard output is a terminal, and a pipe still gets the bytes exactly. The commands
run as real processes on a real pseudo-terminal (``pty``), and through a real pipe."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.hostile_tags import FORMULA, LEAKS, TERMINAL, hostile_db

ROOT = Path(__file__).resolve().parents[2]
pty = pytest.importorskip("pty", reason="needs a pseudo-terminal (POSIX)")

#: commands whose output carries the hostile tags or comments ({src}: the PDN file,
#: {db}: its database)
COMMANDS = [
    ["query", "SELECT event, white, black FROM games", "--db", "{db}", "--format", "csv"],
    ["query", "SELECT event, white, black FROM games", "--db", "{db}", "--format", "csv-raw"],
    ["query", "SELECT white FROM games", "--db", "{db}", "--format", "json"],
    ["query", "SELECT white FROM games", "--db", "{db}", "--format", "jsonl"],
    ["query", "SELECT white FROM games", "--db", "{db}"],
    ["export", "--out", "-", "--db", "{db}"],
    ["convert", "{src}", "--out", "-"],
    ["stats", "players", "--db", "{db}", "--format", "csv"],
    ["stats", "players", "--db", "{db}"],
    ["validate", "{bad}", "--format", "jsonl"],
    ["validate", "{bad}", "--format", "csv"],
    ["validate", "{bad}"],
    ["lint", "{junk}", "--format", "jsonl"],
    ["report", "collection", "--db", "{db}"],
    ["show", "{src}"],
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("tty")
    src, db = hostile_db(folder)
    bad = folder / "bad.pdn"  # a finding, with the hostile player in every row
    bad.write_text(f'[White "{TERMINAL}"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28-22 *\n',
                   encoding="utf-8")
    junk = folder / "junk.pdn"  # unreadable movetext: lint quotes it in its findings
    junk.write_text('[GameType "20"]\n\n1. 32-28 19-23 \x1b]0;PWNED\x07 junk\u202e\x9b31m '
                    "2. 28x19 *\n", encoding="utf-8")
    return {"src": str(src), "db": str(db), "bad": str(bad), "junk": str(junk),
            "cwd": str(folder)}


def _args(command: list[str], files: dict[str, str]) -> list[str]:
    return [a.format(**files) for a in command]


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    env.pop("NO_COLOR", None)
    return env


def on_terminal(args: list[str], cwd: str) -> tuple[int, bytes]:
    """``pdnkit ARGS`` with standard output (and error) a pseudo-terminal: its exit status
    and every byte the terminal received."""
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.chdir(cwd)
        os.execve(sys.executable, [sys.executable, "-m", "pdnkit", *args], _env())
    out = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 120)
        if not ready:
            break
        try:
            data = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        out += data
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2] + c[-1:]))
def test_no_control_sequence_of_a_file_reaches_the_terminal(
        files: dict[str, str], command: list[str]) -> None:
    code, out = on_terminal(_args(command, files), files["cwd"])
    assert code in (0, 1), out[-2000:]
    assert out.strip(), "nothing was written"
    leaks = [seq for seq in LEAKS if seq in out]
    assert leaks == [], out[-2000:]


@pytest.mark.parametrize("command", [c for c in COMMANDS if c[-1] in ("csv-raw", "-")
                                     or c[-2:] == ["--format", "jsonl"]],
                         ids=lambda c: " ".join(c[:2] + c[-1:]))
def test_a_pipe_gets_the_bytes_exactly(files: dict[str, str], command: list[str]) -> None:
    """The same outputs through a pipe (a program reads them): the file's characters as they
    are, control characters included."""
    r = subprocess.run([sys.executable, "-m", "pdnkit", *_args(command, files)],
                       cwd=files["cwd"], env=_env(), capture_output=True, timeout=300)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    if command[-1] == "jsonl":  # JSON escapes C0 controls itself; C1 and bidi stay
        assert "\x9b".encode() in r.stdout and "\u202e".encode() in r.stdout
        assert b"\\u001b]0;PWNED\\u0007" in r.stdout
    else:
        assert TERMINAL.encode() in r.stdout
    if command[-1] == "csv-raw":
        assert FORMULA.encode() in r.stdout  # the formula as stored


def test_convert_to_standard_output_writes_no_file(files: dict[str, str],
                                                   tmp_path: Path) -> None:
    """``convert --out -`` wrote a file named ``-``: it writes the games to standard output
    (as ``export --out -`` does), its summary to standard error."""
    r = subprocess.run([sys.executable, "-m", "pdnkit", "convert", files["src"], "--out", "-"],
                       cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert list(tmp_path.iterdir()) == []
    assert r.stdout.startswith(f'[Event "{FORMULA}"]') and r.stdout.count("[Event ") == 2
    assert "2 game(s) from 1 file(s) -> -" in r.stderr
    out = tmp_path / "c.pdn"
    r = subprocess.run([sys.executable, "-m", "pdnkit", "convert", files["src"], "--out",
                        str(out)], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8") == _stdout_of_convert(files)


def _stdout_of_convert(files: dict[str, str]) -> str:
    r = subprocess.run([sys.executable, "-m", "pdnkit", "convert", files["src"], "--out", "-"],
                       env=_env(), capture_output=True, text=True, timeout=300)
    return r.stdout


def test_screen_wraps_only_a_terminal() -> None:
    """A stream that is no terminal (a file, a pipe, a closed stream) is written as it is;
    a terminal gets every piece of text through ``terminal_safe``."""
    import io

    from pdnkit.lean.tables import ScreenStream, is_terminal, screen, screen_text

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    plain = io.StringIO()
    assert screen(plain) is plain and screen_text(TERMINAL, plain) == TERMINAL
    closed = io.StringIO()
    closed.close()
    assert not is_terminal(closed) and not is_terminal(object())
    tty = Tty()
    out = screen(tty)
    assert isinstance(out, ScreenStream)
    out.write(f"{TERMINAL},{FORMULA}\n")
    out.flush()
    assert tty.getvalue() == ("Ann\\x1b]0;PWNED\\x07\\x1b[31mRED\\x9b31m\\u202eBIDI,"
                              f"{FORMULA}\n")
    assert screen_text(TERMINAL, tty) == tty.getvalue().split(",")[0]
