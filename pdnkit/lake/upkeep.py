"""Reading and tending a lake: :func:`open_lake` (an in-memory DuckDB whose tables are views
over the parts, as ``pdnkit.store.connect(DIR)`` gives), :func:`lake_summary` (sources, games,
rows, parts and bytes) and :func:`compact` (merge each source's small parts into fewer).

Example:
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> open_lake(d).execute("SELECT count(*) FROM games").fetchall()[0][0], compact(d)
    (0, 0)
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.lake.importer import lake_lock
from pdnkit.store import lakeview
from pdnkit.store.db import refresh_variants, schema_sql
from pdnkit.store.lakeparts import damaged_parts, part_location, write_entry
from pdnkit.store.lakeview import LAKE_TABLES, LEGACY_PARTS, SourceEntry, filesystem, read_manifest
from pdnkit.store.schema import no_progress_bar

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

def open_lake(lake: str | Path, con: duckdb.DuckDBPyConnection | None = None
              ) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views over the lake (see
    :func:`pdnkit.store.lakeview.open_lake`); ``pdnkit.store.connect(DIR)`` gives the same.

    Example:
        >>> import tempfile
        >>> d = tempfile.mkdtemp()
        >>> from pdnkit.lake import import_lake
        >>> _ = import_lake([], d, engine="local")
        >>> open_lake(d).execute("SELECT count(*) FROM games").fetchall()[0][0]
        0
    """
    return lakeview.open_lake(lake, con, schema=schema_sql(), setup=refresh_variants)


def compact(lake: str | Path, target_rows: int = 2_000_000) -> int:
    """Merge the small parts of each source into fewer, larger ones (about ``target_rows``
    positions each); returns the number of parts removed. Each merged part is written under
    a temporary name, the manifest entry is rewritten to name it, then the old parts go (the
    lake's own only). Takes the lake's lock (:func:`pdnkit.lake.importer.lake_lock`); a lake
    with damaged parts is refused (:class:`pdnkit.store.lakeparts.LakeDamagedError`).

    Example:
        >>> import tempfile
        >>> compact(tempfile.mkdtemp())
        0
    """
    import pyarrow.parquet as pq

    fs, root = filesystem(lake)
    with lake_lock(lake):
        damaged = damaged_parts(lake)
        if damaged:
            raise lakeview.LakeDamagedError(lakeview.damage_message(lake, list(damaged)))
        return _compact(fs, root, lake, target_rows, pq)


def _compact(fs: Any, root: str, lake: str | Path, target_rows: int, pq: Any) -> int:
    removed = 0
    for entry in read_manifest(lake):
        groups: list[list[dict[str, Any]]] = [[]]
        rows = 0
        for c in entry.chunks:
            n = int(c.get("rows", {}).get("position_bits", 0))
            if groups[-1] and rows + n > target_rows:
                groups.append([])
                rows = 0
            groups[-1].append(c)
            rows += n
        if all(len(g) <= 1 for g in groups):
            continue
        old_parts = [p for c in entry.chunks for p in c.get("parts", {}).values()]
        new_chunks = []
        for group in groups:
            head = dict(group[0])
            if len(group) > 1:
                head = _merge_group(fs, root, entry, group, pq)
            new_chunks.extend([head] + [dict(c, parts={}) for c in group[1:]])
        entry.chunks = new_chunks
        write_entry(fs, root, entry)
        keep = {part_location(root, p) for c in new_chunks for p in c.get("parts", {}).values()}
        for p in old_parts:
            loc = part_location(root, p)
            if loc not in keep and fs.exists(loc):  # (always in the lake's own folder)
                fs.rm(loc)
                removed += 1
    return removed


def _merge_group(fs: Any, root: str, entry: SourceEntry, group: list[dict[str, Any]],
                 pq: Any) -> dict[str, Any]:
    """One part per table holding every chunk of ``group`` (each row keeps its chunk key,
    so the views' bases still apply); returns the group's first chunk naming the new parts."""
    head = dict(group[0])
    parts: dict[str, str] = {}
    for table in LAKE_TABLES:
        old, convert = LEGACY_PARTS.get(table, (None, None))
        files = [(part_location(root, c["parts"][table]), None) if table in c.get("parts", {})
                 else (part_location(root, c["parts"][old]), convert) for c in group
                 if table in c.get("parts", {}) or old in c.get("parts", {})]
        if not files:
            continue
        final = f"{root}/{table}/merged-{entry.file_id:08d}-{group[0]['chunk']:05d}-{uuid.uuid4().hex[:8]}.parquet"
        tmp = final + ".tmp"
        writer = None
        with fs.open(tmp, "wb") as out:
            for f, select in files:
                with fs.open(f, "rb") as src:
                    t = pq.read_table(src)
                if select is not None:  # a part written before schema version 3
                    t = _converted(t, select)
                if writer is None:
                    writer = pq.ParquetWriter(out, t.schema, compression="zstd")
                writer.write_table(t)
            if writer is not None:
                writer.close()
        fs.mv(tmp, final)
        parts[table] = final
    head["parts"] = parts
    return head


def _converted(table: pa.Table, select: str) -> pa.Table:
    """A part written before schema version 3 as its table is written now (``select``, from
    :data:`pdnkit.store.LEGACY_PARTS`, over the old columns; the chunk key kept)."""
    import duckdb

    con = no_progress_bar(duckdb.connect())
    try:
        con.execute(schema_sql())
        rel = con.from_arrow(table).query("_part", f"SELECT {select}, chunk FROM _part")
        assert rel is not None  # a SELECT gives a relation
        out = rel.arrow()
        return out.read_all() if hasattr(out, "read_all") else out
    finally:
        con.close()


def lake_summary(lake: str | Path) -> dict[str, Any]:
    """Sources, games, rows per table, parts and bytes on disk of a lake, and its damaged
    parts (``damaged``: one text each, naming the part, its source and what is wrong; every
    part's footer is read and its rows compared with the manifest's).

    Example:
        >>> import tempfile
        >>> s = lake_summary(tempfile.mkdtemp())
        >>> s["sources"], s["damaged"]
        (0, [])
    """
    fs, root = filesystem(lake)
    entries = read_manifest(lake)
    parts = [part_location(root, p) for e in entries for c in e.chunks
             for p in c.get("parts", {}).values()]
    size = sum(int(fs.size(p)) for p in parts if fs.exists(p))
    rows: dict[str, int] = {t: 0 for t in LAKE_TABLES}
    current = {old: table for table, (old, _) in LEGACY_PARTS.items()}
    for e in entries:
        for t, n in e.rows.items():
            t = current.get(t, t)  # a table under its name before schema version 3
            rows[t] = rows.get(t, 0) + n
    damaged = damaged_parts(lake, entries, deep=True)
    return {"lake": str(lake), "sources": len(entries), "games": sum(e.games for e in entries),
            "parts": len(parts), "bytes": size, "rows": rows,
            "damaged": [str(d) for d in damaged],
            "damaged_sources": sorted({d.source for d in damaged})}
