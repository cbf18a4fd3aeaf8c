"""``import_files``: read, replay and load PDN files into the database.

Each file is loaded in bulk: Arrow tables of a few hundred games at a time are streamed into
the tables (never row by row, never the whole file in memory), all inside one transaction per
file, so a file is either fully in the database or absent, even after Ctrl-C, a kill or a
crash, however large it is. DuckDB's memory stays bounded while importing (``memory_limit``,
``preserve_insertion_order = false``, spilling to ``temp_directory``; see
:data:`IMPORT_SETTINGS`). A file whose bytes are already in the database is skipped (content
hash), and its path is recorded in ``file_paths`` (the same bytes under another name are one
file with two paths); ``replace=True`` reloads it. A file whose path is in the database with
other bytes (it was edited) replaces its older version (or, when that version is also known
under another name, only stops being one of its paths). With ``jobs`` > 1 on the pure core,
worker processes read, replay and build the rows (plain Python columns: no Arrow work in the
workers); this process cuts the file into game texts, numbers the games and loads the rows. On
the compiled core a file goes to the workers in parts of its bytes, which they scan, replay and
make into Arrow tables themselves (:class:`pdnkit.rows.packed.PackingBatch`); this process
numbers the parts' games in file order and loads them. Either way whether the workers pay is
the cost model's decision (:mod:`pdnkit.validation.costs`, on the first games' rate and the
idle cores); where they do not, the import is this process's. On the compiled core this
process's DuckDB work (the load, the index, the settling) is about half of a one-process
import's CPU, so on two cores its workers pay only where the second core is idle; the steps
after the load run on the DuckDB threads ``jobs`` grants. A worker that stops answering
(stopped, hung) is killed after
:func:`pdnkit.validation.parts.stall_seconds` and its games are read here: the import never
waits for ever, and loads what one process loads.

Example:
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.pdn").write_text('[GameType "20"]\\n1. 32-28 19-23 *\\n')
    >>> s = import_files([d], db=d / "t.duckdb")
    >>> s.imported, s.games
    (1, 1)
    >>> import_files([d / "a.pdn"], db=d / "t.duckdb").skipped
    1
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError
from pdnkit.rows.batch import ReportBatch
from pdnkit.rows.load import load_batch
from pdnkit.rows.packed import PackedBatch, PackingBatch
from pdnkit.store import copies, steps
from pdnkit.store.db import DatabaseError, DbLike, database_error, ensure_variants, opened
from pdnkit.store.gamesquares import add_games
from pdnkit.store.opencounts import settle_counts
from pdnkit.store.openingdb import mark_loaded, mark_removed, settle_import
from pdnkit.store.posindex import IndexPairs, index_games, settle_index
from pdnkit.store.progress import ImportProgress
from pdnkit.store.transaction import rollback
from pdnkit.validation.flow import run
from pdnkit.validation.inputs import collect_paths
from pdnkit.validation.pipeline import check_arguments
from pdnkit.validation.runoptions import RunOptions

if TYPE_CHECKING:
    from concurrent.futures import Executor

    import duckdb
    import pyarrow as pa

    from pdnkit.validation.jobs import Workers

#: DuckDB settings while importing (on connections opened by ``import_files``): a bounded
#: buffer pool that spills to disk, and no ordering work for the bulk inserts
IMPORT_SETTINGS = {
    "memory_limit": "96MB",
    "preserve_insertion_order": "false",
    "threads": "1",
}


@contextlib.contextmanager
def _tail_threads(con: duckdb.DuckDBPyConnection, threads: int, own: bool) -> Iterator[None]:
    """DuckDB on ``threads`` threads (the cores ``--jobs`` grants) for the steps after a
    file's rows are in (its positions' index, its squares, the settling), then 1 again: the
    cores that replayed while the rows streamed in are idle by then. The memory limit is
    the same, shared. A connection the caller opened (``own`` false) keeps its settings."""
    if not own or threads <= 1:
        yield
        return
    reset = f"SET threads = {IMPORT_SETTINGS['threads']}"
    con.execute(f"SET threads = {int(threads)}")
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):  # (a failed transaction refuses it: the error
            con.execute(reset)  # raised is the step's, not this one's)
        raise
    con.execute(reset)


@dataclass
class FileResult:
    """What happened to one file: ``status`` is ``imported``, ``replaced`` (reloaded with
    ``replace``), ``updated`` (same path, new content), ``skipped`` (already loaded) or
    ``failed`` (``message`` says why; nothing of it was loaded). A file skipped because its
    bytes were loaded under another name says so in ``message`` (``same bytes as PATH``)."""

    path: str
    status: str
    sha256: str = ""
    file_id: int | None = None
    games: int = 0
    plies: int = 0
    message: str = ""


@dataclass
class ImportSummary:
    """Totals of one import. ``str(summary)`` is the text the CLI prints.

    Example:
        >>> s = ImportSummary(db="x.duckdb")
        >>> s.games, s.imported, s.games_per_second
        (0, 0, 0.0)
    """

    db: str
    files: list[FileResult] = field(default_factory=list)
    games: int = 0
    plies: int = 0
    replayed_plies: int = 0
    findings: int = 0
    status_counts: Counter[str] = field(default_factory=Counter)
    code_counts: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    #: records of the database that are copies of a game counted once (after the import),
    #: and pairs of probable copies left for a user to rule on (pdnkit duplicates)
    copies: int = 0
    probable: int = 0

    @property
    def imported(self) -> int:
        """Files loaded by this import (new, replaced or updated)."""
        return sum(f.status in ("imported", "replaced", "updated") for f in self.files)

    @property
    def skipped(self) -> int:
        """Files already in the database with the same content."""
        return sum(f.status == "skipped" for f in self.files)

    @property
    def failed(self) -> int:
        """Files that could not be loaded."""
        return sum(f.status == "failed" for f in self.files)

    @property
    def games_per_second(self) -> float:
        """Games loaded per second of wall-clock time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the summary."""
        return {
            "db": self.db, "imported": self.imported, "skipped": self.skipped,
            "failed": self.failed, "games": self.games, "plies": self.plies,
            "replayed_plies": self.replayed_plies, "findings": self.findings,
            "status": dict(self.status_counts), "codes": dict(self.code_counts),
            "seconds": round(self.seconds, 3), "copies": self.copies,
            "probable": self.probable,
            "files": [f.__dict__ for f in self.files],
        }

    def __str__(self) -> str:
        lines = [
            f"{self.imported} file(s) imported, {self.skipped} already present"
            + (f", {self.failed} failed" if self.failed else "")
            + f" -> {self.db}",
            f"{self.games} games, {self.plies} plies ({self.replayed_plies} replayed), "
            f"{self.findings} findings in {self.seconds:.1f} s "
            f"({self.games_per_second:.0f} games/s)",
        ]
        if self.status_counts:
            lines.append("status: " + ", ".join(
                f"{k} {v}" for k, v in sorted(self.status_counts.items())))
        if self.code_counts:
            top = self.code_counts.most_common(8)
            lines.append("findings: " + ", ".join(f"{k} {v}" for k, v in top)
                         + (" ..." if len(self.code_counts) > 8 else ""))
        if self.copies or self.probable:
            lines.append(f"copies: {self.copies} record(s) are copies of a game counted once"
                         + (f", {self.probable} pair(s) of probable copies to rule on"
                            if self.probable else "") + " (pdnkit duplicates)")
        for f in self.files:
            if f.status == "failed":
                lines.append(f"failed: {f.path}: {f.message}")
            elif f.status == "skipped" and f.message:
                lines.append(f"already present: {f.path}: {f.message}")
        return "\n".join(lines)


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes (read in blocks).

    Example:
        >>> import tempfile
        >>> with tempfile.NamedTemporaryFile(delete=False) as f:
        ...     _ = f.write(b"abc")
        >>> file_sha256(f.name)[:16]
        'ba7816bf8f01cfea'
    """
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------------------------
# producing row batches (the validator's pipeline: in this process, or in worker processes)

