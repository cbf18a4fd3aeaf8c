"""A Parquet dataset ("lake") as a second store, written by tasks that each read their own
byte range of a source file (locally, or on a Dask cluster), and read through DuckDB views.

Layout of a lake folder ``DIR`` (a local path or any fsspec URL)::

    DIR/_manifest/<sha256>.json      one entry per source, written last (see below)
    DIR/<table>/part-<file_id>-<chunk>.parquet   games, moves, position_bits, findings, rule_events

A source file is cut at game boundaries into chunks of about ``chunk_bytes`` bytes *by byte
offset*: a task is given ``[start, end)`` and moves both ends to the first *cut point* at or
after them (the start of a line that opens a tag pair after a line that is not a tag pair, the
place where the splitter starts a new game), so each task reads only its own part and no
process reads the whole file. A task parses and replays its games with the same code as
``pdnkit import``, builds the same rows (the loader's own SQL, in an in-memory DuckDB) and
writes one Parquet part per table, each under a temporary name renamed when complete. Its game
numbers, game indexes and line numbers are local to the chunk; the client, once every chunk of
a source is done, writes the source's manifest entry with each chunk's bases (first game id,
first game index, lines before it). The views add those bases, so ids are unique without any
coordination between workers and equal those of a DuckDB import of the same files in the same
order. A part whose manifest entry is missing (a killed import) is never read; re-importing a
source whose sha256 is in the manifest is a no-op unless ``replace``.

One difference from reading the whole file remains by design: text between games that is
neither tags nor moves (an ``ignored-text`` finding, attached to the next game) and that sits
right before a chunk's first game stays with the chunk before, where it becomes a game of its
own (``empty-game``). Chunks of megabytes make this rare; no moves are lost either way.

Example:
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.pdn").write_text('[GameType "20"]\\n1. 32-28 19-23 *\\n')
    >>> s = import_lake([d / "a.pdn"], d / "lake", engine="local")
    >>> s.games, is_lake(d / "lake")
    (1, True)
    >>> open_lake(d / "lake").execute("SELECT count(*) FROM moves").fetchall()[0][0]
    2
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from dataclasses import replace as replace_field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.store import lakeview
from pdnkit.store.lakeview import (
    LAKE_TABLES,
    MANIFEST,
    SourceEntry,
    _fs,
    is_lake,
    read_manifest,
)
from pdnkit.tables.bitboards import WHOLE_BITS

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

    from pdnkit.store.ingest import ImportSummary

#: default bytes of a source per task
CHUNK_BYTES = 4 << 20
#: bytes looked at before a cut point to decide whether the line before it is a tag pair
LOOK_BACK = 4096
#: encodings in which a byte offset can be cut at a newline byte
_BYTE_CUTTABLE = ("utf-8", "utf-8-sig", "ascii", "cp1250", "cp1251", "cp1252", "cp866",
                  "latin-1", "iso-8859-1", "iso-8859-5", "koi8-r")

_CANDIDATE = re.compile(rb'\n(?=[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+")')
_TAG_LINE = re.compile(rb'[ \t]*\[[ \t]*[A-Za-z_][\w\-]*[ \t]+"[^"\n]*"[ \t]*\][ \t\r]*\Z')


# --------------------------------------------------------------------------------------------
# cutting a source at game boundaries

def _is_cut(window: bytes) -> bool:
    """Whether a tag line that starts right after ``window`` starts a game: the line before
    it (the tail of ``window``) is not itself a tag pair."""
    if not window.endswith(b"\n"):
        return True  # the start of the file
    prev = window[:-1]
    start = prev.rfind(b"\n") + 1
    return _TAG_LINE.match(prev[start:]) is None


def _read(fs: Any, path: str, start: int, size: int) -> bytes:
    with fs.open(path, "rb") as f:
        f.seek(start)
        data: bytes = f.read(size)
        return data


def find_cut(fs: Any, path: str, offset: int, file_size: int, block: int = 1 << 16) -> int:
    """The first cut point at or after ``offset`` (``file_size`` when there is none).

    Reads only from ``offset - LOOK_BACK`` on, a block at a time, so two tasks given
    neighbouring ranges find the same point between them.

    Example:
        >>> import fsspec
        >>> fs = fsspec.filesystem("memory")
        >>> fs.pipe("/c.pdn", b'[A "1"]\\n[B "2"]\\n1. 32-28 *\\n[A "3"]\\n1. 31-27 *\\n')
        >>> find_cut(fs, "/c.pdn", 1, 45), find_cut(fs, "/c.pdn", 0, 45)
        (27, 0)
    """
    if offset <= 0:
        return 0
    if offset >= file_size:
        return file_size
    base = max(0, offset - LOOK_BACK)
    data = b""
    pos = base
    while pos < file_size:
        new = _read(fs, path, pos, block)
        if not new:
            break
        data += new
        pos += len(new)
        for m in _CANDIDATE.finditer(data):
            p = base + m.end()
            if p < offset:
                continue
            if _is_cut(data[max(0, m.end() - LOOK_BACK):m.end()]):
                return p
        # keep the tail needed to judge a candidate in the next block
        keep = max(0, len(data) - LOOK_BACK - 1)
        base += keep
        data = data[keep:]
        block = min(block * 2, 1 << 24)
    return file_size


# --------------------------------------------------------------------------------------------
# the task

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
    variant: str | None = None
    edition: str | None = None
    #: a legacy encoding's ``encoding-fallback`` as the whole file's reading words it: the
    #: file offset of the first non-ASCII byte and the message; the task holding that byte
    #: puts the finding on the game of its line
    fallback: tuple[int, str] | None = None
    #: the whole file in one task: read it exactly as ``read_games`` reads a file
    whole: bool = False
    #: irregular moves: "stand" (where the rules let them) or "stop" (see ``replay``)
    irregular: str = "stand"
    #: the file's variant, decided once from its first games (as ``import_files`` does)
    file_guess: Any = None


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


def chunk_id(file_id: int, chunk: int) -> int:
    """The key that ties a chunk's rows to its manifest entry.

    Example:
        >>> chunk_id(3, 2)
        3145730
    """
    return (int(file_id) << 20) | int(chunk)


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
    from pdnkit.store.ingest import BATCH_GAMES, BATCH_PLIES
    from pdnkit.tables.rows import ReportBatch

    fs, path = _fs(task.path)
    start = find_cut(fs, path, task.start, task.size)
    end = find_cut(fs, path, task.end, task.size) if task.end < task.size else task.size
    result = ChunkResult(task.chunk, start, max(start, end), worker_pid=os.getpid())
    data = _read(fs, path, start, end - start) if end > start else b""
    result.lines = data.count(b"\n")
    writer = _PartWriter(task)
    try:
        if data.strip():
            batch = ReportBatch()
            for report in _reports(data, task, start):
                batch.add(report)
                if batch.games_count >= BATCH_GAMES or batch.plies_count >= BATCH_PLIES:
                    writer.write(batch, result)
                    batch = ReportBatch()
            writer.write(batch, result)
        result.layouts = writer.layouts()
        result.parts = writer.close()
    except BaseException:
        writer.abort()
        raise
    result.rows = dict(writer.rows)
    result.peak_rss_mb = _peak_rss_mb()
    return result


def _reports(data: bytes, task: ChunkTask, start: int) -> Iterator[Any]:
    """The validator's reports of a chunk's games, read as the whole file would read them:
    the file's encoding, and its ``encoding-fallback`` finding on the game holding the
    file's first non-ASCII byte (in whichever chunk that is)."""
    import io

    from pdnkit.findings import make_finding
    from pdnkit.pdn import read_games
    from pdnkit.replay import replay

    enc = None if task.whole else _chunk_encoding(task.encoding, start)
    note_line = None
    if task.fallback is not None and start <= task.fallback[0] < start + len(data):
        head = data[:task.fallback[0] - start]
        note_line = head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1
    for record in read_games(io.BytesIO(data), file=task.path, encoding=enc):
        if note_line is not None and (record.end_line or record.line) >= note_line:
            assert task.fallback is not None
            record.findings.insert(0, make_finding(
                "encoding-fallback", task.fallback[1], file=task.path,
                game_index=record.index, line=note_line,
                details={"encoding": task.encoding}))
            note_line = None
        yield replay(record, variant=task.variant, edition=task.edition,
                     irregular=task.irregular, file_guess=task.file_guess, compact=True)


