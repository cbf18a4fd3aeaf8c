"""The opening counts' arithmetic (:mod:`pdnkit.store.opencounts` keeps them): the rows a set
of games gives each table, and their merge into the tables in parts of at most
:data:`PART_GAMES` games, so that neither a recount of every game nor a change to a few old
ones holds more than a part's rows at a time (the memory of a part, whatever the games).

* :func:`stage_moved` finds what changed since the counts were settled: the games counted
  then that are copies now (taken away), the copies then that are canonical now and the
  canonical games numbered above the last counted (added). It knows the copies of then from
  :data:`COPIES_TABLE` (kept with the counts by :func:`keep_copies`), and proves the change
  against the counts' stamp: the stamp of then, less the games taken away, plus the games
  added back, must be the stamp of the same game numbers now (their number and the XOR of
  their hashes), and the files loaded then must be those loaded now. Anything else (a game
  deleted, a result edited, a file replaced, a table lost) is unproven, and the caller
  recounts every game.
* :func:`recount` merges the staged games into the tables (or counts every canonical game,
  the tables emptied first), part by part: a row whose games fall to 0 goes, and where a
  game taken away was a row's ``first_game``, the lowest game number still counted there is
  looked up for those rows only, part by part from the game taken away
  (:func:`repair_first_games`). A table that would count a negative number of games raises
  :class:`CountsUnproven`.

Example:
    >>> from pdnkit.store.db import connect
    >>> con = connect(":memory:")
    >>> recount(con, keep=False); con.execute("SELECT count(*) FROM tree_counts").fetchall()
    [(0,)]
    >>> stage_moved(con, "0:0:0", -1, "1:2", -1) is None  # not the copies recorded: unproven
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.store.posindex import EARLY_PLIES

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["COPIES_TABLE", "GAME_HASH", "PART_GAMES", "CountsUnproven", "copies_stamp",
           "drop_staged", "files_stamp", "keep_copies", "recount", "repair_first_games", "seq_rows",
           "stage_moved", "tree_rows"]

#: the games counted in one part (a recount, the games added or taken away; the search for a
#: row's first game looks at this many game numbers a part): what a part's aggregate holds
PART_GAMES = 50_000
#: what the counts' stamp hashes of a game (the same for every game, a copy included)
GAME_HASH = ("hash(game_id, variant, outcome, result, plies, start_is_initial, fen IS NULL, "
             "replayed_plies)")
#: the files' part of the counts' stamp: a file replaced (its games may come back under the
#: same game numbers, the newest being given again) or removed changes it; not the time of
#: import, so that two imports of the same files record the same stamp (the same bytes
#: loaded again give the same games)
_FILES_SQL = ("SELECT coalesce(bit_xor(hash(file_id, sha256)), 0), "
              "coalesce(max(file_id), -1) FROM files")
#: the games numbered up to the last counted that were copies (not counted) when the counts
#: were settled: what :func:`stage_moved` compares the copies of now with
COPIES_TABLE = "counts_copies"

#: a game's outcome as the statistics read it (:data:`pdnkit.stats.common.OUTCOME_SQL`)
_OUTCOME = ("coalesce(nullif(g.outcome, ''), CASE g.result WHEN '1-0' THEN 'white' "
            "WHEN '0-1' THEN 'black' WHEN '1/2-1/2' THEN 'draw' ELSE 'unknown' END)")
_SUMS = ("count(*)::BIGINT AS games, count(*) FILTER (WHERE oc = 'white')::BIGINT AS white_wins, "
         "count(*) FILTER (WHERE oc = 'draw')::BIGINT AS draws, "
         "count(*) FILTER (WHERE oc = 'black')::BIGINT AS black_wins, "
         "count(*) FILTER (WHERE oc NOT IN ('white', 'draw', 'black'))::BIGINT AS unknown, "
         "coalesce(sum(plies), 0)::BIGINT AS plies_sum, count(plies)::BIGINT AS plies_n")
_COLS = ("games", "white_wins", "draws", "black_wins", "unknown", "plies_sum", "plies_n")
_TREE_KEYS = ("variant", "black", "wm", "wk", "bm", "bk", "open", "move", "side", "a_black",
              "a_wm", "a_wk", "a_bm", "a_bk", "a_layout")
_SEQ_KEYS = ("variant", "plies", "opening")
_OUT, _IN = "_pdnkit_counts_out", "_pdnkit_counts_in"
_ACC = {"tree_counts": "_pdnkit_acc_tree", "opening_counts": "_pdnkit_acc_seq"}
#: parts appended to an accumulator before it is summed up (its rows stay a few parts' keys)
_COLLAPSE_EVERY = 8


class CountsUnproven(Exception):
    """The kept counts and the games disagree (a change the delta cannot account for): the
    caller rolls back and recounts every game.

    Example:
        >>> isinstance(CountsUnproven("first game not found"), Exception)
        True
    """


def tree_rows(cond: str, canonical: bool = True) -> str:
    """SQL: the ``tree_counts`` rows of the games whose ``game_id`` meets ``cond`` (an SQL
    condition on the column ``game_id``), grouped; only the canonical ones unless
    ``canonical`` is False (the games taken away are copies now).

    Example:
        >>> "first_game" in tree_rows("game_id < 10")
        True
    """
    only = "AND g.duplicate_of IS NULL" if canonical else ""
    k = int(EARLY_PLIES)
    return f"""
        WITH g AS (SELECT g.game_id, g.variant, g.plies, {_OUTCOME} AS oc FROM games g
                   WHERE ({cond}) {only}),
        e AS (SELECT game_id, ply, layout, black, full_bits(wm, wm_high) AS wm,
                     full_bits(wk, wk_high) AS wk, full_bits(bm, bm_high) AS bm,
                     full_bits(bk, bk_high) AS bk FROM early_positions WHERE ({cond})),
        f AS (SELECT game_id, black, wm, wk, bm, bk, min(ply) AS ply FROM e GROUP BY ALL),
        x AS (
            SELECT g.variant, f.black, f.wm, f.wk, f.bm, f.bk, f.ply = {k} AS open,
                   CASE WHEN f.ply < {k} THEN move_text(m.canonical, m.notation, m.origin,
                        m.destination, m.captured) END AS move,
                   CASE WHEN f.ply < {k} THEN m.side END AS side,
                   a.black AS a_black, a.wm AS a_wm, a.wk AS a_wk, a.bm AS a_bm, a.bk AS a_bk,
                   a.layout AS a_layout, g.game_id, g.plies, g.oc
            FROM f JOIN g USING (game_id)
            LEFT JOIN (SELECT * FROM move_rows WHERE ({cond}) AND ply <= {k}) m
                 ON m.game_id = f.game_id AND m.ply = f.ply + 1
            LEFT JOIN e a ON a.game_id = f.game_id AND a.ply = f.ply + 1
                 AND m.game_id IS NOT NULL)
        SELECT {", ".join(_TREE_KEYS)}, {_SUMS}, min(game_id) AS first_game
        FROM x GROUP BY ALL"""


def seq_rows(cond: str, canonical: bool = True) -> str:
    """SQL: the ``opening_counts`` rows of the games whose ``game_id`` meets ``cond`` (as
    :func:`tree_rows`).

    Example:
        >>> "opening" in seq_rows("game_id < 10")
        True
    """
    only = "AND g.duplicate_of IS NULL" if canonical else ""
    k = int(EARLY_PLIES)
    return f"""
        WITH g AS (SELECT g.game_id, g.variant, g.plies, coalesce(g.replayed_plies, 0) AS rp,
                          {_OUTCOME} AS oc FROM games g
                   WHERE ({cond}) {only} AND coalesce(g.start_is_initial, g.fen IS NULL)
                     AND coalesce(g.replayed_plies, 0) >= 1),
        s AS (SELECT m.game_id, list(coalesce(m.canonical, m.notation) ORDER BY m.ply) AS texts,
                     list(m.ply ORDER BY m.ply) AS ps
              FROM (SELECT * FROM moves WHERE ({cond}) AND ply <= {k}) m JOIN g USING (game_id)
              GROUP BY m.game_id),
        n AS (SELECT unnest(range(1, {k + 1}))::INTEGER AS n),
        x AS (SELECT g.variant, n.n, array_to_string(s.texts[1:n.n], ' ') AS opening,
                     g.plies, g.oc
              FROM s JOIN g USING (game_id) CROSS JOIN n
              WHERE g.rp >= n.n AND len(list_filter(s.ps, lambda pdnkit_p: pdnkit_p <= n.n))
                    = n.n)
        SELECT variant, n AS plies, opening, {_SUMS} FROM x GROUP BY variant, n, opening"""


def _one(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[int, int]:
    n, h = con.execute(sql).fetchall()[0]
    return int(n), int(h or 0)


def files_stamp(con: duckdb.DuckDBPyConnection, upto: int | None = None) -> tuple[int, int]:
    """The XOR of the hashes of the files loaded (those numbered up to ``upto``: their
    number and content hash) and the highest file number (-1: none).

    Example:
        >>> from pdnkit.store.db import connect
        >>> files_stamp(connect(":memory:"))
        (0, -1)
    """
    cond = f" WHERE file_id <= {int(upto)}" if upto is not None else ""
    h, top = con.execute(_FILES_SQL + cond).fetchall()[0]
    return int(h), int(top)


def copies_stamp(con: duckdb.DuckDBPyConnection) -> str | None:
    """The number and XOR of hashes of the game numbers in :data:`COPIES_TABLE` (``None``
    when the table is not there: a database it was dropped from).

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); copies_stamp(con)   # declared by the schema, empty
        '0:0'
        >>> _ = con.execute(f"DROP TABLE {COPIES_TABLE}"); copies_stamp(con) is None
        True
        >>> keep_copies(con, -1)
        '0:0'
    """
    there = con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND "
                        "schema_name = 'main' AND database_name = current_database()",
                        [COPIES_TABLE]).fetchall()[0][0]
    if not there:
        return None
    n, h = _one(con, f"SELECT count(*), bit_xor(hash(game_id)) FROM {COPIES_TABLE}")
    return f"{n}:{h}"


def keep_copies(con: duckdb.DuckDBPyConnection, last: int) -> str:
    """Record the copies numbered up to ``last`` (the last game counted) in
    :data:`COPIES_TABLE`, inside the caller's transaction; returns their stamp
    (:func:`copies_stamp`).

    Example:
        >>> from pdnkit.store.db import connect
        >>> keep_copies(connect(":memory:"), 10)
        '0:0'
    """
    con.execute(f"CREATE TABLE IF NOT EXISTS {COPIES_TABLE} (game_id BIGINT NOT NULL)")
    con.execute(f"DELETE FROM {COPIES_TABLE}")
    con.execute(f"INSERT INTO {COPIES_TABLE} SELECT game_id FROM games WHERE duplicate_of IS "
                f"NOT NULL AND game_id <= {int(last)} ORDER BY game_id")
    got = copies_stamp(con)
    assert got is not None
    return got


def stage_moved(con: duckdb.DuckDBPyConnection, stamp: str, last: int, copies: object,
                files: object = None) -> tuple[int, int] | None:
    """Stage the games whose counted state changed since the counts were settled with
    ``stamp`` up to game ``last`` and the copies of stamp ``copies``: ``temp`` tables of
    the games to take away and of those to add; returns the numbers of games taken away
    and of games counted again (numbered up to ``last``). None (nothing staged) when the change
    cannot be proven: the copies recorded then are not those of ``copies``, or the stamp of
    then, less the games taken away, plus the games back, is not the stamp now, or a file
    loaded then (numbered up to ``files``) was replaced or removed since. Counts
    settled before the copies were kept (``copies`` None) take only games added: any game
    numbered up to ``last`` that is a copy now is taken as one then, and the proof fails if
    it was not.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:")
        >>> stage_moved(con, "0:0:0", -1, keep_copies(con, -1), -1)
        (0, 0)
    """
    try:
        n_then, h_then, f_then = (int(x) for x in stamp.split(":"))
    except ValueError:
        return None
    if not isinstance(files, int) or files_stamp(con, files)[0] != f_then:
        return None
    last = int(last)
    if copies is None:  # counts settled before the copies were kept: only games added
        was_copy = "duplicate_of IS NOT NULL"
    elif copies_stamp(con) == copies:
        was_copy = f"game_id IN (SELECT game_id FROM {COPIES_TABLE})"
    else:
        return None
    con.execute(f"CREATE OR REPLACE TEMP TABLE {_OUT} AS SELECT game_id FROM games "
                f"WHERE game_id <= {last} AND duplicate_of IS NOT NULL AND NOT ({was_copy}) "
                "ORDER BY game_id")
    con.execute(f"CREATE OR REPLACE TEMP TABLE {_IN} AS SELECT game_id FROM games "
                f"WHERE duplicate_of IS NULL AND (game_id > {last} OR ({was_copy})) "
                "ORDER BY game_id")
    n_now, h_now = _one(con, "SELECT count(*), bit_xor(" + GAME_HASH + ") FROM games WHERE "
                        f"duplicate_of IS NULL AND game_id <= {last}")
    n_out, h_out = _one(con, f"SELECT count(*), bit_xor({GAME_HASH}) FROM games WHERE "
                        f"game_id IN (SELECT game_id FROM temp.{_OUT})")
    n_back, h_back = _one(con, f"SELECT count(*), bit_xor({GAME_HASH}) FROM games WHERE "
                          f"game_id <= {last} AND game_id IN (SELECT game_id FROM temp.{_IN})")
    if n_then - n_out + n_back == n_now and h_then ^ h_out ^ h_back == h_now:
        return n_out, n_back
    drop_staged(con)
    return None


def drop_staged(con: duckdb.DuckDBPyConnection) -> None:
    """Drop the ``temp`` tables of :func:`stage_moved` and :func:`recount`.

    Example:
        >>> from pdnkit.store.db import connect
        >>> drop_staged(connect(":memory:"))
    """
    for name in (_OUT, _IN, *_ACC.values(), "_pdnkit_acc_sum", "_pdnkit_want", "_pdnkit_near",
                 "_pdnkit_found"):
        con.execute(f"DROP TABLE IF EXISTS temp.{name}")


def _parts(con: duckdb.DuckDBPyConnection, source: str) -> list[tuple[int, int]]:
    """The games of ``source`` in parts of at most :data:`PART_GAMES` games (by number):
    each part's lowest and highest game number, so that a part's rows stay a part's
    whether its games follow each other or lie all over the database."""
    rows = con.execute(f"SELECT min(game_id), max(game_id) FROM (SELECT game_id, "
                       f"(row_number() OVER (ORDER BY game_id) - 1) // {PART_GAMES} AS p "
                       f"FROM ({source})) GROUP BY p ORDER BY p").fetchall()
    return [(int(lo), int(hi) + 1) for lo, hi in rows]


def _in_range(lo: int, hi: int) -> str:
    return f"game_id >= {lo} AND game_id < {hi}"


def _collapse(con: duckdb.DuckDBPyConnection, table: str) -> None:
    """Sum up an accumulator's rows of one key into one."""
    acc = _ACC[table]
    keys = _TREE_KEYS if table == "tree_counts" else _SEQ_KEYS
    sums = ", ".join(f"sum({c})::BIGINT AS {c}" for c in _COLS)
    extra = (", min(first_game) AS first_game, min(lost) AS lost"
             if table == "tree_counts" else "")
    con.execute(f"CREATE OR REPLACE TEMP TABLE _pdnkit_acc_sum AS SELECT {', '.join(keys)}, "
                f"{sums}{extra} FROM temp.{acc} GROUP BY ALL")
    con.execute(f"DROP TABLE temp.{acc}")
    con.execute(f"ALTER TABLE temp._pdnkit_acc_sum RENAME TO {acc}")


