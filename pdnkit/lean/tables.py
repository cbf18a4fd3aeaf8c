"""The one output layer of the command line (:mod:`pdnkit.cli` and the quick forms of
:mod:`pdnkit.launch`, without the argument parser): every table result (a DataFrame or plain rows)
written as text, CSV, JSON, JSONL or Parquet, to the screen or to a file, with the same
conventions everywhere, and the one output check before anything is written.

Conventions (the same for every command):

* **NULL** is an empty field in CSV and text, ``null`` in JSON and JSONL (NaN and NaT too);
* **dates** are ISO (``2020-05-01``; a date-and-time column ``2020-05-01T10:30:00``);
* **lists and maps** are JSON in CSV and text (``[279, 280]``), arrays and objects in JSON;
* **bytes** (a ``BLOB``) are hexadecimal everywhere;
* **CSV cells that a spreadsheet would run** (text beginning with ``=``, ``+``, ``-``,
  ``@``, a tab or a carriage return, as OWASP lists them) are written after a ``'``
  (:func:`spreadsheet_safe`); numbers stay numbers, and the ``csv-raw`` format writes every
  cell as stored;
* **text on the screen** never carries the file's control characters: ESC, BEL, CR, bidi
  overrides ... are shown escaped (``\\x1b``), never sent to the terminal (:func:`terminal_safe`),
  in every format: CSV, JSON and PDN written to standard output go through :func:`screen`
  when it is a terminal, and a file or a pipe gets the bytes exactly.

The format is ``--format`` if given, else ``--out``'s extension (``.txt .csv .json .jsonl
.parquet``; another extension is refused with this list), else a text table. A text table on a
terminal (or with ``COLUMNS`` set) fits its width: long cells such as FENs and keys end in an
ellipsis, names wrap at spaces, column names at ``_``, and columns that still do not fit are
named below the table; ``--wide`` (or a pipe) shows every column and cell whole. A file is
written whole or not at all (:func:`pdnkit._atomic.atomic_output`) and never over an input.

Example:
    >>> sink = output(None, None)
    >>> sink.format
    'text'
    >>> emit(Rows(["player", "date"], [("Ann Lee", dt.date(2020, 5, 1)), (None, None)]),
    ...      output("csv", None))
    player,date
    Ann Lee,2020-05-01
    ,
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol, TextIO, cast

from pdnkit._cells import PlainTable
from pdnkit._cells import column_values as _series_values
from pdnkit._cells import is_numeric as _is_numeric
from pdnkit._cells import json_default as _json_default
from pdnkit._cells import plain as _plain
from pdnkit.lean.plaintext import FORMULA_START, Safe, spreadsheet_safe, terminal_safe
from pdnkit.lean.usage import UsageError

if TYPE_CHECKING:
    from rich.console import Console


class Frame(Protocol):
    """What :func:`emit` reads of a pandas DataFrame (pandas is imported only by the caller
    that made one)."""

    @property
    def columns(self) -> Any: ...

    @property
    def iloc(self) -> Any: ...

    def __len__(self) -> int: ...


@dataclass(frozen=True)
class Rows:
    """A table result without pandas: column names and rows (tuples of plain values).

    Example:
        >>> len(Rows(["a"], [(1,), (2,)]))
        2
    """

    columns: Sequence[str]
    rows: Sequence[Sequence[object]]

    def __len__(self) -> int:
        return len(self.rows)


Table = Frame | Rows | PlainTable

#: every format a table result can be written in (this module writes them);
#: ``csv-raw`` is CSV with no cell quoted for spreadsheets
TABLE_FORMATS = ("text", "csv", "csv-raw", "json", "jsonl", "parquet")
#: old names of a format, still understood
FORMAT_ALIASES = {"table": "text"}


def format_name(value: str | None, allowed: tuple[str, ...] = TABLE_FORMATS) -> str | None:
    """The format ``value`` names, among ``allowed`` (``None`` stays ``None``: the format
    then follows ``--out``'s extension); ``table`` is the old name of ``text``.

    Example:
        >>> format_name("CSV"), format_name("table"), format_name(None)
        ('csv', 'text', None)
        >>> try:
        ...     format_name("xlsx")
        ... except UsageError as exc:
        ...     print(exc)
        unknown format 'xlsx': choose text, csv, csv-raw, json, jsonl or parquet
    """
    if value is None:
        return None
    name = value.strip().lower()
    name = FORMAT_ALIASES.get(name, name)
    if name not in allowed:
        choices = ", ".join(allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 \
            else allowed[0]
        raise UsageError(f"unknown format {value!r}: choose {choices}")
    return name


#: the file extensions a table output may have, and the format each means
SUFFIXES = {".txt": "text", ".text": "text", ".csv": "csv", ".json": "json",
            ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}


# ------------------------------------------------------------------------------------------
# where the output goes


@dataclass(frozen=True)
class Output:
    """Where a command's result goes: its format, the file (``None``: the screen) and the
    inputs it must never replace. Made by :func:`output` (which checks it), used by
    :func:`emit`."""

    format: str
    path: Path | None = None
    inputs: tuple[Path, ...] = ()
    wide: bool = False

    @property
    def to_screen(self) -> bool:
        """Whether the result goes to standard output."""
        return self.path is None


def resolve_format(fmt: str | None, out: Path | None,
                   allowed: tuple[str, ...] = TABLE_FORMATS, *,
                   unknown_suffix: str | None = None) -> str:
    """The format to write: ``fmt`` if given, else the one ``out``'s extension names, else
    ``text``. An extension that names no format in ``allowed`` is refused with the list
    (or gives ``unknown_suffix`` when that is set: a report that is text whatever its name).

    Example:
        >>> resolve_format(None, Path("all.CSV")), resolve_format("json", Path("x.csv"))
        ('csv', 'json')
        >>> try:
        ...     resolve_format(None, Path("q.xlsx"))
        ... except UsageError as exc:
        ...     print(exc)
        cannot write q.xlsx: no format has the extension .xlsx (use .txt, .csv, .json, .jsonl or .parquet, or --format)
    """
    if fmt is not None:
        return format_name(fmt, allowed) or "text"
    if out is None or str(out) == "-":
        return "text"
    suffix = out.suffix.lower()
    name = SUFFIXES.get(suffix)
    if name in allowed:
        return name
    if unknown_suffix is not None:
        return unknown_suffix
    known = [s for s, f in SUFFIXES.items() if f in allowed and s not in (".text", ".ndjson",
                                                                          ".pq")]
    listed = ", ".join(known[:-1]) + f" or {known[-1]}"
    what = f"the extension {suffix}" if suffix else "no extension"
    raise UsageError(f"cannot write {out}: no format has {what} (use {listed}, or --format)"
                     if suffix else f"cannot tell the format of {out}: it has {what} "
                     f"(use {listed}, or --format)")


def output(fmt: str | None, out: Path | None, inputs: Iterable[object] = (), *,
           wide: bool = False, allowed: tuple[str, ...] = TABLE_FORMATS,
           unknown_suffix: str | None = None) -> Output:
    """Check where a result goes, before the command does its work: the format
    (:func:`resolve_format`), Parquet only to a file, and the one output check
    (:func:`pdnkit._atomic.check_output`: never one of ``inputs``, never inside an input
    folder, symbolic links resolved). ``inputs`` may hold paths, ``None`` (the default
    database), lists, PDN text or connections; only local paths count.

    Example:
        >>> output(None, Path("hits.parquet")).format
        'parquet'
    """
    path = None if out is None or str(out) == "-" else Path(out)
    name = resolve_format(fmt, path, allowed, unknown_suffix=unknown_suffix)
    if name == "parquet" and path is None:
        raise UsageError("--format parquet needs --out FILE")
    local = check(path, inputs)
    return Output(name, path, local, wide)


def check(out: Path | str | None, inputs: Iterable[object]) -> tuple[Path, ...]:
    """The one output check of a command (:func:`pdnkit._atomic.check_output`) on ``out``
    (``None`` or ``-``: the screen, nothing to check) against the local paths among
    ``inputs`` (``None`` stands for the default database); returns those paths.

    Example:
        >>> check(None, ["1. 32-28 *"])
        ()
    """
    from pdnkit._atomic import check_output, local_paths

    given = [_default_db() if item is None else item for item in inputs]
    local = tuple(local_paths(*given))
    if out is not None and str(out) != "-":
        check_output(out, local)
    return local


def _default_db() -> str:
    from pdnkit.store import DEFAULT_DB

    return str(DEFAULT_DB)


# ------------------------------------------------------------------------------------------
# the one table model: column names and columns of plain Python values


@dataclass
class _Columns:
    names: list[str]
    values: list[list[object]]
    numeric: list[bool] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return len(self.values[0]) if self.values else 0

    def records(self) -> Iterator[dict[str, object]]:
        for i in range(self.rows):
            yield {n: col[i] for n, col in zip(self.names, self.values, strict=True)}


def _columns(table: Table) -> _Columns:
    if isinstance(table, Rows):
        names = [str(c) for c in table.columns]
        values: list[list[object]] = [[_plain(r[i]) for r in table.rows]
                                      for i in range(len(names))]
    elif isinstance(table, PlainTable):
        names = [str(c) for c in table.columns]
        values = [[_plain(v) for v in col] for col in table.values]
    else:
        names = [str(c) for c in table.columns]
        values = [_series_values(table.iloc[:, i]) for i in range(len(names))]
    numeric = [_is_numeric(col) for col in values]
    return _Columns(names, values, numeric)


def _iso(v: dt.date | dt.time) -> str:
    return v.isoformat()


def cell_text(v: object) -> str:
    """A cell as CSV and text write it: NULL empty, lists and maps as JSON, dates ISO.

    Example:
        >>> cell_text(None), cell_text([1, "a"]), cell_text(dt.date(2020, 5, 1))
        ('', '[1, "a"]', '2020-05-01')
    """
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False, default=_json_default)
    if isinstance(v, (dt.date, dt.time)):
        return _iso(v)
    if isinstance(v, (bytes, bytearray, memoryview)):  # a BLOB: hex, as JSON writes it
        return bytes(v).hex()
    return str(v)


# ------------------------------------------------------------------------------------------
# writing


def emit(table: Table, sink: Output, *, title: str | None = None, limit: int | None = None,
         empty: str = "(no rows)") -> None:
    """Write ``table`` where ``sink`` says, in its format (see the module's conventions).
    On the screen a text table shows the first ``limit`` rows (all for ``None``) under
    ``title``, and ``empty`` when there is no row; to a file every row, then
    ``N rows -> FILE`` on standard error.

    Example:
        >>> emit(Rows(["a", "b"], [(1, [2, 3])]), output("json", None))
        [
         {
          "a": 1,
          "b": [
           2,
           3
          ]
         }
        ]
    """
    if sink.format == "parquet":
        _write_parquet(table, sink)
    else:
        cols = _columns(table)
        if sink.format == "text" and sink.to_screen:
            print_table(cols, title=title, limit=limit, empty=empty, wide=sink.wide)
            return
        writer = {"csv": _write_csv, "csv-raw": _write_csv_raw, "json": _write_json,
                  "jsonl": _write_jsonl, "text": _write_text}[sink.format]
        if sink.path is None:
            out = screen()  # a terminal gets no control character from the file's text
            writer(cols, out)
            out.flush()
        else:
            from pdnkit._atomic import atomic_output

            with atomic_output(sink.path, inputs=sink.inputs, newline="") as fh:
                writer(cols, fh)
    if sink.path is not None:
        print(f"{len(table)} rows -> {sink.path}", file=sys.stderr)


def _write_csv(cols: _Columns, fh: IO[str], raw: bool = False) -> None:
    """CSV: every cell as :func:`cell_text` writes it; a text cell that would start a formula
    made :func:`spreadsheet_safe` unless ``raw`` (numbers are never text cells here)."""
    w = csv.writer(fh, lineterminator="\n")
    safe = (lambda text: text) if raw else spreadsheet_safe
    w.writerow([safe(n) for n in cols.names])
    fields = [[safe(cell_text(v)) if isinstance(v, str) else cell_text(v) for v in col]
              for col in cols.values]
    w.writerows(zip(*fields, strict=True) if fields else [])


def _write_csv_raw(cols: _Columns, fh: IO[str]) -> None:
    _write_csv(cols, fh, raw=True)


def _write_json(cols: _Columns, fh: IO[str]) -> None:
    json.dump(list(cols.records()), fh, ensure_ascii=False, indent=1, default=_json_default)
    fh.write("\n")


def _write_jsonl(cols: _Columns, fh: IO[str]) -> None:
    for record in cols.records():
        fh.write(json.dumps(record, ensure_ascii=False, default=_json_default) + "\n")


def _write_text(cols: _Columns, fh: IO[str]) -> None:
    """A plain aligned table (a file, or standard output that is not a terminal)."""
    texts = [[cell_text(v).replace("\n", " ") for v in col] for col in cols.values]
    widths = [max([len(n)] + [len(t) for t in col]) for n, col in zip(cols.names, texts,
                                                                       strict=True)]
    fh.write(aligned_line(cols.names, widths, cols.numeric))
    fh.write(aligned_line(["-" * w for w in widths], widths, cols.numeric))
    for i in range(cols.rows):
        fh.write(aligned_line([col[i] for col in texts], widths, cols.numeric))


def aligned_line(cells: Sequence[str], widths: Sequence[int], numeric: Sequence[bool]) -> str:
    """One line of a plain aligned table: numbers to the right, text to the left, two
    spaces between columns, no trailing space.

    Example:
        >>> aligned_line(["a", "7"], [3, 2], [False, True])
        'a     7\\n'
    """
    parts = [c.rjust(w) if num else c.ljust(w)
             for c, w, num in zip(cells, widths, numeric, strict=True)]
    return "  ".join(parts).rstrip() + "\n"


def _write_parquet(table: Table, sink: Output) -> None:
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

    from pdnkit._atomic import atomic_path

    if isinstance(table, PlainTable):  # the DataFrame's Parquet: its column types
        table = table.to_frame()
    if isinstance(table, Rows):
        cols = _columns(table)
        arrow = pa.table(dict(zip(cols.names, cols.values, strict=True)))
    else:
        arrow = _dates_as_dates(pa.Table.from_pandas(table, preserve_index=False))
    assert sink.path is not None  # output() refuses Parquet to the screen
    with atomic_path(sink.path, sink.inputs) as tmp:  # written by pyarrow, not by SQL
        pq.write_table(arrow, tmp)


def _dates_as_dates(arrow: Any) -> Any:
    """A timestamp column whose values all fall at midnight (a DuckDB ``DATE`` comes back
    from pandas as one) written as a Parquet date, as the other formats write it."""
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]

    for i, column in enumerate(arrow.schema):
        if pa.types.is_timestamp(column.type) and column.type.tz is None:
            values = arrow.column(i)
            dates = pc.cast(values, pa.date32())
            if pc.all(pc.equal(pc.cast(dates, column.type), values)).as_py() is not False:
                arrow = arrow.set_column(i, pa.field(column.name, pa.date32()), dates)
    return arrow


# ------------------------------------------------------------------------------------------
# the screen: control characters escaped, tables fitted to the terminal

def markup_safe(text: str) -> str:
    """``text`` from a file made safe to print in rich markup: control characters escaped
    (:func:`terminal_safe`) and ``[`` no longer read as a style.

    Example:
        >>> markup_safe("[bold]x\\x07")
        '\\\\[bold]x\\\\x07'
    """
    from rich.markup import escape

    return escape(terminal_safe(text))


class ScreenStream(io.TextIOBase):
    """A text stream that writes to the terminal ``stream`` with :func:`terminal_safe`
    applied to every piece of text: what a command writes as CSV, JSON or PDN (text from
    files inside) reaches a terminal without a control sequence. Made by :func:`screen`.

    Example:
        >>> buf = io.StringIO()
        >>> ScreenStream(buf).write("Ann\\x1b]0;title\\x07,2-0\\n")
        18
        >>> buf.getvalue()
        'Ann\\\\x1b]0;title\\\\x07,2-0\\n'
    """

    def __init__(self, stream: IO[str]) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(terminal_safe(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return True

    def writable(self) -> bool:
        return True


def is_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal (an object without ``isatty``, or closed: no).

    Example:
        >>> is_terminal(io.StringIO())
        False
    """
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def screen(stream: TextIO | None = None) -> TextIO:
    """Standard output (or ``stream``) for a command that writes file text to it: a
    :class:`ScreenStream` when it is a terminal, so no control character from a file
    reaches it; else the stream itself (a file or a pipe gets the bytes exactly).

    Example:
        >>> buf = io.StringIO()
        >>> screen(buf) is buf
        True
    """
    out = sys.stdout if stream is None else stream
    return cast("TextIO", ScreenStream(out)) if is_terminal(out) else out


def screen_text(text: str, stream: object = None) -> str:
    """``text`` to print on standard output (or ``stream``): :func:`terminal_safe` when it
    is a terminal, else exactly as it is.

    Example:
        >>> screen_text("a\\x07b", io.StringIO())
        'a\\x07b'
    """
    return terminal_safe(text) if is_terminal(sys.stdout if stream is None else stream) \
        else text


def print_safe(console: Console, renderable: object) -> None:
    """Print ``renderable`` with :class:`Safe`: no control character from file text reaches
    the terminal."""
    console.print(Safe(renderable))


def screen_width(console: Console) -> int | None:
    """The width a table on the screen must fit: ``COLUMNS`` when set, else the terminal's;
    ``None`` when standard output is no terminal (a pipe gets whole cells).

    Example:
        >>> import io
        >>> from rich.console import Console
        >>> os.environ.get("COLUMNS") is not None or screen_width(
        ...     Console(file=io.StringIO())) is None
        True
    """
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return console.width if console.is_terminal else None


def print_table(table: Table | _Columns, *, title: str | None = None, limit: int | None = None,
                empty: str = "(no rows)", wide: bool = False,
                console: Console | None = None) -> None:
    """Print a text table on the screen, fitted to its width (see the module's doc)."""
    from rich.console import Console

    cols = table if isinstance(table, _Columns) else _columns(table)
    console = console or Console(highlight=False)
    shown = cols.rows if limit is None else min(limit, cols.rows)
    hidden = show_table(cols, title=title, limit=limit, wide=wide, console=console)
    print_notes(console, rows=cols.rows, shown=shown, hidden=hidden, empty=empty)


def show_table(table: Table | _Columns, *, title: str | None = None,
               limit: int | None = None, wide: bool = False,
               console: Console | None = None) -> list[str]:
    """Print the first ``limit`` rows of a text table on the screen, fitted to its width,
    without the notes below it (:func:`print_notes`); returns the columns left out."""
    from rich.console import Console

    from pdnkit.lean.fit import fit_table

    cols = table if isinstance(table, _Columns) else _columns(table)
    console = console or Console(highlight=False)
    shown = cols.rows if limit is None else min(limit, cols.rows)
    texts = [[terminal_safe(cell_text(v)) for v in col[:shown]] for col in cols.values]
    width = None if wide else screen_width(console)
    rich_table, hidden, needed = fit_table([terminal_safe(n) for n in cols.names], texts,
                                           cols.numeric, width, title=title)
    Console(file=console.file, width=max(needed, width or 0), highlight=False,
            force_terminal=console.is_terminal).print(rich_table)
    return list(hidden)


def print_notes(console: Console, *, rows: int, shown: int, hidden: Sequence[str],
                empty: str = "(no rows)") -> None:
    """The notes below a text table of ``rows`` rows of which ``shown`` were shown: no row,
    more rows, more columns (``hidden``)."""
    notes = []
    if rows == 0 and empty:
        notes.append(empty)
    if shown < rows:
        notes.append(f"... {rows - shown} more rows (--limit N, or --format csv for all)")
    if hidden:
        notes.append(f"... {len(hidden)} more column(s): {', '.join(hidden)} "
                     "(--wide shows them)")
    for note in notes:
        console.print(note, style="dim", highlight=False, markup=False)


__all__ = ["FORMAT_ALIASES", "FORMULA_START", "TABLE_FORMATS", "format_name", "Output", "Rows", "SUFFIXES", "Safe",
           "aligned_line", "cell_text", "check", "emit", "is_terminal", "markup_safe", "output",
           "print_notes", "print_safe", "print_table", "resolve_format", "screen", "screen_text",
           "screen_width", "show_table", "spreadsheet_safe", "terminal_safe", "ScreenStream"]
