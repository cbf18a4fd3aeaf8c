"""A search's rows written as they are read: :func:`search_stream`, what ``pdnkit search``
writes.

:func:`pdnkit.search` builds its whole answer (a DataFrame) before handing it over; a
search of a common pattern in a large database finds millions of positions (1.84 M rows
for ``W31,32,33:B18,19,20`` in 1 M games took 4.2 GB as one table). Here the hits are found
as :func:`pdnkit.search` finds them (the same plan, the same steps, kept in temporary
tables), and their rows -- games, the move played next, the FEN -- are made a batch at a
time as the reader takes them (:class:`pdnkit.store.stream.Stream`), so memory stays flat
whatever the number of hits.

Example:
    >>> from pdnkit.store import connect
    >>> with search_stream(connect(":memory:"), pattern="W28:B19") as s:
    ...     s.columns[:4], sum(b.num_rows for b in s)
    (['game_id', 'ply', 'side', 'variant'], 0)
"""

from __future__ import annotations

from contextlib import ExitStack

from pdnkit.stats.filters import DateBound, GameFilter
from pdnkit.stats.search import SearchCriteria, search_plan, tuning
from pdnkit.stats.searchrun import SearchPlan, SearchStream, stream_search
from pdnkit.store.session import DbLike, reading

__all__ = ["search_stream"]

#: the plan of a search no board of the database can hold: no hit
_NOTHING = SearchPlan(cond="FALSE", move_branches=[], after=False, where="TRUE", params=[],
                      first=False, limit=None)


def search_stream(
    db: DbLike = None,
    *,
    fen: str | None = None,
    pattern: str | None = None,
    exclude: str | None = None,
    any_of: str | None = None,
    side: str | None = None,
    mirror: bool = False,
    material: str | None = None,
    manoeuvre: str | None = None,
    captures: int | str | None = None,
    promotes: bool | None = None,
    before: str | None = None,
    after: str | None = None,
    first: bool = False,
    limit: int | None = None,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
    with_fen: bool = True,
    rows: int | None = None,
) -> SearchStream:
    """:func:`pdnkit.search`'s rows (the same arguments, the same rows in the same order) as
    a :class:`pdnkit.store.stream.Stream` of Arrow record batches of ``rows`` rows, made as
    they are read, with their number (``total``); ``with_fen=False`` leaves the ``fen`` column out (a text table on the
    screen does not show it). The hits are found before it returns (an unreadable criterion
    raises :class:`pdnkit.stats.search.SearchError` then). Use it in a ``with`` block: its
    end drops the hits' temporary tables and closes the database when ``db`` was a path.

    Example:
        >>> from pdnkit.store import connect
        >>> with search_stream(connect(":memory:"), material="1 v 1", with_fen=False) as s:
        ...     "fen" in s.columns
        False
    """
    criteria = SearchCriteria(
        fen=fen, pattern=pattern, exclude=exclude, any_of=any_of, side=side, mirror=mirror,
        material=material, manoeuvre=manoeuvre, captures=captures, promotes=promotes,
        before=before, after=after, first=first, limit=limit,
        filter=GameFilter.of(filter, variant=variant, event=event, player=player,
                             date_from=date_from, date_to=date_to))
    stack = ExitStack()
    try:
        con = stack.enter_context(reading(db))
        plan = search_plan(con, criteria) or _NOTHING
    except BaseException:
        stack.close()
        raise
    return stream_search(con, plan, tuning(), fen=with_fen, rows=rows, on_close=stack.close)
