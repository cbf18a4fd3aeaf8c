"""Upgrading a database to the current schema: on a copy, all or nothing, resumable.

:func:`upgrade` never changes the database file itself. It makes a new file next to it
(``NAME.upgrading``, the current schema, 64 KB blocks), attaches the old file read-only and
fills the new one with ``INSERT ... SELECT``: the old rows pass through one *version step*
per schema version they lack (:data:`VERSION_STEPS`), then the *fill steps*
(:data:`FILL_STEPS`) compute the columns the old file did not have. The new file is checked
(every table holds as many rows as its source, the schema is current), flushed (checkpoint,
``fsync``) and swapped in with one atomic rename; before that the original gets a second name,
``NAME.schemaN.bak`` (a hard link where the file system has them, so nothing is copied), which
is kept afterwards. A process killed at any moment leaves the database as it was or as it
will be, and the next upgrade removes a partial copy and starts again (:mod:`pdnkit.store.steps`
names the moments a test kills it at). A lock file (``NAME.pdnkit-lock``,
:class:`~pdnkit.store.lock.StoreLock`) keeps a second upgrade or a writer off meanwhile.

Other modules add their own steps here (see ``docs/architecture.md``, section 5):

* :func:`version_step` (a decorator): ``@version_step(6, "what it does")`` on a function that
  takes :class:`Sources` (the old rows as one SQL query per table) and rewrites the queries
  of the tables it changes (``sources.set("games", "SELECT ... FROM (" + sources.sql("games")
  + ")")``); a column the schema adds needs no step (it is NULL until a fill step fills it);
* :func:`register_fill`: ``register_fill("games", ["opening_code", ...], fill)`` with
  ``fill(con)`` a function (or ``"module:function"``, imported only when needed) that
  computes those columns for every row of the new file (``con`` has it as its main
  database, the old file attached as ``pdnkit_old``, read-only). It runs when any of the
  columns was missing in the old database, after every table is copied.

Example:
    >>> import tempfile, pathlib, duckdb
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> from pdnkit.store.schema import ensure_schema
    >>> con = duckdb.connect(str(d / "g.duckdb")); ensure_schema(con); con.close()
    >>> upgrade(d / "g.duckdb", notice=None).upgraded  # already current
    False
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError, MissingFileError
from pdnkit.rows.bitboards import HIGH_COLUMNS, split_sql
from pdnkit.rows.compact import MOVE_ROWS_SELECT
from pdnkit.store import steps
from pdnkit.store.lock import StoreLock
from pdnkit.store.schema import (
    BLOCK_SIZE,
    SCHEMA_VERSION,
    DatabaseError,
    check_schema,
    database_error,
    db_path,
    ensure_variants,
    no_progress_bar,
    record_schema,
    reference_columns,
    reference_objects,
    schema_sql,
    schema_version,
    table_columns,
)
from pdnkit.store.settling import settle_marks

if TYPE_CHECKING:
    import duckdb

__all__ = ["ATTACHED", "FILL_STEPS", "LOCK_SUFFIX", "UPGRADING_SUFFIX", "VERSION_STEPS",
           "FillStep", "Sources", "UpgradeResult", "VersionStep", "announce", "backup_path",
           "fill_dates", "fill_result_source", "needs_upgrade", "register_fill", "upgrade", "version_step"]

#: the name the old database is attached under while its rows are copied
ATTACHED = "pdnkit_old"
#: the suffix of the new file while it is being made (next to the database)
UPGRADING_SUFFIX = ".upgrading"
#: the suffix of the database's lock file
LOCK_SUFFIX = ".pdnkit-lock"
#: tables the upgrade does not copy: made anew from this pdnkit's rules records
_REMADE = ("variants",)
#: ``pdnkit_meta`` keys written anew (the others are copied)
_META_KEYS = ("schema_version", "columns", "variants_digest")


def _q(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class Sources:
    """The old database's rows as the version steps shape them: one SQL query per table
    (``SELECT * FROM pdnkit_old.main."games"`` to begin with), read on ``con``.

    Example:
        >>> import duckdb
        >>> s = Sources(duckdb.connect(), {"t": "SELECT 1 AS a"})
        >>> s.columns("t"), "t" in s
        ({'a': 'INTEGER'}, True)
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, queries: dict[str, str]) -> None:
        self.con = con
        self.queries = dict(queries)
        self._columns: dict[str, dict[str, str]] = {}

    @classmethod
    def attached(cls, con: duckdb.DuckDBPyConnection, name: str = ATTACHED) -> Sources:
        """The base tables of the database attached as ``name``."""
        tables = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_catalog = ? "
            "AND table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY table_name",
            [name]).fetchall()]
        return cls(con, {t: f'SELECT * FROM {name}.main."{t}"' for t in tables})

    def __contains__(self, table: str) -> bool:
        return table in self.queries

    def tables(self) -> list[str]:
        """The tables that have rows to copy, in a stable order."""
        return list(self.queries)

    def sql(self, table: str) -> str:
        """The query giving ``table``'s rows."""
        return self.queries[table]

    def columns(self, table: str) -> dict[str, str]:
        """``{column: DuckDB type}`` of ``table``'s query."""
        if table not in self._columns:
            rows = self.con.execute(f"DESCRIBE ({self.queries[table]})").fetchall()
            self._columns[table] = {str(r[0]): str(r[1]) for r in rows}
        return self._columns[table]

    def set(self, table: str, sql: str) -> None:
        """Give ``table`` a new query (its columns are read again when asked)."""
        self.queries[table] = sql
        self._columns.pop(table, None)

    def pop(self, table: str) -> str | None:
        """Take ``table`` out of the copy (a step that moved its rows elsewhere)."""
        self._columns.pop(table, None)
        return self.queries.pop(table, None)


