"""Opening a pdnkit database: the DuckDB connection, the schema and the ``variants`` table.

Every public store function takes ``db`` as a path (``str`` or ``Path``), ``":memory:"``, an
open DuckDB connection, or ``None`` for ``pdnkit.duckdb`` in the current folder.

Example:
    >>> con = connect(":memory:")
    >>> {"files", "games", "file_paths"} <= {r[0] for r in con.execute("SHOW TABLES").fetchall()}
    True
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from pdnkit.errors import PdnkitError
from pdnkit.tables.compact import MOVE_ROWS_SELECT

if TYPE_CHECKING:
    from collections.abc import Iterator

    import duckdb

#: the database a command uses when ``--db`` is not given
DEFAULT_DB = "pdnkit.duckdb"

#: every table of the schema, in load order
TABLES = ("files", "games", "move_rows", "position_bits", "findings", "rule_events", "variants",
          "file_paths", "pdnkit_meta")

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


class DatabaseError(PdnkitError):
    """The database cannot be used: in use by another process, not a DuckDB file, not
    writable, a full disk, or tables that no longer match the schema. The message says what
    happened and what to do (the CLI prints it as one ``pdnkit: error:`` line)."""


class SchemaError(DatabaseError):
    """The database's tables do not match the pdnkit schema (a table or column was dropped,
    or the database was made by a newer pdnkit). Never repaired silently."""


def database_error(exc: BaseException, path: str, doing: str = "open") -> DatabaseError:
    """A :class:`DatabaseError` that says in one sentence what a DuckDB (or OS) error means
    for the database ``path`` and what to do about it.

    Example:
        >>> str(database_error(OSError(28, "No space left on device"), "g.duckdb", "write"))[:50]
        'cannot write the database g.duckdb: the disk is fu'
    """
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    low = text.lower()
    if "could not set lock" in low or "conflicting lock" in low:
        holder = text.split("Conflicting lock is held in", 1)[-1].split(". See", 1)[0].strip()
        who = f" ({holder})" if holder and holder != text else ""
        return DatabaseError(
            f"the database {path} is in use by another process{who}, e.g. an import that "
            "is still running: wait until it ends, or use another --db")
    if "not a valid duckdb database" in low or "database file" in low and "version" in low \
            or "corrupt" in low or "checksum" in low:
        return DatabaseError(
            f"{path} is not a readable pdnkit/DuckDB database (damaged, or not a database "
            f"at all: {first}); pdnkit leaves it untouched: give another --db, or move it "
            "away and import again")
    if "no space left" in low or "file too large" in low or "disk quota" in low \
            or getattr(exc, "errno", None) in (28, 27, 122):
        return DatabaseError(
            f"cannot {doing} the database {path}: the disk is full ({first}); what was "
            "being written was rolled back (files loaded before are kept): free some space "
            "and run the command again")
    if "read-only file system" in low or "permission denied" in low \
            or getattr(exc, "errno", None) in (13, 30, 1):
        return DatabaseError(
            f"cannot {doing} the database {path}: no write access ({first}); make the file "
            "and its folder writable, or use another --db (read commands work without)")
    return DatabaseError(f"cannot {doing} the database {path}: {first}")


def _is_duckdb_error(exc: BaseException) -> bool:
    return type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb")


#: settings of every read-only connection: SQL cannot read or write files, attach other
#: databases or load extensions (``query``, ``export --where`` and the filters of ``stats``
#: run text from the command line)
READ_ONLY_CONFIG = {"enable_external_access": "false"}


#: the storage block of a database file pdnkit creates (DuckDB's default is 256 KB). Every
#: table and index takes at least one block, so a small database is mostly blocks' slack:
#: 64 KB blocks store 2,000 games in 5.6 MB instead of 8.1 MB, and 100,000 games in
#: 227.6 MB instead of 229.4 MB (benchmarks/search.py). Fixed when the
#: file is made: a database made before keeps its block size.
BLOCK_SIZE = 65536


def _open(path: str, read_only: bool) -> duckdb.DuckDBPyConnection:
    import duckdb

    try:
        if read_only:
            return duckdb.connect(path, read_only=True, config=dict(READ_ONLY_CONFIG))
        return duckdb.connect(path, config={"default_block_size": str(BLOCK_SIZE)})
    except duckdb.Error as exc:
        raise database_error(exc, path) from None


def connect(db: DbLike = None, *, read_only: bool = False,
            must_exist: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (and create if needed) a pdnkit database with every table of the schema.

    ``db`` is a path, ``":memory:"``, ``None`` (``pdnkit.duckdb`` here) or an open connection
    (returned as it is, after checking its tables and creating them if needed). The tables are checked against
    the schema (:func:`check_schema`): a database whose tables or columns were dropped is
    refused (:class:`SchemaError`), one made by an older pdnkit gets the tables and columns
    added since. ``must_exist=True`` raises ``FileNotFoundError`` for a database file that is
    not there (instead of creating an empty one). ``read_only=True`` opens without any write
    (a read-only file or folder works) and with file access from SQL disabled
    (:data:`READ_ONLY_CONFIG`). A database that cannot be opened (in use by another process,
    damaged, not writable) raises :class:`DatabaseError`.
    A lake folder (written by ``pdnkit import --lake``) opens as an in-memory database whose
    tables are views over its Parquet parts (:func:`pdnkit.lake.open_lake`).

    Example:
        >>> con = connect(":memory:")
        >>> con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        0
    """
    import duckdb

    if isinstance(db, duckdb.DuckDBPyConnection):
        if _is_lake_connection(db):  # views over a Parquet lake: nothing to check
            return db
        if check_schema(db) != "current":  # (a read-only connection is never written)
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
            raise FileNotFoundError(f"no pdnkit database at {p} (run `pdnkit import` first)")
        if p.exists() and not p.is_file():
            raise DatabaseError(f"{p} is not a file: give the database file with --db")
        if not read_only:
            p.parent.mkdir(parents=True, exist_ok=True)
    elif read_only:  # an in-memory database is always new: give it the schema
        read_only = False
    if not read_only:
        con = _open(path, read_only=False)
        try:
            ensure_schema(con, path)
        except duckdb.Error as exc:
            con.close()
            raise database_error(exc, path, "update") from None
        except BaseException:
            con.close()
            raise
        return con
    con = _open(path, read_only=True)
    try:
        state = check_schema(con, path)
    except BaseException:
        con.close()
        raise
    if state == "current":
        return con
    con.close()  # made by an older pdnkit: add what is missing once, then read
    try:
        connect(path).close()
    except DatabaseError as exc:
        raise SchemaError(
            f"the database {path} was made by an older pdnkit and needs new tables or "
            f"columns, but it cannot be updated ({exc}); open it once with write access "
            f"(e.g. `pdnkit query --write --db {path} \"SELECT 1\"`)") from None
    return _open(path, read_only=True)


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


