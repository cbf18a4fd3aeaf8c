"""The lake's task: one byte range of a source, parsed, replayed and written as Parquet parts.

:func:`plan_chunks` cuts a source into :class:`ChunkTask`s of about ``chunk_bytes`` bytes;
:func:`run_chunk` (in a worker, locally or on a Dask cluster) moves both ends of its range to
the next cut point (:func:`~pdnkit.lake.cut.find_cut`), reads only that range, replays its
games with the validator's own pipeline and builds rows with the loader's own SQL
(:func:`pdnkit.rows.load.load_batch`) in an in-memory DuckDB, streaming them into one
Parquet part per table, each under a temporary name renamed when complete. Its game numbers,
game indexes and line numbers are local to the chunk (column ``chunk``); the manifest entry
adds the bases (:func:`pdnkit.store.lakeparts.make_entry`).

Example:
    >>> [(t.start, t.end) for t in plan_chunks("l", "f", 10, 1, "utf-8", 4, None, None)]
    [(0, 4), (4, 8), (8, 10)]
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pdnkit.findings import make_finding
from pdnkit.lake.cut import BYTE_CUTTABLE, find_cut, read_range
from pdnkit.rows.batch import ReportBatch
from pdnkit.rows.bitboards import WHOLE_BITS
from pdnkit.rows.load import load_batch
from pdnkit.store.db import ensure_schema
from pdnkit.store.lakeparts import chunk_id
from pdnkit.store.lakeview import LAKE_TABLES, filesystem
from pdnkit.store.schema import no_progress_bar
from pdnkit.validation import RunOptions, restatus, run

if TYPE_CHECKING:
    import pyarrow as pa

    from pdnkit.validation import GameReport
    from pdnkit.validation.resolve import FileGuess

#: default bytes of a source per task
CHUNK_BYTES = 4 << 20
#: the options of a task planned without any
DEFAULTS = RunOptions()


@dataclass(frozen=True)
class ChunkTask:
    """One task: a byte range of a source and where its parts go."""

    lake: str
    path: str
    file_id: int
    chunk: int
    start: int
    end: int
    size: int
    encoding: str
    #: the run's options (variant, edition, irregular ...; the chunk's encoding is its own)
    options: RunOptions = DEFAULTS
    #: a legacy encoding's ``encoding-fallback`` as the whole file's reading words it: the
    #: file offset of the first non-ASCII byte and the message; the task holding that byte
    #: puts the finding on the game of its line
    fallback: tuple[int, str] | None = None
    #: the whole file in one task: read it exactly as ``read_games`` reads a file
    whole: bool = False
    #: the file's variant, decided once from its first games (as ``import_files`` does)
    file_guess: FileGuess | None = None


@dataclass
class ChunkResult:
    """What a task reports back to the client: its cut range, games, lines and rows."""

    chunk: int
    start: int
    end: int
    games: int = 0
    lines: int = 0
    plies: int = 0
    replayed_plies: int = 0
    findings: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    parts: dict[str, str] = field(default_factory=dict)
    status_counts: dict[str, int] = field(default_factory=dict)
    code_counts: dict[str, int] = field(default_factory=dict)
    worker_pid: int = 0
    peak_rss_mb: float = 0.0
    #: the chunk's board layouts: (its local number, squares, names, FEN order)
    layouts: list[tuple[int, int, list[str], list[int]]] = field(default_factory=list)


def _chunk_encoding(encoding: str, start: int) -> str:
    return "utf-8" if encoding == "utf-8-sig" and start > 0 else encoding


def _peak_rss_mb() -> float:
    try:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    except (ImportError, OSError):  # pragma: no cover - not on Linux
        return 0.0


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Parse, replay and write the parts of one chunk (runs in a worker).

    The parts are complete files under their final names when this returns; a task run
    again (a retry after a worker died) writes the same names again."""
    fs, path = filesystem(task.path)
    start = find_cut(fs, path, task.start, task.size)
    end = find_cut(fs, path, task.end, task.size) if task.end < task.size else task.size
    result = ChunkResult(task.chunk, start, max(start, end), worker_pid=os.getpid())
    data = read_range(fs, path, start, end - start) if end > start else b""
    result.lines = data.count(b"\n")
    writer = _PartWriter(task)
    try:
        if data.strip():
            for batch in _batches(data, task, start):
                writer.write(batch, result)
        result.layouts = writer.layouts()
        result.parts = writer.close()
    except BaseException:
        writer.abort()
        raise
    result.rows = dict(writer.rows)
    result.peak_rss_mb = _peak_rss_mb()
    return result


