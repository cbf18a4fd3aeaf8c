"""A file read in parts by worker processes: what a worker is given and sends back, the
worker's part function, the parts delivered in file order and the parts handed back.

On the compiled core :mod:`~pdnkit.validation.jobs` cuts a file into parts of its bytes at
game boundaries (:func:`pdnkit.pdn.fast.file_spans`) and decides whether workers pay; here
a worker reads one part (:func:`span_work`: its bytes scanned by the compiled lane, its
games read with the file's own line numbers and replayed), :func:`deliver` hands the parts
to the workers and takes them back in file order, and :class:`FileOrder` numbers the games
of every part from the games before it. A part comes back to this process, to be read here
as one process reads it, where the workers turn out slower than this process, or where its
worker failed: an exception raised while it read or replayed the part, or the worker died
(then the pool is broken, and every part not delivered comes back). The user sees what one
process gives either way.

The batches of game texts cut on the pure core (:func:`pdnkit.validation.jobs.cut_batches`)
come back as the same :class:`Part` objects, built by the same :func:`fill`, numbered by the
same :class:`FileOrder`.

Example:
    >>> from pdnkit.validation.collect import Reports
    >>> from pdnkit.pdn import parse_game
    >>> from pdnkit.validation.runoptions import RunOptions
    >>> ctx = WorkContext(None, None, RunOptions(variant="international"), None, Reports)
    >>> part = fill([parse_game("1. 32-28 *"), parse_game("1. 33-29 *")], ctx, here=True)
    >>> order = FileOrder(None, Reports)
    >>> [[r.index for r in rows] for rows in order.take(part)]
    [[0], [1]]
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic

from pdnkit.findings import Finding, make_finding
from pdnkit.validation.collect import Reports, RowsT, renumber, travel_light
from pdnkit.validation.pipeline import replay_with, restatus
from pdnkit.validation.report import GameReport
from pdnkit.validation.runoptions import RunOptions

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from pdnkit.pdn.fast import FileSpan
    from pdnkit.pdn.record import GameRecord
    from pdnkit.validation.cleanbatch import CleanBatch
    from pdnkit.validation.resolve import FileGuess


@dataclass(frozen=True)
class WorkContext(Generic[RowsT]):
    """What a worker needs besides its batch: the file's name and encoding, the run's
    options, the file's variant (its pre-scan) and the class of rows to fill."""

    file: str | None
    encoding: str | None
    options: RunOptions
    guess: FileGuess | None
    rows: Callable[[], RowsT]


@dataclass
class Part(Generic[RowsT]):
    """What a worker sends back for one batch: ``lead``, the stray text's findings before
    the batch's first game and that game's report (the parent numbers it); ``rows``, the
    other games (numbered from 0); ``trailing``, the findings of stray text after the last
    game (for the next batch's first game)."""

    lead: list[Finding | GameReport] = field(default_factory=list)
    rows: RowsT | None = None
    trailing: list[Finding] = field(default_factory=list)
    #: a part whose first game is in ``rows`` too (rows that pack, :func:`packs`): its
    #: bytes, read again in this process should stray text before it need attaching
    span: FileSpan | None = None

    def games(self) -> int:
        """The games of this part."""
        return sum(isinstance(x, GameReport) and not x.file_level for x in self.lead) + (
            self.rows.games_count if self.rows is not None else 0)


def packs(rows: Callable[[], object]) -> bool:
    """Whether rows of the kind ``rows`` make are sent back packed by a worker that reads a
    part of a file's bytes: a class with a ``packed`` method
    (:class:`pdnkit.rows.packed.PackingBatch`: an import's rows, made Arrow in the worker).
    Such a part's games all go into its rows, its first included (:func:`span_work`).

    Example:
        >>> packs(Reports), packs(list)
        (False, False)
    """
    return isinstance(rows, type) and callable(getattr(rows, "packed", None))