@dataclass(frozen=True)
class VersionStep:
    """The step that brings the old rows to schema ``version`` (from ``version - 1``)."""

    version: int
    what: str
    convert: Callable[[Sources], None]


@dataclass(frozen=True)
class FillStep:
    """Computes ``columns`` of ``table`` on the new file, when the old one lacked any;
    ``adds``: the rows it may write into other tables (findings the new columns bring), as
    ``(table, SQL condition on the table's rows)``: the upgrade's check then counts the rows
    outside the condition exactly, as every other table's."""

    table: str
    columns: tuple[str, ...]
    fill: Callable[[duckdb.DuckDBPyConnection], object] | str
    what: str
    adds: tuple[tuple[str, str], ...] = ()

    def function(self) -> Callable[[duckdb.DuckDBPyConnection], object]:
        """The fill function (a ``"module:function"`` imported now)."""
        if callable(self.fill):
            return self.fill
        module, _, name = self.fill.partition(":")
        fn: Callable[[duckdb.DuckDBPyConnection], object] = getattr(
            importlib.import_module(module), name)
        return fn


#: the version steps, by the version each one brings a database to
VERSION_STEPS: dict[int, VersionStep] = {}
#: the fill steps, in the order they run
FILL_STEPS: list[FillStep] = []


def version_step(version: int, what: str
                 ) -> Callable[[Callable[[Sources], None]], Callable[[Sources], None]]:
    """Register the decorated function as the step to schema ``version``.

    Example:
        >>> sorted(VERSION_STEPS)[-1] == SCHEMA_VERSION
        True
    """
    def register(convert: Callable[[Sources], None]) -> Callable[[Sources], None]:
        if version in VERSION_STEPS and VERSION_STEPS[version].convert is not convert:
            raise ArgumentError(f"schema version {version} has a step already")
        VERSION_STEPS[version] = VersionStep(version, what, convert)
        return convert
    return register


def register_fill(table: str, columns: list[str] | tuple[str, ...],
                  fill: Callable[[duckdb.DuckDBPyConnection], object] | str, *,
                  what: str | None = None, adds: tuple[tuple[str, str], ...] = ()
                  ) -> FillStep:
    """Register a fill step: ``fill(con)`` computes ``columns`` of ``table`` for every row of
    an upgraded database (``con`` is the new file's connection) when the old database
    lacked any of them. ``fill`` may be ``"module:function"`` (imported when it runs).
    ``adds``: ``(table, condition)`` pairs, the rows the fill may write (and replace) in
    other tables; every other row is counted after the copy and again after the fills. Registering the same table and columns again
    replaces the step. Returns the step.

    Example:
        >>> step = register_fill("games", ["result_source"], fill_result_source)
        >>> step.columns, FILL_STEPS.count(step)
        (('result_source',), 1)
    """
    step = FillStep(table, tuple(columns), fill, what or f"{table}.{', '.join(columns)}",
                    tuple(adds))
    for i, old in enumerate(FILL_STEPS):
        if (old.table, old.columns) == (step.table, step.columns):
            FILL_STEPS[i] = step
            return step
    FILL_STEPS.append(step)
    return step


