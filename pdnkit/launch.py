"""The start of the ``pdnkit`` program (its console script and ``python -m pdnkit``).

A command line in one of the *quick forms* below runs without loading the argument parser:
Typer and the command modules take about 50 ms to import, more than a whole
``pdnkit perft international 7`` needs on the compiled core (about 20 ms). A quick form is
a command with only its plain positional arguments, and it prints what the Typer command
prints for the same line, byte for byte (``tests/cli/test_launch.py`` runs both). Any other
line (an option, ``--help``, an argument the quick form does not accept, an unknown
variant) goes to :mod:`pdnkit.cli`, which reads and checks it as always.

=================================  ==========================================================
quick form                         does
=================================  ==========================================================
``pdnkit --version``               the version and the replay core in use
``pdnkit perft VARIANT DEPTH``     the leaf count (:func:`pdnkit.core.perft`), speed on stderr
``pdnkit validate FILE...``        the reports and summary (:func:`pdnkit.lean.validate.run`),
                                   with ``--format text|jsonl|csv|csv-raw``, ``-q``,
                                   ``--info``, ``--strict``, ``--fail-on``, ``--jobs``; its
                                   output not a terminal
``pdnkit query SQL``               the result written as read (:mod:`pdnkit.lean.forms`:
                                   ``--db``, ``--format``, ``--out``, ``--limit``,
                                   ``--wide``); its output not a terminal
``pdnkit stats openings|results``  the table of the same library call, in the same
``pdnkit tree``                    common shapes (:mod:`pdnkit.lean.forms` lists the
``pdnkit search --fen F``          options each reads); output not a terminal
=================================  ==========================================================

Example:
    >>> quick_form(["perft", "russian", "3"]) is not None
    True
    >>> quick_form(["perft", "russian", "3", "--divide"]) is None   # an option: Typer's
    True
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence

#: a quick form's runner: it does the command and returns the exit status
Runner = Callable[[], int]


def _version() -> int:
    from pdnkit._version import __version__
    from pdnkit.core import core_note

    sys.stdout.write(f"pdnkit {__version__}\n{core_note()}\n")
    return 0


def _perft_form(args: Sequence[str]) -> Runner | None:
    """``perft VARIANT DEPTH``: a known variant (name, alias or GameType number) and a depth
    of digits only; anything else is left to the command line parser."""
    if len(args) != 2 or not args[1].isascii() or not args[1].isdigit():
        return None
    from pdnkit.rules import UnknownVariantError, get_rules

    try:
        rules = get_rules(args[0])
    except UnknownVariantError:  # Typer's check says what is known
        return None
    depth = int(args[1])

    def run() -> int:
        from pdnkit.core import perft
        from pdnkit.rules import Position
        from pdnkit.rules.counting import perft_line

        position = Position.initial(rules)
        start = time.perf_counter()
        total = perft(position, depth)
        assert isinstance(total, int)
        elapsed = time.perf_counter() - start
        sys.stdout.flush()
        sys.stderr.write(perft_line(depth, total, elapsed) + "\n")  # as the command does
        sys.stderr.flush()
        sys.stdout.write(f"{total}\n")
        return 0

    return run


#: the options of ``validate`` a quick form reads: each flag, and each option with the values
#: it takes (exactly as the command's help lists them; anything else is Typer's to read)
_VALIDATE_FLAGS = {"-q": "quiet", "--quiet": "quiet", "--info": "info", "--strict": "strict"}
_VALIDATE_VALUES: dict[str, tuple[str, tuple[str, ...]]] = {
    "--format": ("format", ("text", "jsonl", "csv", "csv-raw")),
    "--fail-on": ("fail_on", ("error", "warning", "never")),
    "--jobs": ("jobs", ()), "-j": ("jobs", ())}


def _validate_options(args: Sequence[str]) -> tuple[list[str], dict[str, object]] | None:
    """The paths and options of a ``validate`` line the quick form reads, else ``None``."""
    paths: list[str] = []
    opts: dict[str, object] = {"format": "text", "fail_on": "error", "jobs": "1"}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in _VALIDATE_FLAGS:
            opts[_VALIDATE_FLAGS[arg]] = True
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _VALIDATE_VALUES:
            if not eq:
                if i >= len(args):
                    return None
                value, i = args[i], i + 1
            key, allowed = _VALIDATE_VALUES[name]
            ok = value in allowed if allowed else value.isascii() and value.isdigit()
            if not ok:
                return None
            opts[key] = value
            continue
        if not arg or arg.startswith("-"):  # "-" (standard input), --help, other options
            return None
        paths.append(arg)
    return (paths, opts) if paths else None


def _validate_form(args: Sequence[str]) -> Runner | None:
    """``validate FILE... [options]``: the paths and the options of
    :data:`_VALIDATE_FLAGS` and :data:`_VALIDATE_VALUES`, standard output no terminal (a
    terminal gets its escaped text and widths from the command line's output layer)."""
    read = _validate_options(args)
    if read is None or sys.stdout.isatty():
        return None
    paths, opts = read

    def run() -> int:
        from pdnkit.lean.verdict import render

        # every game clean, in one process, no progress bar: the output without the validator
        if not opts.get("strict") and int(str(opts["jobs"])) == 1 and (
                opts.get("quiet") or not sys.stderr.isatty()):
            done = render(paths, str(opts["format"]), sys.stdout,
                          show_info=bool(opts.get("info")))
            if done is not None:
                return done.exit_code(str(opts["fail_on"]))
        from pathlib import Path

        from pdnkit.lean.usage import write_error
        from pdnkit.lean.validate import Call, Display, cores
        from pdnkit.lean.validate import run as run_validate

        jobs = int(str(opts["jobs"]))
        call = Call(variant=None, edition=None, jobs=jobs or cores(), result_convention="auto",
                    strict=bool(opts.get("strict")), encoding=None, select=None, ignore=None,
                    irregular="stand")
        shown = Display(str(opts["format"]), bool(opts.get("quiet")), bool(opts.get("info")),
                        sys.stdout, False)
        try:
            summary = run_validate([Path(p) for p in paths], call, shown)
        except Exception as exc:  # as the command line's group ends a command
            if not write_error(exc):
                raise
            return 2
        return summary.exit_code(str(opts["fail_on"]))

    return run


def _output_failed(exc: OSError) -> int:
    """The exit status, and message, of a quick form whose output could not be written, as
    the Typer command line ends then: a reader that went away (a closed pipe) ends it quietly
    with status 1, as click does; a full disk or another error
    :func:`pdnkit.cli.app.error_message` knows is one ``pdnkit: error:`` line and status 2;
    anything else is a bug and raised."""
    import errno
    import os

    if exc.errno == errno.EPIPE:
        devnull = os.open(os.devnull, os.O_WRONLY)  # (the exit's own flush finds no pipe)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    from pdnkit.lean.usage import write_error

    if not write_error(exc, flush=False):
        raise exc
    return 2


def quick_form(args: Sequence[str]) -> Runner | None:
    """The runner of the command line ``args`` (the program's arguments, without its name)
    when it is a quick form, else ``None``.

    Example:
        >>> quick_form(["--version"]) is not None, quick_form(["validate", "--help"])
        (True, None)
    """
    if list(args) == ["--version"]:
        return _version
    if args and args[0] == "perft":
        return _perft_form(args[1:])
    if args and args[0] == "validate":
        return _validate_form(args[1:])
    if args and args[0] in ("query", "stats", "tree", "search", "show"):  # the table commands' forms (pdnkit.lean.forms)
        from pdnkit.lean.forms import FORMS

        return FORMS[args[0]](args[1:])
    return None


def main() -> None:
    """Entry point of the ``pdnkit`` console script: a quick form runs here, every other
    command line in :mod:`pdnkit.cli`."""
    runner = quick_form(sys.argv[1:])
    if runner is not None:
        try:
            status = runner()
            sys.stdout.flush()
        except OSError as exc:
            status = _output_failed(exc)
        sys.exit(status)
    from pdnkit.cli import main as cli_main

    cli_main()


__all__ = ["Runner", "main", "quick_form"]
