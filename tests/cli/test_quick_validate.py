"""The quick form of ``pdnkit validate`` (:mod:`pdnkit.launch`) prints what the Typer command
prints, byte for byte (but the run's time), with the same exit status, for generated command
lines (formats, switches, a missing file, a folder without PDN, ``--help``, options the quick
form leaves to Typer); it loads neither Typer, click nor rich, nor pandas or matplotlib; and
its plain summary table is the one rich draws."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pdnkit.launch import quick_form
from pdnkit.lean.plaintext import Safe, plain_table
from pdnkit.lean.validate import Summary, prints_as_is
from tests.imported import modules_after

#: a game that replays cleanly (Article 3 opening moves of the international game)
CLEAN = ('[Event "Clean [x] :smile:"]\n[White "Ann\\tLee"]\n[Black "Bo"]\n[Result "*"]\n'
         '[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 *\n\n')
#: games with findings: an illegal move, a result the final position contradicts, a bad tag
BAD = ('[Event "Bad"]\n[Result "2-0"]\n[GameType "20"]\n\n1. 32-28 32-27 2-0\n\n'
       '[Event "Odd :ok_hand: [red]x[/red]"]\n[Result "1-1"]\n[GameType "20"]\n\n'
       '1. 32-28 18-23 2. 28x19 14x23 3. 31-26 {a comment \\ with a [bracket]} 1-1\n\n'
       '[Event "Russian"]\n[GameType "25"]\n[Result "2-0"]\n\n1. c3-d4 d6-c5 2. d4xb6 2-0\n\n')

_TIME = re.compile(r"\d+\.\d\d s \([\d,]+ games/s\)")


def _files(tmp: Path) -> dict[str, str]:
    (tmp / "clean.pdn").write_text(CLEAN, encoding="utf-8")
    (tmp / "bad.pdn").write_text(BAD, encoding="utf-8")
    (tmp / "empty").mkdir(exist_ok=True)
    return {"clean": "clean.pdn", "bad": "bad.pdn", "missing": "no-such.pdn", "empty": "empty"}


def _norm(text: str) -> str:
    """The output without what differs from run to run: the time, and the widths it sets."""
    text = _TIME.sub("T", text)
    return "\n".join(re.sub(r"[─━]+", "-", re.sub(r" +", " ", line)) for line in
                     text.splitlines())


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR")}


def _both(args: list[str], cwd: Path) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """``pdnkit ARGS`` as the program runs it (quick form or not) and through Typer."""
    code = "import sys; sys.argv = ['pdnkit', *sys.argv[1:]]\nfrom pdnkit.{} import main\nmain()\n"
    out = []
    for cmd in ([sys.executable, "-c", code.format("launch"), *args],
                [sys.executable, "-c", code.format("cli"), *args]):
        res = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=_env(),
                             timeout=300, stdin=subprocess.DEVNULL)
        out.append((res.returncode, _norm(res.stdout), _norm(res.stderr)))
    return out[0], out[1]


def _lines(rng: random.Random, files: dict[str, str]) -> list[list[str]]:
    """Generated ``validate`` command lines: mostly quick forms, some for Typer."""
    lines = [["validate", files["clean"]], ["validate", files["bad"], "--format", "jsonl"],
             ["validate", files["missing"]], ["validate", "--help"]]
    options = [[], ["-q"], ["--quiet"], ["--info"], ["--strict"], ["--fail-on", "warning"],
               ["--fail-on=never"], ["--jobs", "1"], ["-j", "0"], ["--format", "csv"],
               ["--format=csv-raw"], ["--format", "text"], ["--format", "jsonl"],
               ["--format", "CSV"], ["--variant", "russian"], ["--format"]]
    for _ in range(6):
        chosen = rng.sample(["clean", "bad", "bad", "missing", "empty"], rng.randint(1, 2))
        line = ["validate", *(files[c] for c in chosen)]
        for opt in rng.sample(options, rng.randint(0, 3)):
            line[rng.randint(2, len(line)):rng.randint(2, len(line))] = opt
        lines.append(line)
    return lines


def _check(lines: list[list[str]], cwd: Path) -> None:
    quick = 0
    for args in lines:
        quick += quick_form(args) is not None
        q, t = _both(args, cwd)
        assert q == t, args
    assert quick >= len(lines) // 2  # most lines went the quick way


def test_quick_validate_prints_what_typer_prints(tmp_path: Path) -> None:
    files = _files(tmp_path)
    _check(_lines(random.Random(35), files)[:5], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_validate_lines_agree(tmp_path: Path, seed: int) -> None:
    files = _files(tmp_path)
    _check(_lines(random.Random(seed), files)[4:], tmp_path)


def test_quick_validate_loads_no_parser_rich_or_data_libraries(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"  # (a finding's text with markup or an emoji code: rich)
    path.write_text(BAD.split("\n\n[Event")[0], encoding="utf-8")
    heavy = ("typer", "click", "rich", "pandas", "matplotlib", "duckdb", "pyarrow")
    for fmt in ("jsonl", "csv", "text"):
        assert modules_after(["validate", str(path), "--format", fmt], heavy) == [], fmt


def _summary(rng: random.Random) -> Summary:
    s = Summary()
    s.games = rng.choice([0, 1, 10, 12345])
    s.plies = rng.randint(0, 10**7)
    s.by_status = {"ok": rng.randint(0, 99), "warning": rng.randint(0, 9), "error": 3,
                   "unparsed": 0}
    names = ["international", "russian", "english", "brazilian", "frisian", "pool"]
    s.variants = {n: rng.randint(1, 500) for n in rng.sample(names, rng.randint(0, 6))}
    s.guessed = {n: 1 for n in rng.sample(names, rng.randint(0, 2))}
    s.file_findings = rng.choice([0, 0, 2])
    codes = ["illegal-move", "missed-capture", "result-mismatch", "draw-unsupported", "x"]
    s.by_code = {(c, rng.choice(["error", "warning", "info"])): rng.randint(1, 99)
                 for c in rng.sample(codes, rng.randint(0, 5))}
    return s


@pytest.mark.parametrize("seed", range(40))
def test_plain_summary_is_what_rich_draws(seed: int) -> None:
    from rich.console import Console

    rng = random.Random(seed)
    summary = _summary(rng)
    seconds = rng.choice([0.0, 0.004, 1.5, 123.456])
    for width in (30, 45, 80, 120):
        plain = summary.text(seconds, width)
        console = Console(file=io.StringIO(), width=width)
        console.print(Safe(summary.table(seconds)))
        drawn = console.file.getvalue()  # type: ignore[attr-defined]
        if plain is not None:
            assert plain == drawn, (seed, width)
        else:  # only a table rich must wrap is left to rich
            assert max(len(line) for line in drawn.splitlines()) >= width - 1 or \
                   any(len(line) > width for line in drawn.splitlines()) or width < 60


def test_plain_table_refuses_what_rich_would_change() -> None:
    assert plain_table("t", [("é", "1")]) is None
    assert plain_table("t", [("a" * 90, "1")]) is None
    assert plain_table("a very long title indeed", [("a", "1")]) is None
    assert plain_table("t", [("a\tb", "1")]) is None


@pytest.mark.parametrize("seed", range(5))
def test_a_finding_printed_as_is_is_what_rich_prints(seed: int) -> None:
    from rich.console import Console
    from rich.markup import escape

    rng = random.Random(seed)
    alphabet = "ab Z09-x:[]/#@\\\t.,é*_"
    taken = 0
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        if not prints_as_is(text):
            continue
        taken += 1
        console = Console(file=io.StringIO(), highlight=False, soft_wrap=True)
        console.print(f"[red]{escape(text)}[/red]")
        assert console.file.getvalue() == text + "\n", text  # type: ignore[attr-defined]
    assert taken > 20
