"""The one way the read side opens a database: ``with reading(db) as con:``.

``db`` is a :data:`DbLike`, the same everywhere on the read side:

* a path (``str`` or ``os.PathLike``), or ``None`` for ``pdnkit.duckdb`` in the current folder:
  opened read-only with :func:`pdnkit.store.connect` (a database of an older schema is
  refused with :class:`pdnkit.store.UpgradeNeededError`, never rewritten by a read) and
  closed when the block ends, so a later writer can open the file;
* a lake folder (``pdnkit import --lake``): opened as ``connect`` opens it (an in-memory
  database whose tables are views over its Parquet parts, reaching no other file), closed at
  the end;
* ``":memory:"``: a new empty database with the schema, closed at the end;
* an open DuckDB connection: used as it is and left open (the caller owns it).

Every connection the block gets can call ``player_name()`` (the player a White/Black name
stands for): a connection whose database predates player identities gets a temporary, empty
alias table and the macro for the session (:func:`ensure_names`).

:func:`writing` is the same for the one writer of the read side (player aliases): a path is
opened read-write (an older database is upgraded first, with a notice) and closed at the
end, and a lake is refused, since nothing written into its in-memory views would be kept.

Example:
    >>> with reading(":memory:") as con:
    ...     con.execute("SELECT count(*) FROM games").fetchall()
    [(0,)]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeAlias, TypeVar, Union

from pdnkit.errors import PdnkitError

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["PLACEHOLDERS", "READ_ONCE_MEMORY", "DbLike", "LakeIsReadOnlyError", "ensure_names",
           "is_lake", "read_once", "reading", "scanning", "widen", "writing"]

T = TypeVar("T")

#: a database as every reader takes it: a path, ``None`` (the default database) or an open
#: DuckDB connection
DbLike: TypeAlias = Union[str, "os.PathLike[str]", "duckdb.DuckDBPyConnection", None]

#: names (lower case, trimmed) that stand for no player; the same list as the SQL macro
#: ``player_name`` in ``schema.sql``
PLACEHOLDERS = frozenset({"", "?", "??", "-", "white", "black", "red", "n.n.", "n.n", "nn",
                          "unknown", "anonymous"})

_MACRO = (  # the lookup under names no query uses, as in schema.sql
    "CREATE TEMP MACRO player_name(n) AS coalesce("
    "(SELECT any_value(pdnkit_pa.pdnkit_target) FROM (SELECT alias AS pdnkit_alias, "
    "name AS pdnkit_target FROM temp.player_aliases) pdnkit_pa "
    "WHERE pdnkit_pa.pdnkit_alias = trim(n)), "
    "CASE WHEN n IS NULL OR lower(trim(n)) IN ("
    + ", ".join(f"'{p}'" for p in sorted(PLACEHOLDERS)) + ") THEN NULL ELSE trim(n) END)")


class LakeIsReadOnlyError(PdnkitError, ValueError):
    """A write the read side cannot make on a Parquet lake (its tables are views)."""


def ensure_names(con: duckdb.DuckDBPyConnection) -> None:
    """Make ``player_name()`` available on ``con``: a database made before player identities,
    opened read-only, gets a temporary (empty) alias table and the macro for this session.

    Example:
        >>> import duckdb
        >>> con = duckdb.connect()
        >>> ensure_names(con)
        >>> con.execute("SELECT player_name('?'), player_name(' Ann ')").fetchall()
        [(None, 'Ann')]
    """
    import duckdb

    try:
        con.execute("SELECT player_name(NULL)").fetchall()
        return
    except duckdb.Error:  # a database made before player identities
        pass
    con.execute("CREATE TEMP TABLE IF NOT EXISTS player_aliases (alias VARCHAR, name VARCHAR)")
    con.execute(_MACRO)


def is_lake(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` reads a Parquet lake (views over its parts in an in-memory database).

    Example:
        >>> import duckdb
        >>> is_lake(duckdb.connect())
        False
    """
    return bool(con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = '_lake_chunks' "
        "AND table_catalog = current_database()").fetchall()[0][0])


