"""The quick form of ``pdnkit show`` (:func:`pdnkit.lean.forms.show_form`): a game at a ply,
from a file or a database, prints exactly what the Typer command prints (standard output,
standard error, exit status) without importing the argument parser; the lines it does not
read reach Typer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pdnkit.launch import quick_form
from tests.cli.helpers import build
from tests.cli.runs import quick_run, typer_run
from tests.imported import modules_after

#: the project's own sample files (written by its seeded generator): clean games of every
#: board, and the file of faulty games
SAMPLES = Path(__file__).resolve().parents[2] / "data"
#: plies a user asks for: numbers, the end, finding codes (some the game has, some not)
PLIES = ["0", "1", "7", "end", "999", "not-max-capture", "illegal-move", "result-mismatch",
         "no-such-code"]


def _lines(rng: random.Random, files: list[Path]) -> list[list[str]]:
    """Seeded ``show`` command lines over ``files``: games in and out of range, plies of every
    kind, the options in their long and short spellings."""
    lines = []
    for _ in range(40):
        args = ["show", str(rng.choice(files))]
        if rng.random() < 0.8:
            args += [rng.choice(["--game", "-g"]), str(rng.randint(1, 14))]
        if rng.random() < 0.7:
            args += [rng.choice(["--ply", "-p"]), rng.choice(PLIES)]
        if rng.random() < 0.4:
            args += ["--width", str(rng.choice([40, 60, 80, 120, 200]))]
        lines.append(args)
    return lines


def test_quick_show_prints_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(SAMPLES.glob("*.pdn"))
    assert files, SAMPLES
    statuses = set()
    for args in _lines(random.Random(35), files):
        quick = quick_run(args, capsys)
        assert quick == typer_run(args), args
        statuses.add(quick[0])
    assert statuses == {0, 2}  # games shown, and games or plies that do not exist


def test_quick_show_of_a_database_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    db = build(tmp_path)
    for args in (["--game-id", "1"], ["--game-id", "2", "-p", "end"], ["--game-id", "3", "-p", "2"],
                 ["--game-id", "999"], ["--game-id=1", "--width=70"]):
        line = ["show", "--db", str(db), *args]
        quick = quick_run(line, capsys)
        assert quick == typer_run(line), line
    status, out, _ = quick_run(["show", "--db", str(db), "--game-id", "1"], capsys)
    assert status == 0 and "cup.pdn" in out  # the game's board, under its file's name


@pytest.mark.parametrize("args", [
    ["show"], ["show", "--game-id", "1"], ["show", "--db", "{db}"], ["show", "data/no-such.pdn"],
    ["show", "{file}", "--db", "{db}", "--game-id", "1"],
])
def test_quick_show_refuses_what_the_command_refuses(args: list[str], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    file = sorted(SAMPLES.glob("*.pdn"))[0]
    line = [a.replace("{db}", str(tmp_path / "x.duckdb")).replace("{file}", str(file))
            for a in args]
    quick = quick_run(line, capsys)
    assert quick == typer_run(line)
    assert quick[0] == 2 and quick[2].startswith("pdnkit: error: ")


@pytest.mark.parametrize("args", [
    ["show", "x.pdn", "--help"], ["show", "x.pdn", "--variant", "english"],
    ["show", "x.pdn", "--game", "0"], ["show", "x.pdn", "--game", "x"],
    ["show", "x.pdn", "--width", "0"], ["show", "x.pdn", "y.pdn"], ["show", "x.pdn", "-p"],
    ["show", "--db", "x", "--game-id", "-1"], ["show", "-"],
])
def test_lines_the_quick_show_leaves_to_typer(args: list[str]) -> None:
    assert quick_form(args) is None


def test_quick_show_imports_no_argument_parser() -> None:
    file = str(SAMPLES / "flawed.pdn")
    parser = ("typer", "click")
    assert modules_after(["show", file, "--game", "2"], parser) == []
    assert "typer" in modules_after(["show", file, "--game", "2", "--variant", "international"],
                                    parser)
