"""The games a rating list rates (:func:`pdnkit.stats.ratings`), read from DuckDB as a
stream in rating order, one period after the other, so that memory holds one period's games
and the players' state, never the whole collection (1 M games read whole as Python objects
took 1.1 GB).

How a game is read (:class:`RatedGames`):

1. **its class**, in SQL (each name's player, ``player_name()``, read once a name), in the
   order :data:`~pdnkit.stats.rating_periods.LEFT_OUT` counts a
   game under the first reason that applies: rated (a result, a date or a year, two different
   named players of a variant), without a result, without a date, without two named players;
2. **the periods**: the distinct dates (date, precision, year; the Event tag for event
   periods) of each variant's rated games, each read by
   :func:`~pdnkit.stats.rating_periods.game_period` in Python (the one place that reads a
   game's date), grouped into periods and put in rating order: variants by name, periods by
   the first date of their rated games (then label), an event's clock its place among the
   variant's periods;
3. **the games**, rated ones only, joined to their period's place and sorted by it (then by
   ``game_id``, the order within a period) in DuckDB, then fetched a few thousand at a time.

What the filter selects, the games left out by reason, and (for ``--min-games`` and
``--from-tags``) each player's number of rated games and the rating tag of his first rated
game that has one are SQL aggregates over the same classified games.

Example:
    >>> from pdnkit.store import connect
    >>> from pdnkit.stats.filters import GameFilter
    >>> con = connect(":memory:")
    >>> with RatedGames(con, GameFilter(), "month") as rg:
    ...     rg.selected, list(rg.periods())
    (0, [])
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING, NamedTuple

from pdnkit.stats.common import OUTCOME_SQL
from pdnkit.stats.filters import GameFilter
from pdnkit.stats.rating_periods import LEFT_OUT, GamePeriod, game_period

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["FETCH_ROWS", "Game", "RatedGames"]

#: the games fetched from DuckDB at a time
FETCH_ROWS = 16384

_SCORES = {"white": 1.0, "draw": 0.5, "black": 0.0}
_views = itertools.count(1)


class Game(NamedTuple):
    """A rated game: its players, White's score and their rating tags."""

    game_id: int
    white: str
    black: str
    score: float
    white_tag: int | None
    black_tag: int | None


def _classified(where: str, event: bool, names: str) -> str:
    """The selected games with what rating reads of them and their class ``cls`` (0 rated,
    1 without a result, 2 without a date, 3 without two named players of a variant);
    ``names`` is the table of each name's player (``n -> pn``)."""
    return f"""
        SELECT *, CASE
            WHEN NOT coalesce(oc IN ('white', 'draw', 'black'), false) THEN 1
            WHEN d IS NULL AND y IS NULL THEN 2
            WHEN w IS NULL OR b IS NULL OR w = '' OR b = '' OR w = b
                 OR v IS NULL OR v = '' THEN 3
            ELSE 0 END AS cls
        FROM (SELECT g.game_id, g.variant AS v, wn.pn AS w, bn.pn AS b, {OUTCOME_SQL} AS oc,
                     coalesce(g.date_first, g.date) AS d,
                     coalesce(g.date_precision, CASE WHEN g.date IS NOT NULL THEN 'day' END)
                         AS p,
                     g.year AS y, {'g.event' if event else 'NULL::VARCHAR'} AS e,
                     g.white_rating AS wt, g.black_rating AS bt
              FROM games g LEFT JOIN {names} wn ON wn.n = g.white
                           LEFT JOIN {names} bn ON bn.n = g.black
              WHERE {where}) s"""


