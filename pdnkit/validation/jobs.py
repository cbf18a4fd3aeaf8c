"""The jobs stage of the pipeline: worker processes, what they are given, and their
results taken back in file order. Whether workers pay is the cost model's question
(:mod:`~pdnkit.validation.costs`, which this module feeds with what it times: the probe's
games replayed here, :func:`_probe_span` and :func:`_probe_batch`).

On the compiled core a file goes to the workers in parts of its bytes, cut at game
boundaries (:func:`file_parts`); reading a part in a worker, taking the parts back in file
order and handing parts back to this process are :mod:`~pdnkit.validation.parts`' job. On
the pure core (and on it only: a worker reading game texts through the Python reader lost
to one process on the compiled lane) the parent reads lines and cuts them into game chunks
(the reader's cheap splitter); batches of ``chunk_size`` chunks (or :data:`BATCH_CHARS`
characters) go to the workers, which parse and replay them (:func:`_work`). Either way a
worker fills the caller's rows with all but the batch's first game
(:class:`~pdnkit.validation.collect.Rows`: the reports themselves, or database rows). At
most ``2 * jobs + 1`` batches are in flight, so memory stays flat however large the
collection. Game numbering follows :func:`pdnkit.pdn.read_games`: text between games that
is neither tags nor moves is not a game, and its finding moves to the next game; a worker
attaches it within its batch, the parent (:class:`~pdnkit.validation.parts.FileOrder`)
across batches, which is why each batch's first game comes back as a report: the parent
numbers it, adds what the batch before left over, and moves the rows after it to their
place in the file. A worker that fails (an exception raised in it, or killed) never stops
the run: what it was given is read in this process, as one process reads it.

This module sits under :mod:`~pdnkit.validation.flow` (the one public way in) and on top of
the core (:mod:`~pdnkit.validation.pipeline`), which never imports it.

Example:
    >>> from pdnkit.validation import validate
    >>> [r.index for r in validate("1. 32-28 *\\n1. 33-29 *\\n1. 34-30 *", "international",
    ...                            jobs=2, chunk_size=1)]
    [0, 1, 2]
"""

from __future__ import annotations

import itertools
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from pdnkit.findings import Finding, make_finding
from pdnkit.validation import costs
from pdnkit.validation.collect import Reports, Rows, RowsT, batched, renumber
from pdnkit.validation.costs import Probe
from pdnkit.validation.inputs import Source, is_record, iter_sources
from pdnkit.validation.parts import (
    FileOrder,
    Part,
    WorkContext,
    deliver,
    fill,
    packs,
    span_records,
)
from pdnkit.validation.pipeline import failed_report, file_guess_of, replay_with
from pdnkit.validation.report import GameReport
from pdnkit.validation.runoptions import RunOptions

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from pdnkit.pdn.fast import FileSpan
    from pdnkit.pdn.record import GameRecord
    from pdnkit.pdn.split import Chunk
    from pdnkit.validation.resolve import FileGuess

#: (first line, chunk text, another chunk follows, decoding findings of its lines, the
#: encoding of a game decoded on its own: ``None`` for the file's)
Batch = list[tuple[int, str, bool, list[Finding], str | None]]
R = TypeVar("R")


def _read(line: int, text: str, followed: bool, notes: list[Finding], own: str | None,
          ctx: WorkContext[RowsT]) -> GameRecord | GameReport | list[Finding]:
    """One chunk in a worker: its game's record (provisional index -1), the report of a
    game that could not be read, or the findings of stray text (text between games that is
    neither tags nor moves), worded as :func:`pdnkit.pdn.read_games` words them."""
    from pdnkit.pdn import reader
    from pdnkit.pdn.messages import excerpt
    from pdnkit.pdn.source import bare_record
    from pdnkit.pdn.split import Chunk

    file, enc = ctx.file, own or ctx.encoding
    try:
        bare = None if text else bare_record(Chunk("", line, line, True, notes), file=file,
                                             index=-1, encoding=enc)
        rec = bare or reader.parse_game(text, strict=ctx.options.strict, file=file, index=-1,
                                        line=line, encoding=enc, followed=followed)
        stray = bool(text) and reader.is_stray_text(rec)
    except Exception as exc:  # noqa: BLE001 - one game never stops a collection
        from pdnkit.pdn.record import GameRecord

        rec = GameRecord(file=file, index=-1, line=line, raw=text)
        rec.parsed = False
        return failed_report(rec, exc, "reading this game")
    if stray:
        return [*notes, make_finding(
            "ignored-text", "text between games that is neither tags nor moves was "
            f"skipped: {excerpt(rec.raw)}", file=file, line=rec.line)]
    if text and notes:
        rec.findings[:0] = [f.located(file=file, game_index=-1) for f in notes]
    return rec


