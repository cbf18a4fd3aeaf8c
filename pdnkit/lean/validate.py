"""``pdnkit validate``'s report writer: the findings as text, JSONL or CSV and the summary
table, the same bytes whether the Typer command (:mod:`pdnkit.cli.validate_cmd`) or the quick
form (:mod:`pdnkit.launch`) runs it. Rich is loaded only where it prints something plain text
cannot stand in for: a terminal (colours, its width, the progress bar), an environment that
changes rich's output, or text rich would change (markup, emoji codes, tabs, wide
characters).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdnkit._lazy import lazy_pattern
from pdnkit.lean.plaintext import plain_width, spreadsheet_safe, terminal_safe
from pdnkit.lean.summary import CSV_FIELDS, Summary, counts_text
from pdnkit.lean.usage import usage_errors

#: the formats of ``pdnkit validate`` (a stream of reports, not a table)
VALIDATE_FORMATS = ("text", "jsonl", "csv", "csv-raw")


def csv_rows(report: Any, raw: bool = False) -> list[dict[str, Any]]:
    """One CSV row per finding of ``report``; text cells that a spreadsheet would run as a
    formula written after a ``'`` (:func:`pdnkit.lean.tables.spreadsheet_safe`) unless
    ``raw``."""
    base = {"file": report.file, "index": None if report.file_level else report.index,
            "game_line": report.line,
            "variant": report.variant, "white": report.white, "black": report.black,
            "result": report.result, "status": report.status}
    import json

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


def cores() -> int:
    """The CPUs this process may run on (``--jobs 0``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Call:
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
class Display:
    """How the reports are written: the format, text's quiet and info switches, the stream,
    and whether it is a file (no terminal width)."""

    fmt: str
    quiet: bool
    show_info: bool
    stream: Any
    to_file: bool


#: a finding's line that rich prints as it is: printable ASCII without a backslash, a
#: ``[`` that could open markup (``[32-27]`` cannot: rich's tags begin with a letter, ``#``,
#: ``/`` or ``@``) or an emoji code (``:smile:``), which rich would change
_PRINTABLE = lazy_pattern(r"[ -\[\]-~]*")
_CHANGED = lazy_pattern(r"\[[a-zA-Z#/@]|:\S*:")


def prints_as_is(text: str) -> bool:
    """Whether rich prints the markup-escaped ``text`` on a stream that is no terminal as it
    is (soft-wrapped: no width), so a plain write may stand in for it.

    Example:
        >>> prints_as_is("error illegal-move [32-27]: no piece"), prints_as_is("a :smile:")
        (True, False)
    """
    return bool(_PRINTABLE.fullmatch(text)) and not _CHANGED.search(text)


class _Printer:
    """Where the findings' lines and the summary go: written plainly where rich would print
    the same bytes (:func:`pdnkit.lean.plaintext.plain_width`), else through rich consoles made
    as the command always made them."""

    def __init__(self, shown: Display) -> None:
        self.shown = shown
        self.plain = plain_width(shown.stream) is not None
        self.console: Any = None

    def finding(self, text: str, severity: str) -> None:
        """Print a finding's line in its severity's colour."""
        if self.plain and prints_as_is(text):
            self.shown.stream.write(text + "\n")
            return
        if self.console is None:
            from rich.console import Console

            self.console = Console(file=self.shown.stream, highlight=False, soft_wrap=True,
                                   width=10_000) if self.shown.to_file \
                else Console(highlight=False, soft_wrap=True)
        from rich.markup import escape

        style = {"error": "red", "warning": "yellow"}.get(severity, "dim")
        self.console.print(f"[{style}]{escape(terminal_safe(text))}[/{style}]")

    def summary(self, summary: Summary, seconds: float) -> None:
        """Print the summary table: in the output for text, else on standard error."""
        text_format = self.shown.fmt == "text"
        stream = self.shown.stream if text_format else sys.stderr
        width = plain_width(stream)
        if width is not None and text_format and self.shown.to_file:
            width = 120
        text = summary.text(seconds, width) if width is not None else None
        if text is not None:
            stream.write(text)
            return
        from rich.console import Console

        from pdnkit.lean.plaintext import Safe

        console = Console(file=stream, width=120 if self.shown.to_file else None) \
            if text_format else Console(stderr=True)
        console.print(Safe(summary.table(seconds)))


def _stderr_is_terminal() -> bool:
    """Whether rich takes standard error for a terminal (rich is asked only when the
    stream or the environment leaves a doubt)."""
    if plain_width(sys.stderr) is not None:
        return False
    from rich.console import Console

    return bool(Console(stderr=True).is_terminal)


def _plain(call: Call) -> bool:
    """Whether ``call`` asks for nothing but the defaults, in one process: the verdict on a
    clean file (:mod:`pdnkit.lean.verdict`) may answer it (``--jobs`` above 1 is the
    workers' to run)."""
    return call.jobs == 1 and (call.variant, call.edition, call.result_convention, call.strict, call.encoding,
            call.select, call.ignore, call.irregular) == (
                None, None, "auto", False, None, None, None, "stand")


def run(paths: list[Path], call: Call, shown: Display) -> Summary:
    """Validate and print; returns the summary. A usage error (an unknown edition, no such
    file, no PDN file in a folder) is raised before the output is kept."""

    fmt, quiet, show_info, out_stream = shown.fmt, shown.quiet, shown.show_info, shown.stream
    if _plain(call) and (quiet or not _stderr_is_terminal()):
        from pdnkit.lean.verdict import render

        # every game clean: the output without the validator (else nothing is printed)
        done = render([str(p) for p in paths], fmt, out_stream, shown.to_file, show_info)
        if done is not None:
            return done
    printer = _Printer(shown)
    if fmt in ("csv", "csv-raw"):
        import csv

        csv.DictWriter(out_stream, fieldnames=CSV_FIELDS).writeheader()
    summary = Summary()
    start = time.perf_counter()
    progress = None
    if not quiet and _stderr_is_terminal():  # on standard error, never in the output
        from pdnkit.store.progress import LineProgress, count_lines
        from pdnkit.validation.inputs import collect_paths

        with contextlib.suppress(OSError, ValueError):
            files = [str(p) for p in collect_paths(paths)]
            progress = LineProgress("validating", count_lines(files))
    try:
        with usage_errors():  # an unknown edition or convention, no such file
            # rendered where the games are replayed (workers, with --jobs): here only joined
            from pdnkit.lean.digest import Style, digests, merge

            style = Style(fmt, quiet, show_info, Summary, csv_rows, tuple(CSV_FIELDS),
                          track=progress is not None)
            for part in digests(list(paths), style, **dataclasses.asdict(call)):
                merge(summary, part.summary)
                if part.pieces:
                    out_stream.write(part.text())
                for rep in part.shown:
                    for f in rep.findings:
                        if f.severity.rank >= 1 or show_info:
                            printer.finding(str(f), f.severity.value)
                if progress is not None:
                    for file, line in part.places:
                        progress.game(file, line)
    finally:
        if progress is not None:
            progress.close()
    printer.summary(summary, time.perf_counter() - start)
    return summary


__all__ = ["CSV_FIELDS", "VALIDATE_FORMATS", "Call", "Display", "Summary", "cores", "counts_text",
           "csv_rows", "prints_as_is", "run"]