def _columns(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str]]]:
    rows = con.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' AND table_catalog = current_database() "
        "AND table_name IN (SELECT table_name FROM information_schema.tables "
        "WHERE table_type = 'BASE TABLE' AND table_schema = 'main' "
        "AND table_catalog = current_database()) "
        "ORDER BY table_name, ordinal_position"
    ).fetchall()
    out: dict[str, list[tuple[str, str]]] = {}
    for table, column, dtype in rows:
        out.setdefault(table, []).append((column, dtype))
    return out


def _objects(con: duckdb.DuckDBPyConnection) -> set[tuple[str, str]]:
    """The views and macros of a database: ``("view", name)``, ``("macro", name)``."""
    rows = con.execute(
        "SELECT 'view', table_name FROM information_schema.tables WHERE table_type = 'VIEW' "
        "AND table_schema = 'main' AND table_catalog = current_database() UNION "
        "SELECT 'macro', function_name FROM duckdb_functions() WHERE function_type = 'macro' "
        "AND schema_name = 'main' AND database_name = current_database()").fetchall()
    return {(str(k), str(n)) for k, n in rows}


_REFERENCE: tuple[dict[str, list[tuple[str, str]]], set[tuple[str, str]]] | None = None


def _reference() -> tuple[dict[str, list[tuple[str, str]]], set[tuple[str, str]]]:
    """The columns of each table (computed once per process in an in-memory database), and
    the views and macros, of a fresh schema (read off its text: asking DuckDB for its macros
    lists every built-in function, 20-40 ms)."""
    global _REFERENCE
    if _REFERENCE is None:
        import duckdb

        text = schema_sql()
        mem = duckdb.connect(":memory:")
        mem.execute(text)
        objects = {(kind.lower(), name) for kind, name in re.findall(
            r"CREATE\s+(VIEW|MACRO)\s+IF\s+NOT\s+EXISTS\s+(\w+)", text, re.IGNORECASE)}
        _REFERENCE = (_columns(mem), objects)
        mem.close()
    return _REFERENCE


