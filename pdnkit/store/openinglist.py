"""What the opening tables know and what they make of games, as tables: :func:`list_openings`
(``pdnkit openings list``) and :func:`classify` (``pdnkit openings classify``: games labelled
without importing them).

Example:
    >>> df = list_openings(variant="english")
    >>> list(df["family"])
    ['acf-3move', '2move', '11man', 'names']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.openings.book import OpeningBook, load_tables, load_user_table, table_index
from pdnkit.openings.labels import coded_family
from pdnkit.openings.one_game import classify_record
from pdnkit.openings.tagcheck import OPENING_TAGS, check_opening_tag
from pdnkit.rules import get_rules, list_variants

if TYPE_CHECKING:
    import duckdb
    import pandas as pd
    import pyarrow as pa

    from pdnkit.openings.book import Classification
    from pdnkit.store.session import DbLike

__all__ = ["CLASSIFY_COLUMNS", "CLASSIFY_TYPES", "ClassifyStream", "classify",
           "classify_stream", "list_openings"]

#: the book of a variant (and, reading a database, its connection)
_BookOf = Callable[..., OpeningBook]

#: the columns of :func:`classify`
CLASSIFY_COLUMNS = ["file", "game", "line", "variant", "white", "black", "result",
                    "opening_code", "opening_name", "opening_ply", "opening_family",
                    "mirrored", "tag", "tag_verdict"]


def _variants(variant: str | None) -> list[str]:
    """``variant``'s canonical name, or every variant with shipped tables."""
    if variant is not None:
        return [get_rules(variant).name]
    known = {r.name for r in list_variants(editions=False)}
    return [v for v in dict.fromkeys(v for t in table_index() for v in t.variants) if v in known]


def list_openings(db: DbLike | None = None, *, variant: str | None = None,
                  entries: bool = False, all_copies: bool = False) -> pd.DataFrame:
    """The opening tables of ``variant`` (default: every variant that has some): the tables
    shipped with pdnkit and, with ``db``, those loaded into that database, each with its
    kind, entries, named entries, source and (with ``db``) the games it names there. With
    ``entries``, one row per entry instead: code, name, transliteration, defining line (in
    canonical notation) or set-up, flags and source, with the games (``db``) whose code or
    name it is. Games are counted once each (the copies of a game left out) unless
    ``all_copies``.

    Example:
        >>> list_openings(variant="russian", entries=True).iloc[0][["family", "code"]].tolist()
        ['codes', 'I-1']
    """
    import pandas as pd

    if db is None:
        return pd.DataFrame(_rows(None, _variants(variant), entries))
    from pdnkit.store.session import reading

    with reading(db) as con:
        names = _variants(variant)
        if variant is None:
            from pdnkit.store.openingdb import stored_tables

            names += [t.variant for t in stored_tables(con) if t.variant not in names]
        return pd.DataFrame(_rows(con, names, entries, all_copies))


def _rows(con: duckdb.DuckDBPyConnection | None, variants: list[str],
          entries: bool, all_copies: bool = False) -> list[dict[str, object]]:
    """The rows of :func:`list_openings`."""
    from pdnkit.store.openingdb import opening_book, stored_tables

    out: list[dict[str, object]] = []
    for v in variants:
        book = load_tables(v) if con is None else opening_book(con, v)
        games = _games(con, v, all_copies)
        about = {t.family: t.description for t in table_index() if v in t.variants}
        if con is not None:
            about.update({t.family: f"loaded from {t.source} ({t.loaded_at:%Y-%m-%d})"
                          for t in stored_tables(con, v)})
        if entries:
            out += [{"variant": v, "family": e.family, "kind": e.kind, "code": e.full_code,
                     "name": e.name, "translit": e.translit,
                     "moves": " ".join(e.notation) or None, "fen": e.fen,
                     "flags": ";".join(e.flags) or None, "source": e.source,
                     **({} if games is None else {"games": _count(games, e.kind, e.full_code,
                                                                  e.name)})}
                    for e in book.entries]
            continue
        for family, n in book.families().items():
            members = [e for e in book.entries if e.family == family]
            row: dict[str, object] = {
                "variant": v, "family": family, "kind": members[0].kind,
                "prefix": members[0].prefix, "entries": n,
                "named": sum(1 for e in members if e.name), "source": about.get(family)}
            if games is not None:
                row["games"] = (sum(games[0].get(e.full_code, 0) for e in members)
                                if members[0].kind != "name" else
                                sum(games[1].get(nm, 0) for nm in {e.name for e in members
                                                                   if e.name}))
            out.append(row)
    return out


