"""Helpers of :mod:`pdnkit.replay`: validation in worker processes, order preserved.

The parent process only reads lines and cuts them into game chunks (the reader's cheap
splitter); batches of ``chunk_size`` chunks go to the workers, which parse and replay them and
send the reports back. At most ``2 * jobs + 1`` batches are in flight, so memory stays flat
however large the collection. Game numbering follows :func:`pdnkit.pdn.read_games`: text
between games that is neither tags nor moves is not a game, and its finding moves to the next
game; the parent renumbers the reports in file order.

Example:
    >>> from pdnkit.replay import validate
    >>> [r.index for r in validate("1. 32-28 *\\n1. 33-29 *\\n1. 34-30 *", "international",
    ...                            jobs=2, chunk_size=1)]
    [0, 1, 2]
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

Batch = list[tuple[int, str]]  # (first line, chunk text)


def _open(src: Any) -> tuple[Any, str | None, str | None, Any]:
    """(line iterator or None for a text source, encoding, file name, closer)."""
    from pdnkit.pdn import reader

    return reader._open_lines(src, None)


def _chunks(src: Any) -> tuple[Iterator[Any], str | None, str | None, Any]:
    from pdnkit.pdn.split import split_lines, split_text

    lines, enc, name, closer = _open(src)
    if lines is None:
        return split_text(str(src)), enc, name, closer
    return split_lines(lines), enc, name, closer


def _work(batch: Batch, file: str | None, enc: str | None, strict: bool,
          variant: str | None, edition: str | None, convention: str,
          light: bool) -> list[tuple[str, Any]]:
    """Parse and replay one batch in a worker: ``("stray", finding)`` for text that is not a
    game, else ``("game", report)`` with a provisional index of -1."""
    from pdnkit.findings import make_finding
    from pdnkit.pdn import reader
    from pdnkit.replay import replay

    stray = getattr(reader, "_is_stray_text", None)
    excerpt = getattr(reader, "_excerpt", repr)
    out: list[tuple[str, Any]] = []
    for line, text in batch:
        rec = reader.parse_game(text, strict=strict, file=file, index=-1, line=line,
                                encoding=enc)
        if stray is not None and stray(rec):
            out.append(("stray", make_finding(
                "ignored-text", "text between games that is neither tags nor moves was "
                f"skipped: {excerpt(rec.raw)}",
                file=file, line=rec.line)))
            continue
        rep = replay(rec, variant=variant, edition=edition, result_convention=convention,
                     light=light)
        rep.final_position = None
        for p in rep.plies:
            p.materialize()
        out.append(("game", rep))
    return out


def _renumber(rep: Any, index: int) -> None:
    rep.index = index
    if rep.record is not None:
        rep.record.index = index
        for f in rep.record.findings:
            if f.game_index == -1:
                f.game_index = index
    for f in rep.findings:
        if f.game_index == -1:
            f.game_index = index


def _restatus(rep: Any) -> None:
    """The status again after findings were added in the parent (as the serial reader adds
    them before replay); an unparsed game stays unparsed."""
    from pdnkit.findings import Severity, worst

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
        self.stray: list[Any] = []

    def take(self, results: list[tuple[str, Any]]) -> Iterator[Any]:
        from pdnkit.findings import make_finding

        for kind, item in results:
            if kind == "stray":
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
                 light: bool) -> Any:
        """The report for text after the last game (as :func:`read_games` yields it)."""
        from pdnkit.findings import make_finding
        from pdnkit.pdn.record import GameRecord
        from pdnkit.replay import replay

        index = self.index
        rec = GameRecord(file=self.fname, index=index, line=self.stray[0].line or 1, raw="",
                         findings=[f.located(game_index=index) for f in self.stray])
        rec.findings.append(make_finding("empty-game", "text after the last game holds no "
                                         "game", file=self.fname, game_index=index))
        return replay(rec, variant=variant, edition=edition, result_convention=convention,
                      light=light)


def run_batches(pool: Any, chunks: Iterable[Any], size: int, limit: int,
                fn: Callable[..., Any], *args: Any) -> Iterator[Any]:
    """Cut the splitter's ``chunks`` into batches of ``size`` game texts (``(first line,
    text)``), run ``fn(batch, *args)`` on each in ``pool`` and yield the results in file
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
    pending: deque[Future[Any]] = deque()
    try:
        batch: Batch = []
        for chunk in chunks:
            if not chunk.has_content:
                continue
            batch.append((chunk.line, chunk.text))
            if len(batch) >= size:
                pending.append(pool.submit(fn, batch, *args))
                batch = []
                while len(pending) > limit:
                    yield pending.popleft().result()
        if batch:
            pending.append(pool.submit(fn, batch, *args))
        while pending:
            yield pending.popleft().result()
    finally:
        for fut in pending:
            fut.cancel()


def validate_parallel(source: Any, variant: str | None, *, edition: str | None, jobs: int,
                      result_convention: str, strict: bool, light: bool,
                      chunk_size: int) -> Iterator[Any]:
    """:func:`pdnkit.replay.validate` with ``jobs`` worker processes (see the module doc)."""
    from pdnkit.pdn.decode import LEGACY
    from pdnkit.replay import iter_sources

    chunk_size = max(1, int(chunk_size))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for src in iter_sources(source):
            if hasattr(src, "tags") and hasattr(src, "moves"):  # a GameRecord: no parsing
                from pdnkit.replay import replay

                yield replay(src, variant=variant, edition=edition,
                             result_convention=result_convention, light=light)
                continue
            chunks, enc, name, closer = _chunks(src)
            fname = str(src) if isinstance(src, Path) else name
            fallback = enc is not None and enc.lower().replace("_", "-") in LEGACY
            order = _Order(fname, enc if fallback else None)
            try:
                for results in run_batches(pool, chunks, chunk_size, 2 * jobs, _work, fname,
                                           enc, strict, variant, edition, result_convention,
                                           light):
                    yield from order.take(results)
            finally:
                if closer is not None:
                    closer.close()
            if order.stray:
                yield order.trailing(variant, edition, result_convention, light)


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
