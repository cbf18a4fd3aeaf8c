"""The opening columns of a database: games classified from their stored positions, the
tables users load, and the import's upkeep of classification and novelties.

* :func:`classify_games` classifies the games of one variant from their ``position_bits``
  rows (the same rule as at import: :meth:`~pdnkit.openings.book.OpeningBook.classify_bits`
  on each game's positions from ply 0, colour-swapped games read mirrored) and writes
  ``games.opening_code``, ``opening_name``, ``opening_ply``, ``opening_family``,
  ``opening_mirrored`` and the ``opening-tag-mismatch`` findings.
* :func:`load_opening_table` stores a user's CSV table in ``opening_tables`` and
  re-classifies the games of its variant; :func:`opening_book` is the book a database
  classifies a variant's games with (the shipped tables, then the loaded ones).
* :func:`fill_database` classifies every game and recomputes every novelty;
  :func:`fill_upgrade` does so (findings aside) as the fill step of the upgrade of a
  database made before these columns existed.
* The import (:func:`pdnkit.store.import_files`) calls :func:`mark_removed` before it
  deletes a replaced file's games, :func:`mark_loaded` after a file's rows are in, and
  :func:`settle_import` once at its end (see :mod:`pdnkit.store.novelties`).

Example:
    >>> from pdnkit.store import connect
    >>> con = connect(":memory:")
    >>> fill_database(con)
    FillSummary(games=0, classified=0, novelties=0, findings=0)
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

from pdnkit.openings.book import Classification, OpeningBook, load_tables
from pdnkit.openings.labels import FINDING_CODE, coded_family, tag_finding, tag_line
from pdnkit.openings.table import (
    BitsKey,
    OpeningTableError,
    mirror_bits,
    mirror_position,
    read_table,
    square_bits,
)
from pdnkit.openings.tagcheck import OPENING_TAGS
from pdnkit.rows.bitboards import bits_source
from pdnkit.rules import Position, get_rules
from pdnkit.store.novelties import affected_by_new, affected_by_removal, refresh_novelties
from pdnkit.store.transaction import rollback

if TYPE_CHECKING:
    import duckdb

    from pdnkit.store.session import DbLike

__all__ = ["CHUNK_GAMES", "FillSummary", "LoadedTable", "StoredTable", "classify_games",
           "fill_database", "fill_upgrade", "game_ranges",
           "load_opening_table", "mark_loaded", "mark_removed", "opening_book",
           "settle_import", "stored_classifications", "stored_tables"]

#: an opening tag's name as the SQL finds it among a game's tags (lower case)
_TAG_KEYS = "[" + ", ".join(f"'{t.casefold()}'" for t in OPENING_TAGS) + "]"
_HAS_TAG = f"list_has_any(list_transform(map_keys(g.tags), lambda k: lower(trim(k))), {_TAG_KEYS})"


@dataclass(frozen=True)
class StoredTable:
    """One table a user loaded into a database (a row of ``opening_tables``)."""

    variant: str
    family: str
    kind: str
    prefix: str
    source: str | None
    entries: int
    loaded_at: _dt.datetime


def stored_tables(con: duckdb.DuckDBPyConnection,
                  variant: str | None = None) -> list[StoredTable]:
    """The tables loaded into the database (all, or those of ``variant``), in load order.

    Example:
        >>> from pdnkit.store import connect
        >>> stored_tables(connect(":memory:"))
        []
    """
    where = "" if variant is None else "WHERE variant = ?"
    params = [] if variant is None else [get_rules(variant).name]
    try:
        rows = con.execute("SELECT variant, family, kind, prefix, source, entries, loaded_at "
                           f"FROM opening_tables {where} ORDER BY loaded_at, family",
                           params).fetchall()
    except Exception as exc:  # a database made before opening tables (read-only)
        if type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb"):
            return []
        raise
    return [StoredTable(*r) for r in rows]


def opening_book(con: duckdb.DuckDBPyConnection, variant: str) -> OpeningBook:
    """The book a database classifies ``variant``'s games with: the shipped tables, then the
    tables loaded into it (in load order).

    Example:
        >>> from pdnkit.store import connect
        >>> len(opening_book(connect(":memory:"), "russian")) == len(load_tables("russian"))
        True
    """
    name = get_rules(variant).name
    shipped = load_tables(name)
    loaded = [_stored_book(con, name, t) for t in stored_tables(con, name)]
    return shipped.combined(*loaded) if loaded else shipped


def _stored_book(con: duckdb.DuckDBPyConnection, variant: str, t: StoredTable) -> OpeningBook:
    text = con.execute("SELECT table_csv FROM opening_tables WHERE variant = ? AND family = ?",
                       [variant, t.family]).fetchall()[0][0]
    return OpeningBook(variant, read_table(io.StringIO(text, newline=""), variant,
                                           family=t.family, kind=t.kind, prefix=t.prefix,
                                           name=t.source or t.family))


# --------------------------------------------------------------------------------------------
# classifying stored games


#: the games one statement of :func:`_game_rows` reads: their positions as Python tuples stay
#: some tens of megabytes (1,000,000 games read in one statement held 8.5 GB)
CHUNK_GAMES = 20_000


def game_ranges(con: duckdb.DuckDBPyConnection, where: str, params: Sequence[object],
                chunk: int | None = None) -> list[tuple[int, int]]:
    """The ``game_id`` ranges (first, last) that cut the games ``where`` selects (an SQL
    condition on ``games g``) into parts of ``chunk`` (default :data:`CHUNK_GAMES`) games,
    in game order.

    Example:
        >>> from pdnkit.store import connect
        >>> game_ranges(connect(":memory:"), "TRUE", [])
        []
    """
    rows = con.execute(f"""
        SELECT min(game_id), max(game_id) FROM (
            SELECT g.game_id, (row_number() OVER (ORDER BY g.game_id) - 1) // ? AS part
            FROM games g WHERE {where})
        GROUP BY part ORDER BY part""", [chunk or CHUNK_GAMES, *params]).fetchall()
    return [(int(a), int(b)) for a, b in rows]


def _game_rows(con: duckdb.DuckDBPyConnection, variant: str, book: OpeningBook,
               games: str | None, between: tuple[int, int] | None = None
               ) -> Iterator[tuple[int, list[BitsKey], bool]]:
    """Per game of ``variant`` (among ``games``, an SQL query of ``game_id``s, and with a
    ``game_id`` in ``between``), its stored positions from ply 0 as far as the book can
    need them (rows with at least the book's fewest pieces, and the plies of its set-up
    lines) and whether positions follow; read :data:`CHUNK_GAMES` games a statement."""
    only = "" if games is None else f"AND g.game_id IN ({games})"
    if between is None:
        ranges = game_ranges(con, f"g.variant = ? {only}", [variant])
    else:
        ranges = [between]
    for lo, hi in ranges:
        yield from _range_rows(con, variant, book, only, lo, hi)


def _range_rows(con: duckdb.DuckDBPyConnection, variant: str, book: OpeningBook, only: str,
                lo: int, hi: int) -> Iterator[tuple[int, list[BitsKey], bool]]:
    """:func:`_game_rows` of the games from ``lo`` to ``hi`` (one statement)."""
    rows = con.execute(f"""
        SELECT p.game_id, p.ply, p.black, p.wm, p.wk, p.bm, p.bk,
               max(p.ply) OVER (PARTITION BY p.game_id) AS last
        FROM {bits_source(con)} p JOIN games g ON g.game_id = p.game_id
        WHERE g.variant = ? AND p.game_id BETWEEN ? AND ? AND g.game_id BETWEEN ? AND ?
              {only}
        QUALIFY p.ply <= ? OR bit_count(p.wm | p.wk | p.bm | p.bk) >= ?
        ORDER BY p.game_id, p.ply""",
                       [variant, lo, hi, lo, hi, book.start_depth, book.min_pieces]).fetchall()
    for gid, group in groupby(rows, key=lambda r: r[0]):
        positions: list[BitsKey] = []
        last = -1
        for _, ply, black, wm, wk, bm, bk, final in group:
            last = int(final)  # the game's last stored ply (the same in every row)
            if ply != len(positions):  # a gap: the replay stopped there
                break
            positions.append((bool(black), int(wm), int(wk), int(bm), int(bk)))
        yield int(gid), positions, last >= len(positions)


def _classify_rows(book: OpeningBook, positions: list[BitsKey], more: bool,
                   swapped: BitsKey | None) -> Classification:
    """The classification of one game's stored positions (``swapped``: the starting
    position seen from the other side; a game that starts there is read mirrored)."""
    if not positions:
        return Classification.empty()  # (mirrored False: no positions, as at import)
    mirrored = swapped is not None and positions[0] == swapped
    if mirrored:
        positions = [mirror_bits(b, book.variant) for b in positions]
    c = book.classify_bits(positions)
    if mirrored or (more and not c.stopped):
        c = dataclasses.replace(c, mirrored=mirrored, stopped=c.stopped or more)
    return c


def _swapped_start(variant: str) -> BitsKey | None:
    """What a colour-swapped record stores at ply 0 (the starting placement with the other
    side to move, :func:`~pdnkit.openings.one_game.colours_swapped`), ``None`` for a variant
    whose starting placement is not the same seen from the other side."""
    start = Position.initial(get_rules(variant))
    other = start.with_side("W" if int(start.side) == 1 else "B")
    return square_bits(other) if mirror_position(other) == start else None


def stored_classifications(con: duckdb.DuckDBPyConnection, variant: str, book: OpeningBook,
                           games: str | None = None, *, between: tuple[int, int] | None = None
                           ) -> Iterator[tuple[int, Classification]]:
    """``(game_id, classification)`` of each stored game of ``variant`` that has positions
    (among those the SQL query ``games`` selects, and with a ``game_id`` from
    ``between[0]`` to ``between[1]``), by ``book``, read from ``position_bits`` in game
    order, :data:`CHUNK_GAMES` games a statement; nothing is written.

    Example:
        >>> from pdnkit.store import connect
        >>> list(stored_classifications(connect(":memory:"), "english", load_tables("english")))
        []
    """
    name = get_rules(variant).name
    swapped = _swapped_start(name)
    for gid, positions, more in _game_rows(con, name, book, games, between):
        yield gid, _classify_rows(book, positions, more, swapped)


def classify_games(con: duckdb.DuckDBPyConnection, variant: str,
                   book: OpeningBook | None = None, games: str | None = None, *,
                   findings: bool = True) -> int:
    """Classify the stored games of ``variant`` (those the SQL query ``games`` selects, one
    ``game_id`` column; ``None``: all) from their positions with ``book`` (default: the
    database's :func:`opening_book`) and write their opening columns and (unless not
    ``findings``) ``opening-tag-mismatch`` findings; returns the number of games written.
    Runs in the caller's transaction, if any, :data:`CHUNK_GAMES` games at a time.

    Example:
        >>> from pdnkit.store import connect
        >>> classify_games(connect(":memory:"), "english")
        0
    """
    name = get_rules(variant).name
    book = opening_book(con, name) if book is None else book
    only = "" if games is None else f"AND g.game_id IN ({games})"
    done = 0
    for lo, hi in game_ranges(con, f"g.variant = ? {only}", [name]):  # memory: a range's
        done += _classify_range(con, name, book, games, (lo, hi), findings)
    return done


def _classify_range(con: duckdb.DuckDBPyConnection, name: str, book: OpeningBook,
                    games: str | None, between: tuple[int, int], findings: bool) -> int:
    """:func:`classify_games` of the selected games from ``between[0]`` to
    ``between[1]``."""
    only = ("" if games is None else f"AND g.game_id IN ({games}) ") + (
        f"AND g.game_id BETWEEN {int(between[0])} AND {int(between[1])}")
    meta = {int(r[0]): r[1:] for r in con.execute(
        f"SELECT g.game_id, g.file_id, g.game_index, g.line, "
        f"CASE WHEN {_HAS_TAG} THEN g.tags END FROM games g WHERE g.variant = ? {only}",
        [name]).fetchall()}
    if not meta:
        return 0
    if not len(book):  # no tables: nothing to name, as at import
        _write_columns(con, [(gid, None, None, None, None, None) for gid in meta])
        if findings:
            _write_findings(con, book, meta, [], only, name)
        return len(meta)
    out: dict[int, tuple[str | None, str | None, int | None, str | None, bool | None]] = {}
    notes: list[tuple[int, Classification]] = []
    for gid, c in stored_classifications(con, name, book, games, between=between):
        out[gid] = (c.code, c.name, c.ply, coded_family(c), c.mirrored)
        if gid in meta and meta[gid][3]:
            notes.append((gid, c))
    # a game without stored positions (unparsed) is read in its own colours, as at import
    _write_columns(con, [(gid, *out.get(gid, (None, None, None, None, False))) for gid in meta])
    if findings:
        _write_findings(con, book, meta, notes, only, name)
    return len(meta)


def _write_columns(con: duckdb.DuckDBPyConnection, rows: Sequence[tuple[object, ...]]) -> None:
    """``games``' opening columns from ``rows`` (game_id, code, name, ply, family,
    mirrored)."""
    import pyarrow as pa

    cols = list(zip(*rows, strict=True))
    table = pa.table({"game_id": pa.array(cols[0], pa.int64()),
                      "code": pa.array(cols[1], pa.string()),
                      "name": pa.array(cols[2], pa.string()),
                      "ply": pa.array(cols[3], pa.int32()),
                      "family": pa.array(cols[4], pa.string()),
                      "mirrored": pa.array(cols[5], pa.bool_())})
    con.from_arrow(table).query("_pdnkit_openings", """
        UPDATE games SET opening_code = o.code, opening_name = o.name, opening_ply = o.ply,
                         opening_family = o.family, opening_mirrored = o.mirrored
        FROM _pdnkit_openings o WHERE games.game_id = o.game_id""")


def _write_findings(con: duckdb.DuckDBPyConnection, book: OpeningBook,
                    meta: dict[int, tuple[object, ...]],
                    notes: list[tuple[int, Classification]], only: str, variant: str) -> None:
    """The ``opening-tag-mismatch`` findings of the games classified (the old ones
    replaced)."""
    con.execute(f"DELETE FROM findings WHERE code = ? AND game_id IN (SELECT g.game_id FROM "
                f"games g WHERE g.variant = ? {only})", [FINDING_CODE, variant])
    rows = []
    for gid, c in notes:
        file_id, index, line, tags = meta[gid]
        pairs = list(tags.items()) if isinstance(tags, dict) else []
        f = tag_finding(pairs, c, book)
        if f is None:
            continue
        raw = con.execute("SELECT raw_pdn FROM games WHERE game_id = ?", [gid]).fetchall()
        at = tag_line(raw[0][0] if raw else None, line if isinstance(line, int) else None,
                      f.details["tag"])
        rows.append((gid, file_id, index, f.code, f.severity.value, f.message, at, None, None,
                     None, None, False, json.dumps(f.details, ensure_ascii=False)))
    if rows:
        con.executemany("INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        rows)


# --------------------------------------------------------------------------------------------
# the fill step, the users' tables


def fill_upgrade(con: duckdb.DuckDBPyConnection) -> None:
    """The upgrade's fill step (registered by :mod:`pdnkit.store.upgrades`): the opening
    columns and novelties of every game of the upgraded copy, and the
    ``opening-tag-mismatch`` findings of the games whose opening tag disagrees with their
    moves, as an import writes them (:func:`fill_database`; the upgrade's check counts
    every old row after the copy, and the findings at least as many after this step).

    Example:
        >>> from pdnkit.store import connect
        >>> fill_upgrade(connect(":memory:"))
    """
    fill_database(con)


@dataclass(frozen=True)
class FillSummary:
    """What :func:`fill_database` did: games seen, games with an opening, games with a
    novelty ply, ``opening-tag-mismatch`` findings written."""

    games: int
    classified: int
    novelties: int
    findings: int


def fill_database(con: duckdb.DuckDBPyConnection, *, findings: bool = True) -> FillSummary:
    """Classify every game of the database from its stored positions and recompute every
    game's novelty: the opening columns of a database made before they existed, or made
    consistent again after a change of the loaded tables; with ``findings``, the
    ``opening-tag-mismatch`` findings too, as an import writes them. Runs in the caller's
    transaction, if any; safe to run again (it replaces what it wrote). An upgrade runs
    :func:`fill_upgrade`.

    Example:
        >>> from pdnkit.store import connect, import_files
        >>> import tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "a.pdn").write_text('[GameType "21"] 1. 11-15 23-19 8-11 22-17 4-8 *')
        >>> _ = import_files([d / "a.pdn"], db=d / "a.duckdb")
        >>> con = connect(d / "a.duckdb")
        >>> _ = con.execute("UPDATE games SET opening_code = NULL, opening_name = NULL")
        >>> fill_database(con).classified
        1
        >>> con.execute("SELECT opening_code, opening_name FROM games").fetchall()
        [('ACF 126', 'Old Fourteenth')]
    """
    variants = [v for (v,) in con.execute(
        "SELECT DISTINCT variant FROM games WHERE variant IS NOT NULL ORDER BY 1").fetchall()]
    for v in variants:
        try:
            get_rules(v)
        except ValueError:  # a variant this pdnkit does not know: nothing to classify
            continue
        classify_games(con, v, findings=findings)
    refresh_novelties(con)
    con.execute("DELETE FROM opening_pending")
    games, classified, novel = con.execute(
        "SELECT count(*), count(*) FILTER (WHERE opening_code IS NOT NULL OR opening_name "
        "IS NOT NULL), count(novelty_ply) FROM games").fetchall()[0]
    found = con.execute("SELECT count(*) FROM findings WHERE code = ?",
                        [FINDING_CODE]).fetchall()[0][0]
    return FillSummary(int(games), int(classified), int(novel), int(found))


@dataclass(frozen=True)
class LoadedTable:
    """What :func:`load_opening_table` stored: the table and the games re-classified."""

    table: StoredTable
    games: int


def load_opening_table(db: DbLike, path: str | Path, variant: str, *, kind: str = "name",
                       family: str | None = None, prefix: str = "",
                       replace: bool = False) -> LoadedTable:
    """Store the CSV table ``path`` (the columns of the shipped tables, every line replayed:
    :func:`~pdnkit.openings.table.read_table`) in the database for ``variant`` and
    re-classify that variant's games with it, in one transaction. ``family`` names the
    table (default: the file's name without extension); a name already loaded is refused
    unless ``replace``, a name of a shipped table always. Raises
    :class:`~pdnkit.openings.table.OpeningTableError` for a table that cannot be used, and
    refuses a lake (its tables are views).

    Example:
        >>> import tempfile, os
        >>> from pdnkit.store import connect
        >>> d = tempfile.mkdtemp(); p = os.path.join(d, "club.csv")
        >>> with open(p, "w", encoding="utf-8") as f:
        ...     _ = f.write("code,name,moves,source\\nc1,Club line,32-28 18-23,our book\\n")
        >>> load_opening_table(connect(":memory:"), p, "international").table.entries
        1
    """
    from pdnkit.store.session import writing

    name = get_rules(variant).name
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise OpeningTableError(f"{path}: cannot read the table: {exc}") from None
    except UnicodeDecodeError as exc:
        raise OpeningTableError(f"{path}: not UTF-8 text: {exc}") from None
    family = family or path.stem
    entries = read_table(io.StringIO(text, newline=""), name, family=family, kind=kind,
                         prefix=prefix, name=str(path))
    if family in load_tables(name).families():
        raise OpeningTableError(f"{family!r} is the name of a table shipped with pdnkit for "
                                f"{name}: give the table another name (--family)")
    with writing(db, what="opening tables") as con:
        had = [t for t in stored_tables(con, name) if t.family == family]
        if had and not replace:
            raise OpeningTableError(f"a table {family!r} is loaded for {name} already "
                                    f"(from {had[0].source}): --replace loads it again")
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute("DELETE FROM opening_tables WHERE variant = ? AND family = ?",
                        [name, family])
            now = _dt.datetime.now()
            con.execute("INSERT INTO opening_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [name, family, kind, prefix, str(path), len(entries), now, text])
            games = classify_games(con, name)
            con.execute("COMMIT")
        except BaseException:
            rollback(con)
            raise
    return LoadedTable(StoredTable(name, family, kind, prefix, str(path), len(entries), now),
                       games)


# --------------------------------------------------------------------------------------------
# the import's upkeep


def _ids(ids: Iterable[int]) -> str:
    return ", ".join(str(int(i)) for i in ids)


def mark_removed(con: duckdb.DuckDBPyConnection, file_ids: Sequence[int]) -> None:
    """Before the import deletes the games of ``file_ids`` (a file replaced or edited):
    mark the games whose novelty the removal may change (``opening_pending``), to be
    recomputed at the end of the import (:func:`settle_import`).

    Example:
        >>> from pdnkit.store import connect
        >>> mark_removed(connect(":memory:"), [1])
    """
    if not file_ids:
        return
    removed = f"SELECT game_id FROM games WHERE file_id IN ({_ids(file_ids)})"
    touched = affected_by_removal(con, removed)
    if touched:
        con.executemany("INSERT INTO opening_pending VALUES (?)", [(g,) for g in touched])


def mark_loaded(con: duckdb.DuckDBPyConnection, first: int, end: int) -> None:
    """After the rows of games ``first`` .. ``end - 1`` are loaded: mark them, so that the
    end of the import (:func:`settle_import`) classifies them by the tables loaded into the
    database and computes their novelties (and those of the games they change).

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> mark_loaded(con, 1, 3)
        >>> con.execute("SELECT count(*) FROM opening_pending").fetchall()
        [(2,)]
    """
    if end > first:
        con.execute("INSERT INTO opening_pending SELECT range FROM range(?, ?)",
                    [int(first), int(end)])


#: bytes of DuckDB's memory limit a game of the settle starts with: the settle works through
#: the marked games in batches of ``memory_limit // SETTLE_BYTES_PER_GAME`` games (96 MB:
#: 23,424 games), each in a transaction of its own, so that its memory stays bounded whatever
#: the size of the database and of the import (every statement's working set grows with the
#: games of a batch: the distinct positions they reached, the rows they update). A batch
#: DuckDB cannot hold (``Out of Memory Error``: not every operator spills) is rolled back and
#: done again in halves, down to :data:`SETTLE_MIN_BATCH` games
SETTLE_BYTES_PER_GAME = 4096
#: the fewest games of a settle's batch
SETTLE_MIN_BATCH = 500

_UNITS = {"": 1, "B": 1, "BYTES": 1, "KB": 1000, "KIB": 1024, "MB": 1000**2, "MIB": 1024**2,
          "GB": 1000**3, "GIB": 1024**3, "TB": 1000**4, "TIB": 1024**4}


def settle_batch(con: duckdb.DuckDBPyConnection) -> int:
    """The number of marked games :func:`settle_import` recomputes at a time: a share of
    the connection's ``memory_limit`` (:data:`SETTLE_BYTES_PER_GAME`).

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> _ = con.execute("SET memory_limit = '96MB'")
        >>> settle_batch(con)
        23424
    """
    text = str(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
    number, _, unit = text.strip().partition(" ")
    try:
        limit = float(number) * _UNITS.get(unit.strip().upper(), 1)
    except ValueError:
        return SETTLE_MIN_BATCH
    return max(SETTLE_MIN_BATCH, int(limit) // SETTLE_BYTES_PER_GAME)


def _batches(con: duckdb.DuckDBPyConnection, size: int) -> list[tuple[int, int]]:
    """The marked games as ranges of ``game_id`` (first, last) of ``size`` games each."""
    ids = [int(g) for (g,) in con.execute(
        "SELECT DISTINCT game_id FROM opening_pending ORDER BY 1").fetchall()]
    return [(ids[i], ids[min(i + size, len(ids)) - 1]) for i in range(0, len(ids), size)]


def _in_one_transaction(con: duckdb.DuckDBPyConnection, work: Callable[[], int]) -> int:
    con.execute("BEGIN TRANSACTION")
    try:
        n = work()
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    return n


def _out_of_memory(exc: BaseException) -> bool:
    return type(exc).__name__ == "OutOfMemoryException" and \
        type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb")


def settle_import(con: duckdb.DuckDBPyConnection) -> int:
    """At the end of an import: the marked games (``opening_pending``) of a variant with
    loaded tables are classified again with them, the games whose novelty the new ones
    change are added to the marks, and the novelties of all of them recomputed; the marks
    are cleared. It works in batches of games (:func:`settle_batch`, halved while DuckDB
    runs out of memory), each batch in a transaction of its own that clears its marks: its
    memory stays within the import's limit whatever the size of the database. An import
    stopped before the end leaves the marks not yet cleared, and the next one settles them.
    Returns the number of games recomputed.

    Example:
        >>> from pdnkit.store import connect
        >>> settle_import(connect(":memory:"))
        0
    """
    if not con.execute("SELECT count(*) FROM opening_pending").fetchall()[0][0]:
        return 0
    size = settle_batch(con)
    variants = sorted({t.variant for t in stored_tables(con)})
    rng = "SELECT DISTINCT game_id FROM opening_pending WHERE game_id BETWEEN {} AND {}"

    def affected() -> int:  # before any novelty changes: those of the others are current
        touched: set[int] = set()
        for lo, hi in _batches(con, size):
            touched.update(affected_by_new(con, rng.format(lo, hi)))
        touched -= {int(g) for (g,) in con.execute("SELECT game_id FROM opening_pending")
                    .fetchall()}
        if touched:
            con.executemany("INSERT INTO opening_pending VALUES (?)", [(g,) for g in touched])
        return len(touched)

    def one(lo: int, hi: int) -> int:
        for variant in variants:
            classify_games(con, variant, games=rng.format(lo, hi))
        n = refresh_novelties(con, rng.format(lo, hi))
        con.execute("DELETE FROM opening_pending WHERE game_id BETWEEN ? AND ?", [lo, hi])
        return n

    done = 0
    while True:
        try:
            _in_one_transaction(con, affected)
            break
        except Exception as exc:
            if not _out_of_memory(exc) or size <= SETTLE_MIN_BATCH:
                raise
            size = max(SETTLE_MIN_BATCH, size // 2)
    while batches := _batches(con, size):
        try:
            for lo, hi in batches:
                done += _in_one_transaction(con, functools.partial(one, lo, hi))
        except Exception as exc:  # the batches done are committed; the rest in halves
            if not _out_of_memory(exc) or size <= SETTLE_MIN_BATCH:
                raise
            size = max(SETTLE_MIN_BATCH, size // 2)
    return done