#: games of a file sent to a worker process at a time
WORKER_GAMES = 200


def _batches(path: Path, options: RunOptions, workers: Workers | None = None
             ) -> Iterator[ReportBatch | PackedBatch]:
    """The row batches of ``path``, in file order, each up to :meth:`ReportBatch.full`
    (:func:`pdnkit.validation.run`: with ``workers``, once they pay, they read, replay and
    build the rows, and this process gathers them; a batch a worker packed is handed on as
    it came)."""
    merged: ReportBatch | None = None
    for got in run(path, options, PackingBatch, workers=workers, chunk_size=WORKER_GAMES):
        rows: ReportBatch | PackedBatch = got
        if isinstance(rows, PackedBatch):
            if merged is not None:
                yield merged
                merged = None
            yield rows
            continue
        if merged is None:
            merged = rows
        else:
            merged.extend(rows)
        if merged.full():
            yield merged
            merged = None
    if merged is not None:
        yield merged


class FileFault(Exception):
    """Reading or replaying a file failed in pdnkit's own code (not the database): the file
    is reported failed and the import goes on with the next one."""


def _guarded(batches: Iterator[ReportBatch | PackedBatch]
             ) -> Iterator[ReportBatch | PackedBatch]:
    """``batches``, a fault while producing them (not an I/O or decoding error, which
    the caller reports as they are) raised as :class:`FileFault`; faults of the loader
    itself (the database) are not caught here."""
    try:
        yield from batches
    except (OSError, UnicodeError):
        raise
    except Exception as exc:  # noqa: BLE001 - one file never stops the others
        raise FileFault(f"internal error: {type(exc).__name__}: {exc}") from exc


