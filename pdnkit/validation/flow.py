"""The one way from a source to results in file order: :func:`run`.

Every caller that reads games drives the pipeline through here: ``validate`` asks for the
reports themselves (:class:`~pdnkit.validation.collect.Reports`), the database loader for its
row batches (:class:`pdnkit.rows.batch.ReportBatch`), a lake task for the same rows of one
byte range. The rows class says what is built from each report and when a batch is full; a
run reads and replays in this process (:func:`~pdnkit.validation.pipeline.serial_reports`),
or in worker processes (:func:`~pdnkit.validation.jobs.parallel_rows`), which build the rows
themselves and send them back numbered in file order. Either way the results are the same.

Example:
    >>> from pdnkit.validation.collect import Reports
    >>> from pdnkit.validation.runoptions import RunOptions
    >>> text = "1. 32-28 *\\n\\n1. 33-29 *"
    >>> [[r.index for r in rows] for rows in run(text, RunOptions(variant="international"),
    ...                                          Reports)]
    [[0], [1]]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from pdnkit.validation.collect import RowsT, batched
from pdnkit.validation.inputs import Source
from pdnkit.validation.pipeline import serial_reports
from pdnkit.validation.runoptions import RunOptions

if TYPE_CHECKING:
    from pdnkit.validation.jobs import Workers
    from pdnkit.validation.resolve import FileGuess

#: games of a file sent to a worker process at a time (also ``validate``'s ``chunk_size``)
CHUNK_GAMES = 200


def run(source: Source, options: RunOptions, rows: Callable[[], RowsT], *, jobs: int = 1,
        chunk_size: int = CHUNK_GAMES, workers: Workers | None = None,
        guess: FileGuess | None = None) -> Iterator[RowsT]:
    """Read and replay every game of ``source`` under ``options`` and yield ``rows``
    objects filled with their reports, in file order.

    In this process (``jobs`` <= 1, or an input too small for workers ever to pay:
    :func:`~pdnkit.validation.costs.worth_workers`) a rows object is handed on as soon as it
    is ``full()``. Otherwise the first games are replayed here and timed, and only where
    workers pay on the games left (:func:`~pdnkit.validation.costs.workers_pay`: a second
    core free, enough work) do the others go to them: each batch of ``chunk_size`` games
    comes back as rows built in a worker, its first game as rows of its own. ``workers``
    (:class:`~pdnkit.validation.jobs.Workers`) serves a caller that runs many times with
    the same workers and one decision (an import of many files); else ``jobs`` workers are
    started for this run when they pay. ``guess``: the file's variant decided beforehand (a
    caller that reads one file in parts), else each file is pre-scanned. ``rows`` makes an
    empty rows object (a class, or a ``functools.partial`` of one: it pickles for the
    workers): :class:`~pdnkit.validation.collect.Reports` or
    :class:`pdnkit.rows.batch.ReportBatch`.

    Example:
        >>> from pdnkit.rows.batch import ReportBatch
        >>> text = '[GameType "20"] 1. 32-28 19-23 *'
        >>> [(b.games_count, b.plies_count) for b in run(text, RunOptions(), ReportBatch)]
        [(1, 2)]
    """
    if workers is None and (jobs <= 1 or not _pays(source, jobs)):
        yield from _serial(source, options, rows, guess)  # the jobs stage is not imported
        return
    from pdnkit.validation.costs import total_size
    from pdnkit.validation.jobs import Workers, parallel_rows

    if workers is not None:
        yield from parallel_rows(source, options, rows, workers, chunk_size, guess)
        return
    with Workers(jobs, total_size(source)) as own:  # started only if they pay
        yield from parallel_rows(source, options, rows, own, chunk_size, guess)


def _pays(source: Source, jobs: int) -> bool:
    """Whether workers pay for themselves on ``source`` (an input that cannot be read twice,
    a file object or a stream of records, is given them)."""
    from pdnkit.validation.costs import input_sizes, worth_workers

    countable = isinstance(source, (str, os.PathLike, list, tuple))  # read twice
    return not countable or worth_workers(input_sizes(source), jobs)


def _serial(source: Source, options: RunOptions, rows: Callable[[], RowsT],
            guess: FileGuess | None) -> Iterator[RowsT]:
    return batched(serial_reports(source, options, guess), rows)


__all__ = ["CHUNK_GAMES", "run"]