def _start(con: duckdb.DuckDBPyConnection, table: str, keep: bool) -> None:
    """The accumulator of ``table``: its rows now (``keep``; a row whose ``first_game`` is
    taken away keeps it as ``lost``), or none."""
    acc = _ACC[table]
    if table == "opening_counts":
        con.execute(f"CREATE OR REPLACE TEMP TABLE {acc} AS SELECT * FROM {table} "
                    f"{'' if keep else 'WHERE false'}")
        return
    gone = f"first_game IN (SELECT game_id FROM temp.{_OUT})"
    con.execute(f"CREATE OR REPLACE TEMP TABLE {acc} AS SELECT * EXCLUDE (first_game), "
                f"CASE WHEN {gone} THEN NULL ELSE first_game END AS first_game, "
                f"CASE WHEN {gone} THEN first_game END AS lost FROM {table} "
                f"{'' if keep else 'WHERE false'}")


def _add_part(con: duckdb.DuckDBPyConnection, cond: str, sign: int) -> None:
    """Append the rows of the games meeting ``cond`` to both accumulators (taken away:
    ``sign`` -1, the games counted negatively, no first game)."""
    for table, rows in (("tree_counts", tree_rows), ("opening_counts", seq_rows)):
        sql = rows(cond, canonical=sign > 0)
        if sign < 0:
            neg = ", ".join(f"-{c} AS {c}" for c in _COLS)
            first = ", NULL::BIGINT AS first_game" if table == "tree_counts" else ""
            sql = f"SELECT * EXCLUDE ({', '.join(_COLS)}{', first_game' if first else ''}), " \
                  f"{neg}{first} FROM ({sql})"
        con.execute(f"INSERT INTO temp.{_ACC[table]} BY NAME {sql}")


