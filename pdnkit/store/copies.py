"""Copies of one game in a database: each group found, one record standing for it, kept
current as files are added, replaced or removed.

The rules are :mod:`pdnkit.store.copyrules`'; this module finds in the database the records
they apply to and writes the result: ``games.duplicate_of`` (the record that stands for the
group; NULL for it and for a game without copies) and ``games.duplicate_kind`` (how the copy
differs from it), and the ``probable-copy`` findings. Every statistic reads the games whose
``duplicate_of`` is NULL (:class:`pdnkit.stats.filters.GameFilter`), so each game counts once.

How records are related, in SQL over the stored rows:

* the **same main line**: equal ``moves_hash`` (variant, start and every move of the main
  line; comments, NAGs and variations are not part of it);
* a **prefix**: a fully replayed main line of at least
  :data:`~pdnkit.store.copyrules.MIN_PREFIX_PLIES` plies whose last position another line
  reaches at the same ply (``position_bits``: one hash join), then checked move by move.

Only the lines near the records that changed are examined (:func:`regroup`): the lines of
those records, and every line related to them, transitively. The import marks its games in
``copy_pending`` (:func:`mark_loaded`; before a file is replaced, :func:`mark_removed` marks
the games its removal affects) and settles them once at its end (:func:`settle_copies`),
before the novelties, which count each game once too: a record that stops or starts
standing for its group is marked for them (``opening_pending``).

Example:
    >>> from pdnkit.store import connect, import_files
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> game = ('[Event "Cup"][Date "2001.05.02"][White "Ann"][Black "Bob"][Result "1-0"] '
    ...         '1. 32-28 19-23 2. 28x19 14x23 1-0\\n')
    >>> _ = (d / "a.pdn").write_text(game)
    >>> _ = (d / "b.pdn").write_text(game.replace("19-23", "19-23 {book}"))
    >>> _ = import_files([d / "b.pdn", d / "a.pdn"], db=d / "g.duckdb", variant="international")
    >>> connect(d / "g.duckdb").execute(
    ...     "SELECT game_id, duplicate_of, duplicate_kind FROM games ORDER BY 1").fetchall()
    [(1, 2, 'annotated'), (2, None, None)]
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdnkit._arrow import pyarrow_module
from pdnkit.pdn.names import name_key
from pdnkit.rows.bitboards import bits_source
from pdnkit.store.copyrules import (
    MIN_PREFIX_PLIES,
    Assignment,
    Record,
    Tags,
    latin,
    partition,
    player_key,
    probable_bucket,
    probable_copies,
)
from pdnkit.store.transaction import rollback

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

__all__ = ["CODE", "Grouping", "Settled", "compute_groups", "copy_counts", "fill_upgrade",
           "group_rows", "insert_findings", "mark_loaded", "mark_removed",
           "probable_findings", "regroup", "regroup_names", "settle_copies", "temp_table"]

#: the finding of two records that are probably one game, counted as two until ruled
CODE = "probable-copy"
#: prefix searches of one regrouping, at most (each finds the lines related to the last)
MAX_ROUNDS = 12

#: SQL: a game's text without its tag pairs (``{t}``: the text)
_MOVETEXT = r"regexp_replace(coalesce({t}, ''), '^(\s*\[[^\]]*\])*', '')"


def _marks(m: str) -> str:
    """SQL: the marks of the movetext ``m`` (how many comments, variations and NAGs, and
    ``!``/``?`` signs): two records of one main line with other marks are annotated
    copies."""
    counts = [f"length({m}) - length(replace({m}, '{c}', ''))" for c in "{($"]
    counts.append(f"length({m}) - length(replace(replace({m}, '!', ''), '?', ''))")
    return "[" + ", ".join(counts) + "]"


@contextmanager
def _temp(con: duckdb.DuckDBPyConnection, *parts: str) -> Iterator[dict[str, str]]:
    """Names of temporary tables for one computation, dropped at the end."""
    tag = uuid.uuid4().hex[:10]
    names = {p: f"_pdnkit_cp_{p}_{tag}" for p in parts}
    try:
        yield names
    finally:
        for name in names.values():  # (after an error the transaction's rollback drops them)
            with suppress(Exception):
                con.execute(f"DROP TABLE IF EXISTS temp.{name}")


def temp_table(con: duckdb.DuckDBPyConnection, name: str, table: pa.Table) -> None:
    """The temporary table ``name`` holding the Arrow ``table`` (a temporary table, so a
    read-only connection can make it too)."""
    con.from_arrow(table).query("_pdnkit_arrow", "CREATE OR REPLACE TEMP TABLE "
                                f"{name.removeprefix('temp.')} AS SELECT * FROM _pdnkit_arrow")


def _ids(ids: Iterable[int]) -> str:
    return ", ".join(str(int(i)) for i in ids) or "NULL"


# --------------------------------------------------------------------------------------------
# finding the related lines


def _lines(con: duckdb.DuckDBPyConnection, t: dict[str, str]) -> None:
    """``lines``: every main line (``moves_hash``) numbered (``lid``), its variant numbered
    (``vid``), a record that stands for its positions, its length, and how many records
    have it; ``ends``: the last position of every fully replayed line long enough to be a
    prefix. The searches carry the numbers, not the hashes: half the memory."""
    con.execute(f"""
        CREATE TEMP TABLE {t['lines']} AS
        SELECT row_number() OVER () AS lid, dense_rank() OVER (ORDER BY variant) AS vid, *
        FROM (SELECT moves_hash AS h, any_value(variant) AS variant,
                     arg_max(game_id, replayed_plies) AS rep, max(replayed_plies) AS r,
                     max(plies) AS plies, count(*) AS n
              FROM games WHERE moves_hash IS NOT NULL GROUP BY moves_hash)""")
    con.execute(f"""
        CREATE TEMP TABLE {t['ends']} AS
        SELECT l.lid, l.vid, l.plies, p.ply, p.layout, p.black, p.wm, p.wk, p.bm, p.bk
        FROM {t['lines']} l JOIN {bits_source(con)} p ON p.game_id = l.rep AND p.ply = l.r
        WHERE l.r >= {MIN_PREFIX_PLIES} AND l.r = l.plies""")


_SAME_POSITION = ("p.ply = e.ply AND p.layout = e.layout AND p.black = e.black AND "
                  "p.wm = e.wm AND p.wk = e.wk AND p.bm = e.bm AND p.bk = e.bk")


def _candidate_pairs(con: duckdb.DuckDBPyConnection, t: dict[str, str],
                     frontier: str | None) -> list[tuple[int, int]]:
    """Pairs of lines ``(short, long)`` (their numbers) where ``long`` reaches the last
    position of ``short`` at the same ply, one of them among ``frontier`` (an SQL query of
    line numbers; ``None``: every line)."""
    bits = bits_source(con)
    if frontier is None:
        rows = con.execute(f"""
            SELECT DISTINCT e.lid, l.lid FROM {t['lines']} l
            JOIN {bits} p ON p.game_id = l.rep
            JOIN {t['ends']} e ON {_SAME_POSITION} AND e.vid = l.vid
            WHERE l.plies > e.plies""").fetchall()
        return [(int(a), int(b)) for a, b in rows]
    rows = con.execute(f"""
        SELECT DISTINCT e.lid, l.lid
        FROM (SELECT * FROM {t['ends']} WHERE lid IN ({frontier})) e
        JOIN {bits} p ON {_SAME_POSITION}
        JOIN {t['lines']} l ON l.rep = p.game_id AND l.vid = e.vid
        WHERE l.plies > e.plies
        UNION
        SELECT DISTINCT e.lid, l.lid
        FROM (SELECT * FROM {t['lines']} WHERE lid IN ({frontier})) l
        JOIN {bits} p ON p.game_id = l.rep
        JOIN {t['ends']} e ON {_SAME_POSITION} AND e.vid = l.vid
        WHERE l.plies > e.plies""").fetchall()
    return [(int(a), int(b)) for a, b in rows]


def _verified(con: duckdb.DuckDBPyConnection, t: dict[str, str],
              pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``pairs`` whose short line is move for move the start of the long one (the same
    last position at the same ply can be reached by other moves)."""
    if not pairs:
        return []
    pa = pyarrow_module()

    table = pa.table({"short": pa.array([a for a, _ in pairs], pa.int64()),
                      "long": pa.array([b for _, b in pairs], pa.int64())})
    temp_table(con, t["pairs"], table)
    text = "move_text(m.canonical, m.notation, m.origin, m.destination, m.captured)"
    rows = con.execute(f"""
        WITH pr AS (SELECT p.short, p.long, s.rep AS srep, l.rep AS lrep, s.plies AS k
                    FROM {t['pairs']} p JOIN {t['lines']} s ON s.lid = p.short
                    JOIN {t['lines']} l ON l.lid = p.long),
             sm AS (SELECT m.game_id, list({text} ORDER BY m.ply) AS mv FROM move_rows m
                    WHERE m.game_id IN (SELECT srep FROM pr) GROUP BY m.game_id),
             lm AS (SELECT pr.short, pr.long, pr.srep, list({text} ORDER BY m.ply) AS mv
                    FROM pr JOIN move_rows m ON m.game_id = pr.lrep AND m.ply <= pr.k
                    GROUP BY pr.short, pr.long, pr.srep)
        SELECT lm.short, lm.long FROM lm JOIN sm ON sm.game_id = lm.srep
        WHERE sm.mv = lm.mv""").fetchall()
    con.execute(f"DROP TABLE {t['pairs']}")
    return [(int(a), int(b)) for a, b in rows]


