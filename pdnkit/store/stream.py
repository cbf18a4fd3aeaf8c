"""A result read as it is made: :class:`Stream`, Arrow record batches pulled from DuckDB one
at a time, with the connection that reads them.

A query whose result is larger than memory (every move of a database, 100 million rows)
is never built whole: DuckDB runs the statement as a streaming result and hands over
:data:`BATCH_ROWS` rows at a time, so the first rows are there at once and memory stays flat
whatever the result's size. Whoever writes the rows stops when they want (a reader that went
away, an error while writing): :meth:`Stream.close` (or the ``with`` block's end) ends the
statement and closes the connection the stream opened, and the rest of the result is never
computed.

Example:
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> with Stream(con.sql("SELECT range AS n FROM range(5)"), rows=2) as s:
    ...     s.columns, [b.num_rows for b in s]
    (['n'], [2, 2, 1])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit._cells import PlainTable

__all__ = ["BATCH_ROWS", "ReadAhead", "Stream"]

#: rows a batch holds: small enough for the first rows to come at once and for a batch's
#: Python values to stay a few megabytes, large enough that a batch's fixed cost is nothing
BATCH_ROWS = 8192


class Stream:
    """The rows of one statement, in Arrow record batches (``for batch in stream``), its
    column names (:attr:`columns`) and DuckDB types (:attr:`types`, e.g. ``'HUGEINT'``),
    and :meth:`close`, which ends the statement and calls ``on_close`` (what closes the
    connection the stream was opened on). Iterate once. ``relation`` is a DuckDB relation
    (``con.sql(...)``); ``rows`` the rows of a batch; ``then`` (optional) gives relations
    of the same columns whose rows follow, each asked for when the one before is read to
    its end (a result read in parts, each part's statements run then).
    """

    def __init__(self, relation: Any, *, rows: int = BATCH_ROWS,
                 on_close: Callable[[], object] | None = None,
                 then: Iterator[Any] | None = None) -> None:
        self.columns: list[str] = [str(c) for c in relation.columns]
        self.types: list[str] = [str(t) for t in relation.types]
        self.rows = rows
        self._relation = relation
        #: relations of the same columns whose rows follow, each made when the one before
        #: was read to its end (a generator may run statements then: the connection is free)
        self._then = then
        self._reader: Any = None
        #: the Arrow schema of the batches, once the first is asked for
        self.schema: Any = None
        self._on_close = on_close
        self._closed = False
        self._taken = False  # (read whole: :meth:`plain`)

    def __iter__(self) -> Iterator[Any]:
        if self._closed:
            raise ArgumentError("the stream is closed")
        if self._reader is not None or self._taken:
            raise ArgumentError("a stream is read once")
        from pdnkit._arrow import pyarrow_module

        pyarrow_module()  # pyarrow without its pandas import
        self._reader = self._relation.to_arrow_reader(self.rows)
        self.schema = self._reader.schema
        while True:
            try:
                batch = self._reader.read_next_batch()
            except StopIteration:
                if not self._next_relation():
                    return
                continue
            except (OSError, ValueError) as exc:  # Arrow's wrapping of the statement's error
                raise _statement_error(exc) from None
            yield batch

    def _next_relation(self) -> bool:
        """Read the next relation of ``then`` from here on; false when there is none."""
        if self._then is None:
            return False
        self._reader.close()  # (the connection is free for the next part's statements)
        following = next(self._then, None)
        if following is None:
            return False
        self._relation = following
        self._reader = following.to_arrow_reader(self.rows)
        return True

    def plain(self) -> PlainTable:
        """Every row at once as a :class:`pdnkit._cells.PlainTable` (the cells
        :func:`pdnkit._cells.duck_table` gives), in place of the batches: for a result known
        to be small, read without Arrow. The stream is then read; close it as ever.

        Example:
            >>> import duckdb
            >>> with Stream(duckdb.connect().sql("SELECT range AS n FROM range(3)")) as s:
            ...     s.plain()["n"]
            [0, 1, 2]
        """
        from pdnkit._cells import duck_table

        if self._closed or self._reader is not None or self._taken:
            raise ArgumentError("a stream is read once")
        self._taken = True
        table = duck_table(self._relation)
        for following in self._then if self._then is not None else ():
            for column, more in zip(table.values, duck_table(following).values, strict=True):
                column.extend(more)
        return table

    def close(self) -> None:
        """End the statement (the rest of the result is not computed) and close what the
        stream was opened on; a second call does nothing."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._reader is not None:
                self._reader.close()
            close_then = getattr(self._then, "close", None)
            if close_then is not None:  # (a generator's own clean-up)
                close_then()
        finally:
            self._reader = self._relation = self._then = None
            if self._on_close is not None:
                self._on_close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class ReadAhead:
    """The batches of ``stream`` with its first batch read now, before anything is written
    (an error the statement raises before its first rows -- out of memory, a failed cast --
    is raised here, where nothing is out yet); :attr:`columns`, :attr:`types` and
    :attr:`schema` as the stream's. Iterate once.

    Example:
        >>> import duckdb
        >>> with Stream(duckdb.connect().sql("SELECT range AS n FROM range(3)"), rows=2) as s:
        ...     ahead = ReadAhead(s)
        ...     ahead.columns, [b.num_rows for b in ahead]
        (['n'], [2, 1])
    """

    def __init__(self, stream: Stream) -> None:
        self.columns = stream.columns
        self.types = stream.types
        self._batches = iter(stream)
        self._first = next(self._batches, None)
        self.schema = stream.schema

    def __iter__(self) -> Iterator[Any]:
        if self._first is not None:
            first, self._first = self._first, None
            yield first
        yield from self._batches


def _statement_error(exc: Exception) -> Exception:
    """The DuckDB error a statement raised while its rows were read, as DuckDB raises it for a
    whole result (Arrow's reader hands it over as ``OSError`` or ``ValueError``); another
    error as it is."""
    import duckdb

    text = str(exc)
    kinds = {"Invalid Input Error": duckdb.InvalidInputException,
             "Conversion Error": duckdb.ConversionException,
             "Out of Range Error": duckdb.OutOfRangeException,
             "Out of Memory Error": duckdb.OutOfMemoryException,
             "Interrupt Error": duckdb.InterruptException,
             "Permission Error": duckdb.PermissionException,
             "IO Error": duckdb.IOException}
    for prefix, kind in kinds.items():
        if text.startswith(prefix):
            return kind(text)
    return duckdb.Error(text) if "Error: " in text.split("\n")[0] else exc