def recount(con: duckdb.DuckDBPyConnection, keep: bool) -> None:
    """Bring both tables to the games counted now, inside the caller's transaction:
    ``keep`` merges the games staged by :func:`stage_moved` into the rows there; otherwise
    every canonical game is counted again, part by part. Raises :class:`CountsUnproven`
    when the rows and the staged games disagree.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); recount(con, keep=False)
    """
    if not keep:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {_OUT} (game_id BIGINT)")
    for table in _ACC:
        _start(con, table, keep)
    work: list[tuple[str, int]] = []
    if keep:
        staged = [(f"SELECT game_id FROM temp.{t}", t, s) for t, s in ((_IN, 1), (_OUT, -1))]
        for source, t, sign in staged:
            work += [(f"{_in_range(lo, hi)} AND game_id IN (SELECT game_id FROM temp.{t})",
                      sign) for lo, hi in _parts(con, source)]
    else:
        source = "SELECT game_id FROM games WHERE duplicate_of IS NULL"
        work = [(_in_range(lo, hi), 1) for lo, hi in _parts(con, source)]
    for i, (cond, sign) in enumerate(work, 1):
        _add_part(con, cond, sign)
        if i % _COLLAPSE_EVERY == 0:
            for table in _ACC:
                _collapse(con, table)
    for table in _ACC:
        _collapse(con, table)
    _settle_rows(con)
    repair_first_games(con)
    for table, acc in _ACC.items():
        cols = "* EXCLUDE (lost)" if table == "tree_counts" else "*"
        con.execute(f"DELETE FROM {table}")
        con.execute(f"INSERT INTO {table} BY NAME SELECT {cols} FROM temp.{acc}")
    drop_staged(con)  # (on a failure, the caller's transaction rolls them back)