# --------------------------------------------------------------------------------------------
# the steps of pdnkit's own schema versions


@version_step(2, "every file's path in file_paths")
def _file_paths(src: Sources) -> None:
    if "file_paths" not in src and "files" in src:
        src.set("file_paths", "SELECT file_id, path, imported_at AS first_seen "
                              f"FROM ({src.sql('files')})")


@version_step(3, "moves stored compactly in move_rows (read through the moves view), the "
                 "position key derived")
def _compact_moves(src: Sources) -> None:
    moves = src.pop("moves")
    if moves is not None:
        rows = f"SELECT {MOVE_ROWS_SELECT} FROM ({moves})"
        if "move_rows" in src:
            rows = f"({src.sql('move_rows')}) UNION ALL BY NAME ({rows})"
        src.set("move_rows", rows)
    if "position_bits" in src and "position_key" in src.columns("position_bits"):
        src.set("position_bits",
                f"SELECT * EXCLUDE (position_key) FROM ({src.sql('position_bits')})")


@version_step(4, "bitboards as UBIGINT, squares 65 and up in *_high columns")
def _split_bitboards(src: Sources) -> None:
    if "position_bits" not in src:
        return
    cols = src.columns("position_bits")
    if not any(cols.get(c) == "HUGEINT" for c in HIGH_COLUMNS):
        return
    wide = (f"layout IN (SELECT layout FROM ({src.sql('layouts')}) WHERE squares > 64)"
            if "layouts" in src else "FALSE")
    select = [c for c in cols if c not in HIGH_COLUMNS and c not in HIGH_COLUMNS.values()]
    for col, high in HIGH_COLUMNS.items():
        if cols.get(col) == "HUGEINT":  # (a database split half-way keeps its split ones)
            low_sql, high_sql = split_sql(col, wide)
            select += [f"{low_sql} AS {col}", f"{high_sql} AS {high}"]
        else:
            select += [col, high if high in cols else f"NULL::UBIGINT AS {high}"]
    src.set("position_bits", f"SELECT {', '.join(select)} FROM ({src.sql('position_bits')})")


@version_step(5, "games.result_source, long texts in raw_pieces, no alias of a player to "
                 "itself")
def _no_self_aliases(src: Sources) -> None:
    if "player_aliases" in src:
        src.set("player_aliases", f"SELECT * FROM ({src.sql('player_aliases')}) "
                                  "WHERE trim(alias) IS DISTINCT FROM trim(name)")


@version_step(6, "the openings' columns (games.opening_*, novelty_ply, novelty_from), "
                 "opening_tables and opening_pending")
def _opening_columns(src: Sources) -> None:
    """Nothing to rewrite: the fill step ``openingdb:fill_upgrade`` (below) fills them."""


@version_step(7, "the position index (position_index), made from the stored positions")
def _position_index(src: Sources) -> None:
    """Nothing to rewrite: the fill step ``posindex:rebuild_index`` (below) makes it."""


@version_step(8, "the squares of each game (game_squares), made from the stored positions")
def _game_squares(src: Sources) -> None:
    """Nothing to rewrite: the fill step ``gamesquares:fill_squares`` (below) makes it."""


@version_step(9, "the opening counts (tree_counts, opening_counts), made from the games")
def _opening_counts(src: Sources) -> None:
    """Nothing to rewrite: the tables start empty, the fill step
    ``pdnkit.store.opencounts:rebuild_counts`` (below) makes them."""


@version_step(10, "the squares of each stretch of 16 plies with a king (game_stretches), made "
                  "from the stored positions; the copies the opening counts left out (counts_copies) "
                  "declared")
