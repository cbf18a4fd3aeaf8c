"""The explorer's JSON API: one handler a path under ``/api/``, each a thin shell over the
library function the command line calls, with the command's option names as parameters.

===================  =====================================================  ==========================
path                 parameters                                             gives (as ``--format json``)
===================  =====================================================  ==========================
``/api/tree``        moves, fen, variant, event, player, from, to,          ``pdnkit tree``
                     all_copies, match, min_games
``/api/games``       moves, fen, status, limit, offset, variant, event,     ``pdnkit games`` (the
                     player, from, to, all_copies, match                    total in ``X-Total-Count``)
``/api/search``      fen, pattern, exclude, any, side, mirror, material,    ``pdnkit search``
                     manoeuvre, captures, promotes, before, after, first,
                     limit, variant, event, player, from, to,
                     all_copies, match
``/api/stats``       kind (openings, novelties, players, results, lengths,  ``pdnkit stats KIND``
                     findings, crosstable), by, plies, bin, scoring,
                     min_games, variant, event, player, from, to,
                     all_copies, match
``/api/node``        variant, moves, fen (moves from fen too)               the board of a node
``/api/game``        id                                                     a game as the view page
                                                                            holds it, and its
                                                                            engine evaluations
``/api/info``        (none)                                                 the database: games,
                                                                            variants, their boards
===================  =====================================================  ==========================

``moves=32-28+19-23`` is ``--moves "32-28 19-23"`` (a ``+`` in a query is a space); a flag is
``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``. Each game counts once, by
the record that stands for its copies (``pdnkit duplicates``); ``all_copies=1`` counts every
record (``--all-copies``), ``match=1`` selects every name the player can be written as
(``--match``). An unknown parameter, a bad
value or a move that is not legal is an :class:`~pdnkit.errors.ArgumentError` (the server's
400, with the message the command line prints).

Example:
    >>> from pdnkit.store import connect
    >>> answer("/api/tree", {"moves": ["32-28"], "variant": ["international"]},
    ...        connect(":memory:")).body
    []
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pdnkit._cells import frame_records
from pdnkit.errors import ArgumentError

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

    from pdnkit.stats.filters import GameFilter

__all__ = ["ENDPOINTS", "STATS", "Answer", "Params", "answer", "info"]

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")
#: the filters every statistic takes (the CLI's --variant --event --player --from --to
#: --all-copies --match)
_FILTERS = ("variant", "event", "player", "from", "to", "all_copies", "match")


@dataclass
class Answer:
    """What a handler gives: a JSON value and the extra headers that go with it."""

    body: Any
    headers: dict[str, str] = field(default_factory=dict)


class Params:
    """A query's parameters (``name -> values``), read by name and type; every name must be
    one the endpoint knows.

    Example:
        >>> p = Params({"limit": ["5"], "mirror": ["on"]}, ("limit", "mirror", "fen"), "x")
        >>> p.number("limit"), p.flag("mirror"), p.text("fen")
        (5, True, None)
        >>> try:
        ...     Params({"limt": ["5"]}, ("limit",), "/api/x")
        ... except ValueError as exc:
        ...     print(exc)
        unknown parameter 'limt' for /api/x (known: limit)
    """

    def __init__(self, query: Mapping[str, Sequence[str]], known: Sequence[str],
                 path: str) -> None:
        for name in query:
            if name not in known:
                listed = ", ".join(known) or "none"
                raise ArgumentError(f"unknown parameter {name!r} for {path} (known: {listed})")
        self.query = query

    def text(self, name: str) -> str | None:
        """The parameter's last value, stripped; ``None`` when absent or empty."""
        values = self.query.get(name) or [""]
        value = values[-1].strip()
        return value or None

    def number(self, name: str, *, least: int = 0) -> int | None:
        """The parameter as a whole number of at least ``least`` (``None`` when absent)."""
        value = self.text(name)
        if value is None:
            return None
        try:
            n = int(value)
        except ValueError:
            raise ArgumentError(f"{name} must be a whole number, got {value!r}") from None
        if n < least:
            raise ArgumentError(f"{name} must be at least {least}, got {n}")
        return n

    def flag(self, name: str) -> bool:
        """The parameter as a yes/no flag (absent: no)."""
        value = (self.text(name) or "").lower()
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        raise ArgumentError(f"{name} must be 1 or 0 (true/false, yes/no, on/off), got "
                            f"{value!r}")

    def game_filter(self) -> GameFilter:
        """The statistics' filters (``variant``, ``event``, ``player``, ``from``, ``to``,
        ``all_copies``, ``match``) as one :class:`~pdnkit.stats.GameFilter` (an unknown
        variant or a bad date raises).

        Example:
            >>> Params({"all_copies": ["1"]}, _FILTERS, "x").game_filter().all_copies
            True
        """
        from pdnkit.stats.filters import GameFilter

        return GameFilter(variant=self.text("variant"), event=self.text("event"),
                          player=self.text("player"), date_from=self.text("from"),
                          date_to=self.text("to"), match=self.flag("match"),
                          all_copies=self.flag("all_copies"))


def _rows(df: Any) -> list[dict[str, object]]:
    return frame_records(df)


def _tree(con: duckdb.DuckDBPyConnection, p: Params) -> Answer:
    from pdnkit.stats import tree

    fen, moves = p.text("fen"), p.text("moves")
    if fen and moves:
        raise ArgumentError("give fen or moves, not both")
    return Answer(_rows(tree(con, fen=fen, moves=moves, min_games=p.number("min_games") or 1,
                             filter=p.game_filter())))


