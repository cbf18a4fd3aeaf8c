"""``pdnkit validate`` and ``pdnkit explain``: replay every game and report what is wrong.

Both are thin shells: ``validate`` over :func:`pdnkit.validation.validate`, ``explain`` over
:func:`pdnkit.findings.explain`.
"""

from __future__ import annotations

import contextlib
import sys
from enum import Enum
from pathlib import Path

import typer

from pdnkit.cli.app import app
from pdnkit.cli.options import (
    VALIDATE_FORMATS,
    Edition,
    Encoding,
    Ignore,
    Irregular,
    IrregularOpt,
    Select,
    ValidateFormat,
    Variant,
)
from pdnkit.lean.tables import output, screen
from pdnkit.lean.validate import Call, Display, cores, run


class FailOn(str, Enum):
    """Severity threshold for a non-zero exit status."""

    error = "error"
    warning = "warning"
    never = "never"


class Convention(str, Enum):
    """How to read the first number of a result where Black moves first."""

    auto = "auto"
    white = "white"
    first_mover = "first-mover"


@app.command("validate")
def validate_cmd(
    paths: list[Path] = typer.Argument(
        ..., help="PDN files or folders (folders are searched recursively for *.pdn); "
                  "[cyan]-[/cyan] reads standard input.", show_default=False),
    variant: Variant = None,
    edition: Edition = None,
    fmt: ValidateFormat = None,
    fail_on: FailOn = typer.Option(
        FailOn.error, "--fail-on",
        help="Exit with status 1 when a finding of this severity or worse exists."),
    jobs: int = typer.Option(
        1, "--jobs", "-j", min=0,
        help="Worker processes (0: one per core), used only where they pay (a free core, a "
             "large input, measured on the first games): each reads and replays parts of a "
             "file (a plain UTF-8 file on the compiled core; any input on the pure-Python "
             "core); the output is the same, in file order."),
    result_convention: Convention = typer.Option(
        Convention.auto, "--result-convention",
        help="Whom the first number of a result belongs to where Black moves first (English, "
             "pool): auto (the reading that fits the final position, else PDN 2.0: the first "
             "mover), first-mover, or white."),
    strict: bool = typer.Option(
        False, "--strict", help="Read PDN strictly (PDN 3.0 violations become errors)."),
    output_path: Path | None = typer.Option(
        None, "--output", "--out", "-o", show_default=False,
        help="Write the jsonl/csv/text output to this file (whole or not at all; never an "
             "input, never inside an input folder); its extension chooses the format unless "
             "--format says."),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="Text format: print only the summary."),
    show_info: bool = typer.Option(
        False, "--info", help="Text format: list info findings too."),
    encoding: Encoding = None,
    irregular: IrregularOpt = Irregular.stand,
    select: Select = None,
    ignore: Ignore = None,
) -> None:
    """Replay every game and check every move, capture rule, result and draw claim.

    For each game pdnkit finds the rules (GameType tag, Variant tag, --variant, else a guess), replays the main line and each variation, and reports coded findings: illegal-move, missed-capture, not-max-capture, capture-priority, ambiguous-move, move-after-end, result-mismatch, draw-rule-ignored, draw-by-rule ... ([bold]pdnkit explain CODE[/bold] says what each means and how to fix the game). A summary table (games, clean, with warnings, with errors, findings by code) ends the run.

    Exit status: 0 clean, 1 when a finding at or above --fail-on exists, 2 for usage errors.

    [bold]Examples[/bold]

      pdnkit validate games.pdn

      pdnkit validate collection/ --variant russian --format jsonl > report.jsonl

      pdnkit validate old_english.pdn --edition wcdf --result-convention first-mover

      pdnkit validate games.pdn --ignore notation-mismatch,variant-guessed
    """
    sink = output(fmt, output_path, paths, allowed=VALIDATE_FORMATS, unknown_suffix="text")
    with contextlib.ExitStack() as stack:
        from pdnkit._atomic import atomic_output  # whole or not at all, never over an input

        # a terminal gets no control character of the files' text (rich's text view
        # escapes them itself); a file or a pipe gets the bytes exactly
        out_stream = (stack.enter_context(atomic_output(sink.path, inputs=sink.inputs,
                                                        newline=""))
                      if sink.path is not None else
                      sys.stdout if sink.format == "text" else screen())
        call = Call(variant=variant, edition=edition, jobs=jobs or cores(),
                     result_convention=result_convention.value, strict=strict,
                     encoding=encoding, select=select, ignore=ignore,
                     irregular=irregular.value)
        shown = Display(sink.format, quiet, show_info, out_stream, sink.path is not None)
        summary = run(paths, call, shown)
    raise typer.Exit(summary.exit_code(fail_on.value))


@app.command("explain")
def explain_cmd(
    code: str | None = typer.Argument(
        None, help="A finding code such as missed-capture (omit it to list every code).",
        show_default=False),
) -> None:
    """Say what a finding code means and how to fix the game.

    Without CODE, list every code with its default severity, stage and one-line summary.

    [bold]Examples[/bold]

      pdnkit explain not-max-capture

      pdnkit explain
    """
    from pdnkit.findings import CODES, explain

    if code is None:
        from rich.console import Console
        from rich.table import Table

        t = Table(title="finding codes (pdnkit explain CODE for details)")
        t.add_column("code")
        t.add_column("severity")
        t.add_column("stage")
        t.add_column("summary")
        for info in CODES.values():
            t.add_row(info.code, info.severity.value, info.stage, info.summary)
        Console().print(t)
        return
    key = code.strip().lower()
    if key not in CODES:
        import difflib

        close = difflib.get_close_matches(key, list(CODES), n=3)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        typer.echo(f"unknown finding code {code!r}.{hint} `pdnkit explain` lists them all.",
                   err=True)
        raise typer.Exit(2)
    typer.echo(explain(key))
