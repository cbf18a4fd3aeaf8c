"""The cost model of the jobs stage: whether worker processes pay, and when to stop using
them.

Workers cost something before they save anything: starting the pool, cutting and sending
the input, taking the results back in order in this process. Whether they pay is decided
on the run's own figures, not on ``--jobs`` alone:

* a prior on the input's size (:func:`worth_workers`: below :data:`PARALLEL_MIN_BYTES` in
  all no worker is ever started) and on the core (:func:`workers_can_pay`: which kind of
  part the workers are handed);
* the cores left idle by other programs while a file is pre-scanned
  (:meth:`Probe.busy`): none free, and the run is the one process's at once;
* the rate of the first games, replayed and timed in this process, with the idle cores
  meanwhile and the games left (:meth:`Probe.decide`, :func:`workers_pay`);
* the workers' own rate once they run (:meth:`Probe.slower`): slower than this process was,
  and the parts not yet started are read here, so ``--jobs 2`` is never slower for long on a
  machine whose other cores got busy.

The pool, the parts and the order of the results are :mod:`~pdnkit.validation.jobs`' job;
this module times nothing itself and replays nothing: it is told what was measured.

Example:
    >>> workers_pay(0.002, 5_000, 2, idle_cores=1.0), workers_pay(0.002, 5_000, 2, 0.1)
    (True, False)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from pdnkit.validation.inputs import Source, is_record, iter_sources

#: below this many bytes of input in all, no worker process is ever started: a few hundred
#: games, fewer than the probe replays in this process anyway (:func:`worth_workers`)
PARALLEL_MIN_BYTES = 256_000
#: games of the first file replayed in this process before anything is timed (the first
#: games of a run pay for what is built once: the parser, the rules' tables)
PROBE_WARMUP = 16
#: games of the first file replayed and timed in this process: their rate, and the cores
#: left idle meanwhile, decide whether workers pay (:func:`workers_pay`)
PROBE_GAMES = 48
#: seconds of games a probe over parts of a file times at least: the machine's idle time is
#: counted in clock ticks of 10 ms
PROBE_SECONDS = 0.04
#: seconds the workers run before their rate is held to this process's (:meth:`Probe.slower`)
CHECK_AFTER = 0.5
#: the share of the serial cost a game still costs this process when workers replay it
#: (cutting the text, sending it, taking the results back in order)
PARENT_SHARE = 0.15
#: an import on the compiled core, whose workers read, replay and make the rows Arrow
#: (:class:`pdnkit.rows.packed.PackingBatch`), as shares of what a game costs one importing
#: process (its CPU time, its DuckDB load included): what it still costs this process, which
#: loads every game's rows into DuckDB, indexes and settles them, and what it costs a worker
#: (``benchmarks/import_jobs.py``, 20,000 games: 0.46-0.53 and 0.56-0.64 of ``--jobs 1``'s
#: CPU, once a batch's statements cost half and the steps after the load got the second
#: core; 0.59-0.60 and 0.58-0.70 before). The model adds this process's share to the
#: workers' and sets it against ``--jobs 1``'s CPU, which is pessimistic on both sides
#: (the load overlaps the workers' replay; ``--jobs 1`` overlaps its own load): on two idle
#: cores it gives 0.55 + 0.65 / 2 = 0.875 of ``--jobs 1``, the phases' CPU projects
#: 0.62-0.86 of its wall. So workers are started on two idle cores, and the probe still
#: refuses them where the second core is busy (0.55 + 0.65 / 1.5 > :data:`MARGIN`)
IMPORT_PARENT_SHARE = 0.55
IMPORT_WORKER_COST = 0.65
#: what a game costs a worker, as a share of what it costs this process: the same reading
#: and replay, and its results pickled to cross back (``benchmarks/jobs.py``: 1.1-1.2 for
#: light reports of clean games)
WORKER_COST = 1.15
#: seconds to start a pool of workers (forked from this process)
POOL_START = 0.3
#: workers must finish in at most this share of the serial time to be used
MARGIN = 0.9


def workers_can_pay() -> bool:
    """Whether workers that read game texts cut here
    (:func:`pdnkit.validation.jobs.cut_batches`) can beat this process at all: only on the
    pure core. Such a worker reads through the Python reader, without the compiled lane, and
    on the compiled core two of them lost to one process on every input measured (validate
    of 20,000 games: 4.3 s in one process, 5.9 s with two workers); there a file goes to the
    workers in parts of its bytes instead, which they scan with the lane themselves
    (:func:`pdnkit.validation.jobs.file_parts`).

    Example:
        >>> from pdnkit.core import core_in_use
        >>> workers_can_pay() == (core_in_use() != "compiled")
        True
    """
    from pdnkit.core import core_in_use

    return core_in_use() != "compiled"


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
                start_cost: float = 0.0, parent_share: float = PARENT_SHARE,
                worker_cost: float = WORKER_COST) -> bool:
    """Whether ``jobs`` worker processes finish ``games_left`` games (``None``: unknown, a
    stream) sooner than this process, which replays one in ``per_game`` seconds, while
    ``idle_cores`` cores are left idle beside it; ``start_cost``: seconds to start them.

    The workers get this process's core and the idle ones (at most ``jobs``); without a
    second core they only share this one, and never pay. A game costs a worker
    ``worker_cost`` times what it costs this process, and this process still spends
    ``parent_share`` of that on each (:data:`WORKER_COST` and :data:`PARENT_SHARE`: taking
    it back in order; :data:`IMPORT_WORKER_COST` and :data:`IMPORT_PARENT_SHARE` for an
    import, whose parent loads it too); they must win by
    :data:`MARGIN`. So on two cores workers pay only where most of the second one is idle.

    Example:
        >>> workers_pay(0.002, 5_000, 2, idle_cores=1.0)    # 10 s of work, a free core
        True
        >>> workers_pay(0.002, 5_000, 2, idle_cores=0.1)    # the machine is busy
        False
        >>> workers_pay(0.002, 50, 2, idle_cores=1.0, start_cost=0.3)   # too little left
        False
        >>> workers_pay(0.002, 5_000, 2, idle_cores=0.5)    # a second core, half busy
        False
        >>> imports = {"parent_share": IMPORT_PARENT_SHARE, "worker_cost": IMPORT_WORKER_COST}
        >>> workers_pay(0.002, 5_000, 2, 1.0, **imports)   # an import, two idle cores
        True
        >>> workers_pay(0.002, 5_000, 2, 0.5, **imports)   # ... the second one half busy
        False
    """
    if jobs <= 1:
        return False
    cores = min(float(jobs), 1.0 + max(0.0, idle_cores))
    share = worker_cost / cores + parent_share  # of the serial time, a game at a time
    if share >= MARGIN:  # one core (or two, the second mostly busy): never faster
        return False
    if games_left is None:
        return True
    serial = games_left * per_game
    return start_cost + serial * share < serial * MARGIN


def could_pay(jobs: int, parent_share: float = PARENT_SHARE,
              worker_cost: float = WORKER_COST) -> bool:
    """Whether ``jobs`` workers could pay on this machine at best: every other core idle and
    many games left (:func:`workers_pay`). A prior, before any pool is started: where it is
    false (one core) no worker is ever started.

    Example:
        >>> could_pay(1)
        False
        >>> could_pay(2) == (default_jobs() > 1)
        True
    """
    return workers_pay(1.0, None, jobs, float(default_jobs() - 1), 0.0, parent_share,
                       worker_cost)


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


class Probe:
    """Decides once per run whether workers pay, from what the jobs stage measured: the
    first :data:`PROBE_WARMUP` games are replayed in this process untimed, the next
    :data:`PROBE_GAMES` timed (with the cores left idle meanwhile, :meth:`timed`), and
    :func:`workers_pay` judges the games left, estimated from the bytes of input left
    (``total``: the run's known input size in bytes, ``None`` for a stream). ``started``:
    whether the pool already exists (no start cost); ``parent_share`` and ``worker_cost``:
    what a game still costs this process when a worker replays it, and what it costs the
    worker (:func:`workers_pay`).

    Example:
        >>> probe = Probe(2, total=None, started=True)
        >>> probe.timing(), probe.use_workers
        (False, None)
    """

    def __init__(self, jobs: int, total: int | None, started: bool,
                 parent_share: float = PARENT_SHARE, worker_cost: float = WORKER_COST
                 ) -> None:
        self.jobs = jobs
        self.parent_share = parent_share
        self.worker_cost = worker_cost
        self.total = total
        self.started = started
        self.chars = 0  # characters of game text read so far
        self.games = 0  # chunks replayed by the probe so far
        self.timed_so_far = (0.0, 0, 0)  # seconds, games, characters of the timed games
        self.idle: tuple[float, float, int] | None = None  # the machine's, at the timing's start
        self.use_workers: bool | None = None  # None: not decided yet
        #: seconds and games of the timed parts of files, what the caller did with each
        #: game included
        self.wall = (0.0, 0)

    def timing(self) -> bool:
        """Whether the games replayed next are timed (the warm-up is over)."""
        return self.games >= PROBE_WARMUP

    def start_clock(self) -> None:
        """Note the machine's idle time where timing starts (once)."""
        if self.idle is None:
            self.idle = cpu_idle()

    def timed(self, seconds: float, games: int, chars: int, wall: float | None = None,
              at_least: float = 0.0) -> None:
        """Take ``games`` games of ``chars`` characters that this process replayed in
        ``seconds`` (``wall``: seconds with what the caller did with them included, for
        :meth:`rate`); timed only past the warm-up. Decide once :data:`PROBE_GAMES` games
        (and ``at_least`` seconds) were timed."""
        timing = self.timing()
        self.games += games
        self.chars += chars
        if not timing:
            return
        spent, count, read = self.timed_so_far
        self.timed_so_far = (spent + seconds, count + games, read + chars)
        if wall is not None:
            self.wall = (self.wall[0] + wall, self.wall[1] + games)
        if self.timed_so_far[1] >= PROBE_GAMES and self.timed_so_far[0] >= at_least:
            self.use_workers = self.decide(*self.timed_so_far, self.idle, cpu_idle())

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

    def busy(self, idle0: tuple[float, float, int] | None,
             idle1: tuple[float, float, int] | None) -> None:
        """Decide at once against workers when too few cores were idle between ``idle0``
        and ``idle1`` (a file's pre-scan: a few clock ticks, before any part is cut or
        timed) for workers to pay whatever the rate (:func:`workers_pay`), so a run on a
        busy machine is the one process's run."""
        if idle0 is None or idle1 is None or idle1[1] - idle0[1] < 2:
            return
        share = (idle1[0] - idle0[0]) / (idle1[1] - idle0[1])
        if not workers_pay(1.0, None, self.jobs, share * idle1[2],
                           parent_share=self.parent_share, worker_cost=self.worker_cost):
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
                           0.0 if self.started else POOL_START, self.parent_share,
                           self.worker_cost)


def total_size(source: Source) -> int | None:
    """The bytes of input of ``source`` in all (``None`` when one input's size is unknown).

    Example:
        >>> total_size(["1. 32-28 *", "1. 33-29 *"])
        20
    """
    sizes = list(input_sizes(source))
    return None if None in sizes else sum(s or 0 for s in sizes)


def input_sizes(source: Source) -> Iterator[int | None]:
    """The size in bytes of each input of ``source`` (``None`` when unknown).

    Example:
        >>> list(input_sizes("1. 32-28 *"))
        [10]
    """
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


__all__ = ["CHECK_AFTER", "IMPORT_PARENT_SHARE", "IMPORT_WORKER_COST", "MARGIN",
           "PARALLEL_MIN_BYTES", "PARENT_SHARE", "POOL_START", "PROBE_GAMES", "PROBE_SECONDS",
           "PROBE_WARMUP", "WORKER_COST", "Probe", "could_pay", "cpu_idle", "default_jobs",
           "input_sizes", "total_size", "worth_workers", "workers_can_pay", "workers_pay"]
