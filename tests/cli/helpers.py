"""A small real database for the command-line tests: PDN written here, imported by
``pdnkit import``, with players, an event, dates, an alias, a duplicate game, a file known
under two names, a finding and an analysis by the built-in check."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from pdnkit.cli import app

runner = CliRunner()


def _game(white: str, black: str, date: str, result: str, moves: str) -> str:
    return (f'[Event "Cup 2020"]\n[White "{white}"]\n[Black "{black}"]\n[Date "{date}"]\n'
            f'[Result "{result}"]\n[GameType "20"]\n\n{moves} {result}\n\n')


GAMES = (
    _game("Marion Tinsley", "Ann Lee", "2020.05.01", "2-0", "1. 32-28 19-23 2. 28x19 14x23")
    + _game("M Tinsley", "Bob Stone", "2020.05.02", "1-1", "1. 32-28 19-23 2. 28x19 14x23")
    + _game("Ann Lee", "Bob Stone", "2020.05.03", "0-2", "1. 33-29 19-24")
    + _game("Bob Stone", "Marion Tinsley", "2020.05.04", "1-1", "1. 31-27 16-21")
    + _game("J Smith", "John Smith", "2020.05.05", "2-0", "1. 32-28 19-23 2. 28-22")
)


def cli(*args: str | Path) -> tuple[int, str, str]:
    """``pdnkit ARGS`` in this process: (exit code, stdout, stderr)."""
    r = runner.invoke(app, [str(a) for a in args])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.stdout, r.stderr


def build(folder: Path) -> Path:
    """The database ``folder / "cup.duckdb"`` (the games in ``folder / "src"``)."""
    src = folder / "src"
    src.mkdir(parents=True)
    (src / "cup.pdn").write_text(GAMES, encoding="utf-8")
    copy = folder / "again"
    copy.mkdir()
    shutil.copy(src / "cup.pdn", copy / "same.pdn")  # the same bytes under another name
    db = folder / "cup.duckdb"
    for path in (src, copy):
        code, _, err = cli("import", path, "--db", db, "--quiet")
        assert code in (0, 1), err
    code, _, err = cli("players", "alias", "M Tinsley", "--as", "Marion Tinsley", "--db", db)
    assert code == 0, err
    code, _, err = cli("analyse", "--db", db, "--engine", "builtin", "--depth", "2", "-q")
    assert code == 0, err
    return db
