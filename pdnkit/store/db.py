"""Opening a pdnkit database: the DuckDB connection (:func:`connect`, :func:`opened`).

Every public store function takes ``db`` as a path (``str`` or ``Path``), ``":memory:"``, an
open DuckDB connection, or ``None`` for ``pdnkit.duckdb`` in the current folder. The schema,
its check and the errors are :mod:`pdnkit.store.schema`'s (named here too, where the store's
modules have always found them); a database of an older schema is upgraded by
:mod:`pdnkit.store.upgrades`, on a copy, and only by a command that writes.

Example:
    >>> con = connect(":memory:")
    >>> {"files", "games", "file_paths"} <= {r[0] for r in con.execute("SHOW TABLES").fetchall()}
    True
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from pdnkit.errors import MissingFileError
from pdnkit.store.schema import (
    BLOCK_SIZE,
    DEFAULT_DB,
    SCHEMA_VERSION,
    DatabaseError,
    SchemaError,
    UpgradeNeededError,
    check_schema,
    database_error,
    db_path,
    ensure_schema,
    ensure_variants,
    no_progress_bar,
    refresh_variants,
    remove_incomplete,
    schema_sql,
    schema_version,
    variant_rows,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    import duckdb

__all__ = ["BLOCK_SIZE", "DEFAULT_DB", "READ_ONLY_CONFIG", "SCHEMA_VERSION", "TABLES",
           "DatabaseError", "DbLike", "SchemaError", "UpgradeNeededError", "check_schema",
           "connect", "database_error", "db_path", "ensure_schema", "ensure_variants",
           "opened", "refresh_variants", "remove_incomplete", "schema_sql", "variant_rows"]

#: every table of the schema, in load order
TABLES = ("files", "games", "raw_pieces", "move_rows", "position_bits", "findings",
          "rule_events", "variants", "file_paths", "pdnkit_meta")

DbLike = Union[str, Path, "duckdb.DuckDBPyConnection", None]


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


#: settings of every read-only connection: SQL cannot read or write files, attach other
#: databases or load extensions (``query``, ``export --where`` and the filters of ``stats``
#: run text from the command line); DuckDB's threads are the CPUs this process may use, and
#: the configuration is then locked, so no statement changes a setting (``SET
#: threads=1000000`` started threads until the process died, ``SET memory_limit='1TB'``,
#: ``SET lock_configuration=false``, ``SET enable_external_access=true`` ...)
READ_ONLY_CONFIG = {"enable_external_access": "false", "threads": str(_cpus()),
                    "lock_configuration": "true"}


def _open(path: str, read_only: bool, memory_limit: str | None = None
          ) -> duckdb.DuckDBPyConnection:
    import duckdb

    try:
        if read_only:
            config: dict[str, str | bool | int | float | list[str]] = dict(READ_ONLY_CONFIG)
            config["lock_configuration"] = "false"  # (locked below, once the bar is off)
            if memory_limit is not None:  # (unlocked until widened: session.read_once)
                config.update(memory_limit=memory_limit)
            con = duckdb.connect(path, read_only=True, config=config)
            no_progress_bar(con)
            if memory_limit is None and not con.execute(  # (locked already: a file this
                    "SELECT current_setting('lock_configuration')").fetchall()[0][0]:
                con.execute("SET lock_configuration = true")  # process has open, read-only)
            return con
        con = duckdb.connect(path, config={"default_block_size": str(BLOCK_SIZE)})
        no_progress_bar(con)
        return con
    except duckdb.Error as exc:
        raise database_error(exc, path) from None


def connect(db: DbLike = None, *, read_only: bool = False, must_exist: bool = False,
            memory_limit: str | None = None) -> duckdb.DuckDBPyConnection:
    """Open (and create if needed) a pdnkit database with every table of the schema.

    ``db`` is a path, ``":memory:"``, ``None`` (``pdnkit.duckdb`` here) or an open connection
    (returned as it is, after checking its tables, and creating them in a new database). The
    tables are checked against the schema (:func:`check_schema`): a database whose tables or
    columns were dropped is refused (:class:`SchemaError`). A database made by an older
    pdnkit is upgraded when it is opened for writing (:func:`pdnkit.store.upgrades.upgrade`:
    on a copy, swapped in whole, the original kept as ``NAME.schemaN.bak``; a notice on
    standard error says so) and refused with :class:`UpgradeNeededError` when it is opened
    ``read_only`` (a read never rewrites a database). ``must_exist=True`` raises
    ``FileNotFoundError`` for a database file that is not there (instead of creating an
    empty one). ``read_only=True`` opens without any write (a read-only file or folder
    works), with file access from SQL disabled and DuckDB's settings locked
    (:data:`READ_ONLY_CONFIG`); ``memory_limit`` (DuckDB's, e.g. ``"128MB"``) then bounds
    its buffer pool, where a path is opened read-only, the settings locked only once
    :func:`pdnkit.store.session.widen` gives it the default pool (the caller runs its own
    SQL alone on it until then: :func:`pdnkit.store.session.read_once`). A database
    that cannot be opened (in use by another process, damaged, not writable) raises
    :class:`DatabaseError`. A lake folder (written by ``pdnkit import --lake``) opens as an
    in-memory database whose tables are views over its Parquet parts
    (:func:`pdnkit.store.lakeview.open_lake`), where SQL reaches no file but the parts.

    Example:
        >>> con = connect(":memory:")
        >>> con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        0
    """
    import duckdb

    if isinstance(db, duckdb.DuckDBPyConnection):
        if _is_lake_connection(db):  # views over a Parquet lake: nothing to check
            return db
        if check_schema(db) != "current":  # a new one gets the schema, an older one refused
            ensure_schema(db)
        return db
    path = db_path(db)
    if path != ":memory:" and Path(path).is_dir() or "://" in path:
        from pdnkit.store.lakeview import is_lake, open_lake

        if is_lake(path):  # a Parquet lake: views over its parts, in memory
            return open_lake(path, schema=schema_sql(), setup=refresh_variants)
    if path != ":memory:":
        p = Path(path)
        if (must_exist or read_only) and not p.exists():
            raise MissingFileError(f"no pdnkit database at {p} (run `pdnkit import` first)")
        if p.exists() and not p.is_file():
            raise DatabaseError(f"{p} is not a file: give the database file with --db")
        if not read_only:
            p.parent.mkdir(parents=True, exist_ok=True)
    elif read_only:  # an in-memory database is always new: give it the schema
        read_only = False
    return _writable(path) if not read_only else _readable(path, memory_limit)


def _writable(path: str) -> duckdb.DuckDBPyConnection:
    """``path`` opened for writing, upgraded first when an older pdnkit made it."""
    import duckdb

    for attempt in range(2):
        con = _open(path, read_only=False)
        try:
            state = check_schema(con, path)
            if state == "older" and attempt == 0 and path != ":memory:":
                con.close()
                from pdnkit.store.upgrades import upgrade

                upgrade(path)  # on a copy, with a notice; then open the new file
                continue
            ensure_schema(con, path, state)
        except duckdb.Error as exc:
            con.close()
            raise database_error(exc, path, "update") from None
        except BaseException:
            con.close()
            raise
        return con
    raise AssertionError("unreachable")  # pragma: no cover


def _readable(path: str, memory_limit: str | None = None) -> duckdb.DuckDBPyConnection:
    """``path`` opened read-only; an older database is refused, never rewritten."""
    con = _open(path, True, memory_limit)
    try:
        if check_schema(con, path) == "current":
            return con
        version = schema_version(con)
    except BaseException:
        con.close()
        raise
    con.close()
    raise UpgradeNeededError(path, version)


def _is_lake_connection(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` was opened by :func:`pdnkit.lake.open_lake`."""
    return bool(con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = '_lake_chunks' "
        "AND table_catalog = current_database()").fetchall()[0][0])


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
