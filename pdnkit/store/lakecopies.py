"""Copies of one game in a Parquet lake, computed over the whole lake.

A lake's parts are written chunk by chunk by tasks that know nothing of the other sources,
and never rewritten; which record stands for a group of copies depends on every source. So
the lake's ``games`` view takes ``duplicate_of`` and ``duplicate_kind`` from a table computed
over the whole lake (:func:`attach_copies`, when the lake is opened: the grouping of
:mod:`pdnkit.store.copies` over the views, the same as a DuckDB import of the same files),
and its ``findings`` view adds the ``probable-copy`` findings. The lake's writer keeps both
in the lake (``_copies/groups-<digest>.parquet`` and ``_copies/probable-<digest>.parquet``,
the digest naming the manifest's sources and :data:`RULE`):
:func:`pdnkit.store.lakeview.keep_copies`, at the end of ``pdnkit import --lake`` under the
lake's lock, calls :func:`write_copies`. A reader never writes into the lake: it reads the
kept tables or (a lake an older pdnkit wrote, a read-only copy) computes them at every open.
Player aliases and rulings are a DuckDB database's (a lake is read-only): a lake groups by
the names as written.

Example:
    >>> copies_digest([])
    '78d89c05369112e2'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit.store.copies import compute_groups, group_rows, probable_findings
from pdnkit.store.lakeparts import read_cached, write_cached

if TYPE_CHECKING:
    import duckdb
    from fsspec import AbstractFileSystem

__all__ = ["CACHE_FOLDER", "RULE", "attach_copies", "copies_digest", "copies_paths",
           "write_copies"]

#: what a lake's groups depend on, per source: file id, content hash, first game id, games
Source = tuple[int, str, int, int]
#: the lake's folder of computed groups of copies
CACHE_FOLDER = "_copies"
#: the rules the kept groups were computed by (kept groups of other rules are computed again)
RULE = 1
#: the tables of an opened lake's groups and probable-copy findings (in memory)
_GROUPS = "_lake_copies"
_PROBABLE = "_lake_probable"


def copies_digest(sources: Sequence[Source]) -> str:
    """What a lake's groups depend on: its sources (id, content hash, first game id,
    games) and :data:`RULE`, as a short hex digest."""
    return hashlib.sha256(json.dumps(["copies", RULE, [list(s) for s in sources]])
                          .encode("utf-8")).hexdigest()[:16]


def copies_paths(root: str, sources: Sequence[Source]) -> tuple[str, str]:
    """Where the lake at ``root`` keeps the groups and the probable-copy findings of its
    ``sources``.

    Example:
        >>> copies_paths("/lake", [])[0]
        '/lake/_copies/groups-78d89c05369112e2.parquet'
    """
    digest = copies_digest(sources)
    return (f"{root}/{CACHE_FOLDER}/groups-{digest}.parquet",
            f"{root}/{CACHE_FOLDER}/probable-{digest}.parquet")


def _compute(con: duckdb.DuckDBPyConnection) -> None:
    """The groups and the probable-copy findings of the lake opened in ``con``, over its
    views, as the tables :data:`_GROUPS` and :data:`_PROBABLE`."""
    grouping = compute_groups(con)
    group_rows(con, grouping, "_lake_copy_rows")
    con.execute(f"CREATE OR REPLACE TABLE {_GROUPS} AS SELECT * FROM temp._lake_copy_rows "
                "WHERE duplicate_of IS NOT NULL")
    con.execute("DROP TABLE temp._lake_copy_rows")
    con.execute(f"CREATE OR REPLACE TABLE {_PROBABLE} AS SELECT * FROM findings LIMIT 0")
    rows = probable_findings(con, grouping)
    if rows:
        marks = ", ".join("?" for _ in rows[0])
        con.executemany(f"INSERT INTO {_PROBABLE} VALUES ({marks})", rows)


def attach_copies(con: duckdb.DuckDBPyConnection, fs: AbstractFileSystem, root: str,
                  sources: Sequence[Source]) -> bool:
    """Make the ``games`` view of the lake at ``root`` (on ``fs``) opened in ``con`` give
    each record's ``duplicate_of`` and ``duplicate_kind``, and its ``findings`` view the
    ``probable-copy`` findings: read from the tables the lake keeps for its ``sources``, else
    computed over the views (in memory; nothing is written). Returns whether they were
    computed. Called by :func:`pdnkit.store.lakeview.open_lake` once the views stand,
    before the novelties (which count each game once)."""
    if not any(s[3] for s in sources):
        return False
    groups, probable = copies_paths(root, sources)
    computed = not (read_cached(con, fs, groups, _GROUPS)
                    and read_cached(con, fs, probable, _PROBABLE))
    if computed:
        _compute(con)
    con.execute("ALTER VIEW games RENAME TO _lake_games_copies")
    con.execute(f"""
        CREATE VIEW games AS
        SELECT b.* REPLACE (c.duplicate_of AS duplicate_of,
                            c.duplicate_kind AS duplicate_kind)
        FROM _lake_games_copies b LEFT JOIN {_GROUPS} c ON c.game_id = b.game_id""")
    con.execute("ALTER VIEW findings RENAME TO _lake_findings_parts")
    con.execute(f"CREATE VIEW findings AS SELECT * FROM _lake_findings_parts "
                f"UNION ALL BY NAME SELECT * FROM {_PROBABLE}")
    return computed


def write_copies(con: duckdb.DuckDBPyConnection, fs: AbstractFileSystem, root: str,
                 sources: Sequence[Source]) -> bool:
    """Keep the groups of the lake opened in ``con`` (by :func:`attach_copies`) in the
    lake, unless it has them for these ``sources`` already (older ones removed); for the
    lake's writer only, under its lock. Returns whether they were written.

    Example:
        >>> import duckdb
        >>> write_copies(duckdb.connect(), None, "/nowhere", [])  # no games: nothing
        False
    """
    if not any(s[3] for s in sources):
        return False
    groups, probable = copies_paths(root, sources)
    if fs.exists(groups) and fs.exists(probable):
        return False
    folder = f"{root}/{CACHE_FOLDER}"
    write_cached(con, fs, folder, groups, _GROUPS, "groups-")
    write_cached(con, fs, folder, probable, _PROBABLE, "probable-")
    return bool(fs.exists(groups) and fs.exists(probable))