# --------------------------------------------------------------------------------------------
# the writer

#: row batches waiting for the writer thread (bounds the memory of the pipeline)
WRITE_QUEUE = 2


class _Writer:
    """Loads the batches of one file into its open transaction from a thread of its own.

    DuckDB runs an ``INSERT`` without holding the GIL, so while this thread loads one batch
    the calling thread reads and replays the next: the database work overlaps the Python
    work instead of adding to it. The connection is used by this thread alone between
    construction and :meth:`close`/:meth:`abort` (nothing else runs on it meanwhile), so
    every batch still lands in the caller's transaction, in order. A load that fails stops
    the writer; the error is raised in the caller by the next :meth:`put` or :meth:`close`.
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, file_id: int) -> None:
        import queue
        import threading

        self.con = con
        self.file_id = file_id
        self.pairs = IndexPairs(con)  # the index pairs of the file, taken as it is loaded
        self.queue: queue.Queue[tuple[dict[str, pa.Table], list[Any], int] | None] = (
            queue.Queue(WRITE_QUEUE))
        self.error: BaseException | None = None
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="pdnkit-import-writer",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None or self.stopping:
                return
            if self.error is not None:
                continue  # failed: let the caller's puts through until it notices
            tables, layouts, offset = item
            try:
                load_batch(self.con, tables, self.file_id, offset, layouts, self.pairs)
            except BaseException as exc:  # handed to the caller
                self.error = exc

    def _check(self) -> None:
        if self.error is not None:
            raise self.error

    def put(self, batch: ReportBatch | PackedBatch, game_offset: int) -> None:
        """Queue ``batch`` (its games numbered from ``game_offset``); blocks while
        :data:`WRITE_QUEUE` batches are waiting."""
        self._check()
        self.queue.put((batch.to_arrow(), batch.layouts, game_offset))

    def close(self) -> None:
        """Wait until every queued batch is loaded; raises the first load error."""
        self.queue.put(None)
        self.thread.join()
        self._check()

    def abort(self) -> None:
        """Stop after the load in progress (queued batches are dropped) and wait for it."""
        import queue

        self.stopping = True
        while self.thread.is_alive():
            with contextlib.suppress(queue.Empty):
                self.queue.get_nowait()
            with contextlib.suppress(queue.Full):
                self.queue.put_nowait(None)
            self.thread.join(0.05)


def _delete_files(con: duckdb.DuckDBPyConnection, file_ids: list[int]) -> None:
    if not file_ids:
        return
    ids = ", ".join(str(int(i)) for i in file_ids)
    games = f"SELECT game_id FROM games WHERE file_id IN ({ids})"
    for table in ("move_rows", "position_bits", "early_positions", "game_squares",
                  "game_stretches", "rule_events", "evals"):
        con.execute(f"DELETE FROM {table} WHERE game_id IN ({games})")
    con.execute(f"DELETE FROM findings WHERE file_id IN ({ids})")
    con.execute(f"DELETE FROM games WHERE file_id IN ({ids})")
    con.execute(f"DELETE FROM file_paths WHERE file_id IN ({ids})")
    con.execute(f"DELETE FROM files WHERE file_id IN ({ids})")


def _next_id(con: duckdb.DuckDBPyConnection, table: str, column: str) -> int:
    return int(con.execute(f"SELECT coalesce(max({column}), 0) + 1 FROM {table}").fetchall()[0][0])


def _import_one(con: duckdb.DuckDBPyConnection, path: Path, sha: str, status: str,
                old_ids: list[int], options: RunOptions, summary: ImportSummary,
                on_games: Callable[[int, int], None] | None, workers: Workers | None = None,
                label: str | None = None, tail_threads: int = 1,
                own_settings: bool = False) -> FileResult:
    label = label or str(path)  # the name recorded (a spooled copy of stdin is read)
    result = FileResult(label, status, sha)
    con.execute("BEGIN TRANSACTION")
    file_id: int | None = None
    writer: _Writer | None = None
    try:
        kept_paths = con.execute(  # a reloaded file keeps its other names
            "SELECT path, min(first_seen) FROM file_paths WHERE file_id IN (SELECT file_id "
            "FROM files WHERE sha256 = ?) AND path <> ? GROUP BY path", [sha, label]
        ).fetchall() if status == "replaced" else []
        mark_removed(con, old_ids)  # the games whose novelty the removal changes
        copies.mark_removed(con, old_ids)  # ... and whose group of copies
        _delete_files(con, old_ids)
        file_id = _next_id(con, "files", "file_id")
        next_game = first_game = _next_id(con, "games", "game_id")
        file_encoding: str | None = None
        file_status: Counter[str] = Counter()
        file_codes: Counter[str] = Counter()
        replayed = findings = 0
        writer = _Writer(con, file_id)
        for batch in _guarded(_batches(path, options, workers)):
            n = batch.games_count
            if n or batch.findings_count:  # (findings about the file alone: no game)
                writer.put(batch, next_game)
            next_game += n
            result.games += n
            result.plies += batch.plies_count
            replayed += batch.replayed_count
            findings += batch.findings_count
            file_status.update(batch.status_counts)
            file_codes.update(batch.code_counts)
            file_encoding = file_encoding or batch.encoding
            if on_games is not None and n:
                on_games(n, _text_size(batch))
        writer.close()
        pairs, writer = writer.pairs, None
        steps.reached("import.rows-loaded")
        with _tail_threads(con, tail_threads, own_settings):
            index_games(con, first_game, next_game, pairs)  # the file's positions indexed
            add_games(con, first_game, next_game)  # and the squares of its games
        mark_loaded(con, first_game, next_game)  # openings settled at the import's end
        copies.mark_loaded(con, first_game, next_game)  # groups of copies too, first
        con.execute(
            "INSERT INTO files (file_id, path, sha256, size, encoding, games, imported_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [file_id, label, sha, path.stat().st_size, file_encoding, result.games,
             datetime.now()])
        con.execute("INSERT INTO file_paths VALUES (?, ?, ?)", [file_id, label, datetime.now()])
        for other, first_seen in kept_paths:
            con.execute("INSERT INTO file_paths VALUES (?, ?, ?)", [file_id, other, first_seen])
        steps.reached("import.file-loaded")
        con.execute("COMMIT")
    except BaseException:
        if writer is not None:
            writer.abort()
        rollback(con)
        raise
    result.file_id = file_id
    summary.games += result.games
    summary.plies += result.plies
    summary.replayed_plies += replayed
    summary.findings += findings
    summary.status_counts.update(file_status)
    summary.code_counts.update(file_codes)
    return result


def import_files(paths: Iterable[str | Path] | str | Path, db: DbLike = None,
                 variant: str | None = None, jobs: int = 1, replace: bool = False,
                 progress: bool = False, *, edition: str | None = None,
                 encoding: str | None = None, irregular: str = "stand",
                 openings: Iterable[str | Path] = ()) -> ImportSummary:
    """Read, replay and load PDN files and folders into a pdnkit database.

    ``paths`` are files or folders (every ``*.pdn`` below a folder); ``db`` a database path
    (default ``pdnkit.duckdb`` here) or an open connection; ``variant``/``edition`` apply to
    games whose tags do not name one; ``jobs`` worker processes parse and replay while this
    process writes, where the cost model finds they pay (see the module's doc); ``replace``
    reloads files already present; ``progress`` shows a progress
    bar (files, games, games/s) on a terminal; ``encoding`` (a codec name) skips encoding
    detection; ``irregular`` (``"stand"`` or ``"stop"``) as for
    :func:`pdnkit.validation.replay`. ``-`` (standard input), a FIFO or ``/dev/stdin`` is read once into a temporary
    copy (hashed on the way) and recorded under its own name (``<stdin>`` for ``-``).
    ``openings``: CSV tables of named openings for the games of ``variant``, stored in the
    database first (:func:`pdnkit.store.openingdb.load_opening_table`, one replaced if loaded
    before). Every game gets its opening columns and its novelty
    (:mod:`pdnkit.store.openingdb`). Returns an :class:`ImportSummary`.

    While it runs, the interpreter's thread switch interval is shortened and the automatic
    garbage collector is off, with a full pass every 20,000 games (see ``_import_tuning``);
    both are restored when it returns.

    Example:
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "g.pdn").write_text('[GameType "25"]\\n1. c3-d4 f6-g5 *\\n')
        >>> import_files(d / "g.pdn", db=d / "g.duckdb").plies
        2
    """
    start = time.perf_counter()
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if variant is not None:
        from pdnkit.rules import get_rules

        get_rules(variant)  # an unknown name is API misuse: UnknownVariantError (ValueError)
    check_arguments(variant, edition, "auto")
    if irregular not in ("stand", "stop"):
        raise ArgumentError(f"irregular must be 'stand' or 'stop', got {irregular!r}")
    tables = [Path(t) for t in openings]
    if tables and variant is None:
        raise ArgumentError("openings tables need the variant whose games they name")
    files = collect_paths(paths)
    options = RunOptions(variant=variant, edition=edition, encoding=encoding,
                         irregular=irregular, compact=True)
    jobs = max(1, int(jobs or 1))
    db_name = db if isinstance(db, (str, Path)) else ("pdnkit.duckdb" if db is None else
                                                        "<connection>")
    summary = ImportSummary(db=str(db_name))
    # the worker processes are forked first, from a process that has not yet loaded DuckDB,
    # pyarrow and pandas nor started a thread: lean workers (less memory), no fork of a
    # multi-threaded process, and one pool for every file of the import; whether they are
    # used is decided once, on the measured rate of the first games (validation.costs.Probe)
    from pdnkit.validation.costs import (
        IMPORT_PARENT_SHARE,
        IMPORT_WORKER_COST,
        PARENT_SHARE,
        WORKER_COST,
        could_pay,
        default_jobs,
        input_sizes,
        total_size,
        workers_can_pay,
        worth_workers,
    )
    from pdnkit.validation.jobs import Workers

    granted = min(jobs, default_jobs())  # the cores the user gave (DuckDB's after the load)
    pure = workers_can_pay()  # (the pure core: its workers are handed game texts)
    shares = ((PARENT_SHARE, WORKER_COST) if pure
              else (IMPORT_PARENT_SHARE, IMPORT_WORKER_COST))  # what this process still does
    if jobs > 1 and not (worth_workers(input_sizes(files), jobs) and could_pay(jobs, *shares)):
        jobs = 1  # a few games, or too few cores for workers ever to pay: no workers
    pool = _worker_pool(jobs) if jobs > 1 and files else None
    try:
        workers = None if pool is None else Workers(jobs, total_size(files), pool, *shares)
        if tables:
            _load_tables(db, tables, str(variant))
        _import_all(files, db, options, replace, progress, summary, workers, granted)
    except DatabaseError:
        raise
    except Exception as exc:
        if type(exc).__module__.split(".")[0] not in ("duckdb", "_duckdb"):
            raise
        err = database_error(exc, str(db_name), "write")
        kept = summary.imported
        raise DatabaseError(f"{err}; {kept} file(s) loaded before the error are kept"
                            if kept else str(err)) from None
    finally:
        if pool is not None:  # a worker stopped or hung is killed, never waited for
            from pdnkit._children import close_pool
            from pdnkit.validation.parts import stall_seconds

            close_pool(pool, stall_seconds())
    summary.seconds = time.perf_counter() - start
    return summary


def _load_tables(db: DbLike, tables: list[Path], variant: str) -> None:
    """Store the users' opening tables before the import (each replacing its earlier load)."""
    from pdnkit.store.openingdb import load_opening_table

    with opened(db) as con:
        for t in tables:
            load_opening_table(con, t, variant, replace=True)


