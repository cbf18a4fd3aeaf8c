"""The groups of copies of a database as a table (``pdnkit duplicates``): each group with the
record that stands for it and each copy's kind; apart from them, the records with the same
moves that are other games, and the probable copies a user has yet to rule on. Whole
(:func:`duplicate_groups`, its records gathered in Python: a DataFrame) or as a stream
(:func:`duplicate_stream`: the same rows, its records numbered in SQL, then listed a chunk of
whole groups at a time, so memory stays flat whatever the number of groups).

Example:
    >>> from pdnkit.store import connect
    >>> list(duplicate_groups(connect(":memory:")).columns)[:6]
    ['group', 'relation', 'variant', 'plies', 'games', 'canonical']
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from pdnkit.store.copies import CODE, temp_table
from pdnkit.store.stream import Stream

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["CHUNK_MEMBERS", "COLUMNS", "RELATIONS", "DuplicateStream", "duplicate_groups",
           "duplicate_stream"]

#: the columns of :func:`duplicate_groups`
COLUMNS = ["group", "relation", "variant", "plies", "games", "canonical", "locations", "kinds",
           "players", "tags_differ", "differing_tags", "game_ids", "moves_hash"]
#: what a row lists: a group of copies (one game), the records of one main line that are
#: other games, the records that are probably one game (a ``probable-copy`` finding)
RELATIONS = ("copies", "same-moves", "probable")

#: one row per member: the row's number, the record, its place in the row, its kind
_Member = tuple[int, int, int, str]


def _copies(con: duckdb.DuckDBPyConnection) -> list[list[tuple[int, str]]]:
    """Each group of copies: the canonical record first, then its copies in the order of
    their places (path, game number), each with its kind."""
    rows = con.execute("""
        SELECT coalesce(g.duplicate_of, g.game_id) AS grp, g.game_id,
               coalesce(g.duplicate_kind, 'canonical') AS kind
        FROM games g LEFT JOIN files f USING (file_id)
        WHERE g.duplicate_of IS NOT NULL
           OR g.game_id IN (SELECT duplicate_of FROM games WHERE duplicate_of IS NOT NULL)
        ORDER BY grp, g.duplicate_of IS NOT NULL, f.path, g.game_index""").fetchall()
    out: dict[int, list[tuple[int, str]]] = {}
    for grp, gid, kind in rows:
        out.setdefault(int(grp), []).append((int(gid), str(kind)))
    return list(out.values())


def _same_moves(con: duckdb.DuckDBPyConnection) -> list[list[tuple[int, str]]]:
    """Each main line that records of several groups have: the record standing for each."""
    rows = con.execute("""
        SELECT g.moves_hash, list(DISTINCT coalesce(g.duplicate_of, g.game_id)) AS grps
        FROM games g WHERE g.moves_hash IS NOT NULL
        GROUP BY g.moves_hash HAVING count(DISTINCT coalesce(g.duplicate_of, g.game_id)) > 1
        ORDER BY min(g.game_id)""").fetchall()
    return [[(int(g), "other-game") for g in sorted(grps)] for _, grps in rows]


def _probable(con: duckdb.DuckDBPyConnection) -> list[list[tuple[int, str]]]:
    """Each pair of records a ``probable-copy`` finding names (once)."""
    pairs: dict[tuple[int, int], str] = {}
    for gid, details in con.execute(
            "SELECT game_id, details FROM findings WHERE code = ? AND game_id IS NOT NULL "
            "ORDER BY game_id", [CODE]).fetchall():
        try:
            info = json.loads(details or "{}")
            other = int(info["other_game_id"])
        except (ValueError, KeyError, TypeError):
            continue
        key = (min(int(gid), other), max(int(gid), other))
        pairs.setdefault(key, "probable-copy" if info.get("why") == "pair" else "ambiguous")
    return [[(a, why), (b, why)] for (a, b), why in sorted(pairs.items())]


def duplicate_groups(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """One row per group of copies (``relation`` ``copies``: the record that stands for
    the game first, ``kinds`` ``canonical`` then each copy's ``duplicate_kind``), then one
    per main line that other games share (``same-moves``: the record standing for each
    game, none of them a copy) and one per pair of probable copies (``probable``: the two
    records, ``probable-copy`` where their tags agree but their moves differ,
    ``ambiguous`` where one's moves could be a copy of several games). Columns:
    :data:`COLUMNS`; ``locations`` and ``canonical`` are ``path#N`` (N: the game's number in
    its file, from 1), ``players`` the distinct ``White - Black`` pairs, ``differing_tags``
    the tags whose values differ among the records (or that some lack).

    Example:
        >>> from pdnkit.store import connect
        >>> duplicate_groups(connect(":memory:")).empty
        True
    """
    import pyarrow as pa

    members: list[_Member] = []
    relation: dict[int, str] = {}
    for rel, groups in (("copies", _copies(con)), ("same-moves", _same_moves(con)),
                        ("probable", _probable(con))):
        for group in groups:
            row = len(relation) + 1
            relation[row] = rel
            members += [(row, gid, place, kind) for place, (gid, kind) in enumerate(group)]
    name = f"_pdnkit_dups_{uuid.uuid4().hex[:10]}"
    temp_table(con, name, pa.table({
        "grp": pa.array([m[0] for m in members], pa.int64()),
        "game_id": pa.array([m[1] for m in members], pa.int64()),
        "place": pa.array([m[2] for m in members], pa.int64()),
        "kind": pa.array([m[3] for m in members], pa.string()),
        "relation": pa.array([relation[m[0]] for m in members], pa.string())}))
    try:
        return con.execute(_SQL.format(m=f"temp.{name}")).df()[COLUMNS]
    finally:
        con.execute(f"DROP TABLE IF EXISTS temp.{name}")


_SQL = """
    WITH m AS (SELECT m.*, g.variant, g.plies, g.white, g.black, g.tags, g.moves_hash,
                      f.path || '#' || CAST(g.game_index + 1 AS VARCHAR) AS location
               FROM {m} m JOIN games g USING (game_id) LEFT JOIN files f USING (file_id)),
    n AS (SELECT grp, count(*) AS n FROM m GROUP BY grp),
    tagrows AS (SELECT grp, unnest(map_keys(tags)) AS k, unnest(map_values(tags)) AS v
                FROM m),
    tagdiff AS (
        SELECT t.grp, list(t.k ORDER BY t.k) AS differing
        FROM (SELECT grp, k, count(DISTINCT v) AS nv, count(*) AS nk FROM tagrows
              GROUP BY grp, k) t JOIN n USING (grp)
        WHERE t.nv > 1 OR t.nk < n.n GROUP BY t.grp)
    SELECT m.grp AS "group", any_value(m.relation) AS relation,
           any_value(m.variant) AS variant, max(m.plies) AS plies, count(*) AS games,
           CASE WHEN any_value(m.relation) = 'copies'
                THEN arg_min(m.location, m.place) END AS canonical,
           list(m.location ORDER BY m.place) AS locations,
           list(m.kind ORDER BY m.place) AS kinds,
           list(DISTINCT coalesce(m.white, '?') || ' - ' || coalesce(m.black, '?')
                ORDER BY coalesce(m.white, '?') || ' - ' || coalesce(m.black, '?')) AS players,
           coalesce(len(any_value(d.differing)), 0) > 0 AS tags_differ,
           coalesce(any_value(d.differing), []::VARCHAR[]) AS differing_tags,
           list(m.game_id ORDER BY m.place) AS game_ids,
           arg_min(m.moves_hash, m.place) AS moves_hash
    FROM m LEFT JOIN tagdiff d USING (grp)
    GROUP BY m.grp ORDER BY m.grp"""


# --------------------------------------------------------------------------------------------
# the same rows, a few groups at a time

#: the records whose groups one statement of :class:`DuplicateStream` lists (groups are never
#: split: a larger group is a statement of its own); each statement reads the games once,
#: so fewer larger statements are quicker, smaller ones hold less
CHUNK_MEMBERS = 50_000


class DuplicateStream(Stream):
    """The rows of :func:`duplicate_groups` (or of another listing) in Arrow record batches,
    made a few groups at a time: one statement per chunk of groups, run when the previous
    one is read (what :func:`pdnkit.lean.streamed.emit_stream` reads: :attr:`columns`, their
    DuckDB :attr:`types`, :attr:`schema` once read). :attr:`counts` holds the rows of each
    relation and :attr:`total` their sum, known before the first row. Iterate once; use it
    in a ``with`` block: its end drops the temporary table the stream lists from and calls
    ``on_close``.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> with DuplicateStream(con, ["SELECT 1 AS n", "SELECT 2 AS n"], rows=10,
        ...                      counts={"numbers": 2}) as s:
        ...     s.columns, s.total, [b.column(0).to_pylist() for b in s]
        (['n'], 2, [[1], [2]])
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, statements: list[str], *,
                 rows: int, counts: dict[str, int], table: str | None = None,
                 on_close: Callable[[], object] | None = None) -> None:
        def closing() -> None:
            try:
                if table is not None:
                    con.execute(f"DROP TABLE IF EXISTS temp.{table}")
            finally:
                if on_close is not None:
                    on_close()

        # (each chunk's statement made when the one before is read to its end)
        super().__init__(con.sql(statements[0]), rows=rows, on_close=closing,
                         then=(con.sql(sql) for sql in statements[1:]))
        self.counts = counts
        self.total = sum(counts.values())

    def head(self, n: int) -> list[dict[str, object]]:
        """The first ``n`` rows (of an unread stream) as plain values
        (:func:`pdnkit._cells.arrow_values`); the stream is then read (the rest is never
        listed).

        Example:
            >>> import duckdb
            >>> with DuplicateStream(duckdb.connect(), ["SELECT [1, 2] AS a",
            ...                      "SELECT [3] AS a"], rows=1, counts={"rows": 2}) as s:
            ...     s.head(1)
            [{'a': [1, 2]}]
        """
        from pdnkit._cells import arrow_values

        out: list[dict[str, object]] = []
        for batch in self if n > 0 else ():
            part = batch.slice(0, n - len(out))
            columns = [arrow_values(part.column(i), self.types[i])
                       for i in range(part.num_columns)]
            out += [dict(zip(self.columns, row, strict=True))
                    for row in zip(*columns, strict=True)]
            if len(out) >= n:
                break
        return out