def _games(con: duckdb.DuckDBPyConnection, p: Params) -> Answer:
    from pdnkit.stats import games

    fen, moves = p.text("fen"), p.text("moves")
    if fen and moves:
        raise ArgumentError("give fen or moves, not both")
    df = games(con, fen=fen, moves=moves, status=p.text("status"), limit=p.number("limit"),
               offset=p.number("offset") or 0, filter=p.game_filter())
    return Answer(_rows(df), {"X-Total-Count": str(int(df.attrs.get("total", len(df))))})


def _search(con: duckdb.DuckDBPyConnection, p: Params) -> Answer:
    from pdnkit.stats.search import search

    return Answer(_rows(search(
        con, fen=p.text("fen"), pattern=p.text("pattern"), exclude=p.text("exclude"),
        any_of=p.text("any"), side=p.text("side"), mirror=p.flag("mirror"),
        material=p.text("material"), manoeuvre=p.text("manoeuvre"),
        captures=p.text("captures"), promotes=True if p.flag("promotes") else None,
        before=p.text("before"), after=p.text("after"), first=p.flag("first"),
        limit=p.number("limit"), filter=p.game_filter())))


#: the statistics of ``/api/stats`` (``pdnkit stats KIND``)
STATS = ("openings", "novelties", "players", "results", "lengths", "findings", "crosstable")


def _stats(con: duckdb.DuckDBPyConnection, p: Params) -> Answer:
    kind = p.text("kind") or ""
    if kind not in STATS:
        raise ArgumentError(f"kind must be one of {', '.join(STATS)}, got {kind!r}")
    gf = p.game_filter()
    if kind == "novelties":
        from pdnkit.stats import novelties

        return Answer(_rows(novelties(con, filter=gf)))
    if kind == "crosstable":  # as the command: an event's players, whoever plays
        from pdnkit.stats import crosstable

        if not gf.event:
            raise ArgumentError("a crosstable needs an event (event=...)")
        return Answer(_rows(crosstable(con, event=gf.event, variant=gf.variant,
                                       date_from=gf.date_from, date_to=gf.date_to,
                                       scoring=p.text("scoring") or "auto",
                                       filter=gf.without_player())))
    from pdnkit.stats import stats

    plies, by = p.number("plies", least=1), p.text("by")
    if kind == "openings" and by is None:  # as the command: by code, by moves with plies
        by = "moves" if plies is not None else "code"
    return Answer(_rows(stats(kind, con, plies=plies, by=by, bin_width=p.number("bin", least=1),
                              min_games=p.number("min_games") or 1, filter=gf)))


def _node(con: duckdb.DuckDBPyConnection, p: Params) -> Answer:
    from pdnkit.serve.nodes import node

    variant = p.text("variant")
    if not variant:
        raise ArgumentError("node needs a variant (variant=...)")
    return Answer(node(con, variant=variant, moves=p.text("moves"), fen=p.text("fen")))


def _game(con: duckdb.DuckDBPyConnection, p: Params) -> Answer:
    from pdnkit.serve.games import game_data

    game_id = p.number("id", least=1)
    if game_id is None:
        raise ArgumentError("game needs its id (id=N, the game_id of the game list)")
    return Answer(game_data(con, game_id))


def info(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, Any]:
    """What the page needs to start: the database's ``name``, its games, and per variant
    (most games first) its games, title and board layout (:func:`pdnkit.viewer.page.layout`).

    >>> from pdnkit.store import connect
    >>> info(connect(":memory:"), "x")["games"]
    0
    """
    from pdnkit._version import __version__
    from pdnkit.rules import get_rules
    from pdnkit.stats import GameFilter
    from pdnkit.viewer.page import layout

    where, params = GameFilter().sql()
    counts = con.execute(f"SELECT g.variant, count(*) FROM games g WHERE {where} "
                         "GROUP BY ALL ORDER BY 2 DESC, 1", params).fetchall()
    variants = []
    for v, n in counts:
        try:
            rules = get_rules(v)
        except ValueError:  # a variant this pdnkit does not know (NULL: unparsed games)
            continue
        variants.append({"variant": rules.name, "title": rules.title, "games": int(n),
                         "layout": layout(rules)})
    return {"database": name, "version": __version__,
            "games": int(sum(int(n) for _, n in counts)), "variants": variants,
            "statuses": ["ok", "warning", "error", "unparsed"], "stats": list(STATS)}


_SEARCH = ("fen", "pattern", "exclude", "any", "side", "mirror", "material", "manoeuvre",
           "captures", "promotes", "before", "after", "first", "limit")

#: path -> (the handler, the parameters it takes)
ENDPOINTS: dict[str, tuple[Callable[[duckdb.DuckDBPyConnection, Params], Answer],
                           tuple[str, ...]]] = {
    "/api/tree": (_tree, ("moves", "fen", "min_games", *_FILTERS)),
    "/api/games": (_games, ("moves", "fen", "status", "limit", "offset", *_FILTERS)),
    "/api/search": (_search, (*_SEARCH, *_FILTERS)),
    "/api/stats": (_stats, ("kind", "by", "plies", "bin", "scoring", "min_games", *_FILTERS)),
    "/api/node": (_node, ("variant", "moves", "fen")),
    "/api/game": (_game, ("id",)),
}


def answer(path: str, query: Mapping[str, Sequence[str]],
           con: duckdb.DuckDBPyConnection) -> Answer:
    """The answer of the endpoint ``path`` to ``query`` on the open connection ``con``;
    :class:`KeyError` for a path that is no endpoint."""
    handler, known = ENDPOINTS[path]
    return handler(con, Params(query, known, path))