def _reference_columns() -> dict[str, list[tuple[str, str]]]:
    """Columns of a fresh schema."""
    return _reference()[0]


def _reference_objects() -> set[tuple[str, str]]:
    """The views and macros of a fresh schema."""
    return _reference()[1]


#: the version of the schema this pdnkit writes (``pdnkit_meta``); 1 was every database made
#: before the version was stored, 2 stored ``moves`` as a table and ``position_bits`` with
#: its key (3: ``move_rows`` behind the ``moves`` view, the key derived; 4: the bitboards
#: ``UBIGINT`` with squares 65 and up in ``*_high`` columns: :func:`_upgrade`).
#: Columns and tables added to ``schema.sql`` need no new version: they are recorded in
#: ``pdnkit_meta`` and added to older databases.
SCHEMA_VERSION = 4
#: the tables a database made before the version was stored must have (the others are
#: created when missing; missing columns are added)
CORE_TABLES = ("files", "games")


def _meta(con: duckdb.DuckDBPyConnection, have: dict[str, list[tuple[str, str]]]
          ) -> dict[str, str] | None:
    """The ``pdnkit_meta`` facts, or ``None`` when the schema was never recorded (a database
    made before the version was stored, or tables made by running ``schema.sql`` alone)."""
    if "pdnkit_meta" not in have:
        return None
    meta = {k: v for k, v in con.execute("SELECT key, value FROM pdnkit_meta").fetchall()}
    return meta if "columns" in meta else None


def check_schema(con: duckdb.DuckDBPyConnection, name: str = "the database") -> str:
    """Compare a database's tables with the schema: ``"current"`` (nothing to do),
    ``"older"`` (tables or columns that ``schema.sql`` added since must be created) or
    ``"new"`` (no tables yet). Raises :class:`SchemaError` for a database whose recorded
    tables or columns are gone (dropped by hand), one made by a newer pdnkit, one without a
    version that lacks a core table, and a DuckDB file that is not a pdnkit database. The
    expected tables and columns come from ``schema.sql`` itself.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> check_schema(con)
        'new'
        >>> ensure_schema(con); check_schema(con)
        'current'
        >>> _ = con.execute("ALTER TABLE games DROP COLUMN raw_pdn")
        >>> try:
        ...     check_schema(con)
        ... except SchemaError as exc:
        ...     print(str(exc)[:58])
        the database does not match the pdnkit schema: column game
    """
    have = _columns(con)
    ref = _reference_columns()
    if not have:
        return "new"
    meta = _meta(con, have)
    fix = (" pdnkit does not repair a database silently: restore it from a backup, or "
           "import the files again into a new --db")
    if meta is None:
        if not set(have) & set(ref):
            raise SchemaError(f"{name} is a DuckDB database but not a pdnkit one (none of "
                              "its tables is a pdnkit table): give another --db")
        missing = [t for t in CORE_TABLES if t not in have]
        if missing:
            raise SchemaError(f"{name} does not match the pdnkit schema: table(s) "
                              f"{', '.join(missing)} missing." + fix)
        return "older"
    version = int(meta.get("schema_version", "0") or 0)
    if version > SCHEMA_VERSION:
        raise SchemaError(f"{name} was made by a newer pdnkit (schema version {version}, this "
                          f"pdnkit knows {SCHEMA_VERSION}): upgrade pdnkit")
    try:
        recorded: dict[str, list[str]] = json.loads(meta["columns"])
    except ValueError:
        raise SchemaError(f"{name} has a damaged pdnkit_meta table (no record of its "
                          "columns)." + fix) from None
    lost = [f"table {t}" for t in recorded if t not in have]
    lost += [f"column {t}.{c}" for t, cols in recorded.items() if t in have
             for c in cols if c not in {x for x, _ in have[t]}]
    if lost:
        raise SchemaError(f"{name} does not match the pdnkit schema: {', '.join(lost)} "
                          "dropped." + fix)
    if version < SCHEMA_VERSION or _objects(con) < _reference_objects():
        return "older"  # (views and macros a newer schema.sql added are created too)
    for table, cols in ref.items():
        present = {c for c, _ in have.get(table, [])}
        if any(c not in present for c, _ in cols):
            return "older"
    return "current"


