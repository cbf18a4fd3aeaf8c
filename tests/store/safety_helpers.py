"""Helpers of the safety tests: small PDN collections, a read-only folder, the CLI in a
subprocess."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from typer.testing import CliRunner

from pdnkit.cli import app

runner = CliRunner()

ROOT = Path(__file__).resolve().parents[2]

GAME_A = '[Event "A"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
GAME_B = '[Event "B"]\n[GameType "20"]\n\n1. 33-29 19-24 *\n\n'
GAME_C = '[Event "C"]\n[GameType "20"]\n\n1. 31-27 16-21 *\n\n'


def cli(*args: str | Path) -> tuple[int, str, str]:
    """Run ``pdnkit ARGS`` in this process: (exit code, stdout, stderr)."""
    r = runner.invoke(app, [str(a) for a in args])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.stdout, r.stderr


def cli_process(*args: str | Path, cwd: Path | None = None,
                preexec: Callable[[], object] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m pdnkit ARGS`` in a subprocess (this worktree's pdnkit)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pdnkit", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec)


def one_error_line(stderr: str) -> str:
    """The single ``pdnkit: error:`` line of ``stderr`` (asserts there is no traceback)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr and "╭" not in stderr, stderr
    errors = [line for line in lines if line.startswith("pdnkit: error: ")]
    assert len(errors) == 1, stderr
    return errors[0]


def collection(folder: Path) -> Path:
    """A folder with ``a.pdn`` (2 games) and ``b.pdn`` (1 game)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.pdn").write_text(GAME_A + GAME_B, encoding="utf-8")
    (folder / "b.pdn").write_text(GAME_C, encoding="utf-8")
    return folder


def imported(tmp_path: Path) -> Path:
    """A database with the :func:`collection` of ``tmp_path / "src"`` imported."""
    db = tmp_path / "g.duckdb"
    code, _, err = cli("import", collection(tmp_path / "src"), "--db", db, "--quiet")
    assert code == 0, err
    return db


def _can_mount() -> bool:
    return sys.platform.startswith("linux") and os.geteuid() == 0 and shutil.which("mount") \
        is not None


@contextlib.contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path | None]:
    """A tmpfs of ``size`` mounted at ``folder`` (``None`` when this process cannot mount)."""
    folder.mkdir(parents=True, exist_ok=True)
    if not _can_mount() or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
            capture_output=True).returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@contextlib.contextmanager
def read_only_copy(db: Path, folder: Path) -> Iterator[Path]:
    """A copy of the database ``db`` in ``folder``, where nothing can be written: the file
    and the folder are read-only (a read-only tmpfs when running as root, whom file modes do
    not stop)."""
    with tmpfs(folder, "64m") as mounted:
        copy = folder / db.name
        shutil.copy(db, copy)
        if mounted is not None:
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            yield copy
            return
        copy.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield copy
        finally:
            folder.chmod(0o755)
            copy.chmod(0o644)
