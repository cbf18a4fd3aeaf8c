"""Reading a Parquet lake: an in-memory DuckDB whose tables are views over its parts, the side
of the lake (:mod:`pdnkit.lake`) that every read command needs. It stays on the store's
floor, below the lake's writer (which uses the store's schema): the schema is handed in, so
:func:`pdnkit.store.db.connect` opens a lake folder with it. The manifest and the parts'
locations are :mod:`pdnkit.store.lakeparts`' (named here too).

A lake's connection is read-only for files: once the views are made, SQL may read the
lake's own parts and nothing else (DuckDB's ``allowed_paths`` with external access off and
the configuration locked), so ``read_csv('/etc/passwd')``, ``ATTACH`` or ``COPY ... TO``
fail in every read command and every ``--where``.

Example:
    >>> is_lake("/nonexistent"), read_manifest("/nonexistent")
    (False, [])
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pdnkit.rows.bitboards import split_columns
from pdnkit.rows.compact import MOVE_ROWS_SELECT
from pdnkit.store.lakeparts import (
    LAKE_TABLES,
    MANIFEST,
    LakeDamagedError,
    SourceEntry,
    damaged_parts,
    filesystem,
    is_lake,
    part_location,
    read_manifest,
    upgrade_lake,
    url_of,
)
from pdnkit.store.schema import no_progress_bar

if TYPE_CHECKING:
    import duckdb
    import fsspec

__all__ = ["LAKE_TABLES", "LEGACY_PARTS", "MANIFEST", "LakeDamagedError", "SourceEntry",
           "filesystem", "is_lake", "keep_copies", "keep_novelties", "lock_down", "open_lake",
           "read_manifest",
           "upgrade_lake"]

#: tables that lakes written before schema version 3 hold under another name and shape:
#: table -> (the old parts' name, the select that turns their rows into this table's)
LEGACY_PARTS = {"move_rows": ("moves", MOVE_ROWS_SELECT)}


#: columns of each table that hold chunk-local numbers, and the base the views add
_FIXUPS: dict[str, dict[str, str | None]] = {
    "games": {"game_id": "c.game_base", "game_index": "c.index_base", "line": "c.line_base",
              "file_id": None},
    "raw_pieces": {"game_id": "c.game_base"},
    "move_rows": {"game_id": "c.game_base", "line": "c.line_base"},
    "position_bits": {"game_id": "c.game_base", "layout": "m.layout"},
    "findings": {"game_id": "c.game_base", "game_index": "c.index_base",
                 "line": "c.line_base", "file_id": None},
    "rule_events": {"game_id": "c.game_base"},
}


def _sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _sql_list(items: list[str]) -> str:
    return "[" + ", ".join(_sql_str(p) for p in items) + "]"


def damage_message(lake: str | Path, damaged: list[object]) -> str:
    """The error of a lake with damaged parts: which, and what to run."""
    shown = "; ".join(str(d) for d in damaged[:3])
    more = f" and {len(damaged) - 3} more" if len(damaged) > 3 else ""
    return (f"the lake {lake} has {len(damaged)} damaged part(s): {shown}{more}; nothing was "
            f"read. `pdnkit lake info {lake}` lists them, and importing the source again "
            f"(`pdnkit import SOURCE --lake {lake}`) reloads it")


def open_lake(lake: str | Path, con: duckdb.DuckDBPyConnection | None = None, *,
              schema: str, setup: Callable[[duckdb.DuckDBPyConnection], object] | None = None,
              lock: bool = True) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose ``files``, ``games``, ``moves``, ``positions``,
    ``findings``, ``rule_events`` and ``variants`` are views over the lake (only parts of
    complete sources are read), so every read command runs unchanged. Every part is checked
    first (there, and ending with a Parquet footer): a missing or damaged one raises
    :class:`LakeDamagedError` naming it. With ``lock`` (the default) the connection can then
    reach no file but the lake's parts (:func:`lock_down`). Columns that older parts lack
    read as NULL.

    Example:
        >>> import tempfile
        >>> from pdnkit.store.db import schema_sql
        >>> con = open_lake(tempfile.mkdtemp(), schema=schema_sql())
        >>> con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        0
    """
    import duckdb

    entries = read_manifest(lake)
    damaged = damaged_parts(lake, entries)
    if damaged:
        raise LakeDamagedError(damage_message(lake, list(damaged)))
    fs, root = filesystem(lake)
    if con is None:
        con = no_progress_bar(duckdb.connect(":memory:"))
    if "://" in str(lake):
        con.register_filesystem(fs)
    # every table, view and macro of the schema; the lake's tables then become views
    con.execute(schema)
    rows = [(c["key"], e.file_id, c["game_base"], c["index_base"], c["line_base"])
            for e in entries for c in e.chunks]
    con.execute("CREATE OR REPLACE TABLE _lake_chunks (chunk BIGINT, file_id BIGINT, "
                "game_base BIGINT, index_base INTEGER, line_base INTEGER)")
    if rows:
        con.executemany("INSERT INTO _lake_chunks VALUES (?, ?, ?, ?, ?)", rows)
    _lake_layouts(con, entries)
    for e in entries:
        con.execute("INSERT INTO files BY NAME SELECT ? AS file_id, ? AS path, ? AS sha256, "
                    "? AS size, ? AS encoding, ? AS games, ?::TIMESTAMP AS imported_at",
                    [e.file_id, e.path, e.sha256, e.size, e.encoding, e.games, e.imported_at])
        con.execute("INSERT INTO file_paths BY NAME SELECT ? AS file_id, ? AS path, "
                    "?::TIMESTAMP AS first_seen", [e.file_id, e.path, e.imported_at])
    read: list[str] = []
    for table in LAKE_TABLES:
        parts = [url_of(fs, part_location(root, c["parts"][table]))
                 for e in entries for c in e.chunks if table in c["parts"]]
        legacy = _legacy_parts(table, entries, root, fs)
        read += parts + (legacy[1] if legacy else [])
        if parts or legacy:
            _table_view(con, table, parts, legacy[0] if legacy else None)
    from pdnkit.store.lakecopies import attach_copies
    from pdnkit.store.lakenovelties import attach_novelties

    # the groups of copies, then the novelties among the games counted once: over the whole
    # lake (kept in it by its writer: keep_copies, keep_novelties)
    attach_copies(con, fs, root, _novelty_sources(entries))
    attach_novelties(con, fs, root, _novelty_sources(entries))
    if setup is not None:
        setup(con)
    if lock:
        lock_down(con, read)
    return con