class RatedGames:
    """The games ``gf`` selects on ``con`` as rating reads them (see the module's text):
    :attr:`selected` and :attr:`left_out` at once, :meth:`periods` the rated games period by
    period in rating order (``rows`` fetched at a time), :meth:`games_played` and
    :meth:`first_tags` the players' aggregates. Use it in a ``with`` block (it registers two
    small tables on ``con``: each name's player, the periods)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, gf: GameFilter, period: str,
                 rows: int = FETCH_ROWS) -> None:
        where, params = gf.sql(con=con)
        self.con, self.params, self.rows = con, list(params), max(1, rows)
        n = next(_views)
        self._view, self._names = f"pdnkit_rating_periods_{n}", f"pdnkit_rating_names_{n}"
        try:
            self._read(con, where, period)
        except BaseException:
            self.close()
            raise

    def _read(self, con: duckdb.DuckDBPyConnection, where: str, period: str) -> None:
        """The names' players, the classes' counts and the periods (see the module's text)."""
        # each name's player once (player_name() on 2 M names cost 1.2 s a scan at 1 M games)
        con.register(self._names, con.sql(f"""
            SELECT n, player_name(n) AS pn FROM (SELECT DISTINCT n FROM (
                SELECT g.white AS n FROM games g WHERE {where}
                UNION ALL SELECT g.black FROM games g WHERE {where}))
            WHERE n IS NOT NULL""", params=self.params * 2).to_arrow_table())
        self.games = _classified(where, period == "event", self._names)
        combos = con.sql(f"SELECT v, d, p, y, e, cls, count(*) AS n FROM ({self.games}) "
                         "GROUP BY ALL", params=self.params).fetchall()
        #: the games the filter selects, and those left out by reason
        self.selected = sum(int(c[6]) for c in combos)
        self.left_out = dict.fromkeys(LEFT_OUT, 0)
        for c in combos:
            if c[5]:
                self.left_out[LEFT_OUT[int(c[5]) - 1]] += int(c[6])
        #: the games rated
        self.rated = self.selected - sum(self.left_out.values())
        #: each period, in rating order: (variant, its period)
        self.order: list[tuple[str, GamePeriod]] = []
        self._plan([c[:5] for c in combos if c[5] == 0], period)

    def _plan(self, dates: list[tuple[object, ...]], period: str) -> None:
        """Group the rated games' distinct dates into periods, order them and register the
        table ``(v, d, p, y, e) -> ord``, the period's place."""
        from pdnkit._arrow import pyarrow_module

        pa = pyarrow_module()
        group: dict[tuple[str, tuple[str | int, ...]], GamePeriod] = {}
        keys = []
        for v, d, p, y, e in dates:
            when = game_period(period, d, p, y, e)  # type: ignore[arg-type]
            assert when is not None  # a rated game has a date or a year
            k = (str(v), when.key)
            keys.append(k)
            had = group.get(k)
            if had is None or when.start < had.start:
                group[k] = when
        order = sorted(group, key=lambda k: (k[0], group[k].start, group[k].label, k[1]))
        place = {k: i for i, k in enumerate(order)}
        ordinal, last_variant = 0, None
        for k in order:
            if k[0] != last_variant:
                ordinal, last_variant = 0, k[0]
            ordinal += 1
            when = group[k]
            clock = when.clock if when.clock is not None else ordinal
            self.order.append((k[0], GamePeriod(when.key, when.label, when.start, clock)))
        columns: list[tuple[object, ...]] = (list(zip(*dates, strict=True)) if dates
                                             else [()] * 5)
        table = pa.table({"v": pa.array(columns[0], pa.string()),
                          "d": pa.array(columns[1], pa.date32()),
                          "p": pa.array(columns[2], pa.string()),
                          "y": pa.array(columns[3], pa.int64()),
                          "e": pa.array(columns[4], pa.string()),
                          "ord": pa.array([place[k] for k in keys], pa.int64())})
        self.con.register(self._view, table)

    def periods(self) -> Iterator[tuple[str, GamePeriod, list[Game]]]:
        """The rated games, period by period in rating order: ``(variant, period, games)``,
        the games of a period in ``game_id`` order."""
        if not self.order:
            return
        cur = self.con.execute(f"""
            SELECT o.ord, s.game_id, s.w, s.b, s.oc, s.wt, s.bt
            FROM ({self.games}) s JOIN {self._view} o
              ON s.v = o.v AND s.d IS NOT DISTINCT FROM o.d AND s.p IS NOT DISTINCT FROM o.p
             AND s.y IS NOT DISTINCT FROM o.y AND s.e IS NOT DISTINCT FROM o.e
            WHERE s.cls = 0
            ORDER BY o.ord, s.game_id""", self.params)
        current, games = -1, list[Game]()
        while True:
            chunk = cur.fetchmany(self.rows)
            for place, gid, w, b, oc, wt, bt in chunk:
                if place != current:
                    if games:
                        yield (*self.order[current], games)
                    current, games = place, []
                games.append(Game(int(gid), str(w), str(b), _SCORES[oc],
                                  None if wt is None else int(wt),
                                  None if bt is None else int(bt)))
            if not chunk:
                break
        if games:
            yield (*self.order[current], games)

    def _by_player(self, select: str, where: str = "true") -> str:
        return f"""
            SELECT v, name, {select} FROM (
                SELECT v, w AS name, wt AS tag, game_id FROM ({self.games}) s WHERE cls = 0
                UNION ALL
                SELECT v, b AS name, bt AS tag, game_id FROM ({self.games}) s WHERE cls = 0)
            WHERE {where} GROUP BY v, name"""

    def games_played(self) -> dict[tuple[str, str], int]:
        """``(variant, player) -> his rated games`` (what the final list's ``games`` says)."""
        rows = self.con.execute(self._by_player("count(*)"), self.params * 2).fetchall()
        return {(str(v), str(n)): int(c) for v, n, c in rows}

    def first_tags(self) -> dict[tuple[str, str], int]:
        """``(variant, player) -> the rating tag of his first rated game (by game_id) that
        has one`` (a positive tag)."""
        rows = self.con.execute(self._by_player("arg_min(tag, game_id)", "tag > 0"),
                                self.params * 2).fetchall()
        return {(str(v), str(n)): int(t) for v, n, t in rows}

    def close(self) -> None:
        """Drop the table of the periods from the connection; a second call does nothing."""
        for view in (self._view, self._names):
            with contextlib.suppress(Exception):  # not made, or the connection closed
                self.con.unregister(view)

    def __enter__(self) -> RatedGames:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