def _batches(data: bytes, task: ChunkTask, start: int) -> Iterator[ReportBatch]:
    """The row batches of a chunk's games (the validator's pipeline, in this process), read
    as the whole file would read them: under the file's name and encoding, and with its
    ``encoding-fallback`` finding on the game holding the file's first non-ASCII byte (in
    whichever chunk that is)."""
    import io

    stream = io.BytesIO(data)
    stream.name = task.path  # the name the reader puts on records and findings
    enc = None if task.whole else _chunk_encoding(task.encoding, start)
    note = _Note(task, start, data)
    yield from run(stream, task.options.but(encoding=enc, compact=True),
                   partial(NotedBatch, note), guess=task.file_guess)


class _Note:
    """The file's ``encoding-fallback`` finding, for the first game of the chunk that
    reaches the line of the file's first non-ASCII byte (when that byte is in the chunk)."""

    def __init__(self, task: ChunkTask, start: int, data: bytes) -> None:
        self.task = task
        self.line: int | None = None
        if task.fallback is not None and start <= task.fallback[0] < start + len(data):
            head = data[:task.fallback[0] - start]
            self.line = head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1

    def place(self, report: GameReport) -> None:
        """Put the finding on ``report`` when its game reaches the line (once)."""
        record = report.record
        if self.line is None or record is None or self.task.fallback is None:
            return
        if (record.end_line or record.line) < self.line:
            return
        report.findings.insert(0, make_finding(
            "encoding-fallback", self.task.fallback[1], file=self.task.path,
            game_index=report.index, line=self.line,
            details={"encoding": self.task.encoding}))
        restatus(report)
        self.line = None


class NotedBatch(ReportBatch):
    """A :class:`~pdnkit.rows.batch.ReportBatch` that places the chunk's
    ``encoding-fallback`` note (:class:`_Note`) on the game it belongs to."""

    def __init__(self, note: _Note) -> None:
        super().__init__()
        self.note = note

    def add(self, report: Any) -> int:
        """Place the note if it belongs to ``report``, then append it."""
        self.note.place(report)
        return super().add(report)


#: the columns of a table's part where they are not the table's own: a position part keeps
#: each bitboard whole (a decimal), as parts always did, whatever the board's size
_PART_COLUMNS = {"position_bits": f"game_id, ply, layout, black, {WHOLE_BITS}"}
#: tables that get a part only in a chunk with rows of them (the long texts of
#: :mod:`pdnkit.rows.pieces`, in few chunks if any)
_ONLY_WITH_ROWS = frozenset({"raw_pieces"})