def _worker_pool(jobs: int) -> Executor | None:
    """A process pool of ``jobs`` workers, started now; they die with this process, even
    when it is killed outright (:func:`pdnkit._children.process_pool`). ``None`` when they
    do not answer within :func:`~pdnkit.validation.parts.stall_seconds` (a worker stopped
    or hung as it started): the import then runs in this process. Each worker is set up as
    validate's are (:func:`~pdnkit.validation.parts.worker_start`: what it inherited frozen
    out of the garbage collector's walks, its youngest generation collected rarely)."""
    from concurrent.futures import BrokenExecutor
    from concurrent.futures import TimeoutError as StartTimeout

    from pdnkit._children import close_pool, process_pool, stop_workers
    from pdnkit.validation.parts import stall_seconds, worker_start

    pool = process_pool(jobs, worker_start)  # the workers' garbage-collector set-up
    try:
        for fut in [pool.submit(os.getpid) for _ in range(jobs)]:
            fut.result(timeout=stall_seconds())
    except (StartTimeout, BrokenExecutor):
        stop_workers(pool)
        close_pool(pool, 0.0)
        return None
    return pool


def _import_all(files: list[Path], db: DbLike, options: RunOptions, replace: bool,
                progress: bool, summary: ImportSummary, workers: Workers | None,
                jobs: int = 1) -> None:
    from pdnkit.pdn.source import is_regular_file, source_name, spool_copy

    own = isinstance(db, (str, Path)) or db is None  # (a caller's connection: its settings)
    with opened(db) as con, _import_tuning() as pacer:
        if own:
            for name, value in IMPORT_SETTINGS.items():
                con.execute(f"SET {name} = '{value}'")
        ensure_variants(con)  # only when the rules records changed
        steps.reached("import.opened")  # (the database is this process's from here)
        bar = ImportProgress("import", len(files), total_bytes=_total_size(files)) \
            if progress else None

        def on_games(n: int, nbytes: int) -> None:
            pacer.games(n)
            if bar:
                bar.games(n, nbytes)

        spooled: list[Path] = []
        try:
            for path in files:
                label = source_name(path)
                if is_regular_file(path):
                    sha = file_sha256(path)
                else:  # stdin, a FIFO: read once into a temporary copy, never reopened
                    path, sha = spool_copy(path)
                    spooled.append(path)
                same = [r[0] for r in con.execute(
                    "SELECT file_id FROM files WHERE sha256 = ?", [sha]).fetchall()]
                if same and not replace:
                    summary.files.append(_skip(con, label, sha, same[0]))
                    if bar:
                        bar.file_done(_size(path))
                    continue
                old_path = _edited(con, label, sha)
                status = "replaced" if same else ("updated" if old_path else "imported")
                try:
                    res = _import_one(con, path, sha, status, same + old_path, options,
                                      summary, on_games, workers, label, jobs, own)
                except (OSError, UnicodeError) as exc:
                    res = FileResult(label, "failed", sha, message=str(exc))
                except FileFault as exc:  # one file never stops the others
                    res = FileResult(label, "failed", sha, message=str(exc))
                summary.files.append(res)
                if bar:
                    bar.file_done(_size(path))
            with _tail_threads(con, jobs, own):
                _settle(con, db, summary)
            summary.copies, summary.probable = copies.copy_counts(con)
        finally:
            for tmp in spooled:
                tmp.unlink(missing_ok=True)
            if bar:
                bar.close()