def _record(have: dict[str, list[tuple[str, str]]]) -> dict[str, list[str]]:
    """The tables and columns of the schema a database has (what ``pdnkit_meta`` keeps)."""
    ref = _reference_columns()
    return {t: [c for c, _ in have[t] if c in {x for x, _ in ref[t]}]
            for t in sorted(ref) if t in have}


def ensure_schema(con: duckdb.DuckDBPyConnection, name: str = "the database") -> None:
    """Check the tables (:func:`check_schema`: a dropped table or column raises
    :class:`SchemaError`), create missing tables and add columns that a newer schema
    defines (never drops or renames anything), record the schema in ``pdnkit_meta``, then
    fill the ``variants`` table if it is empty.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> ensure_schema(con)
        >>> con.execute("SELECT count(*) FROM moves").fetchall()[0][0]
        0
        >>> con.execute("SELECT value FROM pdnkit_meta WHERE key = 'schema_version'").fetchall()
        [('4',)]
    """
    state = check_schema(con, name)
    if state != "current":
        had_paths = "file_paths" in _columns(con)
        con.execute(schema_sql())
        _upgrade(con)
        have = _columns(con)
        for table, cols in _reference_columns().items():
            present = {c for c, _ in have.get(table, [])}
            for col, dtype in cols:
                if col not in present:
                    con.execute(f'ALTER TABLE "{table}" ADD COLUMN "{col}" {dtype}')
        if not had_paths:  # an older database: every file's path so far
            con.execute("INSERT INTO file_paths SELECT file_id, path, imported_at FROM files")
    record = json.dumps(_record(_columns(con)), sort_keys=True)
    stored = dict(con.execute("SELECT key, value FROM pdnkit_meta").fetchall())
    if (stored.get("schema_version"), stored.get("columns")) != (str(SCHEMA_VERSION), record):
        con.execute("INSERT OR REPLACE INTO pdnkit_meta VALUES ('schema_version', ?), "
                    "('columns', ?)", [str(SCHEMA_VERSION), record])
    if con.execute("SELECT count(*) FROM variants").fetchall()[0][0] == 0:
        refresh_variants(con)
    remove_incomplete(con)


def _upgrade(con: duckdb.DuckDBPyConnection) -> None:
    """Bring a database made before schema version 3 to the current layout (the schema's
    new tables, views and macros already created): the rows of a ``moves`` table move to
    ``move_rows`` (:data:`MOVE_ROWS_SELECT`) and the table gives way to the ``moves`` view;
    the stored ``position_bits.position_key`` is dropped (the ``positions`` view derives it
    from the bitboards); ``HUGEINT`` bitboards (before version 4) become ``UBIGINT``
    columns of squares 1-64 and ``*_high`` columns of squares 65 and up
    (:func:`_split_bits`). Nothing is lost: the views give back every column as it was.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> _ = con.execute(schema_sql())
        >>> _upgrade(con)  # already current: nothing to do
        >>> con.execute("SELECT table_type FROM information_schema.tables "
        ...             "WHERE table_name = 'moves'").fetchall()
        [('VIEW',)]
    """
    kinds = dict(con.execute(
        "SELECT table_name, table_type FROM information_schema.tables "
        "WHERE table_schema = 'main' AND table_catalog = current_database()").fetchall())
    changed = False
    if kinds.get("moves") == "BASE TABLE":
        con.execute(f"INSERT INTO move_rows BY NAME SELECT {MOVE_ROWS_SELECT} FROM moves")
        con.execute("DROP TABLE moves")
        changed = True
    bits = {c for c, _ in _columns(con).get("position_bits", [])}
    if "position_key" in bits:
        if kinds.get("positions") == "VIEW":
            con.execute("DROP VIEW positions")
        con.execute("ALTER TABLE position_bits DROP COLUMN position_key")
        changed = True
    if dict(_columns(con).get("position_bits", [])).get("wm") == "HUGEINT":
        if kinds.get("positions") == "VIEW":
            con.execute("DROP VIEW IF EXISTS positions")
        _split_bits(con)
        changed = True
    if changed:  # the views that stood in for the tables and columns changed
        con.execute(schema_sql())