#: the columns of a table's part where they are not the table's own: a position part keeps
#: each bitboard whole (a decimal), as parts always did, whatever the board's size
_PART_COLUMNS = {"position_bits": f"game_id, ply, layout, black, {WHOLE_BITS}"}


class _PartWriter:
    """Streams a chunk's rows into one Parquet part per table (row groups of a batch each),
    built by the loader's own SQL in an in-memory DuckDB, renamed into place on close."""

    def __init__(self, task: ChunkTask) -> None:
        import duckdb

        from pdnkit.store.db import ensure_schema

        self.task = task
        self.fs, self.root = _fs(task.lake)
        self.con = duckdb.connect(":memory:")
        self.con.execute("SET threads = 1")
        ensure_schema(self.con)
        self.writers: dict[str, Any] = {}
        self.files: dict[str, Any] = {}
        self.tmp: dict[str, str] = {}
        self.rows: dict[str, int] = {t: 0 for t in LAKE_TABLES}
        self.games = 0
        self.key = chunk_id(task.file_id, task.chunk)

    def write(self, batch: Any, result: ChunkResult) -> None:
        from pdnkit.tables.load import load_batch

        if not batch.games_count:
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


# --------------------------------------------------------------------------------------------
# the manifest

def _write_entry(fs: Any, root: str, entry: SourceEntry) -> None:
    folder = f"{root}/{MANIFEST}"
    fs.makedirs(folder, exist_ok=True)
    tmp = f"{folder}/.tmp-{entry.sha256}-{uuid.uuid4().hex}"
    with fs.open(tmp, "wb") as f:
        f.write(json.dumps(asdict(entry), indent=1).encode("utf-8"))
    fs.mv(tmp, f"{folder}/{entry.sha256}.json")