def _game_stretches(src: Sources) -> None:
    """Nothing to rewrite: the fill step ``gamesquares:fill_stretches`` (below) makes
    ``game_stretches``; ``counts_copies``, made on demand before, is copied as it was (a
    database without it gets it empty: the counts' stamp of copies then differs, and the
    next import counts again, as before)."""


def fill_result_source(con: duckdb.DuckDBPyConnection) -> None:
    """Fill ``games.result_source`` of stored games from their tags: ``tag`` where a result
    tag (``Result``, ``Risultato`` ... under any case) holds ``result_raw``, ``terminator``
    for another result, NULL for none (as the validator says at import).

    Example:
        >>> import duckdb
        >>> from pdnkit.store.schema import ensure_schema
        >>> con = duckdb.connect(); ensure_schema(con)
        >>> _ = con.execute("INSERT INTO games (game_id, file_id, game_index, tags, "
        ...     "result_raw) VALUES (1, 1, 0, MAP {'Uitslag': '2-0'}, '2-0'), "
        ...     "(2, 1, 1, MAP {}, '1-0'), (3, 1, 2, NULL, NULL)")
        >>> fill_result_source(con)
        >>> con.execute("SELECT result_source FROM games ORDER BY game_id").fetchall()
        [('tag',), ('terminator',), (None,)]
    """
    from pdnkit.pdn.tags import TAG_NAMES

    names = ", ".join(_q(n.lower()) for n in TAG_NAMES["result"])
    space = "E' \\t\\r\\n'"
    con.execute(
        "UPDATE games SET result_source = CASE WHEN result_raw IS NULL THEN NULL "
        "WHEN len(list_filter(map_entries(coalesce(tags, MAP {})), lambda pdnkit_e: "
        f"lower(trim(pdnkit_e.key, {space})) IN ({names}) "
        f"AND trim(pdnkit_e.value, {space}) = result_raw)) > 0 THEN 'tag' "
        "ELSE 'terminator' END")


register_fill("games", ["result_source"], fill_result_source,
              what="games.result_source from the result tags")


def fill_dates(con: duckdb.DuckDBPyConnection) -> None:
    """Fill ``games.date_first``, ``date_last``, ``date_precision`` and ``date_text`` from
    the stored ``date_raw`` and ``year``, as an import computes them
    (:func:`pdnkit.pdn.dates.date_span`, else the year's span): each distinct pair is read
    once.

    Example:
        >>> import duckdb
        >>> from pdnkit.store.schema import ensure_schema
        >>> con = duckdb.connect(); ensure_schema(con)
        >>> _ = con.execute("INSERT INTO games (game_id, file_id, game_index, date_raw, year) "
        ...     "VALUES (1, 1, 0, '2003.03.??', 2003), (2, 1, 1, NULL, 1990), (3, 1, 2, NULL, NULL)")
        >>> fill_dates(con)
        >>> con.execute("SELECT date_text, date_precision, date_last FROM games ORDER BY game_id"
        ...             ).fetchall()  # doctest: +NORMALIZE_WHITESPACE
        [('2003-03', 'month', datetime.date(2003, 3, 31)),
         ('1990', 'year', datetime.date(1990, 12, 31)), (None, None, None)]
    """
    from pdnkit.pdn.dates import date_span, date_text, year_span

    rows: list[tuple[object, ...]] = []
    for raw, year in con.execute("SELECT DISTINCT date_raw, year FROM games WHERE "
                                 "date_raw IS NOT NULL OR year IS NOT NULL").fetchall():
        span = date_span(raw)
        if span is None and year is not None:
            span = year_span(int(year))
        text = date_text(span, raw)
        if span is not None:
            rows.append((raw, year, span.first, span.last, span.precision, text))
        elif text is not None:
            rows.append((raw, year, None, None, None, text))
    if not rows:
        return
    con.execute("CREATE TEMP TABLE _pdnkit_dates (raw VARCHAR, year INTEGER, f DATE, l DATE, "
                "p VARCHAR, t VARCHAR)")
    try:
        con.executemany("INSERT INTO _pdnkit_dates VALUES (?, ?, ?, ?, ?, ?)", rows)
        con.execute("UPDATE games SET date_first = d.f, date_last = d.l, date_precision = d.p, "
                    "date_text = d.t FROM _pdnkit_dates d WHERE games.date_raw IS NOT DISTINCT "
                    "FROM d.raw AND games.year IS NOT DISTINCT FROM d.year")
    finally:
        con.execute("DROP TABLE IF EXISTS _pdnkit_dates")


