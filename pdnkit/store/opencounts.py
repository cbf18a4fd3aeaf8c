"""Opening counts kept at import: the opening tree of the first plies (``tree_counts``) and
the games of each opening sequence (``opening_counts``), so that ``pdnkit tree`` and ``pdnkit
stats openings`` answer from a few thousand rows instead of a scan of every game's first
plies.

Both tables count each game once (the canonical games: ``games.duplicate_of`` NULL), from
the positions of plies 0 to :data:`EARLY_PLIES` (``early_positions``) and the moves of plies
1 to :data:`EARLY_PLIES`:

* ``tree_counts``: per variant, position (its bitboards, first reached by a game there), move
  played next (as the statistics show it) and position after it: the games, their results
  and lengths. A game whose position has no next move among the first plies counts with
  ``move`` NULL (``open`` when the position is that of ply :data:`EARLY_PLIES`: its next move
  lies beyond the counts);
* ``opening_counts``: per variant and number of plies ``1`` to :data:`EARLY_PLIES`, the move
  sequence from the initial position (as ``stats openings`` groups it), with the same counts.

The counts are a cache that knows whom it counted: ``pdnkit_meta`` keeps the stamp of the
counted set (:func:`games_stamp`: the number of canonical games and a hash of their numbers,
variants, results, lengths and starts) and the highest game number counted. A reader
(:func:`counts_ready`) takes the counts only when the stamp is that of the database's games
now, so a change that did not bring them up to date (an import stopped midway, a direct SQL
``UPDATE``) makes the readers scan as before, never answer wrong. :func:`settle_counts`
brings them up to date as the last step of every import (once the copies of its games are
grouped; a file replaced included), after copies grouped or ungrouped (a copy ruling, an
alias) and in ``pdnkit upgrade`` (which settles counts an import stopped before its last
step left): the games added since (the stamp of the games counted before unchanged) are
added to the counts; any other change rebuilds them.

Example:
    >>> from pdnkit.store.db import connect
    >>> con = connect(":memory:")
    >>> settle_counts(con), counts_ready(con), counts_current(con)  # no game: none kept
    ('small', False, True)
    >>> settle_counts(con)
    'current'
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from pdnkit.store.posindex import EARLY_PLIES
from pdnkit.store.transaction import transaction

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["COUNTS_META", "COUNTS_TABLES", "KEEP_FROM", "counts_current", "counts_ready",
           "games_stamp", "rebuild_counts", "settle_counts"]

#: the ``pdnkit_meta`` key of the counts' stamp (JSON: ``stamp``, ``last`` game counted)
COUNTS_META = "opening_counts_stamp"
#: the tables of the kept counts
COUNTS_TABLES = ("tree_counts", "opening_counts")
#: the canonical games from which the counts are kept: below, the scan of the first plies
#: answers in a few tens of milliseconds, and the counts' tables would cost a small
#: database more than its games' rows (``PDNKIT_COUNTS_FROM`` overrides)
KEEP_FROM = int(os.environ.get("PDNKIT_COUNTS_FROM", "20000"))

#: a game's outcome as the statistics read it (:data:`pdnkit.stats.common.OUTCOME_SQL`)
_OUTCOME = ("coalesce(nullif(g.outcome, ''), CASE g.result WHEN '1-0' THEN 'white' "
            "WHEN '0-1' THEN 'black' WHEN '1/2-1/2' THEN 'draw' ELSE 'unknown' END)")

#: the counts' columns after the keys, from a game's ``oc`` and ``plies``
_SUMS = ("count(*)::BIGINT AS games, count(*) FILTER (WHERE oc = 'white')::BIGINT AS white_wins, "
         "count(*) FILTER (WHERE oc = 'draw')::BIGINT AS draws, "
         "count(*) FILTER (WHERE oc = 'black')::BIGINT AS black_wins, "
         "count(*) FILTER (WHERE oc NOT IN ('white', 'draw', 'black'))::BIGINT AS unknown, "
         "coalesce(sum(plies), 0)::BIGINT AS plies_sum, count(plies)::BIGINT AS plies_n")

_TREE_KEYS = ("variant, black, wm, wk, bm, bk, open, move, side, a_black, a_wm, a_wk, a_bm, "
              "a_bk, a_layout")
_SEQ_KEYS = "variant, plies, opening"
_ADDED = ("sum(games)::BIGINT AS games, sum(white_wins)::BIGINT AS white_wins, "
          "sum(draws)::BIGINT AS draws, sum(black_wins)::BIGINT AS black_wins, "
          "sum(unknown)::BIGINT AS unknown, sum(plies_sum)::BIGINT AS plies_sum, "
          "sum(plies_n)::BIGINT AS plies_n")


def _stamp_sql(upto: str = "") -> str:
    return ("SELECT count(*), coalesce(bit_xor(hash(game_id, variant, outcome, result, plies, "
            "start_is_initial, fen IS NULL, replayed_plies)), 0), max(game_id) FROM games "
            f"WHERE duplicate_of IS NULL {upto}")


def games_stamp(con: duckdb.DuckDBPyConnection, upto: int | None = None) -> tuple[str, int]:
    """The stamp of the counted set (the canonical games, or those numbered up to ``upto``)
    and the highest game number among them (``-1``: none). It changes when a game is added,
    removed, becomes or stops being a copy, or when what the counts read of it changes.

    Example:
        >>> from pdnkit.store.db import connect
        >>> games_stamp(connect(":memory:"))
        ('0:0', -1)
    """
    cond = f"AND game_id <= {int(upto)}" if upto is not None else ""
    n, h, last = con.execute(_stamp_sql(cond)).fetchall()[0]
    return f"{int(n)}:{int(h)}", (-1 if last is None else int(last))


def _stored(con: duckdb.DuckDBPyConnection) -> dict[str, object] | None:
    """The stamp recorded with the counts, or ``None`` (no counts, or not in this database)."""
    if not all(_is_table(con, t) for t in COUNTS_TABLES):
        return None
    rows = con.execute("SELECT value FROM pdnkit_meta WHERE key = ?", [COUNTS_META]).fetchall()
    if not rows:
        return None
    try:
        got = json.loads(rows[0][0])
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


def _is_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main' "
        "AND database_name = current_database()", [name]).fetchall()[0][0])


def counts_ready(con: duckdb.DuckDBPyConnection) -> bool:
    """True when the kept counts count exactly the database's canonical games now (a
    database file of this schema whose counts are up to date; not a lake).

    Example:
        >>> from pdnkit.store.db import connect
        >>> counts_ready(connect(":memory:"))
        False
    """
    stored = _stored(con)
    return stored is not None and stored.get("kept", True) is True \
        and stored.get("stamp") == games_stamp(con)[0]


def counts_current(con: duckdb.DuckDBPyConnection) -> bool:
    """True when the counts were settled for the database's canonical games now: kept
    (:func:`counts_ready`), or not kept because there are fewer than :data:`KEEP_FROM`.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); _ = settle_counts(con); counts_current(con)
        True
    """
    stored = _stored(con)
    return stored is not None and stored.get("stamp") == games_stamp(con)[0]


def _tree_rows(first: int | None) -> str:
    """SQL: the ``tree_counts`` rows of the canonical games numbered ``first`` and up (every
    one for ``None``), grouped."""
    only = f"AND g.game_id >= {int(first)}" if first is not None else ""
    e_only = f"WHERE game_id >= {int(first)}" if first is not None else ""
    k = int(EARLY_PLIES)
    return f"""
        WITH g AS (SELECT g.game_id, g.variant, g.plies, {_OUTCOME} AS oc FROM games g
                   WHERE g.duplicate_of IS NULL {only}),
        e AS (SELECT game_id, ply, layout, black, full_bits(wm, wm_high) AS wm,
                     full_bits(wk, wk_high) AS wk, full_bits(bm, bm_high) AS bm,
                     full_bits(bk, bk_high) AS bk FROM early_positions {e_only}),
        f AS (SELECT game_id, black, wm, wk, bm, bk, min(ply) AS ply FROM e GROUP BY ALL),
        x AS (
            SELECT g.variant, f.black, f.wm, f.wk, f.bm, f.bk, f.ply = {k} AS open,
                   CASE WHEN f.ply < {k} THEN move_text(m.canonical, m.notation, m.origin,
                        m.destination, m.captured) END AS move,
                   CASE WHEN f.ply < {k} THEN m.side END AS side,
                   a.black AS a_black, a.wm AS a_wm, a.wk AS a_wk, a.bm AS a_bm, a.bk AS a_bk,
                   a.layout AS a_layout, g.game_id, g.plies, g.oc
            FROM f JOIN g USING (game_id)
            LEFT JOIN move_rows m ON m.game_id = f.game_id AND m.ply = f.ply + 1
                 AND m.ply <= {k}
            LEFT JOIN e a ON a.game_id = f.game_id AND a.ply = f.ply + 1
                 AND m.game_id IS NOT NULL)
        SELECT {_TREE_KEYS}, {_SUMS}, min(game_id) AS first_game FROM x GROUP BY ALL"""


def _seq_rows(first: int | None) -> str:
    """SQL: the ``opening_counts`` rows of the canonical games numbered ``first`` and up."""
    only = f"AND g.game_id >= {int(first)}" if first is not None else ""
    k = int(EARLY_PLIES)
    return f"""
        WITH g AS (SELECT g.game_id, g.variant, g.plies, coalesce(g.replayed_plies, 0) AS rp,
                          {_OUTCOME} AS oc FROM games g
                   WHERE g.duplicate_of IS NULL AND coalesce(g.start_is_initial, g.fen IS NULL)
                     AND coalesce(g.replayed_plies, 0) >= 1 {only}),
        s AS (SELECT m.game_id, list(coalesce(m.canonical, m.notation) ORDER BY m.ply) AS texts,
                     list(m.ply ORDER BY m.ply) AS ps
              FROM moves m JOIN g USING (game_id) WHERE m.ply <= {k} GROUP BY m.game_id),
        n AS (SELECT unnest(range(1, {k + 1}))::INTEGER AS n),
        x AS (SELECT g.variant, n.n, array_to_string(s.texts[1:n.n], ' ') AS opening,
                     g.plies, g.oc
              FROM s JOIN g USING (game_id) CROSS JOIN n
              WHERE g.rp >= n.n AND len(list_filter(s.ps, lambda pdnkit_p: pdnkit_p <= n.n))
                    = n.n)
        SELECT variant, n AS plies, opening, {_SUMS} FROM x GROUP BY variant, n, opening"""


def _record(con: duckdb.DuckDBPyConnection, stamp: str, last: int, kept: bool = True) -> None:
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [COUNTS_META])
    value = {"stamp": stamp, "last": last} if kept else {"stamp": stamp, "last": last,
                                                         "kept": False}
    con.execute("INSERT INTO pdnkit_meta VALUES (?, ?)", [COUNTS_META, json.dumps(value)])


def _too_few(con: duckdb.DuckDBPyConnection) -> bool:
    """Fewer canonical games than :data:`KEEP_FROM`: the counts are not kept."""
    if KEEP_FROM <= 0:
        return False
    n = con.execute("SELECT count(*) FROM games WHERE duplicate_of IS NULL").fetchall()[0][0]
    return int(n) < KEEP_FROM


def _not_kept(con: duckdb.DuckDBPyConnection, stamp: str, last: int) -> None:
    """Record the games as settled with no counts kept (the tables emptied)."""
    with transaction(con):
        for table in COUNTS_TABLES:
            if con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]:
                con.execute(f"DELETE FROM {table}")
        _record(con, stamp, last, kept=False)


def _fill(con: duckdb.DuckDBPyConnection, first: int | None) -> None:
    """The statements of a rebuild (``first`` None) or of adding the games numbered
    ``first`` and up, inside the caller's transaction."""
    if first is None:
        con.execute("DELETE FROM tree_counts")
        con.execute("DELETE FROM opening_counts")
        con.execute(f"INSERT INTO tree_counts BY NAME {_tree_rows(None)}")
        con.execute(f"INSERT INTO opening_counts BY NAME {_seq_rows(None)}")
        return
    for table, rows, keys, extra in (
            ("tree_counts", _tree_rows(first), _TREE_KEYS, ", min(first_game) AS first_game"),
            ("opening_counts", _seq_rows(first), _SEQ_KEYS, "")):
        con.execute(f"CREATE TEMP TABLE _pdnkit_counts_new AS SELECT {keys}, {_ADDED}{extra} "
                    f"FROM (SELECT * FROM {table} UNION ALL BY NAME ({rows})) GROUP BY ALL")
        try:
            con.execute(f"DELETE FROM {table}")
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM temp._pdnkit_counts_new")
        finally:
            con.execute("DROP TABLE IF EXISTS temp._pdnkit_counts_new")