def _related_lines(con: duckdb.DuckDBPyConnection, t: dict[str, str],
                   games: str | None) -> list[tuple[str, str]]:
    """The lines of the records ``games`` selects (an SQL query of ``game_id``s; ``None``:
    every line) and every line related to them by a prefix, transitively, as the temporary
    table ``front`` (line numbers), and the verified prefix pairs among them (hashes)."""
    pa = pyarrow_module()
    if games is None:
        found = _verified(con, t, _candidate_pairs(con, t, None))
        con.execute(f"CREATE OR REPLACE TEMP TABLE {t['front']} AS SELECT lid FROM "
                    f"{t['lines']} WHERE n > 1")
        known = {x for p in found for x in p}
    else:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {t['front']} AS SELECT lid FROM "
                    f"{t['lines']} WHERE h IN (SELECT moves_hash FROM games WHERE game_id "
                    f"IN ({games}))")
        every = con.execute(f"SELECT (SELECT count(*) FROM {t['front']}), "
                            f"(SELECT count(*) FROM {t['lines']})").fetchall()[0]
        frontier: str | None = None if every[0] >= every[1] else f"SELECT lid FROM {t['front']}"
        known = {int(x) for (x,) in con.execute(f"SELECT lid FROM {t['front']}").fetchall()}
        found = []
        for _ in range(MAX_ROUNDS):
            seen = set(found)
            new = _verified(con, t, [p for p in _candidate_pairs(con, t, frontier)
                                     if p not in seen])
            found += new
            more = {x for p in new for x in p} - known
            if not more:
                break
            known |= more
            temp_table(con, t["next"], pa.table({"lid": pa.array(sorted(more), pa.int64())}))
            con.execute(f"INSERT INTO {t['front']} SELECT lid FROM {t['next']}")
            frontier = f"SELECT lid FROM {t['next']}"
    if games is None and known:
        temp_table(con, t["next"], pa.table({"lid": pa.array(sorted(known), pa.int64())}))
        con.execute(f"INSERT INTO {t['front']} SELECT lid FROM {t['next']}")
    if not found:
        return []
    hashes = dict(con.execute(
        f"SELECT lid, h FROM {t['lines']} WHERE lid IN "
        f"({_ids({x for p in found for x in p})})").fetchall())
    return sorted((str(hashes[a]), str(hashes[b])) for a, b in found)


