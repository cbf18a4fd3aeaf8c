"""Openings as players name them, over a database: statistics per ballot, code or name
(:func:`named_openings`, what ``pdnkit stats openings --by code|name`` shows), the ballots
played and which were decisive (:func:`ballots`, the ballot report), and each game's
novelty (:func:`novelties`).

The games carry their opening from the import (``games.opening_code``, ``opening_name``,
``opening_family``: :mod:`pdnkit.openings`), so these are plain queries. Results read from
the first mover's side where every game read is of a variant Black begins (English, Italian
counts White first: ``black_wins`` before ``white_wins`` in English), and on the board as
the tables read it: a game recorded with the colours swapped counts its first mover's win
for the side that moves first (:data:`OUTCOME_AS_READ`).

Example:
    >>> from pdnkit.store import connect
    >>> con = connect(":memory:")
    >>> named_openings(con).empty, ballots(con).empty, novelties(con).empty
    (True, True, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.stats.common import OUTCOME_SQL, first_mover_first, frame, result_columns
from pdnkit.stats.filters import DateBound, GameFilter, SqlParam
from pdnkit.store.session import DbLike, reading
from pdnkit.store.stream import Stream

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["BALLOT_KINDS", "OPENING_GAME", "OUTCOME_AS_READ", "NoveltyStream", "ballots",
           "named_openings", "natural_key", "novelties", "novelties_stream", "view_where"]

#: the kinds of table whose codes are ballots (a tournament's draw)
BALLOT_KINDS = ("ballot",)

#: SQL: the outcome of game ``g`` on the board as the tables read it: a game recorded with
#: the colours swapped (``opening_mirrored``: the side recorded as White moved first, as
#: Black does in English) won by its White was won by the side the tables call Black
OUTCOME_AS_READ = (f"CASE WHEN g.opening_mirrored THEN CASE {OUTCOME_SQL} WHEN 'white' "
                   f"THEN 'black' WHEN 'black' THEN 'white' ELSE {OUTCOME_SQL} END "
                   f"ELSE {OUTCOME_SQL} END")


#: SQL: game ``g`` is an opening the tables can count: a move of it was replayed. Placeholder
#: moves (``1. - - 2. - -``, a game recorded without its moves), a first move that could not
#: be read and a listing of set-up positions without moves (the 11-man ballots' FENs) are no
#: opening. A set-up start counts only where the tables name its position (a ballot's); any
#: other set-up reaches no table entry and has no code.
OPENING_GAME = "coalesce(g.replayed_plies, 0) > 0"


def view_where(column: str, value: object) -> str:
    """The ``pdnkit view --where`` condition that opens the games whose ``column`` is
    ``value``.

    Example:
        >>> view_where("opening_code", "ACF 126")
        "opening_code = 'ACF 126'"
    """
    text = str(value).replace("'", "''")
    return f"{column} = '{text}'"


def _scores() -> str:
    """White's and Black's score (%) and the draw rate (%) of a group."""
    decided = "nullif(count(*) FILTER (WHERE oc IN ('white', 'draw', 'black')), 0)"
    return (f"round(100.0 * (count(*) FILTER (WHERE oc = 'black') + 0.5 * count(*) "
            f"FILTER (WHERE oc = 'draw')) / {decided}, 1) AS black_score, "
            f"round(100.0 * count(*) FILTER (WHERE oc = 'draw') / {decided}, 1) AS draw_rate")


def named_openings(
    con: DbLike = None,
    *,
    by: str = "code",
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    min_games: int = 1,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Results per opening as the tables name it: ``by="code"`` groups the games by their
    ballot or table code (``games.opening_code``: ``ACF 126``, ``11-man 25``, ``XV-11``),
    ``by="name"`` by the name of the deepest named opening they reached (``Old
    Fourteenth``, ``Кол``). Games the tables do not know are left out, and so are games
    that are no opening (:data:`OPENING_GAME`: no replayed move, as placeholder moves ``- -``
    or a listing of set-up positions give). Transpositions are already merged: a game's
    opening comes from its positions.

    Columns: ``variant``, ``code``, ``name`` (with ``by="code"`` the code's most frequent
    name, ties by the name; with ``by="name"`` every code the name's games have, in
    natural order: ``ACF 121, ACF 124, ACF 125``, then its ``translit``), ``family`` (the
    code's table, or the codes' tables), ``games``, ``white_wins``, ``draws``, ``black_wins``,
    ``unknown``, ``white_score``, ``black_score`` (%), ``draw_rate`` (% of the decided or
    drawn games), ``avg_plies``, ``view_where`` (the ``pdnkit view --where`` condition that
    opens the games); Black's columns first in a variant Black begins. The same games give
    the same table whatever the order they were imported in.

    >>> from pdnkit.store import connect
    >>> list(named_openings(connect(":memory:"), variant="english").columns)[4:7]
    ['games', 'black_wins', 'draws']
    """
    if by not in ("code", "name"):
        raise ArgumentError("by must be 'code' or 'name'")
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    key = "opening_code" if by == "code" else "opening_name"
    if by == "code":  # the code's most frequent name, ties broken by the name
        other = """(SELECT first(t.opening_name ORDER BY t.n DESC, t.opening_name)
                    FROM (SELECT h.opening_name, count(*) AS n FROM g h
                          WHERE h.variant = g.variant AND h.opening_code = g.opening_code
                          AND h.opening_name IS NOT NULL GROUP BY h.opening_name) t) AS name,
                   min(g.opening_family) AS family"""
    else:  # every code of the name's games, and their tables: sorted below
        other = """list(DISTINCT g.opening_code) FILTER (WHERE g.opening_code IS NOT NULL)
                       AS code,
                   list(DISTINCT g.opening_code || chr(9) || g.opening_family)
                       FILTER (WHERE g.opening_code IS NOT NULL) AS family"""
    sql = f"""
        WITH g AS (SELECT g.*, {OUTCOME_AS_READ} AS oc
                   FROM games g WHERE g.{key} IS NOT NULL AND {OPENING_GAME} AND {{where}})
        SELECT g.variant, g.{key} AS {by}, {other},
               {result_columns()}, {_scores()},
               round(avg(g.plies), 1) AS avg_plies
        FROM g GROUP BY g.variant, g.{key}
        HAVING count(*) >= ?
        ORDER BY games DESC, g.variant, {by}"""
    with reading(con) as c:
        where, params = gf.sql(con=c)
        df = frame(c, sql.replace("{where}", where), params + [min_games])
    order = ["variant", "code", "name", "family"]
    if by == "name":
        df["code"], df["family"] = _codes_text(df["code"], df["family"])
        df = _with_translit(df)
        order.insert(3, "translit")
    df["view_where"] = [view_where(key, v) for v in df[by]]
    df = df[order + [c for c in df.columns if c not in order]]
    return first_mover_first(df, [gf.variant] if gf.variant else df["variant"])