def _in_transaction(con: duckdb.DuckDBPyConnection, first: int | None, stamp: str,
                    last: int) -> None:
    with transaction(con):
        _fill(con, first)
        _record(con, stamp, last)


def rebuild_counts(con: duckdb.DuckDBPyConnection) -> None:
    """Count every canonical game again (``pdnkit upgrade``'s fill step), in one
    transaction: a failure midway leaves the counts as they were.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); rebuild_counts(con); counts_current(con)
        True
    """
    stamp, last = games_stamp(con)
    if _too_few(con):
        _not_kept(con, stamp, last)
        return
    _in_transaction(con, None, stamp, last)


def settle_counts(con: duckdb.DuckDBPyConnection) -> str:
    """Bring the kept counts up to date after a write (in a transaction of their own):
    ``'current'`` when they were, ``'added'`` when only games numbered above the last one
    counted came (their counts are added), ``'rebuilt'`` otherwise; ``'small'`` when the
    database holds fewer than :data:`KEEP_FROM` canonical games (no counts kept: the readers
    scan). A database without the tables (a lake) is left alone (``'none'``).

    Example:
        >>> from pdnkit.store.db import connect
        >>> settle_counts(connect(":memory:"))
        'small'
    """
    if not all(_is_table(con, t) for t in COUNTS_TABLES):
        return "none"
    stamp, last = games_stamp(con)
    stored = _stored(con)
    if stored is not None and stored.get("stamp") == stamp:
        return "current"
    if _too_few(con):
        _not_kept(con, stamp, last)
        return "small"
    before = stored.get("last") if stored is not None else None
    if stored is not None and stored.get("kept", True) is True and isinstance(before, int) \
            and games_stamp(con, before)[0] == stored.get("stamp"):
        _in_transaction(con, before + 1, stamp, last)
        return "added"
    _in_transaction(con, None, stamp, last)
    return "rebuilt"
