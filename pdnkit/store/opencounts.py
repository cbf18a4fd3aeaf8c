"""Opening counts kept at import: the opening tree of the first plies (``tree_counts``) and
the games of each opening sequence (``opening_counts``), so that ``pdnkit tree`` and ``pdnkit
stats openings`` answer from a few thousand rows instead of a scan of every game's first
plies.

Both tables count each game once (the canonical games: ``games.duplicate_of`` NULL), from
the positions of plies 0 to :data:`EARLY_PLIES` (``early_positions``) and the moves of plies
1 to :data:`EARLY_PLIES`:

* ``tree_counts``: per variant, position (its bitboards, first reached by a game there), move
  played next (as the statistics show it) and position after it: the games, their results
  and lengths. A game whose position has no next move among the first plies counts with
  ``move`` NULL (``open`` when the position is that of ply :data:`EARLY_PLIES`: its next move
  lies beyond the counts);
* ``opening_counts``: per variant and number of plies ``1`` to :data:`EARLY_PLIES`, the move
  sequence from the initial position (as ``stats openings`` groups it), with the same counts.

The counts are a cache that knows whom it counted: ``pdnkit_meta`` keeps the stamp of the
counted set (:func:`games_stamp`: the number of canonical games and a hash of their numbers,
variants, results, lengths and starts) and the highest game number counted. A reader
(:func:`counts_ready`) takes the counts only when the stamp is that of the database's games
now, so a change that did not bring them up to date (an import stopped midway, a direct SQL
``UPDATE``) makes the readers scan as before, never answer wrong. :func:`settle_counts`
brings them up to date as the last step of every import (once the copies of its games are
grouped; a file replaced included), after copies grouped or ungrouped (a copy ruling, an
alias) and in ``pdnkit upgrade`` (which settles counts an import stopped before its last
step left). What changed since is merged as a delta (:mod:`pdnkit.store.countdelta`): the
games added, the older games that became copies (a better record of them came, a ruling, an
alias) taken away and the copies that became canonical counted again, proven against the
stamp (the copies of then are kept with the counts); any other change (a game deleted or
edited, a file replaced) counts every game again, part by part, in bounded memory.

Example:
    >>> from pdnkit.store.db import connect
    >>> con = connect(":memory:")
    >>> settle_counts(con), counts_ready(con), counts_current(con)  # no game: none kept
    ('small', False, True)
    >>> settle_counts(con)
    'current'
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from pdnkit.store.countdelta import (
    GAME_HASH,
    CountsUnproven,
    files_stamp,
    keep_copies,
    recount,
    stage_moved,
)
from pdnkit.store.transaction import transaction

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

__all__ = ["COUNTS_META", "COUNTS_TABLES", "KEEP_FROM", "counts_current", "counts_ready",
           "games_stamp", "rebuild_counts", "settle_counts"]

#: the ``pdnkit_meta`` key of the counts' stamp (JSON: ``stamp``, ``last`` game counted,
#: ``copies``: the stamp of the copies kept with them, :func:`pdnkit.store.countdelta.keep_copies`;
#: ``files``: the highest file number loaded then)
COUNTS_META = "opening_counts_stamp"
#: the tables of the kept counts
COUNTS_TABLES = ("tree_counts", "opening_counts")
#: the canonical games from which the counts are kept: below, the scan of the first plies
#: answers in a few tens of milliseconds, and the counts' tables would cost a small
#: database more than its games' rows (``PDNKIT_COUNTS_FROM`` overrides)
KEEP_FROM = int(os.environ.get("PDNKIT_COUNTS_FROM", "20000"))

def _stamp_sql() -> str:
    return (f"SELECT count(*), coalesce(bit_xor({GAME_HASH}), 0), max(game_id) FROM games "
            "WHERE duplicate_of IS NULL")


def games_stamp(con: duckdb.DuckDBPyConnection) -> tuple[str, int]:
    """The stamp of the counted set (the canonical games: their number and the XOR of their
    hashes; and the files loaded) and the highest game number among them (``-1``: none). It
    changes when a game is added, removed, becomes or stops being a copy, when what the
    counts read of it changes, and when a file is loaded, replaced or removed (a replaced
    file's games may come back under the same numbers).

    Example:
        >>> from pdnkit.store.db import connect
        >>> games_stamp(connect(":memory:"))
        ('0:0:0', -1)
    """
    n, h, last = con.execute(_stamp_sql()).fetchall()[0]
    files = files_stamp(con)[0]
    return f"{int(n)}:{int(h)}:{files}", (-1 if last is None else int(last))


def _stored(con: duckdb.DuckDBPyConnection) -> dict[str, object] | None:
    """The stamp recorded with the counts, or ``None`` (no counts, or not in this database)."""
    if not all(_is_table(con, t) for t in COUNTS_TABLES):
        return None
    rows = con.execute("SELECT value FROM pdnkit_meta WHERE key = ?", [COUNTS_META]).fetchall()
    if not rows:
        return None
    try:
        got = json.loads(rows[0][0])
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


def _is_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ? AND schema_name = 'main' "
        "AND database_name = current_database()", [name]).fetchall()[0][0])


def counts_ready(con: duckdb.DuckDBPyConnection) -> bool:
    """True when the kept counts count exactly the database's canonical games now (a
    database file of this schema whose counts are up to date; not a lake).

    Example:
        >>> from pdnkit.store.db import connect
        >>> counts_ready(connect(":memory:"))
        False
    """
    stored = _stored(con)
    return stored is not None and stored.get("kept", True) is True \
        and stored.get("stamp") == games_stamp(con)[0]


def counts_current(con: duckdb.DuckDBPyConnection) -> bool:
    """True when the counts were settled for the database's canonical games now: kept
    (:func:`counts_ready`), or not kept because there are fewer than :data:`KEEP_FROM`.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); _ = settle_counts(con); counts_current(con)
        True
    """
    stored = _stored(con)
    return stored is not None and stored.get("stamp") == games_stamp(con)[0]


def _record(con: duckdb.DuckDBPyConnection, stamp: str, last: int, kept: bool = True,
            copies: str | None = None) -> None:
    con.execute("DELETE FROM pdnkit_meta WHERE key = ?", [COUNTS_META])
    value: dict[str, object] = {"stamp": stamp, "last": last}
    if not kept:
        value["kept"] = False
    if copies is not None:
        value["copies"] = copies
        value["files"] = files_stamp(con)[1]
    con.execute("INSERT INTO pdnkit_meta VALUES (?, ?)", [COUNTS_META, json.dumps(value)])


def _too_few(con: duckdb.DuckDBPyConnection) -> bool:
    """Fewer canonical games than :data:`KEEP_FROM`: the counts are not kept."""
    if KEEP_FROM <= 0:
        return False
    n = con.execute("SELECT count(*) FROM games WHERE duplicate_of IS NULL").fetchall()[0][0]
    return int(n) < KEEP_FROM


def _not_kept(con: duckdb.DuckDBPyConnection, stamp: str, last: int) -> None:
    """Record the games as settled with no counts kept (the tables emptied)."""
    with transaction(con):
        for table in COUNTS_TABLES:
            if con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]:
                con.execute(f"DELETE FROM {table}")
        _record(con, stamp, last, kept=False)


def _rebuild(con: duckdb.DuckDBPyConnection, stamp: str, last: int) -> None:
    """Count every canonical game again, part by part, in one transaction (a failure
    midway leaves the counts as they were)."""
    with transaction(con):
        recount(con, keep=False)
        _record(con, stamp, last, copies=keep_copies(con, last))


def rebuild_counts(con: duckdb.DuckDBPyConnection) -> None:
    """Count every canonical game again (``pdnkit upgrade``'s fill step), part by part of
    :data:`pdnkit.store.countdelta.PART_GAMES` game numbers (the memory of a part, whatever
    the games), in one transaction: a failure midway leaves the counts as they were.

    Example:
        >>> from pdnkit.store.db import connect
        >>> con = connect(":memory:"); rebuild_counts(con); counts_current(con)
        True
    """
    stamp, last = games_stamp(con)
    if _too_few(con):
        _not_kept(con, stamp, last)
        return
    _rebuild(con, stamp, last)


def settle_counts(con: duckdb.DuckDBPyConnection) -> str:
    """Bring the kept counts up to date after a write (in a transaction of their own):
    ``'current'`` when they were, ``'added'`` when only games numbered above the last one
    counted came (their counts are added), ``'moved'`` when games counted before became
    copies or copies became canonical (their counts taken away or added, with the games
    added), ``'rebuilt'`` when the change cannot be proven; ``'small'`` when the
    database holds fewer than :data:`KEEP_FROM` canonical games (no counts kept: the readers
    scan). A database without the tables (a lake) is left alone (``'none'``).

    Example:
        >>> from pdnkit.store.db import connect
        >>> settle_counts(connect(":memory:"))
        'small'
    """
    if not all(_is_table(con, t) for t in COUNTS_TABLES):
        return "none"
    stamp, last = games_stamp(con)
    stored = _stored(con)
    if stored is not None and stored.get("stamp") == stamp:
        return "current"
    if _too_few(con):
        _not_kept(con, stamp, last)
        return "small"
    before = stored.get("last") if stored is not None else None
    if stored is not None and stored.get("kept", True) is True and isinstance(before, int):
        moved = _moved(con, stored, before, stamp, last)
        if moved is not None:
            return "moved" if moved else "added"
    _rebuild(con, stamp, last)
    return "rebuilt"


def _moved(con: duckdb.DuckDBPyConnection, stored: dict[str, object], before: int,
           stamp: str, last: int) -> bool | None:
    """The delta since the counts of ``stored`` (games up to ``before``), merged in a
    transaction of its own and recorded when it can be proven: whether games counted before
    changed (taken away or counted again); None when the counts must be rebuilt."""
    then = stored.get("stamp")
    if not isinstance(then, str):
        return None
    try:
        with transaction(con):
            staged = stage_moved(con, then, before, stored.get("copies"), stored.get("files"))
            if staged is None:
                return None
            recount(con, keep=True)
            _record(con, stamp, last, copies=keep_copies(con, last))
    except CountsUnproven:
        return None
    return any(staged)