def _remove_entry(fs: Any, root: str, entry: SourceEntry) -> None:
    """Take a source out of the lake: its manifest entry first, then its parts."""
    fs.rm(f"{root}/{MANIFEST}/{entry.sha256}.json")
    for chunk in entry.chunks:
        for part in chunk.get("parts", {}).values():
            if fs.exists(part):
                fs.rm(part)


# --------------------------------------------------------------------------------------------
# the client

class Engine:
    """Runs chunk tasks: ``submit`` returns futures in any order through ``as_completed``."""

    def map(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:
        """Release what the engine started."""


class LocalEngine(Engine):
    """Runs the tasks one after another in this process (no Dask needed)."""

    def map(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]:
        for t in tasks:
            yield run_chunk(t)


class DaskEngine(Engine):
    """Runs the tasks on a ``dask.distributed`` cluster: the one at ``scheduler`` (an
    address), else a ``LocalCluster`` of ``workers`` single-threaded worker processes started
    here and closed with the engine. A task whose worker dies is run again elsewhere
    (``retries``); its parts are simply written again."""

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 retries: int = 2, memory_limit: str | None = "auto") -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as exc:  # API misuse: the extra is not installed
            raise ImportError("engine 'dask' needs the dask extra: "
                              "pip install 'pdnkit[dask]'") from exc
        self.cluster = None
        self.retries = retries
        if scheduler:
            self.client = Client(scheduler)
        else:
            n = max(1, int(workers or os.cpu_count() or 1))
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                        dashboard_address=None, memory_limit=memory_limit)
            self.client = Client(self.cluster)

    def map(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]:
        from dask.distributed import as_completed

        futures = [self.client.submit(run_chunk, t, pure=False, retries=self.retries,
                                      key=f"pdnkit-chunk-{t.file_id}-{t.chunk}-{uuid.uuid4().hex}")
                   for t in tasks]
        try:
            # on this client's event loop: as_completed would otherwise use the default
            # client's, which is another one when the caller holds a client of its own
            # (``with Client(...)``), and a future then waits on an event of the wrong loop
            for fut in as_completed(futures, loop=self.client.loop):
                yield fut.result()
        finally:
            for fut in futures:
                fut.release()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def make_engine(engine: str, scheduler: str | None = None,
                workers: int | None = None) -> Engine:
    """The engine named ``engine``: ``"local"`` (this process) or ``"dask"``.

    Example:
        >>> type(make_engine("local")).__name__
        'LocalEngine'
    """
    if engine == "local":
        return LocalEngine()
    if engine == "dask":
        return DaskEngine(scheduler, workers)
    raise ValueError(f"unknown engine {engine!r} (local or dask)")


