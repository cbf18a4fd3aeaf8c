"""The output layer for results read in batches (:class:`pdnkit.store.stream.Stream`, what
``pdnkit query`` reads): :func:`emit_stream` writes each batch as it comes, in every format
:func:`pdnkit.lean.tables.emit` writes, with the same conventions and the same bytes, so
memory stays flat whatever the result's size and the first rows are out at once.

* CSV, JSON, JSONL and Parquet are written batch by batch (Parquet one row group a batch);
* a text table on the screen shows its first ``limit`` rows as soon as they are read, then
  counts the rest for the note below it (``... N more rows``) without making Python values of
  them; a reader of standard output that went away (``| head``) stops the count at once;
* a text table in a file needs the widths of every row before its first line: the rows'
  texts are kept in a temporary file beside it, then written aligned.

A file is written whole or not at all (:func:`pdnkit._atomic.atomic_output`), never over an
input; standard output gets the rows as they are read, through
:func:`pdnkit.lean.tables.screen` when it is a terminal. A reader that goes away ends the
statement (a closed pipe raises ``BrokenPipeError`` from the next write, and the command ends
quietly as it always did).

Example:
    >>> import duckdb
    >>> from pdnkit.lean.tables import output
    >>> from pdnkit.store.stream import Stream
    >>> con = duckdb.connect()
    >>> with Stream(con.sql("SELECT 1 AS a, '=1+2' AS b, [3, 4] AS c")) as s:
    ...     emit_stream(s, output("csv", None))
    a,b,c
    1,'=1+2,"[3, 4]"
    1
"""

from __future__ import annotations

import csv
import errno
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any, Protocol

from pdnkit._cells import arrow_values, is_numeric, json_default
from pdnkit.lean.tables import (
    Output,
    Rows,
    aligned_line,
    cell_text,
    print_notes,
    screen,
    show_table,
    spreadsheet_safe,
)

__all__ = ["Batches", "emit_stream", "reader_gone"]


class Batches(Protocol):
    """What :func:`emit_stream` reads: column names, their DuckDB types, and Arrow record
    batches (a :class:`pdnkit.store.stream.Stream`)."""

    columns: list[str]
    types: list[str]

    def __iter__(self) -> Iterator[Any]: ...


def emit_stream(stream: Batches, sink: Output, *, title: str | None = None,
                limit: int | None = None, empty: str = "(no rows)") -> int:
    """Write ``stream`` where ``sink`` says, batch by batch (see the module's text), as
    :func:`pdnkit.lean.tables.emit` writes a whole table; returns the number of rows.
    On the screen a text table shows the first ``limit`` rows (all for ``None``) under
    ``title``, then counts the rest; to a file every row, then ``N rows -> FILE`` on
    standard error."""
    if sink.format == "text" and sink.to_screen:
        return _screen_table(stream, title=title, limit=limit, empty=empty, wide=sink.wide)
    if sink.format == "parquet":
        n = _write_parquet(stream, sink)
    elif sink.path is None:
        out = screen()  # a terminal gets no control character from the file's text
        n = _WRITERS[sink.format](stream, out, True)
        out.flush()
    else:
        from pdnkit._atomic import atomic_output

        with atomic_output(sink.path, inputs=sink.inputs, newline="") as fh:
            n = _WRITERS[sink.format](stream, fh, False)
    if sink.path is not None:
        print(f"{n} rows -> {sink.path}", file=sys.stderr)
    return n


def _plain_batches(stream: Batches) -> Iterator[list[list[object]]]:
    """Each batch as columns of plain values (:func:`pdnkit._cells.arrow_values`)."""
    types = stream.types
    for batch in stream:
        yield [arrow_values(batch.column(i), types[i]) for i in range(batch.num_columns)]


def _rows_of(columns: Sequence[Sequence[object]]) -> Iterable[tuple[object, ...]]:
    return zip(*columns, strict=True) if columns else ()


def _csv(stream: Batches, fh: IO[str], flush: bool, raw: bool = False) -> int:
    """CSV as :func:`pdnkit.lean.tables.emit` writes it, a batch at a time."""
    w = csv.writer(fh, lineterminator="\n")
    safe: Callable[[str], str] = (lambda text: text) if raw else spreadsheet_safe
    w.writerow([safe(n) for n in stream.columns])
    n = 0
    for columns in _plain_batches(stream):
        fields = [[safe(v) if type(v) is str else "" if v is None else cell_text(v)
                   for v in col] for col in columns]
        w.writerows(_rows_of(fields))
        n += len(columns[0]) if columns else 0
        if flush:
            fh.flush()
    return n


def _csv_raw(stream: Batches, fh: IO[str], flush: bool) -> int:
    return _csv(stream, fh, flush, raw=True)


def _records(stream: Batches) -> Iterator[list[dict[str, object]]]:
    names = stream.columns
    for columns in _plain_batches(stream):
        yield [dict(zip(names, row, strict=True)) for row in _rows_of(columns)]


def _jsonl(stream: Batches, fh: IO[str], flush: bool) -> int:
    n = 0
    for records in _records(stream):
        fh.write("".join(json.dumps(r, ensure_ascii=False, default=json_default) + "\n"
                         for r in records))
        n += len(records)
        if flush:
            fh.flush()
    return n


