"""Opening a pdnkit database: the DuckDB connection, the schema and the ``variants`` table.

Every public store function takes ``db`` as a path (``str`` or ``Path``), ``":memory:"``, an
open DuckDB connection, or ``None`` for ``pdnkit.duckdb`` in the current folder.

Example:
    >>> con = connect(":memory:")
    >>> sorted(r[0] for r in con.execute("SHOW TABLES").fetchall())[:3]
    ['files', 'findings', 'games']
"""

from __future__ import annotations

import dataclasses
import enum
import json
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from collections.abc import Iterator

    import duckdb

#: the database a command uses when ``--db`` is not given
DEFAULT_DB = "pdnkit.duckdb"

#: every table of the schema, in load order
TABLES = ("files", "games", "moves", "positions", "findings", "rule_events", "variants")

DbLike = Union[str, Path, "duckdb.DuckDBPyConnection", None]


def schema_sql() -> str:
    """The text of ``schema.sql`` (the table definitions).

    Example:
        >>> "CREATE TABLE IF NOT EXISTS games" in schema_sql()
        True
    """
    return resources.files("pdnkit.store").joinpath("schema.sql").read_text(encoding="utf-8")


def db_path(db: str | Path | None) -> str:
    """The file a ``db`` argument names (``pdnkit.duckdb`` in the current folder for ``None``).

    Example:
        >>> db_path(None)
        'pdnkit.duckdb'
    """
    if db is None:
        return DEFAULT_DB
    return str(db)