def plan_chunks(lake: str, path: str, size: int, file_id: int, encoding: str,
                chunk_bytes: int, variant: str | None, edition: str | None,
                fallback: tuple[int, str] | None = None,
                whole: bool = False) -> list[ChunkTask]:
    """The tasks of one source: byte ranges of ``chunk_bytes`` (one task for a source whose
    encoding cannot be cut at a newline byte, e.g. UTF-16). ``whole``: a source that fits
    one task is read exactly as ``read_games`` reads a file (its own encoding detection).

    Example:
        >>> [(t.start, t.end) for t in plan_chunks("l", "f", 10, 1, "utf-8", 4, None, None)]
        [(0, 4), (4, 8), (8, 10)]
    """
    step = max(1, int(chunk_bytes))
    if encoding.lower() not in _BYTE_CUTTABLE:
        step = max(size, 1)
    offsets = list(range(0, max(size, 1), step)) or [0]
    single = whole and len(offsets) == 1
    return [ChunkTask(lake, path, file_id, k, off, min(off + step, size), size, encoding,
                      variant, edition, None if single else fallback, single)
            for k, off in enumerate(offsets)]


def _scan(fs: Any, path: str) -> tuple[str, int, int]:
    """(sha256, offset of the first non-ASCII byte or -1, its line) in one pass over the
    source (the hash needs every byte anyway; lines counted as the reader counts them)."""
    import hashlib

    h = hashlib.sha256()
    first = -1
    line = 1
    pos = 0
    last_cr = False
    with fs.open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            if first < 0:
                stripped = len(block) - len(block.lstrip(bytes(range(128))))
                seen = block[:stripped] if stripped < len(block) else block
                line += seen.count(b"\n") + seen.count(b"\r") - seen.count(b"\r\n")
                if last_cr and seen.startswith(b"\n"):
                    line -= 1
                last_cr = seen.endswith(b"\r")
                if stripped < len(block):
                    first = pos + stripped
            pos += len(block)
    return h.hexdigest(), first, line


def _encoding(fs: Any, path: str, encoding: str | None, first: int, line: int
              ) -> tuple[str, tuple[int, str] | None]:
    """The source's encoding, decided as the reader decides it (byte order mark or NUL
    pattern; else from at most a window of bytes from the first non-ASCII byte on), and
    the ``encoding-fallback`` note for a legacy encoding (or as given: no note)."""
    if encoding:
        return encoding, None
    import codecs

    from pdnkit.pdn.decode import WINDOW, decide, detect_wide, is_legacy

    head = _read(fs, path, 0, 4096)
    wide = detect_wide(head)
    if wide is not None:
        return wide, None
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig", None
    if first < 0:
        return "utf-8", None
    enc = decide(_read(fs, path, first, WINDOW))
    if not is_legacy(enc):
        return enc, None
    return enc, (first, f"the file is not UTF-8; decoded as {enc} "
                        f"(first non-ASCII byte on line {line})")


def _file_guess(src: str, variant: str | None, edition: str | None,
                encoding: str | None) -> Any:
    """The file's variant from its first games (a bounded prefix: see
    :func:`pdnkit.validation.pipeline.file_guess_of`); ``None`` for a URL."""
    if "://" in src:
        return None
    from pdnkit.validation.pipeline import file_guess_of

    return file_guess_of(Path(src), variant, edition, encoding)