# --------------------------------------------------------------------------------------------
# the records and their groups


#: SQL: the player each alias stands for
_ALIASES = "(SELECT alias, any_value(name) AS name FROM player_aliases GROUP BY alias)"

#: the columns of a record as :func:`_records` reads them
_FACTS = """
    SELECT g.game_id, g.moves_hash, coalesce(g.plies, 0), g.result, cardinality(g.tags),
           coalesce(e.n, 0), coalesce(fp.path, ''), g.game_index,
           coalesce(aw.name, g.white), coalesce(ab.name, g.black), g.date_raw, g.round,
           g.event, g.year,
           coalesce(f.sha256, ''), g.duplicate_of, g.variant
    FROM games g
    LEFT JOIN (SELECT game_id, count(*) AS n FROM findings WHERE severity = 'error'
               AND game_id IN ({sel}) GROUP BY game_id) e ON e.game_id = g.game_id
    LEFT JOIN (SELECT file_id, min(path) AS path FROM file_paths GROUP BY file_id) fp
           ON fp.file_id = g.file_id
    LEFT JOIN files f ON f.file_id = g.file_id
    LEFT JOIN _ALIASES aw ON aw.alias = trim(g.white)
    LEFT JOIN _ALIASES ab ON ab.alias = trim(g.black)
    WHERE g.game_id IN ({sel})""".replace(
    # the player a name stands for, as player_name() reads it (placeholders: Tags.of)
    "_ALIASES", _ALIASES)


#: SQL: a record without moves and with both players named (archives keep unfinished or
#: unrecorded games so): its "main line" is its players', and its tags must say the rest
_MOVELESS = ("g.moves_hash IS NULL AND coalesce(g.plies, 0) = 0 AND g.white IS NOT NULL "
             "AND g.black IS NOT NULL")


def _moveless_line(variant: str | None, tags: Tags) -> str | None:
    """The "main line" of a record without moves: its variant and its players (spelled as
    matching compares them), ``None`` where a player is unknown."""
    if tags.white is None or tags.black is None:
        return None
    return f"#0:{variant}:{name_key(latin(tags.white))}:{name_key(latin(tags.black))}"


@dataclass
class Grouping:
    """What :func:`compute_groups` found among the records it examined: each record's
    :class:`~pdnkit.store.copyrules.Assignment` (``assigned``: the records whose group was
    computed again), the probable copies (pairs of canonical records), and each record's
    former ``duplicate_of``."""

    assigned: dict[int, Assignment] = field(default_factory=dict)
    probable: list[tuple[int, int]] = field(default_factory=list)
    former: dict[int, int | None] = field(default_factory=dict)
    records: dict[int, Record] = field(default_factory=dict)

    def canonical_of(self, game_id: int) -> int:
        """The record standing for ``game_id``'s group (itself when not a copy)."""
        a = self.assigned.get(game_id)
        if a is not None:
            return a.canonical
        former = self.former.get(game_id)
        return game_id if former is None else former


