"""``pdnkit validate`` and ``pdnkit explain``: replay every game and report what is wrong.

Both are thin shells: ``validate`` over :func:`pdnkit.validation.validate`, ``explain`` over
:func:`pdnkit.findings.explain`.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import json
import os
import sys
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import typer

from pdnkit.cli.app import app, usage_errors
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
from pdnkit.cli.output import Safe, markup_safe, output, screen, spreadsheet_safe


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


_CSV_FIELDS = ["file", "index", "game_line", "variant", "white", "black", "result", "status",
               "code", "severity", "ply", "line", "move", "in_variation", "message", "details"]


class Summary:
    """Counts over a validation run: games, clean, with warnings, with errors, unparsed, and
    findings by code.

    Example:
        >>> s = Summary()
        >>> s.games, s.exit_code("error")
        (0, 0)
    """

    def __init__(self) -> None:
        self.games = 0
        self.plies = 0
        self.by_status: dict[str, int] = {"ok": 0, "warning": 0, "error": 0, "unparsed": 0}
        self.by_code: dict[tuple[str, str], int] = {}
        self.worst_rank = -1
        self.variants: dict[str, int] = {}
        self.guessed: dict[str, int] = {}
        #: findings about files rather than games (an empty file, a file that is not PDN)
        self.file_findings = 0

    def add(self, report: Any) -> None:
        """Count one :class:`~pdnkit.validation.GameReport` (a file-level one: its findings
        only, no game)."""
        if report.file_level:
            for f in report.findings:
                key = (f.code, f.severity.value)
                self.by_code[key] = self.by_code.get(key, 0) + 1
                self.worst_rank = max(self.worst_rank, f.severity.rank)
            self.file_findings += len(report.findings)
            return
        self.games += 1
        self.plies += report.replayed_plies
        self.by_status[report.status] = self.by_status.get(report.status, 0) + 1
        name = report.variant or "none"
        self.variants[name] = self.variants.get(name, 0) + 1
        if any(f.code == "variant-guessed" for f in report.findings):
            self.guessed[name] = self.guessed.get(name, 0) + 1
        for f in report.findings:
            key = (f.code, f.severity.value)
            self.by_code[key] = self.by_code.get(key, 0) + 1
            self.worst_rank = max(self.worst_rank, f.severity.rank)
        if report.status == "unparsed":
            self.worst_rank = max(self.worst_rank, 2)

    def exit_code(self, fail_on: str) -> int:
        """1 when a finding at or above ``fail_on`` exists (``never``: always 0)."""
        threshold = {"warning": 1, "error": 2}.get(fail_on)
        if threshold is None:
            return 0
        return 1 if self.worst_rank >= threshold else 0

    def table(self, seconds: float) -> Any:
        """A rich renderable: the summary table and the findings by code."""
        from rich.console import Group
        from rich.table import Table

        t = Table(title="pdnkit validate", show_header=False, title_justify="left")
        t.add_column("what")
        t.add_column("count", justify="right")
        t.add_row("games", str(self.games))
        t.add_row("clean", str(self.by_status.get("ok", 0)))
        t.add_row("with warnings", str(self.by_status.get("warning", 0)))
        t.add_row("with errors", str(self.by_status.get("error", 0)))
        t.add_row("unparsed", str(self.by_status.get("unparsed", 0)))
        t.add_row("plies replayed", str(self.plies))
        if self.file_findings:
            t.add_row("file findings", f"{self.file_findings} (about files, not games)")
        if self.variants:
            t.add_row("variants", _counts(self.variants))
        if self.guessed:
            t.add_row("variant guessed", _counts(self.guessed))
        rate = self.games / seconds if seconds > 0 else 0.0
        t.add_row("time", f"{seconds:.2f} s ({rate:,.0f} games/s)")
        if not self.by_code:
            return t
        c = Table(title="findings by code", title_justify="left")
        c.add_column("code")
        c.add_column("severity")
        c.add_column("count", justify="right")
        order = {"error": 0, "warning": 1, "info": 2}
        for (code, sev), n in sorted(self.by_code.items(),
                                     key=lambda kv: (order.get(kv[0][1], 3), -kv[1], kv[0][0])):
            style = {"error": "red", "warning": "yellow"}.get(sev, "")
            c.add_row(code, f"[{style}]{sev}[/{style}]" if style else sev, str(n))
        return Group(t, c)


def _counts(counts: dict[str, int]) -> str:
    """``"international 20, russian 3"``: names by count, most first."""
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


def _csv_rows(report: Any, raw: bool = False) -> list[dict[str, Any]]:
    """One CSV row per finding of ``report``; text cells that a spreadsheet would run as a
    formula written after a ``'`` (:func:`pdnkit.cli.output.spreadsheet_safe`) unless
    ``raw``."""
    base = {"file": report.file, "index": None if report.file_level else report.index,
            "game_line": report.line,
            "variant": report.variant, "white": report.white, "black": report.black,
            "result": report.result, "status": report.status}
    rows = []
    for f in report.findings:
        rows.append({**base, "code": f.code, "severity": f.severity.value, "ply": f.ply,
                     "line": f.line, "move": f.move, "in_variation": f.in_variation,
                     "message": f.message,
                     "details": json.dumps(f.details, ensure_ascii=False) if f.details else ""})
    if raw:
        return rows
    return [{k: spreadsheet_safe(v) if isinstance(v, str) else v for k, v in row.items()}
            for row in rows]


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
        call = _Call(variant=variant, edition=edition, jobs=jobs or _cores(),
                     result_convention=result_convention.value, strict=strict,
                     encoding=encoding, select=select, ignore=ignore,
                     irregular=irregular.value)
        shown = _Display(sink.format, quiet, show_info, out_stream, sink.path is not None)
        summary = _run(paths, call, shown)
    raise typer.Exit(summary.exit_code(fail_on.value))


def _cores() -> int:
    """The CPUs this process may run on (``--jobs 0``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class _Call:
    """The keyword arguments of :func:`pdnkit.validation.validate` the command line gives
    (reports are always light: the command prints findings and counts)."""

    variant: str | None
    edition: str | None
    jobs: int
    result_convention: str
    strict: bool
    encoding: str | None
    select: list[str] | None
    ignore: list[str] | None
    irregular: str


@dataclass(frozen=True)
class _Display:
    """How the reports are written: the format, text's quiet and info switches, the stream,
    and whether it is a file (no terminal width)."""

    fmt: str
    quiet: bool
    show_info: bool
    stream: Any
    to_file: bool


def _run(paths: list[Path], call: _Call, shown: _Display) -> Summary:
    """Validate and print; returns the summary. A usage error (an unknown edition, no such
    file, no PDN file in a folder) is raised before the output is kept."""
    from rich.console import Console

    from pdnkit.validation import validate

    fmt, quiet, show_info = shown.fmt, shown.quiet, shown.show_info
    out_stream, to_file = shown.stream, shown.to_file
    err = Console(stderr=True)
    summary_console = Console(file=out_stream, width=120 if to_file else None) \
        if fmt == "text" else err
    text_console = Console(file=out_stream, highlight=False, soft_wrap=True, width=10_000) \
        if to_file else Console(highlight=False, soft_wrap=True)
    writer = None
    if fmt in ("csv", "csv-raw"):
        writer = csv.DictWriter(out_stream, fieldnames=_CSV_FIELDS)
        writer.writeheader()
    summary = Summary()
    start = time.perf_counter()
    progress = None
    if err.is_terminal and not quiet:  # on standard error, never in the output
        from pdnkit.store.progress import LineProgress, count_lines
        from pdnkit.validation.inputs import collect_paths

        with contextlib.suppress(OSError, ValueError):
            files = [str(p) for p in collect_paths(paths)]
            progress = LineProgress("validating", count_lines(files))
    try:
        with usage_errors():  # an unknown edition or convention, no such file
            reports = validate(list(paths), light=True, **dataclasses.asdict(call))
            for rep in reports:
                summary.add(rep)
                if fmt == "jsonl":
                    out_stream.write(json.dumps(rep.to_dict(), ensure_ascii=False) + "\n")
                elif writer is not None:
                    writer.writerows(_csv_rows(rep, raw=fmt == "csv-raw"))
                elif not quiet:
                    for f in rep.findings:
                        if f.severity.rank >= 1 or show_info:
                            style = {"error": "red", "warning": "yellow"}.get(
                                f.severity.value, "dim")
                            text_console.print(f"[{style}]{markup_safe(str(f))}[/{style}]")
                if progress is not None:
                    progress.game(rep.file, rep.line)
    finally:
        if progress is not None:
            progress.close()
    seconds = time.perf_counter() - start
    summary_console.print(Safe(summary.table(seconds)))
    return summary


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