def fill(items: Iterable[GameRecord | GameReport | list[Finding]], ctx: WorkContext[RowsT],
         here: bool = False, head_in_rows: bool = False) -> Part[RowsT]:
    """The part of a batch's games ``items`` (records to replay, reports of games that could
    not be read, findings of stray text): the first game is replayed in full and comes back
    as a report (numbered -1: the parent numbers it); the others fill one ``ctx.rows``
    (numbered from 0), compact where the options ask it and the rows are not reports
    themselves (which travel in full). ``here``: the part stays in this process, so nothing
    is computed for a crossing. ``head_in_rows``: the first game goes into the rows too,
    compact as the others (stray text before it attached to it here)."""
    part: Part[RowsT] = Part()
    rows = ctx.rows()
    compact = ctx.options.compact and not isinstance(rows, Reports)
    rest = ctx.options.but(compact=compact)
    first = rest if here else ctx.options.but(compact=False)  # a report that travels: full
    head = not head_in_rows  # the batch's first game is still to come
    clean = _clean_batch(rest)
    added = False  # a report went into ``rows`` (a file-level one holds findings, no game)
    waiting: list[Finding] = []  # stray text's findings, for the next game of the batch
    for got in items:
        if isinstance(got, list):
            (part.lead if head else waiting).extend(got)
            continue
        if isinstance(got, GameReport):
            rep = got
        else:  # (a batch is made only for options that are not compact: ``first`` is ``rest``)
            taken = None if clean is None else clean.report(got)
            rep = taken if taken is not None else replay_with(
                got, first if head else rest, file_guess=ctx.guess)
        if head:
            renumber(rep, -1, old=rep.index)
            part.lead.append(rep if here else travel_light(rep))
            head = False
            continue
        if waiting:
            rep.findings[:0] = [f.located(game_index=rep.index) for f in waiting]
            waiting = []
            restatus(rep)
        renumber(rep, rows.games_count, old=rep.index)
        rows.add(rep)
        added = True
    part.rows = rows if added else None
    part.trailing = waiting
    return part


def _clean_batch(options: RunOptions) -> CleanBatch | None:
    """The batch that takes a part's clean games as a serial run takes them
    (:meth:`CleanBatch.report <pdnkit.validation.cleanbatch.CleanBatch.report>`, the same
    light report without the validator's stages), or ``None`` where the run's options
    leave every game to the validator."""
    from pdnkit.validation.cleanbatch import CleanBatch

    return CleanBatch.for_run(options)


def span_work(span: FileSpan, ctx: WorkContext[RowsT]) -> Part[RowsT]:
    """Read and replay one part of a file in a worker: its bytes scanned by the compiled
    lane (:func:`pdnkit.pdn.fast.span_chunks`), its games read as the whole file reads
    them (:func:`pdnkit.pdn.reader.read_chunks`), the part built as :func:`fill` builds it;
    stray text after its last game goes to the next part's first game. Rows that pack
    (:func:`packs`) take every game of the part, its first included, and come back packed
    (:class:`pdnkit.rows.packed.PackedBatch`); the part keeps its span."""
    left: list[Finding] = []
    packing = packs(ctx.rows)
    part = fill(span_records(span, ctx, left), ctx, head_in_rows=packing)
    part.trailing.extend(left)
    if packing:
        part.span = span
        if part.rows is not None:
            part.rows = part.rows.packed()  # type: ignore[attr-defined]
    return part


def span_records(span: FileSpan, ctx: WorkContext[RowsT], left: list[Finding]
                 ) -> Iterator[GameRecord]:
    """The records of ``span``'s games (``left``: filled with the findings of stray text
    after its last game, unless it is the file's last part)."""
    from pdnkit.pdn.fast import span_chunks
    from pdnkit.pdn.reader import read_chunks

    return read_chunks(span_chunks(span), ctx.file, lambda: ctx.encoding,
                       ctx.options.strict, None if span.last else left)


#: the youngest generation's threshold of the garbage collector in a worker (Python's default
#: is 700): a part's reports stay alive until the part is sent back, so at the default each
#: part of about a hundred games runs a dozen collections that find nothing to free (a tenth
#: of a worker's CPU on the compiled core); a hundred times rarer, they stay a part's few
WORKER_GC_THRESHOLD = 70_000