def _sources(paths: Iterable[str | Path]) -> list[str]:
    """Files to import: local files and folders as ``import_files`` takes them; URLs as
    given (a URL folder: its ``*.pdn`` files)."""
    from pdnkit.store.ingest import collect_paths

    out: list[str] = []
    for p in paths:
        s = str(p)
        if "://" in s:
            fs, root = _fs(s)
            if fs.isdir(root):
                proto = s.split("://", 1)[0]
                out += [f"{proto}://{q}" for q in sorted(fs.find(root))
                        if str(q).lower().endswith(".pdn")]
            else:
                out.append(s)
        else:
            out += [str(q) for q in collect_paths([p])]
    return out


def import_lake(paths: Iterable[str | Path] | str | Path, lake: str | Path,
                variant: str | None = None, *, edition: str | None = None,
                engine: str | Engine = "dask", scheduler: str | None = None,
                workers: int | None = None, chunk_bytes: int = CHUNK_BYTES,
                replace: bool = False, encoding: str | None = None,
                progress: bool = False, irregular: str = "stand") -> ImportSummary:
    """Import PDN files into the lake ``lake`` (a folder or fsspec URL), one task per chunk.

    ``engine``: ``"dask"`` (the cluster at ``scheduler``, else a ``LocalCluster`` of
    ``workers`` processes), ``"local"`` (this process) or an :class:`Engine`. A source whose
    sha256 is in the manifest is skipped (``replace`` reloads it); ``encoding`` and
    ``irregular`` as for ``import_files``. Returns the same
    :class:`~pdnkit.store.ingest.ImportSummary` as ``import_files``.

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "g.pdn").write_text('[GameType "25"]\\n1. c3-d4 f6-g5 *\\n')
        >>> import_lake(d / "g.pdn", d / "lake", engine="local").plies
        2
    """
    from pdnkit.store.ingest import FileResult, ImportSummary

    start_time = time.perf_counter()
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if variant is not None:
        from pdnkit.rules import get_rules

        get_rules(variant)
    sources = _sources(paths)
    fs, root = _fs(lake)
    fs.makedirs(f"{root}/{MANIFEST}", exist_ok=True)
    summary = ImportSummary(db=str(lake))
    entries = {e.sha256: e for e in read_manifest(lake)}
    next_file = max((e.file_id for e in entries.values()), default=0) + 1
    next_game = max((e.game_base + e.games for e in entries.values()), default=1)
    eng = make_engine(engine, scheduler, workers) if isinstance(engine, str) else engine
    bar = _LakeProgress(len(sources)) if progress else None
    try:
        for src in sources:
            sfs, spath = _fs(src)
            sha, first, first_line = _scan(sfs, spath)
            old = entries.get(sha)
            if old is not None and not replace:
                summary.files.append(FileResult(src, "skipped", sha, old.file_id))
                if bar:
                    bar.file_done()
                continue
            if old is not None:
                _remove_entry(fs, root, old)
            size = int(sfs.size(spath))
            enc, fallback = _encoding(sfs, spath, encoding, first, first_line)
            tasks = plan_chunks(str(lake), src, size, next_file, enc, chunk_bytes, variant,
                                edition, fallback, whole=encoding is None)
            guess = _file_guess(src, variant, edition, encoding)
            tasks = [replace_field(t, irregular=irregular, file_guess=guess) for t in tasks]
            results = []
            for res in eng.map(tasks):
                results.append(res)
                if bar:
                    bar.games(res.games)
            entry = _entry(src, sha, size, enc, next_file, next_game, results)
            _write_entry(fs, root, entry)
            entries[sha] = entry
            summary.files.append(FileResult(src, "replaced" if old else "imported", sha,
                                            next_file, entry.games,
                                            sum(r.plies for r in results)))
            _add_totals(summary, results)
            next_file += 1
            next_game += entry.games
            if bar:
                bar.file_done()
    finally:
        if bar:
            bar.close()
        if isinstance(engine, str):
            eng.close()
    summary.seconds = time.perf_counter() - start_time
    return summary