# before the openings' fill: the novelties' order reads date_first
register_fill("games", ["date_first", "date_last", "date_precision", "date_text"], fill_dates,
              what="games.date_first, date_last, date_precision, date_text from the dates")
# the openings' columns, classified from the stored positions (a fill whose columns
# schema.sql does not have never runs: this waits for the columns and the function)
register_fill("games", ["opening_code", "opening_name", "opening_ply"],
              "pdnkit.store.openingdb:fill_upgrade", what="games.opening_* from the positions",
              adds=(("findings", "code = 'opening-tag-mismatch'"),))
# the position index, from the stored positions
register_fill("position_index", ["key", "game_block"], "pdnkit.store.posindex:rebuild_index",
              what="position_index from the stored positions")
register_fill("game_squares", ["game_id", "wm", "occ"], "pdnkit.store.gamesquares:fill_squares")
register_fill("game_stretches", ["game_id", "stretch", "wm"],
              "pdnkit.store.gamesquares:fill_stretches")
# the groups of copies, from the moves and tags (after the openings: the novelties are then
# computed again among the games counted once)
register_fill("games", ["duplicate_of", "duplicate_kind"], "pdnkit.store.copies:fill_upgrade",
              what="games.duplicate_of from the moves and tags",
              adds=(("findings", "code = 'probable-copy'"),))

# the opening counts, from the canonical games (after the copies: they count each game once)
register_fill("tree_counts", ["variant", "move", "games"],
              "pdnkit.store.opencounts:rebuild_counts",
              what="tree_counts and opening_counts from the games")


# --------------------------------------------------------------------------------------------
# the upgrade