def duplicate_stream(con: duckdb.DuckDBPyConnection, *, rows: int,
                     chunk: int = CHUNK_MEMBERS,
                     on_close: Callable[[], object] | None = None) -> DuplicateStream:
    """:func:`duplicate_groups` as a :class:`DuplicateStream`: the same rows in the same
    order, in batches of at most ``rows`` rows, listed ``chunk`` records at a time (whole
    groups) from a temporary table of every record's group, place and kind built in SQL.

    Example:
        >>> from pdnkit.store import connect
        >>> with duplicate_stream(connect(":memory:"), rows=10) as s:
        ...     s.columns[:3], s.counts, sum(b.num_rows for b in s)
        (['group', 'relation', 'variant'], {'copies': 0, 'same-moves': 0, 'probable': 0}, 0)
    """
    name = f"_pdnkit_dups_{uuid.uuid4().hex[:10]}"
    try:
        counts = _members(con, name)
        ranges = con.execute(f"""
            SELECT min(grp), max(grp) FROM (
                SELECT grp, sum(n) OVER (ORDER BY grp) AS upto
                FROM (SELECT grp, count(*) AS n FROM temp.{name} GROUP BY grp))
            GROUP BY (upto - 1) // {max(1, int(chunk))} ORDER BY 1""").fetchall() or [(0, -1)]
        statements = [_SQL.format(m=f"(SELECT * FROM temp.{name} "
                                    f"WHERE grp BETWEEN {int(lo)} AND {int(hi)})")
                      for lo, hi in ranges]
        stream = DuplicateStream(con, statements, rows=rows, counts=counts,
                                 table=name, on_close=on_close)
    except BaseException:
        con.execute(f"DROP TABLE IF EXISTS temp.{name}")
        raise
    return stream