def _work(batch: Batch, ctx: WorkContext[RowsT], here: bool = False) -> Part[RowsT]:
    """Parse and replay one batch in a worker (see the module doc), or in this process
    (``here``: nothing crosses to another process, so nothing is computed for the crossing).
    """
    return fill((_read(line, text, followed, notes, own, ctx)
                 for line, text, followed, notes, own in batch), ctx, here)


def _span_here(span: FileSpan, ctx: WorkContext[RowsT]) -> Iterator[Part[RowsT]]:
    """``span``'s games read and replayed in this process, one part per game (a serial run
    streams: a batch of reports held at once costs the garbage collector more)."""
    left: list[Finding] = []
    for rec in span_records(span, ctx, left):
        rep = replay_with(rec, ctx.options, file_guess=ctx.guess)
        renumber(rep, -1, old=rep.index)
        yield Part(lead=[rep])
    if left:
        yield Part(trailing=left)


#: a batch for a worker also ends when its game texts reach this many characters, so a
#: file of a few hundred games is shared among the workers rather than sent to one
BATCH_CHARS = 64_000
#: the bytes of the first parts of a file cut for workers (the probe replays them here and
#: decides after any of them), then :data:`SPAN_BYTES` each
PROBE_SPANS = (32_768,) * 12
#: the bytes of a part of a file a worker reads and replays (about 140 games)
SPAN_BYTES = 131_072
#: the same for rows a worker sends back packed (an import's: about 1,100 games, a row
#: batch's worth, so the parent's loads stay as few as one process makes)
PACKED_SPAN_BYTES = 1_048_576


def file_parts(src: object, options: RunOptions, size: int | None = None
               ) -> list[FileSpan] | None:
    """``src`` cut into parts of its bytes for workers on the compiled core
    (:func:`pdnkit.pdn.fast.file_spans`: the probe's parts, then ``size`` bytes each,
    :data:`SPAN_BYTES` unless given), or
    ``None``: not a regular file, not plain UTF-8, or the pure core (whose workers are
    handed game texts).

    Example:
        >>> file_parts("1. 32-28 *", RunOptions()) is None
        True
    """
    from pdnkit.core import core_in_use
    from pdnkit.pdn.source import is_regular_file

    if not isinstance(src, Path) or core_in_use() != "compiled" or not is_regular_file(src):
        return None
    from pdnkit.pdn.fast import file_spans

    return file_spans(src, PROBE_SPANS, SPAN_BYTES if size is None else size,
                      options.encoding)


def _probe_batch(probe: Probe, batch: Batch, ctx: WorkContext[RowsT]) -> Part[RowsT]:
    """Replay a batch in this process for ``probe``, timed once past its warm-up."""
    if probe.timing():
        probe.start_clock()
    before = time.perf_counter()
    part = _work(batch, ctx, here=True)
    probe.timed(time.perf_counter() - before, len(batch), sum(len(item[1]) for item in batch))
    return part


def _probe_span(probe: Probe, span: FileSpan, ctx: WorkContext[RowsT]
                ) -> Iterator[Part[RowsT]]:
    """Replay ``span`` in this process for ``probe``, one part per game, timed once past
    its warm-up (the machine's idle time from the first part on); the probe decides when
    :data:`~pdnkit.validation.costs.PROBE_GAMES` games and
    :data:`~pdnkit.validation.costs.PROBE_SECONDS` were timed."""
    probe.start_clock()
    spent, games = 0.0, 0
    began = time.perf_counter()
    parts = _span_here(span, ctx)
    while True:
        before = time.perf_counter()
        part = next(parts, None)
        spent += time.perf_counter() - before
        if part is None:
            break
        games += len(part.lead)
        yield part
    probe.timed(spent, games, span.end - span.start, wall=time.perf_counter() - began,
                at_least=costs.PROBE_SECONDS)


