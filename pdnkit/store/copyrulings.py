"""What a user says about two records: one game, or two (``pdnkit rule-copies``).

The rules of copies group only what moves and tags show (:mod:`pdnkit.store.copyrules`); a
probable copy (the same players, event, date and round, other moves) counts as a game of its
own until a user rules on it. A ruling names the two records by their file's content and
their number in it (``copy_rulings``), so it holds when a file is renamed, moved or imported
again; it applies at once (the two records are grouped again, and the novelties brought up
to date) and at every import after.

Example:
    >>> from pdnkit.store import connect
    >>> rulings(connect(":memory:")).empty
    True
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdnkit.errors import ArgumentError
from pdnkit.store.session import DbLike, reading, writing
from pdnkit.store.transaction import rollback

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["RULINGS", "RuleResult", "locate", "rule_copies", "rulings"]

#: what a user can say about two records
RULINGS = ("same", "different", "forget")


def locate(con: duckdb.DuckDBPyConnection, where: str) -> tuple[int, str, int, str]:
    """The record at ``where``: ``path#N`` as ``pdnkit duplicates`` writes it (N: the game's
    number in its file, from 1; the path as imported, or its end, such as the file's name,
    when only one file's path ends so) or a ``game_id``. Returns ``(game_id, sha256,
    game_index, path#N)``; raises ``ValueError`` naming what was not found or is ambiguous.

    Example:
        >>> from pdnkit.store import connect
        >>> try:
        ...     locate(connect(":memory:"), "games.pdn#3")
        ... except ValueError as exc:
        ...     print(exc)
        no imported file's path is or ends with 'games.pdn'
    """
    text = where.strip()
    if text.isdigit():
        rows = con.execute(
            "SELECT g.game_id, f.sha256, g.game_index, f.path FROM games g JOIN files f "
            "USING (file_id) WHERE g.game_id = ?", [int(text)]).fetchall()
        if not rows:
            raise ArgumentError(f"no game with game_id {text}")
        gid, sha, index, path = rows[0]
        return int(gid), str(sha), int(index), f"{path}#{int(index) + 1}"
    m = re.fullmatch(r"(.+)#(\d+)", text)
    if not m or int(m.group(2)) < 1:
        raise ArgumentError(f"{where!r} is not a record's place: give PATH#N (N from 1, as "
                            "pdnkit duplicates writes it) or a game_id")
    path, number = m.group(1), int(m.group(2))
    files = con.execute(
        "SELECT DISTINCT f.file_id, f.sha256, f.path FROM files f JOIN file_paths p USING "
        "(file_id) WHERE p.path = ? OR f.path = ? OR ends_with(p.path, ?) "
        "OR ends_with(p.path, ?)", [path, path, "/" + path.lstrip("/"),
                                    "\\" + path.lstrip("\\")]).fetchall()
    if not files:
        raise ArgumentError(f"no imported file's path is or ends with {path!r}")
    if len(files) > 1:
        names = ", ".join(sorted(str(f[2]) for f in files)[:4])
        raise ArgumentError(f"{path!r} names {len(files)} files ({names}): give more of the "
                            "path")
    file_id, sha, full = files[0]
    rows = con.execute("SELECT game_id FROM games WHERE file_id = ? AND game_index = ?",
                       [file_id, number - 1]).fetchall()
    if not rows:
        count = con.execute("SELECT count(*) FROM games WHERE file_id = ?",
                            [file_id]).fetchall()[0][0]
        raise ArgumentError(f"{full} has {count} game(s): there is no game {number}")
    return int(rows[0][0]), str(sha), number - 1, f"{full}#{number}"


@dataclass(frozen=True)
class RuleResult:
    """What :func:`rule_copies` did: the two records (``path#N``), the ruling, and the
    record that now stands for each. ``str(result)`` is what the CLI prints."""

    first: str
    second: str
    ruling: str
    first_stands_for: str
    second_stands_for: str

    def __str__(self) -> str:
        said = {"same": "one game", "different": "two games",
                "forget": "no ruling (the rules of copies decide)"}[self.ruling]
        if self.first_stands_for == self.second_stands_for:
            now = f"counted once, as {self.first_stands_for}"
        else:
            now = "counted as two games"
        return f"{self.first} and {self.second}: {said}; {now}"


def rule_copies(db: DbLike, first: str, second: str, ruling: str = "same") -> RuleResult:
    """Rule on two records (:func:`locate` reads ``first`` and ``second``): ``same`` (one
    game: grouped, whatever their moves and tags, the better record by the canonical order
    standing for both), ``different`` (two games: never grouped) or ``forget`` (the rules of
    copies decide again). The two records are grouped again at once, with everything their
    groups touch, and the novelties brought up to date. Raises ``ValueError`` for an unknown
    place or ruling, :class:`~pdnkit.store.session.LakeIsReadOnlyError` for a lake."""
    if ruling not in RULINGS:
        raise ArgumentError(f"ruling must be one of {', '.join(RULINGS)}, not {ruling!r}")
    with writing(db, what="rulings on copies") as con:
        a, b = locate(con, first), locate(con, second)
        if a[0] == b[0]:
            raise ArgumentError(f"{a[3]} and {b[3]} are the same record")
        one, two = sorted((a[1:3], b[1:3]))
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute("DELETE FROM copy_rulings WHERE (first_sha256, first_index, "
                        "second_sha256, second_index) = (?, ?, ?, ?)", [*one, *two])
            if ruling != "forget":
                con.execute("INSERT INTO copy_rulings VALUES (?, ?, ?, ?, ?, ?)",
                            [*one, *two, ruling == "same", _dt.datetime.now()])
            con.execute("COMMIT")
        except BaseException:
            rollback(con)
            raise
        _regroup(con, [a[0], b[0]])
        stands = {int(g): int(d if d is not None else g) for g, d in con.execute(
            "SELECT game_id, duplicate_of FROM games WHERE game_id IN (?, ?)",
            [a[0], b[0]]).fetchall()}
        names = {gid: loc for gid, *_, loc in (a, b)}
        where = _places(con, set(stands.values()) - set(names))
        where.update(names)
    return RuleResult(a[3], b[3], ruling, where[stands[a[0]]], where[stands[b[0]]])


def _regroup(con: duckdb.DuckDBPyConnection, ids: list[int]) -> None:
    """Group the two records (and what their groups touch) again, then the novelties."""
    from pdnkit.store.copies import regroup
    from pdnkit.store.opencounts import settle_counts
    from pdnkit.store.openingdb import settle_import

    con.execute("BEGIN TRANSACTION")
    try:
        regroup(con, "SELECT UNNEST([" + ", ".join(str(int(i)) for i in ids) + "]) AS game_id")
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    settle_import(con)
    settle_counts(con)  # the games counted once changed: the opening counts too


def _places(con: duckdb.DuckDBPyConnection, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {int(g): f"{p}#{int(i) + 1}" for g, p, i in con.execute(
        "SELECT g.game_id, f.path, g.game_index FROM games g JOIN files f USING (file_id) "
        "WHERE g.game_id IN (" + ", ".join(str(int(i)) for i in ids) + ")").fetchall()}


def rulings(db: DbLike = None) -> pd.DataFrame:
    """Every ruling: ``first`` and ``second`` (``path#N`` where the file is in the
    database, else its content hash and number), ``same`` (one game or two), ``ruled_at``.

    Example:
        >>> from pdnkit.store import connect
        >>> list(rulings(connect(":memory:")).columns)
        ['first', 'second', 'same', 'ruled_at']
    """
    with reading(db) as con:
        return con.execute("""
            WITH place AS (SELECT sha256, min(path) AS path FROM files GROUP BY sha256)
            SELECT coalesce(a.path, r.first_sha256) || '#'
                       || CAST(r.first_index + 1 AS VARCHAR) AS first,
                   coalesce(b.path, r.second_sha256) || '#'
                       || CAST(r.second_index + 1 AS VARCHAR) AS second,
                   r.same, r.ruled_at
            FROM copy_rulings r LEFT JOIN place a ON a.sha256 = r.first_sha256
            LEFT JOIN place b ON b.sha256 = r.second_sha256
            ORDER BY r.ruled_at, first, second""").df()
