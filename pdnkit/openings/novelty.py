"""Novelties: where each game left the games played before it.

For each game, its *novelty ply* is the first ply whose position (placement and side to
move) had not occurred in any earlier game, and the game it *deviated from* is the earliest
earlier game that had reached the position just before (the last one the two shared). Ply 0
counts: a game whose starting position no earlier game had (a set-up position, or the first
game of a collection) has its novelty at ply 0 and deviated from no game. A game every
position of which an earlier game had reached has no novelty (``ply`` is ``None``); the
``deviated_from`` is then the earliest earlier game that reached its last position.

The order of "earlier" (what the chess databases' "N" mark needs, here defined once):

1. games with a date come first, by date (a partial date counts as the first day of what it
   gives: ``1965.??.??`` is 1 January 1965, ``1965.05.??`` 1 May 1965; a year from another
   tag counts as its 1 January: see :func:`sort_date`);
2. games with the same date keep their file order (the ``order`` given: file, then game
   index);
3. games without a date come after every dated game, in file order: nothing says they were
   played earlier, so they never make a dated game's move a repetition.

In a database, "file order" is the order of import, then of the games in each file
(``games.game_id``), and the rule is computed in SQL (:mod:`pdnkit.store.novelties`).

Only the positions up to ``max_ply`` take part when it is given (novelties lie in the
opening; a limit keeps the memory of a large collection bounded).

Example:
    >>> a = GameLine("a", pdn_date("1965.01.01"), 0, ("s", "p1", "p2"))
    >>> b = GameLine("b", pdn_date("1966.??.??"), 1, ("s", "p1", "q2"))
    >>> [(n.game, n.ply, n.deviated_from) for n in novelties([b, a])]
    [('a', 0, None), ('b', 2, 'a')]
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["GameLine", "Novelty", "novelties", "pdn_date", "sort_date"]

def sort_date(date: _dt.date | None, date_raw: str | None,
              year: int | None) -> _dt.date | None:
    """The date a game is ordered by, from what the database keeps of it (``games.date``,
    ``date_raw``, ``year``): the date when it is one, else the first day the date tag
    allows (a partial ``YYYY.MM.??`` date's month, a season's first year:
    :func:`pdnkit.pdn.dates.date_span`, ``games.date_first``), else 1 January of the year;
    ``None`` (undated) without a year. The database computes the same in SQL
    (:data:`pdnkit.store.novelties.SORT_DATE`).

    Example:
        >>> sort_date(None, "1965.05.??", 1965), sort_date(None, "1965.??.??", 1965)
        (datetime.date(1965, 5, 1), datetime.date(1965, 1, 1))
        >>> sort_date(None, None, None) is None
        True
    """
    from pdnkit.pdn.dates import date_span

    if date is not None:
        return date
    span = date_span(date_raw)
    if span is not None:
        return span.first
    if year is None or not 1 <= year <= 9999:
        return None
    return _dt.date(year, 1, 1)


def pdn_date(text: str | None) -> _dt.date | None:
    """A PDN ``Date`` tag as a date for ordering: what the reader makes of it
    (:func:`pdnkit.pdn.tags.parse_date`: ``YYYY.MM.DD``, ``D.M.YYYY`` as Russian collections
    write it, ranges by their first day), a partial date by its first day
    (:func:`sort_date`); ``None`` for no usable year.

    Example:
        >>> pdn_date("2003.10.27"), pdn_date("1950."), pdn_date("????.??.??")
        (datetime.date(2003, 10, 27), datetime.date(1950, 1, 1), None)
        >>> pdn_date("1.1.1965"), pdn_date("1965.05.??")
        (datetime.date(1965, 1, 1), datetime.date(1965, 5, 1))
    """
    from pdnkit.pdn.tags import parse_date

    if not text:
        return None
    date, year, _ = parse_date(text)
    return sort_date(date, text, year)


@dataclass(frozen=True)
class GameLine:
    """One game for :func:`novelties`: an identifier, its date (``None``: undated), its
    place in file order (a number or a tuple such as ``(file, index)``) and its positions
    from ply 0, each a hashable key (a :class:`~pdnkit.rules.Position`, a position key, the
    database's bitboard tuple)."""

    game: Hashable
    date: _dt.date | None
    order: int | tuple[int, ...]
    positions: Sequence[Hashable]


@dataclass(frozen=True)
class Novelty:
    """Where ``game`` left the earlier games: ``ply`` (``None``: it never did) and the
    earlier game it ``deviated_from`` (``None``: no earlier game shared its start)."""

    game: Hashable
    ply: int | None
    deviated_from: Hashable | None


def _sort_key(g: GameLine) -> tuple[int, _dt.date, tuple[int, ...]]:
    order = g.order if isinstance(g.order, tuple) else (g.order,)
    return (1, _dt.date.min, order) if g.date is None else (0, g.date, order)


def novelties(games: Iterable[GameLine], *, max_ply: int | None = None) -> list[Novelty]:
    """The novelty of every game, in the order of the module docstring (dated games by
    date, then file order; undated games last, in file order). Memory grows with the
    distinct positions seen (limit it with ``max_ply``).

    Example:
        >>> g = [GameLine(1, None, 0, "abc"), GameLine(2, None, 1, "abd"),
        ...      GameLine(3, None, 2, "ab")]
        >>> [(n.game, n.ply, n.deviated_from) for n in novelties(g)]
        [(1, 0, None), (2, 2, 1), (3, None, 1)]
    """
    seen: dict[Hashable, Hashable] = {}  # position -> the earliest game that reached it
    out: list[Novelty] = []
    for g in sorted(games, key=_sort_key):
        positions = g.positions if max_ply is None else g.positions[:max_ply + 1]
        ply: int | None = None
        last: Hashable | None = None
        for k, pos in enumerate(positions):
            first = seen.get(pos)
            if first is None:
                ply = k
                break
            last = first
        out.append(Novelty(g.game, ply, last))
        for pos in positions:
            seen.setdefault(pos, g.game)
    return out