def connect(db: DbLike = None, *, read_only: bool = False,
            must_exist: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (and create if needed) a pdnkit database with every table of the schema.

    ``db`` is a path, ``":memory:"``, ``None`` (``pdnkit.duckdb`` here) or an open connection
    (returned as it is, after making sure the schema exists). An older database gets the columns
    added to the schema since it was made. ``must_exist=True`` raises ``FileNotFoundError`` for
    a database file that is not there (instead of creating an empty one). A lake folder
    (written by ``pdnkit import --lake``) opens as an in-memory database whose tables are views
    over its Parquet parts (:func:`pdnkit.store.lake.open_lake`).

    Example:
        >>> con = connect(":memory:")
        >>> con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        0
    """
    import duckdb

    if isinstance(db, duckdb.DuckDBPyConnection):
        ensure_schema(db)
        return db
    path = db_path(db)
    if path != ":memory:" and Path(path).is_dir() or "://" in path:
        from pdnkit.store.lake import is_lake, open_lake

        if is_lake(path):  # a Parquet lake: views over its parts, in memory
            return open_lake(path)
    if path != ":memory:":
        p = Path(path)
        if (must_exist or read_only) and not p.exists():
            raise FileNotFoundError(f"no pdnkit database at {p} (run `pdnkit import` first)")
        if not read_only:
            p.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(path, read_only=read_only)
    if not read_only:
        ensure_schema(con)
    return con


@contextmanager
def opened(db: DbLike, **kwargs: Any) -> Iterator[duckdb.DuckDBPyConnection]:
    """Context manager around :func:`connect` that closes only connections it opened itself.

    Example:
        >>> with opened(":memory:") as con:
        ...     con.execute("SELECT count(*) FROM files").fetchall()[0][0]
        0
    """
    import duckdb

    if isinstance(db, duckdb.DuckDBPyConnection):
        yield connect(db)
        return
    con = connect(db, **kwargs)
    try:
        yield con
    finally:
        con.close()


def _columns(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str]]]:
    rows = con.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
    ).fetchall()
    out: dict[str, list[tuple[str, str]]] = {}
    for table, column, dtype in rows:
        out.setdefault(table, []).append((column, dtype))
    return out


_REFERENCE: dict[str, list[tuple[str, str]]] | None = None


def _reference_columns() -> dict[str, list[tuple[str, str]]]:
    """Columns of a fresh schema (computed once per process in an in-memory database)."""
    global _REFERENCE
    if _REFERENCE is None:
        import duckdb

        mem = duckdb.connect(":memory:")
        mem.execute(schema_sql())
        _REFERENCE = _columns(mem)
        mem.close()
    return _REFERENCE


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create missing tables and add columns that a newer schema defines (never drops or
    renames anything), then fill the ``variants`` table if it is empty.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> ensure_schema(con)
        >>> con.execute("SELECT count(*) FROM moves").fetchall()[0][0]
        0
    """
    con.execute(schema_sql())
    have = _columns(con)
    for table, cols in _reference_columns().items():
        present = {c for c, _ in have.get(table, [])}
        for col, dtype in cols:
            if col not in present:
                con.execute(f'ALTER TABLE "{table}" ADD COLUMN "{col}" {dtype}')
    if con.execute("SELECT count(*) FROM variants").fetchall()[0][0] == 0:
        refresh_variants(con)
    remove_incomplete(con)


def remove_incomplete(con: duckdb.DuckDBPyConnection) -> int:
    """Delete the rows of games whose file has no ``files`` row. An import loads each file in
    one transaction, so this finds nothing, except in a database written by an older pdnkit
    that committed a large file in slices and was killed in the middle. Returns the number of
    games removed.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> con.execute(schema_sql()) and None
        >>> remove_incomplete(con)
        0
    """
    orphans = "SELECT game_id FROM games WHERE file_id NOT IN (SELECT file_id FROM files)"
    n = con.execute(f"SELECT count(*) FROM ({orphans})").fetchall()[0][0]
    if n == 0:
        return 0
    con.execute("BEGIN TRANSACTION")
    try:
        for table in ("moves", "positions", "rule_events"):
            con.execute(f"DELETE FROM {table} WHERE game_id IN ({orphans})")
        con.execute("DELETE FROM findings WHERE file_id NOT IN (SELECT file_id FROM files)")
        con.execute("DELETE FROM games WHERE file_id NOT IN (SELECT file_id FROM files)")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return int(n)


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return str(value) if isinstance(value, int) else value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def variant_rows() -> list[dict[str, Any]]:
    """One row per registered rules record (``list_variants()``), shaped like the ``variants``
    table. Empty when the rules engine is not available.

    Example:
        >>> rows = variant_rows()
        >>> all("name" in r and "settings" in r for r in rows)
        True
    """
    try:
        from pdnkit.rules import list_variants

        variants = list_variants()
    except (ImportError, AttributeError):
        return []
    rows = []
    for r in variants:
        settings: dict[str, Any] = {}
        if dataclasses.is_dataclass(r):
            for f in dataclasses.fields(r):
                settings[f.name] = _jsonable(getattr(r, f.name))
        first = getattr(r, "first_mover", None)
        rows.append({
            "name": r.name,
            "edition": getattr(r, "edition", None),
            "title": getattr(r, "title", None),
            "gametype": getattr(r, "gametype", None),
            "gametype_full": getattr(r, "gametype_full", None),
            "aliases": list(getattr(r, "aliases", ()) or ()),
            "board": f"{r.width}x{r.height}" if hasattr(r, "width") else None,
            "first_mover": None if first is None else str(first),
            "notation": getattr(r, "notation", None),
            "settings": json.dumps(settings, sort_keys=True),
        })
    return rows


def refresh_variants(con: duckdb.DuckDBPyConnection) -> int:
    """Rewrite the ``variants`` table from the rules registry; returns the number of rows.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> con.execute(schema_sql()) and None
        >>> refresh_variants(con) == len(variant_rows())
        True
    """
    rows = variant_rows()
    if not rows:
        return 0
    import pyarrow as pa

    s = pa.string()
    table = pa.Table.from_pylist(rows, schema=pa.schema([
        ("name", s), ("edition", s), ("title", s), ("gametype", pa.int32()),
        ("gametype_full", s), ("aliases", pa.list_(s)), ("board", s), ("first_mover", s),
        ("notation", s), ("settings", s)]))
    con.register("_pdnkit_variants", table)
    try:
        con.execute("DELETE FROM variants")
        con.execute("INSERT INTO variants BY NAME SELECT * FROM _pdnkit_variants")
    finally:
        con.unregister("_pdnkit_variants")
    return len(rows)
