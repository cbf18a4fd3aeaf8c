"""The Typer application object shared by every command module."""

from __future__ import annotations

import errno
from typing import Any

import typer
from typer.core import TyperGroup

#: OS errors on an output or database that end a command with one line, not a traceback
_OS_ERRORS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
              errno.EFBIG: "the file is too large for the file system or its limits",
              errno.EACCES: "permission denied", errno.EPERM: "permission denied",
              errno.EROFS: "the file system is read-only", errno.EISDIR: "it is a folder",
              errno.ENOTDIR: "a part of the path is not a folder"}


def error_message(exc: BaseException) -> str | None:
    """The one-line ``pdnkit: error:`` text for an error every command may meet (a database
    that cannot be used, an output that is one of the inputs, a DuckDB error, a full disk or
    a permission error while writing), or ``None`` for anything else (a bug: traceback).

    Example:
        >>> error_message(OSError(28, "No space left on device", "out.pdn"))
        'cannot write out.pdn: the disk is full (No space left on device); nothing was writ...'
        >>> error_message(KeyError("x")) is None
        True
    """
    from pdnkit._atomic import OutputIsInputError

    if isinstance(exc, OutputIsInputError):
        return str(exc)
    if type(exc).__module__.startswith("pdnkit.store"):
        from pdnkit.store.db import DatabaseError

        if isinstance(exc, DatabaseError):
            return str(exc)
    if type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb"):
        text = str(exc).strip()
        first = text.splitlines()[0] if text else type(exc).__name__
        return f"database error: {first}"
    if isinstance(exc, OSError) and exc.errno in _OS_ERRORS:
        where = f" {exc.filename}" if exc.filename else ""
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return (f"cannot write{where}: {_OS_ERRORS[exc.errno]} ({exc.strerror}); "
                    "nothing was written: free some space and run the command again")
        return f"cannot use{where}: {_OS_ERRORS[exc.errno]} ({exc.strerror})"
    return None


class _Group(TyperGroup):
    """The root command group: turns the errors of :func:`error_message` into one
    ``pdnkit: error:`` line and exit status 2, for every command and sub-command."""

    def invoke(self, ctx: Any) -> Any:  # a click Context (typer vendors its own click)
        try:
            return super().invoke(ctx)
        except Exception as exc:
            message = error_message(exc)
            if message is None:
                raise
            typer.echo(f"pdnkit: error: {message}", err=True)
            raise typer.Exit(code=2) from None


app = typer.Typer(
    cls=_Group,
    name="pdnkit",
    help=(
        "pdnkit turns draughts and checkers game collections (PDN files) into trustworthy data.\n\n"
        "Read and lint PDN, replay every move under the rules of its variant, validate results "
        "and draw claims, load everything into DuckDB, and get statistics, plots and reports.\n\n"
        "Start with [bold]pdnkit demo[/bold], or [bold]pdnkit validate FILE.pdn[/bold]."
    ),
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def _version_callback(value: bool) -> None:
    if value:
        from pdnkit import __version__

        typer.echo(f"pdnkit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version_callback,
        is_eager=True,
    ),
) -> None:
    """pdnkit: PDN collections as trustworthy data."""


#: help of the ``--encoding`` option of every command that reads PDN
ENCODING_HELP = ("Read the input in this encoding (utf-8, cp1251, cp866, cp1252, latin-1, "
                 "utf-16 ...) instead of detecting it.")


def fail(message: str) -> typer.Exit:
    """Print a one-line ``pdnkit: error: ...`` to stderr and return the exit (code 2, a usage
    error) for the caller to raise: ``raise fail("no database at x.duckdb")``."""
    typer.echo(f"pdnkit: error: {message}", err=True)
    return typer.Exit(code=2)