def _novelty_sources(entries: list[SourceEntry]) -> list[tuple[int, str, int, int]]:
    """What a lake's novelties depend on (:func:`pdnkit.store.lakenovelties.novelty_digest`)."""
    return [(e.file_id, e.sha256, e.game_base, e.games) for e in entries]


def keep_copies(lake: str | Path) -> bool:
    """Compute the groups of copies of the whole lake and keep them in it, for its readers
    (who write nothing: :func:`pdnkit.store.lakecopies.attach_copies`); the lake's writer
    calls it under the lake's lock once its sources are in, before :func:`keep_novelties`.
    Returns whether they were written (not when the lake has them for these sources, or
    holds no game).

    Example:
        >>> import tempfile
        >>> keep_copies(tempfile.mkdtemp())
        False
    """
    from pdnkit.store.lakecopies import copies_paths, write_copies
    from pdnkit.store.schema import schema_sql

    entries = read_manifest(lake)
    sources = _novelty_sources(entries)
    fs, root = filesystem(lake)
    if not any(s[3] for s in sources) or all(fs.exists(p) for p in copies_paths(root, sources)):
        return False
    con = open_lake(lake, schema=schema_sql(), lock=False)
    try:
        return write_copies(con, fs, root, sources)
    finally:
        con.close()


def keep_novelties(lake: str | Path) -> bool:
    """Compute the novelties of the whole lake and keep them in it, for its readers (who
    write nothing: :func:`pdnkit.store.lakenovelties.attach_novelties`); the lake's writer calls
    it under the lake's lock once its sources are in. Returns whether a table was written
    (not when the lake has it for these sources, or holds no game).

    Example:
        >>> import tempfile
        >>> keep_novelties(tempfile.mkdtemp())
        False
    """
    from pdnkit.store.lakenovelties import novelty_path, write_novelties
    from pdnkit.store.schema import schema_sql

    entries = read_manifest(lake)
    sources = _novelty_sources(entries)
    fs, root = filesystem(lake)
    if not any(s[3] for s in sources) or fs.exists(novelty_path(root, sources)):
        return False
    con = open_lake(lake, schema=schema_sql(), lock=False)
    try:
        return write_novelties(con, fs, root, sources)
    finally:
        con.close()


