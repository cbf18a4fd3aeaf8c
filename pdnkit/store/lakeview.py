"""Reading a Parquet lake: its manifest, and an in-memory DuckDB whose tables are views over
its parts: the side of the lake (:mod:`pdnkit.lake`) that every read command needs. It stays
on the store's floor, below the lake's writer (which uses the store's schema): it imports
nothing of the store (the schema is handed in), so :func:`pdnkit.store.db.connect` opens a
lake folder with it.

Example:
    >>> is_lake("/nonexistent"), read_manifest("/nonexistent")
    (False, [])
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.tables.bitboards import split_columns
from pdnkit.tables.compact import MOVE_ROWS_SELECT

if TYPE_CHECKING:
    import duckdb
    import fsspec

#: the tables a lake holds as Parquet parts (``files`` comes from the manifest)
LAKE_TABLES = ("games", "move_rows", "position_bits", "findings", "rule_events")
#: tables that lakes written before schema version 3 hold under another name and shape:
#: table -> (the old parts' name, the select that turns their rows into this table's)
LEGACY_PARTS = {"move_rows": ("moves", MOVE_ROWS_SELECT)}
#: folder of the manifest entries
MANIFEST = "_manifest"


def filesystem(url: str | Path) -> tuple[fsspec.AbstractFileSystem, str]:
    """The fsspec file system and path of ``url`` (a local path or an fsspec URL)."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(str(url))
    return fs, str(path).rstrip("/")


def is_lake(path: str | Path) -> bool:
    """Whether ``path`` is a lake folder (it holds a ``_manifest`` folder).

    Example:
        >>> is_lake("/nonexistent")
        False
    """
    try:
        fs, root = filesystem(path)
        return bool(fs.isdir(f"{root}/{MANIFEST}"))
    except (OSError, ValueError, ImportError):
        return False


# --------------------------------------------------------------------------------------------
# the manifest

@dataclass
class SourceEntry:
    """The manifest entry of one source: written after all its parts, so its presence
    means the source is complete in the lake."""

    sha256: str
    path: str
    size: int
    encoding: str
    file_id: int
    game_base: int
    games: int
    imported_at: str
    pdnkit_version: str
    chunks: list[dict[str, Any]]
    rows: dict[str, int]


def read_manifest(lake: str | Path) -> list[SourceEntry]:
    """Every complete source of the lake, in file id order.

    Example:
        >>> read_manifest("/nonexistent")
        []
    """
    fs, root = filesystem(lake)
    folder = f"{root}/{MANIFEST}"
    if not fs.isdir(folder):
        return []
    out = []
    for name in sorted(fs.ls(folder, detail=False)):
        if not str(name).endswith(".json"):
            continue
        with fs.open(name, "rb") as f:
            out.append(SourceEntry(**json.loads(f.read().decode("utf-8"))))
    return sorted(out, key=lambda e: e.file_id)


#: columns of each table that hold chunk-local numbers, and the base the views add
_FIXUPS: dict[str, dict[str, str | None]] = {
    "games": {"game_id": "c.game_base", "game_index": "c.index_base", "line": "c.line_base",
              "file_id": None},
    "move_rows": {"game_id": "c.game_base", "line": "c.line_base"},
    "position_bits": {"game_id": "c.game_base", "layout": "m.layout"},
    "findings": {"game_id": "c.game_base", "game_index": "c.index_base",
                 "line": "c.line_base", "file_id": None},
    "rule_events": {"game_id": "c.game_base"},
}


def _sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def open_lake(lake: str | Path, con: duckdb.DuckDBPyConnection | None = None, *,
              schema: str, setup: Callable[[duckdb.DuckDBPyConnection], object] | None = None
              ) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose ``files``, ``games``, ``moves``, ``positions``,
    ``findings``, ``rule_events`` and ``variants`` are views over the lake (only parts of
    complete sources are read), so every read command runs unchanged.

    Example:
        >>> import tempfile
        >>> from pdnkit.store.db import schema_sql
        >>> con = open_lake(tempfile.mkdtemp(), schema=schema_sql())
        >>> con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        0
    """
    import duckdb

    entries = read_manifest(lake)
    if con is None:
        con = duckdb.connect(":memory:")
    if "://" in str(lake):
        fs, _ = filesystem(lake)
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
    for table in LAKE_TABLES:
        parts = [c["parts"][table] for e in entries for c in e.chunks if table in c["parts"]]
        legacy = _legacy_parts(table, entries)
        types = dict(con.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE "
            "table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
            [table]).fetchall())
        cols = list(types)
        if not parts and not legacy:
            continue  # the schema's empty table
        present = _part_columns(con, parts) if parts else set(cols)
        fix = _FIXUPS[table]
        # a part keeps each bitboard whole (a decimal): split as the table stores them
        split = (split_columns("t.{col}", "m.squares > 64") if table == "position_bits"
                 else {})
        select = []
        for col in cols:
            if col in split:
                select.append(f"{split[col]} AS {col}")
            elif col not in fix and col not in present:  # parts written before it
                select.append(f"NULL::{types[col]} AS {col}")
            elif col not in fix and types[col] == "HUGEINT":  # Parquet has no HUGEINT
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
        sources = []
        if parts:
            sources.append("SELECT * FROM read_parquet("
                           + "[" + ", ".join(_sql_str(p) for p in parts)
                           + "], union_by_name = true)")
        if legacy:
            sources.append(legacy)
        con.execute(f"DROP TABLE {table}")
        con.execute(f"CREATE VIEW {table} AS SELECT {', '.join(select)} "
                    f"FROM ({' UNION ALL BY NAME '.join(sources)}) t "
                    "JOIN _lake_chunks c ON t.chunk = c.chunk " + join)
    from pdnkit.openings.lake import attach_novelties

    fs, root = filesystem(lake)  # novelties: computed over the whole lake, then cached
    attach_novelties(con, fs, root, [(e.file_id, e.sha256, e.game_base, e.games)
                                     for e in entries])
    if setup is not None:
        setup(con)
    return con


def _part_columns(con: duckdb.DuckDBPyConnection, parts: list[str]) -> set[str]:
    """The columns the parts hold (any of them; a part written by an older pdnkit lacks
    the columns added since, which the views give as NULL)."""
    files = "[" + ", ".join(_sql_str(p) for p in parts) + "]"
    return {str(r[0]) for r in con.execute(
        f"DESCRIBE SELECT * FROM read_parquet({files}, union_by_name = true)").fetchall()}


def _legacy_parts(table: str, entries: list[SourceEntry]) -> str | None:
    """A query over the parts that a lake written before schema version 3 holds for
    ``table`` under its old name (:data:`LEGACY_PARTS`), giving this table's columns; ``None``
    when there are none."""
    if table not in LEGACY_PARTS:
        return None
    old, select = LEGACY_PARTS[table]
    parts = [c["parts"][old] for e in entries for c in e.chunks
             if old in c["parts"] and table not in c["parts"]]
    if not parts:
        return None
    files = "[" + ", ".join(_sql_str(p) for p in parts) + "]"
    return f"SELECT {select}, chunk FROM read_parquet({files})"


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
