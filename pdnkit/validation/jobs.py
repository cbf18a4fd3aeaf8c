"""The jobs stage of the pipeline: games read and replayed in worker processes, order kept.

The parent process only reads lines and cuts them into game chunks (the reader's cheap
splitter); batches of ``chunk_size`` chunks (or :data:`BATCH_CHARS` characters) go to the
workers, which parse and replay them (:func:`_work`) and fill the caller's rows with all but
the batch's first game (:class:`~pdnkit.validation.collect.Rows`: the reports themselves, or
database rows). At most ``2 * jobs + 1`` batches are in flight, so memory stays flat however
large the collection. Game numbering follows :func:`pdnkit.pdn.read_games`: text between
games that is neither tags nor moves is not a game, and its finding moves to the next game;
a worker attaches it within its batch, the parent (:class:`_Order`) across batches, which is
why each batch's first game comes back as a report: the parent numbers it, adds what the
batch before left over, and moves the rows after it to their place in the file.

This module sits under :mod:`~pdnkit.validation.flow` (the one public way in) and on top of
the core (:mod:`~pdnkit.validation.pipeline`), which never imports it.

Example:
    >>> from pdnkit.validation import validate
    >>> [r.index for r in validate("1. 32-28 *\\n1. 33-29 *\\n1. 34-30 *", "international",
    ...                            jobs=2, chunk_size=1)]
    [0, 1, 2]
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from pdnkit.findings import Finding, make_finding
from pdnkit.validation.collect import Reports, RowsT, renumber, travel_light
from pdnkit.validation.options import RunOptions
from pdnkit.validation.pipeline import failed_report, file_guess_of, replay_with, restatus
from pdnkit.validation.report import GameReport
from pdnkit.validation.sources import Source, is_record, iter_sources

if TYPE_CHECKING:
    from pdnkit.pdn.record import GameRecord
    from pdnkit.pdn.split import Chunk
    from pdnkit.validation.resolve import FileGuess

#: (first line, chunk text, another chunk follows, decoding findings of its lines)
Batch = list[tuple[int, str, bool, list[Finding]]]
R = TypeVar("R")


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


def _read(line: int, text: str, followed: bool, notes: list[Finding],
          ctx: WorkContext[RowsT]) -> GameRecord | GameReport | list[Finding]:
    """One chunk in a worker: its game's record (provisional index -1), the report of a
    game that could not be read, or the findings of stray text (text between games that is
    neither tags nor moves), worded as :func:`pdnkit.pdn.read_games` words them."""
    from pdnkit.pdn import reader
    from pdnkit.pdn.source import bare_record
    from pdnkit.pdn.split import Chunk

    file, enc = ctx.file, ctx.encoding
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
            f"skipped: {reader._excerpt(rec.raw)}", file=file, line=rec.line)]
    if text and notes:
        rec.findings[:0] = [f.located(file=file, game_index=-1) for f in notes]
    return rec


def _work(batch: Batch, ctx: WorkContext[RowsT]) -> Part[RowsT]:
    """Parse and replay one batch in a worker (see the module doc). The first game is
    replayed in full and travels as a report; the others fill one ``ctx.rows``, compact where
    the options ask it and the rows are not reports themselves (which travel in full)."""
    part: Part[RowsT] = Part()
    rows = ctx.rows()
    compact = ctx.options.compact and not isinstance(rows, Reports)
    first, rest = ctx.options.but(compact=False), ctx.options.but(compact=compact)
    head = True  # the batch's first game is still to come
    waiting: list[Finding] = []  # stray text's findings, for the next game of the batch
    for line, text, followed, notes in batch:
        got = _read(line, text, followed, notes, ctx)
        if isinstance(got, list):
            (part.lead if head else waiting).extend(got)
            continue
        rep = got if isinstance(got, GameReport) else replay_with(
            got, first if head else rest, file_guess=ctx.guess)
        if head:
            part.lead.append(travel_light(rep))
            head = False
            continue
        if waiting:
            rep.findings[:0] = [f.located(game_index=-1) for f in waiting]
            waiting = []
            restatus(rep)
        renumber(rep, rows.games_count)
        rows.add(rep)
    part.rows = rows if rows.games_count else None
    part.trailing = waiting
    return part


class _Order(Generic[RowsT]):
    """Numbers the parts of one file's batches in file order (see the module doc)."""

    def __init__(self, fname: str | None, rows: Callable[[], RowsT]) -> None:
        self.fname = fname
        self.rows = rows
        self.index = 0
        self.stray: list[Finding] = []

    def take(self, part: Part[RowsT]) -> Iterator[RowsT]:
        """The rows of ``part``, numbered from the games before it."""
        for item in part.lead:
            if isinstance(item, Finding):
                self.stray.append(item)
                continue
            index = self.index
            renumber(item, index)
            if self.stray:
                item.findings[:0] = [f.located(game_index=index) for f in self.stray]
                self.stray = []
                restatus(item)
            self.index += 1
            yield self._of(item)
        if part.rows is not None:
            part.rows.shift_game_index(self.index)
            self.index += part.rows.games_count
            yield part.rows
        self.stray.extend(part.trailing)

    def _of(self, report: GameReport) -> RowsT:
        rows = self.rows()
        rows.add(report)
        return rows

    def trailing(self, options: RunOptions) -> RowsT:
        """The rows of the text after the last game (as :func:`read_games` yields it)."""
        from pdnkit.pdn.record import GameRecord

        index = self.index
        rec = GameRecord(file=self.fname, index=index, line=self.stray[0].line or 1, raw="",
                         findings=[f.located(game_index=index) for f in self.stray])
        rec.findings.append(make_finding("empty-game", "text after the last game holds no "
                                         "game", file=self.fname, game_index=index))
        self.stray = []
        return self._of(replay_with(rec, options.but(irregular="stand", compact=False)))