class Workers:
    """Up to ``jobs`` worker processes for one run (or one import of many files): the
    :class:`Probe` decides once, on the first games, whether they pay, and the pool is
    ``pool`` (started by the caller, not closed here) or started then and closed with
    :meth:`close`. ``total``: the bytes of input of the whole run (``None``: unknown);
    ``parent_share`` and ``worker_cost``: what a game still costs this process when a worker
    replays it, and what it costs the worker (:func:`~pdnkit.validation.costs.workers_pay`).

    Example:
        >>> with Workers(2, total=10) as w:
        ...     w.jobs, w.probe.use_workers, w.pool is None
        (2, None, True)
    """

    def __init__(self, jobs: int, total: int | None, pool: Executor | None = None,
                 parent_share: float = costs.PARENT_SHARE,
                 worker_cost: float = costs.WORKER_COST) -> None:
        self.jobs = jobs
        self.pool = pool
        self.own = pool is None
        self.probe = Probe(jobs, total, started=pool is not None, parent_share=parent_share,
                           worker_cost=worker_cost)

    def executor(self) -> Executor:
        """The pool, started now if it is not yet (its workers die with this process)."""
        if self.pool is None:
            from pdnkit._children import process_pool
            from pdnkit.validation.parts import worker_start

            self.pool = process_pool(self.jobs, worker_start)
        return self.pool

    def close(self) -> None:
        """Shut down a pool started here, never waiting for ever: a worker that does not
        end within :func:`~pdnkit.validation.parts.stall_seconds` (stopped, or hung) is
        killed (:func:`pdnkit._children.close_pool`)."""
        if self.own and self.pool is not None:
            from pdnkit._children import close_pool
            from pdnkit.validation.parts import stall_seconds

            close_pool(self.pool, stall_seconds())
            self.pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def cut_batches(chunks: Iterable[Chunk], size: Callable[[], int]) -> Iterator[Batch]:
    """The splitter's ``chunks`` as batches of game texts (``(first line, text, another
    chunk follows, decoding findings)``): each of ``size()`` games, or ended sooner at
    :data:`BATCH_CHARS` characters.

    Example:
        >>> from pdnkit.pdn.split import split_text
        >>> [len(b) for b in cut_batches(split_text("1. 32-28 *\\n\\n1. 33-29 *"), lambda: 1)]
        [1, 1]
    """
    from pdnkit.pdn.reader import with_followed
    from pdnkit.pdn.source import DecodedChunk

    batch: Batch = []
    chars = 0
    limit = size()
    for chunk, followed in with_followed(chunks):
        own = chunk.encoding if isinstance(chunk, DecodedChunk) else None
        batch.append((chunk.line, chunk.text, followed, chunk.findings, own))
        chars += len(chunk.text)
        if len(batch) >= limit or chars >= BATCH_CHARS:
            yield batch
            batch = []
            chars = 0
            limit = size()
    if batch:
        yield batch


def submit_batches(pool: Executor, batches: Iterable[Batch], limit: int,
                   fn: Callable[..., R], *args: object,
                   here: Callable[..., R] | None = None) -> Iterator[R]:
    """Run ``fn(batch, *args)`` on each batch in ``pool`` and yield the results in order; at
    most ``limit`` batches wait beyond the one being submitted (bounded memory). Batches
    not yet collected are cancelled when the caller stops early. ``here``: where a batch's
    worker fails (an exception raised in it, or the worker died: the pool is broken, and
    every batch not collected fails), ``here(batch, *args)`` in this process gives its
    result instead; without it the exception is raised. A batch not back
    :func:`~pdnkit.validation.parts.stall_seconds` after this process began waiting for it
    counts as a failure too: its worker hangs, and the workers are stopped."""
    from concurrent.futures import BrokenExecutor
    from concurrent.futures import TimeoutError as PartTimeout

    from pdnkit._children import stop_workers
    from pdnkit.validation.parts import stall_seconds

    pending: deque[tuple[Batch, Future[R] | None]] = deque()

    def result(batch: Batch, fut: Future[R] | None) -> R:
        if fut is not None:
            try:
                return fut.result(timeout=stall_seconds())
            except PartTimeout:  # the worker hangs: stopped (the pool is broken)
                stop_workers(pool)
                if here is None:
                    raise
            except Exception:
                if here is None:
                    raise
        assert here is not None
        return here(batch, *args)

    try:
        for batch in batches:
            try:
                pending.append((batch, pool.submit(fn, batch, *args)))
            except (BrokenExecutor, RuntimeError):  # broken, or shut down
                if here is None:
                    raise
                pending.append((batch, None))
            while len(pending) > limit:
                yield result(*pending.popleft())
        while pending:
            yield result(*pending.popleft())
    finally:
        for _, fut in pending:
            if fut is not None:
                fut.cancel()