def _rulings(con: duckdb.DuckDBPyConnection) -> tuple[list[tuple[int, int]],
                                                      list[tuple[int, int]]]:
    """The users' rulings as pairs of the ``game_id``s they name: one game, two games."""
    rows = con.execute("""
        SELECT a.game_id, b.game_id, r.same FROM copy_rulings r
        JOIN files fa ON fa.sha256 = r.first_sha256
        JOIN games a ON a.file_id = fa.file_id AND a.game_index = r.first_index
        JOIN files fb ON fb.sha256 = r.second_sha256
        JOIN games b ON b.file_id = fb.file_id AND b.game_index = r.second_index""").fetchall()
    same = [(int(a), int(b)) for a, b, s in rows if s]
    return same, [(int(a), int(b)) for a, b, s in rows if not s]


def _has_rulings(con: duckdb.DuckDBPyConnection) -> bool:
    try:
        return bool(con.execute("SELECT count(*) FROM copy_rulings").fetchall()[0][0])
    except Exception as exc:  # a lake, or a database made before rulings (read-only)
        if type(exc).__module__.split(".")[0] in ("duckdb", "_duckdb"):
            return False
        raise


def _records(con: duckdb.DuckDBPyConnection, sel: str) -> tuple[dict[int, Record],
                                                               dict[int, int | None]]:
    """The records ``sel`` (an SQL query of ``game_id``s) selects, and their current
    ``duplicate_of``."""
    records: dict[int, Record] = {}
    former: dict[int, int | None] = {}
    cur = con.execute(_FACTS.format(sel=sel))
    of = Tags.of
    while rows := cur.fetchmany(20000):
        for (gid, line, plies, result, ntags, errors, path, index, white, black, date,
             rnd, event, year, sha, dup, variant) in rows:
            tags = of(white, black, date, rnd, event, year, result)
            if line is None:
                line = (_moveless_line(variant, tags) if not plies else None) or f"#{gid}"
            records[gid] = Record(gid, line, plies, result, ntags or 0, errors, path, index,
                                  tags, (sha, index))
            former[gid] = dup
    return records, former


def compute_groups(con: duckdb.DuckDBPyConnection, games: str | None = None) -> Grouping:
    """Group the records near ``games`` (an SQL query of ``game_id``s: records loaded,
    changed or about to lose a neighbour; ``None``: every record): every record whose main
    line is one of theirs or related to one of theirs by a prefix, transitively, and the
    records a user's ruling ties to those, are put into groups again
    (:func:`~pdnkit.store.copyrules.partition`); the probable copies among them and the
    records of the same years are listed. Nothing is written: the database is only read
    (a lake's views will do).

    Example:
        >>> from pdnkit.store import connect
        >>> compute_groups(connect(":memory:")).assigned
        {}
    """
    rulings = _rulings(con) if _has_rulings(con) else ([], [])
    with _temp(con, "lines", "ends", "pairs", "front", "next", "sel", "partners") as t:
        _lines(con, t)
        prefixes = _related_lines(con, t, games)
        ruled = {g for pair in rulings[0] + rulings[1] for g in pair}
        chosen = (f"SELECT g.game_id FROM games g JOIN {t['lines']} l ON l.h = g.moves_hash "
                  f"WHERE l.lid IN (SELECT lid FROM {t['front']})")
        if games is None:  # every record without moves whose players are known, too
            chosen += f" UNION SELECT g.game_id FROM games g WHERE {_MOVELESS}"
        else:  # with the records without moves of the years of those without moves
            chosen += (f" UNION SELECT game_id FROM ({games}) UNION SELECT g.game_id FROM "
                       f"games g WHERE {_MOVELESS} AND coalesce(g.year, -1) IN (SELECT "
                       f"coalesce(g.year, -1) FROM games g WHERE g.game_id IN ({games}) "
                       f"AND {_MOVELESS})")
        if ruled:
            chosen += f" UNION SELECT game_id FROM games WHERE game_id IN ({_ids(ruled)})"
        con.execute(f"CREATE TEMP TABLE {t['sel']} AS {chosen}")
        sel = f"SELECT game_id FROM {t['sel']}"
        records, former = _records(con, sel)
        partners = _probable_partners(con, sel, games is None)
        if partners and games is not None:
            partners = _same_players(con, partners, records, t["partners"])
        more, more_former = _records(con, partners) if partners else ({}, {})
    assigned = partition(records.values(), prefixes, *rulings)
    grouping = Grouping(assigned, [], {**more_former, **former}, {**more, **records})
    canonical = {g: grouping.canonical_of(g) for g in grouping.records}
    grouping.probable = probable_copies(grouping.records.values(), canonical, rulings[1])
    return grouping


