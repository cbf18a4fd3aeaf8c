"""The jobs stage of the validator: validation in worker processes, order preserved.

The parent process only reads lines and cuts them into game chunks (the reader's cheap
splitter); batches of ``chunk_size`` chunks go to the workers, which parse and replay them and
send the reports back. At most ``2 * jobs + 1`` batches are in flight, so memory stays flat
however large the collection. Game numbering follows :func:`pdnkit.pdn.read_games`: text
between games that is neither tags nor moves is not a game, and its finding moves to the next
game; the parent renumbers the reports in file order.

This module sits on top of the core (:mod:`~pdnkit.validation.pipeline`): the core never
imports it; :func:`pdnkit.validation.validate` hands over to it when ``jobs > 1``.

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
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pdnkit.findings import Finding, Severity, make_finding, worst
from pdnkit.validation.pipeline import failed_report, file_guess_of, replay
from pdnkit.validation.report import GameReport
from pdnkit.validation.sources import FileInput, Source, is_record, iter_sources

if TYPE_CHECKING:
    from pdnkit.pdn.source import Opened
    from pdnkit.pdn.split import Chunk
    from pdnkit.validation.resolve import FileGuess

#: (first line, chunk text, another chunk follows, decoding findings of its lines)
Batch = list[tuple[int, str, bool, list[Finding]]]
#: what a worker sends back for one chunk: ``("stray", finding)`` or ``("game", report)``
WorkItem = tuple[str, "Finding | GameReport"]
R = TypeVar("R")


def _chunks(src: FileInput, encoding: str | None = None
            ) -> tuple[Iterator[Chunk], Opened, str | None, Opened]:
    """(the game chunks of ``src``, the opened source (its ``encoding`` is decided while
    reading), its file name, what to close) -- :func:`pdnkit.pdn.source.open_source`."""
    from pdnkit.pdn.source import open_source

    opened = open_source(src, encoding)
    return opened.chunks, opened, opened.name, opened


def _work(batch: Batch, file: str | None, enc: str | None, strict: bool,
          variant: str | None, edition: str | None, convention: str,
          light: bool, irregular: str = "stand",
          file_guess: FileGuess | None = None) -> list[WorkItem]:
    """Parse and replay one batch in a worker: ``("stray", finding)`` for text that is not a
    game, else ``("game", report)`` with a provisional index of -1."""
    from pdnkit.pdn import reader
    from pdnkit.pdn.source import bare_record
    from pdnkit.pdn.split import Chunk

    out: list[WorkItem] = []
    for line, text, followed, notes in batch:
        try:
            bare = None if text else bare_record(Chunk("", line, line, True, notes),
                                                 file=file, index=-1, encoding=enc)
            rec = bare or reader.parse_game(text, strict=strict, file=file, index=-1,
                                            line=line, encoding=enc, followed=followed)
            stray = bool(text) and reader.is_stray_text(rec)
        except Exception as exc:  # noqa: BLE001 - one game never stops a collection
            from pdnkit.pdn.record import GameRecord

            rec = GameRecord(file=file, index=-1, line=line, raw=text)
            rec.parsed = False
            out.append(("game", failed_report(rec, exc, "reading this game")))
            continue
        if stray:
            out.extend(("stray", f) for f in notes)
            out.append(("stray", make_finding(
                "ignored-text", "text between games that is neither tags nor moves was "
                f"skipped: {reader._excerpt(rec.raw)}",
                file=file, line=rec.line)))
            continue
        if text and notes:
            rec.findings[:0] = [f.located(file=file, game_index=-1) for f in notes]
        rep = replay(rec, variant=variant, edition=edition, result_convention=convention,
                     light=light, irregular=irregular, file_guess=file_guess)
        rep.final_position = None
        for p in rep.plies:
            p.materialize()
        out.append(("game", rep))
    return out


def _renumber(rep: GameReport, index: int) -> None:
    rep.index = index
    if rep.record is not None:
        rep.record.index = index
        for f in rep.record.findings:
            if f.game_index == -1:
                f.game_index = index
    for f in rep.findings:
        if f.game_index == -1:
            f.game_index = index


def _restatus(rep: GameReport) -> None:
    """The status again after findings were added in the parent (as the serial reader adds
    them before replay); an unparsed game stays unparsed."""
    if rep.status == "unparsed":
        return
    w = worst(rep.findings)
    rep.status = "ok" if w is None or w is Severity.INFO else w.value


class _Order:
    """Renumbers worker results of one file in file order (see the module doc)."""

    def __init__(self, fname: str | None, fallback_encoding: str | None) -> None:
        self.fname = fname
        self.fallback = fallback_encoding
        self.index = 0
        self.stray: list[Finding] = []

    def take(self, results: Iterable[WorkItem]) -> Iterator[GameReport]:
        for _kind, item in results:
            if isinstance(item, Finding):  # "stray"
                self.stray.append(item)
                continue
            index = self.index
            _renumber(item, index)
            if index == 0 and self.fallback:
                item.findings.insert(0, make_finding(
                    "encoding-fallback", f"the file is not UTF-8; decoded as {self.fallback}",
                    file=self.fname, game_index=0, details={"encoding": self.fallback}))
            if self.stray:
                item.findings[:0] = [f.located(game_index=index) for f in self.stray]
                self.stray = []
                _restatus(item)
            elif index == 0 and self.fallback:
                _restatus(item)
            self.index += 1
            yield item

    def trailing(self, variant: str | None, edition: str | None, convention: str,
                 light: bool, file_guess: FileGuess | None = None) -> GameReport:
        """The report for text after the last game (as :func:`read_games` yields it)."""
        from pdnkit.pdn.record import GameRecord

        index = self.index
        rec = GameRecord(file=self.fname, index=index, line=self.stray[0].line or 1, raw="",
                         findings=[f.located(game_index=index) for f in self.stray])
        rec.findings.append(make_finding("empty-game", "text after the last game holds no "
                                         "game", file=self.fname, game_index=index))
        return replay(rec, variant=variant, edition=edition, result_convention=convention,
                      light=light)


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


def validate_parallel(source: Source, variant: str | None, *, edition: str | None, jobs: int,
                      result_convention: str, strict: bool, light: bool,
                      chunk_size: int, encoding: str | None = None,
                      irregular: str = "stand") -> Iterator[GameReport]:
    """:func:`pdnkit.validation.validate` with ``jobs`` worker processes (see the module
    doc)."""
    from pdnkit.pdn.source import source_name

    chunk_size = max(1, int(chunk_size))
    from pdnkit._children import process_pool

    with process_pool(jobs) as pool:  # workers die with this process
        for src in iter_sources(source):
            if is_record(src):  # a GameRecord: no parsing
                yield replay(src, variant=variant, edition=edition,
                             result_convention=result_convention, light=light,
                             irregular=irregular)
                continue
            guess = file_guess_of(src, variant, edition, encoding)
            chunks, opened, name, closer = _chunks(src, encoding)
            enc = opened.encoding
            fname = source_name(src) if isinstance(src, Path) else name
            order = _Order(fname, None)  # decoding findings travel with their chunks
            try:
                for results in run_batches(pool, chunks, chunk_size, 2 * jobs, _work, fname,
                                           enc, strict, variant, edition, result_convention,
                                           light, irregular, guess):
                    yield from order.take(results)
            finally:
                if closer is not None:
                    closer.close()
            if order.stray:
                yield order.trailing(variant, edition, result_convention, light, guess)


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