def run_batches(pool: Executor, chunks: Iterable[Chunk], size: int, limit: int,
                fn: Callable[..., R], *args: object) -> Iterator[R]:
    """Cut the splitter's ``chunks`` into batches of ``size`` game texts
    (:func:`cut_batches`), run ``fn(batch, *args)`` on each in ``pool`` and yield the
    results in file order (:func:`submit_batches`).

    Example:
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> from pdnkit.pdn.split import split_text
        >>> with ThreadPoolExecutor(2) as pool:
        ...     list(run_batches(pool, split_text("1. 32-28 *\\n\\n1. 33-29 *\\n\\n1. 34-30 *"),
        ...                      2, 2, len))
        [2, 1]
    """
    yield from submit_batches(pool, cut_batches(chunks, lambda: size), limit, fn, *args)


def parallel_rows(source: Source, options: RunOptions, rows: Callable[[], RowsT],
                  workers: Workers, chunk_size: int, guess: FileGuess | None = None
                  ) -> Iterator[RowsT]:
    """The rows of every game of ``source`` in file order, with ``workers`` (see the module
    doc). Until their probe has decided, games are replayed here and timed; then the rest
    go to the workers where they pay, else they are replayed here as well. Records already
    read are replayed here. On the pure core games go to the workers as texts cut here
    (:func:`_batches`); on the compiled core a file goes to them in parts of its bytes
    (:func:`_spans`), and any other input is read here (:func:`_streamed`)."""
    from pdnkit.pdn.source import source_name

    for src in iter_sources(source):
        if is_record(src):  # a GameRecord: no parsing
            one = rows()
            one.add(replay_with(src, options))
            yield one
            continue
        before = costs.cpu_idle() if workers.probe.use_workers is None else None
        file_guess = guess if guess is not None else file_guess_of(src, options)
        if before is not None:
            workers.probe.busy(before, costs.cpu_idle())
        if may_not_be_pdn(src):  # only the whole file's reading tells (read_chunks)
            yield from _streamed(src, options, rows, file_guess)
            continue
        if costs.workers_can_pay():
            yield from _batches(src, options, rows, workers, max(1, int(chunk_size)),
                                file_guess)
            continue
        spans = None
        if workers.probe.use_workers is not False and _travel_light(rows):
            spans = file_parts(src, options)
        elif workers.probe.use_workers is not False and packs(rows):
            spans = file_parts(src, options, PACKED_SPAN_BYTES)
        if spans is None:
            yield from _streamed(src, options, rows, file_guess)
            continue
        ctx = WorkContext(source_name(spans[0].path), "utf-8", options, file_guess, rows)
        yield from _spans(spans, ctx, workers)


#: the opening of a tag pair, in bytes (a file holding one is PDN to
#: :func:`pdnkit.pdn.reader.unless_not_pdn`, which reads its records)
_TAG_OPENING = re.compile(rb"\[[ \t]*[A-Za-z_]")


def may_not_be_pdn(src: object) -> bool:
    """Whether the input ``src`` (a path or PDN text) could read as a file that is not PDN
    (:func:`pdnkit.pdn.reader.unless_not_pdn`, which decides on a whole file's first
    records): small enough to be held whole, and without the opening of a tag pair. Such a
    file is read in this process, as the serial run reads it, never in parts by workers.

    Example:
        >>> may_not_be_pdn("A note.\\n\\nAnother line."), may_not_be_pdn('[Event "x"] 1. 32-28 *')
        (True, False)
    """
    from pdnkit.pdn.reader import NOT_PDN_CHARS
    from pdnkit.pdn.source import is_regular_file

    if isinstance(src, str):
        if len(src) > NOT_PDN_CHARS:
            return False
        data = src.encode("utf-8", "surrogatepass")
    elif isinstance(src, Path) and is_regular_file(src):
        if src.stat().st_size > 4 * NOT_PDN_CHARS:  # four bytes a character at most
            return False
        try:
            data = src.read_bytes()
        except OSError:
            return False
    else:
        return False
    return _TAG_OPENING.search(data) is None


def _travel_light(rows: Callable[[], Rows]) -> bool:
    """Whether ``rows`` cost this process little to take back from a worker: reports
    (:class:`~pdnkit.validation.collect.Reports`), or a class (or a ``functools.partial``
    of one) that says so with a true ``TRAVELS_LIGHT`` (``validate``'s rendered output,
    :class:`pdnkit.lean.digest.Digest`). Database rows, built per ply, cost it more to take
    back than to build: an import of 20,000 games took 50 s in one process and 128 s with
    two workers handed parts of the file, so on the compiled core they are built here,
    unless they are rows that cross packed (:func:`~pdnkit.validation.parts.packs`: Arrow
    made in the worker, an import's).

    Example:
        >>> _travel_light(Reports), _travel_light(partial(Reports)), _travel_light(list)
        (True, True, False)
    """
    kind = rows.func if isinstance(rows, partial) else rows
    return isinstance(kind, type) and (issubclass(kind, Reports)
                                       or getattr(kind, "TRAVELS_LIGHT", False) is True)


