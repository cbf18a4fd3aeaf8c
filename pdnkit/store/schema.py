"""The pdnkit schema of a DuckDB database: ``schema.sql``, the check of a database's tables
against it (:func:`check_schema`), a new database's tables (:func:`ensure_schema`), the
``variants`` table, and the errors of a database that cannot be used.

A database of an older schema is never changed here: :mod:`pdnkit.store.upgrades` brings it
up to date on a copy (``pdnkit upgrade``).

Example:
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> check_schema(con), ensure_schema(con), check_schema(con)
    ('new', None, 'current')
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

from pdnkit.errors import PdnkitError
from pdnkit.store.transaction import rollback

if TYPE_CHECKING:
    import duckdb

#: the database a command uses when ``--db`` is not given
DEFAULT_DB = "pdnkit.duckdb"


def db_path(db: str | os.PathLike[str] | None) -> str:
    """The file a ``db`` argument names (``pdnkit.duckdb`` in the current folder for ``None``).

    Example:
        >>> db_path(None)
        'pdnkit.duckdb'
    """
    if db is None:
        return DEFAULT_DB
    return os.fspath(db)


def schema_sql() -> str:
    """The text of ``schema.sql`` (the table definitions).

    Example:
        >>> "CREATE TABLE IF NOT EXISTS games" in schema_sql()
        True
    """
    global _SCHEMA_TEXT
    if _SCHEMA_TEXT is None:
        _SCHEMA_TEXT = resources.files("pdnkit.store").joinpath("schema.sql").read_text(
            encoding="utf-8")
    return _SCHEMA_TEXT


_SCHEMA_TEXT: str | None = None
#: the ``pdnkit_meta`` key of the digest of the ``schema.sql`` a database was recorded with
#: (:func:`record_schema`): equal to this pdnkit's, the recorded columns are the schema's,
#: and opening the database checks them without deriving the schema again
SCHEMA_DIGEST = "schema_digest"


def schema_digest() -> str:
    """The sha256 of ``schema.sql`` (what :data:`SCHEMA_DIGEST` records).

    Example:
        >>> len(schema_digest())
        64
    """
    import hashlib

    return hashlib.sha256(schema_sql().encode("utf-8")).hexdigest()



class DatabaseError(PdnkitError):
    """The database cannot be used: in use by another process, not a DuckDB file, not
    writable, a full disk, or tables that no longer match the schema. The message says what
    happened and what to do (the CLI prints it as one ``pdnkit: error:`` line)."""


class SchemaError(DatabaseError):
    """The database's tables do not match the pdnkit schema (a table or column was dropped,
    or the database was made by a newer pdnkit). Never repaired silently."""


class UpgradeNeededError(SchemaError):
    """The database was made by an older pdnkit: a read command never rewrites it, and the
    message says to run ``pdnkit upgrade --db PATH`` (a write command upgrades it itself).

    Example:
        >>> str(UpgradeNeededError("g.duckdb", 4))[:60]
        'the database g.duckdb was made by an older pdnkit (schema ve'
    """

    def __init__(self, path: str, version: int) -> None:
        self.path = path
        self.version = version
        super().__init__(
            f"the database {path} was made by an older pdnkit (schema version {version}, "
            f"this pdnkit writes {SCHEMA_VERSION}); a read command never rewrites it: run "
            f"`pdnkit upgrade --db {path}` first (it works on a copy and keeps the original "
            f"as a backup), or any write command (import, query --write) upgrades it")


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
        pid = re.search(r"\(PID (\d+)\)", text)
        holder = text.split("Conflicting lock is held in", 1)[-1].split(" (PID", 1)[0].strip()
        program = f" {os.path.basename(holder)}" if holder and holder != text else ""
        who = f" (pid {pid.group(1)}{program})" if pid else ""
        return DatabaseError(
            f"the database {path} is in use by another process{who}, e.g. an import that "
            "is still running: wait until it ends, or use another --db; nothing was written")
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


def no_progress_bar(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """``con`` without DuckDB's progress bar, which DuckDB draws on standard output for a
    statement over two seconds whatever standard output is (a file or a pipe got 12 KB of
    bars from a 15 s statement, among the rows a command wrote there; a server's pipe left
    unread can fill). pdnkit's own bars go to standard error. Every connection pdnkit opens
    goes through here (a session setting: it cannot be given as the database opens, and a
    read-only connection is locked only after it). Where DuckDB refuses the setting (a file
    this process has open already, locked; a notebook without ``ipywidgets``) the
    connection is returned as it is.

    Example:
        >>> import duckdb
        >>> con = no_progress_bar(duckdb.connect())
        >>> con.execute("SELECT current_setting('enable_progress_bar')").fetchall()
        [(False,)]
    """
    import contextlib

    import duckdb

    # (refused: the database open already in this process, its settings locked; or a
    # notebook without ipywidgets)
    with contextlib.suppress(duckdb.Error):
        con.execute("SET enable_progress_bar = false")
    return con


#: the storage block of a database file pdnkit creates (DuckDB's default is 256 KB). Every
#: table and index takes at least one block, so a small database is mostly blocks' slack:
#: 64 KB blocks store 2,000 games in 5.6 MB instead of 8.1 MB, and 100,000 games in
#: 227.6 MB instead of 229.4 MB (benchmarks/search.py). Fixed when the
#: file is made: a database made before keeps its block size.
BLOCK_SIZE = 65536


def table_columns(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str]]]:
    """``{table: [(column, type), ...]}`` of the base tables of ``con``'s own database.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> _ = con.execute("CREATE TABLE t (a INTEGER)")
        >>> table_columns(con)
        {'t': [('a', 'INTEGER')]}
    """
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
        "SELECT 'view', view_name FROM duckdb_views() WHERE NOT internal "
        "AND schema_name = 'main' AND database_name = current_database() UNION "
        "SELECT 'macro', function_name FROM duckdb_functions() WHERE function_type = 'macro' "
        "AND NOT internal AND schema_name = 'main' "
        "AND database_name = current_database()").fetchall()
    return {(str(k), str(n)) for k, n in rows}


_REFERENCE: tuple[dict[str, list[tuple[str, str]]], set[tuple[str, str]]] | None = None


def _reference() -> tuple[dict[str, list[tuple[str, str]]], set[tuple[str, str]]]:
    """The columns of each table (computed once per process in an in-memory database), and
    the views and macros, of a fresh schema (read off its text: asking DuckDB for its macros
    lists every built-in function, 20-40 ms)."""
    global _REFERENCE
    if _REFERENCE is None:
        import duckdb

        mem = duckdb.connect(":memory:")
        mem.execute(schema_sql())
        _REFERENCE = (table_columns(mem), reference_objects())
        mem.close()
    return _REFERENCE


def reference_columns() -> dict[str, list[tuple[str, str]]]:
    """Columns of a fresh schema."""
    return _reference()[0]


def reference_objects() -> set[tuple[str, str]]:
    """The views and macros of a fresh schema (read off its text)."""
    global _OBJECTS
    if _OBJECTS is None:
        _OBJECTS = {(kind.lower(), name) for kind, name in re.findall(
            r"CREATE\s+(VIEW|MACRO)\s+IF\s+NOT\s+EXISTS\s+(\w+)", schema_sql(),
            re.IGNORECASE)}
    return _OBJECTS


_OBJECTS: set[tuple[str, str]] | None = None



#: the version of the schema this pdnkit writes (``pdnkit_meta``); 1 was every database made
#: before the version was stored, 2 stored ``moves`` as a table and ``position_bits`` with
#: its key (3: ``move_rows`` behind the ``moves`` view, the key derived; 4: the bitboards
#: ``UBIGINT`` with squares 65 and up in ``*_high`` columns; 5: ``games.result_source``, a
#: long game's text in ``raw_pieces``, the ``player_name`` lookup that no outer column can
#: capture; 6: the openings' columns ``games.opening_*``, ``novelty_ply``, ``novelty_from``
#: and the tables ``opening_tables``, ``opening_pending``; 7: the position index
#: ``position_index``; 8: the squares of each game ``game_squares``; 9: the opening counts
#: ``tree_counts`` and ``opening_counts``; 10: the squares of each stretch of a game's plies
#: ``game_stretches`` and the copies the counts left out, ``counts_copies``). Each step is a function of
#: :mod:`pdnkit.store.upgrades`. A database of an older version, or one that lacks a table,
#: column, view or macro of ``schema.sql``, is brought up to date by that module, on a copy
#: (``pdnkit upgrade``).
SCHEMA_VERSION = 10
#: the ``pdnkit_meta`` key that says the position index holds every stored position (its
#: value: the index's rows when last sorted; :mod:`pdnkit.store.posindex`)
INDEX_META = "position_index_sorted"
#: the ``pdnkit_meta`` key that says ``game_squares`` holds a row for every stored game
#: (:mod:`pdnkit.store.gamesquares`)
SQUARES_META = "game_squares_ready"
#: the ``pdnkit_meta`` key that says ``game_stretches`` holds the rows of every stored game
#: (:mod:`pdnkit.store.gamesquares`)
STRETCHES_META = "game_stretches_ready"
#: the tables a database made before the version was stored must have (the others are
#: created when missing; missing columns are added)
CORE_TABLES = ("files", "games")


def schema_meta(con: duckdb.DuckDBPyConnection, have: dict[str, list[tuple[str, str]]]
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
    have = table_columns(con)
    if not have:
        return "new"
    meta = schema_meta(con, have)
    if meta is not None and meta.get("schema_version") == str(SCHEMA_VERSION) \
            and meta.get(SCHEMA_DIGEST) == schema_digest():
        # recorded with this very schema: its columns are the schema's (nothing to derive)
        _check_lost(meta, have, name)
        return "current" if reference_objects() <= _objects(con) else "older"
    ref = reference_columns()
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
        # tables made by running schema.sql alone are current, only not recorded yet
        return "current" if _has_everything(con, have) else "older"
    version = int(meta.get("schema_version", "0") or 0)
    if version > SCHEMA_VERSION:
        raise SchemaError(f"{name} was made by a newer pdnkit (schema version {version}, this "
                          f"pdnkit knows {SCHEMA_VERSION}): upgrade pdnkit")
    _check_lost(meta, have, name)
    if version < SCHEMA_VERSION:
        return "older"
    return "current" if _has_everything(con, have) else "older"


def _check_lost(meta: dict[str, str], have: dict[str, list[tuple[str, str]]],
                name: str) -> None:
    """Raise :class:`SchemaError` when a table or column the database recorded is gone."""
    fix = (" pdnkit does not repair a database silently: restore it from a backup, or "
           "import the files again into a new --db")
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


def _has_everything(con: duckdb.DuckDBPyConnection, have: dict[str, list[tuple[str, str]]]
                    ) -> bool:
    """Whether the database has every table, column, view and macro of ``schema.sql``."""
    for table, cols in reference_columns().items():
        present = {c for c, _ in have.get(table, [])}
        if any(c not in present for c, _ in cols):
            return False
    return reference_objects() <= _objects(con)


def schema_record(have: dict[str, list[tuple[str, str]]]) -> dict[str, list[str]]:
    """The tables and columns of the schema a database has (what ``pdnkit_meta`` keeps)."""
    ref = reference_columns()
    return {t: [c for c, _ in have[t] if c in {x for x, _ in ref[t]}]
            for t in sorted(ref) if t in have}




def ensure_schema(con: duckdb.DuckDBPyConnection, name: str = "the database",
                  state: str | None = None) -> None:
    """Give a new database (no tables yet) every table, view and macro of the schema and its
    ``pdnkit_meta`` record; fill the ``variants`` table if it is empty. A current database
    only gets that check. A database of an older schema raises :class:`UpgradeNeededError`
    (it is never changed in place: :func:`pdnkit.store.upgrades.upgrade` works on a copy), a
    damaged one :class:`SchemaError` (:func:`check_schema`; ``state``: what it just said
    of ``con``, not asked again).

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> ensure_schema(con)
        >>> con.execute("SELECT count(*) FROM moves").fetchall()[0][0]
        0
        >>> con.execute("SELECT value FROM pdnkit_meta WHERE key = 'schema_version'").fetchall()
        [('10',)]
    """
    state = check_schema(con, name) if state is None else state
    if state == "older":
        raise UpgradeNeededError(name, schema_version(con))
    if state == "new":
        con.execute(schema_sql())
        # no position yet: the (empty) position index holds them all
        con.execute("INSERT OR REPLACE INTO pdnkit_meta VALUES (?, '0')", [INDEX_META])
        con.execute("INSERT OR REPLACE INTO pdnkit_meta VALUES (?, '1')", [SQUARES_META])
        con.execute("INSERT OR REPLACE INTO pdnkit_meta VALUES (?, '1')", [STRETCHES_META])
    record_schema(con, fresh=state == "new")
    if con.execute("SELECT count(*) FROM variants").fetchall()[0][0] == 0:
        ensure_variants(con)
    remove_incomplete(con)


def record_schema(con: duckdb.DuckDBPyConnection, fresh: bool = False) -> None:
    """Write the ``pdnkit_meta`` record of the tables and columns ``con`` has, under the
    current :data:`SCHEMA_VERSION` (only when it differs from what is stored); ``fresh``:
    ``con`` was just given ``schema.sql`` and holds nothing else (its tables are the
    schema's, no reference is derived to filter them)."""
    stored = dict(con.execute("SELECT key, value FROM pdnkit_meta").fetchall())
    digest = schema_digest()
    if stored.get("schema_version") == str(SCHEMA_VERSION) and \
            stored.get(SCHEMA_DIGEST) == digest and "columns" in stored:
        return  # recorded with this schema (check_schema found its columns there)
    have = table_columns(con)
    columns = ({t: [c for c, _ in have[t]] for t in sorted(have)} if fresh
               else schema_record(have))
    record = json.dumps(columns, sort_keys=True)
    if (stored.get("schema_version"), stored.get("columns"), stored.get(SCHEMA_DIGEST)) != (
            str(SCHEMA_VERSION), record, digest):
        con.execute("INSERT OR REPLACE INTO pdnkit_meta VALUES ('schema_version', ?), "
                    "('columns', ?), (?, ?)", [str(SCHEMA_VERSION), record, SCHEMA_DIGEST,
                                               digest])


def schema_version(con: duckdb.DuckDBPyConnection) -> int:
    """The schema version a database records (1: made before versions were stored).

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> ensure_schema(con); schema_version(con)
        10
    """
    meta = schema_meta(con, table_columns(con))
    if meta is None:
        return 1
    try:
        return int(meta.get("schema_version", "1") or 1)
    except ValueError:
        return 1



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
        for table in ("move_rows", "position_bits", "early_positions", "game_squares",
                      "game_stretches", "rule_events", "evals"):
            con.execute(f"DELETE FROM {table} WHERE game_id IN ({orphans})")
        con.execute("DELETE FROM findings WHERE file_id NOT IN (SELECT file_id FROM files)")
        con.execute("DELETE FROM games WHERE file_id NOT IN (SELECT file_id FROM files)")
        con.execute("COMMIT")
    except BaseException:
        rollback(con)  # (a failed COMMIT ended it already)
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
        rows.append({
            "name": r.name,
            "edition": r.edition,
            "title": r.title,
            "gametype": r.gametype,
            "gametype_full": r.gametype_full,
            "aliases": list(r.aliases),
            "board": f"{r.width}x{r.height}",
            "first_mover": None if r.first_mover is None else str(r.first_mover),
            "notation": r.notation,
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
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> con.execute(schema_sql()) and None
        >>> ensure_variants(con), ensure_variants(con)
        (True, False)
    """
    rows, digest = _variants_now()
    stored = con.execute("SELECT value FROM pdnkit_meta WHERE key = ?",
                         [VARIANTS_DIGEST]).fetchall()
    if stored and stored[0][0] == digest and con.execute(
            "SELECT count(*) FROM variants").fetchall()[0][0] == len(rows):
        return False
    refresh_variants(con, rows)
    con.execute("INSERT OR REPLACE INTO pdnkit_meta VALUES (?, ?)", [VARIANTS_DIGEST, digest])
    return True


_VARIANTS: tuple[tuple[object, ...], list[dict[str, Any]], str] | None = None


def _variants_now() -> tuple[list[dict[str, Any]], str]:
    """:func:`variant_rows` and their digest, derived again only when the registry holds
    other records than last time."""
    global _VARIANTS
    try:
        from pdnkit.rules import list_variants

        ids: tuple[object, ...] = (variant_rows, *map(id, list_variants()))
    except (ImportError, AttributeError):
        ids = (variant_rows,)
    if _VARIANTS is None or _VARIANTS[0] != ids:
        rows = variant_rows()
        _VARIANTS = (ids, rows, variants_digest(rows))
    return _VARIANTS[1], _VARIANTS[2]


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
    from pdnkit._arrow import pyarrow_module

    pa = pyarrow_module()
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