def _games(con: duckdb.DuckDBPyConnection | None, variant: str,
           all_copies: bool = False) -> tuple[dict[str, int], dict[str, int]] | None:
    """Games of ``variant`` per opening code and per opening name (``None`` without a
    database), each game once unless ``all_copies``."""
    if con is None:
        return None
    once = "" if all_copies else "AND duplicate_of IS NULL "
    codes = dict(con.execute("SELECT opening_code, count(*) FROM games WHERE variant = ? "
                             f"AND opening_code IS NOT NULL {once}GROUP BY 1",
                             [variant]).fetchall())
    names = dict(con.execute("SELECT opening_name, count(*) FROM games WHERE variant = ? "
                             f"AND opening_name IS NOT NULL {once}GROUP BY 1",
                             [variant]).fetchall())
    return codes, names


def _count(games: tuple[dict[str, int], dict[str, int]], kind: str, code: str,
           name: str | None) -> int:
    return games[1].get(name or "", 0) if kind == "name" else games[0].get(code, 0)


#: the DuckDB type of each column of :data:`CLASSIFY_COLUMNS`
CLASSIFY_TYPES = ["VARCHAR", "BIGINT", "BIGINT", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR",
                  "VARCHAR", "VARCHAR", "INTEGER", "VARCHAR", "BOOLEAN", "VARCHAR", "VARCHAR"]

#: the columns a whole :func:`classify` gives as pandas' nullable integers (a game whose
#: opening is unknown has no ply: ``2``, not ``2.0``)
_INTEGERS = ("game", "line", "opening_ply")

#: true for a game whose tags may hold an opening tag (:data:`OPENING_TAGS`, compared as
#: :func:`~pdnkit.openings.tagcheck.check_opening_tag` does): a name holding one of the ASCII
#: tags' names in any case and spacing, or any name with a letter past ASCII; only those
#: games' tags are read into Python (the rest cannot change a row)
_MAY_NAME_OPENING = (
    "list_bool_or(list_transform(map_keys(g.tags), lambda k: strlen(k) <> length(k) OR "
    "regexp_matches(lower(k), '" + "|".join(re.escape(t.casefold()) for t in OPENING_TAGS
                                            if t.isascii()) + "')))")

#: the rows :class:`ClassifyStream` hands over at once (replayed files)
_FILE_ROWS = 2_000

_Row = dict[str, object]
#: the rows of a stream, a part at a time
_Parts = Generator[list[_Row], None, None]


class ClassifyStream:
    """The rows of :func:`classify` as Arrow record batches, read and classified a part at a
    time (:func:`classify_stream`): :attr:`columns`, :attr:`types` (DuckDB's names), and
    :meth:`close`, which stops the reading and closes the database. Iterate once."""

    columns = CLASSIFY_COLUMNS
    types = CLASSIFY_TYPES

    def __init__(self, parts: _Parts, on_close: Callable[[], object]) -> None:
        self._parts = parts
        self._on_close = on_close

    def frame(self) -> pd.DataFrame:
        """Every row at once, as :func:`classify` gives them (in place of the batches)."""
        import pandas as pd

        df = pd.DataFrame([row for part in self._parts for row in part],
                          columns=CLASSIFY_COLUMNS)
        return df.astype({c: "Int64" for c in _INTEGERS})

    def __iter__(self) -> Iterator[pa.RecordBatch]:
        from pdnkit._arrow import pyarrow_module

        pa_ = pyarrow_module()
        schema = pa_.schema([(c, getattr(pa_, _ARROW[t])())
                             for c, t in zip(CLASSIFY_COLUMNS, CLASSIFY_TYPES, strict=True)])
        for rows in self._parts:
            if rows:
                yield pa_.RecordBatch.from_pylist(rows, schema=schema)

    def close(self) -> None:
        """Stop reading (the database the stream opened is closed)."""
        self._parts.close()
        self._on_close()

    def __enter__(self) -> ClassifyStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: pyarrow's name of the Arrow type of each DuckDB type of :data:`CLASSIFY_TYPES`