def worker_start() -> None:
    """Set up a worker process of the pool (its initializer): the objects it inherited or
    imported are frozen out of the garbage collector's walks (``gc.freeze()``), and its
    youngest generation is collected at :data:`WORKER_GC_THRESHOLD` allocations. A worker
    process only: the settings hold for the whole process.

    Example:
        >>> from pdnkit._children import process_pool
        >>> with process_pool(1, worker_start) as pool:
        ...     pool.submit(gc_threshold).result() == WORKER_GC_THRESHOLD
        True
    """
    import gc

    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(WORKER_GC_THRESHOLD, older, oldest)


def gc_threshold() -> int:
    """The youngest generation's threshold of this process's garbage collector.

    Example:
        >>> gc_threshold() > 0
        True
    """
    import gc

    return int(gc.get_threshold()[0])


#: seconds this process waits for a part before its worker counts as hung. A part is about
#: :data:`pdnkit.validation.jobs.SPAN_BYTES` of games: a fraction of a second on the
#: compiled core, a few seconds on the slowest machine; waiting longer never changes the
#: output (a part read here gives what the worker would have given), only the time
STALL_SECONDS = 60.0
#: the environment variable that sets another stall limit (seconds, a positive number)
STALL_ENV = "PDNKIT_STALL_SECONDS"


def stall_seconds() -> float:
    """Seconds this process waits for a part, or for a worker to end once the work is
    done, before the worker counts as hung: :data:`STALL_SECONDS`, or the positive number
    of seconds the environment variable ``PDNKIT_STALL_SECONDS`` holds (another value is
    ignored).

    Example:
        >>> import os
        >>> os.environ.get(STALL_ENV) is not None or stall_seconds() == STALL_SECONDS
        True
    """
    import math
    import os

    text = os.environ.get(STALL_ENV, "").strip()
    try:
        value = float(text) if text else STALL_SECONDS
    except ValueError:
        return STALL_SECONDS
    return value if math.isfinite(value) and value > 0 else STALL_SECONDS


def deliver(spans: Iterator[FileSpan], ctx: WorkContext[RowsT], pool: Executor, limit: int,
            slower: Callable[[int, float], bool]) -> Iterator[Part[RowsT] | FileSpan]:
    """The parts of ``spans`` read by the workers of ``pool`` (:func:`span_work`), in file
    order, at most ``limit + 1`` in flight; in a part's place its span where this process
    is to read it:

    * handed back: once ``slower(games, seconds)`` says the workers, ``seconds`` after the
      first part was sent, went slower than this process would (the other cores got busy),
      every span not yet started (a part a worker is reading is awaited);
    * its worker failed: an exception raised while it read, replayed or sent back the part
      (a fault of pdnkit's own code on hostile bytes, say), or the worker died (killed: the
      pool is broken, and every span not delivered comes back);
    * its worker hangs: the part is not back :func:`stall_seconds` (:data:`STALL_SECONDS`)
      after this process began waiting for it (a part takes well under a second). The workers are stopped
      (:func:`pdnkit._children.stop_workers`), and every span not delivered comes back.

    Example:
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> from pdnkit.pdn.fast import FileSpan
        >>> from pdnkit.validation.collect import Reports
        >>> ctx = WorkContext(None, None, RunOptions(), None, Reports)
        >>> missing = FileSpan("no-such.pdn", 0, 10, 1, True)  # the worker fails on it
        >>> with ThreadPoolExecutor(1) as pool:
        ...     list(deliver(iter([missing]), ctx, pool, 2, lambda games, s: False))
        [FileSpan(path='no-such.pdn', start=0, end=10, line=1, last=True)]
    """
    from concurrent.futures import BrokenExecutor
    from concurrent.futures import TimeoutError as PartTimeout

    from pdnkit._children import stop_workers

    pending: deque[tuple[FileSpan, Future[Part[RowsT]] | None]] = deque()
    start = time.perf_counter()
    games = 0
    back = False  # every span not yet started is read here

    def top_up() -> None:
        nonlocal back
        while not back and len(pending) <= limit:
            span = next(spans, None)
            if span is None:
                return
            try:
                pending.append((span, pool.submit(span_work, span, ctx)))
            except (BrokenExecutor, RuntimeError):  # broken, or shut down
                back = True
                pending.append((span, None))

    try:
        top_up()
        while pending:
            span, fut = pending.popleft()
            if fut is None or (back and fut.cancel()):
                yield span
                continue
            try:
                part = fut.result(timeout=stall_seconds())
            except PartTimeout:  # the worker hangs: stopped, and the rest is read here
                stop_workers(pool)
                back = True
                yield span
                continue
            except BrokenExecutor:  # the worker died: no part comes back from this pool
                back = True
                yield span
                continue
            except Exception:  # noqa: BLE001 - one part never stops a file: read here
                yield span
                top_up()
                continue
            games += part.games()
            yield part
            if not back and slower(games, time.perf_counter() - start):
                back = True
            top_up()
    finally:
        for _, fut in pending:
            if fut is not None:
                fut.cancel()
    yield from spans  # after a move back here