def _streamed(src: Path | str | IO[str] | IO[bytes], options: RunOptions,
              rows: Callable[[], RowsT], guess: FileGuess | None) -> Iterator[RowsT]:
    """The rows of ``src``'s games read and replayed here, as a serial run streams them."""
    from pdnkit.validation.pipeline import serial_reports

    return batched(serial_reports(src, options, guess), rows)


def _spans(spans: list[FileSpan], ctx: WorkContext[RowsT], workers: Workers
           ) -> Iterator[RowsT]:
    """The rows of a file's parts ``spans`` in file order (:func:`_span_parts`). A fault of
    this process's own reading of a part (after its worker's failed too, say) ends the
    parts: the rest of the file is the serial path's (:func:`_serial_rest`), so the user
    gets what one process gives, its report of a file it cannot read included."""
    order = FileOrder(ctx.file, ctx.rows)
    try:
        for part in _span_parts(spans, ctx, workers):
            if part.span is not None and order.stray:  # (its first game is in its rows)
                for again in _span_here(part.span, ctx):
                    yield from order.take(again)
                continue
            yield from order.take(part)
    except Exception:  # noqa: BLE001 - one bad part never stops a file
        yield from order.flush()
        yield from _serial_rest(spans[0].path, ctx, order.index)
        return
    yield from order.flush()
    if order.stray:  # never: the file's last part keeps its stray text
        yield order.trailing(ctx.options, ctx.guess)


def _span_parts(spans: list[FileSpan], ctx: WorkContext[RowsT], workers: Workers
                ) -> Iterator[Part[RowsT]]:
    """The parts of ``spans``: replayed here while the probe decides (or when workers do
    not pay), else each read and replayed by a worker, and read here where the workers
    hand it back (:func:`~pdnkit.validation.parts.deliver`: slower than this process, or
    its worker failed)."""
    probe = workers.probe
    it = iter(spans)
    for span in it:
        if probe.use_workers is None:
            yield from _probe_span(probe, span, ctx)
        elif not probe.use_workers:
            yield from _span_here(span, ctx)
        else:
            for got in deliver(itertools.chain([span], it), ctx, workers.executor(),
                               2 * workers.jobs, probe.slower):
                if isinstance(got, Part):
                    yield got
                else:
                    yield from _span_here(got, ctx)
            return


def _serial_rest(path: str, ctx: WorkContext[RowsT], done: int) -> Iterator[RowsT]:
    """The rows of the games of the file ``path`` after its first ``done`` (those handed
    on), read and replayed by the serial path (which replays the first ``done`` again,
    unseen: a fault's cost, not a run's)."""
    from pdnkit.validation.pipeline import serial_reports

    reports = serial_reports(Path(path), ctx.options, ctx.guess)
    return batched(itertools.islice(reports, done, None), ctx.rows)


def _batches(src: Path | str | IO[str] | IO[bytes], options: RunOptions,
             rows: Callable[[], RowsT], workers: Workers, chunk_size: int,
             file_guess: FileGuess | None) -> Iterator[RowsT]:
    """The rows of ``src``'s games in file order, cut here into batches of game texts that
    the workers read and replay (the pure core)."""
    from pdnkit.pdn.source import open_source, source_name

    probe = workers.probe
    opened = open_source(src, options.encoding)
    fname = source_name(src) if isinstance(src, Path) else opened.name
    ctx = WorkContext(fname, opened.encoding, options, file_guess, rows)
    order = FileOrder(fname, rows)  # decoding findings travel with their chunks
    try:
        batches = cut_batches(opened.chunks, lambda: probe.next_size(chunk_size))
        for batch in batches:
            if probe.use_workers is None:
                yield from order.take(_probe_batch(probe, batch, ctx))
            elif not probe.use_workers:
                yield from order.take(_work(batch, ctx, here=True))
            else:
                for part in submit_batches(workers.executor(),
                                           itertools.chain([batch], batches),
                                           2 * workers.jobs, _work, ctx,
                                           here=partial(_work, here=True)):
                    yield from order.take(part)
                break
    finally:
        opened.close()
    yield from order.flush()
    if order.stray:
        yield order.trailing(options, file_guess)
