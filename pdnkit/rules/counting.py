"""Perft: count the leaves of the legal-move tree (the standard move-generator proof).

Captures with the same origin, destination and captured set count once (the
``drop_duplicates`` convention). Positions without a legal move before the last ply contribute
0; no draw rule ends the tree. The last ply is bulk-counted (the number of legal moves).

Example:
    >>> from pdnkit.rules import get_rules, Position
    >>> perft(Position.initial(get_rules("international")), 3)
    658
    >>> d = perft(Position.initial(get_rules("english")), 2, divide=True)
    >>> sum(d.values()), len(d)
    (49, 7)
"""

from __future__ import annotations

from pdnkit.errors import ArgumentError
from pdnkit.rules._movegen import Counters, Engine
from pdnkit.rules.position import Move, Position, next_counters

__all__ = ["perft", "perft_line"]


def perft(position: Position, depth: int, divide: bool = False,
          keep_duplicates: bool = False) -> int | dict[Move, int]:
    """Leaf count of the legal-move tree of ``position`` at ``depth`` plies.

    With ``divide=True`` returns ``{move: leaf count below it}`` for every legal move.
    ``keep_duplicates=True`` counts every route of a capture separately (the
    ``keep_duplicates`` convention of published tables; not with ``divide``).

    >>> from pdnkit.rules import get_rules, Position
    >>> perft(Position.initial(get_rules("russian")), 4)
    1469
    """
    if not isinstance(depth, int) or depth < 0:
        raise ArgumentError(f"depth must be a non-negative integer, not {depth!r}")
    if divide:
        if depth == 0:
            return {}
        return {m: perft(position.play(m), depth - 1) for m in position.legal_moves()}  # type: ignore[misc]
    if depth == 0:
        return 1
    own, opp, kings, white = position.mover_bits
    eng, ctr = position.engine, position.counters
    if keep_duplicates:
        return _perft_keep(eng, own, opp, kings, white, ctr, depth)
    if ctr is not None:
        return _perft_ctr(eng, own, opp, kings, white, ctr, depth)
    return _perft(eng, own, opp, kings, white, depth)


def _perft(eng: Engine, own: int, opp: int, kings: int, white: bool, depth: int) -> int:
    if depth == 1:
        return eng.count(own, opp, kings, white, None)
    moves = eng.moves(own, opp, kings, white, None)
    if not moves:
        return 0
    total = 0
    nxt = not white
    d1 = depth - 1
    if d1 == 1:
        count = eng.count
        for o, d, c, ek in moves:
            nk = kings & ~(c | o)
            if ek:
                nk |= d
            total += count(opp & ~c, (own ^ o) | d, nk, nxt, None)
        return total
    for o, d, c, ek in moves:
        nk = kings & ~(c | o)
        if ek:
            nk |= d
        total += _perft(eng, opp & ~c, (own ^ o) | d, nk, nxt, d1)
    return total


def _perft_ctr(eng: Engine, own: int, opp: int, kings: int, white: bool, ctr: Counters,
               depth: int) -> int:
    if depth == 1:
        return eng.count(own, opp, kings, white, ctr)
    total = 0
    for o, d, c, ek in eng.moves(own, opp, kings, white, ctr):
        nk = kings & ~(c | o)
        if ek:
            nk |= d
        nctr = next_counters(ctr, white, o, d, c, bool(kings & o))
        total += _perft_ctr(eng, opp & ~c, (own ^ o) | d, nk, not white, nctr, depth - 1)
    return total


def _perft_keep(eng: Engine, own: int, opp: int, kings: int, white: bool,
                ctr: Counters | None, depth: int) -> int:
    if depth == 1 and not eng.has_capture(own, opp, kings, white):
        return eng.count(own, opp, kings, white, ctr)
    moves = eng.moves(own, opp, kings, white, ctr, all_routes=True)
    if depth == 1:
        return len(moves)
    total = 0
    for mv in moves:
        o, d, c, ek = mv[0], mv[1], mv[2], mv[3]
        nk = kings & ~(c | o)
        if ek:
            nk |= d
        nctr = None if ctr is None else next_counters(ctr, white, o, d, c, bool(kings & o))
        total += _perft_keep(eng, opp & ~c, (own ^ o) | d, nk, not white, nctr, depth - 1)
    return total


def perft_line(depth: int, total: int, elapsed: float) -> str:
    """The speed line of a count, as ``pdnkit perft`` prints it on standard error.

    Example:
        >>> perft_line(3, 8000, 0.004)
        'perft(3) in 0.004 s, 2,000,000 nodes/s'
    """
    rate = total / elapsed if elapsed > 0 else float("inf")
    return f"perft({depth}) in {elapsed:.3f} s, {rate:,.0f} nodes/s"