@contextmanager
def reading(db: DbLike = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to ``db`` for the ``with`` block (see the module's text): what
    it opens it closes, a connection it is given it leaves open.

    Example:
        >>> import duckdb
        >>> mine = duckdb.connect()
        >>> with reading(mine) as con:
        ...     con is mine
        True
        >>> mine.execute("SELECT player_name('Red')").fetchall()  # still open
        [(None,)]
    """
    import duckdb

    if isinstance(db, duckdb.DuckDBPyConnection):  # the caller's: left open
        ensure_names(db)
        yield db
        return
    from pdnkit.store import connect

    path = os.fspath(db) if db is not None else None
    con = connect(path) if path == ":memory:" else connect(path, read_only=True)
    try:
        ensure_names(con)
        yield con
    finally:
        con.close()


#: DuckDB's buffer pool in :func:`read_once`: a process that reads once and ends gains
#: nothing from keeping every block it read, and each new buffer's pages cost a fault
#: each (a pattern search of 1 M games reads 1.4 GB of blocks: 340,000 faults, 1.1 s of
#: system CPU), where a small pool reuses its buffers. Not smaller: the hits of a common
#: pattern are sorted in it (1.84 M hits of ``W31,32,33:B18,19,20`` took 5.0 s at 256 MB
#: and 28.5 s at 128 MB, spilling; benchmarks/README.md, "A search in a fresh process")
READ_ONCE_MEMORY = "256MB"


def read_once(db: DbLike, read: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    """``read(con)`` on ``db`` as :func:`reading` opens it, for a process that reads once
    and ends (the command line's ``search``): a database file opened with a buffer pool of
    :data:`READ_ONCE_MEMORY` (``read`` runs its own SQL alone on it: the settings are
    locked when ``read`` calls :func:`widen`, which gives the default pool to what follows,
    a result of millions of rows); should ``read`` need more memory than the small pool
    before it widens it (DuckDB's out-of-memory error), it runs again, whole, on the
    database opened as :func:`reading` opens it. Anything else (a connection, a lake,
    ``":memory:"``), or a file this process has open already (DuckDB opens a file once a
    process, with one configuration), is read as :func:`reading` reads it.

    Example:
        >>> read_once(":memory:", lambda con: con.execute("SELECT 42").fetchall())
        [(42,)]
    """
    import duckdb

    con = _small_pool(db)
    if con is None:
        with reading(db) as con:  # (or the error again, as reading raises it)
            return read(con)
    try:
        _SMALL_POOLS.add(id(con))
        try:
            ensure_names(con)
            return read(con)
        finally:
            _SMALL_POOLS.discard(id(con))
            con.close()
    except duckdb.OutOfMemoryException:
        pass
    with reading(db) as con:
        return read(con)


@contextmanager
def scanning(db: DbLike = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection as :func:`reading` gives, for a reader that goes through a
    database file once, a part at a time (every game's rows, a million games, a statement
    for each part): the file is opened with a buffer pool of :data:`READ_ONCE_MEMORY`,
    where DuckDB's default pool keeps every block read up to most of the machine's memory
    (``openings classify --db`` of 1 M games held 1.3 GB of blocks it never read again).
    Each statement must fit that pool. Anything else (a connection, a lake,
    ``":memory:"``, a file this process has open already) is read as :func:`reading`
    reads it.

    Example:
        >>> with scanning(":memory:") as con:
        ...     con.execute("SELECT 42").fetchall()
        [(42,)]
    """
    con = _small_pool(db)
    if con is None:
        with reading(db) as con:
            yield con
        return
    try:
        ensure_names(con)
        yield con
    finally:
        con.close()


def _small_pool(db: DbLike) -> duckdb.DuckDBPyConnection | None:
    """The database file ``db`` opened read-only with a buffer pool of
    :data:`READ_ONCE_MEMORY`; ``None`` for anything else (a connection, a lake,
    ``":memory:"``), for a file this process holds with other settings (a server), or when
    the schema's check alone filled the pool: those are read as :func:`reading` reads
    them."""
    import duckdb

    if isinstance(db, duckdb.DuckDBPyConnection) or _not_a_file(db):
        return None
    from pdnkit.store import DatabaseError, connect

    try:
        con: duckdb.DuckDBPyConnection = connect(db, read_only=True,
                                                 memory_limit=READ_ONCE_MEMORY)
    except (DatabaseError, duckdb.OutOfMemoryException):
        return None
    return con


def widen(con: duckdb.DuckDBPyConnection) -> None:
    """Give ``con`` DuckDB's default buffer pool from here on and lock its settings, where
    :func:`read_once` opened it with a small pool; any other connection is left as it is.
    Call it between statements (no result being read).

    Example:
        >>> import duckdb
        >>> con = duckdb.connect(config={"memory_limit": "64MB"})
        >>> widen(con)  # (not read_once's: left as it is)
        >>> con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
        '61.0 MiB'
    """
    if id(con) in _SMALL_POOLS:
        _SMALL_POOLS.discard(id(con))
        con.execute("RESET memory_limit").fetchall()
        con.execute("SET lock_configuration = true").fetchall()


#: the connections :func:`read_once` has open with the small pool, not widened (by ``id``)
_SMALL_POOLS: set[int] = set()


def _not_a_file(path: str | os.PathLike[str] | None) -> bool:
    """Whether ``path`` names no database file: a folder or a remote location (a lake), or
    ``":memory:"``."""
    from pathlib import Path

    from pdnkit.store.schema import db_path

    where = db_path(path)
    return where == ":memory:" or "://" in where or Path(where).is_dir()


@contextmanager
def writing(db: DbLike = None, *, what: str = "this") -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-write connection to ``db`` for the ``with`` block: a path is opened with
    :func:`pdnkit.store.connect` (it must hold a database already: a mistyped path raises
    instead of making an empty one) and closed at the end, a connection is used and left open. A lake raises :class:`LakeIsReadOnlyError` (``what`` names what
    could not be stored there).

    Example:
        >>> with writing(":memory:", what="aliases") as con:
        ...     con.execute("INSERT INTO player_aliases VALUES ('A B', 'Ann B')").fetchall()
        [(1,)]
    """
    import duckdb

    from pdnkit.store import connect

    given = db if isinstance(db, duckdb.DuckDBPyConnection) else None
    path = None if db is None or isinstance(db, duckdb.DuckDBPyConnection) else os.fspath(db)
    # a mistyped path is an error, never a new empty database holding only the write
    con = given if given is not None else connect(
        path, must_exist=path is not None and path != ":memory:")
    try:
        if is_lake(con):
            raise LakeIsReadOnlyError(
                f"a lake is read-only for {what}: its tables are views over Parquet parts "
                "and nothing written there is kept; import the files into a DuckDB "
                "database (pdnkit import FILES --db games.duckdb) to store them")
        yield con
    finally:
        if given is None:
            con.close()