def _settle_rows(con: duckdb.DuckDBPyConnection) -> None:
    """Check the summed rows (none negative) and drop those of no game."""
    for table, acc in _ACC.items():
        bad = con.execute(f"SELECT count(*) FROM temp.{acc} WHERE " + " OR ".join(
            f"{c} < 0" for c in _COLS) + " OR (games = 0 AND (" + " OR ".join(
            f"{c} <> 0" for c in _COLS) + "))").fetchall()[0][0]
        if bad:
            raise CountsUnproven(f"{bad} row(s) of {table} would count fewer than no game")
        con.execute(f"DELETE FROM temp.{acc} WHERE games = 0")


def repair_first_games(con: duckdb.DuckDBPyConnection) -> int:
    """Give the rows of the tree accumulator whose first game was taken away the lowest game
    number counted there now: the games added are in their ``first_game`` already; the games
    counted before are numbered above the one taken away, so they are looked up part by part
    from there, among the games that reach one of those rows' positions, and a row found (or
    whose first game comes before the part's end) is done. Returns the parts looked at.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); recount(con, keep=False)  # nothing taken away
        >>> con.execute("SELECT count(*) FROM tree_counts").fetchall()
        [(0,)]
    """
    acc = _ACC["tree_counts"]
    done = f"UPDATE temp.{acc} SET lost = NULL WHERE lost IS NOT NULL AND first_game < "
    con.execute(done + "lost")  # a game added back, numbered below: the lowest
    top = con.execute("SELECT max(game_id) FROM games").fetchall()[0][0]
    parts, hi = 0, 0
    while True:
        lost = con.execute(f"SELECT min(lost) + 1 FROM temp.{acc}").fetchall()[0][0]
        if lost is None:
            return parts
        lo = max(int(lost), hi)
        if top is None or lo > top:
            raise CountsUnproven("a row of tree_counts counts games no game gives it")
        hi = lo + PART_GAMES
        parts += 1
        con.execute("CREATE OR REPLACE TEMP TABLE _pdnkit_want AS SELECT DISTINCT black, wm, "
                    f"wk, bm, bk FROM temp.{acc} WHERE lost IS NOT NULL")
        con.execute("CREATE OR REPLACE TEMP TABLE _pdnkit_near AS SELECT DISTINCT e.game_id "
                    "FROM early_positions e JOIN temp._pdnkit_want w ON e.black = w.black "
                    "AND full_bits(e.wm, e.wm_high) = w.wm AND full_bits(e.wk, e.wk_high) = "
                    "w.wk AND full_bits(e.bm, e.bm_high) = w.bm AND full_bits(e.bk, e.bk_high) "
                    f"= w.bk WHERE e.game_id >= {lo} AND e.game_id < {hi}")
        near = f"{_in_range(lo, hi)} AND game_id IN (SELECT game_id FROM temp._pdnkit_near)"
        con.execute(f"CREATE OR REPLACE TEMP TABLE _pdnkit_found AS SELECT "
                    f"{', '.join(_TREE_KEYS)}, first_game FROM ({tree_rows(near)})")
        on = " AND ".join(f"t.{k} IS NOT DISTINCT FROM f.{k}" for k in _TREE_KEYS)
        con.execute(f"UPDATE temp.{acc} t SET first_game = least(coalesce(t.first_game, "
                    "f.first_game), f.first_game), lost = NULL FROM temp._pdnkit_found f "
                    f"WHERE t.lost IS NOT NULL AND {on}")
        con.execute(done + str(hi))
