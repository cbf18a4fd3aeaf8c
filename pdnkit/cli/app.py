"""The Typer application object shared by every command module."""

from __future__ import annotations

import contextlib
import errno
import sys
from collections.abc import Iterator
from typing import Any

import typer
from typer.core import TyperGroup

from pdnkit.errors import PdnkitError

#: OS errors on an output or database that end a command with one line, not a traceback
_OS_ERRORS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
              errno.EFBIG: "the file is too large for the file system or its limits",
              errno.EACCES: "permission denied", errno.EPERM: "permission denied",
              errno.EROFS: "the file system is read-only", errno.EISDIR: "it is a folder",
              errno.ENOTDIR: "a part of the path is not a folder"}


def error_message(exc: BaseException) -> str | None:
    """The one-line ``pdnkit: error:`` text of an error any command may meet, or ``None``
    for anything else (a bug: traceback). The one place where errors become messages:

    * every :class:`~pdnkit.errors.PdnkitError` (an unknown variant, a database that cannot
      be used or is not there, an output that is one of the inputs ...): its message;
    * a DuckDB error: ``database error: ...``, or the whole error with what to do where the
      SQL came from the command line (:func:`user_sql`);
    * a full disk, a quota, a permission error while writing.

    Example:
        >>> error_message(OSError(28, "No space left on device", "out.pdn"))
        'cannot write out.pdn: the disk is full (No space left on device); nothing was writ...'
        >>> error_message(KeyError("x")) is None
        True
    """
    if isinstance(exc, PdnkitError):
        return str(exc)
    duckdb = sys.modules.get("duckdb")  # never imported here: a DuckDB error means it is
    if duckdb is not None and isinstance(exc, duckdb.Error):
        return _duckdb_message(exc)
    if isinstance(exc, OSError) and exc.errno in _OS_ERRORS:
        where = f" {exc.filename}" if exc.filename else ""
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return (f"cannot write{where}: {_OS_ERRORS[exc.errno]} ({exc.strerror}); "
                    "nothing was written: free some space and run the command again")
        return f"cannot use{where}: {_OS_ERRORS[exc.errno]} ({exc.strerror})"
    return None


@contextlib.contextmanager
def user_sql(label: str = "", write_hint: bool = False) -> Iterator[None]:
    """Around a library call that runs SQL from the command line (``label``: the option it
    came from, e.g. ``--where``; empty for ``query``'s statement): a DuckDB error shows
    whole (its line and caret help the user), with what to do when the read-only mode
    (``write_hint``: add --write) or the file lock-down refused it.

    Example:
        >>> import duckdb
        >>> try:
        ...     with user_sql("--where"):
        ...         duckdb.sql("SELECT nonsense")
        ... except PdnkitError as exc:
        ...     print(str(exc).splitlines()[0][:40])
        --where: Binder Error: Referenced column
    """
    try:
        yield
    except Exception as exc:
        duckdb = sys.modules.get("duckdb")
        if duckdb is None or not isinstance(exc, duckdb.Error):
            raise
        from pdnkit.cli.options import UsageError

        raise UsageError(_duckdb_message(exc, label, write_hint)) from None


def _duckdb_message(exc: BaseException, label: str | None = None,
                    write_hint: bool = False) -> str:
    """The text of a DuckDB error: its first line (``label`` ``None``: not the user's SQL)
    or the whole error after ``label``, with what to do about a refusal."""
    text = str(exc).strip() or type(exc).__name__
    first = text.splitlines()[0]
    hint = ""
    if "file system operations are disabled" in text or "external access" in text.lower():
        hint = (" (SQL cannot read or write files here: save a result with --out FILE "
                "--format csv|json|parquet)")
    elif "configuration has been locked" in text:
        hint = " (a read-only query cannot change DuckDB's settings)"
    elif write_hint and "read-only mode" in text:
        hint = " (add --write to change the database)"
    if label is None:
        return f"database error: {first}{hint}"
    body = first + hint if hint else text
    return f"{label}: {body}" if label else body


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
            from pdnkit.cli.output import terminal_safe

            typer.echo(f"pdnkit: error: {terminal_safe(message)}", err=True)
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
        from pdnkit._version import __version__
        from pdnkit.core import core_note

        try:
            typer.echo(f"pdnkit {__version__}")
            typer.echo(core_note())  # which replay core this install runs
        except OSError as exc:  # (an eager option runs before the group's error handling)
            message = error_message(exc)
            if message is None or exc.errno == errno.EPIPE:
                raise
            typer.echo(f"pdnkit: error: {message}", err=True)
            raise typer.Exit(code=2) from None
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version_callback,
        is_eager=True,
    ),
) -> None:
    """pdnkit: PDN collections as trustworthy data."""


def fail(message: str) -> PdnkitError:
    """The error for a usage mistake the command itself finds, for the caller to raise:
    ``raise fail("give --fen or --moves, not both")`` prints one ``pdnkit: error: ...`` line
    and exits with status 2 (:func:`error_message`)."""
    from pdnkit.cli.options import UsageError

    return UsageError(message)


@contextlib.contextmanager
def usage_errors() -> Iterator[None]:
    """Around a library call: a ``ValueError`` or a missing file it raises (misuse: a bad
    date, an unknown code, no such file) becomes one ``pdnkit: error:`` line like a
    :class:`~pdnkit.errors.PdnkitError`. (Library errors are being moved under
    ``PdnkitError``; until each is, this keeps them one line.)

    Example:
        >>> try:
        ...     with usage_errors():
        ...         int("soon")
        ... except PdnkitError as exc:
        ...     print(exc)
        invalid literal for int() with base 10: 'soon'
    """
    from pdnkit.cli.options import UsageError

    try:
        yield
    except PdnkitError:
        raise
    except (ValueError, FileNotFoundError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None and exc.filename:
            raise UsageError(f"no such file or folder: {exc.filename}") from None
        raise UsageError(str(exc)) from None