def natural_key(code: str) -> tuple[tuple[int, int | str], ...]:
    """A code's place in natural order: its numbers as numbers (``ACF 9`` before ``ACF 10``).

    Example:
        >>> sorted(["ACF 125", "ACF 9", "2-move 3", "ACF 121"], key=natural_key)
        ['2-move 3', 'ACF 9', 'ACF 121', 'ACF 125']
    """
    return tuple((0, int(p)) if p.isdigit() else (1, p)
                 for p in re.split(r"(\d+)", code) if p)


def _values(cell: object) -> list[object]:
    """A list cell of a DataFrame (a list, an array, or NULL) as a list."""
    if isinstance(cell, Iterable) and not isinstance(cell, str):
        return list(cell)
    return []  # NULL (None or NaN)


def _codes_text(codes: Iterable[object], families: Iterable[object]
                ) -> tuple[list[str | None], list[str | None]]:
    """The ``code`` and ``family`` cells of :func:`named_openings` by name: each row's codes
    in natural order, and their tables in the order of the codes, ``", "``-joined."""
    code_cells: list[str | None] = []
    family_cells: list[str | None] = []
    for cs, fs in zip(codes, families, strict=True):
        ordered = sorted({str(x) for x in _values(cs)}, key=natural_key)
        table: dict[str, str] = {}
        for x in _values(fs):
            code, _, family = str(x).partition("\t")
            table[code] = family
        fams = list(dict.fromkeys(table[c] for c in ordered if c in table))
        code_cells.append(", ".join(ordered) or None)
        family_cells.append(", ".join(fams) or None)
    return code_cells, family_cells