#: SQL: what a record's probable copies share with it for certain: its year and its round's
#: first number (or its round's text), as one key
_YEAR_ROUND = ("CAST(g.year AS VARCHAR) || '|' || coalesce(CAST(TRY_CAST(nullif("
               "regexp_extract(g.round, '\\d+'), '') AS BIGINT) AS VARCHAR), "
               "lower(trim(g.round)))")


def _probable_partners(con: duckdb.DuckDBPyConnection, sel: str, every: bool) -> str | None:
    """An SQL query of the records that can be probable copies of ``sel``'s and are not
    among them: every tag known, and the year and round of one of them (``every``: any)."""
    known = ("g.white IS NOT NULL AND g.black IS NOT NULL AND g.round IS NOT NULL "
             "AND g.event IS NOT NULL AND g.year IS NOT NULL")
    if every:
        return f"SELECT g.game_id FROM games g WHERE {known} AND g.game_id NOT IN ({sel})"
    keys = [str(k) for (k,) in con.execute(
        f"SELECT DISTINCT {_YEAR_ROUND} FROM games g WHERE g.game_id IN ({sel}) AND {known}"
    ).fetchall()]
    if not keys:
        return None
    listed = ", ".join("'" + k.replace("'", "''") + "'" for k in keys)
    return (f"SELECT g.game_id FROM games g WHERE {known} AND {_YEAR_ROUND} IN ({listed}) "
            f"AND g.game_id NOT IN ({sel})")


def _same_players(con: duckdb.DuckDBPyConnection, partners: str, records: dict[int, Record],
                  into: str) -> str | None:
    """The records of ``partners`` (an SQL query of ``game_id``s) with the players of the
    bucket of one of ``records`` (:func:`~pdnkit.store.copyrules.probable_bucket`; no other
    pairs with them, and their findings stay), as the temporary table ``into``, and an SQL
    query of them (``None``: none)."""
    pa = pyarrow_module()
    want = {b[:2] for r in records.values() if (b := probable_bucket(r.tags)) is not None}
    if not want:
        return None
    keys: dict[str | None, str | None] = {}
    kept: list[int] = []
    cur = con.execute(
        "SELECT g.game_id, coalesce(aw.name, g.white), coalesce(ab.name, g.black) FROM games g "
        f"LEFT JOIN {_ALIASES} aw ON aw.alias = trim(g.white) "
        f"LEFT JOIN {_ALIASES} ab ON ab.alias = trim(g.black) WHERE g.game_id IN ({partners})")
    while rows := cur.fetchmany(50000):
        for gid, white, black in rows:
            kw = keys[white] if white in keys else keys.setdefault(white, player_key(white))
            kb = keys[black] if black in keys else keys.setdefault(black, player_key(black))
            if (kw, kb) in want:
                kept.append(int(gid))
    if not kept:
        return None
    temp_table(con, into, pa.table({"game_id": pa.array(kept, pa.int64())}))
    return f"SELECT game_id FROM {into}"


# --------------------------------------------------------------------------------------------
# the rows written


def group_rows(con: duckdb.DuckDBPyConnection, grouping: Grouping, into: str) -> int:
    """The temporary table ``into``: ``game_id``, ``duplicate_of``, ``duplicate_kind`` of
    every record ``grouping`` assigned (NULL for a canonical one), the kind of a copy of the
    same main line read from the two texts (``annotated`` where their comments, NAGs or
    variations differ, else ``tags`` where their tags differ, else ``identical``). Returns
    its number of rows.

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> group_rows(con, Grouping(), "_rows")
        0
    """
    pa = pyarrow_module()

    ids = list(grouping.assigned)
    table = pa.table({
        "game_id": pa.array(ids, pa.int64()),
        "dup": pa.array([None if (a := grouping.assigned[g]).canonical == g else a.canonical
                         for g in ids], pa.int64()),
        "relation": pa.array([grouping.assigned[g].relation for g in ids], pa.string())})
    name = into.removeprefix("temp.")
    tmp = f"_pdnkit_cp_rel_{uuid.uuid4().hex[:10]}"
    temp_table(con, tmp, table)
    try:
        # each record's text and tags read once, as hashes (no join of two whole texts);
        # the marks only of the records whose text is not their canonical record's
        same = "r.dup IS NOT NULL AND r.relation = 'same'"
        con.execute(f"""
            CREATE OR REPLACE TEMP TABLE {name} AS
            WITH ids AS (SELECT r.game_id FROM {tmp} r WHERE {same}
                         UNION SELECT r.dup FROM {tmp} r WHERE {same}),
                 h AS (SELECT g.game_id, md5(coalesce(g.raw_pdn, '')) AS th,
                              md5(CAST(g.tags AS VARCHAR)) AS tg
                       FROM games g WHERE g.game_id IN (SELECT game_id FROM ids)),
                 p AS (SELECT r.game_id, r.dup, r.relation, a.th = b.th AS same_text,
                              a.tg = b.tg AS same_tags
                       FROM {tmp} r LEFT JOIN h a ON a.game_id = r.game_id
                       LEFT JOIN h b ON b.game_id = r.dup),
                 need AS (SELECT game_id FROM p WHERE NOT same_text
                          UNION SELECT dup FROM p WHERE NOT same_text),
                 m AS (SELECT g.game_id, {_marks(_MOVETEXT.format(t='g.raw_pdn'))} AS mk
                       FROM games g WHERE g.game_id IN (SELECT game_id FROM need))
            SELECT p.game_id, p.dup AS duplicate_of,
                   CASE WHEN p.dup IS NULL THEN NULL
                        WHEN p.relation <> 'same' THEN p.relation
                        WHEN p.same_text THEN 'identical'
                        WHEN ma.mk <> mb.mk THEN 'annotated'
                        WHEN NOT p.same_tags THEN 'tags'
                        ELSE 'identical' END AS duplicate_kind
            FROM p LEFT JOIN m ma ON ma.game_id = p.game_id
            LEFT JOIN m mb ON mb.game_id = p.dup""")
    finally:
        con.execute(f"DROP TABLE IF EXISTS {tmp}")
    return len(ids)