class FileOrder(Generic[RowsT]):
    """Numbers the parts of one file's batches in file order: each batch's first game
    comes back as a report, numbered here from the games before it, with what the batch
    before left over (stray text's findings) added; the rows after it are moved to their
    place in the file (see :mod:`~pdnkit.validation.jobs`). Reports that come back alone
    (each batch's first, or every game of a part replayed here one at a time) fill one
    rows object until it is ``full()`` (a rows object a game would cost rows that hold
    many, :class:`pdnkit.lean.digest.Digest`, more than the game): :meth:`flush` hands on
    the last one."""

    def __init__(self, fname: str | None, rows: Callable[[], RowsT]) -> None:
        self.fname = fname
        self.rows = rows
        #: the games handed on so far
        self.index = 0
        self.stray: list[Finding] = []
        #: the rows filled with the reports that came back alone, not yet handed on
        self.open: RowsT | None = None

    def flush(self) -> Iterator[RowsT]:
        """The rows not yet handed on (reports that came back alone)."""
        if self.open is not None:
            yield self.open
            self.open = None

    def take(self, part: Part[RowsT]) -> Iterator[RowsT]:
        """The rows of ``part``, numbered from the games before it."""
        for item in part.lead:
            if isinstance(item, Finding):
                self.stray.append(item)
                continue
            index = self.index
            renumber(item, index)
            if self.stray:
                at = None if item.file_level else index
                item.findings[:0] = [f.located(game_index=at) for f in self.stray]
                self.stray = []
                restatus(item)
            if self.open is None:
                self.open = self.rows()
            self.open.add(item)
            self.index += not item.file_level  # (notes about the file take no number)
            if self.open.full():
                yield from self.flush()
        if part.rows is not None:
            yield from self.flush()
            part.rows.shift_game_index(self.index)
            self.index += part.rows.games_count
            yield part.rows
        self.stray.extend(part.trailing)

    def _of(self, report: GameReport) -> RowsT:
        rows = self.rows()
        rows.add(report)
        return rows

    def trailing(self, options: RunOptions, guess: FileGuess | None) -> RowsT:
        """The rows of the text after the last game, as :func:`read_games` yields it and
        the serial run replays it (under the file's variant ``guess``); the rows before it
        are to be handed on first (:meth:`flush`)."""
        from pdnkit.pdn.record import GameRecord

        index = self.index
        rec = GameRecord(file=self.fname, index=index, line=self.stray[0].line or 1, raw="",
                         findings=[f.located(game_index=index) for f in self.stray])
        rec.findings.append(make_finding("empty-game", "text after the last game holds no "
                                         "game", file=self.fname, game_index=index))
        self.stray = []
        return self._of(replay_with(rec, options.but(compact=False), file_guess=guess))


__all__ = ["STALL_ENV", "STALL_SECONDS", "WORKER_GC_THRESHOLD", "FileOrder", "Part", "WorkContext",
           "deliver", "fill", "gc_threshold", "packs", "span_records", "span_work",
           "stall_seconds", "worker_start"]
