"""Random legal-looking placements for tests: men off their promotion rows, kings anywhere."""

from __future__ import annotations

import random
from typing import Any

from pdnkit.rules import Position


def random_positions(rules: Any, n: int, seed: int) -> list[Position]:
    """``n`` random positions of ``rules``' board (any number of men and kings of each
    colour, either side to move), reproducible from ``seed``."""
    rnd = random.Random(seed)
    geo = rules.geometry
    crown = set(geo.promotion_squares(0)) | set(geo.promotion_squares(1))
    out = []
    for _ in range(n):
        squares = list(range(1, geo.num_squares + 1))
        rnd.shuffle(squares)
        k = rnd.randint(0, len(squares))
        cuts = sorted(rnd.randint(0, k) for _ in range(3))
        wm, wk = squares[:cuts[0]], squares[cuts[0]:cuts[1]]
        bm, bk = squares[cuts[1]:cuts[2]], squares[cuts[2]:k]
        wm = [s for s in wm if s not in crown]
        bm = [s for s in bm if s not in crown]
        out.append(Position.from_squares(rules, rnd.choice("WB"), wm, wk, bm, bk))
    return out


def square_sets_bits(p: Any) -> tuple[int, int, int, int]:
    """Square bitboards straight from a position's square sets (bit n - 1: square n)."""
    return tuple(sum(1 << (n - 1) for n in s)  # type: ignore[return-value]
                 for s in (p.white_men, p.white_kings, p.black_men, p.black_kings))


def stored_key(p: Any) -> int:
    """The ``position_key`` the database derives for a position: the key mix over its square
    bitboards (white pieces, black pieces, kings), built here from the square sets."""
    from pdnkit.rules.position import position_key

    wm, wk, bm, bk = square_sets_bits(p)
    return position_key(wm | wk, bm | bk, wk | bk, str(p.side)[:1].upper() == "B")
