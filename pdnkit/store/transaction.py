"""Transactions that end cleanly: :func:`rollback` for the ``except`` of a transaction.

Example:
    >>> import duckdb
    >>> rollback(duckdb.connect())  # no transaction: nothing happens
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["rollback", "transaction"]


def rollback(con: duckdb.DuckDBPyConnection) -> None:
    """Roll back the open transaction of ``con``, if any. After a failed ``COMMIT`` (a full
    disk) DuckDB has ended the transaction already, and a plain ``ROLLBACK`` would raise
    "no transaction is active" in place of the error that matters: call this in the
    ``except`` of a transaction, then re-raise.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> rollback(con)  # no transaction: nothing happens
        >>> _ = con.execute("BEGIN TRANSACTION"); rollback(con)
    """
    import duckdb

    with suppress(duckdb.Error):
        con.execute("ROLLBACK")


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Run the block in one transaction of ``con``: committed when it ends, rolled back
    through :func:`rollback` when anything (a kill's ``KeyboardInterrupt`` too) leaves it.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> with transaction(con):
        ...     _ = con.execute("CREATE TABLE t AS SELECT 1 AS x")
        >>> con.execute("SELECT x FROM t").fetchall()
        [(1,)]
    """
    con.execute("BEGIN TRANSACTION")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