def _location(con: duckdb.DuckDBPyConnection, ids: Iterable[int]) -> dict[int, str]:
    """``path#N`` (N: the 1-based game number) of each of ``ids``."""
    return {int(g): f"{p}#{int(i) + 1}" for g, p, i in con.execute(
        "SELECT g.game_id, f.path, g.game_index FROM games g JOIN files f USING (file_id) "
        f"WHERE g.game_id IN ({_ids(ids)})").fetchall()}


def probable_findings(con: duckdb.DuckDBPyConnection, grouping: Grouping
                      ) -> list[tuple[object, ...]]:
    """The ``probable-copy`` finding rows (the columns of ``findings``) of ``grouping``:
    one on each record of a probable pair, and one on each record left a game of its own
    because it could be a copy of several.

    Example:
        >>> from pdnkit.store import connect
        >>> probable_findings(connect(":memory:"), Grouping())
        []
    """
    from pdnkit.findings import make_finding

    notes: list[tuple[int, int, str]] = []
    for a, b in grouping.probable:
        notes += [(a, b, "pair"), (b, a, "pair")]
    for gid, asg in grouping.assigned.items():
        notes += [(gid, other, "ambiguous") for other in asg.ambiguous]
    if not notes:
        return []
    where = _location(con, {x for n in notes for x in n[:2]})
    meta = {int(r[0]): r[1:] for r in con.execute(
        "SELECT game_id, file_id, game_index, line FROM games "
        f"WHERE game_id IN ({_ids({n[0] for n in notes})})").fetchall()}
    rows: list[tuple[object, ...]] = []
    for gid, other, why in sorted(notes):
        if gid not in meta:
            continue
        loc = where.get(other, f"game_id {other}")
        here = where.get(gid, f"game_id {gid}")
        message = (f"same players, event, date and round as {loc}, but other moves: one game "
                   "recorded twice, or two games the tags do not tell apart; it counts as two "
                   "games until you rule on it"
                   if why == "pair" else
                   f"its moves could be a copy of {loc} and of another game, and its tags fit "
                   "both: it counts as a game of its own until you rule on it")
        f = make_finding(CODE, message, details={
            "other": loc, "other_game_id": other, "why": why,
            "same": f"pdnkit rule-copies '{here}' '{loc}' --same",
            "different": f"pdnkit rule-copies '{here}' '{loc}' --different"})
        file_id, index, line = meta[gid]
        rows.append((gid, file_id, index, f.code, f.severity.value, f.message, line, None, None,
                     None, None, False, json.dumps(f.details, ensure_ascii=False)))
    return rows


# --------------------------------------------------------------------------------------------
# keeping a database current


def mark_loaded(con: duckdb.DuckDBPyConnection, first: int, end: int) -> None:
    """After the rows of games ``first`` .. ``end - 1`` are loaded (in the file's
    transaction): mark them for :func:`settle_copies`.

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> mark_loaded(con, 1, 4)
        >>> con.execute("SELECT count(*) FROM copy_pending").fetchall()
        [(3,)]
    """
    if end > first:
        con.execute("INSERT INTO copy_pending SELECT range FROM range(?, ?)",
                    [int(first), int(end)])


def mark_removed(con: duckdb.DuckDBPyConnection, file_ids: Sequence[int]) -> None:
    """Before the games of ``file_ids`` are deleted (a file replaced or edited): mark the
    records whose group the removal may change: those of the same main lines, of the same
    groups and the probable copies of the removed ones.

    Example:
        >>> from pdnkit.store import connect
        >>> mark_removed(connect(":memory:"), [1])
    """
    if not file_ids:
        return
    files = _ids(file_ids)
    gone = f"SELECT game_id FROM games WHERE file_id IN ({files})"
    con.execute(f"""
        INSERT INTO copy_pending
        SELECT game_id FROM games WHERE file_id NOT IN ({files}) AND (
            moves_hash IN (SELECT moves_hash FROM games WHERE file_id IN ({files}))
            OR duplicate_of IN ({gone})
            OR game_id IN (SELECT duplicate_of FROM games WHERE file_id IN ({files}))
            OR game_id IN (SELECT TRY_CAST(json_extract_string(details, '$.other_game_id')
                                           AS BIGINT)
                           FROM findings WHERE code = '{CODE}' AND file_id IN ({files})))""")