def _entry(src: str, sha: str, size: int, enc: str, file_id: int, game_base: int,
           results: list[ChunkResult]) -> SourceEntry:
    """The manifest entry of a source whose chunks all came back: each chunk's bases are
    the sums over the chunks before it, in byte order."""
    from pdnkit import __version__

    results = sorted(results, key=lambda r: r.chunk)
    chunks = []
    games = lines = 0
    rows = {t: 0 for t in LAKE_TABLES}
    for r in results:
        chunks.append({"chunk": r.chunk, "key": chunk_id(file_id, r.chunk), "start": r.start,
                       "end": r.end, "game_base": game_base + games, "index_base": games,
                       "line_base": lines, "games": r.games, "rows": r.rows,
                       "parts": r.parts, "worker_pid": r.worker_pid,
                       "layouts": [list(x) for x in r.layouts],
                       "peak_rss_mb": round(r.peak_rss_mb, 1)})
        games += r.games
        lines += r.lines
        for t, n in r.rows.items():
            rows[t] = rows.get(t, 0) + n
    return SourceEntry(sha, src, size, enc, file_id, game_base, games,
                       datetime.now().isoformat(timespec="seconds"), __version__, chunks, rows)


def _add_totals(summary: ImportSummary, results: list[ChunkResult]) -> None:
    for r in results:
        summary.games += r.games
        summary.plies += r.plies
        summary.replayed_plies += r.replayed_plies
        summary.findings += r.findings
        summary.status_counts.update(r.status_counts)
        summary.code_counts.update(r.code_counts)


class _LakeProgress:
    """A rich progress bar (files, games) on a terminal."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        from pdnkit.store.ingest import _is_terminal

        self.n = 0
        self.progress = Progress(TextColumn("[bold]lake import[/bold]"), BarColumn(),
                                 MofNCompleteColumn(), TextColumn("files  {task.fields[games]} games"),
                                 console=Console(stderr=True), transient=True,
                                 disable=not _is_terminal())
        self.task = self.progress.add_task("lake", total=total, games=0)
        self.progress.start()

    def games(self, n: int) -> None:
        self.n += n
        self.progress.update(self.task, games=self.n)

    def file_done(self) -> None:
        self.progress.advance(self.task)

    def close(self) -> None:
        self.progress.stop()


# --------------------------------------------------------------------------------------------
# reading a lake

def open_lake(lake: str | Path, con: duckdb.DuckDBPyConnection | None = None
              ) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views over the lake (see
    :func:`pdnkit.store.lakeview.open_lake`); ``pdnkit.store.connect(DIR)`` gives the same.

    Example:
        >>> import tempfile
        >>> d = tempfile.mkdtemp()
        >>> _ = import_lake([], d, engine="local")
        >>> open_lake(d).execute("SELECT count(*) FROM games").fetchall()[0][0]
        0
    """
    from pdnkit.store.db import refresh_variants, schema_sql

    return lakeview.open_lake(lake, con, schema=schema_sql(), setup=refresh_variants)


def compact(lake: str | Path, target_rows: int = 2_000_000) -> int:
    """Merge the small parts of each source into fewer, larger ones (about ``target_rows``
    positions each); returns the number of parts removed. Each merged part is written under
    a temporary name, the manifest entry is rewritten to name it, then the old parts go.

    Example:
        >>> import tempfile
        >>> compact(tempfile.mkdtemp())
        0
    """
    import pyarrow.parquet as pq

    fs, root = _fs(lake)
    removed = 0
    for entry in read_manifest(lake):
        groups: list[list[dict[str, Any]]] = [[]]
        rows = 0
        for c in entry.chunks:
            n = int(c.get("rows", {}).get("position_bits", 0))
            if groups[-1] and rows + n > target_rows:
                groups.append([])
                rows = 0
            groups[-1].append(c)
            rows += n
        if all(len(g) <= 1 for g in groups):
            continue
        old_parts = [p for c in entry.chunks for p in c.get("parts", {}).values()]
        new_chunks = []
        for group in groups:
            head = dict(group[0])
            if len(group) > 1:
                head = _merge_group(fs, root, entry, group, pq)
            new_chunks.extend([head] + [dict(c, parts={}) for c in group[1:]])
        entry.chunks = new_chunks
        _write_entry(fs, root, entry)
        keep = {p for c in new_chunks for p in c.get("parts", {}).values()}
        for p in old_parts:
            if p not in keep and fs.exists(p):
                fs.rm(p)
                removed += 1
    return removed


