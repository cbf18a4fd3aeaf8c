"""The one base class of every error pdnkit raises for misuse of its API or an unusable input.

Bad *game data* never raises: it becomes a finding (``pdnkit.findings``). What does raise is
what the caller asked for and pdnkit cannot do: an unknown variant, a malformed FEN or pattern,
a database that cannot be opened, an output that would overwrite an input. Each such error
derives from :class:`PdnkitError` (and from the built-in class it always was, such as
``ValueError``, so existing ``except`` clauses keep working); the command line prints any of
them as one ``pdnkit: error: ...`` line and exits with status 2.

Example:
    >>> from pdnkit.errors import PdnkitError
    >>> from pdnkit.rules import get_rules
    >>> try:
    ...     get_rules("no-such-variant")
    ... except PdnkitError as exc:
    ...     print(type(exc).__name__)
    UnknownVariantError
"""

from __future__ import annotations


class PdnkitError(Exception):
    """Base class of the errors pdnkit raises; its message is meant for the user as is."""


class ArgumentError(PdnkitError, ValueError):
    """A value given to a pdnkit function that it cannot use (a bad date, an unknown code,
    a square off the board, a malformed pattern...); the message says which and why.

    Example:
        >>> isinstance(ArgumentError("no such code"), ValueError)
        True
    """


class MissingFileError(PdnkitError, FileNotFoundError):
    """A file or database the call needs is not there (the message names it).

    Example:
        >>> isinstance(MissingFileError("no pdnkit database at x.duckdb"), FileNotFoundError)
        True
    """


__all__ = ["ArgumentError", "MissingFileError", "PdnkitError"]
