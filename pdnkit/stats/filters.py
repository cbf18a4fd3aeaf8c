"""Which games a statistic reads: one :class:`GameFilter` for the filters every reader takes.

* ``variant`` -- a variant's name, alias or GameType (``"international"``, ``"checkers"``,
  ``"20"``); an unknown name raises :class:`~pdnkit.rules.UnknownVariantError` naming the
  known variants (never an empty result);
* ``event`` -- case-insensitive substring of the Event tag;
* ``player`` -- case-insensitive substring of the White or Black name, or of the player such
  a name stands for (``pdnkit players alias``);
* ``date_from`` / ``date_to`` -- ``"YYYY"``, ``"YYYY-MM"`` or ``"YYYY-MM-DD"`` (inclusive);
  games with only a year are compared by their year, games without a date are left out;
* ``all_copies`` -- every record; by default (``False``) each game once: the copies of a game
  (``games.duplicate_of`` not NULL, :mod:`pdnkit.store.copies`) are left out, the record
  that stands for them is read.

Public functions take these as keyword arguments (and ``filter=`` a ready-made
:class:`GameFilter`); they build the filter once with :meth:`GameFilter.of`.

Example:
    >>> f = GameFilter(variant="checkers", date_from="2020")
    >>> f.variant
    'english'
    >>> f.sql()
    ('lower(g.variant) = lower(?) AND coalesce(g.date, make_date(g.year, 12, 31)) >= ? AND g.duplicate_of IS NULL', ['english', datetime.date(2020, 1, 1)])
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
from dataclasses import dataclass
from typing import TypeAlias

from pdnkit.errors import ArgumentError

__all__ = ["DateBound", "GameFilter", "SqlParam", "parse_bound"]

#: a date bound as the filters take it: ``"2020"``, ``"2020-05"``, ``"2020-05-01"``, a date, a year
DateBound: TypeAlias = "str | _dt.date | int | None"
#: a value bound to a ``?`` of the read side's SQL
SqlParam: TypeAlias = "str | int | float | bool | _dt.date | None"


def parse_bound(value: DateBound, upper: bool) -> _dt.date | None:
    """``"2020"`` -> 2020-01-01 (or 2020-12-31 as an upper bound); full dates as given.

    Example:
        >>> parse_bound("2020-02", upper=True), parse_bound(2021, upper=False)
        (datetime.date(2020, 2, 29), datetime.date(2021, 1, 1))
    """
    if value is None or value == "":
        return None
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    text = str(value).strip().replace(".", "-").replace("/", "-")
    m = re.fullmatch(r"(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?", text)
    if not m:
        raise ArgumentError(f"date must be YYYY, YYYY-MM or YYYY-MM-DD, got {value!r}")
    year = int(m.group(1))
    month = int(m.group(2)) if m.group(2) else (12 if upper else 1)
    if m.group(3):
        day = int(m.group(3))
    elif upper:
        nxt = _dt.date(year + (month == 12), month % 12 + 1, 1)
        day = (nxt - _dt.timedelta(days=1)).day
    else:
        day = 1
    return _dt.date(year, month, day)


@dataclass(frozen=True)
class GameFilter:
    """The games a statistic reads (see the module's text); empty fields select every game.
    The variant is checked and kept by its canonical name; dates are checked at once.

    Example:
        >>> GameFilter().sql(), GameFilter(all_copies=True).sql()
        (('g.duplicate_of IS NULL', []), ('TRUE', []))
        >>> try:
        ...     GameFilter(variant="internationl")
        ... except ValueError as exc:
        ...     print(type(exc).__name__, str(exc)[:48])
        UnknownVariantError unknown variant 'internationl' (known: antidraug
    """

    variant: str | None = None
    event: str | None = None
    player: str | None = None
    date_from: DateBound = None
    date_to: DateBound = None
    all_copies: bool = False

    def __post_init__(self) -> None:
        if self.variant:
            from pdnkit.rules import get_rules

            object.__setattr__(self, "variant", get_rules(self.variant).name)
        parse_bound(self.date_from, upper=False)  # a bad date fails here, not in SQL
        parse_bound(self.date_to, upper=True)

    @classmethod
    def of(cls, filter: GameFilter | None = None, *, variant: str | None = None,
           event: str | None = None, player: str | None = None,
           date_from: DateBound = None, date_to: DateBound = None,
           all_copies: bool | None = None) -> GameFilter:
        """``filter`` (or no filter) with the keyword arguments that are given (not
        ``None``) in place of its fields: how a public function builds its filter once.

        Example:
            >>> GameFilter.of(GameFilter(event="Cup"), variant="russian")
            GameFilter(variant='russian', event='Cup', player=None, date_from=None, date_to=None, all_copies=False)
        """
        base = filter if filter is not None else cls()
        if all(v is None for v in (variant, event, player, date_from, date_to, all_copies)):
            return base
        return cls(variant=base.variant if variant is None else variant,
                   event=base.event if event is None else event,
                   player=base.player if player is None else player,
                   date_from=base.date_from if date_from is None else date_from,
                   date_to=base.date_to if date_to is None else date_to,
                   all_copies=base.all_copies if all_copies is None else all_copies)

    def without_player(self) -> GameFilter:
        """The same filter for every player (where ``player`` selects rows, not games).

        Example:
            >>> GameFilter(event="Cup", player="Ann").without_player().player is None
            True
        """
        return dataclasses.replace(self, player=None) if self.player else self

    def is_empty(self) -> bool:
        """True when the filter selects every game (each game once, or every record with
        ``all_copies``): no condition but the copies'.

        Example:
            >>> GameFilter().is_empty(), GameFilter(event="x").is_empty()
            (True, False)
        """
        return dataclasses.replace(self, all_copies=True).sql()[0] == "TRUE"

    def sql(self, alias: str = "g") -> tuple[str, list[SqlParam]]:
        """The SQL condition on the games table ``alias`` (``TRUE`` when empty) and its
        parameters, in order."""
        a = alias
        clauses: list[str] = []
        params: list[SqlParam] = []
        if self.variant:
            clauses.append(f"lower({a}.variant) = lower(?)")
            params.append(self.variant)
        if self.event:
            clauses.append(f"{a}.event ILIKE ?")
            params.append(f"%{self.event}%")
        if self.player:  # the names as written, or the players they stand for (aliases)
            clauses.append(f"({a}.white ILIKE ? OR {a}.black ILIKE ? "
                           f"OR player_name({a}.white) ILIKE ? OR player_name({a}.black) ILIKE ?)")
            params += [f"%{self.player}%"] * 4
        lo = parse_bound(self.date_from, upper=False)
        hi = parse_bound(self.date_to, upper=True)
        if lo is not None:
            clauses.append(f"coalesce({a}.date, make_date({a}.year, 12, 31)) >= ?")
            params.append(lo)
        if hi is not None:
            clauses.append(f"coalesce({a}.date, make_date({a}.year, 1, 1)) <= ?")
            params.append(hi)
        if not self.all_copies:  # each game once: the record standing for its copies
            clauses.append(f"{a}.duplicate_of IS NULL")
        return (" AND ".join(clauses) or "TRUE"), params
