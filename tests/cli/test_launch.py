"""The program's quick forms (:mod:`pdnkit.launch`): a command line in one prints exactly what
the Typer command prints for it, without importing Typer; every other line reaches Typer.

The command lines are generated from the rules records (every variant by name, alias and
GameType number, every small depth), so a variant added later is covered by the same rule."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from pdnkit.launch import quick_form
from pdnkit.rules import list_variants
from tests.cli.runs import ended, quick_run, typer_run
from tests.imported import modules_after
from tests.shared import shared_path

_SPEED = re.compile(r"^perft\((\d+)\) in \d+\.\d{3} s, (?:[\d,]+|inf) nodes/s$")


def _spellings() -> list[str]:
    """Every way to name a variant on the command line: name, each alias, GameType number."""
    out: list[str] = []
    for rules in list_variants(editions=False):
        out += [rules.name, *rules.aliases]
        if rules.gametype is not None and str(rules.gametype) not in out:
            out.append(str(rules.gametype))
    return out


@pytest.mark.parametrize("spelling", _spellings())
def test_quick_perft_prints_what_the_command_prints(spelling: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for depth in ("0", "1", "2", "03"):
        args = ["perft", spelling, depth]
        q_status, q_out, q_err = quick_run(args, capsys)
        t_status, t_out, t_err = typer_run(args, raises=False)
        assert (q_status, q_out) == (t_status, t_out), args
        assert _SPEED.match(q_err.strip()) and _SPEED.match(t_err.strip()), (q_err, t_err)
        assert _SPEED.match(q_err.strip())[1] == str(int(depth))  # type: ignore[index]


def test_quick_version_prints_what_the_option_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert quick_run(["--version"], capsys) == typer_run(["--version"], raises=False)


@pytest.mark.parametrize("args", [
    [], ["perft"], ["perft", "russian"], ["perft", "russian", "3", "--divide"],
    ["perft", "russian", "--divide", "3"], ["perft", "--fen", "W:W31:B1", "russian", "2"],
    ["perft", "russian", "-1"], ["perft", "russian", "3.0"], ["perft", "russian", "+3"],
    ["perft", "russian", "٣"], ["perft", "internationl", "3"], ["perft", "russian", "3", "x"],
    ["perft", "--help"], ["--version", "perft"], ["--help"], ["moves", "russian"],
    ["validate", "x.pdn", "--variant", "russian"], ["validate", "-"], ["validate"],
    ["validate", "x.pdn", "-o", "r.csv"], ["validate", "x.pdn", "--format", "json"],
    ["validate", "x.pdn", "--jobs"], ["validate", "x.pdn", "-qj", "2"],
])
def test_other_command_lines_go_to_typer(args: list[str]) -> None:
    assert quick_form(args) is None


def test_quick_forms_import_no_argument_parser() -> None:
    parser = ("typer", "click", "rich", "pdnkit.cli")
    assert modules_after(["perft", "international", "3"], parser) == []
    assert modules_after(["--version"], parser) == []
    assert modules_after(["perft", "international", "3", "--divide"], parser) != []


def test_the_program_falls_back_to_typer_with_its_messages() -> None:
    """Through the real entry point: an unknown variant is refused by Typer's check (the
    list of known variants, exit status 2), a plain line counts."""
    code = "import sys; sys.argv[0] = 'pdnkit'; from pdnkit.launch import main; main()"
    bad = subprocess.run([sys.executable, "-c", code, "perft", "internationl", "2"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "known:" in bad.stderr and "russian" in bad.stderr
    good = subprocess.run([sys.executable, "-c", code, "perft", "russian", "5"],
                          capture_output=True, text=True, timeout=120)
    assert good.returncode == 0 and _SPEED.match(good.stderr.strip()), good
    with open(shared_path("perft.json"), encoding="utf-8") as fh:
        published = {(e["variant"], e["duplicates"]): e["counts_by_depth"]
                     for e in json.load(fh)["initial_positions"]}
    assert good.stdout.splitlines()[-1] == str(published["russian", "drop_duplicates"]["5"])


def _ended(entry: str, args: list[str], sink: str) -> tuple[int, str]:
    """Exit status and standard error of ``pdnkit ARGS`` started through ``entry``
    (``pdnkit.launch``: the program; ``pdnkit.cli``: Typer for every line) with standard
    output a full disk (``/dev/full``) or a pipe whose reader is gone; the speed line's
    figures blanked."""
    res = ended(args, sink, entry)
    return res.returncode, re.sub(r"in \d+\.\d+ s, [\d,]+ nodes", "in T s, N nodes", res.stderr)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/full is Linux's")
@pytest.mark.parametrize("sink", ["full", "closed pipe"])
@pytest.mark.parametrize("args", [["perft", "russian", "3"], ["--version"]])
def test_an_output_that_cannot_be_written_ends_as_typer_ends(args: list[str], sink: str) -> None:
    """A full disk: one ``pdnkit: error:`` line, status 2; a reader gone: status 1, quiet
    (click's way); the same through the quick form as through Typer."""
    quick = _ended("pdnkit.launch", args, sink)
    typer_way = _ended("pdnkit.cli", args, sink)
    assert quick == typer_way
    assert "Traceback" not in quick[1]
    assert quick[0] == (2 if sink == "full" else 1)
    assert ("disk is full" in quick[1]) == (sink == "full")