class _PartWriter:
    """Streams a chunk's rows into one Parquet part per table (row groups of a batch each),
    built by the loader's own SQL in an in-memory DuckDB, renamed into place on close."""

    def __init__(self, task: ChunkTask) -> None:
        import duckdb

        self.task = task
        self.fs, self.root = filesystem(task.lake)
        self.con = no_progress_bar(duckdb.connect(":memory:"))
        self.con.execute("SET threads = 1")
        ensure_schema(self.con)
        self.writers: dict[str, Any] = {}
        self.files: dict[str, Any] = {}
        self.tmp: dict[str, str] = {}
        self.rows: dict[str, int] = {t: 0 for t in LAKE_TABLES}
        self.games = 0
        self.key = chunk_id(task.file_id, task.chunk)

    def write(self, batch: Any, result: ChunkResult) -> None:
        if not (batch.games_count or batch.findings_count):
            return
        load_batch(self.con, batch.to_arrow(), 0, self.games, batch.layouts)
        self.games += batch.games_count
        result.games += batch.games_count
        result.plies += batch.plies_count
        result.replayed_plies += batch.replayed_count
        result.findings += batch.findings_count
        for k, v in batch.status_counts.items():
            result.status_counts[k] = result.status_counts.get(k, 0) + v
        for k, v in batch.code_counts.items():
            result.code_counts[k] = result.code_counts.get(k, 0) + v
        for table in LAKE_TABLES:
            data = self.con.sql(
                f"SELECT {_PART_COLUMNS.get(table, '*')}, {self.key}::BIGINT AS chunk "
                f"FROM {table}").arrow()
            if hasattr(data, "read_all"):  # a RecordBatchReader in newer DuckDB releases
                data = data.read_all()
            self._append(table, data)
            self.con.execute(f"DELETE FROM {table}")

    def _append(self, table: str, data: pa.Table) -> None:
        import pyarrow.parquet as pq

        if table in _ONLY_WITH_ROWS and table not in self.writers and data.num_rows == 0:
            return  # no part for a table the chunk has no rows of
        if table not in self.writers:
            folder = f"{self.root}/{table}"
            self.fs.makedirs(folder, exist_ok=True)
            tmp = f"{folder}/.tmp-{part_name(self.task.file_id, self.task.chunk)}-{uuid.uuid4().hex}"
            self.tmp[table] = tmp
            self.files[table] = self.fs.open(tmp, "wb")
            self.writers[table] = pq.ParquetWriter(self.files[table], data.schema,
                                                   compression="zstd")
        self.writers[table].write_table(data)
        self.rows[table] += data.num_rows

    def layouts(self) -> list[tuple[int, int, list[str], list[int]]]:
        """The board layouts the chunk's positions number (``position_bits.layout``)."""
        return [(int(a), int(b), list(c), list(d)) for a, b, c, d in self.con.execute(
            "SELECT layout, squares, names, fen_order FROM layouts ORDER BY layout").fetchall()]

    def close(self) -> dict[str, str]:
        """Close every part and rename it into place; returns table -> part path."""
        parts: dict[str, str] = {}
        for table in list(self.writers):
            self.writers.pop(table).close()
            self.files.pop(table).close()
            final = f"{self.root}/{table}/{part_name(self.task.file_id, self.task.chunk)}"
            if self.fs.exists(final):
                self.fs.rm(final)
            self.fs.mv(self.tmp.pop(table), final)
            parts[table] = final
        self.con.close()
        return parts

    def abort(self) -> None:
        for table in list(self.writers):
            try:
                self.writers.pop(table).close()
                self.files.pop(table).close()
                self.fs.rm(self.tmp.pop(table))
            except Exception:  # noqa: BLE001 - best effort: the part was never visible
                pass
        self.con.close()


def part_name(file_id: int, chunk: int) -> str:
    """File name of a chunk's part (the same in every table folder).

    Example:
        >>> part_name(7, 3)
        'part-00000007-00003.parquet'
    """
    return f"part-{int(file_id):08d}-{int(chunk):05d}.parquet"


def plan_chunks(lake: str, path: str, size: int, file_id: int, encoding: str,
                chunk_bytes: int, options: RunOptions = DEFAULTS,
                fallback: tuple[int, str] | None = None, whole: bool = False,
                file_guess: FileGuess | None = None) -> list[ChunkTask]:
    """The tasks of one source: byte ranges of ``chunk_bytes`` (one task for a source whose
    encoding cannot be cut at a newline byte, e.g. UTF-16), each replayed under ``options``.
    ``whole``: a source that fits one task is read exactly as ``read_games`` reads a file
    (its own encoding detection); ``file_guess``: the file's variant, decided once.

    Example:
        >>> [(t.start, t.end) for t in plan_chunks("l", "f", 10, 1, "utf-8", 4)]
        [(0, 4), (4, 8), (8, 10)]
    """
    step = max(1, int(chunk_bytes))
    if encoding.lower() not in BYTE_CUTTABLE:
        step = max(size, 1)
    offsets = list(range(0, max(size, 1), step)) or [0]
    single = whole and len(offsets) == 1
    return [ChunkTask(lake, path, file_id, k, off, min(off + step, size), size, encoding,
                      options, None if single else fallback, single, file_guess)
            for k, off in enumerate(offsets)]
