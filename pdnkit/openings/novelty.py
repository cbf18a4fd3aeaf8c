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
   gives: ``1965.??.??`` is 1 January 1965, see :func:`pdn_date`);
2. games with the same date keep their file order (the ``order`` given: file, then game
   index);
3. games without a date come after every dated game, in file order: nothing says they were
   played earlier, so they never make a dated game's move a repetition.

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
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["GameLine", "Novelty", "novelties", "pdn_date"]

_DATE = re.compile(r"^\s*(\d{3,4})(?:[.\-/](\d{1,2}|\?\?)(?:[.\-/](\d{1,2}|\?\?))?)?")
_DMY = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\b")


def pdn_date(text: str | None) -> _dt.date | None:
    """A PDN ``Date`` tag as a date for ordering: ``YYYY.MM.DD``, unknown parts (``??``)
    and a missing month or day taken as the first; ``D.M.YYYY`` as Russian collections
    write it; ``None`` for no usable year.

    Example:
        >>> pdn_date("2003.10.27"), pdn_date("1950."), pdn_date("????.??.??")
        (datetime.date(2003, 10, 27), datetime.date(1950, 1, 1), None)
        >>> pdn_date("1.1.1965")
        datetime.date(1965, 1, 1)
    """
    if not text:
        return None
    dmy = _DMY.match(text)
    if dmy is not None:
        try:
            return _dt.date(int(dmy.group(3)), int(dmy.group(2)), int(dmy.group(1)))
        except ValueError:
            return None
    m = _DATE.match(text)
    if m is None:
        return None
    year = int(m.group(1))
    month = int(m.group(2)) if m.group(2) and m.group(2) != "??" else 1
    day = int(m.group(3)) if m.group(3) and m.group(3) != "??" else 1
    try:
        return _dt.date(year, month, day)
    except ValueError:
        try:
            return _dt.date(year, month if 1 <= month <= 12 else 1, 1)
        except ValueError:
            return None


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