def _members(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, int]:
    """The temporary table ``name`` (``grp``, ``game_id``, ``place``, ``kind``,
    ``relation``) that :func:`duplicate_groups` builds in Python, built in SQL: the groups
    of copies numbered first, then the main lines other games share, then the pairs of
    probable copies; the number of rows (groups) of each relation."""
    import pyarrow as pa

    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE {name} AS
        SELECT dense_rank() OVER (ORDER BY rep) AS grp, game_id,
               row_number() OVER (PARTITION BY rep ORDER BY is_copy, path, game_index) - 1
                   AS place,
               kind, 'copies' AS relation
        FROM (SELECT coalesce(g.duplicate_of, g.game_id) AS rep, g.game_id,
                     g.duplicate_of IS NOT NULL AS is_copy, f.path, g.game_index,
                     coalesce(g.duplicate_kind, 'canonical') AS kind
              FROM games g LEFT JOIN files f USING (file_id)
              WHERE g.duplicate_of IS NOT NULL
                 OR g.game_id IN (SELECT duplicate_of FROM games
                                  WHERE duplicate_of IS NOT NULL))""")
    copies = _groups(con, name)
    _same_moves_members(con, name, copies)
    same = _groups(con, name) - copies
    pairs = _probable(con)
    if pairs:
        first = copies + same + 1
        members = [(first + i, gid, place, kind)
                   for i, pair in enumerate(pairs) for place, (gid, kind) in enumerate(pair)]
        temp_table(con, f"{name}_probable", pa.table({
            "grp": pa.array([m[0] for m in members], pa.int64()),
            "game_id": pa.array([m[1] for m in members], pa.int64()),
            "place": pa.array([m[2] for m in members], pa.int64()),
            "kind": pa.array([m[3] for m in members], pa.string())}))
        con.execute(f"INSERT INTO temp.{name} SELECT *, 'probable' "
                    f"FROM temp.{name}_probable")
        con.execute(f"DROP TABLE temp.{name}_probable")
    return {"copies": copies, "same-moves": same, "probable": len(pairs)}


def _same_moves_members(con: duckdb.DuckDBPyConnection, name: str, copies: int) -> None:
    """Into the table ``name``: the records standing for the games of each main line that
    several games have (:func:`_same_moves`), the lines numbered from ``copies + 1`` by
    their first record. The lines first, on their own (``min < max``: a lighter test of
    several games than a count of distinct ones), then their records."""
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE {name}_lines AS
        SELECT moves_hash, {copies} + row_number() OVER (ORDER BY min(game_id)) AS grp
        FROM games WHERE moves_hash IS NOT NULL GROUP BY moves_hash
        HAVING min(coalesce(duplicate_of, game_id)) < max(coalesce(duplicate_of, game_id))""")
    con.execute(f"""
        INSERT INTO temp.{name}
        WITH d AS (SELECT DISTINCT l.grp, coalesce(g.duplicate_of, g.game_id) AS rep
                   FROM games g JOIN temp.{name}_lines l USING (moves_hash))
        SELECT grp, rep, row_number() OVER (PARTITION BY grp ORDER BY rep) - 1,
               'other-game', 'same-moves'
        FROM d""")
    con.execute(f"DROP TABLE temp.{name}_lines")


def _groups(con: duckdb.DuckDBPyConnection, name: str) -> int:
    """The groups in the table ``name`` so far (numbered from 1 without a gap)."""
    return int(con.execute(f"SELECT coalesce(max(grp), 0) FROM temp.{name}")
               .fetchall()[0][0])
