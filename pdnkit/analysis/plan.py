"""The database side of an analysis: which games it covers, which of their positions are
still to evaluate under its key, and the rows and findings it writes.

A game's positions are its ``position_bits`` rows (ply 0 = the start, one per replayed ply of
the main line); a position is pending when the ``evals`` table has no row of it under the
analysis key, so an analysis that was stopped (Ctrl-C, a kill) goes on where it stopped and
one that is complete finds nothing to do.

Example:
    >>> from pdnkit.store import connect
    >>> from pdnkit.store.evals import AnalysisKey
    >>> con = connect(":memory:")
    >>> scope_games(con, AnalysisKey("builtin", "1", "{}", "material"), "TRUE", [])
    []
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pdnkit.store.transaction import rollback

if TYPE_CHECKING:  # pragma: no cover
    import duckdb

    from pdnkit.rules.position import Position
    from pdnkit.stats.filters import SqlParam
    from pdnkit.store.evals import AnalysisKey

__all__ = ["GameWork", "ScopeGame", "pending_work", "scope_games", "write_faults",
           "write_rows"]


@dataclass(frozen=True)
class ScopeGame:
    """A game of the analysis: its id, variant, edition, positions, and those already done."""

    game_id: int
    variant: str | None
    edition: str | None
    positions: int
    done: int


@dataclass
class GameWork:
    """The pending positions of one game (``(ply, position)`` in ply order)."""

    game_id: int
    variant: str
    positions: list[tuple[int, Position]] = field(default_factory=list)


def scope_games(con: duckdb.DuckDBPyConnection, key: AnalysisKey, where: str,
                params: list[SqlParam]) -> list[ScopeGame]:
    """Every game ``where`` selects (a condition on ``games g``) that has positions, with how
    many of them ``key`` has evaluated, in (variant, game_id) order."""
    cond, kparams = key.sql("e")
    rows = con.execute(f"""
        WITH s AS (SELECT g.game_id, g.variant, g.edition FROM games g WHERE {where}),
        p AS (SELECT p.game_id, count(*) AS n FROM position_bits p
              WHERE p.game_id IN (SELECT game_id FROM s) GROUP BY p.game_id),
        d AS (SELECT e.game_id, count(*) AS n FROM evals e
              WHERE {cond} AND e.game_id IN (SELECT game_id FROM s) GROUP BY e.game_id)
        SELECT s.game_id, s.variant, s.edition, p.n, coalesce(d.n, 0)
        FROM s JOIN p ON p.game_id = s.game_id LEFT JOIN d ON d.game_id = s.game_id
        ORDER BY s.variant NULLS LAST, s.game_id
    """, [*params, *kparams]).fetchall()
    return [ScopeGame(int(g), v, e, int(n), int(d)) for g, v, e, n, d in rows]


def pending_work(con: duckdb.DuckDBPyConnection, key: AnalysisKey, games: Sequence[ScopeGame],
                 chunk: int = 200) -> Iterator[GameWork]:
    """The pending positions of ``games`` (those with some), ``chunk`` games a query, as
    positions of each game's rules (the stored square bitboards and side to move); in each
    chunk the games with the most positions pending first, so that the engines working at
    once end close together (the last game handed out is a short one)."""
    from pdnkit.core import State, position_of
    from pdnkit.rules import get_rules

    cond, kparams = key.sql("e")
    todo = [g for g in games if g.done < g.positions and g.variant]
    for i in range(0, len(todo), chunk):
        part = sorted(todo[i:i + chunk], key=lambda g: (g.done - g.positions, g.game_id))
        ids = ", ".join(str(g.game_id) for g in part)
        rows = con.execute(f"""
            WITH done AS (SELECT e.game_id, e.ply FROM evals e
                          WHERE e.game_id IN ({ids}) AND {cond})
            SELECT p.game_id, p.ply, p.black, full_bits(p.wm, p.wm_high),
                   full_bits(p.wk, p.wk_high), full_bits(p.bm, p.bm_high),
                   full_bits(p.bk, p.bk_high)
            FROM position_bits p
            LEFT JOIN done d ON d.game_id = p.game_id AND d.ply = p.ply
            WHERE p.game_id IN ({ids}) AND d.ply IS NULL
            ORDER BY p.game_id, p.ply
        """, kparams).fetchall()
        by_game: dict[int, list[tuple[Any, ...]]] = {}
        for r in rows:
            by_game.setdefault(int(r[0]), []).append(r)
        for g in part:
            rules = get_rules(str(g.variant), g.edition) if g.edition else get_rules(
                str(g.variant))
            work = GameWork(g.game_id, rules.name)
            for _, ply, black, wm, wk, bm, bk in by_game.get(g.game_id, []):
                state = State(bool(black), int(wm), int(wk), int(bm), int(bk), None)
                work.positions.append((int(ply), position_of(rules, state)))
            if work.positions:
                yield work


def write_rows(con: duckdb.DuckDBPyConnection, key: AnalysisKey,
               rows: list[dict[str, Any]]) -> None:
    """Insert evaluated positions (``game_id``, ``ply`` and the row of
    :func:`pdnkit.analysis.rows.eval_row`) under ``key``, in one transaction."""
    if not rows:
        return
    import pandas as pd

    df = pd.DataFrame([{"game_id": r["game_id"], "ply": r["ply"], "engine": key.engine,
                        "engine_version": key.version, "settings": key.settings,
                        "scale": key.scale, **{k: r[k] for k in _ROW}} for r in rows])
    con.execute("BEGIN TRANSACTION")
    try:
        con.register("_pdnkit_evals", df)
        try:
            con.execute("INSERT INTO evals BY NAME SELECT game_id::BIGINT AS game_id, "
                        "ply::INTEGER AS ply, engine, engine_version, settings, scale, "
                        "score::DOUBLE AS score, depth::INTEGER AS depth, best::VARCHAR AS best, "
                        "pv::VARCHAR AS pv, nodes::BIGINT AS nodes, "
                        "material::DOUBLE AS material, pv_material::DOUBLE AS pv_material "
                        "FROM _pdnkit_evals")
        finally:
            con.unregister("_pdnkit_evals")
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise


_ROW = ("score", "depth", "best", "pv", "nodes", "material", "pv_material")


def write_faults(con: duckdb.DuckDBPyConnection, key: AnalysisKey,
                 faults: dict[int, list[tuple[int, str, str]]]) -> None:
    """Replace the ``engine-failed`` findings of ``key`` on the games of ``faults``
    (``game_id -> [(position ply, kind, message)]``; a game without faults this time loses
    its old ones)."""
    if not faults:
        return
    ids = ", ".join(str(int(g)) for g in faults)
    cond = ("f.code = 'engine-failed' AND json_extract_string(f.details, '$.engine') = ? "
            "AND json_extract_string(f.details, '$.engine_version') = ? "
            "AND json_extract_string(f.details, '$.settings') = ?")
    kp = [key.engine, key.version, key.settings]
    rows = []
    info = {int(g): (fid, idx) for g, fid, idx in con.execute(
        f"SELECT game_id, file_id, game_index FROM games WHERE game_id IN ({ids})").fetchall()}
    for gid, items in faults.items():
        for ply, kind, message in items:
            place = con.execute(
                "SELECT p.fen, move_notation(r.notation, r.origin, r.destination, r.captured), "
                "r.line FROM positions p LEFT JOIN move_rows r ON r.game_id = p.game_id "
                "AND r.ply = p.ply WHERE p.game_id = ? AND p.ply = ?", [gid, ply]).fetchone()
            fen, move, line = place if place else (None, None, None)
            details = {"engine": key.engine, "engine_version": key.version,
                       "settings": key.settings, "kind": kind, "position_ply": ply}
            where = "the start position" if ply == 0 else f"the position after ply {ply}"
            rows.append([gid, info[gid][0], info[gid][1], "engine-failed", "warning",
                         f"{key.label}: no evaluation of {where}: {message}", line, None,
                         ply or None, move if ply else None, fen, False,
                         json.dumps(details, sort_keys=True)])
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(f"DELETE FROM findings f WHERE f.game_id IN ({ids}) AND {cond}", kp)
        if rows:
            con.executemany("INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            rows)
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