def _settle(con: duckdb.DuckDBPyConnection, db: DbLike, summary: ImportSummary) -> None:
    """The end of an import: the groups of copies of the games loaded, then their openings
    and novelties (each game counted once), last the opening counts (:func:`_settle_counts`).
    Should DuckDB stop there (out of memory, a full disk), the games loaded are kept with
    their marks (``copy_pending``, ``opening_pending``), and the error says so in one line:
    the next import into the database settles them."""
    try:
        copies.settle_copies(con)
        settle_import(con)
        settle_index(con)
    except Exception as exc:
        if type(exc).__module__.split(".")[0] not in ("duckdb", "_duckdb"):
            raise
        name = str(db) if isinstance(db, (str, Path)) else "<connection>"
        err = database_error(exc, name, "write")
        try:
            waiting = int(con.execute(
                "SELECT count(*) FROM (SELECT game_id FROM copy_pending UNION "
                "SELECT game_id FROM opening_pending)").fetchall()[0][0])
        except Exception:  # (the connection may be unusable after the error)
            waiting = -1
        games = "some games" if waiting < 0 else f"{waiting} game(s)"
        raise DatabaseError(
            f"{err}; the games of the {summary.imported} file(s) loaded are kept, but "
            f"{games} still wait for their duplicates, openings and novelties to be "
            "settled: the next import into this database settles them (importing a "
            "file already loaded will do)") from None
    _settle_counts(con, db)


