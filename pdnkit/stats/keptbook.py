"""The opening book from the counts kept at import (:mod:`pdnkit.store.opencounts`): the rows
of :func:`pdnkit.stats.explorer.openings` (by moves) and :func:`pdnkit.stats.explorer.tree`
read from a few thousand rows instead of a scan of every game's first plies.

Each function returns ``None`` where the kept counts cannot answer exactly, and the caller
scans as before: counts not up to date with the games (:func:`~pdnkit.store.opencounts.
counts_ready`), a filter other than the variant's (event, player, dates), every copy
(``all_copies``), more plies than the counts hold, or a tree position that some game reaches
beyond the first plies.

Example:
    >>> from pdnkit.store import connect
    >>> from pdnkit.stats.filters import GameFilter
    >>> from pdnkit.store.opencounts import settle_counts
    >>> con = connect(":memory:"); _ = settle_counts(con)
    >>> kept_openings(con, GameFilter(), 4, 1) is None  # too few games to keep counts
    True
    >>> kept_openings(con, GameFilter(event="Cup"), 4, 1) is None
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdnkit.rows.bitboards import bits_literal, bits_source
from pdnkit.stats.common import frame
from pdnkit.stats.filters import GameFilter, SqlParam
from pdnkit.stats.positions import Bits5, bits_match
from pdnkit.store.opencounts import counts_ready
from pdnkit.store.posindex import EARLY_PLIES, block_condition, index_blocks
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["kept_openings", "kept_tree"]

#: result columns from summed counts, as :func:`pdnkit.stats.common.result_columns` gives
#: them from the games
_RESULTS = (
    "sum(games)::BIGINT AS games, sum(white_wins)::BIGINT AS white_wins, "
    "sum(draws)::BIGINT AS draws, sum(black_wins)::BIGINT AS black_wins, "
    "sum(unknown)::BIGINT AS unknown, "
    "round(100.0 * (sum(white_wins)::BIGINT + 0.5 * sum(draws)::BIGINT) "
    "/ nullif((sum(white_wins) + sum(draws) + sum(black_wins))::BIGINT, 0), 1) AS white_score")


def _usable(con: duckdb.DuckDBPyConnection, gf: GameFilter) -> bool:
    """The filter is one the counts answer (each game once, at most a variant) and the
    counts are up to date."""
    only_variant = GameFilter(variant=gf.variant, match=gf.match) == gf
    return only_variant and counts_ready(con)


def _variant_sql(gf: GameFilter, a: str) -> tuple[str, list[SqlParam]]:
    if gf.variant:
        return f"lower({a}.variant) = lower(?)", [gf.variant]
    return "TRUE", []


def kept_openings(db: DbLike, gf: GameFilter, plies: int,
                  min_games: int) -> pd.DataFrame | None:
    """The rows of ``openings(by="moves")`` from ``opening_counts`` (in the order the scan
    gives them), or ``None`` where the counts cannot answer."""
    with reading(db) as con:
        return _kept_openings(con, gf, plies, min_games)


def _kept_openings(con: duckdb.DuckDBPyConnection, gf: GameFilter, plies: int,
                   min_games: int) -> pd.DataFrame | None:
    if plies > EARLY_PLIES or not _usable(con, gf):
        return None
    where, params = _variant_sql(gf, "c")
    return frame(con, f"""
        SELECT c.variant, c.opening, {_RESULTS},
               round(sum(plies_sum) / nullif(sum(plies_n), 0), 1) AS avg_plies
        FROM opening_counts c WHERE c.plies = ? AND {where}
        GROUP BY c.variant, c.opening
        HAVING sum(games) >= ?
        ORDER BY games DESC, c.variant, c.opening""", [int(plies), *params, int(min_games)])


def _reached_later(con: duckdb.DuckDBPyConnection, positions: list[Bits5]) -> bool | None:
    """Whether a stored position after the first plies is one of ``positions`` (the blocks
    the position index names, their bitboards tested); ``None`` when the index cannot say."""
    blocks = index_blocks(con, positions)
    if blocks is None:
        return None
    if not blocks:
        return False
    return bool(con.execute(
        f"SELECT 1 FROM {bits_source(con)} p WHERE p.ply > {EARLY_PLIES} AND "
        f"{block_condition(blocks, 'p')} AND {bits_match(positions, 'p')} LIMIT 1").fetchall())


def _values(rows: list[tuple[str, Bits5]]) -> str:
    return ", ".join(
        f"('{v.replace(chr(39), chr(39) * 2)}', {'true' if b[0] else 'false'}, "
        f"{bits_literal(b[1])}::HUGEINT, {bits_literal(b[2])}::HUGEINT, "
        f"{bits_literal(b[3])}::HUGEINT, {bits_literal(b[4])}::HUGEINT)" for v, b in rows)


def kept_tree(db: DbLike, starts: list[tuple[str, Bits5]], afters: list[Bits5],
              gf: GameFilter, min_games: int) -> pd.DataFrame | None:
    """The rows of :func:`pdnkit.stats.explorer.tree` (but ``opening``) from ``tree_counts``
    for the start positions ``starts`` (``(variant, bits)``), or ``None`` where the counts
    cannot answer: the counts out of date or the filter not theirs, a start first reached
    at the last ply counted by some game, or a start or a position one move away
    (``afters``: the engine's, with those the counts name) reached later in some game."""
    with reading(db) as con:
        return _kept_tree(con, starts, afters, gf, min_games)


def _kept_tree(con: duckdb.DuckDBPyConnection, starts: list[tuple[str, Bits5]],
               afters: list[Bits5], gf: GameFilter, min_games: int) -> pd.DataFrame | None:
    if not starts or not _usable(con, gf):
        return None
    st = _values(starts)
    where, params = _variant_sql(gf, "c")
    rows = con.execute(f"""
        WITH st(variant, black, wm, wk, bm, bk) AS (VALUES {st})
        SELECT bool_or(c.open), list(DISTINCT [c.a_black::INTEGER, c.a_wm, c.a_wk, c.a_bm,
                                               c.a_bk]) FILTER (WHERE c.a_black IS NOT NULL)
        FROM tree_counts c JOIN st USING (variant, black, wm, wk, bm, bk)
        WHERE {where}""", params).fetchall()[0]
    if rows[0]:
        return None
    named = [(bool(a[0]), int(a[1]), int(a[2]), int(a[3]), int(a[4])) for a in rows[1] or []]
    if _reached_later(con, sorted({b for _, b in starts} | set(afters) | set(named))) \
            is not False:
        return None
    return frame(con, _tree_sql(st, where), [*params, int(min_games), *params])


def _tree_sql(st: str, where: str) -> str:
    """The query of :func:`kept_tree` (``where``'s parameters, ``min_games``, ``where``'s)."""
    return f"""
        WITH st(variant, black, wm, wk, bm, bk) AS (VALUES {st}),
        here AS (SELECT c.* FROM tree_counts c JOIN st USING (variant, black, wm, wk, bm, bk)
                 WHERE c.move IS NOT NULL AND {where}),
        book AS (
            SELECT variant, move, {_RESULTS},
                   round(100.0 * sum(games) / sum(sum(games)) OVER (PARTITION BY variant), 1)
                       AS share,
                   round(sum(plies_sum) / nullif(sum(plies_n), 0), 1) AS avg_plies,
                   arg_max(side, games) AS side,
                   arg_min({{'black': a_black, 'wm': a_wm, 'wk': a_wk, 'bm': a_bm, 'bk': a_bk,
                            'layout': a_layout}}, first_game)
                       FILTER (WHERE a_black IS NOT NULL) AS after
            FROM here GROUP BY variant, move
            HAVING sum(games) >= ?),
        scored AS (
            SELECT book.*,
                   CASE side WHEN 'W' THEN white_wins ELSE black_wins END AS wins,
                   CASE side WHEN 'W' THEN black_wins ELSE white_wins END AS losses
            FROM book),
        reach AS (
            SELECT c.variant, c.black, c.wm, c.wk, c.bm, c.bk, sum(c.games) AS n
            FROM tree_counts c WHERE {where} GROUP BY ALL)
        SELECT s.variant, s.move, s.games, s.share, s.white_wins, s.draws, s.black_wins,
               s.unknown, s.white_score, s.avg_plies, s.side, s.wins, s.losses,
               round(100.0 * (s.wins + 0.5 * s.draws) / nullif(s.wins + s.draws + s.losses, 0),
                     1) AS score,
               greatest(coalesce(r.n, 0) - s.games, 0)::BIGINT AS transpositions,
               CASE WHEN s.after.black THEN 'B' ELSE 'W' END || ':W'
                   || fen_field(l.fen_order, l.names, s.after.wm, s.after.wk) || ':B'
                   || fen_field(l.fen_order, l.names, s.after.bm, s.after.bk) AS fen_after
        FROM scored s
        LEFT JOIN reach r ON r.variant = s.variant AND r.black = s.after.black
             AND r.wm = s.after.wm AND r.wk = s.after.wk AND r.bm = s.after.bm
             AND r.bk = s.after.bk
        LEFT JOIN layouts l ON l.layout = s.after.layout
        ORDER BY s.variant, s.games DESC, s.move"""
