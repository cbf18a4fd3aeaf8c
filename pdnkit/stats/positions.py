"""Where a position occurs: a FEN or a move sequence as the square bitboards the database
stores (``position_bits``), found in the games or computed by the rules engine.

Example:
    >>> from pdnkit.store import connect
    >>> "russian" in set(positions_at(connect(":memory:"), moves="c3-d4").variant)
    True
    >>> bits_match([(False, 3, 0, 12, 0)], "p")
    'p.wm = 3::UBIGINT AND p.bm = 12::UBIGINT AND p.wk = 0::UBIGINT AND p.bk = 0::UBIGINT AND NOT p.black'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

from pdnkit.errors import ArgumentError
from pdnkit.rows.bitboards import bits_literal, bits_source
from pdnkit.stats.filters import GameFilter, SqlParam
from pdnkit.store.session import DbLike, reading

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas as pd

__all__ = ["Bits5", "StoredPosition", "bits_match", "positions_at"]

#: a position as the database stores it: (variant, Black to move, (wm, wk, bm, bk))
StoredPosition: TypeAlias = "tuple[str, bool, tuple[int, int, int, int]]"
#: a stored position without its variant: (Black to move, wm, wk, bm, bk)
Bits5: TypeAlias = "tuple[bool, int, int, int, int]"

_MOVE_NUMBER = re.compile(r"^\d+\.+")


def _move_tokens(moves: str | Sequence[str]) -> list[str]:
    """Split a move sequence, dropping move numbers: ``"1. 32-28 19-23"`` -> two moves.

    >>> _move_tokens("1. 32-28 19-23 2.37-32")
    ['32-28', '19-23', '37-32']
    """
    raw = moves.split() if isinstance(moves, str) else list(moves)
    out = []
    for tok in raw:
        tok = _MOVE_NUMBER.sub("", tok.strip())
        if tok and tok not in ("...", "..") and not re.fullmatch(r"\d+\.*", tok):
            out.append(tok.lower())
    return out


def _engine_positions(variants: list[str], fen: str | None, tokens: list[str]
                      ) -> tuple[list[StoredPosition], list[tuple[int, str, str]]]:
    """Positions computed by the rules engine (FEN, or moves from the start), and for
    each variant where that fails ``(how far it got, variant, why)``: ``-1`` for a FEN it
    cannot read, else the number of moves played before the one that is not legal.

    >>> _engine_positions(["international"], None, ["32-28", "99-23"])[1]
    [(1, 'international', "move 2 '99-23' is not legal after 32-28")]
    """
    from pdnkit.rows.bitboards import square_bits
    from pdnkit.rules import Position, format_move, get_rules, match_move, parse_fen

    out: list[StoredPosition] = []
    failed: list[tuple[int, str, str]] = []
    for v in variants:
        try:
            rules = get_rules(v)
        except Exception:  # an unknown variant name in the database
            continue
        try:
            pos = parse_fen(fen, rules) if fen else Position.initial(rules)
        except Exception as exc:
            failed.append((-1, v, f"--fen {fen!r} is not a FEN ({exc})"))
            continue
        for i, tok in enumerate(tokens):
            legal = pos.legal_moves()
            cands = [m for m in legal
                     if tok in (format_move(m, rules).lower(),
                                format_move(m, rules, full_path=True).lower())]
            if not cands:
                try:
                    cands = match_move(pos, tok, legal)
                except Exception:  # text that is no move at all
                    cands = []
            if len(cands) != 1:
                after = f" after {' '.join(tokens[:i])}" if i else " from the start"
                if fen and not i:
                    after = " in the --fen position"
                what = "ambiguous" if cands else "not legal"
                failed.append((i, v, f"move {i + 1} {tok!r} is {what}{after}"))
                break
            pos = pos.play(cands[0])
        else:
            out.append((v, str(pos.side)[:1].upper() == "B", square_bits(pos)))
    return out, failed


def positions_at(
    con: DbLike = None,
    *,
    fen: str | None = None,
    moves: str | Sequence[str] | None = None,
    variant: str | None = None,
) -> pd.DataFrame:
    """Where a position occurs: ``variant``, ``position_key`` and the square bitboards
    (``black``, ``wm``, ``wk``, ``bm``, ``bk``) of the position given by a FEN or by a move
    sequence from the initial position (no argument: the initial position of each
    variant), matched in the database first and with the rules engine when no stored game
    has that exact move order. A FEN no variant in scope can read, or a move that is not
    legal (or ambiguous) there, raises ``ValueError`` naming the move; an unknown variant
    raises :class:`~pdnkit.rules.UnknownVariantError`.

    >>> from pdnkit.store import connect
    >>> "international" in set(positions_at(connect(":memory:"), moves="32-28").variant)
    True
    """
    from pdnkit.rows.bitboards import bits_key
    from pdnkit.stats.common import table_of

    if fen and moves:
        raise ArgumentError("give a FEN or a move sequence, not both")
    variant = GameFilter(variant=variant).variant
    tokens = _move_tokens(moves) if moves else []
    with reading(con) as c:
        found = _found(c, fen, tokens, variant)
    return table_of(
        [(v, bits_key(b, black), black, *b) for v, black, b in sorted(found)],
        ["variant", "position_key", "black", "wm", "wk", "bm", "bk"])


def _found(con: duckdb.DuckDBPyConnection, fen: str | None, tokens: list[str],
           variant: str | None) -> set[StoredPosition]:
    """The stored positions of :func:`positions_at`: in the games first, then by the
    rules engine (raising ``ValueError`` where no variant takes the start)."""
    found: set[StoredPosition] = set()
    if fen:  # the FEN's square bitboards, read on the board of every variant stored
        from pdnkit.rows.bitboards import fen_bits
        from pdnkit.rules import get_rules

        for v in _stored_variants(con, variant):
            try:
                black, bits = fen_bits(fen.strip(), get_rules(v))
            except ValueError:  # not a position of this variant's board
                continue
            if con.execute(
                    f"""SELECT 1 FROM {bits_source(con)} p JOIN games g USING (game_id)
                       WHERE p.wm = ? AND p.wk = ? AND p.bm = ? AND p.bk = ?
                       AND p.black = ? AND g.variant = ? LIMIT 1""",
                    [*bits, black, v]).fetchall():
                found.add((v, black, bits))
    elif tokens:  # the rules engine plays them; the stored games where it cannot
        engine, failed = _engine_positions(_stored_variants(con, variant), None, tokens)
        found.update(engine)
        if failed:
            found.update(_stored_after_moves(con, tokens, variant))
    else:  # each variant's initial position (of every edition its games use)
        found.update(_initial_positions(con, variant))
    if not found and (fen or tokens):
        variants = _stored_variants(con, variant)
        if not variants:  # an empty database: any variant the FEN or moves may belong to
            from pdnkit.rules import list_variants

            variants = sorted({r.name for r in list_variants(editions=False)})
        engine, failed = _engine_positions(variants, fen, tokens)
        if not engine and failed:  # no variant takes this start: say why (the furthest)
            depth = max(f[0] for f in failed)
            worst = [f for f in failed if f[0] == depth]
            names = ", ".join(sorted({f[1] for f in worst}))
            raise ArgumentError(f"{worst[0][2]} (in {names})")
        found.update(engine)
    return found


def _stored_after_moves(con: duckdb.DuckDBPyConnection, tokens: list[str],
                        variant: str | None) -> list[StoredPosition]:
    """The positions stored after ``tokens`` in games that played exactly those moves
    from the initial position (as written or in canonical form)."""
    vwhere, vparams = GameFilter(variant=variant, all_copies=True).sql()
    vals = ", ".join("(?, ?)" for _ in tokens)
    flat: list[SqlParam] = [x for i, t in enumerate(tokens, 1) for x in (i, t)]
    rows = con.execute(
        f"""
        WITH want(ply, tok) AS (VALUES {vals}),
        hit AS (
            SELECT m.game_id FROM moves m JOIN want w ON m.ply = w.ply
            JOIN games g ON g.game_id = m.game_id
            WHERE coalesce(g.start_is_initial, g.fen IS NULL) AND {vwhere}
              AND (lower(m.canonical) = w.tok OR lower(m.notation) = w.tok)
            GROUP BY m.game_id HAVING count(*) = ?
        )
        SELECT DISTINCT g.variant, p.black, p.wm, p.wk, p.bm, p.bk
        FROM hit JOIN games g USING (game_id)
        JOIN {bits_source(con)} p ON p.game_id = hit.game_id AND p.ply = ?
        """,
        flat + vparams + [len(tokens), len(tokens)],
    ).fetchall()
    return _stored(rows)


def _initial_positions(con: duckdb.DuckDBPyConnection,
                       variant: str | None) -> list[StoredPosition]:
    """The initial position of each variant and edition of the games that start from it
    (the rules engine's; the stored starts of a variant it does not know)."""
    from pdnkit.rows.bitboards import square_bits
    from pdnkit.rules import Position, get_rules

    vwhere, vparams = GameFilter(variant=variant, all_copies=True).sql()
    start = "coalesce(g.start_is_initial, g.fen IS NULL)"
    out: list[StoredPosition] = []
    unknown = []
    for v, edition in con.execute(
            f"SELECT DISTINCT variant, edition FROM games g WHERE variant IS NOT NULL "
            f"AND {start} AND {vwhere} ORDER BY ALL", vparams).fetchall():
        try:
            rules = get_rules(v, edition) if edition else get_rules(v)
            pos = Position.initial(rules)
        except Exception:  # a variant the engine does not know: read from the games
            unknown.append(v)
            continue
        out.append((v, str(pos.side)[:1].upper() == "B", square_bits(pos)))
    if unknown:
        marks = ", ".join("?" for _ in unknown)
        out += _stored(con.execute(
            f"""SELECT DISTINCT g.variant, p.black, p.wm, p.wk, p.bm, p.bk
                FROM {bits_source(con)} p JOIN games g USING (game_id)
                WHERE p.ply = 0 AND {start} AND g.variant IN ({marks})""",
            unknown).fetchall())
    return out


def _stored_variants(con: duckdb.DuckDBPyConnection, variant: str | None) -> list[str]:
    """``[variant]``, or every variant of the database's games."""
    if variant:
        return [variant]
    return [r[0] for r in con.execute(
        "SELECT DISTINCT variant FROM games WHERE variant IS NOT NULL ORDER BY 1").fetchall()]


def _stored(rows: list[tuple[str, bool, int, int, int, int]]) -> list[StoredPosition]:
    """``(variant, black, wm, wk, bm, bk)`` rows as stored positions."""
    return [(str(v), bool(black), (int(wm), int(wk), int(bm), int(bk)))
            for v, black, wm, wk, bm, bk in rows]


def bits_match(positions: Sequence[Bits5], a: str, exact: bool = True) -> str:
    """SQL: the position ``a`` (a ``position_bits`` row) is one of ``positions`` (``(black,
    wm, wk, bm, bk)``), written as constants: each bitboard among its values (tests the scan
    applies column by column), then, for several positions, which combinations (not with
    ``exact=False``: a superset, for a scan whose few rows are checked afterwards).

    Example:
        >>> bits_match([(False, 3, 0, 12, 0), (True, 3, 0, 12, 0)], "p", exact=False)
        'p.wm = 3::UBIGINT AND p.bm = 12::UBIGINT AND p.wk = 0::UBIGINT AND p.bk = 0::UBIGINT'
    """
    chosen = sorted(set(positions))
    if not chosen:
        return "FALSE"
    parts = []
    for col, i in (("wm", 1), ("bm", 3), ("wk", 2), ("bk", 4)):
        values = sorted({int(p[i]) for p in chosen})
        if len(values) == 1:
            parts.append(f"{a}.{col} = {bits_literal(values[0])}")
        else:
            parts.append(f"{a}.{col} IN ({', '.join(bits_literal(v) for v in values)})")
    sides = {p[0] for p in chosen}
    if len(sides) == 1:
        parts.append(f"{a}.black" if sides.pop() else f"NOT {a}.black")
    if len(chosen) > 1 and exact:
        parts.append("(" + " OR ".join(
            f"({'' if black else 'NOT '}{a}.black AND {a}.wm = {bits_literal(wm)} AND "
            f"{a}.wk = {bits_literal(wk)} AND {a}.bm = {bits_literal(bm)} AND "
            f"{a}.bk = {bits_literal(bk)})" for black, wm, wk, bm, bk in chosen) + ")")
    return " AND ".join(parts)
