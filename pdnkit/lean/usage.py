"""The errors any command may meet, as the one ``pdnkit: error:`` line they end with
(:func:`error_message`), without the argument parser: the Typer command line
(:mod:`pdnkit.cli.app`) and the quick forms (:mod:`pdnkit.launch`) print the same line."""

from __future__ import annotations

import contextlib
import errno
import sys
from collections.abc import Iterator

from pdnkit.errors import ArgumentError, PdnkitError


class UsageError(ArgumentError):
    """A value on the command line that the command cannot use (printed as one line)."""


#: OS errors on an output or database that end a command with one line, not a traceback
OS_ERRORS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
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
      SQL came from the command line (:func:`pdnkit.cli.app.user_sql`);
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
        return duckdb_message(exc)
    if isinstance(exc, OSError) and exc.errno in OS_ERRORS:
        where = f" {exc.filename}" if exc.filename else ""
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return (f"cannot write{where}: {OS_ERRORS[exc.errno]} ({exc.strerror}); "
                    "nothing was written: free some space and run the command again")
        return f"cannot use{where}: {OS_ERRORS[exc.errno]} ({exc.strerror})"
    return None


def write_error(exc: BaseException, flush: bool = True) -> bool:
    """Write the ``pdnkit: error:`` line of ``exc`` (:func:`error_message`, made safe for a
    terminal) to standard error, standard output flushed first (``flush``: not when writing
    it is what failed), as every command ends on such an error; ``False`` when ``exc`` is no
    such error (a bug: the caller raises it).

    Example:
        >>> import contextlib, io
        >>> with contextlib.redirect_stderr(io.StringIO()) as err:
        ...     write_error(ArgumentError("no such variant"))
        True
        >>> err.getvalue()
        'pdnkit: error: no such variant\\n'
        >>> write_error(KeyError("x"))
        False
    """
    message = error_message(exc)
    if message is None:
        return False
    from pdnkit.lean.plaintext import terminal_safe

    if flush:
        sys.stdout.flush()
    sys.stderr.write(f"pdnkit: error: {terminal_safe(message)}\n")
    return True


def duckdb_message(exc: BaseException, label: str | None = None,
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
    try:
        yield
    except PdnkitError:
        raise
    except (ValueError, FileNotFoundError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None and exc.filename:
            raise UsageError(f"no such file or folder: {exc.filename}") from None
        raise UsageError(str(exc)) from None


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
        raise UsageError(duckdb_message(exc, label, write_hint)) from None


__all__ = ["OS_ERRORS", "UsageError", "duckdb_message", "error_message", "usage_errors",
           "user_sql"]
