"""The ways the command-line tests run a command line: as a quick form (no Typer), through
the Typer application, and as a whole program whose standard output is a full disk or a
pipe whose reader is gone."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from pdnkit.cli import app
from pdnkit.launch import quick_form


def quick_run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``args`` run as its quick form
    (which it must have)."""
    runner = quick_form(args)
    assert runner is not None, args
    status = runner()
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def typer_run(args: list[str], raises: bool = True) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``args`` through the Typer
    application; an exception other than the exit is raised (``raises``)."""
    result = CliRunner().invoke(app, args)
    if raises and result.exception is not None and not isinstance(result.exception,
                                                                  SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def ended(args: list[str], sink: str, entry: str = "pdnkit.cli") -> subprocess.CompletedProcess[str]:
    """``pdnkit ARGS`` run through ``entry``'s ``main`` with standard output ``sink``: a full
    disk (``"full"``, ``/dev/full``) or a pipe whose reader is gone (``"pipe"``)."""
    code = f"import sys; sys.argv[0] = 'pdnkit'; from {entry} import main; main()"
    if sink == "full":
        with open("/dev/full", "w") as out:
            return subprocess.run([sys.executable, "-c", code, *args], stdout=out,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([sys.executable, "-c", code, *args], stdout=w,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(w)
