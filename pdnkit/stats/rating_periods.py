"""The rating period of a game (:func:`game_period`, the one place that reads a game's date
for the ratings) and why a game is not rated (:data:`LEFT_OUT`); see
:mod:`pdnkit.stats.rating_lists` for what each period means.

Example:
    >>> game_period("year", _dt.date(1965, 5, 17), "day", 1965).label
    '1965'
"""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple

from pdnkit.errors import ArgumentError

__all__ = ["LEFT_OUT", "RATING_PERIODS", "GamePeriod", "game_period"]

#: the rating periods :func:`pdnkit.stats.ratings` takes
RATING_PERIODS = ("month", "year", "event")
#: why a game is not rated, in the order a game is counted under the first that applies
LEFT_OUT = ("without a result", "without a date", "without two named players")


class GamePeriod(NamedTuple):
    """The rating period a game falls in: ``key`` (equal for the games of one period),
    ``label`` (as the lists show it), ``start`` (the game's date for ordering the periods)
    and ``clock`` (the period's place in calendar time, months or years; ``None`` for
    events, which are counted one by one)."""

    key: tuple[str | int, ...]
    label: str
    start: _dt.date
    clock: int | None


def game_period(period: str, first: _dt.date | None, precision: str | None,
                year: int | None, event: str | None = None) -> GamePeriod | None:
    """The rating period of a game from what the database knows of its date: the first day
    it allows (``games.date_first``) and how much of it was written (``games.date_precision``:
    ``day``, ``month`` or ``year``), else its ``year``; ``None`` for an undated game. See the
    module's text for what each ``period`` means.

    Example:
        >>> game_period("month", _dt.date(1965, 5, 17), "day", 1965).label
        '1965-05'
        >>> game_period("month", _dt.date(1965, 5, 1), "month", 1965).label
        '1965-05'
        >>> p = game_period("month", _dt.date(1965, 1, 1), "year", 1965)
        >>> p.label, p.start
        ('1965', datetime.date(1965, 12, 31))
        >>> game_period("event", None, None, 1965, "Cup").label
        'Cup'
        >>> game_period("year", None, None, None) is None
        True
    """
    if period not in RATING_PERIODS:
        raise ArgumentError(f"period must be one of {', '.join(RATING_PERIODS)}, got {period!r}")
    y = first.year if first is not None else year
    if y is None:
        return None
    known = first if first is not None and precision in ("day", "month") else None
    month = known.month if known is not None else None
    if known is not None and precision == "day":
        start = known
    else:
        start = _dt.date(y, month, 1) if month else _dt.date(y, 12, 31)
    if period == "event" and event and event.strip():
        name = event.strip()
        return GamePeriod(("event", name, y), name, start, None)
    if period == "year":
        return GamePeriod(("year", y), str(y), _dt.date(y, 1, 1), y)
    if month is None:
        return GamePeriod(("year-end", y), str(y), start, y * 12 + 11)
    return GamePeriod(("month", y, month), f"{y}-{month:02d}", start, y * 12 + month - 1)
