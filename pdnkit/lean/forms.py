"""The quick forms of the table commands (:mod:`pdnkit.launch`): a ``query`` line in its
common shapes runs here without the argument parser (Typer, click and the command modules),
calling the library function the command calls and writing through the same output layer
(:mod:`pdnkit.lean.tables`, :mod:`pdnkit.lean.streamed`), so it prints exactly what the Typer
command prints.

A quick form reads only the options listed for it, each spelled as the command's help spells
it (``--db X`` or ``--db=X``); any other option, a second positional argument, ``--help``, a
value the option would refuse, or standard output a terminal (a table fitted to its width)
leaves the line to :mod:`pdnkit.cli`, which reads it as always.

=================================================  =========================================
quick form                                         does
=================================================  =========================================
``pdnkit query SQL``                               :func:`pdnkit.store.query_stream`, written
                                                   as read; with ``--db``, ``--format``/``-f``,
                                                   ``--out``/``-o``, ``--limit``, ``--wide``
=================================================  =========================================

Example:
    >>> command_line(["SELECT 1", "--db", "x.duckdb", "-f", "csv"], QUERY)
    (['SELECT 1'], {'db': 'x.duckdb', 'fmt': 'csv'})
    >>> command_line(["SELECT 1", "--write"], QUERY) is None   # not read here: Typer's
    True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

#: a quick form's runner: it does the command and returns the exit status
Runner = Callable[[], int]


@dataclass(frozen=True)
class Options:
    """The options a quick form reads: flags (spelling -> key) and options with a value
    (spelling -> key), and how many positional arguments it takes."""

    flags: Mapping[str, str]
    values: Mapping[str, str]
    positional: int


#: ``pdnkit query``'s options read here (the rest, ``--write`` among them, are Typer's)
QUERY = Options(flags={"--wide": "wide"},
                values={"--db": "db", "--format": "fmt", "-f": "fmt", "--out": "out",
                        "-o": "out", "--limit": "limit"},
                positional=1)


def command_line(args: Sequence[str], options: Options
                 ) -> tuple[list[str], dict[str, object]] | None:
    """The positional arguments and the options of a command line that ``options`` reads
    whole, else ``None`` (an option it does not read, a value that looks like an option, too
    many or too few positional arguments). A repeated option keeps its last value, as the
    command line does."""
    positional: list[str] = []
    read: dict[str, object] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in options.flags:
            read[options.flags[arg]] = True
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in options.values:
            if not eq:
                if i >= len(args):
                    return None
                value, i = args[i], i + 1
            if not value or value.startswith("-"):
                return None
            read[options.values[name]] = value
            continue
        if not arg or arg.startswith("-"):  # --help, -, --, an option not read here
            return None
        positional.append(arg)
    return (positional, read) if len(positional) == options.positional else None


def _format(value: object) -> str | None | bool:
    """The format a ``--format`` value names (``None``: not given), ``False`` when the
    command line would refuse it (Typer's check then says why)."""
    if value is None:
        return None
    from pdnkit.lean.tables import format_name
    from pdnkit.lean.usage import UsageError

    try:
        return format_name(str(value))
    except UsageError:
        return False


def query_form(args: Sequence[str]) -> Runner | None:
    """``query SQL`` with the options of :data:`QUERY`, standard output no terminal."""
    line = command_line(args, QUERY)
    if line is None or sys.stdout.isatty():
        return None
    (sql,), opts = line
    fmt = _format(opts.get("fmt"))
    limit = str(opts.get("limit", "50"))
    if fmt is False or not (limit.isascii() and limit.isdigit()):
        return None

    def run() -> int:
        from pathlib import Path

        from pdnkit.lean.streamed import emit_stream
        from pdnkit.lean.tables import output
        from pdnkit.lean.usage import usage_errors, user_sql

        db = Path(str(opts["db"])) if "db" in opts else None
        out = Path(str(opts["out"])) if "out" in opts else None
        sink = output(str(fmt) if fmt else None, out, [db], wide=bool(opts.get("wide")))
        from pdnkit.store import query_stream

        with usage_errors(), user_sql(write_hint=True), \
                query_stream(sql, db=db) as result:  # rows written as read
            emit_stream(result, sink, limit=int(limit))
        return 0

    return guarded(run)


def guarded(run: Runner) -> Runner:
    """``run``, ending as the command line's group ends a command: an error
    :func:`pdnkit.lean.usage.error_message` knows is one ``pdnkit: error:`` line and
    status 2; anything else (an output that cannot be written among them) is raised."""

    def guarded_run() -> int:
        try:
            return run()
        except Exception as exc:
            from pdnkit.lean.plaintext import terminal_safe
            from pdnkit.lean.usage import error_message

            message = error_message(exc)
            if message is None:
                raise
            sys.stdout.flush()
            sys.stderr.write(f"pdnkit: error: {terminal_safe(message)}\n")
            return 2

    return guarded_run


#: the quick form of each command named here
FORMS: dict[str, Callable[[Sequence[str]], Runner | None]] = {"query": query_form}

__all__ = ["FORMS", "QUERY", "Options", "Runner", "command_line", "guarded", "query_form"]
