"""The DuckDB game database: ``connect``, ``import_files``, ``query``, ``export``,
``duplicates`` (with ``rule_copies``, ``rulings`` and ``merge``) and ``upgrade`` (the demo is :mod:`pdnkit.demo`, the samples
:mod:`pdnkit.samples`: both above or beside the store, so not named here).

The tables are described in ``schema.sql`` (and ``docs/schema.md``). Names are imported lazily.

Example:
    >>> from pdnkit.store import connect, query
    >>> con = connect(":memory:")
    >>> query("SELECT count(*) AS games FROM games", db=con)["games"].tolist()
    [0]
"""

from __future__ import annotations

from pdnkit._lazy import lazy_exports

_API: dict[str, str] = {
    "connect": "pdnkit.store.db",
    "DEFAULT_DB": "pdnkit.store.db",
    "DatabaseError": "pdnkit.store.db",
    "SchemaError": "pdnkit.store.db",
    "UpgradeNeededError": "pdnkit.store.db",
    "upgrade": "pdnkit.store.upgrades",
    "UpgradeResult": "pdnkit.store.upgrades",
    "register_fill": "pdnkit.store.upgrades",
    "version_step": "pdnkit.store.upgrades",
    "import_files": "pdnkit.store.ingest",
    "ImportSummary": "pdnkit.store.ingest",
    "FileResult": "pdnkit.store.ingest",
    "query": "pdnkit.store.ops",
    "query_stream": "pdnkit.store.ops",
    "Stream": "pdnkit.store.stream",
    "export": "pdnkit.store.ops",
    "duplicates": "pdnkit.store.ops",
    "duplicates_stream": "pdnkit.store.ops",
    "DuplicateStream": "pdnkit.store.copylist",
    "rule_copies": "pdnkit.store.copyrulings",
    "rulings": "pdnkit.store.copyrulings",
    "merge": "pdnkit.store.merging",
    "MergeResult": "pdnkit.store.merging",
    "summary_tables": "pdnkit.store.ops",
    # kept here for scripts that import them from the store; they live on higher floors
}

__all__ = sorted(_API)

__getattr__, __dir__ = lazy_exports(__name__, _API, globals())