def _settle_counts(con: duckdb.DuckDBPyConnection, db: DbLike) -> None:
    """The import's last step: the opening counts brought up to date (the games it added,
    counted once now that their copies are grouped: :func:`settle_counts`), in a transaction
    of their own. Stopped there (a full disk, a kill), the counts keep their old stamp: the
    readers scan every game (right, only slower) until the next import or ``pdnkit upgrade``
    settles them."""
    steps.reached("import.counts")
    try:
        settle_counts(con)
    except Exception as exc:
        if type(exc).__module__.split(".")[0] not in ("duckdb", "_duckdb"):
            raise
        name = str(db) if isinstance(db, (str, Path)) else "<connection>"
        raise DatabaseError(
            f"{database_error(exc, name, 'write')}; the games loaded are kept and settled, "
            "but the opening counts were not brought up to date: tree and stats openings "
            "read every game until the next import or pdnkit upgrade settles them") from None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def _total_size(files: list[Path]) -> int:
    """Bytes of the regular files among ``files`` (what the progress bar counts)."""
    return sum(_size(p) for p in files)


def _text_size(batch: ReportBatch | PackedBatch) -> int:
    """About the bytes of the file a batch's games took: the length of their texts."""
    if isinstance(batch, PackedBatch):
        return batch.text_chars
    return sum(len(t) for t in batch.games["raw_pdn"] if t)