#: a batch for a worker also ends when its game texts reach this many characters, so a
#: file of a few hundred games is shared among the workers rather than sent to one
BATCH_CHARS = 64_000
#: below this many bytes of input in all, ``validate(jobs=N)`` and ``import_files(jobs=N)``
#: stay in this process: starting workers and sending them the games costs more than the
#: replay they would share (measured: 23 small files, 0.5 MB, took longer with 2 workers)
PARALLEL_MIN_BYTES = 2_000_000


def worth_workers(sizes: Iterable[int | None], jobs: int,
                  min_bytes: int | None = None) -> bool:
    """True when ``jobs`` worker processes pay for themselves on inputs of these ``sizes``
    in bytes (``None``: unknown, a file object or standard input, counted as large).

    Example:
        >>> worth_workers([10_000] * 23, 2), worth_workers([5_000_000], 2)
        (False, True)
        >>> worth_workers([None], 2), worth_workers([5_000_000], 1)
        (True, False)
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


def run_batches(pool: Executor, chunks: Iterable[Chunk], size: int, limit: int,
                fn: Callable[..., R], *args: object) -> Iterator[R]:
    """Cut the splitter's ``chunks`` into batches of ``size`` game texts (``(first line,
    text, another chunk follows)``), run ``fn(batch, *args)`` on each in ``pool`` and yield the results in file
    order; at most ``limit`` batches wait beyond the one being submitted (bounded memory).
    Batches not yet collected are cancelled when the caller stops early.

    Example:
        >>> from concurrent.futures import ThreadPoolExecutor
        >>> from pdnkit.pdn.split import split_text
        >>> with ThreadPoolExecutor(2) as pool:
        ...     list(run_batches(pool, split_text("1. 32-28 *\\n\\n1. 33-29 *\\n\\n1. 34-30 *"),
        ...                      2, 2, len))
        [2, 1]
    """
    pending: deque[Future[R]] = deque()
    try:
        from pdnkit.pdn.reader import with_followed

        batch: Batch = []
        chars = 0
        for chunk, followed in with_followed(chunks):
            batch.append((chunk.line, chunk.text, followed, chunk.findings))
            chars += len(chunk.text)
            if len(batch) >= size or chars >= BATCH_CHARS:
                pending.append(pool.submit(fn, batch, *args))
                batch = []
                chars = 0
                while len(pending) > limit:
                    yield pending.popleft().result()
        if batch:
            pending.append(pool.submit(fn, batch, *args))
        while pending:
            yield pending.popleft().result()
    finally:
        for fut in pending:
            fut.cancel()


def parallel_rows(source: Source, options: RunOptions, rows: Callable[[], RowsT], pool: Executor,
                  jobs: int, chunk_size: int, guess: FileGuess | None = None
                  ) -> Iterator[RowsT]:
    """The rows of every game of ``source`` in file order, read and replayed by the ``jobs``
    workers of ``pool`` (see the module doc); records already read are replayed here."""
    from pdnkit.pdn.source import open_source, source_name

    chunk_size = max(1, int(chunk_size))
    for src in iter_sources(source):
        if is_record(src):  # a GameRecord: no parsing
            one = rows()
            one.add(replay_with(src, options))
            yield one
            continue
        file_guess = guess if guess is not None else file_guess_of(src, options)
        opened = open_source(src, options.encoding)
        fname = source_name(src) if isinstance(src, Path) else opened.name
        ctx = WorkContext(fname, opened.encoding, options, file_guess, rows)
        order = _Order(fname, rows)  # decoding findings travel with their chunks
        try:
            for part in run_batches(pool, opened.chunks, chunk_size, 2 * jobs, _work, ctx):
                yield from order.take(part)
        finally:
            opened.close()
        if order.stray:
            yield order.trailing(options)


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