def _with_translit(df: pd.DataFrame) -> pd.DataFrame:
    """The transliteration of each name (from the shipped tables), for Cyrillic names."""
    from pdnkit.openings import load_tables

    out = []
    for v, name in df[["variant", "name"]].itertuples(index=False):
        try:
            found = [e.translit for e in load_tables(v).find(name) if e.translit]
        except ValueError:  # a variant this pdnkit does not know
            found = []
        out.append(found[0] if found else None)
    df = df.copy()
    df["translit"] = out
    return df


def ballots(
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """The ballots played (games whose code is a ballot: the ACF three-move and two-move
    ballots, the 11-man ballots, the basic positions of Russian and Brazilian draughts, a
    loaded table of kind ``ballot``), in the order of their tables: for each, the games,
    the wins of each side, draws, the decisive games and their share. A tournament plays
    each ballot with both colours: ``decisive`` says which ballots gave a result.

    Columns: ``variant``, ``family``, ``ballot`` (its code), ``name``, ``deck`` (its flags:
    ``crossboard``, ``mailplay``, ``barred``, ``ctd`` ...), ``games``, ``white_wins``,
    ``draws``, ``black_wins``, ``unknown``, ``decisive``, ``decisive_share`` (%),
    ``view_where``; Black's columns first in a variant Black begins.

    >>> from pdnkit.store import connect
    >>> list(ballots(connect(":memory:"), variant="english").columns)[:6]
    ['variant', 'family', 'ballot', 'name', 'deck', 'games']
    """
    import pandas as pd

    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    with reading(con) as c:
        where, params = gf.sql(con=c)
        df = frame(c, f"""
            WITH g AS (SELECT g.*, {OUTCOME_AS_READ} AS oc FROM games g
                       WHERE g.opening_code IS NOT NULL AND {OPENING_GAME} AND {where})
            SELECT g.variant, min(g.opening_family) AS family, g.opening_code AS ballot,
                   (SELECT first(t.opening_name ORDER BY t.n DESC, t.opening_name)
                    FROM (SELECT h.opening_name, count(*) AS n FROM g h
                          WHERE h.variant = g.variant AND h.opening_code = g.opening_code
                          AND h.opening_name IS NOT NULL GROUP BY h.opening_name) t) AS name,
                   {result_columns()},
                   count(*) FILTER (WHERE oc IN ('white', 'black'))::BIGINT AS decisive
            FROM g GROUP BY g.variant, g.opening_code""", params)
        info = _ballot_info(c, sorted({str(v) for v in df["variant"]}))
    pairs = list(zip(df["variant"], df["ballot"], strict=True))
    df = df.loc[pd.Series([p in info for p in pairs], index=df.index, dtype=bool)].copy()
    pairs = [p for p in pairs if p in info]
    df["deck"] = [info[p][1] for p in pairs]
    df["rank"] = [info[p][0] for p in pairs]
    df["decisive_share"] = (100.0 * df["decisive"] / df["games"].where(df["games"] > 0)).round(1)
    df = df.sort_values(["variant", "rank"]).drop(columns=["rank", "white_score"])
    df["view_where"] = [view_where("opening_code", b) for b in df["ballot"]]
    cols = ["variant", "family", "ballot", "name", "deck", "games", "white_wins", "draws",
            "black_wins", "unknown", "decisive", "decisive_share", "view_where"]
    df = pd.DataFrame(df[cols]).reset_index(drop=True)
    return first_mover_first(df, [gf.variant] if gf.variant else df["variant"])


def _ballot_info(con: duckdb.DuckDBPyConnection,
                 variants: list[str]) -> dict[tuple[str, str], tuple[int, str]]:
    """``(variant, full code) -> (its place in the book, its flags)`` of every ballot entry
    the database classifies with."""
    from pdnkit.store.openingdb import opening_book

    out: dict[tuple[str, str], tuple[int, str]] = {}
    for v in variants:
        try:
            book = opening_book(con, v)
        except ValueError:  # a variant this pdnkit does not know
            continue
        for k, e in enumerate(book.entries):
            if e.kind in BALLOT_KINDS:
                out.setdefault((v, e.full_code), (k, ";".join(e.flags)))
    return out


def novelties(
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
) -> pd.DataFrame:
    """Each game's novelty (the chess databases' "N"): the first ply at which its position
    had not occurred in any earlier game of the database (``games.novelty_ply``), the move
    played there and the game it deviated from, in the order of "earlier" (dated games by
    date, a partial date as its first day; the same date in the order of import and of the
    file; undated games after every dated one, in that order: :mod:`pdnkit.openings.novelty`).

    Columns: ``game_id``, ``date``, ``white``, ``black``, ``event``, ``result``,
    ``opening_code``, ``opening_name``, ``novelty_ply`` (NULL: every position had occurred
    before), ``move_number``, ``novelty`` (the move, as the statistics write it; NULL at
    ply 0: a start no earlier game had), ``deviated_from`` (a ``game_id``), ``from_date``,
    ``from_white``, ``from_black``, ``from_event``.

    >>> from pdnkit.store import connect
    >>> list(novelties(connect(":memory:")).columns)[8:11]
    ['novelty_ply', 'move_number', 'novelty']
    """
    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    with reading(con) as c:
        sql, params = _novelties_sql(c, gf)
        return frame(c, sql, params)


def novelties_stream(
    con: DbLike = None,
    *,
    variant: str | None = None,
    event: str | None = None,
    player: str | None = None,
    date_from: DateBound = None,
    date_to: DateBound = None,
    filter: GameFilter | None = None,
    rows: int | None = None,
) -> NoveltyStream:
    """:func:`novelties` as a :class:`pdnkit.store.stream.Stream`: the same rows in Arrow
    record batches of ``rows`` rows, made as they are read (one a game: memory flat
    whatever the database's size), with :attr:`NoveltyStream.total`, the number of rows.
    Use it in a ``with`` block: its end closes the database when ``con`` was a path. What
    ``pdnkit stats novelties`` writes.

    >>> from pdnkit.store import connect
    >>> with novelties_stream(connect(":memory:")) as s:
    ...     s.columns[8], s.total, sum(b.num_rows for b in s)
    ('novelty_ply', 0, 0)
    """
    from contextlib import ExitStack

    from pdnkit.store.stream import BATCH_ROWS

    gf = GameFilter.of(filter, variant=variant, event=event, player=player,
                       date_from=date_from, date_to=date_to)
    stack = ExitStack()
    try:
        c = stack.enter_context(reading(con))
        sql, params = _novelties_sql(c, gf)
        total = int(c.execute(f"SELECT count(*) FROM ({sql})", params).fetchall()[0][0])
        stream = NoveltyStream(c.sql(sql, params=params), rows=rows or BATCH_ROWS,
                               on_close=stack.close)
    except BaseException:
        stack.close()
        raise
    stream.total = total
    return stream


class NoveltyStream(Stream):
    """The rows of :func:`novelties_stream`, with :attr:`total`, the number of rows."""

    total: int = 0


def _novelties_sql(c: duckdb.DuckDBPyConnection, gf: GameFilter
                   ) -> tuple[str, list[SqlParam]]:
    """The SELECT of :func:`novelties` on ``c`` and its parameters."""
    from pdnkit.store.novelties import ORDER

    where, params = gf.sql(con=c)
    return f"""
            SELECT g.game_id, g.date_text AS date, g.white, g.black, g.event, g.result, g.opening_code,
                   g.opening_name, g.novelty_ply, m.move_number,
                   coalesce(m.canonical, m.notation) AS novelty,
                   g.novelty_from AS deviated_from, f.date_text AS from_date, f.white AS from_white,
                   f.black AS from_black, f.event AS from_event
            FROM games g
            LEFT JOIN moves m ON m.game_id = g.game_id AND m.ply = g.novelty_ply
            LEFT JOIN games f ON f.game_id = g.novelty_from
            WHERE g.variant IS NOT NULL AND {where}
            ORDER BY {ORDER}""", list(params)
