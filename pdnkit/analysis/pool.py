"""The engines at work: one thread and one engine per job, fed games by the calling thread,
which alone touches the database.

Each worker thread starts its own engine (the first is handed the one the analysis opened to
learn who the engine is), tells it a new game begins, evaluates the game's pending
positions one by one and hands the game's rows back whole; a position the engine does not
evaluate (:class:`~pdnkit.engines.base.EngineFault`) is a fault of that game, and the next
position gets a new engine process. :data:`MAX_FAULTS` faults in a row, or an engine that
cannot be started again, end the analysis with an
:class:`~pdnkit.engines.base.EngineError`. An engine is a child that ends with the thread that
started it (:func:`pdnkit._children.start_child`), and every thread ends its engine before it
ends.

Example:
    >>> from pdnkit.engines import open_engine
    >>> from pdnkit.rules import Position, get_rules
    >>> pool = Pool(open_engine("builtin", depth=1), lambda: open_engine("builtin", depth=1), 1)
    >>> pool.give(GameWork(1, "russian", [(0, Position.initial(get_rules("russian")))]))
    >>> kind, done = pool.take(5.0)
    >>> pool.close()
    >>> kind, done.game_id, [r["ply"] for r in done.rows], done.faults
    ('game', 1, [0], [])
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pdnkit.analysis.plan import GameWork
from pdnkit.analysis.rows import eval_row, terminal_row
from pdnkit.engines.base import EngineError, EngineFault

if TYPE_CHECKING:  # pragma: no cover
    from pdnkit.engines.base import Engine

__all__ = ["MAX_FAULTS", "GameDone", "Pool"]

#: positions in a row an engine may fail on before the analysis stops
MAX_FAULTS = 3


@dataclass
class GameDone:
    """A game's evaluated positions (rows with ``game_id`` and ``ply``), its faults
    (``(ply, kind, message)``) and how many positions an engine searched."""

    game_id: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    faults: list[tuple[int, str, str]] = field(default_factory=list)
    searched: int = 0


class Pool:
    """``jobs`` worker threads (:meth:`grow` adds more): the first runs ``first`` (None: an
    engine it starts with ``make()``, :meth:`first_engine`), each other one ``make()``."""

    def __init__(self, first: Engine | None, make: Callable[[], Engine], jobs: int) -> None:
        self.tasks: queue.Queue[GameWork | None] = queue.Queue()
        self.results: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.stop = threading.Event()
        self.engines: list[Engine] = []
        self._lock = threading.Lock()
        self._make = make
        self._ready: queue.Queue[Engine | Exception] = queue.Queue()
        self.threads: list[threading.Thread] = []
        self._add(first if first is not None else make)
        self.grow(jobs)

    def grow(self, jobs: int) -> None:
        """Workers up to ``jobs`` in all, each new one with an engine it starts itself."""
        while len(self.threads) < jobs:
            self._add(self._make)

    def _add(self, source: Engine | Callable[[], Engine]) -> None:
        i = len(self.threads)
        t = threading.Thread(target=self._work, args=(source, i == 0),
                             name=f"pdnkit-analyse-{i}", daemon=True)
        self.threads.append(t)
        t.start()

    def first_engine(self) -> Engine:
        """The first worker's engine once it has started (a pool made without ``first``
        starts it in that worker, which the engine's life is tied to, while this thread does
        something else); raises what its start raised."""
        while True:
            try:
                got = self._ready.get(timeout=0.2)
            except queue.Empty:
                continue
            self._ready.put(got)
            if isinstance(got, Exception):
                raise got
            return got

    def give(self, work: GameWork) -> None:
        """Queue one game for the workers."""
        self.tasks.put(work)

    def take(self, timeout: float) -> tuple[str, Any]:
        """The next result: ``("game", GameDone)``, ``("error", EngineError)``, or
        ``("idle", None)`` when none came within ``timeout`` seconds."""
        try:
            return self.results.get(timeout=timeout)
        except queue.Empty:
            return "idle", None

    def _work(self, source: Engine | Callable[[], Engine], first: bool) -> None:
        engine: Engine | None = None
        try:
            engine = source() if callable(source) else source
            with self._lock:
                self.engines.append(engine)
            if first:
                self._ready.put(engine)
            streak = 0
            while not self.stop.is_set():
                work = self.tasks.get()
                if work is None:
                    break
                done, streak = self._game(engine, work, streak)
                if done is not None:
                    self.results.put(("game", done))
        except Exception as exc:  # an engine that cannot go on (EngineError), or a fault of
            self.results.put(("error", exc))  # pdnkit's own: the analysis stops, says what
            if first and engine is None:
                self._ready.put(exc)
        finally:
            if engine is not None:
                with contextlib.suppress(Exception):
                    engine.close()

    def _game(self, engine: Engine, work: GameWork, streak: int
              ) -> tuple[GameDone | None, int]:
        done = GameDone(work.game_id)
        engine.new_game()
        for ply, pos in work.positions:
            if self.stop.is_set():
                return None, streak
            row = terminal_row(pos)
            if row is None:
                try:
                    row = eval_row(pos, engine.evaluate(pos))
                    done.searched += 1
                    streak = 0
                except EngineFault as fault:
                    if self.stop.is_set():
                        return None, streak
                    done.faults.append((ply, fault.kind, str(fault)))
                    streak += 1
                    if streak >= MAX_FAULTS:
                        raise EngineError(
                            f"the engine failed on {streak} positions in a row, the last in "
                            f"game {work.game_id}: {fault}; the analysis stopped (what was "
                            "evaluated is kept: run it again to go on)") from None
                    continue
            done.rows.append({"game_id": work.game_id, "ply": ply, **row})
        return done, streak

    def close(self, kill: bool = False) -> None:
        """Let the workers end (``kill``: at once, their engines killed) and wait for them."""
        if kill:
            self.stop.set()
            with self._lock:
                engines = list(self.engines)
            for e in engines:
                stop = getattr(e, "kill", None)
                if callable(stop):
                    with contextlib.suppress(Exception):
                        stop()
            with contextlib.suppress(queue.Empty):
                while True:
                    self.tasks.get_nowait()
        for _ in self.threads:
            self.tasks.put(None)
        for t in self.threads:
            t.join(timeout=30)
