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
    from pdnkit.cli.app import error_message
    from pdnkit.cli.output import terminal_safe

    message = error_message(exc)
    if message is None:
        raise exc
    sys.stderr.write(f"pdnkit: error: {terminal_safe(message)}\n")
    return 2


def quick_form(args: Sequence[str]) -> Runner | None:
    """The runner of the command line ``args`` (the program's arguments, without its name)
    when it is a quick form, else ``None``.

    Example:
        >>> quick_form(["--version"]) is not None, quick_form(["validate", "x.pdn"])
        (True, None)
    """
    if list(args) == ["--version"]:
        return _version
    if args and args[0] == "perft":
        return _perft_form(args[1:])
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