@dataclass(frozen=True)
class Settled:
    """What a regrouping changed: records examined, records that became copies, records
    that stopped being copies, and ``probable-copy`` findings written."""

    examined: int = 0
    hidden: int = 0
    shown: int = 0
    probable: int = 0


def regroup(con: duckdb.DuckDBPyConnection, games: str | None = None, *,
            novelties: bool = True) -> Settled:
    """Compute the groups near ``games`` (an SQL query of ``game_id``s; ``None``: every
    record) again (:func:`compute_groups`) and write them: ``duplicate_of``,
    ``duplicate_kind`` and the ``probable-copy`` findings of the records examined; a record
    that starts or stops standing for its group is marked for the novelties
    (``opening_pending``; :func:`pdnkit.store.openingdb.settle_import` recomputes them)
    unless not ``novelties`` (the caller recomputes them all). Runs in the caller's
    transaction, if any.

    Example:
        >>> from pdnkit.store import connect
        >>> regroup(connect(":memory:"))
        Settled(examined=0, hidden=0, shown=0, probable=0)
    """
    grouping = compute_groups(con, games)
    with _temp(con, "rows", "gone") as t:
        group_rows(con, grouping, t["rows"])
        if games is None:  # every record: those not examined are games of their own
            con.execute(f"UPDATE games SET duplicate_of = NULL, duplicate_kind = NULL "
                        f"WHERE duplicate_of IS NOT NULL AND game_id NOT IN "
                        f"(SELECT game_id FROM {t['rows']})")
        fresh = {int(g) for (g,) in con.execute(  # loaded, novelties not yet computed
            "SELECT DISTINCT game_id FROM opening_pending").fetchall()}
        hidden = [g for g, a in grouping.assigned.items()
                  if a.canonical != g and grouping.former.get(g) is None and g not in fresh]
        shown = [g for g, a in grouping.assigned.items()
                 if a.canonical == g and grouping.former.get(g) is not None]
        if novelties:
            _mark_novelties(con, t["gone"], hidden, shown)
        con.execute(f"""
            UPDATE games SET duplicate_of = r.duplicate_of, duplicate_kind = r.duplicate_kind
            FROM {t['rows']} r WHERE games.game_id = r.game_id
              AND (games.duplicate_of IS DISTINCT FROM r.duplicate_of
                   OR games.duplicate_kind IS DISTINCT FROM r.duplicate_kind)""")
    rows = probable_findings(con, grouping)
    if games is None:
        con.execute(f"DELETE FROM findings WHERE code = '{CODE}'")
    elif con.execute(f"SELECT count(*) FROM findings WHERE code = '{CODE}'").fetchall()[0][0]:
        with _temp(con, "seen") as t:  # the findings of the records examined are replaced
            pa = pyarrow_module()
            temp_table(con, t["seen"], pa.table({"game_id": pa.array(list(grouping.records),
                                                                      pa.int64())}))
            con.execute(f"DELETE FROM findings WHERE code = '{CODE}' AND game_id IN "
                        f"(SELECT game_id FROM {t['seen']})")
    insert_findings(con, rows)
    return Settled(len(grouping.records), len(hidden), len(shown), len(rows))


#: the columns of ``findings`` and their Arrow types (:func:`insert_findings`)
_FINDING_TYPES = (("game_id", "int64"), ("file_id", "int64"), ("game_index", "int32"),
                  ("code", "string"), ("severity", "string"), ("message", "string"),
                  ("line", "int32"), ("col", "int32"), ("ply", "int32"), ("move", "string"),
                  ("fen", "string"), ("in_variation", "bool_"), ("details", "string"))


def insert_findings(con: duckdb.DuckDBPyConnection, rows: Sequence[tuple[object, ...]]) -> None:
    """Insert finding rows (the columns of ``findings``, in order) in one Arrow batch.

    Example:
        >>> from pdnkit.store import connect
        >>> con = connect(":memory:")
        >>> insert_findings(con, [(1, 1, 0, "probable-copy", "warning", "m", 3, None, None,
        ...                        None, None, False, "{}")])
        >>> con.execute("SELECT code, line FROM findings").fetchall()
        [('probable-copy', 3)]
    """
    if not rows:
        return
    pa = pyarrow_module()
    cols = list(zip(*rows, strict=True))
    table = pa.table({name: pa.array(col, getattr(pa, kind)())
                      for (name, kind), col in zip(_FINDING_TYPES, cols, strict=True)})
    con.from_arrow(table).query("_pdnkit_findings",
                                "INSERT INTO findings BY NAME SELECT * FROM _pdnkit_findings")