def _table_view(con: duckdb.DuckDBPyConnection, table: str, parts: list[str],
                legacy: str | None) -> None:
    """Replace the schema's ``table`` by a view over its parts, with the bases added."""
    types = dict(con.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE "
        "table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
        [table]).fetchall())
    sources = []
    if parts:
        sources.append(f"SELECT * FROM read_parquet({_sql_list(parts)}, union_by_name = true)")
    if legacy:
        sources.append(legacy)
    union = " UNION ALL BY NAME ".join(sources)
    have = {r[0] for r in con.execute(f"DESCRIBE ({union})").fetchall()}
    fix = _FIXUPS[table]
    # a part keeps each bitboard whole (a decimal): split as the table stores them
    split = (split_columns("t.{col}", "m.squares > 64") if table == "position_bits" else {})
    select = []
    for col, dtype in types.items():
        if col in split:
            select.append(f"{split[col]} AS {col}")
        elif col not in fix and col not in have:  # a column older parts do not have
            select.append(f"NULL::{dtype} AS {col}")
        elif col not in fix and dtype == "HUGEINT":  # Parquet has no HUGEINT
            select.append(f"t.{col}::HUGEINT AS {col}")
        elif col not in fix:
            select.append(f"t.{col}")
        elif (base := fix[col]) is None:
            select.append(f"c.file_id AS {col}")
        elif base.startswith("m."):
            select.append(f"{base} AS {col}")
        else:
            select.append(f"t.{col} + {base} AS {col}")
    join = ("JOIN _lake_layout_map m ON m.chunk = t.chunk AND m.local = t.layout "
            if "layout" in fix else "")
    con.execute(f"DROP TABLE {table}")
    con.execute(f"CREATE VIEW {table} AS SELECT {', '.join(select)} "
                f"FROM ({union}) t JOIN _lake_chunks c ON t.chunk = c.chunk " + join)


def lock_down(con: duckdb.DuckDBPyConnection, paths: list[str]) -> None:
    """From now on ``con`` reads no file but ``paths`` (the lake's parts) and writes none:
    external access off, those paths allowed, the configuration locked (no SQL can set it
    back). ``COPY`` and ``ATTACH`` statements are refused by ``query`` on a lake as well
    (:func:`pdnkit.store.ops.query`), since an allowed path could be written by them.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> lock_down(con, [])
        >>> try:
        ...     con.execute("SELECT * FROM read_csv('/etc/passwd')")
        ... except duckdb.PermissionException:
        ...     print("refused")
        refused
    """
    if paths:
        con.execute(f"SET allowed_paths = {_sql_list(paths)}")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def _legacy_parts(table: str, entries: list[SourceEntry], root: str,
                  fs: fsspec.AbstractFileSystem) -> tuple[str, list[str]] | None:
    """A query over the parts that a lake written before schema version 3 holds for
    ``table`` under its old name (:data:`LEGACY_PARTS`), giving this table's columns, and
    the parts; ``None`` when there are none."""
    if table not in LEGACY_PARTS:
        return None
    old, select = LEGACY_PARTS[table]
    parts = [url_of(fs, part_location(root, c["parts"][old]))
             for e in entries for c in e.chunks
             if old in c["parts"] and table not in c["parts"]]
    if not parts:
        return None
    return f"SELECT {select}, chunk FROM read_parquet({_sql_list(parts)})", parts


def _lake_layouts(con: duckdb.DuckDBPyConnection, entries: list[SourceEntry]) -> None:
    """The ``layouts`` table of the whole lake (each layout numbered in order of first
    appearance, file by file and chunk by chunk, as a DuckDB import numbers them) and
    ``_lake_layout_map`` from each chunk's own numbers to those."""
    con.execute("CREATE OR REPLACE TABLE _lake_layout_map (chunk BIGINT, local UTINYINT, "
                "layout UTINYINT, squares INTEGER)")
    ids: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {}
    mapping = []
    for e in entries:
        for c in e.chunks:
            for local, squares, names, order in c.get("layouts", []):
                key = (tuple(names), tuple(order))
                if key not in ids:
                    ids[key] = len(ids)
                    con.execute("INSERT INTO layouts VALUES (?, ?, ?, ?)",
                                [ids[key], squares, list(names), list(order)])
                mapping.append((c["key"], local, ids[key], squares))
    if mapping:
        con.executemany("INSERT INTO _lake_layout_map VALUES (?, ?, ?, ?)", mapping)