def _skip(con: duckdb.DuckDBPyConnection, path: str | Path, sha: str,
          file_id: int) -> FileResult:
    """A file whose bytes are loaded already: record ``path`` as one of its names."""
    known = [r[0] for r in con.execute(
        "SELECT path FROM file_paths WHERE file_id = ? ORDER BY first_seen, path",
        [file_id]).fetchall()]
    if str(path) not in known:
        con.execute("INSERT INTO file_paths VALUES (?, ?, ?)",
                    [file_id, str(path), datetime.now()])
    others = [k for k in known if k != str(path)]
    message = f"same bytes as {others[0]}" if others and str(path) not in known else ""
    return FileResult(str(path), "skipped", sha, file_id, message=message)


def _edited(con: duckdb.DuckDBPyConnection, path: str | Path, sha: str) -> list[int]:
    """The files loaded from ``path`` with other bytes (it was edited since), to be
    replaced. A file also known under another name keeps its games (its bytes are still
    there): ``path`` only stops being one of its names."""
    old = [r[0] for r in con.execute(
        "SELECT DISTINCT f.file_id FROM files f JOIN file_paths p USING (file_id) "
        "WHERE p.path = ? AND f.sha256 <> ?", [str(path), sha]).fetchall()]
    replace: list[int] = []
    for file_id in old:
        others = [r[0] for r in con.execute(
            "SELECT path FROM file_paths WHERE file_id = ? AND path <> ? "
            "ORDER BY first_seen, path", [file_id, str(path)]).fetchall()]
        if not others:
            replace.append(file_id)
            continue
        con.execute("DELETE FROM file_paths WHERE file_id = ? AND path = ?",
                    [file_id, str(path)])
        con.execute("UPDATE files SET path = ? WHERE file_id = ? AND path = ?",
                    [others[0], file_id, str(path)])
    return replace


