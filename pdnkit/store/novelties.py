"""Novelties in a database, in SQL: ``games.novelty_ply`` and ``games.novelty_from``.

The rule is the one of :mod:`pdnkit.openings.novelty` (a game's novelty is the first ply
whose position, placement and side to move, no earlier game of its variant reached; it
deviated from the earliest earlier game that reached the position before), computed over
the stored positions (``position_bits``) instead of positions held in memory, among the
games counted once (a copy of a game, ``games.duplicate_of``, has no novelty and is no
earlier game: :mod:`pdnkit.store.copies`). "Earlier" is
:data:`ORDER`: dated games by :data:`SORT_DATE` (``games.date_first``, the first day the date
allows: a partial date's, a season's; else, in rows without it, ``games.date``, a partial
date's first day, 1 January of ``games.year``), the same date in the order of import
(``game_id``: files in the order they were imported, games in file order), undated games
after every dated one, in the order of import.

:func:`refresh_novelties` recomputes the games a query selects (or every game) against the
whole database. An import does not recompute everything: a new game can only change the
novelty of a later game that reaches the new game's position at its novelty ply or the ply
before it (:func:`affected_by_new`), and removing games (a file replaced) only changes
games that reached, before their novelty, a position first reached by a removed game
(:func:`affected_by_removal`). The import marks those games in ``opening_pending`` and
recomputes them at its end (:mod:`pdnkit.store.openingdb`).

Example:
    >>> from pdnkit.store import connect, import_files
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.pdn").write_text('[Date "1990.01.01"] 1. 32-28 19-23 2. 28x19 14x23 *\\n'
    ...                              '[Date "1991.01.01"] 1. 32-28 19-23 2. 37-32 *\\n')
    >>> _ = import_files([d / "a.pdn"], db=d / "a.duckdb", variant="international")
    >>> con = connect(d / "a.duckdb")
    >>> con.execute("SELECT game_id, novelty_ply, novelty_from FROM games ORDER BY 1").fetchall()
    [(1, 0, None), (2, 3, 1)]
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from pdnkit.rows.bitboards import bits_source

if TYPE_CHECKING:
    import duckdb

__all__ = ["ORDER", "SORT_DATE", "affected_by_new", "affected_by_removal",
           "compute_novelties", "refresh_novelties"]

_MONTH = ("TRY_CAST(regexp_extract(g.date_raw, '^\\s*\\d{4}[.\\-/](\\d{1,2})(?:\\D|$)', 1) "
          "AS INTEGER)")
#: SQL: the date game ``g`` is ordered by (:func:`pdnkit.openings.novelty.sort_date`)
SORT_DATE = (f"coalesce(g.date_first, g.date, make_date(g.year, CASE WHEN {_MONTH} "
             f"BETWEEN 1 AND 12 THEN {_MONTH} ELSE 1 END, 1))")
#: SQL: game ``g``'s place in the order of "earlier", one BIGINT (the days of its sort date,
#: undated after every date, then its game_id)
ORDER = (f"((CASE WHEN ({SORT_DATE}) IS NULL THEN 4000000 ELSE least(greatest(date_diff("
         f"'day', DATE '0001-01-01', {SORT_DATE}), 0), 3999999) END)::BIGINT << 40) "
         "| g.game_id")

_KEY = ("vid", "black", "wm", "wk", "bm", "bk")
#: the columns of a position row that make its key (``vid``: the game's variant, numbered)
_BITS = ("black", "wm", "wk", "bm", "bk")


#: the earliest game of a position (``o.ord``: each game's place, unique) and the ply at which
#: it first reached it (its lowest, should it come back): ordered by place, then ply
_FIRST = ("arg_min(p.game_id, o.ord) AS first, "
          "arg_min(p.ply, o.ord::HUGEINT * 4294967296 + p.ply) AS fply")


def _on(a: str, b: str) -> str:
    """The join condition of two position rows ``a`` and ``b`` (the same variant, every
    bitboard equal)."""
    return " AND ".join(f"{a}.{c} = {b}.{c}" for c in _KEY)


def _key(p: str = "p", o: str = "o") -> str:
    """The key columns of position rows ``p`` of games ``o`` (the order table)."""
    return ", ".join([f"{o}.vid", *(f"{p}.{c}" for c in _BITS)])


class _Temp:
    """Names of the temporary tables of one computation, dropped at the end."""

    def __init__(self, con: duckdb.DuckDBPyConnection, *parts: str) -> None:
        tag = uuid.uuid4().hex[:10]
        self.con = con
        self.names = {p: f"_pdnkit_nov_{p}_{tag}" for p in parts}

    def __getitem__(self, part: str) -> str:
        return "temp." + self.names[part]

    def __enter__(self) -> _Temp:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        for name in self.names.values():
            try:
                self.con.execute(f"DROP TABLE IF EXISTS temp.{name}")
            except Exception:
                if kind is None:  # (after an error the transaction's rollback drops them)
                    raise


def _order_table(con: duckdb.DuckDBPyConnection, t: _Temp) -> None:
    """``ord``: every game of a known variant with its variant numbered (``vid``) and its
    place in the order; each game once (a copy of a game, ``games.duplicate_of``, is not a
    game of its own: it has no novelty and is no earlier game)."""
    con.execute(f"CREATE TEMP TABLE {t.names['ord']} AS SELECT g.game_id, "
                "dense_rank() OVER (ORDER BY g.variant)::USMALLINT AS vid, "
                f"{ORDER} AS ord FROM games g WHERE g.variant IS NOT NULL "
                "AND g.duplicate_of IS NULL")


def _firsts(con: duckdb.DuckDBPyConnection, t: _Temp, name: str, games: str | None) -> None:
    """The temporary table ``name``: the earliest game (``first``) of every position that a
    game ``games`` selects reached (``None``: every position), among all the games, and the
    ply at which that game first reached it (``fply``). One scan of the positions; the table
    holds one row per distinct position."""
    bits = bits_source(con)
    if games is None:
        con.execute(f"""
            CREATE TEMP TABLE {t.names[name]} AS
            SELECT {_key()}, {_FIRST}
            FROM {bits} p JOIN {t['ord']} o USING (game_id) GROUP BY ALL""")
        return
    con.execute(f"""
        CREATE TEMP TABLE {t.names[name]} AS
        WITH k AS (SELECT DISTINCT {_key()} FROM {bits} p JOIN {t['ord']} o USING (game_id)
                   WHERE p.game_id IN ({games}))
        SELECT {_key()}, {_FIRST}
        FROM {bits} p JOIN {t['ord']} o USING (game_id)
        JOIN k ON {_on('k', 'p').replace('p.vid', 'o.vid')}
        GROUP BY ALL""")


def compute_novelties(con: duckdb.DuckDBPyConnection, into: str,
                      games: str | None = None) -> int:
    """The novelties of the games the SQL query ``games`` selects (one ``game_id`` column;
    ``None``: every game) against every game of the database, as the temporary table
    ``into`` (``game_id``, ``novelty_ply``, ``novelty_from``; a row for each game with stored
    positions); returns its number of rows. The database is only read (a lake's views will
    do). One pass over the positions groups them (the earliest game of each distinct
    position and its ply), one finds each game's last ply, and one joins one position row
    a game: none holds more than one row per distinct position, so it keeps to the
    import's small memory.

    Example:
        >>> from pdnkit.store import connect
        >>> compute_novelties(connect(":memory:"), "_mine")
        0
    """
    bits = bits_source(con)
    only = "" if games is None else f"AND p.game_id IN ({games})"
    with _Temp(con, "ord", "first", "nov") as t:
        _order_table(con, t)
        _firsts(con, t, "first", games)
        # a game's novelty: the lowest ply among the positions it reached first (a game
        # that reached none first has none); ``last``: its last stored ply
        con.execute(f"""
            CREATE TEMP TABLE {t.names['nov']} AS
            WITH firsts AS (SELECT first AS game_id, min(fply) AS nply FROM {t['first']}
                            GROUP BY first)
            SELECT l.game_id, f.nply, l.last
            FROM (SELECT p.game_id, max(p.ply) AS last FROM {bits} p
                  WHERE p.game_id IN (SELECT game_id FROM {t['ord']}) {only}
                  GROUP BY p.game_id) l
            LEFT JOIN firsts f ON f.game_id = l.game_id""")
        # the game deviated from: the first game of its position one ply before the
        # novelty (of its last position, without one): one position row per game is joined
        con.execute(f"""
            CREATE OR REPLACE TEMP TABLE {into.removeprefix('temp.')} AS
            WITH want AS (SELECT game_id, coalesce(nply - 1, last) AS ply FROM {t['nov']}),
                 before AS (SELECT p.*, o.vid FROM {bits} p JOIN want w
                            ON w.game_id = p.game_id AND w.ply = p.ply
                            JOIN {t['ord']} o ON o.game_id = p.game_id)
            SELECT n.game_id, n.nply::INTEGER AS novelty_ply,
                   CASE WHEN n.nply = 0 THEN NULL ELSE f.first END::BIGINT AS novelty_from
            FROM {t['nov']} n LEFT JOIN before p ON p.game_id = n.game_id
            LEFT JOIN {t['first']} f ON {_on("f", "p")}""")
    return int(con.execute(f"SELECT count(*) FROM temp.{into.removeprefix('temp.')}")
               .fetchall()[0][0])


def refresh_novelties(con: duckdb.DuckDBPyConnection, games: str | None = None) -> int:
    """Recompute ``novelty_ply`` and ``novelty_from`` of the games the SQL query ``games``
    selects (one ``game_id`` column; ``None``: every game) against every game of the
    database (:func:`compute_novelties`) and write them; returns the number of games with
    stored positions among them. Games without stored positions get ``NULL`` in both.

    Example:
        >>> from pdnkit.store import connect
        >>> refresh_novelties(connect(":memory:"))
        0
    """
    with _Temp(con, "res") as t:
        n = compute_novelties(con, t["res"], games)
        chosen = "" if games is None else f"AND games.game_id IN ({games})"
        con.execute(f"""
            UPDATE games SET novelty_ply = NULL, novelty_from = NULL
            WHERE (novelty_ply IS NOT NULL OR novelty_from IS NOT NULL)
              AND games.game_id NOT IN (SELECT game_id FROM {t['res']}) {chosen}""")
        con.execute(f"""
            UPDATE games SET novelty_ply = r.novelty_ply, novelty_from = r.novelty_from
            FROM {t['res']} r WHERE games.game_id = r.game_id""")
    return n


def affected_by_new(con: duckdb.DuckDBPyConnection, new: str) -> list[int]:
    """The games not among ``new`` (an SQL query of ``game_id``s, games just loaded) whose
    novelty the new games change: a new game earlier in the order than the game reaches the
    game's position at its novelty ply (the novelty moves later), or a new game earlier than
    the game it deviated from (``novelty_from``, the first game of its position one ply
    before the novelty, of its last position without a novelty) reaches that position (the
    new game is its first now). Their stored novelties must be current (those of the new
    games need not be). One pass over the positions finds them, a second one reads the last
    ply of the games without a novelty that pass names.

    Example:
        >>> from pdnkit.store import connect
        >>> affected_by_new(connect(":memory:"), "SELECT 1 AS game_id")
        []
    """
    bits = bits_source(con)
    with _Temp(con, "ord", "np", "old", "cand") as t:
        _order_table(con, t)
        later = con.execute(f"""
            SELECT count(*) FROM {t['ord']} WHERE game_id NOT IN ({new})
            AND ord > (SELECT min(ord) FROM {t['ord']} WHERE game_id IN ({new}))""").fetchall()
        if not later[0][0]:
            return []
        con.execute(f"""
            CREATE TEMP TABLE {t.names['np']} AS
            SELECT {_key()}, min(o.ord) AS ord
            FROM {bits} p JOIN {t['ord']} o USING (game_id)
            WHERE p.game_id IN ({new}) GROUP BY ALL""")
        # ``fo``: the place of the game each game deviated from (NULL: none stored, or one
        # no longer counted: any earlier new game may then change it)
        con.execute(f"""
            CREATE TEMP TABLE {t.names['old']} AS
            SELECT o.game_id, o.vid, o.ord, g.novelty_ply AS nply, fo.ord AS fo
            FROM {t['ord']} o JOIN games g ON g.game_id = o.game_id
            LEFT JOIN {t['ord']} fo ON fo.game_id = g.novelty_from
            WHERE o.game_id NOT IN ({new}) AND o.ord > (SELECT min(ord) FROM {t['np']})""")
        con.execute(f"""
            CREATE TEMP TABLE {t.names['cand']} AS
            SELECT DISTINCT p.game_id, p.ply, h.nply IS NULL AS open
            FROM {bits} p JOIN {t['old']} h ON h.game_id = p.game_id
            JOIN {t['np']} n ON {_on('n', 'p').replace('p.vid', 'h.vid')}
            WHERE n.ord < h.ord
              AND (p.ply = h.nply
                   OR ((p.ply = h.nply - 1 OR h.nply IS NULL)
                       AND (h.fo IS NULL OR n.ord < h.fo)))""")
        # a game without a novelty: only its last position names the game it deviated from
        rows = con.execute(f"""
            SELECT game_id FROM {t['cand']} WHERE NOT open
            UNION
            SELECT c.game_id FROM {t['cand']} c
            JOIN (SELECT p.game_id, max(p.ply) AS last FROM {bits} p
                  WHERE p.game_id IN (SELECT game_id FROM {t['cand']} WHERE open)
                  GROUP BY p.game_id) l ON l.game_id = c.game_id AND l.last = c.ply
            WHERE c.open
            ORDER BY 1""").fetchall()
    return [int(g) for (g,) in rows]


def affected_by_removal(con: duckdb.DuckDBPyConnection, removed: str) -> list[int]:
    """The games not among ``removed`` (an SQL query of ``game_id``s, about to be deleted)
    whose novelty the removal may change: games that reach, before their novelty ply (at any
    ply when they have none), a position whose earliest game is a removed one. Call it
    before the games are deleted.

    Example:
        >>> from pdnkit.store import connect
        >>> affected_by_removal(connect(":memory:"), "SELECT 1 AS game_id")
        []
    """
    bits = bits_source(con)
    with _Temp(con, "ord", "first") as t:
        _order_table(con, t)
        _firsts(con, t, "first", removed)
        rows = con.execute(f"""
            SELECT DISTINCT p.game_id
            FROM {bits} p JOIN {t['ord']} o USING (game_id)
            JOIN games g ON g.game_id = p.game_id
            JOIN (SELECT * FROM {t['first']} WHERE first IN ({removed})) l
                 ON {_on('l', 'p').replace('p.vid', 'o.vid')}
            WHERE p.game_id NOT IN ({removed})
              AND (g.novelty_ply IS NULL OR p.ply < g.novelty_ply)
            ORDER BY 1""").fetchall()
    return [int(g) for (g,) in rows]
