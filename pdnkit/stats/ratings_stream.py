"""A rating history written as it is computed: :func:`ratings_history_stream`, the rows of
``ratings(...).history`` in Arrow record batches, made period by period while the games are
read in rating order (:class:`~pdnkit.stats.ratings_games.RatedGames`), so memory holds
one period's games and the players' state whatever the collection's size, and the first
rows are out once the first periods are rated. What ``pdnkit ratings --history`` writes
through :func:`pdnkit.lean.streamed.emit_stream`.

The rows, their order and their values are those of :func:`pdnkit.stats.ratings`: each
player's row after each period he played, ratings rounded as the whole table rounds them
(numpy's rounding, as pandas'), the performance a whole number or NULL; ``min_games``
(a player's rated games at the end) is known before the first period from an aggregate of
the games, and ``player`` is the same test (:func:`~pdnkit.stats.rating_lists.names_containing`).

Example:
    >>> from pdnkit.store import connect
    >>> with ratings_history_stream(connect(":memory:")) as s:
    ...     s.columns[:4], [b.num_rows for b in s], s.total, s.note
    (['variant', 'period', 'period_start', 'player'], [], 0, 'no game to rate')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from types import TracebackType
from typing import Any

from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.stats.rating_lists import (
    ELO_SYSTEMS,
    HISTORY_COLUMNS,
    Rater,
    Seed,
    checked_options,
    names_containing,
    rating_bar,
    rating_note,
    seeds_by_identity,
)
from pdnkit.stats.rating_systems import DEFAULT_K, DEFAULT_TAU
from pdnkit.store.session import DbLike, reading

__all__ = ["RatingHistoryStream", "ratings_history_stream"]

#: the DuckDB type of each history column (what :func:`pdnkit._cells.arrow_values` reads)
_TYPES = {"variant": "VARCHAR", "period": "VARCHAR", "period_start": "DATE",
          "player": "VARCHAR", "rating": "DOUBLE", "rd": "DOUBLE", "volatility": "DOUBLE",
          "games": "BIGINT", "points": "DOUBLE", "performance": "BIGINT"}
#: the Arrow type of each DuckDB type there
_ARROW = {"VARCHAR": lambda pa: pa.string(), "DATE": lambda pa: pa.date32(),
          "DOUBLE": lambda pa: pa.float64(), "BIGINT": lambda pa: pa.int64()}
#: the columns rounded, and to how many places (as :func:`pdnkit.stats.ratings` rounds them)
_ROUND = {"rating": 2, "rd": 2, "volatility": 6}


class RatingHistoryStream:
    """The rows of :func:`ratings_history_stream`: :attr:`columns` and :attr:`types` (DuckDB
    type names), Arrow record batches (``for batch in stream``, once), then :attr:`total`
    (the rows) and :attr:`note` (what :attr:`pdnkit.stats.RatingList.note` says) once they
    are read; :meth:`close` (or the ``with`` block's end) stops the rating and closes what
    the stream opened."""

    def __init__(self, batches: Iterator[Any], columns: list[str], schema: Any,
                 stack: ExitStack) -> None:
        self.columns = columns
        self.types = [_TYPES[c] for c in columns]
        #: the Arrow schema of the batches
        self.schema = schema
        #: the rows written so far (all of them once the batches are read)
        self.total = 0
        #: what was rated and left out, once the batches are read ("" before)
        self.note = ""
        self._batches = batches
        self._first: Any = None
        self._stack = stack
        self._taken = False

    def read_ahead(self) -> None:
        """Rate until the first batch is ready, before anything is written: the games are
        sorted then, so an error DuckDB raises (out of memory) comes before the first row."""
        self._first = next(self._batches, None)

    def __iter__(self) -> Iterator[Any]:
        from pdnkit.errors import ArgumentError

        if self._taken:
            raise ArgumentError("a stream is read once")
        self._taken = True
        return self._all()

    def _all(self) -> Iterator[Any]:
        if self._first is not None:
            first, self._first = self._first, None
            yield first
        yield from self._batches

    def close(self) -> None:
        """Stop the rating and close what the stream opened; a second call does nothing."""
        try:
            close = getattr(self._batches, "close", None)
            if close is not None:
                close()
        finally:
            self._stack.close()

    def __enter__(self) -> RatingHistoryStream:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def ratings_history_stream(
    db: DbLike = None,
    *,
    system: str = "elo",
    period: str = "month",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    seed: str | os.PathLike[str] | Mapping[tuple[str | None, str], Seed] | None = None,
    from_tags: bool = False,
    k: float = DEFAULT_K,
    tau: float = DEFAULT_TAU,
    filter: GameFilter | None = None,
    progress: bool = False,
    rows: int | None = None,
) -> RatingHistoryStream:
    """``ratings(...).history`` (:func:`pdnkit.stats.ratings`, the same arguments) as a
    stream: the same rows in the same order, in Arrow record batches of at most ``rows``
    rows, each made as its periods are rated (see the module's text); ``rows`` is also the
    games fetched at a time. The games are sorted and the first batch made before it
    returns (an error of DuckDB's comes before any row is written). Use it in a ``with``
    block: its end closes the database when ``db`` was a path.
    :attr:`RatingHistoryStream.note` says what was rated once the rows are read. A bad
    option raises :class:`~pdnkit.errors.ArgumentError` at once.

    Example:
        >>> from pdnkit.store import connect
        >>> with ratings_history_stream(connect(":memory:"), system="glicko2") as s:
        ...     s.columns[4:7]
        ['rating', 'rd', 'volatility']
    """
    from pdnkit._arrow import pyarrow_module
    from pdnkit.stats.ratings_games import FETCH_ROWS, RatedGames
    from pdnkit.store.stream import BATCH_ROWS

    seeds = checked_options(system, period, k, tau, seed)
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    columns = [c for c in HISTORY_COLUMNS
               if not (system in ELO_SYSTEMS and c in ("rd", "volatility"))]
    pa = pyarrow_module()
    schema = pa.schema([(c, _ARROW[_TYPES[c]](pa)) for c in columns])
    stack = ExitStack()
    try:
        con = stack.enter_context(reading(db))
        games = stack.enter_context(RatedGames(con, gf.without_player(), period,
                                               rows or FETCH_ROWS))
        seeds = seeds_by_identity(con, seeds)
        rater = Rater(system, k, tau, seeds, games.first_tags() if from_tags else {})
        played = games.games_played() if min_games > 1 else None
    except BaseException:
        stack.close()
        raise
    stream = RatingHistoryStream(iter(()), columns, schema, stack)
    stream._batches = _batches(stream, games, rater, _Choice(gf.player, min_games, played),
                               rows or BATCH_ROWS, progress)
    try:
        stream.read_ahead()
    except BaseException:
        stream.close()
        raise
    return stream


class _Choice:
    """Which players' rows a history keeps: a name containing ``player``, at least
    ``min_games`` rated games in the end (``played``: each player's, needed when
    ``min_games`` is above 1)."""

    def __init__(self, player: str | None, min_games: int,
                 played: Mapping[tuple[str, str], int] | None) -> None:
        self.player, self.min_games, self.played = player, min_games, played
        self._known: dict[tuple[str, str], bool] = {}

    def keep(self, keys: list[tuple[str, str]]) -> list[bool]:
        """Whether each ``(variant, player)`` is kept (names tested once each)."""
        new = list(dict.fromkeys(key for key in keys if key not in self._known))
        if new:
            named = names_containing([name for _, name in new], self.player)
            for key, ok in zip(new, named, strict=True):
                if self.played is not None:
                    ok = ok and self.played.get(key, 0) >= self.min_games
                self._known[key] = ok
        return [self._known[key] for key in keys]


def _batches(stream: RatingHistoryStream, games: Any, rater: Rater, choice: _Choice,
             rows: int, progress: bool) -> Iterator[Any]:
    """Rate period after period; the first period's rows as a batch, then a batch each
    time ``rows`` history rows are ready. At the end the stream's total and note."""
    pending: list[tuple[object, ...]] = []
    with rating_bar(progress, games.rated, rater.system) as advance:
        for v, when, group in games.periods():
            rater.period(v, when, group)
            advance(len(group))
            made, rater.history = rater.history, []
            kept = choice.keep([(str(r[0]), str(r[3])) for r in made])
            pending.extend(r for r, ok in zip(made, kept, strict=True) if ok)
            if pending and not stream.total:  # the first rows at once
                yield _batch(stream, pending[:rows])
                del pending[:rows]
            while len(pending) >= rows:
                yield _batch(stream, pending[:rows])
                del pending[:rows]
    if pending:
        yield _batch(stream, pending)
    rater.finish()
    keys = list(rater.players)
    listed = [key for key, p, ok in zip(keys, rater.players.values(),
                                        names_containing([n for _, n in keys], choice.player),
                                        strict=True)
              if ok and p.games >= choice.min_games]
    stream.note = rating_note(rater.system, games.rated, games.selected, games.left_out,
                              len(listed), len({v for v, _ in listed}),
                              len(set(rater.seeds) - rater.seeds_used))


def _batch(stream: RatingHistoryStream, rows: list[tuple[object, ...]]) -> Any:
    """History rows (:data:`HISTORY_COLUMNS` tuples) as one Arrow record batch of the
    stream's columns, rounded as :func:`pdnkit.stats.ratings` rounds them."""
    import numpy as np

    from pdnkit._arrow import pyarrow_module

    pa = pyarrow_module()
    arrays = []
    for name in stream.columns:
        i = HISTORY_COLUMNS.index(name)
        values = [r[i] for r in rows]
        if name in _ROUND:
            arrays.append(pa.array(np.round(np.asarray(values, dtype=np.float64),
                                            _ROUND[name])))
        else:
            arrays.append(pa.array(values, stream.schema.field(name).type))
    stream.total += len(rows)
    return pa.RecordBatch.from_arrays(arrays, schema=stream.schema)
