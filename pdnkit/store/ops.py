"""Reading the database back: ``query`` (SQL -> DataFrame; ``query_stream``: the same in
batches), ``export`` (canonical PDN) and ``duplicates`` (the copies of one game).

Example:
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> query("SELECT count(*) AS n FROM games", db=con)["n"].tolist()
    [0]
    >>> len(duplicates(db=con))
    0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from pdnkit.errors import ArgumentError
from pdnkit.rows.pieces import join_pieces
from pdnkit.store.db import DbLike, db_path, opened
from pdnkit.store.lakeparts import is_lake
from pdnkit.store.session import LakeIsReadOnlyError
from pdnkit.store.session import is_lake as is_lake_connection

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

    from pdnkit.store.copylist import DuplicateStream
    from pdnkit.store.stream import Stream

#: games read from the database per round trip when exporting
EXPORT_CHUNK = 500
#: the statements ``query`` runs on a lake (DuckDB's statement types: SELECT covers
#: DESCRIBE, SUMMARIZE and FROM-first queries)
READS = ("SELECT", "EXPLAIN")
#: the statement types that configure DuckDB (``SET``, ``RESET``, ``PRAGMA name = value``
#: and ``USE`` are all of type SET), refused by a read-only ``query``
CONFIGURES = ("SET",)


def configuring(sql: str) -> str:
    """What a configuring statement ``sql`` changes, in a few words, for the error line.

    Example:
        >>> configuring("SET GLOBAL threads = 1000000"), configuring("pragma memory_limit='1TB'")
        ('SET threads', 'PRAGMA memory_limit')
        >>> configuring("RESET lock_configuration"), configuring("USE memory")
        ('RESET lock_configuration', 'USE memory')
    """
    import re

    m = re.match(r"\s*(SET|RESET|PRAGMA|USE)\s+(?:(?:GLOBAL|SESSION|LOCAL)\s+)?"
                 r"([A-Za-z_][\w.]*)", sql, re.IGNORECASE)
    if m is None:
        return sql.strip().split(None, 1)[0].upper() if sql.strip() else "SET"
    return f"{m.group(1).upper()} {m.group(2)}"


def query(sql: str, db: DbLike = None, *, write: bool = False) -> pd.DataFrame:
    """Run one SQL statement on a pdnkit database and return the result as a DataFrame.

    ``db`` is a path (default ``pdnkit.duckdb`` here; it must exist) or an open connection.
    A path is opened read-only, with file access from SQL disabled (no ``COPY ... TO``,
    ``read_csv``, ``ATTACH``): the statement cannot change the database or touch a file. On
    a lake the SQL reads the lake's parts and nothing else, and only a query (``SELECT``,
    ``DESCRIBE``, ``EXPLAIN`` ...) runs. ``write=True`` opens a database for writing
    (``DELETE``, ``UPDATE``, ``CREATE TABLE ...``, and SQL may then read and write files
    as DuckDB allows: ``COPY``, ``read_csv``, ``ATTACH``); a lake refuses it
    (:class:`~pdnkit.store.session.LakeIsReadOnlyError`). An older database is upgraded first
    (on a copy, with a notice). Several statements separated by ``;`` raise ``ValueError``:
    one at a time. On a path opened read-only DuckDB's settings are locked
    (:data:`pdnkit.store.db.READ_ONLY_CONFIG`), and a statement that configures (``SET``,
    ``RESET``, ``PRAGMA name = value``, ``USE``) raises ``ValueError`` naming what it set.
    :func:`query_stream` runs the same statement under the same checks and hands its rows
    over in batches, for results larger than memory.

    Example:
        >>> import duckdb
        >>> query("SELECT name FROM variants WHERE gametype = 25 LIMIT 1",
        ...       db=duckdb.connect())["name"].tolist() in ([], ["russian"])
        True
    """
    path = _query_path(db, write)
    with opened(db, must_exist=True, read_only=not write) as con:
        _check_statement(con, sql, path, write)
        return con.execute(sql).df()


def query_stream(sql: str, db: DbLike = None, *, write: bool = False,
                 rows: int | None = None) -> Stream:
    """Run one SQL statement as :func:`query` does (the same database, the same checks) and
    return its result as a :class:`~pdnkit.store.stream.Stream`: Arrow record batches of
    ``rows`` rows (:data:`~pdnkit.store.stream.BATCH_ROWS` by default) made as they are read,
    so the first rows come at once and memory stays flat whatever the result's size. Use it
    in a ``with`` block: its end (or ``close()``) stops the statement, and closes the
    connection when ``db`` was a path. What ``pdnkit query`` writes.

    Example:
        >>> import duckdb
        >>> with query_stream("SELECT range AS n FROM range(3)", db=duckdb.connect()) as s:
        ...     [n for batch in s for n in batch.column(0).to_pylist()]
        [0, 1, 2]
    """
    from contextlib import ExitStack

    from pdnkit.store.stream import BATCH_ROWS, Stream

    path = _query_path(db, write)
    stack = ExitStack()
    try:
        con = stack.enter_context(opened(db, must_exist=True, read_only=not write))
        _check_statement(con, sql, path, write)
        return Stream(con.sql(sql), rows=rows or BATCH_ROWS, on_close=stack.close)
    except BaseException:
        stack.close()
        raise


def _query_path(db: DbLike, write: bool) -> str | None:
    """The database file ``db`` names (``None`` for a connection); a lake refuses a write."""
    path = db_path(db) if db is None or isinstance(db, (str, Path)) else None
    if write and path is not None and is_lake(path):
        raise LakeIsReadOnlyError(
            f"a lake is read-only: {path}'s tables are views over Parquet parts and nothing "
            "written would be kept; --write needs a DuckDB database (pdnkit import FILES "
            "--db games.duckdb)")
    return path


def _check_statement(con: duckdb.DuckDBPyConnection, sql: str, path: str | None,
                     write: bool) -> None:
    """The checks of :func:`query` on the statement ``sql`` before it runs: one statement,
    no setting changed on a read-only file, only reads on a lake."""
    statements = con.extract_statements(sql)
    if len(statements) > 1:
        raise ArgumentError(f"{len(statements)} SQL statements given: run one at a time")
    if statements and path is not None and not write \
            and statements[0].type.name in CONFIGURES:
        raise ArgumentError(
            f"a read-only query cannot change DuckDB's settings "
            f"({configuring(statements[0].query or sql)}): they are locked on a "
            "read-only connection (threads, memory, file access); run queries only")
    if statements and is_lake_connection(con) and statements[0].type.name not in READS:
        raise LakeIsReadOnlyError(
            f"a query on a lake may only read (SELECT, DESCRIBE, SUMMARIZE, EXPLAIN), "
            f"not {statements[0].type.name}: its files are the lake's parts, and COPY or "
            "ATTACH could write them; write results with --out")


def _where_clause(where: str | None, all_copies: bool = True) -> str:
    conds = [] if all_copies else ["duplicate_of IS NULL"]
    if where and where.strip():
        conds.append(f"({where})")
    return f"WHERE {' AND '.join(conds)}" if conds else ""


def export(out: str | Path | TextIO, db: DbLike = None, where: str | None = None, *,
           annotate: bool = False, engine: str | None = None, all_copies: bool = False,
           tags: Mapping[int, Sequence[tuple[str, str]]] | None = None) -> int:
    """Write games from the database as canonical PDN (moves in canonical notation where they
    were replayed, everything else as read). ``where`` is an SQL condition on the ``games``
    table (``"variant = 'russian' AND status = 'ok'"``), run on a read-only connection that
    cannot touch files. Each game is written once, by the record that stands for its copies
    (``games.duplicate_of`` NULL; :mod:`pdnkit.store.copies`); ``all_copies`` writes every
    record. ``tags`` sets tags of games (``game_id`` -> ``(name, value)`` pairs: a tag of
    that name, in any case, takes the value; another is added after the game's own; what
    ``pdnkit merge`` writes). A path ``out`` is written whole or not at all (a temporary file
    renamed at the end; :func:`pdnkit._atomic.atomic_output`), and never over the database
    itself. Games are written in file order; a
    game that did not parse is written as it was read. A ``GameType`` tag is added to games
    whose variant came from ``--variant``, so importing the export gives the same games.
    ``annotate``: each move of the main line gets the engine's score of the position after it
    as a ``{[%eval 0.35,12]}`` comment (White's view, men, and depth), and ``$4`` (``??``) where
    the analysis found a blunder there, ``$2`` (``?``) a mistake or a missed shot
    (:mod:`pdnkit.pdn.annotations`); from the analysis ``engine`` names
    (:func:`pdnkit.store.evals.choose_key`, default: the one with the most positions).
    Returns the number of games written.

    Example:
        >>> import duckdb, io
        >>> buf = io.StringIO()
        >>> export(buf, db=duckdb.connect())
        0
    """
    if isinstance(out, (str, Path)):
        from pdnkit._atomic import atomic_output

        inputs = [db_path(db)] if db is None or isinstance(db, (str, Path)) else []
        with opened(db, must_exist=True, read_only=True) as con, \
                atomic_output(out, inputs=inputs) as f:
            return export(cast("TextIO", f), db=con, where=where, annotate=annotate,
                          engine=engine, all_copies=all_copies, tags=tags)
    n = 0
    with opened(db, must_exist=True, read_only=True) as con:
        key = None
        if annotate:
            from pdnkit.store.evals import choose_key

            key = choose_key(con, engine)
            if key is None:
                raise ArgumentError("--annotate needs an analysis of the games: the database "
                                    "has no evals rows (run pdnkit analyse first)")
        ids = [r[0] for r in con.execute(
            f"SELECT game_id FROM (SELECT * FROM games {_where_clause(where, all_copies)}) "
            "ORDER BY file_id, game_index").fetchall()]
        for i in range(0, len(ids), EXPORT_CHUNK):
            chunk = ids[i:i + EXPORT_CHUNK]
            id_list = ", ".join(str(int(g)) for g in chunk)
            games = con.execute(
                "SELECT game_id, raw_pdn, status, variant, gametype, raw_pieces FROM games "
                f"WHERE game_id IN ({id_list}) ORDER BY file_id, game_index").fetchall()
            pieced = join_pieces(con, [g[0] for g in games if g[5]])  # long texts
            notation: dict[int, dict[int, str]] = {}
            for gid, ply, canonical in con.execute(
                    "SELECT game_id, ply, canonical FROM moves "
                    f"WHERE game_id IN ({id_list}) AND canonical IS NOT NULL").fetchall():
                notation.setdefault(gid, {})[ply] = canonical
            marks = {}
            if key is not None:
                from pdnkit.store.evals import eval_marks

                marks = eval_marks(con, key, [g[0] for g in games])
            for gid, raw, status, variant, gametype, _ in games:
                out.write(_game_text(pieced.get(gid, raw or ""), status, variant, gametype,
                                     notation.get(gid), marks.get(gid),
                                     (tags or {}).get(gid, ())))
                n += 1
    return n


_GAMETYPE_FULL: dict[str, str | None] = {}


def _annotate(record: Any, marks: dict[int, tuple[float | None, int | None, int | None]]
              ) -> None:
    """Put an ``[%eval]`` comment and a NAG after each main-line move ``marks`` has (an
    earlier ``[%eval]`` of the move is replaced, a NAG already there not repeated)."""
    from pdnkit.pdn.annotations import EVAL_PATTERN, eval_comment

    for ply, node in enumerate(record.moves, 1):
        score, depth, nag = marks.get(ply, (None, None, None))
        if score is not None:
            kept = [EVAL_PATTERN.sub("", c).strip() for c in node.comments_after]
            node.comments_after = [c for c in kept if c] + [eval_comment(score, depth)]
        if nag is not None and nag not in node.nags:
            node.nags.append(nag)


def _gametype_value(variant: str | None, gametype: int | None) -> str | None:
    if variant is not None:
        if variant not in _GAMETYPE_FULL:
            try:
                from pdnkit.rules import get_rules

                _GAMETYPE_FULL[variant] = get_rules(variant).gametype_full
            except Exception:
                _GAMETYPE_FULL[variant] = None
        if _GAMETYPE_FULL[variant]:
            return _GAMETYPE_FULL[variant]
    return None if gametype is None else str(gametype)


def _game_text(raw: str, status: str | None, variant: str | None, gametype: int | None,
               notation: dict[int, str] | None,
               marks: dict[int, tuple[float | None, int | None, int | None]] | None = None,
               tags: Sequence[tuple[str, str]] = ()) -> str:
    """Canonical PDN for one stored game (its raw text when it cannot be re-read), with
    ``marks`` (ply -> score, depth, NAG) written after the main line's moves and ``tags``
    set."""
    if status != "unparsed":
        try:
            from pdnkit.pdn import parse_game, write_game

            record = parse_game(raw)
            if tags:
                record.tags = _set_tags(record.tags, tags)
            if marks and record.parsed:
                _annotate(record, marks)
            if record.parsed:  # standard tags and a short GameType added by the writer
                text: str = write_game(record, notation=notation or None, variant=variant,
                                       gametype=_gametype_value(variant, gametype))
                return text.rstrip("\r\n") + "\n\n"
        except (ImportError, AttributeError):
            pass
    return raw.strip("\r\n") + "\n\n"


def _set_tags(have: list[tuple[str, str]], new: Sequence[tuple[str, str]]
              ) -> list[tuple[str, str]]:
    """``have`` with each of ``new`` set: the first tag of its name (any case) takes its
    value, another is added at the end.

    Example:
        >>> _set_tags([("Date", "2003.??.??"), ("White", "A")], [("date", "2003.03.15"),
        ...                                                       ("Round", "5")])
        [('Date', '2003.03.15'), ('White', 'A'), ('Round', '5')]
    """
    out = list(have)
    for name, value in new:
        at = next((i for i, (n, _) in enumerate(out) if n.lower() == name.lower()), None)
        if at is None:
            out.append((name, value))
        else:
            out[at] = (out[at][0], value)
    return out


def duplicates(db: DbLike = None, *, files: bool = False) -> pd.DataFrame:
    """The copies of one game in the database, one row per group: ``group``, ``relation``
    (``copies``), ``variant``, ``plies``, ``games`` (how many records), ``canonical`` (the
    record that stands for the game, ``path#N``), ``locations`` (every record, the
    canonical one first; N is the game's number in its file, from 1), ``kinds`` (how each
    record is a copy: ``canonical``, then ``identical``, ``tags``, ``annotated``,
    ``prefix`` or ``ruled``), ``players``, ``tags_differ``, ``differing_tags``,
    ``game_ids``, ``moves_hash``. Then, listed apart and never counted as copies, the main
    lines that other games share (``relation`` ``same-moves``) and the probable copies a
    user has yet to rule on (``probable``). The rules are
    :mod:`pdnkit.store.copyrules`' (docs/duplicates.md).

    ``files=True`` lists identical files instead: files whose bytes were imported under more
    than one path (loaded once, see ``file_paths``), one row each: ``file_id``, ``sha256``,
    ``size``, ``games``, ``names`` (how many paths) and ``paths`` (first seen first).

    Example:
        >>> import duckdb
        >>> list(duplicates(db=duckdb.connect()).columns)[:6]
        ['group', 'relation', 'variant', 'plies', 'games', 'canonical']
        >>> list(duplicates(db=duckdb.connect(), files=True).columns)
        ['file_id', 'sha256', 'size', 'games', 'names', 'paths']
    """
    with opened(db, must_exist=True, read_only=True) as con:
        if files:
            return con.execute(_IDENTICAL_FILES).df()
        from pdnkit.store.copylist import duplicate_groups

        return duplicate_groups(con)


def duplicates_stream(db: DbLike = None, *, files: bool = False,
                      rows: int | None = None) -> DuplicateStream:
    """:func:`duplicates` as a :class:`~pdnkit.store.copylist.DuplicateStream`: the same
    rows in the same order, in Arrow record batches of at most ``rows`` rows
    (:data:`~pdnkit.store.stream.BATCH_ROWS` by default), made a few groups at a time (memory
    flat whatever the number of groups); ``counts`` gives the rows of each relation
    (``copies``, ``same-moves``, ``probable``; ``files`` with ``files=True``) before the
    first. Use it in a ``with`` block: its end closes the database when ``db`` was a path.
    What ``pdnkit duplicates`` writes.

    Example:
        >>> import duckdb
        >>> with duplicates_stream(db=duckdb.connect()) as s:
        ...     s.columns[:4], s.total, sum(b.num_rows for b in s)
        (['group', 'relation', 'variant', 'plies'], 0, 0)
    """
    from contextlib import ExitStack

    from pdnkit.store.copylist import DuplicateStream, duplicate_stream
    from pdnkit.store.stream import BATCH_ROWS

    stack = ExitStack()
    try:
        con = stack.enter_context(opened(db, must_exist=True, read_only=True))
        if files:
            n = int(con.execute(f"SELECT count(*) FROM ({_IDENTICAL_FILES})").fetchall()[0][0])
            return DuplicateStream(con, [_IDENTICAL_FILES], rows=rows or BATCH_ROWS,
                                   counts={"files": n}, on_close=stack.close)
        return duplicate_stream(con, rows=rows or BATCH_ROWS, on_close=stack.close)
    except BaseException:
        stack.close()
        raise


_IDENTICAL_FILES = """
    SELECT f.file_id, f.sha256, f.size, f.games, count(*) AS names,
           list(p.path ORDER BY p.first_seen, p.path) AS paths
    FROM files f JOIN file_paths p USING (file_id)
    GROUP BY f.file_id, f.sha256, f.size, f.games
    HAVING count(*) > 1
    ORDER BY f.file_id
"""


def summary_tables(db: DbLike = None, *, all_copies: bool = False) -> dict[str, Any]:
    """A few overview tables of a database (games per variant and status, the most frequent
    finding codes, results), as DataFrames; what ``pdnkit demo`` prints. Each game once
    (the copies of a game left out, their findings too) unless ``all_copies``.

    Example:
        >>> import duckdb
        >>> sorted(summary_tables(duckdb.connect()))
        ['codes', 'results', 'variants']
    """
    once = "TRUE" if all_copies else "duplicate_of IS NULL"
    findings = ("findings" if all_copies else "(SELECT * FROM findings WHERE game_id IS NULL "
                "OR game_id IN (SELECT game_id FROM games WHERE duplicate_of IS NULL))")
    with opened(db, must_exist=True, read_only=True) as con:
        return {
            "variants": con.execute(f"""
                SELECT coalesce(variant, '(unknown)') AS variant, count(*) AS games,
                       CAST(sum(plies) AS BIGINT) AS plies,
                       round(avg(plies), 1) AS avg_plies,
                       count(*) FILTER (WHERE status = 'ok') AS ok,
                       count(*) FILTER (WHERE status = 'warning') AS warning,
                       count(*) FILTER (WHERE status = 'error') AS error,
                       count(*) FILTER (WHERE status = 'unparsed') AS unparsed
                FROM games WHERE {once} GROUP BY ALL ORDER BY games DESC, variant""").df(),
            "codes": con.execute(f"""
                SELECT code, severity, count(*) AS findings, count(DISTINCT game_id) AS games
                FROM {findings} GROUP BY ALL ORDER BY findings DESC, code""").df(),
            "results": con.execute(f"""
                SELECT coalesce(variant, '(unknown)') AS variant,
                       count(*) FILTER (WHERE outcome = 'white') AS white_wins,
                       count(*) FILTER (WHERE outcome = 'black') AS black_wins,
                       count(*) FILTER (WHERE outcome = 'draw') AS draws,
                       count(*) FILTER (WHERE outcome IS NULL OR outcome = 'unknown')
                           AS unknown
                FROM games WHERE {once} GROUP BY ALL ORDER BY variant""").df(),
        }
