"""Every table of a database as rows, for tests that hold two imports of the same files to
each other (one process against workers, the compiled core against the pure one)."""

from __future__ import annotations

from pathlib import Path

import duckdb

#: what differs between two imports of the same files
TIMES = ("imported_at", "created_at", "started", "finished", "seconds", "elapsed")


def tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every base table of ``db``, its rows sorted (times left out)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        names = [r[0] for r in con.execute("select table_name from information_schema.tables "
                                           "where table_type = 'BASE TABLE'").fetchall()]
        for t in names:
            cols = con.execute("select column_name, data_type from information_schema.columns"
                               " where table_name = ?", [t]).fetchall()
            keep = [c for c, kind in cols if c not in TIMES and not c.endswith("_at")
                    and not kind.upper().startswith(("TIMESTAMP", "DATE", "TIME"))]
            out[t] = con.execute(f"select {', '.join(keep)} from {t} order by all").fetchall()
        return out
    finally:
        con.close()
