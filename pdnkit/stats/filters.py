"""Which games a statistic reads: one :class:`GameFilter` for the filters every reader takes.

* ``variant`` -- a variant's name, alias or GameType (``"international"``, ``"checkers"``,
  ``"20"``); an unknown name raises :class:`~pdnkit.rules.UnknownVariantError` naming the
  known variants (never an empty result);
* ``event`` -- case-insensitive substring of the Event tag;
* ``player`` -- case-insensitive substring of the White or Black name, or of the player such
  a name stands for (``pdnkit players alias``); with ``match=True``, every name that
  :func:`pdnkit.pdn.names.same_player` accepts instead (``"Abatsiev"`` selects the games of
  ``Абациев Н.``, ``"Tinsley, Marion"`` those of ``M. Tinsley``, not of ``R. Tinsley``):
  :func:`matching_names` reads the database's names, so :meth:`GameFilter.sql` needs the
  connection then;
* ``date_from`` / ``date_to`` -- ``"YYYY"``, ``"YYYY-MM"`` or ``"YYYY-MM-DD"`` (inclusive);
  a game is compared by what is known of its date (``games.date_first`` to ``date_last``: a
  day, a month, a year, a season such as ``1999/00``) and kept when that span meets the
  bounds; games without a date or year are left out;
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
    ('lower(g.variant) = lower(?) AND coalesce(g.date_last, g.date, make_date(g.year, 12, 31)) >= ? AND g.duplicate_of IS NULL', ['english', datetime.date(2020, 1, 1)])
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from pdnkit.errors import ArgumentError

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

    from pdnkit.store.session import DbLike

__all__ = ["DateBound", "GameFilter", "SqlParam", "matching_names", "parse_bound"]

#: a date bound as the filters take it: ``"2020"``, ``"2020-05"``, ``"2020-05-01"``, a date, a year
DateBound: TypeAlias = "str | _dt.date | int | None"
#: a value bound to a ``?`` of the read side's SQL
SqlParam: TypeAlias = "str | int | float | bool | _dt.date | list[str] | None"


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
    #: ``player`` selects every name the player can be written as, not a substring
    match: bool = False
    #: every record, the copies of a game included (default: each game once)
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
            >>> GameFilter.of(GameFilter(event="Cup", match=True), variant="russian")
            GameFilter(variant='russian', event='Cup', player=None, date_from=None, date_to=None, match=True, all_copies=False)
        """
        base = filter if filter is not None else cls()
        given: dict[str, object] = {
            k: v for k, v in (("variant", variant), ("event", event), ("player", player),
                              ("date_from", date_from), ("date_to", date_to),
                              ("all_copies", all_copies)) if v is not None}
        return dataclasses.replace(base, **given) if given else base  # type: ignore[arg-type]

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
        return not (self.variant or self.event or self.player or self.date_from
                    or self.date_to)

    def sql(self, alias: str = "g", con: duckdb.DuckDBPyConnection | None = None
            ) -> tuple[str, list[SqlParam]]:
        """The SQL condition on the games table ``alias`` (``TRUE`` when empty) and its
        parameters, in order. A ``match`` filter of a player reads the names of the database
        ``con`` (:func:`matching_names`; without it, an :class:`ArgumentError`)."""
        a = alias
        clauses: list[str] = []
        params: list[SqlParam] = []
        if self.variant:
            clauses.append(f"lower({a}.variant) = lower(?)")
            params.append(self.variant)
        if self.event:
            clauses.append(f"{a}.event ILIKE ?")
            params.append(f"%{self.event}%")
        if self.player and self.match:  # every spelling of the player (pdn/names.py)
            names = self.names(con)
            clauses.append(f"(trim({a}.white) IN (SELECT unnest(?::VARCHAR[])) "
                           f"OR trim({a}.black) IN (SELECT unnest(?::VARCHAR[])))")
            params += [names, names]
        elif self.player:  # the names as written, or the players they stand for (aliases)
            clauses.append(f"({a}.white ILIKE ? OR {a}.black ILIKE ? "
                           f"OR player_name({a}.white) ILIKE ? OR player_name({a}.black) ILIKE ?)")
            params += [f"%{self.player}%"] * 4
        lo = parse_bound(self.date_from, upper=False)
        hi = parse_bound(self.date_to, upper=True)
        # what is known of a game's date is a span (games.date_first .. date_last: a day, a
        # month, a year, a season); the game is kept when its span meets the bounds' (rows
        # without the span, a lake's older parts, by their date or year)
        if lo is not None:
            clauses.append(f"coalesce({a}.date_last, {a}.date, make_date({a}.year, 12, 31)) >= ?")
            params.append(lo)
        if hi is not None:
            clauses.append(f"coalesce({a}.date_first, {a}.date, make_date({a}.year, 1, 1)) <= ?")
            params.append(hi)
        if not self.all_copies:  # each game once: the record standing for its copies
            clauses.append(f"{a}.duplicate_of IS NULL")
        return (" AND ".join(clauses) or "TRUE"), params

    def names(self, con: duckdb.DuckDBPyConnection | None) -> list[str]:
        """The names (as written, and the players they stand for) that ``player`` selects
        with ``match``: :func:`matching_names` on ``con``.

        Example:
            >>> from pdnkit.store import connect
            >>> GameFilter(player="Tinsley", match=True).names(connect(":memory:"))
            []
        """
        if con is None:
            raise ArgumentError("a player matched by name (match=True) needs the database's "
                                "connection: GameFilter.sql(con=...)")
        return matching_names(con, self.player or "")


def matching_names(db: DbLike, player: str) -> list[str]:
    """Every White/Black name of the database ``db`` (trimmed) that can stand for ``player``
    (:func:`pdnkit.pdn.names.same_player`, directly or through the player an alias names),
    with the players those names stand for, sorted. Names are compared in Python once each:
    only those whose surname is spelled as ``player``'s (:func:`pdnkit.pdn.names.name_key`).

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> _ = con.execute("INSERT INTO games (game_id, file_id, game_index, white, black) VALUES "
        ...     "(1, 1, 0, 'Абациев Н.', 'M. Tinsley'), (2, 1, 1, 'Tinsley, R.', 'Abaziev')")
        >>> matching_names(con, "Abatsiev"), matching_names(con, "Marion Tinsley")
        (['Абациев Н.'], ['M. Tinsley'])
    """
    from pdnkit.pdn.names import name_key, same_player
    from pdnkit.store.session import reading

    key = name_key(player)
    if not key:
        return []
    with reading(db) as con:
        rows = con.execute("""
            SELECT pdnkit_n, player_name(pdnkit_n) FROM (
                SELECT trim(white) AS pdnkit_n FROM games UNION SELECT trim(black) FROM games)
            WHERE pdnkit_n IS NOT NULL AND pdnkit_n <> ''""").fetchall()
    out: set[str] = set()
    for name, who in rows:
        if who is None:  # a placeholder: no player
            continue
        if (name_key(name) == key and same_player(player, name)) or (
                who != name and name_key(who) == key and same_player(player, who)):
            out.update((name, who))
    return sorted(out)