_ARROW = {"VARCHAR": "string", "BIGINT": "int64", "INTEGER": "int32", "BOOLEAN": "bool_"}


def classify_stream(paths: Iterable[str | Path] | str | Path | None = None, *,
                    db: DbLike | None = None, variant: str | None = None,
                    tables: Sequence[str | Path] = (), kind: str = "name",
                    edition: str | None = None, encoding: str | None = None,
                    all_copies: bool = False) -> ClassifyStream:
    """The rows of :func:`classify` (the same arguments) as they are made: a database's
    games :data:`~pdnkit.store.openingdb.CHUNK_GAMES` at a time, a file's as they are
    replayed; memory stays flat whatever the number of games. Close it (or use ``with``)
    when not read to the end.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "g.pdn")
        >>> with open(p, "w", encoding="utf-8") as f:
        ...     _ = f.write('[GameType "21"] 1. 11-15 23-19 8-11 22-17 4-8 *')
        >>> with classify_stream(p) as s:
        ...     [b.column("opening_code").to_pylist() for b in s]
        [['ACF 126']]
    """
    if (paths is None) == (db is None):
        raise ArgumentError("give PDN files or a database, not both and not neither")
    book_of = _books(tables, kind)
    if db is None:
        return ClassifyStream(_file_parts(paths if paths is not None else [], variant, book_of,
                                          edition, encoding), lambda: None)
    from pdnkit.store.session import scanning

    with ExitStack() as stack:
        con = stack.enter_context(scanning(db))  # a missing database fails here, at once
        later = stack.pop_all()
    return ClassifyStream(_db_parts(con, variant, book_of, all_copies), later.close)


def classify(paths: Iterable[str | Path] | str | Path | None = None, *,
             db: DbLike | None = None, variant: str | None = None,
             tables: Sequence[str | Path] = (), kind: str = "name",
             edition: str | None = None, encoding: str | None = None,
             all_copies: bool = False) -> pd.DataFrame:
    """The opening of every game of PDN files (``paths``, replayed here) or of a database
    (``db``, from its stored positions), without importing or writing anything: one row per
    game (:data:`CLASSIFY_COLUMNS`) with its code, name, the ply it reached them, the code's
    table, whether it was read with the colours swapped, and its opening tag with the
    verdict of the tag check (``agrees``, ``disagrees``, ``unknown``). ``variant`` applies
    to games whose tags do not name one (files) or selects the games (``db``); ``tables``
    are users' CSV tables (of ``kind``) used beside the shipped ones (and, with ``db``, the
    tables loaded into it). From a database, each game once (the copies of a game left out,
    :mod:`pdnkit.store.copies`) unless ``all_copies``. :func:`classify_stream` gives the
    same rows a part at a time.

    Example:
        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "g.pdn")
        >>> with open(p, "w", encoding="utf-8") as f:
        ...     _ = f.write('[GameType "21"] 1. 11-15 23-19 8-11 22-17 4-8 *')
        >>> df = classify(p)
        >>> df.loc[0, ["opening_code", "opening_name"]].tolist(), str(df.loc[0, "opening_ply"])
        (['ACF 126', 'Old Fourteenth'], '5')
    """
    with classify_stream(paths, db=db, variant=variant, tables=tables, kind=kind,
                         edition=edition, encoding=encoding, all_copies=all_copies) as s:
        return s.frame()