#: games between two full garbage-collector passes while importing (see
#: :func:`_import_tuning`)
GC_EVERY_GAMES = 20_000
#: the interpreter's thread switch interval while importing (seconds; see
#: :func:`_import_tuning`)
SWITCH_INTERVAL = 0.0002


class _GcPacer:
    """Runs a full garbage-collector pass every :data:`GC_EVERY_GAMES` games while the
    automatic collector is off (see :func:`_import_tuning`); does nothing otherwise."""

    def __init__(self, active: bool) -> None:
        self.active = active
        self.count = 0

    def games(self, n: int) -> None:
        if not self.active:
            return
        self.count += n
        if self.count >= GC_EVERY_GAMES:
            import gc

            self.count = 0
            gc.collect()


@contextlib.contextmanager
def _import_tuning() -> Iterator[_GcPacer]:
    """Interpreter settings for the length of an import, restored afterwards.

    * **Garbage collector.** An import allocates millions of short-lived objects, and the
      collector's passes over them cost about a tenth of a single-process import (on 10,000
      games: 1.1-1.9 s of 16-24 s, full passes walking pyarrow's and pandas' objects
      included). Nothing the import creates needs it: reference counting frees it all (a
      10,000-game import with the collector off leaves under 500 unreachable objects, once
      the capture search stopped leaving a reference cycle per call). So the automatic
      collector is off while importing, what existed before is frozen (``gc.freeze()``,
      skipped by full passes), and a full pass runs every :data:`GC_EVERY_GAMES` games as a
      safety net (:class:`_GcPacer`). All restored afterwards; left alone when the caller
      has disabled or frozen the collector.
    * **Thread switch interval.** DuckDB's scan of an Arrow table takes the GIL many times a
      batch; with the default interval (5 ms) the writer thread (:class:`_Writer`) waits that
      long each time the replaying thread holds it, and a load that takes 0.2 s alone took
      3.7 s beside Python work. At :data:`SWITCH_INTERVAL` it takes about 0.4 s and the two
      threads truly overlap; the interval only matters while a thread is waiting, so the
      replay itself does not slow down."""
    import gc
    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
    manage = gc.isenabled() and not gc.get_freeze_count()
    if manage:
        from pdnkit._arrow import pyarrow_module

        pyarrow_module()  # loaded by the first batch anyway: freeze it too (without pandas)
        gc.freeze()
        gc.disable()
    try:
        yield _GcPacer(manage)
    finally:
        if manage:
            gc.enable()
            gc.unfreeze()
        sys.setswitchinterval(interval)
