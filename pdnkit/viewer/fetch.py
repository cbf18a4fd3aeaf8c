"""Where the games to show come from: a PDN file (by 1-based game number) or a database.

A game from the database is replayed again from its stored text (``games.raw_pdn``) under
its stored variant and edition, so the board views get every position without the
database holding them.

Example:
    >>> rep = file_game('[GameType "20"] 1. 32-28 19-23 *', 1)
    >>> rep.replayed_plies
    2
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdnkit.errors import ArgumentError
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

    from pdnkit.findings import Finding
    from pdnkit.pdn.source import Source as PdnSource
    from pdnkit.store.evals import AnalysisKey
    from pdnkit.validation import GameReport
    from pdnkit.validation.inputs import Source

__all__ = ["db_analysis", "db_games", "file_game", "file_games"]


def file_game(source: PdnSource, game: int, *, variant: str | None = None) -> GameReport:
    """Game number ``game`` (1-based, as ``pdnkit validate`` prints it) of a PDN file or text,
    replayed. Raises ``ValueError`` when the file has fewer games."""
    if game < 1:
        raise ArgumentError(f"game numbers start at 1, got {game}")
    from pdnkit.pdn import read_games
    from pdnkit.validation import replay

    file = str(source) if isinstance(source, Path) else None
    if isinstance(source, str) and source.lower().endswith((".pdn", ".txt")):
        file = source
    count = 0
    for record in read_games(source, file=file):
        if record.file_level:  # findings about the file (empty, not PDN): no game
            continue
        count += 1
        if count == game:
            return replay(record, variant=variant)
    raise ArgumentError(f"{file or 'the text'} has {count} game{'s' * (count != 1)}; "
                     f"there is no game {game}")


def file_games(source: Source, *, variant: str | None = None) -> Iterator[GameReport]:
    """Every game of a PDN file, folder or text, replayed (full reports, in file order;
    findings about a file that holds no game are no game to see)."""
    from pdnkit.validation import validate

    yield from (r for r in validate(source, variant) if not r.file_level)


def db_games(db: DbLike, *, where: str | None = None, game_id: int | None = None,
             limit: int | None = None, all_copies: bool = False
             ) -> Iterator[tuple[int, str, GameReport]]:
    """``(game_id, source label, report)`` for the games of a database that match ``where``
    (an SQL condition on ``games``) or the one ``game_id``, in game_id order: each game once
    (the copies of a game left out, ``games.duplicate_of``), every record with
    ``all_copies``; the one ``game_id`` whatever it is. A database opened from a path is
    closed when the games run out (or the iterator is closed).

    >>> from pdnkit.store import connect
    >>> list(db_games(connect(":memory:"), where="status = 'error'"))
    []
    """
    with reading(db) as con:
        yield from _games(con, where, game_id, limit, all_copies)


def _games(con: duckdb.DuckDBPyConnection, where: str | None, game_id: int | None,
           limit: int | None, all_copies: bool = False
           ) -> Iterator[tuple[int, str, GameReport]]:
    """The games of :func:`db_games` from the open connection ``con``."""
    from pdnkit.pdn import parse_game
    from pdnkit.validation import replay

    cond, params = ("TRUE", [])
    if game_id is not None:
        cond, params = "g.game_id = ?", [int(game_id)]
    elif where:
        cond = f"({where})"
    if game_id is None and not all_copies:  # each game once: the record standing for it
        cond += " AND g.duplicate_of IS NULL"
    sql = (f"SELECT g.game_id, g.game_index, g.variant, g.edition, g.raw_pdn, f.path "
           f"FROM games g LEFT JOIN files f ON f.file_id = g.file_id WHERE {cond} "
           f"ORDER BY g.game_id" + (f" LIMIT {int(limit)}" if limit else ""))
    cur = con.execute(sql, params)
    side = con.cursor()  # the findings of each batch, read beside the games' result
    try:
        while True:
            rows = cur.fetchmany(500)
            if not rows:
                break
            stored = _stored_findings(side, [int(r[0]) for r in rows])
            for gid, index, variant, edition, raw, path in rows:
                record = parse_game(raw or "")
                report = replay(record, variant=variant, edition=edition)
                report.file = path
                report.index = int(index or 0)
                _add_stored(report, stored.get(int(gid), []))
                label = f"{Path(path).name if path else 'database'}, game {int(index or 0) + 1} " \
                        f"(game_id {gid})"
                yield int(gid), label, report
    finally:
        side.close()


def _stored_findings(con: duckdb.DuckDBPyConnection,
                     game_ids: list[int]) -> dict[int, list[Finding]]:
    """The findings the database holds for these games, by game (an engine analysis's are
    its own, shown with it: :func:`db_analysis`)."""
    from pdnkit.analysis.thresholds import ANALYSIS_CODES
    from pdnkit.findings import Finding, Severity

    out: dict[int, list[Finding]] = {}
    if not game_ids:
        return out
    for gid, code, sev, msg, line, col, ply, move, fen, in_var in con.execute(
            "SELECT game_id, code, severity, message, line, col, ply, move, fen, in_variation "
            f"FROM findings WHERE game_id IN ({', '.join(map(str, game_ids))}) "
            "AND code <> ALL(?) ORDER BY game_id, ply NULLS FIRST, line",
            [list(ANALYSIS_CODES)]).fetchall():
        out.setdefault(int(gid), []).append(Finding(
            code, Severity(sev), msg or "", line=line, column=col, ply=ply, move=move, fen=fen,
            in_variation=bool(in_var)))
    return out


def _add_stored(report: GameReport, stored: list[Finding]) -> None:
    """Give a game replayed from its stored text the findings its import found that the
    text alone cannot show again (the file's encoding, the opening tag against the tables),
    and its status with them, so the views say what the database says."""
    from pdnkit.validation.report import finish_status

    have = {(f.code, f.ply, bool(f.in_variation)) for f in report.findings}
    extra = [f for f in stored if (f.code, f.ply, bool(f.in_variation)) not in have]
    if extra:
        report.findings.extend(extra)
        finish_status(report)


def db_analysis(db: DbLike, game_id: int, key: AnalysisKey
                ) -> tuple[list[tuple[int, float | None]], list[Finding]]:
    """One game's analysis under ``key``: ``(ply, score)`` of each position evaluated and the
    analysis findings stored (``blunder``, ``mistake``, ``missed-shot``, ``engine-failed``).

    >>> from pdnkit.store import connect
    >>> from pdnkit.store.evals import AnalysisKey
    >>> db_analysis(connect(":memory:"), 1, AnalysisKey("b", "1", "{}", "material"))
    ([], [])
    """
    from pdnkit.findings import make_finding

    cond, params = key.sql("e")
    with reading(db) as con:
        evals = [(int(p), None if s is None else float(s)) for p, s in con.execute(
            f"SELECT e.ply, e.score FROM evals e WHERE e.game_id = ? AND {cond} "
            "ORDER BY e.ply", [int(game_id), *params]).fetchall()]
        rows = _analysis_findings(con, game_id, params)
    found = [make_finding(code, message, severity=severity, ply=ply, move=move, line=line,
                          fen=fen) for code, severity, message, ply, move, line, fen in rows]
    return evals, found


def _analysis_findings(con: duckdb.DuckDBPyConnection, game_id: int,
                       params: list[str]) -> list[tuple[Any, ...]]:
    from pdnkit.analysis.thresholds import ANALYSIS_CODES

    return con.execute(
        "SELECT f.code, f.severity, f.message, f.ply, f.move, f.line, f.fen FROM findings f "
        "WHERE f.game_id = ? AND f.code = ANY(?) "
        "AND json_extract_string(f.details, '$.engine') = ? "
        "AND json_extract_string(f.details, '$.engine_version') = ? "
        "AND json_extract_string(f.details, '$.settings') = ? ORDER BY f.ply NULLS FIRST",
        [int(game_id), list(ANALYSIS_CODES), *params]).fetchall()
