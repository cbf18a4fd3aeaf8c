"""The groups of copies of a database as a table (``pdnkit duplicates``): each group with the
record that stands for it and each copy's kind; apart from them, the records with the same
moves that are other games, and the probable copies a user has yet to rule on.

Example:
    >>> from pdnkit.store import connect
    >>> list(duplicate_groups(connect(":memory:")).columns)[:6]
    ['group', 'relation', 'variant', 'plies', 'games', 'canonical']
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING

from pdnkit.store.copies import CODE, temp_table

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["COLUMNS", "RELATIONS", "duplicate_groups"]

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
