"""The jobs stage of the pipeline: whether worker processes pay, their pool, and what
they are given, order kept.

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
import os
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from pdnkit.findings import Finding, make_finding
from pdnkit.validation.collect import Reports, Rows, RowsT, batched, renumber
from pdnkit.validation.inputs import Source, is_record, iter_sources
from pdnkit.validation.parts import FileOrder, Part, WorkContext, deliver, fill, span_records
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
#: below this many bytes of input in all, no worker process is ever started: a few hundred
#: games, fewer than the probe replays in this process anyway (:func:`worth_workers`)
PARALLEL_MIN_BYTES = 256_000
#: games of the first file replayed in this process before anything is timed (the first
#: games of a run pay for what is built once: the parser, the rules' tables)
PROBE_WARMUP = 16
#: games of the first file replayed and timed in this process: their rate, and the cores
#: left idle meanwhile, decide whether workers pay (:func:`workers_pay`)
PROBE_GAMES = 48
#: seconds of games a probe over parts of a file (:meth:`Probe.run_span`) times at least:
#: the machine's idle time is counted in clock ticks of 10 ms
PROBE_SECONDS = 0.04
#: the bytes of the first parts of a file cut for workers (the probe replays them here and
#: decides after any of them), then :data:`SPAN_BYTES` each
PROBE_SPANS = (32_768,) * 12
#: the bytes of a part of a file a worker reads and replays (about 140 games)
SPAN_BYTES = 131_072
#: seconds the workers run before their rate is held to this process's (:meth:`Probe.slower`)
CHECK_AFTER = 0.5
#: the share of the serial cost a game still costs this process when workers replay it
#: (cutting the text, sending it, taking the results back in order)
PARENT_SHARE = 0.15
#: seconds to start a pool of workers (forked from this process)
POOL_START = 0.3
#: workers must finish in at most this share of the serial time to be used
MARGIN = 0.9


def workers_can_pay() -> bool:
    """Whether workers that read game texts cut here (:func:`cut_batches`) can beat this
    process at all: only on the pure core. Such a worker reads through the Python reader,
    without the compiled lane, and on the compiled core two of them lost to one process on
    every input measured (validate of 20,000 games: 4.3 s in one process, 5.9 s with two
    workers); there a file goes to the workers in parts of its bytes instead, which they
    scan with the lane themselves (:func:`file_parts`).

    Example:
        >>> from pdnkit.core import core_in_use
        >>> workers_can_pay() == (core_in_use() != "compiled")
        True
    """
    from pdnkit.core import core_in_use

    return core_in_use() != "compiled"


def file_parts(src: object, options: RunOptions) -> list[FileSpan] | None:
    """``src`` cut into parts of its bytes for workers on the compiled core
    (:func:`pdnkit.pdn.fast.file_spans`), or ``None``: not a regular file, not plain UTF-8,
    or the pure core (whose workers are handed game texts).

    Example:
        >>> file_parts("1. 32-28 *", RunOptions()) is None
        True
    """
    from pdnkit.core import core_in_use
    from pdnkit.pdn.source import is_regular_file

    if not isinstance(src, Path) or core_in_use() != "compiled" or not is_regular_file(src):
        return None
    from pdnkit.pdn.fast import file_spans

    return file_spans(src, PROBE_SPANS, SPAN_BYTES, options.encoding)


def worth_workers(sizes: Iterable[int | None], jobs: int,
                  min_bytes: int | None = None) -> bool:
    """True when workers may pay on inputs of these ``sizes`` in bytes (``None``: unknown,
    a file object or standard input, counted as large): ``jobs`` > 1 and at least
    :data:`PARALLEL_MIN_BYTES` in all. Only a prior: whether they are used is decided on
    each input (:func:`workers_can_pay`) and on the measured rate (:func:`workers_pay`).

    Example:
        >>> worth_workers([20_000] * 23, 2), worth_workers([5_000_000], 2)
        (True, True)
        >>> worth_workers([None], 2), worth_workers([5_000_000], 1), worth_workers([9_000], 2)
        (True, False, False)
    """
    if jobs <= 1:
        return False
    if min_bytes is None:
        min_bytes = PARALLEL_MIN_BYTES
    total = 0
    for size in sizes:
        if size is None:
            return True
        total += size
        if total >= min_bytes:
            return True
    return False


def workers_pay(per_game: float, games_left: float | None, jobs: int, idle_cores: float,
                start_cost: float = 0.0) -> bool:
    """Whether ``jobs`` worker processes finish ``games_left`` games (``None``: unknown, a
    stream) sooner than this process, which replays one in ``per_game`` seconds, while
    ``idle_cores`` cores are left idle beside it; ``start_cost``: seconds to start them.

    The workers get this process's core and the idle ones (at most ``jobs``); without a
    second core they only share this one, and never pay. This process still spends
    :data:`PARENT_SHARE` of a game's cost on each; they must win by :data:`MARGIN`.

    Example:
        >>> workers_pay(0.002, 5_000, 2, idle_cores=1.0)    # 10 s of work, a free core
        True
        >>> workers_pay(0.002, 5_000, 2, idle_cores=0.1)    # the machine is busy
        False
        >>> workers_pay(0.002, 50, 2, idle_cores=1.0, start_cost=0.3)   # too little left
        False
    """
    if jobs <= 1:
        return False
    cores = min(float(jobs), 1.0 + max(0.0, idle_cores))
    if cores < 1.5:
        return False
    if games_left is None:
        return True
    serial = games_left * per_game
    parallel = start_cost + games_left * per_game * (1.0 / cores + PARENT_SHARE)
    return parallel < serial * MARGIN


def cpu_idle() -> tuple[float, float, int] | None:
    """The machine's (idle, total) CPU time so far, in clock ticks summed over its cores,
    and its number of cores (``/proc/stat``), or ``None`` where it cannot be read.

    Example:
        >>> got = cpu_idle()
        >>> got is None or (0 <= got[0] <= got[1] and got[2] >= 1)
        True
    """
    try:
        with open("/proc/stat", encoding="ascii") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    fields = lines[0].split() if lines else []
    if not fields or fields[0] != "cpu":
        return None
    ticks = [float(x) for x in fields[1:]]
    cores = sum(1 for line in lines if line.startswith("cpu") and line[3:4].isdigit())
    return ticks[3] + (ticks[4] if len(ticks) > 4 else 0.0), sum(ticks[:8]), max(1, cores)


class Probe:
    """Decides once per run whether workers pay: the first :data:`PROBE_WARMUP` games are
    replayed in this process untimed, the next :data:`PROBE_GAMES` timed (with the cores
    left idle meanwhile), and :func:`workers_pay` judges the games left, estimated from the
    bytes of input left (``total``: the run's known input size in bytes, ``None`` for a
    stream). ``started``: whether the pool already exists (no start cost). Games replayed
    in this process go one at a time, as a serial run streams them (a batch of reports held
    at once costs the garbage collector more than the replay of a few games)."""

    def __init__(self, jobs: int, total: int | None, started: bool) -> None:
        self.jobs = jobs
        self.total = total
        self.started = started
        self.chars = 0  # characters of game text read so far
        self.games = 0  # chunks replayed by the probe so far
        self.timed = (0.0, 0, 0)  # seconds, games, characters of the timed games
        self.idle: tuple[float, float, int] | None = None  # the machine's, at the timing's start
        self.use_workers: bool | None = None  # None: not decided yet
        #: seconds and games of the timed parts of files, what the caller did with each
        #: game included (:meth:`run_span`)
        self.wall = (0.0, 0)

    def rate(self) -> float | None:
        """Games a second this process went through in the timed parts of files, what the
        caller did with them included (``None``: none timed)."""
        seconds, games = self.wall
        return games / seconds if seconds > 0 and games else None

    def slower(self, games: int, seconds: float) -> bool:
        """Whether workers that went through ``games`` games in ``seconds`` are slower than
        this process was in the timed parts (:meth:`rate`), once they have run
        :data:`CHECK_AFTER` seconds: then the parts not started are read here
        (:func:`~pdnkit.validation.parts.deliver`), so workers never slow a run down for
        long (the other cores got busy)."""
        here = self.rate()
        return bool(here) and seconds > CHECK_AFTER and games / seconds < (here or 0.0)

    def next_size(self, chunk_size: int) -> int:
        """The size of the next batch to cut: one game in this process, ``chunk_size``
        for the workers."""
        return chunk_size if self.use_workers else 1

    def run(self, batch: Batch, ctx: WorkContext[RowsT]) -> Part[RowsT]:
        """Replay a batch in this process, timing it once past the warm-up; decide when
        :data:`PROBE_GAMES` games were timed."""
        timing = self.games >= PROBE_WARMUP
        if timing and self.idle is None:
            self.idle = cpu_idle()
        before = time.perf_counter()
        part = _work(batch, ctx, here=True)
        seconds = time.perf_counter() - before
        chars = sum(len(item[1]) for item in batch)
        self.games += len(batch)
        self.chars += chars
        if timing:
            spent, games, read = self.timed
            self.timed = (spent + seconds, games + len(batch), read + chars)
            if self.timed[1] >= PROBE_GAMES:
                self.use_workers = self.decide(*self.timed, self.idle, cpu_idle())
        return part

    def run_span(self, span: FileSpan, ctx: WorkContext[RowsT]) -> Iterator[Part[RowsT]]:
        """Replay ``span`` in this process, one part per game, timing it once past the
        warm-up (the machine's idle time from the first part on); decide when
        :data:`PROBE_GAMES` games and :data:`PROBE_SECONDS` were timed."""
        timing = self.games >= PROBE_WARMUP
        if self.idle is None:
            self.idle = cpu_idle()
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
        chars = span.end - span.start
        self.games += games
        self.chars += chars
        if timing:
            spent0, games0, read = self.timed
            self.timed = (spent0 + spent, games0 + games, read + chars)
            self.wall = (self.wall[0] + time.perf_counter() - began, self.wall[1] + games)
            if self.timed[1] >= PROBE_GAMES and self.timed[0] >= PROBE_SECONDS:
                self.use_workers = self.decide(*self.timed, self.idle, cpu_idle())

    def busy(self, idle0: tuple[float, float, int] | None,
             idle1: tuple[float, float, int] | None) -> None:
        """Decide at once against workers when too few cores were idle between ``idle0``
        and ``idle1`` (a file's pre-scan: a few clock ticks, before any part is cut or
        timed) for workers to pay whatever the rate (:func:`workers_pay`), so a run on a
        busy machine is the one process's run."""
        if idle0 is None or idle1 is None or idle1[1] - idle0[1] < 2:
            return
        share = (idle1[0] - idle0[0]) / (idle1[1] - idle0[1])
        if not workers_pay(1.0, None, self.jobs, share * idle1[2]):
            self.use_workers = False

    def decide(self, seconds: float, games: int, chars: int,
               idle0: tuple[float, float, int] | None,
               idle1: tuple[float, float, int] | None) -> bool:
        """Whether workers pay, from ``games`` timed games (``chars`` long) that took
        ``seconds``, and the machine's idle time before and after them."""
        if games == 0:
            return False
        idle = float(default_jobs() - 1)  # unknown: counted free
        if idle0 is not None and idle1 is not None and idle1[1] > idle0[1]:
            share = (idle1[0] - idle0[0]) / (idle1[1] - idle0[1])
            idle = min(idle, share * idle1[2])
        left: float | None = None
        if self.total is not None:
            left = max(0, self.total - self.chars) / max(1.0, chars / games)
        return workers_pay(seconds / games, left, self.jobs, idle,
                           0.0 if self.started else POOL_START)


class Workers:
    """Up to ``jobs`` worker processes for one run (or one import of many files): the
    :class:`Probe` decides once, on the first games, whether they pay, and the pool is
    ``pool`` (started by the caller, not closed here) or started then and closed with
    :meth:`close`. ``total``: the bytes of input of the whole run (``None``: unknown).

    Example:
        >>> with Workers(2, total=10) as w:
        ...     w.jobs, w.probe.use_workers, w.pool is None
        (2, None, True)
    """

    def __init__(self, jobs: int, total: int | None, pool: Executor | None = None) -> None:
        self.jobs = jobs
        self.pool = pool
        self.own = pool is None
        self.probe = Probe(jobs, total, started=pool is not None)

    def executor(self) -> Executor:
        """The pool, started now if it is not yet (its workers die with this process)."""
        if self.pool is None:
            from pdnkit._children import process_pool

            self.pool = process_pool(self.jobs)
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


def total_size(source: Source) -> int | None:
    """The bytes of input of ``source`` in all (``None`` when one input's size is unknown).

    Example:
        >>> total_size(["1. 32-28 *", "1. 33-29 *"])
        20
    """
    sizes = list(input_sizes(source))
    return None if None in sizes else sum(s or 0 for s in sizes)


def input_sizes(source: Source) -> Iterator[int | None]:
    """The size in bytes of each input of ``source`` (``None`` when unknown)."""
    from pdnkit.pdn.source import is_regular_file

    for src in iter_sources(source):
        if is_record(src):
            yield 0
        elif isinstance(src, Path):
            yield src.stat().st_size if is_regular_file(src) else None
        elif isinstance(src, str):
            yield len(src)
        else:
            yield None


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
        before = cpu_idle() if workers.probe.use_workers is None else None
        file_guess = guess if guess is not None else file_guess_of(src, options)
        if before is not None:
            workers.probe.busy(before, cpu_idle())
        if may_not_be_pdn(src):  # only the whole file's reading tells (read_chunks)
            yield from _streamed(src, options, rows, file_guess)
            continue
        if workers_can_pay():
            yield from _batches(src, options, rows, workers, max(1, int(chunk_size)),
                                file_guess)
            continue
        spans = None
        if workers.probe.use_workers is not False and _travel_light(rows):
            spans = file_parts(src, options)
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
    """Whether ``rows`` are reports (:class:`~pdnkit.validation.collect.Reports`), which
    cost this process little to take back from a worker. Database rows, built per ply, cost
    it more to take back than to build: an import of 20,000 games took 50 s in one process
    and 128 s with two workers handed parts of the file, so on the compiled core they are
    built here."""
    return isinstance(rows, type) and issubclass(rows, Reports)


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
            yield from order.take(part)
    except Exception:  # noqa: BLE001 - one bad part never stops a file
        yield from _serial_rest(spans[0].path, ctx, order.index)
        return
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
            yield from probe.run_span(span, ctx)
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
                yield from order.take(probe.run(batch, ctx))
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
    if order.stray:
        yield order.trailing(options, file_guess)


def default_jobs() -> int:
    """The number of CPUs available to this process.

    Example:
        >>> default_jobs() >= 1
        True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
