"""Issue 26 point 16 (last two items): the progress an import and ``validate`` show on a
terminal tells the truth. One large file moves the import's bar (bytes read within the file,
not 0/1 files until the end); ``validate`` shows how far through its input it is on standard
error when that is a terminal, and never writes it into the output. Real processes on a
pseudo-terminal."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pdnkit.samples import sample_dir
from tests.store.safety_helpers import ROOT

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _one_big_file(folder: Path, copies: int = 12) -> Path:
    """One file of the sample games, ``copies`` times over (about 3,000 games)."""
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(sample_dir().glob("*.pdn"))
                   if "cp1252" not in p.name)
    path = folder / "big.pdn"
    path.write_text(text * copies, encoding="utf-8")
    return path


def _run_on_terminal(*args: str | Path, cwd: Path) -> tuple[int, str, str]:
    """``pdnkit ARGS`` with standard error on a pseudo-terminal (standard output a pipe):
    (exit code, output, what the terminal showed, escapes removed)."""
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm", COLUMNS="120")
    env.pop("NO_COLOR", None)
    stdout = (cwd / "stdout.txt").open("w+", encoding="utf-8")  # (a pipe could fill up)
    proc = subprocess.Popen([sys.executable, "-m", "pdnkit", *map(str, args)], cwd=cwd,
                            env=env, stdout=stdout, stderr=slave, text=True)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    code = proc.wait(timeout=300)
    os.close(master)
    stdout.seek(0)
    out = stdout.read()
    stdout.close()
    return code, out, ANSI.sub("", shown.decode("utf-8", "replace"))


def _frames(shown: str, word: str) -> list[str]:
    return [f for f in shown.replace("\r", "\n").split("\n") if word in f]


@pytest.mark.slow
def test_one_large_file_moves_the_import_bar(tmp_path: Path) -> None:
    big = _one_big_file(tmp_path)
    code, out, shown = _run_on_terminal("import", big, "--db", tmp_path / "g.duckdb",
                                        cwd=tmp_path)
    assert code == 0, shown
    frames = _frames(shown, "0/1 files")
    moving = [f for f in frames if (m := re.search(r"(\d+\.\d)/(\d+\.\d) MB", f))
              and 0 < float(m.group(1)) < float(m.group(2))]
    assert moving, frames[-3:]  # bytes within the file, before it is done
    assert "games" in moving[-1] and "1 file(s) imported" in out


def test_validate_shows_progress_on_the_terminal_only(tmp_path: Path) -> None:
    big = _one_big_file(tmp_path, copies=4)
    code, out, shown = _run_on_terminal("validate", big, "--format", "jsonl", cwd=tmp_path)
    assert code in (0, 1), shown
    frames = _frames(shown, "validating")
    assert any(re.search(r"\b([1-9]\d?)% \d+ games", f) for f in frames), frames[-3:]
    assert "validating" not in out and "%" not in out.split("\n", 1)[0]
    assert all(line.startswith("{") for line in out.splitlines())  # jsonl, nothing else
    # no terminal: no progress at all
    done = subprocess.run([sys.executable, "-m", "pdnkit", "validate", str(big), "--format",
                           "jsonl"], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    assert not re.search(r"\d+% \d+ games", done.stderr) and "\r" not in done.stderr