def _split_bits(con: duckdb.DuckDBPyConnection) -> None:
    """Turn the ``HUGEINT`` bitboards of ``position_bits`` (schema version 3) into the
    ``UBIGINT`` columns of squares 1-64 and, on boards of more than 64 squares, the
    ``*_high`` columns of squares 65 and up, column by column (a checkpoint after each
    writes it out: the file grows by less than the old columns' size, and the space they
    leave is reused by later imports)."""
    from pdnkit.tables.bitboards import HIGH_COLUMNS, LOW_WORD

    wide = "layout IN (SELECT layout FROM layouts WHERE squares > 64)"
    for col, high in HIGH_COLUMNS.items():
        con.execute(f"ALTER TABLE position_bits ADD COLUMN IF NOT EXISTS {high} UBIGINT")
        con.execute(f"UPDATE position_bits SET {high} = ({col} >> 64)::UBIGINT WHERE {wide}")
        con.execute(f"ALTER TABLE position_bits ALTER {col} TYPE UBIGINT "
                    f"USING ({col} & {LOW_WORD}::HUGEINT)::UBIGINT")
        con.execute("CHECKPOINT")


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
        for table in ("move_rows", "position_bits", "rule_events"):
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


#: the ``pdnkit_meta`` key of the digest of the rules records the ``variants`` table was
#: written from (:func:`ensure_variants`)
VARIANTS_DIGEST = "variants_digest"


def variants_digest(rows: list[dict[str, Any]]) -> str:
    """A digest of ``rows`` (:func:`variant_rows`): equal digests, equal ``variants`` tables.

    Example:
        >>> variants_digest(variant_rows()) == variants_digest(variant_rows())
        True
    """
    import hashlib

    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode("utf-8")).hexdigest()


def ensure_variants(con: duckdb.DuckDBPyConnection) -> bool:
    """Write the ``variants`` table only when the rules records changed since it was written
    (their digest is kept in ``pdnkit_meta``, :data:`VARIANTS_DIGEST`); returns whether it
    wrote. Opening a database for an import no longer re-derives what it already stores.

    Example:
        >>> con = connect(":memory:")
        >>> ensure_variants(con), ensure_variants(con)
        (True, False)
    """
    rows = variant_rows()
    digest = variants_digest(rows)
    stored = con.execute("SELECT value FROM pdnkit_meta WHERE key = ?",
                         [VARIANTS_DIGEST]).fetchall()
    if stored and stored[0][0] == digest and con.execute(
            "SELECT count(*) FROM variants").fetchall()[0][0] == len(rows):
        return False
    refresh_variants(con, rows)
    con.execute("INSERT OR REPLACE INTO pdnkit_meta VALUES (?, ?)", [VARIANTS_DIGEST, digest])
    return True


def refresh_variants(con: duckdb.DuckDBPyConnection,
                     rows: list[dict[str, Any]] | None = None) -> int:
    """Rewrite the ``variants`` table from the rules registry (or from ``rows``, as
    :func:`variant_rows` gives them); returns the number of rows.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> con.execute(schema_sql()) and None
        >>> refresh_variants(con) == len(variant_rows())
        True
    """
    rows = variant_rows() if rows is None else rows
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