def _merge_group(fs: Any, root: str, entry: SourceEntry, group: list[dict[str, Any]],
                 pq: Any) -> dict[str, Any]:
    """One part per table holding every chunk of ``group`` (each row keeps its chunk key,
    so the views' bases still apply); returns the group's first chunk naming the new parts."""
    head = dict(group[0])
    parts: dict[str, str] = {}
    for table in LAKE_TABLES:
        old, convert = lakeview._LEGACY.get(table, (None, None))
        files = [(c["parts"][table], None) if table in c.get("parts", {}) else
                 (c["parts"][old], convert) for c in group
                 if table in c.get("parts", {}) or old in c.get("parts", {})]
        if not files:
            continue
        final = f"{root}/{table}/merged-{entry.file_id:08d}-{group[0]['chunk']:05d}-{uuid.uuid4().hex[:8]}.parquet"
        tmp = final + ".tmp"
        writer = None
        with fs.open(tmp, "wb") as out:
            for f, select in files:
                with fs.open(f, "rb") as src:
                    t = pq.read_table(src)
                if select is not None:  # a part written before schema version 3
                    t = _converted(t, select)
                if writer is None:
                    writer = pq.ParquetWriter(out, t.schema, compression="zstd")
                writer.write_table(t)
            if writer is not None:
                writer.close()
        fs.mv(tmp, final)
        parts[table] = final
    head["parts"] = parts
    return head


def _converted(table: pa.Table, select: str) -> pa.Table:
    """A part written before schema version 3 as its table is written now (``select``, from
    :data:`pdnkit.store.lakeview._LEGACY`, over the old columns; the chunk key kept)."""
    import duckdb

    from pdnkit.store.db import schema_sql

    con = duckdb.connect()
    try:
        con.execute(schema_sql())
        out = con.from_arrow(table).query("_part", f"SELECT {select}, chunk FROM _part").arrow()
        return out.read_all() if hasattr(out, "read_all") else out
    finally:
        con.close()


def lake_summary(lake: str | Path) -> dict[str, Any]:
    """Sources, games, rows per table, parts and bytes on disk of a lake.

    Example:
        >>> import tempfile
        >>> lake_summary(tempfile.mkdtemp())["sources"]
        0
    """
    fs, root = _fs(lake)
    entries = read_manifest(lake)
    parts = [p for e in entries for c in e.chunks for p in c.get("parts", {}).values()]
    size = sum(int(fs.size(p)) for p in parts if fs.exists(p))
    rows: dict[str, int] = {t: 0 for t in LAKE_TABLES}
    current = {old: table for table, (old, _) in lakeview._LEGACY.items()}
    for e in entries:
        for t, n in e.rows.items():
            t = current.get(t, t)  # a table under its name before schema version 3
            rows[t] = rows.get(t, 0) + n
    return {"lake": str(lake), "sources": len(entries), "games": sum(e.games for e in entries),
            "parts": len(parts), "bytes": size, "rows": rows}


__all__ = ["import_lake", "open_lake", "is_lake", "compact", "read_manifest", "lake_summary",
           "find_cut", "plan_chunks", "run_chunk", "make_engine", "ChunkTask", "ChunkResult",
           "SourceEntry", "Engine", "LocalEngine", "DaskEngine", "LAKE_TABLES", "CHUNK_BYTES"]

