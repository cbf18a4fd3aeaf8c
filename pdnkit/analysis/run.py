"""``pdnkit analyse``: every position of every game evaluated by an engine, kept in ``evals``,
and the moves judged into findings.

:func:`analyse` imports the files it is given (a file already in the database is not read
again), opens the engine, and evaluates each position of the main lines of the games it
covers that the ``evals`` table does not yet hold under the analysis key (engine, version,
settings): a second run evaluates nothing and writes nothing; a run stopped by Ctrl-C or a
kill goes on where it stopped. Games of a variant the engine does not play are left out and
said so. Rows are committed a few games at a time, a game's rows whole. Then the moves are
judged (:mod:`pdnkit.analysis.thresholds`) and the ``blunder``, ``mistake`` and ``missed-shot``
findings brought up to date.

Example:
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "g.pdn").write_text('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *\\n')
    >>> s = analyse([d / "g.pdn"], db=d / "g.duckdb", engine="builtin", depth=2)
    >>> s.positions, s.searched, analyse(db=d / "g.duckdb", engine="builtin", depth=2).positions
    (5, 5, 0)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.analysis.plan import GameWork, pending_work, scope_games, write_faults, write_rows
from pdnkit.analysis.pool import GameDone, Pool
from pdnkit.analysis.thresholds import THRESHOLDS, Thresholds, write_mistakes
from pdnkit.errors import ArgumentError
from pdnkit.store.evals import AnalysisKey
from pdnkit.store.session import DbLike, writing

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

    from pdnkit.analysis.plan import ScopeGame
    from pdnkit.engines.base import Engine
    from pdnkit.store.ingest import ImportSummary

__all__ = ["MIN_POSITIONS_PER_ENGINE", "AnalysisSummary", "analyse", "engines_for"]

#: seconds (or games) between two commits of evaluated games
COMMIT_SECONDS = 1.0
COMMIT_GAMES = 200
#: positions each engine must have to evaluate for one more engine to start: a start (a
#: process, its handshake, an engine's tables) costs what a few dozen searches cost
MIN_POSITIONS_PER_ENGINE = 40
#: positions of a game one engine evaluates at a time when several work at once (each piece
#: begins with a new game for the engine)
PIECE = 40


def engines_for(jobs: int, pending: list[int]) -> int:
    """How many engines work at once for ``jobs`` with ``pending`` positions per game: no
    more than there are games (a game is one engine's), nor than give each engine
    :data:`MIN_POSITIONS_PER_ENGINE` positions; one at least. The machine's load does not
    lower it: each engine is a process of its own, and a busy machine's scheduler gives
    each its share, so a second engine is never slower but for its start.

    Example:
        >>> engines_for(2, [100, 100]), engines_for(2, [100]), engines_for(4, [30, 30, 5])
        (2, 1, 1)
    """
    total = sum(pending)
    return max(1, min(jobs, len(pending), total // MIN_POSITIONS_PER_ENGINE))


@dataclass
class AnalysisSummary:
    """What one analysis did: the analysis ``key``; ``games`` covered (with positions);
    ``positions`` evaluated now (``searched`` of them by the engine, the rest positions
    without a legal move); ``already`` (positions found done); ``faults`` (positions the
    engine did not evaluate); ``skipped`` (variant -> games the engine does not play);
    ``findings`` (code -> count in the games covered); ``imported`` (the import's summary,
    when files were given); ``interrupted``; ``seconds``."""

    db: str
    key: AnalysisKey | None = None
    games: int = 0
    positions: int = 0
    searched: int = 0
    already: int = 0
    faults: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    findings: dict[str, int] = field(default_factory=dict)
    imported: ImportSummary | None = None
    interrupted: bool = False
    seconds: float = 0.0
    #: the games covered: an SQL condition on ``games g`` and its parameters
    scope: tuple[str, list[Any]] = ("TRUE", [])

    def __str__(self) -> str:
        key = self.key.label if self.key else "no engine"
        rate = self.positions / self.seconds if self.seconds > 0 else 0.0
        text = (f"{self.db}: {key}: {self.games} games, {self.positions} positions evaluated "
                f"now ({rate:,.1f}/s), {self.already} already done")
        if self.faults:
            text += f", {self.faults} not evaluated (engine-failed)"
        if self.findings:
            text += "; " + ", ".join(f"{v} {k}" for k, v in sorted(self.findings.items()))
        return text + f"; {self.seconds:.1f} s"


def _scope(con: duckdb.DuckDBPyConnection, imported: ImportSummary | None,
           where: str | None) -> tuple[str, list[Any]]:
    """The games the analysis covers: the files just imported (or found), and ``where``."""
    parts: list[str] = []
    params: list[Any] = []
    if imported is not None:
        ids = [f.file_id for f in imported.files if f.file_id is not None]
        shas = [f.sha256 for f in imported.files if f.file_id is None and f.sha256]
        if shas:
            ids += [int(r[0]) for r in con.execute(
                f"SELECT file_id FROM files WHERE sha256 IN ({', '.join('?' for _ in shas)})",
                shas).fetchall()]
        parts.append(f"g.file_id IN ({', '.join(str(int(i)) for i in ids) or 'NULL'})")
    if where:
        parts.append(f"({where})")
    return " AND ".join(parts) or "TRUE", params


def _once(con: duckdb.DuckDBPyConnection, scope: str, params: list[Any],
          note: Callable[[str], None]) -> str:
    """``scope`` with each game once (``games.duplicate_of``, :mod:`pdnkit.store.copies`):
    the records standing for the games it selects, whichever of their copies it selects;
    ``note`` hears how many copies were left to them."""
    row = con.execute(f"SELECT count(*) FROM games g WHERE ({scope}) AND g.duplicate_of "
                      "IS NOT NULL", params).fetchone()
    if row and row[0]:
        n = int(row[0])
        note(f"{n} cop{'ies' if n != 1 else 'y'} of games analysed as the record standing "
             "for them (--all-copies: every record)")
    return (f"g.duplicate_of IS NULL AND g.game_id IN (SELECT coalesce(g.duplicate_of, "
            f"g.game_id) FROM games g WHERE {scope})")


_UNKNOWN = "(unknown variant)"


def _playable(engine: Engine, games: list[ScopeGame],
              note: Callable[[str], None]) -> tuple[list[ScopeGame], Counter[str]]:
    from pdnkit.rules import get_rules

    skipped: Counter[str] = Counter()
    keep = []
    for g in games:
        if g.variant and engine.plays(get_rules(g.variant)):
            keep.append(g)
        else:
            skipped[g.variant or _UNKNOWN] += 1
    for variant, n in sorted(skipped.items()):
        games_of = f"{n} game{'s' * (n != 1)}"
        if variant == _UNKNOWN:
            note(f"{games_of} without a known variant left out (no rules to search them by)")
            continue
        plays = ", ".join(engine.info.variants) or "international"
        note(f"{games_of} of {variant} left out: {engine.info.label} plays {plays}")
    return keep, skipped


def analyse(paths: Iterable[str | Path] | str | Path | None = None, db: DbLike = None, *,
            engine: str = "builtin", depth: int | None = None, movetime: float | None = None,
            params: Mapping[str, str] | None = None, timeout: float | None = None,
            jobs: int = 1, where: str | None = None, variant: str | None = None,
            thresholds: Thresholds | None = None, progress: bool = False,
            note: Callable[[str], None] | None = None,
            all_copies: bool = False) -> AnalysisSummary:
    """Analyse the games of ``paths`` (PDN files or folders, imported first where needed;
    None: every game of the database, or those ``where`` selects: an SQL condition on
    ``games g``) with ``engine`` (``builtin``, or a Hub engine's command line) at ``depth``
    or ``movetime`` seconds a position, ``params`` set, ``jobs`` engines at once. ``variant``
    is the import's (games without a tag); ``thresholds`` replace the scale's for the
    findings; ``note`` receives what is worth saying on the way (games left out);
    ``progress`` draws a bar on a terminal. Each game is analysed once: a copy of a game
    (``games.duplicate_of``, ``pdnkit duplicates``) is analysed as the record standing for
    it; ``all_copies`` analyses every record. Returns an :class:`AnalysisSummary`; a Ctrl-C
    keeps what was evaluated and raises ``KeyboardInterrupt``. An engine that cannot be used
    raises :class:`~pdnkit.engines.base.EngineError`."""
    from pdnkit.engines import open_engine

    start = time.perf_counter()
    if not isinstance(jobs, int) or jobs < 1:
        raise ArgumentError(f"jobs must be at least 1, not {jobs!r}")
    say = note or (lambda text: None)
    make = lambda: open_engine(engine, depth=depth, movetime=movetime,  # noqa: E731
                               params=params, timeout=timeout)
    # the first engine starts in the worker it belongs to while this thread imports the files
    # and opens the database
    pool = Pool(None, make, 1)
    summary = AnalysisSummary(db=str(db) if db is not None else "pdnkit.duckdb")
    done = False
    try:
        if paths is not None:
            from pdnkit.store import import_files

            summary.imported = import_files(paths, db=db, variant=variant, progress=progress)
        first = pool.first_engine()
        with writing(db, what="an analysis") as con:
            key = AnalysisKey.of(first.info, first.scale)
            summary.key = key
            scope, sparams = _scope(con, summary.imported, where)
            if not all_copies:
                scope = _once(con, scope, sparams, say)
            summary.scope = (scope, sparams)
            games, summary.skipped = _playable(first, scope_games(con, key, scope, sparams),
                                               say)
            summary.games = len(games)
            summary.already = sum(g.done for g in games)
            total = sum(g.positions - g.done for g in games)
            try:
                _run(con, key, games, pool, jobs, total, progress, summary)
            finally:
                if not summary.interrupted:
                    t = thresholds or THRESHOLDS.get(key.scale, Thresholds())
                    summary.findings = write_mistakes(con, key, scope, sparams, t)
        done = True
    finally:
        pool.close(kill=not done)
        summary.seconds = time.perf_counter() - start
    return summary


def _run(con: duckdb.DuckDBPyConnection, key: AnalysisKey, games: list[ScopeGame],
         pool: Pool, jobs: int, total: int, progress: bool, summary: AnalysisSummary) -> None:
    """Feed the pending games to the workers (as many as :func:`engines_for` says) and write
    what comes back."""
    if total == 0:
        return
    bar = _Bar(total) if progress else None
    work = pending_work(con, key, games)
    pool.grow(engines_for(jobs, [g.positions - g.done for g in games if g.done < g.positions]))
    rows: list[dict[str, Any]] = []
    faults: dict[int, list[tuple[int, str, str]]] = {}
    gather = _Pieces()
    out, last, exhausted, error = 0, time.monotonic(), False, None
    try:
        while True:
            while not exhausted and out < 2 * len(pool.threads):
                item = next(work, None)
                if item is None:
                    exhausted = True
                    break
                for piece in gather.pieces(item, len(pool.threads) > 1):
                    pool.give(piece)
                    out += 1
            if exhausted and out == 0:
                break
            kind, value = pool.take(0.2)
            if kind == "error":
                error = value
                break
            if kind == "game":
                out -= 1
                whole = gather.back(value)
                if whole is not None:
                    rows += whole.rows
                    faults[whole.game_id] = whole.faults
                summary.positions += len(value.rows)
                summary.searched += value.searched
                summary.faults += len(value.faults)
                if bar is not None:
                    bar.advance(len(value.rows) + len(value.faults))
            if rows and (time.monotonic() - last > COMMIT_SECONDS or len(faults) >= COMMIT_GAMES):
                _flush(con, key, rows, faults)
                last = time.monotonic()
    except KeyboardInterrupt:
        summary.interrupted = True
        pool.close(kill=True)
        _flush(con, key, rows, faults)
        raise
    finally:
        if bar is not None:
            bar.close()
    pool.close(kill=error is not None)
    _flush(con, key, rows, faults)
    if error is not None:
        raise error


def _flush(con: duckdb.DuckDBPyConnection, key: AnalysisKey, rows: list[dict[str, Any]],
           faults: dict[int, list[tuple[int, str, str]]]) -> None:
    """Write the rows and faults gathered so far (and forget them); the named step
    ``analyse.committed`` (:func:`pdnkit.store.steps.reached`) follows each write."""
    from pdnkit.store.steps import reached

    write_rows(con, key, rows)
    write_faults(con, key, faults)
    if rows or faults:
        reached("analyse.committed")
    rows.clear()
    faults.clear()


class _Pieces:
    """A game cut into pieces of :data:`PIECE` positions for engines working at once (the
    last games handed out end close together, whatever their length), and its rows and
    faults gathered until every piece is back: a game's rows are committed whole."""

    def __init__(self) -> None:
        self.left: dict[int, int] = {}
        self.held: dict[int, GameDone] = {}

    def pieces(self, work: GameWork, cut: bool) -> list[GameWork]:
        size = PIECE if cut else len(work.positions)
        out = [GameWork(work.game_id, work.variant, work.positions[i:i + size])
               for i in range(0, len(work.positions), max(size, 1))] or [work]
        self.left[work.game_id] = self.left.get(work.game_id, 0) + len(out)
        return out

    def back(self, done: GameDone) -> GameDone | None:
        """The game whole once its last piece is back, else None."""
        held = self.held.setdefault(done.game_id, GameDone(done.game_id))
        held.rows += done.rows
        held.faults += done.faults
        held.searched += done.searched
        self.left[done.game_id] -= 1
        if self.left[done.game_id]:
            return None
        del self.left[done.game_id]
        return self.held.pop(done.game_id)


class _Bar:
    """Positions evaluated of ``total``, positions a second: on standard error, on a
    terminal only."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        from pdnkit.store.progress import is_terminal

        self.progress = Progress(TextColumn("[bold]analyse[/bold]"), BarColumn(),
                                 MofNCompleteColumn(), TextColumn("positions"),
                                 TimeRemainingColumn(), console=Console(stderr=True),
                                 transient=True, disable=not is_terminal())
        self.task = self.progress.add_task("analyse", total=total)
        self.progress.start()

    def advance(self, n: int) -> None:
        self.progress.advance(self.task, n)

    def close(self) -> None:
        self.progress.stop()