def _json(stream: Batches, fh: IO[str], flush: bool) -> int:
    """One JSON array, the bytes ``json.dump(rows, indent=1)`` writes for the whole list:
    each object indented by one space, separated by ``,`` and a newline."""
    n = 0
    for records in _records(stream):
        for r in records:
            text = json.dumps(r, ensure_ascii=False, indent=1, default=json_default)
            fh.write(("[\n " if n == 0 else ",\n ") + text.replace("\n", "\n "))
            n += 1
        if flush:
            fh.flush()
    fh.write("[]\n" if n == 0 else "\n]\n")
    return n


def _text(stream: Batches, fh: IO[str], flush: bool) -> int:
    """A plain aligned table: every row's cell texts kept in a temporary file (one JSON
    list a line) while the widths are measured, then written aligned."""
    names = list(stream.columns)
    widths = [len(name) for name in names]
    numbers = [_Numeric() for _ in names]
    n = 0
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        for columns in _plain_batches(stream):
            texts = []
            for i, col in enumerate(columns):
                numbers[i].see(col)
                cells = [cell_text(v).replace("\n", " ") for v in col]
                widths[i] = max([widths[i], *map(len, cells)])
                texts.append(cells)
            spool.writelines(json.dumps(row, ensure_ascii=False) + "\n"
                             for row in _rows_of(texts))
            n += len(columns[0]) if columns else 0
        numeric = [num.value for num in numbers]
        fh.write(aligned_line(names, widths, numeric))
        fh.write(aligned_line(["-" * w for w in widths], widths, numeric))
        spool.seek(0)
        for line in spool:
            fh.write(aligned_line(json.loads(line), widths, numeric))
    return n


class _Numeric:
    """Whether a column holds numbers (and NULLs) only, at least one, as
    :func:`pdnkit._cells.is_numeric` says of a whole column, seen a batch at a time."""

    def __init__(self) -> None:
        self.seen = False
        self.other = False

    def see(self, values: list[object]) -> None:
        if self.other:
            return
        if is_numeric(values):
            self.seen = True
        elif any(v is not None for v in values):
            self.other = True

    @property
    def value(self) -> bool:
        return self.seen and not self.other


_WRITERS: dict[str, Callable[[Batches, IO[str], bool], int]] = {
    "csv": _csv, "csv-raw": _csv_raw, "json": _json, "jsonl": _jsonl, "text": _text}


def _write_parquet(stream: Batches, sink: Output) -> int:
    """Parquet, one row group a batch, as DuckDB's Arrow types give the columns."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

    from pdnkit._atomic import atomic_path

    assert sink.path is not None  # output() refuses Parquet to the screen
    n = 0
    with atomic_path(sink.path, sink.inputs) as tmp:  # written by pyarrow, not by SQL
        writer = None
        try:
            for batch in stream:
                if writer is None:
                    writer = pq.ParquetWriter(tmp, batch.schema)
                writer.write_batch(batch)
                n += batch.num_rows
            if writer is None:  # no row: the columns alone
                schema = getattr(stream, "schema", None)
                if schema is None:
                    from pdnkit._arrow import pyarrow_module

                    pa = pyarrow_module()
                    schema = pa.schema([(name, pa.null()) for name in stream.columns])
                writer = pq.ParquetWriter(tmp, schema)
        finally:
            if writer is not None:
                writer.close()
    return n


def _screen_table(stream: Batches, *, title: str | None, limit: int | None, empty: str,
                  wide: bool) -> int:
    """The first ``limit`` rows as a text table, printed once read; then the rest counted
    (Arrow's row counts, no value made) for the notes, until the reader of a pipe is gone."""
    from rich.console import Console

    console = Console(highlight=False)
    batches = iter(stream)
    kept: list[tuple[object, ...]] = []
    rows = 0
    for batch in batches:
        rows += batch.num_rows
        want = batch.num_rows if limit is None else min(batch.num_rows, limit - len(kept))
        if want > 0:
            part = batch.slice(0, want)
            columns = [arrow_values(part.column(i), stream.types[i])
                       for i in range(part.num_columns)]
            kept.extend(_rows_of(columns))
        if limit is not None and len(kept) >= limit:
            break
    hidden = show_table(Rows(stream.columns, kept), title=title, limit=limit, wide=wide,
                        console=console)
    console.file.flush()
    gone = reader_gone(console.file)
    for batch in batches:
        rows += batch.num_rows
        if gone():
            raise BrokenPipeError(errno.EPIPE, "the reader of standard output went away")
    print_notes(console, rows=rows, shown=len(kept), hidden=hidden, empty=empty)
    return rows


def reader_gone(stream: object) -> Callable[[], bool]:
    """A test of whether the reader of ``stream`` went away: true once the pipe it writes
    to has no reader (``| head`` ended); always false for a terminal, a file or a stream
    without a file descriptor.

    Example:
        >>> import io
        >>> reader_gone(io.StringIO())()
        False
    """
    try:
        fd = stream.fileno()  # type: ignore[attr-defined]
        is_pipe = stat.S_ISFIFO(os.fstat(fd).st_mode)
    except (AttributeError, OSError, ValueError):
        is_pipe = False
    if not is_pipe:
        return lambda: False
    import select

    poll = select.poll()
    poll.register(fd, 0)  # POLLERR and POLLHUP are always reported

    def gone() -> bool:
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in poll.poll(0))

    return gone
