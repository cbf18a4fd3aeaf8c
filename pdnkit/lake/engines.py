"""Where the lake's tasks run: this process (:class:`LocalEngine`) or a Dask cluster
(:class:`DaskEngine`); :func:`make_engine` by name.

Example:
    >>> type(make_engine("local")).__name__
    'LocalEngine'
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

from pdnkit.errors import ArgumentError
from pdnkit.lake.tasks import ChunkResult, ChunkTask, run_chunk


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
    raise ArgumentError(f"unknown engine {engine!r} (local or dask)")
