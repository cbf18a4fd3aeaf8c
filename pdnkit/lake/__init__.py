"""The Parquet lake: a second store, written by tasks that each read their own byte range of
a source file (locally, or on a Dask cluster), and read through DuckDB views.

Layout of a lake folder ``DIR`` (a local path or any fsspec URL)::

    DIR/_manifest/<sha256>.json      one entry per source, written last; its parts named
                                     relative to DIR (a copied or moved lake reads its own)
    DIR/<table>/part-<file_id>-<chunk>.parquet   games, raw_pieces, move_rows, position_bits,
                                     findings, rule_events
    DIR/.pdnkit-lock                 while an import, compact or upgrade writes (one at a time)

The rooms: :mod:`.cut` (cut points, reading a source's bytes), :mod:`.tasks` (a chunk's task:
replay and Parquet parts), :mod:`.engines` (where tasks run), :mod:`.manifest` (the entries),
:mod:`.importer` (``import_lake``), :mod:`.upkeep` (``open_lake``, ``lake_summary``,
``compact``). The views themselves are :mod:`pdnkit.store.lakeview` (``pdnkit.store.connect``
opens a lake folder with them). Names are imported lazily.

Example:
    >>> import tempfile
    >>> from pdnkit.lake import import_lake, is_lake, lake_summary
    >>> d = tempfile.mkdtemp()
    >>> import_lake([], d, engine="local").games, is_lake(d), lake_summary(d)["sources"]
    (0, True, 0)
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "import_lake": "pdnkit.lake.importer",
    "open_lake": "pdnkit.lake.upkeep",
    "compact": "pdnkit.lake.upkeep",
    "lake_summary": "pdnkit.lake.upkeep",
    "lake_lock": "pdnkit.lake.importer",
    "LakeFullError": "pdnkit.lake.importer",
    "is_lake": "pdnkit.store.lakeparts",
    "read_manifest": "pdnkit.store.lakeparts",
    "SourceEntry": "pdnkit.store.lakeparts",
    "LAKE_TABLES": "pdnkit.store.lakeparts",
    "damaged_parts": "pdnkit.store.lakeparts",
    "upgrade_lake": "pdnkit.store.lakeparts",
    "find_cut": "pdnkit.lake.cut",
    "plan_chunks": "pdnkit.lake.tasks",
    "run_chunk": "pdnkit.lake.tasks",
    "ChunkTask": "pdnkit.lake.tasks",
    "ChunkResult": "pdnkit.lake.tasks",
    "CHUNK_BYTES": "pdnkit.lake.tasks",
    "make_engine": "pdnkit.lake.engines",
    "Engine": "pdnkit.lake.engines",
    "LocalEngine": "pdnkit.lake.engines",
    "DaskEngine": "pdnkit.lake.engines",
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
