"""Novelties of a Parquet lake, computed over the whole lake.

A lake's parts are written chunk by chunk, each by a task that knows nothing of the other
sources, and are never rewritten; a game's novelty depends on every other game of the lake
(a source imported later with older games changes it). So the lake's ``games`` view takes
``novelty_ply`` and ``novelty_from`` from a table computed over the whole lake
(:func:`attach_novelties`, called when the lake is opened: the SQL of
:mod:`pdnkit.store.novelties` over the views, the same rule and order as a DuckDB import
of the same files). The lake's writer keeps the result in the lake
(``_openings/novelties-<digest>.parquet``, the digest naming the manifest's sources):
:func:`pdnkit.store.lakeview.keep_novelties`, at the end of ``pdnkit import --lake`` under the
lake's lock, calls :func:`write_novelties`. A reader never writes into the lake: it reads the
kept table, or (a lake written by an older pdnkit, or a read-only copy) computes it in memory
at every open. The other opening columns are written with the rows
(:mod:`pdnkit.openings.labels`), as in a DuckDB import.

Example:
    >>> import tempfile
    >>> from pdnkit.store import connect
    >>> from pdnkit.lake import import_lake
    >>> d = tempfile.mkdtemp()
    >>> _ = import_lake([], d, engine="local")
    >>> connect(d).execute("SELECT count(novelty_ply) FROM games").fetchall()
    [(0,)]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdnkit.store.lakeparts import read_cached, write_cached
from pdnkit.store.novelties import compute_novelties

if TYPE_CHECKING:
    import duckdb
    from fsspec import AbstractFileSystem

#: what a lake's novelties depend on, per source: file id, content hash, first game id, games
Source = tuple[int, str, int, int]

__all__ = ["CACHE_FOLDER", "RULE", "attach_novelties", "novelty_digest", "novelty_path",
           "write_novelties"]

#: the lake's folder of computed opening data
CACHE_FOLDER = "_openings"
#: the rule the kept novelties were computed by (a table kept by another is computed again):
#: 2, among the games counted once (a copy of a game is no earlier game)
RULE = 2


def novelty_digest(sources: Sequence[Source]) -> str:
    """What the lake's novelties depend on: its sources (id, content hash, first game id,
    games) and :data:`RULE`, as a short hex digest.

    Example:
        >>> novelty_digest([])
        '6cabe1ea81058a92'
    """
    return hashlib.sha256(json.dumps([RULE, [list(s) for s in sources]]).encode("utf-8")
                          ).hexdigest()[:16]


#: the table of an opened lake's novelties (its connection is in memory)
_TABLE = "_lake_novelties"


def novelty_path(root: str, sources: Sequence[Source]) -> str:
    """Where the lake at ``root`` keeps the novelties of its ``sources``."""
    return f"{root}/{CACHE_FOLDER}/novelties-{novelty_digest(sources)}.parquet"


def attach_novelties(con: duckdb.DuckDBPyConnection, fs: AbstractFileSystem, root: str,
                     sources: Sequence[Source]) -> bool:
    """Make the ``games`` view of the lake at ``root`` (on ``fs``) opened in ``con`` give
    each game's novelty: read from the table the lake keeps for its ``sources``, else
    computed over the views (in memory; nothing is written). Returns whether it was
    computed. Called by :func:`pdnkit.store.lakeview.open_lake` once the views stand."""
    if not any(s[3] for s in sources):
        return False
    computed = not read_cached(con, fs, novelty_path(root, sources), _TABLE)
    if computed:
        compute_novelties(con, "_lake_novelty_rows")
        con.execute(f"CREATE OR REPLACE TABLE {_TABLE} AS "
                    "SELECT * FROM temp._lake_novelty_rows")
        con.execute("DROP TABLE temp._lake_novelty_rows")
    table = _TABLE
    con.execute("ALTER VIEW games RENAME TO _lake_games_parts")
    con.execute(f"""
        CREATE VIEW games AS
        SELECT b.* REPLACE (n.novelty_ply AS novelty_ply, n.novelty_from AS novelty_from)
        FROM _lake_games_parts b LEFT JOIN {table} n ON n.game_id = b.game_id""")
    return computed


def write_novelties(con: duckdb.DuckDBPyConnection, fs: AbstractFileSystem, root: str,
                    sources: Sequence[Source]) -> bool:
    """Keep the novelties of the lake opened in ``con`` (by :func:`attach_novelties`) in
    the lake, unless it has them for these ``sources`` already (older ones removed); for
    the lake's writer only, under its lock. Returns whether a table was written.

    Example:
        >>> import duckdb
        >>> write_novelties(duckdb.connect(), None, "/nowhere", [])  # no games: nothing
        False
    """
    if not any(s[3] for s in sources):
        return False
    path = novelty_path(root, sources)
    if fs.exists(path):
        return False
    write_cached(con, fs, f"{root}/{CACHE_FOLDER}", path, _TABLE, "novelties-")
    return bool(fs.exists(path))