@dataclass
class UpgradeResult:
    """What :func:`upgrade` did. ``str(result)`` is what ``pdnkit upgrade`` prints."""

    db: str
    upgraded: bool
    from_version: int
    to_version: int = SCHEMA_VERSION
    backup: str | None = None
    steps: list[str] = field(default_factory=list)
    fills: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)
    not_kept: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: games an interrupted import left marked (their copies, openings and novelties not yet
    #: brought up to date), settled now
    settled: int = 0

    def __str__(self) -> str:
        done = (f"\n  settled {self.settled} game{'s' * (self.settled != 1)} an interrupted "
                "import left marked (copies, openings, novelties)" if self.settled else "")
        if not self.upgraded:
            return f"{self.db} is up to date (schema version {self.to_version}){done}"
        lines = [f"{self.db} upgraded from schema version {self.from_version} to "
                 f"{self.to_version} in {self.seconds:.1f} s; the database as it was is "
                 f"kept as {self.backup} (delete it once you no longer need it)"]
        lines += [f"  step {s}" for s in self.steps]
        lines += [f"  filled {f}" for f in self.fills]
        if self.kept:
            lines.append("  kept your own: " + ", ".join(self.kept))
        for item in self.not_kept:
            lines.append(f"  not carried over (still in the backup): {item}")
        return "\n".join(lines) + done


def announce(message: str) -> None:
    """The notice of an upgrade on standard error (a write command's own upgrade)."""
    print(f"pdnkit: {message}", file=sys.stderr, flush=True)


def backup_path(db: str | Path, version: int) -> Path:
    """Where the database as it was is kept: ``NAME.schemaN.bak``, else the first of
    ``NAME.schemaN.2.bak`` ... that is free or is the database itself (a hard link made by
    an upgrade that was stopped before the swap).

    Example:
        >>> backup_path("/x/g.duckdb", 4).name
        'g.duckdb.schema4.bak'
    """
    p = Path(db)
    for n in range(1, 1000):
        b = p.with_name(f"{p.name}.schema{version}{'' if n == 1 else f'.{n}'}.bak")
        if not b.exists() or _same_file(b, p):
            return b
    raise DatabaseError(f"too many backups of {p} (schema version {version})")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def needs_upgrade(db: str | os.PathLike[str] | None) -> int | None:
    """The schema version of an older database (``None`` when it is current). Opens it
    read-only; raises :class:`~pdnkit.store.schema.SchemaError` for a damaged one.

    Example:
        >>> import tempfile, pathlib, duckdb
        >>> from pdnkit.store.schema import ensure_schema
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "g.duckdb"
        >>> con = duckdb.connect(str(p)); ensure_schema(con); con.close()
        >>> needs_upgrade(p) is None
        True
    """
    import duckdb

    path = db_path(db)
    try:
        con = no_progress_bar(duckdb.connect(path, read_only=True,
                                             config={"enable_external_access": "false"}))
    except duckdb.Error as exc:
        raise database_error(exc, path) from None
    try:
        return None if check_schema(con, path) == "current" else schema_version(con)
    finally:
        con.close()


def upgrade(db: str | os.PathLike[str] | None = None, *,
            notice: Callable[[str], None] | None = announce) -> UpgradeResult:
    """Bring the database ``db`` (a path; ``None``: ``pdnkit.duckdb`` here) to the current
    schema on a copy, as the module's text says; ``notice`` is told when an upgrade starts
    (default: a line on standard error). A lake folder has its manifest entries rewritten
    with paths relative to the lake (:func:`pdnkit.store.lakeview.upgrade_lake`). Returns an
    :class:`UpgradeResult` (``upgraded=False`` for a database that is up to date); raises
    :class:`~pdnkit.store.schema.DatabaseError` for a database that cannot be upgraded (in
    use, damaged, made by a newer pdnkit, a full disk: the database is then as it was).

    Example:
        >>> import tempfile, pathlib
        >>> upgrade(pathlib.Path(tempfile.mkdtemp()) / "none.duckdb")
        Traceback (most recent call last):
        ...
        pdnkit.errors.MissingFileError: no pdnkit database at ...none.duckdb
    """
    start = time.perf_counter()
    path = Path(db_path(db))
    if path.is_dir() or "://" in str(path):
        from pdnkit.store.lakeview import is_lake, upgrade_lake

        if is_lake(str(path)):
            n = upgrade_lake(str(path))
            return UpgradeResult(str(path), n > 0, SCHEMA_VERSION,
                                 steps=[f"{n} manifest entries with paths relative to the "
                                        "lake"] if n else [],
                                 seconds=time.perf_counter() - start)
    if not path.is_file():
        raise MissingFileError(f"no pdnkit database at {path}")
    with StoreLock(str(path) + LOCK_SUFFIX, f"the database {path}"):
        steps.reached("upgrade.locked")
        new = path.with_name(path.name + UPGRADING_SUFFIX)
        _remove_leftovers(new)
        _flush_wal(path)
        version = needs_upgrade(path)
        if version is None:
            result = UpgradeResult(str(path), False, SCHEMA_VERSION)
            result.settled = settle_marks(path)
            result.seconds = time.perf_counter() - start
            return result
        backup = backup_path(path, version)
        if notice is not None:
            notice(f"upgrading the database {path} from schema version {version} to "
                   f"{SCHEMA_VERSION}: on a copy, swapped in when complete; the database as "
                   f"it was stays as {backup}")
        result = UpgradeResult(str(path), True, version, backup=str(backup))
        try:
            _build(path, new, version, result)
        except BaseException as exc:
            _remove_leftovers(new)
            if type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb"):
                raise DatabaseError(
                    f"{database_error(exc, str(path), 'upgrade')}; the database is as it "
                    "was") from None
            if isinstance(exc, OSError):
                raise DatabaseError(f"cannot upgrade the database {path}: {exc}; the "
                                    "database is as it was") from None
            raise
        _swap(path, new, backup)
        result.settled = settle_marks(path)
    steps.reached("upgrade.done")
    result.seconds = time.perf_counter() - start
    return result


def _remove_leftovers(new: Path) -> None:
    """What a stopped upgrade left: the partial copy, its WAL and spill folder."""
    for extra in ("", ".wal", ".tmp"):
        p = Path(str(new) + extra)
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        elif p.exists():
            p.unlink()
    for partial in new.parent.glob(f"{new.name[:-len(UPGRADING_SUFFIX)]}.schema*.bak.partial"):
        partial.unlink()


def _flush_wal(path: Path) -> None:
    """Merge a WAL the database was left with (DuckDB's own recovery) into the file, so the
    backup and the copy see every committed change and no old WAL is left beside the new
    file."""
    import duckdb

    if not Path(str(path) + ".wal").exists():
        return
    try:
        con = no_progress_bar(duckdb.connect(str(path)))
        con.execute("CHECKPOINT")
        con.close()
    except duckdb.Error as exc:
        raise DatabaseError(
            f"the database {path} has changes in {path}.wal that cannot be merged before the "
            f"upgrade ({database_error(exc, str(path)).args[0]}); nothing was changed") from None
    steps.reached("upgrade.wal-merged")


def _build(path: Path, new: Path, version: int, result: UpgradeResult) -> None:
    """Make the new file: the schema, the old rows through the steps, the fills, checked
    and flushed. The old file is only read."""
    import duckdb

    con = no_progress_bar(duckdb.connect(str(new),
                                         config={"default_block_size": str(BLOCK_SIZE)}))
    try:
        steps.reached("upgrade.created")
        con.execute(schema_sql())
        con.execute(f"ATTACH {_q(str(path))} AS {ATTACHED} (READ_ONLY)")
        src = Sources.attached(con)
        if "positions" in src:  # a table of FEN text: no step turns it into bitboards
            raise DatabaseError(
                f"{path} stores positions as FEN text (made by a pdnkit before the "
                "bitboards): no upgrade can make its searches work; import its files into a "
                "new database (the database is as it was)")
        for v in range(version + 1, SCHEMA_VERSION + 1):
            if v in VERSION_STEPS:
                VERSION_STEPS[v].convert(src)
                result.steps.append(f"{v}: {VERSION_STEPS[v].what}")
        ref = reference_columns()
        absent = {t: {c for c, _ in cols} - set(src.columns(t) if t in src else {})
                  for t, cols in ref.items()}
        expected = _copy(con, src, result)
        _copy_objects(con, result)
        _check_rows(con, expected, path)  # every old row copied
        fills = [s for s in FILL_STEPS if set(s.columns) & absent.get(s.table, set())]
        owned = _owned_rows(con, expected, fills)
        for step in fills:
            steps.reached(f"upgrade.fill.{step.table}.{step.columns[0]}")
            step.function()(con)
            result.fills.append(step.what)
        record_schema(con)
        ensure_variants(con)
        _check(con, owned, path)
        result.rows = {t: n for t, n in expected.items() if t in ref}
        steps.reached("upgrade.checked")
        con.execute(f"DETACH {ATTACHED}")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    steps.reached("upgrade.flushed")
    if Path(str(new) + ".wal").exists():
        raise DatabaseError(f"the new file {new} still has a WAL after its checkpoint")
    _fsync(new)


def _copy(con: duckdb.DuckDBPyConnection, src: Sources,
          result: UpgradeResult) -> dict[str, int]:
    """Every table's rows into the new file; returns the rows each table should hold. A
    column the schema does not know (added by the user) is added to the new table, a table
    it does not know is copied as it is (as ``NAME_before_upgrade`` when the schema now has
    a view of that name)."""
    ref = reference_columns()
    views = {n for kind, n in reference_objects() if kind == "view"}
    expected: dict[str, int] = {}
    for table in src.tables():
        if table in _REMADE:
            continue
        steps.reached(f"upgrade.copy.{table}")
        sql = src.sql(table)
        if table == "pdnkit_meta":
            keys = ", ".join(_q(k) for k in _META_KEYS)
            con.execute(f"INSERT INTO main.pdnkit_meta BY NAME SELECT * FROM ({sql}) "
                        f"WHERE key NOT IN ({keys})")
            continue
        if table in ref:
            have = {c for c, _ in table_columns(con)[table]}
            for col, dtype in src.columns(table).items():
                if col not in have:
                    con.execute(f'ALTER TABLE main."{table}" ADD COLUMN "{col}" {dtype}')
                    result.kept.append(f"column {table}.{col}")
            con.execute(f'INSERT INTO main."{table}" BY NAME SELECT * FROM ({sql})')
            name = table
        else:
            name = f"{table}_before_upgrade" if table in views else table
            con.execute(f'CREATE TABLE main."{name}" AS SELECT * FROM ({sql})')
            result.kept.append(f"table {name}")
        expected[name] = int(con.execute(f"SELECT count(*) FROM ({sql})").fetchall()[0][0])
    return expected


def _copy_objects(con: duckdb.DuckDBPyConnection, result: UpgradeResult) -> None:
    """The user's own views and macros of the old database, made again on the new file
    (one that no longer binds is named in the result: it stays in the backup)."""
    import duckdb

    ours = {n for _, n in reference_objects()}
    views = con.execute("SELECT view_name, sql FROM duckdb_views() WHERE database_name = ? "
                        "AND schema_name = 'main' AND NOT internal", [ATTACHED]).fetchall()
    macros = con.execute(
        "SELECT function_name, parameters, macro_definition FROM duckdb_functions() "
        "WHERE database_name = ? AND schema_name = 'main' AND function_type = 'macro' "
        "AND NOT internal", [ATTACHED]).fetchall()
    made = [(f"view {n}", sql) for n, sql in views if n not in ours and sql]
    made += [(f"macro {n}", f"CREATE MACRO {n}({', '.join(params)}) AS {body}")
             for n, params, body in macros if n not in ours and body]
    for what, sql in made:
        try:
            con.execute(sql)
            result.kept.append(what)
        except duckdb.Error as exc:
            result.not_kept.append(f"{what} ({str(exc).splitlines()[0]})")


#: a table's rows to count: ``(table, SQL condition)`` (``TRUE``: all of them)
Counted = dict[tuple[str, str], int]


def _owned_rows(con: duckdb.DuckDBPyConnection, expected: dict[str, int],
                fills: list[FillStep]) -> Counted:
    """What the check after the fills counts: each table's rows, but in a table a fill
    writes into only the rows outside what it writes (counted now, before it runs)."""
    out: Counted = {}
    for table, n in expected.items():
        conds = [c for step in fills for t, c in step.adds if t == table]
        if not conds:
            out[(table, "TRUE")] = n
            continue
        cond = "NOT (" + " OR ".join(f"({c})" for c in conds) + ")"
        out[(table, cond)] = int(con.execute(
            f'SELECT count(*) FROM main."{table}" WHERE {cond}').fetchall()[0][0])
    return out


def _check_rows(con: duckdb.DuckDBPyConnection, expected: dict[str, int] | Counted,
                path: Path) -> None:
    """The new file holds every row of the old one (of a table a fill writes into, every
    row outside what it writes), or the upgrade stops."""
    for key, n in expected.items():
        table, cond = key if isinstance(key, tuple) else (key, "TRUE")
        got = int(con.execute(f'SELECT count(*) FROM main."{table}" WHERE {cond}')
                  .fetchall()[0][0])
        if got != n:
            raise DatabaseError(f"the upgrade of {path} stopped: its copy of {table} holds "
                                f"{got} rows, the database {n}; the database is as it was")


def _check(con: duckdb.DuckDBPyConnection, expected: Counted, path: Path) -> None:
    """The new file holds every row and the current schema, or the upgrade stops."""
    _check_rows(con, expected, path)
    state = check_schema(con, "the upgraded copy")
    if state != "current":
        raise DatabaseError(f"the upgrade of {path} stopped: the copy is not of the current "
                            "schema; the database is as it was")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system syncs a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _swap(path: Path, new: Path, backup: Path) -> None:
    """Keep the original as ``backup`` (a hard link, else a copy), then rename the new
    file over the database: one atomic step, before and after which the file is whole."""
    if not backup.exists():
        try:
            os.link(path, backup)
        except OSError:  # no hard links here: a copy, under its final name when complete
            partial = backup.with_name(backup.name + ".partial")
            shutil.copyfile(path, partial)
            _fsync(partial)
            os.replace(partial, backup)
    _fsync_dir(path.parent)
    steps.reached("upgrade.backup")
    if Path(str(path) + ".wal").exists():
        raise DatabaseError(f"the database {path} was opened for writing during its upgrade "
                            f"({path}.wal appeared): run the upgrade again; the database is "
                            "as it was")
    os.replace(new, path)
    _fsync_dir(path.parent)
    steps.reached("upgrade.swapped")