def _mark_novelties(con: duckdb.DuckDBPyConnection, name: str, hidden: list[int],
                    shown: list[int]) -> None:
    """Mark for the novelties the records that stop (``hidden``) or start (``shown``)
    standing for their group, and the records whose novelty a hidden one gave (before the
    groups are written: the hidden ones still count there)."""
    pa = pyarrow_module()

    from pdnkit.store.novelties import affected_by_removal

    pending = sorted(set(hidden) | set(shown))
    if hidden:  # no longer a game of its own: the novelties it gave others change
        temp_table(con, name, pa.table({"game_id": pa.array(hidden, pa.int64())}))
        pending += affected_by_removal(con, f"SELECT game_id FROM {name}")
    if pending:
        con.from_arrow(pa.table({"game_id": pa.array(pending, pa.int64())})).query(
            "_pdnkit_cp_pending", "INSERT INTO opening_pending SELECT game_id "
                                  "FROM _pdnkit_cp_pending")


def settle_copies(con: duckdb.DuckDBPyConnection) -> Settled:
    """At the end of an import, in one transaction: regroup the records marked in
    ``copy_pending`` (and any whose ``duplicate_of`` names a record that is gone) and clear
    the marks. An import stopped before this leaves its marks, and the next one settles
    them. Call it before :func:`pdnkit.store.openingdb.settle_import` (which then
    recomputes the novelties of the records marked).

    Example:
        >>> from pdnkit.store import connect
        >>> settle_copies(connect(":memory:"))
        Settled(examined=0, hidden=0, shown=0, probable=0)
    """
    dangling = ("SELECT game_id FROM games WHERE duplicate_of IS NOT NULL AND duplicate_of "
                "NOT IN (SELECT game_id FROM games)")
    count = con.execute(f"SELECT (SELECT count(*) FROM copy_pending) + "
                        f"(SELECT count(*) FROM ({dangling}))").fetchall()[0][0]
    if not count:
        return Settled()
    con.execute("BEGIN TRANSACTION")
    try:
        done = regroup(con, "SELECT game_id FROM copy_pending WHERE game_id IN "
                            f"(SELECT game_id FROM games) UNION {dangling}")
        con.execute("DELETE FROM copy_pending")
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    return done


def copy_counts(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """How many records of the database are copies of a game counted once, and how many
    pairs of records are probable copies (``probable-copy`` findings, each pair once).

    Example:
        >>> from pdnkit.store import connect
        >>> copy_counts(connect(":memory:"))
        (0, 0)
    """
    other = "TRY_CAST(json_extract_string(details, '$.other_game_id') AS BIGINT)"
    n, p = con.execute(f"""
        SELECT (SELECT count(*) FROM games WHERE duplicate_of IS NOT NULL),
               (SELECT count(DISTINCT [least(game_id, {other}), greatest(game_id, {other})])
                FROM findings WHERE code = '{CODE}')""").fetchall()[0]
    return int(n), int(p)


def regroup_names(con: duckdb.DuckDBPyConnection, names: Sequence[str]) -> Settled:
    """After the players some names stand for changed (``pdnkit players alias``/``unalias``):
    regroup the records with those names as White or Black, in one transaction, then bring
    the novelties the new groups change up to date. Returns what changed.

    Example:
        >>> from pdnkit.store import connect
        >>> regroup_names(connect(":memory:"), ["M Tinsley"])
        Settled(examined=0, hidden=0, shown=0, probable=0)
    """
    from pdnkit.store.opencounts import settle_counts
    from pdnkit.store.openingdb import settle_import

    clean = sorted({n.strip() for n in names if n and n.strip()})
    if not clean:
        return Settled()
    marks = ", ".join("?" for _ in clean)
    ids = [int(g) for (g,) in con.execute(
        f"SELECT game_id FROM games WHERE trim(white) IN ({marks}) OR trim(black) IN ({marks})",
        clean + clean).fetchall()]
    if not ids:
        return Settled()
    con.execute("BEGIN TRANSACTION")
    try:
        done = regroup(con, f"SELECT UNNEST([{_ids(ids)}]) AS game_id")
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    settle_import(con)
    settle_counts(con)  # the games counted once changed: the opening counts too
    return done


def fill_upgrade(con: duckdb.DuckDBPyConnection) -> None:
    """The upgrade's fill step (registered by :mod:`pdnkit.store.upgrades`): the groups of
    every record of a database made before ``duplicate_of`` existed, and the novelties
    again, now among the games counted once.

    Example:
        >>> from pdnkit.store import connect
        >>> fill_upgrade(connect(":memory:"))
    """
    from pdnkit.store.novelties import refresh_novelties

    done = regroup(con, novelties=False)
    con.execute("DELETE FROM copy_pending")
    if done.hidden:
        refresh_novelties(con)
        con.execute("DELETE FROM opening_pending")