def _books(tables: Sequence[str | Path], kind: str) -> _BookOf:
    """The book of a variant: the shipped tables (or, given a connection, the database's
    book) with the users' ``tables`` of ``kind`` beside them, each user table read once."""
    extra: dict[str, list[OpeningBook]] = {}

    def book_of(v: str, con: duckdb.DuckDBPyConnection | None = None) -> OpeningBook:
        if v not in extra:
            extra[v] = [load_user_table(t, v, kind=kind) for t in tables]
        if con is None:
            base = load_tables(v)
        else:
            from pdnkit.store.openingdb import opening_book

            base = opening_book(con, v)
        return base.combined(*extra[v]) if extra[v] else base

    return book_of


def _row(c: Classification, book: OpeningBook | None,
         tags: Iterable[tuple[str, str]], **game: object) -> _Row:
    checks = check_opening_tag(list(tags), c, book) if book is not None else []
    first = checks[0] if checks else None
    return {**game, "opening_code": c.code, "opening_name": c.name, "opening_ply": c.ply,
            "opening_family": coded_family(c), "mirrored": c.mirrored,
            "tag": first.value if first else None, "tag_verdict": first.verdict if first else None}


def _file_parts(paths: Iterable[str | Path] | str | Path, variant: str | None,
                book_of: _BookOf, edition: str | None,
                encoding: str | None) -> _Parts:
    """The rows of :func:`classify` for PDN files, :data:`_FILE_ROWS` at a time."""
    from pdnkit.validation import validate

    part: list[_Row] = []
    for rep in validate(paths, variant=variant, edition=edition, encoding=encoding):
        book = book_of(rep.variant) if rep.variant else None
        c = classify_record(rep, book)
        tags = rep.record.tags if rep.record is not None else []
        part.append(_row(c, book, tags, file=rep.file, game=rep.index + 1, line=rep.line,
                         variant=rep.variant, white=rep.white, black=rep.black,
                         result=rep.result))
        if len(part) == _FILE_ROWS:
            yield part
            part = []
    yield part


def _db_parts(con: duckdb.DuckDBPyConnection, variant: str | None, book_of: _BookOf,
              all_copies: bool = False) -> _Parts:
    """The rows of :func:`classify` for a database's stored games, a range of
    :data:`~pdnkit.store.openingdb.CHUNK_GAMES` games at a time."""
    from pdnkit.store.openingdb import game_ranges

    where = "g.variant IS NOT NULL" + ("" if variant is None else " AND g.variant = ?") + (
        "" if all_copies else " AND g.duplicate_of IS NULL")
    params: list[object] = [] if variant is None else [get_rules(variant).name]
    books: dict[str, OpeningBook | None] = {}
    for lo, hi in game_ranges(con, where, params):
        yield _range_part(con, where, params, (lo, hi), books, book_of)


def _range_part(con: duckdb.DuckDBPyConnection, where: str, params: list[object],
                between: tuple[int, int], books: dict[str, OpeningBook | None],
                book_of: _BookOf) -> list[_Row]:
    """The rows of the games from ``between[0]`` to ``between[1]`` (``books``: each
    variant's book, made once; ``None`` for a variant this pdnkit does not know)."""
    from pdnkit.openings.book import Classification
    from pdnkit.store.openingdb import stored_classifications

    games = con.execute(f"""
        SELECT g.game_id, f.path, g.game_index + 1, g.line, g.variant, g.white, g.black,
               g.result, CASE WHEN {_MAY_NAME_OPENING} THEN g.tags END
        FROM games g LEFT JOIN files f USING (file_id)
        WHERE {where} AND g.game_id BETWEEN ? AND ? ORDER BY g.game_id""",
                        [*params, *between]).fetchall()
    found: dict[int, Classification] = {}
    for v in sorted({str(r[4]) for r in games}):
        if v not in books:
            try:
                books[v] = book_of(v, con)
            except ValueError:  # a variant this pdnkit does not know
                books[v] = None
        book = books[v]
        if book is not None:
            found.update(stored_classifications(con, v, book, between=between))
    out = []
    for gid, path, number, line, v, white, black, result, tags in games:
        c = found.get(int(gid), Classification.empty())
        out.append(_row(c, books.get(str(v)), list((tags or {}).items()), file=path,
                        game=number, line=line, variant=v, white=white, black=black,
                        result=result))
    return out
